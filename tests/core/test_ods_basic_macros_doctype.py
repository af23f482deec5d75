"""Black-box B18 F2: every .ods LibreOffice saves with Basic (or VBA) macros in it was refused as
an XML bomb: its macro parts start with a document type naming an external DTD
(``<!DOCTYPE library:library PUBLIC "-//OpenOffice.org//DTD OfficeDocument 1.0//EN"
"library.dtd">``), which declares no entity. Such a document type is read past; one with an
internal subset (where entities are declared) is still refused."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest

from app.core.sheet_reader import SheetError, open_sheet

DATA = Path(__file__).parent / "data"
# Made by LibreOffice 7 (soffice --convert-to ods) from an .xlsm holding a VBA project.
MACROS = DATA / "s22_libreoffice_basic_macros.ods"


def test_libreoffice_ods_with_basic_macros_is_read() -> None:
    with zipfile.ZipFile(MACROS) as zf:
        assert zf.read("Basic/Standard/script-lb.xml").find(b"<!DOCTYPE library:library") > 0
    with open_sheet(MACROS) as source:
        rows = list(source.iter_rows())
    assert [cells[0] for _, cells in rows[1:]] == ["(303) 555-0133", "720-555-0142"]


def _with_part(tmp_path: Path, text: bytes) -> Path:
    path = tmp_path / "crafted.ods"
    with zipfile.ZipFile(MACROS) as zin, zipfile.ZipFile(path, "w") as zout:
        for item in zin.infolist():
            data = zin.read(item)
            if item.filename == "Basic/Standard/script-lb.xml":
                data = text
            zout.writestr(item, data)
    return path


@pytest.mark.parametrize(
    "prolog",
    [
        b'<!DOCTYPE library:library [<!ENTITY a "aaaaaaaaaa">]>',
        b'<!DOCTYPE library:library SYSTEM "library.dtd" [<!ENTITY a "aa">]>',
        b'<!DOCTYPE library:library PUBLIC "x" "library.dtd"><!ENTITY a "aa">',
        b'<!ENTITY a "aa">',
    ],
)
def test_a_document_type_declaring_entities_is_still_refused(tmp_path: Path, prolog: bytes) -> None:
    part = b'<?xml version="1.0" encoding="UTF-8"?>\n' + prolog + b"<library:library/>"
    with pytest.raises(SheetError, match=r"script-lb\.xml\) that declares XML entities"):
        with open_sheet(_with_part(tmp_path, part)) as source:
            list(source.iter_rows())
