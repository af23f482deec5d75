"""Re-test M1 on text files' encodings: letters saved as '?' are warned about (#1); a Mac's
curly quotes (#4) and its "Perú" (#8) are read as Mac Roman; a Windows-1252 file of Slavic
names ("Miloš Žagar") is not called garbled (#9)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.api.scope import Scope
from app.core.country_names import name_with_lost_letters
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.sheet_csv import LEGACY_ENCODINGS, CsvSource, lost_letters_sentence


def _stage(path: Path, tmp_path: Path) -> tuple[list[str], dict[str, tuple[str, str, str]]]:
    store, _ = stage_import(JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None)
    warnings = [str(w) for w in store.meta().get("warnings") or []]
    rows = {r.original: (r.phone_code, r.national, r.reason) for r in store.rows()}
    store.close()
    return warnings, rows


def _encoding_warnings(warnings: list[str]) -> list[str]:
    return [w for w in warnings if "UTF-8" in w]


# --- #1: letters saved as '?' ---

LOST = (
    "Nombre,Tel?fono,Pa?s,Fecha de solicitud,Comentario\r\n"
    "Jos? N??ez,303-555-4001,Estados Unidos,17/11/2026,Llam? pidiendo baja\r\n"
    "Zo? M?ller,303-555-4002,USA,18/11/2026,?no llamar?\r\n"
    "Fran?ois C?t?,613-555-0124,Canad?,18/11/2026,r?sili? - ne plus appeler\r\n"
    "Ana P?rez,55 1234 5680,M?xico,19/11/2026,baja\r\n"
)


def test_letters_saved_as_question_marks_are_warned_about(tmp_path: Path) -> None:
    path = tmp_path / "d_base.csv"
    path.write_bytes(LOST.encode("ascii"))
    warnings, _ = _stage(path, tmp_path)
    assert _encoding_warnings(warnings) == [
        lost_letters_sentence("d_base.csv", ("Tel?fono", "Pa?s", "N??ez"))
    ]
    sentence = lost_letters_sentence("d_base.csv", ("Tel?fono", "Pa?s", "N??ez"))
    assert sentence.startswith(
        "d_base.csv has '?' in place of letters ('Tel?fono', 'Pa?s' and 'N??ez'): it was "
        "saved in an encoding that could not hold them"
    )
    assert "a header or a country written with them may not be recognised" in sentence
    assert sentence.endswith(
        'save the file again from the original as "CSV UTF-8" and import it again.'
    )


def test_a_header_alone_with_a_lost_letter_is_enough(tmp_path: Path) -> None:
    path = tmp_path / "q7.csv"
    path.write_text("Name,Phone,Pa?s\nAna,55 1234 5696,Mexico\nBo,303-555-4954,USA\n")
    with CsvSource(path) as source:
        assert source.lost_letters == ("Pa?s",)


def test_values_with_lost_letters_count_once_or_several_times(tmp_path: Path) -> None:
    path = tmp_path / "v.csv"
    path.write_text("Name,Phone,Country\nAna,1,M?xico\nBo,2,M?xico\nCy,3,Canad?\nDi,4,M?xico\n")
    with CsvSource(path) as source:
        assert source.lost_letters == ("M?xico",)
    path.write_text("Name,Phone,Country\nAna,1,M?xico\nBo,2,USA\n")
    with CsvSource(path) as source:  # one such word is enough (black-box R4 #6)
        assert source.lost_letters == ("M?xico",)


@pytest.mark.parametrize(
    "reason",
    [
        "Did you call?",
        "Why? Because",
        "see https://example.com/optout.php?id=3&lang=es",
        "www.example.com/page?ref=mail",
        "Called?Yes",
        "asked: who?",
        "Y?N",
    ],
)
def test_legitimate_question_marks_are_not_lost_letters(tmp_path: Path, reason: str) -> None:
    path = tmp_path / "q.csv"
    lines = [f"Phone,Reason,{reason}"] + [f"30355540{i:02d},{reason}" for i in range(20)]
    path.write_text("\n".join(lines) + "\n")
    warnings, _ = _stage(path, tmp_path)
    assert not _encoding_warnings(warnings), warnings


def test_a_file_of_right_letters_gets_no_such_warning(tmp_path: Path) -> None:
    path = tmp_path / "ok.csv"
    path.write_text(LOST.replace("?", "e"))
    with CsvSource(path) as source:
        assert source.lost_letters == () and source.encoding_sentence() is None


@pytest.mark.parametrize(
    ("value", "name"),
    [
        ("M?xico", "Mexico"),
        ("Canad?", "Canada"),
        ("Per?", "Peru"),
        ("M?XICO", "Mexico"),
        ("Rep?blica Dominicana", "República Dominicana"),
        ("C?te d?Ivoire", "Côte d'Ivoire"),
        ("Jap?n", "Japan"),
    ],
)
def test_a_country_name_with_lost_letters_is_the_one_it_fits(value: str, name: str) -> None:
    assert name_with_lost_letters(value) == name


@pytest.mark.parametrize("value", ["Mexico", "US?", "?????", "Xyz?", "??an"])
def test_a_value_fitting_no_single_country_is_none(value: str) -> None:
    assert name_with_lost_letters(value) is None


# --- #4, #8: a Mac's curly quotes and "Perú" ---


def test_a_mac_file_whose_only_letters_are_curly_quotes_is_read_as_mac_roman(
    tmp_path: Path,
) -> None:
    path = tmp_path / "m3.csv"
    text = (
        "Name,Phone,Country,Notes\r\nSean O’Brien,303-555-4601,USA,don’t call\r\n"
        "Dan,55 1234 5689,Mexico,“no more”\r\n"
    )
    path.write_bytes(text.encode("mac_roman"))
    with CsvSource(path) as source:
        assert source.encoding == "mac_roman"
    warnings, rows = _stage(path, tmp_path)
    assert rows["303-555-4601"][2] == "don’t call"
    assert rows["55 1234 5689"] == ("52", "5512345689", "“no more”")
    assert _encoding_warnings(warnings)[0].startswith("m3.csv is not UTF-8 text, and its letters")


@pytest.mark.parametrize("text", ["it’s done", "Sean O’Brien", "‘stop’ please"])
def test_one_curly_quote_from_a_mac_is_enough(tmp_path: Path, text: str) -> None:
    path = tmp_path / "q.csv"
    path.write_bytes(f"Phone,Note\r\n3035554601,{text}\r\n".encode("mac_roman"))
    with CsvSource(path) as source:
        assert source.read_as == LEGACY_ENCODINGS["mac_roman"]
        assert source.preview(2)[1][1] == ["3035554601", text]


def test_a_mac_peru_is_read_as_mac_roman_and_its_number_gets_its_code(tmp_path: Path) -> None:
    path = tmp_path / "m2.csv"
    text = (
        "Name,Phone,Country\r\nBob,303-555-4501,USA\r\nAna,1 4123456,Perú\r\n"
        "Eva,55 1234 5688,Mexico\r\n"
    )
    path.write_bytes(text.encode("mac_roman"))
    with CsvSource(path) as source:
        assert source.read_as == LEGACY_ENCODINGS["mac_roman"]
    warnings, rows = _stage(path, tmp_path)
    assert rows["1 4123456"][:2] == ("51", "14123456")
    assert not any("read as Windows-1252" in w for w in warnings), warnings


@pytest.mark.parametrize(
    "text",
    ["Don’t call “ever”", "naïve café — “quoted”", "Ò and Ó: ÒSCAR CONCEPCIÓN"],
)
def test_windows_1252_quotes_and_accents_stay_windows_1252(tmp_path: Path, text: str) -> None:
    path = tmp_path / "w.csv"
    path.write_bytes(f"Phone,Note\r\n3035554601,{text}\r\n".encode("cp1252"))
    with CsvSource(path) as source:
        assert source.encoding == "utf-8" and source.encoding_sentence() is None
        assert source.preview(2)[1][1] == ["3035554601", text]


# --- #9: Slavic names in Windows-1252 ---


def test_slavic_names_in_windows_1252_are_not_called_garbled(tmp_path: Path) -> None:
    path = tmp_path / "w6.csv"
    rows = [
        ["Name", "Phone", "Country", "Notes"],
        ["Miloš Žagar", "303-555-4901", "USA", "Miloš: ne klicite"],
        ["Tomaž Kos", "303-555-4902", "USA", "Tomaž prosi"],
        ["Uroš Šuštar", "55 1234 5692", "México", "Šuštar - baja"],
        ["Žiga Žužek", "303-555-4904", "USA", "Žiga"],
    ]
    path.write_bytes("".join(",".join(r) + "\r\n" for r in rows).encode("cp1252"))
    with CsvSource(path) as source:
        assert [cells for _, cells in source.preview(10)] == rows
        assert source.encoding_sentence() is None


@pytest.mark.parametrize("word", ["Köln", "Björn", "Mär", "Résilié"])
def test_a_macs_letters_read_as_s_and_z_with_caron_are_still_seen(
    tmp_path: Path, word: str
) -> None:
    # Read as Windows-1252 they are "Kšln", "Bjšrn", "MŠr", "RŽsiliŽ": between consonants or
    # inside a word, where no Slavic name has them.
    path = tmp_path / "mac.csv"
    path.write_bytes(f"Phone,Note\r\n3035554601,{word}\r\n".encode("mac_roman"))
    with CsvSource(path) as source:
        assert source.encoding_sentence() is not None
