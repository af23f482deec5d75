"""The import wizard opens a workbook on the sheet staging would read: a sheet named for
opt-outs with a phone column rather than a first sheet of contacts (black-box pass F)."""

from __future__ import annotations

from pathlib import Path

from app.ui.import_wizard_engine import probe_file
from tests.core.test_import_opt_out_sheet import OPT_OUTS, _workbook


def test_the_import_wizard_shows_the_opt_out_sheet_first(tmp_path: Path) -> None:
    # The wizard's engine (no Qt) probes the file as staging reads it; its Sheet list keeps
    # every sheet, so the first sheet is still a choice away.
    probe = probe_file(_workbook(tmp_path / "book.xlsx", "Opt-outs"), prefer_opt_outs=True)
    assert probe.sheet == "Opt-outs"
    assert probe.sheet_names == ("Contacts", "Opt-outs")
    assert [cells[0] for _, cells in probe.preview[1:]] == OPT_OUTS
    named = probe_file(tmp_path / "book.xlsx", "Contacts", prefer_opt_outs=True)
    assert named.sheet == "Contacts"
    passed_over = probe_file(
        _workbook(tmp_path / "b2.xlsx", "Opt-out help", phones=False), prefer_opt_outs=True
    )
    assert passed_over.sheet == "Contacts"
