"""Settings, sign in and sign out in a real browser."""
from conftest import api, new_user_with_profile, screenshot
from test_onboarding import assert_clean_console, watch_failures


def unit(page, name, value):
    return page.locator(f'input[name="{name}"][value="{value}"] + span')


def test_settings_change_units_and_eating_window(server, page):
    failures = watch_failures(page)
    new_user_with_profile(page, server, timeZone="Europe/Berlin")
    page.goto(server + "/settings")
    assert page.get_by_role("heading", level=1).inner_text() == "Settings"
    assert page.locator('.tabbar a[href="/settings"]').get_attribute("aria-current") == "page"
    assert page.locator("#time-zone").input_value() == "Europe/Berlin"
    assert page.locator("#eating-window-start").input_value() == "12:00"
    assert page.locator("#window-range").inner_text() == "12pm - 6pm"
    assert page.get_by_text("apply right away and leave your calorie targets as they are").is_visible()
    save = page.get_by_role("button", name="Save Changes")
    assert save.is_disabled()
    screenshot(page, "08-settings")

    unit(page, "weightUnit", "lb").click()
    unit(page, "heightUnit", "ftIn").click()
    page.locator("#eating-window-start").select_option("10:30")
    assert page.locator("#window-range").inner_text() == "10:30am - 4:30pm"
    page.locator("#time-zone").select_option("America/New_York")
    assert save.is_enabled()
    save.click()
    page.get_by_text("Settings saved").wait_for()
    assert save.is_disabled()

    status, profile = api(page, server, "GET", "/api/v1/profile")
    assert status == 200
    assert profile["weightUnit"] == "lb" and profile["heightUnit"] == "ftIn"
    assert profile["eatingWindowStart"] == "10:30" and profile["eatingWindowEnd"] == "16:30"
    assert profile["timeZone"] == "America/New_York"
    # Nothing else of the profile moved.
    assert profile["weightKg"] == 80 and profile["heightCm"] == 180 and profile["goal"] == "lose"

    page.reload()
    assert page.locator('input[name="weightUnit"][value="lb"]').is_checked()
    assert page.locator("#eating-window-start").input_value() == "10:30"
    assert page.locator("#time-zone").input_value() == "America/New_York"
    # A second save right after the first works against the new version.
    page.locator("#eating-window-start").select_option("11:00")
    save.click()
    page.get_by_text("Settings saved").first.wait_for()
    assert api(page, server, "GET", "/api/v1/profile")[1]["eatingWindowStart"] == "11:00"
    assert_clean_console(page, failures)


def test_dashboard_pencil_lands_on_the_eating_window(server, page):
    failures = watch_failures(page)
    new_user_with_profile(page, server)
    page.goto(server + "/settings#eating-window")
    page.wait_for_function("document.activeElement && document.activeElement.id === 'eating-window-start'", timeout=3000)
    assert page.locator("#eating-window").is_visible()
    assert_clean_console(page, failures)


def test_a_change_made_elsewhere_is_not_overwritten(server, page):
    failures = watch_failures(page)
    new_user_with_profile(page, server)
    page.goto(server + "/settings")
    # Another device changes the profile after this page opened.
    status, _ = api(page, server, "PUT", "/api/v1/profile", {
        "dateOfBirth": "1995-06-15", "sex": "male", "heightCm": 180, "weightKg": 80, "goal": "lose",
        "activity": "moderate", "timeZone": "UTC", "eatingWindowStart": "09:00",
    })
    assert status == 200
    page.locator("#eating-window-start").select_option("14:00")
    page.get_by_role("button", name="Save Changes").click()
    dialog = page.locator("#conflict-dialog")
    dialog.wait_for(state="visible")
    assert "changed on another device" in dialog.inner_text()
    assert api(page, server, "GET", "/api/v1/profile")[1]["eatingWindowStart"] == "09:00"
    with page.expect_navigation():
        dialog.get_by_role("button", name="Reload").click()
    assert page.locator("#eating-window-start").input_value() == "09:00"
    # The 409 is the one failure, and it was handled.
    assert_clean_console(page, failures, expected_failures=["/api/v1/profile"])


def test_guest_adds_email_and_password_then_logs_out_and_in(server, page):
    failures = watch_failures(page)
    new_user_with_profile(page, server)
    status, _ = api(page, server, "POST", "/api/v1/weights", {"kg": 79.4})
    assert status == 201
    page.goto(server + "/settings")

    # A guest who logs out could never come back: the app asks first.
    page.get_by_role("button", name="Log Out").click()
    guest_dialog = page.locator("#guest-logout-dialog")
    guest_dialog.wait_for(state="visible")
    guest_dialog.get_by_role("button", name="Keep Me Signed In").click()
    assert page.url.endswith("/settings")

    page.get_by_label("Email").fill("settings-user@example.com")
    page.get_by_label("Password").fill("correct horse battery")
    # The page is already at /settings: wait for the form's own navigation, not for a URL it has before the click.
    with page.expect_navigation(url="**/settings*"):
        page.get_by_role("button", name="Add email and password").click()
    assert page.get_by_text("Account created. Your progress is saved.").is_visible()
    assert page.locator("#account-email").inner_text() == "settings-user@example.com"
    screenshot(page, "08-settings-account")

    # Log out: the session ends and the welcome screen is back.
    page.get_by_role("button", name="Log Out").click()
    page.wait_for_url(server + "/")
    assert page.get_by_role("heading", level=1).inner_text() == "Meet Your Fire Coach 🔥"
    assert not any(c["name"] == "wdiet_session" for c in page.context.cookies())
    page.goto(server + "/settings")
    assert page.url == server + "/"

    # Sign in: a wrong password gets the one message for every wrong pair.
    page.goto(server + "/onboarding")
    page.get_by_role("link", name="I already have an account").click()
    page.wait_for_url("**/login")
    page.get_by_label("Email").fill("settings-user@example.com")
    page.get_by_label("Password").fill("not the password")
    page.get_by_role("button", name="Sign In").click()
    assert page.get_by_text("Email or password is incorrect").is_visible()
    assert page.get_by_label("Email").input_value() == "settings-user@example.com"
    screenshot(page, "03-login-error")
    page.get_by_label("Password").fill("correct horse battery")
    page.get_by_role("button", name="Sign In").click()
    page.wait_for_url("**/dashboard")
    # The same user, with the weight logged as a guest.
    status, weights = api(page, server, "GET", "/api/v1/weights")
    assert status == 200 and "79.4" in str(weights)
    assert_clean_console(page, failures, expected_failures=["/login"])


def test_choose_deutsch_then_back_to_automatic(server, page):
    """The account's language wins over the browser's (English here); Automatic hands it back to the browser."""
    failures = watch_failures(page)
    new_user_with_profile(page, server)
    page.goto(server + "/settings")
    assert page.locator("html").get_attribute("lang") == "en"
    assert page.locator('input[name="language"][value=""]').is_checked()
    assert page.locator('#language span[lang="de"]').inner_text() == "Deutsch"

    page.locator("#language").get_by_text("Deutsch", exact=True).click()
    page.get_by_role("button", name="Save Language").click()
    page.get_by_text("Sprache gespeichert").wait_for()
    assert page.url == server + "/settings#language"
    assert page.locator("html").get_attribute("lang") == "de"
    assert page.get_by_role("heading", level=1).inner_text() == "Einstellungen"
    assert page.locator('input[name="language"][value="de"]').is_checked()
    assert page.locator("#window-range").inner_text().startswith("12:00–18:00")
    screenshot(page, "08-settings-de")

    # The page's script speaks German too.
    unit(page, "weightUnit", "lb").click()
    page.get_by_role("button", name="Änderungen speichern").click()
    page.get_by_text("Einstellungen gespeichert").wait_for()

    # And so does every other page, on this device and through the API.
    page.goto(server + "/")
    assert page.locator("html").get_attribute("lang") == "de"
    assert page.get_by_role("link", name="Zum Inhalt springen").count() == 1
    assert api(page, server, "GET", "/api/v1/settings/language") == (200, {"language": "de"})

    page.goto(server + "/settings#language")
    page.locator("#language").get_by_text("Automatisch (Browser)").click()
    page.get_by_role("button", name="Sprache speichern").click()
    page.get_by_text("Language saved").wait_for()
    assert page.locator("html").get_attribute("lang") == "en"
    assert page.get_by_role("heading", level=1).inner_text() == "Settings"
    assert page.locator('input[name="language"][value=""]').is_checked()
    assert api(page, server, "GET", "/api/v1/settings/language") == (200, {"language": None})
    assert_clean_console(page, failures)
