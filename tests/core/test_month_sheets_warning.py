"""A month-per-sheet workbook's other months are counted in a warning (session 32, fx1, on
black-box bb4 #7): 'Escalations' then 'Nov 2026' and 'Oct 2026', laid out alike, imported only
'Escalations', the 60 others named in one note. Other sheets laid out as the one read now get a
warning counting their rows with a phone number and giving the command for each; sheets laid
out otherwise (notes, a vendor's contacts, a DNC Desk report's Summary), hidden ones and a
removal keep the note. Staged from real xlsx files.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.api.scope import Scope
from app.core.job_staging import OTHER_SHEETS_WARNING, JobSettings, stage
from app.core.job_store import JobStore
from app.core.sheet_check import Target
from app.core.sheet_reader import open_sheet
from app.core.sheet_worker import PROBE_ROWS
from app.core.staging_notes import alike_sheets
from tests.core import sheet_factory as f

HEADER = ["Phone", "Name", "Date"]


@pytest.fixture(autouse=True)
def _dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("DNC_DESK_DATA_DIR", str(tmp_path / "data"))


def month(base: int, count: int) -> list[list[object]]:
    return [HEADER, *([f"(415) 555-{base + i:04d}", f"N {i}", "2026-10-01"] for i in range(count))]


def months(path: Path, **more: list[list[object]]) -> Path:
    return f.write_xlsx(
        path,
        month(100, 8),
        title="Escalations",
        more_sheets={"Nov 2026": month(200, 30), "Oct 2026": month(300, 30), **more},
    )


def staged(path: Path, tmp_path: Path, kind: str = "import") -> JobStore:
    job = JobSettings(path, Scope.global_(), target=Target.DNC, reason="consumer request")
    store, _ = stage(job, tmp_path / "jobs", kind=kind, connection=None)
    return store


def test_the_other_months_are_counted_in_a_warning_with_their_commands(tmp_path: Path) -> None:
    path = months(
        tmp_path / "opt outs.xlsx",
        Notes=[["Kept by the vendor"], ["Contact", "Phone"], ["Dana", "(415) 555-0999"]],
    )
    store = staged(path, tmp_path)
    assert store.counts()["pending"] == 8
    again = (
        f"dnc-desk import '{path}' --into dnc --scope global --reason 'consumer request' --sheet"
    )
    said = (
        "Sheets 'Nov 2026' and 'Oct 2026' of opt outs.xlsx, laid out as sheet 'Escalations', "
        "hold 60 more rows with a phone number (30 in 'Nov 2026', 30 in 'Oct 2026'), which are "
        f"not imported: only sheet 'Escalations' is read. To import them too, run {again} "
        f"'Nov 2026'; then {again} 'Oct 2026'"
    )
    warnings = list(store.meta()["warnings"])
    assert said in warnings
    assert store.meta()[OTHER_SHEETS_WARNING] == said
    # The vendor's Notes sheet, laid out otherwise, stays in the note, alone.
    assert [w for w in warnings if "also has a column" in w] == [
        "Sheet 'Notes' of opt outs.xlsx also has a column of phone numbers but is not "
        "imported: only sheet 'Escalations' is read. To import it, run the file again with "
        "--sheet NAME (as --sheet 'Notes')."
    ]


def test_a_sheet_past_the_rows_probed_is_counted_as_at_least(tmp_path: Path) -> None:
    path = f.write_xlsx(
        tmp_path / "long.xlsx",
        month(100, 8),
        title="Escalations",
        more_sheets={"Nov 2026": month(200, 300)},
    )
    with open_sheet(path, probe_others=True) as source:
        list(source.iter_rows())
        found = alike_sheets(source, tuple(HEADER), 0)
    assert [(s.name, s.rows, s.cut) for s in found] == [("Nov 2026", PROBE_ROWS - 1, True)]
    said = str(staged(path, tmp_path).meta()[OTHER_SHEETS_WARNING])
    assert f"holds at least {PROBE_ROWS - 1} more rows with a phone number" in said
    assert f"counted in the first {PROBE_ROWS} rows of each only" in said


def test_sheets_that_are_not_opt_out_data_get_no_warning(tmp_path: Path) -> None:
    # A DNC Desk report's Summary, a pivot of counts, instructions, a hidden old month and one
    # that says not to use it: none is the same data as the sheet read.
    path = f.write_xlsx(
        tmp_path / "book.xlsx",
        month(100, 8),
        title="Escalations",
        more_sheets={
            "Summary": [["Job", "import-1"], ["Rows", 8]],
            "Pivot": [["Month", "Count"], ["Nov 2026", 30], ["Oct 2026", 30]],
            "Instructions": [HEADER, ["(415) 555-0000", "Vendor desk", "2026-10-01"]],
            "DO NOT USE": month(400, 5),
        },
    )
    store = staged(path, tmp_path)
    assert OTHER_SHEETS_WARNING not in store.meta()
    assert not any("laid out as sheet" in w for w in store.meta().get("warnings") or [])


def test_a_removal_keeps_the_note(tmp_path: Path) -> None:
    # Numbers a removal leaves on the list are not the risk numbers an import leaves off are.
    path = months(tmp_path / "months.xlsx")
    store = staged(path, tmp_path, kind="removal")
    assert OTHER_SHEETS_WARNING not in store.meta()
    assert any("also have a column of phone numbers" in w for w in store.meta()["warnings"])


def test_a_sheet_of_the_other_list_or_of_contacts_gets_no_warning(tmp_path: Path) -> None:
    # Laid out alike, but "SMS Opt-outs" is the other list's and "Contacts" beside "DNC" are
    # the business's contacts: "import them too" into the DNC list would be wrong advice.
    path = f.write_xlsx(
        tmp_path / "lists.xlsx",
        month(100, 8),
        title="DNC",
        more_sheets={"SMS Opt-outs": month(200, 5), "Contacts": month(300, 5)},
    )
    store = staged(path, tmp_path)
    assert OTHER_SHEETS_WARNING not in store.meta()
    assert any("also have a column of phone numbers" in w for w in store.meta()["warnings"])
