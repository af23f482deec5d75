"""The file the second-table advice makes ("Copy rows … to a file of their own"), whose header
is "no number,Customer request", through the command line against a sandbox: its column B of
reasons is not read, and the dry run's --json warnings now say so, with the options that read
it or set it aside; set aside, the warning is gone."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.cli.main import main
from tests.conftest import TOKEN

ROWS = 1000


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _dry_run(
    capsys: pytest.CaptureFixture[str], sandbox: Any, path: Path, *extra: str
) -> dict[str, Any]:
    argv = ["import", str(path), "--into", "dnc", "--scope", "global", "--dry-run", "--json"]
    code = main([*argv, *extra, "--base-url", sandbox.base_url])
    captured = capsys.readouterr()
    assert code == 0, captured.err
    data: dict[str, Any] = json.loads(captured.out)
    return data


def test_the_dry_run_names_the_unread_column_of_reasons(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    lines = ["no number,Customer request"]
    lines += [f"{3035551000 + i},Customer request" for i in range(ROWS)]
    path = tmp_path / "rows_3-1003.csv"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    data = _dry_run(capsys, sandbox, path)
    assert (data["rows"], data["valid"]) == (ROWS, ROWS)
    assert data["mapping"] == {"phone": "no number (column A)"}
    said = [w for w in data["warnings"] if "not read" in w]
    assert len(said) == 1
    assert said[0].startswith("Column B ('Customer request') holds text that is not read")
    assert "head it Reason (or Notes) in the file" in said[0]
    assert said[0].endswith("--ignore-column 'Customer request'.")
    quiet = _dry_run(capsys, sandbox, path, "--ignore-column", "Customer request")
    assert not any("not read" in w for w in quiet["warnings"])
