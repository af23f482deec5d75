"""``dnc-desk import``, ``remove`` and ``export`` through ``app.cli.main.main``: JSON keys, exit
statuses, one-sentence errors, connections, and the token never written anywhere."""

from __future__ import annotations

import csv
import json
import re
import socket
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.cli.main import main
from app.core.connections import Connection, ConnectionStore
from app.core.paths import AppPaths
from app.core.tokens import TokenStore
from tests.conftest import READ_ONLY_TOKEN, TOKEN

IMPORT_KEYS = {
    "rows",
    "valid",
    "invalid",
    "duplicates_in_file",
    "inserted",
    "already_present",
    "failed",
    "not_attempted",
    "report",
}


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def numbers_csv(path: Path, n: int, extra: list[list[str]] | None = None) -> Path:
    with path.open("w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["Phone", "Reason"])
        writer.writerows([[f"202-555-{i:04d}", "asked"] for i in range(n)])
        writer.writerows(extra or [])
    return path


def run_json(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, dict[str, Any]]:
    code = main(argv)
    out = capsys.readouterr().out.strip().splitlines()
    assert len(out) == 1, out
    return code, json.loads(out[0])


def assert_no_token_anywhere(paths: AppPaths, *texts: str) -> None:
    for text in texts:
        assert TOKEN not in text
    for file in paths.data_dir.rglob("*"):
        if file.is_file():
            assert TOKEN.encode() not in file.read_bytes(), file


def test_import_json_and_human_output(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # A blank row counts only when data follows it (a trailing one is sheet formatting).
    src = numbers_csv(tmp_path / "in.csv", 20, [["202-555-0001", ""], ["", ""], ["oops", ""]])
    argv = ["import", str(src), "--into", "dnc", "--scope", "global", "--base-url"]
    code, data = run_json(
        capsys, [*argv, sandbox.base_url, "--json", "--name", "Batch 7", "--note", "for legal"]
    )
    assert code == 0
    assert data.keys() >= IMPORT_KEYS
    assert (data["rows"], data["valid"], data["invalid"], data["duplicates_in_file"]) == (
        23,
        20,
        1,
        1,
    )
    assert (data["inserted"], data["already_present"], data["failed"]) == (20, 0, 0)
    assert Path(data["report"]).is_file()
    assert sandbox.store.scalar("SELECT count(*) FROM dnc") == 20
    code = main([*argv, sandbox.base_url, "--report", str(tmp_path / "r.xlsx")])
    captured = capsys.readouterr()
    assert code == 0
    assert "already present: 20" in captured.out and str(tmp_path / "r.xlsx") in captured.out
    summary = dict(
        openpyxl.load_workbook(tmp_path / "r.xlsx")["Summary"].iter_rows(values_only=True)
    )
    assert summary["already_present"] == 20
    assert_no_token_anywhere(AppPaths.default(), captured.out, captured.err)


def test_dry_run_and_sms_with_saved_connection(
    sandbox: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("DNC_DESK_TOKEN")
    paths = AppPaths.default()
    ConnectionStore(paths.connections_file).save(Connection("Local", sandbox.base_url))
    TokenStore().set("Local", TOKEN)
    src = numbers_csv(tmp_path / "in.csv", 10)
    base = ["import", str(src), "--into", "sms-opt-out", "--connection", "Local", "--json"]
    code, data = run_json(capsys, [*base, "--scope", "purpose:Promo", "--dry-run"])
    assert code == 0 and data["valid"] == 10 and data["inserted"] == 0 and data["pending"] == 10
    assert sandbox.store.scalar("SELECT count(*) FROM sms_opt_out") == 0
    code, data = run_json(capsys, [*base, "--scope", "purpose:Promo"])
    assert code == 0 and data["inserted"] == 10
    assert sandbox.store.scalar("SELECT count(*) FROM sms_opt_out WHERE purpose = 'Promo'") == 10


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_cannot_run_gives_one_sentence(
    sandbox: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    src = numbers_csv(tmp_path / "in.csv", 3)
    base = ["import", str(src), "--into", "dnc", "--scope", "global"]
    cases: list[tuple[list[str], int, str]] = [
        ([*base, "--base-url", sandbox.base_url], 0, ""),
        (
            [
                "import",
                str(tmp_path / "missing.xlsx"),
                "--into",
                "dnc",
                "--scope",
                "global",
                "--base-url",
                sandbox.base_url,
            ],
            1,
            "does not exist",
        ),
        ([*base], 2, "--connection NAME or --base-url URL"),
        ([*base, "--connection", "Nope"], 2, "no saved connection"),
        (
            [
                "import",
                str(src),
                "--into",
                "dnc",
                "--scope",
                "campaign:abc",
                "--base-url",
                sandbox.base_url,
            ],
            2,
            "No campaign on the service at",
        ),
        ([*base, "--base-url", f"http://127.0.0.1:{_closed_port()}"], 1, "cannot be reached"),
    ]
    for argv, status, words in cases:
        assert main(argv) == status, argv
        err = capsys.readouterr().err.strip()
        if words:
            assert words in err and len(err.splitlines()) == 1, err
    monkeypatch.setenv("DNC_DESK_TOKEN", "tok-wrong-000")
    assert main([*base, "--base-url", sandbox.base_url]) == 1
    err = capsys.readouterr().err
    assert "the token in DNC_DESK_TOKEN was refused by the service" in err
    assert "tok-wrong-000" not in err
    monkeypatch.setenv("DNC_DESK_TOKEN", READ_ONLY_TOKEN)
    code = main([*base, "--base-url", sandbox.base_url, "--json"])
    out = capsys.readouterr()
    # A token that may read but not write: the job stops at the first refusal, resumable.
    assert code == 1 and "refused the token" in out.err and "--resume" in out.err
    # Which token was refused, as the refusal before a run says it (black-box L2 #6).
    assert " (the token in DNC_DESK_TOKEN). Resume with: " in out.err, out.err
    # The service's own words end the first sentence with a full stop before the hint.
    assert re.search(r"[.!?] Resume with: ", out.err), out.err
    stopped = json.loads(out.out)
    assert stopped["status"] == "paused" and stopped["inserted"] == 0 and stopped["pending"] == 3


def test_remove_json_keys_and_lead_status(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    sandbox.bulk_seed_dnc([(f"202555{i:04d}", "1", "0", "", "") for i in range(5)])
    src = numbers_csv(tmp_path / "rm.csv", 8)
    argv = ["remove", str(src), "--scope", "global", "--base-url", sandbox.base_url, "--json"]
    assert main([*argv, "--lead-status", "ZZZ", "--note", "consumer asked"]) == 2
    assert "no lead status 'ZZZ'" in capsys.readouterr().err
    code, data = run_json(capsys, [*argv, "--lead-status", "dnc", "--note", "consumer asked"])
    assert code == 0
    # The contract names the import's keys for a removal too: a removal's are 0.
    assert IMPORT_KEYS | {"removed", "not_found"} <= data.keys()
    assert (data["inserted"], data["already_present"]) == (0, 0)
    assert (data["removed"], data["not_found"]) == (5, 3)
    assert sandbox.store.scalar("SELECT count(*) FROM dnc") == 0


def test_export_json_keys(sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    sandbox.bulk_seed_dnc([(f"202555{i:04d}", "1", "0", "", "") for i in range(30)])
    out = tmp_path / "e.xlsx"
    code, data = run_json(
        capsys, ["export", "dnc", "--out", str(out), "--base-url", sandbox.base_url, "--json"]
    )
    assert code == 0
    assert (data["rows"], data["unreachable"], data["path"]) == (30, 0, str(out))
    code, data = run_json(
        capsys,
        [
            "export",
            "dnc",
            "--out",
            str(tmp_path / "g.csv"),
            "--scope",
            "campaign:1",
            "--base-url",
            sandbox.base_url,
            "--json",
        ],
    )
    assert code == 0 and data["rows"] == 0
    assert (
        main(["export", "dnc", "--out", str(tmp_path / "x.txt"), "--base-url", sandbox.base_url])
        == 2
    )
    assert ".xlsx or .csv" in capsys.readouterr().err


def test_export_json_path_is_absolute(
    sandbox: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Black-box pass I1: a relative --out came back relative, as typed, so a script reading
    # the JSON from another folder could not find the file.
    sandbox.bulk_seed_dnc([(f"202555{i:04d}", "1", "0", "", "") for i in range(3)])
    monkeypatch.chdir(tmp_path)
    code, data = run_json(
        capsys, ["export", "dnc", "--out", "rel.csv", "--base-url", sandbox.base_url, "--json"]
    )
    assert code == 0
    assert data["path"] == str(tmp_path.resolve() / "rel.csv")
