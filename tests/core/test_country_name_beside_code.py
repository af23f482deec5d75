"""Country cells giving a name and its calling code as web-form dropdowns write them ("UK
(+44)", "+44 UK", "44 - United Kingdom") are read when the two agree (black-box B22 F5: they
were refused as unknown countries, while "44 (UK)" and "Mexico (MX)" were read)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.phones import normalize_code


@pytest.mark.parametrize(
    ("cell", "code"),
    [
        ("UK (+44)", "44"),
        ("United Kingdom (+44)", "44"),
        ("U.K. (+44)", "44"),
        ("+44 UK", "44"),
        ("+44 United Kingdom", "44"),
        ("44 - United Kingdom", "44"),
        ("44 \u2013 United Kingdom", "44"),
        ("+33 - France", "33"),
        ("United Kingdom +44", "44"),
        ("Germany - 49", "49"),
        ("+1 USA", "1"),
        ("Jamaica (+1 876)", "1"),
        ("Guernsey (+44)", "44"),
    ],
)
def test_a_name_beside_its_code_gives_the_code(cell: str, code: str) -> None:
    assert normalize_code(cell) == code


@pytest.mark.parametrize(
    "cell",
    ["UK (+1)", "+52 UK", "49 - France", "Mexico +44", "44 UK", "+44 Atlantis", "+44 (0)"],
)
def test_a_name_and_code_that_disagree_or_stand_alone_give_none(cell: str) -> None:
    assert normalize_code(cell) is None


def test_dropdown_values_in_a_country_column_are_read(tmp_path: Path) -> None:
    path = tmp_path / "web_form.csv"
    path.write_text(
        "Phone,Country\n"
        "07911 123448,United Kingdom (+44)\n"
        "07911 123449,+44 UK\n"
        "07911 123450,44 - United Kingdom\n"
        "030 1234567,Germany (+49)\n"
        "07911 123451,UK (+1)\n",
        encoding="utf-8",
    )
    store, summary = stage_import(
        JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None
    )
    rows = {r.original: (r.phone_code, r.national, r.message) for r in store.rows()}
    store.close()
    assert rows["07911 123448"][:2] == ("44", "7911123448")
    assert rows["07911 123449"][:2] == ("44", "7911123449")
    assert rows["07911 123450"][:2] == ("44", "7911123450")
    assert rows["030 1234567"][:2] == ("49", "301234567")
    # The name and the code disagree: the cell names no sure country, and the row says so,
    # naming the cell and its column as headed (black-box bb12 F6).
    assert rows["07911 123451"][2] == (
        "row 6: Country: cell B6 'UK (+1)': the name (United Kingdom, +44) and the code (+1) "
        "disagree: write one of them (United Kingdom or +1), and import the file again"
    )
    assert summary.invalid == 1, rows
