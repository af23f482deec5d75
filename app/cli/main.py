"""The ``dnc-desk`` command: the GUI when run alone, subcommands for scripted work.

Subcommands live in their own modules, each with ``add_arguments(parser)`` and
``run(args) -> int``; they are imported only when chosen so ``dnc-desk --help`` stays fast.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import os
import signal
import sys
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from types import FrameType
from typing import NoReturn

# Must equal app.core.sheet_reader.WORKER_FLAG; not imported from there to keep start-up light.
SHEET_WORKER_FLAG = "--sheet-worker"

# name -> (module, one-line help). Modules are imported lazily.
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "sandbox": ("app.sandbox.cli", "serve the local sandbox API (demo data, fault injection)"),
    "import": ("app.cli.import_cmd", "import a spreadsheet of numbers into the DNC or SMS list"),
    "remove": ("app.cli.remove_cmd", "remove a spreadsheet of numbers from the DNC list"),
    "jobs": ("app.cli.jobs_cmd", "list the jobs that can be resumed (--all: every job)"),
    "export": ("app.cli.export_cmd", "export a DNC or SMS opt-out search to xlsx or CSV"),
    "audit": ("app.cli.audit_cmd", "check a campaign's leads against the DNC and SMS lists"),
    "snapshot": ("app.cli.snapshot_cmd", "save a full copy of a list for later comparison"),
    "diff": ("app.cli.diff_cmd", "compare two snapshots, or a snapshot with the list now"),
    "evidence": ("app.cli.evidence_cmd", "everything DNC Desk sees about one number, as xlsx"),
    "health": ("app.cli.health_cmd", "check the DNC and SMS lists for problems and gaps"),
}


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose usage errors, under ``--json``, are also one JSON object on
    stdout (subcommand parsers are made of the same class)."""

    json_errors = False

    def error(self, message: str) -> NoReturn:
        if _Parser.json_errors:
            from app.cli.connection_args import EXIT_USAGE, emit_json

            emit_json({"error": f"{self.prog}: {message}", "exit_status": EXIT_USAGE})
        super().error(message)


def _available(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


def build_parser(chosen: str | None = None) -> argparse.ArgumentParser:
    """The full parser; with ``chosen`` only that subcommand's options are loaded
    (``""`` loads none, for the GUI and ``--help``)."""
    parser = _Parser(
        prog="dnc-desk",
        description="DNC Desk: keep a dialer's do-not-call and SMS opt-out lists right. "
        "Run without a subcommand to open the window.",
    )
    parser.add_argument(
        "--sandbox",
        action="store_true",
        help="open the window on the local sandbox with demo data (no account needed)",
    )
    parser.add_argument(
        "--self-test",
        action="store_true",
        help="check the installation (or frozen bundle) end to end, offscreen: sandbox, window, "
        "DNC and SMS opt-out searches, an xlsx export read back; prints one line",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module, help_text) in SUBCOMMANDS.items():
        if not _available(module):
            continue
        sub_parser = sub.add_parser(name, help=help_text, description=help_text)
        # Only the chosen subcommand's module is imported: the others pull in spreadsheet
        # readers and phone metadata, which made every start (even --help) take seconds.
        if chosen is None or name == chosen:
            importlib.import_module(module).add_arguments(sub_parser)
    return parser


def _chosen_subcommand(argv: Sequence[str]) -> str | None:
    for arg in argv:
        if arg in SUBCOMMANDS:
            return arg
        if not arg.startswith("-"):
            return None
    return None


# What a shell reports for a command killed by SIGPIPE (128 + 13).
EXIT_BROKEN_PIPE = 141


def _last_resort(exc: BaseException, args: argparse.Namespace | None = None) -> str | None:
    """One sentence for a failure no command turned into one: the app's own files (a job file
    or the journal damaged, a data folder that cannot be used, a full disk); None for anything
    else, which stays a traceback (a bug to report). ``args``, the command's, say whether a
    job may have started (a full disk's sentence then says how it goes on)."""
    import sqlite3

    from app.cli.disk_space import disk_full, disk_full_sentence
    from app.core.journal import JournalError
    from app.core.paths import DataFolderError

    if isinstance(exc, JournalError | DataFolderError):
        return str(exc)
    if disk_full(exc):
        return disk_full_sentence(
            exc, getattr(args, "command", None), bool(getattr(args, "dry_run", False))
        )
    if isinstance(exc, sqlite3.DatabaseError):
        return (
            f"A file of the app's could not be read ({exc}): it is damaged or not a DNC Desk "
            "file (a job file, the change journal, a snapshot)."
        )
    if isinstance(exc, PermissionError | IsADirectoryError | NotADirectoryError):
        where = f" ({exc.filename})" if exc.filename else ""
        return (
            f"{exc.strerror or exc}{where}: the app could not use that file or folder; check "
            "that the data folder (XDG_DATA_HOME or DNC_DESK_DATA_DIR) and the paths given "
            "can be written."
        )
    return None


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == [SHEET_WORKER_FLAG]:
        # A frozen bundle re-runs itself as the spreadsheet reader's child process; dispatch
        # before anything else so the child starts fast (no Qt, no config).
        from app.core import sheet_worker

        return sheet_worker.main(argv[1:])
    chosen = _chosen_subcommand(argv)
    if chosen is None:
        return _run(argv, None)
    # A command stopped before it handles signals itself (loading its modules, reading the
    # file) still answers, as one JSON object under --json: SIGTERM is taken as Ctrl+C is.
    with _sigterm_interrupts():
        try:
            return _run(argv, chosen)
        except KeyboardInterrupt as exc:
            return _interrupted(exc, json_output="--json" in argv, command=chosen)


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where Ctrl+C raises KeyboardInterrupt (:func:`_sigterm_interrupts`)."""

    exit_status = 128 + signal.SIGTERM


def _raise_terminated(signum: int, frame: FrameType | None) -> None:
    raise Terminated


@contextmanager
def _sigterm_interrupts() -> Iterator[None]:
    try:
        previous = signal.signal(signal.SIGTERM, _raise_terminated)
    except ValueError:  # not the main thread (main() called from a test's thread)
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


# What a command stopped before its own handling of signals (its modules still loading) says
# when "Interrupted." alone leaves out what matters: export's is its own CANCELLED sentence,
# said at every stop (black-box Q2 #5: "Interrupted." did not say whether a file was written).
INTERRUPTED: dict[str | None, str] = {
    "export": "Interrupted: the export was cancelled and no file was written.",
}


def interrupted_sentence(command: str | None) -> str:
    return INTERRUPTED.get(command, "Interrupted.")


def _interrupted(exc: KeyboardInterrupt, *, json_output: bool, command: str | None) -> int:
    """A command interrupted before its own handling of signals: one sentence on stderr (and
    ``{"error", "exit_status"}`` under --json); 130 for Ctrl+C, 143 for SIGTERM."""
    status = int(getattr(exc, "exit_status", 128 + signal.SIGINT))
    message = interrupted_sentence(command)
    print(message, file=sys.stderr)
    if json_output:
        print(json.dumps({"error": message, "exit_status": status}))
    # Out now: once SIGTERM's handler is gone, a second one would lose what is buffered.
    sys.stdout.flush()
    return status


def _run(argv: list[str], chosen: str | None) -> int:
    parser = build_parser(chosen or "")
    # Before parsing, "--json" anywhere decides: a usage error has no parsed arguments yet.
    _Parser.json_errors = "--json" in argv
    try:
        args = parser.parse_args(argv)
    finally:
        _Parser.json_errors = False
    if args.command:
        from app.cli.connection_args import fail, json_refusals

        with json_refusals(bool(getattr(args, "json", False))):
            try:
                module = importlib.import_module(SUBCOMMANDS[args.command][0])
                status = int(module.run(args))
                # Written out here, not at the interpreter's exit: output still buffered (a
                # pipe's, up to 8 KB) would meet a reader gone away (`… | head -c 0`) where no
                # handler is left, and print "Exception ignored … BrokenPipeError".
                sys.stdout.flush()
                return status
            except KeyboardInterrupt as exc:
                status = int(getattr(exc, "exit_status", 128 + signal.SIGINT))
                status = fail(interrupted_sentence(args.command), status)
                sys.stdout.flush()
                return status
            except BrokenPipeError:
                # Whoever read our output went away (`… --json | head`): say nothing more, and
                # point stdout at nowhere so the interpreter's final flush cannot fail again.
                devnull = os.open(os.devnull, os.O_WRONLY)
                os.dup2(devnull, sys.stdout.fileno())
                return EXIT_BROKEN_PIPE
            except Exception as exc:  # the last word is one sentence, not a traceback
                sentence = _last_resort(exc, args)
                if sentence is None:
                    raise
                return fail(sentence)
    if args.self_test:
        from app.cli.self_test import run_self_test

        return run_self_test()
    if not _available("app.ui.application"):
        parser.error("the desktop window is not part of this build; use a subcommand")
    from app.core.paths import DataFolderError
    from app.ui.application import run_gui

    try:
        return run_gui(sandbox=args.sandbox)
    except DataFolderError as exc:  # before the window opens: the terminal is all there is
        print(exc, file=sys.stderr)
        return 1


if __name__ == "__main__":
    raise SystemExit(main())
