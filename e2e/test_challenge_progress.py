"""The Challenge's Progress screen, photo view, Photo Comparison and summary (issue 20 items 3 and 5), at 390×844.

The data is made through the API on a challenge that started five Mondays before this week's, so today is in week 6
whatever the day and hour: every day before today logged (nutrition typed, Sundays skipped; Push every day but
Sunday, a planned Rest on Sunday; all three habits), each Monday's weight in w-diet's weight log (90.0 → 86.5 kg; the
weekly weigh-in is C2's journey), photos for weeks 1, 3 and 6 (added today, so all three are late). Weeks 1 and 3
score 50 × 6/7 + 20 + 15 + 10 = 87.86 → 88 (green), weeks 2, 4 and 5 without a photo 78 (yellow); the finished weeks
average 82.
"""
import base64
import datetime
import os
import pathlib
import struct
import subprocess
import tempfile

from conftest import NARROW, AxeOncePerDocument, api, fits, new_user_with_profile, screenshot, squeezed_words, sticking_out

AXE = AxeOncePerDocument()
WEIGHTS = [90.0, 89.3, 88.6, 87.9, 87.2, 86.5]
PHOTO_WEEKS = [1, 3, 6]
COLOURS = {1: "#c8702a", 3: "#6b8e23", 6: "#3a6ea5"}
# How long "Seed Demo Data" may take: its twelve photos go through the media store at nice 10, which a loaded machine
# (the test command compiles beside the journeys) serves last.
DEMO_SEED_MS = 180_000


def jpeg(page, colour: str) -> bytes:
    """A real 480×640 JPEG drawn by the browser: a plain background with a coloured figure."""
    data_url = page.evaluate("""(colour) => {
        const canvas = document.createElement("canvas");
        canvas.width = 480; canvas.height = 640;
        const g = canvas.getContext("2d");
        g.fillStyle = "#eeeeee"; g.fillRect(0, 0, 480, 640);
        g.fillStyle = colour; g.fillRect(140, 120, 200, 420);
        g.beginPath(); g.arc(240, 90, 60, 0, Math.PI * 2); g.fill();
        return canvas.toDataURL("image/jpeg", 0.9);
    }""", colour)
    return base64.b64decode(data_url.split(",", 1)[1])


def seed_challenge(page, server) -> dict:
    """The challenge and its five weeks and a bit, through the API; returns the Home JSON after it."""
    today = datetime.datetime.now(datetime.timezone.utc).date()
    start = today - datetime.timedelta(days=today.weekday() + 35)
    new_user_with_profile(page, server, planStartDate=start.isoformat())
    status, home = api(page, server, "POST", "/api/v1/challenge",
                       {"startDate": start.isoformat(), "goalWeight": 80, "startWeight": 90})
    assert status == 201, home
    today = datetime.date.fromisoformat(home["today"])  # the server's today decides from here on
    day = start
    while day < today:
        iso = day.isoformat()
        nutrition = {"status": "skipped"} if day.weekday() == 6 else {"kcal": 1800, "protein": 140, "carbs": 180, "fat": 60}
        assert api(page, server, "PUT", f"/api/v1/challenge/days/{iso}/nutrition", nutrition)[0] == 200
        workout = {"type": "rest"} if day.weekday() == 6 else {"type": "push", "useTemplate": True}
        assert api(page, server, "PUT", f"/api/v1/challenge/days/{iso}/workout", workout)[0] == 200
        assert api(page, server, "PUT", f"/api/v1/challenge/days/{iso}/habits", {"water": True, "steps": True, "sleep": True})[0] == 200
        day += datetime.timedelta(days=1)
    for week, kg in enumerate(WEIGHTS, start=1):
        monday = start + datetime.timedelta(days=7 * (week - 1))
        # This week's Monday may be today: then "now" (a time later today could be in the future).
        entry = {"kg": kg} if monday == today else {"kg": kg, "loggedAt": f"{monday.isoformat()}T07:30:00Z"}
        status, body = api(page, server, "POST", "/api/v1/weights", entry)
        assert status == 201, body
    for week in PHOTO_WEEKS:
        media_id = f"0190b0c{week}-0000-7000-8000-{week:012d}"
        upload = page.request.put(server + f"/api/v1/media/{media_id}", data=jpeg(page, COLOURS[week]),
                                  headers={"Content-Type": "image/jpeg", "X-CSRF-Token": csrf(page), "Origin": server})
        assert upload.status in (200, 201), upload.text()
        status, body = api(page, server, "PUT", f"/api/v1/challenge/weeks/{week}/photo", {"mediaId": media_id})
        assert status == 200, body
    return home


def csrf(page):
    from conftest import csrf_token
    return csrf_token(page)


def axe_clean(page, label: str):
    """No axe violation of any impact in light and dark, at 100 % and 200 % text (in a second tab of the same session
    that bypasses the CSP: the check adds axe's script and a style)."""
    failures = []
    url = page.url
    context = page.context.browser.new_context(viewport=page.viewport_size, device_scale_factor=2, is_mobile=True,
                                               has_touch=True, bypass_csp=True, storage_state=page.context.storage_state())
    checked = page
    page = context.new_page()
    for scheme in ["light", "dark"]:
        page.emulate_media(color_scheme=scheme, reduced_motion="reduce")
        page.goto(url)
        page.wait_for_load_state("networkidle")
        for text in ["100%", "200%"]:  # the same page, the style added after the load either way
            if text != "100%":
                page.add_style_tag(content=f"html {{ font-size: {text} !important; }}")
            found = AXE.run(page).response["violations"]
            if found:
                failures.append((label, scheme, text, [(v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3]) for v in found]))
            if scheme == "light" and (out := sticking_out(page)):
                failures.append((label, scheme, text, "sticks out", out))
            if scheme == "light" and (squeezed := squeezed_words(page)):
                failures.append((label, scheme, text, "words cut", squeezed))
    context.close()
    assert checked.url == url
    assert not failures, failures


def png_size(data: bytes):
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_progress_photos_comparison_and_summary(page, server, browser):
    home = seed_challenge(page, server)
    assert home["week"] == 6

    # ---- Charts: the weight chart with the dotted MATADOR pace, macro trends, the compliance grid ----
    page.goto(server + "/challenge/progress")
    assert page.locator("#ch-progress-tab-charts").get_attribute("aria-current") == "page"
    assert page.locator("#ch-progress-week").inner_text() == "Week 6 of 17"
    pace = page.locator("#ch-weight-chart .cchart__pace")
    assert pace.get_attribute("stroke-dasharray") == "2 5"
    # Flat in maintenance blocks: the line has corners (more than a straight line's two points).
    assert pace.get_attribute("d").count("L") >= 5
    assert page.locator("#ch-weight-chart .cchart__dot").count() == 6
    assert "Weight chart: 6 weeks weighed of 17" in page.locator("#ch-weight-chart").get_attribute("aria-label")
    # 86.5 kg on week 6's Monday; MATADOR from the start: 14 diet days before it → 90 − 10 × 14/56 = 87.5 kg.
    assert "86.5 kg" in page.locator("#ch-pace").inner_text() and "1.0 kg ahead of your goal pace (87.5 kg)" in page.locator("#ch-pace").inner_text()
    assert page.locator("#ch-macro-card tbody tr").count() == 6
    assert page.locator("#ch-macro-card tbody tr").last.locator("td").first.inner_text().strip() == "1,800"
    cells = page.locator(".ch-compliance__cell")
    assert cells.count() == 17
    expected = {1: ("88", "green"), 2: ("78", "yellow"), 3: ("88", "green"), 4: ("78", "yellow"), 5: ("78", "yellow")}
    for week, (score, colour) in expected.items():
        cell = page.locator(f'.ch-compliance__cell[data-week="{week}"]')
        assert cell.locator(".ch-compliance__score").inner_text() == score
        assert f"ch-compliance__cell--{colour}" in cell.get_attribute("class")
        assert cell.get_attribute("aria-label") == f"Week {week}: {score} of 100, {colour}"
    assert "ch-compliance__cell--future" in page.locator('.ch-compliance__cell[data-week="7"]').get_attribute("class")
    # Nothing in red: the grid's colours are green, yellow and gray only.
    colours = page.evaluate("""() => [...document.querySelectorAll('.ch-compliance__score')].map(e => getComputedStyle(e).color)""")
    assert not [c for c in colours if c.startswith("rgb(2") and c.endswith(", 0, 0)")]
    screenshot(page, "challenge-progress-charts")

    # ---- Insights: positive statements with their numbers ----
    page.locator("#ch-progress-tab-insights").click()
    page.wait_for_url("**/challenge/progress?tab=insights")
    insights = page.locator(".ch-insights__item").all_inner_texts()
    assert "You're 3.5 kg closer to your goal weight" in insights
    assert "You're 1.0 kg ahead of your goal pace" in insights
    assert "You've taken 3 weekly photos" in insights
    screenshot(page, "challenge-progress-insights")

    # ---- Photos: the 3-column grid with week numbers, the full-screen view with arrow keys and swipe ----
    page.locator("#ch-progress-tab-photos").click()
    page.wait_for_url("**/challenge/progress?tab=photos")
    items = page.locator(".ch-photo-grid__item")
    assert items.count() == 3
    assert [w.strip() for w in page.locator(".ch-photo-grid__week").all_inner_texts()] == ["W1", "W3", "W6"]
    page.wait_for_function("() => [...document.querySelectorAll('.ch-photo-grid__item img')].every(i => i.complete && i.naturalWidth > 0)")
    columns = page.evaluate("getComputedStyle(document.querySelector('.ch-photo-grid')).gridTemplateColumns.split(' ').length")
    assert columns == 3
    assert page.locator(".ch-photo-grid__late").count() == 3  # added today: after each week's Monday
    screenshot(page, "challenge-progress-photos")
    with page.expect_navigation():
        items.nth(1).click()
    assert page.locator(".ch-viewer__title").inner_text() == "Week 3"
    assert page.locator("#ch-photo-position").inner_text() == "2 of 3"
    page.wait_for_function("() => document.getElementById('ch-photo-image').naturalWidth > 0")
    screenshot(page, "challenge-photo-full")
    with page.expect_navigation():
        page.keyboard.press("ArrowRight")
    assert page.locator(".ch-viewer__title").inner_text() == "Week 6"
    assert page.locator("#ch-photo-next").count() == 0
    with page.expect_navigation():
        page.keyboard.press("ArrowLeft")
    assert page.locator(".ch-viewer__title").inner_text() == "Week 3"
    # A swipe to the left is the next photo.
    with page.expect_navigation():
        page.evaluate("""() => {
            const target = document.querySelector('.ch-viewer__figure');
            const touch = (x) => new Touch({identifier: 1, target, clientX: x, clientY: 300});
            target.dispatchEvent(new TouchEvent('touchstart', {touches: [touch(300)], changedTouches: [touch(300)], bubbles: true}));
            target.dispatchEvent(new TouchEvent('touchend', {touches: [], changedTouches: [touch(120)], bubbles: true}));
        }""")
    assert page.locator(".ch-viewer__title").inner_text() == "Week 6"
    axe_clean(page, "photo view")
    with page.expect_navigation():
        page.locator("#ch-photo-close").click()
    assert "tab=photos" in page.url

    # ---- Photo Comparison: week pickers, side by side, then the slider ----
    with page.expect_navigation():
        page.locator("#ch-compare-link").click()
    assert page.locator("#ch-compare-before").input_value() == "1"
    assert page.locator("#ch-compare-after").input_value() == "6"
    pair = page.locator("#ch-compare-pair img")
    assert pair.count() == 2
    page.wait_for_function("() => [...document.querySelectorAll('#ch-compare-pair img')].every(i => i.naturalWidth > 0)")
    with page.expect_navigation():
        page.locator("#ch-compare-before").select_option("3")
    assert page.locator("#ch-compare-before").input_value() == "3"
    assert "before=3" in page.url
    assert [c.strip() for c in page.locator("#ch-compare-pair figcaption").all_inner_texts()] == ["Week 3", "Week 6"]
    screenshot(page, "challenge-compare-side")
    axe_clean(page, "comparison side by side")
    with page.expect_navigation():
        page.locator("#ch-compare-slider").click()
    page.locator("#ch-compare-range").fill("20")
    assert page.evaluate("document.getElementById('ch-compare-overlay').style.getPropertyValue('--split')") == "20%"
    screenshot(page, "challenge-compare-slider")
    axe_clean(page, "comparison slider")

    # ---- Summary: the PDF's text and the share image ----
    page.goto(server + "/challenge/progress")
    with page.expect_download() as download_info:
        page.locator("#ch-summary-pdf").click()
    download = download_info.value
    assert download.suggested_filename.startswith("w-diet-challenge-") and download.suggested_filename.endswith(".pdf")
    folder = pathlib.Path(tempfile.mkdtemp(prefix="wdiet-summary-e2e-"))
    pdf = folder / "summary.pdf"
    download.save_as(pdf)
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    for expected_text in ["Your 17-Week Challenge", "Week 6 of 17", "90.0 kg", "86.5 kg", "80.0 kg", "82/100",
                          "1.0 kg ahead of your goal pace (87.5 kg)", "Weekly compliance", "Week by week",
                          "You're 3.5 kg closer to your goal weight", "First and latest photo", "Week 1 ·", "Week 6 ·"]:
        assert expected_text in text, (expected_text, text)
    pages = subprocess.run(["pdfinfo", str(pdf)], capture_output=True, text=True, check=True).stdout
    assert "Pages:           2" in pages
    # Page 2 drawn: the first photo's figure (#c8702a) shows in the left frame.
    subprocess.run(["pdftoppm", "-r", "72", "-f", "2", "-l", "2", "-png", str(pdf), str(folder / "page")], check=True)
    assert (folder / "page-2.png").stat().st_size > 10_000
    with page.expect_download() as download_info:
        page.locator("#ch-summary-png").click()
    image = folder / "share.png"
    download_info.value.save_as(image)
    assert png_size(image.read_bytes()) == (1080, 1350)
    assert not page.console_errors, page.console_errors

    # ---- Every tab: axe light and dark, 200 % text; nothing wider than 320 px ----
    for path, label in [("/challenge/progress", "charts"), ("/challenge/progress?tab=photos", "photos"),
                        ("/challenge/progress?tab=insights", "insights")]:
        page.goto(server + path)
        axe_clean(page, label)
    narrow = browser.new_context(viewport=NARROW, device_scale_factor=2, is_mobile=True, has_touch=True,
                                 storage_state=page.context.storage_state())
    small = narrow.new_page()
    for path in ["/challenge/progress", "/challenge/progress?tab=photos", "/challenge/progress?tab=insights",
                 "/challenge/progress/photos/1", "/challenge/progress/compare?before=1&after=6&view=slider"]:
        small.goto(server + path)
        small.wait_for_load_state("networkidle")
        fits(small)
    small.goto(server + "/challenge/progress")
    screenshot(small, "challenge-progress-charts-320")
    narrow.close()


def test_progress_empty_states_and_demo_data(page, server):
    new_user_with_profile(page, server)
    # No challenge: 003's empty state with a way to start one.
    page.goto(server + "/challenge/progress")
    assert page.locator(".ch-empty__title").inner_text() == "No data yet"
    assert page.locator(".ch-empty a").get_attribute("href") == "/challenge/start"
    assert page.locator(".ch-tabs").count() == 0
    status, _ = api(page, server, "GET", "/api/v1/challenge/summary")
    assert status == 404
    # Seed Demo Data, from Settings (offered there while no challenge runs): week 12 of a 17-week challenge,
    # 92 → 82 kg, with eleven finished weeks.
    page.goto(server + "/challenge/settings")
    # Seeding draws and stores twelve photos at the background priority (nice 10): while the test command compiles
    # beside the journeys that can take well over 30 s, so the wait is generous (DEMO_SEED_MS).
    with page.expect_navigation(timeout=DEMO_SEED_MS):
        page.get_by_role("button", name="Seed Demo Data").click(timeout=DEMO_SEED_MS)  # the click waits for the navigation too
    page.wait_for_url("**/challenge?saved=demo")
    assert "Demo data added" in page.locator(".ch-notice").inner_text()
    page.goto(server + "/challenge/progress")
    assert page.locator("#ch-progress-week").inner_text() == "Week 12 of 17"
    assert page.locator(".ch-compliance__cell--future").count() == 5
    assert page.locator("#ch-weight-chart .cchart__dot").count() >= 11
    # The demo's drawn weekly photos: one a week up to this one (twelve), week 5's late; they open and compare.
    page.goto(server + "/challenge/progress?tab=photos")
    assert page.locator(".ch-photo-grid img").count() == 12
    # The first row is on screen (the rest load lazily): real pictures, not broken ones.
    page.wait_for_function("() => [...document.querySelectorAll('.ch-photo-grid img')].slice(0, 3).every(i => i.complete && i.naturalWidth > 0)")
    late = page.locator(".ch-photo-grid__late")
    assert late.count() == 1
    assert late.locator("xpath=..").get_attribute("data-week") == "5"
    page.goto(server + "/challenge/progress/compare?before=1&after=12&view=side")
    page.wait_for_function("() => [...document.querySelectorAll('figure img')].filter(i => i.complete && i.naturalWidth > 0).length == 2")
    # Removed again from Settings: only the demo goes.
    page.goto(server + "/challenge/settings")
    assert page.get_by_role("button", name="Seed Demo Data").count() == 0
    with page.expect_navigation():
        page.get_by_role("button", name="Remove Demo Data").click()
    page.wait_for_url("**/challenge/settings?saved=demoRemoved")
    assert page.locator(".ch-notice").inner_text().strip() == "Demo data removed."
    assert page.get_by_role("button", name="Seed Demo Data").is_visible()
    status, _ = api(page, server, "GET", "/api/v1/challenge")
    assert status == 404
    # A challenge of one's own without photos: the photos tab's empty state says how to add one.
    today = datetime.datetime.now(datetime.timezone.utc).date()
    status, body = api(page, server, "POST", "/api/v1/challenge",
                       {"goalWeight": 75, "startDate": (today - datetime.timedelta(days=today.weekday())).isoformat()})
    assert status == 201, body
    page.goto(server + "/challenge/progress?tab=photos")
    assert page.locator(".ch-empty__title").inner_text() == "No data yet"
    axe_clean(page, "photos empty")


def test_a_challenge_is_deleted_from_settings_once_confirmed(page, server):
    new_user_with_profile(page, server)
    page.goto(server + "/challenge/settings")
    with page.expect_navigation(timeout=DEMO_SEED_MS):
        page.get_by_role("button", name="Seed Demo Data").click(timeout=DEMO_SEED_MS)  # the click waits for the navigation too
    page.goto(server + "/challenge/settings")
    # Without the confirmation nothing goes: the page says what is missing, next to the switch.
    with page.expect_navigation():
        page.get_by_role("button", name="Delete Challenge").click()
    assert page.locator("#ch-delete-error").inner_text() == "Tick “I understand this cannot be undone” first."
    assert page.locator("#ch-delete-confirm").get_attribute("aria-invalid") == "true"
    axe_clean(page, "delete refused")
    status, _ = api(page, server, "GET", "/api/v1/challenge")
    assert status == 200
    # Confirmed: the challenge and its rows are gone, and Settings offers a new start.
    page.get_by_label("I understand this cannot be undone").check()
    with page.expect_navigation():
        page.get_by_role("button", name="Delete Challenge").click()
    page.wait_for_url("**/challenge/settings?saved=deleted")
    assert page.locator(".ch-notice").inner_text().strip() == "Challenge deleted."
    status, _ = api(page, server, "GET", "/api/v1/challenge")
    assert status == 404
    assert page.get_by_role("button", name="Seed Demo Data").is_visible()
