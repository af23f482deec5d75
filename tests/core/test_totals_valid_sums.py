"""A table's total line whose value happens to be a valid phone number is invalid as a total
line, not imported as a consumer's number (black-box B26 F1): its value is the sum (or, under a
label, the average) of the phone numbers above it, or it is a number cell under a total's label.
A consumer's row is never taken for one because a cell of it says "Total"."""

from __future__ import annotations

import datetime as dt
import re
import zipfile
from pathlib import Path

import openpyxl
import pytest
from openpyxl.worksheet.table import Table, TableColumn

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.sheet_check import CheckOptions, Outcome, check_all
from app.core.sheet_mapping import ColumnMapping
from app.core.sheet_types import CellValue, Row
from tests.core.sheet_factory import write_csv, write_sheets

# Four US numbers summing to 9202843994, a valid US number (+1 920-284-3994).
FOUR = [2025550147, 3036193603, 2125550111, 2015550133]
SUM4 = 9202843994
# Five summing to 12238394094, read as +1 223-839-4094.
FIVE = [*FOUR, 3035550100]
SUM5 = 12238394094
DAY = dt.datetime(2026, 11, 20)

SUM_SAID = (
    "the row's {value} is the sum of the {count} phone numbers above it (rows {rows}): a "
    "table's total line, not a consumer's number"
)


def _check(
    rows: list[list[CellValue]], *, dated: bool = False, text: bool = False, removal: bool = False
) -> dict[int, tuple[Outcome, str]]:
    """Verdicts by row of ``rows`` under the header Name | Phone (| Date: every row then goes
    through check(), not check_plain's inline path)."""
    headers = ["Name", "Phone", *(["Date"] if dated else [])]
    mapping = ColumnMapping(
        header_row=1, headers=tuple(headers), phone=1, request_date=2 if dated else None
    )
    options = CheckOptions(text_delimiter="," if text else None, removal=removal)
    feed: list[Row] = [(1, list(headers))]
    for number, cells in enumerate(rows, start=2):
        cells = list(cells) + ([DAY] if dated and len(cells) < 3 else [])
        feed.append((number, cells))
    checked, _ = check_all(feed, mapping, options)
    return {c.row: (c.outcome, c.message) for c in checked}


@pytest.mark.parametrize("dated", [False, True])
@pytest.mark.parametrize("label", [None, "Total", "Grand Total"])
def test_a_number_cell_holding_the_sum_is_a_total_line(dated: bool, label: str | None) -> None:
    rows: list[list[CellValue]] = [["X", n] for n in FOUR] + [[label, SUM4]]
    verdicts = _check(rows, dated=dated)
    assert verdicts[6] == (
        Outcome.INVALID,
        "row 6: phone: " + SUM_SAID.format(value=SUM4, count=4, rows="2-5"),
    )
    assert all(verdicts[r][0] is Outcome.VALID for r in range(2, 6))


def test_a_csv_total_is_known_by_its_digits() -> None:
    rows: list[list[CellValue]] = [["X", str(n)] for n in FIVE] + [["Total", str(SUM5)]]
    verdicts = _check(rows, text=True)
    assert verdicts[7] == (
        Outcome.INVALID,
        "row 7: phone: " + SUM_SAID.format(value=SUM5, count=5, rows="2-6"),
    )


def test_a_removal_does_not_remove_the_sums_number() -> None:
    rows: list[list[CellValue]] = [["X", n] for n in FOUR] + [["Total", SUM4]]
    verdicts = _check(rows, removal=True)
    assert verdicts[6][0] is Outcome.INVALID and "is the sum of the 4" in verdicts[6][1]


def test_an_average_under_its_label_is_a_total_line() -> None:
    block = [2025550100, 2025550200, 2025550300, 2025550400, 2025550600]
    verdicts = _check([["X", n] for n in block] + [["Average", 2025550320]], text=False)
    assert verdicts[7][0] is Outcome.INVALID
    # In a CSV, with no number cells, the value says it, the label beside it.
    rows: list[list[CellValue]] = [["X", str(n)] for n in block] + [["Average", "2025550320"]]
    verdicts = _check(rows, text=True)
    assert verdicts[7] == (
        Outcome.INVALID,
        "row 7: phone: the row's 2025550320 is the average of the 5 phone numbers above it "
        "(rows 2-6): a table's total line, not a consumer's number",
    )


def test_an_unsorted_block_of_numbers_is_not_its_own_average() -> None:
    # A company's block of numbers in use: 0101 is the average of 0100 and 0102, no total.
    verdicts = _check([["A", 3035550100], ["B", 3035550102], ["C", 3035550101]])
    assert [v[0] for v in verdicts.values()] == [Outcome.VALID] * 3


@pytest.mark.parametrize("dated", [False, True])
def test_a_number_under_a_total_label_is_a_total_line_whatever_it_is(dated: bool) -> None:
    total: list[CellValue] = ["Total", 3125550171, None] if dated else ["Total", 3125550171]
    verdicts = _check([["X", n] for n in FOUR] + [total], dated=dated)
    assert verdicts[6] == (
        Outcome.INVALID,
        "row 6: phone: the row holds only 'Total' (column A) and 3125550171 (column B): a "
        "table's total line, not a consumer's number (a number under a total's label is the "
        "line's result)",
    )


def test_subtotals_and_the_sum_since_the_last_one() -> None:
    acme, beta = [2025550147, 3036193603], [2125550111, 2015550133]
    rows: list[list[CellValue]] = [["Acme", n] for n in acme]
    rows.append(["Acme Total", sum(acme)])
    rows += [["Beta", n] for n in beta]
    rows.append([None, sum(beta)])  # no label: its value is the group's sum
    rows.append(["Grand Total", SUM4])
    verdicts = _check(rows)
    assert verdicts[4] == (
        Outcome.INVALID,
        "row 4: phone: " + SUM_SAID.format(value=sum(acme), count=2, rows="2-3"),
    )
    assert verdicts[7] == (
        Outcome.INVALID,
        "row 7: phone: the row's 4141100244 is the sum of the 2 phone numbers above it since "
        "the last subtotal line (rows 5-6): a table's subtotal line, not a consumer's number",
    )
    # Excel's SUBTOTAL leaves the subtotals out of the grand total; so do the sums.
    assert verdicts[8] == (
        Outcome.INVALID,
        "row 8: phone: " + SUM_SAID.format(value=SUM4, count=4, rows="2-7"),
    )
    assert [verdicts[r][0] for r in (2, 3, 5, 6)] == [Outcome.VALID] * 4


@pytest.mark.parametrize(
    ("cells", "dated"),
    [
        (["Total Wine", 3125550171], False),  # a company's name, no total's label
        (["Total Wine", 3125550171], True),
        (["Sum", 3125550171], False),  # a surname
        (["Total", 3125550171], True),  # a request date beside it: a consumer's row
        (["Total Fitness", "3125550171"], False),
    ],
)
def test_a_consumer_named_like_a_total_is_imported(cells: list[CellValue], dated: bool) -> None:
    verdicts = _check([["X", n] for n in FOUR] + [cells], dated=dated)
    assert verdicts[6] == (Outcome.VALID, "")


def test_a_round_number_is_no_total() -> None:
    rows: list[list[CellValue]] = [["X", n] for n in FOUR] + [["Y", 3035550000], ["Z", 3035550100]]
    verdicts = _check(rows)
    assert [verdicts[r][0] for r in (6, 7)] == [Outcome.VALID, Outcome.VALID]


def test_a_stray_small_number_is_not_summed() -> None:
    verdicts = _check([["A", 1], ["B", 3035550100], ["C", 3035550101]])
    assert [v[0] for v in verdicts.values()] == [Outcome.INVALID, Outcome.VALID, Outcome.VALID]


def test_a_number_repeated_is_a_duplicate_not_a_total() -> None:
    verdicts = _check([["A", 3035550100]] * 3)
    assert [v[0] for v in verdicts.values()] == [Outcome.VALID, *[Outcome.DUPLICATE] * 2]


def test_counts_stay_total_lines() -> None:
    # FXK: named as the count it is, not only as a report's total line.
    rows: list[list[CellValue]] = [["X", n] for n in FIVE] + [["Count", 5]]
    verdicts = _check(rows)
    assert verdicts[7] == (
        Outcome.INVALID,
        "row 7: phone: the row's 5 is the count of the 5 phone numbers above it (rows 2-6): a "
        "table's count line, not a consumer's number",
    )


def _cache(path: Path, ref: str, value: int) -> None:
    """Write ``value`` as the saved result of the formula in ``ref``, as Excel saves it."""
    with zipfile.ZipFile(path) as zin:
        parts = {i.filename: zin.read(i.filename) for i in zin.infolist()}
    name = "xl/worksheets/sheet1.xml"
    xml = parts[name].decode()
    found = re.search(rf'<c r="{ref}"([^>]*)><f>(.*?)</f>(<v\s*/>|<v>.*?</v>)?', xml)
    assert found is not None
    new = f'<c r="{ref}"><f>{found.group(2)}</f><v>{value}</v>'
    parts[name] = (xml[: found.start()] + new + xml[found.end() :]).encode()
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zout:
        for part, data in parts.items():
            zout.writestr(part, data)


def table_with_total(path: Path, numbers: list[int], result: int, label: str = "Total") -> Path:
    """An Excel Table Name | Request Date | Phone whose totals row holds ``label`` and
    =SUBTOTAL(109,Tbl[Phone]) with ``result`` saved."""
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.append(["Name", "Request Date", "Phone"])
    for n in numbers:
        ws.append(["X", "2026-11-20", n])
    last = len(numbers) + 2
    ws.append([label, None, "=SUBTOTAL(109,Tbl[Phone])"])
    table = Table(displayName="Tbl", ref=f"A1:C{last}", totalsRowCount=1)
    table._initialise_columns()
    columns: list[TableColumn] = list(table.tableColumns)
    columns[0].totalsRowLabel = label
    columns[2].totalsRowFunction = "sum"
    ws.add_table(table)
    wb.save(path)
    _cache(path, f"C{last}", result)
    return path


def _staged(path: Path, tmp_path: Path) -> dict[int, tuple[str, str]]:
    store, _ = stage_import(JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None)
    rows = {r.row_number: (str(r.outcome), r.message) for r in store.rows()}
    store.close()
    return rows


def test_a_tables_totals_row_with_its_saved_result(tmp_path: Path) -> None:
    path = table_with_total(tmp_path / "table.xlsx", FOUR, SUM4)
    rows = _staged(path, tmp_path)
    assert rows[6] == (
        "invalid",
        "row 6: phone: " + SUM_SAID.format(value=SUM4, count=4, rows="2-5"),
    )


def test_a_bare_sum_row_and_a_csv(tmp_path: Path) -> None:
    book = [["Phone", "Request Date"], *[[n, "2026-11-20"] for n in FIVE], ["=SUM(A2:A6)"]]
    path = write_sheets(tmp_path / "bare.xlsx", {"Sheet1": book})
    _cache(path, "A7", SUM5)
    said = "row 7: phone: " + SUM_SAID.format(value=SUM5, count=5, rows="2-6")
    assert _staged(path, tmp_path)[7] == ("invalid", said)
    csv_rows = [["Label", "Phone"], *[["", n] for n in FIVE], ["Total", SUM5]]
    path = write_csv(tmp_path / "pasted.csv", csv_rows)
    assert _staged(path, tmp_path / "csv")[7] == ("invalid", said)


def test_a_csv_cell_of_other_digits_is_judged_as_before() -> None:
    # "²" is a digit int() does not read; Arabic-Indic digits it does.
    rows: list[list[CellValue]] = [["X", str(n)] for n in FOUR] + [["Y", "²"], ["Z", "١٢٣"]]
    verdicts = _check(rows, text=True)
    assert [verdicts[r][0] for r in (6, 7)] == [Outcome.INVALID, Outcome.INVALID]
