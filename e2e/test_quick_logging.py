"""Issue 17's quick logging on the web: recents, favourites, saved meals, "same as yesterday", a meal of several foods
saved at once, and logging onto a past day — and the Done-when: a realistic day in at most 25 taps, yesterday's
breakfast again in at most 3."""
import datetime
import re

import pytest

from playwright.sync_api import expect

from conftest import api, broken_words, large_text, new_user_with_profile, screenshot, squeezed_words, sticking_out

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


@pytest.fixture(autouse=True)
def _leaving_is_deliberate(request):
    """A test that goes to another address with a food or a basket on the page leaves as a person who chose "Leave"
    does: the browser's own question (beforeunload, which Chromium asks only after a gesture) is accepted, not
    dismissed — a dismissed one would cancel the navigation."""
    if "page" in request.fixturenames:
        page = request.getfixturevalue("page")
        page.on("dialog", lambda dialog: dialog.accept() if dialog.type == "beforeunload" else dialog.dismiss())
    yield


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
    expect(page.locator(".toast").filter(has_text="Potatoes, baked, flesh and skin added · Total: 596 cal")).to_be_visible()
    basket = page.locator("#basket")
    expect(basket.locator(".basket__item")).to_have_count(3)
    # 206 cal/100 g salmon × 2 = 412, potatoes as yesterday (173 g: 161), spinach 100 g: 23.
    expect(page.locator("#basket-total")).to_have_text("Total: 596 cal")
    screenshot(page, "17-log-meal-basket")
    # The meals list drops ?saved= from the address once it has shown the notice: wait for the navigation itself.
    with page.expect_navigation(url=re.compile(r".*/meals/today\?saved=.*"), wait_until="commit"):
        person.tap(page.get_by_role("button", name="Save Meal"))

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


def test_one_tap_logs_a_recent_and_undo_takes_it_back(server, page):
    signed_in_with_yesterday(page, server)
    page.goto(server + "/meals/new")
    # Before anything is typed: the recents with their last portion and its calories.
    banana = recent(page, "Bananas, raw")
    expect(banana).to_have_text(re.compile(r"Bananas, raw\s*118 g · 105 cal"))
    page.locator(".slot-picker__option[data-slot=snack]").click()
    banana.click()
    toast = page.locator(".toast").filter(has_text="Bananas, raw logged · 105 cal")
    expect(toast).to_be_visible()
    meals = meals_on(page, server, today())
    assert [(m["foodId"], m["grams"], m["calories"], m["slot"]) for m in meals] == [(BANANA, 118, 105, "snack")]
    assert page.url == server + "/meals/new", "one tap stays on Log Meal for the next food"
    toast.get_by_role("button", name="Undo").click()
    expect(page.locator(".toast").filter(has_text="Removed again")).to_be_visible()
    assert meals_on(page, server, today()) == []

    # The second control opens the portion step at the last portion.
    page.get_by_role("button", name="Change the amount of Bananas, raw").click()
    expect(page.get_by_role("heading", name="Bananas, raw")).to_be_visible()
    expect(page.get_by_label("Amount", exact=True)).to_have_value("118")
    expect(page.locator("#portion-kcal")).to_have_text("105")
    assert page.console_errors == []


def test_stars_on_recents_and_the_portion_step_make_favourites(server, page):
    signed_in_with_yesterday(page, server)
    page.goto(server + "/meals/new")
    expect(page.locator("#quick-favourites")).to_be_hidden()
    page.get_by_role("button", name="Add Apples, raw, with skin to favorites").first.click()
    expect(page.locator(".toast").filter(has_text="Added to favorites")).to_be_visible()
    favourites = page.locator("#quick-favourites")
    expect(favourites.get_by_role("button", name=re.compile("^Apples, raw, with skin 182 g · 95 cal"))).to_be_visible()
    status, body = api(page, server, "GET", "/api/v1/favourites")
    assert [(f["foodId"], f["grams"]) for f in body["favourites"]] == [(APPLE, 182)]

    # From search: the portion step's star, at the amount on screen (2 × 118 g bananas).
    page.get_by_role("combobox", name="Search food").press_sequentially("banana", delay=20)
    page.get_by_role("option").filter(has_text="Bananas, raw").first.click()
    page.get_by_label("Amount", exact=True).fill("236")
    star = page.locator("#portion-star")
    expect(star).to_have_attribute("aria-label", "Add to favorites")
    star.click()
    expect(star).to_have_attribute("aria-label", "Remove from favorites")
    status, body = api(page, server, "GET", "/api/v1/favourites")
    assert sorted((f["foodId"], f["grams"]) for f in body["favourites"]) == [(APPLE, 182), (BANANA, 236)]

    # Reloaded: both listed; a favourite logs in one tap at its portion; unstarring removes it.
    page.goto(server + "/meals/new")
    banana = favourites.get_by_role("button", name=re.compile("^Bananas, raw 236 g · 210 cal"))
    banana.click()
    expect(page.locator(".toast").filter(has_text="Bananas, raw logged · 210 cal")).to_be_visible()
    assert [(m["foodId"], m["grams"]) for m in meals_on(page, server, today())] == [(BANANA, 236)]
    favourites.get_by_role("button", name="Remove Apples, raw, with skin from favorites").click()
    expect(favourites.get_by_role("button", name=re.compile("^Apples"))).to_have_count(0)
    status, body = api(page, server, "GET", "/api/v1/favourites")
    assert [f["foodId"] for f in body["favourites"]] == [BANANA]
    assert page.console_errors == []


def test_a_meal_of_several_foods_adjusted_trimmed_and_saved_once(server, page):
    signed_in_with_yesterday(page, server)
    page.goto(server + "/meals/new")
    page.locator(".slot-picker__option[data-slot=lunch]").click()
    # The first food goes into the meal from its portion step; after that one tap adds.
    page.get_by_role("button", name="Change the amount of Rice, white, long-grain, cooked").click()
    page.get_by_role("button", name="Add to Meal").click()
    recent(page, "Chicken, breast, cooked, roasted").click()
    recent(page, "Bananas, raw").click()
    basket = page.locator("#basket")
    expect(basket.get_by_role("heading")).to_have_text("Your Lunch")
    expect(basket.locator(".basket__item")).to_have_count(3)
    # 205 + 231 + 105
    expect(page.locator("#basket-total")).to_have_text("Total: 541 cal")
    # Nothing is saved until Save Meal.
    assert meals_on(page, server, today()) == []

    basket.get_by_role("button", name="Remove Bananas, raw").click()
    expect(page.locator("#basket-total")).to_have_text("Total: 436 cal")
    basket.get_by_role("button", name="Change Chicken, breast, cooked, roasted").click()
    amount = page.get_by_label("Amount", exact=True)
    expect(amount).to_have_value("140")
    amount.fill("200")
    page.get_by_role("button", name="Update Meal").click()
    # 165 cal/100 g chicken × 2 = 330, + 205 rice
    expect(page.locator("#basket-total")).to_have_text("Total: 535 cal")
    expect(basket.locator(".basket__item")).to_have_count(2)

    batches = []
    page.on("request", lambda r: batches.append(r.url) if r.method == "POST" and "/api/v1/meals" in r.url else None)
    # The meals list drops ?saved= from the address once it has shown the notice: wait for the navigation itself.
    with page.expect_navigation(url=re.compile(r".*/meals/today\?saved=.*"), wait_until="commit"):
        page.get_by_role("button", name="Save Meal").click()
    assert [url.rsplit("/api/v1", 1)[1] for url in batches] == ["/meals/batch"]
    meals = meals_on(page, server, today())
    assert sorted((m["foodId"], m["grams"], m["calories"], m["slot"]) for m in meals) == [
        (CHICKEN, 200, 330, "lunch"), (RICE, 158, 205.4, "lunch")]
    assert page.console_errors == []


def test_save_as_meal_then_log_it_with_servings_and_edit_it(server, page):
    signed_in_with_yesterday(page, server)
    page.goto(server + "/meals/new")
    page.locator(".slot-picker__option[data-slot=breakfast]").click()
    page.get_by_role("button", name="Change the amount of Oats, cooked with water").click()
    page.get_by_role("button", name="Add to Meal").click()
    recent(page, "Milk, reduced fat, 2% milkfat").click()
    recent(page, "Bananas, raw").click()
    page.get_by_role("button", name="Save as Meal").click()
    name = page.get_by_label("Call this meal")
    expect(name).to_be_focused()
    name.fill("My porridge")
    page.locator("#basket-name-save").click()
    expect(page.locator(".toast").filter(has_text="Saved as “My porridge”")).to_be_visible()
    status, body = api(page, server, "GET", "/api/v1/saved-meals")
    [saved] = body["savedMeals"]
    # Oats 240 g (170.4) + milk 244 g (122) + banana 118 g (105) = 397.4 cal per serving.
    assert (saved["name"], saved["servings"], saved["perServing"]["calories"]) == ("My porridge", 1, 397.4)
    assert [i["foodId"] for i in saved["items"]] == [OATS, MILK, BANANA]

    # Next visit: one tap on the saved meal logs its three foods; 2 servings doubles them.
    page.goto(server + "/meals/new")
    saved_list = page.locator("#quick-saved")
    saved_list.get_by_label("Servings of My porridge").fill("2")
    saved_list.get_by_role("button", name=re.compile("^My porridge 1 serving · 397 cal")).click()
    expect(page.locator(".toast").filter(has_text="3 foods logged · 795 cal")).to_be_visible()
    meals = meals_on(page, server, today())
    assert sorted((m["foodId"], m["grams"]) for m in meals) == [(MILK, 488), (OATS, 480), (BANANA, 236)]

    # The editor: nutrients per serving, rename, a new amount, 2 servings made, a food removed.
    saved_list.get_by_role("link", name="Edit My porridge").click()
    page.wait_for_url(f"**/meals/saved/{saved['id']}", wait_until="commit")
    # Protein 6.1 + 8.1 + 1.3, carbs 28.8 + 11.7 + 27.0, fat 3.6 + 4.8 + 0.4 (per 100 g × grams, each to the tenth).
    expect(page.locator("#saved-per-serving")).to_have_text("per serving: 397 cal · P 15.5g · C 67.5g · F 8.8g")
    page.get_by_label("Name", exact=True).fill("Porridge for two")
    page.get_by_label("Servings this makes").fill("2")
    page.locator("input[name=item0Amount]").fill("480")
    page.locator("input[name=item2Remove]").check()
    page.get_by_role("button", name="Save Changes").click()
    page.wait_for_url(server + "/meals/saved", wait_until="commit")
    expect(page.locator(".toast").filter(has_text="Saved meal updated")).to_be_visible()
    card = page.locator(".saved-card")
    # (oats 480 g: 340.8 + milk 122) / 2 = 231.4
    expect(card).to_contain_text("Porridge for two")
    expect(card).to_contain_text("per serving: 231 cal")
    expect(card).to_contain_text("2 foods · makes 2 servings")
    status, body = api(page, server, "GET", f"/api/v1/saved-meals/{saved['id']}")
    assert (body["name"], body["servings"], [(i["foodId"], i["grams"]) for i in body["items"]]) == (
        "Porridge for two", 2, [(OATS, 480), (MILK, 244)])

    # A wrong amount says the range and keeps what was typed; delete removes it.
    page.goto(server + f"/meals/saved/{saved['id']}")
    page.locator("input[name=item0Amount]").fill("9000")
    page.get_by_role("button", name="Save Changes").click()
    expect(page.get_by_text("Amount must be between 0.1-5000 g")).to_be_visible()
    expect(page.locator("input[name=item0Amount]")).to_have_value("9000")
    page.get_by_role("button", name="Delete Porridge for two").click()
    page.wait_for_url(server + "/meals/saved", wait_until="commit")
    expect(page.get_by_text("No saved meals yet.", exact=False)).to_be_visible()
    status, body = api(page, server, "GET", "/api/v1/saved-meals")
    assert body["savedMeals"] == []


def test_a_saved_meal_changed_on_another_device_while_editing_is_shown_again_not_overwritten(server, page):
    """The editor numbers its foods as they were when it was shown. When another device changes the saved meal in
    between, saving says so and shows it as it is now; before, the amounts went to whichever foods now had those
    numbers."""
    new_user_with_profile(page, server)
    status, saved = api(page, server, "POST", "/api/v1/saved-meals", {
        "name": "Lunch box", "items": [{"name": "Sandwich", "calories": 420}, {"name": "Apple", "calories": 80}]})
    assert status == 201, saved
    page.goto(server + f"/meals/saved/{saved['id']}")
    # Another device removes the sandwich.
    status, body = api(page, server, "PUT", f"/api/v1/saved-meals/{saved['id']}", {
        "baseVersion": saved["version"], "name": "Lunch box", "items": [{"name": "Apple", "calories": 80}]})
    assert status == 200, body
    page.locator("input[name=item0Amount]").fill("500")
    page.get_by_role("button", name="Save Changes").click()
    expect(page.get_by_role("alert")).to_have_text(
        "This saved meal was changed on another device while you were editing it. Here it is as it is now: "
        "make your change again.")
    expect(page.locator("input[name=item0Amount]")).to_have_value("80")
    expect(page.locator("input[name=item1Amount]")).to_have_count(0)
    status, body = api(page, server, "GET", f"/api/v1/saved-meals/{saved['id']}")
    assert [(i["name"], i["calories"]) for i in body["items"]] == [("Apple", 80)]
    # Saved again from the page shown now, the change goes through.
    page.locator("input[name=item0Amount]").fill("95")
    page.get_by_role("button", name="Save Changes").click()
    page.wait_for_url(server + "/meals/saved", wait_until="commit")
    status, body = api(page, server, "GET", f"/api/v1/saved-meals/{saved['id']}")
    assert [(i["name"], i["calories"]) for i in body["items"]] == [("Apple", 95)]


def test_logging_onto_a_past_day_with_its_own_time(server, page):
    signed_in_with_yesterday(page, server)
    day = today() - datetime.timedelta(days=3)
    page.goto(server + f"/meals/new?date={day.isoformat()}")
    expect(page.locator("#log-day")).to_contain_text("Logging for")
    time = page.get_by_label("Time")
    page.locator(".slot-picker__option[data-slot=breakfast]").click()
    expect(time).to_have_value("08:00")
    page.locator(".slot-picker__option[data-slot=dinner]").click()
    expect(time).to_have_value("18:30")
    time.fill("19:15")
    recent(page, "Bananas, raw").click()
    expect(page.locator(".toast").filter(has_text="Bananas, raw logged")).to_be_visible()
    [meal] = meals_on(page, server, day)
    assert (meal["foodId"], meal["slot"], meal["loggedAt"]) == (BANANA, "dinner", f"{day.isoformat()}T19:15:00.000Z")
    assert meals_on(page, server, today()) == []

    # A food from search saved alone returns to that day's meals.
    page.get_by_role("combobox", name="Search food").press_sequentially("apple", delay=20)
    page.get_by_role("option").first.click()
    # The meals list drops ?saved= from the address once it has shown the notice: wait for the navigation itself.
    with page.expect_navigation(url=re.compile(rf".*/meals/today\?date={day.isoformat()}&saved=.*"), wait_until="commit"):
        page.get_by_role("button", name="Save", exact=True).click()
    [searched] = [m for m in meals_on(page, server, day) if m["foodId"] != BANANA]

    # "Same as the day before" copies the day before that day onto it.
    seed_day(page, server, day - datetime.timedelta(days=1), [("07:30", "breakfast", [(OATS, 100)])])
    page.goto(server + f"/meals/new?date={day.isoformat()}")
    page.locator(".slot-picker__option[data-slot=breakfast]").click()
    page.get_by_role("button", name=re.compile("^Same as the day before 1 food")).click()
    expect(page.locator(".toast").filter(has_text="1 food logged")).to_be_visible()
    copied = [m for m in meals_on(page, server, day) if m["id"] not in (meal["id"], searched["id"])]
    assert [(m["foodId"], m["slot"], m["loggedAt"]) for m in copied] == [(OATS, "breakfast", f"{day.isoformat()}T07:30:00.000Z")]
    assert page.console_errors == []


def test_a_day_out_of_range_is_a_clear_400(server, page):
    new_user_with_profile(page, server)
    # The rule and words of the dashboard's and the meals list's ?date= (PageDay).
    for day, message in [(today() + datetime.timedelta(days=1), "is in the future"),
                         (today() - datetime.timedelta(days=366), "is more than a year back"),
                         ("2026-02-30", "is not a date")]:
        response = page.goto(server + f"/meals/new?date={day}")
        assert response.status == 400
        expect(page.get_by_text(message, exact=False)).to_be_visible()
    response = page.goto(server + f"/meals/new?date={(today() - datetime.timedelta(days=365)).isoformat()}")
    assert response.status == 200


def test_copy_a_meal_and_a_whole_day_to_today_from_the_meals_list(server, page):
    yesterday = signed_in_with_yesterday(page, server)
    day = today() - datetime.timedelta(days=1)
    page.goto(server + f"/meals/today?date={day.isoformat()}")
    salmon = page.locator(".meal-row").filter(has_text="Fish, salmon")
    # The meals list drops ?saved= from the address once it has shown the notice: wait for the navigation itself.
    with page.expect_navigation(url=re.compile(r".*/meals/today\?saved=.*"), wait_until="commit"):
        salmon.get_by_role("button", name="Copy to today").click()
    [copy] = meals_on(page, server, today())
    assert (copy["foodId"], copy["slot"], copy["calories"], copy["loggedAt"]) == (
        SALMON, "dinner", 309, f"{today().isoformat()}T18:30:00.000Z")

    page.goto(server + f"/meals/today?date={day.isoformat()}")
    # The meals list drops ?saved= from the address once it has shown the notice: wait for the navigation itself.
    with page.expect_navigation(url=re.compile(r".*/meals/today\?saved=.*"), wait_until="commit"):
        page.get_by_role("button", name="Copy this day to today").click()
    meals = meals_on(page, server, today())
    assert sorted(m["foodId"] for m in meals) == sorted([m["foodId"] for m in yesterday] + [SALMON])
    # Today's own list offers no copy to today.
    page.goto(server + "/meals/today")
    expect(page.get_by_role("button", name="Copy to today")).to_have_count(0)
    expect(page.get_by_role("button", name="Copy this day to today")).to_have_count(0)
    assert page.console_errors == []


def test_a_copy_form_sent_twice_copies_once(server, page):
    """A double tap or a resent POST of "Copy to today" copies once: the page's forms carry a requestId from which
    the copies' ids are derived. Before, each send made another copy."""
    signed_in_with_yesterday(page, server)
    day = today() - datetime.timedelta(days=1)
    for button, expected in [("meal", [SALMON]), ("day", None)]:
        page.goto(server + f"/meals/today?date={day.isoformat()}")
        if button == "meal":
            form = page.locator(".meal-row").filter(has_text="Fish, salmon").locator("form.meal-row__copy")
        else:
            form = page.locator("form.meal-copy-day")
        fields = {name: form.locator(f"input[name={name}]").get_attribute("value")
                  for name in ("_csrf", "fromDate", "mealId", "requestId") if form.locator(f"input[name={name}]").count()}
        before = meals_on(page, server, today())
        for _ in range(2):
            response = page.request.post(server + "/meals/copy", form=fields, max_redirects=0)
            assert response.status == 303, response.text()
        added = [m["foodId"] for m in meals_on(page, server, today()) if m["id"] not in {b["id"] for b in before}]
        if expected is None:
            # The whole day, from a page shown anew (a new requestId): each of yesterday's meals once.
            expected = [m["foodId"] for m in meals_on(page, server, day)]
        assert sorted(added) == sorted(expected)


def test_quick_logging_pages_pass_axe_light_and_dark_at_320_px_and_200_percent(server, browser):
    """axe-core on Log Meal with its lists, the basket and a past day, the saved meals and their editor, and a past
    day's meals with the copy buttons: no violation, light and dark, at 320 px with text at 100 % and 200 %, and
    nothing wider than the screen."""
    from test_accessibility import violations
    context = browser.new_context(viewport={"width": 320, "height": 720}, bypass_csp=True)
    page = context.new_page()
    page.console_errors = []
    signed_in_with_yesterday(page, server)
    status, saved = api(page, server, "POST", "/api/v1/saved-meals", {
        "name": "My porridge with a rather long name for a narrow screen", "servings": 1,
        "items": [{"foodId": OATS, "grams": 240}, {"foodId": BANANA, "portion": "1 medium (7\" to 7-7/8\" long)", "quantity": 1}]})
    assert status == 201, saved
    status, body = api(page, server, "POST", "/api/v1/favourites", {"foodId": APPLE, "grams": 182})
    assert status == 201, body
    yesterday = (today() - datetime.timedelta(days=1)).isoformat()
    pages = ["/meals/new", f"/meals/new?date={yesterday}", "/meals/saved", f"/meals/saved/{saved['id']}",
             f"/meals/today?date={yesterday}"]
    failures = []
    for scheme in ["light", "dark"]:
        page.emulate_media(color_scheme=scheme, reduced_motion="reduce")
        for text in ["100%", "200%"]:
            for path in pages:
                page.goto(server + path)
                page.wait_for_load_state("networkidle")
                if text != "100%":
                    page.add_style_tag(content=f"html {{ font-size: {text} !important; }}")
                if path == "/meals/new":
                    # The basket open with two foods, the name form shown.
                    page.get_by_role("button", name="Change the amount of Bananas, raw").click()
                    page.get_by_role("button", name="Add to Meal").click()
                    recent(page, "Apples, raw, with skin").click()
                    page.get_by_role("button", name="Save as Meal").click()
                found = violations(page)
                if found:
                    failures.append((scheme, text, path, found))
                width = page.evaluate("document.documentElement.scrollWidth")
                if width > 320:
                    failures.append((scheme, text, path, f"{width} px wide"))
                if scheme == "light" and (out := sticking_out(page)):
                    failures.append((scheme, text, path, "sticks out", out))
                if scheme == "light" and (squeezed := squeezed_words(page)):
                    failures.append((scheme, text, path, "words cut", squeezed))
                if scheme == "light" and text == "100%":
                    screenshot(page, f"17-quick-{pages.index(path)}-320")
    context.close()
    assert failures == []


def test_log_meal_in_german_at_200_percent_breaks_no_word(german, server):
    """At 320 px with the text at 200 %, the meal slots go one to a row and the ways to log fewer to a row, rather than
    cutting "Frühstück" or "Etikett scannen" inside a word (they did with two and three to a row)."""
    german.goto(server + "/meals/new")
    expect(german.locator("#mode-scan")).to_be_visible()
    options = german.locator(".slot-picker__option")
    assert broken_words(options) == [] and broken_words(german.locator(".meal-modes__option")) == []
    two_to_a_row = options.nth(0).bounding_box()["y"] == options.nth(1).bounding_box()["y"]
    assert two_to_a_row
    large_text(german)
    assert broken_words(options) == [], "slots"
    assert broken_words(german.locator(".meal-modes__option")) == [], "ways to log"
    assert options.nth(1).bounding_box()["y"] > options.nth(0).bounding_box()["y"]
    assert sticking_out(german) == []
