"""The Journal's views (issue 18, H4) at 390×844: the calendar with its heatmap, search that opens and highlights the
entry, Insights with the period picker and a food's timeline, the weekly recap and its share card, the milestone
overlay at the 10th entry (once), the reminder settings, an entry logged as meals; axe-core on every new page (light
and dark, 320 px, 200 % text); screenshots at 390 and 320 px, light and dark. Entries are seeded through the API."""
import datetime

from playwright.sync_api import expect

from conftest import api, large_text, new_user_with_profile, screenshot
from test_accessibility import check
from test_dashboard import console_errors

TODAY = datetime.datetime.now(datetime.timezone.utc).date()


def day(offset: int) -> str:
    return (TODAY - datetime.timedelta(days=offset)).isoformat()


def add(page, server, offset: int, time: str, text: str, category=None) -> dict:
    body = {"date": day(offset), "time": time, "processedDescription": text, "inputType": "text"}
    if category:
        body["category"] = category
    status, entry = api(page, server, "POST", "/api/v1/journal/entries", body)
    assert status == 201, entry
    return entry.get("entry", entry)


def seed_week(page, server):
    """Idli three times this week, dosa and coffee, a dinner three days ago, and one entry a week ago."""
    add(page, server, 0, "08:00", "idli sambar", "breakfast")
    add(page, server, 0, "13:00", "rice and dal", "lunch")
    add(page, server, 0, "16:00", "coffee", "beverage")
    add(page, server, 1, "08:30", "idli chutney", "breakfast")
    add(page, server, 3, "19:00", "masala dosa with chutney", "dinner")
    add(page, server, 4, "08:00", "idli", "breakfast")
    add(page, server, 7, "08:00", "poha", "breakfast")


def test_calendar_heatmap_month_navigation_and_a_days_entries(server, page):
    new_user_with_profile(page, server)
    seed_week(page, server)
    page.goto(server + "/journal/calendar")
    today = page.locator(f'.jv-day[data-date="{day(0)}"]')
    assert today.get_attribute("data-count") == "3"
    assert "jv-day--l3" in today.get_attribute("class") and "jv-day--today" in today.get_attribute("class")
    assert today.get_attribute("aria-label").endswith("3 entries")
    # Today is chosen: its entries are under the grid.
    panel = page.locator("#day-entries")
    assert panel.locator(".jv-entry").count() == 3
    if TODAY.month == (TODAY - datetime.timedelta(days=1)).month:
        page.locator(f'.jv-day[data-date="{day(1)}"]').click()
        page.wait_for_url(f"**/journal/calendar?date={day(1)}*")
        assert panel.locator(".jv-entry").count() == 1
        assert "idli chutney" in panel.inner_text()
        assert page.locator(f'.jv-day[data-date="{day(1)}"]').get_attribute("aria-current") == "date"
    # The month before, and back; no month after this one.
    first = TODAY.replace(day=1)
    previous = first - datetime.timedelta(days=1)
    page.goto(server + "/journal/calendar")
    assert page.locator("a.jv-month__nav[aria-label^='Next month']").count() == 0
    page.locator("a.jv-month__nav[aria-label^='Previous month']").click()
    page.wait_for_url(f"**month={previous.strftime('%Y-%m')}")
    assert page.locator(".jv-month__name").inner_text() == previous.strftime("%B")
    assert page.locator(".jv-day").count() == (first - previous.replace(day=1)).days
    page.locator("a.jv-month__nav[aria-label^='Next month']").click()
    page.wait_for_url(f"**month={TODAY.strftime('%Y-%m')}")
    assert page.locator(".jv-month__name").inner_text() == TODAY.strftime("%B")
    assert console_errors(page) == []
    bad = page.goto(server + "/journal/calendar?month=2026-13")
    assert bad.status == 400
    assert "is not a month the calendar can show" in page.locator("main").inner_text()


def test_search_as_you_type_opens_the_day_and_highlights_the_entry(server, page):
    new_user_with_profile(page, server)
    seed_week(page, server)
    target = add(page, server, 2, "12:15", "Paneer tikka with naan", "lunch")
    page.goto(server + "/journal/search")
    page.locator("#journal-search-input").fill("TIKKA")
    results = page.locator("#journal-search-results .jv-entry")
    results.first.wait_for()
    assert results.count() == 1
    assert page.locator("#journal-search-count").inner_text() == "1 entry found"
    assert results.first.locator("mark").inner_text() == "tikka"
    # Two words in any order find both chutney entries, newest first.
    page.locator("#journal-search-input").fill("chutney idli")
    expect(results).to_have_count(1)
    page.locator("#journal-search-input").fill("chutney")
    expect(results).to_have_count(2)
    assert "idli chutney" in results.first.inner_text()
    # Without script the same page answers ?q= (the address the script keeps).
    page.goto(server + "/journal/search?q=tikka")
    link = page.locator("#journal-search-results a.jv-entry__link")
    target_id = target["id"].lower()
    assert link.get_attribute("href") == f"/journal?date={day(2)}&highlight={target_id}#entry-{target_id}"
    screenshot(page, "journal-search-390")
    link.click()
    page.wait_for_url(f"**/journal?date={day(2)}&highlight={target_id}#entry-{target_id}")
    card = page.locator(f"#entry-{target_id}")
    card.wait_for()
    assert card.evaluate("(e) => e.matches(':target')")
    assert card.evaluate("(e) => getComputedStyle(e).outlineStyle") == "solid"
    screenshot(page, "journal-search-highlight-390")
    empty = page.goto(server + "/journal/search?q=pizza")
    assert empty.status == 200
    assert page.get_by_text("No entry has these words.").is_visible()
    assert console_errors(page) == []


def test_insights_period_change_and_a_food_timeline(server, page):
    new_user_with_profile(page, server)
    seed_week(page, server)
    page.goto(server + "/journal/insights")
    assert page.locator('.jv-periods__item[aria-current="true"]').inner_text() == "30D"
    stats = page.locator("#journal-stats .jv-stat dd")
    assert stats.nth(2).inner_text() == "7"
    top = page.locator("#journal-top-foods .jv-bars__row")
    assert top.first.locator(".jv-bars__label").inner_text() == "idli"
    assert top.first.locator(".jv-bars__count").inner_text() == "3"
    # Every card of 002 as a chart: daily activity, categories, meal timing, the week, the heatmap.
    assert page.locator("#journal-daily path.jv-line").get_attribute("d").count("L") == 29
    assert page.locator("#journal-categories .jv-donut__segment").count() == 4
    assert page.locator("#journal-timing rect.jv-col").count() == 24
    assert page.locator("#journal-week rect.jv-col").count() == 2
    assert page.locator("#journal-heatmap rect.jv-heat").count() >= 28
    assert page.locator("#journal-pairs li").count() >= 1
    assert "poha" in page.locator("#journal-on-this-day").inner_text(), "a week ago"
    screenshot(page, "journal-insights-390")
    page.locator('.jv-periods__item[data-period="week"]').click()
    page.wait_for_url("**period=week")
    assert page.locator('.jv-periods__item[aria-current="true"]').inner_text() == "7D"
    assert stats.nth(2).inner_text() == "6", "the entry of a week ago is outside the last 7 days"
    assert page.locator("#journal-daily path.jv-line").get_attribute("d").count("L") == 6
    top.first.locator("a").click()
    page.wait_for_url("**/journal/items/idli")
    assert page.locator("#item-title").inner_text() == "Idli"
    assert page.locator("#item-stats dd").first.inner_text() == "3"
    assert page.locator("#item-weekdays rect.jv-col").count() == 7
    assert page.locator(".jv-entry").count() == 3
    screenshot(page, "journal-item-390")
    assert console_errors(page) == []


def test_weekly_recap_pages_and_share_card(server, page):
    new_user_with_profile(page, server)
    seed_week(page, server)
    page.goto(server + "/journal/recap")
    assert page.locator(".jv-recap__headline").is_visible()
    headline = page.locator(".jv-recap__headline").inner_text()
    status, recap = api(page, server, "GET", "/api/v1/journal/recap")
    assert status == 200 and recap["headline"] == headline
    screenshot(page, "journal-recap-1-390")
    for number in range(2, 7):
        page.locator("#recap-next").click()
        page.wait_for_url(f"**page={number}")
        assert page.locator(".jv-recap__count").inner_text() == f"Page {number} of 6"
    card = page.locator("#recap-card")
    card.wait_for()
    expect(card).to_have_js_property("complete", True)
    assert card.evaluate("(img) => img.naturalWidth") > 0
    assert page.locator("#recap-download").get_attribute("download").startswith("w-diet-week-")
    response = page.request.get(server + card.get_attribute("src"))
    assert response.status == 200
    assert response.headers["content-type"].startswith("image/svg+xml")
    assert headline.split(" ")[0] in response.text()
    # The same card as a PNG, drawn from the SVG by vips: 1080 × 1080.
    png = page.request.get(server + page.locator("#recap-download-png").get_attribute("href"))
    assert png.status == 200 and png.headers["content-type"] == "image/png"
    body = png.body()
    assert body[:8] == b"\x89PNG\r\n\x1a\n"
    assert int.from_bytes(body[16:20], "big") == 1080 and int.from_bytes(body[20:24], "big") == 1080
    screenshot(page, "journal-recap-6-390")
    page.locator("#recap-back").click()
    page.wait_for_url("**page=5")
    assert page.locator(".jv-week__day").count() == 7
    assert console_errors(page) == []


def test_milestone_overlay_at_the_tenth_entry_and_never_again(server, page):
    new_user_with_profile(page, server)
    page.goto(server + "/journal/calendar")  # the first check: nothing passed yet
    for n in range(9):
        add(page, server, n, "08:00", f"toast {n}")
    page.goto(server + "/journal/calendar")
    assert page.locator("#journal-milestone").count() == 0
    add(page, server, 0, "12:00", "tenth entry soup")
    page.goto(server + "/journal/insights")
    overlay = page.locator("#journal-milestone")
    assert overlay.is_visible()
    assert page.locator("#journal-milestone-title").inner_text() == "10 entries!"
    assert page.evaluate("document.activeElement.id") == "journal-milestone-dismiss"
    screenshot(page, "journal-milestone-390")
    page.get_by_role("link", name="Awesome!").click()
    assert overlay.is_hidden()
    page.reload()
    assert page.locator("#journal-milestone").count() == 0
    page.goto(server + "/journal/calendar")
    assert page.locator("#journal-milestone").count() == 0
    assert console_errors(page) == []


def test_milestone_overlay_on_the_day_where_the_tenth_entry_is_added(server, page):
    """The 10th entry written in the entry form: the day it returns to celebrates it, once."""
    new_user_with_profile(page, server)
    page.goto(server + "/journal/calendar")  # the first check: nothing passed yet (API adds below check nothing)
    for n in range(9):
        add(page, server, n + 1, "08:00", f"toast {n}")
    page.goto(server + "/journal/new")
    page.get_by_label("What did you eat?").fill("Lentil soup")
    page.get_by_role("button", name="Save").click()
    page.wait_for_url(server + "/journal**")
    expect(page.locator("#journal-milestone-title")).to_have_text("10 entries!")
    expect(page.locator(".toast", has_text="First entry today! 🎉")).to_be_visible()
    page.get_by_role("link", name="Awesome!").click()
    expect(page.locator("#journal-milestone")).to_be_hidden()
    page.goto(server + "/journal")
    assert page.locator("#journal-milestone").count() == 0
    assert console_errors(page) == []


def test_reminder_settings_are_saved(server, page):
    new_user_with_profile(page, server)
    page.goto(server + "/journal/reminders")
    assert page.locator("#reminder-time").input_value() == "20:00"
    page.locator("#reminder-daily").check()
    page.locator("#reminder-time").fill("07:30")
    page.locator("#reminder-streak").uncheck()
    page.get_by_role("button", name="Save reminders").click()
    page.wait_for_url("**/journal/reminders?saved=1")
    assert page.locator("#reminders-saved").inner_text() == "Reminders saved."
    assert page.locator("#reminder-daily").is_checked() and not page.locator("#reminder-streak").is_checked()
    status, body = api(page, server, "GET", "/api/v1/journal/reminders")
    assert status == 200 and body == {"daily": True, "dailyTime": "07:30", "weeklyRecap": True, "streakRisk": False}


def test_an_entry_logged_as_meals(server, page):
    new_user_with_profile(page, server)
    entry = add(page, server, 0, "08:00", "banana and oatmeal", "breakfast")
    page.goto(server + f"/journal/entries/{entry['id'].lower()}/meals")
    words = page.locator(".jv-meals__word")
    assert words.count() == 2
    assert words.first.locator(".jv-card__label").text_content().strip() == "banana"
    first = words.first.locator(".jv-food").first
    name = first.locator(".jv-food__name").evaluate("(e) => e.firstChild.textContent.trim()")
    first.locator(".jv-food__log").click()
    page.locator(".toast").filter(has_text="logged").wait_for()
    assert "jv-food--logged" in first.get_attribute("class")
    screenshot(page, "journal-meals-390")
    # Every Log button inside its card, however long its portions' names (banana's "1 medium (7\" to 7-7/8\" long)"
    # once pushed them past the card's edge).
    for card in words.all():
        card_box = card.bounding_box()
        for button in card.locator(".jv-food__log").all():
            box = button.bounding_box()
            assert box["x"] + box["width"] <= card_box["x"] + card_box["width"] - 8, (box, card_box)
    page.goto(server + "/meals/today")
    assert name.split(",")[0] in page.locator("main").inner_text()
    assert console_errors(page) == []


def test_views_at_320_px_light_and_dark(server, browser):
    for scheme in ["light", "dark"]:
        context = browser.new_context(viewport={"width": 320, "height": 720}, device_scale_factor=2, is_mobile=True,
                                      has_touch=True, color_scheme=scheme)
        page = context.new_page()
        new_user_with_profile(page, server)
        seed_week(page, server)
        for path, name in [("/journal/calendar", "calendar"), ("/journal/insights?period=week", "insights"),
                           ("/journal/recap", "recap"), ("/journal/search?q=idli", "search")]:
            page.goto(server + path)
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= 320, f"{path} scrolls sideways ({width} px) in {scheme}"
            screenshot(page, f"journal-{name}-320-{scheme}")
        context.close()
        context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
                                      has_touch=True, color_scheme=scheme)
        page = context.new_page()
        new_user_with_profile(page, server)
        seed_week(page, server)
        for path, name in [("/journal/calendar", "calendar"), ("/journal/insights?period=week", "insights")]:
            page.goto(server + path)
            screenshot(page, f"journal-{name}-390-{scheme}")
        context.close()


def test_journal_views_pass_axe(server, browser):
    context = browser.new_context(viewport={"width": 320, "height": 720}, bypass_csp=True)
    page = context.new_page()
    new_user_with_profile(page, server)
    seed_week(page, server)
    entry = add(page, server, 0, "20:00", "banana and oatmeal", "dinner")
    failures = []
    check(page, server, ["/journal/calendar", f"/journal/calendar?date={day(1)}", "/journal/search?q=idli",
                         "/journal/insights", "/journal/insights?period=week", "/journal/items/idli", "/journal/recap",
                         "/journal/recap?page=2", "/journal/recap?page=3", "/journal/recap?page=4", "/journal/recap?page=5",
                         "/journal/recap?page=6", "/journal/reminders", f"/journal/entries/{entry['id'].lower()}/meals"],
          failures, "en-US")
    assert failures == []
    # The calendar at 320 px: the columns headed "Mon" … at 100 % text; at 200 % by letters (the short names stay for
    # screen readers), and the month's name on the screen (it ran past its right edge, its arrows beside it).
    page.goto(server + "/journal/calendar")
    heads = page.locator(".jv-calendar th")
    assert [heads.nth(i).locator(".jv-dow__short").inner_text() for i in range(7)] == ["MON", "TUE", "WED", "THU", "FRI", "SAT", "SUN"]
    expect(heads.first.locator(".jv-dow__letter")).to_be_hidden()
    large_text(page)
    assert [heads.nth(i).locator(".jv-dow__letter").inner_text() for i in range(7)] == list("MTWTFSS")
    assert all(heads.nth(i).locator(".jv-dow__short").is_hidden() for i in range(7))
    # What a screen reader reads: the short names, at either size.
    assert [heads.nth(i).locator(".visually-hidden").text_content() for i in range(7)] == ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
    title = page.locator(".jv-month__title")
    box = title.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 320, box
    assert title.evaluate("(e) => e.scrollWidth <= e.clientWidth")
    context.close()
