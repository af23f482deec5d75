"""An SMS platform's log imported as opt-outs warns about rows sent the other way (on which the
phone column holds the business's own line) and about messages that ask no stop (black-box
pass H2: a Twilio log's outbound rows put the business's number on the list, and "Yes I will
attend" was imported as an opt-out, with no word)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings, MappingError
from app.core.removal_job import stage_removal
from app.core.sheet_check import Target

TWILIO = (
    "Date Sent,From,To,Body,Status,Direction\n"
    "2026-11-16 10:00:01,+12025550901,+18005550100,STOP,received,inbound\n"
    "2026-11-16 10:05:01,+18005550100,+12025550901,You have been unsubscribed.,delivered,"
    "outbound-reply\n"
    "2026-11-17 09:00:00,+12025550902,+18005550100,stop please,received,inbound\n"
    "2026-11-17 09:00:01,+18005550100,+12025550902,You have been unsubscribed.,delivered,"
    "outbound-reply\n"
    "2026-11-18 12:00:00,+12025550903,+18005550100,Yes I will attend,received,inbound\n"
    "2026-11-18 12:00:00,+18005550100,+12025550904,Reminder: appt tomorrow,delivered,"
    "outbound-api\n"
)


def _warnings(tmp_path: Path, text: str, kind: str = "import") -> list[str]:
    path = tmp_path / "log.csv"
    path.write_text(text)
    settings = JobSettings(path, Scope.global_(), target=Target.SMS_OPT_OUT)
    if kind == "import":
        store, _ = stage_import(settings, tmp_path / "jobs", connection=None)
    else:
        settings = JobSettings(path, Scope.global_())
        store, _ = stage_removal(settings, tmp_path / "jobs", connection=None)
    warnings = list(store.meta()["warnings"])
    store.close()
    return warnings


def test_a_log_of_both_directions_and_other_messages_is_warned_about(tmp_path: Path) -> None:
    warnings = _warnings(tmp_path, TWILIO)
    assert (
        "Column F ('Direction') says 3 of the 6 rows are outbound ('outbound-reply', "
        "'outbound-api'; the first is row 3): on those rows column B ('From') holds the "
        "business's own number ('+18005550100' on most of them), not a consumer's, the consumer "
        "being on the other end (column C ('To')), so they are not imported (each is invalid, "
        "its message saying why). The inbound rows are imported as read."
    ) in warnings, warnings
    assert (
        "Column D ('Body'): 1 of the 3 messages holds no opt-out word (row 6: 'Yes I will "
        "attend'), yet every row is imported as an opt-out. Check those rows: any words that "
        "ask to stop revoke consent ('leave me alone' too), but a reply such as 'Yes I will "
        "attend' does not; take out the rows that ask nothing of the kind and run the file "
        "again."
    ) in warnings, warnings


def test_a_log_of_received_stop_messages_only_gets_neither_warning(tmp_path: Path) -> None:
    text = (
        "Date Sent,From,To,Body,Direction\n"
        "2026-11-16,+12025550901,+18005550100,STOP,inbound\n"
        "2026-11-16,+12025550902,+18005550100,stop please,inbound\n"
        "2026-11-16,+12025550903,+18005550100,Unsubscribe,inbound\n"
        "2026-11-16,+12025550904,+18005550100,ARRÊT,inbound\n"
        "2026-11-16,+12025550905,+18005550100,Opt-out,inbound\n"
        # Black-box pass H4: these revoke consent too, and were called "not an opt-out".
        "2026-11-16,+12025550906,+18005550100,Please remove me from your list,inbound\n"
        "2026-11-16,+12025550907,+18005550100,leave me alone,inbound\n"
        "2026-11-16,+12025550908,+18005550100,UNSUB,inbound\n"
        "2026-11-16,+12025550909,+18005550100,Baja,inbound\n"
        "2026-11-16,+12025550910,+18005550100,Don't contact me,inbound\n"
    )
    warnings = _warnings(tmp_path, text)
    assert not [w for w in warnings if "Direction" in w or "Body" in w], warnings


def test_the_recipient_column_of_a_log_warns_about_received_rows(tmp_path: Path) -> None:
    # Read as "To" (the consumers' end of texts the business sent): the received rows hold
    # the business's line there. The sent rows confirm opt-outs and the received one asks
    # nothing, so the sent rows are the ones to keep (when the received rows are the STOPs, see
    # test_log_notes_sent_messages).
    text = (
        "From,To,Message,Direction\n"
        "+18005550100,+12025550911,You have been unsubscribed.,outbound\n"
        "+18005550100,+12025550912,You have been unsubscribed.,outbound\n"
        "+18005550100,+12025550913,You have been unsubscribed.,outbound\n"
        "+12025550911,+18005550100,Thanks,inbound\n"
    )
    warnings = _warnings(tmp_path, text)
    assert any(
        w.startswith("Column D ('Direction') says 1 of the 4 rows is inbound ('inbound'")
        and "column B ('To') holds the business's own number ('+18005550100'" in w
        and "so it is not imported" in w
        and "The outbound rows are imported as read." in w
        for w in warnings
    ), warnings


def test_a_removal_is_told_about_directions_and_refused_for_stop_messages(
    tmp_path: Path,
) -> None:
    # Its messages with no opt-out word are no concern of a removal; the rows asking to stop
    # are: those consumers opted out (black-box B31 F2), so the removal is refused.
    with pytest.raises(MappingError) as refused:
        _warnings(tmp_path, TWILIO, kind="removal")
    assert "2 rows of log.csv hold a consumer's message asking to stop" in str(refused.value)
    replies = TWILIO.replace(",STOP,", ",Thanks,").replace(",stop please,", ",Thanks,")
    warnings = _warnings(tmp_path, replies, kind="removal")
    assert any("are not removed" in w and "Direction" in w for w in warnings), warnings
    assert not [w for w in warnings if "Body" in w], warnings


def test_rows_the_other_way_far_down_the_file_are_counted_too(tmp_path: Path) -> None:
    # Black-box pass H4: 400 inbound rows, then 300 outbound ones from the business's line, and
    # 20 replies after row 401: the warnings looked at the first 50 rows only, so said nothing.
    lines = ["Date Sent,From,To,Body,Direction"]
    lines += [f"2026-11-16,+1202555{i:04d},+18005550100,STOP,inbound" for i in range(400)]
    lines += [f"2026-11-16,+1303555{i:04d},+18005550100,Yes please,inbound" for i in range(20)]
    lines += [f"2026-11-17,+18005550100,+1202555{i:04d},Promo,outbound-api" for i in range(300)]
    warnings = _warnings(tmp_path, "\n".join(lines) + "\n")
    assert any(
        w.startswith(
            "Column E ('Direction') says 300 of the 720 rows are outbound ('outbound-api'; "
            "the first is row 422)"
        )
        and "'+18005550100' on most of them" in w
        for w in warnings
    ), warnings
    assert any(
        w.startswith(
            "Column D ('Body'): 20 of the 420 messages hold no opt-out word (row 402: 'Yes please'"
        )
        for w in warnings
    ), warnings


def test_a_call_type_column_and_a_keyword_column_are_read_too(tmp_path: Path) -> None:
    # Black-box pass H4: "Call Type" (Inbound/Outbound) and "Keyword" columns were not read,
    # so a dialer log's outbound rows put the business's own number on the list unsaid.
    text = (
        "Caller ID,Number Called,Call Type,Keyword\n"
        "+12025550931,+18005550100,Inbound,STOP\n"
        "+12025550932,+18005550100,Inbound,Yes\n"
        "+12025550933,+18005550100,Inbound,STOP\n"
        "+18005550100,+12025550934,Outbound,\n"
    )
    warnings = _warnings(tmp_path, text)
    assert any(
        w.startswith("Column C ('Call Type') says 1 of the 4 rows is outbound ('Outbound'")
        for w in warnings
    ), warnings
    # A "Yes" agrees to something: named as an opt-in since black-box pass I2.
    assert any(
        w.startswith(
            "Column D ('Keyword'): 1 row says the consumer opted in or asked to be called "
            "again (row 3: 'Yes')"
        )
        for w in warnings
    ), warnings


def test_a_direction_header_in_spanish_is_read(tmp_path: Path) -> None:
    text = (
        "From,To,Dirección,Mensaje\n"
        "+12025550941,+18005550100,inbound,BAJA\n"
        "+12025550942,+18005550100,inbound,ALTO\n"
        "+18005550100,+12025550943,outbound,Gracias\n"
    )
    warnings = _warnings(tmp_path, text)
    assert any(
        w.startswith("Column C ('Dirección') says 1 of the 3 rows is outbound") for w in warnings
    ), warnings
    assert not [w for w in warnings if "Mensaje" in w], warnings  # BAJA and ALTO opt out
