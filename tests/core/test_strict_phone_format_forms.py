"""Black-box B36 F3: a service strict on phone formats refuses the rarer written forms' searches.

A removal, the evidence pack and an import's late rows look a number up in every written form
an entry may keep it in ("07911129992", "00447911129992", "011…"). The API spec lets
/dnc/search refuse a phone_number it finds badly formatted (code 6006, invalid phone format);
a service reading phone_number as the number beside its phone code refuses one starting with 0
(a trunk 0, the exit code 00 or 011). Each removal row then failed on that refusal, though the
number was removed or not on the list. Such a form keeps no entry on that service: it is now
skipped and named once as not looked up; the app's own form refused stays a failure.

Against the sandbox started with ``dnc_phone_format="strict"`` (``--dnc-phone-format strict``)
over loopback HTTP, through the removal job as ``dnc-desk remove`` runs it.
"""

from __future__ import annotations

import argparse
import datetime as dt
from collections.abc import Callable
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.api.client import ApiClient, DncQuery
from app.api.errors import ValidationError
from app.api.scope import Scope
from app.core.evidence import gather_evidence
from app.core.export_job import ExportJob
from app.core.export_job import ListKind as ExportKind
from app.core.job_exec import job_summary
from app.core.journal import ChangeJournal
from app.core.session import Session
from app.sandbox.cli import add_arguments
from tests.conftest import TOKEN
from tests.core import removal_session
from tests.core import test_lateness_other_written_forms as lateness
from tests.core.removal_session import Wire, remove

GLOBAL = Scope.global_()
UK = "7911129992"
UK_GONE = "7911129993"
US = "2125550100"
IN_TIME = "7911123457"
TODAY = dt.date.today().isoformat()
REFUSED = "the service refuses that phone number format (code 6006, invalid phone format)"


wire = removal_session.wire
session = removal_session.session


@pytest.fixture
def sandbox(make_sandbox: Callable[..., Any]) -> Any:
    """An empty sandbox whose DNC search refuses a phone_number starting with 0."""
    return make_sandbox(dnc_phone_format="strict")


def _listed(sandbox: Any) -> list[tuple[str, str]]:
    rows = sandbox.store.all("SELECT phone_number, phone_code FROM dnc ORDER BY id")
    return [(r["phone_number"], r["phone_code"]) for r in rows]


def test_the_strict_sandbox_refuses_a_search_of_a_number_starting_with_0(sandbox: Any) -> None:
    with ApiClient(sandbox.base_url, TOKEN) as api:
        api.insert_dnc(UK, "44", GLOBAL)
        assert [e.phone_number for e in api.iter_dnc(DncQuery(phone_number=UK))] == [UK]
        assert list(api.iter_dnc(DncQuery(phone_number=f"44{UK}"))) == []
        for form in (f"0{UK}", f"0044{UK}", f"01144{UK}"):
            with pytest.raises(ValidationError) as refused:
                list(api.iter_dnc(DncQuery(phone_number=form)))
            assert refused.value.code == 6006


def _parsed(*args: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    return parser.parse_args(list(args))


def test_the_sandbox_takes_any_format_unless_told_and_says_the_option(
    make_sandbox: Callable[..., Any],
) -> None:
    assert _parsed().dnc_phone_format == "any"
    assert _parsed("--dnc-phone-format", "strict").dnc_phone_format == "strict"
    server = make_sandbox()
    with ApiClient(server.base_url, TOKEN) as api:
        assert list(api.iter_dnc(DncQuery(phone_number=f"0044{UK}"))) == []


def test_a_removal_ends_each_row_removed_or_not_listed_naming_the_refused_forms(
    sandbox: Any, session: Session, wire: Wire, tmp_path: Path
) -> None:
    sandbox.bulk_seed_dnc([(UK, "44", "0", "", ""), (US, "1", "0", "", "")])

    store = remove(session, tmp_path, [f"+44 {UK}", f"+44 {UK_GONE}", "+1 212 555 0100"])

    s = job_summary(store)
    assert (s["removed"], s["not_found"], s["failed"]) == (2, 1, 0)
    assert _listed(sandbox) == []
    rows = {r.national: (r.outcome, r.message) for r in store.rows()}
    uk_note = (
        f"not looked up in 0{UK}, 0044{UK}, 01144{UK} and 00440{UK}: {REFUSED}, "
        "so it keeps no entry written so"
    )
    assert rows[UK][0] == "removed"
    assert rows[UK][1] == uk_note
    assert rows[UK][1].count("not looked up") == 1
    gone = uk_note.replace(UK, UK_GONE)
    assert rows[UK_GONE] == (
        "not_found",
        f"not on the list in this scope in the written forms looked up: {UK_GONE} under phone "
        f"code 44; 44{UK_GONE} and 440{UK_GONE} under any phone code (looked up before the "
        f"delete; nothing was sent); {gone}",
    )
    assert rows[US][0] == "removed"
    assert rows[US][1].endswith(
        f"not looked up in 001{US} and 0111{US}: {REFUSED}, so it keeps no entry written so"
    ), rows[US][1]
    assert sorted(wire.deletes("phone_code")) == [(US, "1"), (UK, "44")]


def test_a_refusal_of_the_apps_own_form_still_fails_the_row(
    sandbox: Any, session: Session, tmp_path: Path
) -> None:
    # An Italian landline keeps its 0 in the number itself (no trunk 0 to drop): the app
    # writes it so, and a service refusing that form refuses the number.
    store = remove(session, tmp_path, ["+39 06 6982 0000"])

    (row,) = store.rows()
    assert row.outcome == "failed"
    assert "invalid phone format" in row.message.casefold(), row.message
    assert "not looked up" not in row.message


def test_the_evidence_pack_finds_the_entry_and_names_the_refused_forms(
    sandbox: Any, session: Session
) -> None:
    sandbox.bulk_seed_dnc([(UK, "44", "0", "", "")])

    pack = gather_evidence(session.api, session.journal, None, f"+44{UK}", "44")

    assert [e.phone_number for e in pack.dnc] == [UK]
    assert pack.dnc_searched == (
        f"{UK} under phone code 44; 44{UK}, 440{UK} under any phone code; not looked up in "
        f"0{UK}, 0044{UK}, 01144{UK} and 00440{UK}: {REFUSED}, so it keeps no "
        "entry written so"
    )


def test_a_late_import_row_is_measured_to_another_form_past_the_refused_ones(
    sandbox: Any, tmp_path: Path
) -> None:
    # The UK number's trunk-0 form is the first other form looked up: its refusal stopped the
    # look-ups there, the entry "447911123456" never found and the row's lateness unknown.
    number = "7911123456"
    asked = lateness._business_days_ago(30)
    old = lateness._seed(sandbox, "44" + number, "2024-03-02", code="44")
    journal = ChangeJournal(tmp_path / "journal.sqlite3")
    try:
        store = lateness._run(
            tmp_path,
            sandbox,
            journal,
            lateness.Wire(),
            [[f"+44 {number}", asked.isoformat()], [f"+44 {IN_TIME}", TODAY]],
            Scope.global_(),
        )
    finally:
        journal.close()

    rows = {r.national: r for r in store.rows()}
    # In time: only its trunk-0 form is looked up before its insert (no other form after).
    assert (rows[IN_TIME].outcome, rows[IN_TIME].message) == (
        "inserted",
        f"not looked up in 0{IN_TIME}: {REFUSED}, so it keeps no entry written so",
    )
    row = rows[number]
    assert row.outcome == "inserted", row.message
    assert row.message.endswith(
        f"on the list as 44{number} since 2024-03-02 (entry {old}), before the request was "
        f"received: not late; not looked up in 0{number}, 0044{number}, 01144{number} and "
        f"00440{number}: {REFUSED}, so it keeps no entry written so"
    ), row.message
    assert row.honoured_on == "2024-03-02"


def test_an_export_of_one_uk_number_reads_it_and_names_the_refused_trunk_form(
    sandbox: Any, tmp_path: Path
) -> None:
    # The number filter of a country that drops a trunk 0 also searches the number with it,
    # which the strict service refuses: the export stopped, no file written.
    sandbox.bulk_seed_dnc([(UK, "44", "0", "", ""), (UK_GONE, "44", "0", "", "")])
    out = tmp_path / "one.xlsx"
    with ApiClient(sandbox.base_url, TOKEN) as api:
        job = ExportJob(api, ExportKind.DNC, DncQuery(phone_number=UK, phone_code="44"), out)
        assert job.count_matches() == 1
        result = job.run()

    note = f"not looked up in 0{UK}: {REFUSED}, so it keeps no entry written so"
    assert (result.rows, result.total, result.unreachable) == (1, 1, 0)
    assert result.forms_not_searched == note
    book = openpyxl.load_workbook(out, read_only=True)
    try:
        entries = [r[0] for r in book["Entries"].iter_rows(min_row=2, values_only=True)]
        about = {r[0]: r[1] for r in book["About"].iter_rows(values_only=True) if len(r) > 1}
    finally:
        book.close()
    assert len(entries) == 1
    assert about["Forms not searched"] == note[0].upper() + note[1:] + "."
