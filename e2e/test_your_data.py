"""Settings → Your data in a real browser: the JSON and CSV exports download as files, and deleting the account
(with its confirmation dialog) ends on the welcome page with every session of the user gone."""
import csv
import io
import json
import re
import zipfile

from conftest import DEFAULT_PROFILE, api, new_user_with_profile, screenshot
from test_login import PROFILE_STEPS, bearer_login, create_account, me_status, unique_email
from test_onboarding import assert_clean_console, watch_failures


def log_meal(page, server, name, calories):
    status, body = api(page, server, "POST", "/api/v1/meals", {"name": name, "calories": calories})
    assert status == 201, body


def test_export_downloads_json_and_csv(server, page):
    failures = watch_failures(page)
    new_user_with_profile(page, server)
    log_meal(page, server, 'Soup, "hot"', 420)
    page.goto(server + "/settings")
    section = page.locator(".settings__data")
    section.scroll_into_view_if_needed()
    assert section.get_by_role("heading", name="Your data").is_visible()
    screenshot(page, "40-settings-your-data")

    with page.expect_download() as download_info:
        page.get_by_role("link", name="Export My Data (JSON)").click()
    download = download_info.value
    assert re.fullmatch(r"w-diet-export-\d{4}-\d{2}-\d{2}\.json", download.suggested_filename)
    document = json.loads(open(download.path(), encoding="utf-8").read())
    assert document["format"] == "w-diet-export" and document["formatVersion"] == 1
    assert [(m["name"], m["calories"]) for m in document["meals"]] == [('Soup, "hot"', 420)]
    assert document["profile"]["heightCm"] == 180

    with page.expect_download() as download_info:
        page.get_by_role("link", name="Export as CSV (zip)").click()
    download = download_info.value
    assert download.suggested_filename.endswith(".zip")
    # Read with Python's own zip and CSV readers: a second, independent implementation of both formats.
    with zipfile.ZipFile(download.path()) as archive:
        assert sorted(archive.namelist()) == [
            "account.csv", "analytics_events.csv", "dismissed_tips.csv", "export.json", "identities.csv", "meals.csv",
            "profile.csv", "rows.csv", "weights.csv",
        ]
        meals = list(csv.DictReader(io.StringIO(archive.read("meals.csv").decode("utf-8"), newline="")))
        # The zip's export.json is the JSON export again, which POST /api/v1/import reads back from the zip.
        inner = json.loads(archive.read("export.json").decode("utf-8"))
        assert inner["meals"] == document["meals"] and inner["profile"] == document["profile"]
    assert [(m["name"], m["calories"]) for m in meals] == [('Soup, "hot"', "420")]
    assert_clean_console(page, failures)


def test_delete_account_with_password_ends_every_session(server, page):
    failures = watch_failures(page)
    email = unique_email("leaver")
    create_account(page, server, email, "tomato soup on tuesdays")
    page.wait_for_url(PROFILE_STEPS)
    status, _ = api(page, server, "PUT", "/api/v1/profile", DEFAULT_PROFILE)
    assert status in (200, 201)
    log_meal(page, server, "Last supper", 800)
    status, phone = bearer_login(server, email, "tomato soup on tuesdays")
    assert status == 200 and me_status(server, phone) == 200

    page.goto(server + "/settings")
    page.get_by_role("button", name="Delete Account").click()
    dialog = page.locator("#delete-account-dialog")
    dialog.wait_for(state="visible")
    assert "This cannot be undone." in dialog.inner_text()
    assert email in dialog.inner_text()
    screenshot(page, "41-settings-delete-dialog")

    # Cancel keeps everything.
    dialog.get_by_role("button", name="Cancel").click()
    dialog.wait_for(state="hidden")
    assert me_status(server, phone) == 200

    page.get_by_role("button", name="Delete Account").click()
    dialog.get_by_label("Enter your password to confirm").fill("not my password")
    with page.expect_navigation():
        dialog.get_by_role("button", name="Delete My Account").click()
    dialog.wait_for(state="visible")
    assert page.locator("#delete-password-error").inner_text() == "Your password is incorrect"
    screenshot(page, "42-settings-delete-wrong-password")

    dialog.get_by_label("Enter your password to confirm").fill("tomato soup on tuesdays")
    dialog.get_by_role("button", name="Delete My Account").click()
    page.wait_for_url(re.compile(r".*/$"))
    page.get_by_text("Your account and all your data have been deleted.").wait_for()
    assert page.get_by_role("heading", name="Meet Your Fire Coach 🔥").is_visible()
    screenshot(page, "43-welcome-after-deletion")

    # The browser's session, the phone's token and the password are all gone.
    assert not [c for c in page.context.cookies() if c["name"] == "wdiet_session"]
    page.goto(server + "/settings")
    assert page.url == server + "/"
    assert me_status(server, phone) == 401
    assert bearer_login(server, email, "tomato soup on tuesdays")[0] == 401
    assert_clean_console(page, failures, expected_failures=["/settings/delete-account"])


def test_a_guest_deletes_with_the_dialog_alone(server, page):
    failures = watch_failures(page)
    new_user_with_profile(page, server)
    page.goto(server + "/settings")
    page.get_by_role("button", name="Delete Account").click()
    dialog = page.locator("#delete-account-dialog")
    dialog.wait_for(state="visible")
    assert dialog.get_by_label("Enter your password to confirm").count() == 0
    dialog.get_by_role("button", name="Delete My Account").click()
    page.wait_for_url(re.compile(r".*/$"))
    page.get_by_text("Your account and all your data have been deleted.").wait_for()
    assert_clean_console(page, failures)
