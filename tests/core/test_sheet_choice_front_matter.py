"""With no sheet named, a sheet whose name says it is front matter ("Cover", "Instructions",
"README", "Contact info"…) is read only after the other visible sheets, and a warning says
which sheet was passed over and why (black-box Q1 #1: a vendor's "Cover" sheet, first, held
the vendor's two contact phones under "Phone"; the import read it, put the vendor's staff on
the DNC list and none of the 25 opt-outs on "Sheet2", which only a note named).

A sheet read unnamed that gives a handful of numbers while another visible sheet holds many
times more is not switched on size alone, but a warning first in the list names both and the
--sheet to use.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.api.scope import Scope
from app.core.job_staging import JobSettings, stage
from app.core.job_store import JobStore
from app.core.sheet_check import Target
from app.core.sheet_worker import front_matter_sheet, usable_first
from tests.core.sheet_factory import write_sheets

COVER = [
    ["Vendor DNC delivery - November 2026"],
    [],
    ["Contact", "Role", "Phone"],
    ["Mark Vendor", "Account manager", "(312) 555-0190"],
    ["Sue Vendor", "Support", "(312) 555-0191"],
    [],
    ["Records delivered", 25],
]
OPT_OUTS = [["Lead ID", "Phone", "Source"]] + [
    [9000 + i, f"(206) 555-61{i:02d}", "IVR"] for i in range(25)
]
OPT_OUT_NUMBERS = [f"20655561{i:02d}" for i in range(25)]


def staged(path: Path, tmp_path: Path, kind: str = "import", sheet: str | None = None) -> JobStore:
    job = JobSettings(path, Scope.global_(), target=Target.DNC, sheet=sheet)
    store, _ = stage(job, tmp_path / "jobs", kind=kind, connection=None)
    return store


def numbers(store: JobStore) -> list[str]:
    return [r.national for r in store.rows() if r.national]


def warnings(store: JobStore) -> list[str]:
    return [str(w) for w in store.meta().get("warnings") or []]


@pytest.mark.parametrize(
    "name",
    [
        "Cover",
        "Cover sheet",
        "Cover Page",
        "Instructions",
        "1. Instructions",
        "Read me",
        "README",
        "ReadMe First",
        "About",
        "Info",
        "Notes",
        "Contact info",
        "Vendor contact",
        "Vendor Contacts",
        "Title",
        "Summary",
    ],
)
def test_names_of_front_matter(name: str) -> None:
    assert front_matter_sheet(name)


@pytest.mark.parametrize(
    "name",
    ["Contacts", "Contact", "Sheet1", "Opt-out notes", "Coverage", "DNC", "Summary of DNC"],
)
def test_names_of_lists(name: str) -> None:
    assert not front_matter_sheet(name)


def test_front_matter_comes_after_other_sheets_and_before_those_set_aside() -> None:
    names = ["Cover", "DO NOT USE", "Sheet2", "README", "Data"]
    assert usable_first(names) == ["Sheet2", "Data", "Cover", "README", "DO NOT USE"]


@pytest.mark.parametrize("kind", ["import", "removal"])
def test_a_cover_sheet_first_is_passed_over_and_said_so(tmp_path: Path, kind: str) -> None:
    # The shape of the finding's cover_then_data.xlsx.
    path = write_sheets(tmp_path / "cover_then_data.xlsx", {"Cover": COVER, "Sheet2": OPT_OUTS})
    store = staged(path, tmp_path, kind)
    assert store.meta()["sheet"] == "Sheet2"
    assert numbers(store) == OPT_OUT_NUMBERS
    listed = "list of numbers to remove" if kind == "removal" else "list to import"
    assert (
        "Sheet 'Cover' of cover_then_data.xlsx comes before sheet 'Sheet2' and has a column of "
        "phone numbers, but was passed over: its name says it is a cover, instructions or "
        "contact sheet, whose numbers are most often the sender's own, not a list; sheet "
        f"'Sheet2' was read instead. If it is the {listed}, run the file again with --sheet "
        "'Cover'."
    ) in warnings(store)
    store.close()


def test_a_named_cover_sheet_is_read_without_a_word_on_it(tmp_path: Path) -> None:
    path = write_sheets(tmp_path / "book.xlsx", {"Cover": COVER, "Sheet2": OPT_OUTS})
    store = staged(path, tmp_path, sheet="cover")
    assert numbers(store) == ["3125550190", "3125550191"]
    assert not [w for w in warnings(store) if "passed over" in w or "Check the sheet" in w]
    store.close()


def test_front_matter_alone_with_numbers_is_read(tmp_path: Path) -> None:
    path = write_sheets(
        tmp_path / "book.xlsx",
        {"README": [["Phone"], ["3035550101"], ["3035550102"]], "Sheet2": [["Lookup"], ["x"]]},
    )
    store = staged(path, tmp_path)
    assert store.meta()["sheet"] == "README"
    assert numbers(store) == ["3035550101", "3035550102"]
    store.close()


def test_front_matter_is_read_before_a_sheet_set_aside(tmp_path: Path) -> None:
    path = write_sheets(
        tmp_path / "book.xlsx",
        {"DO NOT USE": [["Phone"], ["3035550101"]], "Notes": [["Phone"], ["3035550102"]]},
    )
    store = staged(path, tmp_path)
    assert store.meta()["sheet"] == "Notes"
    store.close()


def test_a_contacts_sheet_is_still_read_first(tmp_path: Path) -> None:
    # "Contacts" is a list's name, not front matter: a removal reads it as before.
    contacts = [["Name", "Phone"], ["a", "3035550101"], ["b", "3035550102"]]
    path = write_sheets(tmp_path / "book.xlsx", {"Contacts": contacts, "Sheet2": OPT_OUTS[:4]})
    store = staged(path, tmp_path, "removal")
    assert store.meta()["sheet"] == "Contacts"
    assert not [w for w in warnings(store) if "passed over" in w]
    store.close()


def test_a_handful_read_beside_many_more_is_warned_about_first(tmp_path: Path) -> None:
    vendor = [["Contact", "Phone"], ["Mark", "(312) 555-0190"], ["Sue", "(312) 555-0191"]]
    path = write_sheets(tmp_path / "book.xlsx", {"Vendor": vendor, "Sheet2": OPT_OUTS})
    store = staged(path, tmp_path)
    # Not switched on size alone.
    assert store.meta()["sheet"] == "Vendor"
    assert numbers(store) == ["3125550190", "3125550191"]
    assert warnings(store)[0] == (
        "Check the sheet: only 2 phone numbers were read, from sheet 'Vendor' of book.xlsx, "
        "while sheet 'Sheet2' holds 25. Only sheet 'Vendor' is imported; if the list is on "
        "sheet 'Sheet2', run the file again with --sheet 'Sheet2'."
    )
    store.close()


def test_a_long_other_sheet_is_counted_as_far_as_it_was_looked_at(tmp_path: Path) -> None:
    vendor = [["Contact", "Phone"], ["Mark", "(312) 555-0190"]]
    many = [["Phone"]] + [[f"30355{i:05d}"] for i in range(2000, 2300)]
    path = write_sheets(tmp_path / "book.xlsx", {"Vendor": vendor, "List": many})
    store = staged(path, tmp_path, "removal")
    first = warnings(store)[0]
    assert first.startswith(
        "Check the sheet: only 1 phone number was read, from sheet 'Vendor' of book.xlsx, "
        "while sheet 'List' holds at least "
    )
    assert "Only sheet 'Vendor' is removed; if the list is on sheet 'List'" in first
    store.close()


@pytest.mark.parametrize(
    ("read", "other"),
    [(2, 9), (6, 60), (3, 14)],  # too few elsewhere; not a handful read; not five times more
)
def test_no_such_warning_when_the_sizes_do_not_say_so(
    tmp_path: Path, read: int, other: int
) -> None:
    first = [["Phone"]] + [[f"30355501{i:02d}"] for i in range(read)]
    second = [["Phone"]] + [[f"30355502{i:02d}"] for i in range(other)]
    path = write_sheets(tmp_path / "book.xlsx", {"First": first, "Second": second})
    store = staged(path, tmp_path)
    assert store.meta()["sheet"] == "First"
    assert not [w for w in warnings(store) if w.startswith("Check the sheet")]
    store.close()


def test_no_such_warning_when_the_sheet_is_named(tmp_path: Path) -> None:
    vendor = [["Contact", "Phone"], ["Mark", "(312) 555-0190"], ["Sue", "(312) 555-0191"]]
    path = write_sheets(tmp_path / "book.xlsx", {"Vendor": vendor, "Sheet2": OPT_OUTS})
    store = staged(path, tmp_path, sheet="Vendor")
    assert not [w for w in warnings(store) if w.startswith("Check the sheet")]
    store.close()


def test_an_opt_out_sheet_read_is_not_doubted_for_a_longer_contacts_sheet(
    tmp_path: Path,
) -> None:
    contacts = [["Name", "Phone"]] + [[f"c{i}", f"30355503{i:02d}"] for i in range(30)]
    opt_outs = [["Phone"], ["3035550401"], ["3035550402"]]
    path = write_sheets(tmp_path / "book.xlsx", {"Contacts": contacts, "Opt Outs": opt_outs})
    store = staged(path, tmp_path)
    assert store.meta()["sheet"] == "Opt Outs"
    assert not [w for w in warnings(store) if w.startswith("Check the sheet")]
    store.close()
