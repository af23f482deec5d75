"""Black-box pass P3 #8: a file with no phone numbers is refused, whatever its headers say.

A booking export's "BKG_NUM" of 7-digit ids and a "Number Off Bends" of counts were read as the
phone column (every row invalid, exit 0), while files like them were refused with "No column of
phone numbers was found". A workbook's other sheets of counts ("Number of patients …") were said
to "also have a column of phone numbers". A column none of whose sampled values is a phone
number, under a header that does not say phone, is not proposed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings, MappingError
from app.core.sheet_mapping import propose_from_preview
from tests.core.sheet_factory import write_xlsx


def _stage(tmp_path: Path, path: Path) -> dict[str, object]:
    settings = JobSettings(path, Scope.global_())
    store, _summary = stage_import(settings, tmp_path / "jobs", connection=None)
    try:
        return dict(store.meta())
    finally:
        store.close()


def _refusal(tmp_path: Path, path: Path) -> str:
    with pytest.raises(MappingError) as refused:
        _stage(tmp_path, path)
    return str(refused.value)


def test_a_booking_number_of_seven_digit_ids_is_not_the_phone_column(tmp_path: Path) -> None:
    rows: list[list[object]] = [["BKG_NUM", "BKG_DT", "REL_REASON"]]
    rows += [[4894831 + n, "2026-01-05", "Bail"] for n in range(12)]
    path = write_xlsx(tmp_path / "minimal_package.xlsx", rows)
    assert _refusal(tmp_path, path).startswith(
        "No column of phone numbers was found in minimal_package.xlsx"
    )


def test_a_column_of_counts_headed_number_is_not_the_phone_column(tmp_path: Path) -> None:
    path = tmp_path / "bends.csv"
    path.write_text(
        "Part,Material,Number Off Bends\n"
        + "".join(f"P{n},steel,{n % 7 + 1}\n" for n in range(20)),
        encoding="utf-8",
    )
    assert _refusal(tmp_path, path).startswith("No column of phone numbers was found in bends.csv")


def test_other_sheets_of_counts_are_not_said_to_hold_phone_numbers(tmp_path: Path) -> None:
    counts: list[list[object]] = [["Provider", "Number of patients spending >4 hours"]]
    counts += [[f"Trust {n}", 170121 + 37 * n] for n in range(10)]
    path = write_xlsx(
        tmp_path / "book.xlsx",
        [["Phone"], ["303-555-0101"], ["303-555-0102"]],
        title="Opt Outs",
        more_sheets={"Provider Level Data": counts, "Non-Booked Data": counts},
    )
    meta = _stage(tmp_path, path)
    assert meta["mapping"] == {"phone": "Phone (column A)"}
    warnings = meta.get("warnings", [])
    assert isinstance(warnings, list)
    assert not [w for w in warnings if "column of phone numbers" in w], warnings


@pytest.mark.parametrize(
    ("values", "read"),
    [
        # Local numbers written as such: the column is read and each row says what is missing.
        (["927-1234", "927-1235", "497-2345"], True),
        # Another country's numbers under the default +1: read, each row naming the code.
        (["020 7946 0958", "020 7946 0959", "0161 496 0000"], True),
        # Written with their code but no "+".
        (["447700900123", "447700900124"], True),
        # Ids that Germany's plan would take are no phone numbers for that.
        ([4894831, 4894832, 4894833], False),
    ],
)
def test_a_number_column_is_read_when_it_holds_a_phone_number(
    values: list[object], read: bool
) -> None:
    preview = [(1, ("Number", "Name"))] + [(n, (v, "Al")) for n, v in enumerate(values, 2)]
    assert (propose_from_preview(preview).phone == 0) is read


def test_a_headerless_column_of_local_numbers_is_still_read(tmp_path: Path) -> None:
    # With no header to say otherwise, 7 digits are local numbers, refused by name on each row.
    path = tmp_path / "local.csv"
    path.write_text("5551901\n5551902\n5551903\n", encoding="utf-8")
    meta = _stage(tmp_path, path)
    assert meta["mapping"] == {"phone": "column A"}


def test_a_header_saying_phone_is_read_whatever_it_holds(tmp_path: Path) -> None:
    path = tmp_path / "phones.csv"
    path.write_text("Phone,Name\n4894831,Al\n4894832,Bo\n", encoding="utf-8")
    assert _stage(tmp_path, path)["mapping"] == {"phone": "Phone (column A)"}
