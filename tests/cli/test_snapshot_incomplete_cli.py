"""Black-box pass Q2 on snapshots the paging cap kept incomplete, through the commands:

- #1 ``snapshot`` reads a list as export does, so a scope past one search's reach is read to
  its end (exit 0), and what no search reaches is counted (exit 3, said on screen);
- #2 ``evidence`` said "Listed: no" (JSON ``false``) for a snapshot that never read the
  number, and counted a snapshot of another service as consulted;
- #3 ``diff`` compared incomplete copies silently and exited 0;
- #5 a refused token: evidence, snapshot and diff say it as export does, with its exit status.

A cap of 2,000 (3,000 entries reachable at 1,000 a page) stands in for the service's 100,000.
"""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from python_calamine import CalamineWorkbook

from app.api.limits import PageLimits
from app.cli.main import main
from tests.conftest import TOKEN

SMALL_CAP = PageLimits("/dnc/search", default_limit=100, max_limit=1000, max_offset=2000)
UNREAD = "3032003200"  # id 3,201: past the 3,000 entries one search reaches
READ = "3032000100"


@pytest.fixture(autouse=True)
def env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    monkeypatch.setattr("app.core.snapshots.limits_of", lambda kind: SMALL_CAP)


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def _seed(sandbox: Any, rows: int, campaign: str = "0", first: int = 0) -> None:
    sandbox.bulk_seed_dnc(
        (f"303{first + i + 2_000_000:07d}", "1", campaign, "", "") for i in range(rows)
    )


def test_a_global_scope_past_one_search_is_read_whole(
    sandbox: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    _seed(sandbox, 3_000)
    sandbox.bulk_seed_dnc((f"2079460{i:03d}", "44", "0", "", "") for i in range(1, 801))
    status, out, err = _run(capsys, "snapshot", "dnc", "--json", "--base-url", sandbox.base_url)
    data = json.loads(out)
    assert status == 0, err
    assert (data["entries"], data["reported_total"], data["unreachable"]) == (3_800, 3_800, 0)
    assert data["list_changed"] is False


def test_incomplete_snapshot_evidence_and_diff_say_what_was_not_read(
    sandbox: Any, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    url = sandbox.base_url
    # 3,500 global +1 entries of one day, blank reasons: no filter splits them, 500 stay out.
    _seed(sandbox, 3_500)
    status, out, err = _run(capsys, "snapshot", "dnc", "--base-url", url)
    assert status == 3, err
    assert "Saved 3,000 of 3,500 entries" in out
    assert "the snapshot is incomplete: 500 entries of the list could not be read" in out
    path = Path(out.split(": ", 1)[1].splitlines()[0].strip())
    # A copy said to be of another service: evidence leaves it out.
    other = path.with_name("dnc-all-other-service.sqlite3")
    shutil.copy(path, other)
    db = sqlite3.connect(other)
    db.execute("UPDATE meta SET value = 'https://other.example.com' WHERE key = 'base_url'")
    db.commit()
    db.close()

    status, out, err = _run(capsys, "evidence", UNREAD, "--base-url", url, "--json")
    assert status == 3, err  # on the DNC list now
    pack = json.loads(out)
    assert pack["snapshots"] == {path.name: None}
    sheet = CalamineWorkbook.from_path(pack["report"]).get_sheet_by_name("Snapshots").to_python()
    assert sheet[1][sheet[0].index("Listed")] == "not known (500 entries could not be read)"
    summary = dict(
        (r[0], r[1])
        for r in CalamineWorkbook.from_path(pack["report"]).get_sheet_by_name("Summary").to_python()
    )
    assert (summary["Snapshots consulted"], summary["Snapshots of other services"]) == (1, 1)
    status, out, _ = _run(capsys, "evidence", UNREAD, "--base-url", url)
    assert f"Snapshot {path.name}: listed not known (500 entries could not be read)." in out
    assert "1 snapshot of other services (another base URL) not consulted." in out
    status, out, _ = _run(capsys, "evidence", READ, "--base-url", url, "--json")
    assert json.loads(out)["snapshots"] == {path.name: True}

    report = tmp_path / "diff.xlsx"
    status, out, err = _run(capsys, "diff", str(path), "--base-url", url, "--out", str(report))
    assert status == 3, err
    assert "0 added, 0 removed, 0 changed." in out
    assert (
        "Warning: Not every entry was compared: the older copy could not read 500 entries of "
        "the list and the newer one 500 entries"
    ) in out
    rows = dict(
        (r[0], r[1])
        for r in CalamineWorkbook.from_path(str(report)).get_sheet_by_name("Summary").to_python()
    )
    assert (rows["Older: not read"], rows["Newer: not read"]) == (500, 500)
    assert rows["Warning"].startswith("Not every entry was compared")
    status, out, err = _run(capsys, "diff", str(path), "--base-url", url, "--json")
    assert status == 3
    data = json.loads(out)
    assert (data["old_not_read"], data["new_not_read"]) == (500, 500)
    assert "Not every entry was compared" in err


def test_a_refused_token_is_said_as_export_says_it(
    sandbox: Any,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    url = sandbox.base_url
    _seed(sandbox, 3)
    status, out, err = _run(capsys, "snapshot", "dnc", "--json", "--base-url", url)
    assert status == 0, err
    path = json.loads(out)["path"]
    monkeypatch.setenv("DNC_DESK_TOKEN", "refused-token-0123456789")
    refused = f"the token in DNC_DESK_TOKEN was refused by the service at {url}"
    export, _, export_err = _run(
        capsys, "export", "dnc", "--out", str(tmp_path / "x.csv"), "--base-url", url
    )
    assert refused in export_err and export == 1
    for argv, lead in (
        (["evidence", READ], "The evidence could not be gathered: "),
        (["snapshot", "dnc"], "The snapshot was not taken: "),
        (["diff", path], "The list could not be read: "),
    ):
        status, _, err = _run(capsys, *argv, "--base-url", url)
        assert lead + refused in err
        assert status == export
