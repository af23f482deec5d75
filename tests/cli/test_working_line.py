"""The line a long step without a count of its own shows on a terminal (reading and checking a
file, writing a dry run's report): said with its seconds, rewritten in place, cleared at the end;
nothing at all when not shown (no terminal, --json)."""

from __future__ import annotations

import io
import sys
import threading
import time
from contextlib import AbstractContextManager
from pathlib import Path
from typing import TextIO

import pytest

from app.cli.working_line import working


class _Stream(io.StringIO):
    """Records what is written and says when the first write came."""

    def __init__(self) -> None:
        super().__init__()
        self.written = threading.Event()

    def write(self, text: str) -> int:
        n = super().write(text)
        self.written.set()
        return n


def test_the_line_is_said_and_cleared() -> None:
    stream = _Stream()
    with working("Reading and checking big.csv…", stream, shown=True, first_after=0, every=0.01):
        assert stream.written.wait(10)
        deadline = time.monotonic() + 10
        while stream.getvalue().count("\r") < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
    text = stream.getvalue()
    assert text.startswith("\rReading and checking big.csv… 0 s")
    assert text.count("\rReading and checking big.csv…") >= 2  # rewritten in place
    width = len("Reading and checking big.csv… 0 s")
    assert text.endswith("\r" + " " * width + "\r")
    before = text
    time.sleep(0.05)
    assert stream.getvalue() == before  # nothing after the block


@pytest.mark.parametrize("first_after", [0.0, 30.0])
def test_nothing_is_written_when_not_shown_or_before_the_first_second(first_after: float) -> None:
    stream = _Stream()
    shown = first_after > 0  # shown, but the block ends before the line is due
    with working("Writing the report…", stream, shown=shown, first_after=first_after):
        pass
    assert stream.getvalue() == ""


def test_an_error_in_the_block_still_clears_the_line() -> None:
    stream = _Stream()
    with pytest.raises(KeyboardInterrupt):
        with working("Reading…", stream, shown=True, first_after=0, every=0.01):
            assert stream.written.wait(10)
            raise KeyboardInterrupt
    assert stream.getvalue().endswith(" \r")


@pytest.mark.parametrize("json_out", [False, True])
def test_a_dry_run_on_a_terminal_shows_its_reading_and_report_steps(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    json_out: bool,
) -> None:
    from app.cli import import_cmd
    from app.cli.main import main

    steps: list[tuple[str, bool]] = []
    real = import_cmd.working

    def spy(text: str, stream: TextIO, *, shown: bool) -> AbstractContextManager[None]:
        steps.append((text, shown))
        return real(text, stream, shown=shown)

    monkeypatch.setattr(import_cmd, "working", spy)
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True)
    src = tmp_path / "opt-outs.csv"
    src.write_text("phone\n3035551217\n3035551218\n")
    argv = ["import", str(src), "--into", "dnc", "--scope", "global", "--dry-run"]
    argv += ["--report", str(tmp_path / "r.xlsx")]
    assert main(argv + (["--json"] if json_out else [])) == 0
    capsys.readouterr()
    assert steps == [
        ("Reading and checking opt-outs.csv…", not json_out),
        ("Writing the report…", not json_out),
    ]
