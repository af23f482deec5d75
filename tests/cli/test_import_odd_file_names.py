"""Files given to import and remove by names the system or argparse take otherwise
(black-box B35): a socket was called a pipe, a name too long for the system gave the raw
"[Errno 36] File name too long" with the whole path, and a file named ``-dash.csv`` only
"unrecognized arguments". Each is one sentence saying what it is and what to do."""

from __future__ import annotations

import contextlib
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from app.cli.main import main
from app.core.sheet_reader import open_sheet
from app.core.sheet_types import SheetError

COMMANDS = {
    "import": ["--into", "dnc", "--scope", "global", "--dry-run"],
    "remove": ["--scope", "global", "--dry-run"],
}


@contextlib.contextmanager
def unix_socket(path: Path) -> Iterator[Path]:
    """A listening Unix socket at ``path`` (a file of kind socket)."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.bind(str(path))
        sock.listen(1)
        yield path


@pytest.mark.skipif(not hasattr(socket, "AF_UNIX"), reason="no Unix sockets here")
@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_socket_is_named_a_socket(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with unix_socket(tmp_path / "s.csv") as path:
        code = main([command, str(path), *COMMANDS[command]])
        err = capsys.readouterr().err
        assert code == 1, err
        assert f"{path} is a socket (a connection point programs talk through), not a file" in err
        assert "pipe" not in err
        assert "save the list to a file first and import that file." in err
        with pytest.raises(SheetError, match=r"is a socket \(a connection point"):
            open_sheet(path)


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_name_too_long_is_one_sentence(
    command: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    name = "a" * 300 + ".csv"
    code = main([command, str(tmp_path / name), *COMMANDS[command]])
    err = capsys.readouterr().err
    assert code == 1, err
    assert err.strip() == (
        f"The file cannot be opened: the name {'a' * 40 + '…'!r} is 304 bytes long, more than "
        "the 255 bytes a file or folder name may have; check the path given (a name pasted "
        "twice makes one this long), or rename it shorter, and try again."
    )


def test_a_path_too_long_is_one_sentence(tmp_path: Path) -> None:
    path = Path(tmp_path, *["b" * 200] * 25, "x.csv")
    with pytest.raises(SheetError) as raised:
        open_sheet(path)
    said = str(raised.value)
    assert said.startswith("The file cannot be opened: the path ")
    assert "more than the 4,096 bytes a path may have" in said
    assert "move the file to a folder with a shorter path" in said
    assert "Errno" not in said and len(said) < 400


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_a_file_named_with_a_dash_is_told_how_to_give_it(
    command: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    (tmp_path / "-dash.csv").write_text("Phone\n2025550123\n")
    monkeypatch.chdir(tmp_path)
    with pytest.raises(SystemExit) as ended:
        main([command, "-dash.csv", *COMMANDS[command]])
    assert ended.value.code == 2
    err = capsys.readouterr().err
    assert err.splitlines()[-1] == (
        f"dnc-desk {command}: error: unrecognized arguments: -dash.csv (a file whose name "
        "starts with '-' is read as an option: give it as ./-dash.csv)"
    )
