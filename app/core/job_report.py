"""The xlsx report of an import or removal job: a Summary sheet and a Rows sheet.

Written from the job file alone, so a resumed job (or the GUI's job list) can rewrite it at any
time. Phone numbers are text cells and every cell passes :mod:`app.core.xlsx_safe`.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import Any

from app.core.job_store import JobStore, Outcome
from app.core.sheet_dates import LIMIT_BUSINESS_DAYS, business_days_between
from app.core.xlsx_safe import SafeWorkbook

ROW_COLUMNS = (
    "Source row",
    "Original value",
    "Normalized number",
    "Country code",
    "Scope",
    "Outcome",
    "Message",
    "Damage note",
    "Request date",
    "Business days to insertion",
    "Late",
)
SHEET_ROW_LIMIT = 1_048_575  # data rows under the header
_WIDTHS = (10, 22, 16, 10, 24, 18, 60, 50, 12, 12, 8)
# Rows whose number is on (or, for removals, off) the list: the request has been honoured.
_HONOURED = {Outcome.INSERTED.value, Outcome.ALREADY_PRESENT.value, Outcome.REMOVED.value}


def _date(text: str) -> dt.date | None:
    try:
        return dt.date.fromisoformat(text[:10]) if text else None
    except ValueError:
        return None


def lateness(request_date: str, done_at: str, outcome: str) -> tuple[int | None, bool]:
    """Business days from the consumer's request to insertion, and whether past the limit.

    A row not honoured yet is measured against today, so an unsent late row still shows late.
    """
    received = _date(request_date)
    if received is None:
        return None, False
    inserted = _date(done_at) if outcome in _HONOURED else None
    days = business_days_between(received, inserted or dt.date.today())
    return days, days > LIMIT_BUSINESS_DAYS


def late_count(store: JobStore) -> int:
    if store.meta().get("kind") == "removal":
        return 0
    return sum(1 for r in store.rows() if lateness(r.request_date, r.done_at, r.outcome)[1])


def summary_rows(meta: dict[str, Any], counts: dict[str, int], late: int) -> list[list[object]]:
    """The Summary sheet as (label, value) rows; also used for the CLI's human output."""
    mapping = meta.get("mapping") or {}
    rows: list[list[object]] = [
        ["Job", meta.get("job_id", "")],
        ["Kind", meta.get("kind", "")],
        ["Name", meta.get("name", "")],
        ["Note", meta.get("note", "")],
        ["File", meta.get("file", "")],
        ["Sheet", meta.get("sheet", "")],
        ["Header row", meta.get("header_row") or "none"],
        ["Mapping", "; ".join(f"{k}: {v}" for k, v in mapping.items())],
        ["Target", meta.get("target", "")],
        ["Scope", meta.get("scope", "")],
    ]
    if meta.get("lead_status"):
        rows.append(["Lead status set on removal", meta["lead_status"]])
    rows += [
        ["Connection", meta.get("connection", "")],
        ["Service", meta.get("base_url", "")],
        ["Status", meta.get("status", "")],
        ["Started (UTC)", meta.get("started", "")],
        ["Finished (UTC)", meta.get("finished", "")],
        ["Rows", sum(counts.values())],
    ]
    for outcome in Outcome:
        if counts.get(outcome.value) or outcome.value in _always(meta):
            rows.append([outcome.value, counts.get(outcome.value, 0)])
    if counts.get("pending"):
        label = "valid (dry run: not sent)" if meta.get("status") == "dry_run" else "pending"
        rows.append([label, counts["pending"]])
    if meta.get("kind") != "removal":
        # The limit is on honouring a request (an insertion); a removal has none to meet.
        rows.append([f"Requests later than {LIMIT_BUSINESS_DAYS} business days", late])
    # What the file holds that the job does not take as expected (hidden rows, other sheets
    # or columns of numbers), and campaign ids left unchecked: the evidence must say so too.
    notes = [meta["campaign_check"]] if meta.get("campaign_check") else []
    notes += list(meta.get("warnings") or [])
    many = len(notes) > 1
    rows += [[f"Warning {n}" if many else "Warning", str(note)] for n, note in enumerate(notes, 1)]
    # An empty cell would read as a missing value; say so instead.
    return [[label, "(none)" if value in ("", None) else value] for label, value in rows]


def _always(meta: dict[str, Any]) -> set[str]:
    common = {"invalid", "duplicate_in_file", "blank", "failed", "not_attempted"}
    if meta.get("kind") == "removal":
        return common | {"removed", "not_found"}
    return common | {"inserted", "already_present"}


def write_report(store: JobStore, path: Path) -> Path:
    """Write (or rewrite) the report of the job in ``store`` to ``path``."""
    meta = store.meta()
    counts = store.counts()
    removal = meta.get("kind") == "removal"
    # A removal honours no request, so it has no business days to insertion and nothing late.
    columns = ROW_COLUMNS[:-2] if removal else ROW_COLUMNS
    widths = _WIDTHS[: len(columns)]
    book = SafeWorkbook(quote_prefix=True)
    summary = book.add_sheet("Summary", (36, 90))
    rows = book.add_sheet("Rows", widths)
    rows.append(columns)
    # A dry run's rows to send are valid, not waiting: nothing will send them.
    unsent = "valid (dry run)" if meta.get("status") == "dry_run" else "pending"
    late = 0
    in_sheet = 0
    for r in store.rows():
        if in_sheet == SHEET_ROW_LIMIT:
            # Excel shows at most 1,048,576 rows a sheet; a bigger job goes on "Rows 2"…
            in_sheet = 0
            rows = book.add_sheet(f"Rows {book.sheet_count}", widths)
            rows.append(columns)
        in_sheet += 1
        cells: list[object] = [
            r.row_number,
            r.original,
            r.national,
            r.phone_code,
            r.scope,
            r.outcome or unsent,
            r.message,
            r.damage,
            r.request_date,
        ]
        if not removal:
            days, is_late = lateness(r.request_date, r.done_at, r.outcome)
            late += is_late
            cells += [days, "late" if is_late else ""]
        rows.append(cells)
    for row in summary_rows(meta, counts, late):
        summary.append(row)
    book.save(path)
    store.set_meta({"late_requests": late})
    return path
