"""Row tags as LibreOffice writes them: every one carries ``hidden="false"`` and a height.

The scan used to test each tag holding the word "hidden" (every row of a LibreOffice file),
which cost 0.3 s per 100,000 rows before the first row could be sent. It now looks only where a
tag may hide its row; these tests pin that the rows it finds are still exactly the hidden ones,
whichever way the attributes are written."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core import sheet_worker
from app.core.sheet_reader import open_sheet
from tests.core import sheet_factory as f

LO_ATTRS = ' customFormat="false" ht="15" hidden="false" customHeight="false" outlineLevel="0"'


def lo_row(number: int, value: object, attributes: str = LO_ATTRS) -> str:
    return f'<row r="{number}"{attributes}>{f.cell(f"A{number}", value)}</row>'


def sheet_xml(rows: str) -> str:
    return f"{f.SHEET_HEAD}<sheetData>{rows}</sheetData></worksheet>"


def hidden_rows(path: Path) -> set[int]:
    with open_sheet(path) as source:
        list(source.iter_rows())
        assert source.notes.hidden_known
        return set(source.notes.hidden_rows)


def test_libreoffice_rows_marked_not_hidden_are_shown_and_its_hidden_rows_found(
    tmp_path: Path,
) -> None:
    rows = (
        lo_row(1, "Phone")
        + "".join(lo_row(n, 2025550100 + n) for n in range(2, 400))
        + lo_row(400, 2025550400, LO_ATTRS.replace('hidden="false"', 'hidden="true"'))
        + lo_row(401, 2025550401, ' ht="0" hidden="false" customHeight="true"')
        + lo_row(402, 2025550402, ' ht="0" hidden="false" customHeight="false"')
        + lo_row(403, 2025550403)
    )
    path = f.write_raw_xlsx(tmp_path / "lo.xlsx", sheet_xml(rows))
    assert hidden_rows(path) == {400, 401}


def test_a_zero_height_written_with_spaces_or_as_a_decimal_hides_its_row(tmp_path: Path) -> None:
    # XML allows space around "=" and in the value; the old hint (ht="0 exactly) missed these.
    rows = (
        lo_row(1, "Phone", "")
        + lo_row(2, 2025550102, ' ht = "0" customHeight="1"')
        + lo_row(3, 2025550103, " ht=' 0' customHeight='1'")
        + lo_row(4, 2025550104, ' ht=".0" customHeight="1"')
        + lo_row(5, 2025550105, ' ht="0.5" customHeight="1"')  # small, not hidden
        + lo_row(6, 2025550106, ' hidden = "1"')
        + lo_row(7, 2025550107, ' ht="10" customHeight="1"')
    )
    path = f.write_raw_xlsx(tmp_path / "spaces.xlsx", sheet_xml(rows))
    assert hidden_rows(path) == {2, 3, 4, 6}


def test_the_scan_tests_no_tag_of_a_sheet_that_hides_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Every row says hidden="false" and has a height: none may hide its row, so no tag is
    # looked at one by one (that was the 0.3 s per 100,000 rows).
    rows = lo_row(1, "Phone") + "".join(lo_row(n, 2025550000 + n) for n in range(2, 3000))
    path = f.write_raw_xlsx(tmp_path / "plain.xlsx", sheet_xml(rows))
    tested: list[bytes] = []
    real = sheet_worker._row_hidden

    def counting(attributes: bytes) -> bool:
        tested.append(attributes)
        return real(attributes)

    monkeypatch.setattr(sheet_worker, "_row_hidden", counting)
    scan = sheet_worker.open_scan(str(path), "Sheet1")
    assert isinstance(scan, sheet_worker.XmlScan)
    scan.read_to_end()
    assert scan.hidden == [] and not scan.failed
    assert tested == []
