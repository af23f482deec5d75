"""``dnc-desk remove`` of a file whose phone column is hidden (the black-box finding: a hidden
"Phone" column read over a visible "Phone (corrected)" one): refused in one sentence unless
``--phone-column`` names the column or ``--include-hidden`` is given; ``import`` warns only."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.cli.main import main
from tests.core.test_hidden_phone_column import HEAD, HIDDEN_WARNING, corrected


@pytest.fixture(autouse=True)
def _dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("DNC_DESK_DATA_DIR", str(tmp_path / "data"))


def dry_run(capsys: pytest.CaptureFixture[str], *argv: str) -> dict[str, Any]:
    assert main([*argv, "--scope", "global", "--dry-run", "--json"]) == 0
    return dict(json.loads(capsys.readouterr().out))


def phones_read(report: str) -> list[str]:
    import openpyxl

    book = openpyxl.load_workbook(report, read_only=True)
    rows = list(book["Rows"].iter_rows(values_only=True))[1:]
    book.close()
    return [str(r[1]) for r in rows]


def test_a_removal_from_a_hidden_phone_column_is_refused_by_default(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = corrected(tmp_path / "review.xlsx")
    code = main(["remove", str(path), "--scope", "global", "--dry-run"])
    out, err = capsys.readouterr()
    assert code == 1 and out == ""
    assert err.strip() == (
        f"{HEAD.format(name='review.xlsx')}; name the phone column with --phone-column, as "
        "column:B for column B ('Phone (corrected)'), which is shown, or column:A for the hidden "
        "one; or include hidden rows and columns (--include-hidden)."
    )
    assert not list((tmp_path / "data" / "jobs").glob("*.dncjob"))  # nothing staged
    # The same under --json: the sentence is the error.
    assert main(["remove", str(path), "--scope", "global", "--dry-run", "--json"]) == 1
    out, err = capsys.readouterr()
    assert json.loads(out) == {"error": err.strip(), "exit_status": 1}


def test_phone_column_chooses_the_column_to_remove(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = corrected(tmp_path / "review.xlsx")
    data = dry_run(capsys, "remove", str(path), "--phone-column", "column:B")
    assert (data["rows"], data["pending"], data["warnings"]) == (2, 2, [])
    assert phones_read(data["report"]) == ["2025550201", "2025550202"]
    # Named, the hidden one is read too, with the warning.
    data = dry_run(capsys, "remove", str(path), "--phone-column", "Phone")
    assert data["warnings"] == [HIDDEN_WARNING.format(name="review.xlsx")]
    assert phones_read(data["report"]) == ["2025550101", "2025550102"]


def test_include_hidden_takes_the_hidden_phone_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = corrected(tmp_path / "review.xlsx")
    data = dry_run(capsys, "remove", str(path), "--include-hidden")
    assert (data["rows"], data["pending"]) == (2, 2)
    assert HIDDEN_WARNING.format(name="review.xlsx") in data["warnings"]
    assert phones_read(data["report"]) == ["2025550101", "2025550102"]


def test_an_import_warns_only(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = corrected(tmp_path / "review.xlsx")
    data = dry_run(capsys, "import", str(path), "--into", "dnc")
    assert (data["rows"], data["pending"]) == (2, 2)
    assert HIDDEN_WARNING.format(name="review.xlsx") in data["warnings"]
