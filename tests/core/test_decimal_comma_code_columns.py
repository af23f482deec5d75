"""Black-box B13 #1 and #6: files written by libraries on a European locale.

pandas' ``DataFrame.to_csv(path, sep=";", decimal=",", index=False)`` writes a float column
(a Country Code or Campaign ID column pandas read as floats, as it does for a column with an
empty cell) with a decimal comma: 39.0 as ``39,0``, 1001.0 as ``1001,0``. pandas is not in the
venv, so the tests write its output as it is (the tester's files: /tmp/s21/b13/repro/
R1_pandas_decimal_comma_cc.csv, R3_campaign_decimal_comma.csv). The Country Code column was
left unread, so the Italian row's 347 555 4518 went in as the US number +1 347-555-4518, and
every campaign row was refused ("no campaign is named '1001,0'"), while ``39.0`` and
``1001.0`` read as 39 and 1001.

ExcelJS's ``csv.writeFile`` writes a rich-text cell as its JSON
(``{"richText":[{"text":"303 555"},{"text":" 0107"}]}``, R12b_exceljs_full_csv.csv row 9); that
cell was called a vanity number.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.cli.main import main
from app.core import phones
from tests.conftest import TOKEN


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _dry_run(
    capsys: pytest.CaptureFixture[str], path: Path, *extra: str
) -> tuple[dict[str, Any], dict[int, dict[str, Any]]]:
    """The --json summary of a global dry run of ``path``, and its report's rows by source row."""
    report = path.with_suffix(".report.xlsx")
    argv = ["import", str(path), "--into", "dnc", "--scope", "global", "--dry-run"]
    code = main([*argv, "--report", str(report), "--json", *extra])
    out, err = capsys.readouterr()
    assert code == 0, err
    summary: dict[str, Any] = json.loads(out)
    book = openpyxl.load_workbook(report, read_only=True)
    try:
        lines = list(book["Rows"].iter_rows(values_only=True))
    finally:
        book.close()  # a read-only workbook keeps its file open until closed
    header = [str(h) for h in lines[0]]
    rows = {int(line[0]): dict(zip(header, line, strict=False)) for line in lines[1:] if line[0]}
    return summary, rows


# pandas' to_csv(sep=";", decimal=",") of Phone (text), Country Code (float), Reason.
PANDAS_CODES = (
    "Phone;Country Code;Reason\n"
    "347 555 4518;39,0;Non chiamare più\n"
    "(303) 555-0101;1,0;Pidió baja\n"
    "07911 123456;44,0;x\n"
)


def test_a_decimal_comma_country_code_column_gives_each_row_its_country(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "optouts.csv"
    path.write_text(PANDAS_CODES, encoding="utf-8")
    summary, rows = _dry_run(capsys, path)
    assert summary["mapping"]["phone_code"] == "Country Code (column B)"
    assert (summary["valid"], summary["invalid"]) == (3, 0)
    assert not [w for w in summary["warnings"] if "Country Code" in w]
    read = {n: (r["Country code"], r["Normalized number"]) for n, r in rows.items()}
    # The Italian consumer's number, not the US number +1 347-555-4518 nobody asked to block.
    assert read == {2: ("39", "3475554518"), 3: ("1", "3035550101"), 4: ("44", "7911123456")}


@pytest.mark.parametrize(
    ("cell", "code"),
    [
        ("39,0", "39"),
        ("44,00", "44"),
        ("+1,0", "1"),
        ("39.0", "39"),  # the point's reading, which the comma's follows
        ("39,5", None),  # not a whole number: no code
        ("44,05", None),
        ("3,9", None),
        ("39,0,0", None),
    ],
)
def test_a_code_written_with_a_decimal_comma_reads_as_with_a_point(
    cell: str, code: str | None
) -> None:
    assert phones.normalize_code(cell) == code


def test_codes_with_a_fraction_are_still_no_codes_and_the_default_is_said(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "fractions.csv"
    path.write_text(PANDAS_CODES.replace(",0;", ",5;"), encoding="utf-8")
    summary, rows = _dry_run(capsys, path)
    assert "phone_code" not in summary["mapping"]
    said = [w for w in summary["warnings"] if w.startswith("Column B ('Country Code')")]
    assert said and "'39,5' (row 2)" in said[0] and "used the default code +1" in said[0]
    assert rows[2]["Country code"] == "1"


def _campaign_csv(path: Path, cells: list[str]) -> Path:
    """pandas' to_csv(sep=";", decimal=",") of Phone and a float Campaign ID column."""
    lines = ["Phone;Campaign ID;Reason"]
    lines += [f"(303) 555-02{n:02d};{cell};r{n}" for n, cell in enumerate(cells, start=1)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def test_a_decimal_comma_campaign_id_names_that_campaign(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    first = sandbox.seed_campaign("Autunno", active=True)
    path = _campaign_csv(tmp_path / "campaigns.csv", [f"{first},0", f"{first},00", "0,0"])
    summary, rows = _dry_run(capsys, path, "--base-url", sandbox.base_url)
    assert (summary["valid"], summary["invalid"]) == (3, 0)
    assert [rows[n]["Scope"] for n in (2, 3, 4)] == [f"campaign:{first}"] * 2 + ["global"]


def test_a_thousands_separated_campaign_id_is_refused_not_guessed(
    sandbox: Any, api: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """'1.000' is campaign 1000 in Germany and 1 with three decimals elsewhere (and '1,000' is
    1000 in the US, 1 with pandas' decimal comma): with campaign 1 on the connection, neither
    may be taken as it. '1,001' and '1.001' are refused too, naming the id their digits make."""
    assert "1" in {c.id for c in api.campaigns()}
    path = _campaign_csv(tmp_path / "grouped.csv", ["1.000", "1,000", "1,001", "1.001", "1,001.0"])
    summary, rows = _dry_run(capsys, path, "--base-url", sandbox.base_url)
    assert (summary["valid"], summary["invalid"]) == (0, 5)
    assert "could be campaign 1000 written with a thousands separator or campaign 1 " in str(
        rows[2]["Message"]
    )
    assert "'1,000' could be campaign 1000" in str(rows[3]["Message"])
    for row, cell in ((4, "1,001"), (5, "1.001"), (6, "1,001.0")):
        assert f"{cell!r} is written with a thousands or decimal separator; write the " in str(
            rows[row]["Message"]
        )
        assert "(as 1001 if that is the campaign meant)" in str(rows[row]["Message"])


# ExcelJS 4.4's workbook.csv.writeFile of a sheet whose A2 is a rich-text value of two runs.
EXCELJS = (
    "Phone,Country Code,Name\n"
    '"{""richText"":[{""text"":""303 555""},{""text"":"" 0107""}]}",1,Chloé Dubois\n'
    "1-800-FLOWERS,1,Vanity\n"
)


def test_a_rich_text_cell_split_in_its_number_is_text_around_it_not_a_vanity_number(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "exceljs.csv"
    path.write_text(EXCELJS, encoding="utf-8")
    _, rows = _dry_run(capsys, path)
    message = str(rows[2]["Message"])
    assert "has words around the number; enter the number alone" in message
    assert "vanity" not in message
    assert "is spelled with letters (a vanity number" in str(rows[3]["Message"])
