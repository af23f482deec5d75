"""The CSV export's formula guard is undone exactly by the import (black-box N1 #2): the export
quotes ``=1+1`` as ``'=1+1`` and a stored ``'=1+1`` as ``''=1+1``, and the import takes one
apostrophe off, so every text reads back as itself, however many apostrophes it starts with.

Before, a stored reason ``'=1+1`` or ``'-draft by agent`` was written unchanged, looked like the
guarded ``=1+1``, and a re-import turned it into ``=1+1`` and ``-draft by agent``.
"""

from __future__ import annotations

import csv
import datetime as dt
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from app.api.client import ApiClient, DncQuery
from app.api.models import WriteStatus
from app.api.scope import Scope
from app.core.connections import Connection
from app.core.export_job import ExportJob, ListKind
from app.core.import_job import run_import, stage_import
from app.core.job_exec import job_summary
from app.core.job_staging import JobSettings
from app.core.job_store import JobStatus
from app.core.journal import ChangeJournal
from app.core.session import Session
from app.core.sheet_check import CheckOptions, Outcome, check_all, check_rows
from app.core.sheet_mapping import ColumnMapping
from app.core.sheet_reader import open_sheet
from app.core.sheet_scope import CampaignDirectory, cell_text, visible_text
from app.core.sheet_types import Row
from app.core.xlsx_safe import FORMULA_TRIGGERS, SafeCsvWriter, csv_cell
from tests.conftest import TOKEN

INSERTED = dt.date(2026, 11, 20)

# Texts made of what the rule is about: apostrophes, the characters that could start a
# formula, and what the import passes over before an apostrophe (spaces, invisible characters).
PIECES = st.sampled_from([*FORMULA_TRIGGERS, "'", "'", " ", "x", "1", ".", "\u200b", "\u00a0", "é"])
TEXTS = st.one_of(st.text(PIECES, max_size=12), st.text(max_size=20))

# (stored text, as the CSV export writes it)
WRITTEN = [
    ("=1+1", "'=1+1"),
    ("'=1+1", "''=1+1"),
    ("''=1+1", "'''=1+1"),
    ("-draft by agent", "'-draft by agent"),
    ("'-draft by agent", "''-draft by agent"),
    ("'+44 asked", "''+44 asked"),
    ("'@home", "''@home"),
    ("'\tnote", "''\tnote"),
    ("-1", "-1"),  # a plain number is never guarded
    ("'-1", "''-1"),  # but text that reads as "-1" once guarded is
    # An apostrophe before anything else is the text's own, and stays as it is.
    ("'already apostrophe", "'already apostrophe"),
    ("''", "''"),
    ("' =1+1", "' =1+1"),
    ("rock 'n' roll", "rock 'n' roll"),
    # The import passes over spaces and invisible characters before the apostrophe: the
    # quote goes before the run.
    (" '=1+1", " ''=1+1"),
    ("\u200b'+inj", "\u200b''+inj"),
    ("'\u200b=x", "''\u200b=x"),
]


@pytest.mark.parametrize(("text", "written"), WRITTEN)
def test_the_export_quotes_a_run_of_apostrophes_before_a_formula_character(
    text: str, written: str
) -> None:
    assert csv_cell(text) == written
    assert cell_text(written) == visible_text(text)


@settings(max_examples=1000)
@given(TEXTS)
def test_every_text_reads_back_as_itself(text: str) -> None:
    # As any cell, the text is read without surrounding spaces and invisible characters.
    assert cell_text(csv_cell(text)) == visible_text(text)


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(TEXTS.filter(lambda t: "\x00" not in t), min_size=1, max_size=8))
@example(["'=1+1", "'-draft by agent", "'already apostrophe", "''=1+1", "=1+1", "'\r\nx"])
def test_a_csv_file_written_by_the_export_reads_back_as_the_texts(
    tmp_path_factory: pytest.TempPathFactory, texts: list[str]
) -> None:
    # The export's writer (its hot path, append_text, and the general one) and the import's
    # reader: every cell reads back as its text, CR, LF and quotes inside cells included.
    path = tmp_path_factory.mktemp("csv") / "export.csv"
    with SafeCsvWriter(path) as writer:
        writer.append_text(["phone", "text", "again"])
        for i, text in enumerate(texts):
            writer.append_text([f"20255501{i:02d}", text, "x"])
            writer.append([f"20255502{i:02d}", text, "x"])
    source = open_sheet(path)
    try:
        rows = list(source.iter_rows())
    finally:
        source.close()
    got = [cell_text(str(cells[1] or "")) for _, cells in rows[1:]]
    assert got == [visible_text(t) for t in texts for _ in range(2)]


# Printable texts the checker keeps as they are (no control characters to leave out, no
# spreadsheet error value): as reasons they read back exactly.
REASONS = st.text(
    st.sampled_from(["'", "=", "+", "-", "@", " ", "x", "1", "é", "\u200b"]), max_size=10
)


@settings(max_examples=100, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(REASONS, min_size=1, max_size=10))
@example(["'=1+1", "'-draft by agent", "'already apostrophe", "''=1+1", "=1+1", "'-1"])
def test_reasons_read_back_through_the_check(
    tmp_path_factory: pytest.TempPathFactory, reasons: list[str]
) -> None:
    path = tmp_path_factory.mktemp("csv") / "export.csv"
    with SafeCsvWriter(path) as writer:
        for i, reason in enumerate(reasons):
            writer.append_text([f"20255501{i:02d}", reason])
    source = open_sheet(path)
    try:
        rows: list[Row] = list(source.iter_rows())
    finally:
        source.close()
    mapping = ColumnMapping(phone=0, reason=1)
    options = CheckOptions(insertion_date=INSERTED)
    expected = [visible_text(r) for r in reasons]
    # The general check and the fast path alike.
    checked, _ = check_all(rows, mapping, options)
    assert [c.reason for c in checked] == expected
    assert [c.reason for c in check_rows(rows, mapping, options)] == expected


def test_a_campaign_whose_name_starts_with_a_guarded_run_is_found() -> None:
    # Exported, the name "'@Fall" is "''@Fall"; read once it is the name again. (Before, the
    # cell kept both apostrophes; read twice, it would lose both.)
    mapping = ColumnMapping(phone=0, scope=1, campaign=2)
    rows: list[Row] = [
        (1, ["2025550101", None, csv_cell("'@Fall")]),
        (2, ["2025550102", csv_cell("'@Fall"), None]),
        (3, ["2025550103", None, csv_cell("@Fall")]),
    ]
    lookup = {"'@Fall": "1001", "@Fall": "1002"}
    checked, _ = check_all(
        rows, mapping, CheckOptions(insertion_date=INSERTED, campaign_lookup=lookup)
    )
    assert [(c.outcome, str(c.scope)) for c in checked] == [
        (Outcome.VALID, "campaign:1001"),
        (Outcome.VALID, "campaign:1001"),
        (Outcome.VALID, "campaign:1002"),
    ]


# ---- the black-box test's round trip: export to CSV, import into an empty service ----------


@pytest.fixture
def first(make_sandbox: Callable[..., Any]) -> Any:
    return make_sandbox()


@pytest.fixture
def second(make_sandbox: Callable[..., Any]) -> Any:
    return make_sandbox()


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


def _reasons(sandbox: Any) -> list[tuple[str, str]]:
    return sorted((r["phone_number"], r["reason"]) for r in sandbox.store.all("SELECT * FROM dnc"))


def test_stored_reasons_with_apostrophes_survive_an_export_and_re_import(
    first: Any, second: Any, client: ApiClient, session: Session, tmp_path: Path
) -> None:
    stored = [text for text, _ in WRITTEN if text == visible_text(text)]
    for i, reason in enumerate(stored):
        done = client.insert_dnc(f"20255501{i:02d}", "1", Scope.global_(), reason=reason)
        assert done.status is WriteStatus.DONE
    exported = _reasons(first)
    assert sorted(r for _, r in exported) == sorted(stored)

    out = tmp_path / "export.csv"
    result = ExportJob(client, ListKind.DNC, DncQuery(), out, connection_name="First").run()
    assert (result.rows, result.unreachable) == (len(stored), 0)
    with out.open(encoding="utf-8-sig", newline="") as fh:
        cells = {cell for row in csv.reader(fh) for cell in row}
    assert {"''=1+1", "''-draft by agent", "'=1+1", "'already apostrophe"} <= cells

    store, summary = stage_import(
        JobSettings(out, Scope.global_()),
        tmp_path / "jobs",
        connection=session.connection,
        campaign_lookup=CampaignDirectory(session.api.campaigns()),
    )
    assert [r.message for r in store.rows() if r.outcome == "invalid"] == []
    assert summary.valid == len(stored)
    assert run_import(store, session) is JobStatus.FINISHED
    assert job_summary(store)["inserted"] == len(stored)
    assert _reasons(second) == exported


def test_stored_purposes_with_apostrophes_survive_an_export_and_re_import(
    first: Any, second: Any, client: ApiClient, session: Session, tmp_path: Path
) -> None:
    # The purpose cell is read once, as the reason cell is: read twice, "'''+y" (the export of
    # "''+y") read as "'+y" and the row was invalid, its scope column saying purpose:''+y.
    purposes = ["'=x", "=x", "''+y", "'-draft", "'plain"]
    for i, purpose in enumerate(purposes):
        scope = Scope.purpose(purpose)
        done = client.insert_dnc(f"20255501{i:02d}", "1", scope, reason="r", purpose=purpose)
        assert done.status is WriteStatus.DONE
    out = tmp_path / "export.csv"
    ExportJob(client, ListKind.DNC, DncQuery(), out, connection_name="First").run()
    store, _ = stage_import(
        JobSettings(out, Scope.global_()),
        tmp_path / "jobs",
        connection=session.connection,
        campaign_lookup=CampaignDirectory(session.api.campaigns()),
    )
    assert [r.message for r in store.rows() if r.outcome == "invalid"] == []
    assert run_import(store, session) is JobStatus.FINISHED

    def entries(sandbox: Any) -> list[tuple[str, str, int]]:
        rows = sandbox.store.all("SELECT * FROM dnc")
        return sorted((r["phone_number"], r["purpose"], r["campaign_id"]) for r in rows)

    assert entries(second) == entries(first)
