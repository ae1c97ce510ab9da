"""The profile editor of seed 001 at /profile, at 390×844: sections, units, validation, the save flow and its
feedback, the confirmations of §12, leaving with unsaved changes, offline save and sync, conflicts and 429."""
import re

from playwright.sync_api import expect

from conftest import ARTIFACTS, api, capture, new_user_with_profile, screenshot as full_page_screenshot


def screenshot(page, name: str) -> None:
    """The whole page, and what the 390×844 screen shows (the sticky bar and dialogs as a person sees them)."""
    full_page_screenshot(page, name)
    capture(page, ARTIFACTS / f"{name}-screen.png")


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
    # 001 §8 "Empty Tag Fields", verbatim, with the common choices below the empty box.
    expect(tags.locator(".profile__tags-empty")).to_have_text('🍽️ No preferences selectedTap "+" to add')
    expect(tags.locator(".profile__tags-common")).to_have_text("Common: Vegetarian, Vegan, Keto, Paleo")
    allergies = page.locator('[data-tags="allergies"]')
    expect(allergies.locator(".profile__tags-empty")).to_have_text('✓ No allergies listedTap "+" to add')
    expect(allergies.locator(".profile__tags-common")).to_have_text("Common: Peanuts, Dairy, Gluten, Shellfish")
    tags.locator('[data-suggestion="Vegan"]').click()
    expect(tags.locator("[data-empty]")).to_have_count(2)
    for element in tags.locator("[data-empty]").all():
        expect(element).to_be_hidden()
    tags.locator("input").fill("Low-FODMAP")
    tags.locator("input").press("Enter")
    expect(tags.locator(".profile__tag")).to_have_count(2)
    expect(tags.locator('[data-suggestion="Vegan"]')).to_be_hidden()
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
    # 001 §7 "Modal (No Changes)": the new preferences, and the targets stay as they are.
    dialog = page.locator("#preferences-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator("h2")).to_have_text("✓ Dietary Preferences Updated")
    expect(dialog.locator(".profile__bullet")).to_have_text(["• Vegan", "• Low-FODMAP"])
    expect(dialog).to_contain_text("These will appear in tomorrow's meal suggestions. Your calorie and macro targets remain unchanged.")
    screenshot(page, "profile-05b-preferences-updated")
    dialog.get_by_role("button", name="Got It").click()
    expect(page.locator("[data-target-pending]:visible")).to_have_count(0)
    status, profile = api(page, server, "GET", "/api/v1/profile")
    assert profile["dietaryPreferences"] == ["Vegan", "Low-FODMAP"]
    assert profile["allergies"] == ["Peanuts"]
    assert profile["mealsPerDay"] == 5
    # The stepper stops at 10.
    for _ in range(6):
        page.locator("#meals-plus").click(force=True)
    expect(page.locator("#meals-value")).to_have_text("10")
    expect(page.locator("#meals-plus")).to_be_disabled()
    # A change that touches neither the targets nor the preferences: the simple toast (001 §6 "Base Success").
    page.locator("#profile-save").click()
    expect(page.locator(".toast").last).to_contain_text("✓ Profile updated successfully")
    expect(page.locator("#preferences-dialog")).to_be_hidden()
    # The toast covers the top of the screen (001 §6 "Toast (top)"): the stepper is brought to the middle.
    page.locator("#meals-minus").evaluate("(e) => e.scrollIntoView({ block: 'center' })")
    for _ in range(9):
        page.locator("#meals-minus").click(force=True)
    expect(page.locator("#meals-value")).to_have_text("1")
    expect(page.locator("#meals-minus")).to_be_disabled()
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
    # Another device saves a height of 183 cm after this page opened. (A weight from another device is no conflict:
    # it is a weight logged, and the latest one is the current weight.)
    status, other = api(page, server, "PUT", "/api/v1/profile",
                        {"dateOfBirth": "1995-06-15", "sex": "male", "heightCm": 183, "weightKg": 80, "goal": "lose",
                         "activity": "moderate", "timeZone": "UTC"})
    assert status == 200
    page.locator("#weight").fill("82")
    page.locator("#profile-save").click()
    dialog = page.locator("#conflict-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator("h2")).to_have_text("Sync Conflict")
    expect(dialog.locator('[data-member="heightCm"]')).to_contain_text("• Server: 183 cm (6'0\") (edited")
    expect(dialog.locator('[data-member="weightKg"]')).to_contain_text("Current weight:")
    expect(dialog.locator('[data-member="weightKg"]')).to_contain_text("• Local: 82 kg")
    expect(dialog.locator('[data-member="weightKg"]')).to_contain_text("• Server: 80 kg (edited")
    screenshot(page, "profile-12-conflict")
    # The button is disabled while the save is in flight too: wait for the save's answer before reading the server.
    with page.expect_response(lambda r: r.url.endswith("/api/v1/profile") and r.request.method == "PUT") as saved:
        dialog.get_by_role("button", name="Keep Local").click()
    assert saved.value.status == 200
    expect(dialog).to_be_hidden()
    expect(page.locator("#profile-save")).to_be_disabled()
    status, profile = api(page, server, "GET", "/api/v1/profile")
    assert profile["weightKg"] == 82 and profile["heightCm"] == 180

    # And "Use Server": the form shows the server's copy.
    status, other = api(page, server, "PUT", "/api/v1/profile",
                        {"dateOfBirth": "1995-06-15", "sex": "male", "heightCm": 184, "weightKg": 82, "goal": "lose",
                         "activity": "moderate", "timeZone": "UTC"})
    page.locator("#meals-plus").click()
    page.locator("#profile-save").click()
    expect(dialog).to_be_visible()
    dialog.get_by_role("button", name="Use Server").click()
    expect(page.locator("#height-cm")).to_have_value("184")
    expect(page.locator("#weight")).to_have_value("82")
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


SECTIONS = [
    ("section-about", "About You", True,
     "Basic information that affects your metabolic calculations. Your age, gender, and height help us calculate how many calories your body burns at rest."),
    ("section-status", "Current Status", True,
     "Track your current weight to monitor progress. Update this regularly (ideally weekly) to keep your plan accurate and motivating."),
    ("section-goal", "Your Goal", True,
     "Define what you want to achieve and when. Your goal determines your calorie target, macro split, and projected timeline."),
    ("section-activity", "Activity & Lifestyle", True,
     "How active are you on a typical day? Your activity level affects your TDEE (Total Daily Energy Expenditure) - the total calories you burn."),
    ("section-diet", "Diet & Preferences", False,
     "Dietary restrictions and meal preferences. These affect meal suggestions but don't change your calorie or macro targets."),
    ("section-targets", "Current Targets", False,
     "Your daily nutrition targets (automatically calculated). These update whenever you change health metrics or activity level."),
]


def test_each_section_with_its_header_description_and_fields(page, server):
    """001 §2–4, section by section: header, description, badge, the fields' labels and helper texts."""
    open_profile(page, server)
    for section_id, title, badged, description in SECTIONS:
        section = page.locator(f"#{section_id}")
        expect(section.locator("h2")).to_have_text(title)
        expect(section.locator(".profile__description")).to_have_text(description)
        expect(section.locator(".profile__badge")).to_have_count(1 if badged else 0)
        expect(section).to_have_accessible_name(title)
        section.scroll_into_view_if_needed()
        capture(section, ARTIFACTS / f"profile-section-{section_id}.png")
    about = page.locator("#section-about")
    expect(about.locator("label[for=date-of-birth]")).to_have_text("Date of Birth")
    expect(about.locator(".profile__segmented--wide span")).to_have_text(["Male", "Female", "Other"])
    expect(about).to_contain_text("Your age affects calorie calculations. We use this to estimate your basal metabolic rate (BMR) - the calories your body burns at rest.")
    expect(about).to_contain_text("Metric: Centimeters (e.g., 175 cm = 5'9\")")
    status = page.locator("#section-status")
    expect(status).to_contain_text("💡 Tip: Same time, same conditions for consistency")
    expect(status).to_contain_text("🔄 Changes >1kg will update your plan targets.")
    goal = page.locator("#section-goal")
    expect(goal.locator("#goal option")).to_have_text(["Lose Weight", "Maintain Weight", "Gain Weight"])
    expect(goal).to_contain_text("🔄 Changing your goal recalculates your daily calorie and protein targets.")
    expect(goal).to_contain_text("Healthy weight gain: 0.25-0.5kg per week")
    activity = page.locator("#section-activity")
    expect(activity.locator(".profile__activity strong")).to_have_text(
        ["Sedentary", "Lightly Active", "Moderately Active", "Very Active", "Extremely Active"])
    expect(activity.locator(".profile__multiplier")).to_have_text(
        ["(1.2× BMR multiplier)", "(1.375× BMR multiplier)", "(1.55× BMR multiplier)", "(1.725× BMR multiplier)", "(1.9× BMR multiplier)"])
    diet = page.locator("#section-diet")
    expect(diet.locator('[data-tags="dietaryPreferences"] [data-suggestion]')).to_have_count(10)
    expect(diet.locator('[data-tags="allergies"] [data-suggestion]')).to_have_count(10)
    expect(diet).to_contain_text("⚠️ For severe allergies, always verify meal ingredients yourself.")
    expect(diet).to_contain_text("Common: 3 meals + 2 snacks = 5 total")
    targets = page.locator("#section-targets .profile__target-label")
    expect(targets).to_have_text(["BMR", "TDEE", "Daily Calories", "Daily Protein", "Daily Water"])
    # Every ℹ️ explanation of §4 opens in place, with its title.
    for row, title, line in [
        ("bmr", "Basal Metabolic Rate (BMR)", "Calculated from: Age, gender, height, and weight"),
        ("tdee", "Total Daily Energy Expenditure (TDEE)", "This is your maintenance calories. Eat this amount to maintain your current weight."),
        ("calories", "Daily Calorie Target", "• Gain muscle: TDEE + 250 (for ~0.25kg/week gain)"),
        ("protein", "Daily Protein Target", "• Maintain: 1.6g per kg (maintain muscle)"),
        ("water", "Daily Water Target", "💡 Drink more if you exercise or it's hot outside."),
    ]:
        explanation = page.locator(f'[data-target="{row}"] .profile__explanation')
        expect(explanation).to_be_hidden()
        page.locator(f'[data-target="{row}"] summary').click()
        expect(explanation).to_contain_text(title)
        expect(explanation).to_contain_text(line)
    capture(page.locator("#section-targets"), ARTIFACTS / "profile-section-targets-explained.png")
    assert page.console_errors == []


# 001 §5 in the form: (field, how to break it, the error's element, the message), each on its own.
FORM_RULES = [
    ("#date-of-birth", "years_ago:12", "#date-of-birth-error", "You must be at least 13 years old to use w-diet"),
    ("#date-of-birth", "1900-01-01", "#date-of-birth-error", "Please enter a valid date of birth"),
    ("#date-of-birth", "days_ahead:1", "#date-of-birth-error", "Date of birth cannot be in the future"),
    ("#height-cm", "49.9", "#height-error", "Height must be at least 50 cm (1'8\")"),
    ("#height-cm", "300.1", "#height-error", "Height must be less than 300 cm (9'10\")"),
    ("#height-cm", "tall", "#height-error", "Please enter a valid number"),
    ("#weight", "19.9", "#weight-error", "Weight must be at least 20 kg (44 lbs)"),
    ("#weight", "500.1", "#weight-error", "Weight must be less than 500 kg (1102 lbs)"),
    ("#weight", "heavy", "#weight-error", "Please enter a valid number"),
    ("#target-weight", "19.9", "#target-weight-error", "Target weight must be at least 20 kg (44 lbs)"),
    ("#target-weight", "500.1", "#target-weight-error", "Target weight must be less than 500 kg (1102 lbs)"),
    ("#target-weight", "light", "#target-weight-error", "Please enter a valid number"),
    ("#target-date", "days_ahead:0", "#target-date-error", "Target date must be in the future"),
    ("#target-date", "days_ahead:732", "#target-date-error", "Target date must be within 2 years"),
    ("sex", "uncheck", "#sex-error", "Please select your gender"),
    ("goal", "unselect", "#goal-error", "Please select your primary goal"),
    ("activity", "uncheck", "#activity-error", "Please select your activity level"),
    ('[data-tags="dietaryPreferences"] input', "tags:11", "#preferences-error", "Maximum 10 dietary preferences allowed"),
    ('[data-tags="allergies"] input', "tags:21", "#allergies-error", "Maximum 20 allergies allowed"),
]


def test_every_message_appears_in_the_form_for_its_rule(page, server):
    """001 §5, row by row in the page: typed and left (on blur), or on submit for the choices a person cannot
    empty by tapping; each message verbatim under its field, the banner counting one error. The stepper's two
    rules cannot be reached (it stops at 1 and 10: test_tags_stepper_and_a_simple_toast); the API and the script
    answer them (test_every_message_matches_the_api, ProfileValidationMessagesTests)."""
    open_profile(page, server)
    today = page.locator("#profile-form").get_attribute("data-today")
    page.on("dialog", lambda d: d.accept())  # "Leave site?" after an invalid edit
    for selector, action, error, message in FORM_RULES:
        page.evaluate("localStorage.clear()")  # the draft of the row before
        page.goto(server + "/profile")
        if action == "uncheck":
            page.evaluate("(name) => document.querySelectorAll(`input[name=${name}]`).forEach((r) => { r.checked = false; })", selector)
            page.locator("#meals-plus").click()  # some change, so that the save button submits
            page.locator("#profile-save").click()
        elif action == "unselect":
            page.evaluate("() => { const s = document.getElementById('goal'); s.value = ''; s.dispatchEvent(new Event('change', {bubbles: true})); }")
            page.locator("#profile-save").click()
        elif action.startswith("tags:"):
            field = page.locator(selector)
            for i in range(int(action[5:])):
                field.fill(f"Item {i + 1}")
                field.press("Enter")
            field.blur()
        else:
            value = action
            if action.startswith("days_ahead:"):
                value = page.evaluate("([t, n]) => ProfileRules.addDays(t, n)", [today, int(action.split(":")[1])])
            elif action.startswith("years_ago:"):
                year, rest = today.split("-", 1)
                value = f"{int(year) - int(action.split(':')[1])}-{rest}"
            page.locator(selector).fill(value)
            page.locator(selector).blur()
        expect(page.locator(error)).to_have_text(f"⚠️ {message}")
        if action in ("uncheck", "unselect"):
            expect(page.locator("#error-banner")).to_have_text("⚠️ Please fix 1 error below")
        # Nothing else is wrong.
        expect(page.locator(".field__error:not(:empty)")).to_have_count(1)
    assert page.console_errors == []


def test_the_banner_scrolls_to_and_focuses_the_first_error(page, server):
    open_profile(page, server)
    page.locator("#meals-plus").click()
    page.locator("#target-weight").fill("abc")
    page.locator("#weight").fill("")
    page.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    page.locator("#profile-save").click()
    expect(page.locator("#error-banner")).to_have_text("⚠️ Please fix 2 errors below")
    expect(page.locator("#error-banner")).to_have_attribute("role", "alert")
    expect(page.locator("#weight")).to_be_focused()
    expect(page.locator("#weight")).to_be_in_viewport()
    expect(page.locator("#profile-announcer")).to_have_text("Validation failed. 2 errors found. Scrolling to first error.")
    # Correcting a field says so; typing clears the banner.
    page.locator("#weight").fill("80")
    page.locator("#weight").blur()
    expect(page.locator("#profile-announcer")).to_have_text("Current weight valid")
    expect(page.locator("#error-banner")).to_be_hidden()
    assert page.console_errors == []


def test_current_targets_show_what_tomorrow_brings_after_a_save(page, server):
    """001 §2 Section 6: "shows before/after when values change after save" — until midnight the card keeps
    today's numbers and shows tomorrow's beside them, from the page's own save and after a reload."""
    open_profile(page, server)
    pending = page.locator('[data-target="protein"] [data-target-pending]')
    expect(pending).to_be_hidden()
    page.locator("#weight").fill("75")
    page.locator("#profile-save").click()
    page.locator("#targets-dialog").get_by_role("button", name="Got It").click()
    today = page.locator("#profile-form").get_attribute("data-today")
    tomorrow = page.evaluate(
        """([t]) => new Date(ProfileRules.addDays(t, 1) + "T00:00:00Z").toLocaleDateString("en-GB",
             {weekday: "short", day: "numeric", month: "short", timeZone: "UTC"}).replace(",", "")""", [today])
    # Today's protein stays 160 g; from tomorrow 2.0 g × 75 kg.
    expect(page.locator('[data-target="protein"] [data-target-value]')).to_have_text("160")
    expect(pending).to_have_text(f"→ 150 g from {tomorrow} (-10)")
    expect(page.locator('[data-target="water"] [data-target-pending]')).to_have_text(f"→ 2,625 ml from {tomorrow} (-175)")
    page.locator("#section-targets").scroll_into_view_if_needed()
    screenshot(page, "profile-15-targets-tomorrow")
    page.reload()
    expect(pending).to_have_text(f"→ 150 g from {tomorrow} (-10)")
    # A second edit the same day counts from the morning's numbers: 78 kg is -4 g, not +6 g.
    page.locator("#weight").fill("78")
    page.locator("#profile-save").click()
    page.locator("#targets-dialog").get_by_role("button", name="Got It").click()
    expect(pending).to_have_text(f"→ 156 g from {tomorrow} (-4)")
    # Back to the morning's weight: nothing waits any more.
    page.locator("#weight").fill("80")
    page.locator("#profile-save").click()
    expect(pending).to_be_hidden()
    page.reload()
    expect(pending).to_be_hidden()
    expect(page.locator("[data-target-pending]:visible")).to_have_count(0)
    assert page.console_errors == []


def test_labels_hints_and_values_for_screen_readers(page, server):
    """001 §3 and §10: each field's label, its hint and its value as the accessibility tree gives them."""
    open_profile(page, server, weightKg=82.5, targetWeightKg=75, dietaryPreferences=["Vegetarian", "Keto"])
    expect(page.locator("#date-of-birth")).to_have_accessible_name("Date of birth")
    expect(page.locator("#date-of-birth")).to_have_accessible_description(
        "Born on June 15, 1995. Select your date of birth. Used for metabolic calculations.")
    expect(page.locator("#height-cm")).to_have_accessible_name("Height")
    expect(page.locator("#height-cm")).to_have_accessible_description("Height: 180 centimeters. Enter your height in centimeters")
    expect(page.locator("#weight")).to_have_accessible_name("Current Weight")
    expect(page.locator("#weight")).to_have_accessible_description("Current weight: 82.5 kilograms. Enter your current weight in kilograms")
    expect(page.locator("#target-weight")).to_have_accessible_description("Target weight: 75 kilograms. Enter your target weight in kilograms")
    expect(page.locator("#goal")).to_have_accessible_description("Select your main fitness objective")
    expect(page.locator("#target-date")).to_have_accessible_description("Select when you want to reach your goal")
    expect(page.locator("#preferences-input")).to_have_accessible_description(
        "2 dietary preferences selected: Vegetarian, Keto. Add any dietary preferences or restrictions. Maximum 10 items.")
    expect(page.locator("#allergies-input")).to_have_accessible_description(
        "0 allergies listed. Add any food allergies or sensitivities. Maximum 20 items.")
    expect(page.locator("#meals-value")).to_have_accessible_name("Meals Per Day")
    expect(page.locator("#meals-value")).to_have_attribute("aria-valuetext", "3 meals per day")
    expect(page.locator("#meals-value")).to_have_accessible_description("Adjust the number of meals you prefer each day")
    expect(page.locator("fieldset[data-field=sex]")).to_have_accessible_description("Select your gender. Used for metabolic calculations.")
    expect(page.locator('[data-tag="Keto"]')).to_have_accessible_name("Keto tag. Remove")
    # The unit follows the toggle, and so does the value.
    page.locator('label:has(input[name="weightUnitToggle"][value="lb"])').click()
    expect(page.locator("#weight")).to_have_accessible_description("Current weight: 181.9 pounds. Enter your current weight in pounds")
    expect(page.locator("#profile-announcer")).to_have_text("Unit changed to pounds. Weight is now 181.9")
    page.locator('label:has(input[name="heightUnitToggle"][value="ftIn"])').click()
    expect(page.locator("#height-ft")).to_have_accessible_description("Height: 5 feet 10.9 inches. Enter your height in feet and inches")
    # Errors are announced and described on the field.
    page.locator("#weight").fill("1200")
    page.locator("#weight").blur()
    expect(page.locator("#profile-announcer")).to_have_text("Error. Current weight. Weight must be less than 500 kg (1102 lbs)")
    expect(page.locator("#weight")).to_have_accessible_description(re.compile(r"Weight must be less than 500 kg \(1102 lbs\)$"))
    # The save button's states in words.
    expect(page.locator("#profile-save")).to_have_accessible_name("Save Changes")
    assert page.console_errors == []


def test_return_moves_to_the_next_field_and_focus_follows_the_form(page, server):
    """001 §9: Return is "Next", never a save; §10: focus goes through the fields in visual order, then Save."""
    open_profile(page, server)
    page.locator("#weight").fill("79")
    page.locator("#weight").press("Enter")
    expect(page.locator("#goal")).to_be_focused()
    expect(page.locator("#confirm-dialog")).to_be_hidden()
    expect(page.locator(".toast")).to_have_count(0)
    page.locator("#target-weight").fill("75")
    page.locator("#target-weight").press("Enter")
    expect(page.locator("#target-date")).to_be_focused()
    status, profile = api(page, server, "GET", "/api/v1/profile")
    assert profile["weightKg"] == 80, "Return saved nothing"

    page.locator(".profile__back").focus()
    seen = []
    for _ in range(90):
        page.keyboard.press("Tab")
        seen.append(page.evaluate("document.activeElement.id || document.activeElement.name || document.activeElement.className"))
        if seen[-1] == "profile-save":
            break
    wanted = ["date-of-birth", "sex", "heightUnitToggle", "height-cm", "weightUnitToggle", "weight", "goal", "target-weight",
              "target-date", "activity", "preferences-input", "allergies-input", "meals-value", "profile-save"]
    order = [seen.index(w) for w in wanted]
    assert order == sorted(order), seen
    # 44 px targets for everything a finger taps.
    small = page.evaluate("""() => Array.from(document.querySelectorAll(
        '#profile-form button, #profile-form input:not([type=radio]), #profile-form select, #profile-form summary, .profile__segmented label, .profile__activity, .profile__back'))
        .filter((e) => e.offsetParent !== null)
        .map((e) => [e.id || e.className || e.tagName, Math.round(e.getBoundingClientRect().height), Math.round(e.getBoundingClientRect().width)])
        .filter(([, h, w]) => h < 44 || w < 44)""")
    assert small == [], small
    assert page.console_errors == []


def test_text_scales_with_the_browsers_text_size(page, server):
    """Dynamic Type on the web (001 §10): the browser's own font-size setting (Chromium's, through the DevTools
    protocol) scales every text of the page, and nothing runs off the 390 px screen at twice the size."""
    open_profile(page, server)
    sizes = "() => ['#about-title', 'label[for=date-of-birth]', '#weight', '#date-of-birth-hint', '#profile-save'].map((s) => parseFloat(getComputedStyle(document.querySelector(s)).fontSize))"
    before = page.evaluate(sizes)
    cdp = page.context.new_cdp_session(page)
    cdp.send("Page.setFontSizes", {"fontSizes": {"standard": 32, "fixed": 26}})
    page.reload()
    after = page.evaluate(sizes)
    assert all(abs(a / b - 2) < 0.01 for a, b in zip(after, before)), (before, after)
    wide = page.evaluate("""() => Array.from(document.querySelectorAll('body *'))
        .filter((e) => e.offsetParent !== null && e.getBoundingClientRect().right > 390.5)
        .map((e) => (e.id || e.className || e.tagName) + "@" + ((e.closest("[data-field]") || {}).dataset || {}).field + ":" + Math.round(e.getBoundingClientRect().right))""")
    assert wide == [], wide
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    clipped = page.evaluate("""() => Array.from(document.querySelectorAll('.profile__section *'))
        .filter((e) => e.offsetParent !== null && e.children.length === 0 && e.scrollWidth > e.clientWidth + 1
                       && !e.classList.contains('visually-hidden')
                       && getComputedStyle(e).overflow !== 'visible')
        .map((e) => e.id || e.className || e.textContent.slice(0, 30))""")
    assert clipped == [], clipped
    for selector in ["#section-about", "#section-targets"]:
        box = page.locator(selector).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= 390, (selector, box)
    # Screen-sized shots only: a full-page screenshot resets the emulated font sizes.
    page.evaluate("window.scrollTo(0, 0)")
    capture(page, ARTIFACTS / "profile-16-large-text.png")
    page.locator("#section-targets").scroll_into_view_if_needed()
    capture(page, ARTIFACTS / "profile-16-large-text-targets.png")
    assert page.console_errors == []


def test_reduced_motion_stops_the_animations(browser, server):
    """With "reduce motion" on, the error pulse and the spinner do not move; without it they do."""
    results = {}
    for motion in ("no-preference", "reduce"):
        context = browser.new_context(viewport={"width": 390, "height": 844}, reduced_motion=motion)
        page = context.new_page()
        open_profile(page, server)
        page.locator("#meals-plus").click()
        page.locator("#weight").fill("")
        page.locator("#profile-save").click()
        field = page.locator('[data-field="weightKg"]')
        expect(field).to_have_class(re.compile("field--pulse"))
        results[motion] = field.evaluate("(e) => getComputedStyle(e).animationName")
        context.close()
    assert results == {"no-preference": "profile-pulse", "reduce": "none"}, results


def test_extreme_weight_keep_anyway_and_change_goal_save(page, server):
    """The confirm paths of §12 that save: "Keep Anyway" keeps the user's date, "Change Goal" saves the goal, and
    an extreme weight asks "Verify Weight" after the large-change check."""
    open_profile(page, server)
    today = page.locator("#profile-form").get_attribute("data-today")
    # 10 kg in 4 weeks is 2.5 kg a week: kept anyway.
    page.locator("#target-weight").fill("70")
    four_weeks = page.evaluate("([t]) => ProfileRules.addDays(t, 28)", [today])
    page.locator("#target-date").fill(four_weeks)
    page.locator("#profile-save").click()
    dialog = confirm_dialog(page)
    expect(dialog.locator("h2")).to_have_text("⚠️ Unrealistic Timeline")
    expect(dialog).to_contain_text("• Your rate: 2.5 kg/week")
    dialog.get_by_role("button", name="Keep Anyway").click()
    # Target weight and date move no target: the simple toast.
    expect(page.locator(".toast").last).to_contain_text("✓ Profile updated successfully")
    status, profile = api(page, server, "GET", "/api/v1/profile")
    assert profile["targetDate"] == four_weeks and profile["targetWeightKg"] == 70
    page.keyboard.press("Escape")

    # Goal: Change Goal saves, and the targets dialog shows calories and protein moving.
    page.locator("#goal").select_option("gain")
    page.locator("#profile-save").click()
    dialog = confirm_dialog(page)
    expect(dialog).to_contain_text("New goal: Gain Weight")
    expect(dialog).to_contain_text("• Protein: 160g → ~176g")
    dialog.get_by_role("button", name="Change Goal").click()
    targets = page.locator("#targets-dialog")
    expect(targets).to_be_visible()
    expect(targets.locator('[data-change="proteinGrams"] .profile__change-values')).to_have_text("160g → 176g (+16g)")
    expect(targets.locator('[data-change="calories"] .profile__change-title')).to_have_text("Daily Calories")
    targets.get_by_role("button", name="Got It").click()
    status, profile = api(page, server, "GET", "/api/v1/profile")
    assert profile["goal"] == "gain"

    # 25 kg: more than 10 kg away, a new timeline (45 kg to gain in 4 weeks), then below 30 kg.
    page.locator("#weight").fill("25")
    page.locator("#profile-save").click()
    confirm_dialog(page).get_by_role("button", name="Confirm").click()
    expect(confirm_dialog(page).locator("h2")).to_have_text("⚠️ Unrealistic Timeline")
    confirm_dialog(page).get_by_role("button", name="Keep Anyway").click()
    dialog = confirm_dialog(page)
    expect(dialog.locator("h2")).to_have_text("Verify Weight")
    expect(dialog).to_contain_text("You entered: 25 kg (55 lbs)")
    expect(dialog).to_contain_text("This is below the typical healthy range. Please verify this is correct.")
    expect(dialog).to_contain_text("Typical range: 50-120 kg")
    screenshot(page, "profile-17-verify-weight")
    dialog.get_by_role("button", name="Edit").click()
    expect(page.locator("#weight")).to_be_focused()
    status, profile = api(page, server, "GET", "/api/v1/profile")
    assert profile["weightKg"] == 80

    # Activity: the Pro Tip of 001 §3, once.
    page.locator('label.profile__activity:has(input[value="very"])').click()
    expect(page.locator(".toast").last).to_contain_text("💡 Pro Tip: Activity level changes can affect your calorie target significantly.")
    expect(page.locator(".toast").last.get_by_role("button", name="OK, Got It")).to_be_visible()
    assert handled_errors(page) == []
