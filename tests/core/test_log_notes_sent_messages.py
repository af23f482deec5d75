"""A full SMS log read on its recipient ("To") side: the business's marketing texts are not
opt-outs, whatever "Reply STOP to opt out" they carry, and the consumers' STOP replies are the
received rows, whose number is in "From" (black-box pass L1 #2: the Direction warning advised
keeping the outbound rows, the marketing texts, and no message was said to ask no stop; L1 #9:
"on those row" for a single row)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.sheet_check import Target

PROMO = "Black Friday sale! 20% off. Reply STOP to opt out"


def _warnings(tmp_path: Path, text: str, phone_column: str | None = None) -> list[str]:
    """The warnings of an import of ``text``; ``phone_column`` as --phone-column (a log this
    short gives no column fewer different numbers, so "From" is read unless "To" is asked)."""
    path = tmp_path / "log.csv"
    path.write_text(text)
    settings = JobSettings(
        path, Scope.global_(), target=Target.SMS_OPT_OUT, phone_column=phone_column
    )
    store, _ = stage_import(settings, tmp_path / "jobs", connection=None)
    warnings = [str(w) for w in store.meta().get("warnings") or []]
    store.close()
    return warnings


def _full_log() -> str:
    """As the tester's c5_twilio_full_log.csv: 12 promotions, 2 STOP replies, 2 confirmations."""
    lines = ["From,To,Body,Status,SentDate,Direction"]
    lines += [
        f"+17205550100,+130355560{n},{PROMO},delivered,2026-11-18 10:00:00,outbound-api"
        for n in range(10, 22)
    ]
    lines += [
        "+13035556011,+17205550100,STOP,received,2026-11-18 10:05:00,inbound",
        "+13035556015,+17205550100,stop,received,2026-11-18 10:07:00,inbound",
        "+17205550100,+13035556011,You have been unsubscribed.,delivered,2026-11-18 10:05:01,"
        "outbound-reply",
        "+17205550100,+13035556015,You have been unsubscribed.,delivered,2026-11-18 10:07:01,"
        "outbound-reply",
    ]
    return "\n".join(lines) + "\n"


def test_a_full_log_says_the_stop_replies_are_the_inbound_rows_read_from_from(
    tmp_path: Path,
) -> None:
    warnings = _warnings(tmp_path, _full_log())
    assert (
        "Column F ('Direction') says 2 of the 16 rows are inbound ('inbound'; the first is row "
        "14): on those rows column B ('To') holds the business's own number ('+17205550100' on "
        "most of them), not a consumer's, the consumer being on the other end (column A "
        "('From')), so they are not imported (each is invalid, its message saying why). Yet "
        "the inbound rows are "
        "the consumers' own messages: both hold an opt-out word (rows 14 and 15), and on them "
        "the consumer's number is in column A ('From'), which is not read. The outbound rows "
        "are the business's own texts, opt-outs only where they confirm one (2 of the 14 do); "
        "the other 12 are not opt-outs (a marketing text's 'Reply STOP to opt out' is no "
        "request from the consumer). Keep only the opt-out rows and run the file again: either "
        "the inbound rows with an opt-out word (filter column F ('Direction')), with "
        "--phone-column column:A, or the outbound rows whose message confirms an opt-out."
    ) in warnings, warnings
    assert (
        "Column C ('Body'): 12 of the 14 messages the business sent confirm no opt-out (row 2: "
        f"{PROMO[:40]!r}; row 3: {PROMO[:40]!r}; row 4: {PROMO[:40]!r}; …), yet every row is "
        "imported as an opt-out. A message the business sent shows an opt-out only when it "
        "confirms one ('You have been unsubscribed'); 'Reply STOP to opt out' or 'Txt STOP to "
        "end' is what it tells every recipient, not a request from one; take out those rows and "
        "run the file again."
    ) in warnings, warnings
    # The backwards advice: the outbound rows are the marketing texts.
    assert not [w for w in warnings if "Keep only the outbound rows" in w], warnings


@pytest.mark.parametrize(
    "message",
    [
        PROMO,
        "Acme: new arrivals! Reply STOP to unsubscribe",
        "Acme alerts: your order shipped. Reply STOP to cancel",
        "Acme: 2-for-1 today. Txt STOP to end",
        "Acme: 2-for-1 today. STOP2END",
        "Acme: sale ends Sunday. Msg&data rates may apply. Reply STOP",
        "Acme: sale! Reply STOP and you will no longer receive messages",
        "Acme: sale! Text STOP to be removed from our list",
        "To opt out, reply STOP. Acme deals every week!",
    ],
)
def test_an_opt_out_instruction_in_a_sent_text_is_no_opt_out(tmp_path: Path, message: str) -> None:
    text = (
        "From,To,Body,Direction\n"
        f'+17205550100,+13035556101,"{message}",outbound-api\n'
        "+13035556102,+17205550100,STOP,inbound\n"
    )
    warnings = _warnings(tmp_path, text, "To")
    assert any(
        w.startswith(
            "Column C ('Body'): 1 of the 1 messages the business sent confirms no opt-out "
            f"(row 2: {message[:40]!r})"
        )
        for w in warnings
    ), warnings


@pytest.mark.parametrize(
    "message",
    [
        "You have been unsubscribed.",
        "Acme: You will no longer receive messages from us.",
        "You have opted out and will receive no further messages.",
        "You have successfully been unsubscribed. Reply START to resubscribe.",
        "Acme: No more messages will be sent. Reply HELP for help.",
        "You've been removed from our list.",
    ],
)
def test_a_sent_text_confirming_an_opt_out_is_one(tmp_path: Path, message: str) -> None:
    text = (
        "From,To,Body,Direction\n"
        f'+17205550100,+13035556111,"{message}",outbound-reply\n'
        "+13035556111,+17205550100,STOP,inbound\n"
    )
    warnings = _warnings(tmp_path, text, "To")
    assert not [w for w in warnings if "confirm no opt-out" in w or "opted in" in w], warnings
    # Both ways are opt-outs here: either may be kept.
    assert any(
        "Keep only the opt-out rows and run the file again: either the inbound rows with an "
        "opt-out word (filter column D ('Direction')), with --phone-column column:A, or the "
        "outbound rows whose message confirms an opt-out." in w
        for w in warnings
    ), warnings


def test_a_sent_text_confirming_an_opt_in_is_named(tmp_path: Path) -> None:
    text = (
        "From,To,Body,Direction\n"
        "+17205550100,+13035556121,You have been resubscribed to Acme alerts.,outbound-api\n"
        "+17205550100,+13035556122,You have been unsubscribed.,outbound-api\n"
    )
    warnings = _warnings(tmp_path, text, "To")
    assert any(
        w.startswith(
            "Column C ('Body'): 1 row says the consumer opted in or asked to be called again "
            "(row 2: 'You have been resubscribed to Acme alert')"
        )
        for w in warnings
    ), warnings


def test_sent_texts_with_no_stop_replies_keep_the_confirmations(tmp_path: Path) -> None:
    # The received row asks nothing: the opt-outs are the sent confirmations, not every sent row.
    text = (
        "From,To,Body,Direction\n"
        f"+17205550100,+13035556131,{PROMO},outbound-api\n"
        "+17205550100,+13035556132,You have been unsubscribed.,outbound-reply\n"
        "+13035556133,+17205550100,What time do you open?,inbound\n"
    )
    warnings = _warnings(tmp_path, text, "To")
    assert (
        "Column D ('Direction') says 1 of the 3 rows is inbound ('inbound'; the first is row "
        "4): on that row column B ('To') holds the business's own number ('+17205550100'), not "
        "a consumer's, the consumer being on the other end (column A ('From')), so it is not "
        "imported (the row is invalid, its message saying why). Keep only the outbound rows "
        "whose message "
        "confirms an opt-out (filter column D ('Direction') and column C ('Body')) and run the "
        "file again."
    ) in warnings, warnings


def test_a_single_row_the_other_way_is_that_row(tmp_path: Path) -> None:
    # Black-box pass L1 #9: "on those row".
    text = (
        "Date Sent,From,To,Body,Direction\n"
        "2026-11-16,+12025550951,+18005550100,STOP,inbound\n"
        "2026-11-16,+12025550952,+18005550100,STOP,inbound\n"
        "2026-11-16,+18005550100,+12025550951,You have been unsubscribed.,outbound-reply\n"
    )
    warnings = _warnings(tmp_path, text)
    assert (
        "Column E ('Direction') says 1 of the 3 rows is outbound ('outbound-reply'; the first "
        "is row 4): on that row column B ('From') holds the business's own number "
        "('+18005550100'), not a consumer's, the consumer being on the other end (column C "
        "('To')), so it is not imported (the row is invalid, its message saying why). The "
        "inbound rows are imported as read."
    ) in warnings, warnings
    assert not [w for w in warnings if "those row " in w], warnings
