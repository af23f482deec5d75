"""A cell of two or more numbers, each with its own label ("H: 480-555-5501 C: 480-555-5502",
"480-555-5501 (home) 480-555-5502 (cell)"), is refused as two numbers in one cell, naming both,
as "480-555-5501; 480-555-5502" is (black-box B7 #5: it was "has words around the number; enter
the number alone", which invites keeping one of the two numbers the consumer asked about). One
labelled number is still read without its label, and other words stay refused as words."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.api.scope import Scope
from app.core import phones
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from tests.core.sheet_factory import write_sheets

WORDS = "has words around the number; enter the number alone"
TWO = "two phone numbers in one cell ('480-555-5501' and '480-555-5502'); put each on its own row"


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    phones.clear_cache()


@pytest.mark.parametrize(
    "cell",
    [
        "H: 480-555-5501 C: 480-555-5502",
        "H:480-555-5501 C:480-555-5502",
        "Home: 480-555-5501 Cell 480-555-5502",
        "Mobile - 480-555-5501 W: 480-555-5502",
        "Work 480-555-5501 Tel. 480-555-5502",
        "Ph: 480-555-5501 Home Phone: 480-555-5502",
        "(Cell) 480-555-5501 [Home] 480-555-5502",
        "480-555-5501 (home) 480-555-5502 (cell)",
        "480-555-5501 home 480-555-5502 cell",
        "480-555-5501 [w] 480-555-5502 [Mobile]",
        "'H: 480-555-5501 C: 480-555-5502",  # Excel's text apostrophe
    ],
)
def test_two_labelled_numbers_are_two_numbers_in_one_cell(cell: str) -> None:
    result = phones.normalize(cell, "1")
    assert (result.ok, result.reason, result.note) == (False, TWO, "")
    assert phones.normalize_with_default(cell, "1").reason == TWO


def test_three_labelled_numbers_and_numbers_with_a_code_are_named_as_written() -> None:
    three = phones.normalize("Work 480-555-5501 Tel. 480-555-5502 Ph: (480) 555-5503", "1")
    assert three.reason == (
        "3 phone numbers in one cell ('480-555-5501' and '480-555-5502' and '(480) 555-5503'); "
        "put each on its own row"
    )
    # Before, "+" split the cell after "Home Phone:", naming "+1 480 555 5501 Home Phone:".
    plus = phones.normalize("Cell Phone: +1 480 555 5501 Home Phone: +1 480 555 5502", "1")
    assert plus.reason == (
        "two phone numbers in one cell ('+1 480 555 5501' and '+1 480 555 5502'); "
        "put each on its own row"
    )


def test_the_pair_is_the_same_message_a_list_separator_gets() -> None:
    assert phones.normalize("480-555-5501; 480-555-5502", "1").reason == TWO


def test_one_labelled_number_is_still_read_without_its_label() -> None:
    result = phones.normalize("Cell: 480-555-5503", "1")
    assert (result.ok, result.national, result.note) == (
        True,
        "4805555503",
        "the label 'Cell' was left out",
    )


@pytest.mark.parametrize(
    "cell",
    [
        "call 4805555501 after 5pm",
        "480-555-5506 (wife)",
        "480 555 5508 - do not call!!",
        # Not every number labelled, a label no one reads, a fax label, an extension, an
        # opt-out keyword, or a second "number" too short to be one: words, as before.
        "480-555-5501 (home) 480-555-5502 (wife)",
        "H: 480-555-5501 Fax: 480-555-5502",
        "H: 480-555-5501 x12 C: 480-555-5502",
        "STOP 4805555501 STOP 4805555502",
        "H: 480-555-5501 C: 5502",
        "480-555-5501 (home) C: 480-555-5502",
    ],
)
def test_other_words_with_numbers_stay_refused_as_words(cell: str) -> None:
    result = phones.normalize(cell, "1")
    assert (result.ok, result.reason) == (False, f"{cell!r} {WORDS}")


def test_the_finding_file(tmp_path: Path) -> None:
    # The shape of f55_labels_in_cells.xlsx.
    rows: list[list[object]] = [
        ["Name", "Phone", "Notes"],
        ["a", "H: 480-555-5501 C: 480-555-5502", None],
        ["b", "480-555-5503", "also cell 480-555-5504"],
        ["c", "Cell: 480-555-5505", None],
        ["d", "480-555-5506 (wife)", None],
    ]
    path = write_sheets(tmp_path / "labels.xlsx", {"Sheet1": rows})
    store, _ = stage_import(JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None)
    with store:
        got = {r.row_number: r for r in store.rows()}
    assert got[2].outcome == "invalid"
    assert got[2].message == f"row 2: phone: {TWO}"
    assert (got[4].state, got[4].national) == ("pending", "4805555505")
    assert got[4].message == "row 4: the label 'Cell' was left out"
    assert got[5].outcome == "invalid" and WORDS in got[5].message
