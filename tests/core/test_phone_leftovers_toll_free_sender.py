"""A toll-free number (NANP's 800, 833…888) read from an SMS or call log's end is a business's
line, not a consumer's: its row is imported as before, and says so in its message and in a
warning (FXA leftover of black-box B31 F8, which named SMS short codes so)."""

from __future__ import annotations

from pathlib import Path

import phonenumbers
from hypothesis import given, settings
from hypothesis import strategies as st

from app.api.scope import Scope
from app.core import phones
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.job_store import JobRow
from app.core.sheet_check import Target


def _staged(tmp_path: Path, text: str) -> tuple[dict[int, JobRow], list[str]]:
    path = tmp_path / "log.csv"
    path.write_text(text, encoding="utf-8")
    store, _summary = stage_import(
        JobSettings(path, Scope.global_(), target=Target.SMS_OPT_OUT),
        tmp_path / "jobs",
        connection=None,
    )
    with store:
        warnings = [str(w) for w in store.meta().get("warnings") or []]
        return {r.row_number: r for r in store.rows()}, warnings


LOG = (
    "From,To,Body,Direction\n"
    "+18005550199,+13035550100,STOP,inbound\n"
    "+13035550142,+13035550100,STOP,inbound\n"
    "(888) 555-0143,+13035550100,stop,inbound\n"
)


def test_a_toll_free_sender_in_an_sms_log_is_named_not_refused(tmp_path: Path) -> None:
    got, warnings = _staged(tmp_path, LOG)
    assert [got[n].outcome for n in (2, 3, 4)] == ["", "", ""]
    assert got[2].message == (
        "row 2: column A ('From') holds a toll-free number, a business's line, not a consumer's"
    )
    assert "toll-free" not in got[3].message
    assert "toll-free number" in got[4].message
    said = [w for w in warnings if "toll-free" in w]
    assert said == [
        "Column A ('From') holds a toll-free number on rows 2 and 4, yet they are imported: a "
        "toll-free number is a business's line, not a consumer's, most likely the business's "
        "own. Check those rows; take out the ones that are no consumer's opt-out and run the "
        "file again."
    ]


def test_a_list_that_is_no_log_counts_its_toll_free_rows(tmp_path: Path) -> None:
    """Black-box bb7 #3 (session 32): a plain opt-out file's 106 toll-free numbers went in
    without a word; a consumer's opt-out is almost never one. Imported all the same (some
    consumers do use one), each such row and a counted warning say so."""
    got, warnings = _staged(tmp_path, "Phone\n+18005550199\n303-555-0142\n1-877-555-0143\n")
    assert [got[n].outcome for n in (2, 3, 4)] == ["", "", ""]
    assert got[2].message == (
        "row 2: a toll-free number, a business's line rather than a consumer's: check it"
    )
    assert "toll-free" not in got[3].message
    assert "toll-free" in got[4].message
    said = [w for w in warnings if "toll-free" in w]
    assert said == [
        "2 rows hold toll-free numbers (rows 2 and 4), yet they are imported: a consumer's "
        "opt-out is almost never a toll-free number, which is most likely the business's own "
        "line or a vendor's. Check those rows in the report; take out the ones that are no "
        "consumer's opt-out and run the file again."
    ]


def test_a_list_without_toll_free_numbers_gets_no_remark(tmp_path: Path) -> None:
    got, warnings = _staged(tmp_path, "Phone\n303-555-0142\n")
    assert "toll-free" not in got[2].message
    assert not [w for w in warnings if "toll-free" in w]


@settings(max_examples=500, deadline=None)
@given(
    area=st.sampled_from(["800", "833", "844", "855", "866", "877", "888", "880", "242", "303"]),
    rest=st.integers(0, 9_999_999),
)
def test_toll_free_is_phonenumbers_number_type(area: str, rest: int) -> None:
    national = f"{area}{rest:07d}"
    number = phonenumbers.PhoneNumber(country_code=1, national_number=int(national))
    if not phonenumbers.is_valid_number(number):
        return  # asked only of numbers read as valid
    expected = phonenumbers.number_type(number) == phonenumbers.PhoneNumberType.TOLL_FREE
    assert phones.toll_free(national, "1") == expected
