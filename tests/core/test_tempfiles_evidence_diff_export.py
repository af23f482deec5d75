"""The evidence pack, the snapshot diff and the export stream their sheets beside the output,
never to openpyxl's temporary files in $TMPDIR (X2's follow-up: each holds phone numbers, and a
process killed while writing left them where nothing cleans them)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from app.core.xlsx_safe import SafeWorkbook
from tests.core.test_xlsx_quote_prefix_writers import _diff_file, _evidence_file


@pytest.fixture
def seen_at_save(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> list[tuple[list[str], list[str]]]:
    """($TMPDIR's names, the output folder's names) when each workbook is saved: every sheet
    is streamed by then, nothing deleted yet."""
    temp = tmp_path / "tmpdir"
    temp.mkdir()
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    seen: list[tuple[list[str], list[str]]] = []
    save = SafeWorkbook.save

    def listing_save(self: SafeWorkbook, path: Path) -> None:
        seen.append(
            (sorted(p.name for p in temp.iterdir()), sorted(p.name for p in path.parent.iterdir()))
        )
        save(self, path)

    monkeypatch.setattr(SafeWorkbook, "save", listing_save)
    return seen


@pytest.mark.parametrize(
    ("build", "name"), [(_evidence_file, "evidence.xlsx"), (_diff_file, "diff.xlsx")]
)
def test_nothing_goes_to_the_temporary_folder(
    tmp_path: Path, seen_at_save: list[tuple[list[str], list[str]]], build: object, name: str
) -> None:
    out = build(tmp_path)  # type: ignore[operator]
    ((temp_names, beside),) = seen_at_save
    assert temp_names == []
    streams = [n for n in beside if n != "tmpdir"]
    assert streams and all(n.startswith(f"{name}.") and n.endswith(".part") for n in streams)
    assert sorted(p.name for p in out.parent.iterdir()) == sorted(["tmpdir", name])
