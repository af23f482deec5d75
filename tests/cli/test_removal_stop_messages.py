"""A removal of a file whose consumers' messages ask to stop (an SMS STOP-reply log) is
refused: those consumers opted out, and a removal would take their numbers off the
do-not-call list (black-box B31 F2: 13 opt-outs removed without a word). --ignore-column
on the message column removes them all the same; a START reply gets a warning."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli.main import main

LOG = (
    "DateSent,From,To,Body,Direction\n"
    "2026-11-20T14:03:11Z,+13035550101,72345,STOP,inbound\n"
    "2026-11-20T15:10:00Z,+13035550102,72345,unsubscribe,inbound\n"
    "2026-11-21T02:30:00Z,+13035550103,72345,please stop texting me,inbound\n"
)


@pytest.fixture(autouse=True)
def data_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    data = tmp_path / "data"
    monkeypatch.setenv("DNC_DESK_DATA_DIR", str(data))
    return data


def _run(argv: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, dict[str, object]]:
    status = main([*argv, "--json"])
    return status, dict(json.loads(capsys.readouterr().out))


def test_a_stop_reply_log_is_not_removed(
    tmp_path: Path, data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "stops.csv"
    src.write_text(LOG)
    status, data = _run(["remove", str(src), "--scope", "global", "--dry-run"], capsys)
    assert status == 1
    error = str(data["error"])
    assert error.startswith(
        "3 rows of stops.csv hold a consumer's message asking to stop in column D ('Body') "
        "(row 2: 'STOP'; row 3: 'unsubscribe'; row 4: 'please stop texting me'): those "
        "consumers opted out, and a removal would take their numbers off the do-not-call list"
    )
    assert error.endswith("run the removal again with --ignore-column 'Body'.")
    assert not list((data_dir / "jobs").glob("*.dncjob"))  # no job is left


def test_the_message_column_set_aside_removes_them(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "stops.csv"
    src.write_text(LOG)
    argv = ["remove", str(src), "--scope", "global", "--dry-run", "--ignore-column", "Body"]
    status, data = _run(argv, capsys)
    assert status == 0
    assert (data["valid"], data["pending"]) == (3, 3)


def test_one_stop_among_other_messages_is_refused_too(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "mixed.csv"
    src.write_text("Phone,Reply\n3035550201,take me off your do not call list\n3035550202,STOP\n")
    status, data = _run(["remove", str(src), "--scope", "global", "--dry-run"], capsys)
    assert status == 1
    assert str(data["error"]).startswith("1 row of mixed.csv holds a consumer's message")


def test_start_replies_are_said(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "starts.csv"
    src.write_text("Phone,Body\n3035550301,START\n3035550302,UNSTOP\n")
    status, data = _run(["remove", str(src), "--scope", "global", "--dry-run"], capsys)
    assert status == 0
    said = [w for w in data["warnings"] if "asking to be texted" in w]  # type: ignore[union-attr]
    assert said == [
        "Column B ('Body'): 2 messages are an SMS keyword asking to be texted again (row 2: "
        "'START'; row 3: 'UNSTOP'), which restarts texts from the sender and asks nothing of "
        "calls, yet the removal takes these numbers off the do-not-call list. Check that these "
        "consumers asked to be called."
    ]


def test_an_import_of_the_same_log_is_unchanged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "stops.csv"
    src.write_text(LOG)
    argv = ["import", str(src), "--into", "sms-opt-out", "--scope", "global", "--dry-run"]
    status, data = _run(argv, capsys)
    assert status == 0
    assert data["valid"] == 3
