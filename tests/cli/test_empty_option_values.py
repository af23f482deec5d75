"""An option given empty (an empty shell variable in a script: ``--phone-code "$CODE"``) is
refused with exit 2 and a sentence, before the file is read, rather than taken as the option
left out (black-box P2 #5: ``--phone-code ""`` read every number of a UK file as a US one).
A blank ``--reason`` is kept: it is a reason the list holds, and decides nothing of where."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.cli.main import main
from app.core.paths import AppPaths


def _uk_file(tmp_path: Path) -> Path:
    src = tmp_path / "uk_only.csv"
    src.write_text("Phone\n07911 123456\n020 7946 0018\n")
    return src


def _jobs() -> list[Path]:
    jobs = AppPaths.default().jobs_dir
    return sorted(jobs.iterdir()) if jobs.exists() else []


COMMANDS = {
    "import": ["--into", "dnc", "--scope", "global", "--dry-run"],
    "remove": ["--scope", "global", "--dry-run"],
}
SAID = {
    "--phone-code": "--phone-code was given without a code: give the country calling code of "
    "the numbers written without one (for example 1 or 44), or leave the option out for the "
    "default, 1.",
    "--sheet": "--sheet was given without a sheet: give the name of the sheet to read, or leave "
    "the option out to read the first visible sheet with phone numbers.",
    "--phone-column": "--phone-column was given without a column: give the phone column's "
    "header, or column:C or #3 by position, or leave the option out to have the phone column "
    "found.",
    "--ignore-column": "--ignore-column was given without a column: give the header of the "
    "column to ignore, or column:C or #3 by position, or leave the option out to have every "
    "column read as found.",
    # Either given empty made a dry run offline without a word (F6's note).
    "--connection": "--connection was given without a name: give the name of a saved "
    "connection, or leave the option out for a dry run without a connection.",
    "--base-url": "--base-url was given without a URL: give the service's base URL (the token "
    "in the environment variable DNC_DESK_TOKEN), or leave the option out for a dry run "
    "without a connection.",
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("option", sorted(SAID))
@pytest.mark.parametrize("value", ["", "  ", "\u200b"])
def test_an_empty_option_is_refused(
    command: str, option: str, value: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = _uk_file(tmp_path)
    code = main([command, str(src), *COMMANDS[command], option, value])
    captured = capsys.readouterr()
    assert (code, captured.err.strip()) == (2, SAID[option])
    assert captured.out == "" and _jobs() == []


def test_the_refusal_is_json_under_json(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = _uk_file(tmp_path)
    code = main(["import", str(src), *COMMANDS["import"], "--phone-code", "", "--json"])
    captured = capsys.readouterr()
    assert code == 2
    assert SAID["--phone-code"] in json.loads(captured.out)["error"]


def test_an_empty_purpose_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = _uk_file(tmp_path)
    code = main(["import", str(src), *COMMANDS["import"], "--purpose", " "])
    captured = capsys.readouterr()
    assert code == 2 and _jobs() == []
    assert captured.err.strip() == (
        "--purpose was given without a purpose: give the purpose of the rows without one, or "
        "leave the option out for rows without a purpose to carry none (or the scope's)."
    )


def test_a_given_code_still_reads_the_file_under_it(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = _uk_file(tmp_path)
    code = main(["import", str(src), *COMMANDS["import"], "--phone-code", "44", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and (data["valid"], data["invalid"]) == (2, 0)


def test_an_empty_reason_is_taken_as_none(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = _uk_file(tmp_path)
    argv = ["import", str(src), *COMMANDS["import"], "--phone-code", "44", "--reason", ""]
    code = main([*argv, "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and data["valid"] == 2
