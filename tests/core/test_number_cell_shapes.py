"""Black-box bb9 F1-F4 (session 32): number cells as a spreadsheet shaped them.

F1: French Excel's "2 015 550 290,00" (grouped by U+00A0, U+202F or a space) was refused over
its ',' while the German "2.015.550.222,00" was read with a damage note. F2: "2015550282.00"
and "2,015,550,280.00" were read with no note and not counted damaged while their decimal-comma
twins were (kept so: every digit is there, black-box B6 #7), "7,911,123,456" under 44 lost
its 0 unsaid (a number cell's grouping: now noted), and
"2,015,550,281.50" was refused over ',' instead of as not a whole number. F3: "=2015550264"
was refused over '=' without saying it is a formula. F4: a cached 2015550294.9999998 (Excel
shows 2015550295) was refused as not a whole number. Real files, real dry runs.
"""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import openpyxl
import pytest

from app.cli.main import main
from app.core.phones import normalize


@pytest.fixture
def cli_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("DNC_DESK_CONFIG_DIR", str(tmp_path / "cfg"))
    monkeypatch.setenv("DNC_DESK_DATA_DIR", str(tmp_path / "data"))
    return tmp_path


def _dry_run(
    path: Path, capsys: pytest.CaptureFixture[str], *extra: str
) -> tuple[dict[str, object], dict[int, tuple[str, str]]]:
    """The --json summary and, by sheet row, (Message, Damage note) from the report."""
    argv = ["import", str(path), "--into", "dnc", "--scope", "global", "--dry-run", "--json"]
    assert main([*argv, *extra]) == 0
    data = json.loads(capsys.readouterr().out)
    book = openpyxl.load_workbook(str(data["report"]), read_only=True)
    rows = list(book["Rows"].iter_rows(values_only=True))
    book.close()
    header = list(rows[0])
    message, note = header.index("Message"), header.index("Damage note")
    padded = [[*r, *[None] * len(header)] for r in rows[1:]]  # read-only rows end early
    by_row = {int(str(r[0])): (str(r[message] or ""), str(r[note] or "")) for r in padded}
    return data, by_row


def test_french_grouped_decimal_comma_cells_are_read_with_a_note(
    cli_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = cli_env / "fr_excel.csv"
    path.write_bytes(
        "Téléphone;Motif\r\n"
        "2\u00a0015\u00a0550\u00a0290,00;nbsp\r\n"
        "2\u202f015\u202f550\u202f291,00;nnbsp\r\n"
        "2 015 550 292,00;space\r\n"
        "2.015.550.222,00;dots\r\n".encode()
    )
    data, rows = _dry_run(path, capsys)
    assert (data["valid"], data["invalid"], data["damaged"]) == (4, 0, 4)
    for row, last in ((2, "0290"), (3, "0291"), (4, "0292")):
        # Named as the spreadsheet shows it: a space, never the repr "\xa0".
        said = f"cell '2 015 550 2{last[2:]},00' was written as a decimal number with spaces"
        assert rows[row][1].startswith(said), rows[row]
        assert rows[row][1].endswith(f"read as +1 201-555-{last}")
    assert "with dots between its thousands" in rows[5][1]


def test_decimal_point_twins_with_every_digit_are_not_damage(
    cli_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A number cell's decimals or thousands saved as shown, every digit there, read exactly:
    no damage (black-box B6 #7 kept a float column's rows from drowning real damage); the
    decimal comma, read only by guessing the locale, is noted; a fraction is refused as one."""
    path = cli_env / "us_grouped.csv"
    path.write_text(
        "Phone,Reason\n"
        '"2,015,550,280.00",a\n'
        "2015550282.00,b\n"
        '"2,015,550,286",c\n'
        "2015550283.0,d\n"
        '"2,015,550,281.50",e\n'
        '"2015550293,00",f\n',
        encoding="utf-8",
    )
    data, rows = _dry_run(path, capsys)
    assert (data["valid"], data["invalid"], data["damaged"]) == (5, 1, 1)
    assert [rows[n] for n in (2, 3, 4, 5)] == [("", "")] * 4
    assert "not a whole number" in rows[6][0] and "(',')" not in rows[6][0]
    assert rows[7][1].endswith("read as +1 201-555-0293")


def test_grouped_number_cell_lost_its_zero_under_44(
    cli_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = cli_env / "uk.csv"
    path.write_text('Phone,Reason\n"7,911,123,456",a\n07911123457,b\n', encoding="utf-8")
    data, rows = _dry_run(path, capsys, "--phone-code", "44")
    assert (data["valid"], data["damaged"]) == (2, 1)
    assert "lost its leading 0 (written 07911123456 in United Kingdom)" in rows[2][1]
    assert rows[3][1] == ""


def test_a_bare_formula_is_said_to_be_one(
    cli_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = cli_env / "formula.csv"
    path.write_text('Phone,Reason\n=2015550264,a\n="2015550262",b\n', encoding="utf-8")
    data, rows = _dry_run(path, capsys)
    assert (data["valid"], data["invalid"]) == (1, 1)
    assert (
        "is a spreadsheet formula, not a phone number: Excel shows it as 2015550264" in (rows[2][0])
    )


def _noisy_workbook(path: Path) -> None:
    """A workbook whose number cells cache what a formula's arithmetic leaves
    (openpyxl itself writes only 15 significant digits, so the XML is edited)."""
    plain = path.with_suffix(".plain.xlsx")
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.append(["Phone", "Reason"])
    for cell in (2015550295, 2015550185, 2015550283.5, 2015550286):
        sheet.append([cell, "r"])
    book.save(plain)
    noise = {"<v>2015550295</v>": "<v>2015550294.9999998</v>"}
    noise["<v>2015550185</v>"] = "<v>2015550185.0000002</v>"
    with zipfile.ZipFile(plain) as src, zipfile.ZipFile(path, "w") as out:
        for item in src.infolist():
            body = src.read(item.filename)
            if item.filename == "xl/worksheets/sheet1.xml":
                text = body.decode()
                for old, new in noise.items():
                    assert old in text
                    text = text.replace(old, new)
                body = text.encode()
            out.writestr(item, body)


def test_float_noise_is_read_as_excel_shows_it_with_a_note(
    cli_env: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = cli_env / "noise.xlsx"
    _noisy_workbook(path)
    data, rows = _dry_run(path, capsys)
    assert (data["valid"], data["invalid"], data["damaged"]) == (3, 1, 2)
    assert rows[2][1].startswith(
        "cell holds 2015550294.9999998, which Excel shows as 2015550295 (it keeps 15 "
        "significant digits"
    )
    assert "read as +1 201-555-0295" in rows[2][1]
    assert "Excel shows as 2015550185" in rows[3][1]
    assert "2015550283.5 is not a whole number" in rows[4][0]
    assert rows[5] == ("", "")


@pytest.mark.parametrize(
    ("cell", "national"),
    [
        (2015550294.9999998, "2015550295"),
        ("2\u00a0015\u00a0550\u00a0290,00", "2015550290"),
        ("2\u202f015\u202f550\u202f290,00", "2015550290"),
    ],
)
def test_normalize_reads_the_shapes_with_a_note(cell: object, national: str) -> None:
    result = normalize(cell, "1")
    assert result.ok and result.national == national
    assert result.note and "\\x" not in result.note


@pytest.mark.parametrize(
    "cell",
    ["2 015.550 290,00", "2015550283.5", 2015550283.5, "2,015,550,281.50", "2.015.550.281,50"],
)
def test_mixed_grouping_and_fractions_stay_refused(cell: object) -> None:
    assert not normalize(cell, "1").ok
