"""A file of Phone and Purpose columns and no Scope column (black-box bb4 F5): run with
``--scope global`` its Purpose cells went in as written ('marketing' beside the list's
'Marketing', 'Marketing;Surveys' as one purpose), as only purpose-scope rows were compared with
the list's purposes; run with ``--scope purpose`` it was refused for want of --purpose with no
word of how the file's Purpose column becomes each row's scope."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from app.cli.main import main
from tests.conftest import TOKEN

ROWS = [
    ("(415) 555-0311", "marketing"),
    ("(415) 555-0312", "Marketing;Surveys"),
    ("(415) 555-0313", "SURVEYS"),
    ("(415) 555-0314", "Marketing"),
]


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _file(tmp_path: Path, scope_column: bool = False) -> Path:
    path = tmp_path / "purp.csv"
    head = "Phone,Scope,Purpose" if scope_column else "Phone,Purpose"
    lines = [f'"{p}",purpose,{q}' if scope_column else f'"{p}",{q}' for p, q in ROWS]
    path.write_text("\n".join([head, *lines]) + "\n")
    return path


def test_global_rows_purposes_take_the_lists_spelling_and_one_each(
    make_sandbox: Callable[..., Any], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "sandbox.db"
    server = make_sandbox(db_path=db)
    server.bulk_seed_dnc(
        [("2025550101", "1", "-1", "", "Marketing"), ("2025550102", "1", "-1", "", "Surveys")]
    )
    argv = ["import", str(_file(tmp_path)), "--into", "dnc", "--scope", "global"]
    argv += ["--base-url", server.base_url, "--note", "bb4 F5"]
    main(argv)
    out = capsys.readouterr()
    assert "Traceback" not in out.err
    with sqlite3.connect(db) as con:
        sent = dict(
            con.execute(
                "SELECT phone_number, purpose FROM dnc WHERE campaign_id = '0' "
                "AND phone_number LIKE '41555503%'"
            ).fetchall()
        )
    assert sent == {"4155550311": "Marketing", "4155550313": "Surveys", "4155550314": "Marketing"}
    said = out.out + out.err
    assert "'marketing' as 'Marketing'" in said
    assert "more than one of the DNC list's purposes in one cell (row 3)" in said


def test_scope_purpose_without_purpose_names_the_files_purpose_column(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["import", str(_file(tmp_path)), "--into", "dnc", "--scope", "purpose", "--dry-run"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "--purpose is missing" in err
    assert "purp.csv has a purpose column, column B ('Purpose')" in err
    assert "add a Scope column with 'purpose' on those rows and give --scope global" in err


def test_scope_purpose_with_a_scope_column_says_which_rows_take_their_purpose(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _file(tmp_path, scope_column=True)
    argv = ["import", str(path), "--into", "dnc", "--scope", "purpose", "--dry-run"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "a row whose Scope cell (column B ('Scope')) says 'purpose'" in err
    assert "give --scope global" in err


def test_scope_purpose_of_a_file_without_purpose_column_is_refused_as_before(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "plain.csv"
    path.write_text("Phone\n4155550311\n")
    argv = ["import", str(path), "--into", "dnc", "--scope", "purpose", "--dry-run"]
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert "--purpose is missing" in err and "purpose column" not in err
