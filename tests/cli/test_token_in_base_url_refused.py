"""Black-box N2 #1 (severe): a token given as part of the base URL (a gateway keyed by its path,
http://host/TOKEN) was redacted on screen but written whole into the report's Summary and the
job file. Such a URL is refused before anything is read, written or sent; the command line's
refusal of a user:password URL names DNC_DESK_TOKEN, not a dialog's token field (N2 #4)."""

from __future__ import annotations

import json
from pathlib import Path
from urllib.parse import quote

import pytest

from app.cli.main import main
from app.core.connections import token_in_url, url_problem

CANARY = "tok-SECRETCANARY-1234567890abcdef"


def _all_bytes(folder: Path) -> bytes:
    if not folder.exists():
        return b""
    return b"".join(p.read_bytes() for p in folder.rglob("*") if p.is_file())


@pytest.mark.parametrize("path", [CANARY, quote(CANARY, safe=""), f"v2/{CANARY}/api"])
def test_a_base_url_holding_the_token_is_refused_before_anything_is_written(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    path: str,
) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", CANARY)
    sheet = tmp_path / "n.csv"
    sheet.write_text("Phone\n3035550101\n")
    report = tmp_path / "out" / "report.xlsx"
    url = f"http://127.0.0.1:9/{path}"  # refused before any request: nothing listens there
    argv = ["import", str(sheet), "--into", "dnc", "--scope", "global", "--base-url", url]
    code = main([*argv, "--report", str(report), "--json"])
    captured = capsys.readouterr()
    assert code == 2
    error = json.loads(captured.out)["error"]
    assert error == (
        "The base URL holds the API token: a URL is written into reports, job files and the "
        "change journal, where a token must never be, so give the service's base URL without "
        "it, and the token only in the environment variable DNC_DESK_TOKEN."
    )
    assert CANARY not in captured.out + captured.err
    assert not report.exists()
    assert CANARY.encode() not in _all_bytes(tmp_path / "data")
    assert not list((tmp_path / "data").rglob("*.dncjob"))


def test_the_same_for_an_export(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", CANARY)
    out = tmp_path / "e.xlsx"
    code = main(["export", "dnc", "--out", str(out), "--base-url", f"http://gw.test/{CANARY}"])
    assert code == 2
    assert "The base URL holds the API token" in capsys.readouterr().err
    assert not out.exists()


def test_a_user_and_password_url_names_the_variable_on_the_command_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", CANARY)
    url = f"http://u:{CANARY}@127.0.0.1:9"
    assert main(["export", "dnc", "--out", "x.xlsx", "--base-url", url]) == 2
    err = capsys.readouterr().err
    assert "The base URL must not contain a user name or password; enter the token in the " in err
    assert "environment variable DNC_DESK_TOKEN instead." in err
    assert "token field" not in err
    assert CANARY not in err


def test_token_in_url_finds_only_the_token() -> None:
    assert token_in_url(f"https://gw.example.com/{CANARY}", CANARY) is not None
    assert token_in_url(f"https://gw.example.com/{quote(CANARY)}x", CANARY) is not None
    assert token_in_url("https://api.example.com", CANARY) is None
    assert token_in_url("https://api.example.com", "") is None
    # The dialog's own wording is kept where it has a token field.
    assert (url_problem("https://u:p@h.example.com") or "").endswith(
        "enter the token in the token field instead."
    )
