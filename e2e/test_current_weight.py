"""PRODUCT.md "current weight" (issue 17 item 6, first bullet): the weight log is the one source of truth. The profile's
weight field shows the latest logged weight, changing it there logs a weight for today (it appears in the weight log),
the "large change" confirmation compares with the latest logged weight, the targets preview uses the weight the
targets will use, and a weight logged today moves the targets from tomorrow ("Your plan will be updated tomorrow")."""
import datetime

from playwright.sync_api import expect

from conftest import ARTIFACTS, api, capture, new_user_with_profile


def weights(page, server):
    status, body = api(page, server, "GET", "/api/v1/weights")
    assert status == 200, body
    return body["entries"]


def test_the_profile_weight_is_the_latest_logged_one_and_changing_it_logs_a_weight(page, server):
    # Onboarded at 80 kg (UTC), then weighed 68 kg yesterday: the weight log says 68 kg.
    new_user_with_profile(page, server)
    yesterday = (datetime.datetime.now(datetime.timezone.utc) - datetime.timedelta(days=1)).replace(hour=7, minute=0, second=0, microsecond=0)
    status, body = api(page, server, "POST", "/api/v1/weights", {"kg": 68, "loggedAt": yesterday.strftime("%Y-%m-%dT%H:%M:%SZ")})
    assert status == 201, body

    page.goto(server + "/profile")
    expect(page.locator("#profile-save")).to_be_disabled()
    # The field shows the latest logged weight, not the onboarding weight.
    expect(page.locator("#weight")).to_have_value("68")
    expect(page.locator("#weight-logs-today")).to_have_text(
        "A new weight here is logged for today (it appears in your weight entries), and your targets use it from tomorrow.")
    # Today's targets come from 68 kg, the latest weight before today began: protein 2.0 × 68 = 136 g, water 2,380 ml.
    expect(page.locator('[data-target="protein"] [data-target-value]')).to_have_text("136")
    expect(page.locator('[data-target="water"] [data-target-value]')).to_have_text("2,380")
    capture(page, ARTIFACTS / "current-weight-01-profile.png", full_page=True)

    # 67 kg is 1 kg from the latest logged weight: no "large change" question (it is 13 kg from the onboarding 80 kg).
    page.locator("#weight").fill("67")
    page.locator("#profile-save").click()
    expect(page.locator("#confirm-dialog")).to_be_hidden()
    dialog = page.locator("#targets-dialog")
    expect(dialog).to_be_visible()
    # The preview compares tomorrow from 68 kg with tomorrow from 67 kg: the weight the targets will use.
    expect(dialog.locator('[data-change="proteinGrams"] .profile__change-values')).to_have_text("136g → 134g (-2g)")
    expect(dialog.locator('[data-change="waterMl"] .profile__change-values')).to_have_text("2,380ml → 2,345ml (-35ml)")
    expect(page.locator("#targets-dialog-timing")).to_contain_text("tomorrow's daily plan, generated at midnight")
    capture(page, ARTIFACTS / "current-weight-02-targets.png")
    dialog.get_by_role("button", name="Got It").click()

    # The change is a weight logged today, in the weight log; the profile's own record keeps the onboarding weight.
    logged = weights(page, server)
    assert sorted(w["kg"] for w in logged) == [67, 68], logged
    status, profile = api(page, server, "GET", "/api/v1/profile")
    assert profile["weightKg"] == 67

    # Today's targets stay on 68 kg until midnight; the card says what tomorrow brings.
    page.reload()
    expect(page.locator("#weight")).to_have_value("67")
    expect(page.locator('[data-target="protein"] [data-target-value]')).to_have_text("136")
    expect(page.locator('[data-target="protein"] [data-target-pending]')).to_contain_text("→ 134 g from")
    expect(page.locator("#pending-notice")).to_contain_text("Your plan will be updated tomorrow at midnight")
    page.locator("#section-targets").scroll_into_view_if_needed()
    capture(page, ARTIFACTS / "current-weight-03-targets-tomorrow-390.png")
    # At 320 px the weight field and tomorrow's targets fit without scrolling sideways.
    page.set_viewport_size({"width": 320, "height": 720})
    assert page.evaluate("document.documentElement.scrollWidth") <= 320
    page.locator("#weight").scroll_into_view_if_needed()
    capture(page, ARTIFACTS / "current-weight-03-weight-320.png")
    page.locator("#section-targets").scroll_into_view_if_needed()
    capture(page, ARTIFACTS / "current-weight-03-targets-tomorrow-320.png")
    page.set_viewport_size({"width": 390, "height": 844})

    # The dashboard agrees: today's weight is 67 kg, today's protein goal still 136 g, and the plan moves tomorrow.
    page.goto(server + "/dashboard")
    expect(page.locator(".plan-notice")).to_have_text("Your plan will be updated tomorrow.")
    expect(page.locator(".macro__value").first).to_have_text("0/136g")
    expect(page.locator("#weight-card-value")).to_have_text("67.0 kg")
    capture(page, ARTIFACTS / "current-weight-04-dashboard.png", full_page=True)
    assert page.console_errors == []


def test_a_large_change_is_measured_from_the_latest_logged_weight(page, server):
    new_user_with_profile(page, server)
    status, body = api(page, server, "POST", "/api/v1/weights", {"kg": 92})
    assert status == 201, body
    page.goto(server + "/profile")
    expect(page.locator("#weight")).to_have_value("92")
    # 80 kg is 12 kg below the logged 92 kg (and no change from the onboarding weight): the page asks.
    page.locator("#weight").fill("80")
    page.locator("#profile-save").click()
    confirm = page.locator("#confirm-dialog")
    expect(confirm).to_be_visible()
    expect(confirm.locator("h2")).to_have_text("⚠️ Large Weight Change Detected")
    expect(confirm).to_contain_text("You're changing your weight by 12 kg.")
    expect(confirm).to_contain_text("Previous: 92 kg")
    expect(confirm).to_contain_text("New: 80 kg")
    capture(page, ARTIFACTS / "current-weight-05-large-change.png")
    assert page.console_errors == []
