"""Black-box findings D9 and D10: the wording of refusals, and what a paused or resumed job says.

D9: a refused token names where the token came from (``DNC_DESK_TOKEN`` with ``--base-url``,
the connection with ``--connection``) and the action that did not happen, in one sentence;
``--scope`` refusals are capitalised sentences naming ``--scope``, and ``--scope
campaign:NAME`` takes a campaign by its name, as the file's cells may; a folder given as the
file is called a folder; sheet names listed in a refusal are quoted.

D10: a job paused by a signal (or by the service) prints its counts in text mode before the
resume line, as ``--json`` has them; a resume whose source file changed since the job was
made says so, and still sends the job's own rows.
"""

from __future__ import annotations

import csv
import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.cli.main import main
from app.core.connections import Connection, ConnectionStore
from app.core.job_catalog import SOURCE_MTIME_NS, SOURCE_SHA256, SOURCE_SIZE
from app.core.job_store import JobStore
from app.core.paths import AppPaths
from app.core.tokens import TokenStore
from tests.conftest import READ_ONLY_TOKEN, TOKEN

ROOT = Path(__file__).resolve().parents[2]
INVALID_TOKEN = "Invalid or expired authentication token"


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _csv(path: Path, numbers: list[str]) -> Path:
    with path.open("w", newline="") as fh:
        writer = csv.writer(fh)
        writer.writerow(["Phone"])
        writer.writerows([[n] for n in numbers])
    return path


def _two(tmp_path: Path) -> Path:
    return _csv(tmp_path / "two.csv", ["3035550101", "3035550102"])


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, str, str]:
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def _one_sentence(text: str) -> None:
    assert "\n" not in text.strip(), text
    assert text[0].isupper() and text.rstrip().endswith("."), text


# -- D9 (a): a refused token -------------------------------------------------------------------


def test_a_refused_token_with_base_url_names_the_variable_and_the_action(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: Any
) -> None:
    src = _two(tmp_path)
    monkeypatch.setenv("DNC_DESK_TOKEN", "tok-wrong-7777")
    refused = (
        f"the token in DNC_DESK_TOKEN was refused by the service at {sandbox.base_url} "
        f"({INVALID_TOKEN})."
    )
    url = ["--base-url", sandbox.base_url]
    for argv, action in (
        (["import", str(src), "--into", "dnc", "--scope", "global"], "Import"),
        (["import", str(src), "--into", "dnc", "--scope", "global", "--dry-run"], "Dry run"),
        (["remove", str(src), "--scope", "global", "--note", "asked"], "Removal"),
    ):
        code, out, err = _run(capsys, [*argv, *url])
        assert (code, out) == (1, ""), err
        assert err == f"{action} of two.csv not started: {refused}\n"
        _one_sentence(err)
        assert "tok-wrong-7777" not in err
        code, out, err = _run(capsys, [*argv, *url, "--json"])
        assert json.loads(out) == {"error": err.strip(), "exit_status": 1}
    assert not list(AppPaths.default().jobs_dir.glob("*.dncjob"))


def test_a_refused_token_with_connection_names_the_connection(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: Any
) -> None:
    monkeypatch.delenv("DNC_DESK_TOKEN")
    ConnectionStore(AppPaths.default().connections_file).save(
        Connection("Production", sandbox.base_url)
    )
    TokenStore().set("Production", "tok-wrong-8888")
    argv = ["import", str(_two(tmp_path)), "--into", "dnc", "--scope", "global"]
    code, _, err = _run(capsys, [*argv, "--connection", "Production"])
    assert code == 1
    assert err == (
        "Import of two.csv not started: the token of the connection 'Production' was refused "
        f"by the service at {sandbox.base_url} ({INVALID_TOKEN}).\n"
    )


def test_a_refused_token_on_resume_names_the_job(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: Any
) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", READ_ONLY_TOKEN)
    argv = ["import", str(_two(tmp_path)), "--into", "dnc", "--scope", "global", "--json"]
    code, out, _ = _run(capsys, [*argv, "--base-url", sandbox.base_url])
    job = json.loads(out)["job"]
    assert code == 1
    monkeypatch.setenv("DNC_DESK_TOKEN", "tok-wrong-9999")
    code, _, err = _run(capsys, ["import", "--resume", job])
    assert code == 1
    assert err == (
        f"Job {job} not resumed: the token in DNC_DESK_TOKEN was refused by the service at "
        f"{sandbox.base_url} ({INVALID_TOKEN}).\n"
    )


# -- D9 (b): --scope ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("scope", "sentence"),
    [
        (
            "campaign:",
            "The scope 'campaign:' given with --scope names no campaign: write campaign:ID or "
            "campaign:NAME (its id or its name).",
        ),
        (
            "campaign",
            "The scope 'campaign' given with --scope names no campaign: write campaign:ID or "
            "campaign:NAME (its id or its name).",
        ),
        (
            "campaign:0",
            "The scope 'campaign:0' given with --scope names campaign 0, which is the global "
            "scope: write --scope global, or campaign:ID or campaign:NAME for a campaign.",
        ),
        (
            "nonsense",
            "The scope 'nonsense' given with --scope is not a scope: write global, campaign:ID, "
            "campaign:NAME or purpose:TEXT.",
        ),
    ],
)
def test_a_scope_refusal_is_a_sentence_naming_scope(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], scope: str, sentence: str
) -> None:
    for command in (["import", "--into", "dnc"], ["remove"]):
        argv = [command[0], str(_two(tmp_path)), *command[1:], "--scope", scope, "--dry-run"]
        code, out, err = _run(capsys, argv)
        assert (code, out, err) == (2, "", sentence + "\n")
        _one_sentence(err)


def test_a_campaign_named_by_its_name_in_scope_is_resolved(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    solar = sandbox.seed_campaign("Solar Savings Outreach")
    src = _two(tmp_path)
    base = ["import", str(src), "--into", "dnc", "--base-url", sandbox.base_url, "--json"]
    # Matched as the file's campaign cells are: case and surrounding spaces do not count.
    code, out, err = _run(capsys, [*base, "--scope", "campaign: solar savings OUTREACH "])
    assert code == 0, err
    data = json.loads(out)
    assert data["inserted"] == 2
    with JobStore(Path(data["job_file"])) as store:
        assert store.meta()["scope"] == f"campaign:{solar}"
    ids = {r["campaign_id"] for r in sandbox.store.all("SELECT campaign_id FROM dnc")}
    assert ids == {int(solar)}
    # A removal takes it the same way.
    argv = ["remove", str(src), "--scope", "campaign:Solar Savings Outreach", "--note", "asked"]
    code, out, err = _run(capsys, [*argv, "--base-url", sandbox.base_url, "--json"])
    assert code == 0 and json.loads(out)["removed"] == 2, err
    assert sandbox.store.scalar("SELECT count(*) FROM dnc") == 0


def test_a_campaign_name_no_campaign_or_two_have_is_refused(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    base = ["import", str(_two(tmp_path)), "--into", "dnc", "--base-url", sandbox.base_url]
    code, out, err = _run(capsys, [*base, "--scope", "campaign:abc"])
    assert (code, out) == (2, "")
    assert err == (
        f"No campaign on the service at {sandbox.base_url} is named 'abc' (--scope "
        "campaign:abc); its campaigns are 1 ('Spring Renewals') and 2 ('Old Winback'): give "
        "one's id (campaign:ID) or its name as the service lists it (campaign:NAME).\n"
    )
    first = sandbox.seed_campaign("Winback")
    second = sandbox.seed_campaign("winback ")
    code, out, err = _run(capsys, [*base, "--scope", "campaign:WINBACK"])
    assert (code, out) == (2, "")
    assert err == (
        f"Campaigns {first} ('Winback') and {second} ('winback ') on the service at "
        f"{sandbox.base_url} all have, case and surrounding spaces aside, the name 'WINBACK', "
        "so --scope campaign:WINBACK does not say which: give --scope campaign:ID with the id "
        "of the one you mean.\n"
    )
    _one_sentence(err)
    # Among names alike but for case, the one written exactly as given is the one meant.
    code, out, err = _run(capsys, [*base, "--scope", "campaign:Winback", "--dry-run", "--json"])
    assert code == 0, err
    with JobStore(Path(json.loads(out)["job_file"])) as store:
        assert store.meta()["scope"] == f"campaign:{first}"
    # A dry run with no connection has no campaign list to look the name up in.
    argv = ["import", str(_two(tmp_path)), "--into", "dnc", "--scope", "campaign:Winback"]
    code, out, err = _run(capsys, [*argv, "--dry-run"])
    assert (code, out) == (2, "")
    assert err.startswith(
        "The scope 'campaign:Winback' given with --scope names a campaign by its name, and a "
        "dry run without --connection or --base-url has no campaign list to find it in"
    )
    _one_sentence(err)
    assert sandbox.store.scalar("SELECT count(*) FROM dnc") == 0


# -- D9 (c), (d): a folder as the file; sheet names quoted -----------------------------------


def test_a_folder_given_as_the_file_is_called_a_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "adir.csv").mkdir()
    for command in (["import", "--into", "dnc"], ["remove"]):
        argv = [command[0], str(tmp_path / "adir.csv"), *command[1:], "--scope", "global"]
        code, out, err = _run(capsys, [*argv, "--dry-run"])
        assert (code, out) == (1, "")
        assert err == (
            f"adir.csv is a folder, not a file: give the path of the spreadsheet to {command[0]}.\n"
        )
        code, out, err = _run(capsys, [*argv, "--dry-run", "--json"])
        assert json.loads(out) == {"error": err.strip(), "exit_status": 1}


def test_sheet_names_listed_in_a_refusal_are_quoted(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    wb = openpyxl.Workbook()
    cover = wb.active
    assert cover is not None
    cover.title = "Cover"
    notes = wb.create_sheet("Instructions")
    notes.append(["Send opt-outs to compliance@example.com"])
    for name in ("Hidden Old", "  Lista Bajas  "):
        sheet = wb.create_sheet(name)
        sheet.append(["Phone"])
        sheet.append(["3035551200"])
    path = tmp_path / "sheets.xlsx"
    wb.save(path)
    argv = ["import", str(path), "--into", "dnc", "--scope", "global", "--dry-run"]
    code, _, err = _run(capsys, [*argv, "--sheet", "Instructions"])
    assert code == 1
    assert "--sheet ('Cover', 'Hidden Old', '  Lista Bajas  ')" in err, err


# -- D10: a paused job's counts; a resume from a changed file -------------------------------------


def test_a_job_paused_by_the_service_prints_its_counts_in_text_mode(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: Any
) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", READ_ONLY_TOKEN)
    argv = ["import", str(_two(tmp_path)), "--into", "dnc", "--scope", "global"]
    code, out, err = _run(capsys, [*argv, "--base-url", sandbox.base_url])
    assert code == 1
    lines = out.splitlines()
    assert lines[0] == "Import of two.csv: paused."
    assert "rows: 2, valid: 2," in lines[2] and "inserted: 0" in lines[2]
    assert "pending: 2" in lines[2]
    assert lines[-1].startswith("  job: import-")
    assert "Resume with: dnc-desk import --resume " in err.splitlines()[-1]


@pytest.mark.slow
def test_a_job_paused_by_sigint_prints_its_counts_before_the_resume_line(
    sandbox: Any, tmp_path: Path
) -> None:
    sandbox.set_faults(latency_ms=40)
    src = _csv(tmp_path / "in.csv", [f"303555{i:04d}" for i in range(300)])
    paths = AppPaths.default()
    output = tmp_path / "out.txt"
    env = {
        **os.environ,
        "DNC_DESK_TOKEN": TOKEN,
        "DNC_DESK_DATA_DIR": str(paths.data_dir),
        "DNC_DESK_CONFIG_DIR": str(paths.config_dir),
    }
    argv = ["import", str(src), "--into", "dnc", "--scope", "global", "--concurrency", "2"]
    with output.open("wb") as fh:  # stdout and stderr in one file, in the order written
        proc = subprocess.Popen(
            [sys.executable, "-m", "app", *argv, "--base-url", sandbox.base_url],
            cwd=ROOT,
            env=env,
            stdout=fh,
            stderr=fh,
        )
    deadline = time.monotonic() + 60
    while sandbox.store.scalar("SELECT count(*) FROM dnc") < 20:
        assert time.monotonic() < deadline and proc.poll() is None, output.read_text()
        time.sleep(0.05)
    proc.send_signal(signal.SIGINT)
    assert proc.wait(timeout=30) == 130
    lines = output.read_text().splitlines()
    paused = lines.index("Import of in.csv: paused.")
    counts = lines[paused + 2]
    inserted = int(re.search(r"inserted: ([\d,]+)", counts)[1].replace(",", ""))  # type: ignore[index]
    pending = int(re.search(r"pending: ([\d,]+)", counts)[1].replace(",", ""))  # type: ignore[index]
    assert inserted >= 20 and pending > 0 and inserted + pending == 300
    assert lines[-1].startswith("Interrupted: job paused. Resume with: dnc-desk import --resume ")
    assert paused < len(lines) - 1


def _paused_import(sandbox: Any, src: Path, capsys: Any, monkeypatch: Any) -> str:
    """An import paused at its first row by a token that may read but not write."""
    monkeypatch.setenv("DNC_DESK_TOKEN", READ_ONLY_TOKEN)
    argv = ["import", str(src), "--into", "dnc", "--scope", "global", "--json"]
    code, out, _ = _run(capsys, [*argv, "--base-url", sandbox.base_url])
    assert code == 1
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
    return str(json.loads(out)["job"])


def test_a_resume_from_a_changed_file_says_so_and_sends_the_jobs_rows(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: Any
) -> None:
    src = _csv(tmp_path / "mod.csv", ["3035550201", "3035550202", "3035550203"])
    job = _paused_import(sandbox, src, capsys, monkeypatch)
    _csv(src, ["7205550999"])  # replaced by another list
    code, out, err = _run(capsys, ["import", "--resume", job, "--json"])
    assert code == 0, err
    note = re.fullmatch(
        rf"note: {re.escape(str(src))} has changed: it is 19 bytes now, 43 then \(modified "
        rf"\d{{4}}-\d\d-\d\d \d\d:\d\d UTC\); job {job} sends the rows it read from it when it was "
        r"made, not the file as it is now\.",
        err.splitlines()[0],
    )
    assert note, err
    data = json.loads(out)
    assert err.splitlines()[0].removeprefix("note: ") in data["warnings"]
    assert data["inserted"] == 3  # the job's own rows, not the file's new one
    numbers = {r["phone_number"] for r in sandbox.store.all("SELECT phone_number FROM dnc")}
    assert numbers == {"3035550201", "3035550202", "3035550203"}


def test_a_resume_says_nothing_of_an_unchanged_file_and_names_a_missing_one(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: Any
) -> None:
    numbers = ["3035550301", "3035550302"]
    first = _paused_import(sandbox, _csv(tmp_path / "a.csv", numbers), capsys, monkeypatch)
    # Written again with the same content (a newer time): not a change.
    time.sleep(0.05)
    _csv(tmp_path / "a.csv", numbers)
    code, _, err = _run(capsys, ["import", "--resume", first])
    assert code == 0 and "note:" not in err, err
    gone = tmp_path / "b.csv"
    second = _paused_import(sandbox, _csv(gone, ["3035550303"]), capsys, monkeypatch)
    gone.unlink()
    code, _, err = _run(capsys, ["import", "--resume", second])
    assert code == 0
    assert err.startswith(
        f"note: {gone} is no longer there; job {second} sends the rows it read from it when it "
        "was made, not the file as it is now.\n"
    ), err


def test_a_job_made_without_a_fingerprint_counts_a_later_modification(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: Any
) -> None:
    """A job made by an older version (or the window) holds no fingerprint of its file."""
    src = _csv(tmp_path / "old.csv", ["3035550401"])
    job = _paused_import(sandbox, src, capsys, monkeypatch)
    path = AppPaths.default().jobs_dir / f"{job}.dncjob"
    with JobStore(path) as store:
        assert {SOURCE_SIZE, SOURCE_MTIME_NS, SOURCE_SHA256} <= set(store.meta())
        store.set_meta({SOURCE_SIZE: None, SOURCE_MTIME_NS: None, SOURCE_SHA256: None})
    later = time.time() + 120
    os.utime(src, (later, later))
    code, _, err = _run(capsys, ["import", "--resume", job])
    assert code == 0
    assert re.match(rf"note: {re.escape(str(src))} was modified \S+ \S+ UTC, after the job", err), (
        err
    )
