"""The Learn tab: reading a "Why like this?" article, and a coach's tip that is dismissed once and re-opened from ℹ️."""
from conftest import api, new_user_with_profile, screenshot


def signed_in(page, server) -> None:
    """A new user with a profile (through the guest step and onboarding's profile page, which must log no error either)."""
    new_user_with_profile(page, server)


def no_horizontal_scroll(page) -> bool:
    return page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth")


def test_read_an_article_from_the_learn_tab(server, page):
    signed_in(page, server)
    page.goto(server + "/learn")
    assert page.get_by_role("heading", level=1).inner_text() == "Why like this?"
    learn_tab = page.get_by_role("navigation", name="Main").get_by_role("link", name="Learn")
    assert learn_tab.get_attribute("aria-current") == "page"

    cards = page.locator(".learn-card")
    assert cards.count() == 3
    assert [cards.nth(i).locator(".learn-card__title").inner_text() for i in range(3)] == [
        "The MATADOR study", "Why Week 1 starts at maintenance", "Why a 6-hour eating window",
    ]
    for i in range(3):
        assert cards.nth(i).bounding_box()["height"] >= 44

    page.get_by_role("link", name="The MATADOR study").click()
    page.wait_for_url(server + "/learn/matador-study")
    assert page.get_by_role("heading", level=1).inner_text() == "The MATADOR study"
    assert page.get_by_role("heading", level=2, name="What they found").is_visible()
    assert page.get_by_text("14.1 vs 9.1 kg").first.is_visible()
    table = page.get_by_role("table")
    assert "12.3 kg" in table.inner_text() and "8.0 kg" in table.inner_text()
    reference = page.get_by_role("link", name="Intermittent energy restriction improves weight loss efficiency in obese men: the MATADOR study")
    assert reference.get_attribute("href") == "https://doi.org/10.1038/ijo.2017.206"
    assert no_horizontal_scroll(page), "the article fits a 390 px phone"
    # A reading measure: body text of at least 16 px.
    assert float(page.evaluate("parseFloat(getComputedStyle(document.querySelector('.article__body p')).fontSize)")) >= 16
    screenshot(page, "10-learn-article")

    page.get_by_role("link", name="Why a 6-hour eating window").click()
    page.wait_for_url(server + "/learn/six-hour-window")
    assert page.get_by_role("heading", level=1).inner_text() == "Why a 6-hour eating window"

    back = page.locator(".article-nav__back")
    assert back.bounding_box()["height"] >= 44
    back.click()
    page.wait_for_url(server + "/learn")
    assert page.console_errors == []


def test_unknown_article_is_the_error_page(server, page):
    signed_in(page, server)
    response = page.goto(server + "/learn/no-such-article")
    assert response.status == 404
    assert page.get_by_text("We couldn't find that page.").is_visible()
    # Chromium logs the page's own 404 as a console error; nothing else may be there.
    assert [e for e in page.console_errors if "status of 404" not in e] == []


def test_a_tip_is_shown_dismissed_for_good_and_reopened_from_info(server, page):
    signed_in(page, server)
    with page.expect_response(lambda r: r.url.endswith("/api/v1/tips")):
        page.goto(server + "/learn")
    tip = page.locator('[data-tip="learn-welcome"]')
    tip.wait_for(state="visible")
    assert tip.get_attribute("role") == "note"
    assert "Welcome to Learn" in tip.inner_text()
    info = page.get_by_role("button", name="About the Learn tab")
    box = info.bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44
    screenshot(page, "10-learn")

    got_it = tip.get_by_role("button", name="Got it")
    assert got_it.bounding_box()["height"] >= 44
    with page.expect_response(lambda r: r.url.endswith("/api/v1/tips/learn-welcome/dismiss")) as dismissed:
        got_it.click()
    assert dismissed.value.status == 204
    assert tip.is_hidden()
    # Focus lands on the ℹ️ that brings the tip back, not lost at the top of the page.
    assert page.evaluate("document.activeElement.dataset.tipOpen") == "learn-welcome"

    # Dismissed once means dismissed: a reload does not bring it back.
    with page.expect_response(lambda r: r.url.endswith("/api/v1/tips")):
        page.reload()
    page.wait_for_load_state("networkidle")
    assert tip.is_hidden()

    # ℹ️ shows it again and moves focus to it, without undismissing it.
    info.click()
    assert tip.is_visible()
    assert page.evaluate("document.activeElement.dataset.tip") == "learn-welcome"
    status, body = api(page, server, "GET", "/api/v1/tips")
    assert status == 200 and body["dismissed"] == ["learn-welcome"]
    with page.expect_response(lambda r: r.url.endswith("/api/v1/tips")):
        page.reload()
    page.wait_for_load_state("networkidle")
    assert tip.is_hidden()
    assert page.console_errors == []


def test_one_users_dismissal_does_not_hide_anothers_tip(server, browser, page):
    signed_in(page, server)
    status, _ = api(page, server, "POST", "/api/v1/tips/learn-welcome/dismiss")
    assert status == 204

    other_context = browser.new_context(viewport={"width": 390, "height": 844})
    other = other_context.new_page()
    try:
        new_user_with_profile(other, server)
        other.goto(server + "/learn")
        other.locator('[data-tip="learn-welcome"]').wait_for(state="visible")
    finally:
        other_context.close()
    assert page.console_errors == []


def test_tips_stay_hidden_when_the_api_fails(server, page):
    signed_in(page, server)
    page.route("**/api/v1/tips", lambda route: route.fulfill(status=503, content_type="application/json",
                                                             body='{"error":{"code":"unavailable","message":"x"}}'))
    with page.expect_response(lambda r: r.url.endswith("/api/v1/tips")):
        page.goto(server + "/learn")
    page.wait_for_load_state("networkidle")
    assert page.locator('[data-tip="learn-welcome"]').is_hidden()
    # The page still works: the articles are there to read.
    assert page.locator(".learn-card").count() == 3
    assert [e for e in page.console_errors if "503" not in e] == []
