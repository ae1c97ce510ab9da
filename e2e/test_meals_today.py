"""Today's meals (000 component #6): running totals, newest first, edit, delete with undo, "Discard meal?"."""
from playwright.sync_api import expect

from conftest import api, new_user_with_profile, screenshot

def signed_in(page, server, **profile):
    """A new user with a profile (the pass through onboarding must log no error either)."""
    return new_user_with_profile(page, server, **profile)



def log(page, server, **meal):
    status, body = api(page, server, "POST", "/api/v1/meals", meal)
    assert status == 201, body
    return body


def test_empty_state(server, page):
    signed_in(page, server)
    page.goto(server + "/meals/today")
    expect(page.get_by_text("No meals logged today. Tap Log Meal to start!")).to_be_visible()
    expect(page.get_by_role("link", name="Log Meal")).to_have_attribute("href", "/meals/new")
    expect(page.locator(".meal-totals__smiley")).to_have_count(0)
    assert page.console_errors == []


def test_totals_edit_delete_and_undo(server, page):
    signed_in(page, server)
    status, day = api(page, server, "GET", "/api/v1/dashboard")
    target = day["targets"]["calories"]
    log(page, server, name="Oatmeal with berries", calories=350, protein=12, carbs=60, fat=7)
    log(page, server, name="Chicken salad", calories=520, protein=45, carbs=20, fat=28)

    page.goto(server + "/meals/today")
    totals = page.locator("#totals-calories")
    expect(totals).to_have_text(f"870 / {target:,} cal")
    expect(page.locator("#meal-totals-live")).to_have_attribute("aria-live", "polite")
    rows = page.locator(".meal-row")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("Chicken salad")  # newest first
    expect(rows.nth(1)).to_contain_text("Oatmeal with berries")
    expect(page.locator(".meal-totals__macro--protein")).to_contain_text("Protein 57g")
    expect(page.locator(".meal-totals__smiley")).to_have_count(3)
    assert page.evaluate("getComputedStyle(document.getElementById('meal-totals')).position") == "sticky"
    expect(page.get_by_role("link", name="Add Another Meal")).to_have_attribute("href", "/meals/new")
    expect(page.get_by_role("link", name="Back to dashboard")).to_have_attribute("href", "/dashboard")
    screenshot(page, "07-todays-meals")

    # Tap a meal to edit it.
    page.get_by_role("link", name="Oatmeal with berries").click()
    page.wait_for_url("**/edit")
    calories = page.get_by_label("Calories")
    expect(calories).to_have_value("350")
    calories.fill("0")
    page.get_by_role("button", name="Save Changes").click()
    expect(page.get_by_text("Calories must be between 1-9999", exact=True)).to_be_visible()
    calories.fill("400")
    page.get_by_role("button", name="Save Changes").click()
    page.wait_for_url(server + "/meals/today")
    expect(page.locator(".toast").filter(has_text="Meal updated")).to_be_visible()
    expect(totals).to_have_text(f"920 / {target:,} cal")

    # Delete, then undo: the meal and the totals come back.
    page.get_by_role("button", name="Delete Chicken salad").click()
    toast = page.locator(".toast").filter(has_text="Meal deleted")
    expect(toast).to_be_visible()
    expect(rows).to_have_count(1)
    expect(totals).to_have_text(f"400 / {target:,} cal")
    toast.get_by_role("button", name="Undo").click()
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("Chicken salad")
    expect(totals).to_have_text(f"920 / {target:,} cal")

    # Delete for good.
    page.get_by_role("button", name="Delete Chicken salad").click()
    expect(rows).to_have_count(1)
    expect(totals).to_have_text(f"400 / {target:,} cal")
    page.reload()
    expect(rows).to_have_count(1)
    status, day = api(page, server, "GET", "/api/v1/meals")
    assert [(m["name"], m["calories"]) for m in day["meals"]] == [("Oatmeal with berries", 400)]

    # Delete the last one: the empty state.
    page.get_by_role("button", name="Delete Oatmeal with berries").click()
    expect(page.get_by_text("No meals logged today. Tap Log Meal to start!")).to_be_visible()
    expect(totals).to_have_text(f"0 / {target:,} cal")
    assert page.console_errors == []


def test_leaving_an_edited_meal_asks_discard_meal(server, page):
    signed_in(page, server)
    log(page, server, name="Yogurt", calories=150)
    page.goto(server + "/meals/today")
    page.get_by_role("link", name="Yogurt").click()
    page.wait_for_url("**/edit")
    page.get_by_label("Calories").fill("999")
    page.get_by_role("link", name="Back to today's meals").click()
    dialog = page.get_by_role("dialog", name="Discard meal?")
    expect(dialog).to_be_visible()
    dialog.get_by_role("button", name="Discard").click()
    page.wait_for_url(server + "/meals/today")
    expect(page.locator(".meal-row").first).to_contain_text("150 cal")

    # Untouched, leaving asks nothing.
    page.get_by_role("link", name="Yogurt").click()
    page.wait_for_url("**/edit")
    page.get_by_role("link", name="Back to today's meals").click()
    page.wait_for_url(server + "/meals/today")
    assert page.console_errors == []
