"""A SIGTERM taken the moment the command's handler for it is installed, before the command's
block is entered, escaped as a traceback (exit 1) instead of the one JSON refusal and exit 143
(CI of session 20, once: tests/cli/test_cli_arguments_and_resume.py sends it as soon as /proc shows
the signal caught). Simulated here by the handler's exception raised inside that set-up."""

from __future__ import annotations

import json
import signal
from pathlib import Path

import pytest

from app.cli import main as cli_main
from app.cli.main import Terminated, main


def test_a_stop_during_the_handlers_set_up_is_one_refusal(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    src = tmp_path / "in.csv"
    src.write_text("Phone\n2025550101\n")
    before = signal.getsignal(signal.SIGTERM)

    taken = cli_main.stop_signals_taken
    raised: list[bool] = []

    def stopped() -> list[signal.Signals]:
        # Asked by the set-up once SIGTERM's handler is ours: raise what _raise_stop raises
        # when SIGTERM arrives there (once; other callers are answered as before).
        if signal.getsignal(signal.SIGTERM) is cli_main._raise_stop and not raised:
            raised.append(True)
            raise Terminated
        return taken()

    monkeypatch.setattr(cli_main, "stop_signals_taken", stopped)
    argv = ["import", str(src), "--into", "dnc", "--scope", "global", "--dry-run", "--json"]
    code = main(argv)
    out = capsys.readouterr().out.strip().splitlines()
    assert code == 128 + signal.SIGTERM
    assert len(out) == 1 and json.loads(out[0])["exit_status"] == 128 + signal.SIGTERM
    assert raised
    assert signal.getsignal(signal.SIGTERM) is before  # put back, as the block's end does
