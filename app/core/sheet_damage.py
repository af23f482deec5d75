"""Recognise phone cells a spreadsheet program has already damaged, and say how.

The phone module decides validity; this module only explains the cell's history so a person can
judge it: scientific notation, more digits than Excel keeps, a float written out as text, a
leading zero dropped because the cell was a number. It never repairs silently: a repaired reading
is reported next to the original cell.

Text cells tell the same story as number cells: a CSV written by Excel holds "4.47701E+11", or
"3035550533.0", or, on a German, French or Spanish locale, "3035550533,0" or
"3.035.550.533,00" (the note is :func:`app.core.phones.decimal_comma_note`, which the phone
module also gives the valid number itself, as a row check never asks here about a valid text
cell without "." or "e"); and a number
longer than 15 digits as Excel left it, its digits after the 15th zeros
("30355501013035500000", often two numbers typed into one cell). Sixteen digits or more that do
not end so were not cut by Excel and get no note.
"""

from __future__ import annotations

import re
from functools import cache
from typing import Final

import phonenumbers

from app.core import phones
from app.core.phones import PhoneResult
from app.core.sheet_types import CellValue

_SCIENTIFIC: Final = re.compile(r"\s*'?\s*[0-9]*(?:[.,][0-9]*)?[eE][+-]?[0-9]{1,3}\s*")
_FLOAT_TEXT: Final = re.compile(r"\s*'?\s*[0-9]+\.0+\s*")
# A decimal number with a fraction ("303555070.6", as a CSV writes a number cell): valid only
# read as dotted digit groups, which no one writes with one dot that far along.
_FRACTION_TEXT: Final = re.compile(r"\s*'?\s*[0-9]{7,}\.[0-9]{1,2}\s*")
# Its digits may be grouped by dots, as that locale shows a number: "3.035.559.633,00".
_DECIMAL_COMMA: Final = re.compile(r"\s*'?\s*(?:\+?[0-9]+|[0-9]{1,3}(?:\.[0-9]{3})+),0+\s*")
# Thousands, not a decimal comma ("303,000"): the phone module reads them so.
_THOUSANDS: Final = re.compile(r"\s*'?\s*[0-9]{1,3},000\s*")
# A number cut to Excel's 15 significant digits and written out as text: zeros after the 15th.
_CUT_TEXT: Final = re.compile(r"\s*'?\s*\+?([1-9][0-9]{14}0+)\s*")
# Excel's General format switches to scientific notation above 11 digits.
_GENERAL_MAX_DIGITS: Final = 11
_EXACT_DIGITS: Final = 15


@cache
def drops_trunk_zero(phone_code: str) -> bool:
    """Whether numbers of this country are written nationally with a leading 0 (UK 07700…)."""
    for region in phonenumbers.COUNTRY_CODE_TO_REGION_CODE.get(int(phone_code or 0), ()):
        meta = phonenumbers.PhoneMetadata.metadata_for_region(region)
        if meta is not None and meta.national_prefix == "0":
            return True
    return False


def _excel_general(digits: str) -> str:
    """How Excel's General format shows a long integer: ``4.47701E+11``."""
    mantissa = f"{int(digits) / 10 ** (len(digits) - 1):.5f}".rstrip("0").rstrip(".")
    return f"{mantissa}E+{len(digits) - 1:02d}"


def describe_damage(raw: CellValue, result: PhoneResult) -> str:
    """A note about how the cell was damaged and what was read from it; ``""`` if it was not."""
    if isinstance(raw, str):
        if _SCIENTIFIC.fullmatch(raw):
            if result.ok:
                return (
                    f"cell {raw.strip()!r} was in scientific notation; read as "
                    f"+{result.phone_code} {result.national} — check it against the source"
                )
            return f"cell {raw.strip()!r} was in scientific notation and lost digits"
        if _FLOAT_TEXT.fullmatch(raw) and result.ok:
            return (
                f"cell {raw.strip()!r} was written as a decimal number; read as "
                f"+{result.phone_code} {result.national}"
            )
        if _FRACTION_TEXT.fullmatch(raw) and result.ok:
            # Black-box pass I2: read silently, where the same value in a workbook's number
            # cell is refused as not a whole number.
            return (
                f"cell {raw.strip()!r} is a decimal number with a fraction (a number cell "
                "divided or mistyped?); its digits read as "
                f"+{result.phone_code} {result.national} — check it against the source"
            )
        if result.ok:
            if "," in raw and _DECIMAL_COMMA.fullmatch(raw) and not _THOUSANDS.fullmatch(raw):
                return phones.decimal_comma_note(raw, result)
            return ""
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
        return ""
    if abs(raw) >= 10**_EXACT_DIGITS:
        return (
            f"cell is the number {raw:.15g}, longer than the {_EXACT_DIGITS} significant digits "
            "Excel keeps, so its last digits are unreliable"
        )
    digits = str(int(raw))
    code = result.phone_code
    if result.ok:
        notes = []
        if len(digits) > _GENERAL_MAX_DIGITS:
            notes.append(f"Excel displays it as {_excel_general(digits)}")
        international = digits.startswith(code) and digits[len(code) :] == result.national
        if code and not international and drops_trunk_zero(code):
            notes.append(f"it lost its leading 0 (written 0{digits} in {code_name(code)})")
        if notes:
            return (
                f"cell is the number {digits}, not text: {'; '.join(notes)}; read as "
                f"+{code} {result.national}"
            )
        return ""
    if code:
        with_zero = phones.normalize("0" + digits, code)
        if with_zero.ok:
            return (
                f"cell is the number {digits}, which may have lost a leading 0: "
                f"0{digits} would be the valid number +{code} {with_zero.national}; "
                "correct the file if that is what was meant"
            )
    return ""


def code_name(phone_code: str) -> str:
    return phones.region_name(phone_code)
