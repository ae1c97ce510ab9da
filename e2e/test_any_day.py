"""Issue 17 "any day": the dashboard and the day's meals for a past day (arrows, the date picker, swipes, "Today"),
that day's totals against that day's targets, its meals edited (time included) and deleted with Undo, weights
logged on a past day, edited and deleted with Undo, and the 400 page for a day that cannot be shown."""
import datetime

from playwright.sync_api import expect

from conftest import NARROW, api, new_user_with_profile, screenshot

UTC = datetime.timezone.utc


def today():
    return datetime.datetime.now(UTC).date()


def day(offset: int) -> datetime.date:
    return today() + datetime.timedelta(days=offset)


def short(d: datetime.date) -> str:
    """"Mon 23 Nov": how the page names a day further back than yesterday."""
    return f"{d:%a} {d.day} {d:%b}"


def at(d: datetime.date, hhmm: str) -> str:
    return f"{d.isoformat()}T{hhmm}:00Z"


def log_meal(page, server, **meal):
    status, body = api(page, server, "POST", "/api/v1/meals", meal)
    assert status == 201, body
    return body


def test_navigate_back_and_forward(server, page):
    new_user_with_profile(page, server)
    page.goto(server + "/dashboard")
    nav = page.get_by_role("navigation", name="Day")
    expect(nav.locator(".day-nav__label")).to_contain_text("Today")
    # Today: no day after it, no "Today" link.
    expect(page.get_by_role("link", name="Next day")).to_have_count(0)
    expect(page.get_by_role("link", name="Back to today")).to_have_count(0)
    picker = page.get_by_label("Choose a day")
    expect(picker).to_have_attribute("max", today().isoformat())
    expect(picker).to_have_attribute("min", day(-365).isoformat())

    page.get_by_role("link", name="Previous day").click()
    page.wait_for_url(f"{server}/dashboard?date={day(-1).isoformat()}")
    expect(nav.locator(".day-nav__label")).to_contain_text("Yesterday")
    expect(page.get_by_role("heading", name="Dashboard · Yesterday")).to_be_attached()
    page.get_by_role("link", name="Previous day").click()
    page.wait_for_url(f"**date={day(-2).isoformat()}")
    expect(nav.locator(".day-nav__label")).to_contain_text(short(day(-2)))
    page.get_by_role("link", name="Next day").click()
    page.wait_for_url(f"**date={day(-1).isoformat()}")
    page.get_by_role("link", name="Back to today").click()
    page.wait_for_url(server + "/dashboard")

    # The date picker opens the day chosen.
    picker.fill(day(-40).isoformat())
    page.wait_for_url(f"**/dashboard?date={day(-40).isoformat()}")
    expect(nav.locator(".day-nav__label")).to_contain_text(short(day(-40)))

    # Swipes: finger to the right is the day before, to the left the day after.
    def swipe(dx):
        page.evaluate("""(dx) => {
            const t = (x) => new Touch({identifier: 1, target: document.body, clientX: x, clientY: 300});
            document.body.dispatchEvent(new TouchEvent("touchstart", {touches: [t(200)], changedTouches: [t(200)], bubbles: true}));
            document.body.dispatchEvent(new TouchEvent("touchend", {touches: [], changedTouches: [t(200 + dx)], bubbles: true}));
        }""", dx)
    swipe(150)
    page.wait_for_url(f"**date={day(-41).isoformat()}")
    swipe(-150)
    page.wait_for_url(f"**date={day(-40).isoformat()}")
    swipe(-20)  # too short: stays
    page.wait_for_timeout(300)
    assert page.url.endswith(f"date={day(-40).isoformat()}")

    # The first day that may be shown has no day before it.
    page.goto(f"{server}/dashboard?date={day(-365).isoformat()}")
    expect(page.get_by_role("link", name="Previous day")).to_have_count(0)
    expect(page.get_by_role("link", name="Next day")).to_have_attribute("href", f"/dashboard?date={day(-364).isoformat()}")

    # The meals list has the same switcher.
    page.goto(server + "/meals/today")
    page.get_by_role("link", name="Previous day").click()
    page.wait_for_url(f"{server}/meals/today?date={day(-1).isoformat()}")
    expect(page.get_by_role("heading", name="Yesterday's meals")).to_be_visible()
    expect(page.get_by_text("No meals logged on this day. Tap Log Meal to add one.")).to_be_visible()
    expect(page.locator("#add-meal")).to_have_attribute("href", f"/meals/new?date={day(-1).isoformat()}")
    assert page.console_errors == []


def test_bad_dates_are_a_400_page_that_says_why(server, page):
    new_user_with_profile(page, server)
    for path in ["/dashboard", "/meals/today"]:
        cases = [
            ("tomorrow", day(1).isoformat(), "is in the future"),
            ("too far back", day(-366).isoformat(), "is more than a year back. You can go back to"),
            ("not a date", "2026-02-30", "is not a date"),
            ("words", "yesterday", "“yesterday” is not a date"),
        ]
        for _, value, words in cases:
            response = page.goto(f"{server}{path}?date={value}")
            assert response.status == 400, (path, value)
            expect(page.locator(".error-page__message")).to_contain_text(words)
    # A year back exactly is fine.
    assert page.goto(f"{server}/dashboard?date={day(-365).isoformat()}").status == 200
    assert page.console_errors == [] or all("400" in e for e in page.console_errors)


def test_a_past_days_totals_and_targets(server, page):
    new_user_with_profile(page, server)
    yesterday = day(-1)
    log_meal(page, server, name="Porridge", calories=420, protein=15, carbs=70, fat=9, loggedAt=at(yesterday, "08:00"))
    log_meal(page, server, name="Pasta", calories=780, protein=30, carbs=110, fat=20, loggedAt=at(yesterday, "19:00"))
    log_meal(page, server, name="Apple", calories=95, loggedAt=at(today(), "00:01"))
    status, then = api(page, server, "GET", f"/api/v1/dashboard?date={yesterday.isoformat()}")
    assert status == 200
    target = then["targets"]["calories"]

    page.goto(f"{server}/dashboard?date={yesterday.isoformat()}")
    # 420 + 780 = 1,200 of that day's target; today's apple is not in it.
    expect(page.locator("#ring-eaten")).to_have_text("1,200")
    expect(page.locator(".ring__target")).to_have_text(f"of {target:,} cal")
    expect(page.locator(".macro--protein .macro__value")).to_contain_text("45/")
    # No prompt for today's weight, no plan notice, no tips; Log Meal logs onto that day.
    expect(page.locator("#weight-prompt")).to_have_count(0)
    expect(page.locator("#log-meal")).to_have_attribute("href", f"/meals/new?date={yesterday.isoformat()}")
    expect(page.locator(".today-link")).to_have_text("See the day's meals · 2 meals")
    expect(page.locator(".today-link")).to_have_attribute("href", f"/meals/today?date={yesterday.isoformat()}")
    # The streak as of that day: yesterday was logged, so one day.
    expect(page.locator("#streak-badge")).to_contain_text("1 day streak")
    screenshot(page, "any-day-dashboard-yesterday")
    page.set_viewport_size(NARROW)
    assert page.evaluate("document.documentElement.scrollWidth") <= NARROW["width"]
    screenshot(page, "any-day-dashboard-yesterday-320")

    # Today is today's: the apple only.
    page.goto(server + "/dashboard")
    expect(page.locator("#ring-eaten")).to_have_text("95")
    assert page.console_errors == []


def test_log_edit_and_delete_a_past_meal(server, page):
    new_user_with_profile(page, server)
    d = day(-3)
    log_meal(page, server, name="Soup", calories=300, loggedAt=at(d, "12:30"))
    log_meal(page, server, name="Toast", calories=250, loggedAt=at(d, "08:00"))
    page.goto(f"{server}/meals/today?date={d.isoformat()}")
    expect(page.get_by_role("heading", name=f"Meals of {short(d)}")).to_be_visible()
    totals = page.locator("#totals-calories")
    expect(totals).to_contain_text("550 /")
    rows = page.locator(".meal-row")
    expect(rows).to_have_count(2)
    screenshot(page, "any-day-meals-past")

    # Edit: a new time and new calories; the meal stays on its day.
    page.get_by_role("link", name="Toast").click()
    page.wait_for_url("**/edit")
    expect(page.get_by_role("link", name="Back to today's meals")).to_have_attribute("href", f"/meals/today?date={d.isoformat()}")
    time = page.get_by_label("Time")
    expect(time).to_have_value("08:00")
    time.fill("07:15")
    page.get_by_label("Calories").fill("280")
    page.get_by_role("button", name="Save Changes").click()
    page.wait_for_url(f"{server}/meals/today?date={d.isoformat()}")
    expect(page.locator(".toast").filter(has_text="Meal updated")).to_be_visible()
    expect(totals).to_contain_text("580 /")
    expect(rows.filter(has_text="Toast")).to_contain_text("7:15 AM")
    status, body = api(page, server, "GET", f"/api/v1/meals?date={d.isoformat()}")
    toast_meal = next(m for m in body["meals"] if m["name"] == "Toast")
    assert toast_meal["loggedAt"].startswith(f"{d.isoformat()}T07:15")

    # Delete with Undo, on that day's list.
    page.get_by_role("button", name="Delete Soup").click()
    undo = page.locator(".toast").filter(has_text="Meal deleted")
    expect(undo).to_be_visible()
    expect(rows).to_have_count(1)
    expect(totals).to_contain_text("280 /")
    undo.get_by_role("button", name="Undo").click()
    expect(rows).to_have_count(2)
    expect(totals).to_contain_text("580 /")

    # Deleting from the edit page returns to the meal's day with Undo.
    page.get_by_role("link", name="Soup").click()
    page.wait_for_url("**/edit")
    page.get_by_role("button", name="Delete Meal").click()
    page.wait_for_url(f"**/meals/today?date={d.isoformat()}")
    expect(rows).to_have_count(1)
    page.locator(".toast").get_by_role("button", name="Undo").click()
    page.wait_for_url(f"{server}/meals/today?date={d.isoformat()}")
    expect(rows).to_have_count(2)
    assert page.console_errors == []


def test_log_edit_and_delete_a_weight(server, page):
    new_user_with_profile(page, server)
    d = day(-2)
    page.goto(f"{server}/dashboard?date={d.isoformat()}")
    # A past day: no prompt for today's weight; the card logs onto that day.
    expect(page.locator("#weight-prompt")).to_have_count(0)
    expect(page.locator("#weight-card-value")).to_have_text("-- kg")
    page.locator("#weight-card").click()
    sheet = page.locator("#weight-sheet")
    expect(sheet.get_by_role("heading", name=f"Log weight for {short(d)}")).to_be_visible()
    page.get_by_label("Whole kg").select_option("81")
    page.get_by_label("Tenths of a kg").select_option("2")
    sheet.get_by_role("button", name="Save").click()
    expect(sheet).to_be_hidden()
    expect(page.locator("#weight-card-value")).to_have_text("81.2 kg")
    status, body = api(page, server, "GET", "/api/v1/weights")
    assert [(e["kg"], e["localDate"]) for e in body["entries"]] == [(81.2, d.isoformat())]
    entry = page.locator(".weight-entry")
    expect(entry).to_have_count(1)
    expect(entry).to_contain_text("81.2 kg")
    # Today has no weight: the prompt is still there.
    page.goto(server + "/dashboard")
    expect(page.locator("#weight-prompt")).to_be_visible()
    expect(page.locator(".weight-entry")).to_have_count(0)

    # Edit: the picker starts at the entry's weight; the entry keeps its day.
    page.goto(f"{server}/dashboard?date={d.isoformat()}")
    page.get_by_role("button", name="Edit weight 81.2 kg").click()
    expect(sheet.get_by_role("heading", name="Edit Weight")).to_be_visible()
    expect(page.get_by_label("Whole kg")).to_have_value("81")
    expect(page.get_by_label("Tenths of a kg")).to_have_value("2")
    page.get_by_label("Whole kg").select_option("80")
    page.get_by_label("Tenths of a kg").select_option("7")
    sheet.get_by_role("button", name="Save").click()
    expect(page.locator(".toast").filter(has_text="Weight updated")).to_be_visible()
    expect(page.locator("#weight-card-value")).to_have_text("80.7 kg")
    status, body = api(page, server, "GET", "/api/v1/weights")
    assert [(e["kg"], e["localDate"]) for e in body["entries"]] == [(80.7, d.isoformat())]
    screenshot(page, "any-day-weight-entries")

    # Delete with Undo, by keyboard.
    page.get_by_role("button", name="Delete weight 80.7 kg").focus()
    page.keyboard.press("Enter")
    toast = page.locator(".toast").filter(has_text="Weight deleted")
    expect(toast).to_be_visible()
    expect(page.locator(".weight-entry")).to_have_count(0)
    expect(page.locator("#weight-card-value")).to_have_text("-- kg")
    toast.get_by_role("button", name="Undo").click()
    expect(page.locator(".weight-entry")).to_have_count(1)
    expect(page.locator("#weight-card-value")).to_have_text("80.7 kg")
    # And for good.
    page.get_by_role("button", name="Delete weight 80.7 kg").click()
    expect(page.locator(".weight-entry")).to_have_count(0)
    page.reload()
    expect(page.locator("#weight-card-value")).to_have_text("-- kg")
    status, body = api(page, server, "GET", "/api/v1/weights")
    assert body["entries"] == []
    assert page.console_errors == []


def test_a_past_days_targets_are_that_days(server, page):
    """A weight moves the targets from the next day on (PRODUCT.md, current weight): the day it was logged keeps the
    targets of the profile's 80 kg, the day after uses 70 kg; each page shows its own day's."""
    new_user_with_profile(page, server)
    status, _ = api(page, server, "POST", "/api/v1/weights", {"kg": 70.0, "loggedAt": at(day(-3), "08:00")})
    assert status == 201
    targets = {}
    for offset in (-3, -2):
        status, body = api(page, server, "GET", f"/api/v1/dashboard?date={day(offset).isoformat()}")
        targets[offset] = body["targets"]["calories"]
    # 10 kg less: BMR 100 kcal less, times the activity factor 1.55 = 155 kcal less (unless a floor holds it).
    assert targets[-3] > targets[-2], targets
    for offset in (-3, -2):
        page.goto(f"{server}/dashboard?date={day(offset).isoformat()}")
        expect(page.locator(".ring__target")).to_have_text(f"of {targets[offset]:,} cal")
        page.goto(f"{server}/meals/today?date={day(offset).isoformat()}")
        expect(page.locator("#totals-calories")).to_have_text(f"0 / {targets[offset]:,} cal")
    # The day of the weigh-in shows that weight on its card.
    page.goto(f"{server}/dashboard?date={day(-3).isoformat()}")
    expect(page.locator("#weight-card-value")).to_have_text("70.0 kg")
    assert page.console_errors == []


def test_past_day_pages_fit_320px_at_200_percent_and_read_in_german(server, german):
    """No sideways scroll at 320 px with the text at 200 %; the switcher speaks German."""
    page = german
    d = day(-1)
    for path, body in [("/api/v1/weights", {"kg": 80.2, "loggedAt": at(d, "08:00")}),
                       ("/api/v1/meals", {"name": "Ein sehr langer Mahlzeitname ohne Pausen", "calories": 300, "loggedAt": at(d, "12:00")})]:
        status, answer = api(page, server, "POST", path, body)
        assert status == 201, answer
    for path in [f"/dashboard?date={d.isoformat()}", f"/meals/today?date={d.isoformat()}", f"/dashboard?date={day(-30).isoformat()}"]:
        page.goto(server + path)
        expect(page.locator(".day-nav__label")).to_be_visible()
        for size in ["100%", "200%"]:
            page.evaluate(f"document.documentElement.style.fontSize = '{size}'")
            assert page.evaluate("document.documentElement.scrollWidth") <= NARROW["width"], (path, size)
        screenshot(page, "any-day-de-320-200" + path.split("?")[0].replace("/", "-"))
    page.goto(f"{server}/meals/today?date={d.isoformat()}")
    expect(page.get_by_role("heading", name="Gestrige Mahlzeiten")).to_be_visible()
    expect(page.get_by_role("navigation", name="Tag").get_by_role("link", name="Vorheriger Tag")).to_be_visible()
    expect(page.get_by_role("link", name="Zurück zu heute")).to_have_text("Heute")
    page.goto(f"{server}/dashboard?date={d.isoformat()}")
    expect(page.get_by_role("button", name="Gewicht 80,2 kg, 08:00 löschen")).to_be_visible()
    response = page.goto(f"{server}/dashboard?date={day(1).isoformat()}")
    assert response.status == 400
    expect(page.locator(".error-page__message")).to_contain_text("liegt in der Zukunft")
    assert all("400" in e for e in page.console_errors)
