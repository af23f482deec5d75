"""The screen shown while no connection exists yet."""

from __future__ import annotations

from PySide6.QtCore import Qt, Signal
from PySide6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from app.ui.plain_text import plain_label
from app.ui.theme import app_icon, bold


class FirstRunWidget(QWidget):
    """Explains the app and offers the two ways in: a real connection or the sandbox.

    Signals:
        add_connection_requested(): "Add a connection…" was clicked.
        try_sandbox_requested(): "Try the sandbox" was clicked.
    """

    add_connection_requested = Signal()
    try_sandbox_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        icon = QLabel(self)
        icon.setPixmap(app_icon().pixmap(96, 96))
        icon.setAlignment(Qt.AlignmentFlag.AlignCenter)
        title = QLabel("Welcome to DNC Desk", self)
        bold(title, 8)
        title.setAlignment(Qt.AlignmentFlag.AlignCenter)
        intro = QLabel(
            "DNC Desk shows your dialer's do-not-call list and SMS opt-outs, lets you add, "
            "correct and remove entries, and records every change in a tamper-evident "
            "journal.\nConnect it to your dialer's API with a token, or try it first on a "
            "local sandbox filled with demo data.",
            self,
        )
        intro.setWordWrap(True)
        intro.setAlignment(Qt.AlignmentFlag.AlignCenter)
        # A fixed width lets the label compute its wrapped height; with only a maximum
        # width and centring, the layout cut the last line off.
        intro.setFixedWidth(640)
        intro.setMinimumHeight(intro.heightForWidth(640))
        self.sandbox_button = QPushButton("Try the sandbox", self)
        bold(self.sandbox_button, 4)
        self.sandbox_button.setMinimumSize(280, 64)
        self.sandbox_button.setToolTip(
            "Start a local practice service with demo data on this computer; nothing is sent "
            "to your dialer."
        )
        self.sandbox_button.clicked.connect(self.try_sandbox_requested)
        self.add_button = QPushButton("Add a connection…", self)
        self.add_button.setMinimumHeight(40)
        self.add_button.clicked.connect(self.add_connection_requested)
        self.status = plain_label(QLabel(self))
        self.status.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.status.setWordWrap(True)

        buttons = QHBoxLayout()
        buttons.addStretch(1)
        buttons.addWidget(self.sandbox_button)
        buttons.addSpacing(16)
        buttons.addWidget(self.add_button)
        buttons.addStretch(1)
        layout = QVBoxLayout(self)
        layout.addStretch(2)
        layout.addWidget(icon)
        layout.addWidget(title)
        layout.addSpacing(12)
        centred = QHBoxLayout()
        centred.addStretch(1)
        centred.addWidget(intro)
        centred.addStretch(1)
        layout.addLayout(centred)
        layout.addSpacing(24)
        layout.addLayout(buttons)
        layout.addSpacing(12)
        layout.addWidget(self.status)
        layout.addStretch(3)

    def set_busy(self, text: str) -> None:
        """Disable the buttons and say what is happening (empty text re-enables them)."""
        self.status.setText(text)
        self.sandbox_button.setEnabled(not text)
        self.add_button.setEnabled(not text)
