"""Add or edit one DNC entry or SMS opt-out.

Input is checked as it is typed (:mod:`app.core.entry_validation`), with the reason beside the
field and OK disabled while anything is wrong. Saving runs off the GUI thread through the
journaled :class:`Session`; what the service refuses (validation or conflict codes) is shown
beside the field the error names.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QLabel,
    QLineEdit,
    QVBoxLayout,
    QWidget,
)
from shiboken6 import Shiboken

from app.api.errors import ApiError, AuthInvalidError, AuthMissingError
from app.api.models import Campaign, DncEntry, SmsOptOut, WriteResult
from app.api.scope import Scope, ScopeKind
from app.core.entry_settle import (
    NOT_KNOWN,
    LostAnswerNotSaved,
    NotAsAsked,
    look_up_lost_add,
    look_up_lost_edit,
    lost_answer_conflict,
    saved_or_raise,
    settle_unanswered_add,
    settle_unanswered_edit,
    settled_result,
    unanswered,
)
from app.core.entry_validation import (
    EntryDraft,
    EntryKind,
    ValidEntry,
    changes,
    draft_of,
    validate,
)
from app.core.session import Session
from app.ui.error_messages import FIELD_LABELS, user_message
from app.ui.filter_bar import ERROR_STYLE, code_choices
from app.ui.plain_text import plain_label
from app.ui.tasks import TaskContext, TaskRunner

Entry = DncEntry | SmsOptOut
FIELDS = ("phone_number", "phone_code", "campaign_id", "purpose", "reason")
_GLOBAL, _PURPOSE = "global", "purpose"


def field_error_text(exc: BaseException) -> str:
    """What to show beside the field an API error names, e.g.
    "Phone number: phone already in DNC (code 6008) — the service said: …"."""
    field = getattr(exc, "field", "")
    label = FIELD_LABELS.get(field, "")
    message = user_message(exc, label or "Not saved")
    if label and message.text.startswith(f"{label}: {label}: "):
        # Validation messages already name the field.
        return message.text[len(label) + 2 :]
    return message.text


class EntryDialog(QDialog):
    """The add/edit dialog for one entry of either list.

    Signals:
        saved(object): the :class:`WriteResult` of a successful save (the dialog then closes).
        auth_problem(object, object): (exception, retry) when the service rejected the token;
            calling ``retry()`` saves again, on the session given to :meth:`set_session` by
            then (a replaced token), once, and not at all if the dialog was closed meanwhile.
        saving_changed(bool): a save started (True) or ended (False).
    """

    saved = Signal(object)
    auth_problem = Signal(object, object)
    saving_changed = Signal(bool)

    def __init__(
        self,
        kind: EntryKind,
        session: Session,
        runner: TaskRunner,
        campaigns: Sequence[Campaign],
        entry: Entry | None = None,
        parent: QWidget | None = None,
    ) -> None:
        super().__init__(parent)
        self.kind = kind
        self.session = session
        self.runner = runner
        self.entry = entry
        self.saving = False
        # Bumped by every save: a retry handed out for an earlier one is stale.
        self._attempt = 0
        self._server_errors: dict[str, str] = {}
        noun = "DNC entry" if kind is EntryKind.DNC else "SMS opt-out"
        self.setWindowTitle(f"Edit {noun} {entry.id}" if entry else f"Add {noun}")

        self.phone_edit = QLineEdit(self)
        self.phone_edit.setPlaceholderText("e.g. (202) 555-0143 or +44 20 7946 0958")
        self.code_combo = QComboBox(self)
        self.code_combo.setEditable(True)
        for label, code in code_choices():
            self.code_combo.addItem(label, code)
        self.scope_combo = QComboBox(self)
        self.scope_combo.addItem("Global (every campaign)", _GLOBAL)
        self.scope_combo.addItem("Purpose", _PURPOSE)
        for campaign in sorted(campaigns, key=lambda c: (not c.active, c.name.casefold())):
            self.scope_combo.addItem(f"Campaign: {campaign.display_name}", campaign.id)
        self.purpose_edit = QLineEdit(self)
        self.reason_edit = QLineEdit(self)
        self.reason_edit.setPlaceholderText(
            "e.g. Customer request" + (" (blank clears it)" if entry else "")
        )
        self.errors: dict[str, QLabel] = {}
        self.general_error = plain_label(QLabel(self))
        self.general_error.setWordWrap(True)
        self.general_error.setStyleSheet(ERROR_STYLE)
        self.general_error.hide()
        self.purpose_hint = QLabel(self)
        self.purpose_hint.setWordWrap(True)

        form = QFormLayout()
        for name, widget, text in (
            ("phone_number", self.phone_edit, "&Phone number"),
            ("phone_code", self.code_combo, "&Country code"),
            ("campaign_id", self.scope_combo, "&Scope"),
            ("purpose", self.purpose_edit, "P&urpose"),
            ("reason", self.reason_edit, "&Reason"),
        ):
            form.addRow(text, widget)
            error = plain_label(QLabel(self))
            error.setObjectName(f"error_{name}")
            error.setWordWrap(True)
            error.setStyleSheet(ERROR_STYLE)
            error.hide()
            form.addRow("", error)
            self.errors[name] = error
        form.addRow("", self.purpose_hint)

        self.buttons = QDialogButtonBox(
            QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, self
        )
        self.ok_button = self.buttons.button(QDialogButtonBox.StandardButton.Ok)
        self.ok_button.setText("Save" if entry else "Add")
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(self.general_error)
        layout.addWidget(self.buttons)

        if entry is not None:
            self._load(entry)
        else:
            self.code_combo.setCurrentIndex(0)
        for signal, field in (
            (self.phone_edit.textChanged, "phone_number"),
            (self.code_combo.currentTextChanged, "phone_code"),
            (self.scope_combo.currentIndexChanged, "campaign_id"),
            (self.purpose_edit.textChanged, "purpose"),
            (self.reason_edit.textChanged, "reason"),
        ):
            signal.connect(self._edited(field))
        self._revalidate()

    # ------------------------------------------------------------------ values
    def _load(self, entry: Entry) -> None:
        draft = draft_of(entry)
        self.phone_edit.setText(draft.phone)
        index = self.code_combo.findData(draft.phone_code)
        if index >= 0:
            self.code_combo.setCurrentIndex(index)
        else:
            self.code_combo.setEditText(draft.phone_code)
        if draft.scope_kind is ScopeKind.GLOBAL:
            self.scope_combo.setCurrentIndex(0)
        elif draft.scope_kind is ScopeKind.PURPOSE:
            self.scope_combo.setCurrentIndex(1)
        else:
            index = self.scope_combo.findData(draft.campaign_id)
            if index < 0:
                self.scope_combo.addItem(
                    f"Campaign: {entry.campaign_name or draft.campaign_id}", draft.campaign_id
                )
                index = self.scope_combo.count() - 1
            self.scope_combo.setCurrentIndex(index)
        self.purpose_edit.setText(draft.purpose)
        self.reason_edit.setText(draft.reason)

    def _code_text(self) -> str:
        index = self.code_combo.currentIndex()
        text = self.code_combo.currentText()
        if index >= 0 and text == self.code_combo.itemText(index):
            return str(self.code_combo.itemData(index))
        return text

    def draft(self) -> EntryDraft:
        scope = self.scope_combo.currentData()
        if scope == _GLOBAL:
            kind, campaign = ScopeKind.GLOBAL, ""
        elif scope == _PURPOSE:
            kind, campaign = ScopeKind.PURPOSE, ""
        else:
            kind, campaign = ScopeKind.CAMPAIGN, str(scope)
        return EntryDraft(
            phone=self.phone_edit.text(),
            phone_code=self._code_text(),
            scope_kind=kind,
            campaign_id=campaign,
            purpose=self.purpose_edit.text(),
            reason=self.reason_edit.text(),
        )

    def _edited(self, field: str) -> Callable[..., None]:
        def slot(*_: Any) -> None:
            self._server_errors.pop(field, None)
            if field in ("phone_number", "phone_code"):
                # A conflict on the number is about the number and code together.
                self._server_errors.pop("phone_number", None)
                self._server_errors.pop("phone_code", None)
            self.general_error.hide()
            self._revalidate()

        return slot

    def _revalidate(self) -> ValidEntry | None:
        result = validate(self.kind, self.draft())
        shown = {**result.problems, **self._server_errors}
        for name, label in self.errors.items():
            text = shown.get(name, "")
            label.setText(text)
            label.setVisible(bool(text))
        purpose_scope = self.scope_combo.currentData() == _PURPOSE
        if purpose_scope and self.kind is EntryKind.SMS:
            hint = "Required for purpose scope."
        elif purpose_scope:
            hint = "The purpose this entry applies to."
        elif self.kind is EntryKind.DNC and self.entry is not None:
            hint = "A blank purpose leaves the stored one unchanged (the service cannot clear it)."
        else:
            hint = ""
        self.purpose_hint.setText(hint)
        self.purpose_hint.setVisible(bool(hint))
        self.ok_button.setEnabled(result.ok and not self.saving and not self._server_errors)
        return result.entry

    def problem(self, field: str) -> str:
        """The text shown beside ``field`` ("" if none), for tests and accessibility."""
        label = self.errors[field]
        return label.text() if not label.isHidden() else ""

    # ------------------------------------------------------------------ saving
    def set_session(self, session: Session) -> None:
        """The token of the same connection was replaced: later saves (and the retry the
        window runs once the new token is in) go through ``session``; the old one is closed."""
        self.session = session

    def accept(self) -> None:
        valid = self._revalidate()
        if valid is None or self.saving:
            return
        call = self._write_call(valid)
        if call is None:
            self.general_error.setText("Nothing changed.")
            self.general_error.show()
            return
        self._run(call)

    def _write_call(self, valid: ValidEntry) -> Callable[[TaskContext], WriteResult] | None:
        session = self.session
        before = self.entry
        if before is None:
            kind = self.kind
            insert = session.insert_dnc if kind is EntryKind.DNC else session.insert_sms

            def add(ctx: TaskContext) -> WriteResult:
                # An entry the look-up finds older than this is not this add's (bb16 F10).
                began = dt.datetime.now(dt.UTC).replace(tzinfo=None)
                try:
                    return insert(
                        valid.phone_number,
                        valid.phone_code,
                        valid.scope,
                        reason=valid.reason,
                        purpose=valid.purpose,
                        already_present_ok=False,
                        cancel=ctx.cancel_event,
                    )
                except ApiError as exc:
                    if unanswered(exc):
                        # Its last attempt got no answer saying whether it was done: the look-up
                        # tells, not "Not saved" (black-box bb10 F6).
                        found = settle_unanswered_add(session, kind, valid, exc, began)
                        return saved_or_raise(exc, found)
                    if not lost_answer_conflict(exc):
                        raise
                    # The retry's "already listed" may be this add's own first attempt: read
                    # it back rather than report a failure (black-box bb3 F3).
                    settled = look_up_lost_add(session, kind, valid, exc, began)
                    if settled.entry is None:
                        raise NotAsAsked(exc, settled.words) from exc
                    return settled_result(exc, settled)

            return add
        args = changes(before, valid)
        if not args:
            return None
        phone_number = _opt_str(args.get("phone_number"))
        phone_code = _opt_str(args.get("phone_code"))
        scope = args.get("scope")
        new_scope = scope if isinstance(scope, Scope) else None
        reason = _opt_str(args.get("reason"))
        purpose = _opt_str(args.get("purpose"))
        kind = self.kind

        def update(ctx: TaskContext) -> WriteResult:
            try:
                if isinstance(before, DncEntry):
                    return session.update_dnc(
                        before,
                        phone_number=phone_number,
                        phone_code=phone_code,
                        scope=new_scope,
                        reason=reason,
                        purpose=purpose,
                    )
                return session.update_sms(
                    before,
                    phone_number=phone_number,
                    phone_code=phone_code,
                    scope=new_scope,
                    reason=reason,
                    purpose=purpose,
                )
            except ApiError as exc:
                if unanswered(exc):
                    found = settle_unanswered_edit(session, kind, before, valid, exc)
                    return saved_or_raise(exc, found)
                if not lost_answer_conflict(exc):
                    raise
                # A new number's "already listed" may be this edit's own first attempt.
                settled = look_up_lost_edit(session, kind, before.id, valid, exc)
                if settled.entry is None:
                    raise NotAsAsked(exc, settled.words) from exc
                return settled_result(exc, settled)

        return update

    def _run(self, call: Callable[[TaskContext], WriteResult]) -> None:
        self._attempt += 1
        self.saving = True
        self._set_inputs_enabled(False)
        self.general_error.setText("Saving…")
        self.general_error.show()
        self.saving_changed.emit(True)
        # owner: a dialog deleted while the write runs gets no answer (it raised "Signal
        # source has been deleted" in the event loop: black-box bb1 F7).
        self.runner.submit(
            "save entry", call, on_done=self._on_saved, on_error=self._on_failed, owner=self
        )

    def _set_inputs_enabled(self, enabled: bool) -> None:
        for widget in (
            self.phone_edit,
            self.code_combo,
            self.scope_combo,
            self.purpose_edit,
            self.reason_edit,
        ):
            widget.setEnabled(enabled)
        # Cancel too: closing while the write is in flight would hide whether it happened.
        self.buttons.setEnabled(enabled)

    def reject(self) -> None:
        if not self.saving:
            super().reject()

    def _on_saved(self, result: WriteResult) -> None:
        self.saving = False
        self.saving_changed.emit(False)
        self.saved.emit(result)
        super().accept()

    def _on_failed(self, exc: BaseException) -> None:
        self.saving = False
        self.saving_changed.emit(False)
        self._set_inputs_enabled(True)
        self.general_error.hide()
        if isinstance(exc, AuthMissingError | AuthInvalidError):
            self.general_error.setText(_not_saved(exc))
            self.general_error.show()
            self._revalidate()
            self.auth_problem.emit(exc, self._retry_for(self._attempt))
            return
        if isinstance(exc, NotAsAsked):
            # The service's answer, then what the look-up after it found (bb3 F3).
            found = f"A look-up right after found it {exc.words}."
            self._server_errors["phone_number"] = f"{field_error_text(exc.error)} {found}"
            self._revalidate()
            return
        if isinstance(exc, LostAnswerNotSaved):
            self.general_error.setText(_not_settled(exc))
            self.general_error.show()
            self._revalidate()
            return
        field = getattr(exc, "field", "")
        if field in FIELDS:
            self._server_errors[field] = field_error_text(exc)
        else:
            self.general_error.setText(_not_saved(exc))
            self.general_error.show()
        self._revalidate()

    def _retry_for(self, attempt: int) -> Callable[[], None]:
        """The retry the window runs after a new token: the save again, built on the session
        current then (the old one's client is closed: the retry was journaled "the API client
        is closed", black-box bb1 F7) from what the form holds. Nothing once the dialog is
        closed, or the officer has pressed Add again meanwhile (a second insert)."""

        def retry() -> None:
            if not Shiboken.isValid(self) or not self.isVisible():
                return
            if self.saving or attempt != self._attempt:
                return
            self.accept()

        return retry


def _not_saved(exc: BaseException) -> str:
    """The sentence for a save that failed, "Not saved: …" (not "Not saved failed: …")."""
    text = user_message(exc, "Not saved").text
    doubled = "Not saved failed: "
    return "Not saved: " + text[len(doubled) :] if text.startswith(doubled) else text


def _not_settled(exc: LostAnswerNotSaved) -> str:
    """What the officer reads: "Not saved: <the error>. A look-up right after found …", or
    "Not known whether saved: …" when the look-up could not tell."""
    text = f"{_not_saved(exc.error)} A look-up right after found {exc.settled.words}."
    if exc.settled.state == NOT_KNOWN and text.startswith("Not saved: "):
        text = "Not known whether saved: " + text[len("Not saved: ") :]
    return text


def _opt_str(value: object) -> str | None:
    return None if value is None else str(value)
