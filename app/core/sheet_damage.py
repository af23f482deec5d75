"""Recognise phone cells a spreadsheet program has already damaged, and say how.

The phone module decides validity; this module only explains the cell's history so a person can
judge it: scientific notation, more digits than Excel keeps, a float written out as text, a
leading zero dropped because the cell was a number. It never repairs silently: a repaired reading
is reported next to the original cell.

Text cells tell the same story as number cells: a CSV written by Excel holds "4.47701E+11", or,
on a German, French or Spanish locale, "3035550533,0" or
"3.035.550.533,00" (the note is :func:`app.core.phones.decimal_comma_note`, which the phone
module also gives the valid number itself, as a row check never asks here about a valid text
cell without "." or "e"); and a number
longer than 15 digits as Excel left it, its digits after the 15th zeros
("30355501013035500000", often two numbers typed into one cell). Sixteen digits or more that do
not end so were not cut by Excel and get no note. A whole number written with a decimal point
("3035550533.0", as pandas writes a float column) keeps every digit up to 15, so the ".0" is no
damage: such a cell is noted only for what a number cell loses (a leading 0, digits past the
15th, all but six digits).

A number of ten digits or more whose digits after the sixth are all zeros (2025550000, as a
cell or as plain digits) is what a number shown in scientific notation keeps once the file is
saved: Excel shows 2025551241 as "2.02555E+09" in a narrow column, and a CSV saved from it
holds those six digits, which a spreadsheet then reads back as the number 2025550000. It is
valid, and about one real number in ten thousand ends so, so it is read as it stands, with a
note (:data:`CUT_SHORT`) showing the numbers it may have been rounded from; staging names such
rows in a warning, as it is the rows of a whole column that are cut so.

A number cell of a country whose numbers are written with a trunk 0 (UK, France, Australia) is
noted as having lost it ("it lost its leading 0 (written 07911123456 in United Kingdom)"): a
spreadsheet drops it from a number typed 07911123456. Not when the row's code came from a cell
of its own (a Country Code or Country column) and the digits are the number's national
significant number, as a list keeps it: DNC Desk's own export writes them so, beside their code,
and a spreadsheet re-saving it makes them numbers that are read exactly (``code_from_cell``).

A cell refused as a US number that is a number of another country written with its trunk 0
("020 7946 0018"), or once the leading 0 a number cell drops is put back (the number
7911123456, 07911123456 in the UK; 669823456, Rome's 06 6982 3456), is named so by
:func:`other_country_note`, with each country's reading when there are several, for the row's
message: a file given no country is read as US numbers, and such rows are the sign of a
file of another country's numbers (see :func:`other_country`). When the file has a column of
its rows' countries that was not read, the note says to correct the row's Country cell, not
to give the file a --phone-code. Digits lacking a 0 that are also a valid number as they stand
of a country writing none (Italy's mobile 3471234567, Spain's 612345678) name that reading too:
first in a text cell, which holds what was typed; after the lost-0 reading in a number cell,
which can hold no 0.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Final, NamedTuple

import phonenumbers

from app.core import phones
from app.core.phone_fastpath import NUMBER_TYPES
from app.core.phones import PhoneResult
from app.core.sheet_types import CellValue
from app.core.wording import joined

_SCIENTIFIC: Final = re.compile(r"\s*'?\s*[0-9]*(?:[.,][0-9]*)?[eE][+-]?[0-9]{1,3}\s*")
# A whole number written as a decimal ("3035550533.0"), as pandas writes a float column (a
# column with an empty cell is one) and a CSV saved from a number cell with decimals shows it.
_FLOAT_TEXT: Final = re.compile(r"\s*'?\s*([0-9]+)\.0+\s*")
# A decimal number with a fraction ("303555070.6", "8035551.125", as a CSV writes a number
# cell): valid only read as dotted digit groups, which no one writes with one dot there
# (re-test U2 F1); phones.ONE_DOT_PHONE says where one dot is a phone number's.
_FRACTION_TEXT: Final = re.compile(r"\s*'?\s*[0-9]+\.[0-9]+\s*")
# Its digits may be grouped by dots or spaces, as that locale shows a number:
# "3.035.559.633,00", "3 035 559 633,00" (the phone module's _DECIMAL_COMMA).
_DECIMAL_COMMA: Final = re.compile(
    r"\s*'?\s*(?:\+?[0-9]+|[0-9]{1,3}([. \u00a0\u202f])[0-9]{3}(?:\1[0-9]{3})*),0+\s*"
)
# A whole number with commas between its thousands ("2,015,550,280", "2,015,550,280.00"): a
# number cell formatted "#,##0" or "#,##0.00" saved as shown.
_GROUPED_TEXT: Final = re.compile(r"\s*'?\s*([0-9]{1,3}(?:,[0-9]{3})+)(?:\.0+)?\s*")
_GROUPED: Final = "a number with commas between its thousands"
# Thousands, not a decimal comma ("303,000"): the phone module reads them so.
_THOUSANDS: Final = re.compile(r"\s*'?\s*[0-9]{1,3},000\s*")
# A number cut to Excel's 15 significant digits and written out as text: zeros after the 15th.
_CUT_TEXT: Final = re.compile(r"\s*'?\s*\+?([1-9][0-9]{14}0+)\s*")
_EXACT_DIGITS: Final = 15
# Excel's scientific display keeps six significant digits at most ("2.02555E+09"); a number of
# ten digits or more with fewer (the rest zeros) may have been cut to them.
_SHOWN_DIGITS: Final = 6
_CUT_MIN_DIGITS: Final = 10
# Said by every note on such a number: staging counts the rows whose damage note has it.
# How many digits a national number that lost its trunk 0 has left: 9 (France 0612345678,
# Australia 0412345678) or 10 (UK 07911123456, India 09876543210).
_LOST_ZERO_DIGITS: Final = (9, 10)
CUT_SHORT: Final = "as a number shown in scientific notation keeps once saved"
# Said by every note that only guesses a number cell lost a leading 0 (its digits are no valid
# number as they stand, and would be one with a 0): staging counts such rows apart from those
# a spreadsheet certainly damaged (black-box bb4 #1: 3,003 ten-digit cells that were just
# invalid US numbers were counted and warned of as damaged).
MAY_HAVE_LOST_ZERO: Final = "may have lost a leading 0"
# Said by the note on a number cell that reads as two valid numbers, as it stands and with the 0
# a spreadsheet drops put back, in a country whose numbers keep their 0 (Italy): a removal
# refuses such a row (sheet_check).
ZERO_IN_NUMBER: Final = (
    "reads as two valid numbers, as it stands and with the leading 0 a spreadsheet drops put back"
)
_PLAIN_DIGITS: Final = re.compile(r"\s*'?\s*\+?([0-9]+)\s*")
# Text holding a number as a country writes it nationally: digits and separators, no "+".
_NATIONAL_TEXT: Final = re.compile(r"\s*'?\s*[0-9(][0-9 ().-]*[0-9]\s*")


def only_a_guess(note: str) -> bool:
    """Whether a damage note only guesses the cell lost a leading 0 (:data:`MAY_HAVE_LOST_ZERO`)
    rather than saying how a spreadsheet damaged it: asked only of rows with a note."""
    return MAY_HAVE_LOST_ZERO in note


def drops_trunk_zero(phone_code: str) -> bool:
    """Whether numbers of this country are written nationally with a leading 0 (UK 07700…):
    :func:`app.core.phones.drops_trunk_zero`, which the phone module's own hints use too."""
    return phones.drops_trunk_zero(phone_code)


# The phonenumbers number types whose example numbers tell a country's numbers apart: all of
# them, as the fast path checks them.
_EXAMPLE_TYPES: Final = NUMBER_TYPES


@cache
def keeps_leading_zero(phone_code: str) -> bool:
    """Whether numbers of this country can begin with a 0 that is part of the number, not a
    trunk prefix dialled only nationally: Italy's landlines (+39 02 1234 5678; phonenumbers
    marks such a number italian_leading_zero), San Marino's, Côte d'Ivoire's. Told by the
    metadata: no national prefix 0, and an example number of some type starting with 0."""
    for region in phonenumbers.COUNTRY_CODE_TO_REGION_CODE.get(int(phone_code or 0), ()):
        meta = phonenumbers.PhoneMetadata.metadata_for_region(region)
        if meta is None or meta.national_prefix == "0":
            continue
        for kind in _EXAMPLE_TYPES:
            desc = getattr(meta, kind, None)
            example = desc.example_number if desc is not None else None
            if example and example.startswith("0"):
                return True
    return False


def lost_zero_text(raw: str) -> str:
    """The digits of text holding bare digits not starting with 0 ("351234571", "'351234571"),
    as a CSV saved from a spreadsheet's number cell writes them, a leading 0 already dropped
    (black-box U2 #4); "" for anything grouped, with a "+" or starting with 0: typed so."""
    text = raw.strip().lstrip("'").strip()
    return text if text.isdigit() and text.isascii() and text[0] != "0" else ""


def may_lose_zero(phone_code: str) -> bool:
    """Whether a number cell of this country may have dropped a leading 0 that mattered: a
    trunk 0 (:func:`drops_trunk_zero`) or a 0 that is part of the number
    (:func:`keeps_leading_zero`)."""
    return drops_trunk_zero(phone_code) or keeps_leading_zero(phone_code)


def _excel_general(digits: str) -> str:
    """How Excel's General format shows a long integer: ``4.47701E+11``."""
    mantissa = f"{int(digits) / 10 ** (len(digits) - 1):.5f}".rstrip("0").rstrip(".")
    return f"{mantissa}E+{len(digits) - 1:02d}"


def cut_short(digits: str) -> bool:
    """Whether ``digits`` (a cell's) are what a short scientific display leaves: ten or more,
    all zeros after the sixth (2025550000 from "2.02555E+09"), the first not 0: a display
    shows a number from its first significant digit, so text of zeros alone ("0000000000", a
    template's blank) or zeros first was typed so (black-box B9 #7: it was "scientific
    notation (0E+09) … any number from -5000 to 4999")."""
    return (
        len(digits) >= _CUT_MIN_DIGITS
        and digits[0] != "0"
        and len(digits.rstrip("0")) <= _SHOWN_DIGITS
    )


def _cut_short_note(digits: str, cell: str, result: PhoneResult) -> str:
    """The note on a cell whose ``digits`` :func:`cut_short` finds ("cell is the number
    2025550000", ``cell`` says which), with the numbers that display rounds from."""
    unit = 10 ** (len(digits) - _SHOWN_DIGITS)
    value = int(digits)
    low, high = value - unit // 2, value + unit // 2 - 1
    kept = len(digits.rstrip("0"))
    read = (
        f"; read as {phones.international(result.national, result.phone_code)}" if result.ok else ""
    )
    return (
        f"{cell}: every digit after its first {kept} is 0, {CUT_SHORT} "
        f"({_excel_general(digits)}), so it may be any number from {low} to {high} cut short"
        f"{read} — check it against the source"
    )


class OtherCountry(NamedTuple):
    """A cell refused as a US number read as another country's (:func:`other_country`)."""

    code: str  # the first such country's calling code
    shown: str  # the number as that country's: "+44 20 7946 0018"
    written: str  # its digits as that country writes them, trunk 0 first: "02079460018"
    lost: bool  # whether that 0 was put back (the cell lacked it)
    others: tuple[str, ...]  # the codes of the other countries it is valid in too
    others_shown: tuple[str, ...] = ()  # its number in each of those, as ``shown``
    # (code, number as ``shown``) of each country whose valid number the digits are as they
    # stand, no 0 put back (phones.as_written_readings): Italy's mobile 3471234567.
    as_written: tuple[tuple[str, str], ...] = ()


# Digits counting up or down, as templates fill a sample phone cell ("1234567890").
_UP: Final = "01234567890123456789"
_DOWN: Final = _UP[::-1]
_FEWEST_PLACEHOLDER_DIGITS: Final = 7


def placeholder_number(value: CellValue) -> bool:
    """Whether a phone cell holds a number no one has, as a template's sample row does: one
    digit repeated ("5555555555", "(555) 555-5555") or digits counting up or down
    ("1234567890"), seven digits or more, a leading 0 aside.

    Black-box pass Q1 #2: such a cell is refused as a US number and is also a valid UK number
    once a 0 is put before it (05555 555555, 01234 567890), so one sample row among eleven US
    ones made the file-level hint "If the file is a United Kingdom list, import it again with
    --phone-code 44". It is left out of that hint rather than the hint asking for more than
    one row: a one-row file of a real UK number deserves it, while a template's placeholders
    are no country's list however many there are. Nor does the row's own note offer the
    country (:func:`other_country`).
    """
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        return False
    if isinstance(value, float):
        if not value.is_integer():
            return False
        value = int(value)
    digits = "".join(c for c in str(value) if c.isdigit()).lstrip("0")
    if len(digits) < _FEWEST_PLACEHOLDER_DIGITS:
        return False
    return len(set(digits)) == 1 or digits in _UP or digits in _DOWN


def other_country(raw: CellValue) -> OtherCountry | None:
    """For a cell refused as a US number: the countries whose number it is as written with
    its leading 0 ("020 7946 0018"), or with the 0 a number cell (or a CSV saved from one)
    drops put back (7911123456), as :func:`app.core.phones.zero_readings` finds them (the
    supported countries with a trunk 0, then Italy, whose numbers keep it); None when it is no
    such number. Only refused rows ask: it costs a parse per country."""
    if isinstance(raw, bool) or raw is None or placeholder_number(raw):
        return None
    if isinstance(raw, int | float):
        if raw <= 0 or (isinstance(raw, float) and not raw.is_integer()):
            return None
        digits = str(int(raw))
    elif isinstance(raw, str) and (decimal := _FLOAT_TEXT.fullmatch(raw)) is not None:
        # "7911123456.0": a float column's, which lost its 0 as the number cell did (B6 #7).
        digits = decimal.group(1)
        if not digits.lstrip("0"):
            return None
    elif isinstance(raw, str) and _NATIONAL_TEXT.fullmatch(raw):
        digits = re.sub(r"[^0-9]", "", raw)
        if digits[0] != "0" and not raw.strip().lstrip("'").strip().isdigit():
            return None  # "212-555-12634": grouped by hand, so not a number cell's lost 0
    else:
        return None
    lost = digits[0] != "0"
    if lost and not _LOST_ZERO_DIGITS[0] <= len(digits) <= _LOST_ZERO_DIGITS[1]:
        return None  # "212555128600": no national number of a country here is so long
    if lost and phones.normalize(f"+{digits}", None).ok:
        return None  # "447911123457": a lost "+" (the phone module's hint) before a lost 0
    written = f"0{digits}" if lost else digits
    valid = phones.zero_readings(written)
    if not valid:
        return None
    shown = [phones.format_for_display(result.national, code) for code, result in valid]
    others = tuple(other for other, _ in valid[1:])
    as_written = tuple(
        (code, phones.format_for_display(result.national, code))
        for code, result in (phones.as_written_readings(digits) if lost else ())
    )
    return OtherCountry(valid[0][0], shown[0], written, lost, others, tuple(shown[1:]), as_written)


def other_country_note(raw: CellValue, found: OtherCountry, country_cell: str = "") -> str:
    """The row's note on a cell refused as a US number that :func:`other_country` found to be
    another country's number.

    ``country_cell``: the row's cell ("B2") in a column of the rows' countries that was not
    read (:func:`app.core.sheet_mapping.unread_country_column`). The row's country is then
    that cell's to give, so the note says to correct it, not to give the whole file one
    --phone-code or a Country column it has (black-box B7 #1: an Austrian row whose Country
    cell said "Östr." was told "use --phone-code 49 or a Country column")."""
    name = code_name(found.code)
    if isinstance(raw, str):
        cell = repr(raw.strip())
    else:
        cell = f"cell is the number {found.written[1:]}, not text, which"
    also = for_others = ""
    if found.others:
        # Each other country's number, not only its name (black-box R2/V1 #1: a Rome landline
        # was offered as Germany's, "valid in France too", and not as Italy's at all).
        also = (
            " (also valid as "
            + joined(
                [
                    f"{shown} in {code_name(code)}"
                    for code, shown in zip(found.others, found.others_shown, strict=True)
                ]
            )
            + ")"
        )
        other = "the other" if len(found.others) == 1 else "the others"
        if country_cell:
            named = [f"{code_name(code)} ({code})" for code in found.others]
            # Not joined(): a country's name may have "and" in it (Trinidad and Tobago).
            either = f"{', '.join(named[:-1])} or {named[-1]}" if len(named) > 1 else named[0]
            for_others = f"; for {other}, {either}"
        else:
            codes = joined(list(found.others)).replace(" and ", " or ")
            for_others = f"; for {other}, --phone-code {codes}"
    if found.lost:
        said = (
            f"{cell} {MAY_HAVE_LOST_ZERO}, as a spreadsheet drops it: {found.written} "
            f"reads as {_a(name)} number, {found.shown}{also}"
        )
    else:
        said = f"{cell} reads as {_a(name)} number: {found.shown}{also}"
    lost_zero = f"{said}; if it is one, {_advice(found.code, country_cell)}{for_others}"
    return _with_as_written(raw, found, country_cell, lost_zero, cell)


def _with_as_written(
    raw: CellValue, found: OtherCountry, country_cell: str, lost_zero: str, cell: str
) -> str:
    """:func:`other_country_note`'s ``lost_zero`` note (starting with ``cell``) with the
    countries whose valid number the digits are as they stand (``found.as_written``) named."""
    if not found.as_written:
        return lost_zero
    readings = " or ".join(
        f"{_a(code_name(code))} number, {shown}" for code, shown in found.as_written
    )
    codes = [code for code, _ in found.as_written]
    if len(codes) == 1:
        advice = _advice(codes[0], country_cell)
    elif country_cell:
        named = " or ".join(f"{code_name(code)} ({code})" for code in codes)
        advice = f"correct its Country cell {country_cell} to {named}"
    else:
        advice = f"use --phone-code {' or '.join(codes)} or a Country column"
    # Black-box B24 F2: text holds the digits as typed, so digits valid as they stand (Italy's
    # mobile 3471234567) are named before a reading that assumes a 0 was lost, which sent
    # Italian consumers to the UK. A number cell can hold no leading 0, so a UK, German or
    # French number in one always lacks it: there the lost 0 is no assumption, and its reading
    # (the one files of those countries, the most common here, need) stays first. Only digits
    # lacking a 0 have such readings (other_country), so the note says "may have lost" here.
    if isinstance(raw, str) and _FLOAT_TEXT.fullmatch(raw) is None:
        rest = lost_zero[len(cell) :]
        return f"{cell} reads, as written, as {readings}: if it is one, {advice}; or it{rest}"
    written = found.written[1:]
    return f"{lost_zero}; as it stands, {written} is also {readings}: if it is one, {advice}"


def _advice(code: str, country_cell: str) -> str:
    """How to give a row the country of ``code``: in its Country cell ``country_cell`` ("C2"),
    a column of the rows' countries that was not read, else by --phone-code."""
    if country_cell:
        return f"correct its Country cell {country_cell} to {code_name(code)} or {code}"
    return f"use --phone-code {code} or a Country column"


def named_country_note(raw: CellValue, country_cell: str, written: str, code: str) -> str:
    """The row's note on a cell refused as a US number whose Country cell (``country_cell``,
    "C2", holding ``written``) names a country (``code``) in a column that was not read, as
    too few of its values are countries DNC Desk knows (regression check V5: a Swedish row
    whose cell said "Sverige" was told to correct that cell "to Australia or 61", its number
    read as an Australian one). The cell is right: the column is what to correct."""
    name = code_name(code)
    read = phones.normalize(raw, code)
    fits = (
        f"under which it is a valid number, {phones.format_for_display(read.national, code)}"
        if read.ok
        else f"though it is no valid {name} number either"
    )
    return (
        f"its Country cell {country_cell} ({written!r}) names {name} ({code}), {fits}; the "
        "row was read under the default code as that column was not read, too few of its "
        "values being countries DNC Desk knows: correct those (the file's warning names them) "
        "and import the file again"
    )


def _a(name: str) -> str:
    """``name`` after its article: "an Australia", "a United Kingdom"."""
    vowel = name[:1] in "AEIO" or (name[:1] == "U" and not name.startswith(("Un", "Uk")))
    return f"an {name}" if vowel else f"a {name}"


def describe_damage(raw: CellValue, result: PhoneResult, *, code_from_cell: bool = False) -> str:
    """A note about how the cell was damaged and what was read from it; ``""`` if it was not.

    ``code_from_cell``: the row's code is its own cell's (a Country Code or Country column),
    not the file's default or ``--phone-code``. A number cell (or a float column's text) whose
    digits are then the national significant number as they stand lost no trunk 0 worth a
    note (black-box B5 #5: DNC Desk's export, 7924934233 beside 44, re-saved by LibreOffice as
    xlsx had 98 UK, Australian and French rows counted as damaged, "check those numbers
    against the source", though each was written without a 0 and read exactly). The note
    stays where a 0 may matter: a cell valid only with a 0 put back, Italy's 0 that is part
    of a number, and any cell read under the default code, which names no row's country.
    """
    if isinstance(raw, str):
        plain = _PLAIN_DIGITS.fullmatch(raw)
        if plain is not None and cut_short(plain.group(1)):
            return _cut_short_note(plain.group(1), f"cell {raw.strip()!r}", result)
        if _SCIENTIFIC.fullmatch(raw):
            if result.ok:
                return (
                    f"cell {raw.strip()!r} was in scientific notation; read as "
                    f"{phones.international(result.national, result.phone_code)} — check it "
                    "against the source"
                )
            return f"cell {raw.strip()!r} was in scientific notation and lost digits"
        if (decimal := _FLOAT_TEXT.fullmatch(raw)) is not None:
            return _decimal_text_note(raw.strip(), decimal.group(1), result, code_from_cell)
        if result.ok and "," in raw and (grouped := _GROUPED_TEXT.fullmatch(raw)) is not None:
            digits = grouped.group(1).replace(",", "")
            return _decimal_text_note(raw.strip(), digits, result, code_from_cell, _GROUPED)
        if _FRACTION_TEXT.fullmatch(raw) and not phones.ONE_DOT_PHONE.fullmatch(raw) and result.ok:
            # Black-box pass I2: read silently, where the same value in a workbook's number
            # cell is refused as not a whole number.
            return (
                f"cell {raw.strip()!r} is a decimal number with a fraction (a number cell "
                "divided or mistyped?); its digits read as "
                f"{phones.international(result.national, result.phone_code)} — check it "
                "against the source"
            )
        code = result.phone_code
        bare = lost_zero_text(raw) if code and keeps_leading_zero(code) else ""
        if result.ok:
            if "," in raw and _DECIMAL_COMMA.fullmatch(raw) and not _THOUSANDS.fullmatch(raw):
                return phones.decimal_comma_note(raw, result)
            if bare:
                # A CSV saved from a number cell lost Italy's 0 as the cell did (black-box
                # U2 #4: 351234571 beside "Italia" was stored as a mobile, no word said).
                zeroed = phones.normalize("0" + bare, code)
                if _two_numbers(result, zeroed, code):
                    return _zero_in_number_note(bare, code, result, zeroed, f"cell {bare!r}")
            return ""
        if bare and (zeroed := phones.normalize("0" + bare, code)).ok:
            return (
                f"cell {bare!r} {MAY_HAVE_LOST_ZERO}, as a spreadsheet drops it from a "
                f"number cell (a CSV saved from one too): 0{bare} would be the valid number "
                f"{phones.international(zeroed.national, code)}; correct the file if that is "
                "what was meant"
            )
        # More than 15 digits is never a valid number: only rejections are looked at.
        cut = _CUT_TEXT.fullmatch(raw)
        if cut is not None:
            return (
                f"cell {raw.strip()!r} is a number of {len(cut.group(1))} digits, longer than "
                f"the {_EXACT_DIGITS} significant digits Excel keeps, so its last digits are "
                f"unreliable (Excel wrote zeros after the {_EXACT_DIGITS}th)"
            )
        return ""
    if isinstance(raw, bool) or not isinstance(raw, int | float):
        return ""
    if isinstance(raw, float) and not raw.is_integer():
        return phones.float_noise_note(raw, result)
    if abs(raw) >= 10**_EXACT_DIGITS:
        return (
            f"cell is the number {raw:.15g}, longer than the {_EXACT_DIGITS} significant digits "
            "Excel keeps, so its last digits are unreliable"
        )
    digits = str(int(raw))
    code = result.phone_code
    kept = _as_kept(digits, result, code_from_cell)
    if raw > 0 and cut_short(digits):
        note = _cut_short_note(digits, f"cell is the number {digits}, not text", result)
        international = digits.startswith(code) and digits[len(code) :] == result.national
        if result.ok and code and not international and not kept and drops_trunk_zero(code):
            note += f"; it lost its leading 0 too (written 0{digits} in {code_name(code)})"
        return note
    if result.ok:
        # Black-box B26 F2: an international number of 12 or 13 digits (447911123456) was
        # noted "Excel displays it as 4.47911E+11" and counted as damaged. Excel keeps 15
        # significant digits exactly: only a narrow column's display is short, and a cell that
        # was cut by it (447911000000) is cut_short's.
        international = digits.startswith(code) and digits[len(code) :] == result.national
        if code and not international and not kept and drops_trunk_zero(code):
            return (
                f"cell is the number {digits}, not text: it lost its leading 0 (written "
                f"0{digits} in {code_name(code)}); read as "
                f"{phones.international(result.national, code)}"
            )
        if code and not international and keeps_leading_zero(code):
            zeroed = phones.normalize("0" + digits, code)
            if _two_numbers(result, zeroed, code):
                return _zero_in_number_note(digits, code, result, zeroed)
        return ""
    if code:
        with_zero = phones.normalize("0" + digits, code)
        if with_zero.ok:
            return (
                f"cell is the number {digits}, which {MAY_HAVE_LOST_ZERO}: "
                f"0{digits} would be the valid number "
                f"{phones.international(with_zero.national, code)}; correct the file if that is "
                "what was meant"
            )
    return ""


def _as_kept(digits: str, result: PhoneResult, code_from_cell: bool) -> bool:
    """Whether a number cell's ``digits`` are its number as a list keeps it, under a code of
    the row's own cell (:func:`describe_damage`'s ``code_from_cell``): valid as they stand,
    its national significant number, so no trunk 0 was lost that the reading lacks."""
    return code_from_cell and result.ok and result.national == digits


def _decimal_text_note(
    cell: str,
    digits: str,
    result: PhoneResult,
    code_from_cell: bool = False,
    shape: str = "a decimal number",
) -> str:
    """The note on text holding a whole number written as a decimal (``cell``, its integer
    ``digits``): only what a number cell would have lost, as a float column is one (a trunk 0
    not when the code is the row's own and the digits are the number as a list keeps it:
    :func:`_as_kept`).

    Black-box B6 #7: every row of a pandas export ("3032300001.0") was flagged as damaged, and
    the file's warning blamed scientific notation, a dropped 0 or digits cut, though each number
    was read exactly; among 50,000 such rows real damage went unseen. Up to 15 significant
    digits a float keeps the number exactly, so the ".0" alone is no damage, nor are a number
    cell's decimals or thousands saved as shown ("2015550282.00", ``shape`` "2,015,550,280")
    when every digit is there: only what such a cell lost is (black-box bb9 F2: grouped text
    under 44 had lost its 0 unsaid). A decimal comma stays noted: it is read only by guessing
    the locale.
    """
    written = f"cell {cell!r} was written as {shape}"
    significant = digits.lstrip("0")
    if len(significant) > _EXACT_DIGITS:
        return (
            f"{written} of {len(significant)} digits, longer than the {_EXACT_DIGITS} "
            "significant digits a spreadsheet or a float column keeps exactly, so its last "
            "digits are unreliable"
        )
    code = result.phone_code
    # A float has no leading 0: one written ("07911123456.0") was kept as text.
    lost = bool(code) and digits == significant
    if not result.ok:
        if lost and (with_zero := phones.normalize("0" + digits, code)).ok:
            return (
                f"{written}, from a number cell, which {MAY_HAVE_LOST_ZERO}: 0{digits} "
                f"would be the valid number {phones.international(with_zero.national, code)}; "
                "correct the file if that is what was meant"
            )
        return ""
    international = digits.startswith(code) and digits[len(code) :] == result.national
    lost = lost and not international
    trunk_lost = lost and drops_trunk_zero(code) and not _as_kept(digits, result, code_from_cell)
    if cut_short(digits):
        note = _cut_short_note(digits, f"cell {cell!r}", result)
        if trunk_lost:
            note += f"; it lost its leading 0 too (written 0{digits} in {code_name(code)})"
        return note
    if trunk_lost:
        return (
            f"{written}, from a number cell, which lost its leading 0 (written 0{digits} in "
            f"{code_name(code)}); read as {phones.international(result.national, code)}"
        )
    if lost and keeps_leading_zero(code):
        zeroed = phones.normalize("0" + digits, code)
        if _two_numbers(result, zeroed, code):
            return _zero_in_number_note(
                digits,
                code,
                result,
                zeroed,
                f"cell {cell!r}",
                f"was written as {shape}, from a number cell",
            )
    return ""


# Italy's mobile numbers have 10 digits, and few of its landlines 11 (a 0 put before a mobile
# makes one of 11 digits valid in most areas).
_MOBILE_DIGITS: Final = 10


def _two_numbers(result: PhoneResult, zeroed: PhoneResult, code: str) -> bool:
    """Whether ``result`` (a valid number as it stands) and ``zeroed`` (its digits with a 0
    before them) are two valid numbers worth a damage note: not a 10-digit mobile whose 0
    reading is a rare 11-digit landline (black-box U2 #8: every Italian mobile in a number
    cell was flagged, and a removal refused them all)."""
    if not zeroed.ok or zeroed.national == result.national:
        return False
    if len(result.national) == _MOBILE_DIGITS and len(zeroed.national) > _MOBILE_DIGITS:
        number = phonenumbers.parse(f"+{code}{result.national}")
        if phonenumbers.number_type(number) == phonenumbers.PhoneNumberType.MOBILE:
            return False
    return True


def _zero_in_number_note(
    digits: str,
    code: str,
    result: PhoneResult,
    zeroed: PhoneResult,
    cell: str = "",
    how: str = "holds bare digits, as a CSV saved from a number cell writes them",
) -> str:
    """The note on a number cell valid as it stands and valid with a leading 0 too, in a
    country whose numbers keep their 0 (black-box R2 #1: the Bergamo landline 035 1234567,
    saved as the number 351234567, was stored as the mobile +39 351 234567); or on text
    holding such bare digits, named ``cell``, as a CSV saved from a number cell writes them
    (``how`` says how text held it otherwise: as a decimal)."""
    name = code_name(code)
    shown = phones.format_for_display(result.national, code)
    with_zero = phones.format_for_display(zeroed.national, code)
    said = f"{cell} {how}" if cell else f"cell is the number {digits}, not text"
    return (
        f"{said}: in {name} a number may begin with a 0 "
        f"that is part of it, and it {ZERO_IN_NUMBER}: {digits} is {shown}, 0{digits} is "
        f"{with_zero}; read as {phones.international(result.national, code)} — check it "
        "against the source"
    )


def code_name(phone_code: str) -> str:
    return phones.region_name(phone_code)
