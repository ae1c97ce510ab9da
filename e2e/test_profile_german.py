"""The profile editor in German (a de-DE browser at 320 px): German copy and numbers, "82,5" typed, the script's
messages the same as the API's, a confirmation and the targets dialog in German, and nothing wider than the screen."""
import json
import re

from playwright.sync_api import expect

from conftest import fits, csrf_token, screenshot


def german_api(page, server, method, path, body=None):
    response = page.request.fetch(
        server + path, method=method, data=body,
        headers={"X-CSRF-Token": csrf_token(page), "Content-Type": "application/json", "Origin": server,
                 "Accept-Language": "de-DE,de;q=0.9"},
    )
    text = response.text()
    return response.status, (json.loads(text) if text else None)


def test_the_editor_reads_german_and_fits(server, german):
    german.goto(server + "/profile")
    expect(german.locator("html")).to_have_attribute("lang", "de")
    expect(german.locator("h1")).to_have_text("Profil bearbeiten")
    expect(german.locator("#about-title")).to_have_text("Über dich")
    expect(german.locator('input[name="sex"] + span')).to_have_text(["Männlich", "Weiblich", "Divers"])
    expect(german.locator("#goal option")).to_have_text(["Abnehmen", "Gewicht halten", "Zunehmen"])
    expect(german.locator('[data-target="bmr"] [data-target-value]')).to_have_text(re.compile(r"^\d\.\d{3}$"))
    expect(german.locator('[data-target="water"] [data-target-value]')).to_have_text("2.800")
    expect(german.locator("#profile-save")).to_have_text("Änderungen speichern")
    # The screen reader's descriptions are German too, written by the script at load.
    expect(german.locator("#weight-a11y")).to_have_text("Aktuelles Gewicht: 80 Kilogramm. Gib dein aktuelles Gewicht in Kilogramm ein")
    expect(german.locator("#preferences-a11y")).to_have_text(
        "0 Ernährungsvorlieben ausgewählt. Füge Ernährungsvorlieben oder Einschränkungen hinzu. Höchstens 10 Einträge.")
    fits(german)
    screenshot(german, "de-profile")
    german.locator('[data-target="calories"] summary').click()
    expect(german.locator('[data-target="calories"] .profile__explanation')).to_contain_text("MATADOR-Zyklen")
    fits(german)
    assert german.console_errors == []


def test_a_decimal_comma_and_german_messages(server, german):
    german.goto(server + "/profile")
    weight = german.locator("#weight")
    weight.fill("600")
    weight.blur()
    expect(german.locator("#weight-error")).to_have_text("⚠️ Das Gewicht muss unter 500 kg liegen")
    expect(german.locator("#profile-announcer")).to_have_text("Fehler. Aktuelles Gewicht. Das Gewicht muss unter 500 kg liegen")
    weight.fill("82,5")
    weight.blur()
    expect(german.locator("#weight-error")).to_have_text("")
    expect(german.locator('[data-field="weightKg"] .field__valid')).to_have_text("✓ Gültiges Gewicht")
    # In pounds: 82.5 kg = 181.9 lb, written with a comma.
    german.locator('input[name="weightUnitToggle"][value="lb"] + span').click()
    expect(weight).to_have_value("181,9")
    expect(german.locator("[data-target-unit-copy]")).to_have_text("Dein Zielgewicht in lb.")
    german.locator('input[name="weightUnitToggle"][value="kg"] + span').click()
    expect(weight).to_have_value("82,5")
    # The Save button's errors banner.
    german.locator("#height-cm").fill("30")
    german.locator("#profile-save").click()
    expect(german.locator("#error-banner")).to_have_text("⚠️ Bitte korrigiere 1 Fehler weiter unten")
    expect(german.locator("#height-error")).to_have_text("⚠️ Die Größe muss mindestens 50 cm betragen")
    fits(german)


def test_every_script_message_is_the_api_message_in_german(server, german):
    german.goto(server + "/profile")
    today = german.locator("#profile-form").get_attribute("data-today")
    rules = [("dateOfBirth", "2020-01-01"), ("dateOfBirth", "1890-01-01"), ("dateOfBirth", "2099-01-01"), ("sex", None),
             ("heightCm", 49), ("heightCm", 301), ("heightCm", "groß"), ("weightKg", 19), ("weightKg", 501),
             ("targetWeightKg", 19), ("targetWeightKg", 501), ("goal", None), ("targetDate", today),
             ("targetDate", "2099-01-01"), ("activity", None), ("mealsPerDay", 0), ("mealsPerDay", 11),
             ("dietaryPreferences", [f"Diät {n}" for n in range(11)]), ("allergies", [f"Zutat {n}" for n in range(21)])]
    for member, value in rules:
        body = {"dateOfBirth": "1995-06-15", "sex": "male", "heightCm": 180, "weightKg": 80, "goal": "lose",
                "activity": "moderate", "timeZone": "UTC", member: value}
        status, answer = german_api(german, server, "PUT", "/api/v1/profile", body)
        assert status == 422, (member, value, answer)
        server_message = answer["error"]["fields"][member]
        page_message = german.evaluate(
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
        assert not server_message.startswith("Please"), server_message


def test_a_large_weight_change_confirmed_and_the_targets_dialog_in_german(server, german):
    german.goto(server + "/profile")
    german.locator("#weight").fill("92,5")
    german.locator("#profile-save").click()
    dialog = german.locator("#confirm-dialog")
    expect(dialog.locator("#confirm-title")).to_have_text("⚠️ Große Gewichtsänderung")
    expect(dialog).to_contain_text("Du änderst dein Gewicht um 12,5 kg. Das ist eine deutliche Änderung.")
    expect(dialog).to_contain_text("Bisher: 80 kg")
    expect(dialog).to_contain_text("Neu: 92,5 kg")
    fits(german)
    screenshot(german, "de-profile-confirm")
    dialog.get_by_role("button", name="Bestätigen").click()
    targets = german.locator("#targets-dialog")
    expect(targets.locator("h2")).to_have_text("✓ Deine Ziele wurden aktualisiert")
    # Water: 35 ml × 92.5 kg = 3,237.5 → 3,238 ml.
    expect(targets.locator('[data-change="waterMl"] .profile__change-values')).to_have_text("2.800 ml → 3.238 ml (+438 ml)")
    expect(targets.locator("#targets-dialog-timing")).to_contain_text(
        "Diese Änderungen gelten ab dem Tagesplan von morgen, der um Mitternacht erstellt wird (")
    fits(german)
    screenshot(german, "de-profile-targets-dialog")
    targets.get_by_role("button", name="Verstanden").click()
    expect(german.locator("#pending-notice")).to_contain_text("Dein Plan wird morgen um Mitternacht aktualisiert")
    expect(german.locator('[data-target="water"] [data-target-pending]')).to_have_text(re.compile(r"^→ 3\.238 ml ab .+ \(\+438\)$"))
    assert german.console_errors == []
