"""Black-box pass L2 #2: a number the list keeps with its country code inside the digits.

``/dnc/insert phone_number=17205550202 phone_code=1`` is taken by the service as it is (an entry
made by hand or by another tool). A removal of 7205550202 reported it "not on the list in this
scope" while it stayed listed, a removal of the number listed in both forms reported it
removed while that entry stayed, and the number's evidence showed no DNC entry. The removal
now looks the number up in that form too (for every country: +44 as "447911123456"/44), deletes
that entry when it is the only one, and each form's entry (one delete each) when the number is
listed in more than one (black-box N5); the evidence lists such entries, saying which form each
holds.

Against the sandbox over loopback HTTP.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from python_calamine import CalamineWorkbook

from app.api.scope import Scope
from app.core.evidence import gather_evidence, write_evidence_xlsx
from app.core.job_exec import job_summary
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus
from app.core.removal_job import run_removal, stage_removal
from app.core.session import Session
from tests.core.lead_wire import Forwarding, wired_session


@pytest.fixture
def wire() -> Forwarding:
    return Forwarding()


@pytest.fixture
def session(sandbox: Any, tmp_path: Path, wire: Forwarding) -> Iterator[Session]:
    yield from wired_session(sandbox, tmp_path, wire)


def _remove(session: Session, tmp_path: Path, lines: list[str], scope: Scope) -> Any:
    path = tmp_path / "remove.csv"
    path.write_text("Phone\n" + "".join(f"{line}\n" for line in lines))
    settings = JobSettings(path, scope, note="request by email")
    store, _ = stage_removal(settings, tmp_path / "jobs", connection=session.connection)
    assert run_removal(store, session, concurrency=2) is JobStatus.FINISHED
    return store


def _listed(sandbox: Any) -> list[tuple[str, str]]:
    rows = sandbox.store.all("SELECT phone_number, phone_code FROM dnc ORDER BY id")
    return [(r["phone_number"], r["phone_code"]) for r in rows]


def test_an_entry_with_the_country_code_in_its_digits_is_removed(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    sandbox.bulk_seed_dnc(
        [
            ("17205550202", "1", "0", "by hand", ""),
            ("17205550203", "1", "0", "by hand", ""),
            ("447911123456", "44", "0", "by hand", ""),
            ("7205550204", "1", "0", "", ""),
        ]
    )
    lines = ["7205550202", "+1 720 555 0203", "+44 7911 123456", "7205550204"]
    store = _remove(session, tmp_path, lines, Scope.global_())
    s = job_summary(store)
    assert (s["removed"], s["not_found"], s["failed"]) == (4, 0, 0)
    assert _listed(sandbox) == []
    messages = {r.national: r.message for r in store.rows()}
    assert messages["7205550202"] == (
        "on the list as 17205550202, its country code 1 written in the digits; deleted in that form"
    )
    assert messages["7911123456"] == (
        "on the list as 447911123456, its country code 44 written in the digits; deleted in "
        "that form"
    )
    assert messages["7205550204"] == ""
    # The journal files each delete under the number, so its evidence finds it.
    deletes = [e for e in session.journal.query(job=s["job"]) if e.phase == "intent"]
    assert sorted(e.phone for e in deletes) == [
        "+17205550202",
        "+17205550203",
        "+17205550204",
        "+447911123456",
    ]
    us = next(e for e in deletes if e.phone == "+17205550202")
    assert us.before is not None and us.before["phone_number"] == "17205550202"


@pytest.mark.parametrize("scope", [Scope.global_(), Scope.purpose("")])
def test_a_number_listed_in_both_forms_is_removed_in_both(
    sandbox: Any, session: Session, wire: Forwarding, tmp_path: Path, scope: Scope
) -> None:
    # Black-box N5: it was refused ("a delete takes only one off"), and an import makes that
    # state; each form now gets its own delete.
    campaign = "-1" if scope.is_purpose else "0"
    purpose = "Marketing" if scope.is_purpose else ""
    sandbox.bulk_seed_dnc(
        [
            ("7205550202", "1", campaign, "", purpose),
            ("17205550202", "1", campaign, "by hand", purpose),
        ]
    )
    ids = [str(r["id"]) for r in sandbox.store.all("SELECT id FROM dnc ORDER BY id")]
    store = _remove(session, tmp_path, ["7205550202"], scope)
    (row,) = store.rows()
    assert row.outcome == "removed"
    assert row.message == (
        "on the list in two written forms, each taken off by its own delete: 7205550202 "
        f"(entry {ids[0]}) and 17205550202 (entry {ids[1]}; its country code 1 written in the "
        "digits)"
    )
    assert _listed(sandbox) == []
    assert wire.paths.count("/v1/dnc/delete") == 2


def test_the_evidence_lists_an_entry_with_the_country_code_in_its_digits(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    sandbox.bulk_seed_dnc(
        [("17205550202", "1", "0", "by hand", ""), ("7205550202", "1", "-1", "", "Surveys")]
    )
    pack = gather_evidence(session.api, session.journal, None, "7205550202", "1")
    assert sorted(e.phone_number for e in pack.dnc) == ["17205550202", "7205550202"]
    out = tmp_path / "evidence.xlsx"
    write_evidence_xlsx(pack, out)
    book = CalamineWorkbook.from_path(str(out))
    header, *rows = book.get_sheet_by_name("DNC").to_python()
    forms = {r[header.index("Number")]: r[header.index("Written form")] for r in rows}
    assert forms == {
        "17205550202": "with its country code 1 in the digits",
        "7205550202": "as the app writes it",
    }
    summary = dict(book.get_sheet_by_name("Summary").to_python())
    assert summary["DNC entries"] == 2
