"""The first day in German (issue 16): a browser that asks for German goes from the welcome screen through onboarding
to the dashboard, logs a meal from the food search and a weight, and looks at progress, an article and settings —
every page German, numbers and dates written the German way, and no English copy left anywhere on the way."""
import json
import pathlib
import re

from playwright.sync_api import expect

from conftest import screenshot

ROOT = pathlib.Path(__file__).resolve().parent.parent
STRINGS = ROOT / "Sources" / "WDietCore" / "Resources" / "strings"


def catalog(language: str) -> dict:
    entries = {}
    for path in sorted((STRINGS / language).glob("*.json")):
        for name, value in json.loads(path.read_text(encoding="utf-8")).items():
            entries[f"{path.stem}.{name}"] = value
    return entries


DE = catalog("de")
EN = catalog("en")


def de(key: str, **values) -> str:
    text = DE[key]
    if isinstance(text, dict):
        text = text["one" if values.get("count") == 1 else "other"]
    return re.sub(r"\{(\w+)\}", lambda m: str(values.get(m.group(1), m.group(0))), text)


def english_left_on(page) -> list:
    """English catalog strings (a few words or more, different in German) that the page still shows."""
    text = page.locator("body").inner_text()
    left = []
    for key, english in EN.items():
        forms = english.values() if isinstance(english, dict) else [english]
        german = DE.get(key)
        german_forms = german.values() if isinstance(german, dict) else [german]
        for form in forms:
            fixed = re.split(r"\{\w+\}", form)
            for piece in fixed:
                piece = piece.strip(" .,:;!?·–-()")
                if len(piece) >= 12 and " " in piece and piece not in german_forms and not any(piece in g for g in german_forms if g) \
                        and piece in text:
                    left.append(f"{key}: {piece}")
    return left


def german_page(page, name: str) -> None:
    assert page.locator("html").get_attribute("lang") == "de"
    assert english_left_on(page) == [], name
    screenshot(page, f"16-de-{name}")


def test_first_day_in_german(server, browser):
    context = browser.new_context(locale="de-DE", viewport={"width": 390, "height": 844}, device_scale_factor=2,
                                  is_mobile=True, has_touch=True)
    page = context.new_page()
    errors = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))

    # The glossary of docs/strings.md, pinned: these words are the app's German.
    assert [de("onboarding.next"), de("meals.save"), de("nav.home"), de("nav.progress"), de("nav.learn"),
            de("nav.settings"), de("dashboard.logMeal"), de("weights.logWeight")] == [
        "Weiter", "Speichern", "Start", "Fortschritt", "Wissen", "Einstellungen", "Mahlzeit eintragen", "Gewicht eintragen"]

    # Welcome and the account step.
    page.goto(server + "/")
    expect(page.get_by_role("heading", level=1)).to_contain_text("Lerne deinen Feuer-Coach kennen")
    german_page(page, "welcome")
    page.get_by_role("link", name=de("welcome.getStarted")).click()
    page.wait_for_url("**/onboarding")
    german_page(page, "account")
    page.get_by_role("button", name=de("onboarding.continueAsGuest")).click()
    page.wait_for_url("**/onboarding/profile*")

    def next_step():
        page.get_by_role("button", name=re.compile(f"^({de('onboarding.next')}|{de('onboarding.finish')})$")).click()

    # Gender: Next without a choice says so in German (the validator's message).
    expect(page.locator("#wizard-count")).to_have_text(de("onboarding.stepCount", step=2, total=8))
    next_step()
    expect(page.get_by_text("Bitte wähle dein Geschlecht")).to_be_visible()
    german_page(page, "gender")
    page.get_by_text(de("onboarding.genderFemale"), exact=True).click()
    next_step()

    # Age.
    page.get_by_label(de("onboarding.dateOfBirth")).fill("1990-04-20")
    expect(page.locator("#age-hint")).to_have_text(re.compile(r"^Du bist \d+\.$"))
    german_page(page, "age")
    next_step()

    # Height, with the range message in German.
    height = page.get_by_label(de("onboarding.heightCmLabel"))
    height.fill("40")
    next_step()
    expect(page.get_by_text("Die Größe muss mindestens 50 cm betragen")).to_be_visible()
    height.fill("165")
    next_step()

    # Weight: the picker writes a decimal comma.
    expect(page.locator("#weight-value")).to_have_text("70,0 kg")
    page.locator("#weight-whole").select_option("68")
    page.locator("#weight-decimal").select_option("5")
    expect(page.locator("#weight-value")).to_have_text("68,5 kg")
    german_page(page, "weight")
    next_step()

    # Activity and goal.
    page.get_by_text(de("onboarding.activityLight"), exact=True).click()
    next_step()
    page.get_by_text(de("onboarding.goalLose"), exact=True).click()
    german_page(page, "goal")
    next_step()

    # The eating window, in 24-hour times.
    expect(page.locator("#window-range")).to_have_text(re.compile(r"^12(:00)?\s*–\s*18(:00)? Uhr$"))
    german_page(page, "window")
    next_step()

    # The dashboard.
    page.wait_for_url("**/dashboard")
    expect(page.get_by_role("link", name=de("nav.progress"))).to_be_visible()
    expect(page.locator(".macro__label").first).to_have_text("EIWEISS")
    german_page(page, "dashboard")

    # Log a meal from the food search (USDA names stay English; the copy around them is German).
    page.goto(server + "/meals/new")
    german_page(page, "log-meal")
    search = page.get_by_role("combobox", name=de("meals.searchLabel"))
    search.press_sequentially("banana raw", delay=30)
    option = page.get_by_role("option").filter(has_text="Bananas, raw").first
    expect(option).to_be_visible()
    german_page(page, "log-meal-search")
    option.click()
    amount = page.get_by_label(de("meals.amountLabel"))
    amount.fill("150")
    # 89 kcal per 100 g (SR28) × 1.5 = 133.5 → 134.
    expect(page.locator("#portion-kcal")).to_have_text("134")
    page.get_by_role("button", name=de("meals.save"), exact=True).click()
    page.wait_for_url("**/meals/today")
    expect(page.locator(".toast").filter(has_text=de("meals.saved"))).to_be_visible()
    expect(page.locator(".meal-row").first).to_contain_text("Bananas, raw")
    expect(page.get_by_text(de("meals.summaryMeals", count=1))).to_be_visible()
    german_page(page, "meals-today")

    # A weight from the dashboard: the card writes it the German way, the streak in German.
    page.goto(server + "/dashboard")
    page.get_by_role("button", name=de("weights.logWeight")).first.click()
    sheet = page.locator("#weight-sheet")
    expect(sheet).to_be_visible()
    german_page(page, "weight-sheet")
    sheet.locator("select").nth(0).select_option("68")
    sheet.locator("select").nth(1).select_option("2")
    sheet.get_by_role("button", name=de("weights.save"), exact=True).click()
    expect(sheet).to_be_hidden()
    expect(page.locator("#weight-card-value")).to_have_text("68,2 kg")
    expect(page.locator("#streak-badge")).to_contain_text("1 Tag in Folge")
    german_page(page, "dashboard-after")

    # Progress, an article, settings.
    page.get_by_role("link", name=de("nav.progress")).click()
    page.wait_for_url("**/progress")
    expect(page.get_by_text("68,2 kg").first).to_be_visible()
    german_page(page, "progress")
    page.get_by_role("link", name=de("nav.learn")).click()
    page.wait_for_url("**/learn")
    german_page(page, "learn")
    page.locator("a[href^='/learn/']").first.click()
    page.wait_for_url("**/learn/*")
    german_page(page, "article")
    page.get_by_role("link", name=de("nav.settings")).click()
    page.wait_for_url("**/settings")
    german_page(page, "settings")

    # At 320 px nothing runs off the side in German.
    for path in ["/dashboard", "/meals/new", "/meals/today", "/progress", "/settings", "/profile"]:
        page.set_viewport_size({"width": 320, "height": 720})
        page.goto(server + path)
        assert page.evaluate("document.documentElement.scrollWidth") <= 320, path

    assert errors == []
    context.close()
