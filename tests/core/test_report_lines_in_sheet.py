"""Black-box pass P3 #6 and #7: a report's own lines and an extension column are named.

#7: a repeated header row got "'Phone' is not a phone number: it has no digits", a page title
or a Salesforce footer "the phone number is empty", a copyright line's "2000-2026" was taken for
a number, and a merged group header ("Phone" over "Number" and "Ext") was read as the header,
the real header row below it becoming an invalid data row. #6: an "Ext" column beside the
phone column was dropped without a word. The check's and staging's use of these is in patches
to sheet_check.py and job_staging.py; here the parts they call, on real files.
"""

from __future__ import annotations

from pathlib import Path

from app.core.sheet_header import detect_header, holds_phone_number, line_of_text, read_preview
from app.core.sheet_mapping import extension_columns, extension_sentence, propose_from_preview
from app.core.sheet_reader import open_sheet
from tests.core.sheet_factory import write_xlsx

HEADERS = ("Name", "Phone", "Reason")


def test_a_year_span_is_no_phone_number() -> None:
    assert not holds_phone_number("Copyright (c) 2000-2026 salesforce.com, inc.")
    assert not holds_phone_number("© 1998–2024 Acme")
    # A span the wrong way round, or one beside a real number, is not a span of years.
    assert holds_phone_number("call 303-555-2026 today")
    assert holds_phone_number("2026-2000")


def test_a_repeated_header_says_so() -> None:
    assert line_of_text(["Name", "Phone", "Reason"], 1, HEADERS, 2) == (
        "the row repeats the header (row 2), as a report printed by pages does: it holds no number"
    )
    assert line_of_text([" name ", "PHONE", "reason"], 1, HEADERS, 2).startswith("the row repeats")
    assert line_of_text(["Name", "Phone", "stop"], 1, HEADERS, 2) == ""


def test_a_page_title_or_footer_says_so() -> None:
    assert line_of_text(["Page 2 of 2", None, None], 1, HEADERS, 2) == (
        "the row holds only 'Page 2 of 2' (column A): a report's title or footer line, not a "
        "row of the table"
    )
    copyright_line = "Copyright (c) 2000-2026 salesforce.com, inc. All rights reserved."
    assert line_of_text([copyright_line], 1, HEADERS, 1).startswith(
        "the row holds only 'Copyright (c) 2000-2026 salesforce.com, inc. All rights res…'"
    )


def test_a_row_of_the_table_without_its_number_is_not_a_text_line() -> None:
    assert line_of_text(["Ann Lee", None, "stop"], 1, HEADERS, 1) == ""
    assert line_of_text(["Ann Lee", "", None], 1, HEADERS, 1) == ""
    assert line_of_text(["Page 2", "303-555-0101", None], 1, HEADERS, 1) == ""


def test_a_merged_group_header_is_not_the_header(tmp_path: Path) -> None:
    path = write_xlsx(
        tmp_path / "merged.xlsx",
        [
            ["Customer", None, "Phone", None],
            ["First", "Last", "Number", "Ext"],
            ["f", "l", "303-555-1401", None],
            ["f", "l", "303-555-1402", "12"],
        ],
        merged=["A1:B1", "C1:D1"],
    )
    with open_sheet(path) as source:
        preview = read_preview(source)
    assert detect_header(preview) == 2
    mapping = propose_from_preview(preview)
    assert (mapping.header_row, mapping.phone) == (2, 2)


def test_an_extension_column_is_named(tmp_path: Path) -> None:
    path = tmp_path / "ext_col.csv"
    path.write_text(
        "Name,Phone,Ext,Reason\nAcme Corp,303-555-1501,204,stop\nBeta LLC,303-555-1502,,stop\n"
        "Gamma,303-555-1503,x15,stop\n",
        encoding="utf-8",
    )
    with open_sheet(path) as source:
        preview = read_preview(source)
    mapping = propose_from_preview(preview)
    found = extension_columns(mapping, preview)
    assert [(c.index, c.rows) for c in found] == [(2, ((2, "204"), (4, "x15")))]
    assert extension_sentence(mapping, found[0], "import") == (
        "Column C ('Ext') holds extensions (row 2: '204' and row 4: 'x15') and is not read: "
        "each such row's number in column B ('Phone') is imported alone, as the whole line, "
        "though the line behind an extension may serve others (a number written with its "
        "extension in one cell is refused for that). Check those rows, take out any that are "
        "not for the whole line, and run the file again."
    )


def test_an_empty_or_unheaded_extension_column_is_not_named() -> None:
    preview = [(1, ("Phone", "Extension", "Notes"))] + [
        (n, (f"303-555-15{n:02}", None, "ext 12")) for n in range(2, 5)
    ]
    assert extension_columns(propose_from_preview(preview), preview) == []


def test_an_extension_column_under_the_labels_phones_reads_is_named() -> None:
    # Session 32 (fx1): phones.py reads "Nebenstelle 12" after a number, but a "Nebenstelle"
    # column beside the phone column was dropped without a word while "Durchwahl" was named.
    for header in ("Nebenstelle", "DW", "Apparat", "Toestel", "Ramal", "Anknytning"):
        preview = [(1, ("Name", "Telefon", header))] + [
            (n, (f"Firma {n}", f"0176 1234 56{n:02}", str(10 + n))) for n in range(2, 5)
        ]
        mapping = propose_from_preview(preview, "49")
        found = extension_columns(mapping, preview)
        assert [(c.index, c.rows[0]) for c in found] == [(2, (2, "12"))], header


def test_a_word_that_only_may_mean_extension_is_no_extension_column() -> None:
    # "App" or "Interno" over short numbers is as often an app's or an internal code.
    for header in ("App", "Interno", "Anexo"):
        preview = [(1, ("Name", "Phone", header))] + [
            (n, (f"Acme {n}", f"303-555-15{n:02}", str(10 + n))) for n in range(2, 5)
        ]
        assert extension_columns(propose_from_preview(preview), preview) == [], header
