"""Black-box finding: a header-less file of labelled numbers ("Mobile: 303-555-2401",
"303-555-2402 (cell)", "Home 303-555-2403") was refused with "No column of phone numbers",
though the same cells under a "Phone" header were read. With no header naming it, the
phone column is found by content; a labelled cell counts there as the check reads it (the
phone module reads the number without its label), while words around an id, an order number
or a fax number still make it no phone number."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.api.scope import Scope
from app.cli.main import main
from app.core.job_staging import JobSettings, MappingError, open_mapped
from app.core.sheet_header import detect_header
from app.core.sheet_mapping import other_phone_columns, propose_from_preview
from app.core.sheet_types import CellValue, Row

# The tester's cells.
LABELLED = ["Mobile: 303-555-2401", "303-555-2402 (cell)", "Home 303-555-2403"]


def numbered(*rows: list[CellValue]) -> list[Row]:
    return [(i, row) for i, row in enumerate(rows, 1)]


def dry_run(capsys: pytest.CaptureFixture[str], path: Path, *extra: str) -> tuple[int, dict, str]:
    argv = ["import", str(path), "--into", "dnc", "--scope", "global", "--dry-run", "--json"]
    code = main([*argv, *extra])
    captured = capsys.readouterr()
    out = captured.out.strip()
    return code, (json.loads(out) if out else {}), captured.err.strip()


def test_a_headerless_column_of_labelled_numbers_is_the_phone_column() -> None:
    rows = numbered(*([cell] for cell in LABELLED))
    # The first labelled cell is data, not a header: every row is read.
    assert detect_header(rows) is None
    mapping = propose_from_preview(rows)
    assert (mapping.header_row, mapping.phone) == (None, 0)


def test_the_labelled_column_beside_names_is_found() -> None:
    rows = numbered(
        *([name, cell] for name, cell in zip(["Ann", "Bob", "Cy"], LABELLED, strict=True))
    )
    assert detect_header(rows) is None
    assert propose_from_preview(rows).phone == 1


@pytest.mark.parametrize("extra", [[], ["--phone-column", "column:A"]])
def test_the_cli_reads_every_row_as_under_a_phone_header(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], extra: list[str]
) -> None:
    bare = tmp_path / "labelled.csv"
    bare.write_text("".join(f"{cell}\n" for cell in LABELLED))
    code, data, err = dry_run(capsys, bare, *extra)
    assert code == 0, err
    assert (data["rows"], data["valid"], data["invalid"]) == (3, 3, 0)
    assert data["mapping"] == {"phone": "column A"}
    headed = tmp_path / "headed.csv"
    headed.write_text("Phone\n" + bare.read_text())
    code, same, err = dry_run(capsys, headed)
    assert code == 0, err
    assert (same["rows"], same["valid"], same["invalid"]) == (3, 3, 0)


@pytest.mark.parametrize(
    "cells",
    [
        ["Order 3035552405", "Order 3035552406", "Order 3035552407"],
        ["ID 3035552405", "ID: 3035552406", "ID 3035552407"],
        ["#3035552405", "#3035552406", "#3035552407"],
        ["Ref 3035552405", "Acct 3035552406", "Ticket 3035552407"],
        ["Zip 80202", "Zip 80203", "Zip 80204"],
        ["Fax: 303-555-2405", "303-555-2406 (fax)", "Fax 303-555-2407"],
    ],
)
def test_words_around_an_id_or_a_fax_number_make_no_phone_column(
    tmp_path: Path, cells: list[str]
) -> None:
    rows = numbered(*([cell] for cell in cells))
    assert propose_from_preview(rows).phone is None
    path = tmp_path / "ids.csv"
    path.write_text("".join(f"{cell}\n" for cell in cells))
    with pytest.raises(MappingError, match="No column of phone numbers"):
        open_mapped(path, JobSettings(file=path, scope=Scope.global_()))


def test_labelled_numbers_beat_a_column_of_worded_ids() -> None:
    rows = numbered(*([f"Order 30355524{i:02d}", f"Cell: 720-555-01{i:02d}"] for i in range(6)))
    assert propose_from_preview(rows).phone == 1


def test_a_phone_header_of_labelled_numbers_is_read_beside_bare_ten_digit_ids() -> None:
    # The "Phone" column counted as holding no number, so a column of bare ten-digit
    # account numbers beside it made the proposal drop it; the file was refused.
    rows = numbered(
        ["Account", "Phone"],
        *([f"30355599{i:02d}", f"Mobile: 720-555-01{i:02d}"] for i in range(6)),
    )
    assert propose_from_preview(rows).phone == 1


def test_a_second_column_of_labelled_numbers_is_named_as_unread() -> None:
    rows = numbered(
        ["Phone", "Other"],
        *([f"303555{i:04d}", f"Home: 720-555-01{i:02d}"] for i in range(6)),
    )
    mapping = propose_from_preview(rows)
    assert mapping.phone == 0
    assert other_phone_columns(mapping, rows[1:]) == [1]
