"""Black-box finding 1: ``dnc-desk remove FILE --scope purpose:Surveys`` must not take the
number's Marketing entry with it (the service's purpose-scope delete removes every purpose)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.api.client import ApiClient, DncQuery
from app.cli.main import main
from app.core.journal import ChangeJournal
from app.core.paths import AppPaths
from tests.conftest import TOKEN


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict[str, Any]:
    main(argv)
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    data: dict[str, Any] = json.loads(captured.out)
    return data


def test_remove_one_purpose_is_refused_while_another_is_listed(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "pp.csv"
    src.write_text("Phone\n2025558101\n")
    url = ["--base-url", sandbox.base_url, "--json"]
    for purpose in ("Surveys", "Marketing"):
        data = _run(
            capsys, ["import", str(src), "--into", "dnc", "--scope", f"purpose:{purpose}", *url]
        )
        assert data["inserted"] == 1
    data = _run(capsys, ["remove", str(src), "--scope", "purpose:Surveys", *url, "--note", "Asked"])
    assert (data["removed"], data["failed"]) == (0, 1)
    with ApiClient(sandbox.base_url, TOKEN) as api:
        left = {e.purpose for e in api.iter_dnc(DncQuery(phone_number="2025558101"))}
    assert left == {"Surveys", "Marketing"}
    journal = ChangeJournal(AppPaths.default().journal_db)
    try:
        assert [e for e in journal.query(job=data["job"]) if e.operation == "dnc.delete"] == []
    finally:
        journal.close()


def test_remove_with_bare_purpose_scope_removes_every_purpose(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The refusal above tells the officer to use scope purpose (all purposes): the CLI takes it.
    src = tmp_path / "pp.csv"
    src.write_text("Phone\n2025558102\n")
    url = ["--base-url", sandbox.base_url, "--json"]
    for purpose in ("Surveys", "Marketing"):
        _run(capsys, ["import", str(src), "--into", "dnc", "--scope", f"purpose:{purpose}", *url])
    data = _run(capsys, ["remove", str(src), "--scope", "purpose", *url, "--note", "Asked"])
    assert (data["removed"], data["failed"]) == (1, 0)
    with ApiClient(sandbox.base_url, TOKEN) as api:
        assert list(api.iter_dnc(DncQuery(phone_number="2025558102"))) == []
    # An import still needs the purpose text.
    code = main(["import", str(src), "--into", "dnc", "--scope", "purpose", *url])
    assert code == 2 and "not a scope" in capsys.readouterr().err
