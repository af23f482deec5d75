"""A row's purpose the target list has only spelled otherwise (case, white space, Unicode form)
takes the list's spelling when the list has one that can be sent, and is invalid, naming them,
when it has several or only one that cannot be sent (re-test M2 #2, severe: a Purpose cell
'marketing' or a Scope cell 'purpose:MARKETING' beside the list's 'Marketing' went in as a new
purpose the dialer's campaigns do not use, leaving the consumer callable)."""

from __future__ import annotations

import csv
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from app.api.client import ApiClient
from app.api.scope import Scope
from app.cli import import_cmd
from app.core import job_staging
from app.core.connections import Connection
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings, ListPurposes, purpose_key, shown_text
from app.core.job_store import JobRow
from app.core.sheet_check import Target
from app.core.sheet_types import SheetError
from tests.conftest import TOKEN

DECOMPOSED = "Mu\u0308ller"  # the accent a separate mark
LISTED = [
    "Loan  Offers",
    "Solar Leads ",
    "Tab\tSep",
    "Marketing",
    "surveys",
    "Surveys",
    DECOMPOSED,
    "Straße",
]


@pytest.fixture
def listed(sandbox: Any) -> Any:
    """The sandbox's DNC list with an entry under each purpose of LISTED, written into its
    database as another tool may have written them (the client sends none with spaces around)."""
    sandbox.bulk_seed_dnc((f"20255501{i:02d}", "1", "-1", "", p) for i, p in enumerate(LISTED))
    return sandbox


@pytest.fixture
def purposes_of(listed: Any) -> Iterator[Callable[..., ListPurposes]]:
    """The list's purposes as the import command reads them; the reader's client stays open
    for the test (the purposes are read when a row first names one) and is closed after it."""
    clients: list[ApiClient] = []
    connection = Connection("sandbox", listed.base_url)

    def read(target: Target = Target.DNC) -> ListPurposes:
        clients.append(ApiClient(listed.base_url, TOKEN))
        return import_cmd.read_list_purposes(
            clients[-1], target, connection, "Import of p.csv not started"
        )

    yield read
    for client in clients:
        client.close()


def _file(tmp_path: Path, rows: list[tuple[str, str, str]]) -> Path:
    path = tmp_path / "p.csv"
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.writer(out)
        writer.writerow(["Phone", "Scope", "Purpose"])
        writer.writerows(rows)
    return path


def _stage(
    tmp_path: Path, rows: list[tuple[str, str, str]], purposes: ListPurposes | None, **kw: Any
) -> tuple[dict[int, JobRow], list[str], Any]:
    settings = JobSettings(_file(tmp_path, rows), Scope.global_(), list_purposes=purposes, **kw)
    connection = Connection("sandbox", "http://127.0.0.1:1") if purposes is not None else None
    store, summary = stage_import(settings, tmp_path / "jobs", connection=connection)
    staged = {r.row_number: r for r in store.rows()}
    warnings = list(store.meta().get("warnings") or [])
    store.close()
    return staged, warnings, summary


def test_the_key_compares_case_spacing_and_unicode_form() -> None:
    assert purpose_key(" Loan \t Offers ") == purpose_key("loan offers") == "loan offers"
    assert purpose_key(DECOMPOSED) == purpose_key("MÜLLER")
    assert purpose_key("STRASSE") == purpose_key("Straße")
    assert purpose_key("Surveys\u200b") == "surveys"
    assert purpose_key("Surveys") != purpose_key("Survey")
    assert shown_text(DECOMPOSED) == "'Mu\\u0308ller'"


def test_rows_take_the_list_spelling_or_are_invalid(
    purposes_of: Callable[..., ListPurposes], tmp_path: Path
) -> None:
    rows = [
        ("3035550201", "purpose:MARKETING", ""),  # a Scope cell
        ("3035550202", "-1", "marketing"),  # a Purpose cell
        ("3035550203", "-1", "loan offers"),  # two spaces on the list
        ("3035550204", "-1", "tab sep"),  # a tab on the list
        ("3035550205", "-1", "Müller"),  # composed here, decomposed on the list
        ("3035550206", "-1", "STRASSE"),
        ("3035550207", "-1", "SURVEYS"),  # two spellings on the list: which?
        ("3035550208", "-1", "Solar Leads"),  # the list's has a space after it
        ("3035550209", "-1", "Surveys"),  # exactly as listed
        ("3035550210", "-1", "Fundraising"),  # not on the list: a purpose of its own
        ("3035550211", "global", ""),
    ]
    staged, warnings, summary = _stage(tmp_path, rows, purposes_of())
    sent = {n: (r.scope, r.purpose) for n, r in staged.items() if r.outcome == ""}
    assert sent == {
        2: ("purpose:Marketing", "Marketing"),
        3: ("purpose:Marketing", "Marketing"),
        4: ("purpose:Loan  Offers", "Loan  Offers"),
        5: ("purpose:Tab\tSep", "Tab\tSep"),
        6: (f"purpose:{DECOMPOSED}", DECOMPOSED),
        7: ("purpose:Straße", "Straße"),
        10: ("purpose:Surveys", "Surveys"),
        11: ("purpose:Fundraising", "Fundraising"),
        12: ("global", ""),
    }
    assert (
        staged[3].message
        == "row 3: purpose 'marketing' is written 'Marketing' on the list; sent so"
    )
    assert staged[6].message == (
        "row 6: purpose 'Müller' is written 'Mu\\u0308ller' on the list; sent so"
    )
    assert staged[10].message == staged[11].message == ""
    assert staged[8].outcome == staged[9].outcome == "invalid"
    assert staged[8].message == (
        "row 8: purpose: 'SURVEYS' is on the DNC list only as 'surveys' and 'Surveys', which "
        "the service keeps apart: write the one meant in the cell, exactly"
    )
    assert "'Solar Leads' is on the DNC list only as 'Solar Leads ', which begins or ends " in (
        staged[9].message
    )
    assert (summary.valid, summary.invalid, summary.rows) == (9, 2, 11)
    assert warnings[0].startswith(
        "6 rows name a purpose the DNC list writes otherwise ('MARKETING' as 'Marketing'; "
        "'marketing' as 'Marketing'; 'loan offers' as 'Loan  Offers'; 'tab sep' as 'Tab\\tSep'; "
        "'Müller' as 'Mu\\u0308ller'; rows 2, 3, 4, 5, 6 and 7): "
    ), warnings
    assert warnings[1].startswith(
        "2 rows are invalid because the DNC list has their purposes only spelled otherwise, in "
        "several spellings or one that cannot be sent ('SURVEYS' as 'surveys' and 'Surveys'; "
        "'Solar Leads' as 'Solar Leads '; rows 8 and 9)"
    ), warnings
    assert len(warnings) == 2


def test_the_sms_list_is_the_one_compared(
    listed: Any, purposes_of: Callable[..., ListPurposes], tmp_path: Path
) -> None:
    listed.store.executemany(
        "INSERT INTO sms_opt_out(phone_number, phone_code, campaign_id, reason, purpose, "
        "insert_date) VALUES (?, '1', -1, '', ?, '2026-01-01 00:00:00')",
        [("2025550301", "Promo  Texts")],
    )
    rows = [("3035550201", "-1", "promo texts"), ("3035550202", "-1", "marketing")]
    staged, _, _ = _stage(
        tmp_path, rows, purposes_of(Target.SMS_OPT_OUT), target=Target.SMS_OPT_OUT
    )
    assert (staged[2].purpose, staged[3].purpose) == ("Promo  Texts", "marketing")


def test_the_list_is_read_only_when_a_row_names_a_purpose(listed: Any, tmp_path: Path) -> None:
    reads: list[int] = []

    def load() -> tuple[list[str], bool]:
        reads.append(1)
        return ["Marketing"], True

    purposes = ListPurposes("DNC list", load)
    staged, _, _ = _stage(tmp_path, [("3035550201", "global", "")], purposes)
    assert reads == [] and staged[2].scope == "global"
    staged, _, _ = _stage(
        tmp_path, [("3035550201", "-1", "MARKETING"), ("3035550202", "-1", "marketing")], purposes
    )
    assert reads == [1]  # once for the job, whatever its rows
    assert staged[2].purpose == staged[3].purpose == "Marketing"


def test_a_list_read_only_in_part_is_searched_and_says_so(
    purposes_of: Callable[..., ListPurposes], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Two pages of two entries: "Marketing" (the fourth of those seeded) is beyond them, and
    # the search by its usual spellings finds it; "Solar Leads " is not among its spellings.
    monkeypatch.setattr(import_cmd, "PURPOSE_PAGES", 2)
    monkeypatch.setattr(import_cmd, "PURPOSE_PAGE", 2)
    monkeypatch.setattr(job_staging, "PURPOSE_PAGES", 2)
    monkeypatch.setattr(job_staging, "PURPOSE_PAGE", 2)
    monkeypatch.setattr(job_staging, "SEARCHED_TEXTS", 1)
    purposes = purposes_of()
    rows = [("3035550201", "-1", "MARKETING"), ("3035550202", "-1", "surveys  x")]
    staged, warnings, _ = _stage(tmp_path, rows, purposes)
    assert not purposes.complete
    assert staged[2].purpose == "Marketing"
    assert staged[3].purpose == "surveys  x"  # not compared: one text is searched at most
    assert warnings[-1] == (
        "The DNC list has more purpose entries than the 4 read to learn its purposes, so not "
        "every purpose on it could be compared: the rows' purposes were compared with those "
        "read and searched for by their usual spellings (case and spacing), up to 1 texts; 1 "
        "more was not compared, and a spelling the list has only otherwise goes in as a "
        "purpose of its own."
    )


def test_without_a_connection_the_rows_purposes_are_noted(tmp_path: Path) -> None:
    rows = [("3035550201", "-1", "marketing"), ("3035550202", "-1", "Surveys")]
    staged, warnings, _ = _stage(tmp_path, rows, None, purpose="Surveys")
    assert staged[2].purpose == "marketing"
    # The option's own purpose is the command line's to note.
    assert warnings == [
        "The purposes of 1 row (row 2) were not compared with the list's, as there was no "
        "connection to read them; a run with a connection gives a row whose purpose the list "
        "writes otherwise ('marketing' beside 'Marketing') the list's spelling, so it is "
        "imported under it."
    ]


def test_a_failing_read_leaves_no_job(tmp_path: Path) -> None:
    def load() -> tuple[list[str], bool]:
        raise SheetError("the list could not be read")

    jobs = tmp_path / "jobs"
    with pytest.raises(SheetError):
        _stage(tmp_path, [("3035550201", "-1", "marketing")], ListPurposes("DNC list", load))
    assert not list(jobs.glob("*.sqlite*")) and not list(jobs.glob("*.db"))
