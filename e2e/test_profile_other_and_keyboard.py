"""The profile editor's last two pieces of seed 001, at 390×844: gender "Other" with the person's own words (§3
"Custom entry allowed for 'Other' (max 20 chars)") and the sticky save bar stepping aside for the on-screen keyboard
(§9 "Hides when keyboard appears")."""
from playwright.sync_api import expect

from conftest import ARTIFACTS, api, capture, new_user_with_profile, screenshot as full_page_screenshot

TOO_LONG = "Twenty-one characters"  # 21
MESSAGE = "Gender description must be 20 characters or fewer"


def screenshot(page, name: str) -> None:
    """What the 390×844 screen shows first (a full-page capture resizes the viewport and moves the scroll), then all."""
    capture(page, ARTIFACTS / f"{name}-screen.png")
    full_page_screenshot(page, name)


def open_profile(page, server, **overrides):
    new_user_with_profile(page, server, **overrides)
    page.goto(server + "/profile")
    expect(page.locator("#profile-save")).to_be_disabled()
    return page


def choose(page, sex: str) -> None:
    page.locator(f'label:has(input[name="sex"][value="{sex}"])').click()


def test_other_takes_a_description_that_is_saved_and_shown_again(page, server):
    open_profile(page, server)
    field = page.get_by_label("Describe your gender (optional)")
    expect(field).to_be_hidden()

    choose(page, "other")
    expect(field).to_be_visible()
    # Its screen-reader description says what it is for and that it never changes the numbers.
    described_by = field.get_attribute("aria-describedby").split()
    a11y = page.locator(f"#{described_by[0]}")
    expect(a11y).to_have_text("Optional. Up to 20 characters. Shown on your profile only; calculations use the Other category.")
    field.press_sequentially("Non-binary")
    expect(page.locator("#gender-description-count")).to_have_text("10/20 characters")
    field.blur()
    expect(page.locator("#gender-description-error")).to_have_text("")
    page.evaluate("window.scrollTo(0, 0)")
    screenshot(page, "profile-other-01-description")

    page.locator("#profile-save").click()
    # Other's BMR rule (−78 instead of +5) moves the targets: the before/after dialog, not the description.
    dialog = page.locator("#targets-dialog")
    expect(dialog).to_be_visible()
    expect(dialog.locator('[data-change="bmr"] .profile__change-values')).to_contain_text("(-83)")
    dialog.get_by_role("button", name="Got It").click()
    status, profile = api(page, server, "GET", "/api/v1/profile")
    assert status == 200 and profile["sex"] == "other" and profile["genderDescription"] == "Non-binary"

    page.reload()
    expect(page.locator('input[name="sex"][value="other"]')).to_be_checked()
    expect(field).to_be_visible()
    expect(field).to_have_value("Non-binary")
    expect(page.locator("#gender-description-count")).to_have_text("10/20 characters")
    expect(page.locator("#profile-save")).to_be_disabled()

    # Only the words change: a toast, and the targets stay (no before/after dialog; the toast recalls that the
    # switch to Other saved above still waits for midnight).
    field.fill("  Genderqueer ")
    page.locator("#profile-save").click()
    expect(page.locator(".toast").last).to_contain_text("✓ Profile updated! Your plan will adapt tomorrow morning.")
    expect(page.locator("#targets-dialog")).to_be_hidden()
    status, profile = api(page, server, "GET", "/api/v1/profile")
    assert profile["genderDescription"] == "Genderqueer"
    assert page.console_errors == []


def test_twenty_one_characters_show_the_message_on_blur_and_block_the_save(page, server):
    open_profile(page, server, sex="other", genderDescription="Agender")
    field = page.locator("#gender-description")
    expect(field).to_have_value("Agender")
    # Typing is never blocked (no maxlength): the 21st character goes in, the counter and the blur say the limit.
    field.fill("")
    field.press_sequentially(TOO_LONG)
    expect(field).to_have_value(TOO_LONG)
    expect(page.locator("#gender-description-count")).to_have_text("21/20 characters")
    expect(page.locator("#gender-description-error")).to_have_text("")
    field.blur()
    expect(page.locator("#gender-description-error")).to_have_text(f"⚠️ {MESSAGE}")
    expect(field).to_have_attribute("aria-invalid", "true")
    field.evaluate("el => el.scrollIntoView({block: 'center'})")
    screenshot(page, "profile-other-02-too-long")

    page.locator("#profile-save").click()
    expect(page.locator("#error-banner")).to_have_text("⚠️ Please fix 1 error below")
    expect(field).to_be_focused()
    status, profile = api(page, server, "GET", "/api/v1/profile")
    assert profile["genderDescription"] == "Agender"

    # Back to 20 characters: the message goes as soon as it fits.
    field.press("Backspace")
    expect(page.locator("#gender-description-error")).to_have_text("")
    expect(field).not_to_have_attribute("aria-invalid", "true")

    # An emoji flag is one character, as a person counts it (the browser's maxlength would count 6).
    field.fill("Trans woman 🏳️‍⚧️")
    expect(page.locator("#gender-description-count")).to_have_text("13/20 characters")
    field.blur()
    expect(page.locator("#gender-description-error")).to_have_text("")
    page.locator("#profile-save").click()
    expect(page.locator(".toast").last).to_contain_text("✓ Profile updated successfully")
    status, profile = api(page, server, "GET", "/api/v1/profile")
    assert profile["genderDescription"] == "Trans woman 🏳️‍⚧️"
    assert [e for e in page.console_errors if "status of 422" not in e] == []


def test_choosing_another_option_clears_the_description(page, server):
    open_profile(page, server, sex="other", genderDescription="Agender")
    choose(page, "female")
    expect(page.locator("#gender-description")).to_be_hidden()
    # A slip of the finger loses nothing: back to Other, the words are still there.
    choose(page, "other")
    expect(page.locator("#gender-description")).to_have_value("Agender")
    choose(page, "female")
    page.locator("#profile-save").click()
    page.locator("#targets-dialog").get_by_role("button", name="Got It").click()
    status, profile = api(page, server, "GET", "/api/v1/profile")
    assert profile["sex"] == "female" and "genderDescription" not in profile
    page.reload()
    choose(page, "other")
    expect(page.locator("#gender-description")).to_have_value("")
    assert page.console_errors == []


def set_visual_viewport(page, height: float) -> None:
    """Stands in for a phone's keyboard, which headless Chromium cannot open: the visual viewport reports `height`
    and fires its resize event, as it does when the keyboard slides in (the layout viewport stays 844 px)."""
    page.evaluate(
        """(height) => {
            Object.defineProperty(window.visualViewport, "height", { configurable: true, get: () => height });
            window.visualViewport.dispatchEvent(new Event("resize"));
        }""",
        height,
    )


def test_the_save_bar_hides_while_the_keyboard_is_open(page, server):
    open_profile(page, server)
    bar = page.locator(".profile__savebar")
    page.locator("#weight").focus()
    page.locator("#weight").fill("79")
    # A focused field without a keyboard (a hardware keyboard, a desktop browser): the bar stays.
    expect(bar).to_be_visible()
    # The keyboard takes the lower half of the 844 px screen.
    set_visual_viewport(page, 430)
    expect(bar).to_be_hidden()
    # Only the screen: a full-page capture resizes the viewport for a moment.
    page.locator("#weight").evaluate("el => el.scrollIntoView({block: 'center'})")
    capture(page, ARTIFACTS / "profile-keyboard-01-bar-hidden-screen.png")
    # It closes: the bar is back, with the change waiting to be saved.
    set_visual_viewport(page, 844)
    expect(bar).to_be_visible()
    expect(page.locator("#profile-save")).to_be_enabled()
    # A small shrink (the browser's toolbar sliding away is the other way; a 700 px view is 83 %): no keyboard.
    set_visual_viewport(page, 700)
    expect(bar).to_be_visible()
    # Keyboard-sized again, then the field loses focus (the keyboard goes with it): the bar is back at once, even
    # before the viewport reports its new size, and nothing to type into means no keyboard.
    set_visual_viewport(page, 430)
    expect(bar).to_be_hidden()
    page.locator("#weight").blur()
    expect(bar).to_be_visible()


def test_pinch_zoom_does_not_hide_the_save_bar(page, server):
    """A real change of the visual viewport: zoomed in 2×, it is half as tall in CSS pixels, but no keyboard is up."""
    open_profile(page, server)
    page.locator("#weight").focus()
    cdp = page.context.new_cdp_session(page)
    cdp.send("Emulation.setPageScaleFactor", {"pageScaleFactor": 2})
    page.wait_for_function("visualViewport.scale === 2")
    assert page.evaluate("visualViewport.height") == 422
    page.evaluate("window.visualViewport.dispatchEvent(new Event('resize'))")
    expect(page.locator(".profile__savebar")).to_be_visible()


def test_holding_the_stepper_repeats_until_the_range_ends(page, server):
    """001 §9 Stepper: "Long press for continuous increment/decrement"; a tap is still one step."""
    open_profile(page, server)
    value = page.locator("#meals-value")
    expect(value).to_have_text("3")
    page.locator("#meals-plus").click()
    expect(value).to_have_text("4")

    def hold(selector: str, seconds: float) -> None:
        box = page.locator(selector).bounding_box()
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.down()
        page.wait_for_timeout(seconds * 1000)
        page.mouse.up()

    # 400 ms, then a step every 150 ms: 2.5 s is more than the six steps to 10, where it stops.
    hold("#meals-plus", 2.5)
    expect(value).to_have_text("10")
    expect(page.locator("#meals-plus")).to_be_disabled()
    # A short hold is a tap: one step down, not a run.
    page.locator("#meals-minus").click()
    expect(value).to_have_text("9")
    page.locator("#meals-plus").click()
    expect(value).to_have_text("10")
    hold("#meals-minus", 1.2)
    # 400 ms, then a step every 150 ms: about five or six steps (fewer on a busy machine), more than any tap makes;
    # and the release adds none. From 10 the run ends at 4 to 8, never at the saved 3 (which would leave nothing to
    # save: Save Changes stays disabled).
    steps = 10 - int(value.inner_text())
    assert 2 <= steps <= 6, steps
    page.wait_for_timeout(400)
    assert int(value.inner_text()) == 10 - steps
    page.locator("#profile-save").click()
    expect(page.locator(".toast").last).to_contain_text("✓ Profile updated successfully")
    status, profile = api(page, server, "GET", "/api/v1/profile")
    assert profile["mealsPerDay"] == 10 - steps
    assert page.console_errors == []


def test_a_field_the_keyboard_covers_is_brought_to_the_middle_of_what_is_left(page, server):
    """001 §9 Smart Scroll "On Focus": if the keyboard covers the field, it is scrolled to the centre of the visible
    area (not its edge); a field still in view does not move."""
    open_profile(page, server)
    field = page.locator("#target-weight")
    # The field sits low on the screen, below where the keyboard will end (above the Save bar: focus would bring a
    # field out from under the bar by itself, scroll-padding-bottom).
    field.evaluate("el => window.scrollBy(0, el.getBoundingClientRect().top - 600)")
    field.focus()
    assert 580 <= field.evaluate("el => el.getBoundingClientRect().top") <= 620
    set_visual_viewport(page, 430)
    page.wait_for_function(
        "el => Math.abs((el.getBoundingClientRect().top + el.getBoundingClientRect().bottom) / 2 - 215) < 4",
        arg=field.element_handle(),
    )
    page.wait_for_timeout(600)  # the smooth scroll's last pixels
    # The next field, still visible above the keyboard: no jump.
    before = page.evaluate("window.scrollY")
    target_date = page.locator("#target-date")
    assert target_date.evaluate("el => el.getBoundingClientRect().bottom") <= 430
    target_date.focus()
    page.wait_for_timeout(600)
    assert page.evaluate("window.scrollY") == before
    assert page.console_errors == []
