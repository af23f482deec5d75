"""app.core.code_mix.CodeMix: which rows count as written with a code, and when the warning
on bare numbers beside another code's is due (black-box B24 F3)."""

from __future__ import annotations

from app.core.code_mix import CodeMix
from app.core.sheet_check import CheckedRow, Outcome
from app.core.sheet_mapping import ColumnMapping

PHONE = ColumnMapping(header_row=1, headers=("Phone",), phone=0)


def counted(mix: CodeMix, rows: list[tuple[str, str, Outcome]]) -> CodeMix:
    checked = [
        CheckedRow(row=n, outcome=outcome, original=cell, phone_code=code)
        for n, (cell, code, outcome) in enumerate(rows, start=2)
    ]
    assert list(mix.watch(checked)) == checked  # the rows pass as they are
    return mix


VALID, INVALID = Outcome.VALID, Outcome.INVALID
INDIAN = [("+91 98765 4321" + str(i), "91", VALID) for i in range(3)]


def test_a_label_or_00_before_the_code_is_the_cells_own_code() -> None:
    mix = counted(
        CodeMix(PHONE),
        [
            ("Tel: +1 702 555 1234", "1", VALID),
            ("001 702 555 1235", "1", VALID),
            (" 7025551236", "1", VALID),
            ("8015550123", "1", INVALID),  # only valid rows count
        ],
    )
    assert mix.coded == {"1": 2}
    assert (mix.bare.count, mix.bare.first) == (1, [4])


def test_two_thirds_sharing_the_code_is_a_clear_majority() -> None:
    others = [("+44 7911 12345" + str(i), "44", VALID) for i in range(2)]
    bare = [("7025551234", "1", VALID)]
    due = counted(CodeMix(PHONE), [*INDIAN, others[0], *bare])
    assert "3 of the 4 numbers written with their own code are numbers of India (+91)" in (
        due.sentence("import")
    )
    assert counted(CodeMix(PHONE), [*INDIAN, *others, *bare]).sentence("import") == ""


def test_the_shared_code_is_a_tenth_of_the_rows_counted_at_least() -> None:
    bare = [(f"303555{i:04d}", "1", VALID) for i in range(100, 127)]
    assert counted(CodeMix(PHONE), [*INDIAN, *bare]).sentence("import")  # 3 of 30
    assert counted(CodeMix(PHONE), [*INDIAN, *bare, bare[0]]).sentence("import") == ""


def test_a_code_column_or_another_default_code_says_nothing() -> None:
    bare = [("7025551234", "1", VALID)]
    coded = ColumnMapping(header_row=1, headers=("Phone", "Country code"), phone=0, phone_code=1)
    assert not CodeMix(coded).active
    unread = ColumnMapping(header_row=1, headers=("Phone", "Country"), phone=0)
    assert not CodeMix(unread).active
    indian = ColumnMapping(header_row=1, headers=("Phone",), phone=0, default_phone_code="91")
    rows = [*INDIAN, ("9876543211", "91", VALID)]
    assert counted(CodeMix(indian), rows).sentence("import") == ""
    assert counted(CodeMix(PHONE), [*INDIAN, *bare]).sentence("removal")
