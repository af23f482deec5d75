"""Every command refuses a data folder it cannot use with one sentence (and the JSON object
under --json), exit status 1, and sends nothing (black-box pass L4 #3: a traceback)."""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import pytest

from app.api.client import ApiClient, DncQuery
from app.cli.main import main
from tests.conftest import TOKEN


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def numbers(path: Path) -> Path:
    with path.open("w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["Phone"])
        writer.writerows([[f"303-555-{i:04d}"] for i in range(5)])
    return path


def commands(sheet: Path, url: str, out: Path) -> list[list[str]]:
    service = ["--base-url", url]
    return [
        ["import", str(sheet), "--into", "dnc", "--scope", "global", *service],
        ["import", str(sheet), "--into", "dnc", "--scope", "global", "--dry-run"],
        ["remove", str(sheet), "--scope", "global", "--note", "test", *service],
        ["export", "dnc", "--out", str(out), *service],
        ["jobs"],
    ]


@pytest.mark.parametrize("broken", ["data folder is a file", "jobs is a file"])
def test_every_command_says_which_folder_and_what_is_wrong(
    sandbox: Any,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    broken: str,
) -> None:
    data = tmp_path / "unusable"
    if broken == "data folder is a file":
        data.write_text("")
        why = "it is a file, not a folder"
    else:
        data.mkdir()
        (data / "jobs").write_text("")
        why = "jobs inside it is a file, not a folder"
    monkeypatch.setenv("DNC_DESK_DATA_DIR", str(data))
    sheet = numbers(tmp_path / "n.csv")
    out = tmp_path / "out.csv"
    for argv in commands(sheet, sandbox.base_url, out):
        # `jobs` sends nothing, so it does not say so (black-box bb2 F3); it names its purpose.
        stopped = "no job can be listed" if argv == ["jobs"] else "nothing was sent"
        expected = f"The data folder {data} (DNC_DESK_DATA_DIR) cannot be used: {why}; {stopped}."
        assert main([*argv, "--json"]) == 1, argv
        captured = capsys.readouterr()
        assert "Traceback" not in captured.err
        assert len(captured.err.strip().splitlines()) == 1, captured.err
        assert captured.err.startswith(expected), captured.err
        answer = json.loads(captured.out)
        assert answer["exit_status"] == 1 and answer["error"].startswith(expected)
    assert not out.exists()
    with ApiClient(sandbox.base_url, TOKEN) as api:
        assert api.search_dnc(DncQuery(), offset=0, limit=1).total == 0
