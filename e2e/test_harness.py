"""The journeys' own harness (conftest.py)."""
import time

import pytest

import conftest


def test_a_context_close_that_hangs_kills_the_browser_and_the_next_journey_gets_a_new_one(browsers, monkeypatch):
    """A close that never returns (seen once with Chromium 156: a passed journey's teardown held its worker for 17
    minutes) is ended by killing the worker's browsers after the limit; the next `browser` is a new one."""
    first = browsers.current()
    context = first.new_context()
    context.new_page().set_content("<p>first</p>")
    monkeypatch.setattr(conftest, "CONTEXT_CLOSE_LIMIT_SECONDS", 3)
    # A close that waits for something the browser never does: a promise that never settles.
    monkeypatch.setattr(conftest, "_close_context", lambda hung: hung.pages[0].evaluate("new Promise(() => {})"))
    started = time.monotonic()
    with pytest.warns(UserWarning, match="did not close in 3 s; the browser was killed"):
        context.close()
    took = time.monotonic() - started
    assert 3 <= took < 30, took
    assert not first.is_connected()
    second = browsers.current()
    assert second is not first and second.is_connected()
    page = second.new_context().new_page()
    page.set_content("<p>second</p>")
    assert page.inner_text("p") == "second"
