"""Black-box B12 #13: an evidence pack counted the number's journal entries of writes to other
services (another account, another sandbox) as its own ("44 journal entries … 22 inserted",
all written elsewhere), though it leaves out other services' snapshots. They are left out and
counted apart."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.cli.main import main
from tests.conftest import TOKEN

NUMBER = "2025550181"


def test_the_pack_leaves_out_writes_to_other_services(
    make_sandbox: Callable[..., Any],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    here, elsewhere = make_sandbox(), make_sandbox()
    src = tmp_path / "one.csv"
    src.write_text(f"Phone\n{NUMBER}\n")
    argv = ["import", str(src), "--into", "dnc", "--scope", "global"]
    assert main([*argv, "--base-url", elsewhere.base_url]) == 0
    assert main([*argv, "--base-url", here.base_url]) == 0
    capsys.readouterr()

    out = tmp_path / "pack.xlsx"
    code = main(["evidence", NUMBER, "--out", str(out), "--base-url", here.base_url, "--json"])
    pack = json.loads(capsys.readouterr().out)
    assert code == 3
    assert pack["journal_entries_other_services"] == 2  # the other import's intent and outcome
    assert pack["journal_entries"] == 2
    assert [w["job"] for w in pack["writes"]] == [pack["writes"][0]["job"]]
    summary = dict(openpyxl.load_workbook(out)["Summary"].iter_rows(values_only=True))
    assert summary["Journal entries"] == 2
    assert summary["Journal entries of other services"] == 2
