"""Task S20 E1, through a CLI dry run: black-box B10's SYLK file named .csv is refused as SYLK
(it was "No column of phone numbers was found"), its Gnumeric workbook is named as one, and
its CSV of Greek and Russian saved as cp1252 ("??????", "??? ???????") gets the lost-letters
warning it did not get."""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from app.cli.main import main
from tests.conftest import TOKEN


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _dry_run(capsys: pytest.CaptureFixture[str], path: Path) -> tuple[int, dict[str, Any], str]:
    argv = ["import", str(path), "--into", "dnc", "--scope", "global", "--dry-run", "--json"]
    code = main(argv)
    out = capsys.readouterr()
    data: dict[str, Any] = json.loads(out.out)
    return code, data, out.err.strip()


def test_a_sylk_file_named_csv_is_refused_as_sylk(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "sylk_as.csv"
    path.write_bytes(
        b'ID;PGnumeric;N;E\r\nP;P0\r\nP;PGeneral\r\nF;P1;SM1;C1\r\nC;Y1;X1;K"Phone"\r\n'
        b"C;Y2;X1;K3035550123\r\nE\r\n"
    )
    code, data, err = _dry_run(capsys, path)
    assert code == 1, err
    assert err == (
        "sylk_as.csv is a SYLK file (.slk), an old exchange format that is not read; open it "
        "in Excel or LibreOffice and save it as .xlsx or CSV, then import that file."
    )
    assert data["error"] == err


def test_a_gnumeric_workbook_is_refused_as_one(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "source.gnumeric"
    path.write_bytes(
        gzip.compress(
            b'<?xml version="1.0" encoding="UTF-8"?>\n<gnm:Workbook '
            b'xmlns:gnm="http://www.gnumeric.org/v10.dtd"></gnm:Workbook>\n'
        )
    )
    code, data, err = _dry_run(capsys, path)
    assert code == 1, err
    assert err == (
        "source.gnumeric is a Gnumeric workbook (.gnumeric), which is not read; open it in "
        "Gnumeric and save it as .xlsx or CSV (File → Save As), then import that file."
    )
    assert data["error"] == err


def test_greek_and_russian_lost_to_question_marks_are_warned_about(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "g_cp1252.csv"
    path.write_bytes(
        'Phone,Country,Reason\n5512345613,México,Baja\n"603 123 456",Cesko,Nevolat\n'
        '"212 345 6789",??????,"??? ???????"\n"495 123-45-67",??????,"?? ???????"\n'
        "3035550181,USA,stop\n".encode("cp1252")
    )
    code, data, err = _dry_run(capsys, path)
    assert code == 0, err
    lost = [w for w in data["warnings"] if "in place of letters" in w]
    assert len(lost) == 1, data["warnings"]
    assert lost[0].startswith(
        "g_cp1252.csv has '?' in place of letters ('??????', '??? ???????' and "
        "'?? ???????'): it was saved in an encoding that could not hold them"
    ), lost
