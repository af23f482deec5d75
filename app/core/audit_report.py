"""The campaign audit as an xlsx report (Summary, Conflicts, Unparseable) and as JSON data.

The Summary sheet is what a compliance officer files: connection, campaign, when, how each
list scope was consulted, and the totals of every lead list read. The token never appears:
the report only knows the connection's name and base URL.

Every text cell keeps its exact text: a number such as ``+12025550101`` or a reason such as
``-called twice`` is a text cell with Excel's quotePrefix style (see :mod:`app.core.xlsx_safe`),
not a formula and not text with an added ``'``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.api.scope import Scope
from app.core.audit_records import AuditRecords, sha256_of
from app.core.audit_types import INSERT_DATE_HEADER, AuditResult, Conflict, LeadNumber
from app.core.xlsx_safe import SafeWorkbook

# --json's keys of a conflict row: they stay as scripts read them, while the sheet's header of
# the insert date says whose clock it is (INSERT_DATE_HEADER), as diff's --json keeps insert_date.
CONFLICT_KEYS = (
    "Lead id",
    "List id",
    "List",
    "Name",
    "Lead status",
    "Phone field",
    "Number",
    "Normalized",
    "On list",
    "Scope",
    "Purpose",
    "Entry id",
    "Reason",
    "Insert date",
)
CONFLICT_HEADERS = tuple(INSERT_DATE_HEADER if k == "Insert date" else k for k in CONFLICT_KEYS)
UNPARSEABLE_HEADERS = ("Lead id", "List id", "Name", "Phone field", "Number", "Phone code", "Why")


def scope_text(scope: Scope) -> str:
    """``purpose (any)`` for the all-purposes scope the audit reads, else the scope's text."""
    if scope.is_purpose and not scope.purpose_text:
        return "purpose (any)"
    return str(scope)


def conflict_row(conflict: Conflict) -> list[object]:
    n, e = conflict.number, conflict.entry
    return [
        n.lead.id,
        n.lead.list_id,
        conflict.list_name,
        n.lead.name,
        n.lead.status,
        n.field,
        n.raw,
        n.e164,
        e.kind.value,
        str(e.scope),
        e.purpose if e.scope.is_purpose else "",
        e.id,
        e.reason,
        e.insert_date,
    ]


def unparseable_row(number: LeadNumber) -> list[object]:
    return [
        number.lead.id,
        number.lead.list_id,
        number.lead.name,
        number.field,
        number.raw,
        number.phone_code,
        number.reason,
    ]


def write_report(result: AuditResult, path: Path) -> str:
    """Write the report and return the SHA-256 of the file written."""
    wb = SafeWorkbook(quote_prefix=True, beside=path)
    summary = wb.add_sheet("Summary", (34, 28, 16, 12, 12, 12, 60))
    summary.append(["Campaign audit"])
    for label, value in (
        ("Connection", result.connection),
        ("Base URL", result.base_url),
        ("Campaign", f"{result.campaign_name} (id {result.campaign_id})"),
        ("Started (UTC)", result.started_at),
        ("Finished (UTC)", result.finished_at),
        ("Result", "clean" if result.clean else "NOT clean"),
        ("Lists", len(result.lists)),
        ("Leads", result.leads),
        ("Numbers checked", result.numbers),
        ("Unparseable numbers", len(result.unparseable)),
        ("Conflicts", len(result.conflicts)),
        ("Leads in conflict", len(result.conflicting_leads)),
        # Counted by the service, never given: the numbers could not be checked against them.
        ("Opt-out entries not read", result.unread),
        # Looked up, but the service failed the search in every round (bb7 #1).
        ("Numbers not checked", result.not_checked),
    ):
        summary.append([label, value])
    summary.append([])
    summary.append(["Conflicts by scope", "Count"])
    for key, count in sorted(result.conflicts_by_scope().items()):
        summary.append([key, count])
    summary.append([])
    summary.append(["List consulted", "Scope", "Strategy", "Entries", "Used", "Requests", "Why"])
    for src in result.sources:
        summary.append(
            [
                src.kind.value,
                scope_text(src.scope),
                src.strategy.value,
                src.total,
                src.fetched,
                src.requests,
                src.why,
            ]
        )
    summary.append([])
    summary.append(["Lead list", "Name", "Active", "Leads", "Numbers", "Unparseable", "Conflicts"])
    for totals in result.lists:
        summary.append(
            [
                totals.lead_list.id,
                totals.lead_list.name,
                "Y" if totals.lead_list.active else "N",
                totals.leads,
                totals.numbers,
                totals.unparseable,
                totals.conflicts,
            ]
        )
    conflicts = wb.add_sheet(
        "Conflicts",
        (10, 8, 24, 22, 10, 12, 18, 16, 12, 20, 18, 10, 24, 20),
        text_columns=(CONFLICT_HEADERS.index("Number"), CONFLICT_HEADERS.index("Normalized")),
    )
    conflicts.append(CONFLICT_HEADERS)
    for conflict in result.conflicts:
        conflicts.append(conflict_row(conflict))
    unparseable = wb.add_sheet(
        "Unparseable",
        (10, 8, 22, 12, 18, 10, 60),
        text_columns=(UNPARSEABLE_HEADERS.index("Number"),),
    )
    unparseable.append(UNPARSEABLE_HEADERS)
    for number in result.unparseable:
        unparseable.append(unparseable_row(number))
    wb.save(path)
    return sha256_of(path)


def result_json(result: AuditResult, report: Path | None, sha256: str = "") -> dict[str, Any]:
    """The audit as JSON-ready data (the CLI's ``--json``)."""
    return {
        "connection": result.connection,
        "campaign": {"id": result.campaign_id, "name": result.campaign_name},
        "started_at": result.started_at,
        "finished_at": result.finished_at,
        "clean": result.clean,
        "lists": len(result.lists),
        "leads": result.leads,
        "numbers": result.numbers,
        "conflicts": len(result.conflicts),
        "unparseable": len(result.unparseable),
        "leads_in_conflict": len(result.conflicting_leads),
        "entries_not_read": result.unread,
        # Counted here, not only inside strategies[].why: a script deciding on exit 3 needs
        # the number it stands for (black-box s32 fx12).
        "numbers_not_checked": result.not_checked,
        "conflicts_by_scope": result.conflicts_by_scope(),
        "conflicts_by_list": result.conflicts_by_list(),
        "strategies": [
            {
                "list": s.kind.value,
                "scope": scope_text(s.scope),
                "strategy": s.strategy.value,
                "entries": s.total,
                "used": s.fetched,
                "requests": s.requests,
                "not_read": s.unread,
                "why": s.why,
            }
            for s in result.sources
        ],
        "conflict_rows": [
            dict(zip(CONFLICT_KEYS, conflict_row(c), strict=True)) for c in result.conflicts
        ],
        "unparseable_rows": [
            dict(zip(UNPARSEABLE_HEADERS, unparseable_row(n), strict=True))
            for n in result.unparseable
        ],
        "report": str(report) if report is not None else None,
        "report_sha256": sha256,
    }


def default_report_path(result: AuditResult, reports_dir: Path) -> Path:
    stamp = result.finished_at.replace("-", "").replace(":", "")
    return reports_dir / f"audit-campaign-{result.campaign_id}-{stamp}.xlsx"


def save_outcome(
    result: AuditResult, records: AuditRecords, reports_dir: Path, out: Path | None = None
) -> tuple[Path, str]:
    """Write the report (to ``out`` or the reports folder) and record the outcome with the
    report's hash; returns the report's absolute path and hash. Used by the CLI and the GUI."""
    path = (out or default_report_path(result, reports_dir)).resolve()
    sha = write_report(result, path)
    records.add(result, path, sha)
    return path, sha
