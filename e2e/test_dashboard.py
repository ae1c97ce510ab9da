"""The dashboard (Home tab) of 000 "Updated Dashboard Layout": a new user's empty day, then a day with a meal."""

from conftest import api, new_user_with_profile, screenshot



def console_errors(page):
    """The page's console errors: every page and asset exists now, so none is allowed."""
    return page.console_errors


def dashboard_numbers(page, server):
    status, body = api(page, server, "GET", "/api/v1/dashboard")
    assert status == 200, body
    return body


def test_new_user_sees_an_empty_day(server, page):
    new_user_with_profile(page, server)
    page.goto(server + "/dashboard")
    numbers = dashboard_numbers(page, server)
    target = f"{numbers['targets']['calories']:,}"

    badge = page.locator("#streak-badge")
    assert " ".join(badge.inner_text().split()) == "🔥 0 day streak"
    assert "streak-badge--active" not in badge.get_attribute("class")
    # Grey at 0: the fire faded and grey; the words grey but readable (4.5:1 or more, which half opacity was not).
    fire = badge.locator(".streak-badge__fire")
    assert float(fire.evaluate("el => getComputedStyle(el).opacity")) == 0.5, "grey streak at 0"
    assert fire.evaluate("el => getComputedStyle(el).filter") == "grayscale(1)"
    assert badge.evaluate("el => getComputedStyle(el).color") == "rgb(89, 89, 89)"

    assert page.get_by_text("Eating window: 12pm - 6pm").is_visible()
    assert page.get_by_role("link", name="Edit eating window").get_attribute("href") == "/settings#eating-window"
    assert page.locator(".phase-timer__label").inner_text() == "Day 1 of 14 · Maintenance phase"

    # The ring: nothing eaten, the full target, no segments, and the numbers for screen readers.
    assert page.locator("#ring-eaten").inner_text() == "0"
    assert page.locator(".ring__target").inner_text() == f"of {target} cal"
    assert page.locator(".ring__segment").count() == 0
    assert page.locator(".ring").get_attribute("aria-label") == f"Calories: 0 of {target}."
    assert page.locator("#totals").get_attribute("aria-live") == "polite"

    # No smileys before the first meal; the bars and "0/160g" are there.
    smileys = page.locator(".macro__smiley").all_inner_texts()
    assert smileys == ["", "", ""]
    assert page.locator(".macro__value").all_inner_texts() == [
        f"0/{numbers['targets']['protein']}g", f"0/{numbers['targets']['carbs']}g", f"0/{numbers['targets']['fat']}g",
    ]
    assert page.locator(".macro__label").all_inner_texts() == ["PROTEIN", "CARBS", "FATS"]

    assert page.get_by_text("Log today's weight to track progress").is_visible()
    card = page.locator("#weight-card")
    assert page.locator("#weight-card-value").inner_text() == "-- kg"
    assert "Tap to log your weight" in card.inner_text()
    assert page.locator(".weight-card__down").count() == 0

    log_meal = page.get_by_role("link", name="Log Meal")
    assert log_meal.get_attribute("href") == "/meals/new"
    assert log_meal.bounding_box()["height"] >= 44
    assert page.locator(".today-link").count() == 0
    assert page.locator(".coach__fire").inner_text() == "🔥😌", "Week 1: the gentle coach"
    assert page.locator('.tabbar a[aria-current="page"]').inner_text().endswith("Home")
    assert console_errors(page) == []
    screenshot(page, "03-dashboard-new")


def test_phase_info_explains_maintenance_and_links_to_learn(server, page):
    new_user_with_profile(page, server)
    page.goto(server + "/dashboard")
    info = page.get_by_role("button", name="About the maintenance phase")
    info.click()
    dialog = page.locator("#phase-info")
    assert dialog.is_visible()
    assert "Your body needs maintenance calories for 2 weeks to preserve metabolism." in dialog.inner_text()
    assert dialog.get_by_role("link").get_attribute("href") == "/learn/why-maintenance-first"
    dialog.get_by_role("button", name="Got it").click()
    assert not dialog.is_visible()
    assert page.evaluate("document.activeElement.getAttribute('aria-label')") == "About the maintenance phase"
    assert console_errors(page) == []


def test_a_meal_fills_the_ring_and_the_macros(server, page):
    new_user_with_profile(page, server)
    page.goto(server + "/dashboard")
    status, body = api(page, server, "POST", "/api/v1/meals",
                       {"name": "Lunch", "calories": 1250, "protein": 85, "carbs": 142, "fat": 38})
    assert status == 201, body
    page.reload()
    numbers = dashboard_numbers(page, server)
    target = f"{numbers['targets']['calories']:,}"

    assert page.locator("#ring-eaten").inner_text() == "1,250"
    assert page.locator(".ring__target").inner_text() == f"of {target} cal"
    # 85 g × 4 = 340, 142 g × 4 = 568, 38 g × 9 = 342 calories: three segments, clockwise from the top.
    segments = page.locator(".ring__segment")
    assert segments.count() == 3
    assert [segments.nth(i).get_attribute("class").split("--")[-1] for i in range(3)] == ["protein", "carbs", "fat"]
    label = page.locator(".ring").get_attribute("aria-label")
    assert label == f"Calories: 1,250 of {target}. Protein 340 calories. Carbs 568 calories. Fats 342 calories."
    # The segments together cover the eaten share of the target.
    lengths = [float(segments.nth(i).get_attribute("data-length")) for i in range(3)]
    assert abs(sum(lengths) - 1250 / numbers["targets"]["calories"] * 100) < 0.05

    smileys = page.locator(".macro__smiley").all_inner_texts()
    assert all(s in ("😊", "😐", "😞") for s in smileys), smileys
    assert page.locator(".macro__value").first.inner_text() == f"85/{numbers['targets']['protein']}g"
    badge = page.locator("#streak-badge")
    assert " ".join(badge.inner_text().split()) == "🔥 1 day streak"
    assert "streak-badge--active" in badge.get_attribute("class")
    assert page.get_by_role("link", name="See today's meals · 1 meal today").get_attribute("href") == "/meals/today"
    page.wait_for_timeout(800)  # let the ring finish growing before the picture
    assert console_errors(page) == []
    screenshot(page, "04-dashboard-day")


def test_reduced_motion_draws_the_ring_at_once(server, page):
    new_user_with_profile(page, server)
    api(page, server, "POST", "/api/v1/meals", {"name": "Snack", "calories": 400, "protein": 20, "carbs": 40, "fat": 10})
    page.emulate_media(reduced_motion="reduce")
    page.goto(server + "/dashboard")
    segment = page.locator(".ring__segment").first
    # No inline override and no transition: the rendered dash is shown straight away.
    assert segment.evaluate("el => el.style.strokeDasharray") == ""
    assert segment.evaluate("el => getComputedStyle(el).transitionDuration") in ("0s", "")
    assert console_errors(page) == []


def test_signed_out_visitor_goes_to_welcome(server, page):
    page.goto(server + "/dashboard")
    assert page.url == server + "/"
