"""011 is the exit code of the US and Canada only. Under another default code a number
starting 011 that reads as no valid number after it is that country's own (Bristol's 0117,
a German 0114), and its refusal says what is wrong with it (black-box B24 F5: '0117 931
7300/7341' under +44 was 'wrong length for a Russia / Kazakhstan number', '0114/6522864'
under +49 'not a valid Sweden number')."""

from __future__ import annotations

from pathlib import Path

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.phones import normalize_with_default


def test_two_numbers_after_0117_under_44_are_named_as_two_numbers() -> None:
    result = normalize_with_default("0117 931 7300/7341", "44")
    assert not result.ok
    assert result.phone_code == "44"
    assert result.reason.startswith("two phone numbers in one cell ('0117 931 7300' and ")


def test_0114_under_49_is_judged_as_a_german_number() -> None:
    result = normalize_with_default("0114/6522864", "49")
    assert (result.ok, result.phone_code) == (False, "49")
    assert result.reason.startswith("not a valid Germany number")


def test_a_valid_number_after_011_still_reads_under_its_own_code() -> None:
    # Dialled from the US, grouped so or run together: the number names its own code.
    assert normalize_with_default("011 44 20 7946 0018", "44")[:3] == (True, "2079460018", "44")
    assert normalize_with_default("01144 20 7946 0018", "61")[:3] == (True, "2079460018", "44")
    assert normalize_with_default("011 7 495 123 4567", "44")[:3] == (True, "4951234567", "7")


def test_the_import_names_the_uk_number_not_a_russian_one(tmp_path: Path) -> None:
    path = tmp_path / "uk_slash_ext.csv"
    path.write_text("Name,Contact Phone\nSir Alan Langlands,0117 931 7300/7341\n", encoding="utf-8")
    store, summary = stage_import(
        JobSettings(path, Scope.global_(), phone_code="44"),
        tmp_path / "jobs",
        connection=None,
    )
    with store:
        (row,) = list(store.rows())
    assert summary.invalid == 1
    assert row.phone_code == "44"
    assert "two phone numbers in one cell" in row.message
    assert "Russia" not in row.message
