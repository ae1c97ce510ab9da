"""Browser journeys against a real `wdiet serve`, in Debian's Chromium through Playwright (no downloaded browsers)."""
import contextlib
import os
import pathlib
import socket
import subprocess
import tempfile
import time
import urllib.request

import pytest
from playwright.sync_api import sync_playwright

ROOT = pathlib.Path(__file__).resolve().parent.parent
ARTIFACTS = ROOT / "artifacts" / "screenshots"
VIEWPORT = {"width": 390, "height": 844}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextlib.contextmanager
def running_server(*extra_args, port=None, startup_seconds=300, prefix="wdiet-e2e-"):
    """`wdiet serve` on a fresh SQLite file in a new folder, with `extra_args`; yields its base URL once /health
    answers, and checks at the end that it stops gracefully on SIGTERM."""
    binary = os.environ.get("WDIET_BINARY", str(ROOT / ".build" / "debug" / "wdiet"))
    port = port or _free_port()
    folder = tempfile.mkdtemp(prefix=prefix)
    log = open(os.path.join(folder, "server.log"), "w")
    process = subprocess.Popen(
        [binary, "serve", "--port", str(port), "--database", os.path.join(folder, "e2e.sqlite"), *extra_args],
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
    assert process.wait(timeout=30) == 0, "wdiet serve did not stop gracefully on SIGTERM"


@pytest.fixture(scope="session")
def server():
    """A fresh server on a fresh database, with the SR28 catalog imported on its first start (which a debug build on
    a busy machine takes minutes over)."""
    with running_server() as base:
        yield base


@pytest.fixture(scope="session")
def browser():
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"), args=["--no-sandbox"])
        yield browser
        browser.close()


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


def screenshot(page, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


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


def new_user_with_profile(page, server, **overrides) -> dict:
    """A guest whose profile is saved through the API (for journeys that start after onboarding)."""
    start_guest(page, server)
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


def fits(page):
    """Nothing runs wider than the screen."""
    assert page.evaluate("document.documentElement.scrollWidth") <= NARROW["width"]
