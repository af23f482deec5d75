"""The ``dnc-desk`` command: the GUI when run alone, subcommands for scripted work.

Subcommands live in their own modules, each with ``add_arguments(parser)`` and
``run(args) -> int``; they are imported only when chosen so ``dnc-desk --help`` stays fast.
"""

from __future__ import annotations

import os
import signal
import sys


def _early_interrupt(signum: int, frame: object) -> None:
    """Ctrl+C while the command's own modules still load, before :func:`main` handles signals:
    one sentence and 130, not a KeyboardInterrupt traceback and 1 (black-box B25-3). Nothing
    has been read or sent yet; written straight to the descriptors, as the streams may not be
    set up, and ended at once, as unwinding an import half done helps nothing."""
    said = globals().get("INTERRUPTED", {})
    argv = sys.argv[1:]
    command = next((a for a in argv if not a.startswith("-")), None)
    if command in ("import", "remove") or not isinstance(said, dict):
        sentence = "Interrupted before the job started: nothing was sent."
    else:
        sentence = said.get(command, "Interrupted before the command started: nothing was done.")
    status = 128 + signal.SIGINT
    with _quiet():
        os.write(2, (sentence + "\n").encode("utf-8", "replace"))
    if "--json" in argv:
        with _quiet():
            os.write(1, f'{{"error": "{sentence}", "exit_status": {status}}}\n'.encode())
    os._exit(status)


class _quiet:
    """Suppresses OSError (a closed descriptor) without importing contextlib this early."""

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: object, exc: object, tb: object) -> bool:
        return isinstance(exc, OSError)


def _started_as_the_command() -> bool:
    """Whether this process is ``dnc-desk`` (or ``python -m app``) starting, not a test or the
    GUI importing this module: only then is SIGINT this module's to handle while it loads."""
    name = os.path.basename(sys.argv[0] if sys.argv else "").lower()
    for suffix in (".exe", "-script.py", ".py"):
        name = name.removesuffix(suffix)
    return name == "dnc-desk" or sys.argv[0:1] == [
        os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "__main__.py")
    ]


# ruff: noqa: E402 (the imports below come after SIGINT's early handling, on purpose)
# As early as can be: a Ctrl+C left at its default while the imports below run (tens of
# milliseconds) printed a traceback. Not when SIGINT is ignored (``… &`` without job control,
# which the command leaves so) nor when another program imports this module.
if _started_as_the_command() and signal.getsignal(signal.SIGINT) is signal.default_int_handler:
    signal.signal(signal.SIGINT, _early_interrupt)

import argparse
import codecs
import contextlib
import importlib
import importlib.util
import json
import re
import threading
import time
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
    "jobs": (
        "app.cli.jobs_cmd",
        "list the jobs that can be resumed (--all: every job); jobs cancel JOB cancels one",
    ),
    "export": ("app.cli.export_cmd", "export a DNC or SMS opt-out search to xlsx or CSV"),
    "audit": ("app.cli.audit_cmd", "check a campaign's leads against the DNC and SMS lists"),
    "snapshot": ("app.cli.snapshot_cmd", "save a full copy of a list for later comparison"),
    "diff": ("app.cli.diff_cmd", "compare two snapshots, or a snapshot with the list now"),
    "evidence": ("app.cli.evidence_cmd", "everything DNC Desk sees about one number, as xlsx"),
    "health": ("app.cli.health_cmd", "check the DNC and SMS lists for problems and gaps"),
    "journal": ("app.cli.journal_cmd", "verify the change journal's hash chain, or export it"),
}


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose usage errors, under ``--json``, are also one JSON object on
    stdout (subcommand parsers are made of the same class)."""

    json_errors = False
    # A top-level parser's subcommand parsers by name (build_parser), to refuse what no
    # option of the chosen one takes in its own name.
    subcommands: dict[str, argparse.ArgumentParser]

    def error(self, message: str) -> NoReturn:
        message = hide_secret_options(message)
        if _Parser.json_errors:
            from app.cli.connection_args import EXIT_USAGE, emit_json

            # The last line argparse prints on stderr, word for word (black-box B30 F7).
            emit_json({"error": f"{self.prog}: error: {message}", "exit_status": EXIT_USAGE})
        super().error(message)


# An option named like a secret (--token, --api-key, --password=…) followed by its value.
SECRET_OPTION = re.compile(
    r"(?P<option>--?[\w-]*(?:token|secret|passw|api[-_]?key)[\w-]*)"
    r"(?:(?P<sep>=|\s+)(?P<value>(?!--)\S+))?",
    re.IGNORECASE,
)


def hide_secret_options(message: str) -> str:
    """``message`` (a usage error quoting what was typed) with the value of an option named
    like a secret hidden, and a word on where tokens come from.

    ``--token abc`` was echoed as "unrecognized arguments: --token abc" on stderr and in the
    JSON, so a token typed there landed in logs (black-box R5 #12).
    """

    def hide(match: re.Match[str]) -> str:
        if match["value"] is None:
            return match[0]
        return f"{match['option']}{'=' if match['sep'] == '=' else ' '}<hidden>"

    hidden, found = SECRET_OPTION.subn(hide, message)
    if not found:
        return message
    return (
        f"{hidden} (a token is never taken on the command line: set DNC_DESK_TOKEN with "
        "--base-url, or save a connection, whose token is kept in the keyring)"
    )


def _available(module: str) -> bool:
    return importlib.util.find_spec(module) is not None


def _parse(parser: _Parser, argv: list[str]) -> argparse.Namespace:
    """``parser.parse_args(argv)``, but an argument no option takes is refused by the chosen
    subcommand's parser, as its other usage errors are: its usage and ``dnc-desk import:
    error: …``, not the top-level parser's (black-box B30 F7)."""
    args, extra = parser.parse_known_args(argv)
    if extra:
        refusing = parser.subcommands.get(args.command or "", parser)
        refusing.error(f"unrecognized arguments: {' '.join(extra)}{_dash_file_hint(extra)}")
    return args


# A name with one of these endings, starting with "-", is a file's more likely than an option's.
_FILE_ENDING = re.compile(r"\.[A-Za-z0-9]{1,5}$")


def _dash_file_hint(extra: Sequence[str]) -> str:
    """A hint for an argument that argparse took for an option but that names a file (one
    there, or a name with an ending such as ``-dash.csv``): how to give it (black-box B35:
    it said only "unrecognized arguments: -dash.csv")."""
    for arg in extra:
        option_like = arg.startswith("-") and not arg.startswith("--") and "=" not in arg
        if option_like and (_FILE_ENDING.search(arg) or os.path.isfile(arg)):
            return f" (a file whose name starts with '-' is read as an option: give it as ./{arg})"
    return ""


def build_parser(chosen: str | None = None) -> _Parser:
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
    parser.subcommands = {}
    for name, (module, help_text) in SUBCOMMANDS.items():
        if not _available(module):
            continue
        sub_parser = sub.add_parser(name, help=help_text, description=help_text)
        parser.subcommands[name] = sub_parser
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


# The name of the error handler that writes a character the console cannot encode as a JSON
# escape (\u00d1), registered by :func:`usable_streams`.
ESCAPE_ERRORS = "dnc-desk-escape"


def _escape_unencodable(exc: UnicodeError) -> tuple[str, int]:
    """``\\uXXXX`` (a surrogate pair above U+FFFF) for each character ``exc`` could not encode.

    Python's own ``backslashreplace`` writes ``\\xd1``, which is no escape in JSON: under
    ``--json`` every character outside ASCII is inside a string, where ``\\u00d1`` reads back
    as the character itself, so the output stays valid JSON.
    """
    if not isinstance(exc, UnicodeEncodeError):
        raise exc
    out = []
    for char in exc.object[exc.start : exc.end]:
        code = ord(char)
        if code > 0xFFFF:
            code -= 0x10000
            out.append(f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}")
        else:
            out.append(f"\\u{code:04x}")
    return "".join(out), exc.end


codecs.register_error(ESCAPE_ERRORS, _escape_unencodable)


def usable_streams() -> None:
    """Make the process's standard streams safe to use, whatever it was started with.

    A closed descriptor (``>&-``, ``2>&-``) is given the null device: Python left
    ``sys.stdout`` None, and the command crashed once its rows were sent (black-box R5 #7),
    and the next file opened (a job file, the journal) would have been given the descriptor,
    for any write to it to land in. And a character the console's encoding lacks
    (``PYTHONIOENCODING=ascii``, a Windows code page) is written as an escape instead of
    raising UnicodeEncodeError after the job ran (black-box R5 #2).
    """
    streams = ((0, "stdin", os.O_RDONLY), (1, "stdout", os.O_WRONLY), (2, "stderr", os.O_WRONLY))
    for fd, name, mode in streams:
        try:
            os.fstat(fd)
        except OSError:
            null = os.open(os.devnull, mode)
            if null != fd:
                os.dup2(null, fd)
                os.close(null)
        if getattr(sys, name) is None:
            # closefd=False: the descriptor is the process's own, kept for its children.
            mode_text = "r" if fd == 0 else "w"
            setattr(sys, name, open(fd, mode_text, encoding="utf-8", closefd=False))  # noqa: SIM115
    for stream in (sys.stdout, sys.stderr):
        errors = getattr(stream, "errors", None)
        if errors in ("strict", "surrogateescape") and hasattr(stream, "reconfigure"):
            stream.reconfigure(errors=ESCAPE_ERRORS)


def _no_display() -> str | None:
    """The sentence refusing to open the window where Qt has no display to open it on (a
    Linux session over SSH, a server): Qt itself would abort the process (exit 134) saying
    reinstalling may help (black-box bb2 F5). None where a display, or a platform chosen with
    QT_QPA_PLATFORM, is there, and off Linux and the BSDs, where the window needs neither."""
    if not sys.platform.startswith(("linux", "freebsd", "openbsd", "netbsd")):
        return None
    if any(os.environ.get(name) for name in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")):
        return None
    return (
        "There is no display to open the window on (neither DISPLAY nor WAYLAND_DISPLAY is set, "
        "as in a session over SSH): run dnc-desk in a desktop session, or use its subcommands "
        "here (dnc-desk --help)."
    )


def main(argv: Sequence[str] | None = None) -> int:
    if signal.getsignal(signal.SIGINT) is _early_interrupt:
        # From here on a Ctrl+C is a KeyboardInterrupt again, which the command answers.
        signal.signal(signal.SIGINT, signal.default_int_handler)
    process = argv is None  # the process's own command line: its streams are the process's too
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == [SHEET_WORKER_FLAG]:
        # A frozen bundle re-runs itself as the spreadsheet reader's child process; dispatch
        # before anything else so the child starts fast (no Qt, no config).
        from app.core import sheet_worker

        return sheet_worker.main(argv[1:])
    if process:
        usable_streams()
    chosen = _chosen_subcommand(argv)
    if chosen is None:
        return _run(argv, None)
    # A command stopped before it handles signals itself (loading its modules, reading the
    # file) still answers, as one JSON object under --json: SIGTERM is taken as Ctrl+C is.
    # The process's own run keeps its handlers to its end: restored, a Ctrl+C as the
    # interpreter exits would still print a traceback and change the exit status.
    json_output = "--json" in argv
    try:
        with _sigterm_interrupts(restore=not process):
            try:
                return _run(argv, chosen)
            except KeyboardInterrupt as exc:
                outcome_decided()  # a second Ctrl+C must not add a second refusal
                return _interrupted(exc, json_output=json_output, command=chosen, argv=argv)
    except KeyboardInterrupt as exc:
        # A SIGTERM taken the moment its handler was installed, within _sigterm_interrupts'
        # own set-up, before its block (the test sending it as soon as /proc shows it caught
        # met that once in CI: a traceback, exit 1). The handlers are put back already, and a
        # call in a test's process must not leave the outcome's on.
        if process:
            outcome_decided()
        return _interrupted(exc, json_output=json_output, command=chosen, argv=argv)


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where Ctrl+C raises KeyboardInterrupt (:func:`_sigterm_interrupts`)."""

    exit_status = 128 + signal.SIGTERM


class HungUp(Terminated):
    """SIGHUP (the terminal closed, an SSH connection dropped), taken as SIGTERM is."""

    exit_status = 128 + 1  # SIGHUP's number on every POSIX system (Windows has none)


# The signals that stop a command as Ctrl+C does: a job pauses, an export removes its partial
# file. SIGHUP killed an import at once, with no pause and no word, and left an export's
# ".part" file (black-box R5 #6).
STOP_SIGNALS: tuple[signal.Signals, ...] = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, name)
)


def stop_signals_taken() -> list[signal.Signals]:
    """The stop signals a command handles now: SIGTERM always, SIGINT and SIGHUP unless they
    are ignored, which only the process's starter does (nothing in the app ignores them).

    ``nohup dnc-desk import … &`` ignores SIGHUP so that closing the terminal leaves the job
    running, and a shell without job control starts ``… &`` with SIGINT ignored so that a
    Ctrl+C meant for the foreground passes it by: taking them anyway paused the job (or
    cancelled the export) when the terminal closed (black-box follow-up Q2). SIGTERM ignored
    by the starter is still taken: no terminal sends it, only someone stopping this process
    on purpose (``kill``, a service manager, a shutdown), who follows it with SIGKILL when it
    is not obeyed, which leaves a job's rows mid-send and no report instead of a clean pause.
    """
    return [
        sig
        for sig in STOP_SIGNALS
        if sig == signal.SIGTERM or signal.getsignal(sig) is not signal.SIG_IGN
    ]


def _raise_stop(signum: int, frame: FrameType | None) -> None:
    """A stop signal, before the command handles signals itself: raised as
    KeyboardInterrupt (Ctrl+C), :class:`Terminated` (SIGTERM) or :class:`HungUp` (SIGHUP) —
    except while a module is being imported, where it is taken once the import is over
    (:func:`_importing`)."""
    if _importing(frame):
        _take_after_import(signum)
        return
    if signum == getattr(signal, "SIGHUP", None):
        terminal_gone()
        raise HungUp
    if signum == signal.SIGTERM:
        raise Terminated
    raise KeyboardInterrupt


# The interpreter's import machinery: its frames' file names (a frozen bundle's too).
IMPORT_FRAMES = "<frozen importlib."
# How often the main thread is looked at while a stop signal waits for an import to end.
IMPORT_POLL = 0.002


def _importing(frame: FrameType | None) -> bool:
    """Whether ``frame`` (the main thread's, where a signal's handler runs) is within an import.

    An exception raised there may be lost or outlive its handling: an extension module's
    initialisation (lxml's, which openpyxl imports) runs Python code through the C API and
    writes an error from it off as "ignored", and Python then either drops the Ctrl+C (the
    command ran to its end, exit 0) or, its handling done and the refusal printed, still
    ends the process by SIGINT at its exit (exit -2 instead of 130); a weak reference's
    callback of the import machinery drops it too ("Exception ignored in ... _get_module_lock").
    """
    while frame is not None:
        if frame.f_code.co_filename.startswith(IMPORT_FRAMES):
            return True
        frame = frame.f_back
    return False


def _take_after_import(signum: int) -> None:
    """Deliver ``signum`` again once the main thread's import is over (its handler then
    decides again: a later import waits in turn)."""
    main_id = threading.main_thread().ident

    def again() -> None:
        while _importing(sys._current_frames().get(main_id or 0)):
            time.sleep(IMPORT_POLL)
        signal.raise_signal(signum)

    threading.Thread(target=again, name="dnc-signal-after-import", daemon=True).start()


@contextmanager
def signals_held() -> Iterator[None]:
    """Stop signals arriving within this block are taken when it ends, as they would have been
    at its start: for a step that must not be cut in two, such as making and removing a probe
    file (a SIGTERM between the two left ``OUT.part`` beside an export's ``--out``). Signals
    ignored stay ignored; outside the main thread this holds nothing."""
    held: list[int] = []

    def hold(signum: int, frame: FrameType | None) -> None:
        held.append(signum)

    try:
        previous = {
            sig: signal.signal(sig, hold)
            for sig in STOP_SIGNALS
            # None: a handler from outside Python, which cannot be put back from here.
            if signal.getsignal(sig) not in (signal.SIG_IGN, None)
        }
    except ValueError:  # not the main thread: its signals are not ours
        yield
        return
    try:
        yield
    finally:
        for sig, handler in previous.items():
            signal.signal(sig, handler)
        # The first held signal is what stopped the command; its handler may raise.
        for signum in dict.fromkeys(held):
            signal.raise_signal(signum)


def terminal_gone() -> None:
    """After SIGHUP: stdout and stderr that can no longer be written (a closed terminal
    answers every write with EIO) are pointed at the null device, so the job still pauses and
    its report is written, instead of the command failing on its first sentence. Streams
    redirected to a file or a pipe that still works are kept."""
    for fd in (1, 2):
        try:
            os.write(fd, b"")
        except OSError:
            with contextlib.suppress(OSError):
                null = os.open(os.devnull, os.O_WRONLY)
                os.dup2(null, fd)
                os.close(null)


def _ignore_after_outcome(signum: int, frame: FrameType | None) -> None:
    """A signal once the command's outcome is decided: it changes nothing (see
    :func:`outcome_decided`)."""


def outcome_decided() -> None:
    """From now on a signal neither adds output nor changes the exit status: the command's
    outcome is decided (a job that finished is finished) and is being printed.

    Ctrl+C just as a job ended, after its result was printed, added a second JSON object
    ``{"error": "Interrupted.", "exit_status": 130}`` and exited 130 (black-box R5 #3).
    :func:`main` restores the handlers as they were before the command when it returns.
    """
    with contextlib.suppress(ValueError):  # not the main thread: signals are not ours
        # Not those ignored by the starter (nohup): they stay ignored, for any child too.
        for sig in stop_signals_taken():
            signal.signal(sig, _ignore_after_outcome)


@contextmanager
def _sigterm_interrupts(*, restore: bool = True) -> Iterator[None]:
    """SIGTERM and SIGHUP raise :class:`Terminated` within this block, and Ctrl+C
    KeyboardInterrupt as it does, none of them within an import (:func:`_raise_stop`); with
    ``restore``, every stop signal's handler is as it was before when it ends.

    Ctrl+C is taken only from Python's own handler: one the caller installed is kept, and so
    is SIGINT ignored (a job started in the background with ``nohup … &``); SIGHUP ignored
    (``nohup``) stays ignored too (:func:`stop_signals_taken`)."""
    try:
        previous = {sig: signal.getsignal(sig) for sig in STOP_SIGNALS}
        # SIGINT's first: a Ctrl+C sent once SIGTERM is seen taken (/proc) meets ours.
        if previous[signal.SIGINT] is signal.default_int_handler:
            signal.signal(signal.SIGINT, _raise_stop)
        signal.signal(signal.SIGTERM, _raise_stop)
    except ValueError:  # not the main thread (main() called from a test's thread)
        yield
        return
    try:
        # Within the try: a stop taken from here on (SIGTERM's handler is ours already) still
        # puts the handlers back.
        if hasattr(signal, "SIGHUP") and signal.SIGHUP in stop_signals_taken():
            signal.signal(signal.SIGHUP, _raise_stop)
        yield
    finally:
        for sig, handler in previous.items() if restore else ():
            signal.signal(sig, handler)


# What a command stopped before its own handling of signals (its modules still loading) says
# when "Interrupted." alone leaves out what matters: export's is its own CANCELLED sentence,
# said at every stop (black-box Q2 #5: "Interrupted." did not say whether a file was written).
# An import or removal stopped while its modules load or its file is read has sent nothing,
# and says so as it does a moment later (black-box R5 #10: it said only "Interrupted.").
# The commands that read and write a file of their own say which (black-box B23 F8: a bare
# "Interrupted." left it unsaid whether a half-written pack or snapshot was kept); each stops
# taking signals once its file is in place, so "no file" stays true.
NOTHING_SENT = "Interrupted before the job started: nothing was sent."
INTERRUPTED: dict[str | None, str] = {
    "export": "Interrupted: the export was cancelled and no file was written.",
    "import": NOTHING_SENT,
    "remove": NOTHING_SENT,
    "audit": "Interrupted: the audit was cancelled; no report was written or recorded.",
    "health": "Interrupted: the health check was cancelled; it only reads the lists, so nothing "
    "was changed.",
    "evidence": "Interrupted: the evidence pack was cancelled and no file was written.",
    "snapshot": "Interrupted: the snapshot was cancelled and no snapshot file was saved.",
    "diff": "Interrupted: the comparison was cancelled and no differences file was written.",
    # It only reads job files and their locks: a bare "Interrupted." left that unsaid (FXG).
    "journal": "Interrupted: the journal command was cancelled; no export file was written "
    "and the journal was not changed.",
    "jobs": "Interrupted: the listing of jobs was cancelled; it only reads the job files, so "
    "nothing was changed.",
}


def interrupted_sentence(command: str | None) -> str:
    return INTERRUPTED.get(command, "Interrupted.")


def resumed_job(argv: Sequence[str]) -> str | None:
    """The job ``--resume`` names in ``argv`` as argparse reads it (``--resume=JOB``, or
    shortened to ``--res``: no other option of import or remove starts so), if any."""
    for i, arg in enumerate(argv):
        if arg == "--":
            break
        name, equals, value = arg.partition("=")
        if len(name) >= len("--res") and "--resume".startswith(name):
            if equals:
                return value
            return argv[i + 1] if i + 1 < len(argv) else None
    return None


def _resume_refused(command: str, job: str, status: int, *, json_output: bool) -> int:
    """A ``--resume`` stopped before its job's run began: it sent nothing, and the job, which
    may have sent thousands of rows before, is as it was: the sentence says so with its
    counts and how to resume it (black-box B14 F3: "before the job started: nothing was
    sent"). The job is read here, once the outcome is decided (a signal changes nothing)."""
    from app.cli.import_cmd import refuse_interrupted, resume_interrupted_named

    sentence, fields = resume_interrupted_named(command, job)
    return refuse_interrupted(sentence, fields, status, json_output=json_output)


def _interrupted(
    exc: KeyboardInterrupt, *, json_output: bool, command: str | None, argv: Sequence[str] = ()
) -> int:
    """A command interrupted before its own handling of signals: one sentence on stderr (and
    ``{"error", "exit_status"}`` under --json); 130 for Ctrl+C, 143 for SIGTERM, 129 for
    SIGHUP."""
    status = int(getattr(exc, "exit_status", 128 + signal.SIGINT))
    job = resumed_job(argv) if command in ("import", "remove") else None
    if command is not None and job is not None:
        status = _resume_refused(command, job, status, json_output=json_output)
        sys.stdout.flush()
        return status
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
        args = _parse(parser, argv)
    finally:
        _Parser.json_errors = False
    if args.command:
        from app.cli.connection_args import fail, json_refusals

        with json_refusals(bool(getattr(args, "json", False))):
            try:
                module = importlib.import_module(SUBCOMMANDS[args.command][0])
                status = int(module.run(args))
                outcome_decided()
                # Written out here, not at the interpreter's exit: output still buffered (a
                # pipe's, up to 8 KB) would meet a reader gone away (`… | head -c 0`) where no
                # handler is left, and print "Exception ignored … BrokenPipeError".
                sys.stdout.flush()
                return status
            except KeyboardInterrupt as exc:
                outcome_decided()  # a second Ctrl+C must not add a second refusal
                status = int(getattr(exc, "exit_status", 128 + signal.SIGINT))
                if args.command in ("import", "remove") and getattr(args, "resume", None):
                    status = _resume_refused(
                        args.command, args.resume, status, json_output=bool(args.json)
                    )
                else:
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
    if (missing := _no_display()) is not None:
        print(missing, file=sys.stderr)
        return 1
    from app.core.paths import DataFolderError
    from app.ui.application import run_gui

    try:
        return run_gui(sandbox=args.sandbox)
    except DataFolderError as exc:  # before the window opens: the terminal is all there is
        print(exc, file=sys.stderr)
        return 1


if __name__ == "__main__":
    raise SystemExit(main())
