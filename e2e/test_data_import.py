"""Settings → Your data → import, in a real browser at 390×844: a person exports their journal with a photo as the
zip, deletes the account, signs up again and brings the zip back from the web app before onboarding — the entry and
its photo are back, byte for byte. Each refusal of POST /api/v1/import has its own message from the catalog."""
import json
import os
import tempfile
import zipfile

import pytest
from playwright.sync_api import expect

from conftest import DEFAULT_PROFILE, NARROW, api, new_user_with_profile, screenshot
from test_accessibility import check, violations
from test_journal_day import make_jpeg
from test_login import PROFILE_STEPS, create_account, unique_email
from test_onboarding import assert_clean_console, watch_failures

PASSWORD = "porridge with plums"


def add_photo_entry(page, server, words) -> str:
    """A photo entry made in the Journal's form; answers the photo's media id."""
    jpeg = make_jpeg(page)
    page.goto(server + "/journal/new")
    page.get_by_role("radio", name="Photo").check()
    page.locator("#journal-library").set_input_files(jpeg)
    expect(page.locator("#journal-status")).to_have_text("Photo added. Now describe it in a few words.", timeout=20000)
    media_id = page.locator("#journal-media").input_value()
    page.get_by_label("What did you eat?").fill(words)
    with page.expect_navigation():
        page.get_by_role("button", name="Save").click()
    return media_id


def delete_account(page, server):
    page.goto(server + "/settings")
    page.get_by_role("button", name="Delete Account").click()
    dialog = page.locator("#delete-account-dialog")
    dialog.get_by_label("Enter your password to confirm").fill(PASSWORD)
    with page.expect_navigation():
        dialog.get_by_role("button", name="Delete My Account").click()
    page.get_by_text("Your account and all your data have been deleted.").wait_for()


def test_export_delete_sign_up_and_import_the_zip(server, page):
    failures = watch_failures(page)
    email = unique_email("returner")
    create_account(page, server, email, PASSWORD)
    page.wait_for_url(PROFILE_STEPS)
    status, _ = api(page, server, "PUT", "/api/v1/profile", DEFAULT_PROFILE)
    assert status in (200, 201)
    media_id = add_photo_entry(page, server, "Porridge with plums and walnuts")
    shown = page.request.get(f"{server}/api/v1/media/{media_id}")
    assert shown.status == 200
    photo = shown.body()

    # Export as the zip (it carries the photo), from Settings.
    page.goto(server + "/settings")
    with page.expect_download() as download_info:
        page.get_by_role("link", name="Export as CSV (zip)").click()
    # Saved under the name the browser suggests (w-diet-export-YYYY-MM-DD.zip), as a person's download folder has it.
    download = download_info.value
    zip_path = os.path.join(tempfile.mkdtemp(), download.suggested_filename)
    download.save_as(zip_path)
    assert zip_path.endswith(".zip")
    with zipfile.ZipFile(zip_path) as archive:
        assert archive.read(f"media/{media_id}.jpg") == photo
        exported = json.loads(archive.read("export.json"))
    # The entry is a row of the journal collection that names its photo.
    # The journal's milestones travel as a row of their own.
    collections = sorted(r["collection"] for r in exported["rows"])
    assert collections == ["journal", "journal_milestones"]
    row = json.dumps(next(r["data"] for r in exported["rows"] if r["collection"] == "journal"))
    assert "Porridge with plums and walnuts" in row and media_id in row.lower()
    assert [m["id"] for m in exported["media"]] == [media_id]

    # Settings shows the form too; this account has data, so the import is refused with the catalog's words.
    form = page.locator("#import-form")
    expect(form).to_be_visible()
    form.get_by_label("Export file (.zip or .json)").set_input_files(zip_path)
    form.get_by_role("button", name="Import").click()
    expect(page.locator("#import-error")).to_contain_text(
        "Nothing was imported: this account already has data, or an import into it is running.")

    delete_account(page, server)

    # Signing up again, the profile steps offer the way back before anything is set up.
    create_account(page, server, email, PASSWORD)
    page.wait_for_url(PROFILE_STEPS)
    with page.expect_navigation():
        page.get_by_role("link", name="Have a w-diet export? Bring it back").click()
    assert page.url == server + "/settings/import"
    expect(page.get_by_role("heading", name="Import your data")).to_be_visible()

    # Validation in the page first: nothing chosen, then a file that is not an export.
    page.get_by_role("button", name="Import").click()
    expect(page.locator("#import-error")).to_have_text("Choose the export file first.")
    page.get_by_label("Export file (.zip or .json)").set_input_files(
        files=[{"name": "notes.txt", "mimeType": "text/plain", "buffer": b"porridge"}])
    page.get_by_role("button", name="Import").click()
    expect(page.locator("#import-error")).to_have_text("Choose a w-diet export: a .zip or .json file.")
    expect(page.get_by_label("Export file (.zip or .json)")).to_have_attribute("aria-invalid", "true")
    screenshot(page, "import-01-refused")

    page.get_by_label("Export file (.zip or .json)").set_input_files(zip_path)
    page.get_by_role("button", name="Import").click()
    done = page.locator("#import-done")
    expect(done).to_be_visible(timeout=30000)
    expect(done).to_contain_text("Your data is back.")
    expect(page.locator("#import-summary")).to_contain_text("2 journal and challenge items")
    expect(page.locator("#import-summary")).to_contain_text("1 photo or recording")
    expect(page.locator("#import-summary")).to_contain_text("your profile")
    expect(page.locator("#import-error")).to_be_hidden()
    screenshot(page, "import-02-done")

    with page.expect_navigation():
        page.get_by_role("link", name="Continue to w-diet").click()
    page.goto(server + "/journal")
    card = page.locator(".jcard", has_text="Porridge with plums and walnuts")
    expect(card).to_be_visible()
    if card.locator("details").get_attribute("open") is None:
        card.locator("summary").click()
    image = card.locator("img.jcard__photo")
    expect(image).to_have_attribute("src", f"/api/v1/media/{media_id}?size=thumb")
    page.wait_for_function("(img) => img.complete && img.naturalWidth > 0", arg=image.element_handle())
    back = page.request.get(f"{server}/api/v1/media/{media_id}")
    assert back.status == 200 and back.body() == photo
    screenshot(page, "import-03-journal-back")
    # The one refusal this journey asked for (409, before the account was deleted) and the deleted account's page.
    assert_clean_console(page, failures, expected_failures=["/api/v1/import", "/settings/delete-account"])


REFUSALS = [
    (409, {}, {"error": {"code": "account_not_empty", "message": "x"}},
     ["Nothing was imported: this account already has data, or an import into it is running. Import into a new "
      "account right after you sign up, before you set up your profile."]),
    (413, {}, {"error": {"code": "too_large", "message": "The zip is too large to import (1024 MB at most)."}},
     ["Nothing was imported: the file, or a photo or recording in it, is too large.",
      "The zip is too large to import (1024 MB at most)."]),
    (415, {}, {"error": {"code": "unsupported_media_type", "message": "Photos must be HEIC, JPEG, PNG or WebP."}},
     ["Nothing was imported: the file holds a photo or recording of a type w-diet does not take.",
      "Photos must be HEIC, JPEG, PNG or WebP."]),
    (422, {}, {"error": {"code": "invalid", "message": "The export has 1 value that cannot be imported.",
                         "fields": {"media.2": "This recording is not audio."}}},
     ["Nothing was imported: photo or recording number 3 in the export was refused.", "This recording is not audio."]),
    (429, {"Retry-After": "1800"}, {"error": {"code": "too_many_imports", "message": "x"}},
     ["Nothing was imported: too many import attempts. Please try again in 30 minutes."]),
    (503, {"Retry-After": "45"}, {"error": {"code": "import_busy", "message": "x"}},
     ["Nothing was imported: other imports are running on this server. Please try again in 45 seconds."]),
]


@pytest.mark.parametrize("status,headers,body,lines", REFUSALS, ids=[str(r[0]) for r in REFUSALS])
def test_each_refusal_has_its_message(server, page, status, headers, body, lines):
    """The API's answers, given by the browser's network layer: the page's words for each, and the server's detail."""
    new_user_with_profile(page, server)
    page.route("**/api/v1/import", lambda route: route.fulfill(
        status=status, headers=dict(headers, **{"Content-Type": "application/json"}), body=json.dumps(body)))
    page.goto(server + "/settings/import")
    page.get_by_label("Export file (.zip or .json)").set_input_files(
        files=[{"name": "w-diet-export.json", "mimeType": "application/json", "buffer": b'{"format": "w-diet-export"}'}])
    page.get_by_role("button", name="Import").click()
    error = page.locator("#import-error")
    expect(error).to_be_visible()
    expect(error.locator("p")).to_have_text(lines)


def test_the_real_server_refuses_a_zip_that_is_not_an_export(server, page):
    """A zip without export.json, sent to the real server: 422, its message under the page's."""
    new_user_with_profile(page, server)
    import io
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("notes.txt", "porridge")
    page.goto(server + "/settings")
    page.get_by_label("Export file (.zip or .json)").set_input_files(
        files=[{"name": "holiday.zip", "mimeType": "application/zip", "buffer": buffer.getvalue()}])
    page.get_by_role("button", name="Import").click()
    expect(page.locator("#import-error p")).to_have_text([
        "Nothing was imported: w-diet cannot read this file as an export.",
        "The zip has no export.json. Import a zip that w-diet exported."])


def test_without_the_csrf_token_nothing_is_imported(server, page):
    """The page's script sends X-CSRF-Token; the same request without it is refused (403) and imports nothing."""
    page.goto(server + "/onboarding")
    with page.expect_navigation():
        page.get_by_role("button", name="Continue without an account").click()
    document = {"format": "w-diet-export", "formatVersion": 1, "exportedAt": "2026-11-01T08:00:00Z",
                "account": {}, "meals": [], "weights": [], "analyticsEvents": [], "dismissedTips": [],
                "profile": dict(DEFAULT_PROFILE, planStartDate="2026-11-01")}
    refused = page.request.post(server + "/api/v1/import", data=document,
                                headers={"Content-Type": "application/json", "Origin": server})
    assert refused.status == 403
    status, _ = api(page, server, "GET", "/api/v1/profile")
    assert status == 404


@pytest.mark.parametrize("locale", ["en-US", "de-DE"])
def test_import_page_passes_axe(server, browser, locale):
    context = browser.new_context(locale=locale, viewport=NARROW, bypass_csp=True)
    page = context.new_page()
    page.goto(server + "/onboarding")
    with page.expect_navigation():
        page.locator("form[action='/onboarding/guest'] button, button[name='guest']").first.click()
    failures = []
    check(page, server, ["/settings/import"], failures, locale)
    status, body = api(page, server, "PUT", "/api/v1/profile", DEFAULT_PROFILE)
    assert status in (200, 201), body
    check(page, server, ["/settings", "/settings/import"], failures, locale)
    # The form with a refusal showing, in both themes.
    for scheme in ["light", "dark"]:
        page.emulate_media(color_scheme=scheme, reduced_motion="reduce")
        page.goto(server + "/settings/import")
        page.locator("#import-submit").click()
        page.locator("#import-error").wait_for()
        found = violations(page)
        if found:
            failures.append((locale, scheme, "refusal", found))
    context.close()
    assert failures == []
