"""The profile editor of seed 001 at /profile, at 390×844: sections, units, validation, the save flow and its
feedback, the confirmations of §12, leaving with unsaved changes, offline save and sync, conflicts and 429."""
import re

from playwright.sync_api import expect

from conftest import ARTIFACTS, api, new_user_with_profile, screenshot as full_page_screenshot


def screenshot(page, name: str) -> None:
    """The whole page, and what the 390×844 screen shows (the sticky bar and dialogs as a person sees them)."""
    full_page_screenshot(page, name)
    page.screenshot(path=str(ARTIFACTS / f"{name}-screen.png"))


def open_profile(page, server, **overrides):
    new_user_with_profile(page, server, **overrides)
    page.goto(server + "/profile")
    expect(page.locator("#profile-save")).to_be_disabled()
    return page


def age_on(page) -> int:
    """The fixture's age (born 1995-06-15) on the page's today: the server runs on the real clock."""
    year, month, day = map(int, page.locator("#profile-form").get_attribute("data-today").split("-"))
    return year - 1995 - (1 if (month, day) < (6, 15) else 0)


def bmr(page, weight_kg=80, height_cm=180) -> int:
    """Mifflin-St Jeor for the fixture's man."""
    return round(10 * weight_kg + 6.25 * height_cm - 5 * age_on(page) + 5)


def grouped(n) -> str:
    return f"{round(n):,}"


def handled_errors(page, *statuses):
    """Console errors other than the failed requests a test caused on purpose."""
    return [e for e in page.console_errors if not any(f"status of {s}" in e for s in statuses)]


def test_sections_in_order_with_badges_and_targets(page, server):
    open_profile(page, server)
    headings = page.locator(".profile__section h2").all_inner_texts()
    assert headings == ["About You", "Current Status", "Your Goal", "Activity & Lifestyle", "Diet & Preferences", "Current Targets"]
    badged = [s.locator("h2").inner_text() for s in page.locator(".profile__section").all() if s.locator(".profile__badge").count()]
    assert badged == ["About You", "Current Status", "Your Goal", "Activity & Lifestyle"]
    expect(page.locator(".profile__badge").first).to_have_text("🔄 Affects your plan")
    # 180 cm, 80 kg, moderately active: at 31, BMR 1,775 and TDEE 1,775 × 1.55 = 2,751; protein 160 g, water 2,800 ml.
    expect(page.locator('[data-target="bmr"] [data-target-value]')).to_have_text(grouped(bmr(page)))
    expect(page.locator('[data-target="tdee"] [data-target-value]')).to_have_text(grouped(bmr(page) * 1.55))
    expect(page.locator('[data-target="protein"] [data-target-value]')).to_have_text("160")
    expect(page.locator('[data-target="water"] [data-target-value]')).to_have_text("2,800")
    # ℹ️ explanations open in place.
    page.locator('[data-target="tdee"] summary').click()
    expect(page.locator('[data-target="tdee"] .profile__explanation')).to_contain_text("Calculated from: BMR × Activity Level Multiplier")
    # The save bar stays in view; every control of the form is at least 44 px tall.
    box = page.locator("#profile-save").bounding_box()
    assert box["y"] + box["height"] <= 844 and box["height"] >= 44
    for selector in ["#meals-minus", "#meals-plus", ".profile__suggestion", ".profile__segmented span", "#use-date, #goal"]:
        heights = page.locator(selector).evaluate_all("els => els.filter(e => e.offsetParent).map(e => e.getBoundingClientRect().height)")
        assert all(h >= 44 for h in heights), (selector, heights)
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(page, "profile-01-top")
    screenshot(page, "profile-02-full")
    assert page.console_errors == []


def test_unit_toggles_convert_live_with_one_decimal(page, server):
    open_profile(page, server, weightKg=82.5)
    page.locator('label:has(input[name="weightUnitToggle"][value="lb"])').click()
    expect(page.locator("#weight")).to_have_value("181.9")
    expect(page.locator("[data-weight-unit]").first).to_have_text("lb")
    page.locator('label:has(input[name="weightUnitToggle"][value="kg"])').click()
    expect(page.locator("#weight")).to_have_value("82.5")
    # Converting back and forth is no change.
    expect(page.locator("#profile-save")).to_be_disabled()

    page.locator('label:has(input[name="heightUnitToggle"][value="ftIn"])').click()
    expect(page.locator("#height-ft")).to_have_value("5")
    expect(page.locator("#height-in")).to_have_value("10.9")
    page.locator("#height-in").fill("9")
    page.locator('label:has(input[name="heightUnitToggle"][value="cm"])').click()
    # 5 ft 9 in = 69 in = 175.3 cm.
    expect(page.locator("#height-cm")).to_have_value("175.3")
    expect(page.locator("#profile-save")).to_be_enabled()
    assert page.console_errors == []


def test_inline_validation_and_the_banner_on_submit(page, server):
    open_profile(page, server)
    page.locator("#weight").fill("600")
    page.locator("#weight").blur()
    expect(page.locator("#weight-error")).to_have_text("⚠️ Weight must be less than 500 kg (1102 lbs)")
    expect(page.locator("#weight")).to_have_attribute("aria-invalid", "true")
    # Nothing blocks typing: the field still takes input while it is wrong.
    page.locator("#height-cm").fill("")
    page.locator("#target-weight").fill("abc")
    page.locator("#target-weight").blur()
    expect(page.locator("#target-weight-error")).to_have_text("⚠️ Please enter a valid number")
    page.locator("#profile-save").click()
    expect(page.locator("#error-banner")).to_have_text("⚠️ Please fix 3 errors below")
    expect(page.locator("#height-error")).to_have_text("⚠️ Please enter a valid number")
    # The first error in the form's order has the focus.
    assert page.evaluate("document.activeElement.id") == "height-cm"
    screenshot(page, "profile-03-validation")
    page.locator("#height-cm").fill("180")
    page.locator("#height-cm").blur()
    expect(page.locator("#height-error")).to_have_text("")
    assert page.console_errors == []


RULES = [
    ("dateOfBirth", "2015-01-01"), ("dateOfBirth", "1900-01-01"), ("sex", None), ("heightCm", 49.9), ("heightCm", 300.1),
    ("heightCm", "tall"), ("weightKg", 19.9), ("weightKg", 500.1), ("weightKg", "heavy"), ("targetWeightKg", 19.9),
    ("targetWeightKg", 500.1), ("targetWeightKg", "light"), ("goal", None), ("activity", None),
    ("dietaryPreferences", [f"Diet {i}" for i in range(11)]), ("allergies", [f"Food {i}" for i in range(21)]),
    ("mealsPerDay", 0), ("mealsPerDay", 11),
]


def test_every_message_matches_the_api(page, server):
    """001 §5: the page's rules and the API answer each rule with the same words."""
    open_profile(page, server)
    today = page.locator("#profile-form").get_attribute("data-today")
    rules = RULES + [("dateOfBirth", "2099-01-01"), ("targetDate", today), ("targetDate", "2099-01-01")]
    for member, value in rules:
        body = {"dateOfBirth": "1995-06-15", "sex": "male", "heightCm": 180, "weightKg": 80, "goal": "lose",
                "activity": "moderate", "timeZone": "UTC", member: value}
        status, answer = api(page, server, "PUT", "/api/v1/profile", body)
        assert status == 422, (member, value, answer)
        server_message = answer["error"]["fields"][member]
        page_message = page.evaluate(
            """([member, value, today]) => {
                const R = window.ProfileRules;
                const number = (v) => typeof v === "number" ? {value: v} : R.parseNumber(v);
                const draft = {dateOfBirth: "1995-06-15", sex: "male", heightCm: {value: 180}, weightKg: {value: 80},
                  goal: "lose", targetWeightKg: {missing: true}, targetDate: "", activity: "moderate",
                  dietaryPreferences: [], allergies: [], mealsPerDay: 3};
                draft[member] = ["heightCm", "weightKg", "targetWeightKg"].includes(member) ? number(value) : value;
                return R.fieldError(member, draft, today);
            }""",
            [member, value, today],
        )
        assert page_message == server_message, (member, value)
    assert handled_errors(page, 422) == []


def test_weight_change_shows_the_targets_dialog_with_the_date(page, server):
    open_profile(page, server)
    page.locator("#weight").fill("75")
    expect(page.locator("#profile-save")).to_be_enabled()
    page.locator("#profile-save").click()
    dialog = page.locator("#targets-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator("h2")).to_contain_text("Your Targets Have Been Updated")
    # Protein 2.0 g × 75 kg, water 35 ml × 75 kg (001 §7's own example).
    expect(dialog.locator('[data-change="proteinGrams"] .profile__change-values')).to_have_text("160g → 150g (-10g)")
    expect(dialog.locator('[data-change="waterMl"] .profile__change-values')).to_have_text("2,800ml → 2,625ml (-175ml)")
    expect(dialog.locator('[data-change="bmr"] .profile__change-values')).to_have_text(
        f"{grouped(bmr(page))} → {grouped(bmr(page, weight_kg=75))} (-50)")
    expect(page.locator("#targets-dialog-timing")).to_contain_text("These changes will be reflected in tomorrow's daily plan, generated at midnight (")
    expect(page.locator("#profile-save")).to_have_text("✓ Saved")
    screenshot(page, "profile-04-targets-updated")
    dialog.get_by_role("button", name="Got It").click()
    expect(page.locator("#profile-save")).to_have_text("Save Changes", timeout=4000)
    expect(page.locator("#profile-save")).to_be_disabled()
    expect(page.locator("#pending-notice")).to_contain_text("Your plan will be updated tomorrow at midnight")
    status, profile = api(page, server, "GET", "/api/v1/profile")
    assert profile["weightKg"] == 75
    assert page.console_errors == []


def test_tags_stepper_and_a_simple_toast(page, server):
    open_profile(page, server)
    tags = page.locator('[data-tags="dietaryPreferences"]')
    expect(tags.locator("[data-empty]")).to_contain_text("No preferences selected")
    tags.locator('[data-suggestion="Vegan"]').click()
    tags.locator("input").fill("Low-FODMAP")
    tags.locator("input").press("Enter")
    expect(tags.locator(".profile__tag")).to_have_count(2)
    expect(tags.locator('[data-suggestion="Vegan"]')).to_be_hidden()
    allergies = page.locator('[data-tags="allergies"]')
    allergies.locator('[data-suggestion="Peanuts"]').click()
    allergies.locator('[data-suggestion="Sesame"]').click()
    allergies.locator('[data-tag="Sesame"]').click()
    expect(allergies.locator(".profile__tag")).to_have_count(1)
    page.locator("#meals-plus").click()
    page.locator("#meals-plus").click()
    expect(page.locator("#meals-value")).to_have_text("5")
    expect(page.locator("#meals-value")).to_have_attribute("aria-valuetext", "5 meals per day")
    screenshot(page, "profile-05-diet")
    page.locator("#profile-save").click()
    expect(page.locator(".toast")).to_contain_text("✓ Profile updated successfully")
    status, profile = api(page, server, "GET", "/api/v1/profile")
    assert profile["dietaryPreferences"] == ["Vegan", "Low-FODMAP"]
    assert profile["allergies"] == ["Peanuts"]
    assert profile["mealsPerDay"] == 5
    # The stepper stops at 10.
    for _ in range(6):
        page.locator("#meals-plus").click(force=True)
    expect(page.locator("#meals-value")).to_have_text("10")
    expect(page.locator("#meals-plus")).to_be_disabled()
    assert page.console_errors == []


def confirm_dialog(page):
    dialog = page.locator("#confirm-dialog")
    expect(dialog).to_be_visible()
    return dialog


def test_date_of_birth_and_height_confirmations(page, server):
    open_profile(page, server)
    page.locator("#date-of-birth").fill("1990-08-15")
    page.locator("#profile-save").click()
    dialog = confirm_dialog(page)
    expect(dialog.locator("h2")).to_have_text("Confirm Date of Birth Change")
    expect(dialog).to_contain_text("Changing your date of birth will affect your baseline calorie calculations.")
    expect(dialog).to_contain_text("Previous: June 15, 1995")
    expect(dialog).to_contain_text("New: August 15, 1990")
    expect(dialog).to_contain_text("This change will recalculate your BMR and update your plan tomorrow.")
    screenshot(page, "profile-06-confirm-dob")
    dialog.get_by_role("button", name="Cancel").click()
    expect(dialog).to_be_hidden()
    status, profile = api(page, server, "GET", "/api/v1/profile")
    assert profile["dateOfBirth"] == "1995-06-15", "Cancel saves nothing"
    # The edit is still there; now a height change of 8 cm too.
    page.locator("#height-cm").fill("188")
    page.locator("#profile-save").click()
    confirm_dialog(page).get_by_role("button", name="Confirm").click()
    dialog = confirm_dialog(page)
    expect(dialog.locator("h2")).to_have_text("Large Height Change Detected")
    expect(dialog).to_contain_text("You're changing your height by 8 cm. For most adults, height doesn't change significantly.")
    dialog.get_by_role("button", name="Confirm").click()
    expect(page.locator("#targets-dialog")).to_be_visible()
    status, profile = api(page, server, "GET", "/api/v1/profile")
    assert profile["dateOfBirth"] == "1990-08-15" and profile["heightCm"] == 188
    assert page.console_errors == []


def test_weight_goal_timeline_and_extreme_confirmations(page, server):
    open_profile(page, server)
    # Weight more than 10 kg away: Cancel puts the previous weight back.
    page.locator("#weight").fill("92")
    page.locator("#profile-save").click()
    dialog = confirm_dialog(page)
    expect(dialog.locator("h2")).to_have_text("⚠️ Large Weight Change Detected")
    expect(dialog).to_contain_text("You're changing your weight by 12 kg. This is a significant change.")
    expect(dialog).to_contain_text("✓ You've weighed yourself properly (morning, before eating)")
    expect(dialog).to_contain_text("Previous: 80 kg")
    expect(dialog).to_contain_text("New: 92 kg")
    screenshot(page, "profile-07-confirm-weight")
    dialog.get_by_role("button", name="Cancel").click()
    expect(page.locator("#weight")).to_have_value("80")

    # Goal change, with the expected calories and protein from the preview.
    page.locator("#goal").select_option("maintain")
    page.locator("#profile-save").click()
    dialog = confirm_dialog(page)
    expect(dialog.locator("h2")).to_have_text("Change Your Goal?")
    expect(dialog).to_contain_text("Current goal: Lose Weight")
    expect(dialog).to_contain_text("New goal: Maintain Weight")
    expect(dialog).to_contain_text("• Protein: 160g → ~128g")
    # Maintain eats the TDEE.
    expect(dialog).to_contain_text(re.compile(r"• Calories: [\d,]+ → ~" + grouped(bmr(page) * 1.55)))
    expect(dialog.get_by_role("button", name="Change Goal")).to_be_visible()
    screenshot(page, "profile-08-confirm-goal")
    dialog.get_by_role("button", name="Cancel").click()
    page.locator("#goal").select_option("lose")

    # Unrealistic timeline: 20 kg in 4 weeks; "Adjust Date" fills in the recommended date (20 weeks).
    today = page.locator("#profile-form").get_attribute("data-today")
    page.locator("#target-weight").fill("60")
    four_weeks = page.evaluate("([t]) => ProfileRules.addDays(t, 28)", [today])
    page.locator("#target-date").fill(four_weeks)
    expect(page.locator("#timeline-helper")).to_contain_text("To lose 20 kg safely: 20-40 weeks (at 0.5-1kg/week)")
    page.locator("#profile-save").click()
    dialog = confirm_dialog(page)
    expect(dialog.locator("h2")).to_have_text("⚠️ Unrealistic Timeline")
    expect(dialog).to_contain_text("requires losing 5 kg per week.")
    expect(dialog).to_contain_text("• Safe rate: 0.5-1 kg/week")
    expect(dialog).to_contain_text("(20 weeks)")
    screenshot(page, "profile-09-confirm-timeline")
    dialog.get_by_role("button", name="Adjust Date").click()
    recommended = page.evaluate("([t]) => ProfileRules.addDays(t, 140)", [today])
    expect(page.locator("#target-date")).to_have_value(recommended)

    # Extreme height: "Edit" goes back to the field.
    page.locator("#height-cm").fill("251")
    page.locator("#profile-save").click()
    confirm_dialog(page).get_by_role("button", name="Confirm").click()  # height change > 5 cm
    dialog = confirm_dialog(page)
    expect(dialog.locator("h2")).to_have_text("Verify Height")
    expect(dialog).to_contain_text("You entered: 251 cm (8'3\")")
    expect(dialog).to_contain_text("This is unusually tall. Please verify you entered the correct value.")
    dialog.get_by_role("button", name="Edit").click()
    assert page.evaluate("document.activeElement.id") == "height-cm"
    status, profile = api(page, server, "GET", "/api/v1/profile")
    assert profile["heightCm"] == 180 and profile.get("targetWeightKg") is None
    assert page.console_errors == []


def test_use_this_date_helper(page, server):
    open_profile(page, server)
    page.locator("#target-weight").fill("75")
    helper = page.locator("#timeline-helper")
    expect(helper).to_contain_text("Based on your current weight (80 kg) and target weight (75 kg):")
    expect(helper).to_contain_text("To lose 5 kg safely: 5-10 weeks (at 0.5-1kg/week)")
    page.get_by_role("button", name="Use This Date").click()
    today = page.locator("#profile-form").get_attribute("data-today")
    expect(page.locator("#target-date")).to_have_value(page.evaluate("([t]) => ProfileRules.addDays(t, 35)", [today]))
    assert page.console_errors == []


def test_leaving_with_unsaved_changes_asks_first(page, server):
    open_profile(page, server)
    page.locator("#weight").fill("79")
    page.locator('.tabbar a[href="/dashboard"]').click()
    dialog = page.locator("#discard-dialog")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("You have unsaved changes to your profile. If you leave now, your changes will be lost.")
    screenshot(page, "profile-10-discard")
    dialog.get_by_role("button", name="Cancel").click()
    assert page.url.endswith("/profile")
    expect(page.locator("#weight")).to_have_value("79")
    # A reload keeps the draft: no keystroke lost.
    page.on("dialog", lambda d: d.accept())
    page.reload()
    expect(page.locator("#weight")).to_have_value("79")
    expect(page.locator("#profile-save")).to_be_enabled()
    page.locator(".profile__back").click()
    page.locator("#discard-dialog").get_by_role("button", name="Discard").click()
    page.wait_for_url("**/settings")
    page.goto(server + "/profile")
    expect(page.locator("#weight")).to_have_value("80")
    assert page.console_errors == []


def test_offline_save_locally_then_sync_on_reconnect(page, server):
    open_profile(page, server)
    page.locator("#weight").fill("78.5")
    page.context.set_offline(True)
    expect(page.locator("#offline-banner")).to_be_visible()
    expect(page.locator("#offline-banner")).to_contain_text("You're offline")
    expect(page.locator("#profile-save")).to_have_text("💾 Save Locally")
    page.locator("#profile-save").click()
    expect(page.locator(".toast").last).to_contain_text("✓ Changes saved locally")
    expect(page.locator("#profile-save")).to_have_text("💾 Saved Locally")
    screenshot(page, "profile-11-offline")
    page.context.set_offline(False)
    expect(page.locator(".toast").last).to_contain_text("✓ Profile synced", timeout=10000)
    status, profile = api(page, server, "GET", "/api/v1/profile")
    assert profile["weightKg"] == 78.5
    expect(page.locator("#offline-banner")).to_be_hidden()
    assert [e for e in page.console_errors if "ERR_INTERNET_DISCONNECTED" not in e] == []


def test_conflict_keep_local_or_use_server(page, server):
    open_profile(page, server)
    # Another device saves 83 kg after this page opened.
    status, other = api(page, server, "PUT", "/api/v1/profile",
                        {"dateOfBirth": "1995-06-15", "sex": "male", "heightCm": 180, "weightKg": 83, "goal": "lose",
                         "activity": "moderate", "timeZone": "UTC"})
    assert status == 200
    page.locator("#weight").fill("82")
    page.locator("#profile-save").click()
    dialog = page.locator("#conflict-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator("h2")).to_have_text("Sync Conflict")
    expect(dialog.locator('[data-member="weightKg"]')).to_contain_text("Current weight:")
    expect(dialog.locator('[data-member="weightKg"]')).to_contain_text("• Local: 82 kg")
    expect(dialog.locator('[data-member="weightKg"]')).to_contain_text("• Server: 83 kg (edited")
    screenshot(page, "profile-12-conflict")
    dialog.get_by_role("button", name="Keep Local").click()
    expect(page.locator(".toast").last).to_contain_text("✓ Weight updated to 82 kg")
    status, profile = api(page, server, "GET", "/api/v1/profile")
    assert profile["weightKg"] == 82

    # And "Use Server": the form shows the server's copy.
    status, other = api(page, server, "PUT", "/api/v1/profile",
                        {"dateOfBirth": "1995-06-15", "sex": "male", "heightCm": 180, "weightKg": 84, "goal": "lose",
                         "activity": "moderate", "timeZone": "UTC"})
    page.locator("#meals-plus").click()
    page.locator("#profile-save").click()
    expect(dialog).to_be_visible()
    dialog.get_by_role("button", name="Use Server").click()
    expect(page.locator("#weight")).to_have_value("84")
    expect(page.locator("#meals-value")).to_have_text("3")
    expect(page.locator("#profile-save")).to_be_disabled()
    assert handled_errors(page, 409) == []


def test_rate_limit_shows_the_countdown(page, server):
    open_profile(page, server)
    # Ten changes (from 3 meals: 1, 2, 4 … 10, 1); the page then makes the 11th.
    for meals in [1, 2, 4, 5, 6, 7, 8, 9, 10, 1]:
        status, _ = api(page, server, "PUT", "/api/v1/profile",
                        {"dateOfBirth": "1995-06-15", "sex": "male", "heightCm": 180, "weightKg": 80, "goal": "lose",
                         "activity": "moderate", "timeZone": "UTC", "mealsPerDay": meals})
        assert status == 200
    page.reload()
    page.locator("#meals-plus").click()
    page.locator("#profile-save").click()
    dialog = page.locator("#rate-limit-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator("h2")).to_contain_text("Too Many Updates")
    expect(dialog).to_contain_text("You've updated your profile recently. Please wait a moment before making more changes.")
    expect(page.locator("#rate-limit-countdown")).to_have_text(re.compile(r"^59m \d+s$"))
    first = page.locator("#rate-limit-countdown").inner_text()
    page.wait_for_timeout(2100)
    assert page.locator("#rate-limit-countdown").inner_text() != first, "the countdown ticks every second"
    expect(page.locator("#profile-save")).to_have_text(re.compile(r"^Try again in 59m \d+s$"))
    expect(page.locator("#profile-save")).to_be_disabled()
    screenshot(page, "profile-13-rate-limit")
    dialog.get_by_role("button", name="OK").click()
    assert handled_errors(page, 429) == []


def test_server_errors_are_retried_then_offered_to_retry(page, server):
    open_profile(page, server)
    calls = {"n": 0}

    def fail(route):
        if route.request.method == "PUT":
            calls["n"] += 1
            route.fulfill(status=503, content_type="application/json",
                          body='{"error":{"code":"unavailable","message":"The service is unavailable. Please try again."}}')
        else:
            route.continue_()

    page.route("**/api/v1/profile", fail)
    page.locator("#meals-plus").click()
    page.locator("#profile-save").click()
    dialog = page.locator("#server-error-dialog")
    # The first try and three automatic retries after 2, 5 and 10 s.
    expect(dialog).to_be_visible(timeout=25000)
    assert calls["n"] == 4
    expect(dialog).to_contain_text("Our servers are having issues. Your changes haven't been saved yet.")
    expect(page.locator("#server-error-code")).to_have_text("503")
    expect(page.locator("#profile-save")).to_have_text("Retry")
    page.unroute("**/api/v1/profile")
    dialog.get_by_role("button", name="Retry").click()
    expect(page.locator(".toast").last).to_contain_text("✓ Profile updated successfully")
    status, profile = api(page, server, "GET", "/api/v1/profile")
    assert profile["mealsPerDay"] == 4
    assert handled_errors(page, 503) == []


def test_a_hanging_save_is_kept_locally_after_ten_seconds(page, server):
    open_profile(page, server)
    held = []
    # The PUT never gets an answer (the route is neither fulfilled nor continued).
    page.route("**/api/v1/profile", lambda route: held.append(route) if route.request.method == "PUT" else route.continue_())
    page.locator("#meals-plus").click()
    page.locator("#profile-save").click()
    expect(page.locator("#profile-save")).to_contain_text("This is taking longer than usual...", timeout=8000)
    dialog = page.locator("#connection-dialog")
    expect(dialog).to_be_visible(timeout=8000)
    expect(dialog).to_contain_text("Your changes are saved locally and will sync when connection is restored.")
    screenshot(page, "profile-14-connection-issue")
    page.unroute("**/api/v1/profile")
    dialog.get_by_role("button", name="Retry Now").click()
    expect(page.locator(".toast").last).to_contain_text("✓ Profile synced")
    status, profile = api(page, server, "GET", "/api/v1/profile")
    assert profile["mealsPerDay"] == 4
    assert [e for e in page.console_errors if "ERR_" not in e and "abort" not in e.lower()] == []
