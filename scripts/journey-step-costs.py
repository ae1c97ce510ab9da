#!/usr/bin/env python3
"""What single browser-journey steps cost in CPU seconds (docs/testing.md, "Where the browser journeys' time goes"):
a new browser context, a page load, a screenshot, a signed-in guest with and without the onboarding pages, axe.

    scripts/journey-step-costs.py BINARY [REPEATS]      (as root: Chromium and a `wdiet serve` in a cgroup of their own)

Each step is repeated (default 10) and the CPU of the cgroup — the server and Chromium together — divided by the
repeats. On a shared machine run it more than once and state the load average it prints."""
import os
import pathlib
import re
import subprocess
import sys
import tempfile
import time
import urllib.request

from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import sync_playwright

binary, repeats = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 10
v2 = pathlib.Path("/sys/fs/cgroup/cgroup.controllers").exists()
group = pathlib.Path("/sys/fs/cgroup" if v2 else "/sys/fs/cgroup/cpuacct") / f"wdiet-step-costs-{os.getpid()}"
group.mkdir()
(group / "cgroup.procs").write_text(str(os.getpid()))


def cpu() -> float:
    if v2:
        stat = dict(line.split() for line in (group / "cpu.stat").read_text().splitlines())
        return int(stat["usage_usec"]) / 1e6
    return int((group / "cpuacct.usage").read_text()) / 1e9


def measure(label, step):
    before = cpu()
    for _ in range(repeats):
        step()
    print(f"{label}: {(cpu() - before) / repeats:.3f} CPU s each (load {os.getloadavg()[0]:.1f})")


folder = tempfile.mkdtemp(prefix="wdiet-step-costs-")
port = 47000 + os.getpid() % 1000
server_process = subprocess.Popen([binary, "serve", "--port", str(port), "--database", f"{folder}/s.sqlite",
                                   "--from", "/nonexistent-sr28"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
server = f"http://127.0.0.1:{port}"
for _ in range(240):
    try:
        urllib.request.urlopen(server + "/health", timeout=1)
        break
    except OSError:
        time.sleep(0.25)
PHONE = {"viewport": {"width": 390, "height": 844}, "device_scale_factor": 2, "is_mobile": True, "has_touch": True}
PROFILE = {"dateOfBirth": "1995-06-15", "sex": "male", "heightCm": 180, "weightKg": 80, "goal": "lose",
           "activity": "moderate", "timeZone": "UTC"}
try:
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"),
                                             args=["--no-sandbox", "--disable-gpu"])

        def context_and_page():
            context = browser.new_context(**PHONE)
            context.new_page().goto("about:blank")
            context.close()

        def guest(with_pages: bool):
            def step():
                context = browser.new_context(**PHONE)
                page = context.new_page()
                if with_pages:
                    page.goto(server + "/onboarding")
                    with page.expect_navigation():
                        page.get_by_role("button", name="Continue without an account").click()
                else:
                    token = re.search(r'action="/onboarding/guest">\s*<input type="hidden" name="_csrf" value="([^"]+)"',
                                      page.request.get(server + "/onboarding").text()).group(1)
                    answer = page.request.post(server + "/onboarding/guest", form={"_csrf": token},
                                               headers={"Origin": server}, max_redirects=0)
                    assert answer.status == 303, answer.status
                context.close()
            return step

        measure("a browser context with its page, closed", context_and_page)
        measure("the same, and a guest through the onboarding pages", guest(True))
        measure("the same, and a guest through the guest form's requests", guest(False))
        context = browser.new_context(**PHONE)
        page = context.new_page()
        token = re.search(r'action="/onboarding/guest">\s*<input type="hidden" name="_csrf" value="([^"]+)"',
                          page.request.get(server + "/onboarding").text()).group(1)
        page.request.post(server + "/onboarding/guest", form={"_csrf": token}, headers={"Origin": server})
        page.goto(server + "/onboarding/profile")
        csrf = page.evaluate("document.querySelector('meta[name=csrf-token]').content")
        saved = page.request.put(server + "/api/v1/profile", data=PROFILE, headers={"X-CSRF-Token": csrf, "Origin": server})
        assert saved.status in (200, 201), saved.status
        for path in ["/dashboard", "/profile", "/meals/new"]:
            measure(f"loading {path}", lambda: page.goto(server + path))
        page.goto(server + "/profile")
        measure("a full-page screenshot of /profile at scale 2", lambda: page.screenshot(path=f"{folder}/s.png", full_page=True))
        measure("a screenshot of the screen", lambda: page.screenshot(path=f"{folder}/s.png"))
        axe = Axe()
        measure("axe on /profile, its script injected each time", lambda: axe.run(page))
        measure("axe on /profile, the script already there", lambda: page.evaluate("axe.run({resultTypes: ['violations']}).then(() => 0)"))
        browser.close()
finally:
    server_process.terminate()
    server_process.wait()
    subprocess.run(["rm", "-rf", folder])
    parent = group.parent / "cgroup.procs"
    parent.write_text(str(os.getpid()))
    group.rmdir()
