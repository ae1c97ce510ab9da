"""A new visitor's first screen: the welcome step of onboarding (000 Step 12, step 1)."""
from conftest import screenshot


def test_welcome_screen(server, page):
    response = page.goto(server + "/")
    assert response.status == 200
    # Everything comes from the server itself, with no inline script allowed.
    csp = response.headers["content-security-policy"]
    assert "script-src 'self'" in csp and "unsafe-inline" not in csp
    assert page.get_by_role("heading", level=1).inner_text() == "Meet Your Fire Coach 🔥"
    assert page.get_by_text("Science-backed weight loss without the shame").is_visible()
    start = page.get_by_role("link", name="Get Started")
    assert start.is_visible()
    box = start.bounding_box()
    assert box["height"] >= 44, "tap targets are at least 44 px"
    # The stylesheet loaded: the page background is 000's warm cream.
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgb(255, 248, 240)"
    assert page.console_errors == []
    screenshot(page, "01-welcome")


def test_health_and_security_headers(server, page):
    response = page.goto(server + "/health")
    assert response.status == 200
    assert response.headers["x-content-type-options"] == "nosniff"


def test_unknown_page_shows_the_error_page(server, page):
    response = page.goto(server + "/no-such-page")
    assert response.status == 404
    assert page.get_by_role("heading", level=1).inner_text() == "Something went wrong"
    assert page.get_by_text("We couldn't find that page.").is_visible()
    assert page.get_by_role("link", name="Go Back").get_attribute("href") == "/"
    screenshot(page, "00-error")
