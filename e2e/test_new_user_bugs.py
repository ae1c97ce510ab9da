"""What a new user hit on a phone-sized Chromium (issue 17, item 6), one test per bug, each written to fail first."""
import re

import pytest
from playwright.sync_api import expect

from conftest import NARROW, api, new_user_with_profile, screenshot

# The first result for "chicken breast", however the search words and shortens USDA's name.
CHICKEN_RESULT = r"chicken.*breast"


def choose_food(page, server, query, name_pattern):
    page.goto(server + "/meals/new")
    page.get_by_role("combobox", name="Search food").press_sequentially(query, delay=20)
    option = page.get_by_role("option").filter(has_text=re.compile(name_pattern, re.I)).first
    option.click()
    expect(page.locator("#portion-form")).to_be_visible()


def page_width(page) -> int:
    return page.evaluate("document.documentElement.scrollWidth")


@pytest.mark.parametrize("query,name", [("banana", r"banana"), ("chicken breast", r"chicken.*breast")])
def test_the_unit_dropdown_fits_a_390_px_screen(server, page, query, name):
    """USDA's long measures ("1 cup, mashed (225 g)") used to widen the select to 424 px (banana), 516 px (chicken)."""
    new_user_with_profile(page, server)
    choose_food(page, server, query, name)
    unit = page.get_by_label("Unit")
    longest = unit.evaluate("(s) => [...s.options].sort((a, b) => b.text.length - a.text.length)[0].value")
    for value in ("g", longest):
        unit.select_option(value)
        box = unit.bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390, (value, box)
        assert page_width(page) <= 390
    # Every measure is still there, whole, for the person to choose.
    assert page.get_by_label("Unit").locator("option").count() >= 2
    screenshot(page, f"17-unit-dropdown-{query.replace(' ', '-')}")


def test_the_weight_picker_opens_on_the_selected_value_and_says_it(server, page):
    new_user_with_profile(page, server)
    status, _ = api(page, server, "POST", "/api/v1/weights", {"kg": 82.4})
    assert status == 201
    page.goto(server + "/dashboard")
    page.locator("#weight-card").click()
    sheet = page.locator("#weight-sheet")
    expect(sheet).to_be_visible()
    for column, value in [("#weight-whole", "82"), ("#weight-tenth", "4")]:
        inside = page.evaluate(
            """([id, value]) => {
                const select = document.querySelector(id);
                const option = [...select.options].find((o) => o.value === value);
                const s = select.getBoundingClientRect(), o = option.getBoundingClientRect();
                return { selected: option.selected, top: o.top - s.top, bottom: s.bottom - o.bottom, height: o.height };
            }""", [column, value])
        assert inside["selected"], (column, inside)
        # The selected value sits wholly inside the wheel, near its middle: not half hidden above it.
        assert inside["top"] >= 0 and inside["bottom"] >= 0 and inside["height"] > 0, (column, inside)
        assert abs(inside["top"] - inside["bottom"]) <= inside["height"] * 1.5, (column, inside)
    readout = page.locator("#weight-readout")
    expect(readout).to_have_text("82.4 kg")
    page.locator("#weight-tenth").select_option("7")
    expect(readout).to_have_text("82.7 kg")
    screenshot(page, "17-weight-picker")


SIGNED_IN_PAGES = ["/dashboard", "/meals/new", "/meals/today", "/progress", "/learn", "/learn/matador-study",
                   "/settings", "/profile"]
SIGNED_OUT_PAGES = ["/", "/login", "/onboarding"]
LONG_EMAIL = "a.very.long.email.address.for.testing.wrapping@subdomain.example-company-with-long-name.com"


def filled_account(page, server, tag):
    """A user with an account (a long email), weights and meals on several days: every table and chart has rows."""
    new_user_with_profile(page, server)
    for kg in (81.2, 80.9):
        assert api(page, server, "POST", "/api/v1/weights", {"kg": kg})[0] == 201
    assert api(page, server, "POST", "/api/v1/meals", {"name": "Porridge with a long name for wrapping", "calories": 450,
                                                        "protein": 20, "carbs": 60, "fat": 12})[0] == 201
    page.goto(server + "/settings")
    page.get_by_label("Email").fill(tag + LONG_EMAIL)
    page.get_by_label("Password").fill("correct horse battery")
    page.get_by_role("button", name="Add email and password").click()
    page.get_by_text("Account created. Your progress is saved.").wait_for()


def overflowing(page) -> list:
    """The page's width and the elements that stick out past the right edge of the screen."""
    return page.evaluate("""() => {
        const width = document.documentElement.clientWidth;
        const out = [...document.querySelectorAll('body *')].filter((e) => {
            const r = e.getBoundingClientRect();
            return r.width > 0 && r.right > width + 1 && getComputedStyle(e).position !== 'fixed' && !e.closest('.visually-hidden, .skip-link')
                && !(e.parentElement && e.parentElement.closest('.article__table'));
        }).slice(0, 5).map((e) => e.tagName + '.' + e.className + ' ' + Math.round(e.getBoundingClientRect().right));
        return [document.documentElement.scrollWidth, width, out];
    }""")


@pytest.mark.parametrize("text", ["100%", "200%"])
def test_no_page_scrolls_sideways_at_320_px_or_200_percent_text(server, browser, text):
    context = browser.new_context(viewport=NARROW, device_scale_factor=2, is_mobile=True, has_touch=True, bypass_csp=True)
    page = context.new_page()
    failures = []

    def visit(paths):
        for path in paths:
            page.goto(server + path)
            page.wait_for_load_state("networkidle")
            if text != "100%":
                page.add_style_tag(content=f"html {{ font-size: {text} !important; }}")
            # Open every table and disclosure: their rows count too.
            page.evaluate("document.querySelectorAll('details').forEach((d) => d.open = true)")
            scroll, width, out = overflowing(page)
            if scroll > width:
                failures.append((path, scroll, out))
            if path in ("/dashboard", "/settings", "/progress"):
                screenshot(page, f"17-overflow-{text[:-1]}-{path.strip('/').replace('/', '-') or 'welcome'}")

    visit(SIGNED_OUT_PAGES)
    filled_account(page, server, text.strip("%"))
    visit(SIGNED_IN_PAGES)
    context.close()
    assert failures == [], "\n".join(map(str, failures))


def test_the_ring_number_stays_inside_the_ring_at_200_percent_text(server, browser):
    context = browser.new_context(viewport=NARROW, device_scale_factor=2, is_mobile=True, has_touch=True, bypass_csp=True)
    page = context.new_page()
    new_user_with_profile(page, server)
    assert api(page, server, "POST", "/api/v1/meals", {"name": "Lunch", "calories": 1234, "protein": 100, "carbs": 100,
                                                        "fat": 45})[0] == 201
    page.goto(server + "/dashboard")
    page.add_style_tag(content="html { font-size: 200% !important; }")
    ring = page.locator(".ring__svg").bounding_box()
    number = page.evaluate("""() => {
        const spans = [...document.querySelectorAll('.ring__center > span')].map((s) => s.getBoundingClientRect());
        const left = Math.min(...spans.map((r) => r.left)), right = Math.max(...spans.map((r) => r.right));
        const top = Math.min(...spans.map((r) => r.top)), bottom = Math.max(...spans.map((r) => r.bottom));
        return { width: right - left, height: bottom - top };
    }""")
    inner = 120 / 160 * ring["width"]      # the track's inner diameter: r 70 − half its stroke, of a 160 viewBox
    assert number["width"] <= inner and number["height"] <= inner, (number, ring)
    # The three macro values stay apart: none overlaps the next.
    boxes = [page.locator(f".macro--{key} .macro__value").bounding_box() for key in ("protein", "carbs", "fat")]
    for left, right in zip(boxes, boxes[1:]):
        separate = left["x"] + left["width"] <= right["x"] or left["y"] + left["height"] <= right["y"]
        assert separate, (left, right)
    screenshot(page, "17-ring-200")
    context.close()


def test_log_meal_is_visible_on_a_new_users_dashboard_and_the_search_has_focus(server, page):
    new_user_with_profile(page, server)
    page.goto(server + "/dashboard")
    button = page.get_by_role("link", name="Log Meal", exact=True)
    box = button.bounding_box()
    tabbar = page.locator(".tabbar").bounding_box()
    # Wholly on the first screen and above the tab bar, without scrolling.
    assert box["y"] >= 0 and box["y"] + box["height"] <= tabbar["y"], (box, tabbar)
    assert button.evaluate("(e) => document.elementFromPoint(e.getBoundingClientRect().x + 10, e.getBoundingClientRect().bottom - 4) === e")
    button.click()
    page.wait_for_url(server + "/meals/new")
    expect(page.get_by_role("combobox", name="Search food")).to_be_focused()


@pytest.mark.parametrize("goal", ["maintain", "gain"])
def test_maintain_and_gain_see_no_eating_window(server, page, goal):
    new_user_with_profile(page, server, goal=goal)
    for path in ("/dashboard", "/meals/new"):
        page.goto(server + path)
        expect(page.locator(".window-banner")).to_have_count(0)
        expect(page.get_by_text("Eating window")).to_have_count(0)
    # A meal at any hour brings no "outside your window" warning.
    assert api(page, server, "POST", "/api/v1/meals", {"name": "Late snack", "calories": 200,
                                                        "loggedAt": "2020-01-01T23:30:00Z"})[0] in (201, 422)
    assert api(page, server, "POST", "/api/v1/meals", {"name": "Snack", "calories": 200})[0] == 201
    page.goto(server + "/meals/today")
    expect(page.get_by_text(re.compile("outside your window", re.I))).to_have_count(0)
    expect(page.locator(".meal-warning")).to_have_count(0)


def test_lose_still_sees_the_eating_window(server, page):
    new_user_with_profile(page, server, goal="lose")
    page.goto(server + "/meals/new")
    expect(page.locator(".window-banner")).to_have_count(1)


def test_back_on_the_portion_step_returns_to_the_results(server, page):
    new_user_with_profile(page, server)
    choose_food(page, server, "chicken breast", CHICKEN_RESULT)
    page.get_by_label("Amount").fill("150")
    page.go_back()
    expect(page.get_by_role("dialog", name="Discard meal?")).to_be_hidden()
    expect(page.locator("#portion-form")).to_be_hidden()
    expect(page.get_by_role("option").first).to_be_visible()
    assert page.url == server + "/meals/new"
    # Choosing again and saving still works; Back from the results then leaves the page without asking.
    page.get_by_role("option").filter(has_text=re.compile(CHICKEN_RESULT, re.I)).first.click()
    expect(page.locator("#portion-form")).to_be_visible()
    page.get_by_role("button", name="Change food").click()
    expect(page.locator("#portion-form")).to_be_hidden()
    page.go_back()
    page.wait_for_url(lambda url: "/meals/new" not in url)
    assert page.console_errors == []


def test_a_filled_manual_form_still_asks_on_back_after_a_portion_step(server, page):
    new_user_with_profile(page, server)
    page.goto(server + "/meals/new")
    page.get_by_role("button", name="Manual Entry").click()
    page.get_by_label("Calories").fill("300")
    page.get_by_role("button", name="Search Food").click()
    page.get_by_role("combobox", name="Search food").press_sequentially("chicken breast", delay=20)
    page.get_by_role("option").filter(has_text=re.compile(CHICKEN_RESULT, re.I)).first.click()
    page.go_back()
    expect(page.locator("#portion-form")).to_be_hidden()
    expect(page.get_by_role("dialog", name="Discard meal?")).to_be_hidden()
    page.go_back()
    expect(page.get_by_role("dialog", name="Discard meal?")).to_be_visible()


def test_progress_starts_on_the_day_the_account_began(server, page):
    new_user_with_profile(page, server)
    assert api(page, server, "POST", "/api/v1/meals", {"name": "Lunch", "calories": 600})[0] == 201
    page.goto(server + "/progress")
    page.evaluate("document.querySelectorAll('details').forEach((d) => d.open = true)")
    rows = page.locator(".chart-table").last.locator("tbody tr")
    expect(rows).to_have_count(1)
    expect(page.get_by_text("Nothing logged")).to_have_count(0)
    # The plural follows the days shown, and so does the heading (issue 17: "1 of 1 days" and "last 14 days").
    expect(page.get_by_text("1 of 1 day logged", exact=False)).to_have_count(1)
    expect(page.locator("#calories-title")).to_have_text("Calories · today")


def test_a_macro_out_of_range_says_the_range(server, page):
    new_user_with_profile(page, server)
    page.goto(server + "/meals/new")
    page.get_by_role("button", name="Manual Entry").click()
    page.get_by_label("Calories").fill("500")
    page.get_by_label("Protein (g)").fill("1000")
    page.get_by_role("button", name="Save").click()
    expect(page.locator("#manual-protein-error")).to_have_text("Protein must be between 0-999 g")
    # The API says the same.
    status, body = api(page, server, "POST", "/api/v1/meals", {"name": "x", "calories": 500, "fat": 1000})
    assert status == 422 and body["error"]["fields"]["fat"] == "Fat must be between 0-999 g", body


def test_fiber_in_the_manual_form_and_the_edit_form(server, page):
    new_user_with_profile(page, server)
    page.goto(server + "/meals/new")
    page.get_by_role("button", name="Manual Entry").click()
    page.get_by_label("Calories").fill("350")
    page.get_by_label("Fiber (g)").fill("8.5")
    page.get_by_role("button", name="Save").click()
    page.wait_for_url("**/meals/today**")
    status, body = api(page, server, "GET", "/api/v1/meals")
    assert body["meals"][0]["fiber"] == 8.5, body
    page.goto(server + f"/meals/{body['meals'][0]['id']}/edit")
    expect(page.get_by_label("Fiber (g)")).to_have_value("8.5")


def test_the_floor_note_and_the_calorie_explanation(server, page):
    # A small, sedentary woman of 60: BMR 10 × 40 + 6.25 × 150 − 5 × 60 − 161 = 876.5 kcal; TDEE × 1.2 = 1,051.8 kcal,
    # below the 1,200 kcal floor even in the maintenance weeks: her calories are held at the floor.
    new_user_with_profile(page, server, sex="female", heightCm=150, weightKg=40, activity="sedentary",
                          dateOfBirth="1966-01-10", goal="lose")
    status, day = api(page, server, "GET", "/api/v1/dashboard")
    assert status == 200 and day["targets"]["floorApplied"] is True and day["targets"]["calories"] == 1200, day["targets"]
    page.goto(server + "/dashboard")
    expect(page.get_by_text(re.compile("held at the floor", re.I))).to_be_visible()
    page.goto(server + "/profile")
    expect(page.get_by_text(re.compile("held at the floor", re.I))).to_be_visible()
    page.locator('[data-target="calories"] summary').click()
    text = page.locator("body").inner_text()
    assert "1,200" in text and "1,500" in text, "the floor is explained with both numbers"
    assert "67" in text, "the study deficit (67 % of TDEE) is named"
    assert "never below your BMR" not in text
