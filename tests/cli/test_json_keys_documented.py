"""Every key ``--json`` prints is named in the user documentation, README.md and docs/cli.md read
together (the README's command table links to docs/cli.md, whose "JSON output" section lists the
keys): it is the JSON contract users script against (a black-box tester found ``pending`` in a
dry run's output and nowhere in the docs, and ``evidence``'s keys nowhere at all: finding D8)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from app.cli.main import main
from tests.conftest import TOKEN

ROOT = Path(__file__).resolve().parents[2]
USER_DOCS = (ROOT / "README.md", ROOT / "docs" / "cli.md")
NUMBERS = ["3035550101", "2025550102"]


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _keys(capsys: pytest.CaptureFixture[str], argv: list[str]) -> set[str]:
    code = main([*argv, "--json"])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    data: dict[str, Any] = json.loads(captured.out)
    return set(data)


def _undocumented(keys: set[str]) -> set[str]:
    text = "\n".join(doc.read_text(encoding="utf-8") for doc in USER_DOCS)
    return {key for key in keys if f"`{key}`" not in text}


def test_every_json_key_is_in_the_user_docs(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    numbers = tmp_path / "numbers.csv"
    numbers.write_text("Phone,Reason\n" + "".join(f"{n},asked\n" for n in NUMBERS))
    url = ["--base-url", sandbox.base_url]
    keys = _keys(capsys, ["import", str(numbers), "--into", "dnc", "--scope", "global", *url])
    dry = _keys(capsys, ["import", str(numbers), "--into", "dnc", "--scope", "global", "--dry-run"])
    assert len(sandbox.store.all("SELECT phone_number FROM dnc")) == len(NUMBERS)
    # A lead with the number, so that evidence's `leads` has an entry (and its keys) too.
    campaign = sandbox.store.one("SELECT id FROM campaigns")["id"]
    sandbox.store.execute(
        "INSERT INTO lists(name, campaign_id, status) VALUES ('Evidence', ?, 1)", (campaign,)
    )
    sandbox.store.execute(
        "INSERT INTO leads(list_id, created_at, modified_at, phone_number, phone_code) "
        "SELECT id, '2024-01-02 03:04:05', '2024-01-02 03:04:05', ?, '1' FROM lists",
        (NUMBERS[0],),
    )
    # evidence exits 3 when the number is on a list (as here), so not through _keys.
    assert main(["evidence", NUMBERS[0], *url, "--json"]) == 3
    pack: dict[str, Any] = json.loads(capsys.readouterr().out)
    assert pack["dnc"] and pack["leads"] and pack["journal_entries"]
    # Its lists' entries have keys of their own; `snapshots` is keyed by snapshot file name.
    listed = [*pack["dnc"], *pack["sms_opt_out"], *pack["leads"]]
    evidence = set(pack) | {key for entry in listed for key in entry}
    removal = _keys(capsys, ["remove", str(numbers), "--scope", "global", "--note", "asked", *url])
    export = _keys(capsys, ["export", "dnc", "--out", str(tmp_path / "out.xlsx"), *url])
    code = main(["jobs", "--all", "--json"])
    listing = json.loads(capsys.readouterr().out)
    assert code == 0 and listing["jobs"]
    jobs = set(listing) | {key for job in listing["jobs"] for key in job}
    assert {"pending", "status", "mapping", "warnings"} <= dry
    assert {"removed", "not_found"} <= removal
    assert {"rows", "unreachable", "path"} <= export
    assert _undocumented(keys | dry | removal | export | jobs | evidence) == set()


def _json_of(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict[str, Any]:
    """A finding command's JSON: exit 0 (nothing found) or 3 (something found) both print it."""
    code = main([*argv, "--json"])
    captured = capsys.readouterr()
    assert code in (0, 3), captured.err
    data: dict[str, Any] = json.loads(captured.out)
    return data


def _nested(data: dict[str, Any], *lists: str) -> set[str]:
    """The keys of the entries of each named list of ``data`` (those lists' entries are objects)."""
    return {key for name in lists for entry in data[name] for key in entry}


def test_every_json_key_of_audit_snapshot_diff_and_health_is_in_the_user_docs(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """bb2 F6: these four printed keys the docs named only here and there in the prose."""
    url = ["--base-url", sandbox.base_url]
    numbers = tmp_path / "numbers.csv"
    numbers.write_text("Phone\n" + "".join(f"{n}\n" for n in NUMBERS))
    campaign = str(sandbox.store.one("SELECT id FROM campaigns")["id"])
    # An invalid number on the list (a finding with entries) and a campaign's lead on the list
    # (an audit conflict), so the entries' own keys are printed too.
    scope = ["--scope", f"campaign:{campaign}"]
    assert main(["import", str(numbers), "--into", "dnc", *scope, *url]) == 0
    sandbox.store.execute(
        "INSERT INTO dnc(phone_number, phone_code, campaign_id, insert_date) "
        "VALUES ('7911600927', '44', 0, '2024-01-02 03:04:05')"
    )
    sandbox.store.execute(
        "INSERT INTO lists(name, campaign_id, status) VALUES ('Audited', ?, 1)", (campaign,)
    )
    sandbox.store.execute(
        "INSERT INTO leads(list_id, created_at, modified_at, phone_number, phone_code) "
        "SELECT id, '2024-01-02 03:04:05', '2024-01-02 03:04:05', ?, '1' FROM lists",
        (NUMBERS[0],),
    )
    capsys.readouterr()
    audit = _json_of(capsys, ["audit", "campaign", campaign, *url])
    assert audit["conflicts"] and audit["strategies"]
    snapshot = _json_of(capsys, ["snapshot", "dnc", *url])
    assert snapshot["parts"]
    sandbox.store.execute("DELETE FROM dnc WHERE phone_number = ?", (NUMBERS[1],))
    diff = _json_of(capsys, ["diff", snapshot["path"], *url])
    assert diff["removed"]
    health = _json_of(capsys, ["health", *url])
    lists = [health["dnc"], health["sms_opt_out"]]
    findings = [f for part in lists for f in part["findings"].values()]
    assert any(f["entries"] for f in findings)
    keys = (
        set(audit)
        | set(audit["campaign"])
        | _nested(audit, "strategies")
        | set(snapshot)
        | _nested(snapshot, "parts")
        | set(diff)
        | _nested(diff, "removed")
        | set(health)
        | {key for part in lists for key in part}
        | {key for part in lists for key in part["ages"]}
        | {key for part in lists for key in part["findings"]}
        | {key for f in findings for key in f}
        | {key for f in findings for entry in f["entries"] for key in entry}
        | _nested(health, "gaps")
    )
    assert _undocumented(keys) == set()


def test_every_json_key_of_journal_verify_and_export_is_in_the_user_docs(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Black-box bb8: ``dnc-desk journal`` is new; its keys are part of the contract too."""
    numbers = tmp_path / "numbers.csv"
    numbers.write_text("Phone\n" + "".join(f"{n}\n" for n in NUMBERS))
    url = ["--base-url", sandbox.base_url]
    assert main(["import", str(numbers), "--into", "dnc", "--scope", "global", *url]) == 0
    journal = tmp_path / "data" / "journal.sqlite3"
    db = sqlite3.connect(journal)
    with db:
        db.execute("UPDATE journal SET note = 'edited' WHERE id = 1")
    db.close()
    capsys.readouterr()
    verify = _json_of(capsys, ["journal", "verify"])
    assert verify["entries_at_break"]
    export = _keys(capsys, ["journal", "export", "--out", str(tmp_path / "j.csv")])
    keys = set(verify) | _nested(verify, "entries_at_break") | export
    assert _undocumented(keys) == set()
