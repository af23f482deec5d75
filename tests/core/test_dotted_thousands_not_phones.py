"""An amount grouped in threes by dots ("200.000.000", as a European locale writes one) is no
phone number for the column finder unless the check reads it under the file's code (black-box
B24 F6: csvkit's locale test file, header "a,b,c" and one row '"1,7","200.000.000",', was
taken as a phone file of one invalid row, valid only as a French or Australian number, where
24 other files of no phone numbers are refused as having none). Dotted phone numbers are
still found: with their trunk 0 ("0201.123456", "030.1234567") or a group of four
("212.555.0147")."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings, MappingError
from app.core.sheet_mapping import propose_mapping
from app.core.sheet_types import CellValue, Row


def _phone(header: list[str] | None, *rows: list[CellValue], code: str = "1") -> int | None:
    sample: list[Row] = [(n + 2, list(cells)) for n, cells in enumerate(rows)]
    return propose_mapping(header, sample, code).phone


def test_the_csvkit_locale_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "test_locale.csv"
    path.write_text('a,b,c\n"1,7","200.000.000",\n', encoding="utf-8")
    with pytest.raises(MappingError, match="No column of phone numbers was found"):
        stage_import(JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None)


@pytest.mark.parametrize("header", [["a", "b"], None])
@pytest.mark.parametrize("amount", ["200.000.000", "1.500.000", "-12.345.678", "612.345.678"])
def test_dotted_thousands_are_no_phone_numbers(header: list[str] | None, amount: str) -> None:
    assert _phone(header, ["x", amount], ["y", amount]) is None


@pytest.mark.parametrize(
    "phone", ["0201.123456", "212.555.0147", "030.1234567", "+33.1.23.45.67.89"]
)
def test_dotted_phone_numbers_are_still_found(phone: str) -> None:
    assert _phone(["a", "b"], ["x", phone]) == 1


def test_dotted_threes_valid_under_the_files_code_are_phone_numbers() -> None:
    """Spain's 612 345 678, written with dots, under --phone-code 34."""
    assert _phone(["a", "b"], ["x", "612.345.678"], ["y", "699.111.222"], code="34") == 1
