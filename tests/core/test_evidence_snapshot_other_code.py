"""Task W7 #1: evidence finds in a saved snapshot the entries it finds on the live list.

The live search looks a form with the country code in its digits up under every phone code
(an entry "447911129992" kept under code 1 is the UK number: black-box R2 #6), but the
snapshot history looked every form up under the number's own code: the pack listed the entry
in its DNC sheet and said "no" for the snapshot holding the very same entry. Both now search
the same forms under the same codes and keep an entry by the same rule
(``dnc_removal.names_number``): a German "4915112345678" under 49, a German number of its
own, is the number neither on the list nor in a snapshot.

Against the sandbox over loopback HTTP; the snapshot is taken from it and written to tmp_path.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.api.client import DncQuery
from app.core.audit_types import ListKind
from app.core.evidence import gather_evidence, write_evidence_xlsx
from app.core.session import Session
from app.core.snapshots import entries_for_number, take_snapshot


def _ids(sandbox: Any) -> dict[str, str]:
    rows = sandbox.store.all("SELECT id, phone_number, phone_code FROM dnc ORDER BY id")
    return {f"{r['phone_number']}@{r['phone_code']}": str(r["id"]) for r in rows}


def test_a_snapshot_entry_kept_under_another_code_is_in_the_numbers_history(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    sandbox.bulk_seed_dnc(
        [
            ("447911129992", "1", "0", "by hand", ""),
            ("00447911129992", "61", "0", "another tool", ""),
            ("7911129993", "44", "0", "", ""),  # another number
        ]
    )
    ids = _ids(sandbox)
    snapshots = tmp_path / "snapshots"
    take_snapshot(session.api, ListKind.DNC, None, snapshots, connection="Sandbox")

    pack = gather_evidence(
        session.api, session.journal, snapshots, "+44 7911 129992", "1", connection="Sandbox"
    )

    live = sorted(e.id for e in pack.dnc)
    assert live == sorted([ids["447911129992@1"], ids["00447911129992@61"]])
    (snap,) = pack.snapshots
    assert snap.listed is True
    assert sorted(e.id for e in snap.entries) == live
    assert sorted((e.phone_number, e.phone_code) for e in snap.entries) == [
        ("00447911129992", "61"),
        ("447911129992", "1"),
    ]
    # The pack written from it says so in its Snapshots sheet.
    write_evidence_xlsx(pack, tmp_path / "evidence.xlsx")


def test_a_snapshot_entry_that_is_another_valid_number_is_not_the_numbers(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    # "4915112345678" kept under 49 reads, under its own code, as a German number of its own,
    # so neither the live search nor the snapshot takes it for +49 151 12345678; the same
    # digits under code 1 (no US number) are that number.
    sandbox.bulk_seed_dnc(
        [("4915112345678", "49", "0", "", ""), ("4915112345678", "1", "0", "by hand", "")]
    )
    ids = _ids(sandbox)
    snapshots = tmp_path / "snapshots"
    take_snapshot(session.api, ListKind.DNC, None, snapshots, connection="Sandbox")

    pack = gather_evidence(
        session.api, session.journal, snapshots, "+49 151 12345678", "1", connection="Sandbox"
    )

    assert [e.id for e in pack.dnc] == [ids["4915112345678@1"]]
    (snap,) = pack.snapshots
    assert [e.id for e in snap.entries] == [ids["4915112345678@1"]]


def test_entries_for_number_with_no_code_reads_every_code(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    sandbox.bulk_seed_dnc([("447911129992", "1", "0", "", ""), ("447911129992", "44", "0", "", "")])
    data = take_snapshot(session.api, ListKind.DNC, None, tmp_path, connection="Sandbox")
    assert data.path is not None
    assert len(list(session.api.iter_dnc(DncQuery(phone_number="447911129992")))) == 2
    assert sorted(e.phone_code for e in entries_for_number(data.path, "447911129992", "")) == [
        "1",
        "44",
    ]
    assert [e.phone_code for e in entries_for_number(data.path, "447911129992", "1")] == ["1"]
