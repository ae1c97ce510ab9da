"""Analytics in a real browser (004 Story 5.2): one onboarding and a few screens, then the user's stored events.

The events are read back through the user's own export (GET /api/v1/export?format=json), which carries them."""
import time
from collections import Counter

from conftest import api, screenshot


def exported_events(page, server, until=lambda events: True):
    """The user's analytics events, oldest first; waits briefly for the ones a leaving page sent with keepalive."""
    events = []
    for _ in range(40):
        status, document = api(page, server, "GET", "/api/v1/export?format=json")
        assert status == 200
        events = sorted(document["analyticsEvents"], key=lambda e: e["occurredAt"])
        if until(events):
            break
        time.sleep(0.25)
    return events


def named(events, name):
    return [e for e in events if e["name"] == name]


def walk_onboarding(page, server):
    page.goto(server + "/")
    page.get_by_role("link", name="Get Started").click()
    page.wait_for_url("**/onboarding")
    page.get_by_role("button", name="Continue without an account").click()
    page.wait_for_url("**/onboarding/profile*")
    page.get_by_text("Female", exact=True).click()
    page.locator("#wizard-next").click()
    page.get_by_label("Date of birth").fill("1990-04-20")
    page.locator("#wizard-next").click()
    page.get_by_label("Height in centimetres").fill("165")
    page.locator("#wizard-next").click()
    page.locator("#wizard-next").click()  # weight: the picker's 70 kg
    # Back over a finished step and forward again: the step is still counted once.
    page.get_by_role("button", name="Back").click()
    page.locator("#wizard-next").click()
    page.get_by_text("Light", exact=True).click()
    page.locator("#wizard-next").click()
    page.get_by_text("Lose Weight").click()
    page.locator("#wizard-next").click()
    page.locator("#wizard-next").click()  # the default window and moments: Finish
    page.wait_for_url("**/dashboard")


def test_onboarding_and_screens_are_recorded_once_each(server, page):
    walk_onboarding(page, server)
    # A few screens through the tab bar, as a user moves between them.
    page.locator(".tabbar").get_by_role("link", name="Progress").click()
    page.wait_for_url("**/progress")
    page.locator(".tabbar").get_by_role("link", name="Learn").click()
    page.wait_for_url("**/learn")
    time.sleep(1.1)  # long enough that the time spent on Learn rounds to at least a second
    page.locator(".tabbar").get_by_role("link", name="Home").click()
    page.wait_for_url("**/dashboard")
    screenshot(page, "analytics-dashboard")
    # Leaving the app (a page elsewhere) ends the session.
    page.goto("about:blank")

    events = exported_events(page, server, until=lambda events: len(named(events, "session_end")) >= 1)
    ids = [e["id"] for e in events]
    assert len(ids) == len(set(ids))
    counts = Counter(e["name"] for e in events)
    assert counts["onboarding_started"] == 1
    assert counts["onboarding_finished"] == 1
    assert counts["session_start"] == 1
    assert counts["session_end"] == 1
    steps = sorted(named(events, "onboarding_step_completed"), key=lambda s: int(s["properties"]["step_number"]))
    assert [(s["properties"]["step"], s["properties"]["step_number"]) for s in steps] == [
        ("account", "1"), ("gender", "2"), ("age", "3"), ("height", "4"), ("weight", "5"),
        ("activity", "6"), ("goal", "7"), ("window", "8"),
    ]
    screens = ["onboarding_profile", "dashboard", "progress", "learn", "dashboard"]
    assert [e["properties"]["screen_name"] for e in named(events, "screen_view")] == screens
    exits = named(events, "screen_exit")
    assert [e["properties"]["screen_name"] for e in exits] == screens
    spent = [int(e["properties"]["time_spent_seconds"]) for e in exits]
    assert all(seconds >= 0 for seconds in spent)
    assert spent[3] >= 1
    duration = int(named(events, "session_end")[0]["properties"]["duration_seconds"])
    assert duration >= sum(spent) - len(spent)
    # The session starts before the first screen of it and ends after the last one left.
    # (Times are ISO-8601 in UTC with milliseconds, so they compare as text.)
    start, end = named(events, "session_start")[0]["occurredAt"], named(events, "session_end")[0]["occurredAt"]
    assert start <= named(events, "screen_view")[0]["occurredAt"] and end >= exits[-1]["occurredAt"]
    assert not named(events, "error_logged")


def test_script_errors_are_logged_and_rate_limited(server, page):
    walk_onboarding(page, server)
    # A loop of failures: twelve different uncaught errors and the same rejection many times.
    page.evaluate("""() => {
        for (let i = 0; i < 12; i++) setTimeout(() => { throw new Error("broken widget " + i); }, 0);
        for (let i = 0; i < 12; i++) Promise.reject(new Error("lost request"));
    }""")
    page.wait_for_timeout(300)
    errors = named(exported_events(page, server, until=lambda events: len(named(events, "error_logged")) >= 5), "error_logged")
    page.wait_for_timeout(500)
    errors = named(exported_events(page, server), "error_logged")
    assert len(errors) == 5
    assert all(e["properties"]["screen_name"] == "dashboard" for e in errors)
    assert {e["properties"]["error_type"] for e in errors} <= {"script_error", "unhandled_rejection"}
    assert len({e["properties"]["message"] for e in errors}) == 5
    # The page still works: the tab bar still navigates.
    page.locator(".tabbar").get_by_role("link", name="Progress").click()
    page.wait_for_url("**/progress")
