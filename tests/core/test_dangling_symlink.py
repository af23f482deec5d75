"""A symbolic link to nothing is named as typed (black-box R3 #6): resolved first, it was
refused by its target alone ("/nonexistent/x.csv does not exist."), a path the user never
wrote."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.cli.main import main
from app.core.sheet_reader import open_sheet, resolve_sheet_path
from app.core.sheet_types import SheetError
from tests.conftest import TOKEN


def _dangling(tmp_path: Path) -> tuple[Path, Path]:
    link = tmp_path / "dangling.csv"
    target = tmp_path / "gone" / "x.csv"
    link.symlink_to(target)
    return link, target


def test_the_link_is_named_then_its_target(tmp_path: Path) -> None:
    link, target = _dangling(tmp_path)
    expected = f"{link} is a symbolic link to {target}, which does not exist."
    with pytest.raises(SheetError) as resolved:
        resolve_sheet_path(link)
    assert str(resolved.value) == expected
    with pytest.raises(SheetError) as opened:
        open_sheet(link)
    assert str(opened.value) == expected


def test_a_chain_of_links_names_the_missing_end(tmp_path: Path) -> None:
    link, target = _dangling(tmp_path)
    outer = tmp_path / "outer.csv"
    outer.symlink_to(link)
    with pytest.raises(SheetError) as refused:
        resolve_sheet_path(outer)
    assert str(refused.value) == f"{outer} is a symbolic link to {target}, which does not exist."


def test_a_missing_plain_path_still_does_not_exist(tmp_path: Path) -> None:
    missing = tmp_path / "missing.csv"
    assert resolve_sheet_path(missing) == missing.resolve()
    with pytest.raises(SheetError) as refused:
        open_sheet(missing)
    assert str(refused.value) == f"{missing} does not exist."


@pytest.mark.parametrize("command", [["import", "--into", "dnc"], ["remove"]])
def test_the_commands_name_the_link_typed(
    command: list[str],
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    link, target = _dangling(tmp_path)
    argv = [command[0], str(link), *command[1:], "--scope", "global", "--dry-run"]
    assert main(argv) == 1
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == f"{link} is a symbolic link to {target}, which does not exist.\n"
