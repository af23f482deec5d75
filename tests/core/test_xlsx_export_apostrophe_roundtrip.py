"""The xlsx export gives one more apostrophe to text that already is a run of apostrophes before
a character that could start a formula, as the CSV export does, so it reads back as itself
(black-box B5 #1); the reports keep such text as it is.

The import takes one apostrophe off such a cell whatever the file, as it must for an export's
CSV re-saved by Excel or LibreOffice as xlsx, ods or xls. The xlsx export wrote such reasons as
they were, so ``'=already apostrophe``, ``'+44 wrote``, ``'-x`` and ``''=two apostrophes``
were imported into another service as ``=already apostrophe``, ``+44 wrote``, ``-x`` and
``'=two apostrophes``, the report saying inserted; LibreOffice's re-save of the xlsx as ods,
xls or CSV lost the same apostrophe. Text starting with a formula character is kept as before:
its exact text with the quotePrefix style.
"""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import openpyxl
import pytest

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
from app.core.sheet_reader import open_sheet
from app.core.sheet_scope import CampaignDirectory, cell_text, visible_text
from app.core.xlsx_safe import SafeWorkbook, needs_neutralising
from tests.conftest import TOKEN

# (text, the cell text an xlsx the app writes holds for it)
WRITTEN = [
    ("'=already apostrophe", "''=already apostrophe"),
    ("'+44 wrote", "''+44 wrote"),
    ("'-x", "''-x"),
    ("''=two apostrophes", "'''=two apostrophes"),
    ("'@home", "''@home"),
    ("'-1", "''-1"),
    (" '=1+1", " ''=1+1"),  # the import passes over the space: the quote goes before the run
    ("\u200b'+inj", "\u200b''+inj"),
    # Unchanged: an apostrophe before anything else is the text's own, and text starting
    # with a formula character keeps its exact text (with quotePrefix).
    ("'til 5pm", "'til 5pm"),
    ("' =1+1", "' =1+1"),
    ("=1+1", "=1+1"),
    ("-x", "-x"),
    ("-1", "-1"),
    ("plain", "plain"),
]
# Texts the service keeps as they are (no surrounding spaces or invisible characters).
STORED = [text for text, _ in WRITTEN if text == visible_text(text)]


def _cells(path: Path, sheet: str = "S") -> list[Any]:
    wb = openpyxl.load_workbook(path)
    try:
        return [row[1] for row in wb[sheet].iter_rows(min_row=1)]
    finally:
        wb.close()


def _read_back(path: Path) -> list[str]:
    """Column B of the file's first sheet as the import reads it (each cell read once)."""
    source = open_sheet(path)
    try:
        return [cell_text(str(cells[1] or "")) for _, cells in source.iter_rows()]
    finally:
        source.close()


@pytest.mark.parametrize("quote_prefix", [True, False])
@pytest.mark.parametrize("hot_path", [True, False])
def test_a_run_of_apostrophes_before_a_formula_character_gets_one_more(
    tmp_path: Path, quote_prefix: bool, hot_path: bool
) -> None:
    out = tmp_path / "t.xlsx"
    book = SafeWorkbook(quote_prefix=quote_prefix, quote_runs=True, beside=out)
    sheet = book.add_sheet("S", text_columns=(0,))
    for i, (text, _) in enumerate(WRITTEN):
        row = [f"20255501{i:02d}", text]
        if hot_path:
            sheet.append_text(row)
        else:
            sheet.append(row)
    book.save(out)
    assert sheet.quotes_added == 8

    cells = _cells(out)
    for (text, written), cell in zip(WRITTEN, cells, strict=True):
        guarded = needs_neutralising(text)
        # Without quotePrefix, text starting with a formula character gets a literal quote.
        expected = "'" + text if guarded and not quote_prefix else written
        assert (cell.value, cell.data_type) == (expected, "s"), text
        # Every cell guarded either way has quotePrefix in that mode.
        assert cell.quotePrefix == (quote_prefix and (guarded or written != text)), text
    assert _read_back(out) == [visible_text(text) for text, _ in WRITTEN]


def test_the_reports_keep_such_text_as_it_is(tmp_path: Path) -> None:
    # The reports' workbooks (job report, journal export, audit, evidence, diff) are made
    # without quote_runs: the job report's "Original value" is the file's cell exactly.
    out = tmp_path / "report.xlsx"
    book = SafeWorkbook(quote_prefix=True, beside=out)
    sheet = book.add_sheet("S")
    sheet.append(["2025550101", "'+44 7700 900124", 3])
    sheet.append_text(["2025550102", "'=x"])
    sheet.append_text(["2025550103", "=x"])
    book.save(out)
    assert sheet.quotes_added == 0
    cells = _cells(out)
    assert [c.value for c in cells] == ["'+44 7700 900124", "'=x", "=x"]
    assert [bool(c.quotePrefix) for c in cells] == [False, False, True]


# ---- the black-box test's round trip: export to xlsx, import into an empty service ----------


@pytest.fixture
def first(make_sandbox: Callable[..., Any]) -> Any:
    return make_sandbox()


@pytest.fixture
def client(first: Any) -> Iterator[ApiClient]:
    with ApiClient(first.base_url, TOKEN) as api:
        yield api


PURPOSES = ["'=x", "=x", "''+y", "'-draft", "'plain"]


def _seed(client: ApiClient, *, reasons: bool = True, purposes: bool = True) -> int:
    """Entries with such reasons and purposes on the list; returns how many."""
    for i, reason in enumerate(STORED if reasons else []):
        done = client.insert_dnc(f"20255501{i:02d}", "1", Scope.global_(), reason=reason)
        assert done.status is WriteStatus.DONE
    for i, purpose in enumerate(PURPOSES if purposes else []):
        scope = Scope.purpose(purpose)
        done = client.insert_dnc(f"20255502{i:02d}", "1", scope, reason="r", purpose=purpose)
        assert done.status is WriteStatus.DONE
    return len(STORED) * reasons + len(PURPOSES) * purposes


def _entries(sandbox: Any) -> list[tuple[str, str, str, int]]:
    rows = sandbox.store.all("SELECT * FROM dnc")
    return sorted((r["phone_number"], r["reason"], r["purpose"], r["campaign_id"]) for r in rows)


def _import(path: Path, rows: int, make_sandbox: Callable[..., Any], tmp_path: Path) -> Any:
    """``path`` imported into a new empty sandbox (its scope column read per row)."""
    second = make_sandbox()
    journal = ChangeJournal(tmp_path / f"journal-{path.suffix[1:]}.sqlite3")
    session = Session(
        Connection("Second", second.base_url), ApiClient(second.base_url, TOKEN), journal
    )
    try:
        store, summary = stage_import(
            JobSettings(path, Scope.global_()),
            tmp_path / f"jobs-{path.suffix[1:]}",
            connection=session.connection,
            campaign_lookup=CampaignDirectory(session.api.campaigns()),
        )
        assert [r.message for r in store.rows() if r.outcome == "invalid"] == []
        assert summary.valid == rows
        assert run_import(store, session) is JobStatus.FINISHED
        assert job_summary(store)["inserted"] == rows
    finally:
        session.close()
        journal.close()
    return second


def _about(path: Path) -> dict[str, object]:
    wb = openpyxl.load_workbook(path, read_only=True)
    try:
        return {str(k): v for k, v, *_ in wb["About"].iter_rows(values_only=True)}
    finally:
        wb.close()


def test_reasons_survive_an_xlsx_export_and_re_import(
    first: Any, client: ApiClient, make_sandbox: Callable[..., Any], tmp_path: Path
) -> None:
    # The black-box test's finding: before, every row was inserted, the reasons changed.
    rows = _seed(client, purposes=False)
    exported = _entries(first)
    out = tmp_path / "export.xlsx"
    result = ExportJob(client, ListKind.DNC, DncQuery(), out, connection_name="First").run()
    assert (result.rows, result.unreachable) == (rows, 0)

    second = _import(out, rows, make_sandbox, tmp_path)
    assert _entries(second) == exported
    assert _about(out).get("Apostrophes added") == (
        "6 values start with apostrophes before =, +, -, @, a tab or a line break, and each "
        "such cell has one apostrophe more than the service's value, as in a CSV export: DNC "
        "Desk's import takes one off again, so this file imports as the service has it, "
        "re-saved as ods, xls or CSV too."
    )


def test_purposes_survive_an_xlsx_export_and_re_import(
    first: Any, client: ApiClient, make_sandbox: Callable[..., Any], tmp_path: Path
) -> None:
    # Before, a row's purpose cell ('=x read as =x) no longer matched its scope cell
    # (purpose:'=x, not guarded: it starts with a letter), and the row was invalid.
    rows = _seed(client, reasons=False)
    exported = _entries(first)
    out = tmp_path / "export.xlsx"
    ExportJob(client, ListKind.DNC, DncQuery(), out, connection_name="First").run()
    second = _import(out, rows, make_sandbox, tmp_path)
    assert _entries(second) == exported
    assert str(_about(out).get("Apostrophes added")).startswith("3 values start")


def test_an_export_without_such_values_says_nothing_of_them(
    client: ApiClient, tmp_path: Path
) -> None:
    client.insert_dnc("2025550101", "1", Scope.global_(), reason="'til 5pm")
    client.insert_dnc("2025550102", "1", Scope.global_(), reason="=1+1")
    out = tmp_path / "export.xlsx"
    ExportJob(client, ListKind.DNC, DncQuery(), out, connection_name="First").run()
    assert "Apostrophes added" not in _about(out)


@pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice (soffice) not installed")
@pytest.mark.parametrize(
    "target", ["ods", "xls", "csv:Text - txt - csv (StarCalc):44,34,76,1", "xlsx"]
)
def test_a_libreoffice_re_save_of_the_export_imports_the_same_entries(
    first: Any,
    client: ApiClient,
    make_sandbox: Callable[..., Any],
    tmp_path: Path,
    target: str,
) -> None:
    rows = _seed(client)
    exported = _entries(first)
    out = tmp_path / "export.xlsx"
    ExportJob(client, ListKind.DNC, DncQuery(), out, connection_name="First").run()
    subprocess.run(
        [
            "soffice",
            "--headless",
            "--norestore",
            f"-env:UserInstallation=file://{tmp_path / 'profile'}",
            "--convert-to",
            target,
            "--outdir",
            str(tmp_path / "lo"),
            str(out),
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )
    resaved = tmp_path / "lo" / f"export.{target.split(':')[0]}"
    second = _import(resaved, rows, make_sandbox, tmp_path)
    assert _entries(second) == exported
