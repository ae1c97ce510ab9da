"""The Challenge's daily screens (issue 20 item 3 and 4, seed 003) at 390×844 in Chromium: start a challenge from the
dashboard on a past Monday (the week before this one, whatever today is), a week of daily logs with one day skipped,
the Monday photo uploaded late (orange "Late Upload"), the weigh-in, a second weigh-in from a page opened before it
("Already logged this week", then the edit), the week's score and its colour, and the app lock with a wrong and then
the right PIN. Dates are the server's today (the profile's zone is UTC) and the days before it, never the clock's hour.
axe-core in light and dark, at 320 px and at 200 % text; screenshots into docs/screenshots/."""
import datetime
import pathlib

from playwright.sync_api import expect

from conftest import NARROW, api, capture, new_user_with_profile, squeezed_words, sticking_out
from test_accessibility import violations
from test_journal_day import make_jpeg

DOCS = pathlib.Path(__file__).resolve().parent.parent / "docs" / "screenshots"


def shot(page, name):
    page.emulate_media(reduced_motion="reduce")
    capture(page, DOCS / f"{name}.png", full_page=True)


def server_today(page, server) -> datetime.date:
    status, home = api(page, server, "GET", "/api/v1/challenge")
    assert status == 200, home
    return datetime.date.fromisoformat(home["today"])


def submit(page, locator):
    with page.expect_navigation():
        locator.click()


def test_a_week_of_the_challenge(server, page):
    page.emulate_media(reduced_motion="reduce")
    new_user_with_profile(page, server)

    # ---- Start from the dashboard: the empty state, then the form on last week's Monday ----
    page.goto(server + "/dashboard")
    submit(page, page.locator("#challenge-entry"))
    expect(page.locator(".ch-empty__title")).to_have_text("No data yet")
    submit(page, page.get_by_role("link", name="Start a Challenge"))
    utc_today = datetime.datetime.now(datetime.timezone.utc).date()
    start = utc_today - datetime.timedelta(days=utc_today.weekday() + 7)
    page.select_option("#ch-start-date", start.isoformat())
    page.fill("#ch-start-goal", "75")
    page.fill("#ch-start-weight", "80")
    submit(page, page.get_by_role("button", name="Start a Challenge"))
    today = server_today(page, server)
    assert start == today - datetime.timedelta(days=today.weekday() + 7), "the test ran across midnight"
    expect(page.locator(".ch-notice").first).to_have_text("Your challenge is set up.")
    expect(page.locator("#ch-home-subtitle")).to_have_text(f"Week 2 of 17 · Day {(today - start).days + 1}")
    shot(page, "challenge-01-home")

    # ---- Week 1's nutrition: six days typed, Wednesday marked as skipped ----
    days = [start + datetime.timedelta(days=i) for i in range(7)]
    for index, day in enumerate(days):
        page.goto(server + f"/challenge/log?date={day.isoformat()}")
        if index == 1:
            # Yesterday's totals ghosted (placeholders, not values).
            expect(page.locator("#ch-kcal")).to_have_attribute("placeholder", "1,800")
            expect(page.locator("#ch-kcal")).to_have_value("")
        if index == 2:
            submit(page, page.locator("#ch-nutrition-skip"))
            expect(page.locator("#ch-log-nutrition-state")).to_have_text("Skipped")
            # Gray, never red: the skipped state is the neutral colour.
            assert page.locator("#ch-log-nutrition-state").evaluate("e => getComputedStyle(e).color") == "rgb(108, 108, 112)"
            continue
        page.fill("#ch-kcal", str(1800 + index * 10))
        page.fill("#ch-protein", "120")
        submit(page, page.locator("#ch-nutrition-save"))
        expect(page.locator(".ch-notice").first).to_have_text("Nutrition saved.")
        expect(page.locator("#ch-log-nutrition-state")).to_have_text("Done")

    # ---- Workouts on three days: the Push template in one tap, Pull for 40 minutes, a planned Rest ----
    page.goto(server + f"/challenge/log?date={days[0].isoformat()}")
    submit(page, page.locator("#ch-use-template"))
    expect(page.locator("#ch-log-workout-state")).to_have_text("Push")
    expect(page.locator("#ch-minutes")).to_have_value("45")
    page.goto(server + f"/challenge/log?date={days[1].isoformat()}")
    page.locator("#ch-workout-type label", has_text="Pull").click()
    expect(page.locator("#ch-use-template")).to_have_text("Use Pull Template")
    page.fill("#ch-minutes", "40")
    submit(page, page.locator("#ch-workout-save"))
    expect(page.locator("#ch-log-workout-state")).to_have_text("Pull")
    page.goto(server + f"/challenge/log?date={days[2].isoformat()}")
    page.locator("#ch-workout-type label", has_text="Rest").click()
    submit(page, page.locator("#ch-workout-save"))
    expect(page.locator("#ch-log-workout-state")).to_have_text("Rest")

    # ---- Habits: all three on two days ----
    for day in days[3:5]:
        page.goto(server + f"/challenge/log?date={day.isoformat()}")
        for habit in ["water", "steps", "sleep"]:
            page.locator(f"#ch-log-habit-{habit}").check()
        submit(page, page.locator("#ch-habits-save"))
        expect(page.locator(".ch-notice").first).to_have_text("Habits saved.")
        for habit in ["water", "steps", "sleep"]:
            expect(page.locator(f"#ch-log-habit-{habit}")).to_be_checked()
    page.goto(server + f"/challenge/log?date={days[1].isoformat()}")
    shot(page, "challenge-02-log")

    # ---- Week 1's Monday photo, uploaded now: late, in orange ----
    second = page.context.new_page()  # a Check-In opened before the weigh-in is saved (another tab)
    second.goto(server + "/challenge/check-in?week=1")
    page.goto(server + "/challenge/check-in?week=1")
    expect(page.locator("#ch-checkin-week")).to_contain_text("Week 1")
    jpeg = make_jpeg(page)
    with page.expect_navigation():
        page.set_input_files("#ch-photo-file", jpeg)
    expect(page.locator(".ch-notice").first).to_have_text("Photo saved.")
    expect(page.locator("#ch-photo-late")).to_have_text("Late Upload")
    assert page.locator("#ch-photo-late").evaluate("e => getComputedStyle(e).color") == "rgb(178, 80, 0)"
    expect(page.locator("#ch-photo-preview img")).to_be_visible()
    assert page.locator("#ch-photo-preview img").evaluate("e => e.naturalWidth") > 0

    # ---- The weigh-in with a waist measurement ----
    page.fill("#ch-weight", "79.4")
    page.locator(".ch-measurements summary").click()
    page.fill("#ch-waist", "90")
    submit(page, page.locator("#ch-checkin-save"))
    expect(page.locator(".ch-notice").first).to_have_text("Check-in saved.")
    expect(page.locator("#ch-weighin-summary")).to_have_text("79.4 kg · Waist 90 cm")
    expect(page.locator("#ch-weighin-state")).to_have_text("Late")
    expect(page.locator("#ch-already-logged")).to_have_text("Already logged this week")

    # ---- A second weigh-in from the page opened before: "Already logged this week", then the edit ----
    second.fill("#ch-weight", "79.0")
    with second.expect_navigation():
        second.locator("#ch-checkin-save").click()
    expect(second.locator("#ch-already-logged")).to_have_text("Already logged this week")
    expect(second.locator("#ch-weight")).to_have_value("79.4")
    expect(second.locator("#ch-checkin-save")).to_have_text("Update Check-In")
    second.fill("#ch-weight", "79.2")
    with second.expect_navigation():
        second.locator("#ch-checkin-save").click()
    expect(second.locator("#ch-weighin-summary")).to_have_text("79.2 kg · Waist 90 cm")
    second.close()
    # The weigh-in is also the day's weight in w-diet's weight log: one entry, edited with it.
    status, weights = api(page, server, "GET", "/api/v1/weights")
    assert status == 200, weights
    entries = weights["entries"] if isinstance(weights, dict) and "entries" in weights else weights
    assert [round(e["kg"], 1) for e in entries if round(e["kg"], 1) in (79.0, 79.2, 79.4)] == [79.2], entries

    # ---- The week's score: nutrition 6/7 × 50 = 42.86, workouts 3/7 × 20 = 8.57, habits 6/21 × 15 = 4.29,
    #      photo 10, weigh-in 5 → 70.71 → 71, yellow (60–79) ----
    page.goto(server + "/challenge/check-in?week=1")
    score = page.locator("#ch-checkin-score")
    expect(score).to_have_attribute("data-score", "71")
    expect(score).to_have_attribute("data-colour", "yellow")
    assert score.locator(".ch-score__value").evaluate("e => getComputedStyle(e).color") == "rgb(138, 90, 0)"
    expect(score.locator(".ch-score__word")).to_have_text("Getting there")
    shot(page, "challenge-03-check-in")

    # ---- App lock: a PIN, then away longer than the minute chosen ----
    page.goto(server + "/challenge/settings")
    page.fill("#ch-new-pin", "2468")
    page.fill("#ch-confirm-pin", "2468")
    page.select_option("#ch-lock-after", "1")
    submit(page, page.locator("#ch-set-pin"))
    expect(page.locator(".ch-notice").first).to_have_text("App lock is on.")
    expect(page.locator("#ch-lock-status")).to_have_text("App Lock: On")
    shot(page, "challenge-04-settings")
    # Two minutes away in this browser (the timer is the page's clock, so the test moves the last visit back).
    page.goto(server + "/dashboard")  # away from the Challenge (leaving a Challenge page counts as its last visit)
    page.evaluate("localStorage.setItem('wdiet.challenge.lastSeen', String(Date.now() - 2 * 60000))")
    page.goto(server + "/challenge")
    page.wait_for_url("**/challenge/lock?next=%2Fchallenge")
    expect(page.locator("h1")).to_have_text("Challenge locked")
    page.fill("#ch-lock-pin", "1357")
    page.locator("#ch-lock-form button").click()
    expect(page.locator("#ch-lock-error")).to_have_text(
        "That PIN is not right. 4 attempts left before you need to sign in again.")
    shot(page, "challenge-05-lock")
    page.fill("#ch-lock-pin", "2468")
    with page.expect_navigation():
        page.locator("#ch-lock-form button").click()
    assert page.url == server + "/challenge"
    expect(page.locator("#ch-home-subtitle")).to_contain_text("Week 2 of 17")
    # The wrong PIN's 422 is the one failed request the browser reports.
    assert [e for e in page.console_errors if "422" not in e] == [], page.console_errors


def test_five_wrong_pins_need_a_full_sign_in(server, page):
    new_user_with_profile(page, server)
    today = datetime.datetime.now(datetime.timezone.utc).date()
    monday = today - datetime.timedelta(days=today.weekday())
    status, body = api(page, server, "POST", "/api/v1/challenge", {"goalWeight": 75, "startDate": monday.isoformat()})
    assert status == 201, body
    assert api(page, server, "PUT", "/api/v1/challenge/app-lock", {"pin": "2468"})[0] == 204
    assert api(page, server, "PUT", "/api/v1/challenge/settings", {"appLock": True, "lockAfterMinutes": 5})[0] == 200
    page.goto(server + "/challenge/lock?next=/challenge/log")
    for left in [4, 3, 2, 1]:
        page.fill("#ch-lock-pin", "0000")
        page.locator("#ch-lock-form button").click()
        expect(page.locator("#ch-lock-error")).to_contain_text(f"{left} attempt")
    page.fill("#ch-lock-pin", "0000")
    with page.expect_navigation():
        page.locator("#ch-lock-form button").click()
    page.wait_for_url("**/login")
    # The session is over: a Challenge page sends the person to the welcome screen.
    page.goto(server + "/challenge")
    assert "/challenge" not in page.url


def test_lock_page_without_script(server, browser):
    """With JavaScript off the PIN page still unlocks: its form posts (the PIN never in the address), a wrong PIN
    shows the attempts left, the right one opens the page asked for; Settings says the lock cannot lock here."""
    scripted = browser.new_context(viewport=NARROW)
    helper = scripted.new_page()
    new_user_with_profile(helper, server)
    today = datetime.datetime.now(datetime.timezone.utc).date()
    monday = today - datetime.timedelta(days=today.weekday())
    assert api(helper, server, "POST", "/api/v1/challenge", {"goalWeight": 75, "startDate": monday.isoformat()})[0] == 201
    assert api(helper, server, "PUT", "/api/v1/challenge/app-lock", {"pin": "2468"})[0] == 204
    assert api(helper, server, "PUT", "/api/v1/challenge/settings", {"appLock": True})[0] == 200
    context = browser.new_context(viewport=NARROW, java_script_enabled=False)
    context.add_cookies(scripted.cookies())
    page = context.new_page()
    page.goto(server + "/challenge/settings")
    expect(page.locator("#ch-lock-noscript")).to_have_text(
        "Without JavaScript this browser cannot tell how long you were away, so the app lock does not lock here.")
    page.goto(server + "/challenge/lock?next=/challenge/log")
    page.fill("#ch-lock-pin", "1357")
    with page.expect_navigation():
        page.locator("#ch-lock-form button").click()
    assert "1357" not in page.url
    expect(page.locator("#ch-lock-error")).to_have_text(
        "That PIN is not right. 4 attempts left before you need to sign in again.")
    page.fill("#ch-lock-pin", "2468")
    with page.expect_navigation():
        page.locator("#ch-lock-form button").click()
    assert page.url == server + "/challenge/log"
    context.close()
    scripted.close()


def test_challenge_pages_pass_axe(server, browser):
    context = browser.new_context(viewport=NARROW, bypass_csp=True)
    page = context.new_page()
    new_user_with_profile(page, server)
    failures = []
    page.goto(server + "/challenge")
    found = violations(page)
    if found:
        failures.append(("empty", found))
    today = datetime.datetime.now(datetime.timezone.utc).date()
    start = today - datetime.timedelta(days=today.weekday() + 7)
    assert api(page, server, "POST", "/api/v1/challenge", {"goalWeight": 75, "startDate": start.isoformat()})[0] == 201
    assert api(page, server, "PUT", f"/api/v1/challenge/days/{start.isoformat()}/nutrition", {"status": "skipped"})[0] == 200
    assert api(page, server, "POST", "/api/v1/challenge/weeks/1/weigh-in", {"weight": 79.4})[0] == 201
    paths = ["/challenge", "/challenge/log", f"/challenge/log?date={start.isoformat()}", "/challenge/check-in?week=1",
             "/challenge/check-in", "/challenge/settings", "/challenge/start", "/challenge/lock"]
    for scheme in ["light", "dark"]:
        page.emulate_media(color_scheme=scheme, reduced_motion="reduce")
        for path in paths:
            page.goto(server + path)
            page.wait_for_load_state("networkidle")
            for text in ["100%", "200%"]:  # the same page, the style added after the load either way
                if text != "100%":
                    page.add_style_tag(content=f"html {{ font-size: {text} !important; }}")
                background = page.evaluate("getComputedStyle(document.body).backgroundColor")
                assert background == ("rgb(0, 0, 0)" if scheme == "dark" else "rgb(255, 255, 255)"), (scheme, path, background)
                found = violations(page)
                if found:
                    failures.append((scheme, text, path, found))
                if page.evaluate("document.documentElement.scrollWidth") > NARROW["width"]:
                    failures.append((scheme, text, path, "scrolls sideways"))
                if scheme == "light" and (out := sticking_out(page)):
                    failures.append((scheme, text, path, "sticks out", out))
                if scheme == "light" and (squeezed := squeezed_words(page)):
                    failures.append((scheme, text, path, "words cut", squeezed))
    if not failures:
        page.emulate_media(color_scheme="dark", reduced_motion="reduce")
        page.goto(server + "/challenge")
        capture(page, DOCS / "challenge-06-home-dark-320.png", full_page=True)
    context.close()
    assert failures == []
