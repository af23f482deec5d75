"""X1: two signal tests that each failed once in CI, and the windows they fell into.

- ``test_a_signal_before_the_job_exists_is_one_json_refusal[2]`` (i3) ended by SIGINT (-2)
  after printing its refusal with exit_status 130. A Ctrl+C landing while a module is being
  imported is raised inside the import machinery: lxml's initialisation (openpyxl imports
  it) runs Python code through the C API, and a KeyboardInterrupt raised there is either
  written off as "ignored" (the command ran on, exit 0) or, handled and refused by the CLI,
  still makes Python end the process by SIGINT at its exit. A stop signal is now taken once
  the import is over.
- ``test_a_signal_cancels_an_export_removing_its_partial_file[15-143]`` (d) left
  ``dnc.csv.part``: the check of ``--out`` makes that file and removes it, and the SIGTERM the
  test sent on seeing it came between the two. The check now holds stop signals until done.

And a second Ctrl+C once the refusal was printed printed it again (two JSON objects).

Each window is opened on purpose in a real ``dnc-desk`` process (``python -m`` running
``app.cli.main.main()`` as ``python -m app`` does, with one function wrapped to send the
signal at the moment in question).
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

from tests.cli.test_cli_arguments_and_resume import cli_env, numbers_csv

ROOT = Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")

NOTHING_SENT = "Interrupted before the job started: nothing was sent."
CANCELLED = "Interrupted: the export was cancelled and no file was written."


def run_cli(
    script: str, argv: list[str], tmp_path: Path, *, ignored: tuple[signal.Signals, ...] = ()
) -> subprocess.CompletedProcess[str]:
    """``dnc-desk ARGV`` as its own process, run with ``-m`` as ``python -m app`` is (how
    Python ends matters here), after ``script`` (which may wrap the app's functions); the
    process starts with SIGINT and SIGHUP at their default, however pytest was started, but
    for the signals ``ignored`` (as ``nohup … &`` starts it)."""

    def start() -> None:
        for sig in (signal.SIGINT, signal.SIGHUP):
            signal.signal(sig, signal.SIG_IGN if sig in ignored else signal.SIG_DFL)

    (tmp_path / "x1_cli.py").write_text(
        "\n".join(
            [
                "import sys",
                textwrap.dedent(script),
                "from app.cli.main import main",
                "raise SystemExit(main())",
            ]
        )
    )
    env = cli_env()
    env["PYTHONPATH"] = os.pathsep.join([str(tmp_path), str(ROOT), env.get("PYTHONPATH", "")])
    return subprocess.run(
        [sys.executable, "-m", "x1_cli", *argv],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        preexec_fn=start,
    )


def one_refusal(done: subprocess.CompletedProcess[str], message: str, status: int) -> None:
    assert done.returncode == status, (done.stdout, done.stderr)
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr
    assert [json.loads(line) for line in done.stdout.splitlines()] == [
        {"error": message, "exit_status": status}
    ]
    assert done.stderr.strip() == message


# -- a signal while a module is being imported -------------------------------------------------

# Loaded as the command's modules load (before them), as lxml is: its module code runs Python
# code through the C API, as lxml's initialisation does, and the signal comes in the middle.
EXTENSION_LIKE = """
import ctypes
import signal

run_string = ctypes.pythonapi.PyRun_String
run_string.argtypes = [ctypes.c_char_p, ctypes.c_int, ctypes.py_object, ctypes.py_object]
run_string.restype = ctypes.py_object
scope = {}
code = b"import signal\\nsignal.raise_signal(signal.SIGINT)\\npatched = [n for n in range(9)]\\n"
run_string(code, 257, scope, scope)  # 257: Py_file_input
"""

# A finaliser run during the import (a lock of the import machinery is freed by a weak
# reference's callback) takes the signal: what is raised there is written off as ignored.
FINALISER_DURING_IMPORT = """
import signal


class Freed:
    def __del__(self) -> None:
        signal.raise_signal(signal.SIGTERM)
        self.done = [n for n in range(9)]


Freed()
"""

IMPORTED_FIRST = """
import app.cli.main as cli_main

real_build_parser = cli_main.build_parser


def build_parser(chosen=None):
    import {module}  # noqa: F401

    return real_build_parser(chosen)


cli_main.build_parser = build_parser
"""


@pytest.mark.parametrize(
    ("module_text", "status"), [(EXTENSION_LIKE, 130), (FINALISER_DURING_IMPORT, 143)]
)
def test_a_signal_while_a_module_is_imported_is_one_refusal_with_its_status(
    tmp_path: Path, module_text: str, status: int
) -> None:
    # Before: the Ctrl+C inside the C API's run ended the process by SIGINT (-2) after its
    # refusal; the SIGTERM inside the finaliser was lost, and the dry run ran to its end (0).
    (tmp_path / "loaded_first.py").write_text(module_text)
    src = numbers_csv(tmp_path / "in.csv", 2_000)
    done = run_cli(
        IMPORTED_FIRST.format(module="loaded_first"),
        ["import", str(src), "--into", "dnc", "--scope", "global", "--dry-run", "--json"],
        tmp_path,
    )
    one_refusal(done, NOTHING_SENT, status)


def test_sigint_ignored_by_the_parent_stays_ignored(tmp_path: Path) -> None:
    # `nohup dnc-desk import … &` from a shell without job control: SIGINT is ignored from the
    # start, and the command leaves it so (the SIGTERM then ends it as usual).
    script = (
        "import signal\nsignal.signal(signal.SIGINT, signal.SIG_IGN)\n"
        + IMPORTED_FIRST.format(module="loaded_first")
    )
    (tmp_path / "loaded_first.py").write_text(
        "import signal\nsignal.raise_signal(signal.SIGINT)\n"
        "assert signal.getsignal(signal.SIGINT) is signal.SIG_IGN\n"
        "signal.raise_signal(signal.SIGTERM)\n"
    )
    src = numbers_csv(tmp_path / "in.csv", 2_000)
    done = run_cli(
        script,
        ["import", str(src), "--into", "dnc", "--scope", "global", "--dry-run", "--json"],
        tmp_path,
    )
    one_refusal(done, NOTHING_SENT, 143)


# -- export: the check of --out, and a second signal -------------------------------------------

# The check of --out makes OUT.part and removes it; the SIGTERM comes between the two.
BETWEEN_PROBE_AND_REMOVAL = """
import pathlib
import signal

real_unlink = pathlib.Path.unlink
sent = []


def unlink(self, missing_ok=False):
    if self.name.endswith(".part") and not sent:
        sent.append(True)
        signal.raise_signal(signal.SIGTERM)
    return real_unlink(self, missing_ok=missing_ok)


pathlib.Path.unlink = unlink
"""


def test_a_sigterm_during_the_check_of_out_leaves_no_part_file(tmp_path: Path) -> None:
    out = tmp_path / "out" / "dnc.csv"
    done = run_cli(
        BETWEEN_PROBE_AND_REMOVAL,
        ["export", "dnc", "--out", str(out), "--json", "--base-url", "http://127.0.0.1:9"],
        tmp_path,
    )
    one_refusal(done, CANCELLED, 143)
    assert list(out.parent.iterdir()) == []  # neither dnc.csv nor dnc.csv.part


# A second Ctrl+C as the cancellation is printed: before the export took signals itself (its
# --out being checked), and once it had (its first page being read).
SECOND_BEFORE_THE_EXPORT = """
import signal
import app.cli.export_cmd as export_cmd

real_check, real_fail = export_cmd.check_export_path, export_cmd.fail


def check_export_path(*args, **kwargs):
    signal.raise_signal(signal.SIGTERM)
    return real_check(*args, **kwargs)


def fail(*args, **kwargs):
    status = real_fail(*args, **kwargs)
    signal.raise_signal(signal.SIGINT)
    return status


export_cmd.check_export_path, export_cmd.fail = check_export_path, fail
"""

SECOND_ONCE_CANCELLED = """
import signal
import app.cli.export_cmd as export_cmd
from app.api.paging import Cancelled

real_run = export_cmd._run


def run_export(self):
    signal.raise_signal(signal.SIGTERM)
    raise Cancelled


def _run(args):
    status = real_run(args)
    signal.raise_signal(signal.SIGINT)
    return status


export_cmd.ExportJob.run, export_cmd._run = run_export, _run
"""


@pytest.mark.parametrize("script", [SECOND_BEFORE_THE_EXPORT, SECOND_ONCE_CANCELLED])
def test_a_second_signal_once_an_export_is_cancelled_adds_nothing(
    sandbox: Any, tmp_path: Path, script: str
) -> None:
    out = tmp_path / "out" / "dnc.csv"
    # Made here: a SIGTERM before --out's check (SECOND_BEFORE_THE_EXPORT) stops the export
    # before that check would make it.
    out.parent.mkdir()
    argv = ["export", "dnc", "--out", str(out), "--json", "--base-url", sandbox.base_url]
    done = run_cli(script, argv, tmp_path)
    one_refusal(done, CANCELLED, 143)
    assert list(out.parent.iterdir()) == []


def test_a_second_ctrl_c_once_an_import_is_refused_adds_nothing(tmp_path: Path) -> None:
    # The refusal printed by app.cli.main itself (the command's modules loading).
    script = """
    import signal
    import app.cli.main as cli_main

    real_build_parser, real_interrupted = cli_main.build_parser, cli_main._interrupted


    def build_parser(chosen=None):
        parser = real_build_parser(chosen)
        signal.raise_signal(signal.SIGTERM)
        return parser


    def interrupted(*args, **kwargs):
        status = real_interrupted(*args, **kwargs)
        signal.raise_signal(signal.SIGINT)
        return status


    cli_main.build_parser, cli_main._interrupted = build_parser, interrupted
    """
    src = numbers_csv(tmp_path / "in.csv", 20)
    done = run_cli(
        script,
        ["import", str(src), "--into", "dnc", "--scope", "global", "--dry-run", "--json"],
        tmp_path,
    )
    one_refusal(done, NOTHING_SENT, 143)
