"""Black-box pass B4, CLI messages (fixer M1).

A: an empty path (an empty shell variable) given as export's ``--out``, import's or remove's
``--report`` or a snapshot of ``diff`` was taken as ``.`` ("--out . is a folder", "There is no
snapshot file .."): each now says it was given without one, as evidence's and audit's did.
B: ``audit --max-download-pages -1`` was taken as 0 (every number looked up) without a word,
and ``abc`` got argparse's "invalid int value"; ``audit campaign abc`` said "there is no
campaign with id abc." in lower case.
C: a job with no row to send (every row invalid) said "Job … started: if it stops before its
end, resume it with: …", offering a resume of nothing.
F: export's ``filters`` in ``--json``, documented as typed, gave ``--phone-number "+44 20 7946
0009"`` as the searched form ``2079460009`` with a ``phone_code`` nobody typed.
"""

from __future__ import annotations

import json
import socket
from pathlib import Path
from typing import Any

import pytest

from app.api.client import ApiClient
from app.api.scope import Scope
from app.cli import connection_args
from app.cli.main import main
from tests.conftest import TOKEN


@pytest.fixture(autouse=True)
def env_token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def _csv(path: Path, *numbers: str) -> Path:
    path.write_text("Phone\n" + "".join(f"{n}\n" for n in numbers), encoding="utf-8")
    return path


# A -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("empty", ["", " "])
@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (("export", "dnc", "--out", "{}"), "--out was given without a path"),
        (
            ("import", "{file}", "--into", "dnc", "--scope", "global", "--report", "{}"),
            "--report was given without a path",
        ),
        (
            ("remove", "{file}", "--scope", "global", "--note", "asked", "--report", "{}"),
            "--report was given without a path",
        ),
        (("import", "--resume", "no-such-job", "--report", "{}"), "--report was given without"),
        (("diff", "{}", "{snapshot}"), "diff was given without a snapshot"),
        (("diff", "{snapshot}", "{}"), "diff was given without a snapshot"),
    ],
)
def test_an_empty_path_is_said_to_be_empty(
    sandbox: Any,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    argv: tuple[str, ...],
    said: str,
    empty: str,
) -> None:
    numbers = _csv(tmp_path / "numbers.csv", "3035550101")
    snapshot = tmp_path / "some.dncsnap"
    snapshot.write_text("not read")
    given = [
        a.replace("{}", empty).replace("{file}", str(numbers)).replace("{snapshot}", str(snapshot))
        for a in argv
    ]
    status, _out, err = _run(capsys, *given, "--base-url", sandbox.base_url)
    assert status == 2, err
    assert said in err, err
    assert "is a folder" not in err and "no snapshot file" not in err.lower()
    assert sandbox.store.all("SELECT id FROM dnc") == []


def test_an_empty_out_under_json_is_one_refusal(
    sandbox: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    status, out, _err = _run(
        capsys, "export", "dnc", "--out", "", "--json", "--base-url", sandbox.base_url
    )
    assert status == 2
    assert json.loads(out) == {
        "error": "--out was given without a path: give the .xlsx or .csv file to write.",
        "exit_status": 2,
    }


# B -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("given", "said"),
    [
        ("-1", "-1 is not 0 or more"),
        ("abc", "'abc' is not a whole number"),
        ("", "'' is not a whole number"),
    ],
)
def test_max_download_pages_below_zero_is_refused_in_words(
    sandbox: Any, capsys: pytest.CaptureFixture[str], given: str, said: str
) -> None:
    with pytest.raises(SystemExit) as exited:
        main(
            [
                "audit",
                "campaign",
                "1",
                "--max-download-pages",
                given,
                "--base-url",
                sandbox.base_url,
            ]
        )
    err = capsys.readouterr().err
    assert exited.value.code == 2
    assert f"argument --max-download-pages: {said}; give the most pages" in err, err
    assert "invalid int value" not in err


@pytest.mark.parametrize("pages", ["0", "1"])
def test_max_download_pages_of_zero_or_more_is_taken(
    sandbox: Any, api: ApiClient, capsys: pytest.CaptureFixture[str], tmp_path: Path, pages: str
) -> None:
    campaign = next(c for c in api.campaigns() if c.active)
    status, _out, err = _run(
        capsys,
        "audit",
        "campaign",
        campaign.id,
        "--max-download-pages",
        pages,
        "--out",
        str(tmp_path / "a.xlsx"),
        "--base-url",
        sandbox.base_url,
    )
    assert status == 0, err


def test_a_campaign_the_service_lacks_is_refused_naming_its_campaigns(
    sandbox: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    # Not a number is a name now (black-box bb8); either unknown, the campaigns are named.
    campaign = sandbox.seed_campaign("Lone Campaign")
    for given in ("abc", "99999"):
        status, _out, err = _run(capsys, "audit", "campaign", given, "--base-url", sandbox.base_url)
        assert status == 2
        assert err.startswith(
            f"dnc-desk audit: The service at {sandbox.base_url} has no campaign with the id or "
            f"name {given!r}; "
        )
        assert f"{campaign} ('Lone Campaign')" in err and err.count("\n") == 1


# C -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("command", ["import", "remove"])
def test_a_job_with_nothing_to_send_offers_no_resume(
    sandbox: Any, capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str
) -> None:
    bad = _csv(tmp_path / "allbad.csv", "12345", "abc")
    options = ["--into", "dnc"] if command == "import" else ["--note", "asked"]
    status, out, err = _run(
        capsys, command, str(bad), *options, "--scope", "global", "--base-url", sandbox.base_url
    )
    assert status == 0, err
    assert "started:" not in err and "resume it with" not in err, err
    assert "finished" in out, out


@pytest.mark.parametrize("command", ["import", "remove"])
def test_a_job_with_a_row_to_send_still_says_how_to_resume_it(
    sandbox: Any, api: ApiClient, capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str
) -> None:
    api.insert_dnc("3035550101", "1", Scope.global_())
    rows = _csv(tmp_path / "rows.csv", "12345", "3035550101")
    options = ["--into", "dnc"] if command == "import" else ["--note", "asked"]
    status, _out, err = _run(
        capsys, command, str(rows), *options, "--scope", "global", "--base-url", sandbox.base_url
    )
    assert status == 0, err
    assert " started: if it stops before its end, resume it with: dnc-desk " in err, err


# F -----------------------------------------------------------------------------------------


def _export_filters(
    capsys: pytest.CaptureFixture[str], sandbox: Any, tmp_path: Path, *filters: str
) -> dict[str, str]:
    status, out, err = _run(
        capsys,
        "export",
        "dnc",
        "--out",
        str(tmp_path / "e.xlsx"),
        "--overwrite",
        "--json",
        *filters,
        "--base-url",
        sandbox.base_url,
    )
    assert status == 0, err
    data: dict[str, str] = json.loads(out)["filters"]
    return data


def test_export_filters_keep_the_number_as_typed(
    sandbox: Any, api: ApiClient, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    api.insert_dnc("2079460009", "44", Scope.global_())
    typed = _export_filters(capsys, sandbox, tmp_path, "--phone-number", "+44 20 7946 0009")
    assert typed == {
        "phone_number": "+44 20 7946 0009 (searched as 2079460009 under phone code 44)"
    }

    both = _export_filters(
        capsys, sandbox, tmp_path, "--phone-number", "020 7946 0009", "--phone-code", "+44"
    )
    assert both == {
        "phone_number": "020 7946 0009 (searched as 2079460009 under phone code 44)",
        "phone_code": "+44",
    }

    searched = _export_filters(
        capsys, sandbox, tmp_path, "--phone-number", "2079460009", "--phone-code", "44"
    )
    assert searched == {"phone_number": "2079460009", "phone_code": "44"}

    us = _export_filters(capsys, sandbox, tmp_path, "--phone-number", "3035550101")
    assert us == {"phone_number": "3035550101 (searched under phone code 1)"}

    code = _export_filters(capsys, sandbox, tmp_path, "--phone-code", "GB")
    assert code == {"phone_code": "GB (searched as 44)"}


# D -----------------------------------------------------------------------------------------


def test_checks_on_a_service_refusing_connections_do_not_call_it_silent(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The checks' notice, said after CHECK_WAITING_AFTER: a port nothing listens on refuses
    # every connection, for the client's retries (seconds), which is no silence.
    # 1.5 s, well inside the retries: at 0.3 s a loaded machine had not yet seen the first
    # refusal, and the notice rightly said "No answer" (seen once under load).
    monkeypatch.setattr(connection_args, "CHECK_WAITING_AFTER", 1.5)
    # The port stays bound, not listening, for the whole run: connections to it are refused,
    # and no sandbox of a test running beside this one can take it (a .ci/run saw one do so,
    # and the import ran to its end there).
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
        numbers = _csv(tmp_path / "numbers.csv", "3035550101")
        url = f"http://127.0.0.1:{port}"
        status, _out, err = _run(
            capsys, "import", str(numbers), "--into", "dnc", "--scope", "global", "--base-url", url
        )
    assert status == 1, err
    assert "No answer from the service" not in err, err
    assert "The service cannot be reached: no connection to it could be made for " in err, err
    assert f"trying {url}/v1/" in err, err
    assert "cannot be reached" in err.splitlines()[-1], err
