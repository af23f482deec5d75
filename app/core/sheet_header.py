"""Find the header row of a sheet: often row 1, but not after titles, notes and blank rows.

The rule: the header is the last all-label row (text that is neither a number nor a date) above
the first row holding a phone number that names a known column ("Phone", "Reason"...); failing
that, a row naming a column further down that has phone numbers right below it, when the phone
numbers above it (a vendor's "Contact phone:" preamble) are in other columns; failing that, the
last non-blank row above the data if it is all labels; otherwise there is none. A cell
holding a phone number among words ("303-555-2401 (cell)", "Cell Phone: 303-555-2401") is data,
never a label, so such a first data row is not taken for the header; and no header is chosen
below a row holding such a tagged number in the phone column, which would be skipped unseen.

The rows it looks at come from :func:`read_preview`, shared by every reader of a sheet's first
rows (staging, the import wizard, the bulk-removal count): blank rows do not count toward its
length, and it reads on while no phone number has been seen (a table under 60 rows of notes or
70 blank rows), within fixed bounds so a file with no phone column is still refused quickly.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Final, Protocol

from app.core.phones import ONE_DOT_PHONE, is_phone_label
from app.core.sheet_types import CellValue, Row
from app.core.wording import joined

# Non-blank rows in a preview when phone numbers show up among them (header detection and the
# proposed mapping see these).
PREVIEW_ROWS: Final = 50
# When the first phone number comes late, the preview goes on this many non-blank rows from it,
# so the mapping is proposed from enough data.
DATA_ROWS: Final = 25
# Non-blank rows searched for a first phone number before the sheet is taken to have none.
SEARCH_ROWS: Final = 1_000
# Bounds on what is read (blank rows included) while searching: the reader keeps these rows
# for the full read that follows, so memory stays small whatever the sheet holds.
MAX_READ_ROWS: Final = 20_000
MAX_READ_CELLS: Final = 4_000_000
_DATE_LIKE: Final = re.compile(
    r"\s*(\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4})(\s.*)?"
)
_NON_PHONE_CHARS: Final = re.compile(r"[^0-9+()\-./\s'\u00a0xXeE,]")
# A number with one decimal point or comma: an amount or a measure, whatever its digits
# ("1051527.39": black-box B18 F3; "8035551.125", read as 8035551125: re-test U1 F3;
# "2208.9375", "0.525625", "37.774929", "-122.419416"), but where a phone number is written
# with one point (phones.ONE_DOT_PHONE). 202.555.0147, with two points, is no amount.
_DECIMAL: Final = re.compile(r"\s*[-+]?\d+[.,]\d+\s*")
# A fraction of zeros: "4155550199.0" is a whole number, as a script writes a float.
_ZERO_FRACTION: Final = re.compile(r"\s*[-+]?\d+[.,]0+\s*")


# An amount as a locale groups it, with a fraction that is not all zeros: "8.035.551,125",
# "1,051,527.39", "8 035 551,125", "1'051'527.39" (re-test U2 F4: a column of them was read as
# phone numbers, every row invalid). Zeros only ("3.035.559.633,00") is a whole number, as the
# phone module reads it (its _DECIMAL_COMMA and _THOUSANDS).
_GROUPED_AMOUNT: Final = re.compile(
    r"\s*[-+]?\d{1,3}(?:(?:\.\d{3})+,|(?:,\d{3})+\.|(?:[\s\u00a0]\d{3})+,|(?:'\d{3})+\.)"
    r"\d*[1-9]\d*\s*"
)
# Two numbers of seven digits or more with a comma between them and no space: "3035550147,
# 3035550148" written as one word, which no amount is.
_TWO_NUMBERS: Final = re.compile(r"\s*\d{7,},\d{7,}\s*")


def _amount(value: str) -> bool:
    if _GROUPED_AMOUNT.fullmatch(value) is not None:
        return True
    return _DECIMAL.fullmatch(value) is not None and ONE_DOT_PHONE.fullmatch(value) is None


# Digits with phone punctuation between them, and commas or apostrophes with a digit on both
# sides: a number as written, its decimal comma or grouping in it ("8035551,125",
# "1'000'000.0001", "303-555-0147,303-555-0148").
_NUMBER_RUN: Final = re.compile(r"\d(?:[\d\s().\-/\u00a0]|[,'](?=\d))*\d")


# Digits with phone punctuation between them, as written among words: "303-555-2401",
# "(303) 555 2401", "+44 20 7946 0958".
_DIGIT_RUN: Final = re.compile(r"\d[\d\s().\-/\u00a0]*\d")
# Digits in a run that make it a phone number (looks_like_phone's lower bound) unless a date.
_RUN_DIGITS: Final = 7
# A span of years ("Copyright (c) 2000-2026", "1998–2024"): eight digits, no phone number.
_YEAR_RANGE: Final = re.compile(r"\s*((?:19|20)\d\d)\s*[-\u2010-\u2015]\s*((?:19|20)\d\d)\s*")
_WORD: Final = re.compile(r"[^\W\d_]+")


def is_blank(cells: Sequence[CellValue]) -> bool:
    return all(v is None or (isinstance(v, str) and not v.strip()) for v in cells)


def looks_like_phone(value: CellValue) -> bool:
    """A cheap, country-agnostic guess that a cell holds a phone number (7 to 15 digits)."""
    if isinstance(value, bool) or value is None:
        return False
    if isinstance(value, int):
        return 1_000_000 <= value < 10**15
    if isinstance(value, float):
        return 1_000_000 <= value < 10**15 and value.is_integer()
    if not isinstance(value, str):
        return False
    # Letters first: a note of 1,500 characters is refused at its first word instead of after
    # counting its digits (black-box B17 F2: +8.6 s per 100,000 rows of multi-line notes).
    if _NON_PHONE_CHARS.search(value) is not None:
        return False
    digits = sum(c.isdigit() for c in value)
    # A float's text ("2025550147.0") is not phone-shaped either, as since black-box B18 F3;
    # holds_phone_number still finds the whole number in it, so such a column is read.
    return 7 <= digits <= 15 and not _DATE_LIKE.fullmatch(value) and not _amount(value)


def holds_phone_number(text: str) -> bool:
    """Whether ``text`` has a phone number in it, words around it or not: a run of at least
    seven digits with only phone punctuation between them that is not a date or a span of
    years ("303-555-2401 (cell)", "Tel 303 555 2401"; not "Received 2026-01-05", nor a
    Salesforce report's "Copyright (c) 2000-2026", black-box pass P3 #7), nor an amount with
    a fraction ("8035551.125": re-test U1 F3, a column of such was read as 8035551125), its
    decimal comma or grouping included ("8035551,125", "8.035.551,125": re-test U2 F4; the
    comma splits the digits, and "8035551" alone would count)."""
    for number in _NUMBER_RUN.findall(text):
        if _fraction(number) and not _TWO_NUMBERS.fullmatch(number):
            continue
        for run in _DIGIT_RUN.findall(number):
            if (
                sum(c.isdigit() for c in run) >= _RUN_DIGITS
                and not _DATE_LIKE.fullmatch(run)
                and not _years(run)
                and not _fraction(run)
            ):
                return True
    return False


def _fraction(run: str) -> bool:
    """An amount with a fraction; "2025550147.0" is a whole number, as a script writes one."""
    return _amount(run) and not _ZERO_FRACTION.fullmatch(run)


def _years(run: str) -> bool:
    """Whether a run of digits is a span of years, the later one second ("2000-2026")."""
    match = _YEAR_RANGE.fullmatch(run)
    return match is not None and match[1] < match[2]


def tagged_phone(value: CellValue) -> bool:
    """A cell a person filled in as a phone number: one :func:`looks_like_phone` accepts, or
    one number tagged with one label of its kind, as the phone module reads it without the
    label ("303-555-2310 cell", "Mobile: 303-555-2401", "Cell Phone: 303-555-2401"). A note that
    gives a number ("From: Vendor X (questions: 800-555-0100)") is not one."""
    if looks_like_phone(value):
        return True
    if not isinstance(value, str) or not holds_phone_number(value):
        return False
    runs = _DIGIT_RUN.findall(value)
    if sum(1 for run in runs if sum(c.isdigit() for c in run) >= _RUN_DIGITS) != 1:
        return False
    words = _WORD.findall(_DIGIT_RUN.sub(" ", value).casefold())
    return not words or is_phone_label(words)


def is_label(value: CellValue) -> bool:
    """Text that can be a column name: not a number, date or phone number, nor text with a
    phone number in it ("303-555-2401 (cell)" is a data cell, whatever its word says)."""
    if not isinstance(value, str):
        return False
    text = value.strip()
    if not text or looks_like_phone(text) or _DATE_LIKE.fullmatch(text):
        return False
    if holds_phone_number(text) or text.casefold() in _PLACEHOLDERS:
        return False
    return not text.replace(".", "", 1).replace(",", "").isdigit()


# What a data cell holds where there is no number ("N/A" over a column of numbers is a row of
# data, not the column's name; taking it for the header dropped the row from every count).
# pandas writes a missing value as "nan" (NaN, NaT, <NA>) once a column is made text: re-test
# U2 F2, a header-less column of floats took its "nan" for the header, the rows above it lost.
_PLACEHOLDERS: Final = frozenset(
    {"n/a", "na", "#n/a", "none", "null", "nil", "unknown", "-", "--", "?", "tbd", "blank"}
    | {"nan", "nat", "<na>"}
)


class Previewable(Protocol):
    """A sheet that can hand out its first rows again (a :class:`SheetSource`)."""

    def preview(self, n: int) -> list[Row]: ...


def read_preview(source: Previewable) -> list[Row]:
    """The first rows of ``source`` to find its header and propose its mapping from.

    Only non-blank rows are returned, with the sheet's own row numbers: ``PREVIEW_ROWS`` of
    them, or, when the first row holding something phone-like comes later, up to ``DATA_ROWS``
    rows from that one on. With no phone-like row among the first ``SEARCH_ROWS`` non-blank
    rows (or within ``MAX_READ_ROWS`` sheet rows) the first ``PREVIEW_ROWS`` are returned, as
    the sheet then has no column of phone numbers to find.
    """
    asked = PREVIEW_ROWS
    while True:
        rows = source.preview(asked)
        kept, complete = _preview_of(rows)
        if complete or len(rows) < asked:
            return kept
        widest = max((len(cells) for _, cells in rows), default=1)
        if asked >= MAX_READ_ROWS or asked * 4 * widest > MAX_READ_CELLS:
            return kept
        asked = min(asked * 4, MAX_READ_ROWS)


def _preview_of(rows: Sequence[Row]) -> tuple[list[Row], bool]:
    """The preview among ``rows`` (the sheet's first rows) and whether more rows can change it."""
    kept: list[Row] = []
    first_data: int | None = None
    for row in rows:
        if is_blank(row[1]):
            continue
        if first_data is None and any(looks_like_phone(v) for v in row[1]):
            first_data = len(kept)
        kept.append(row)
        if first_data is not None and len(kept) >= max(PREVIEW_ROWS, first_data + DATA_ROWS):
            return kept, True
        if first_data is None and len(kept) >= SEARCH_ROWS:
            return kept[:PREVIEW_ROWS], True
    return (kept if first_data is not None else kept[:PREVIEW_ROWS]), False


def detect_header(rows: Sequence[Row]) -> int | None:
    """The row number of the header among the first rows of a sheet, or None if it has none.

    ``rows`` is a preview (:func:`read_preview`); all of it is looked at.
    """
    above: list[Row] = []
    found_data: Row | None = None
    for row in rows:
        if is_blank(row[1]):
            continue
        if any(looks_like_phone(v) for v in row[1]):
            found_data = row
            break
        above.append(row)
    labels = [row for row in above if _all_labels(row[1])]
    # Distinct names: a merged group header ("Phone" over "Number" and "Ext") reads as its
    # name in every cell it spans, and must not outnumber the row of names under it.
    named = [(len({v for v in row[1] if _names_column(v)}), row) for row in labels]
    named = [(count, row) for count, row in named if count]
    if found_data is not None:
        if named:
            # Rows above the header are skipped: none may hold a number in the phone column.
            data_columns = {c for c, v in enumerate(found_data[1]) if looks_like_phone(v)}
            kept = [
                (count, row)
                for count, row in named
                if not _tagged_above(above, row, data_columns | _phone_named(row[1]))
            ]
            if not kept:
                return None
            # The header names the most columns; a title naming one loses, a later row wins ties.
            return max(kept, key=lambda item: (item[0], item[1][0]))[1][0]
        below = _header_after_preamble(rows)
        if below is not None:
            return below
        if above and _all_labels(above[-1][1]):
            return above[-1][0]
        return None
    # No phone numbers recognised: the widest label row that names a column, or sits on values.
    candidates = [
        row
        for index, row in enumerate(above)
        if _all_labels(row[1])
        and (
            any(_names_column(v) for v in row[1])
            or (
                index + 1 < len(above)
                and any(v is not None and not is_label(v) for v in above[index + 1][1])
            )
        )
    ]
    if candidates:
        return max(candidates, key=lambda row: (_filled(row[1]), -row[0]))[0]
    return None


# How many rows below a line of labels naming no column are compared with it: rows that all
# go on right of its last cell say it heads none of their columns.
_ROWS_UNDER_TITLE: Final = 5


def title_over_data(line: Row, rows: Sequence[Row]) -> bool:
    """Whether ``line``, a row of labels naming no column above the first phone number, is a
    title over headerless rows ("ACME Corp opt-outs, March" over "Kim,201-555-0310,stop", one
    cell, or two where a CSV's unquoted comma split it): each row under it holding a phone
    number fills more cells than it, one right of its last. A header names each column its
    rows fill; taken for one, the title left the rows' last columns (their reasons) unread as
    "right of the header" (fxD, session 33). It stays the row the data starts below, so it is
    not imported, while the columns are read as a headerless sheet's."""
    number, cells = line
    if not _all_labels(cells) or any(_names_column(v) for v in cells):
        return False
    filled = [c for c, v in enumerate(cells) if v is not None and str(v).strip()]
    under = [
        [c for c, v in enumerate(r) if v is not None and str(v).strip()]
        for n, r in rows
        if n > number and not is_blank(r) and any(looks_like_phone(v) for v in r)
    ][:_ROWS_UNDER_TITLE]
    return bool(filled and under) and all(
        len(row) > len(filled) and row[-1] > filled[-1] for row in under
    )


def _header_after_preamble(rows: Sequence[Row]) -> int | None:
    """The first row naming a column with phone numbers just below it, in columns where no
    phone number appears above it (rows above a header are skipped, so numbers there would be
    lost: two headerless lists pasted above a header keep the file headerless)."""
    above_columns: set[int] = set()
    for index, (number, cells) in enumerate(rows):
        if is_blank(cells):
            continue
        if _all_labels(cells) and any(_names_column(v) for v in cells):
            following = next((r for r in rows[index + 1 :] if not is_blank(r[1])), None)
            if following is not None:
                columns = {c for c, v in enumerate(following[1]) if looks_like_phone(v)}
                if columns and not columns & above_columns:
                    return number
        if not _letterhead_number(cells):
            above_columns.update(c for c, v in enumerate(cells) if tagged_phone(v))
    return None


# The words of a letterhead's label for its own line ("Tel:", "Fax", "Phone No.", "Helpline",
# "Customer Service", "Toll Free"), never a kind of contact line ("Cell", "Home", "Mobile"),
# which a headerless list of a person's numbers is written with.
_LETTERHEAD_WORDS: Final = frozenset(
    {"tel", "tele", "telephone", "phone", "ph", "fax", "facsimile", "main", "office"}
    | {"helpline", "hotline", "switchboard", "toll", "free", "no", "number", "customer"}
    | {"service", "call", "us", "contact", "general", "enquiries", "inquiries"}
)
_LETTERHEAD_LABEL_WORDS: Final = 3


def _letterhead_number(cells: Sequence[CellValue]) -> bool:
    """Whether a row is a letterhead's number for the business itself: a label of its own
    line ("Tel:", "Fax", "Helpline") with one phone number right of it and nothing else, or
    both in one cell ("Tel: (800) 555-0199").

    A printed report's title block gives one (black-box bb9 F5): it does not make the numbers
    under the header below it part of a headerless list, so the header is still found there,
    and the number gets the note on rows above the header."""
    filled = [(c, v) for c, v in enumerate(cells) if v is not None and str(v).strip()]
    if len(filled) == 1:
        # "Tel: (800) 555-0199" in one cell.
        text = filled[0][1]
        return isinstance(text, str) and tagged_phone(text) and _letterhead_label(text)
    if len(filled) != 2:
        return False
    (label_column, label), (number_column, number) = filled
    if number_column != label_column + 1 or not looks_like_phone(number):
        return False
    return isinstance(label, str) and _letterhead_label(label)


def _letterhead_label(text: str) -> bool:
    """Whether the words of ``text`` (its digits left out) label a business's own line."""
    words = _WORD.findall(_DIGIT_RUN.sub(" ", text).casefold())
    return 0 < len(words) <= _LETTERHEAD_LABEL_WORDS and set(words) <= _LETTERHEAD_WORDS


def _tagged_above(above: Sequence[Row], header: Row, columns: set[int]) -> bool:
    """Whether a row above ``header`` holds a phone number in one of ``columns``."""
    return any(
        tagged_phone(cells[c])
        for number, cells in above
        if number < header[0] and not _letterhead_number(cells)
        for c in columns
        if c < len(cells)
    )


def _phone_named(cells: Sequence[CellValue]) -> set[int]:
    from app.core.sheet_mapping import Role, header_role

    return {c for c, v in enumerate(cells) if isinstance(v, str) and header_role(v) is Role.PHONE}


def _names_column(value: CellValue) -> bool:
    from app.core.sheet_mapping import header_role  # mapping imports this module

    return isinstance(value, str) and header_role(value) is not None


def _filled(cells: Sequence[CellValue]) -> int:
    return sum(1 for v in cells if v is not None)


def _all_labels(cells: Sequence[CellValue]) -> bool:
    return all(v is None or is_label(v) for v in cells)


# A line of text among the rows of a table: a printed report's page title ("Opt-out report
# page 2"), its footer ("Page 2 of 2", Salesforce's "Copyright (c) 2000-2026 salesforce.com"),
# at most this many cells of text and no number, one with a word of such lines (a row of a
# name and no number is a row of the table all the same).
_TEXT_LINE_CELLS: Final = 2
_TEXT_LINE_WORDS: Final = re.compile(
    r"\b(?:page|pages|report|copyright|confidential|generated|printed|prepared|exported|"
    r"all rights reserved|total|totals|grand total|end of report|run date)\b|\(c\)|©",
    re.IGNORECASE,
)
# A report's section heading alone in a cell: Five9's "Summary" above its "Total" line (black-box
# B16 #7). Whole cell only: "Summary sent" beside no number is a row of the table.
_HEADING_LINE: Final = re.compile(r"\s*summary\s*:?\s*", re.IGNORECASE)
_SHOWN_TEXT: Final = 60


def _cell_said(value: CellValue) -> str:
    text = " ".join(str(value).split())
    return text if len(text) <= _SHOWN_TEXT else f"{text[: _SHOWN_TEXT - 1]}…"


def line_of_text(
    cells: Sequence[CellValue], phone: int, headers: Sequence[str], header_row: int | None
) -> str:
    """Why a data row with no phone number is no row of the table, or ``""``: it repeats the
    header (a report printed by pages repeats it on each), or it holds only a line of text (a
    page title or footer, a copyright or "Generated by" line). Black-box pass P3 #7: such rows
    were "the phone number is empty" or "'Phone' is not a phone number: it has no digits"."""
    if header_row and _repeats(cells, headers):
        return (
            f"the row repeats the header (row {header_row}), as a report printed by pages "
            "does: it holds no number"
        )
    raw = cells[phone] if phone < len(cells) else None
    if raw is not None and not (isinstance(raw, str) and not raw.strip()):
        return ""
    filled = [(i, v) for i, v in enumerate(cells) if not is_blank([v])]
    if not filled or len(filled) > _TEXT_LINE_CELLS:
        return ""
    if not all(is_label(v) for _, v in filled):
        return ""
    if not any(
        _TEXT_LINE_WORDS.search(str(v)) or _HEADING_LINE.fullmatch(str(v)) for _, v in filled
    ):
        return ""
    shown = " and ".join(f"{_cell_said(v)!r} (column {_letter(i)})" for i, v in filled)
    # "Grand Total (9 records)", "Total: $1,200": a total line, as total_line names one.
    what = _total_kind(filled[0][1]) or "title or footer"
    return f"the row holds only {shown}: a report's {what} line, not a row of the table"


# The text of a report's help line giving the business's own number, as a printed report ends
# ("Questions? Call compliance at | 201-555-0399", "Call us", "Helpline", "For assistance"):
# black-box bb9 F6, such a footer went onto the DNC list unremarked. Matched from the cell's
# start, so a name ("Callum Ross") is none.
_CONTACT_LINE: Final = re.compile(
    r"\s*(?:questions?\b|any questions\b|call us\b|contact us\b|helpline\b|hotline\b|"
    r"for (?:questions|help|assistance|support|enquiries|inquiries)\b|customer service\b|"
    r"need help\b|call compliance\b)",
    re.IGNORECASE,
)


def may_be_contact_line(first: CellValue) -> bool:
    """A cheap test on a row's first filled cell: may the row be a report's help line?"""
    return type(first) is str and _CONTACT_LINE.match(first) is not None


def contact_line(cells: Sequence[CellValue], phone: int) -> str:
    """Why a row holding a phone number is a report's help line and no row of the table, or
    ``""``: its phone cell and one cell of text starting as a help line does ("Questions? Call
    compliance at"), nothing else. The number is the business's own, not one a person asked
    not to be called on; a row meant to be sent is written with a name, not such a sentence."""
    filled = [(i, v) for i, v in enumerate(cells) if not is_blank([v])]
    if len(filled) != _TEXT_LINE_CELLS or phone not in {i for i, _ in filled}:
        return ""
    column, text = next((i, v) for i, v in filled if i != phone)
    if not may_be_contact_line(text):
        return ""
    return (
        f"the row holds only {_cell_said(text)!r} (column {_letter(column)}) beside the number: "
        "a report's help line giving its own number, not a row of the table, so it is not "
        "sent; if the number is one to send, write it in a row of the table with a name"
    )


# The label of a report's total line: "Total", "Subtotal", "Grand Total", "Count", "Sum",
# "Record Count", "Total (4 records)", "Count: 20", "Sum of Amount"; Excel's Data > Subtotal
# lines, "Spring Total" after each group ("Spring Count", "Spring Ergebnis" in German Excel)
# and "Grand Total"; and other languages' totals ("Gesamtsumme", "Summe", "Total général",
# "Sous-total", "Suma", "Totale complessivo", "Eindtotaal"). Matched whole, so a name that
# only begins so ("Sum Kim", "Totally Fit LLC", "Total Fitness") is none.
_TOTAL_WORD: Final = (
    r"(?:grand[\s-]*|sub[\s-]*)?(?:totals?|(?:total\s+|record\s+)?count|sum)"
    r"|(?:gesamt|zwischen|end)?summen?|gesamt(?:ergebnis|betrag)?|insgesamt|zwischentotal"
    r"|(?:sous|sub)[\s-]*totale?s?|totale?s?[\s-]+(?:g[ée]n[ée]ral(?:e|es)?|geral|complessivo)"
    r"|totale|suma(?:[\s-]+total)?|soma|(?:eind|sub)?totaal|totalt|summa"
)
# A count and, after it, up to three words saying what was counted: "7", "7 opt-outs".
_COUNTED: Final = r"\d[\d.,]*(?:\s+[^\W\d_][\w'’-]*){0,3}"
# After the word: the count or what was counted, "(4 records)", ": 20", " 3", "of Amount",
# " 7 records".
_TOTAL_TAIL: Final = rf"(?:\s*[:(].*|\s+(?:of|for|records?|rows?|count)\b.*|\s+{_COUNTED})?"
# What a report's trailer counts: "records", "opt-outs", "DNC requests", "rows (s)". Words of
# this list only, not any word, where a trailer has no "Total": "Cell: 6" or "Phone 5550" is a
# damaged phone number, to be judged as one.
_THINGS: Final = (
    r"(?:(?:dnc|do[\s-]*not[\s-]*call|opt[\s-]*out)\s+)?"
    r"(?:records?|rows?|entry|entries|opt[\s-]*outs?|optouts?|requests?|contacts?"
    r"|(?:phone\s+)?numbers?|results?|items?)(?:\s*\(s\))?"
)
# The same in the plural only, for a label with no count word: "Records: 6", not "Number: 6".
_THINGS_COUNTED: Final = (
    r"(?:(?:dnc|do[\s-]*not[\s-]*call|opt[\s-]*out)\s+)?"
    r"(?:records|rows|entries|opt[\s-]*outs|optouts|requests|contacts|(?:phone\s+)?numbers"
    r"|results|items)(?:\s+(?:found|returned|exported|listed|selected|processed))?"
)
_WORDS: Final = r"[^\W\d_][\w'’-]*(?:\s+[^\W\d_][\w'’-]*){0,2}"
_NUMBER_OF: Final = r"(?:number|no\.?|\#|count)\s*of\s+"
# What follows a label naming what was counted: ": 6", ":", "= 6", " 6", " (6)".
_COUNT_AFTER: Final = rf"(?:\s*[:=]\s*(?:{_COUNTED})?|\s+\d[\d.,]*|\s*\(\s*{_COUNTED}\s*\))"
# A count with what it counts, the whole cell: "6 records", "(6 records)", "6 rows returned",
# "Showing 6 records"; or "7 opt-outs total", "12 in total".
_COUNT_TEXT: Final = (
    rf"\s*(?:(?:showing|found|returned|exported)\s+)?\(?\s*\d[\d.,]*\s+{_THINGS}"
    r"(?:\s+(?:found|returned|exported|listed|selected|processed|in\s+total|total))?\s*\)?\.?\s*"
    rf"|\s*{_COUNTED}\s+(?:in\s+)?totals?\.?\s*"
)
_TOTAL_LABEL: Final = re.compile(
    rf"\s*(?:{_TOTAL_WORD}){_TOTAL_TAIL}\s*"
    # The count first: "7 opt-outs total", "12 in total", "6 records" (before the group's
    # form, which would take "7 opt-outs" for a group).
    rf"|{_COUNT_TEXT}"
    # "Total" and what it counts: "Total Opt-Outs: 6", "Total DNC requests 12", "Grand total
    # # of opt-outs:"; black-box B7 #7: "Total Opt-Outs: 6" was "it has only 1 digit".
    rf"|\s*(?:grand[\s-]*|sub[\s-]*)?totals?\s+(?:{_NUMBER_OF})?"
    rf"(?:{_WORDS}\s*[:=]\s*(?:{_COUNTED})?|{_THINGS}(?:{_COUNT_AFTER})?)\s*"
    # No "Total": "Number of records: 6", "No. of opt-outs", "Records: 6", "Rows:", "Records
    # found: 6" (black-box B7 #7: "Records:" was "the phone number is empty").
    rf"|\s*(?:total\s+)?{_NUMBER_OF}{_WORDS}(?:{_COUNT_AFTER})?\s*"
    rf"|\s*{_THINGS_COUNTED}{_COUNT_AFTER}\s*"
    # A group's label before the word: Excel's Subtotal writes "<group> Total".
    rf"|\s*(?P<group>\S.{{0,60}}?)\s+(?:totals?|count|ergebnis|totaal){_TOTAL_TAIL}\s*",
    re.IGNORECASE | re.DOTALL,
)
# A cell beside a total line's label holding its count in words: "6 records" beside "Records:".
_COUNT_CELL: Final = re.compile(_COUNT_TEXT, re.IGNORECASE)
# A total line's label that says it sums a part of the table, not all of it.
_SUBTOTAL_WORD: Final = re.compile(r"\s*(?:sub|sous|zwischen)", re.IGNORECASE)
# Group labels that make a line the whole table's total, not a group's: "Grand Total".
# So do the things a trailer counts: "Opt-outs total: 6", "Row count" count the whole table.
_WHOLE_TABLE: Final = re.compile(
    rf"grand|overall|report|all|gesamt|general|{_THINGS}|dnc|do[\s-]*not[\s-]*call",
    re.IGNORECASE,
)


def total_line(cells: Sequence[CellValue], phone: int) -> str:
    """Why a row whose phone cell holds no phone number is a report's total line, or ``""``.

    A NetSuite saved search or a Salesforce summary report ends a table, or each group of it,
    with a row such as ``Total | | 20``: a label first, then counts or sums, the phone column's
    among them. Black-box pass Q1 #3: such rows were "too short for a US number: 2 digits" or
    "this does not look like a phone number". The row is invalid all the same; its message
    names it. A phone cell holding something a phone number could be is no count, and one
    holding text is judged as the phone number it was meant to be, unless that text is the
    row's label: "Totals | 8" with the label in the phone column. Black-box S1 #1: Excel's
    Data > Subtotal lines ("Spring Total | | | 4"), other languages' totals and a total line
    with no count ("Total,") were "the phone number is empty" or "'Sum' is not a phone number",
    and the count beside "Sum" was "'2' is not a date".
    """
    raw = cells[phone] if phone < len(cells) else None
    filled = [(i, v) for i, v in enumerate(cells) if not is_blank([v])]
    if looks_like_phone(raw):
        return _beside_total_label(filled, phone)
    if is_label(raw) and filled[0][0] != phone and not aggregate_formula(raw):
        return ""
    # "Total: 7 opt-outs" in the phone column is a label like "Totals" there (black-box B2
    # #6: it was "not a phone number: it has only 1 digit"); is_label keeps a cell holding a
    # phone number ("Total 303-555-0100") to be judged as that number.
    if filled and filled[0][0] == phone and not is_label(raw):
        return ""
    kind = _total_kind(filled[0][1]) if filled else ""
    # Only counts and sums beside the label, "6 records" among them (black-box B7 #7:
    # "Records: | | 6 records"), or a table's totals formulas as text: a row holding other
    # text is a row of the table.
    if not kind or any(
        is_label(v) and not _count_cell(v) and not aggregate_formula(v) for _, v in filled[1:]
    ):
        return ""
    shown = joined([f"{_value_said(v)} (column {_letter(i)})" for i, v in filled])
    return f"the row holds only {shown}: a report's {kind} line, not a row of the table"


def _beside_total_label(filled: Sequence[tuple[int, CellValue]], phone: int) -> str:
    """Why a row refused for its phone number, which looks like one, holds a total's label
    beside it and nothing but numbers else (``7450100335 | Total``), or ``""``.

    Black-box B26 F7: such a row, its label after the number, got the long note of a UK number
    that lost its 0, and was counted in the file's warning that it may be a UK list. Its
    number, not the sum of the numbers above (that is a total line whatever its value,
    :class:`PhoneSums`), may be a total mislabelled or a consumer's; the row is refused either
    way, and says so shortly.
    """
    labels = [
        (i, v) for i, v in filled if i != phone and not _number_cell(v) and not _count_cell(v)
    ]
    # A label before the number is a total line's own shape (total_shape); "Total |
    # 303-555-0100" in text is a phone number with a word before it, read as one if valid.
    if not labels or not all(
        i > phone and isinstance(v, str) and _total_label(v) for i, v in labels
    ):
        return ""
    shown = joined([f"{_value_said(v)} (column {_letter(i)})" for i, v in filled])
    return (
        f"the row holds only {shown}: no valid phone number as read and not the sum of the "
        "numbers above, so a total line mislabelled or a consumer's number mistyped; check it "
        "against the source"
    )


def _total_label(text: str) -> bool:
    """Whether ``text`` is a total's label that is no one's name (:func:`total_shape`'s)."""
    if not may_name_total(text) or _NAME_OR_COUNT.fullmatch(text):
        return False
    return bool(_STATISTIC.fullmatch(text) or _total_kind(text))


# A formula summing up a column, as a table's totals row holds under each column: Excel's
# SUBTOTAL(109,Table1[Amount]) (ExcelJS totalsRow, XlsxWriter total_row, openpyxl and Excel
# itself write these), AGGREGATE, or a plain SUM/COUNT/AVERAGE/MIN/MAX/… of a range.
_AGGREGATE: Final = re.compile(
    r"\s*(?:_xlfn\.)?(?:subtotal|aggregate|sum|counta?|countblank|average|averagea|"
    r"min|mina|max|maxa|product|median|stdev(?:\.[sp])?|stdevp?a?|var(?:\.[sp])?|varp?a?)"
    r"\s*\(.*\)\s*",
    re.IGNORECASE | re.DOTALL,
)


def aggregate_formula(value: CellValue) -> bool:
    """Whether a cell holds the text of a formula summing up a column ("=SUBTOTAL(109,…)"),
    as a table's totals row does (:data:`_AGGREGATE`)."""
    if not isinstance(value, str):
        return False
    text = value.lstrip()
    return text[:1] == "=" and _AGGREGATE.fullmatch(text, 1) is not None


def totals_row(cells: Sequence[CellValue], phone: int, formulas: Mapping[int, str]) -> bool:
    """Whether a row whose cells ``formulas`` (by column) hold formulas with no saved result
    (read as empty) is a table's totals row: each of those formulas sums up a column
    (:func:`aggregate_formula`), and the row's other cells are a total line's label first
    ("Total"), then counts or sums only, its phone cell holding no phone number.

    Black-box B13 #5: ExcelJS's ``totalsRow`` and XlsxWriter's ``total_row`` write
    ``Total | =SUBTOTAL(103,T[Country Code])`` with no saved result, and the row was "cell B4
    holds a formula with no saved result … open and save the file in Excel" where a total
    line with a label alone reads "a report's total line". A row of such formulas and no
    label is not taken: nothing on it says it is a total line.
    """
    if not formulas or not all(_AGGREGATE.fullmatch(f) for f in formulas.values()):
        return False
    raw = cells[phone] if phone < len(cells) else None
    if phone not in formulas and looks_like_phone(raw):
        return False
    filled = [(i, v) for i, v in enumerate(cells) if i not in formulas and not is_blank([v])]
    if not filled or not _total_kind(filled[0][1]):
        return False
    return not any(is_label(v) and not _count_cell(v) for _, v in filled[1:])


def _total_kind(value: CellValue) -> str:
    """ "total" or "subtotal" when ``value`` is a total line's label (:data:`_TOTAL_LABEL`),
    else ""."""
    if not isinstance(value, str) or (found := _TOTAL_LABEL.fullmatch(value)) is None:
        return ""
    if holds_phone_number(value):
        return ""  # "Total: 480-555-5503", "Records 4805555503": a phone number with a word
    group = found.group("group")
    if group is not None and _WHOLE_TABLE.fullmatch(group.strip()) is None:
        return "subtotal"  # "Spring Total": the total of the group above it
    return "subtotal" if _SUBTOTAL_WORD.match(value) else "total"


def _count_cell(value: CellValue) -> bool:
    """Whether a text cell is a count with what it counts ("6 records", "(6 opt-outs)")."""
    return (
        isinstance(value, str)
        and _COUNT_CELL.fullmatch(value) is not None
        and not holds_phone_number(value)
    )


def _value_said(value: CellValue) -> str:
    """A cell as a message quotes it: text in quotes, a number as a spreadsheet shows it (20,
    not 20.0)."""
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    if isinstance(value, int | float):
        return str(value)
    return repr(_cell_said(value))


def repeats_header(cells: Sequence[CellValue], headers: Sequence[str]) -> bool:
    """Whether a row below the header is the header again (:func:`_repeats`)."""
    return _repeats(cells, headers)


def _repeats(cells: Sequence[CellValue], headers: Sequence[str]) -> bool:
    """Whether a row's cells are the header's names again (case and spaces aside), its phone
    column's among them."""
    named = [(i, h) for i, h in enumerate(headers) if h]
    if not named:
        return False
    for index, header in named:
        value = cells[index] if index < len(cells) else None
        if not isinstance(value, str) or " ".join(value.split()).casefold() != (
            " ".join(header.split()).casefold()
        ):
            return False
    return True


# A digit anywhere in a cell: a row holding one is no header (the cheap test on every row).
_ANY_DIGIT: Final = re.compile(r"\d")


def other_header(cells: Sequence[CellValue], headers: Sequence[str]) -> list[int]:
    """The columns naming phone numbers in a row below the header that is itself a header,
    of another table than the one named ``headers`` ([] for any other row).

    Such a row is taken as :func:`detect_header` would take it: at least two cells filled,
    each a label (text with no digit, not a placeholder such as "N/A"), one of them naming
    phone numbers. A row repeating ``headers`` is the same table's (:func:`line_of_text`
    names it). Black-box B10 #2: Gnumeric's "Text (configurable)" export appends every sheet
    to one file, and a second batch pasted with its own header below a first was read under
    the first table's columns. Rows holding a digit (every row of numbers) cost one search.
    """
    filled = 0
    for value in cells:
        if value is None:
            continue
        if type(value) is not str or _ANY_DIGIT.search(value):
            return []
        if value.strip():
            filled += 1
    if filled < 2 or not _all_labels(cells) or _repeats(cells, headers):
        return []
    return sorted(_phone_named(cells))


def _letter(index: int) -> str:
    from app.core.sheet_mapping import column_letter  # mapping imports this module

    return column_letter(index)


# A phone cell's value this size or more can be a total mistaken for a phone number; a
# smaller one is refused as too short whatever it sums.
PHONE_SIZED: Final = 1_000_000
# How every label numbered_total_line takes begins or ends, lower-cased: a cheap test a row's
# first cell passes before it is read as a label (check_plain runs it on every number row, so
# a name that only contains a word, "Summers", "Subramanian", should mostly fail it).
_TOTAL_STARTS: Final = (
    "total", "grand total", "grand-total", "grandtotal", "subtotal", "sub-total", "sub total",
    "sum of", "summe", "gesamt", "insgesamt", "zwischensumme", "sous-total", "sous total",
    "average", "avg", "mean",
)  # fmt: skip
_TOTAL_ENDS: Final = ("total", "totals", "total:", "ergebnis", "totaal", "summe")
# Labels a table's totals row writes beside a statistic rather than a total (Excel's totals row
# offers Average; people type Mean): they name no total, so total_line does not take them.
_STATISTIC: Final = re.compile(r"\s*(?:average|avg|mean)\s*:?\s*", re.IGNORECASE)
# Labels total_line takes that are also names people have ("Sum", "Suma", "Soma"), and counts,
# never phone-sized: beside a phone number they are a consumer's row, not a total line.
_NAME_OR_COUNT: Final = re.compile(r"\s*(?:sum|suma|soma|summa)\s*|.*count.*", re.I | re.S)


def may_name_total(text: str) -> bool:
    """Whether ``text`` may be a label :func:`numbered_total_line` takes (cheap: no regex)."""
    low = text.strip().lower()
    return low.startswith(_TOTAL_STARTS) or low.endswith(_TOTAL_ENDS)


def _number_cell(value: CellValue) -> bool:
    kind = type(value)
    return kind is int or kind is float


def total_shape(cells: Sequence[CellValue], phone: int) -> str:
    """ "total" or "subtotal" when the row is a total line's label first (not in the phone
    column), then numbers only (the phone cell's among them) and counts in words; else "".

    Stricter than :func:`total_line`: a consumer's row holds a name, a date or a reason beside
    its number, so a row with any text but its label is none, nor is one whose label can be a
    person's name ("Sum") or is a count's ("Count": never phone-sized). "Total Wine" is no
    label at all.
    """
    filled = [(i, v) for i, v in enumerate(cells) if v is not None and v != ""]
    if len(filled) < 2 or filled[0][0] == phone:
        return ""
    label = filled[0][1]
    if not isinstance(label, str) or not _total_label(label):
        return ""
    kind = "total" if _STATISTIC.fullmatch(label) else _total_kind(label)
    for i, v in filled[1:]:
        if i == phone or _number_cell(v) or _count_cell(v):
            continue
        if not (isinstance(v, str) and v.strip().isdigit()):
            return ""
    return kind


def numbered_total_line(cells: Sequence[CellValue], phone: int) -> str:
    """Why a row whose phone cell is a number cell is a table's total line, or ``""``: it has a
    total line's shape (:func:`total_shape`), whatever the number is.

    Black-box B26 F1: a totals row ``Total | 12238394094`` (a SUBTOTAL's saved result, or the
    value pasted) was imported as +1 223-839-4094, total_line leaving alone any phone cell
    that looks like a phone number. A number cell under a label "Total" is the table's total.
    A CSV has no number cells: there a total is known by its value (:class:`PhoneSums`).
    """
    raw = cells[phone] if phone < len(cells) else None
    if not _number_cell(raw) or not (kind := total_shape(cells, phone)):
        return ""
    filled = [(i, v) for i, v in enumerate(cells) if v is not None and v != ""]
    shown = joined([f"{_value_said(v)} (column {_letter(i)})" for i, v in filled])
    return (
        f"the row holds only {shown}: a table's {kind} line, not a consumer's number (a "
        "number under a total's label is the line's result)"
    )


class PhoneSums:
    """The phone column's numbers so far, summed, so a total line is known by its value.

    Black-box B26 F1: a table's totals row whose SUBTOTAL(109,…) or SUM happened to be a valid
    phone number (four US numbers summing to 9202843994) was imported as a consumer's, with a
    label or without one. A consumer's number equal to the sum of two or more numbers above it
    does not happen; a total does. Number cells of a phone number's size count (in a CSV,
    which has no types, cells of digits only), each once, a total line's never: Excel's
    SUBTOTAL leaves out the subtotals in its range. The sum since the last subtotal line is
    kept too (Data > Subtotal's groups). An average is a total only on a row with a total
    line's shape (:func:`total_shape`): a block of numbers in use, unsorted, may hold the
    average of the ones above it.
    """

    # The sums since the last total line are the whole column's less what was summed by then:
    # adding a number is two stores, as the hot path wants.
    __slots__ = ("closed", "closed_count", "closed_total", "count", "first", "total")

    def __init__(self) -> None:
        self.total: float = 0
        self.count = 0
        self.first = 0  # the first row summed
        self.closed_total: float = 0  # total and count at the last total line
        self.closed_count = 0
        self.closed = 0  # the last total line's row, 0 before one

    def take(self, value: float, row: int) -> bool:
        """Whether ``value`` may be a total (check() decides); else it is added, and False."""
        total = self.total
        count = self.count
        if (
            value == total or value * count == total or value == total - self.closed_total
        ) and self.matches(value):
            return True
        self.add(value, row)
        return False

    def matches(self, value: float) -> str:
        """ "sum", "group", "average" or "count" when ``value`` is one of the column's, else
        ""."""
        if self.count < 2:
            return ""
        if value < PHONE_SIZED:
            # FXK: a COUNT or COUNTA result saved as its value ("5" under five numbers) was
            # "this does not look like a phone number", with no word of the count.
            return "count" if value == self.count else ""
        if value == self.total:
            return "sum"
        if self.count - self.closed_count > 1 and value == self.total - self.closed_total:
            return "group"
        if value * self.count == self.total:
            return "average"
        return ""

    def add(self, value: float, row: int) -> None:
        """Sum ``value`` (a row found no total line)."""
        # Phone-sized numbers only: a stray 1 above 3035550100 is no reason to take the next
        # row's 3035550101 for their sum (and a total of phone numbers is of those).
        if value >= PHONE_SIZED:
            if not self.count:
                self.first = row
            self.total += value
            self.count += 1

    def close(self, row: int) -> None:
        """A total or subtotal line on ``row``: the next group's sum starts after it."""
        self.closed_total = self.total
        self.closed_count = self.count
        self.closed = row

    def said(self, value: float, what: str, row: int) -> str:
        """Why ``row``, holding ``value``, is a total line, as :meth:`matches` found ``what``."""
        if what == "group":
            count, first, line = self.count - self.closed_count, self.closed + 1, "subtotal"
        else:
            count, first, line = self.count, self.first, "count" if what == "count" else "total"
        how = {"average": "the average", "count": "the count"}.get(what, "the sum")
        since = " since the last subtotal line" if what == "group" else ""
        return (
            f"the row's {_value_said(value)} is {how} of the {count} phone numbers above "
            f"it{since} (rows {first}-{row - 1}): a table's {line} line, not a consumer's "
            "number"
        )
