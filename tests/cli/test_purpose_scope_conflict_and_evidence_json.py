"""Black-box findings D7 and D8.

D7: ``import --scope purpose:X --purpose Y`` (Y not X) made every row invalid and exited 0
"finished"; the two options contradict each other and are refused before anything is read.
D8: ``evidence --json`` printed indented JSON over many lines; every command prints one line.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.cli.main import main
from app.core.paths import AppPaths
from tests.conftest import TOKEN


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _import(src: Path, scope: str, purpose: str, *extra: str) -> list[str]:
    return ["import", str(src), "--into", "dnc", "--scope", scope, "--purpose", purpose, *extra]


@pytest.mark.parametrize("json_flag", [False, True])
def test_a_purpose_scope_and_another_purpose_are_refused_before_anything_is_read(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str], json_flag: bool
) -> None:
    src = tmp_path / "numbers.csv"
    src.write_text("Phone\n2025554801\n")
    extra = ["--base-url", sandbox.base_url] + (["--json"] if json_flag else [])
    code = main(_import(src, "purpose:TEXT", "Telemarketing", *extra))
    captured = capsys.readouterr()
    sentence = (
        "--scope 'purpose:TEXT' and --purpose 'Telemarketing' name different purposes: leave "
        "out --purpose (rows without a purpose take the scope's) or give both the same purpose."
    )
    assert code == 2
    assert sentence in captured.err
    if json_flag:
        assert json.loads(captured.out) == {"error": sentence, "exit_status": 2}
    else:
        assert captured.out == ""
    assert sandbox.store.all("SELECT id FROM dnc") == []
    jobs = AppPaths.default().jobs_dir
    assert not jobs.exists() or not any(jobs.iterdir())


def test_the_refusal_comes_before_the_file_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "not-there.csv"
    code = main(_import(missing, "purpose:Surveys", "Marketing", "--dry-run"))
    assert code == 2
    assert "name different purposes" in capsys.readouterr().err


def test_the_scopes_own_purpose_in_another_case_is_accepted(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The rows' check ignores case (the row is sent with the scope's own text): so does this.
    src = tmp_path / "numbers.csv"
    src.write_text("Phone\n2025554802\n")
    url = ["--base-url", sandbox.base_url, "--json"]
    code = main(_import(src, "purpose:Telemarketing", "telemarketing", *url))
    data = json.loads(capsys.readouterr().out)
    assert code == 0 and (data["inserted"], data["invalid"]) == (1, 0)
    (row,) = sandbox.store.all("SELECT purpose FROM dnc")
    assert row["purpose"] == "Telemarketing"


def test_evidence_json_is_one_line(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "numbers.csv"
    src.write_text("Phone,Reason\n3035550101,asked\n")
    url = ["--base-url", sandbox.base_url]
    assert main(["import", str(src), "--into", "dnc", "--scope", "global", *url, "--json"]) == 0
    capsys.readouterr()
    # Exit status 3: the number is on a list (evidence_cmd's docstring; the README says so).
    assert main(["evidence", "3035550101", *url, "--json"]) == 3
    out = capsys.readouterr().out
    assert out.count("\n") == 1 and out.endswith("\n")
    data = json.loads(out)
    assert data["number"] == "+13035550101" and len(data["dnc"]) == 1


def test_evidence_help_gives_its_exit_statuses(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["evidence", "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    assert "3 it is on a DNC or SMS opt-out list" in help_text
