"""``dnc-desk diff SNAPSHOT [SNAPSHOT]``: compare two snapshots, or a snapshot with the list now.

With one snapshot the same list and scope is read from the service (``--connection`` or
``--base-url``), as a snapshot reads it. Entries a copy could not read (an incomplete
snapshot) were never compared: the output, ``--json`` (``old_not_read``, ``new_not_read``) and
the Summary sheet say how many on each side (black-box pass Q2 #3: "0 added, 0 removed, 1
changed" said nothing of 1,739 entries on each side). Exit status: 0 no differences, every
entry compared; 3 differences found, or entries not compared; 1 failed (a snapshot missing, or
a file that is not one, as import says of a missing file); 2 a bad argument (copies of different
lists, scopes or services). The output, ``--json`` (``service``) and the Summary sheet name the
service the copies are of.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from app.api.errors import ApiError
from app.cli.audit_connection import (
    EXIT_FAILED,
    EXIT_FINDINGS,
    EXIT_OK,
    EXIT_USAGE,
    ConnectionProblem,
    add_connection_arguments,
    open_context,
)
from app.cli.connection_args import (
    CONNECTION_OPTIONS,
    CliError,
    describe_api_error,
    emit_json,
    fail,
    refuse_empty_options,
)
from app.cli.main import outcome_decided
from app.cli.output_paths import check_out_path
from app.core.paths import AppPaths, path_text

if TYPE_CHECKING:
    from app.core.snapshots import SnapshotData, SnapshotDiff, SnapshotEntry


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "snapshots", nargs="+", metavar="SNAPSHOT", help="one or two snapshot files"
    )
    parser.add_argument("--out", metavar="PATH.xlsx", help="write the differences to an xlsx file")
    parser.add_argument("--overwrite", action="store_true", help="replace a file already at --out")
    parser.add_argument("--json", action="store_true", help="print the differences as JSON")
    add_connection_arguments(parser)
    parser.epilog = (
        "Exit status: 0 no differences, every entry compared; 3 differences found (added, "
        "removed or changed entries), or entries an incomplete snapshot could not read were "
        "not compared (the output says how many); 1 failed; 2 a bad argument; 130, 143 or 129 "
        "stopped by Ctrl+C, SIGTERM or SIGHUP (no differences file written)."
    )


# (dest, option, what was not given, what to give, what leaving it out does): see
# app.cli.connection_args.refuse_empty_options.
_EMPTY_REFUSED = (
    # An empty name was looked for as a file and said "There is no snapshot file ."
    # (black-box B4 #A).
    (
        "snapshots",
        "diff",
        "a snapshot",
        "a snapshot file, or its name in the snapshots folder",
        "",
    ),
    (
        "out",
        "--out",
        "a path",
        "the .xlsx file to write the differences to",
        "to print them only",
    ),
)


def _fail(message: str, status: int) -> int:
    return fail(message, status, prefix="dnc-desk diff: ")


def _unsure(result: SnapshotDiff, entries: list[SnapshotEntry]) -> str:
    """How many of ``entries`` (added, or removed) are not certain, said after their count:
    per part, so a change in a part both copies read whole is not buried (black-box bb11 F7)."""
    unsure = sum(not result.certain(e) for e in entries)
    if not unsure:
        return ""
    some = "" if unsure == len(entries) else f"{unsure:,} "
    return f" ({some}not certain: the other copy is incomplete)"


def _resolve(name: str) -> Path:
    """A path as given, or a file name in the snapshots folder."""
    path = Path(name).expanduser()
    if not path.exists() and not path.is_absolute() and len(path.parts) == 1:
        candidate = AppPaths.default().snapshots_dir / path
        if candidate.exists():
            return candidate
    return path


def _snapshot_file(name: str) -> Path:
    """The snapshot file ``name`` names; a folder given is refused as one (it was "There is
    no snapshot file /tmp.", as if the path were not there)."""
    from app.core.snapshots import SnapshotError

    path = _resolve(name)
    if path.is_dir():
        raise SnapshotError(f"{path_text(path)} is a folder, not a snapshot file.")
    return path


def _now(args: argparse.Namespace, old: SnapshotData) -> SnapshotData:
    from app.core.snapshots import KIND_NAMES, fetch_list, same_service, scope_words

    ctx = open_context(args)
    try:
        # Refused before the list is read: a copy of another service is no baseline for it.
        now = f"{KIND_NAMES[old.kind]} {scope_words(old.scope)} now"
        same_service((old.label, old.base_url), (now, ctx.api.base_url))
        return fetch_list(ctx.api, old.kind, old.scope, connection=ctx.connection.name)
    except ApiError as exc:
        # A refused token as export and remove say it (black-box pass Q2 #5).
        sentence = describe_api_error(exc, ctx.connection, "The list could not be read")
        raise ConnectionProblem(sentence, EXIT_FAILED) from exc
    finally:
        ctx.close()


def run(args: argparse.Namespace) -> int:
    # Imported here: they pull in phonenumbers and openpyxl, which `dnc-desk --help`
    # (it builds every subcommand's options) should not pay for.
    from app.core.snapshots import (
        SnapshotError,
        diff,
        diff_json,
        load_snapshot,
        not_read_warning,
        write_diff_xlsx,
    )

    if len(args.snapshots) > 2:
        return _fail("Give one snapshot (compared with now) or two.", EXIT_USAGE)
    try:
        # Given empty, each would be taken as left out (black-box R4 #2).
        refuse_empty_options(args, (*_EMPTY_REFUSED, *CONNECTION_OPTIONS))
    except CliError as exc:
        return _fail(str(exc), exc.status)
    out = Path(args.out).expanduser() if args.out else None
    if out is not None and out.suffix.lower() != ".xlsx":
        return _fail("The differences file must be .xlsx (--out PATH.xlsx).", EXIT_USAGE)
    if out is not None:
        try:
            out = check_out_path(
                out,
                overwrite=args.overwrite,
                reads=[_resolve(name) for name in args.snapshots],
                what="differences file",
            )
        except CliError as exc:
            return _fail(str(exc), exc.status)
    try:
        # An input that cannot be read is 1 by the exit-status contract; two copies that
        # cannot be compared stay a bad pair of arguments, 2 (black-box B23 F6: a missing
        # snapshot was 2, a missing spreadsheet 1).
        copies = [load_snapshot(_snapshot_file(name)) for name in args.snapshots]
    except SnapshotError as exc:
        return _fail(str(exc), EXIT_FAILED)
    try:
        old = copies[0]
        new = copies[1] if len(copies) == 2 else _now(args, old)
        if new.taken_at < old.taken_at:
            old, new = new, old
        result = diff(old, new)
    except SnapshotError as exc:
        return _fail(str(exc), EXIT_USAGE)
    except ConnectionProblem as exc:
        return _fail(str(exc), exc.status)
    if out is not None:
        try:
            write_diff_xlsx(result, out)
            # In place now: a stop from here on changes nothing, as the interrupt's sentence
            # says no file was written (black-box B23 F8).
            outcome_decided()
        except OSError as exc:
            return _fail(f"The differences could not be written to {out} ({exc}).", EXIT_FAILED)
    if args.json:
        data = diff_json(result)
        data["report"] = str(out.resolve()) if out is not None else None
        emit_json(data)
    else:
        # Both copies are of this service (diff refuses copies of two): named, as the copies'
        # labels do not (black-box R4 #1).
        print(f"{result.old}\n  -> {result.new}\nService: {result.service}")
        # Re-test S2 #2: entries the newer copy could not read were counted as removed.
        added = f"{len(result.added):,} added{_unsure(result, result.added)}"
        removed = f"{len(result.removed):,} removed{_unsure(result, result.removed)}"
        print(f"{added}, {removed}, {len(result.changed):,} changed.")
        if out is not None:
            print(f"Differences: {out.resolve()}")
    warning = not_read_warning(result)
    if warning:
        print(f"Warning: {warning}", file=sys.stderr if args.json else sys.stdout)
    return EXIT_OK if result.empty and result.complete else EXIT_FINDINGS
