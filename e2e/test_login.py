"""Hardened accounts in a real browser: the password policy on the account step, sign-in throttling on /login,
and a password change in Settings that signs out every other device."""
import json
import re
import urllib.error
import urllib.request
import uuid

from conftest import DEFAULT_PROFILE, api, screenshot
from test_onboarding import assert_clean_console, watch_failures


# The profile steps' script writes the current step into the address (#gender).
PROFILE_STEPS = re.compile(r".*/onboarding/profile(#.*)?$")


def unique_email(name: str) -> str:
    return f"{name}-{uuid.uuid4().hex[:8]}@example.com"


def bearer_login(server, email, password):
    """A second device: signs in through the JSON API and returns (status, token)."""
    request = urllib.request.Request(
        server + "/api/v1/auth/login", method="POST",
        data=json.dumps({"email": email, "password": password}).encode(),
        headers={"Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request) as response:
            return response.status, json.loads(response.read())["token"]
    except urllib.error.HTTPError as error:
        return error.code, None


def me_status(server, token):
    request = urllib.request.Request(server + "/api/v1/auth/me", headers={"Authorization": f"Bearer {token}"})
    try:
        with urllib.request.urlopen(request) as response:
            return response.status
    except urllib.error.HTTPError as error:
        return error.code


def create_account(page, server, email, password):
    page.goto(server + "/onboarding")
    page.get_by_label("Email").fill(email)
    page.locator("#password").fill(password)
    with page.expect_navigation():
        page.get_by_role("button", name="Create Account").click()


def test_account_step_refuses_a_common_password(server, page):
    failures = watch_failures(page)
    email = unique_email("common")
    create_account(page, server, email, "Password123")
    error = page.locator("#password-error")
    assert error.inner_text() == (
        "That password is one of the most common, so it's easy to guess. "
        "Please choose another (a short phrase you'll remember works well)"
    )
    assert page.locator("#password").get_attribute("aria-invalid") == "true"
    assert page.get_by_label("Email").input_value() == email
    screenshot(page, "30-account-common-password")

    page.locator("#password").fill("tomato soup on tuesdays")
    page.get_by_role("button", name="Create Account").click()
    page.wait_for_url(PROFILE_STEPS)
    assert_clean_console(page, failures, expected_failures=["/onboarding/account"])


def test_login_is_throttled_with_the_wait_on_the_page(server, page):
    failures = watch_failures(page)
    email = unique_email("throttled")
    page.goto(server + "/login")
    for _ in range(5):
        page.get_by_label("Email").fill(email)
        page.get_by_label("Password").fill("not the password")
        with page.expect_navigation():
            page.get_by_role("button", name="Sign In").click()
        assert page.get_by_text("Email or password is incorrect").is_visible()
    page.get_by_label("Password").fill("not the password")
    with page.expect_navigation():
        page.get_by_role("button", name="Sign In").click()
    message = page.locator("#login-error").inner_text()
    assert message.startswith("Too many sign-in attempts. For your security, please wait before trying again. Try again in: ")
    assert message.endswith("s") and "m " in message
    screenshot(page, "31-login-throttled")
    assert_clean_console(page, failures, expected_failures=["/login"])


def test_password_change_signs_out_every_other_device(server, page):
    failures = watch_failures(page)
    email = unique_email("changer")
    create_account(page, server, email, "tomato soup on tuesdays")
    page.wait_for_url(PROFILE_STEPS)
    status, _ = api(page, server, "PUT", "/api/v1/profile", DEFAULT_PROFILE)
    assert status in (200, 201)
    status, phone = bearer_login(server, email, "tomato soup on tuesdays")
    assert status == 200 and me_status(server, phone) == 200

    page.goto(server + "/settings")
    page.get_by_label("Current password").fill("wrong soup")
    page.get_by_label("New password").fill("radishes all winter")
    with page.expect_navigation():
        page.get_by_role("button", name="Change Password").click()
    assert page.locator("#current-password-error").inner_text() == "Your current password is incorrect"
    screenshot(page, "32-settings-password-error")

    page.get_by_label("Current password").fill("tomato soup on tuesdays")
    page.get_by_label("New password").fill("radishes all winter")
    # Each submit waits for its own page: under load the refused page was still arriving when the next one was typed.
    with page.expect_navigation(url=re.compile(r".*/settings\?password=changed"), timeout=60_000):
        page.get_by_role("button", name="Change Password").click()
    page.get_by_text("Password changed. You're signed out everywhere else.").wait_for()
    screenshot(page, "33-settings-password-changed")

    # This browser carries on with its new session; the phone's session ended at once.
    status, profile = api(page, server, "GET", "/api/v1/profile")
    assert status == 200
    assert me_status(server, phone) == 401
    assert bearer_login(server, email, "tomato soup on tuesdays")[0] == 401
    assert bearer_login(server, email, "radishes all winter")[0] == 200
    assert_clean_console(page, failures, expected_failures=["/settings/password"])
