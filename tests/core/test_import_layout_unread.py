"""An import of a workbook whose layout (hidden rows, error cells, formulas never calculated)
the reader could not scan says so (Z1, of black-box B1 #7): a removal refuses such a file, an
import read it without a word."""

from __future__ import annotations

from pathlib import Path

from app.core.sheet_reader import open_sheet
from app.core.staging_notes import HiddenRows, notes_sentences
from tests.core.sheet_factory import write_csv, write_xlsx

UNREAD = "could not be read (its sheet's layout could not be read)"


def _warnings(path: Path, known: bool | None) -> list[str]:
    with open_sheet(path) as source:
        list(source.iter_rows())
        if known is not None:
            source.notes.hidden_known = known  # as the worker sets it when its scan fails
        return notes_sentences(source, path.name, "import", HiddenRows("import", False), True)


def test_an_unscanned_workbook_is_named_in_an_import(tmp_path: Path) -> None:
    path = write_xlsx(tmp_path / "a.xlsx", [["Phone"], ["3035550101"], ["3035550102"]])
    assert not any(UNREAD in w for w in _warnings(path, None))  # scanned: nothing to say
    (said,) = [w for w in _warnings(path, False) if UNREAD in w]
    assert said.startswith("Which rows of sheet 'Sheet1' of a.xlsx are hidden, and which cells")
    assert said.endswith("Save the file again as .xlsx and import that to have them checked.")


def test_a_text_table_has_no_layout_to_scan(tmp_path: Path) -> None:
    path = write_csv(tmp_path / "a.csv", [["Phone"], ["3035550101"]])
    assert not any(UNREAD in w for w in _warnings(path, False))
