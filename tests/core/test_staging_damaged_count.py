"""The count of rows whose phone cell a spreadsheet damaged is kept in the job file by staging
itself (black-box P2 #4), so the report's Summary and the result have it whichever front end
staged the job: the CLI did, the import wizard's jobs had none."""

from __future__ import annotations

from pathlib import Path

from app.api.scope import Scope
from app.core.job_report import DAMAGED
from app.core.job_staging import JobSettings, stage
from app.core.sheet_scope import CampaignDirectory


def _staged_meta(tmp_path: Path, text: str) -> dict[str, object]:
    path = tmp_path / "in.csv"
    path.write_text(text)
    store, summary = stage(
        JobSettings(path, Scope.global_()),
        tmp_path / "jobs",
        kind="import",
        connection=None,
        campaign_lookup=CampaignDirectory.unchecked(),
    )
    try:
        meta = store.meta()
    finally:
        store.close()
    assert meta[DAMAGED] == summary.damaged
    return meta


def test_staging_keeps_the_count_of_damaged_phone_cells(tmp_path: Path) -> None:
    # A decimal comma Excel wrote, and digits cut to 15: both are spreadsheet damage.
    text = 'phone\n"3035550533,0"\n2125550101\n"4915123456789010"\n'
    assert _staged_meta(tmp_path, text)[DAMAGED] == 2


def test_a_clean_file_keeps_a_count_of_zero(tmp_path: Path) -> None:
    assert _staged_meta(tmp_path, "phone\n2125550101\n3035550102\n")[DAMAGED] == 0
