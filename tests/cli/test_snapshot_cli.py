"""``dnc-desk snapshot`` and ``dnc-desk diff``: files, JSON, exit statuses."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from python_calamine import CalamineWorkbook

from app.api.client import ApiClient
from app.api.scope import Scope
from app.cli.main import main
from app.core.paths import AppPaths
from tests.conftest import TOKEN


@pytest.fixture(autouse=True)
def env_token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def test_snapshot_then_diff(
    api: ApiClient, sandbox: Any, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    url = sandbox.base_url
    api.insert_dnc("2025550101", "1", Scope.global_())
    api.insert_dnc("2025550102", "1", Scope.global_())
    status, out, err = _run(
        capsys, "snapshot", "dnc", "--scope", "global", "--json", "--base-url", url
    )
    assert status == 0, err
    assert out.count("\n") == 1  # one JSON object on one line, as every command prints it
    first = json.loads(out)
    assert (first["entries"], first["reported_total"], first["unreachable"]) == (2, 2, 0)
    assert Path(first["path"]).parent == AppPaths.default().snapshots_dir

    # Nothing changed yet: diff with now exits 0.
    status, out, err = _run(capsys, "diff", first["path"], "--base-url", url)
    assert status == 0, err
    assert "0 added, 0 removed, 0 changed" in out

    api.insert_dnc("2025550103", "1", Scope.global_())
    api.delete_dnc("2025550101", "1", Scope.global_())
    status, out, _ = _run(capsys, "snapshot", "dnc", "--scope", "global", "--base-url", url)
    assert status == 0 and "Saved 2 of 2 entries" in out
    second = out.rsplit(": ", 1)[1].strip()

    report = tmp_path / "diff.xlsx"
    # Given newest first: the older one is still the baseline. A bare file name is looked up
    # in the snapshots folder.
    status, out, err = _run(
        capsys, "diff", Path(second).name, first["path"], "--json", "--out", str(report)
    )
    assert status == 3, err
    assert out.count("\n") == 1
    data = json.loads(out)
    assert [e["phone_number"] for e in data["added"]] == ["2025550103"]
    assert [e["phone_number"] for e in data["removed"]] == ["2025550101"]
    assert data["changed"] == []
    assert CalamineWorkbook.from_path(str(report)).sheet_names[0] == "Summary"
    for text in (out, err):
        assert TOKEN not in text
    for path in AppPaths.default().snapshots_dir.iterdir():
        assert TOKEN.encode() not in path.read_bytes()


def test_snapshot_and_diff_refusals(
    sandbox: Any, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    status, _, err = _run(
        capsys, "snapshot", "dnc", "--scope", "nowhere", "--base-url", sandbox.base_url
    )
    assert status == 2 and "is not a scope" in err
    status, _, err = _run(capsys, "diff", str(tmp_path / "missing.sqlite3"))
    assert status == 1 and "no snapshot file" in err
    status, out, _ = _run(
        capsys, "snapshot", "sms-opt-out", "--json", "--base-url", sandbox.base_url
    )
    assert status == 0
    sms = json.loads(out)["path"]
    status, out, _ = _run(capsys, "snapshot", "dnc", "--json", "--base-url", sandbox.base_url)
    dnc = json.loads(out)["path"]
    status, _, err = _run(capsys, "diff", sms, dnc)
    assert status == 2 and "different lists" in err
