"""The OK/Cancel row of a dialog that confirms a write to the service (a removal, a re-status,
an activation past the launch gate): its confirming button is never the default, so Enter
typed in a reason field cannot send the write by accident."""

from __future__ import annotations

from PySide6.QtWidgets import QDialog, QDialogButtonBox, QPushButton


def confirming_buttons(dialog: QDialog, text: str = "") -> tuple[QDialogButtonBox, QPushButton]:
    """The dialog's button box and its confirming button (labelled ``text`` when given),
    wired to accept and reject the dialog."""
    buttons = QDialogButtonBox(
        QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel, dialog
    )
    ok_button = buttons.button(QDialogButtonBox.StandardButton.Ok)
    if text:
        ok_button.setText(text)
    ok_button.setAutoDefault(False)
    ok_button.setDefault(False)
    buttons.accepted.connect(dialog.accept)
    buttons.rejected.connect(dialog.reject)
    return buttons, ok_button
