"""Text from the service, the user or a file, shown as written in widgets that read HTML.

A rich-text label (``Qt.RichText``) reads ``<b>`` as bold and drops an unknown tag such as
``<0791…>``; a label in Qt's default format, a tooltip and a message box *guess*
(``Qt.mightBeRichText``): a reason ``<b>call me</b>``, or a service error quoting one, anywhere
on the first line turns the whole text into HTML (black-box S19 U2 #1). Every such text goes
through one of these:

- :func:`rich`: a piece put into HTML the view writes itself (a summary with ``<b>`` and
  ``<br>``);
- :func:`literal`: a whole text handed to a widget that guesses (a tooltip, a message box);
- :func:`plain_label`: a label that only ever shows plain text, fixed to ``Qt.PlainText``;
- :func:`window_title`: a window title, where Qt reads ``[*]`` as the "modified" mark and
  drops it (black-box S19 U2b).
"""

from __future__ import annotations

from html import escape

from PySide6.QtCore import Qt
from PySide6.QtGui import Qt as GuiQt  # Qt's namespace with the text functions
from PySide6.QtWidgets import QLabel


def rich(text: object) -> str:
    """``text`` as HTML that shows it as written; line breaks kept."""
    return escape(str(text), quote=False).replace("\n", "<br>")


def literal(text: str) -> str:
    """``text`` for a widget that guesses plain or rich text: unchanged when Qt reads it as
    plain, else escaped inside ``<qt>`` (which makes Qt read it as rich text, shown as
    written). An ``&amp;`` read as plain is shown as those five characters already."""
    if not GuiQt.mightBeRichText(text):
        return text
    return f"<qt>{rich(text)}</qt>"


def plain_label(label: QLabel) -> QLabel:
    """``label``, set to show every text as written."""
    label.setTextFormat(Qt.TextFormat.PlainText)
    return label


def window_title(text: str) -> str:
    """``text`` for ``setWindowTitle``: each ``[*]`` doubled, which Qt shows as ``[*]``."""
    return text.replace("[*]", "[*][*]")
