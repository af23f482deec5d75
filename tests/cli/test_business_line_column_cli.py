"""The business's own line is not imported as the consumers' numbers, through the CLI
(regression check V1 #1, #2): "Business Number" beside "Customer Number" imports the customers;
a file whose only phone column names the business's own line is refused unless chosen with
--phone-column, and one naming the business's side that holds one number on every row is
imported only with a warning in the dry run and the job's report."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.api.client import ApiClient, DncQuery
from app.cli.main import main
from tests.conftest import TOKEN

LINE = "+13035550142"
CONSUMERS = ["+17205551234", "+17205551235", "+17205551236", "+17205551237"]
LOG = [["Date", "Business Number", "Customer Number", "Message"]] + [
    [f"2026-11-0{n + 1} 10:00", LINE, number, "STOP"] for n, number in enumerate(CONSUMERS)
]


def _write(tmp_path: Path, rows: list[list[str]], suffix: str = ".csv") -> Path:
    path = tmp_path / f"log{suffix}"
    if suffix == ".xlsx":
        book = openpyxl.Workbook()
        sheet = book.active
        assert sheet is not None
        for row in rows:
            sheet.append(row)
        book.save(path)
    else:
        path.write_text("".join(",".join(row) + "\n" for row in rows))
    return path


def _dry_run(
    capsys: pytest.CaptureFixture[str], path: Path, *extra: str
) -> tuple[int, dict[str, Any]]:
    argv = ["import", str(path), "--into", "dnc", "--scope", "global", "--dry-run", "--json"]
    code = main([*argv, *extra])
    return code, json.loads(capsys.readouterr().out)


def _report_text(path: str) -> str:
    book = openpyxl.load_workbook(path, read_only=True)
    try:
        return "\n".join(
            str(value)
            for sheet in book.worksheets
            for row in sheet.iter_rows(values_only=True)
            for value in row
            if value is not None
        )
    finally:
        book.close()


@pytest.mark.parametrize("suffix", [".csv", ".xlsx"])
def test_the_customer_number_is_read_not_the_business_number(
    suffix: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = _dry_run(capsys, _write(tmp_path, LOG, suffix))
    assert code == 0, out
    assert out["mapping"]["phone"] == "Customer Number (column C)"
    assert (out["valid"], out["duplicates_in_file"]) == (4, 0)
    said = " ".join(out["warnings"])
    assert (
        "Column B ('Business Number') names the business's own line, so it is not imported "
        "(only column C ('Customer Number') is read)."
    ) in said
    assert "--phone-column column:B" not in said  # the business's line is never offered


def test_the_customers_go_on_the_list_not_the_business_line(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: Any
) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    argv = ["import", str(_write(tmp_path, LOG)), "--into", "dnc", "--scope", "global"]
    code = main([*argv, "--base-url", sandbox.base_url, "--json"])
    out = json.loads(capsys.readouterr().out)
    assert (code, out["inserted"]) == (0, 4), out
    with ApiClient(sandbox.base_url, TOKEN) as api:
        listed = {e.phone_number for e in api.search_dnc(DncQuery()).items}
    assert listed == {number[2:] for number in CONSUMERS}


@pytest.mark.parametrize("header", ["Our number", "Business Number"])
def test_a_file_of_the_business_line_alone_is_refused_until_chosen(
    header: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = [["Date", header]] + [[f"2026-11-0{n}", LINE] for n in range(1, 5)]
    path = _write(tmp_path, rows, ".xlsx")
    code, out = _dry_run(capsys, path)
    assert code == 1, out
    assert f"{header!r} (column B) names the business's own line" in out["error"]
    assert "--phone-column" in out["error"]
    code, out = _dry_run(capsys, path, "--phone-column", header)
    assert code == 0, out
    said = " ".join(out["warnings"])
    assert f"Column B ({header!r}) is read as the consumers' numbers, yet its header" in said
    assert f"It holds one number ({LINE!r}) on all 4 of its rows" in said
    report = _report_text(out["report"])
    assert all(w in report for w in out["warnings"])


@pytest.mark.parametrize("header", ["Company Phone", "Sender"])
def test_a_column_of_one_number_alone_is_imported_only_with_a_warning(
    header: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = [["Date", header, "Message"]] + [[f"2026-11-0{n}", LINE, "STOP"] for n in range(1, 5)]
    code, out = _dry_run(capsys, _write(tmp_path, rows))
    assert code == 0, out
    warned = [w for w in out["warnings"] if f"one number ({LINE!r}) on all 4 of its rows" in w]
    assert len(warned) == 1, out["warnings"]
    assert "run the file again with --phone-column naming that column" in warned[0]
    assert warned[0] in _report_text(out["report"])


def test_a_company_phone_of_one_number_beside_a_phone_is_said_and_not_offered(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = [["Company Phone", "Phone"]] + [[LINE, number] for number in CONSUMERS]
    code, out = _dry_run(capsys, _write(tmp_path, rows))
    assert code == 0, out
    assert out["mapping"]["phone"] == "Phone (column B)"
    assert out["valid"] == 4
    assert out["warnings"] == [
        f"Column A ('Company Phone') names the business's side and holds one number ({LINE!r}) "
        "on all 4 of its rows, as the business's own line does in a log, while column B "
        "('Phone') holds 4 different numbers on its 4 rows: column B ('Phone') is read as the "
        "consumers' numbers and column A ('Company Phone') is not imported (the business's own "
        "line does not go on the list). If the consumers' numbers are in column A ('Company "
        "Phone') after all, run the file again with --phone-column column:A; a dry run lists "
        "every row in its report without sending anything."
    ]
