"""With no sheet named, a hidden sheet is never read: not first (the reader skips it), and not
when the first visible sheet has no phone column and the others are tried (a vendor's
"Instructions" sheet first). A removal from a hidden sheet would take off the list numbers
nobody looking at the file has seen. When only hidden sheets have phone numbers, staging is
refused in one sentence naming them; a hidden sheet named (--sheet) is read, and said to be
hidden.

The tester's file: a visible "Instructions" sheet, a hidden "Old list" of phone numbers and a
visible "To remove" of phone numbers, in that order.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.api.scope import Scope
from app.cli.main import main
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings, MappingError
from app.core.job_store import JobStore
from app.core.removal_job import stage_removal
from app.core.sheet_check import Target
from app.core.sheet_reader import open_sheet
from app.core.sheet_types import SheetError
from tests.conftest import TOKEN
from tests.core.test_sheet_hidden_rows import ods_row, write_ods_xml

HIDDEN_NUMBER = "7025991034"
SHOWN_NUMBER = "2164390080"
HIDDEN_ONLY = (
    "No visible sheet of {file} has a column of phone numbers; the hidden sheet 'Old list' "
    "has one, but a hidden sheet is read only when named: to read it, "
)
HIDDEN_ONLY_CLI = HIDDEN_ONLY + "run the file again with --sheet 'Old list'."
HIDDEN_ONLY_ANY = (
    HIDDEN_ONLY + "choose it in the import wizard's Sheet list (or name it with --sheet "
    "'Old list' on the command line), or unhide it in the file."
)
HIDDEN_NOTE = (
    "Hidden sheet 'Old list' of {file} also has a column of phone numbers but is not {verb}: "
    "only sheet 'To remove' is read. To {take}, run the file again with --sheet NAME (as "
    "--sheet 'Old list')."
)
SHOWN_NOTE = (
    "Sheet 'To remove' of {file} also has a column of phone numbers but is not {verb}: only "
    "sheet 'Old list' is read. To {take}, run the file again with --sheet NAME (as --sheet "
    "'To remove')."
)
NAMED_NOTE = (
    "Sheet 'Old list' of {file} is hidden in the file; it was read because it was named (a "
    "hidden sheet is never read otherwise)."
)


def write_tester_xlsx(path: Path, shown_phones: bool = True) -> Path:
    """The tester's workbook; with ``shown_phones`` False, 'To remove' holds notes only."""
    wb = openpyxl.Workbook()
    first = wb.active
    assert first is not None
    first.title = "Instructions"
    first.append(["read me"])
    hidden = wb.create_sheet("Old list")
    hidden.append(["Phone"])
    hidden.append([HIDDEN_NUMBER])
    hidden.sheet_state = "hidden"
    shown = wb.create_sheet("To remove")
    if shown_phones:
        shown.append(["Phone"])
        shown.append([SHOWN_NUMBER])
    else:
        shown.append(["Notes"])
        shown.append(["nothing to remove this week"])
    wb.save(path)
    return path


def write_tester_ods(path: Path, shown_phones: bool = True) -> Path:
    """The same workbook as an OpenDocument spreadsheet written by hand: 'Old list' is hidden
    by its table style (``table:display="false"``), as LibreOffice writes a hidden sheet."""
    shown = (
        ods_row(["Phone"]) + ods_row([SHOWN_NUMBER])
        if shown_phones
        else ods_row(["Notes"]) + ods_row(["nothing to remove this week"])
    )
    return write_ods_xml(
        path,
        {
            "Instructions": ods_row(["read me"]),
            "Old list": ods_row(["Phone"]) + ods_row([HIDDEN_NUMBER]),
            "To remove": shown,
        },
        automatic_styles=(
            '<style:style style:name="ta1" style:family="table">'
            '<style:table-properties table:display="true"/></style:style>'
            '<style:style style:name="ta2" style:family="table">'
            '<style:table-properties table:display="false"/></style:style>'
        ),
        table_styles={"Instructions": "ta1", "Old list": "ta2", "To remove": "ta1"},
    )


WRITERS = {"xlsx": write_tester_xlsx, "ods": write_tester_ods}
KINDS = ["import", "removal"]


@pytest.fixture(params=sorted(WRITERS))
def fmt(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def stage_dry(kind: str, path: Path, tmp_path: Path, sheet: str | None = None) -> JobStore:
    """The file staged as an import (a dry run: nothing is sent) or a removal."""
    settings = JobSettings(path, Scope.global_(), target=Target.DNC, sheet=sheet)
    jobs = tmp_path / "jobs"
    if kind == "removal":
        store, _ = stage_removal(settings, jobs, connection=None)
    else:
        store, _ = stage_import(settings, jobs, connection=None)
    return store


@pytest.fixture
def stores() -> Iterator[list[JobStore]]:
    opened: list[JobStore] = []
    yield opened
    for store in opened:
        store.close()


def numbers(store: JobStore) -> list[str]:
    return [r.national for r in store.rows()]


def test_the_reader_names_the_hidden_sheets_as_it_opens(tmp_path: Path, fmt: str) -> None:
    path = WRITERS[fmt](tmp_path / f"hidsheet.{fmt}")
    with open_sheet(path) as source:  # no probe of the other sheets
        assert source.sheet_names == ("Instructions", "Old list", "To remove")
        assert source.sheet == "Instructions"
        assert source.notes.hidden_sheets == {"Old list"}
        assert source.notes.other_sheets is None
    with open_sheet(path, "To remove") as source:
        assert source.notes.hidden_sheets == {"Old list"}


@pytest.mark.parametrize("kind", KINDS)
def test_the_visible_sheet_is_read_not_the_hidden_one(
    tmp_path: Path, fmt: str, kind: str, stores: list[JobStore]
) -> None:
    path = WRITERS[fmt](tmp_path / f"hidsheet.{fmt}")
    store = stage_dry(kind, path, tmp_path)
    stores.append(store)
    meta = store.meta()
    assert meta["sheet"] == "To remove"
    assert numbers(store) == [SHOWN_NUMBER]
    verb, take = (
        ("removed", "remove its numbers") if kind == "removal" else ("imported", "import it")
    )
    assert meta.get("warnings") == [HIDDEN_NOTE.format(file=path.name, verb=verb, take=take)]


@pytest.mark.parametrize("kind", KINDS)
def test_only_a_hidden_sheet_of_phone_numbers_is_refused_naming_it(
    tmp_path: Path, fmt: str, kind: str
) -> None:
    path = WRITERS[fmt](tmp_path / f"hidonly.{fmt}", shown_phones=False)
    with pytest.raises(MappingError) as caught:
        stage_dry(kind, path, tmp_path)
    assert str(caught.value) == HIDDEN_ONLY_ANY.format(file=path.name)
    assert caught.value.cli_text == HIDDEN_ONLY_CLI.format(file=path.name)
    jobs = tmp_path / "jobs"
    assert not jobs.exists() or not any(jobs.iterdir())  # no job file left behind


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("shown_phones", [True, False])
def test_a_hidden_sheet_named_is_read_and_said_to_be_hidden(
    tmp_path: Path, fmt: str, kind: str, shown_phones: bool, stores: list[JobStore]
) -> None:
    path = WRITERS[fmt](tmp_path / f"hidsheet.{fmt}", shown_phones)
    store = stage_dry(kind, path, tmp_path, sheet="old list")  # as Excel matches names
    stores.append(store)
    meta = store.meta()
    assert meta["sheet"] == "Old list"
    assert numbers(store) == [HIDDEN_NUMBER]
    # A visible sheet of phone numbers beside the named one is named too (black-box bb14 W1).
    verb, take = (
        ("removed", "remove its numbers") if kind == "removal" else ("imported", "import it")
    )
    others = [SHOWN_NOTE.format(file=path.name, verb=verb, take=take)] if shown_phones else []
    assert meta.get("warnings") == [NAMED_NOTE.format(file=path.name), *others]


def test_a_visible_sheet_named_has_no_hidden_note(
    tmp_path: Path, fmt: str, stores: list[JobStore]
) -> None:
    # Not said to be hidden; but the hidden sheet's numbers, left off a job naming another
    # sheet, are named all the same: nothing else shows them (black-box bb14 W1).
    path = WRITERS[fmt](tmp_path / f"hidsheet.{fmt}")
    store = stage_dry("removal", path, tmp_path, sheet="To remove")
    stores.append(store)
    assert numbers(store) == [SHOWN_NUMBER]
    assert store.meta().get("warnings") == [
        HIDDEN_NOTE.format(file=path.name, verb="removed", take="remove its numbers")
    ]


def test_no_visible_sheet_with_data_names_the_hidden_one(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    blank = wb.active
    assert blank is not None
    blank.title = "Blank"
    hidden = wb.create_sheet("Old list")
    hidden.append(["Phone"])
    hidden.append([HIDDEN_NUMBER])
    hidden.sheet_state = "hidden"
    path = tmp_path / "blank.xlsx"
    wb.save(path)
    with pytest.raises(SheetError) as caught:
        open_sheet(path)
    assert str(caught.value) == (
        "blank.xlsx has no data in any visible sheet; its hidden sheet 'Old list' holds data "
        "but is read only when named (as --sheet 'Old list' on the command line) or once "
        "unhidden in the file."
    )
    with open_sheet(path, "Old list") as source:
        assert [list(c) for _, c in source.iter_rows()] == [["Phone"], [HIDDEN_NUMBER]]


# -- the command line -------------------------------------------------------------------------


def remove_dry(
    capsys: pytest.CaptureFixture[str], path: Path, *more: str
) -> tuple[int, dict[str, Any]]:
    argv = ["remove", str(path), "--scope", "global", "--dry-run", "--json", *more]
    code = main(argv)
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    return code, dict(json.loads(captured.out))


def test_remove_dry_run_reads_the_visible_sheet_and_refuses_a_hidden_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    path = write_tester_xlsx(tmp_path / "hidsheet.xlsx")
    code, data = remove_dry(capsys, path)
    assert code == 0
    assert (data["rows"], data["valid"]) == (1, 1)
    assert data["warnings"] == [
        HIDDEN_NOTE.format(file="hidsheet.xlsx", verb="removed", take="remove its numbers")
    ]
    report = openpyxl.load_workbook(data["report"], read_only=True)
    try:
        rows = list(report["Rows"].iter_rows(values_only=True))
    finally:
        report.close()
    assert HIDDEN_NUMBER not in str(rows) and "2164390080" in str(rows)

    only = write_tester_xlsx(tmp_path / "hidonly.xlsx", shown_phones=False)
    code, data = remove_dry(capsys, only)
    assert code != 0
    assert data["error"] == HIDDEN_ONLY_CLI.format(file="hidonly.xlsx")

    code, data = remove_dry(capsys, only, "--sheet", "Old list")
    assert code == 0 and (data["rows"], data["valid"]) == (1, 1)
    assert data["warnings"] == [NAMED_NOTE.format(file="hidonly.xlsx")]
