"""A CSV saved as a Mac's, a DOS program's or Cyrillic Windows' "CSV" is read in that encoding
when its text reads right only in it (black-box pass L1 #1, severe: LibreOffice's Mac Roman
"CSV" was read as Windows-1252, so the header "País" was "Pa’s", its country column went
unrecognised, and the Mexican number "55 1234 5680" was stored as the US +1 5512345680, under
a warning saying the phone numbers were read right). When no reading is clearly right the file
is read as before, and the warning no longer says the numbers are right."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.sheet_csv import LEGACY_ENCODINGS, SAMPLE_BYTES, CsvSource, legacy_text_sentence
from app.core.sheet_reader import open_sheet

# As the black-box file has them: Spanish, French and German names, quotes and dashes.
ROWS = [
    ["Nombre", "Teléfono", "País", "Comentario"],
    ["José Núñez", "303-555-4001", "Estados Unidos", "Llamó pidiendo baja"],
    ["Zoë Müller", "303-555-4002", "USA", "«no llamar»"],
    ["François Côté", "613-555-0124", "Canadá", "résilié - ne plus appeler"],
    ["Ana Pérez", "55 1234 5680", "México", "baja"],
    ["Ñandú", "3035554007", "USA", "señor"],
]
CYRILLIC = [
    ["Имя", "Телефон", "Причина"],
    ["Иванов Иван", "303-555-4011", "Просил не звонить"],
    ["Петрова Анна", "303-555-4012", "Отказ от рекламы"],
]


def _write(path: Path, rows: list[list[str]], encoding: str, newline: str = "\r\n") -> Path:
    path.write_bytes(newline.join(",".join(r) for r in rows).encode(encoding) + b"\r\n")
    return path


def _read(path: Path) -> tuple[list[list[object]], str | None, bool]:
    with open_sheet(path) as source:
        rows = [list(cells) for _, cells in source.iter_rows()]
        return rows, getattr(source, "read_as", None), source.notes.legacy_text


@pytest.mark.parametrize(
    ("encoding", "rows"),
    [
        ("mac_roman", ROWS),
        ("cp850", ROWS),
        ("cp437", ROWS),  # reads as cp850 reads it: the two share these letters
        ("cp1251", CYRILLIC),
    ],
)
def test_a_csv_in_a_legacy_encoding_reads_right(
    tmp_path: Path, encoding: str, rows: list[list[str]]
) -> None:
    read, read_as, legacy = _read(_write(tmp_path / f"{encoding}.csv", rows, encoding))
    assert read == rows
    expected = "cp850" if encoding == "cp437" else encoding
    assert read_as == LEGACY_ENCODINGS[expected]
    assert not legacy  # read right: the "read as Windows-1252, garbled" warning is not due


def test_the_mexican_row_gets_its_country_code(tmp_path: Path) -> None:
    path = _write(tmp_path / "d_mac.csv", ROWS, "mac_roman")
    store, summary = stage_import(
        JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None
    )
    rows = {r.original: (r.phone_code, r.national) for r in store.rows()}
    store.close()
    assert summary.invalid == 0, rows
    assert rows["55 1234 5680"] == ("52", "5512345680")  # was ("1", "5512345680")
    assert rows["613-555-0124"] == ("1", "6135550124")


def test_the_staged_job_says_which_encoding_the_file_was_read_as(tmp_path: Path) -> None:
    path = _write(tmp_path / "d_mac.csv", ROWS, "mac_roman")
    store, _ = stage_import(JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None)
    warnings = list(store.meta().get("warnings") or [])
    store.close()
    (warning,) = [w for w in warnings if "UTF-8" in w]
    assert warning == legacy_text_sentence("d_mac.csv", LEGACY_ENCODINGS["mac_roman"])


def test_one_garbled_value_decides_when_every_other_reading_is_wrong(tmp_path: Path) -> None:
    # Only "México" is not ASCII: Windows-1252 reads "MŽxico", DOS "MÄxico".
    path = tmp_path / "v1.csv"
    path.write_bytes(b"Nombre,Telefono,Pais\r\nAna,55 1234 5680,M\x8exico\r\n")
    read, read_as, _ = _read(path)
    assert read[1] == ["Ana", "55 1234 5680", "México"]
    assert read_as == LEGACY_ENCODINGS["mac_roman"]


def test_a_large_file_is_read_right_past_the_sample(tmp_path: Path) -> None:
    # The encoding is decided on the file's first bytes; every later row is read in it too.
    body = [["Ana Pérez", f"303555{i:04}", "México", "baja"] for i in range(4000)]
    rows = [*ROWS, *body]
    path = _write(tmp_path / "big.csv", rows, "mac_roman")
    assert path.stat().st_size > 2 * SAMPLE_BYTES
    read, read_as, _ = _read(path)
    assert read_as == LEGACY_ENCODINGS["mac_roman"]
    assert read[-1] == body[-1] and read == rows


def test_windows_1252_text_that_looks_odd_is_not_read_otherwise(tmp_path: Path) -> None:
    # "Škoda", "sœur", "Žižek" read right as Windows-1252 and plausibly as a Mac's ("äkoda"):
    # nothing is clear, so the file is read as before, with the warning.
    rows = [
        ["Phone", "Name", "Note"],
        ["3035550001", "Škoda dealer", "sœur de Marie"],
        ["3035550002", "Slavoj Žižek", "Œuvre"],
    ]
    read, read_as, legacy = _read(_write(tmp_path / "w.csv", rows, "cp1252"))
    assert read == rows
    assert read_as is None and legacy


def test_undecided_warning_does_not_say_the_numbers_are_right(tmp_path: Path) -> None:
    # "Köln" from a Mac reads "Kšln" as Windows-1252, a plausible word: nothing is clear.
    path = tmp_path / "koeln.csv"
    path.write_bytes("Telefon,Land,Ort\r\n0221 1234567,Deutschland,Köln\r\n".encode("mac_roman"))
    _, read_as, legacy = _read(path)
    assert read_as is None and legacy
    store, _ = stage_import(JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None)
    warnings = list(store.meta().get("warnings") or [])
    store.close()
    (warning,) = [w for w in warnings if "UTF-8" in w]
    assert "Phone numbers are read right" not in warning
    assert "country column" in warning and "check the numbers' countries" in warning
    assert warning.endswith('save the file as "CSV UTF-8" and import it again.')


def test_the_warning_for_a_file_read_in_a_legacy_encoding_names_it() -> None:
    sentence = legacy_text_sentence("d.csv", LEGACY_ENCODINGS["mac_roman"])
    assert sentence.startswith("d.csv is not UTF-8 text")
    assert "Mac Roman" in sentence and '"CSV UTF-8"' in sentence
    assert "Windows-1252" not in sentence


def test_the_source_gives_the_warning_it_needs(tmp_path: Path) -> None:
    mac = _write(tmp_path / "mac.csv", ROWS, "mac_roman")
    plain = _write(tmp_path / "plain.csv", ROWS, "utf-8")
    with CsvSource(mac) as source:
        assert source.encoding_sentence() == legacy_text_sentence("mac.csv", source.read_as)
        assert source.read_as is not None
    with CsvSource(plain) as source:
        assert source.encoding_sentence() is None
