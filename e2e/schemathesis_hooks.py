"""schemathesis hooks for e2e/test_schemathesis.py (loaded through SCHEMATHESIS_HOOKS): every case is signed in as a
guest of the server under test (WDIET_SCHEMATHESIS_BASE).

Most cases share one guest, made on the first case and made again whenever a case answers 401 (schemathesis's
`retry_on`). The operations that end or replace a session or need an empty account — logout, logout-all, a password
change, the upgrade to an account, the account's deletion, an import — each get a guest of their own, so they neither
sign the shared guest out nor find it full of the other cases' rows."""
import json
import os
import urllib.request

import schemathesis

OWN_GUEST = {
    ("POST", "/auth/logout"), ("POST", "/auth/logout-all"), ("POST", "/auth/password"), ("POST", "/auth/upgrade"),
    ("DELETE", "/account"), ("POST", "/import"),
}


def new_guest() -> str:
    request = urllib.request.Request(
        os.environ["WDIET_SCHEMATHESIS_BASE"] + "/api/v1/auth/guest", data=b"{}", method="POST",
        headers={"Content-Type": "application/json"},
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        return json.load(response)["token"]


@schemathesis.auth()
class Guest:
    def get(self, case, context):
        return new_guest()

    def set(self, case, data, context):
        token = new_guest() if (case.method.upper(), case.operation.path) in OWN_GUEST else data
        case.headers = case.headers or {}
        case.headers["Authorization"] = f"Bearer {token}"
