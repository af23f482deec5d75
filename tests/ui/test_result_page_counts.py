"""The result page shows, under "Already on the list", how many of those rows this job may
have inserted itself (an answer was lost), as the CLI and the report do; only when there are."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from app.ui.job_progress import ResultPage


def _page(qtbot: Any, summary: dict[str, Any]) -> ResultPage:
    run_page = SimpleNamespace(handle=SimpleNamespace(result=summary))
    page = ResultPage(run_page, "import")  # type: ignore[arg-type]
    qtbot.addWidget(page)
    page.initializePage()
    return page


SUMMARY = {"status": "finished", "name": "Import of in.csv", "rows": 30, "valid": 30}


def test_the_rows_this_job_may_have_inserted_are_shown(qtbot: Any) -> None:
    page = _page(
        qtbot,
        {**SUMMARY, "inserted": 18, "already_present": 12, "already_present_maybe_inserted": 9},
    )
    assert page.value_labels["already_present"].text() == "12"
    assert page.value_labels["already_present_maybe_inserted"].text() == "9"
    label = page.form.labelForField(page.value_labels["already_present_maybe_inserted"])
    assert label.text().strip() == "of which this job may have inserted"  # type: ignore[attr-defined]


def test_none_is_not_shown(qtbot: Any) -> None:
    page = _page(
        qtbot,
        {**SUMMARY, "inserted": 30, "already_present": 0, "already_present_maybe_inserted": 0},
    )
    assert "already_present_maybe_inserted" not in page.value_labels
    assert page.value_labels["already_present"].text() == "0"
