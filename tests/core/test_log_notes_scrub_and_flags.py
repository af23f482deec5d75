"""Black-box N4: a scrub's results (#2), blocking statuses (#5) and a subscriber export's empty
opt-out dates (#7) are named, whatever the vendor calls its columns.

Through stage_import, as an import of the file is staged (no service: nothing is sent)."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.sheet_check import Target


def _warnings(path: Path, tmp_path: Path, target: Target = Target.DNC) -> list[str]:
    settings = JobSettings(path, Scope.global_(), target=target)
    store, _ = stage_import(settings, tmp_path / "jobs", connection=None)
    warnings = [str(w) for w in store.meta().get("warnings") or []]
    store.close()
    return warnings


def _csv(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "list.csv"
    path.write_text(text)
    return path


def test_a_gryphon_scrub_workbooks_clean_rows_are_named(tmp_path: Path) -> None:
    # 07_gryphon_scrub_results.xlsx: zero warnings, the 'Clean' rows imported with that reason.
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.append(
        ["PhoneNumber", "ResultCode", "Reason", "FederalDNC", "StateDNC", "Wireless",
         "Litigator", "InternalDNC", "CallableFlag"]
    )  # fmt: skip
    for row in [
        (3035550701, "C", "Clean", "N", "N", "N", "N", "N", "Y"),
        (3035550702, "D", "Federal DNC", "Y", "N", "N", "N", "N", "N"),
        (3035550703, "C", "Clean", "N", "N", "Y", "N", "N", "Y"),
        (3035550704, "L", "Known Litigator", "N", "N", "N", "Y", "N", "N"),
        (3035550705, "I", "Internal DNC", "N", "N", "N", "N", "Y", "N"),
        (3035550706, "X", "Invalid Number", "N", "N", "N", "N", "N", "N"),
        (3035550707, "W", "Wireless - Do Not Call", "N", "Y", "Y", "N", "N", "N"),
    ]:
        ws.append(list(row))
    wb.save(tmp_path / "scrub.xlsx")
    warnings = _warnings(tmp_path / "scrub.xlsx", tmp_path)
    assert (
        "Column C ('Reason'): 4 of the 7 rows say do not call ('Federal DNC', 'Known Litigator', "
        "'Internal DNC', 'Wireless - Do Not Call'), the other 3 say something else ('Clean': 2 "
        "rows, the first is row 2; "
        "'Invalid Number': row 7), yet they are imported as opt-outs too. Keep only the rows "
        "that say do not call (filter column C ('Reason')) and run the file again."
    ) in warnings, warnings
    assert (
        "Column D ('FederalDNC'), column E ('StateDNC'), column G ('Litigator') and column H "
        "('InternalDNC') mark each row yes or no: on 3 of the 7 rows none of them says yes "
        "(rows 2, 4 and 7), and column I ('CallableFlag') marks 2 of them callable, yet every "
        "row is imported as an opt-out, whatever they say. Keep only the rows where any of "
        "those columns says yes: delete the others from the file (rows hidden by a filter are "
        "imported too) and run it again."
    ) in warnings, warnings


@pytest.mark.parametrize(
    "header", ["FederalDNC", "InternalDNC", "DoNotCall", "donotcall", "DNCFlag", "Litigator"]
)
def test_a_flag_header_spaced_or_run_together_is_read(tmp_path: Path, header: str) -> None:
    text = f"PhoneNumber,{header}\n3035553011,N\n3035553012,Y\n3035553013,\n"
    warnings = _warnings(_csv(tmp_path, text), tmp_path)
    assert any(
        f"Column B ({header!r}) marks each row yes or no: 2 of the 3 rows do not say yes "
        "(rows 2 and 4), yet every row is imported as an opt-out, whatever it says." in w
        for w in warnings
    ), warnings


def test_flag_columns_that_block_every_row_between_them_are_not_named(tmp_path: Path) -> None:
    text = "Phone,Federal DNC,State DNC,Litigator\n3035553001,Y,N,N\n3035553002,N,Y,N\n"
    text += "3035553003,N,N,Y\n"
    warnings = _warnings(_csv(tmp_path, text), tmp_path)
    assert not [w for w in warnings if "mark each row yes or no" in w], warnings


def test_a_callable_flag_alone_names_the_callable_rows(tmp_path: Path) -> None:
    text = "Phone,CallableFlag\n3035553011,Y\n3035553012,N\n3035553013,Y\n"
    warnings = _warnings(_csv(tmp_path, text), tmp_path)
    assert (
        "Column B ('CallableFlag') marks 2 of the 3 rows callable (rows 2 and 4), yet every row "
        "is imported as an opt-out. Delete the rows marked callable from the file (rows hidden "
        "by a filter are imported too) and run it again."
    ) in warnings, warnings


def test_a_wireless_or_email_flag_is_no_block(tmp_path: Path) -> None:
    text = "Phone,Wireless,Email Opt Out\n3035553011,Y,Y\n3035553012,N,N\n"
    warnings = _warnings(_csv(tmp_path, text), tmp_path)
    assert not [w for w in warnings if "mark each row" in w or "marks each row" in w], warnings


@pytest.mark.parametrize(
    ("header", "verdict"),
    [("Reason", "Clean"), ("Description", "Clean"), ("Reason", "OK to call"),
     ("ResultCode", "Not on DNC"), ("Description", "Invalid Number")],
)  # fmt: skip
def test_a_reason_or_description_column_of_verdicts_is_named(
    tmp_path: Path, header: str, verdict: str
) -> None:
    text = f"Phone Number,{header}\n3035552041,{verdict}\n3035552042,National DNC\n"
    text += f"3035552043,{verdict}\n"
    warnings = _warnings(_csv(tmp_path, text), tmp_path)
    assert any(
        f"1 of the 3 rows says do not call ('National DNC'), the other 2 say something else "
        f"({verdict!r}: 2 rows, the first is row 2)" in w
        for w in warnings
    ), warnings


def test_a_reason_column_of_free_text_is_not_named(tmp_path: Path) -> None:
    text = "Phone,Reason\n3035552041,Customer asked\n3035552042,DNC\n3035552043,Rude\n"
    warnings = _warnings(_csv(tmp_path, text), tmp_path)
    assert not [w for w in warnings if "something else" in w], warnings


@pytest.mark.parametrize("value", ["Litigator", "Blocked", "DNCL", "TCPA", "Known Litigator"])
def test_a_blocking_status_is_no_something_else(tmp_path: Path, value: str) -> None:
    # 20a, 20b, 31: following "keep only the rows that say do not call" dropped these.
    text = f"Phone,Status\n3035552001,Clean\n3035552002,DNC\n3035552003,{value}\n"
    warnings = _warnings(_csv(tmp_path, text), tmp_path)
    assert any(
        f"2 of the 3 rows say do not call ('DNC', {value!r}), the other 1 says something else "
        "('Clean': row 2)" in w
        for w in warnings
    ), warnings


def test_not_on_dnc_is_no_do_not_call(tmp_path: Path) -> None:
    text = "Phone,Result\n3035552001,Not on DNC\n3035552002,DNC\n"
    warnings = _warnings(_csv(tmp_path, text), tmp_path)
    assert any("something else ('Not on DNC': row 2)" in w for w in warnings), warnings


@pytest.mark.parametrize("header", ["opt_out_date", "Unsubscribe Time", "Unsubscribed At"])
def test_empty_opt_out_dates_are_named(tmp_path: Path, header: str) -> None:
    # 05_attentive_subscribers.csv, 29c: still-subscribed numbers went onto the opt-out list.
    text = f"Phone,{header}\n+13035552921,2026-11-18 10:00\n+13035552922,\n+13035552923,\n"
    warnings = _warnings(_csv(tmp_path, text), tmp_path, Target.SMS_OPT_OUT)
    assert any(
        w.startswith(
            f"Column B ({header!r}) dates each opt-out, yet 2 of the 3 rows have no date there "
            "(rows 3 and 4): on a list of subscribers such a row is most likely a number still "
            "subscribed, not an opt-out"
        )
        for w in warnings
    ), warnings


def test_an_opt_out_date_on_every_row_or_a_plain_request_date_is_not_named(
    tmp_path: Path,
) -> None:
    dated = "Phone,Unsubscribe Time\n+13035552921,2026-11-18\n+13035552922,2026-11-19\n"
    received = "Phone,Date received\n+13035552921,2026-11-18\n+13035552922,\n"
    for text in (dated, received):
        warnings = _warnings(_csv(tmp_path, text), tmp_path, Target.SMS_OPT_OUT)
        assert not [w for w in warnings if "dates each opt-out" in w], warnings
