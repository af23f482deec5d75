"""A log of both directions read on one end (black-box B31 F6): on the rows going the other
way that end holds the business's own number ('+18445550123' on Telnyx's outbound rows), which
was put on the SMS opt-out list. Such a row is now invalid, its message naming its Direction
cell and the column the consumer is in; every row still ends in exactly one outcome."""

from __future__ import annotations

from pathlib import Path

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.removal_job import stage_removal
from app.core.sheet_check import CheckOptions, Outcome, Target, check_all
from app.core.sheet_mapping import ColumnMapping

TELNYX = (
    "id,direction,from,to,text,received_at,type\n"
    "a1,inbound,+17205550201,+18445550123,STOP,2026-11-24T23:30:00-08:00,SMS\n"
    "a2,outbound,+18445550123,+17205550201,You have been unsubscribed.,"
    "2026-11-24T23:30:05-08:00,SMS\n"
    "a3,inbound,+17205550202,+18445550123,Unsubscribe please,2026-11-23 14:00:00 UTC,SMS\n"
    "a4,outbound,+18445550123,+17205550202,You have been unsubscribed.,"
    "2026-11-23 14:00:02 UTC,SMS\n"
    "a5,outbound,+18445550123,+17205550203,Big sale today! Reply STOP to opt out,"
    "2026-11-23 15:00:00 UTC,SMS\n"
    "a7,inbound,+17205550205,+18445550123,stop all,2026-11-22 10:00:00 CST,SMS\n"
)
MOMT = (
    "Type,Originator,Recipient,Message,Created\n"
    "MO,+13125550301,+13125559999,Stop,2026-11-24 09:00\n"
    "MT,+13125559999,+13125550301,You're unsubscribed from Acme alerts.,2026-11-24 09:00\n"
    "MO,+13125550302,+13125559999,stop pls,2026-11-24 09:10\n"
    "MT,+13125559999,+13125550302,Acme alerts: Reply STOP to cancel,2026-11-24 09:10\n"
)


def _staged(
    tmp_path: Path, text: str, target: Target = Target.SMS_OPT_OUT, removal: bool = False
) -> tuple[dict[int, tuple[str, str, str]], list[str]]:
    path = tmp_path / "log.csv"
    path.write_text(text)
    if removal:
        store, _ = stage_removal(
            JobSettings(path, Scope.global_()), tmp_path / "j", connection=None
        )
    else:
        settings = JobSettings(path, Scope.global_(), target=target)
        store, _ = stage_import(settings, tmp_path / "j", connection=None)
    rows = {r.row_number: (r.outcome, r.national, r.message) for r in store.rows()}
    warnings = [str(w) for w in store.meta().get("warnings") or []]
    store.close()
    return rows, warnings


def test_outbound_rows_of_a_log_read_on_from_are_invalid(tmp_path: Path) -> None:
    rows, warnings = _staged(tmp_path, TELNYX)
    sent = {national for outcome, national, _ in rows.values() if outcome == ""}
    assert sent == {"7205550201", "7205550202", "7205550205"}, rows
    assert "8445550123" not in {national for _, national, _ in rows.values()}
    for number in (3, 5, 6):
        outcome, _, message = rows[number]
        assert outcome == "invalid", rows[number]
        assert message.startswith(
            f"row {number}: phone: cell B{number} says 'outbound' (the business sent this "
            f"message or made this call): on this row column C ('from') holds the business's "
            "own number, not a consumer's, and the consumer is on the other end, in column D "
            "('to'); the row is not imported"
        ), message
    # Every row in exactly one outcome: 3 invalid, 3 to send, none a duplicate of another.
    assert len(rows) == 6
    assert [outcome for outcome, _, _ in rows.values()].count("invalid") == 3
    assert not [outcome for outcome, _, _ in rows.values() if outcome == "duplicate_in_file"]
    said = [w for w in warnings if "says 3 of the 6 rows are outbound" in w]
    assert said and "so they are not imported" in said[0], warnings
    assert not [w for w in warnings if "imported too" in w and "outbound" in w], warnings


def test_mt_rows_of_an_originator_log_are_invalid(tmp_path: Path) -> None:
    rows, _ = _staged(tmp_path, MOMT)
    assert [rows[n][0] for n in (2, 3, 4, 5)] == ["", "invalid", "", "invalid"], rows
    assert "cell A3 says 'MT'" in rows[3][2]
    assert "in column C ('Recipient')" in rows[3][2]


def test_a_call_log_onto_the_dnc_list_leaves_out_the_business_line_too(tmp_path: Path) -> None:
    text = (
        "Caller ID,Number Called,Direction\n"
        "+13035550111,+18005550100,Inbound\n"
        "+18005550100,+13035550112,Outbound\n"
        "+13035550113,+18005550100,Inbound\n"
    )
    rows, _ = _staged(tmp_path, text, Target.DNC)
    assert [rows[n][0] for n in (2, 3, 4)] == ["", "invalid", ""], rows


def test_a_log_read_on_to_refuses_its_inbound_rows_and_says_how_to_read_from(
    tmp_path: Path,
) -> None:
    # Read on "To" (its rows mostly outbound), a received row's "To" is the business's line;
    # the consumer who wrote it is in "From", read with --phone-column.
    text = (
        "From,To,Body,Direction\n"
        "+18005550100,+12025550901,You have been unsubscribed.,outbound\n"
        "+18005550100,+12025550902,You have been unsubscribed.,outbound\n"
        "+12025550903,+18005550100,STOP,inbound\n"
        "+18005550100,+12025550904,You have been unsubscribed.,outbound\n"
    )
    rows, _ = _staged(tmp_path, text)
    assert rows[4][0] == "invalid", rows
    assert "cell D4 says 'inbound' (the consumer sent this message" in rows[4][2]
    assert "--phone-column column:A" in rows[4][2]
    assert [rows[n][0] for n in (2, 3, 5)] == ["", "", ""], rows


def test_a_removal_leaves_the_business_line_alone(tmp_path: Path) -> None:
    text = (
        "From,To,Body,Direction\n"
        "+12025550901,+18005550100,Call me,inbound\n"
        "+18005550100,+12025550901,Sure,outbound\n"
    )
    rows, _ = _staged(tmp_path, text, removal=True)
    assert rows[3][0] == "invalid", rows
    assert "the row is not removed" in rows[3][2]


def test_the_check_alone_refuses_the_row_the_plain_path_would_take() -> None:
    # No request date, scope or purpose column: the check's fast path for plain rows is the
    # one a log like this would take; it must read the direction too.
    mapping = ColumnMapping(headers=["From", "To", "Direction"], phone=0, header_row=1)
    rows = [
        (1, ["From", "To", "Direction"]),
        (2, ["+12025550901", "+18005550100", "inbound"]),
        (3, ["+18005550100", "+12025550901", "outbound"]),
    ]
    checked, summary = check_all(rows, mapping, CheckOptions(target=Target.SMS_OPT_OUT))
    assert [c.outcome for c in checked] == [Outcome.VALID, Outcome.INVALID]
    assert summary.as_dict()["invalid"] == 1
