"""A text file whose cells are wrapped in single quotes, as LibreOffice writes a CSV with ' as
its "Text delimiter", is read without them (black-box B2 #8: "'Mobile' (column A)", "under the
''Country'' cell's ''United Kingdom''"); apostrophes in names (O'Brien) and before digits
('0123, Excel's mark of a text cell) are text, never taken for quoting."""

from __future__ import annotations

from pathlib import Path

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.sheet_csv import CsvSource, sniff_quote

# The shape of the finding's lo_pipe_squote.csv.
LIBREOFFICE = (
    "'Mobile'|'Name'|'Zip'|'Account Number'|'Received'|'Amount'|'Country'\n"
    "3036193600|'Ana'|'02134'|'00412345678'|2026-11-10|1234.5|'US'\n"
    "3036193601|'Ben'|'80202'|'4155238886'|2026-11-11|99.99|'United States'\n"
    "2079460959|'Dan'|'EC1A 1BB'|'12345'|2026-11-12|10|'United Kingdom'\n"
    "3036193603|'O''Brien | Sons'|'80203'|'2125550143'|2026-11-13|1000000|'USA'\n"
)


def _rows(path: Path) -> list[list[str | None]]:
    with CsvSource(path) as source:
        return [list(cells) for _, cells in source.iter_rows()]  # type: ignore[arg-type]


def test_a_libreoffice_single_quoted_file_is_read_without_its_quotes(tmp_path: Path) -> None:
    path = tmp_path / "lo_pipe_squote.csv"
    path.write_text(LIBREOFFICE, encoding="utf-8")
    rows = _rows(path)
    assert rows[0] == ["Mobile", "Name", "Zip", "Account Number", "Received", "Amount", "Country"]
    assert rows[3][1:3] == ["Dan", "EC1A 1BB"]
    # A quote doubled inside a quoted cell is one, and the delimiter inside it is text.
    assert rows[4][:2] == ["3036193603", "O'Brien | Sons"]
    store, summary = stage_import(
        JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None
    )
    with store:
        meta = store.meta()
        row = {r.row_number: r for r in store.rows()}[4]
    assert (summary.valid, summary.invalid) == (4, 0)
    assert meta["mapping"]["phone"] == "Mobile (column A)"
    assert row.phone_code == "44"
    assert "under the 'Country' cell's 'United Kingdom' (column G)" in row.message


def test_a_comma_file_quoted_so_is_split_at_its_commas_only(tmp_path: Path) -> None:
    path = tmp_path / "single.csv"
    path.write_text(
        "'Phone','Name','Notes'\n'3035550101','Lee, Ann','stop'\n'3035550102','Bo','x, y'\n",
        encoding="utf-8",
    )
    assert _rows(path) == [
        ["Phone", "Name", "Notes"],
        ["3035550101", "Lee, Ann", "stop"],
        ["3035550102", "Bo", "x, y"],
    ]


def test_apostrophes_in_names_and_before_digits_are_text(tmp_path: Path) -> None:
    path = tmp_path / "names.csv"
    path.write_text(
        "Phone,Name,Account\n"
        "'0123456789,O'Brien,'0042\n"
        "3035550102,D'Arcy,'0043\n"
        "3035550103,'Tis Ann',7\n",
        encoding="utf-8",
    )
    assert _rows(path) == [
        ["Phone", "Name", "Account"],
        ["'0123456789", "O'Brien", "'0042"],
        ["3035550102", "D'Arcy", "'0043"],
        ["3035550103", "'Tis Ann'", "7"],
    ]


def test_the_double_quote_is_kept_when_the_file_uses_it() -> None:
    # Cells holding a quoted phrase ('yes') inside double quotes are not single-quoted cells.
    text = "Phone,Note,Reason\n\"3035550101\",\"'yes'\",\"'stop'\"\n3035550102,'no','x'\n"
    assert sniff_quote(text, ",") == '"'
    assert sniff_quote("Phone|Name\n3035550101|'Ann'\n", "|") == '"'  # two cells: too few
    assert sniff_quote("'Phone'|'Name'\n3035550101|'Ann'\n3035550102|'Bo'\n", "|") == "'"
