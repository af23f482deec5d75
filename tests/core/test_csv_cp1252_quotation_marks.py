"""A right Windows-1252 CSV with German quotation marks („Bitte nicht mehr anrufen“), or a
standalone "›", was warned about as garbled and to be saved again, though every letter read
right (found by fixer F2): "„", "›", "†" are also a DOS program's "ä", "ø", "å", so the
quick check took them for garbling wherever they stood. Where right text puts them (a
quotation's opening and closing marks, a guillemet standing alone, a dagger after a word, a
per-mille sign after a number) they now get no warning; a Mac's curly quotes read as
Windows-1252 ("Òstop.Ó", re-test M1 #4) still do, and a Mac's German quotation is read as Mac
Roman."""

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
VENDOR = [
    ("Jürgen Müller", "303-555-0101", "„Bitte nicht mehr anrufen“"),
    ("Grete Weiß", "303-555-0102", "Kunde sagte „Nein“, sehr verärgert"),
    ("Hans Schäfer", "303-555-0103", "Werbung - „Keine Anrufe“ (per E-Mail)"),
]


def _write(path: Path, rows: list[tuple[str, ...]], encoding: str) -> Path:
    text = io.StringIO()
    csv.writer(text, delimiter=";").writerows([HEADER, *rows])
    path.write_bytes(text.getvalue().encode(encoding))
    return path


@pytest.mark.parametrize(
    "rows",
    [
        VENDOR,
        [("Bernd Kurz", "303-555-0104", "„Bitte nicht mehr anrufen“")],  # no other letter
        [("Eva Horn", "303-555-0105", "‚kein Interesse‘ - „Stopp“")],
        [("Eva Horn", "303-555-0105", "»Nein« und ›nie wieder‹")],
        [("Eva Horn", "303-555-0105", "‹ne plus appeler› « merci »")],
        [("Bjørn Dahl", "303-555-0106", "Ikke ring › stopp")],  # a guillemet standing alone
        # (A file whose only letters past ASCII are daggers after words reads as a DOS
        # program's "å" and "ç" as well, and is read as code page 850.)
        [("Otto Müller†", "303-555-0107", "verstorben † 2025; Quote 0,5 ‰ (Smith‡)")],
    ],
)
def test_quotation_marks_where_windows_1252_text_puts_them_get_no_warning(
    tmp_path: Path, rows: list[tuple[str, ...]]
) -> None:
    path = _write(tmp_path / "lieferant.csv", rows, "cp1252")
    with CsvSource(path) as source:
        assert (source.encoding, source.read_as) == ("utf-8", None)  # Windows-1252 fallback
        assert not source.notes.legacy_text
        assert source.encoding_sentence() is None
        assert [cells for _, cells in source.preview(10)] == [list(HEADER), *map(list, rows)]


def test_a_german_vendors_reasons_are_stored_unwarned(tmp_path: Path) -> None:
    path = _write(tmp_path / "lieferant.csv", VENDOR, "cp1252")
    store, _ = stage_import(JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None)
    try:
        warnings = [str(w) for w in store.meta().get("warnings") or []]
        reasons = [r.reason for r in store.rows()]
    finally:
        store.close()
    assert reasons == [row[2] for row in VENDOR]
    assert not any("garbled" in w or "UTF-8" in w for w in warnings), warnings


@pytest.mark.parametrize(
    ("text", "encoding"),
    [
        ("“stop.”", "mac_roman"),  # "Òstop.Ó": M1 #4, a phrase ending in punctuation
        ("“Do not call!” and ‘never.’", "mac_roman"),
        ("Über uns", "mac_roman"),  # "†ber": a dagger before a letter
        ("não ligar", "mac_roman"),  # "n‹o": a guillemet inside a word
        ("no está", "mac_roman"),  # "est‡": "‡" after a word with no dagger in the text
        ("Kunden är i Malmö", "cp850"),  # "„r i Malm”": "„" closed by no "“"
    ],
)
def test_another_encodings_letters_read_as_windows_1252_are_still_warned(
    tmp_path: Path, text: str, encoding: str
) -> None:
    path = tmp_path / "other.csv"
    path.write_bytes(f"Phone,Note\r\n3035554601,{text}\r\n".encode(encoding))
    with CsvSource(path) as source:
        assert source.read_as is None and source.notes.legacy_text
        sentence = source.encoding_sentence()
        assert sentence is not None and "some of its letters look garbled" in sentence


@pytest.mark.parametrize(
    "rows",
    [VENDOR, [("Bernd Kurz", "303-555-0104", "„Bitte nicht mehr anrufen“")]],
)
def test_a_macs_german_quotation_is_read_as_mac_roman(
    tmp_path: Path, rows: list[tuple[str, ...]]
) -> None:
    # Read as Windows-1252 a Mac's "„" and "“" are "ã" and "Ò"; read as Mac Roman they are
    # the marks above, which took that reading for garbled too.
    path = _write(tmp_path / "mac.csv", rows, "mac_roman")
    with CsvSource(path) as source:
        assert source.read_as == LEGACY_ENCODINGS["mac_roman"]
        assert not source.notes.legacy_text
        assert [cells for _, cells in source.preview(10)] == [list(HEADER), *map(list, rows)]
