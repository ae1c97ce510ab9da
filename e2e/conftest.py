"""Browser journeys against a real `wdiet serve`, in Debian's Chromium through Playwright (no downloaded browsers)."""
import contextlib
import fcntl
import os
import pathlib
import re
import shutil
import socket
import sqlite3
import subprocess
import tempfile
import threading
import time
import urllib.request
import warnings

import pytest
from axe_playwright_python.base import AxeResults
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import BrowserContext, sync_playwright
from playwright.sync_api import Error as PlaywrightError

ROOT = pathlib.Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "artifacts" / "screenshots"
VIEWPORT = {"width": 390, "height": 844}


BINARY = os.environ.get("WDIET_BINARY", str(ROOT / ".build" / "debug" / "wdiet"))
# The folder every pytest-xdist worker of one run shares (made by the controller in `pytest_configure`, inherited by
# the workers it starts, removed at the end): what is made once per run, like the SR28 template below, lives there.
SHARED_FOLDER = "WDIET_E2E_RUN_FOLDER"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def pytest_configure(config):
    if not hasattr(config, "workerinput") and SHARED_FOLDER not in os.environ:
        os.environ[SHARED_FOLDER] = tempfile.mkdtemp(prefix="wdiet-e2e-run-")
        config.wdiet_run_folder = os.environ[SHARED_FOLDER]
    # pytest-xdist's --dist loadfile hands out the files in collection order (see pytest_collection_modifyitems),
    # not sorted by their number of tests: a one-test file that runs for minutes must not be the last one handed out.
    if hasattr(config.option, "loadscopereorder"):
        config.option.loadscopereorder = False


def pytest_unconfigure(config):
    folder = getattr(config, "wdiet_run_folder", None)
    if folder:
        # test_postgres_scale_out.py's template database, when a worker made one.
        template = pathlib.Path(folder) / "pg-template"
        if template.exists() and os.environ.get("WDIET_TEST_POSTGRES_URL"):
            subprocess.run(["psql", os.environ["WDIET_TEST_POSTGRES_URL"], "-q", "-c",
                            f"DROP DATABASE IF EXISTS {template.read_text()} WITH (FORCE)"], capture_output=True)
        shutil.rmtree(folder, ignore_errors=True)
        del os.environ[SHARED_FOLDER]

# The files that take longest, longest first (measured: docs/testing.md, "Where the browser journeys' time goes");
# the others follow, those with the most tests first (pytest-xdist's own order). Two workers take files one at a time
# from this order: long files at the start and short ones at the end let both workers finish at about the same time.
# A file that comes to take a minute or more belongs in this list.
SLOW_FILES_FIRST = [
    "test_postgres_scale_out.py",  # first: it needs no SR28 template, so it runs while the other worker makes it
    "test_accessibility.py",
    "test_profile.py",
    "test_label_scan.py",
    "test_journal_views.py",
    "test_schemathesis.py",
    "test_journal_day.py",
    "test_challenge_progress.py",
    "test_challenge_daily.py",
    "test_new_user_bugs.py",
    "test_quick_logging.py",
]


def pytest_collection_modifyitems(session, config, items):
    rank = {name: index for index, name in enumerate(SLOW_FILES_FIRST)}
    tests_in = {}
    for item in items:
        tests_in[item.path.name] = tests_in.get(item.path.name, 0) + 1
    # Stable: a file's tests keep their order.
    items.sort(key=lambda item: (rank.get(item.path.name, len(rank)), -tests_in[item.path.name], item.path.name))


@contextlib.contextmanager
def once_per_run(name: str):
    """The shared run folder, held under an exclusive lock `name` (one worker at a time): what one worker makes
    there, the others find made."""
    folder = pathlib.Path(os.environ.get(SHARED_FOLDER) or tempfile.gettempdir())
    with open(folder / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        try:
            yield folder
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def _sr28_found() -> bool:
    """Whether `wdiet serve` would find the SR28 files ($WDIET_FOOD_DATA, else ../shared/datasets/usda-sr28)."""
    folder = os.environ.get("WDIET_FOOD_DATA") or str(ROOT / ".." / "shared" / "datasets" / "usda-sr28")
    return os.path.isfile(os.path.join(folder, "FOOD_DES.txt"))


def sr28_template():
    """A SQLite file with every migration and the SR28 catalog, made once per run by `wdiet import-foods` (the
    importer a server's first start runs): each server starts on a copy of it instead of importing SR28 itself,
    which took 15 s on the quiet machine and 45 s each while two workers' servers imported at once. None without
    the SR28 files (the servers then start without a catalog, as before)."""
    if not _sr28_found():
        return None
    with once_per_run("sr28-sqlite") as folder:
        template = folder / "sr28.sqlite"
        if not template.exists():
            making = folder / "sr28-making.sqlite"
            result = subprocess.run([BINARY, "import-foods", "--database", str(making)], cwd=ROOT,
                                    capture_output=True, text=True, timeout=1800)
            assert result.returncode == 0, "wdiet import-foods failed:\n" + result.stdout + result.stderr
            # One self-contained file (no -wal beside it) that a plain copy takes whole.
            with contextlib.closing(sqlite3.connect(making)) as database:
                database.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                database.execute("PRAGMA journal_mode=DELETE")
            os.replace(making, template)
    return template


@contextlib.contextmanager
def running_server(*extra_args, port=None, startup_seconds=300, prefix="wdiet-e2e-"):
    """`wdiet serve` in a new folder, with `extra_args`, on a fresh copy of the run's SR28 template (`sr28_template`;
    with `--from` among `extra_args`, on an empty file: the server imports from that folder itself, or starts
    without a catalog); yields its base URL once /health answers, and checks at the end that it stops gracefully
    on SIGTERM."""
    port = port or _free_port()
    folder = tempfile.mkdtemp(prefix=prefix)
    database = os.path.join(folder, "e2e.sqlite")
    if "--from" not in extra_args and (template := sr28_template()):
        shutil.copyfile(template, database)
    log = open(os.path.join(folder, "server.log"), "w")
    process = subprocess.Popen(
        [BINARY, "serve", "--port", str(port), "--database", database, *extra_args],
        cwd=ROOT, stdout=log, stderr=subprocess.STDOUT,
    )
    base = f"http://127.0.0.1:{port}"
    deadline = time.time() + startup_seconds
    while True:
        try:
            with urllib.request.urlopen(base + "/health", timeout=1) as response:
                if response.status == 200:
                    break
        except OSError:
            pass
        if process.poll() is not None or time.time() > deadline:
            process.kill()
            raise RuntimeError("wdiet serve did not start; see " + log.name)
        time.sleep(0.25)
    yield base
    process.terminate()
    status = process.wait(timeout=30)
    log.close()
    # A crash's report (the Swift runtime's backtrace) is in the server's log, in a folder CI does not keep: shown here.
    assert status == 0, f"wdiet serve did not stop gracefully on SIGTERM (status {status}); its log:\n" + _crash_or_tail(log.name)
    # Kept only when something failed above (its server.log says why); each copy of the catalog is ~21 MB.
    shutil.rmtree(folder, ignore_errors=True)


def _crash_or_tail(path: str, lines: int = 80) -> str:
    """A server log's crash report (from "Program crashed"), or its last lines."""
    with open(path, encoding="utf-8", errors="replace") as file:
        text = file.read().splitlines()
    crash = next((i for i, line in enumerate(text) if "Program crashed" in line), None)
    return "\n".join(text[crash:crash + lines] if crash is not None else text[-lines:])


@pytest.fixture(scope="session")
def server():
    """A fresh server on a fresh database holding the SR28 catalog (a copy of the run's template)."""
    with running_server() as base:
        yield base


# `--disable-gpu`: Chromium then paints with its software compositor instead of emulating a GPU in SwiftShader
# (Playwright passes `--enable-unsafe-swiftshader`). The screenshots are the same to the pixel (nine pages compared),
# and the accessibility file took 113-115 s instead of 149-156 s and 66-68 CPU s instead of 69-76 (docs/testing.md).
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu"]


# Closing a browser context once never returned: Chromium 156 (Debian's, new headless) held the teardown of a passed
# journey for 17 minutes, and every later journey of that worker waited behind it (a clean-clone run of 33aa470; the
# journeys have no clock of their own, so CI would have run into its 90 minutes). A close that takes longer than
# this kills this worker's browsers: the close then returns, the journey's result stands, and the next journey gets a
# new browser (`Browsers`). A close takes well under a second, a few on a loaded machine.
CONTEXT_CLOSE_LIMIT_SECONDS = 60
_close_context = BrowserContext.close


def _browser_processes() -> list:
    """This worker's Chromium main processes: the children of its Playwright driver (a child of this process)."""
    def children(pid):
        try:
            with open(f"/proc/{pid}/task/{pid}/children") as file:
                return [int(child) for child in file.read().split()]
        except OSError:
            return []
    found = []
    for driver in children(os.getpid()):
        for child in children(driver):
            try:
                with open(f"/proc/{child}/cmdline", "rb") as file:
                    if b"chrom" in file.read().split(b"\0")[0]:
                        found.append(child)
            except OSError:
                pass
    return found


def _close_within_limit(context, *args, **kwargs):
    done = threading.Event()
    killed = []

    def watch():
        if not done.wait(CONTEXT_CLOSE_LIMIT_SECONDS):
            for pid in _browser_processes():
                with contextlib.suppress(OSError):
                    os.kill(pid, 9)
                    killed.append(pid)

    threading.Thread(target=watch, daemon=True).start()
    try:
        return _close_context(context, *args, **kwargs)
    except PlaywrightError:
        if not killed:
            raise
    finally:
        done.set()
        if killed:
            warnings.warn(f"a browser context did not close in {CONTEXT_CLOSE_LIMIT_SECONDS} s; the browser was killed")


BrowserContext.close = _close_within_limit


class Browsers:
    """A browser for the journeys, launched again when the one before is gone (killed by `_close_within_limit`)."""

    def __init__(self, playwright, args=()):
        self.playwright = playwright
        self.args = list(args)
        self.browser = None

    def current(self):
        if self.browser is None or not self.browser.is_connected():
            self.browser = self.playwright.chromium.launch(
                executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"), args=CHROMIUM_ARGS + self.args)
        return self.browser

    def close(self):
        if self.browser is not None and self.browser.is_connected():
            self.browser.close()


@pytest.fixture(scope="session")
def playwright_session():
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browsers(playwright_session):
    held = Browsers(playwright_session)
    yield held
    held.close()


@pytest.fixture
def browser(browsers):
    return browsers.current()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport=VIEWPORT, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    errors = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.console_errors = errors
    yield page
    context.close()


# Screenshots only when asked for: `WDIET_E2E_SCREENSHOTS=1` (how docs/screenshots/ is made, docs/testing.md). Nothing
# compares them, and the ~230 full-page captures at scale 2 of a run cost Chromium about 0.25-0.9 s of CPU each. A
# journey must not rely on a capture (it waits for frames and, full page, resizes the viewport for a moment): it waits
# on the state it needs instead, so it asserts the same with screenshots on or off.
SCREENSHOTS = os.environ.get("WDIET_E2E_SCREENSHOTS", "") not in ("", "0")


def capture(target, path, **options) -> None:
    """`target.screenshot(path=path, **options)` (a page or a locator) when screenshots are asked for."""
    if not SCREENSHOTS:
        return
    pathlib.Path(path).parent.mkdir(parents=True, exist_ok=True)
    target.screenshot(path=str(path), **options)


def screenshot(page, name: str) -> None:
    """The whole page into artifacts/screenshots/NAME.png, when screenshots are asked for."""
    capture(page, ARTIFACTS / f"{name}.png", full_page=True)


class AxeOncePerDocument(Axe):
    """axe-core's checks as `Axe().run` makes them, with its 570 KB script injected once per document rather than
    before every check: the 200 % text check runs on the document the 100 % one was injected into, and each injection
    cost Chromium 0.05-0.2 CPU s (scripts/journey-step-costs.py). A new document has no `axe` and gets the script."""

    def run(self, page, context=None, options=None):
        if not page.evaluate("typeof window.axe === 'object' && typeof window.axe.run === 'function'"):
            page.evaluate(self.axe_script)
        command = "axe.run(%s).then(results => {return results;})" % self._format_script_args(
            context=context, options=options if options is not None else {"resultTypes": ["violations"]})
        return AxeResults(page.evaluate(command))


DEFAULT_PROFILE = {
    "dateOfBirth": "1995-06-15", "sex": "male", "heightCm": 180, "weightKg": 80, "goal": "lose",
    "activity": "moderate", "timeZone": "UTC",
}


def csrf_token(page) -> str:
    """The page's CSRF token, derived as the server derives it: HMAC-SHA256 keyed with the session cookie."""
    import base64
    import hashlib
    import hmac
    session = next(c["value"] for c in page.context.cookies() if c["name"] == "wdiet_session")
    mac = hmac.new(session.encode(), b"wdiet-csrf-v1", hashlib.sha256).digest()
    return base64.urlsafe_b64encode(mac).decode().rstrip("=")


def api(page, server, method: str, path: str, body=None):
    """A JSON API call with the browser's session cookie and CSRF token; returns (status, parsed body or None)."""
    response = page.request.fetch(
        server + path, method=method, data=body,
        headers={"X-CSRF-Token": csrf_token(page), "Content-Type": "application/json", "Origin": server},
    )
    text = response.text()
    import json
    return response.status, (json.loads(text) if text else None)


def start_guest(page, server) -> None:
    """'Continue without an account' on the account step: the browser now holds a web session."""
    page.goto(server + "/onboarding")
    with page.expect_navigation():
        page.get_by_role("button", name="Continue without an account").click()


GUEST_FORM = re.compile(r'<form method="post" action="/onboarding/guest">\s*<input type="hidden" name="_csrf" value="([^"]+)"')


def start_guest_without_pages(page, server) -> None:
    """What 'Continue without an account' sends, sent from the page's context (its cookies, so the browser holds the
    web session), without the browser loading the two onboarding pages: about 1 CPU s less each time
    (scripts/journey-step-costs.py), in most journeys. The onboarding journeys click the button itself (`start_guest`)."""
    form = page.request.get(server + "/onboarding")
    assert form.status == 200, form.status
    token = GUEST_FORM.search(form.text())
    assert token, "no 'Continue without an account' form on /onboarding"
    response = page.request.post(server + "/onboarding/guest", form={"_csrf": token.group(1)},
                                 headers={"Origin": server}, max_redirects=0)
    assert response.status == 303 and response.headers["location"].endswith("/onboarding/profile"), response.status


def new_user_with_profile(page, server, **overrides) -> dict:
    """A guest whose profile is saved through the API (for journeys that start after onboarding). The page is left
    where it was (blank for a new page): the journey opens its own first page."""
    start_guest_without_pages(page, server)
    profile = dict(DEFAULT_PROFILE, **overrides)
    status, body = api(page, server, "PUT", "/api/v1/profile", profile)
    assert status in (200, 201), body
    return body


NARROW = {"width": 320, "height": 720}


@pytest.fixture
def german(browser, page, server):
    """A guest with a profile (made in the default English page), then the same session in a German browser."""
    new_user_with_profile(page, server)
    context = browser.new_context(locale="de-DE", viewport=NARROW, device_scale_factor=2, is_mobile=True, has_touch=True,
                                  storage_state=page.context.storage_state())
    german = context.new_page()
    errors = []
    german.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    german.on("pageerror", lambda error: errors.append(str(error)))
    german.console_errors = errors
    yield german
    context.close()


# Controls, text and pictures that run past the screen's edge or their card's, or whose own text runs out of their box
# (found so at 320 px and 200 % text in German: a badge, a sample-data button, a top bar's title, the calendar's month,
# "Zusammenfassung" in a card's heading). Left out: what a sideways-scrolling row holds, what is hidden, and the skip
# link (off-screen until focused).
_STICKING_OUT = """() => {
  const found = [];
  const screen = document.documentElement.clientWidth;
  const inScroller = (element) => {
    for (let p = element.parentElement; p; p = p.parentElement) {
      const style = getComputedStyle(p);
      if ((style.overflowX === "auto" || style.overflowX === "scroll") && p.scrollWidth > p.clientWidth) return true;
    }
    return false;
  };
  for (const element of document.querySelectorAll("button, a, input, select, textarea, img, svg, label, h1, h2, h3, p, table")) {
    if (element.closest("[hidden], .visually-hidden, .skip-link")) continue;
    const box = element.getBoundingClientRect();
    if (box.width === 0 || box.height === 0 || getComputedStyle(element).visibility === "hidden" || inScroller(element)) continue;
    const what = element.tagName.toLowerCase() + (element.id ? "#" + element.id : "") + (typeof element.className === "string" && element.className ? "." + element.className.trim().split(/\\s+/).join(".") : "");
    const text = (element.textContent || "").trim().slice(0, 40);
    const card = element.parentElement && element.parentElement.closest(".card");
    const edge = card ? card.getBoundingClientRect() : { left: 0, right: screen };
    if (box.right > Math.min(edge.right, screen) + 0.5 || box.left < Math.max(edge.left, 0) - 0.5) {
      found.push([what, Math.round(box.left), Math.round(box.right), Math.round(edge.left), Math.round(edge.right), text]);
    } else if (!["svg", "img", "table"].includes(element.tagName.toLowerCase()) && element.clientWidth > 0
               && element.scrollWidth > element.clientWidth + 8 && getComputedStyle(element).overflowX === "visible") {
      // Its own text runs out of its box (a word wider than a heading or a button); not an icon's glyph a few
      // pixels wider than its 44 px button at 200 %.
      found.push([what + " (its text)", Math.round(box.left), Math.round(box.left + element.scrollWidth), Math.round(box.left), Math.round(box.right), text]);
    }
  }
  return found;
}"""


def sticking_out(page) -> list:
    """What runs past the screen's edge or its card's now: [what, its left and right edge, the card's (or the
    screen's) left and right edge, its text]."""
    return page.evaluate(_STICKING_OUT)


def broken_words(locator) -> list:
    """The words of the elements `locator` finds that a line break cuts in two ("Frühstü|ck")."""
    return locator.evaluate_all("""(elements) => {
      const broken = [];
      for (const element of elements) {
        const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          for (const match of node.textContent.matchAll(/\\S+/g)) {
            const range = document.createRange();
            range.setStart(node, match.index);
            range.setEnd(node, match.index + match[0].length);
            const tops = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
            if (tops.size > 1) broken.push(match[0]);
          }
        }
      }
      return broken;
    }""")


_SQUEEZED_WORDS = """() => {
  const limit = document.documentElement.clientWidth * 0.6;
  const found = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const parent = node.parentElement;
    if (!parent || parent.closest("[hidden], svg, .visually-hidden, [aria-hidden=true], details:not([open]) > :not(summary)")) continue;
    // A break after a hyphen, a dash or a slash is one between words ("Zwei-Wochen-|Rhythmus").
    for (const match of node.textContent.matchAll(/[^\\s\\-\u2013\\/]+[\\-\u2013\\/]?/g)) {
      const range = document.createRange();
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      const rects = [...range.getClientRects()].filter((rect) => rect.width > 0);
      const width = rects.reduce((sum, rect) => sum + rect.width, 0);
      if (new Set(rects.map((rect) => Math.round(rect.top))).size > 1 && width <= limit) {
        found.push([match[0], Math.round(width), parent.tagName.toLowerCase() + (parent.className ? "." + parent.className : "")]);
      }
    }
  }
  return found;
}"""


def squeezed_words(page) -> list:
    """Words a line break cuts in two although they are narrower than 60 % of the screen: a box squeezed beside its
    neighbours (a title in a 72 px column beside two emoji and a button), not a word longer than any line
    ("Geschlechtsidentitäten" at 200 %), which has to break. [word, its width, its element]."""
    return page.evaluate(_SQUEEZED_WORDS)


def large_text(page) -> None:
    """The page's text at 200 %, as a browser's text-size setting makes it (through the CSSOM, which the pages' CSP
    allows, unlike an added style element)."""
    page.evaluate("document.documentElement.style.setProperty('font-size', '200%', 'important')")


def fits(page):
    """Nothing runs wider than the screen."""
    assert page.evaluate("document.documentElement.scrollWidth") <= NARROW["width"]
