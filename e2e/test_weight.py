"""Logging a weight with the picker (000 "Weight Input Flow"): the prompt goes, the card and the streak update."""
from conftest import api, new_user_with_profile, screenshot
from test_dashboard import console_errors


def test_log_a_weight_with_the_picker(server, page):
    new_user_with_profile(page, server)
    page.goto(server + "/dashboard")
    assert "streak-badge--active" not in page.locator("#streak-badge").get_attribute("class")

    page.get_by_role("button", name="Log Weight").click()
    sheet = page.locator("#weight-sheet")
    assert sheet.is_visible()
    assert sheet.get_by_role("heading", name="Log Weight").is_visible()
    assert page.get_by_text("Scroll to select your weight").is_visible()
    whole = page.get_by_label("Whole kg")
    tenth = page.get_by_label("Tenths of a kg")
    # No weight logged yet: the picker starts at the profile's 80 kg, and offers 30–200 kg.
    assert whole.input_value() == "80" and tenth.input_value() == "0"
    assert whole.locator("option").first.inner_text() == "30"
    assert whole.locator("option").last.inner_text() == "200"
    assert tenth.locator("option").count() == 10
    whole.select_option("79")
    tenth.select_option("4")
    screenshot(page, "05-weight-picker")

    page.get_by_role("button", name="Save").click()
    sheet.wait_for(state="hidden")
    page.locator("#weight-prompt").wait_for(state="detached")
    assert page.locator("#weight-card-value").inner_text() == "79.4 kg"
    badge = page.locator("#streak-badge")
    assert " ".join(badge.inner_text().split()) == "🔥 1 day streak"
    assert "streak-badge--active" in badge.get_attribute("class")
    assert page.get_by_text("Weight logged!").is_visible()
    # Focus comes back to the weight card, which now holds the new weight.
    assert page.evaluate("document.activeElement.id") == "weight-card"

    # The weight was saved through the API: a reload shows the same.
    status, body = api(page, server, "GET", "/api/v1/weights")
    assert status == 200 and [e["kg"] for e in body["entries"]] == [79.4]
    page.reload()
    assert page.locator("#weight-prompt").count() == 0
    assert page.locator("#weight-card-value").inner_text() == "79.4 kg"
    assert console_errors(page) == []


def test_picker_starts_at_the_latest_weight_and_works_by_keyboard(server, page):
    new_user_with_profile(page, server)
    status, _ = api(page, server, "POST", "/api/v1/weights", {"kg": 69.1, "loggedAt": "2020-01-01T08:00:00Z"})
    assert status == 201
    page.goto(server + "/dashboard")
    card = page.locator("#weight-card")
    card.focus()
    page.keyboard.press("Enter")
    whole = page.get_by_label("Whole kg")
    assert page.locator("#weight-sheet").is_visible()
    assert whole.input_value() == "69" and page.get_by_label("Tenths of a kg").input_value() == "1"
    # Focus starts in the picker; Escape closes it and focus returns to the card.
    assert page.evaluate("document.activeElement.id") == "weight-whole"
    page.keyboard.press("ArrowDown")
    assert whole.input_value() == "70"
    page.keyboard.press("Escape")
    assert not page.locator("#weight-sheet").is_visible()
    assert page.evaluate("document.activeElement.id") == "weight-card"
    assert console_errors(page) == []


def test_pound_users_pick_in_pounds(server, page):
    new_user_with_profile(page, server, weightUnit="lb")
    page.goto(server + "/dashboard")
    assert page.locator("#weight-card-value").inner_text() == "-- lb"
    page.get_by_role("button", name="Log Weight").click()
    whole = page.get_by_label("Whole lb")
    # 80 kg = 176.4 lb.
    assert whole.input_value() == "176" and page.get_by_label("Tenths of a lb").input_value() == "4"
    whole.select_option("170")
    page.get_by_label("Tenths of a lb").select_option("0")
    page.get_by_role("button", name="Save").click()
    page.locator("#weight-prompt").wait_for(state="detached")
    assert page.locator("#weight-card-value").inner_text() == "170.0 lb"
    status, body = api(page, server, "GET", "/api/v1/weights")
    assert body["entries"][0]["kg"] == 77.1  # 170 lb
    assert console_errors(page) == []
