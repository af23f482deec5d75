"""A CSV export re-imports to the same entries: the apostrophe the export puts before text that
could start a formula (``'=1+1``, ``'+inj``) is dropped again when the file is read, for
reason, purpose, scope and campaign cells, on the general and the fast path alike; an
apostrophe before anything else is the text's own."""

from __future__ import annotations

import csv
import datetime as dt
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.api.client import ApiClient, DncQuery
from app.api.models import WriteStatus
from app.api.scope import Scope
from app.core.connections import Connection
from app.core.export_job import COLUMNS, ExportJob, ListKind
from app.core.import_job import run_import, stage_import
from app.core.job_exec import job_summary
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus
from app.core.journal import ChangeJournal
from app.core.session import Session
from app.core.sheet_check import CheckOptions, Outcome, Target, check_all, check_rows
from app.core.sheet_mapping import ColumnMapping
from app.core.sheet_scope import CampaignDirectory, cell_text, visible_text
from app.core.sheet_types import Row
from app.core.xlsx_safe import FORMULA_TRIGGERS, csv_cell
from tests.conftest import TOKEN

INSERTED = dt.date(2026, 11, 20)

# As the CSV export writes them, and as they read back.
GUARDED = {
    "'=1+1": "=1+1",
    "'+SUM(1,2)": "+SUM(1,2)",
    "'+inj": "+inj",
    "'-3+4": "-3+4",
    "'@cmd": "@cmd",
    "'\t x": "x",  # the text left is cleaned as any cell: a cell "\t x" reads as "x"
    "'\r\nnote": "note",
    "'\t": "",  # a reason of only a tab: not an apostrophe once the tab is gone
    "'\r\n": "",
    " '=1+1 ": "=1+1",
    "\u200b'+inj": "+inj",
}
# An apostrophe before anything else is the text's own. ("''=1+1" is the export of "'=1+1"
# and reads as that: black-box N1 #2, tests/core/test_csv_export_apostrophe_roundtrip.py.)
KEPT = ["'til 5pm", "'", "' =1+1", "rock 'n' roll", "'Surveys'"]


# ---- the cleaning itself -------------------------------------------------------------------


@pytest.mark.parametrize(("cell", "text"), GUARDED.items())
def test_a_guard_apostrophe_is_dropped(cell: str, text: str) -> None:
    assert cell_text(cell) == text
    assert cell_text(text) == text  # cleaning cleaned text changes nothing


@pytest.mark.parametrize("cell", KEPT)
def test_any_other_apostrophe_is_kept(cell: str) -> None:
    assert cell_text(cell) == cell.strip()


@pytest.mark.parametrize("trigger", FORMULA_TRIGGERS)
def test_every_trigger_the_export_guards_is_undone(trigger: str) -> None:
    text = f"{trigger}x1"
    assert csv_cell(text) == f"'{text}"
    assert cell_text(csv_cell(text)) == text.strip()


@settings(max_examples=500)
@given(
    st.one_of(
        st.text(max_size=20),
        st.text(
            st.sampled_from([*FORMULA_TRIGGERS, "'", " ", "x", "1", "\u200b", "é"]), max_size=12
        ),
    )
)
def test_cell_text_undoes_csv_cell(text: str) -> None:
    # Read back as the text cleaned as any cell is, apostrophes and all (black-box N1 #2).
    assert cell_text(csv_cell(text)) == visible_text(text)


def test_reason_purpose_and_scope_cells_read_without_the_guard() -> None:
    mapping = ColumnMapping(phone=0, scope=1, reason=2, purpose=3)
    rows: list[Row] = [
        (1, ["2025550101", "global", "'=1+1", None]),
        (2, ["2025550102", "'+inj", "'-3+4", None]),
        (3, ["2025550103", "purpose:+inj", "'@cmd", "'+inj"]),
        (4, ["2025550104", "purpose", "'\t x", "'-3+4"]),
        (5, ["2025550105", "purpose:'til 5pm", "'til 5pm", "'til 5pm"]),
        (6, ["2025550106", "'-1", "x", "'@home"]),
        (7, ["2025550107", "'=1+1", "", None]),
    ]
    checked, summary = check_all(rows, mapping, CheckOptions(insertion_date=INSERTED))
    got = [(c.outcome, str(c.scope), c.reason, c.purpose) for c in checked]
    assert got[0] == (Outcome.VALID, "global", "=1+1", "")
    assert got[2] == (Outcome.VALID, "purpose:+inj", "@cmd", "+inj")
    assert got[3] == (Outcome.VALID, "purpose:-3+4", "x", "-3+4")
    assert got[4] == (Outcome.VALID, "purpose:'til 5pm", "'til 5pm", "'til 5pm")
    assert got[5] == (Outcome.VALID, "purpose:@home", "x", "@home")
    # A scope cell's guard is dropped too: "+inj" and "=1+1" are then read (and refused) as
    # the text they are.
    assert [checked[1].message, checked[6].message] == [
        f"row {n}: scope: {text!r} is not a scope; use global, campaign:ID, purpose:TEXT or a "
        "campaign name"
        for n, text in ((2, "+inj"), (7, "=1+1"))
    ]
    assert summary.valid == 5


def test_a_campaign_cell_reads_without_the_guard() -> None:
    mapping = ColumnMapping(phone=0, campaign=1, purpose=2)
    rows: list[Row] = [(1, ["2025550101", "'-1", "'+inj"]), (2, ["2025550102", "'@Fall", ""])]
    lookup = {"@Fall": "1001"}
    checked, _ = check_all(
        rows, mapping, CheckOptions(insertion_date=INSERTED, campaign_lookup=lookup)
    )
    assert [(c.outcome, str(c.scope), c.purpose) for c in checked] == [
        (Outcome.VALID, "purpose:+inj", "+inj"),
        (Outcome.VALID, "campaign:1001", ""),
    ]


@pytest.mark.parametrize("default_reason", ["", "requested"])
def test_the_fast_path_reads_reasons_as_the_general_check_does(default_reason: str) -> None:
    from app.core.sheet_check import _Checker

    mapping = ColumnMapping(phone=0, reason=1, default_reason=default_reason)
    assert _Checker(mapping, CheckOptions()).plain_rows_possible()
    cells = [*GUARDED, *KEPT, "'=café", "'+ü", "'\u200b", "'\t", "plain", " ascii "]
    rows: list[Row] = [(i, [f"20255501{i:02d}", c]) for i, c in enumerate(cells, 1)]
    checked = list(check_rows(rows, mapping, CheckOptions(insertion_date=INSERTED)))
    assert all(c.outcome is Outcome.VALID for c in checked)
    assert [c.reason for c in checked] == [cell_text(c) or default_reason for c in cells]
    assert checked[0].reason == "=1+1" and checked[len(GUARDED)].reason == "'til 5pm"


# ---- a real round trip: export to CSV, import into an empty service -------------------------


@pytest.fixture
def first(make_sandbox: Callable[..., Any]) -> Any:
    server = make_sandbox()
    server.seed_campaign("Spring Renewals", active=True)
    return server


@pytest.fixture
def second(make_sandbox: Callable[..., Any]) -> Any:
    server = make_sandbox()
    server.seed_campaign("Spring Renewals", active=True)
    return server


@pytest.fixture
def client(first: Any) -> Iterator[ApiClient]:
    with ApiClient(first.base_url, TOKEN) as api:
        yield api


@pytest.fixture
def session(second: Any, tmp_path: Path) -> Iterator[Session]:
    journal = ChangeJournal(tmp_path / "journal.sqlite3")
    s = Session(Connection("Second", second.base_url), ApiClient(second.base_url, TOKEN), journal)
    yield s
    s.close()
    journal.close()


def _entries(sandbox: Any, table: str) -> list[tuple[str, str, int, str, str]]:
    return sorted(
        (r["phone_number"], r["phone_code"], r["campaign_id"], r["reason"], r["purpose"])
        for r in sandbox.store.all(f"SELECT * FROM {table}")
    )


@pytest.mark.parametrize("kind", [ListKind.DNC, ListKind.SMS])
def test_a_csv_export_imports_into_an_empty_service_as_the_same_entries(
    kind: ListKind, first: Any, second: Any, client: ApiClient, session: Session, tmp_path: Path
) -> None:
    (spring,) = (c.id for c in client.campaigns())
    assert [c.id for c in session.api.campaigns()] == [spring]
    insert = client.insert_dnc if kind is ListKind.DNC else client.insert_sms
    purpose = Scope.purpose
    entries: list[tuple[str, str, Scope, str]] = [
        ("2025550101", "1", Scope.global_(), "=1+1"),
        ("2025550102", "1", Scope.global_(), "+SUM(1,2)"),
        ("2025550103", "1", Scope.global_(), "-3+4"),
        ("2025550104", "1", Scope.global_(), "@cmd"),
        ("2025550105", "1", Scope.global_(), "'til 5pm"),
        ("2025550106", "1", Scope.global_(), "-1"),  # a plain number: never guarded
        ("2025550107", "1", Scope.global_(), '=HYPERLINK("x")'),
        ("2025550101", "1", purpose("+inj"), "=1+1"),
        ("2025550102", "1", purpose("+inj"), ""),
        ("2025550103", "1", purpose("-3+4"), "@cmd"),
        ("2025550104", "1", purpose("@home"), "'til 5pm"),
        ("2025550105", "1", purpose("=1+1"), "+inj"),
        ("2025550106", "1", purpose("'til 5pm"), "-rude"),
        ("2025550107", "1", purpose("Surveys"), "a\tb"),
        ("2025550108", "1", Scope.campaign(spring), "-rude"),
        ("7400123456", "44", purpose("+inj"), "+44 asked"),
    ]
    for number, code, scope, reason in entries:
        text = scope.purpose_text if scope.is_purpose else ""
        assert insert(number, code, scope, reason=reason, purpose=text).status is WriteStatus.DONE
    table = "dnc" if kind is ListKind.DNC else "sms_opt_out"
    exported = _entries(first, table)
    assert len(exported) == len(entries)

    out = tmp_path / "export.csv"
    result = ExportJob(client, kind, DncQuery(), out, connection_name="First").run()
    assert (result.rows, result.unreachable) == (len(entries), 0)
    with out.open(encoding="utf-8-sig", newline="") as fh:
        written = list(csv.reader(fh))
    # An SMS opt-out record has no campaign_uid: its export leaves the column out (fx13).
    assert written[0] == list(COLUMNS if kind is ListKind.DNC else COLUMNS[:-1])
    # The file is guarded: the cells the black-box test re-imported with their apostrophe.
    assert ["'=1+1", "'+inj", "purpose:+inj"] in [[r[6], r[7], r[2]] for r in written[1:]]

    target = Target.DNC if kind is ListKind.DNC else Target.SMS_OPT_OUT
    lookup = CampaignDirectory(session.api.campaigns())
    store, summary = stage_import(
        # The file's scope column names every row's scope; global is for rows naming none.
        JobSettings(out, Scope.global_(), target=target),
        tmp_path / "jobs",
        connection=session.connection,
        campaign_lookup=lookup,
    )
    invalid = [r.message for r in store.rows() if r.outcome == "invalid"]
    assert invalid == []
    assert (summary.valid, summary.duplicates_in_file) == (len(entries), 0)
    assert run_import(store, session) is JobStatus.FINISHED
    s = job_summary(store)
    assert (s["inserted"], s["failed"], s["invalid"]) == (len(entries), 0, 0)
    assert _entries(second, table) == exported
