"""Black-box B35 F7: a UTF-32 CSV with a BOM was read as UTF-16 (UTF-32-LE's BOM begins with
UTF-16-LE's), its headers '\\x00p\\x00h…' and 'No column of phone numbers'; without a BOM it was
refused as binary data. Both are read now, with the counts of the same file in UTF-8."""

from __future__ import annotations

import codecs
from pathlib import Path

import pytest

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.sheet_csv import detect_encoding
from app.core.sheet_reader import open_sheet

TEXT = (
    "phone,name,reason\r\n"
    "3035552000,Zoë Müller,asked by phone\r\n"
    "3035552001,José Peña,\u201cstop\u201d by SMS\r\n"
    "303555200,Short,too short\r\n"
    "3035552000,Zoë Müller,again\r\n"
    "\r\n"
    "(303) 555-2002,李小龍,😀 emoji\r\n"
)

FORMS = {
    "utf32-le-bom": codecs.BOM_UTF32_LE + TEXT.encode("utf-32-le"),
    "utf32-be-bom": codecs.BOM_UTF32_BE + TEXT.encode("utf-32-be"),
    "utf32-le": TEXT.encode("utf-32-le"),
    "utf32-be": TEXT.encode("utf-32-be"),
}


def _staged(path: Path, jobs: Path) -> tuple[list[tuple[int, list[str]]], dict[str, int]]:
    with open_sheet(path) as source:
        rows = list(source.iter_rows())
    store, summary = stage_import(JobSettings(path, Scope.global_()), jobs, connection=None)
    store.close()
    return rows, summary.as_dict()


@pytest.mark.parametrize("form", FORMS)
def test_utf32_reads_as_the_utf8_file(tmp_path: Path, form: str) -> None:
    utf8 = tmp_path / "utf8.csv"
    utf8.write_bytes(TEXT.encode("utf-8"))
    wide = tmp_path / f"{form}.csv"
    wide.write_bytes(FORMS[form])
    expected_rows, expected = _staged(utf8, tmp_path / "jobs-utf8")
    rows, counts = _staged(wide, tmp_path / f"jobs-{form}")
    assert rows == expected_rows
    assert rows[0][1] == ["phone", "name", "reason"]
    assert counts == expected
    assert counts["valid"] == 3


def test_utf16_is_still_told_apart() -> None:
    assert detect_encoding(codecs.BOM_UTF16_LE + TEXT.encode("utf-16-le")) == "utf-16"
    assert detect_encoding(codecs.BOM_UTF16_BE + TEXT.encode("utf-16-be")) == "utf-16"
    assert detect_encoding(TEXT.encode("utf-16-le")) == "utf-16-le"
    assert detect_encoding(TEXT.encode("utf-16-be")) == "utf-16-be"
    assert detect_encoding(TEXT.encode("utf-8")) == "utf-8"
