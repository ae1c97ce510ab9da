"""The dark theme (PRODUCT.md "appearance", 002's palette): Auto follows the system's prefers-color-scheme on every
page, from the first paint (the stylesheet, no script); both themes come from one set of rules (custom properties
whose values are light-dark(light, dark)). Light or Dark chosen in Settings wins over the system, on every page."""
import pytest
from playwright.sync_api import expect

from conftest import NARROW, new_user_with_profile, screenshot

PAGES = ["/", "/login", "/onboarding", "/dashboard", "/meals/new", "/meals/today", "/progress", "/learn",
         "/learn/matador-study", "/settings", "/profile"]
NAVY, TEXT = "rgb(7, 11, 24)", "rgb(247, 243, 238)"
CREAM, INK = "rgb(255, 248, 240)", "rgb(45, 45, 45)"


def colours(page):
    return page.evaluate("""() => {
        const body = getComputedStyle(document.body);
        const card = document.querySelector('.card, .learn-card, .welcome__points');
        return { background: body.backgroundColor, text: body.color,
                 card: card ? getComputedStyle(card).backgroundColor : null,
                 scheme: getComputedStyle(document.documentElement).colorScheme };
    }""")


@pytest.mark.parametrize("scheme", ["dark", "light"])
def test_auto_follows_the_system_on_every_page(server, browser, scheme):
    context = browser.new_context(viewport=NARROW, device_scale_factor=2, is_mobile=True, has_touch=True, color_scheme=scheme)
    page = context.new_page()
    new_user_with_profile(page, server)
    for path in PAGES:
        page.goto(server + path)
        found = colours(page)
        if scheme == "dark":
            assert (found["background"], found["text"], found["scheme"]) == (NAVY, TEXT, "light dark"), (path, found)
            # Cards are 002's navy surfaces (a muted one a shade apart): dark, never the light theme's white.
            if found["card"]:
                assert sum(int(v) for v in found["card"][4:-1].split(",")[:3]) < 3 * 80, (path, found)
        else:
            assert (found["background"], found["text"], found["scheme"]) == (CREAM, INK, "light dark"), (path, found)
        if path in ("/dashboard", "/meals/new", "/progress", "/settings", "/profile"):
            screenshot(page, f"17-{scheme}-{path.strip('/').replace('/', '-')}")
    context.close()


def test_text_on_gold_is_dark_in_the_dark_theme(server, browser):
    """002's gold (#FFB347) under white text is 1.8:1; the Log Meal button's text is the navy instead (10:1)."""
    context = browser.new_context(viewport=NARROW, color_scheme="dark")
    page = context.new_page()
    new_user_with_profile(page, server)
    page.goto(server + "/dashboard")
    button = page.get_by_role("link", name="Log Meal", exact=True)
    assert button.evaluate("(e) => [getComputedStyle(e).backgroundColor, getComputedStyle(e).color]") == [
        "rgb(255, 179, 71)", NAVY]
    context.close()


@pytest.mark.parametrize("system, choice", [("light", "Dark"), ("dark", "Light")])
def test_the_choice_in_settings_wins_over_the_system(server, browser, system, choice):
    """Settings → Appearance: the theme chosen is the page's from the first paint on every page (the server writes
    it on <html>), whatever the system says; Auto hands it back to the system."""
    context = browser.new_context(viewport=NARROW, device_scale_factor=2, is_mobile=True, has_touch=True, color_scheme=system)
    page = context.new_page()
    new_user_with_profile(page, server)
    page.goto(server + "/settings")
    page.get_by_role("radio", name=choice, exact=True).check()
    # The page drops "?appearance=saved" from the address once its toast is up, so wait for the navigation itself.
    with page.expect_navigation():
        page.locator("#appearance-save").click()
    expect(page.locator(".toast").filter(has_text="Appearance saved")).to_be_visible()
    assert page.get_by_role("radio", name=choice, exact=True).is_checked()
    chosen = (NAVY, TEXT, "dark") if choice == "Dark" else (CREAM, INK, "light")
    for path in ("/settings", "/dashboard", "/meals/new", "/progress", "/profile", "/learn"):
        page.goto(server + path)
        found = colours(page)
        assert (found["background"], found["text"], found["scheme"]) == chosen, (path, found)
    screenshot(page, f"17-appearance-{choice.lower()}-on-{system}")

    page.goto(server + "/settings")
    page.get_by_role("radio", name="Auto", exact=True).check()
    with page.expect_navigation():
        page.locator("#appearance-save").click()
    expect(page.get_by_role("radio", name="Auto", exact=True)).to_be_checked()
    page.goto(server + "/dashboard")
    system_colours = (NAVY, TEXT) if system == "dark" else (CREAM, INK)
    found = colours(page)
    assert (found["background"], found["text"]) == system_colours
    context.close()
