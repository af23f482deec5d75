"""open_sheet's sentence for a path that is no file: it said "X does not exist or is not a file"
for a missing file and a folder alike. A missing file now says it does not exist, naming the
path as open_sheet was given it (so the folder it was looked for in is named too); a folder
says it is a folder, as the CLI says before it opens anything; anything else that is not a
file (a named pipe) says that.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from app.cli.main import main
from app.core.sheet_reader import open_sheet
from app.core.sheet_types import SheetError
from tests.conftest import TOKEN


def refusal(path: Path | str) -> str:
    with pytest.raises(SheetError) as refused:
        open_sheet(path)  # type: ignore[arg-type]  # a str path, as some callers pass one
    return str(refused.value)


def test_a_missing_file_is_said_not_to_exist_by_its_path_as_given(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    missing = tmp_path / "exports" / "missing.csv"
    assert refusal(missing) == f"{missing} does not exist."
    monkeypatch.chdir(tmp_path)
    relative = Path("exports") / "gone.xlsx"
    assert refusal(relative) == f"{relative} does not exist."
    assert refusal("gone.xlsx") == "gone.xlsx does not exist."
    # A path through a file (not a folder) names no file either.
    (tmp_path / "a.csv").write_text("Phone\n3035550100\n")
    assert (
        refusal(tmp_path / "a.csv" / "b.csv") == f"{tmp_path / 'a.csv' / 'b.csv'} does not exist."
    )


def test_a_folder_is_said_to_be_a_folder(tmp_path: Path) -> None:
    folder = tmp_path / "adir.csv"
    folder.mkdir()
    assert (
        refusal(folder)
        == "adir.csv is a folder, not a file: give the path of the spreadsheet itself."
    )
    assert refusal(str(folder) + os.sep).startswith("adir.csv is a folder, not a file")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_named_pipe_is_not_read(tmp_path: Path) -> None:
    pipe = tmp_path / "pipe.csv"
    os.mkfifo(pipe)
    # Black-box P3 #5: it says what to do, naming the path as given (a shell's /dev/fd/63 too).
    assert refusal(pipe) == (
        f"{pipe} is a pipe (as made by mkfifo or by the shell's <(…)), not a file, and can be "
        "read only once while a list is read more than once; save the list to a file first "
        "and import that file."
    )


@pytest.mark.parametrize("command", [["import", "--into", "dnc"], ["remove"]])
def test_the_commands_say_a_missing_file_does_not_exist(
    command: list[str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    missing = tmp_path / "missing.csv"
    argv = [command[0], str(missing), *command[1:], "--scope", "global", "--dry-run"]
    assert main(argv) == 1
    captured = capsys.readouterr()
    assert (captured.out, captured.err) == ("", f"{missing} does not exist.\n")
