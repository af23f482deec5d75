"""Table models for the audit, launch-gate, health, evidence and snapshot views.

Every table in those views shows a list of plain core objects (an audit ``Conflict``, a
``Campaign`` with its last ``AuditRecord``, a ``SnapshotEntry``…), read-only. One thin adapter,
:class:`ObjectTableModel`, serves them all: a tuple of :class:`Column` (header plus a function
of the object) decides what each column shows; the object itself is available under
:data:`RAW_ROLE` and a sortable key under :data:`SORT_ROLE`. Business rules stay in core: a
column function only picks or formats a field.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from PySide6.QtCore import (
    QAbstractTableModel,
    QModelIndex,
    QObject,
    QPersistentModelIndex,
    QSortFilterProxyModel,
    Qt,
)

from app.api.models import Campaign
from app.core.audit_records import AuditRecord
from app.core.audit_report import scope_text
from app.core.audit_types import INSERT_DATE_HEADER, Conflict, LeadNumber, ScopeSource
from app.core.snapshots import SnapshotEntry
from app.ui.plain_text import literal

RAW_ROLE = Qt.ItemDataRole.UserRole + 1
SORT_ROLE = Qt.ItemDataRole.UserRole + 2

T = TypeVar("T")
Index = QModelIndex | QPersistentModelIndex


@dataclass(frozen=True)
class Column(Generic[T]):
    """One column: its header, the displayed value of a row object, and optionally a sort
    key (numbers sort as numbers, not as text) and a tooltip."""

    header: str
    value: Callable[[T], object]
    sort: Callable[[T], object] | None = None
    tip: Callable[[T], str] | None = None


class ObjectTableModel(QAbstractTableModel, Generic[T]):
    """A read-only table over a list of core objects, one row per object."""

    def __init__(self, columns: Sequence[Column[T]], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.columns = tuple(columns)
        self._rows: list[T] = []

    # ------------------------------------------------------------------ content
    def set_rows(self, rows: Sequence[T], columns: Sequence[Column[T]] | None = None) -> None:
        """Show ``rows`` (and, when given, these columns instead of the current ones)."""
        self.beginResetModel()
        self._rows = list(rows)
        if columns is not None:
            self.columns = tuple(columns)
        self.endResetModel()

    def rows(self) -> list[T]:
        return list(self._rows)

    def row_object(self, row: int) -> T:
        return self._rows[row]

    # ------------------------------------------------------------------ Qt model
    def rowCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self._rows)

    def columnCount(self, parent: Index = QModelIndex()) -> int:  # noqa: B008
        return 0 if parent.isValid() else len(self.columns)

    def headerData(
        self, section: int, orientation: Qt.Orientation, role: int = Qt.ItemDataRole.DisplayRole
    ) -> Any:
        if role != Qt.ItemDataRole.DisplayRole:
            return None
        if orientation == Qt.Orientation.Horizontal and 0 <= section < len(self.columns):
            return self.columns[section].header
        if orientation == Qt.Orientation.Vertical:
            return str(section + 1)
        return None

    def flags(self, index: Index) -> Qt.ItemFlag:
        if not index.isValid():
            return Qt.ItemFlag.NoItemFlags
        return Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable

    def data(self, index: Index, role: int = Qt.ItemDataRole.DisplayRole) -> Any:
        if not index.isValid() or not (0 <= index.row() < len(self._rows)):
            return None
        if not (0 <= index.column() < len(self.columns)):
            return None
        obj = self._rows[index.row()]
        column = self.columns[index.column()]
        if role == RAW_ROLE:
            return obj
        if role in (Qt.ItemDataRole.DisplayRole, Qt.ItemDataRole.EditRole):
            return _text(column.value(obj))
        if role == SORT_ROLE:
            key = column.sort(obj) if column.sort is not None else column.value(obj)
            return key if isinstance(key, int | float) else _text(key)
        if role == Qt.ItemDataRole.ToolTipRole and column.tip is not None:
            return literal(column.tip(obj))  # a tooltip guesses rich text
        return None


def _text(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int):
        return f"{value:,}"
    return "" if value is None else str(value)


def sort_proxy(model: QAbstractTableModel, parent: QObject | None = None) -> QSortFilterProxyModel:
    """A proxy that sorts on :data:`SORT_ROLE`, for views that let the user sort."""
    proxy = QSortFilterProxyModel(parent)
    proxy.setSortRole(SORT_ROLE)
    proxy.setSourceModel(model)
    return proxy


def _id_key(value: str) -> object:
    # Ids are digits on this service: "10" after "9", not before it.
    return int(value) if value.isdigit() else value


# ------------------------------------------------------------------------ campaigns
@dataclass(frozen=True, slots=True)
class CampaignRow:
    """A campaign and its last local audit (None: never audited here)."""

    campaign: Campaign
    last_audit: AuditRecord | None


def last_audit_text(record: AuditRecord | None) -> str:
    if record is None:
        return "never audited"
    # The record's summary starts with "clean" itself when it was.
    return record.summary if record.clean else f"NOT clean: {record.summary}"


CAMPAIGN_COLUMNS: tuple[Column[CampaignRow], ...] = (
    Column("Campaign", lambda r: r.campaign.name),
    Column("Id", lambda r: r.campaign.id, lambda r: _id_key(r.campaign.id)),
    Column("State", lambda r: "active" if r.campaign.active else "inactive"),
    Column(
        "Last audited (UTC)",
        lambda r: r.last_audit.finished_at.replace("T", " ").rstrip("Z") if r.last_audit else "",
    ),
    Column(
        "Last audit result",
        lambda r: last_audit_text(r.last_audit),
        tip=lambda r: (
            f"Report: {r.last_audit.report_path}\nSHA-256: {r.last_audit.report_sha256}"
            if r.last_audit and r.last_audit.report_path
            else ""
        ),
    ),
)
COL_CAMPAIGN_NAME, COL_CAMPAIGN_ID, COL_CAMPAIGN_STATE, COL_AUDITED_AT, COL_AUDIT_RESULT = range(
    len(CAMPAIGN_COLUMNS)
)


# ------------------------------------------------------------------------ audit result
CONFLICT_COLUMNS: tuple[Column[Conflict], ...] = (
    Column("Lead id", lambda c: c.number.lead.id, lambda c: _id_key(c.number.lead.id)),
    Column("List", lambda c: c.list_name or c.number.lead.list_id),
    Column("Name", lambda c: c.number.lead.name),
    Column("Phone field", lambda c: c.number.field),
    Column("Number", lambda c: c.number.raw, tip=lambda c: c.number.e164),
    Column("On list", lambda c: c.entry.kind.value),
    Column("Scope", lambda c: c.scope_label),
    Column("Entry id", lambda c: c.entry.id, lambda c: _id_key(c.entry.id)),
    Column("Reason", lambda c: c.entry.reason),
    Column(INSERT_DATE_HEADER, lambda c: c.entry.insert_date),
)
(
    COL_LEAD_ID,
    COL_LIST,
    COL_NAME,
    COL_FIELD,
    COL_NUMBER,
    COL_ON_LIST,
    COL_SCOPE,
    COL_ENTRY_ID,
    COL_REASON,
    COL_INSERT_DATE,
) = range(len(CONFLICT_COLUMNS))

UNPARSEABLE_COLUMNS: tuple[Column[LeadNumber], ...] = (
    Column("Lead id", lambda n: n.lead.id, lambda n: _id_key(n.lead.id)),
    Column("List id", lambda n: n.lead.list_id),
    Column("Name", lambda n: n.lead.name),
    Column("Phone field", lambda n: n.field),
    Column("Number", lambda n: n.raw),
    Column("Phone code", lambda n: n.phone_code),
    Column("Why it cannot be checked", lambda n: n.reason),
)

SOURCE_COLUMNS: tuple[Column[ScopeSource], ...] = (
    Column("List", lambda s: s.kind.value),
    Column("Scope", lambda s: scope_text(s.scope)),
    Column("Strategy", lambda s: s.strategy.value),
    Column("Entries", lambda s: s.total),
    Column("Used", lambda s: s.fetched),
    Column("Requests", lambda s: s.requests),
    Column("Why", lambda s: s.why),
)


# ------------------------------------------------------------------------ snapshot entries
def entry_columns(why: Callable[[SnapshotEntry], str] | None = None) -> list[Column[SnapshotEntry]]:
    """Columns for list entries as snapshots and health findings keep them; ``why`` adds a
    last column explaining the row (a finding's detail)."""
    columns: list[Column[SnapshotEntry]] = [
        Column("Id", lambda e: e.id, lambda e: _id_key(e.id)),
        Column("Number", lambda e: e.phone_number),
        Column("Code", lambda e: e.phone_code),
        Column("Scope", lambda e: e.scope.label(e.campaign_name)),
        Column("Purpose", lambda e: e.purpose),
        Column("Reason", lambda e: e.reason),
        Column(INSERT_DATE_HEADER, lambda e: e.insert_date),
    ]
    if why is not None:
        columns.append(Column("Why", why))
    return columns
