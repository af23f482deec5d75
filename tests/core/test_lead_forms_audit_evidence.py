"""Black-box B37 F1, F2, F4: leads writing a number with its country code set apart or with
dots, and snapshots that cannot be read.

F1: a lead "+44 7911421024" (code 44), a number in no UK range in use today, carried the
global DNC entry 7911421024 but the audit keyed it by its digits with the 44 in front and
reported it only as unparseable. F2: the evidence pack found no lead "+44 7998813038" nor
"1.404.281.8404", forms it never searched, and did not say which forms it searched. F4: a
damaged snapshot was skipped without a word or listed as fine.

Against the sandbox over loopback HTTP, the leads and entries inserted over the API.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from python_calamine import CalamineWorkbook

from app.api.client import ApiClient
from app.api.scope import Scope
from app.core.audit_run import run_audit
from app.core.audit_types import ListKind
from app.core.evidence import gather_evidence, write_evidence_xlsx
from app.core.snapshots import take_snapshot

GLOBAL = Scope.global_()


def _campaign_list(api: ApiClient) -> tuple[str, str]:
    camp = {c.name: c.id for c in api.campaigns()}["Spring Renewals"]
    return camp, api.insert_list("Black-box B37 list", camp)


@pytest.mark.parametrize(
    "written", ["+44 7911421024", "0044 7911421024", "+44 (0)7911 421024", "011 44 7911421024"]
)
def test_an_invalid_number_written_with_its_country_code_meets_its_entry(
    api: ApiClient, written: str
) -> None:
    camp, list_id = _campaign_list(api)
    lead = api.insert_lead(list_id, written, phone_code="44", first_name="F1")
    api.insert_dnc("7911421024", "44", GLOBAL, reason="UK request")
    result = run_audit(api, camp, connection="Sandbox")
    assert [(c.number.lead.id, c.entry.phone_number) for c in result.conflicts] == [
        (lead, "7911421024")
    ]
    # Still said to be unparseable: it is not proven to be any valid number.
    assert [n.lead.id for n in result.unparseable] == [lead]


def test_an_invalid_number_written_with_another_code_is_not_taken_for_it(api: ApiClient) -> None:
    camp, list_id = _campaign_list(api)
    api.insert_lead(list_id, "+33 7911421024", phone_code="44")
    api.insert_dnc("7911421024", "44", GLOBAL)
    assert run_audit(api, camp, connection="Sandbox").conflicts == []


@pytest.mark.parametrize(
    ("written", "code", "number"),
    [
        ("+44 7998813038", "44", "7998813038"),
        ("+44-7998813038", "44", "7998813038"),
        ("1.404.281.8404", "1", "4042818404"),
        ("+1 404 281 8404", "1", "4042818404"),
    ],
)
def test_the_pack_finds_a_lead_writing_the_code_apart_or_dotted(
    api: ApiClient, tmp_path: Path, written: str, code: str, number: str
) -> None:
    _, list_id = _campaign_list(api)
    lead = api.insert_lead(list_id, written, phone_code=code)
    pack = gather_evidence(api, None, None, number, code, code_given=True)
    assert [h.lead.id for h in pack.leads] == [lead]
    assert written in pack.lead_forms_searched
    out = tmp_path / "pack.xlsx"
    write_evidence_xlsx(pack, out)
    rows = CalamineWorkbook.from_path(str(out)).get_sheet_by_name("Summary").to_python()
    searched = next(r[1] for r in rows if r[0] == "Lead forms searched")
    assert f'"{written}"' in searched and "not found" in searched


def test_the_pack_finds_a_lead_writing_an_invalid_number_with_its_code(api: ApiClient) -> None:
    _, list_id = _campaign_list(api)
    lead = api.insert_lead(list_id, "+44 7911421024", phone_code="44")
    pack = gather_evidence(
        api, None, None, "7911421024", "44", code_given=True, search_as_written=True
    )
    assert [h.lead.id for h in pack.leads] == [lead]


def _damage_entries_page(path: Path) -> None:
    """Overwrite the entries table's root page on disk, the meta table left readable."""
    db = sqlite3.connect(path)
    try:
        (root,) = db.execute("SELECT rootpage FROM sqlite_master WHERE name = 'entries'").fetchone()
        (size,) = db.execute("PRAGMA page_size").fetchone()
    finally:
        db.close()
    data = bytearray(path.read_bytes())
    start = (root - 1) * size
    data[start : start + size] = b"\xff" * size
    path.write_bytes(bytes(data))


def test_snapshots_that_cannot_be_read_are_named_not_skipped(
    api: ApiClient, tmp_path: Path
) -> None:
    snapshots = tmp_path / "snapshots"
    take_snapshot(api, ListKind.DNC, None, snapshots, connection="Sandbox")
    damaged = take_snapshot(api, ListKind.DNC, None, snapshots, connection="Sandbox").path
    assert damaged is not None
    _damage_entries_page(damaged)
    (snapshots / "not-a-snapshot.sqlite3").write_bytes(b"junk" * 100)
    pack = gather_evidence(api, None, snapshots, "2025550123", "1")
    assert len(pack.snapshots) == 1
    assert pack.snapshots_not_read["not-a-snapshot.sqlite3"].startswith("not a DNC Desk snapshot")
    assert pack.snapshots_not_read[damaged.name].startswith("damaged")
    out = tmp_path / "pack.xlsx"
    write_evidence_xlsx(pack, out)
    rows = CalamineWorkbook.from_path(str(out)).get_sheet_by_name("Summary").to_python()
    assert [r[1] for r in rows if r[0] == "Snapshots not read"] == [2]
