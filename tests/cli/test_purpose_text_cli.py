"""Black-box findings (third pass) 2, 3, 8, 9 and the --resume options, through the CLI.

2: a row in purpose scope with no purpose text is invalid (the service refuses it, 6058).
3: invisible characters (Unicode Cf) are not part of purpose, scope or reason text.
8: ``--scope purpose:`` with nothing after it is refused; only ``purpose`` means every purpose.
9: purposes are matched exactly, as the service stores them ("surveys" is another purpose).
11: ``--resume`` refuses the options of a new job instead of dropping them without a word.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.api.client import ApiClient, DncQuery
from app.api.scope import Scope
from app.cli.main import main
from app.core.connections import Connection
from app.core.job_staging import JobSettings
from app.core.job_store import JobStore
from app.core.journal import ChangeJournal
from app.core.paths import AppPaths
from app.core.removal_job import stage_removal
from tests.conftest import TOKEN


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> dict[str, Any]:
    main(argv)
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    data: dict[str, Any] = json.loads(captured.out)
    return data


def _messages(data: dict[str, Any]) -> dict[str, tuple[str, str]]:
    with JobStore(Path(data["job_file"])) as store:
        return {r.original: (r.outcome or r.state, r.message) for r in store.rows()}


def _entries(base_url: str, number: str) -> list[tuple[str, str, str]]:
    with ApiClient(base_url, TOKEN) as api:
        found = api.iter_dnc(DncQuery(phone_number=number))
        return sorted((e.scope.api_campaign_id, e.purpose, e.reason) for e in found)


# ---------------------------------------------------------------- finding 2


def test_an_import_row_in_purpose_scope_without_a_purpose_is_invalid(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "pblank.csv"
    src.write_text(
        "Phone,Scope,Campaign,Purpose\n"
        "2025554701,purpose,,\n"  # scope cell purpose, no purpose
        "2025554702,,-1,\n"  # the service's own -1, no purpose
        "2025554703,purpose,,Surveys\n"  # fine
    )
    url = ["--base-url", sandbox.base_url, "--json"]
    dry = _run(
        capsys, ["import", str(src), "--into", "dnc", "--scope", "global", "--dry-run", "--json"]
    )
    assert (dry["valid"], dry["invalid"]) == (1, 2)
    data = _run(capsys, ["import", str(src), "--into", "dnc", "--scope", "global", *url])
    assert (data["inserted"], data["invalid"], data["failed"]) == (1, 2, 0)
    rows = _messages(data)
    assert rows["2025554701"] == ("invalid", "row 2: purpose: a purpose scope needs a purpose")
    assert rows["2025554702"] == ("invalid", "row 3: purpose: a purpose scope needs a purpose")
    assert _entries(sandbox.base_url, "2025554701") == []
    assert _entries(sandbox.base_url, "2025554702") == []


def test_a_removal_row_in_purpose_scope_without_a_purpose_is_invalid(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # The black-box reproduction (in/prow.csv row 4): an empty Purpose cell under scope
    # purpose removed both Marketing and Surveys.
    with ApiClient(sandbox.base_url, TOKEN) as api:
        for number in ("2025554711", "2025554712"):
            for purpose in ("Marketing", "Surveys"):
                api.insert_dnc(number, "1", Scope.purpose(purpose))
    src = tmp_path / "prow.csv"
    src.write_text("Phone,Scope,Campaign,Purpose\n2025554711,purpose,,\n2025554712,,-1,\n")
    url = ["--base-url", sandbox.base_url, "--json"]
    data = _run(capsys, ["remove", str(src), "--scope", "global", *url, "--note", "Asked"])
    assert (data["removed"], data["invalid"]) == (0, 2)
    hint = "to remove every purpose, give the whole file --scope purpose"
    rows = _messages(data)
    assert rows["2025554711"] == (
        "invalid",
        f"row 2: purpose: a purpose scope needs a purpose; {hint}",
    )
    assert rows["2025554712"][1] == f"row 3: purpose: a purpose scope needs a purpose; {hint}"
    for number in ("2025554711", "2025554712"):
        assert [p for _, p, _ in _entries(sandbox.base_url, number)] == ["Marketing", "Surveys"]


# ---------------------------------------------------------------- finding 8


@pytest.mark.parametrize("scope", ["purpose:", "purpose:   ", "purpose:\u200b", " Purpose: "])
def test_remove_scope_purpose_colon_with_no_text_is_refused(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str], scope: str
) -> None:
    # A script's --scope "purpose:$PURPOSE" with an empty variable must not mean every purpose.
    with ApiClient(sandbox.base_url, TOKEN) as api:
        api.insert_dnc("2025554721", "1", Scope.purpose("Surveys"))
    src = tmp_path / "p.csv"
    src.write_text("Phone\n2025554721\n")
    code = main(["remove", str(src), "--scope", scope, "--base-url", sandbox.base_url])
    err = capsys.readouterr().err
    assert code == 2, err
    assert "names no purpose" in err and "--scope purpose" in err
    assert _entries(sandbox.base_url, "2025554721") == [("-1", "Surveys", "")]
    code = main(["import", str(src), "--into", "dnc", "--scope", scope, "--dry-run"])
    assert code == 2


# ---------------------------------------------------------------- finding 3


def test_invisible_characters_are_not_part_of_purpose_scope_or_reason(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "zwp.csv"
    src.write_text(
        "Phone,Scope,Purpose,Reason,Campaign\n"
        "2025554601,purpose,Surveys\u200b,web\u200b form,\n"
        "2025554602,purpose,\u202aSurveys\u202c,\ufeffcall,\n"
        "2025554603,purpose:Surveys\u200b,,,\n"
        "2025554604,,,,\u2066-1\u2069\n",  # bidi-isolated -1: purpose from --purpose
        encoding="utf-8",
    )
    url = ["--base-url", sandbox.base_url, "--json"]
    data = _run(
        capsys,
        [
            "import",
            str(src),
            "--into",
            "dnc",
            "--scope",
            "global",
            "--purpose",
            "\u200bSurveys ",
            "--reason",
            " opt-out\u200e",
            *url,
        ],
    )
    assert (data["inserted"], data["invalid"], data["failed"]) == (4, 0, 0)
    assert _entries(sandbox.base_url, "2025554601") == [("-1", "Surveys", "web form")]
    assert _entries(sandbox.base_url, "2025554602") == [("-1", "Surveys", "call")]
    assert _entries(sandbox.base_url, "2025554603") == [("-1", "Surveys", "opt-out")]
    assert _entries(sandbox.base_url, "2025554604") == [("-1", "Surveys", "opt-out")]
    # --scope purpose:TEXT is cleaned too, so the removal finds "Surveys" as it is stored.
    # (Row 5 names no purpose of its own, and a removal has no --purpose: it is invalid.)
    argv = ["remove", str(src), "--scope", "purpose:Surveys\u200b", "--note", "Asked"]
    data = _run(capsys, [*argv, *url])
    assert (data["removed"], data["invalid"]) == (3, 1), _messages(data)


# ---------------------------------------------------------------- finding 9


def test_remove_one_purpose_matches_it_exactly(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with ApiClient(sandbox.base_url, TOKEN) as api:
        api.insert_dnc("2025550106", "1", Scope.purpose("Surveys"))
        api.insert_dnc("2025550106", "1", Scope.purpose("surveys"))
        api.insert_dnc("2025550107", "1", Scope.purpose("surveys"))
    src = tmp_path / "pr.csv"
    src.write_text("Phone\n2025550106\n2025550107\n")
    url = ["--base-url", sandbox.base_url, "--json"]
    data = _run(capsys, ["remove", str(src), "--scope", "purpose:Surveys", *url, "--note", "Asked"])
    assert (data["removed"], data["failed"], data["not_found"]) == (0, 1, 1)
    rows = _messages(data)
    assert rows["2025550106"][0] == "failed"
    assert "also on the list for purpose 'surveys'" in rows["2025550106"][1]
    assert rows["2025550107"] == (
        "not_found",
        "not on the list for purpose 'Surveys'; the number's entries for purpose 'surveys' "
        "were left on the list (nothing was sent)",
    )
    assert [p for _, p, _ in _entries(sandbox.base_url, "2025550106")] == ["Surveys", "surveys"]
    assert [p for _, p, _ in _entries(sandbox.base_url, "2025550107")] == ["surveys"]
    journal = ChangeJournal(AppPaths.default().journal_db)
    try:
        assert [e for e in journal.query(job=data["job"]) if e.operation == "dnc.delete"] == []
    finally:
        journal.close()


# ---------------------------------------------------------------- --resume


def _staged_job(sandbox: Any, tmp_path: Path) -> str:
    """A removal job staged and not yet run (as the GUI or an interrupted CLI leaves one)."""
    src = tmp_path / "r.csv"
    src.write_text("Phone\n2025554801\n")
    store, _ = stage_removal(
        JobSettings(src, Scope.global_()),
        AppPaths.default().jobs_dir,
        connection=Connection("Sandbox", sandbox.base_url),
    )
    store.close()
    return store.path.stem


@pytest.mark.parametrize(
    ("extra", "named"),
    [
        (["--scope", "campaign:1001"], "--scope does not"),
        (["--report", "out.xlsx"], "--report does not"),
        (["--sheet", "Two", "--phone-column", "B"], "--sheet and --phone-column do not"),
        (["--phone-code", "44"], "--phone-code does not"),
        (["--lead-status", "DNC"], "--lead-status does not"),
        (["--include-hidden"], "--include-hidden does not"),
        (["FILE"], "A file does not"),
    ],
)
def test_resume_refuses_the_options_of_a_new_job(
    sandbox: Any,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    extra: list[str],
    named: str,
) -> None:
    # Refused before the job is even looked up: nothing is read, sent or changed.
    job = _staged_job(sandbox, tmp_path)
    extra = [str(tmp_path / "r.csv") if a == "FILE" else a for a in extra]
    code = main(["remove", "--resume", job, *extra, "--base-url", sandbox.base_url])
    err = capsys.readouterr().err
    assert code == 2
    assert f"{named} apply to --resume: the job keeps the settings it was created with." in err


def test_import_resume_refuses_into_and_scope_together(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code = main(["import", "--resume", "nope", "--scope", "global", "--into", "dnc"])
    assert code == 2
    assert "--scope and --into do not apply to --resume" in capsys.readouterr().err


def test_resume_keeps_accepting_pace_and_connection_options(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with ApiClient(sandbox.base_url, TOKEN) as api:
        api.insert_dnc("2025554801", "1", Scope.global_())
    job = _staged_job(sandbox, tmp_path)
    argv = ["remove", "--resume", job, "--rate-limit", "600", "--concurrency", "2"]
    data = _run(capsys, [*argv, "--json", "--base-url", sandbox.base_url])
    assert data["removed"] == 1
