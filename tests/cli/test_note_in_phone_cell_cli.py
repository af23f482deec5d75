"""Black-box bb2 F1 through the command line, as the tester ran it against a sandbox: a phone
cell reading "no number" beside "Customer request" was taken for a second table's header and
every row after it left invalid ("valid 1, invalid 1001"; a real run exited 0 with the opt-outs
not on the list). Now the note is one invalid row and the rows after it go on the list."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.cli.main import main
from tests.conftest import TOKEN

AFTER = 1000


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _file(tmp_path: Path, after: int) -> Path:
    lines = ["Phone,Reason", "3035550121,Customer request", "no number,Customer request"]
    lines += [f"{3035551000 + i},Customer request" for i in range(after)]
    path = tmp_path / "t7.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _run(capsys: pytest.CaptureFixture[str], sandbox: Any, *argv: str) -> dict[str, Any]:
    code = main([*argv, "--scope", "global", "--json", "--base-url", sandbox.base_url])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    data: dict[str, Any] = json.loads(captured.out)
    return data


def test_the_dry_run_counts_the_note_alone_as_invalid(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _file(tmp_path, AFTER)
    data = _run(capsys, sandbox, "import", str(path), "--into", "dnc", "--dry-run")
    assert (data["rows"], data["valid"], data["invalid"]) == (AFTER + 2, AFTER + 1, 1)
    assert not any("table" in w for w in data["warnings"])


def test_a_real_run_puts_the_rows_after_the_note_on_the_list(
    sandbox: Any, api: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _file(tmp_path, 40)
    data = _run(capsys, sandbox, "import", str(path), "--into", "dnc", "--note", "bb2 F1")
    assert (data["valid"], data["invalid"], data["inserted"]) == (41, 1, 41)
    listed = {e.phone_number: e.reason for e in api.iter_dnc()}
    assert len(listed) == 41
    assert all(listed[str(3035551000 + i)] == "Customer request" for i in range(40))
