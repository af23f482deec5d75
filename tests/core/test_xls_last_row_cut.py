"""Black-box B18 F4: an .xls LibreOffice saved from a sheet of 66,000 rows holds its first 65,536
(the format's last row), and its import read 65,535 numbers without a word. A sheet whose data
reach the last row its format holds now gets a warning that rows were most likely cut off."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from app.cli.main import main
from app.core import job_staging
from app.core.sheet_reader import open_sheet
from tests.conftest import TOKEN

SOFFICE = shutil.which("soffice")
CUT = "the last row an .xls (Excel 97-2003) workbook can hold"


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


@pytest.mark.slow
@pytest.mark.skipif(SOFFICE is None, reason="LibreOffice (soffice) is not installed")
def test_an_xls_cut_at_its_last_row_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert SOFFICE is not None
    source = tmp_path / "long.csv"
    source.write_text(
        "Phone\n" + "".join(f"{3035550000 + n}\n" for n in range(66_000)), encoding="utf-8"
    )
    subprocess.run(
        [
            SOFFICE,
            "--headless",
            "--norestore",
            f"-env:UserInstallation={(tmp_path / 'profile').as_uri()}",
            "--convert-to",
            "xls:MS Excel 97",
            "--outdir",
            str(tmp_path / "out"),
            str(source),
        ],
        check=True,
        capture_output=True,
        timeout=300,
    )
    xls = tmp_path / "out" / "long.xls"
    argv = ["import", str(xls), "--into", "dnc", "--scope", "global", "--dry-run", "--json"]
    assert main(argv) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["rows"] == 65_535
    said = [w for w in data["warnings"] if CUT in w]
    assert said == [
        "long.xls has data down to row 65,536, the last row an .xls (Excel 97-2003) workbook "
        "can hold: rows after it were most likely cut off when the file was saved as .xls. "
        "Check the file it came from and import the rows after row 65,536 from there."
    ]


def test_the_warning_is_for_a_sheet_filled_to_its_last_row_only(tmp_path: Path) -> None:
    path = tmp_path / "list.csv"
    path.write_text("Phone\n3035550100\n", encoding="utf-8")
    with open_sheet(path) as source:
        assert job_staging._last_row_sentence(source, 1_048_575, "list.csv", "import") == ""
        assert job_staging._last_row_sentence(source, 65_536, "list.csv", "import") == ""
        said = job_staging._last_row_sentence(source, 1_048_576, "list.csv", "removal")
    assert said.startswith("list.csv has data down to row 1,048,576, the last row Excel can hold")
    assert said.endswith("remove the rows after row 1,048,576 from there.")


def _watched(rows: list[tuple[int, list[object]]]) -> tuple[int, bool]:
    last = job_staging._LastRow()
    assert list(last.watch(rows)) == rows  # every row passes on, blank or not
    return last.number, last.run


def test_one_stray_cell_on_the_last_row_is_not_a_sheet_cut_off_there() -> None:
    # Re-test U1 F6: two numbers and one stray cell on row 1,048,576 were said to be a sheet
    # whose rows after that one were most likely cut off.
    stray = [(2, ["3035550100"]), (3, ["3035550101"]), (1_048_576, [None, "x"])]
    assert _watched(stray) == (1_048_576, False)
    filled = [(1_048_574, ["3035550100"]), (1_048_575, ["", 7]), (1_048_576, ["3035550102"])]
    assert _watched(filled) == (1_048_576, True)
    # Blank rows after the data are not data reaching the last row.
    trailing = [(2, ["3035550100"]), (1_048_575, [None, ""]), (1_048_576, ["", None])]
    assert _watched(trailing) == (2, False)
