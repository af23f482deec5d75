"""Re-test U2 F3: in a workbook Excel or LibreOffice calculated, a phone column of formulas such as
``=IF(B3="","",B3)`` saves its empty results as ``t="str"`` with an empty value. Such rows were
invalid ("holds a formula … with no saved result … open and save the file … to calculate it"),
advice re-saving cannot follow; they are the empty cells they show. A formula a script wrote
(no type, no value) is still one never calculated."""

from __future__ import annotations

import json
from pathlib import Path

import openpyxl
import pytest

from app.cli.main import main
from tests.conftest import TOKEN
from tests.core import sheet_factory as f

_HEAD = (
    '<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/'
    'spreadsheetml/2006/main"><sheetData>'
)


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _sheet(kind: str) -> str:
    rows = [f'<row r="1">{f.cell("A1", "Phone")}{f.cell("B1", "Note")}</row>']
    for n in range(2, 7):
        if n % 2:  # rows 3 and 5: the formula gives empty text
            phone = f'<c r="A{n}"{kind}><f>IF(C{n}="","",C{n})</f><v></v></c>'
        else:
            phone = f'<c r="A{n}" t="str"><f>C{n}</f><v>303555010{n}</v></c>'
        rows.append(f'<row r="{n}">{phone}{f.cell(f"B{n}", "stop")}</row>')
    return _HEAD + "".join(rows) + "</sheetData></worksheet>"


def _dry_run(capsys: pytest.CaptureFixture[str], path: Path) -> dict[str, object]:
    report = path.with_suffix(".report.xlsx")
    argv = ["import", str(path), "--into", "dnc", "--scope", "global", "--dry-run", "--json"]
    assert main([*argv, "--report", str(report)]) == 0
    data: dict[str, object] = json.loads(capsys.readouterr().out)
    rows = openpyxl.load_workbook(report)["Rows"].iter_rows(min_row=2, values_only=True)
    data["messages"] = {r[0]: r[6] or "" for r in rows}
    return data


def test_a_formula_calculated_to_empty_text_is_an_empty_cell(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = f.write_raw_xlsx(tmp_path / "calculated.xlsx", _sheet(' t="str"'))
    data = _dry_run(capsys, path)
    assert (data["rows"], data["valid"], data["invalid"]) == (5, 3, 2)
    assert not any("saved result" in w or "saved value" in w for w in data["warnings"])  # type: ignore[attr-defined]
    for row in (3, 5):
        message = data["messages"][row]  # type: ignore[index]
        assert message.startswith(f"row {row}: phone:") and "saved result" not in message


def test_a_formula_a_script_wrote_is_still_one_never_calculated(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = f.write_raw_xlsx(tmp_path / "script.xlsx", _sheet(""))
    data = _dry_run(capsys, path)
    assert (data["rows"], data["valid"], data["invalid"]) == (5, 3, 2)
    assert any("formulas with no saved values (2 cells)" in w for w in data["warnings"])  # type: ignore[attr-defined]
    assert "with no saved result" in data["messages"][3]  # type: ignore[index]
