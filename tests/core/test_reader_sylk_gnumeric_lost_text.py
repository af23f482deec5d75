"""Task S20 E1: three reader findings of black-box B10, on real files.

1. (#7) A SYLK file named .csv (Gnumeric's, "ID;PGnumeric;N;E" then "P;P0" records) was read
   as a semicolon CSV of its records, and named no phone column; the .slk copy was refused as
   SYLK. SYLK and DIF are now told by their content whatever the file's name, by a test of every
   record of the file's start strict enough that a semicolon CSV beginning "ID;Phone" or "ID;P"
   is still read as one.
2. (#4) Gnumeric's own file (gzip-compressed XML whose root is gnm:Workbook) was "a
   gzip-compressed file … unpack it and import the spreadsheet inside", and unpacked, "not a
   spreadsheet"; it is named a Gnumeric workbook, with how to save it as one that is read.
   Only the start of what the gzip holds is inflated: it may be a bomb.
3. (#4) Whole words lost to '?' (Greek and Russian saved as cp1252 or ASCII: a country
   "??????", a reason "??? ???????") raised no lost-letters warning, while "pros?m" did. Typed
   marks ("?", "???", "Stop???", "Why ????", "????" among numbers) still raise none.
"""

from __future__ import annotations

import gzip
import tracemalloc
from pathlib import Path

import pytest

from app.core.sheet_csv import CsvSource
from app.core.sheet_guard import sniff_kind
from app.core.sheet_reader import open_sheet
from app.core.sheet_types import SheetError

# The start of a SYLK file as Gnumeric 1.12 writes it (black-box B10's sylk_as.csv).
GNUMERIC_SYLK = (
    "ID;PGnumeric;N;E\r\nP;P0\r\nP;PGeneral\r\nP;Pyyyy-mm-dd\r\nP;ECalibri;M220\r\n"
    "F;P1;SM1;C1\r\nF;P1;SM1;Y1;X1\r\nF;P1;SM1;X2\r\nB;Y3;X2;D0 0 2 1\r\n"
    "O;A100 0.001000;L;V0\r\n"
    'C;Y1;X1;K"Phone"\r\nC;X2;K"Reason"\r\nC;Y2;X1;K3035550123\r\nC;X2;K"stop; no calls"\r\n'
    "E\r\n"
)
# As Excel writes it.
EXCEL_SYLK = (
    "ID;PWXL;N;E\r\nP;PGeneral\r\nP;FCalibri;M220;L9\r\nP;ECalibri;M220;L9\r\n"
    "F;P0;DG0G8;M300\r\nF;W1 1 20\r\nF;SDM4;FG0G;X1\r\nB;Y2;X1;D0 0 1 0\r\n"
    "O;L;D;V0;K47;G100 0.001\r\n"
    'C;Y1;X1;K"Phone"\r\nC;Y2;K3035550124\r\nE\r\n'
)
# As LibreOffice writes it.
LIBREOFFICE_SYLK = 'ID;PCALCOOO32\nC;X1;Y1;K"Phone"\nC;X1;Y2;K3035550125\nE\n'
# As Gnumeric and LibreOffice write DIF.
DIF_TEXT = 'TABLE\r\n0,1\r\n"GNUMERIC"\r\nVECTORS\r\n0,2\r\n""\r\nTUPLES\r\n0,2\r\n""\r\nDATA\r\n'

GNUMERIC_XML = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<gnm:Workbook xmlns:gnm="http://www.gnumeric.org/v10.dtd" '
    'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
    'xsi:schemaLocation="http://www.gnumeric.org/v9.xsd">\n'
    '  <gnm:Version Epoch="1" Major="12" Minor="55" Full="1.12.55"/>\n'
    "  <gnm:Sheets><gnm:Sheet><gnm:Name>Sheet1</gnm:Name><gnm:Cells>"
    '<gnm:Cell Row="0" Col="0" ValueType="60">Phone</gnm:Cell>'
    '<gnm:Cell Row="1" Col="0" ValueType="60">3035550126</gnm:Cell>'
    "</gnm:Cells></gnm:Sheet></gnm:Sheets>\n</gnm:Workbook>\n"
)


GZIP = "a gzip-compressed file"
GNUMERIC = "a Gnumeric workbook (.gnumeric)"


def _refusal(path: Path) -> str:
    with pytest.raises(SheetError) as caught:
        open_sheet(path).close()
    return str(caught.value)


def _rows(path: Path) -> list[tuple[int, list[str]]]:
    with open_sheet(path) as source:
        return [(number, list(cells)) for number, cells in source.iter_rows()]


def _old_exchange(name: str, kind: str) -> str:
    return (
        f"{name} is {kind}, an old exchange format that is not read; open it in Excel or "
        "LibreOffice and save it as .xlsx or CSV, then import that file."
    )


def _gnumeric(name: str) -> str:
    return (
        f"{name} is a Gnumeric workbook (.gnumeric), which is not read; open it in Gnumeric "
        "and save it as .xlsx or CSV (File → Save As), then import that file."
    )


# 1 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("content", [GNUMERIC_SYLK, EXCEL_SYLK, LIBREOFFICE_SYLK])
@pytest.mark.parametrize("name", ["sylk_as.csv", "list.txt", "list.tsv", "export.xls"])
def test_a_sylk_file_is_named_whatever_its_name(tmp_path: Path, name: str, content: str) -> None:
    path = tmp_path / name
    path.write_bytes(content.encode("ascii"))
    assert _refusal(path) == _old_exchange(name, "a SYLK file (.slk)")


def test_a_long_sylk_file_is_told_by_the_whole_records_of_its_start(tmp_path: Path) -> None:
    # The test reads the file's first 512 bytes; a record cut there is not judged.
    records = "".join(f"F;P1;SM1;X{column}\r\n" for column in range(1, 200))
    path = tmp_path / "long.csv"
    path.write_bytes((GNUMERIC_SYLK.replace("E\r\n", "") + records + "E\r\n").encode())
    assert _refusal(path) == _old_exchange("long.csv", "a SYLK file (.slk)")


def test_a_sylk_file_ending_without_a_line_break_is_named(tmp_path: Path) -> None:
    path = tmp_path / "short.csv"
    path.write_bytes(b'ID;PCALCOOO32\nC;X1;Y1;K"Phone"\nC;X1;Y2;K3035550125\nE')
    assert _refusal(path) == _old_exchange("short.csv", "a SYLK file (.slk)")


def test_a_sylk_file_with_a_record_not_known_is_still_named_by_its_own_name(
    tmp_path: Path,
) -> None:
    # Under a .slk name its first records are enough, as before; under a text table's name
    # every record must be one known, so it is read as the text it may be.
    content = b'ID;PSOMEAPP;N;E\r\nC;Y1;X1;K"Phone"\r\nQ;something new\r\nE\r\n'
    path = tmp_path / "odd.slk"
    path.write_bytes(content)
    assert _refusal(path) == _old_exchange("odd.slk", "a SYLK file (.slk)")
    as_csv = tmp_path / "odd.csv"
    as_csv.write_bytes(content)
    assert _rows(as_csv)[0] == (1, ["ID", "PSOMEAPP", "N", "E"])


@pytest.mark.parametrize("name", ["dif_as.csv", "dif_as.txt", "dif_as.xls"])
def test_a_dif_file_is_named_whatever_its_name(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_bytes(DIF_TEXT.encode("ascii"))
    assert _refusal(path) == _old_exchange(name, "a DIF file (.dif, Data Interchange Format)")


@pytest.mark.parametrize(
    "text",
    [
        "ID;Phone\nC;3035550101\n",
        "ID;Phone\nC;3035550101\nF;3035550102\n",
        "ID;P\n1;3035550101\n2;3035550102\n",
        "ID;P\nP;3035550101\n",
        "ID;Phone;Name\nB;3035550101;Bo\nE;3035550102;Eve\n",
        "ID;Phone;Name\nO;3035550101;O'Reilly\n",
        "ID;Phone;Name\nF;3035550101;SMITH\n",
        "ID;Phone;Name\nC;3035550101;Kim\nC;3035550102;Yusuf\n",
        "ID;Phone\nC;X\n",
        "TABLE\n0,1\n3035550101\n",
    ],
)
def test_a_semicolon_csv_beginning_as_sylk_or_dif_does_is_still_read(
    tmp_path: Path, text: str
) -> None:
    path = tmp_path / "ids.csv"
    path.write_text(text, encoding="utf-8")
    lines = text.splitlines()
    rows = _rows(path)
    assert [number for number, _ in rows] == list(range(1, len(lines) + 1))
    assert rows[0][1][0] == lines[0].split(";")[0].split(",")[0]


# 2 ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["source.gnumeric", "renamed_gnumeric.xlsx", "list.csv"])
def test_a_gnumeric_workbook_is_named_with_how_to_save_it(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_bytes(gzip.compress(GNUMERIC_XML.encode()))
    assert _refusal(path) == _gnumeric(name)


@pytest.mark.parametrize("name", ["uncompressed_gnumeric.xml", "list.csv", "list.gnumeric"])
def test_a_gnumeric_workbook_unpacked_is_named_so_too(tmp_path: Path, name: str) -> None:
    path = tmp_path / name
    path.write_bytes(GNUMERIC_XML.encode())
    assert _refusal(path) == _gnumeric(name)


def test_an_old_gnumeric_workbook_is_named_too(tmp_path: Path) -> None:
    # Gnumeric before 1.0 wrote the gmr: prefix.
    path = tmp_path / "old.gnumeric"
    old = GNUMERIC_XML.replace("gnm:", "gmr:").replace("xmlns:gnm", "xmlns:gmr")
    path.write_bytes(gzip.compress(old.encode()))
    assert _refusal(path) == _gnumeric("old.gnumeric")


def test_another_gzip_file_is_still_one_to_unpack(tmp_path: Path) -> None:
    path = tmp_path / "list.csv.gz"
    path.write_bytes(gzip.compress(b"Phone\n3035550127\n"))
    assert _refusal(path) == (
        "list.csv.gz is a gzip-compressed file, not a spreadsheet; unpack it and import the "
        "spreadsheet inside, or ask for the list as an xlsx or CSV file."
    )


def test_a_gzip_bomb_is_inflated_no_further_than_its_start(tmp_path: Path) -> None:
    # 256 MB of zeros in some 250 KB: told from its start, never inflated whole.
    path = tmp_path / "bomb.gnumeric"
    with gzip.open(path, "wb", compresslevel=9) as fh:
        block = b"\0" * (1 << 20)
        for _ in range(256):
            fh.write(block)
    tracemalloc.start()
    try:
        kind = sniff_kind(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert kind.other == GZIP
    assert peak < 4 << 20, peak


def test_a_gnumeric_root_beyond_the_inflated_start_is_not_looked_for(tmp_path: Path) -> None:
    # What is looked at is bounded: a root after 64 KB of blank lines is not seen.
    path = tmp_path / "padded.gnumeric"
    path.write_bytes(gzip.compress(b"\n" * (64 << 10) + GNUMERIC_XML.encode()))
    assert sniff_kind(path).other == GZIP
    near = tmp_path / "near.gnumeric"
    near.write_bytes(gzip.compress(b"\n" * 100 + GNUMERIC_XML.encode()))
    assert sniff_kind(near).other == GNUMERIC


# 3 ---------------------------------------------------------------------------------------

GREEK_RUSSIAN_LOST = """Phone,Country,Reason
5512345613,Mexico,Baja
"603 123 456",Cesko,Nevolat
"212 345 6789",??????,"??? ???????"
"495 123-45-67",??????,"?? ???????"
3035550181,USA,stop
"""


@pytest.mark.parametrize("encoding", ["cp1252", "ascii"])
def test_whole_words_lost_to_question_marks_are_warned_about(tmp_path: Path, encoding: str) -> None:
    # What Excel or a script writes when Greek and Russian go into cp1252 (where "México"
    # keeps its letters) or ASCII (black-box B10's g_cp1252.csv and g_ascii.csv).
    text = GREEK_RUSSIAN_LOST
    if encoding == "cp1252":
        text = text.replace("Mexico", "México")
    path = tmp_path / "g.csv"
    path.write_bytes(text.encode(encoding))
    with CsvSource(path) as source:
        assert source.lost_letters == ("??????", "??? ???????", "?? ???????")
        sentence = source.encoding_sentence()
    assert sentence is not None
    assert sentence.startswith(
        "g.csv has '?' in place of letters ('??????', '??? ???????' and '?? ???????'): "
    )


def test_a_country_lost_whole_is_warned_about_alone(tmp_path: Path) -> None:
    path = tmp_path / "c.csv"
    path.write_text("Phone;Country\n3035550181;USA\n2123456789;??????\n5512345613;Mexico\n")
    with CsvSource(path) as source:
        assert source.lost_letters == ("??????",)


def test_a_header_lost_whole_is_warned_about(tmp_path: Path) -> None:
    # Russian "Телефон" saved as cp1252.
    path = tmp_path / "h.csv"
    path.write_text("???????,Name\n3035550181,Ann\n3035550182,Bob\n")
    with CsvSource(path) as source:
        assert source.lost_letters == ("???????",)


def test_words_of_lost_letters_and_whole_words_are_named_together(tmp_path: Path) -> None:
    path = tmp_path / "both.csv"
    path.write_bytes(
        'Phone,Country,Reason\n"603 123 456",?esko,Nevolat pros?m\n'
        '"212 345 6789",Greece,"??? ???????"\n'.encode("cp1252")
    )
    with CsvSource(path) as source:
        assert source.lost_letters == ("pros?m", "??? ???????")


@pytest.mark.parametrize(
    ("column", "values"),
    [
        # Typed marks: a lone '?' or '???', marks after a word, a short run of words of marks.
        ("Name", ["Ann", "?", "???", "Bob", "Eve"]),
        ("Reason", ["Stop???", "Why ????", "who is this ??", "wrong number?!", "stop"]),
        ("Reason", ["??? ???", "?? ??", "stop", "remove me", "no"]),
        # A placeholder in a column of numbers or dates is no word lost.
        ("Amount", ["12.50", "????", "7", "0.99", "100"]),
        ("Date", ["2026-11-01", "??????", "2026-11-03", "2026-11-04", "Ann"]),
        # One column's cells of letters are too few to say the column is one of words.
        ("Note", ["", "????", "", "", "x"]),
        # A run longer than any word.
        ("Note", ["?" * 60, "stop", "stop", "stop", "stop"]),
    ],
)
def test_question_marks_typed_as_punctuation_are_no_words_lost(
    tmp_path: Path, column: str, values: list[str]
) -> None:
    path = tmp_path / "q.csv"
    lines = [f"Phone,{column}"]
    lines += [f'30355501{i:02d},"{value}"' for i, value in enumerate(values)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with CsvSource(path) as source:
        assert source.lost_letters == ()
        assert source.encoding_sentence() is None
