"""schemathesis over the OpenAPI document against a real `wdiet serve` (issue 21 item 10 and its Done-when: "stateful
and with NUL bytes allowed, finds no 5xx and no undocumented status").

One run of every phase (examples, coverage, fuzzing and the stateful phase over the document's links) with every
check, a fixed seed and a bounded number of examples per operation, signed in as guests (e2e/schemathesis_hooks.py).
It fails on what the contract must never show:
- ST101, a 5xx (a server error, or a "store unavailable" the request caused);
- ST103, a status the document does not list for the operation;
- ST204, an undeclared method on a known path not answered 405 with `Allow`.
The other checks' findings (a schema-valid body the rules refuse, an invalid one they take) are printed, not failed:
the document cannot say everything the rules say (an `occurredAt` within a day of now, a target date in the future),
and docs/api.md lists what is left. The command and the last result are in docs/api.md.
"""
import json
import os
import pathlib
import socket
import subprocess
import sys

from conftest import running_server

E2E = pathlib.Path(__file__).resolve().parent
SEED = 7
EXAMPLES = 5
FAILING = {
    "ST101": "a server error",
    "ST103": "a status the document does not list",
    "ST204": "an undeclared method not answered 405 with Allow",
}


def _closed_port() -> int:
    """A loopback port nothing listens on: password-recovery emails are configured (POST /auth/password-reset
    answers 202, not 503 `recovery_unavailable`) and their sending fails quietly in the background."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_schemathesis(base: str, report: pathlib.Path) -> subprocess.CompletedProcess:
    command = [
        sys.executable, "-m", "schemathesis.cli", "run", base + "/api/v1/openapi.yaml",
        "--checks", "all", "--generation-allow-x00", "true",
        "--max-examples", str(EXAMPLES), "--seed", str(SEED), "--generation-database", "none",
        "--phases", "examples,coverage,fuzzing,stateful",
        "--request-timeout", "60", "--no-color",
        "--report", "json", "--report-json-path", str(report),
    ]
    environment = dict(os.environ, SCHEMATHESIS_HOOKS="schemathesis_hooks", WDIET_SCHEMATHESIS_BASE=base,
                       PYTHONPATH=os.pathsep.join(filter(None, [str(E2E), os.environ.get("PYTHONPATH")])))
    # In the report's folder: schemathesis keeps the cases that failed before under `.schemathesis/` of its working
    # folder and replays them first; a fresh folder keeps every run the same.
    return subprocess.run(command, cwd=report.parent, env=environment, capture_output=True, text=True, timeout=900)


def test_schemathesis_finds_no_server_error_undocumented_status_or_missing_405(tmp_path):
    smtp = ["--smtp-host", "127.0.0.1", "--smtp-port", str(_closed_port()), "--smtp-from", "w-diet@localhost"]
    # --public-url: the links in the emails; the port is not known before the server starts and no email arrives.
    smtp += ["--public-url", "http://127.0.0.1"]
    with running_server(*smtp, prefix="wdiet-schemathesis-") as base:
        result = run_schemathesis(base, tmp_path / "report.json")
    output = result.stdout[-20000:] + result.stderr[-5000:]
    assert (tmp_path / "report.json").exists(), output
    report = json.loads((tmp_path / "report.json").read_text())
    print(output)
    assert report["complete"], output
    assert report["operations"]["selected"] == report["operations"]["tested"] >= 90, report["operations"]
    assert report["operations"]["errored"] == 0, output
    assert all(report["phases"][phase]["status"] != "skipped" for phase in ("examples", "coverage", "fuzzing", "stateful")), report["phases"]
    found = {failure["code"]: failure for failure in report["failures"]}
    failing = {f"{code} ({FAILING[code]})": found[code]["operations"] for code in FAILING if code in found}
    assert failing == {}, output
