"""Onboarding in a real browser: the welcome screen, the account step and the profile steps of 000 Step 12."""
import re

from playwright.sync_api import expect

from conftest import api, screenshot, start_guest



def watch_failures(page):
    """Records every answer >= 400, so a test can tell a missing page of another area from a real error."""
    failures = []
    # Screenshots of settled screens: the step transition is skipped under reduced motion.
    page.emulate_media(reduced_motion="reduce")
    page.on("response", lambda response: failures.append(response.url) if response.status >= 400 else None)
    return failures


def assert_clean_console(page, failures, expected_failures=()):
    """No console errors and no failed requests, besides the failures a test expects (whose loads Chromium logs)."""
    unexpected = [url for url in failures if not any(url.split("?")[0].endswith(path) for path in expected_failures)]
    assert unexpected == []
    errors = [e for e in page.console_errors if not (expected_failures and e.startswith("Failed to load resource"))]
    assert errors == []


def count(page):
    return page.locator("#wizard-count").inner_text()


def expect_count(page, text):
    # Back walks the browser's history, which answers asynchronously: wait for the step to show.
    expect(page.locator("#wizard-count")).to_have_text(text)


def heading(page):
    return page.locator("section.step:not([hidden]) h1").inner_text()


def unit(page, name, value):
    """The visible half of a unit switch (the radio itself is hidden behind its label)."""
    return page.locator(f'input[name="{name}"][value="{value}"] + span')


def next_step(page):
    page.locator("#wizard-next").click()


def test_onboarding_journey_to_the_dashboard(server, page):
    failures = watch_failures(page)
    page.goto(server + "/")
    page.get_by_role("link", name="Get Started").click()
    page.wait_for_url("**/onboarding")
    assert page.get_by_role("link", name="I already have an account").get_attribute("href") == "/login"
    screenshot(page, "02-onboarding-account")
    page.get_by_role("button", name="Continue without an account").click()
    page.wait_for_url("**/onboarding/profile*")

    # Step 2: gender. Next is blocked until one is chosen, with 001's words.
    expect_count(page, "2 of 8")
    assert page.locator("#wizard-progress").get_attribute("value") == "2"
    assert heading(page) == "Select Your Gender"
    next_step(page)
    assert page.get_by_text("Please select your gender").is_visible()
    expect_count(page, "2 of 8")
    screenshot(page, "02-onboarding-gender-blocked")
    page.get_by_text("Female", exact=True).click()
    assert not page.get_by_text("Please select your gender").is_visible()
    screenshot(page, "02-onboarding-gender")
    next_step(page)

    # Step 3: age, kept as the date of birth.
    expect_count(page, "3 of 8")
    assert heading(page) == "What's your age?"
    next_step(page)
    assert page.get_by_text("Please enter a valid date of birth").is_visible()
    page.get_by_label("Date of birth").fill("2020-01-01")
    next_step(page)
    assert page.get_by_text("You must be at least 13 years old to use w-diet").is_visible()
    page.get_by_label("Date of birth").fill("1990-04-20")
    assert re.match(r"You're \d+\.", page.locator("#age-hint").inner_text())
    screenshot(page, "02-onboarding-age")
    next_step(page)

    # Step 4: height, with the validator's range messages.
    expect_count(page, "4 of 8")
    assert heading(page) == "What's your height?"
    page.get_by_label("Height in centimetres").fill("40")
    next_step(page)
    assert page.get_by_text("Height must be at least 50 cm (1'8\")").is_visible()
    page.get_by_label("Height in centimetres").fill("165")
    screenshot(page, "02-onboarding-height")
    next_step(page)

    # Step 5: weight, the picker starting at Female's 70 kg.
    expect_count(page, "5 of 8")
    assert heading(page) == "What's your current weight?"
    assert page.locator("#weight-value").inner_text() == "70.0 kg"
    page.locator("#weight-whole").select_option("68")
    page.locator("#weight-decimal").select_option("5")
    assert page.locator("#weight-value").inner_text() == "68.5 kg"
    screenshot(page, "02-onboarding-weight")

    # Back keeps what was entered, and Next comes back to it.
    page.get_by_role("button", name="Back").click()
    expect_count(page, "4 of 8")
    assert page.get_by_label("Height in centimetres").input_value() == "165"
    page.get_by_role("button", name="Back").click()
    expect_count(page, "3 of 8")
    assert page.get_by_label("Date of birth").input_value() == "1990-04-20"
    next_step(page)
    expect_count(page, "4 of 8")
    next_step(page)
    expect_count(page, "5 of 8")
    assert page.locator("#weight-value").inner_text() == "68.5 kg"
    next_step(page)

    # Step 6: activity.
    expect_count(page, "6 of 8")
    assert heading(page) == "How active are you?"
    next_step(page)
    assert page.get_by_text("Please select your activity level").is_visible()
    page.get_by_text("Light", exact=True).click()
    screenshot(page, "02-onboarding-activity")
    next_step(page)

    # Step 7: goal.
    expect_count(page, "7 of 8")
    assert heading(page) == "What's your goal?"
    page.get_by_text("Lose Weight").click()
    expect_count(page, "7 of 8")
    screenshot(page, "02-onboarding-goal")
    next_step(page)

    # Step 8: the eating window, 12pm - 6pm highlighted as the default; the coach's tip opens from ℹ️.
    expect_count(page, "8 of 8")
    assert heading(page) == "When do you eat?"
    assert page.locator("#window-range").inner_text() == "12pm - 6pm"
    assert page.locator("#window-default").is_visible()
    assert page.locator('[data-tip="eating-window"]').count() == 1
    assert page.get_by_role("button", name="About the eating window").is_visible()
    slider = page.get_by_label("Window start")
    slider.focus()
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert page.locator("#window-range").inner_text() == "11am - 5pm"
    assert not page.locator("#window-default").is_visible()
    # Three moments start chosen and move with the window; fewer than two blocks Finish.
    pressed = page.locator('.moment[aria-pressed="true"]')
    assert [pressed.nth(i).inner_text() for i in range(pressed.count())] == ["11am", "2pm", "4:30pm"]
    page.get_by_role("button", name="2pm", exact=True).click()
    page.get_by_role("button", name="4:30pm", exact=True).click()
    assert page.locator("#wizard-next").inner_text() == "Finish"
    next_step(page)
    assert page.get_by_text("Please add at least 2 eating moments").is_visible()
    page.get_by_role("button", name="1pm", exact=True).click()
    page.get_by_role("button", name="4pm", exact=True).click()
    assert page.locator("#moments-count").inner_text() == "3 eating moments: 11am, 1pm, 4pm"
    screenshot(page, "02-onboarding-window")
    next_step(page)

    page.wait_for_url("**/dashboard")
    status, profile = api(page, server, "GET", "/api/v1/profile")
    assert status == 200
    browser_zone = page.evaluate("Intl.DateTimeFormat().resolvedOptions().timeZone")
    assert profile["sex"] == "female"
    assert profile["dateOfBirth"] == "1990-04-20"
    assert profile["heightCm"] == 165
    assert profile["weightKg"] == 68.5
    assert profile["activity"] == "light"
    assert profile["goal"] == "lose"
    assert profile["eatingWindowStart"] == "11:00"
    assert profile["eatingWindowEnd"] == "17:00"
    assert profile["mealsPerDay"] == 3
    assert profile["weightUnit"] == "kg" and profile["heightUnit"] == "cm"
    assert profile["timeZone"] == browser_zone
    # With a profile, the steps are done: opening them again goes to the dashboard.
    page.goto(server + "/onboarding/profile")
    assert page.url.endswith("/dashboard")
    assert_clean_console(page, failures)


def test_maintain_has_seven_honest_steps_and_imperial_units(server, page):
    failures = watch_failures(page)
    start_guest(page, server)
    page.wait_for_url("**/onboarding/profile*")
    page.get_by_text("Male", exact=True).click()
    next_step(page)
    page.get_by_label("Date of birth").fill("1985-02-01")
    next_step(page)
    # Height in feet and inches; switching converts what was typed.
    unit(page, "heightUnit", "ftIn").click()
    page.get_by_label("Feet").fill("5")
    page.get_by_label("Inches").fill("11")
    unit(page, "heightUnit", "cm").click()
    assert page.get_by_label("Height in centimetres").input_value() == "180"
    unit(page, "heightUnit", "ftIn").click()
    assert page.get_by_label("Feet").input_value() == "5" and page.get_by_label("Inches").input_value() == "11"
    next_step(page)
    # Male starts at 90 kg; in pounds that is 198.4 lb.
    assert page.locator("#weight-value").inner_text() == "90.0 kg"
    unit(page, "weightUnit", "lb").click()
    assert page.locator("#weight-value").inner_text() == "198.4 lb"
    next_step(page)
    page.get_by_text("Sedentary").click()
    next_step(page)
    page.get_by_text("Maintain Weight").click()
    # Without the eating-window step the count says so: 7 of 7, and this is the last step.
    expect_count(page, "7 of 7")
    assert page.locator("#wizard-progress").get_attribute("max") == "7"
    assert page.locator("#wizard-next").inner_text() == "Finish"
    next_step(page)
    page.wait_for_url("**/dashboard")
    status, profile = api(page, server, "GET", "/api/v1/profile")
    assert status == 200
    assert profile["goal"] == "maintain"
    assert profile["weightUnit"] == "lb" and profile["heightUnit"] == "ftIn"
    assert abs(profile["heightCm"] - 180.3) < 0.05
    assert abs(profile["weightKg"] - 90.0) < 0.05
    assert profile["eatingWindowStart"] == "12:00"
    assert_clean_console(page, failures)


def test_a_reload_keeps_the_answers(server, page):
    failures = watch_failures(page)
    start_guest(page, server)
    page.wait_for_url("**/onboarding/profile*")
    page.get_by_text("Other", exact=True).click()
    next_step(page)
    page.get_by_label("Date of birth").fill("2000-12-31")
    next_step(page)
    page.reload()
    expect_count(page, "4 of 8")
    page.get_by_role("button", name="Back").click()
    expect_count(page, "3 of 8")
    assert page.get_by_label("Date of birth").input_value() == "2000-12-31"
    page.get_by_role("button", name="Back").click()
    expect_count(page, "2 of 8")
    assert page.locator('input[name="sex"][value="other"]').is_checked()
    # Back from step 2 reaches step 1, the welcome, whose Get Started leads on again.
    page.get_by_role("button", name="Back").click()
    expect_count(page, "1 of 8")
    assert heading(page) == "Meet Your Fire Coach 🔥"
    screenshot(page, "02-onboarding-welcome")
    page.locator("#wizard-next").click()
    expect_count(page, "2 of 8")
    assert_clean_console(page, failures)


def test_sign_up_with_email_then_the_steps(server, page):
    failures = watch_failures(page)
    page.goto(server + "/onboarding")
    page.get_by_label("Email").fill("new-user@example.com")
    page.get_by_label("Password").fill("x")
    page.get_by_role("button", name="Create Account").click()
    assert page.locator(".field--invalid").count() >= 1
    page.get_by_label("Password").fill("correct horse battery")
    page.get_by_role("button", name="Create Account").click()
    page.wait_for_url("**/onboarding/profile*")
    expect_count(page, "2 of 8")
    status, me = api(page, server, "GET", "/api/v1/auth/me")
    assert status == 200 and me["email"] == "new-user@example.com"
    # The 422 of the first try is the only failure.
    assert_clean_console(page, failures, expected_failures=["/onboarding/account"])


def german_catalog(name):
    import json
    import pathlib
    path = pathlib.Path(__file__).resolve().parent.parent / "Sources/WDietCore/Resources/strings/de" / f"{name}.json"
    return json.loads(path.read_text(encoding="utf-8"))


def no_sideways_scroll(page):
    width = page.evaluate("document.scrollingElement.scrollWidth")
    assert width <= 320, f"the page is {width} px wide at 320 px"


def test_onboarding_in_german_at_320_px(server, browser):
    """A German browser (Accept-Language: de) on a small phone: every step in German, 24-hour times, a decimal
    comma in the weight picker, nothing wider than the screen."""
    context = browser.new_context(locale="de-DE", viewport={"width": 320, "height": 720}, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    errors = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.emulate_media(reduced_motion="reduce")
    profile = german_catalog("profile")

    page.goto(server + "/")
    assert page.locator("html").get_attribute("lang") == "de"
    assert page.get_by_role("heading", level=1).inner_text() == "Lerne deinen Feuer-Coach kennen 🔥"
    no_sideways_scroll(page)
    screenshot(page, "de-01-welcome")
    page.get_by_role("link", name="Los geht’s").click()
    page.wait_for_url("**/onboarding")
    no_sideways_scroll(page)
    screenshot(page, "de-02-onboarding-account")
    page.get_by_role("button", name="Ohne Konto weiter").click()
    page.wait_for_url("**/onboarding/profile*")

    expect(page.locator("#wizard-count")).to_have_text("2 von 8")
    assert heading(page) == "Wähle dein Geschlecht"
    next_step(page)
    assert page.get_by_text(profile["genderMissing"]).is_visible()
    no_sideways_scroll(page)
    screenshot(page, "de-02-onboarding-gender")
    page.get_by_text("Weiblich", exact=True).click()
    next_step(page)

    expect(page.locator("#wizard-count")).to_have_text("3 von 8")
    page.get_by_label("Geburtsdatum").fill("1990-04-20")
    assert re.match(r"Du bist \d+\.", page.locator("#age-hint").inner_text())
    next_step(page)

    expect(page.locator("#wizard-count")).to_have_text("4 von 8")
    page.get_by_label("Größe in Zentimetern").fill("165")
    no_sideways_scroll(page)
    next_step(page)

    expect(page.locator("#wizard-count")).to_have_text("5 von 8")
    assert page.locator("#weight-value").inner_text() == "70,0 kg"
    assert page.locator("#weight-decimal option:checked").inner_text() == ",0"
    page.locator("#weight-decimal").select_option("5")
    assert page.locator("#weight-value").inner_text() == "70,5 kg"
    no_sideways_scroll(page)
    screenshot(page, "de-02-onboarding-weight")
    next_step(page)

    expect(page.locator("#wizard-count")).to_have_text("6 von 8")
    page.get_by_text("Leicht aktiv", exact=True).click()
    no_sideways_scroll(page)
    screenshot(page, "de-02-onboarding-activity")
    next_step(page)

    expect(page.locator("#wizard-count")).to_have_text("7 von 8")
    page.get_by_text("Abnehmen", exact=True).click()
    no_sideways_scroll(page)
    screenshot(page, "de-02-onboarding-goal")
    next_step(page)

    expect(page.locator("#wizard-count")).to_have_text("8 von 8")
    assert heading(page) == "Wann isst du?"
    assert page.locator("#window-range").inner_text() == "12:00–18:00 Uhr"
    slider = page.get_by_label("Beginn des Fensters")
    slider.focus()
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    assert page.locator("#window-range").inner_text() == "11:00–17:00 Uhr"
    assert slider.get_attribute("aria-valuetext") == "11:00 bis 17:00 Uhr"
    pressed = page.locator('.moment[aria-pressed="true"]')
    assert [pressed.nth(i).inner_text() for i in range(pressed.count())] == ["11:00", "14:00", "16:30"]
    assert page.locator("#moments-count").inner_text() == "3 Essenszeiten: 11:00, 14:00, 16:30"
    assert page.locator("#wizard-next").inner_text() == "Fertig"
    no_sideways_scroll(page)
    screenshot(page, "de-02-onboarding-window")
    page.get_by_role("button", name="14:00", exact=True).click()
    page.get_by_role("button", name="16:30", exact=True).click()
    assert page.locator("#moments-count").inner_text() == "1 Essenszeit: 11:00"
    next_step(page)
    assert page.get_by_text("Bitte füge mindestens 2 Essenszeiten hinzu").is_visible()
    page.get_by_role("button", name="13:00", exact=True).click()
    next_step(page)
    page.wait_for_url("**/dashboard")
    status, saved = api(page, server, "GET", "/api/v1/profile")
    assert status == 200
    assert saved["eatingWindowStart"] == "11:00" and saved["mealsPerDay"] == 2
    assert abs(saved["weightKg"] - 70.5) < 0.05
    assert errors == []
    context.close()


def test_sign_in_page_in_german_at_320_px(server, browser):
    context = browser.new_context(locale="de-DE", viewport={"width": 320, "height": 720}, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.goto(server + "/login")
    assert page.get_by_role("heading", level=1).inner_text() == "Willkommen zurück"
    page.get_by_label("E-Mail").fill("niemand@example.com")
    page.get_by_label("Passwort").fill("falsches pferd")
    page.get_by_role("button", name="Anmelden").click()
    expect(page.locator("#login-error")).to_have_text("E-Mail-Adresse oder Passwort ist falsch")
    no_sideways_scroll(page)
    screenshot(page, "de-03-login")
    context.close()
