"""Digits that start with their country code's own digits and are valid read both ways
("4917612345678" under 49) are refused in a spreadsheet cell or a typed number, naming both
readings (black-box pass F). A number the service or the dialer keeps is not such a cell: an
entry's or a lead's national digits beside their phone code are dialled as they are, so list
health, the campaign audit and evidence read them so, as they did before."""

from __future__ import annotations

from app.api.models import Lead
from app.core import phones
from app.core.audit_match import lead_numbers
from app.core.audit_types import ListKind
from app.core.list_health import analyse
from app.core.snapshots import SnapshotData, SnapshotEntry

TWO_WAYS = "4917612345678"  # +49 176 12345678, or the German number 4917612345678


def test_a_typed_number_reads_two_ways_and_a_stored_one_as_the_dialer_dials_it() -> None:
    typed = phones.normalize(TWO_WAYS, "49")
    assert not typed.ok and "reads two ways" in typed.reason
    stored = phones.normalize(TWO_WAYS, "49", stored=True)
    assert (stored.ok, stored.national, stored.phone_code) == (True, TWO_WAYS, "49")
    msisdn = phones.normalize(TWO_WAYS, "49", msisdn=True)
    assert (msisdn.ok, msisdn.national) == (True, "17612345678")
    # Each reading keeps its own cache slot: asking again gives the same answers.
    assert phones.normalize(TWO_WAYS, "49") == typed
    assert phones.normalize(TWO_WAYS, "49", stored=True) == stored
    assert phones.normalize_with_default(TWO_WAYS, "49", stored=True) == stored


def test_list_health_does_not_call_a_stored_entry_invalid() -> None:
    entry = SnapshotEntry("7", TWO_WAYS, "49", "0", "", "", "", "2026-11-01 10:00:00")
    data = SnapshotData(ListKind.DNC, None, "Sandbox", "http://x", "2026-11-22T00:00:00Z", 1)
    data.entries.append(entry)
    report = analyse(data, {})
    assert report.finding("invalid_number").entries == []


def test_the_audit_reads_a_leads_number_as_the_dialer_dials_it() -> None:
    lead = Lead("1", "100", "NEW", TWO_WAYS, "49", "", "", "Ada", "Lovelace")
    (number,) = lead_numbers([lead])
    assert number.key == ("49", TWO_WAYS) and number.ok
