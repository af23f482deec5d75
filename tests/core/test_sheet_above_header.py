"""Rows a person reads as data are not taken for the header, and a phone number above the
header is named (black-box findings: a one-column file starting "N/A" lost that row from every
count; "Questions? Call 303-555-1099" above a header was never mentioned)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings


@pytest.mark.parametrize("first", ["N/A", "n/a", "unknown", "-", "None"])
def test_a_placeholder_first_cell_is_a_data_row(first: str, tmp_path: Path) -> None:
    path = tmp_path / "numbers.csv"
    path.write_text(f"{first}\n3035550101\n3035550102\n3035550103\n")
    store, summary = stage_import(
        JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None
    )
    assert (summary.rows, summary.valid, summary.invalid) == (4, 3, 1)
    assert next(iter(store.rows())).row_number == 1
    store.close()


def test_a_phone_number_above_the_header_is_named(tmp_path: Path) -> None:
    path = tmp_path / "vendor.csv"
    path.write_text(
        "Opt-outs for November\nQuestions? Call 303-555-1099\n\nPhone\n3035550101\n3035550102\n"
    )
    store, summary = stage_import(
        JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None
    )
    assert summary.valid == 2
    assert (
        "Above the header (row 4), row 2 holds 'Questions? Call 303-555-1099': rows above the "
        "header are not read, so it is not imported. If a number there is one to send, move "
        "it below the header."
    ) in store.meta()["warnings"]
    store.close()


def test_a_title_above_the_header_says_nothing(tmp_path: Path) -> None:
    path = tmp_path / "vendor.csv"
    path.write_text("Opt-outs received 2026-11-02\n\nPhone\n3035550101\n")
    store, _ = stage_import(JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None)
    assert not [w for w in store.meta().get("warnings") or [] if "Above the header" in w]
    store.close()
