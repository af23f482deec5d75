"""A form's "What number called you?" column, the business's own line, is not offered for import
with --phone-column (leftover of black-box N4 #1: the warning on unread columns said "To import
it too, run the file again with --phone-column column:C", inviting the caller ID onto the list)."""

from __future__ import annotations

from pathlib import Path

from tests.core.test_mapping_call_log_caller_id import _stage

FORM = (
    "Timestamp,Email Address,What number called you?,Your phone number (the one to stop "
    "calling),Anything else?\n"
    "11/20/2026 14:22:05,a@x.com,(720) 555-0100,303-555-4001,stop calling\n"
    "11/20/2026 15:22:05,b@x.com,720-555-0100,303-555-4002,\n"
    "11/21/2026 16:22:05,c@x.com,(720) 555-0199,303-555-4003,they called at 9pm\n"
    "11/21/2026 17:22:05,d@x.com,,303-555-4004,\n"
)


def test_the_caller_column_is_named_as_the_business_line(tmp_path: Path) -> None:
    path = tmp_path / "form.csv"
    path.write_text(FORM)
    mapping, warnings, counts = _stage(path, tmp_path)
    assert mapping["phone"] == "Your phone number (the one to stop calling) (column D)"
    assert counts["valid"] == 4
    assert not any("--phone-column column:C" in w for w in warnings), warnings
    assert (
        "Column C ('What number called you?') is the number that called or texted the "
        "consumer, as the form asks it: the business's own line, so it is not imported (only "
        "column D ('Your phone number (the one to stop calling)') is read)."
    ) in warnings, warnings


def test_a_callers_number_beside_the_consumers_own_is_the_business_line(tmp_path: Path) -> None:
    """Re-test R1 #1: 'Caller's number' beside 'Phone number to stop calling' was offered."""
    path = tmp_path / "form.csv"
    path.write_text(
        "Timestamp,Caller's number,Phone number to stop calling\n"
        "11/20/2026 14:22:05,(720) 555-0100,303-555-4001\n"
        "11/20/2026 15:22:05,720-555-0100,303-555-4002\n"
    )
    mapping, warnings, _ = _stage(path, tmp_path)
    assert mapping["phone"] == "Phone number to stop calling (column C)"
    assert not any("--phone-column column:B" in w for w in warnings), warnings
    assert any(
        w.startswith('Column B ("Caller\'s number") is the number that called or texted')
        for w in warnings
    ), warnings


def test_a_logs_business_line_is_not_offered_for_import(tmp_path: Path) -> None:
    """Re-test R1 #2: a message log's 'To' column was offered with --phone-column and, in the
    next sentence, said to be the business's own line."""
    path = tmp_path / "log.csv"
    path.write_text(
        "From,To,Body,Direction\n"
        "+13035550101,+17205550100,STOP,inbound\n"
        "+13035550102,+17205550100,stop,inbound\n"
        "+13035550103,+17205550100,STOP,inbound\n"
    )
    mapping, warnings, _ = _stage(path, tmp_path)
    assert mapping["phone"] == "From (column A)"
    said = [w for w in warnings if "Column B ('To')" in w]
    assert said, warnings
    assert not any("--phone-column column:B" in w for w in said), said
    assert "the business's own line" in said[0], said
