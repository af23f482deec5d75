"""Black-box findings on how a phone cell's text is read.

1. An opt-out keyword beside the number ("STOP 3035551216", "DNC 3035551215", as SMS platforms
   and agents write opt-outs) is read like a label: the number, with a note. Only the keyword
   and exactly one number: anything else around them is still refused as words.
2. "Phone/Fax: 303-555-1217" is read like "Phone:" (a "Phone/Fax" column is read too); a fax
   label alone ("Fax: …", "Fax/Phone: …") stays refused.
3. Words with a few digits ("Total: 3 records") are not called a vanity number; real vanity
   numbers (1-800-FLOWERS, 202-555-HOME) still are.
4. A leading minus sign ("-3035551203", what a spreadsheet shows for a negative number) is
   refused naming the minus sign, never read silently; a negative number cell likewise.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.cli.main import main
from app.core import phones
from app.core.phones import normalize, normalize_with_default
from app.core.sheet_check import CheckedRow, Outcome, check_all
from app.core.sheet_header import tagged_phone
from app.core.sheet_mapping import ColumnMapping, Role, header_role
from app.core.sheet_types import CellValue, Row
from tests.conftest import TOKEN
from tests.core.test_phones_properties import PROPERTY_SETTINGS, written_inputs

WORDS = "has words around the number; enter the number alone"
VANITY = "is spelled with letters (a vanity number like 1-800-FLOWERS)"


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def run(cells: list[CellValue], mapping: ColumnMapping | None = None) -> list[CheckedRow]:
    rows: list[Row] = [(i, [cell]) for i, cell in enumerate(cells, 1)]
    checked, _ = check_all(rows, mapping or ColumnMapping(phone=0))
    return checked


def keyword_note(keyword: str) -> str:
    return f"the opt-out keyword {keyword!r} was left out"


# --------------------------------------------------------------------------
# 1. Opt-out keywords
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cell", "national", "keyword"),
    [
        ("STOP 3035551216", "3035551216", "STOP"),
        ("DNC 3035551215", "3035551215", "DNC"),
        ("stop: 303-555-1216", "3035551216", "stop"),
        ("3035551216 STOP", "3035551216", "STOP"),
        ("303-555-1216 (STOP)", "3035551216", "STOP"),
        ("[DNC] 303-555-1215", "3035551215", "DNC"),
        ("DNC# 3035551215", "3035551215", "DNC"),
        ("STOPALL 3035551216", "3035551216", "STOPALL"),
        ("UNSUBSCRIBE 303 555 1216", "3035551216", "UNSUBSCRIBE"),
        ("Unsubscribe - (303) 555-1216", "3035551216", "Unsubscribe"),
        ("Opt-out: 303-555-1216", "3035551216", "Opt-out"),
        ("OPT OUT 3035551216", "3035551216", "OPT OUT"),
        ("optout 3035551216", "3035551216", "optout"),
        ("3035551216, opt out", "3035551216", "opt out"),
        ("Do Not Call: 303-555-1216", "3035551216", "Do Not Call"),
        ("do-not-call 3035551216", "3035551216", "do-not-call"),
        ("3035551216 (do not call)", "3035551216", "do not call"),
        ("STOP +1 303 555 1216", "3035551216", "STOP"),
        ("'STOP 3035551216", "3035551216", "STOP"),  # Excel's text apostrophe
        ("\uff33\uff34\uff2f\uff30 3035551216", "3035551216", "STOP"),  # full-width
    ],
)
def test_an_opt_out_keyword_is_read_off_the_number_with_a_note(
    cell: str, national: str, keyword: str
) -> None:
    result = normalize(cell, "1")
    assert (result.ok, result.national, result.phone_code, result.reason) == (
        True,
        national,
        "1",
        "",
    )
    assert result.note == keyword_note(keyword)
    assert normalize(cell, "1") == result  # from the cache
    assert normalize_with_default(cell, "1") == result


def test_an_opt_out_keyword_keeps_the_numbers_own_country_code() -> None:
    result = normalize_with_default("STOP +44 7911 123456", "1")
    assert (result.ok, result.phone_code, result.national) == (True, "44", "7911123456")
    assert result.note == keyword_note("STOP")


def test_an_opt_out_keyword_on_an_invalid_number_keeps_the_bare_numbers_reason() -> None:
    result = normalize("STOP 555-0100", "1")
    assert not result.ok
    assert result.reason == normalize("555-0100", "1").reason
    assert result.note == keyword_note("STOP")


@pytest.mark.parametrize(
    "cell",
    [
        "STOP calling 3035551216",
        "STOP 3035551216 please",
        "STOP STOP 3035551216",
        "STOP cell 3035551216",  # a keyword and a label: two words
        "cell 3035551216 STOP",
        "STOP phone 3035551216",
        "remove 3035551216",  # "remove" is no keyword: in a removal file it says the opposite
        "cancel 3035551216",
        "end 3035551216",
        "opt in 3035551216",
        "do not 3035551216",
        "not call 3035551216",
        "STOP3035551216",  # a leading keyword needs a space or a separator
    ],
)
def test_other_words_beside_a_keyword_are_refused_as_words(cell: str) -> None:
    result = normalize(cell, "1")
    assert not result.ok
    assert result.reason == f"{cell!r} {WORDS}"
    assert result.note == ""


def test_a_keyword_does_not_hide_an_extension_two_numbers_or_a_vanity_number() -> None:
    assert normalize("STOP 303-555-1216 x12", "1").reason.startswith("the number has an extension")
    two = normalize("STOP 303-555-1216 / 303-555-1217", "1")
    assert not two.ok and two.reason.startswith("two phone numbers in one cell")
    for cell in ("202-555-STOP", "1-800-STOP-NOW", "STOP 1-800-FLOWERS"):
        result = normalize(cell, "1")
        assert not result.ok and VANITY in result.reason, (cell, result)


def test_opt_out_keywords_are_labels_only_alone() -> None:
    for words in (["stop"], ["dnc"], ["unsubscribe"], ["optout"], ["opt", "out"]):
        assert phones.is_phone_label(words), words
    assert phones.is_phone_label(["do", "not", "call"])
    for words in (["remove"], ["stop", "phone"], ["cell", "stop"], ["do", "not"], ["opt"]):
        assert not phones.is_phone_label(words), words
    # Not label words: they never pair with a line kind ("Stop Phone" names nothing).
    assert not phones.OPT_OUT_WORDS & phones.LABEL_WORDS
    # The header logic takes such a cell for a phone number, as this module reads it.
    assert tagged_phone("STOP 3035551216") and tagged_phone("Do not call: 303-555-1216")


KEYWORDS = st.sampled_from(["STOP", "dnc", "Unsubscribe", "opt-out", "Do Not Call", "OPTOUT"])
FORMS = st.sampled_from(["{l} {n}", "{l}: {n}", "({l}) {n}", "{n} ({l})", "{n} {l}", "{n} [{l}]"])


@PROPERTY_SETTINGS
@given(written_inputs(), KEYWORDS, FORMS)
def test_a_keyword_never_changes_the_verdict(
    case: tuple[str, str], keyword: str, form: str
) -> None:
    bare, code = case
    cell = form.format(l=keyword, n=bare.strip())
    # The bare number's verdict, reason included, as for a label (test_phone_labels).
    expected = normalize(bare, code)._replace(note=keyword_note(keyword))
    assert normalize(cell, code) == expected
    phones.clear_cache()
    assert normalize(cell, code) == expected  # the cold path too


@pytest.mark.parametrize("mapping", [ColumnMapping(phone=0), ColumnMapping(phone=0, reason=1)])
def test_a_keyword_row_is_valid_with_the_note(mapping: ColumnMapping) -> None:
    rows: list[Row] = [
        (1, ["STOP 3035551216", "sms"]),
        (2, ["DNC 3035551215", "agent"]),
        (3, ["3035551216", "again"]),
    ]
    checked, summary = check_all(rows, mapping)
    assert [c.outcome for c in checked] == [Outcome.VALID, Outcome.VALID, Outcome.DUPLICATE]
    assert [c.national for c in checked[:2]] == ["3035551216", "3035551215"]
    assert checked[0].original == "STOP 3035551216"
    assert keyword_note("STOP") in checked[0].message
    assert keyword_note("DNC") in checked[1].message
    assert checked[0].damage == ""
    assert (summary.valid, summary.invalid, summary.damaged) == (2, 0, 0)


# --------------------------------------------------------------------------
# 2. "Phone/Fax"
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cell", "label"),
    [
        ("Phone/Fax: 303-555-1217", "Phone/Fax"),
        ("PHONE/FAX 303-555-1217", "PHONE/FAX"),
        ("Phone / Fax: 303-555-1217", "Phone / Fax"),
        ("Tel/Fax: 303.555.1217", "Tel/Fax"),
        ("Tel./Fax 303 555 1217", "Tel./Fax"),
        ("303-555-1217 (phone/fax)", "phone/fax"),
        ("(Ph/Fax) 303-555-1217", "Ph/Fax"),
    ],
)
def test_a_phone_fax_label_is_read_like_a_phone_label(cell: str, label: str) -> None:
    result = normalize(cell, "1")
    assert (result.ok, result.national, result.reason) == (True, "3035551217", "")
    assert result.note == f"the label {label!r} was left out"


def test_a_phone_fax_column_and_its_cells_are_both_read() -> None:
    assert header_role("Phone/Fax") is Role.PHONE
    checked = run(["Phone/Fax: 303-555-1217", "303-555-1218"])
    assert [c.outcome for c in checked] == [Outcome.VALID, Outcome.VALID]
    assert "the label 'Phone/Fax' was left out" in checked[0].message


@pytest.mark.parametrize(
    "cell",
    [
        "Fax: 303-555-1217",
        "fax 303-555-1217",
        "303-555-1217 (fax)",
        "Fax/Phone: 303-555-1217",  # the fax named first, as the header logic reads it
        "Fax / Tel 303-555-1217",
        "Fax/Fax 303-555-1217",
    ],
)
def test_a_fax_label_stays_refused(cell: str) -> None:
    result = normalize(cell, "1")
    assert not result.ok
    assert result.reason.startswith(f"{cell!r} is labelled as a fax number"), result.reason


@pytest.mark.parametrize(
    "cell", ["Cell/Home 303-555-1217", "Home/Fax 303-555-1217", "Phone/No 303-555-1217"]
)
def test_other_slashed_labels_are_refused_as_words(cell: str) -> None:
    result = normalize(cell, "1")
    assert not result.ok and result.reason == f"{cell!r} {WORDS}"


# --------------------------------------------------------------------------
# 3. Words with a few digits are text, not a vanity number
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cell", "count"),
    [
        ("Total: 3 records", "1 digit"),
        ("3 records", "1 digit"),
        ("Page 3 of 12", "3 digits"),
        ("Records: 300", "3 digits"),
        ("300 records", "3 digits"),
        ("12 rows skipped", "2 digits"),
        ("123 Main St", "3 digits"),
        ("FLOWERS-1", "1 digit"),
        ("Total: 3 records, 2 invalid", "2 digits"),
    ],
)
def test_words_with_a_few_digits_are_text_not_a_vanity_number(cell: str, count: str) -> None:
    result = normalize(cell, "1")
    assert not result.ok
    assert result.reason == f"{cell!r} is not a phone number: it has only {count}"
    assert "vanity" not in result.reason


@pytest.mark.parametrize(
    "cell",
    [
        "1-800-FLOWERS",
        "202-555-HOME",
        "800-FLOWERS",
        "1 800 FLOWERS",
        "1800FLOWERS",
        "1.800.GOT.JUNK",
        "1-800-Flowers",
        "+1 800 FLOWERS",
        "(800) FLOWERS",
    ],
)
def test_real_vanity_numbers_keep_the_vanity_wording(cell: str) -> None:
    result = normalize(cell, "1")
    assert not result.ok and result.reason.startswith(f"{cell!r} {VANITY}"), result.reason


def test_a_totals_row_is_invalid_as_text() -> None:
    checked = run(["303-555-0100", "Total: 3 records"])
    assert checked[1].outcome is Outcome.INVALID
    # Black-box B2 #6: a trailer counting the rows is a total line, not a number.
    assert checked[1].message == (
        "row 2: phone: the row holds only 'Total: 3 records' (column A): a report's total "
        "line, not a row of the table"
    )


# --------------------------------------------------------------------------
# 4. A leading minus sign
# --------------------------------------------------------------------------

MINUS = "starts with a minus sign"


@pytest.mark.parametrize(
    ("cell", "shown", "number"),
    [
        ("-3035551203", "-3035551203", "3035551203"),
        ("  -3035551203 ", "-3035551203", "3035551203"),
        ("- 303-555-1203", "- 303-555-1203", "303-555-1203"),
        ("-(303) 555-1203", "-(303) 555-1203", "(303) 555-1203"),
        ("\u22123035551203", "\u22123035551203", "3035551203"),  # the minus sign itself
        ("\u20133035551203", "\u20133035551203", "3035551203"),  # an en dash typed before it
        ("\uff0d3035551203", "-3035551203", "3035551203"),  # full-width hyphen-minus
        ("'-3035551203", "-3035551203", "3035551203"),  # Excel's text apostrophe
        ("--3035551203", "--3035551203", "3035551203"),
        ("-3035551203.0", "-3035551203.0", "3035551203.0"),
        ("-+1 303 555 1203", "-+1 303 555 1203", "+1 303 555 1203"),
    ],
)
def test_a_leading_minus_sign_is_refused_naming_it(cell: str, shown: str, number: str) -> None:
    result = normalize(cell, "1")
    assert not result.ok and result.national == ""
    assert result.reason == (
        f"{shown!r} {MINUS} (a negative number, or a dash typed before the number), so it is "
        f"not read as a phone number; if the number is {number}, enter it without the minus sign"
    )
    assert normalize_with_default(cell, "1").reason == result.reason


@pytest.mark.parametrize("value", [-3035551203, -3035551203.0])
def test_a_negative_number_cell_is_refused_naming_the_minus_sign(value: float) -> None:
    result = normalize(value, "1")
    assert not result.ok
    assert result.reason == (
        "the cell is the negative number -3035551203 (a minus sign before the digits), so it "
        "is not read as a phone number; if the number is 3035551203, enter it without the "
        "minus sign"
    )


def test_a_minus_sign_before_an_invalid_number_names_both() -> None:
    result = normalize("-555-0123", "1")
    assert result.reason == (
        f"'-555-0123' {MINUS} (a negative number, or a dash typed before the number), so it is "
        "not read as a phone number, and the number after it is not valid either: "
        f"{normalize('555-0123', '1').reason}"
    )
    number = normalize(-555, "1")
    assert number.reason == (
        "the cell is the negative number -555 (a minus sign before the digits), so it is not "
        f"read as a phone number, and the number after it is not valid either: "
        f"{normalize(555, '1').reason}"
    )


def test_a_minus_sign_before_a_number_with_its_own_code() -> None:
    result = normalize_with_default("-+44 7911 123456", "1")
    assert not result.ok and result.phone_code == "44"
    assert result.reason.endswith(
        "if the number is +44 7911 123456, enter it without the minus sign"
    )
    assert "minus sign" in normalize(-7911123456, "44").reason


def test_a_minus_sign_inside_or_after_a_number_is_still_a_separator() -> None:
    for cell in ("303-555-1203", "+1-303-555-1203", "1-303-555-1203", "(303)-555-1203"):
        assert normalize(cell, "1").national == "3035551203", cell


def test_a_minus_sign_that_is_not_before_a_number_keeps_its_reason() -> None:
    for cell in ("-", "--", "- -"):
        assert normalize(cell, "1").reason == f"{cell!r} is not a phone number: it has no digits"
    assert "negative" in normalize("-2.02555E+09", "1").reason


@pytest.mark.parametrize("cell", ["-3035551203", -3035551203.0, -3035551203])
def test_a_row_with_a_leading_minus_is_invalid_never_silently_read(cell: CellValue) -> None:
    for mapping in (ColumnMapping(phone=0), ColumnMapping(phone=0, reason=1)):
        checked = run([cell, "303-555-0100"], mapping)
        assert checked[0].outcome is Outcome.INVALID
        assert "minus sign" in checked[0].message, checked[0].message
        assert checked[1].outcome is Outcome.VALID


# --------------------------------------------------------------------------
# The cells of the finding, through the command line's dry run
# --------------------------------------------------------------------------


def test_the_findings_through_a_dry_run(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = tmp_path / "optouts.csv"
    cells = [
        "STOP 3035551216",
        "DNC 3035551215",
        "Phone/Fax: 303-555-1217",
        "Fax: 303-555-1218",
        "Total: 3 records",
        "-3035551203",
        "Mobile: 303-555-2401",
    ]
    with src.open("w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["Phone"])
        writer.writerows([c] for c in cells)
    report = tmp_path / "report.xlsx"
    argv = ["import", str(src), "--into", "sms-opt-out", "--scope", "global", "--dry-run"]
    code = main([*argv, "--json", "--report", str(report)])
    out: dict[str, Any] = json.loads(capsys.readouterr().out)
    assert code == 0
    assert (out["rows"], out["valid"], out["invalid"]) == (7, 4, 3)
    book = openpyxl.load_workbook(report, read_only=True)
    try:
        rows = list(book["Rows"].iter_rows(values_only=True))
    finally:
        book.close()
    header = rows[0]
    text = {str(r[header.index("Original value")]): " ".join(str(v) for v in r) for r in rows[1:]}
    assert keyword_note("STOP") in text["STOP 3035551216"]
    assert keyword_note("DNC") in text["DNC 3035551215"]
    assert "the label 'Phone/Fax' was left out" in text["Phone/Fax: 303-555-1217"]
    assert "labelled as a fax number" in text["Fax: 303-555-1218"]
    assert "a report's total line" in text["Total: 3 records"]
    assert "vanity" not in text["Total: 3 records"]
    assert MINUS in text["-3035551203"]
