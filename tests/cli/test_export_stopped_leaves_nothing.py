"""An export that stops says so, and that no file was written (black-box pass L4 #6, #11): on a
full disk it left ``all.csv.part`` behind and an xlsx printed a ZipFile traceback; on a service
error mid-way it said only "The service at … answered with an error". The full disk is
/dev/full, where every write fails with ENOSPC, linked at the export's ``.part`` name."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from app.api.client import ApiClient
from app.cli.main import main
from tests.conftest import TOKEN

ROOT = Path(__file__).resolve().parents[2]
full_disk = pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def seeded(sandbox: Any, n: int = 2500) -> Any:
    sandbox.bulk_seed_dnc((f"3{i:09d}", "1", "0", "", "") for i in range(n))
    return sandbox


@full_disk
@pytest.mark.parametrize("suffix", [".csv", ".xlsx"])
def test_an_export_to_a_full_disk_leaves_nothing_and_says_so(
    sandbox: Any, tmp_path: Path, suffix: str
) -> None:
    out = tmp_path / f"all{suffix}"
    part = out.with_name(out.name + ".part")
    part.symlink_to("/dev/full")
    # A process of its own: what Python prints on stderr as it ends is part of the finding.
    done = subprocess.run(
        [
            *(sys.executable, "-m", "app", "export", "dnc", "--out", str(out)),
            *("--base-url", seeded(sandbox).base_url, "--json"),
        ],
        cwd=ROOT,
        env={**os.environ, "DNC_DESK_TOKEN": TOKEN},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1
    expected = (
        f"The export to {out} stopped and no file was written: the disk holding it is full "
        "(No space left on device). Free some space and export again."
    )
    assert done.stderr.strip() == expected
    assert json.loads(done.stdout) == {"error": expected, "exit_status": 1}
    assert not part.is_symlink() and not out.exists()
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("all")) == []


@full_disk
def test_a_file_already_there_is_said_to_be_as_it_was(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "all.csv"
    out.write_text("the earlier export\n")
    out.with_name("all.csv.part").symlink_to("/dev/full")
    argv = ["export", "dnc", "--out", str(out), "--overwrite"]
    assert main([*argv, "--base-url", seeded(sandbox).base_url]) == 1
    assert capsys.readouterr().err.startswith(
        f"The export to {out} stopped and no file was written, and the all.csv already there "
        "is as it was: the disk holding it is full"
    )
    assert out.read_text() == "the earlier export\n"


def test_a_token_refused_mid_export_says_the_export_stopped(
    sandbox: Any,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    seeded(sandbox)
    search = ApiClient.search_dnc
    calls = 0

    # The token is revoked on the service once the export has read its first pages.
    def search_then_revoke(self: ApiClient, *args: Any, **kwargs: Any) -> Any:
        nonlocal calls
        calls += 1
        if calls == 3:
            sandbox.revoke_token(TOKEN)
        return search(self, *args, **kwargs)

    monkeypatch.setattr(ApiClient, "search_dnc", search_then_revoke)
    folder = tmp_path / "exports"
    folder.mkdir()
    out = folder / "all.csv"
    code = main(["export", "dnc", "--out", str(out), "--base-url", sandbox.base_url, "--json"])
    captured = capsys.readouterr()
    assert code == 1
    start = f"The export to {out} stopped and no file was written: the token in DNC_DESK_TOKEN "
    assert captured.err.startswith(start), captured.err
    assert json.loads(captured.out)["error"].startswith(start)
    assert calls >= 3
    assert list(folder.iterdir()) == []
