"""Re-test R1: every row a status warning counts as saying something else than do not call
carries a row note, whatever its value ("Active", "NA", "Transferred"), not only a scrub's
verdict such as "Clean" (#6); the warning names every do-not-call value when few, and says how
many more when it cuts the list (#7).

Through stage_import (no service: nothing is sent), whose stored messages the report's Rows
sheet shows; the held-rows bound through LogWatch between a real reader and the real check."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.api.scope import Scope
from app.core import message_log_notes
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.message_log_notes import LogWatch
from app.core.sheet_check import CheckOptions, Target, check_rows
from app.core.sheet_csv import CsvSource
from app.core.sheet_header import read_preview
from app.core.sheet_mapping import propose_from_preview


def _staged(
    tmp_path: Path, text: str, target: Target = Target.DNC
) -> tuple[list[str], dict[int, str]]:
    path = tmp_path / "file.csv"
    path.write_text(text)
    store, _ = stage_import(
        JobSettings(path, Scope.global_(), target=target), tmp_path / "jobs", connection=None
    )
    warnings = [str(w) for w in store.meta().get("warnings") or []]
    messages = {r.row_number: r.message for r in store.rows()}
    store.close()
    return warnings, messages


def test_an_ivr_logs_other_dispositions_are_noted_by_the_row(tmp_path: Path) -> None:
    # 44_ivr_optout_log.csv: 'Transferred' and 'Abandoned' were named by the warning only.
    text = (
        "Call Date,ANI,DNIS,IVR Option,Disposition\n"
        "11/18/2026 09:01,3035554401,8885550100,9,DNC - IVR Opt Out\n"
        "11/18/2026 09:05,3035554402,8885550100,1,Transferred\n"
        "11/18/2026 09:07,3035554403,8885550100,9,DNC - IVR Opt Out\n"
        "11/18/2026 09:09,3035554404,8885550101,2,Abandoned\n"
    )
    warnings, messages = _staged(tmp_path, text)
    assert [w for w in warnings if "say something else ('Transferred': row 3;" in w], warnings
    assert messages == {
        2: "",
        3: "row 3: column E ('Disposition') says 'Transferred', which is no opt-out",
        4: "",
        5: "row 5: column E ('Disposition') says 'Abandoned', which is no opt-out",
    }, messages


def test_rows_before_the_first_do_not_call_row_are_noted_too(tmp_path: Path) -> None:
    # 31_vicidial_list_export.csv's statuses, sorted: the column is a status column only once
    # its 'DNC' row, after the others, is read.
    text = "phone_number,status\n3035553102,NA\n3035553104,SALE\n3035553105,B\n3035553101,DNC\n"
    warnings, messages = _staged(tmp_path, text)
    said = [w for w in warnings if w.startswith("Column B ('status'): 1 of the 4 rows")]
    assert said and "'NA': row 2; 'SALE': row 3; 'B': row 4" in said[0], warnings
    assert messages == {
        2: "row 2: column B ('status') says 'NA', which is no opt-out",
        3: "row 3: column B ('status') says 'SALE', which is no opt-out",
        4: "row 4: column B ('status') says 'B', which is no opt-out",
        5: "",
    }, messages


def test_a_subscriber_status_rows_are_noted_in_the_sms_list(tmp_path: Path) -> None:
    # 29a_sms_subscribers_status.csv.
    text = (
        "Phone,Subscriber Status\n+13035552901,Unsubscribed\n+13035552902,Active\n"
        "+13035552903,Active\n+13035552904,Unsubscribed\n"
    )
    _, messages = _staged(tmp_path, text, Target.SMS_OPT_OUT)
    assert messages == {
        2: "",
        3: "row 3: column B ('Subscriber Status') says 'Active', which is no opt-out",
        4: "row 4: column B ('Subscriber Status') says 'Active', which is no opt-out",
        5: "",
    }, messages


def test_a_status_column_no_warning_names_notes_no_row(tmp_path: Path) -> None:
    # No row says do not call: 'Active' may be the opt-out's own state, and nothing is said.
    text = "Phone,Status\n3035550001,Active\n3035550002,Active\n"
    warnings, messages = _staged(tmp_path, text)
    assert not [w for w in warnings if "something else" in w], warnings
    assert messages == {2: "", 3: ""}, messages


def test_a_reason_columns_other_values_are_noted_only_with_its_warning(tmp_path: Path) -> None:
    # A "Reason" column is named only when it holds a scrub's verdicts.
    text = "Phone,Reason\n3035550001,Wireless\n3035550002,Federal DNC\n"
    warnings, messages = _staged(tmp_path, text)
    assert not [w for w in warnings if "something else" in w], warnings
    assert messages == {2: "", 3: ""}, messages
    text += "3035550003,Clean\n"
    warnings, messages = _staged(tmp_path, text)
    assert [w for w in warnings if "something else ('Wireless': row 2; 'Clean'" in w], warnings
    assert messages == {
        2: "row 2: column B ('Reason') says 'Wireless', which is no opt-out",
        3: "",
        4: "row 4: column B ('Reason') says 'Clean', which is no opt-out",
    }, messages


def test_past_the_held_rows_bound_rows_go_on_in_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(message_log_notes, "_HELD_ROWS", 2)
    path = tmp_path / "file.csv"
    path.write_text(
        "Phone,Status\n3035550001,Active\n3035550002,Active\n3035550003,Active\n"
        "3035550004,Active\n3035550005,DNC\n3035550006,Active\n"
    )
    source = CsvSource(path)
    mapping = propose_from_preview(read_preview(source))
    log = LogWatch(mapping, "import")
    checked = list(log.noted(check_rows(log.watch(source.iter_rows()), mapping, CheckOptions())))
    # Rows 2 and 3 went on undecided, without the note; the two held when row 6 was read got it.
    assert [(c.row, c.message) for c in checked] == [
        (2, ""),
        (3, ""),
        (4, "row 4: column B ('Status') says 'Active', which is no opt-out"),
        (5, "row 5: column B ('Status') says 'Active', which is no opt-out"),
        (6, ""),
        (7, "row 7: column B ('Status') says 'Active', which is no opt-out"),
    ]
    assert not log._pending


def test_a_scrubs_four_do_not_call_values_are_all_named(tmp_path: Path) -> None:
    # 07_gryphon_scrub_results.xlsx: 'Wireless - Do Not Call', the fourth, went unnamed.
    text = (
        "PhoneNumber,ResultCode,Reason\n"
        "3035550701,C,Clean\n3035550702,D,Federal DNC\n3035550703,C,Clean\n"
        "3035550704,L,Known Litigator\n3035550705,I,Internal DNC\n3035550706,X,Invalid Number\n"
        "3035550707,W,Wireless - Do Not Call\n"
    )
    warnings, _ = _staged(tmp_path, text)
    assert (
        "Column C ('Reason'): 4 of the 7 rows say do not call ('Federal DNC', 'Known Litigator', "
        "'Internal DNC', 'Wireless - Do Not Call'), the other 3 say something else ('Clean': 2 "
        "rows, the first is row 2; 'Invalid Number': row 7), yet they are imported as opt-outs "
        "too. Keep only the rows that say do not call (filter column C ('Reason')) and run the "
        "file again."
    ) in warnings, warnings


def test_many_do_not_call_values_are_cut_saying_how_many_more(tmp_path: Path) -> None:
    values = ["DNC", "DNCL", "Litigator", "Blocked", "Opted Out", "Do Not Call", "TCPA"]
    rows = [f"30355501{i:02},{v}" for i, v in enumerate([*values, "DNC", "DNC", "Callback"])]
    warnings, _ = _staged(tmp_path, "Phone,Status\n" + "\n".join(rows) + "\n")
    assert [
        w
        for w in warnings
        if w.startswith(
            "Column B ('Status'): 9 of the 10 rows say do not call ('DNC', 'DNCL', 'Litigator', "
            "'Blocked' and 3 more), the other 1 says something else ('Callback': row 11)"
        )
    ], warnings
