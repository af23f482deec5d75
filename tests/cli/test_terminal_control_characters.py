"""Control characters in a file name or a note never reach the terminal raw (black-box bb2 F16).

A vendor's file name (from a zip) or a pasted ``--note`` with an ESC sequence or a newline was
printed as it is by import's result line and by the ``jobs`` table: ``ESC[2J`` cleared the
officer's screen, a newline broke a table row in two. The text output now shows them escaped
(``\\x1b``, ``\\n``), as undecodable bytes are; ``--json`` keeps the characters themselves.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from app.cli.main import main
from tests.conftest import READ_ONLY_TOKEN, TOKEN

NAME = "evil\x1b[31mRED\nname\u202e.csv"
NOTE = "line1\nline2\x1b[2J"
# What a terminal acts on rather than shows; a line's own end is split off before looking.
RAW = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out = capsys.readouterr()
    return status, out.out, out.err


def _raw_lines(text: str) -> list[str]:
    return [line for line in text.splitlines() if RAW.search(line)]


def test_a_file_name_and_note_with_control_characters_are_shown_escaped(
    sandbox: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    src = tmp_path / NAME
    src.write_text("Phone\n7205559912\n")
    base = ["--into", "dnc", "--scope", "global", "--base-url", sandbox.base_url]

    status, out, err = _run(capsys, "import", str(src), *base, "--dry-run", "--note", NOTE)
    assert status == 0, err
    assert _raw_lines(out + err) == []
    assert "Dry run of evil\\x1b[31mRED\\nname\\u202e.csv: nothing was sent." in out

    status, out, err = _run(capsys, "jobs", "--all")
    assert status == 0, err
    assert _raw_lines(out + err) == []
    header, row = out.splitlines()[1:3]  # one row: the newline no longer breaks it in two
    assert header.split()[0] == "JOB" and len(out.splitlines()) == 3
    assert "(note: line1 line2\\x1b[2J)" in row
    assert row.endswith(f"{tmp_path}/evil\\x1b[31mRED\\nname\\u202e.csv")

    # --json keeps the characters themselves: JSON writes those below U+0020 as its escapes.
    status, out, err = _run(capsys, "jobs", "--all", "--json")
    (entry,) = json.loads(out)["jobs"]
    assert (entry["file"], entry["note"]) == (str(src), NOTE)
    assert "\\u001b[31mRED\\nname" in out and out.count("\n") == 1

    # A header and a report path with ESC sequences, in the columns-read and report lines.
    report = tmp_path / "rep\x1b[2Jort.xlsx"
    again = ["--dry-run", "--report", str(report)]
    src.write_text("Phone\x1b[2J\n7205559912\n")
    status, out, err = _run(capsys, "import", str(src), *base, *again)
    assert status == 0, err
    assert _raw_lines(out + err) == []
    assert f"  report: {tmp_path}/rep\\x1b[2Jort.xlsx" in out.splitlines()


def test_a_paused_job_of_such_a_file_is_named_escaped(
    sandbox: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The note naming an unfinished job of the same file, on stderr, and the paused run's own
    lines, name the file escaped."""
    src = tmp_path / NAME
    src.write_text("Phone\n7205559912\n")
    base = ["import", str(src), "--into", "dnc", "--scope", "global", "--base-url"]
    base.append(sandbox.base_url)
    # A token that may read but not write pauses the import: resumable, its row to send.
    monkeypatch.setenv("DNC_DESK_TOKEN", READ_ONLY_TOKEN)
    status, out, err = _run(capsys, *base, "--note", NOTE)
    assert status == 1
    assert _raw_lines(out + err) == []
    assert out.startswith("Import of evil\\x1b[31mRED\\nname\\u202e.csv: paused.\n")
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)

    status, out, err = _run(capsys, *base, "--dry-run")
    assert status == 0, err
    assert _raw_lines(out + err) == []
    assert ", made from evil\\x1b[31mRED\\nname\\u202e.csv on " in err

    status, out, err = _run(capsys, "jobs")
    assert status == 0, err
    assert _raw_lines(out + err) == []
    assert "  import  paused  0/1  " in out.splitlines()[2]
