"""A file made from the second-table advice ("Copy rows 3–1003 to a file of their own") begins
with that table's header, "no number,Customer request": column B's header is one of its reasons,
so nothing read it and the entries went on the list without their reasons, unsaid. An import
reading no reason column now warns about a column of text whose header names nothing known,
with how to read it. Staged through the real staging, as a CSV and as an xlsx."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings

ROWS = 1000


def _write(tmp_path: Path, rows: list[list[object]], fmt: str) -> Path:
    if fmt == "csv":
        path = tmp_path / "rows.csv"
        path.write_text("".join(",".join(map(str, r)) + "\n" for r in rows), encoding="utf-8")
        return path
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    for row in rows:
        sheet.append(row)
    path = tmp_path / "rows.xlsx"
    book.save(path)
    return path


def _warnings(tmp_path: Path, path: Path, **settings: object) -> list[str]:
    store, summary = stage_import(
        JobSettings(path, Scope.global_(), **settings),  # type: ignore[arg-type]
        tmp_path / "jobs",
        connection=None,
    )
    with store:
        assert summary.rows == summary.valid + summary.invalid
        return list(store.meta().get("warnings", []))


def _copied_table(header: list[str]) -> list[list[object]]:
    return [header, *([3035551000 + i, "Customer request"] for i in range(ROWS))]


@pytest.mark.parametrize("fmt", ["csv", "xlsx"])
@pytest.mark.parametrize("phone", ["no number", "Phone"])
def test_a_column_of_reasons_under_a_header_naming_nothing_is_named(
    tmp_path: Path, fmt: str, phone: str
) -> None:
    """Its phone header a note ("no number"), or its header one of its own values."""
    warnings = _warnings(
        tmp_path, _write(tmp_path, _copied_table([phone, "Customer request"]), fmt)
    )
    said = [w for w in warnings if "is not read" in w or "not read:" in w]
    assert said == [
        "Column B ('Customer request') holds text that is not read: its header names no column "
        "the import reads, so no entry gets it as its reason. To read it as the reason, head it "
        "Reason (or Notes) in the file, or choose Reason for it on the import wizard's \"Match "
        'the columns" page; to import without it and this warning, --ignore-column '
        "'Customer request'."
    ]


@pytest.mark.parametrize(
    "header",
    [
        ["Phone", "Reason"],  # read as the reason
        ["Phone", "Name"],  # a list's usual column, not read by design
        ["Phone", ""],  # no header: the rows' own warning names values right of the header
        ["Phone", "Decision"],  # a column the file keeps for itself, its header no value
    ],
)
def test_no_warning_when_the_column_is_read_or_known(tmp_path: Path, header: list[str]) -> None:
    """A column read, a list's usual one, one with no header, or one under a "Phone" header
    whose own header is none of its values ("Decision" over KEEP and REMOVE): no warning."""
    warnings = _warnings(tmp_path, _write(tmp_path, _copied_table(header), "csv"))
    assert not any("holds text that is not read" in w for w in warnings)


def test_a_column_set_aside_is_not_named(tmp_path: Path) -> None:
    path = _write(tmp_path, _copied_table(["no number", "Customer request"]), "csv")
    warnings = _warnings(tmp_path, path, ignore_columns=("Customer request",))
    assert not any("holds text that is not read" in w for w in warnings)


def test_two_columns_are_named_in_one_warning(tmp_path: Path) -> None:
    rows: list[list[object]] = [["wrong number", "Customer request", "Left voicemail"]]
    rows += [[3035551000 + i, "asked", "yes"] for i in range(5)]
    warnings = _warnings(tmp_path, _write(tmp_path, rows, "csv"))
    said = [w for w in warnings if "hold text that is not read" in w]
    assert len(said) == 1
    assert said[0].startswith(
        "Column B ('Customer request') and column C ('Left voicemail') hold text that is not "
        "read: their headers name no column the import reads"
    )
    assert "--ignore-column 'Customer request' --ignore-column 'Left voicemail'." in said[0]
