"""The Progress tab: weight with its rolling average and trend, and 14 days of calories against their targets."""
import datetime

from conftest import api, new_user_with_profile, screenshot
from test_dashboard import console_errors


def days_ago(n: int, hour: int = 8) -> str:
    day = datetime.datetime.now(datetime.timezone.utc).date() - datetime.timedelta(days=n)
    return f"{day.isoformat()}T{hour:02d}:00:00Z"


def test_empty_progress_uses_the_empty_states(server, page):
    new_user_with_profile(page, server)
    page.goto(server + "/progress")
    assert page.get_by_role("heading", name="No weight entries yet").is_visible()
    assert page.get_by_role("heading", name="No meals logged yet").is_visible()
    assert page.get_by_role("link", name="Log Your First Meal").get_attribute("href") == "/meals/new"
    assert page.locator('.tabbar a[aria-current="page"]').inner_text().endswith("Progress")
    assert console_errors(page) == []


def test_progress_with_a_week_of_weights_and_some_meals(server, page):
    new_user_with_profile(page, server)
    # Eight mornings from 81.0 kg down by 0.3 kg a day: the 7-day average falls by more than 0.2 kg → trending down.
    for n in range(7, -1, -1):
        status, body = api(page, server, "POST", "/api/v1/weights", {"kg": round(81.0 - 0.3 * (7 - n), 1), "loggedAt": days_ago(n)})
        assert status == 201, body
    for n, kcal in [(0, 1250), (1, 2900), (3, 2000)]:
        status, body = api(page, server, "POST", "/api/v1/meals", {"name": "Dinner", "calories": kcal, "loggedAt": days_ago(n, 13)})
        assert status == 201, body
    page.goto(server + "/progress")

    assert page.locator("#weight-latest").inner_text() == "78.9 kg"
    assert "Trending down" in page.locator("#weight-trend").inner_text()
    chart = page.locator(".weight-chart")
    assert chart.get_attribute("role") == "img"
    assert chart.locator(".weight-chart__dot").count() == 8
    assert chart.locator(".weight-chart__average").get_attribute("d").count("L") == 7
    # The text alternative: the same entries in a table, newest first.
    page.get_by_text("Show weight entries as a table").click()
    rows = page.locator(".chart-table").first.locator("tbody tr")
    assert rows.count() == 8
    assert "78.9 kg" in rows.first.inner_text()

    # The account began today, but meals were logged from 3 days ago: the days start there, not 13 days back.
    bars = page.locator(".calorie-chart__bar")
    assert bars.count() == 4
    assert page.locator(".calorie-chart__target").count() == 4
    assert page.get_by_text("3 of 4 days logged").is_visible()
    assert page.locator("#calories-title").inner_text() == "Calories · last 4 days"
    page.get_by_text("Show calories as a table").click()
    calorie_rows = page.locator(".chart-table").nth(1).locator("tbody tr")
    assert calorie_rows.count() == 4
    assert "1,250 cal" in calorie_rows.first.inner_text()
    assert "Nothing logged" in calorie_rows.nth(2).inner_text()
    assert console_errors(page) == []
    page.get_by_text("Show weight entries as a table").click()
    page.get_by_text("Show calories as a table").click()
    screenshot(page, "09-progress")
