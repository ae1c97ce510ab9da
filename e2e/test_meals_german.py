"""Logging meals in German (a de-DE browser at 320 px): German copy, German numbers, a decimal comma typed and saved."""
import re

from playwright.sync_api import expect

from conftest import fits, api, screenshot

CHICKEN = "Chicken, broiler or fryers, breast, skinless, boneless, meat only, raw"


def test_search_a_food_and_type_an_amount_with_a_comma(server, german):
    german.goto(server + "/meals/new")
    expect(german.locator("html")).to_have_attribute("lang", "de")
    expect(german.get_by_text("Essensfenster: 12:00–18:00")).to_be_visible()
    expect(german.get_by_text("Die Lebensmittel sind auf Englisch benannt")).to_be_visible()
    fits(german)
    screenshot(german, "de-06-log-meal")

    german.get_by_role("combobox", name="Lebensmittel suchen").press_sequentially("chicken breast raw", delay=30)
    chicken = german.get_by_role("option").filter(has=german.locator(f'.food-result__name[title="{CHICKEN}"]'))
    expect(chicken).to_contain_text("3 oz (85 g) · 102 kcal")
    expect(chicken).to_contain_text("120 kcal / 100 g")
    expect(chicken).to_contain_text("E 22,5 g · KH 0 g · F 2,6 g")
    expect(german.locator("#food-status")).to_have_text(re.compile(r"^\d+ Treffer$"))
    fits(german)
    screenshot(german, "de-06-log-meal-search")

    chicken.click()
    expect(german.locator("#portion-per100")).to_have_text("120 kcal pro 100 g · E 22,5 g · KH 0 g · F 2,6 g")
    expect(german.get_by_label("Einheit").locator("option").first).to_have_text("Gramm (g)")
    amount = german.get_by_label("Menge")
    amount.fill("150,5")
    # 120 × 1.505 = 180.6 kcal (shown whole), 22.5 × 1.505 = 33.9 g protein.
    expect(german.locator("#portion-kcal")).to_have_text("181")
    expect(german.locator("#portion-protein")).to_have_text("33,9")
    expect(german.locator("#portion-grams")).to_have_text("150,5 g")
    amount.fill("6000")
    expect(german.get_by_text("Die Menge muss zwischen 0,1 und 5000 g liegen")).to_be_visible()
    amount.fill("150,5")
    fits(german)
    screenshot(german, "de-06-log-meal-portion")

    german.get_by_role("button", name="Speichern").click()
    german.wait_for_url(server + "/meals/today")
    expect(german.locator(".toast").filter(has_text="Mahlzeit gespeichert!")).to_be_visible()
    expect(german.locator(".meal-row").first).to_contain_text("181 kcal")
    status, day = api(german, server, "GET", "/api/v1/meals")
    assert [(m["grams"], m["calories"]) for m in day["meals"]] == [(150.5, 180.6)]
    assert german.console_errors == []


def test_manual_meal_with_a_comma_then_delete_and_undo(server, german):
    german.goto(server + "/meals/new")
    german.get_by_role("button", name="Manuell").click()
    german.get_by_role("button", name="Mittagessen").click()
    expect(german.get_by_label("Name")).to_have_value("Mittagessen")
    calories = german.get_by_label("Kalorien")
    calories.fill("0")
    german.get_by_role("button", name="Speichern").click()
    expect(german.get_by_text("Die Kalorien müssen zwischen 1 und 9999 liegen", exact=True)).to_be_visible()
    calories.fill("650,5")
    german.get_by_label("Eiweiß (g)").fill("35,5")
    german.get_by_label("Kohlenhydrate (g)").fill("1.200")
    range_message = german.get_by_text("Die Kohlenhydrate müssen zwischen 0 und 999 g liegen", exact=True)
    expect(range_message).to_be_hidden()
    german.get_by_label("Kohlenhydrate (g)").blur()
    expect(range_message).to_be_visible()  # 1200 g is above 999 g: the message says the range
    german.get_by_label("Kohlenhydrate (g)").fill("80")
    fits(german)
    screenshot(german, "de-06-log-meal-manual")
    german.get_by_role("button", name="Speichern").click()
    german.wait_for_url(server + "/meals/today")
    status, day = api(german, server, "GET", "/api/v1/meals")
    assert [(m["name"], m["calories"], m["protein"], m["carbs"]) for m in day["meals"]] == [("Mittagessen", 650.5, 35.5, 80)]

    row = german.locator(".meal-row").first
    expect(row).to_contain_text("Mittagessen")
    expect(row).to_contain_text("651 kcal")
    expect(german.locator(".meal-totals__macro--protein")).to_contain_text("Eiweiß 36 g")
    fits(german)
    screenshot(german, "de-07-todays-meals")

    german.get_by_role("button", name="Mittagessen löschen").click()
    toast = german.locator(".toast").filter(has_text="Mahlzeit gelöscht")
    expect(toast).to_be_visible()
    expect(german.get_by_text("Heute noch keine Mahlzeit eingetragen.", exact=False)).to_be_visible()
    expect(german.get_by_role("link", name="Mahlzeit eintragen")).to_be_visible()
    toast.get_by_role("button", name="Rückgängig").click()
    expect(german.locator(".toast").filter(has_text="Mahlzeit wiederhergestellt")).to_be_visible()
    expect(german.get_by_role("link", name="Weitere Mahlzeit eintragen")).to_be_visible()
    expect(german.locator("#totals-summary")).to_contain_text("Tagessumme: 651 von ")

    # Edit: the value reads back with a comma; leaving with a change asks first, in German.
    row.get_by_role("link").click()
    german.wait_for_url("**/edit")
    expect(german.get_by_label("Kalorien")).to_have_value("650,5")
    german.get_by_label("Kalorien").fill("700")
    fits(german)
    german.get_by_role("link", name="Zurück zu den heutigen Mahlzeiten").click()
    dialog = german.get_by_role("dialog", name="Mahlzeit verwerfen?")
    expect(dialog).to_be_visible()
    screenshot(german, "de-07-discard")
    dialog.get_by_role("button", name="Weiter bearbeiten").click()
    german.get_by_role("button", name="Änderungen speichern").click()
    german.wait_for_url(server + "/meals/today")
    expect(german.locator(".toast").filter(has_text="Mahlzeit aktualisiert")).to_be_visible()
    assert german.console_errors == []
