"""A phone cell with one label word ("303-555-2401 (cell)", "Mobile: 303-555-2401") or a
two-word label ("Cell Phone: 303-555-2401", "Phone No. 202 555 0123") is read as its number,
with a note; other words around a number are refused as words, not as a vanity number; real
vanity numbers, extensions and fax labels stay refused.

Vendor and agent sheets write numbers this way all the time, and an opt-out lost to its label
is a legal risk: the number is read, the report keeps the cell as written and says the label
was left out.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app.api.scope import Scope
from app.core import phones
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.phones import normalize, normalize_with_default
from app.core.sheet_check import CheckedRow, Outcome, check_all
from app.core.sheet_header import detect_header, is_label
from app.core.sheet_mapping import ColumnMapping, Role, header_role, propose_from_preview
from app.core.sheet_types import CellValue, Row
from tests.core import sheet_factory as f
from tests.core.test_phones_properties import PROPERTY_SETTINGS, written_inputs

WORDS = "has words around the number; enter the number alone"
VANITY = "is spelled with letters (a vanity number like 1-800-FLOWERS)"


@pytest.mark.parametrize(
    ("cell", "national", "label"),
    [
        ("303-555-2401 (cell)", "3035552401", "cell"),
        ("Mobile: 303-555-2401", "3035552401", "Mobile"),
        ("Tel 303 555 2401", "3035552401", "Tel"),
        ("Cell 303-555-2831", "3035552831", "Cell"),
        ("303-555-2310 cell", "3035552310", "cell"),
        ("202-555-0123 home", "2025550123", "home"),
        ("c: 2025550123", "2025550123", "c"),
        ("h 2025550123", "2025550123", "h"),
        # case, brackets on either side, separators after a leading label
        ("MOBILE 2025550123", "2025550123", "MOBILE"),
        ("(Cell) 202-555-0123", "2025550123", "Cell"),
        ("[w] 202-555-0123", "2025550123", "w"),
        ("202-555-0123 [Work]", "2025550123", "Work"),
        ("(202) 555-0123 (office)", "2025550123", "office"),
        ("Tel.: 202.555.0123", "2025550123", "Tel"),
        ("Phone #: 2025550123", "2025550123", "Phone"),
        ("ph# 2025550123", "2025550123", "ph"),
        ("Landline - 202 555 0123", "2025550123", "Landline"),
        ("m-2025550123", "2025550123", "m"),
        ("O: 2025550123", "2025550123", "O"),
        ("p. 2025550123", "2025550123", "p"),
        ("Cell:+1 202 555 0123", "2025550123", "Cell"),
        ("2025550123, mobile", "2025550123", "mobile"),
        ("'303-555-2401 (cell)", "3035552401", "cell"),  # Excel's text apostrophe
        ("\uff13\uff10\uff13 555 2401 \uff08cell\uff09", "3035552401", "cell"),  # full-width
    ],
)
def test_a_number_with_one_label_is_read_with_a_note(cell: str, national: str, label: str) -> None:
    result = normalize(cell, "1")
    assert (result.ok, result.national, result.phone_code, result.reason) == (
        True,
        national,
        "1",
        "",
    )
    assert result.note == f"the label {label!r} was left out"
    assert result.e164 == f"+1{national}"
    # The same answer from the cache, and when the code is only a default.
    assert normalize(cell, "1") == result
    assert normalize_with_default(cell, "1") == result


def test_a_labelled_number_names_its_own_country_code() -> None:
    result = normalize_with_default("Mobile: +44 7911 123456", "1")
    assert (result.ok, result.phone_code, result.national) == (True, "44", "7911123456")
    assert result.note == "the label 'Mobile' was left out"
    assert normalize("07911 123456 (mobile)", "44").national == "7911123456"


@pytest.mark.parametrize(
    ("cell", "bare", "code"),
    [
        ("555-0100 (cell)", "555-0100", "1"),
        ("Home: 202-555-012", "202-555-012", "1"),
        ("cell 123-456-7890", "123-456-7890", "1"),
        ("mobile 07911 12345", "07911 12345", "44"),
    ],
)
def test_a_labelled_invalid_number_keeps_the_bare_numbers_reason(
    cell: str, bare: str, code: str
) -> None:
    result = normalize(cell, code)
    expected = normalize(bare, code)
    assert not expected.ok
    assert not result.ok
    assert result.reason == expected.reason
    assert result.note.startswith("the label ")


@pytest.mark.parametrize(
    "cell",
    [
        "call 2025550123 after 5pm",
        "spouse's number 303-555-2401",
        "cell 303-555-2401 (home)",  # two labels: which number is it?
        "Home Cell 303-555-2401",
        "303-555-2401 home cell",
        "Tel303 555 2401",  # a leading word needs a space or a separator
        "not this one 2025550123",
    ],
)
def test_other_words_around_a_number_are_refused_as_words(cell: str) -> None:
    result = normalize(cell, "1")
    assert not result.ok
    assert result.reason == f"{cell!r} {WORDS}"
    assert "vanity" not in result.reason
    assert result.note == ""


@pytest.mark.parametrize(
    "cell",
    ["1-800-FLOWERS", "1-800-GOT-JUNK", "202-555-CALL", "1-800-555-CALL", "1 800 FLOWERS"],
)
def test_vanity_numbers_keep_the_vanity_wording(cell: str) -> None:
    result = normalize(cell, "1")
    assert not result.ok
    assert result.reason.startswith(f"{cell!r} {VANITY}")


def test_a_labelled_vanity_number_is_still_a_vanity_number() -> None:
    result = normalize("1-800-FLOWERS (cell)", "1")
    assert not result.ok and VANITY in result.reason


def test_a_stray_letter_in_the_digits_is_still_named() -> None:
    assert normalize("202555012K", "1").reason == "the number contains letters ('K')"


@pytest.mark.parametrize(
    "cell",
    [
        "303-555-2401 x12",
        "Cell: 303-555-2401 x12",
        "303-555-2401 ext. 5 (cell)",
        "mobile 202-555-0123 #123",
    ],
)
def test_extensions_stay_refused(cell: str) -> None:
    result = normalize(cell, "1")
    assert not result.ok
    assert result.reason.startswith("the number has an extension"), result.reason


@pytest.mark.parametrize(
    "cell",
    [
        "fax 303-555-2401",
        "Fax: 303-555-2401",
        "303-555-2401 (fax)",
        "2025550123 FAX",
        "Fax/Phone: 303-555-2401",  # the fax named first: not a "Phone/Fax" line
    ],
)
def test_a_fax_label_is_refused_naming_it(cell: str) -> None:
    result = normalize(cell, "1")
    assert not result.ok
    assert result.reason.startswith(f"{cell!r} is labelled as a fax number"), result.reason
    assert "enter the number alone" in result.reason


def test_two_labelled_numbers_are_two_numbers() -> None:
    result = normalize("cell 303-555-2401 / home 303-555-2402", "1")
    assert not result.ok and result.reason.startswith("two phone numbers in one cell")


@pytest.mark.parametrize(
    ("cell", "label"),
    [("Phone/Fax: 303-555-2401", "Phone/Fax"), ("303-555-2401 [Tel / Fax]", "Tel / Fax")],
)
def test_a_phone_fax_label_is_read_as_a_phone_label(cell: str, label: str) -> None:
    result = normalize(cell, "1")
    assert (result.ok, result.national) == (True, "3035552401")
    assert result.note == f"the label {label!r} was left out"


def test_plain_numbers_carry_no_note() -> None:
    for cell in ("303-555-2401", "(202) 555-0123", 2025550123, "+44 7911 123456"):
        assert normalize(cell, "1" if cell != "+44 7911 123456" else "44").note == ""


LABELS = st.sampled_from(["cell", "Mobile", "TEL", "home", "c", "h", "w", "Work", "office"])
FORMS = st.sampled_from(["{l} {n}", "{l}: {n}", "({l}) {n}", "{n} ({l})", "{n} {l}", "{n} [{l}]"])


@PROPERTY_SETTINGS
@given(written_inputs(), LABELS, FORMS)
def test_a_label_never_changes_the_verdict(case: tuple[str, str], label: str, form: str) -> None:
    # normalize(bare) is held to phonenumbers' own verdict by test_phones_properties; the
    # library reads a labelled cell its own way (it skips text before the number, and may or
    # may not drop text after it), so the labelled cell is held to the bare number's verdict,
    # reason included, rather than to the library's reading of the whole cell.
    bare, code = case
    cell = form.format(l=label, n=bare.strip())
    expected = normalize(bare, code)._replace(note=f"the label {label!r} was left out")
    assert normalize(cell, code) == expected
    phones.clear_cache()
    assert normalize(cell, code) == expected  # the cold path too


# --------------------------------------------------------------------------
# Through the row check and a dry run: the row is valid, says so, and keeps the cell.
# --------------------------------------------------------------------------


def run(rows: list[list[CellValue]], mapping: ColumnMapping) -> list[CheckedRow]:
    numbered: list[Row] = [(i, r) for i, r in enumerate(rows, 1)]
    checked, _ = check_all(numbered, mapping)
    return checked


# phone only: check_plain decides most rows inline; with a request date column every row goes
# through check().
MAPPINGS = {
    "plain rows": (ColumnMapping(phone=0), lambda cell: [cell]),
    "dated rows": (ColumnMapping(phone=0, request_date=1), lambda cell: [cell, "2026-11-19"]),
}


@pytest.mark.parametrize("mapping_name", sorted(MAPPINGS))
@pytest.mark.parametrize(
    ("cell", "label"),
    [("303-555-2401 (cell)", "cell"), ("c: 2025550123", "c"), ("Mobile: 303-555-2401", "Mobile")],
)
def test_a_labelled_row_is_valid_with_the_note(mapping_name: str, cell: str, label: str) -> None:
    mapping, row = MAPPINGS[mapping_name]
    checked = run([row(cell), row("(719) 555-0100")], mapping)
    first = checked[0]
    assert first.outcome is Outcome.VALID
    assert first.original == cell
    assert first.national == normalize(cell, "1").national
    assert f"the label {label!r} was left out" in first.message
    assert first.message.startswith("row 1: ")
    assert first.damage == ""  # a label is no spreadsheet damage
    assert checked[1].message == ""


def test_a_labelled_invalid_row_says_what_its_reason_is_about() -> None:
    checked = run([["555-0100 (cell)"]], ColumnMapping(phone=0))
    assert checked[0].outcome is Outcome.INVALID
    reason = normalize("555-0100", "1").reason
    assert checked[0].message == f"row 1: phone: {reason}; the label 'cell' was left out"


def test_a_labelled_number_and_the_bare_one_are_duplicates() -> None:
    checked = run([["303-555-2401 (cell)"], ["3035552401"]], ColumnMapping(phone=0))
    assert [c.outcome for c in checked] == [Outcome.VALID, Outcome.DUPLICATE]


def test_words_around_a_number_make_the_row_invalid_with_the_words_reason() -> None:
    checked = run([["call 2025550123 after 5pm"]], ColumnMapping(phone=0))
    assert checked[0].outcome is Outcome.INVALID
    assert checked[0].message == f"row 1: phone: 'call 2025550123 after 5pm' {WORDS}"


def test_dry_run_stages_the_labelled_row_as_valid_keeping_the_cell(tmp_path: Path) -> None:
    rows = [
        ("Phone", "Name"),
        ("303-555-2401 (cell)", "Ann"),
        ("303-555-2402", "Bob"),
        ("call 2025550123 after 5pm", "Cy"),
    ]
    path = f.write_xlsx(tmp_path / "labels.xlsx", rows)
    store, _ = stage_import(JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None)
    try:
        staged = {r.row_number: r for r in store.rows()}
        labelled = staged[2]
        assert labelled.original == "303-555-2401 (cell)"
        assert (labelled.phone_code, labelled.national) == ("1", "3035552401")
        assert labelled.outcome != "invalid"
        assert "the label 'cell' was left out" in labelled.message
        assert staged[4].outcome == "invalid" and WORDS in staged[4].message
    finally:
        store.close()


def test_the_summary_counts_a_labelled_row_as_valid_not_damaged() -> None:
    numbered: list[Row] = [(1, ["Tel 303 555 2401"]), (2, ["h 2025550123"])]
    checked, summary = check_all(numbered, ColumnMapping(phone=0))
    assert [c.outcome for c in checked] == [Outcome.VALID, Outcome.VALID]
    assert (summary.valid, summary.invalid, summary.damaged) == (2, 0, 0)


# --------------------------------------------------------------------------
# Two-word labels, as CRM exports write them: "Cell Phone: 303-555-2401", "Phone No. ...".
# --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cell", "national", "label"),
    [
        ("Cell Phone: 303-555-2401", "3035552401", "Cell Phone"),
        ("Home Phone 303 555 2401", "3035552401", "Home Phone"),
        ("Work Tel. 202-555-0123", "2025550123", "Work Tel"),
        ("303-555-2401 (home phone)", "3035552401", "home phone"),
        ("Phone No. 202 555 0123", "2025550123", "Phone No"),
        ("Mobile No: 202-555-0123", "2025550123", "Mobile No"),
        ("Phone Number: 202-555-0123", "2025550123", "Phone Number"),
        ("Tel. No. 202 555 0123", "2025550123", "Tel. No"),
        ("Tel.No.202 555 0123", "2025550123", "Tel.No"),
        ("Telephone Number - (202) 555-0123", "2025550123", "Telephone Number"),
        ("CELL PHONE 2025550123", "2025550123", "CELL PHONE"),
        ("Cell  Phone : 303-555-2401", "3035552401", "Cell Phone"),  # spaces as one
        ("Work Phone #: 202-555-0123", "2025550123", "Work Phone"),
        ("Business Line 202.555.0123", "2025550123", "Business Line"),
        ("Land Line - 202 555 0123", "2025550123", "Land Line"),
        ("Main Number: +1 202 555 0123", "2025550123", "Main Number"),
        ("Alt Ph: 2025550123", "2025550123", "Alt Ph"),
        ("Mob No 2025550123", "2025550123", "Mob No"),
        ("(Cell Phone) 202-555-0123", "2025550123", "Cell Phone"),
        ("[Tel. No.] 202-555-0123", "2025550123", "Tel. No"),
        ("202-555-0123 [Work Phone]", "2025550123", "Work Phone"),
        ("202-555-0123 (phone no.)", "2025550123", "phone no"),
        ("2025550123 home phone", "2025550123", "home phone"),
        ("2025550123, Office Tel.", "2025550123", "Office Tel"),
        ("'Cell Phone: 303-555-2401", "3035552401", "Cell Phone"),  # Excel's text apostrophe
        ("\uff23ell \uff30hone\uff1a 303 555 2401", "3035552401", "Cell Phone"),  # full-width
        # one word and "#" is a one-word label, as before
        ("Cell #: 303-555-2401", "3035552401", "Cell"),
    ],
)
def test_a_number_with_a_two_word_label_is_read_with_a_note(
    cell: str, national: str, label: str
) -> None:
    result = normalize(cell, "1")
    assert (result.ok, result.national, result.phone_code, result.reason) == (
        True,
        national,
        "1",
        "",
    )
    assert result.note == f"the label {label!r} was left out"
    assert normalize(cell, "1") == result
    assert normalize_with_default(cell, "1") == result


def test_a_two_word_label_keeps_the_numbers_own_country_code() -> None:
    result = normalize_with_default("Mobile Number: +44 7400 123456", "1")
    assert (result.ok, result.phone_code, result.national) == (True, "44", "7400123456")
    assert result.note == "the label 'Mobile Number' was left out"


@pytest.mark.parametrize(
    ("cell", "bare"),
    [("Cell Phone: 555-0100", "555-0100"), ("555-0100 (home phone)", "555-0100")],
)
def test_a_two_word_labelled_invalid_number_keeps_the_bare_numbers_reason(
    cell: str, bare: str
) -> None:
    result = normalize(cell, "1")
    expected = normalize(bare, "1")
    assert not expected.ok and not result.ok
    assert result.reason == expected.reason
    assert result.note == f"the label {cell.replace(bare, '').strip(' :()')!r} was left out"


@pytest.mark.parametrize(
    "cell",
    [
        "Cell Phone Number: 303-555-2401",  # three words
        "Mobile Phone No. 303-555-2401",
        "303-555-2401 (home phone no.)",
        "Home Cell 303-555-2401",  # two kinds of line
        "Work Mobile: 303-555-2401",
        "call me at 303-555-2401",
        "call me 303-555-2401",
        "Phone Phone 2025550123",
        "Phone Line 2025550123",
        "Number Phone 2025550123",
        "No Phone 2025550123",
        "Not Home 2025550123",
        "c phone 2025550123",  # one-letter words are never half of a pair
        "h no 2025550123",
        "Cell Phone303-555-2401",  # a leading label needs a space or a separator
        "Cell-Phone: 303-555-2401",
        "spouse's phone 303-555-2401",
        "Fax Call 303-555-2401",
    ],
)
def test_other_pairs_and_longer_labels_are_refused_as_words(cell: str) -> None:
    result = normalize(cell, "1")
    assert not result.ok
    assert result.reason == f"{cell!r} {WORDS}"
    assert result.note == ""


@pytest.mark.parametrize(
    "cell",
    [
        "Fax Number: 303-555-2401",
        "Home Fax 303-555-2401",
        "Fax No. 303-555-2401",
        "Office Fax: 2025550123",
        "Fax Phone: 2025550123",
        "Fax Line 2025550123",
        "Facsimile Number 2025550123",
        "303-555-2401 (fax no.)",
        "2025550123 [Work Fax]",
        "2025550123 business fax",
    ],
)
def test_a_two_word_fax_label_is_refused_naming_fax(cell: str) -> None:
    result = normalize(cell, "1")
    assert not result.ok
    assert result.reason.startswith(f"{cell!r} is labelled as a fax number"), result.reason
    assert "enter the number alone" in result.reason
    assert result.note == ""


@pytest.mark.parametrize(
    "cell",
    [
        "Cell Phone: 303-555-2401 x12",
        "Work Phone 202-555-0123 ext. 5",
        "303-555-2401 ext. 5 (work phone)",
        "Phone No. 202-555-0123 #123",
    ],
)
def test_extensions_with_a_two_word_label_stay_refused(cell: str) -> None:
    result = normalize(cell, "1")
    assert not result.ok
    assert result.reason.startswith("the number has an extension"), result.reason


def test_a_two_word_labelled_vanity_number_is_still_a_vanity_number() -> None:
    for cell in ("Cell Phone: 1-800-FLOWERS", "1-800-FLOWERS (home phone)"):
        result = normalize(cell, "1")
        assert not result.ok and VANITY in result.reason, result.reason


def test_two_numbers_under_a_two_word_label_are_two_numbers() -> None:
    for cell in (
        "Cell Phone: 303-555-2401 / 303-555-2402",
        "Cell Phone 303-555-2401 / Home Phone 303-555-2402",
    ):
        result = normalize(cell, "1")
        assert not result.ok and result.reason.startswith("two phone numbers in one cell")


def test_the_pairs_are_made_of_label_words() -> None:
    # A word of a pair's kinds is a label on its own too, so a kind read in a pair is read alone.
    assert phones._LINE_KINDS <= phones.LABEL_WORDS
    assert phones._GENERIC_WORDS <= phones.LABEL_WORDS
    assert all(len(word) > 1 for word in phones._LINE_KINDS | phones._LINE_NOUNS)
    assert phones.is_phone_label(["cell", "phone"])
    assert phones.is_phone_label(["tel", "no"])
    assert phones.is_phone_label(["cell"])
    assert not phones.is_phone_label([])
    assert not phones.is_phone_label(["fax"])
    assert not phones.is_phone_label(["fax", "number"])
    assert not phones.is_phone_label(["home", "cell"])
    assert not phones.is_phone_label(["cell", "phone", "number"])
    # "Phone/Fax" (the "/" a word of its own) is a phone label; the fax named first is not.
    assert phones.is_phone_label(["phone", "/", "fax"])
    assert phones.is_phone_label(["tel", "/", "fax"])
    assert not phones.is_phone_label(["fax", "/", "phone"])
    assert not phones.is_phone_label(["cell", "/", "home"])
    # An opt-out keyword is read off a number too, alone: it pairs with nothing.
    assert phones.is_phone_label(["stop"])
    assert not phones.is_phone_label(["stop", "phone"])
    assert not phones.OPT_OUT_WORDS & (phones.LABEL_WORDS | phones._LINE_KINDS)


PAIRS = st.sampled_from(
    ["Cell Phone", "home phone", "WORK TEL", "Mobile No", "Phone No", "Tel. No", "Land Line"]
)


@PROPERTY_SETTINGS
@given(written_inputs(), PAIRS, FORMS)
def test_a_two_word_label_never_changes_the_verdict(
    case: tuple[str, str], label: str, form: str
) -> None:
    bare, code = case
    cell = form.format(l=label, n=bare.strip())
    expected = normalize(bare, code)._replace(note=f"the label {label!r} was left out")
    assert normalize(cell, code) == expected
    phones.clear_cache()
    assert normalize(cell, code) == expected


@pytest.mark.parametrize(
    ("cell", "label"),
    [("Cell Phone: 303-555-2401", "Cell Phone"), ("Phone No. 3035552401", "Phone No")],
)
def test_a_two_word_labelled_row_is_valid_with_the_note(cell: str, label: str) -> None:
    checked = run([[cell], ["(719) 555-0100"]], ColumnMapping(phone=0))
    assert checked[0].outcome is Outcome.VALID
    assert checked[0].original == cell
    assert checked[0].national == "3035552401"
    assert f"the label {label!r} was left out" in checked[0].message


# --------------------------------------------------------------------------
# Header detection: "Cell Phone" is a header, "Cell Phone: 303-555-2401" is data.
# --------------------------------------------------------------------------


def numbered(*rows: list[CellValue]) -> list[Row]:
    return [(i, list(r)) for i, r in enumerate(rows, 1)]


@pytest.mark.parametrize(
    "first",
    [
        "Cell Phone: 303-555-2401",
        "Home Phone 303 555 2401",
        "303-555-2401 (home phone)",
        "Phone No. 303 555 2401",
        "Work Tel. 303-555-2401",
    ],
)
@pytest.mark.parametrize("header", ["Cell Phone", "Phone", "Home Phone", "Phone No."])
def test_a_cell_phone_header_over_a_two_word_labelled_row(header: str, first: str) -> None:
    rows = numbered(
        [header, "Name"],
        [first, "Ann"],
        ["303-555-2402", "Bob"],
        ["303-555-2403", "Cy"],
    )
    assert is_label(header) and not is_label(first)
    assert header_role(header) is Role.PHONE
    assert detect_header(rows) == 1
    mapping = propose_from_preview(rows)
    assert mapping.header_row == 1 and mapping.phone == 0
    checked, _ = check_all(rows[1:], mapping)
    assert [c.national for c in checked] == ["3035552401", "3035552402", "3035552403"]
    assert [c.outcome for c in checked] == [Outcome.VALID] * 3


def test_a_two_word_labelled_number_above_a_header_keeps_the_file_headerless() -> None:
    # Skipping row 1 under a header on row 2 would lose an opt-out with no outcome.
    rows = numbered(
        ["Cell Phone: 303-555-2401", "Ann"],
        ["Phone", "Name"],
        *[[f"303-555-24{i:02d}", f"P{i}"] for i in range(10, 15)],
    )
    assert detect_header(rows) is None
    mapping = propose_from_preview(rows)
    assert mapping.header_row is None and mapping.phone == 0


def test_a_dry_run_reads_a_cell_phone_column(tmp_path: Path) -> None:
    rows = [
        ("Cell Phone", "Name"),
        ("Cell Phone: 303-555-2401", "Ann"),
        ("303-555-2402", "Bob"),
        ("Fax Number: 303-555-2403", "Cy"),
    ]
    path = f.write_xlsx(tmp_path / "pairs.xlsx", rows)
    store, _ = stage_import(JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None)
    try:
        staged = {r.row_number: r for r in store.rows()}
        assert sorted(staged) == [2, 3, 4]
        assert (staged[2].phone_code, staged[2].national) == ("1", "3035552401")
        assert staged[2].outcome != "invalid"
        assert "the label 'Cell Phone' was left out" in staged[2].message
        assert staged[4].outcome == "invalid" and "labelled as a fax number" in staged[4].message
    finally:
        store.close()
