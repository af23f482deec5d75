"""Black-box B30 F9, F11 and B31, CLI words.

F9 (a): ``--connection NAME`` naming no saved connection said only that there was none; it now
names the saved ones and how to connect without one (--base-url with the token in
DNC_DESK_TOKEN).
F11: a job's stored default name was "import of x.csv" (`jobs`, --json, the report's Summary)
while the window and the result line wrote "Import of x.csv"; it is stored with the capital.
B31: ``remove FILE --into sms-opt-out`` got argparse's "unrecognized arguments"; it is refused
saying removal works on the DNC list only, exit 2, its --json error the parser's last line.
"""

from __future__ import annotations

import json
from pathlib import Path

import openpyxl
import pytest

from app.cli.main import main
from app.core.connections import Connection, ConnectionStore
from app.core.paths import AppPaths
from tests.conftest import TOKEN


@pytest.fixture(autouse=True)
def env_token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def _csv(path: Path) -> Path:
    path.write_text("Phone\n3035550100\n", encoding="utf-8")
    return path


# F9 (a) ------------------------------------------------------------------------------------


def test_an_unknown_connection_says_how_to_connect_without_one(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    src = _csv(tmp_path / "a.csv")
    status, out, err = _run(
        capsys, "import", str(src), "--into", "dnc", "--scope", "global", "--connection", "Prod"
    )
    assert (status, out) == (2, "")
    assert err.strip() == (
        "There is no saved connection named 'Prod' (none is saved on this computer): save it "
        "in the window, or run with --base-url URL and the token in the environment variable "
        "DNC_DESK_TOKEN instead."
    )


def test_an_unknown_connection_names_the_saved_ones(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    store = ConnectionStore(AppPaths.default().connections_file)
    store.save(Connection("Production", "https://api.example.com"))
    store.save(Connection("Sandbox", "http://127.0.0.1:9"))
    src = _csv(tmp_path / "a.csv")
    argv = ["remove", str(src), "--scope", "global", "--note", "n", "--connection", "Prod"]
    status, out, err = _run(capsys, *argv, "--json")
    assert status == 2
    said = (
        "There is no saved connection named 'Prod' (the saved ones are 'Production', "
        "'Sandbox'): give one of those, or run with --base-url URL and the token in the "
        "environment variable DNC_DESK_TOKEN instead."
    )
    assert json.loads(out) == {"error": said, "exit_status": 2}
    assert err.strip() == said


# F11 ---------------------------------------------------------------------------------------


def test_the_stored_default_name_has_a_capital(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    src = _csv(tmp_path / "x.csv")
    report = tmp_path / "r.xlsx"
    argv = ["import", str(src), "--into", "dnc", "--scope", "global", "--dry-run"]
    status, out, _ = _run(capsys, *argv, "--report", str(report), "--json")
    assert status == 0
    assert json.loads(out)["name"] == "Import of x.csv"
    summary = openpyxl.load_workbook(report)["Summary"]
    assert {r[0]: r[1] for r in summary.iter_rows(values_only=True)}["Name"] == "Import of x.csv"

    status, out, _ = _run(capsys, "remove", str(src), "--scope", "global", "--dry-run", "--json")
    assert status == 0
    assert json.loads(out)["name"] == "Removal of x.csv"

    status, out, _ = _run(capsys, "jobs", "--all", "--json")
    assert status == 0
    listed = json.loads(out)
    jobs = listed["jobs"] if isinstance(listed, dict) else listed
    assert sorted(j["name"] for j in jobs) == ["Import of x.csv", "Removal of x.csv"]
    status, out, _ = _run(capsys, "jobs", "--all")
    assert "Import of x.csv" in out and "import of x.csv" not in out


# B31 ---------------------------------------------------------------------------------------

INTO = (
    "dnc-desk remove: error: argument --into: remove works on the DNC list only and takes no "
    "--into (the service's API has no delete for SMS opt-outs): leave the option out to take "
    "the numbers off the DNC list"
)


@pytest.mark.parametrize("into", [["--into", "sms-opt-out"], ["--into=dnc"], ["--into"]])
def test_remove_into_is_refused_saying_removal_is_of_the_dnc_list(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, into: list[str]
) -> None:
    src = _csv(tmp_path / "a.csv")
    with pytest.raises(SystemExit) as exit_:
        main(["remove", str(src), *into, "--scope", "global", "--dry-run"])
    assert exit_.value.code == 2
    out, err = capsys.readouterr()
    assert err.splitlines()[-1] == INTO
    assert out == ""


def test_remove_into_under_json_is_the_parsers_last_line(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    src = _csv(tmp_path / "a.csv")
    with pytest.raises(SystemExit) as exit_:
        main(["remove", str(src), "--into", "sms-opt-out", "--scope", "global", "--json"])
    assert exit_.value.code == 2
    out, err = capsys.readouterr()
    assert json.loads(out) == {"error": INTO, "exit_status": 2}
    assert err.splitlines()[-1] == INTO
