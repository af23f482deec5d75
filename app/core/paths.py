"""Where DNC Desk keeps its configuration and its data on this machine.

A folder that cannot be used (on a read-only file system, a file where a folder should be, a
full disk) is refused by :meth:`AppPaths.ensure` with :class:`DataFolderError`, one sentence
naming the folder and what is wrong, before any command reads or sends anything (black-box
pass L4 #3: every command ended in ``OSError: [Errno 30] Read-only file system: '…/jobs'``).

The folders are absolute from the moment they are read: a relative ``DNC_DESK_DATA_DIR`` named
in a job file, a report or a resume command would point elsewhere from another folder
(black-box R5 #13), and ``~`` is expanded as a shell would.

:func:`path_text` is a path as text for people and for UTF-8 files: a file name that is not
valid UTF-8 (``bad\\xf1name.csv`` from an old zip or a Samba share, which Python holds with
surrogate escapes) has its undecodable bytes written as ``\\xNN``. Every report, journal entry,
job name, JSON answer and message names a path through it; the real path is kept only where the
file is opened again (black-box R5 #1: such a name crashed openpyxl, the journal's hash and
SQLite, each with "surrogates not allowed").
"""

from __future__ import annotations

import errno
import os
import re
import tempfile
from dataclasses import dataclass
from pathlib import Path

import platformdirs

APP_NAME = "dnc-desk"
CONFIG_ENV = "DNC_DESK_CONFIG_DIR"
DATA_ENV = "DNC_DESK_DATA_DIR"


class DataFolderError(Exception):
    """The data or configuration folder cannot be used; ``str()`` is one sentence for the user."""


@dataclass(frozen=True)
class AppPaths:
    """The two roots (config and data) and the well-known files below them.

    Connections live in the config dir (small, user-edited, may be roamed); the journal,
    job files, reports and the sandbox database live in the data dir (large, machine-local).
    """

    config_dir: Path
    data_dir: Path

    @property
    def journal_db(self) -> Path:
        return self.data_dir / "journal.sqlite3"

    @property
    def jobs_dir(self) -> Path:
        return self.data_dir / "jobs"

    @property
    def reports_dir(self) -> Path:
        return self.data_dir / "reports"

    @property
    def snapshots_dir(self) -> Path:
        return self.data_dir / "snapshots"

    @property
    def locks_dir(self) -> Path:
        """The run locks keyed by job id (:mod:`app.core.job_lock`), one per running job."""
        return self.data_dir / "locks"

    @property
    def sandbox_db(self) -> Path:
        return self.data_dir / "sandbox.sqlite3"

    @property
    def connections_file(self) -> Path:
        return self.config_dir / "connections.json"

    @classmethod
    def locate(cls) -> AppPaths:
        """The user's paths, without creating anything (to name them in a message)."""
        config = os.environ.get(CONFIG_ENV) or platformdirs.user_config_dir(APP_NAME)
        data = os.environ.get(DATA_ENV) or platformdirs.user_data_dir(APP_NAME)
        return cls(config_dir=_folder(config), data_dir=_folder(data))

    @classmethod
    def default(cls, stopped: str = "") -> AppPaths:
        """The user's paths, created if missing; the environment variables exist so tests and
        scripted runs can isolate themselves without touching the real profile. Raises
        :class:`DataFolderError` when a folder cannot be used."""
        paths = cls.locate()
        paths.ensure(stopped)
        return paths

    def ensure(self, stopped: str = "") -> None:
        """Create the directories (owner-only, since the journal names numbers and people);
        raises :class:`DataFolderError` when one cannot be. ``stopped``: what the refusal
        stops, for a command that sends nothing (``no job can be listed``; see
        :func:`unusable_folder`)."""
        roots = (
            (self.config_dir, "configuration folder", CONFIG_ENV, (self.config_dir,)),
            (
                self.data_dir,
                "data folder",
                DATA_ENV,
                (
                    self.data_dir,
                    self.jobs_dir,
                    self.reports_dir,
                    self.snapshots_dir,
                    self.locks_dir,
                ),
            ),
        )
        for root, noun, variable, directories in roots:
            for directory in directories:
                try:
                    directory.mkdir(parents=True, exist_ok=True, mode=0o700)
                except OSError as exc:
                    raise DataFolderError(
                        unusable_folder(root, noun, variable, directory, exc, stopped=stopped)
                    ) from exc

    def check_writable(self) -> None:
        """Raise :class:`DataFolderError` unless each folder of the data folder can be written
        (after :meth:`ensure`), naming what is written there: a command that opens the change
        journal writes it and its job files, reports, snapshots or run locks, and must refuse
        before it sends anything rather than fail on its first write."""
        for directory, needed in (
            (self.data_dir, "the change journal"),
            (self.jobs_dir, "job files"),
            (self.reports_dir, "reports"),
            (self.snapshots_dir, "snapshots"),
            (self.locks_dir, "run locks"),
        ):
            check_writable(self.data_dir, "data folder", DATA_ENV, directory, needed)


def _folder(given: str) -> Path:
    # absolute(), not resolve(): a folder reached through a symbolic link keeps the name the
    # user gave it in every message.
    return Path(given).expanduser().absolute()


def utf8_text(text: str) -> str:
    """``text`` with any lone surrogate (a byte Python could not decode, from a file name or a
    stray byte read with ``surrogateescape``) written as ``\\xNN``, so it can be encoded as
    UTF-8; valid text is returned as it is."""
    if text.isascii():  # most text, told without reading it
        return text
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        pass
    else:
        return text
    try:
        raw = text.encode("utf-8", "surrogateescape")  # the bytes of an undecoded file name
    except UnicodeEncodeError:
        raw = text.encode("utf-8", "surrogatepass")  # a surrogate that stood for no byte
    return raw.decode("utf-8", "backslashreplace")


def path_text(path: str | os.PathLike[str]) -> str:
    """``path`` as text to show or to write to a UTF-8 file (see the module's docstring)."""
    return utf8_text(os.fspath(path))


# Characters that steer a terminal rather than show: C0 (ESC starts a sequence that can recolour
# or clear the screen; a newline breaks a table row or fakes a line), DEL, C1, and the bidi
# overrides and isolates, which reorder what follows (black-box bb2 F16).
_TERMINAL_CONTROLS = re.compile("[\x00-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
_NAMED_CONTROLS = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _control_escape(match: re.Match[str]) -> str:
    char = match.group()
    return _NAMED_CONTROLS.get(char) or (
        f"\\x{ord(char):02x}" if ord(char) <= 0xFF else f"\\u{ord(char):04x}"
    )


def terminal_text(text: str) -> str:
    """``text`` (a file name, a note: text the user or a vendor chose) with each character that
    steers a terminal written as an escape (``\\x1b``, ``\\n``, ``\\u202e``), as undecodable
    bytes are written as ``\\xNN``, for a line printed to a terminal; ``--json`` keeps the
    characters themselves (JSON escapes them)."""
    return _TERMINAL_CONTROLS.sub(_control_escape, utf8_text(text))


def unusable_folder(
    root: Path,
    noun: str,
    variable: str,
    directory: Path,
    exc: OSError,
    needed: str = "",
    *,
    stopped: str = "",
) -> str:
    """One sentence: the folder (``root``, the data or configuration folder; named with its
    environment variable when that is where it came from) cannot be used, why, and what to do;
    ``needed`` names what the command had to write there (``the change journal``); ``stopped``
    what the refusal stops, said in place of "nothing was sent" by a command that never sends
    (black-box bb2 F3: ``jobs``)."""
    given = os.environ.get(variable)
    named = f" ({variable})" if given and _folder(given) == root else ""
    why, remedy = _why_unusable(root, directory, exc)
    verb = "Point" if named else "Set"
    joint = "at" if named else "to"
    for_what = f" to write {needed}" if needed else ""
    return (
        f"The {noun} {path_text(root)}{named} cannot be used{for_what}: {why}; "
        f"{stopped or 'nothing was sent'}. {verb} {variable} {joint} a folder that can be "
        f"written{remedy}."
    )


def check_writable(root: Path, noun: str, variable: str, directory: Path, needed: str) -> None:
    """Raise :class:`DataFolderError` unless a file can be made in ``directory`` (a folder of
    ``root``): a folder that exists on a read-only file system, or that the user may not
    write, is no error for mkdir but stops the first write, which for the change journal is
    SQLite's bare "unable to open database file" (black-box B35 F5/F6)."""
    try:
        handle, probe = tempfile.mkstemp(prefix=".write-check-", dir=directory)
    except OSError as exc:
        exc.filename = str(directory)  # the folder, not the probe's random name
        raise DataFolderError(
            unusable_folder(root, noun, variable, directory, exc, needed)
        ) from exc
    os.close(handle)
    os.unlink(probe)


def _is_file(path: Path) -> bool:
    try:
        return path.exists() and not path.is_dir()
    except OSError:  # a folder above it may not be read (permission denied)
        return False


def _in_words(root: Path, path: Path) -> str:
    """``path`` as the sentence about ``root`` names it: "it", "jobs inside it", or in full."""
    if path == root:
        return "it"
    if root in path.parents:
        return f"{path_text(path.relative_to(root))} inside it"
    return path_text(path)


def _why_unusable(root: Path, directory: Path, exc: OSError) -> tuple[str, str]:
    """Why ``directory`` (in ``root``) could not be made or written, and the remedy beside
    moving the folder elsewhere ("" when there is none the user can take): the advice differs
    for a file in the way, a read-only disk and a permission."""
    # A file where a folder should be: at the folder, inside it, or above it (FileExistsError,
    # or NotADirectoryError for a path through a file).
    for path in (directory, *directory.parents):
        if _is_file(path):
            return f"{_in_words(root, path)} is a file, not a folder", ", or move that file aside"
    failed = Path(exc.filename) if exc.filename else directory
    where = _in_words(root, failed)
    missing = not _exists(root)
    if exc.errno == errno.EROFS:
        # Nothing on that disk can be written: permissions would not help.
        if missing:
            return "it does not exist and cannot be created on a read-only file system", ""
        return "it is on a read-only file system", ", or mount its disk read-write"
    made = not missing and _exists(failed)
    if exc.errno == errno.EACCES:
        return (
            f"the app may not {'write to' if made else 'create'} {where} (permission denied)",
            ", or give this user write permission there",
        )
    if exc.errno == errno.EPERM:
        # Not the file mode (root is refused too): an immutable attribute or a security policy.
        return (
            f"{'writing to' if made else 'creating'} {where} is not permitted (an immutable "
            "attribute or a security policy)",
            ", or have that restriction lifted",
        )
    if exc.errno == errno.ENOSPC:
        return "the disk holding it is full", ", or free some space on its disk"
    if exc.errno == errno.EDQUOT:
        return "the disk quota of this user is used up", ", or free some of this user's space"
    return f"{exc.strerror or exc} ({path_text(failed)})", ", or make this one usable"


def _exists(path: Path) -> bool:
    try:
        return path.exists()
    except OSError:
        return False
