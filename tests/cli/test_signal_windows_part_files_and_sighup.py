"""Q2: the signal windows X1 (87926b6) left, each opened on purpose in a real ``dnc-desk``
process (X1's :func:`run_cli`: one function wrapped so the signal comes at a set moment).

- ``--report`` of an import (and ``--out`` of audit) is checked by making ``PATH.part`` and
  removing it: a stop signal between the two left the empty file beside a command that said
  nothing was written, as it did beside an export's ``--out``.
- An import refused by a signal before its run printed its refusal with Ctrl+C still
  raising: a second one right after printed a second refusal (a second JSON object).
- ``nohup dnc-desk import … &`` starts the command with SIGHUP ignored (and a shell without job
  control starts ``… &`` with SIGINT ignored): the command took SIGHUP anyway, so closing the
  terminal paused the job or cancelled the export, the opposite of what nohup was asked for.
"""

from __future__ import annotations

import json
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tests.cli.test_cli_arguments_and_resume import numbers_csv
from tests.cli.test_signal_windows_module_import import (
    BETWEEN_PROBE_AND_REMOVAL,
    CANCELLED,
    NOTHING_SENT,
    one_refusal,
    run_cli,
)

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")

# -- the probe of --report / --out -------------------------------------------------------------

DRY_RUN = ["import", "--into", "dnc", "--scope", "global", "--dry-run"]
NOWHERE = "http://127.0.0.1:9"  # never reached: the signal comes first


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_signal_during_the_check_of_report_leaves_no_part_file(
    tmp_path: Path, signum: signal.Signals
) -> None:
    # Before: report.xlsx.part was left in out/ (the signal came between its making and its
    # removal), beside a refusal saying nothing was sent.
    out = tmp_path / "out" / "report.xlsx"
    src = numbers_csv(tmp_path / "in.csv", 20)
    done = run_cli(
        BETWEEN_PROBE_AND_REMOVAL.replace("SIGTERM", signum.name),
        [*DRY_RUN, str(src), "--report", str(out), "--json"],
        tmp_path,
    )
    one_refusal(done, NOTHING_SENT, 128 + signum)
    assert list(out.parent.iterdir()) == []


def test_a_sigterm_during_the_check_of_an_audits_out_leaves_no_part_file(tmp_path: Path) -> None:
    out = tmp_path / "out" / "audit.xlsx"
    done = run_cli(
        BETWEEN_PROBE_AND_REMOVAL,
        ["audit", "campaign", "1", "--out", str(out), "--json", "--base-url", NOWHERE],
        tmp_path,
    )
    # Black-box B23 F8: it said only "Interrupted.".
    said = "Interrupted: the audit was cancelled; no report was written or recorded."
    one_refusal(done, said, 143)
    assert list(out.parent.iterdir()) == []


# -- a second Ctrl+C as an import's refusal is printed -------------------------------------------

# A SIGTERM as the file is about to be read (the command's own handling of a stop before its
# run), then a Ctrl+C just before or just after its refusal is printed.
SECOND_AS_REFUSED = """
import signal
import app.cli.import_cmd as import_cmd

real_fingerprint, real_fail = import_cmd.source_fingerprint, import_cmd.fail


def source_fingerprint(*args, **kwargs):
    signal.raise_signal(signal.SIGTERM)
    return real_fingerprint(*args, **kwargs)


def fail(*args, **kwargs):
    {before}
    status = real_fail(*args, **kwargs)
    {after}
    return status


import_cmd.source_fingerprint, import_cmd.fail = source_fingerprint, fail
"""
CTRL_C = "signal.raise_signal(signal.SIGINT)"


@pytest.mark.parametrize(
    ("before", "after"), [("pass", CTRL_C), (CTRL_C, "pass")], ids=["after", "before"]
)
def test_a_second_ctrl_c_as_an_import_is_refused_adds_nothing(
    tmp_path: Path, before: str, after: str
) -> None:
    # Before: after the refusal, a second JSON object (exit 130); before it, the Ctrl+C's
    # refusal replaced the SIGTERM's (exit 130 instead of 143).
    src = numbers_csv(tmp_path / "in.csv", 20)
    done = run_cli(
        SECOND_AS_REFUSED.format(before=before, after=after),
        ["import", str(src), "--into", "dnc", "--scope", "global", "--dry-run", "--json"],
        tmp_path,
    )
    one_refusal(done, NOTHING_SENT, 143)


# -- SIGHUP ignored as the command starts (nohup) ------------------------------------------------

# The terminal closing as the command's modules load (app.cli.main's handling of a stop).
HUP_AS_LOADING = """
import signal
import app.cli.main as cli_main

real_build_parser = cli_main.build_parser


def build_parser(chosen=None):
    parser = real_build_parser(chosen)
    signal.raise_signal(signal.SIGHUP)
    return parser


cli_main.build_parser = build_parser
"""

# The terminal closing once the job's run has started (the job's own handling: a pause).
HUP_AS_THE_RUN_STARTS = """
import signal
import app.cli.import_cmd as import_cmd

real_announcer = import_cmd._announcer


def _announcer(*args, **kwargs):
    announce = real_announcer(*args, **kwargs)

    def announce_then_hang_up():
        announce()
        signal.raise_signal(signal.SIGHUP)

    return announce_then_hang_up


import_cmd._announcer = _announcer
"""

# The terminal closing as the export begins reading pages (the export's own handling).
HUP_AS_THE_EXPORT_STARTS = """
import signal
import app.cli.export_cmd as export_cmd

real_run = export_cmd.ExportJob.run


def run(self):
    signal.raise_signal(signal.SIGHUP)
    return real_run(self)


export_cmd.ExportJob.run = run
"""


def import_argv(sandbox: Any, src: Path) -> list[str]:
    url = sandbox.base_url
    return ["import", str(src), "--into", "dnc", "--scope", "global", "--json", "--base-url", url]


def paused(done: subprocess.CompletedProcess[str]) -> None:
    assert done.returncode == 129, (done.stdout, done.stderr)
    result = json.loads(done.stdout)
    assert result["status"] == "paused" and result["resume"], result
    assert "Interrupted: job paused." in done.stderr


@pytest.mark.parametrize(
    ("script", "stopped"),
    [
        (HUP_AS_LOADING, lambda done: one_refusal(done, NOTHING_SENT, 129)),
        (HUP_AS_THE_RUN_STARTS, paused),
    ],
    ids=["load", "run"],
)
def test_an_import_started_with_sighup_ignored_runs_on_when_the_terminal_closes(
    sandbox: Any,
    tmp_path: Path,
    script: str,
    stopped: Callable[[subprocess.CompletedProcess[str]], None],
) -> None:
    # Before: the job was paused (or refused as its modules loaded), exit 129, nothing sent.
    src = numbers_csv(tmp_path / "in.csv", 40)
    done = run_cli(script, import_argv(sandbox, src), tmp_path, ignored=(signal.SIGHUP,))
    assert done.returncode == 0, (done.stdout, done.stderr)
    assert json.loads(done.stdout)["status"] == "finished"
    assert "Interrupted" not in done.stderr and "Traceback" not in done.stderr
    assert sandbox.store.scalar("SELECT count(*) FROM dnc") == 40
    # Started with SIGHUP at its default, the same job still stops there, sending nothing.
    other = numbers_csv(tmp_path / "other.csv", 40, first=100)
    stopped(run_cli(script, import_argv(sandbox, other), tmp_path))
    assert sandbox.store.scalar("SELECT count(*) FROM dnc") == 40


def test_an_import_started_with_sigint_and_sighup_ignored_runs_on(
    sandbox: Any, tmp_path: Path
) -> None:
    # `nohup … &` from a script: both ignored, and a Ctrl+C sent to the whole group as well.
    script = HUP_AS_THE_RUN_STARTS.replace(
        "signal.raise_signal(signal.SIGHUP)",
        "signal.raise_signal(signal.SIGHUP)\n        signal.raise_signal(signal.SIGINT)",
    )
    src = numbers_csv(tmp_path / "in.csv", 40)
    done = run_cli(
        script, import_argv(sandbox, src), tmp_path, ignored=(signal.SIGINT, signal.SIGHUP)
    )
    assert done.returncode == 0, (done.stdout, done.stderr)
    assert json.loads(done.stdout)["status"] == "finished"
    assert sandbox.store.scalar("SELECT count(*) FROM dnc") == 40


def export_argv(sandbox: Any, out: Path) -> list[str]:
    return ["export", "dnc", "--out", str(out), "--json", "--base-url", sandbox.base_url]


@pytest.mark.parametrize(
    "script", [HUP_AS_LOADING, HUP_AS_THE_EXPORT_STARTS], ids=["load", "pages"]
)
def test_an_export_started_with_sighup_ignored_is_written_when_the_terminal_closes(
    sandbox: Any, tmp_path: Path, script: str
) -> None:
    # Before: cancelled, exit 129, no file.
    sandbox.bulk_seed_dnc([(f"303555{i:04d}", "1", "0", "", "") for i in range(30)])
    out = tmp_path / "out" / "dnc.csv"
    done = run_cli(script, export_argv(sandbox, out), tmp_path, ignored=(signal.SIGHUP,))
    assert done.returncode == 0, (done.stdout, done.stderr)
    assert json.loads(done.stdout)["rows"] == 30
    assert len(out.read_text().splitlines()) == 31  # the header and every row
    assert list(out.parent.iterdir()) == [out]
    # Started with SIGHUP at its default, the same export is still cancelled there.
    elsewhere = tmp_path / "elsewhere" / "dnc.csv"
    elsewhere.parent.mkdir()  # as the modules load, --out's folder is not made yet
    one_refusal(run_cli(script, export_argv(sandbox, elsewhere), tmp_path), CANCELLED, 129)
    assert list(elsewhere.parent.iterdir()) == []
