"""The look: Fusion style, which follows the system's light or dark colour scheme (Qt 6.5+),
and a few helpers that draw emphasis with palette roles instead of fixed colours."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QIcon, QPalette
from PySide6.QtWidgets import QApplication, QFrame, QHBoxLayout, QLabel, QStyle, QWidget

from app.core.resources import resource_path
from app.ui.plain_text import plain_label


def apply_theme(app: QApplication) -> None:
    """Use Fusion: it takes its palette from the platform's colour scheme and updates it when
    the user switches between light and dark, so no colours are hard-coded here."""
    app.setStyle("Fusion")
    app.setWindowIcon(app_icon())


def app_icon() -> QIcon:
    icon = QIcon()
    for name in ("dnc-desk.svg", "dnc-desk.png"):
        path = resource_path(name)
        if path.exists():
            icon.addFile(str(path))
    return icon


def bold(widget: QWidget, point_delta: float = 0.0) -> None:
    font = QFont(widget.font())
    font.setBold(True)
    if point_delta:
        font.setPointSizeF(font.pointSizeF() + point_delta)
    widget.setFont(font)


class Banner(QFrame):
    """A one-line notice with a standard icon, drawn in the palette's tooltip colours so it
    stands out in light and dark schemes alike. Hidden while its text is empty."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setFrameShape(QFrame.Shape.StyledPanel)
        self.setAutoFillBackground(True)
        self.setBackgroundRole(QPalette.ColorRole.ToolTipBase)
        self.setForegroundRole(QPalette.ColorRole.ToolTipText)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(8, 6, 8, 6)
        self._icon = QLabel(self)
        self._icon.setAlignment(Qt.AlignmentFlag.AlignTop)
        self._text = plain_label(QLabel(self))  # messages quote names and service errors
        self._text.setWordWrap(True)
        self._text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self._text.setForegroundRole(QPalette.ColorRole.ToolTipText)
        layout.addWidget(self._icon)
        layout.addWidget(self._text, 1)
        self.hide()

    def show_message(self, text: str, level: str = "warning") -> None:
        """Show ``text``; ``level`` is "info", "warning" or "error" (picks the icon)."""
        icons = {
            "info": QStyle.StandardPixmap.SP_MessageBoxInformation,
            "warning": QStyle.StandardPixmap.SP_MessageBoxWarning,
            "error": QStyle.StandardPixmap.SP_MessageBoxCritical,
        }
        pixmap = self.style().standardIcon(icons.get(level, icons["warning"])).pixmap(20, 20)
        self._icon.setPixmap(pixmap)
        self._text.setText(text)
        self.setVisible(bool(text))

    def clear(self) -> None:
        self._text.clear()
        self.hide()

    def text(self) -> str:
        return self._text.text()
