"""Every key ``--json`` prints is named in the user documentation, README.md and docs/cli.md read
together (the README's command table links to docs/cli.md, whose "JSON output" section lists the
keys): it is the JSON contract users script against (a black-box tester found ``pending`` in a
dry run's output and nowhere in the docs, and ``evidence``'s keys nowhere at all: finding D8)."""

from __future__ import annotations

import json
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
