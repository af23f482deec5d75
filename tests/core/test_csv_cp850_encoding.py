"""A DOS code page 850 CSV with Danish or Norwegian names was read as Windows-1252, with only
a "garbled" warning, and its reasons stored garbled ('Pidi¢ no m\xa0s llamadas', 'R‚siliation'),
though code page 850 reads it right; without its Scandinavian rows the same file was read as
code page 850 (black-box B7 #2). Code page 437 reads such a file as 850 does but for "Ø" (its
"¥") and "ø" (its "¢"): a word opening "¥degård" or "¢l" counted nothing garbled, so the two
readings tied and neither was chosen. A currency sign right before a letter now counts, and
the file is read as code page 850. A Windows-1252 file holding "›" and "ø" is still read as
Windows-1252."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.sheet_csv import LEGACY_ENCODINGS, CsvSource

HEADER = ("Name", "Phone", "Reason")
ROWS = [
    ("Ole Ødegård", "303-555-1801", "Ikke ring"),
    ("Søren Ærø Kjær", "303-555-1802", "Ønsker ikke opkald - øl og æbler"),
    ("Åsa Åberg", "303-555-1803", "Ring inte på lørdag"),
    ("José Núñez", "303-555-1804", 'Pidió no más llamadas - "urgente"'),
    ("Françoise Lefèvre", "303-555-1805", "Résiliation reçue, très fâché"),
]


def _write(path: Path, rows: list[tuple[str, ...]], encoding: str) -> Path:
    text = io.StringIO()
    csv.writer(text, quoting=csv.QUOTE_ALL).writerows([HEADER, *rows])  # CR LF, as DOS ends lines
    path.write_bytes(text.getvalue().encode(encoding))
    return path


@pytest.mark.parametrize(
    "rows",
    [
        ROWS,  # read right before too: 437 reads "Søren" "S¢ren"
        ROWS[:1] + ROWS[3:],  # "Ø" opening a word is the one letter 437 reads otherwise
        [("Bo Holm", "303-555-1806", "øl, ikke opkald"), *ROWS[3:]],  # so "ø"
        [("ØSTERGAARD A/S", "303-555-1807", "Ring ikke"), *ROWS[3:]],
    ],
)
def test_a_code_page_850_file_with_scandinavian_letters_is_read_as_850(
    tmp_path: Path, rows: list[tuple[str, ...]]
) -> None:
    path = _write(tmp_path / "dos850.csv", rows, "cp850")
    source = CsvSource(path)
    assert (source.encoding, source.read_as) == ("cp850", LEGACY_ENCODINGS["cp850"])
    assert not source.notes.legacy_text
    assert [cells for _, cells in source.preview(10)] == [list(HEADER), *map(list, rows)]
    sentence = source.encoding_sentence()
    assert sentence is not None
    assert "its letters read right as DOS Western European (code page 850)" in sentence


def test_the_stored_reasons_of_a_code_page_850_file_are_its_own(tmp_path: Path) -> None:
    rows = ROWS[:1] + ROWS[3:]  # as the black-box file: "Ødegård" its one Scandinavian word
    path = _write(tmp_path / "dos850.csv", rows, "cp850")
    store, _ = stage_import(JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None)
    try:
        warnings = list(store.meta().get("warnings") or [])
        reasons = [r.reason for r in store.rows()]
    finally:
        store.close()
    assert reasons == [row[2] for row in rows]
    assert any("read right as DOS Western European (code page 850)" in w for w in warnings)
    assert not any("read as Windows-1252" in w for w in warnings), warnings


def test_a_windows_1252_file_with_guillemet_and_o_slash_is_read_as_1252(tmp_path: Path) -> None:
    rows = [
        ("Bjørn Ødegård", "303-555-1808", "Ikke ring › stopp"),
        ("Søren Ærø", "303-555-1809", "«Ring ikke» › slet"),
        *ROWS[3:],
    ]
    path = _write(tmp_path / "win1252.csv", rows, "cp1252")
    source = CsvSource(path)
    assert source.read_as is None
    assert [cells for _, cells in source.preview(10)] == [list(HEADER), *map(list, rows)]
