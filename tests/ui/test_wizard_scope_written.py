"""The wizard's preview shows the scope a row's cells wrote when that scope makes the row
invalid (a campaign the service does not have), as the report's Scope cell does (Q3b's note on
black-box Q2 #8), instead of an empty cell."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.core.session import Session
from app.ui.tasks import TaskRunner
from tests.ui.test_import_wizard import open_wizard


def test_a_row_invalid_for_its_campaign_shows_the_campaign_it_named(
    qtbot: Any, runner: TaskRunner, session: Session, tmp_path: Path
) -> None:
    src = tmp_path / "per-row.csv"
    src.write_text("Phone,Campaign\n(303) 555-0161,99999\n(303) 555-0162,\n")
    wizard = open_wizard(qtbot, session, runner, src)
    wizard.next()
    preview = wizard.mapping_page.preview_model
    rows = [[preview.item(r, c).text() for c in range(5)] for r in range(preview.rowCount())]
    assert rows[0][0] == "2" and "99999" in rows[0][3], rows
    assert rows[1][3] == "Global", rows
