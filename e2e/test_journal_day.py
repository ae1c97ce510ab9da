"""The Journal tab's day (issue 18, seed 002) at 390×844 in Chromium: a text, a photo (a real JPEG made by the test)
and a voice entry (speech recognition stubbed in the page, the recording real: Chromium's fake microphone), edit,
a card's category, duplicate, delete and Undo, swiping between days; a second user who cannot reach the first one's
entries or photos by any URL; axe-core on every page of it (light and dark, 320 px, 200 % text); screenshots at 390
and 320 px in both themes."""
import base64
import datetime
import os
import re
import tempfile

import pytest
from playwright.sync_api import expect

from conftest import DEFAULT_PROFILE, NARROW, VIEWPORT, Browsers, api, new_user_with_profile, screenshot
from test_accessibility import check

TODAY = datetime.datetime.now(datetime.timezone.utc).date()
YESTERDAY = TODAY - datetime.timedelta(days=1)

# A stand-in for the browser's speech recognition (headless Chromium has none that works offline): it "hears"
# the words once started and ends when stopped, as webkitSpeechRecognition does.
SPEECH_STUB = """
(() => {
  class FakeRecognition extends EventTarget {
    start() {
      window.__speechStarted = (window.__speechStarted || 0) + 1;
      window.__speechLang = this.lang;
      setTimeout(() => {
        const result = [{ transcript: "two idlis and sambar", confidence: 0.9 }];
        result.isFinal = true;
        const event = new Event("result");
        event.results = [result];
        event.resultIndex = 0;
        this.dispatchEvent(event);
      }, 300);
    }
    stop() { setTimeout(() => this.dispatchEvent(new Event("end")), 10); }
    abort() { this.stop(); }
  }
  window.webkitSpeechRecognition = FakeRecognition;
  window.SpeechRecognition = FakeRecognition;
  // Keeps the page's recorders, to read the bitrate the browser records at.
  const Recorder = window.MediaRecorder;
  window.__recorders = [];
  window.MediaRecorder = class extends Recorder {
    constructor(...args) { super(...args); window.__recorders.push(this); }
  };
})();
"""


@pytest.fixture(scope="module")
def media_browsers(playwright_session):
    """Chromium with a fake microphone (and camera) that needs no permission prompt, launched by the same
    Playwright as conftest's browser (a second Playwright cannot run beside the first)."""
    held = Browsers(playwright_session, ["--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream"])
    yield held
    held.close()


@pytest.fixture
def media_browser(media_browsers):
    return media_browsers.current()


@pytest.fixture
def jpage(media_browser):
    context = media_browser.new_context(viewport=VIEWPORT, device_scale_factor=2, is_mobile=True, has_touch=True)
    context.add_init_script(SPEECH_STUB)
    page = context.new_page()
    errors = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.console_errors = errors
    yield page
    context.close()


def make_jpeg(page) -> str:
    """A real 640×480 JPEG, drawn on a canvas by the browser and written to a file."""
    data_url = page.evaluate("""() => {
        const canvas = document.createElement("canvas");
        canvas.width = 640; canvas.height = 480;
        const g = canvas.getContext("2d");
        g.fillStyle = "#f4e1c1"; g.fillRect(0, 0, 640, 480);
        g.fillStyle = "#ffffff"; g.beginPath(); g.arc(320, 240, 180, 0, Math.PI * 2); g.fill();
        g.fillStyle = "#c8702a"; g.beginPath(); g.arc(260, 220, 60, 0, Math.PI * 2); g.fill();
        g.fillStyle = "#6b8e23"; g.fillRect(330, 200, 110, 70);
        return canvas.toDataURL("image/jpeg", 0.9);
    }""")
    raw = base64.b64decode(data_url.split(",", 1)[1])
    assert raw[:3] == b"\xff\xd8\xff"
    handle, path = tempfile.mkstemp(suffix=".jpg")
    with os.fdopen(handle, "wb") as file:
        file.write(raw)
    return path


def card(page, words):
    return page.locator(".jcard", has_text=words)


def open_card(page, words):
    item = card(page, words)
    if item.locator("details").get_attribute("open") is None:
        item.locator("summary").click()
    return item


def swipe(page, dx):
    page.evaluate("""(dx) => {
        const t = (x) => new Touch({identifier: 1, target: document.body, clientX: x, clientY: 300});
        document.body.dispatchEvent(new TouchEvent("touchstart", {touches: [t(200)], changedTouches: [t(200)], bubbles: true}));
        document.body.dispatchEvent(new TouchEvent("touchend", {touches: [], changedTouches: [t(200 + dx)], bubbles: true}));
    }""", dx)


def test_a_day_of_the_journal(server, jpage):
    page = jpage
    new_user_with_profile(page, server)

    # The tab, and today's empty page (002's empty state).
    page.goto(server + "/dashboard")
    page.locator(".tabbar").get_by_role("link", name="Journal").click()
    page.wait_for_url(server + "/journal")
    expect(page.get_by_role("heading", name="Your page for today is empty")).to_be_visible()
    expect(page.locator(".journal-nav a[aria-current=page]")).to_have_text("Day")
    screenshot(page, "journal-01-empty")

    # ---- Text ----
    page.get_by_role("link", name="Add entry").click()
    page.wait_for_url(server + "/journal/new")
    expect(page.get_by_role("radio", name="Text")).to_be_checked()
    page.get_by_label("What did you eat?").fill("Masala dosa with coconut chutney")
    page.get_by_role("button", name="Save").click()
    page.wait_for_url(server + "/journal")
    expect(page.locator(".toast", has_text="First entry today! 🎉")).to_be_visible()
    dosa = card(page, "Masala dosa with coconut chutney")
    expect(dosa).to_have_class(re.compile(r"jcard--breakfast"))  # dosa: 002's breakfast word
    expect(page.locator("#journal-count")).to_have_text("1 entry")

    # ---- Photo: a real JPEG, uploaded to the media store first, then the entry with its id ----
    jpeg = make_jpeg(page)
    page.locator("#journal-add").click()
    page.get_by_role("radio", name="Photo").check()
    expect(page.get_by_text("Choose a photo")).to_be_visible()
    page.locator("#journal-library").set_input_files(jpeg)
    expect(page.locator("#journal-status")).to_have_text("Photo added. Now describe it in a few words.", timeout=20000)
    media_ids = page.locator("#journal-media").input_value()
    assert len(media_ids) == 36, media_ids
    page.wait_for_function("() => document.querySelector('#journal-photo-preview img').naturalWidth > 0")
    page.get_by_label("What did you eat?").fill("Thali with rice, dal and papad")
    page.get_by_label("Category").select_option("lunch")
    screenshot(page, "journal-02-photo-form")
    page.get_by_role("button", name="Save").click()
    page.wait_for_url(server + "/journal")
    expect(page.locator(".toast", has_text="Meal #2 today!")).to_be_visible()
    thali = open_card(page, "Thali with rice")
    photo = thali.locator("img.jcard__photo")
    expect(photo).to_have_attribute("src", f"/api/v1/media/{media_ids}?size=thumb")
    page.wait_for_function("(img) => img.complete && img.naturalWidth > 0", arg=photo.element_handle())
    expect(thali).to_have_class(re.compile(r"jcard--lunch"))

    # ---- Voice: the recording real (fake microphone), the words from the stubbed recognition ----
    page.locator("#journal-add").click()
    page.get_by_role("radio", name="Voice").check()
    page.get_by_role("button", name="Start recording").click()
    expect(page.get_by_label("What did you eat?")).to_have_value("two idlis and sambar", timeout=5000)
    page.wait_for_timeout(1200)
    page.get_by_role("button", name="Stop recording").click()
    expect(page.locator("#journal-status")).to_have_text("Recording kept. Check the words below and save.", timeout=20000)
    audio_id = page.locator("#journal-media").input_value()
    assert len(audio_id) == 36
    page.wait_for_function("() => Number.isFinite(document.querySelector('#journal-voice-preview').duration)", timeout=20000)
    recorded = page.request.get(f"{server}/api/v1/media/{audio_id}")
    assert recorded.status == 200 and recorded.headers["content-type"].startswith("audio/"), recorded.headers
    assert len(recorded.body()) > 1000
    assert page.evaluate("window.__speechLang") == "en-US"
    # Recorded at a speech bitrate, not the browser's default (128 kbit/s in Chromium).
    assert page.evaluate("window.__recorders.map((r) => r.audioBitsPerSecond)") == [32000]
    page.get_by_label("What did you eat?").fill("Two idlis and sambar")
    page.get_by_role("button", name="Save").click()
    page.wait_for_url(server + "/journal")
    expect(page.locator(".toast", has_text="Meal #3 today!")).to_be_visible()
    idlis = open_card(page, "Two idlis and sambar")
    expect(idlis.locator("audio")).to_have_attribute("src", f"/api/v1/media/{audio_id}")
    # Its length shows before it is played (a MediaRecorder WebM has none in its header: the player said 0:00), and
    # the player waits at the start.
    page.wait_for_function("(a) => Number.isFinite(a.duration) && a.duration > 1", arg=idlis.locator("audio").element_handle(),
                           timeout=20000)
    assert idlis.locator("audio").evaluate("(a) => [a.duration < 30, a.currentTime, a.paused]") == [True, 0, True]
    expect(idlis.locator(".jcard__raw")).to_contain_text("two idlis and sambar")  # the transcript as it came
    status, day = api(page, server, "GET", "/api/v1/journal/entries")
    assert status == 200
    assert sorted((e["inputType"], tuple(e["mediaIds"])) for e in day["entries"]) == [
        ("photo", (media_ids,)), ("text", ()), ("voice", (audio_id,))]
    screenshot(page, "journal-03-day")

    # ---- Edit ----
    open_card(page, "Masala dosa").get_by_role("link", name="Edit").click()
    expect(page.get_by_role("heading", name="Edit entry")).to_be_visible()
    page.get_by_label("What did you eat?").fill("Masala dosa, extra crisp")
    # The other two entries carry the time they were made; an edited time on the far side of them
    # must move the card to that end of the day (after 08:00, 07:45 is earlier; before, 23:30 is later).
    early_in_the_day = page.evaluate("new Date().getHours()") < 8
    new_time, shown_time = ("23:30", "11:30 PM") if early_in_the_day else ("07:45", "7:45 AM")
    page.get_by_label("Time").fill(new_time)
    page.get_by_role("button", name="Save").click()
    page.wait_for_url(f"{server}/journal**")
    edited = card(page, "Masala dosa, extra crisp")
    expect(edited.locator(".jcard__edited")).to_have_text("· edited")
    expect(edited.locator(".jcard__time")).to_have_text(shown_time)
    end_of_day = page.locator(".jcard").last if early_in_the_day else page.locator(".jcard").first
    expect(end_of_day).to_contain_text("Masala dosa, extra crisp")

    # ---- A card's category, changed from its band without a reload ----
    edited.locator("select.jcard__category").select_option("snack")
    expect(page.locator(".toast", has_text="Category: Snack")).to_be_visible()
    expect(edited).to_have_class(re.compile(r"jcard--snack"))
    page.reload()
    expect(card(page, "Masala dosa, extra crisp")).to_have_class(re.compile(r"jcard--snack"))

    # ---- Delete with Undo ----
    open_card(page, "Two idlis and sambar").get_by_role("button", name="Delete").click()
    expect(card(page, "Two idlis and sambar")).to_have_count(0)
    expect(page.locator("#journal-count")).to_have_text("2 entries")
    page.locator(".toast").filter(has_text="Entry deleted").get_by_role("button", name="Undo").click()
    expect(card(page, "Two idlis and sambar")).to_have_count(1)
    expect(page.locator("#journal-count")).to_have_text("3 entries")
    page.reload()
    expect(card(page, "Two idlis and sambar")).to_have_count(1)

    # ---- Yesterday by a swipe; "I ate it today"; back by a swipe and the Today pill ----
    status, _ = api(page, server, "POST", "/api/v1/journal/entries",
                    {"processedDescription": "Paneer tikka and naan", "date": YESTERDAY.isoformat(), "time": "19:30"})
    assert status == 201
    swipe(page, 150)
    page.wait_for_url(f"{server}/journal?date={YESTERDAY.isoformat()}")
    expect(card(page, "Paneer tikka and naan")).to_be_visible()
    expect(page.locator(".journal-banner__eyebrow")).to_have_text("Your food journal")
    open_card(page, "Paneer tikka").get_by_role("button", name="I ate it today").click()
    page.wait_for_url(f"{server}/journal**")
    assert "date=" not in page.url
    expect(page.locator(".toast", has_text="Meal #4 today!")).to_be_visible()
    copy = card(page, "Paneer tikka and naan")
    expect(copy).to_have_count(1)
    open_card(page, "Paneer tikka").get_by_role("button", name="I ate again").click()
    expect(page.locator(".toast", has_text="Meal #5 today!")).to_be_visible()
    expect(card(page, "Paneer tikka and naan")).to_have_count(2)
    swipe(page, 150)
    page.wait_for_url(f"{server}/journal?date={YESTERDAY.isoformat()}")
    expect(card(page, "Paneer tikka and naan")).to_have_count(1)
    page.get_by_role("link", name="Back to today").click()
    page.wait_for_url(server + "/journal")
    swipe(page, -150)  # nothing after today
    page.wait_for_timeout(300)
    assert page.url == server + "/journal"
    assert page.console_errors == []

    # ---- Screenshots: 390 and 320 px, light and dark ----
    for scheme in ["light", "dark"]:
        page.emulate_media(color_scheme=scheme, reduced_motion="reduce")
        for width, size in [(390, VIEWPORT), (320, NARROW)]:
            page.set_viewport_size(size)
            page.goto(server + "/journal")
            open_card(page, "Thali with rice")
            screenshot(page, f"journal-day-{width}-{scheme}")
            page.goto(server + "/journal/new")
            screenshot(page, f"journal-new-{width}-{scheme}")
            assert page.evaluate("document.documentElement.scrollWidth") <= size["width"]

    # ---- A second user reaches none of it, by any URL ----
    entries = {e["processedDescription"]: e["id"] for e in api(page, server, "GET", "/api/v1/journal/entries")[1]["entries"]}
    thali_id = entries["Thali with rice, dal and papad"]
    other = page.context.browser.new_context(viewport=VIEWPORT)
    intruder = other.new_page()
    new_user_with_profile(intruder, server)
    for path in [f"/journal/{thali_id}/edit", f"/api/v1/journal/entries/{thali_id}", f"/api/v1/media/{media_ids}",
                 f"/api/v1/media/{media_ids}?size=thumb", f"/api/v1/media/{audio_id}"]:
        response = intruder.request.get(server + path)
        assert response.status == 404, (path, response.status)
    for method, path in [("PUT", f"/api/v1/journal/entries/{thali_id}"), ("DELETE", f"/api/v1/journal/entries/{thali_id}"),
                         ("POST", f"/api/v1/journal/entries/{thali_id}/duplicate"), ("POST", f"/api/v1/journal/entries/{thali_id}/restore")]:
        status, _ = api(intruder, server, method, path, {"processedDescription": "mine"} if method == "PUT" else None)
        assert status == 404, (method, path, status)
    intruder.goto(server + "/journal")
    expect(intruder.get_by_role("heading", name="Your page for today is empty")).to_be_visible()
    assert "Thali" not in intruder.content()
    status, listed = api(intruder, server, "GET", f"/api/v1/journal/entries?from={YESTERDAY.isoformat()}")
    assert status == 200 and listed["entries"] == []
    other.close()


def test_text_entry_without_script(server, browser):
    """The text path as plain HTML forms: add, then delete and Undo, with JavaScript off."""
    context = browser.new_context(viewport=VIEWPORT, java_script_enabled=False)
    page = context.new_page()
    # The guest account and profile need the API; the session then serves the script-less pages.
    scripted = browser.new_context(viewport=VIEWPORT)
    helper = scripted.new_page()
    new_user_with_profile(helper, server)
    context.add_cookies(scripted.cookies())
    page.goto(server + "/journal/new")
    expect(page.locator("#journal-modes")).to_be_hidden()  # photo and voice need script
    page.get_by_label("What did you eat?").fill("Curd rice")
    page.get_by_role("button", name="Save").click()
    page.wait_for_url(f"{server}/journal?added=*")
    expect(page.locator("#journal-flash")).to_contain_text("First entry today! 🎉")
    page.locator(".jcard summary").click()
    page.get_by_role("button", name="Delete").click()
    expect(page.locator("#journal-flash")).to_contain_text("Entry deleted")
    expect(page.locator(".jcard")).to_have_count(0)
    page.locator("#journal-flash").get_by_role("button", name="Undo").click()
    expect(card(page, "Curd rice")).to_be_visible()
    context.close()
    scripted.close()


@pytest.mark.parametrize("locale", ["en-US", "de-DE"])
def test_journal_pages_pass_axe(server, browser, locale):
    context = browser.new_context(locale=locale, viewport=NARROW, bypass_csp=True)
    page = context.new_page()
    page.goto(server + "/onboarding")
    with page.expect_navigation():
        page.locator("form[action='/onboarding/guest'] button, button[name='guest']").first.click()
    status, body = api(page, server, "PUT", "/api/v1/profile", DEFAULT_PROFILE)
    assert status in (200, 201), body
    failures = []
    check(page, server, ["/journal", "/journal/new", f"/journal?date={YESTERDAY.isoformat()}"], failures, locale)
    ids = []
    for words, category in [("Idli, sambar and a filter coffee", None), ("Gulab jamun", "dessert"), ("Lemon water", "none")]:
        body = {"processedDescription": words}
        if category:
            body["category"] = category
        status, saved = api(page, server, "POST", "/api/v1/journal/entries", body)
        assert status == 201, saved
        ids.append(saved["entry"]["id"])
    status, _ = api(page, server, "PUT", f"/api/v1/journal/entries/{ids[0]}", {"processedDescription": "Idli and sambar"})
    assert status == 200
    check(page, server, ["/journal", f"/journal/{ids[0]}/edit", f"/journal?highlight={ids[1]}#entry-{ids[1]}"], failures, locale)
    context.close()
    assert failures == []


def test_voice_without_speech_recognition_keeps_the_recording(server, media_browser):
    """A browser without speech recognition: the recording is still kept, and the person types what they said."""
    context = media_browser.new_context(viewport=VIEWPORT, device_scale_factor=2, is_mobile=True, has_touch=True)
    context.add_init_script("delete window.SpeechRecognition; delete window.webkitSpeechRecognition;")
    page = context.new_page()
    new_user_with_profile(page, server)
    page.goto(server + "/journal/new")
    assert page.evaluate("!window.SpeechRecognition && !window.webkitSpeechRecognition")
    page.get_by_role("radio", name="Voice").check()
    page.get_by_role("button", name="Start recording").click()
    expect(page.locator("#journal-status")).to_have_text("Listening… say what you ate.")
    page.wait_for_timeout(1000)
    page.get_by_role("button", name="Stop recording").click()
    expect(page.locator("#journal-status")).to_have_text(
        "Recording kept. Your browser cannot write down speech, so type what you said below.", timeout=20000)
    expect(page.get_by_label("What did you eat?")).to_be_focused()
    audio_id = page.locator("#journal-media").input_value()
    page.get_by_label("What did you eat?").fill("Curd rice and pickle")
    page.get_by_role("button", name="Save").click()
    page.wait_for_url(server + "/journal")
    status, day = api(page, server, "GET", "/api/v1/journal/entries")
    assert status == 200
    assert [(e["inputType"], e["mediaIds"], e["processedDescription"], e["rawInput"]) for e in day["entries"]] == [
        ("voice", [audio_id], "Curd rice and pickle", "")]  # nothing was heard, so no transcript
    context.close()
