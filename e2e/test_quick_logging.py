"""Issue 17's quick logging on the web: recents, favourites, saved meals, "same as yesterday", a meal of several foods
saved at once, and logging onto a past day — and the Done-when: a realistic day in at most 25 taps, yesterday's
breakfast again in at most 3."""
import datetime
import re

from playwright.sync_api import expect

from conftest import api, new_user_with_profile, screenshot

# USDA SR28 foods (NDB numbers) and the grams logged yesterday.
OATS, MILK, BANANA = "08121", "01079", "09040"
CHICKEN, RICE, BROCCOLI = "05064", "20045", "11091"
APPLE, SALMON, POTATO, SPINACH = "09003", "15237", "11674", "11457"
YESTERDAY_MEALS = [
    ("07:45", "breakfast", [(OATS, 240), (MILK, 244), (BANANA, 118)]),
    ("12:30", "lunch", [(CHICKEN, 140), (RICE, 158), (BROCCOLI, 156)]),
    ("15:30", "snack", [(APPLE, 182)]),
    ("18:30", "dinner", [(SALMON, 150), (POTATO, 173)]),
]


def today() -> datetime.date:
    # The profile's time zone is UTC (conftest.DEFAULT_PROFILE).
    return datetime.datetime.now(datetime.timezone.utc).date()


def seed_day(page, server, day: datetime.date, meals=YESTERDAY_MEALS):
    """Logs a day through the API, one batch per meal, at its time and slot."""
    for time, slot, items in meals:
        status, body = api(page, server, "POST", "/api/v1/meals/batch", {
            "loggedAt": f"{day.isoformat()}T{time}:00Z", "slot": slot,
            "items": [{"foodId": food, "grams": grams} for food, grams in items]})
        assert status == 201, body


def meals_on(page, server, day: datetime.date) -> list:
    status, body = api(page, server, "GET", f"/api/v1/meals?date={day.isoformat()}")
    assert status == 200, body
    return body["meals"]


def signed_in_with_yesterday(page, server):
    new_user_with_profile(page, server)
    seed_day(page, server, today() - datetime.timedelta(days=1))
    return meals_on(page, server, today() - datetime.timedelta(days=1))


class Person:
    """Drives the page as a person does and counts it. Counting rule: every click or tap, every choice in a select,
    and every key press on a focused control that is not typing a character (Enter, Tab, arrows, Backspace) is one
    tap; typed characters are counted apart. Typing goes to whatever has focus, so a field that did not get focus
    by itself costs a tap to reach."""

    def __init__(self, page):
        self.page = page
        self.taps = 0
        self.characters = 0
        self.steps = []

    def tap(self, locator):
        locator.click()
        self.taps += 1
        self.steps.append("tap")

    def choose(self, locator, **option):
        locator.select_option(**option)
        self.taps += 1
        self.steps.append("choose")

    def type(self, text):
        self.page.keyboard.type(text, delay=30)
        self.characters += len(text)
        self.steps.append(f"type {text!r}")

    def press(self, key):
        self.page.keyboard.press(key)
        self.taps += 1
        self.steps.append(f"press {key}")


def recent(page, name):
    """The one-tap button of a recent food (its name, then portion and calories)."""
    return page.locator("#quick-recents").get_by_role("button", name=re.compile("^" + re.escape(name) + " "))


def test_a_day_of_ten_foods_in_at_most_25_taps(server, page):
    """The Done-when of issue 17: a realistic day of 10 foods — breakfast as yesterday, lunch and a snack from the
    recents, dinner built of a recent with a bigger portion, a recent as it was, and a food never logged before —
    from the dashboard, in at most 25 taps (61 taps and 121 characters before issue 17)."""
    yesterday = signed_in_with_yesterday(page, server)
    kcal_yesterday = {m["foodId"]: m["calories"] for m in yesterday}
    page.goto(server + "/dashboard")
    person = Person(page)

    person.tap(page.get_by_role("link", name="Log Meal").first)
    page.wait_for_url(server + "/meals/new")
    # Breakfast: yesterday's three foods in one tap.
    person.tap(page.locator(".slot-picker__option[data-slot=breakfast]"))
    person.tap(page.get_by_role("button", name=re.compile("^Same as yesterday 3 foods")))
    expect(page.locator(".toast").filter(has_text="3 foods logged")).to_be_visible()
    # Lunch: three recents, one tap each.
    person.tap(page.locator(".slot-picker__option[data-slot=lunch]"))
    for name in ["Chicken, breast, cooked, roasted", "Rice, white, long-grain, cooked", "Broccoli, cooked, boiled"]:
        person.tap(recent(page, name))
        expect(page.locator(".toast").filter(has_text=f"{name} logged")).to_be_visible()
    # A snack.
    person.tap(page.locator(".slot-picker__option[data-slot=snack]"))
    person.tap(recent(page, "Apples, raw, with skin"))
    expect(page.locator(".toast").filter(has_text="Apples, raw, with skin logged")).to_be_visible()
    # Dinner, saved at once: more salmon than yesterday, the potatoes as they were, and spinach, new.
    person.tap(page.locator(".slot-picker__option[data-slot=dinner]"))
    person.tap(page.get_by_role("button", name="Change the amount of Salmon, Atlantic, farmed, dry heat"))
    amount = page.get_by_label("Amount", exact=True)
    expect(amount).to_be_focused()
    person.type("200")
    person.tap(page.get_by_role("button", name="Add to Meal"))
    search = page.get_by_role("combobox", name="Search food")
    expect(search).to_be_focused()
    person.type("spinach")
    person.tap(page.get_by_role("option").filter(has_text="Spinach, raw").first)
    person.tap(page.get_by_role("button", name="Add to Meal"))
    person.tap(recent(page, "Potatoes, baked, flesh and skin"))
    basket = page.locator("#basket")
    expect(basket.locator(".basket__item")).to_have_count(3)
    # 206 cal/100 g salmon × 2 = 412, potatoes as yesterday (173 g: 161), spinach 100 g: 23.
    expect(page.locator("#basket-total")).to_have_text("Total: 596 cal")
    screenshot(page, "17-log-meal-basket")
    person.tap(page.get_by_role("button", name="Save Meal"))
    page.wait_for_url(re.compile(r".*/meals/today\?saved=.*"))

    meals = meals_on(page, server, today())
    assert len(meals) == 10, [m["name"] for m in meals]
    by_slot = {}
    for meal in meals:
        by_slot.setdefault(meal["slot"], []).append(meal)
    assert sorted(m["foodId"] for m in by_slot["breakfast"]) == sorted([OATS, MILK, BANANA])
    assert sorted(m["foodId"] for m in by_slot["lunch"]) == sorted([CHICKEN, RICE, BROCCOLI])
    assert [m["foodId"] for m in by_slot["snack"]] == [APPLE]
    assert sorted(m["foodId"] for m in by_slot["dinner"]) == sorted([SALMON, POTATO, SPINACH])
    # Repeats carry yesterday's portion; the salmon the new one.
    for meal in meals:
        if meal["foodId"] in (SALMON, SPINACH):
            continue
        assert meal["calories"] == kcal_yesterday[meal["foodId"]], meal
    salmon = next(m for m in meals if m["foodId"] == SALMON)
    assert (salmon["grams"], salmon["calories"]) == (200, 412)
    assert next(m for m in meals if m["foodId"] == SPINACH)["calories"] == 23

    print(f"\n10-food day: {person.taps} taps, {person.characters} typed characters: {person.steps}")
    assert person.taps <= 25, person.steps
    assert person.characters <= 10, person.steps
    assert page.console_errors == []


def test_yesterdays_breakfast_again_in_at_most_3_taps(server, page):
    yesterday = signed_in_with_yesterday(page, server)
    breakfast = sorted((m["foodId"], m["calories"]) for m in yesterday if m["slot"] == "breakfast")
    page.goto(server + "/dashboard")
    person = Person(page)
    person.tap(page.get_by_role("link", name="Log Meal").first)
    page.wait_for_url(server + "/meals/new")
    person.tap(page.locator(".slot-picker__option[data-slot=breakfast]"))
    same = page.get_by_role("button", name=re.compile("^Same as yesterday"))
    # Oats 240 g (170) + milk 244 g (122) + banana 118 g (105) = 397 cal.
    expect(same).to_have_text(re.compile(r"3 foods · 397 cal$"))
    person.tap(same)
    expect(page.locator(".toast").filter(has_text="3 foods logged · 397 cal")).to_be_visible()
    meals = meals_on(page, server, today())
    assert sorted((m["foodId"], m["calories"]) for m in meals) == breakfast
    assert {m["slot"] for m in meals} == {"breakfast"}
    print(f"\nyesterday's breakfast: {person.taps} taps, {person.characters} typed characters")
    assert person.taps <= 3
    assert person.characters == 0

    # Undo takes all three back.
    page.locator(".toast").filter(has_text="3 foods logged").get_by_role("button", name="Undo").click()
    expect(page.locator(".toast").filter(has_text="Removed again")).to_be_visible()
    assert meals_on(page, server, today()) == []
    assert page.console_errors == []
