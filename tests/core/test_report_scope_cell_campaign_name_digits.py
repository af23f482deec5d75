"""A report's Scope cell for a row whose Campaign Name cell holds digits (FXH): written bare
(``12``), the campaign named '12', not ``campaign:12``, which a re-import reads as campaign
id 12. Rows never resolved (invalid for their number, or offline) write the cell as read."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.core.test_campaign_names_of_digits import _json, _rows


@pytest.mark.parametrize(
    "header, written", [("Campaign Name", "12"), ("Campaign ID", "campaign:12")]
)
def test_scope_cell_of_an_unresolved_campaign_cell(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], header: str, written: str
) -> None:
    src = tmp_path / "named.csv"
    src.write_text(f"Phone,{header}\nnot a number,12\n")
    data = _json(capsys, ["import", str(src), "--into", "dnc", "--scope", "global", "--dry-run"])
    assert data["invalid"] == 1
    assert _rows(data["report"])[0]["Scope"] == written
