"""Black-box s31: ``--help`` of snapshot, diff, evidence and health stated their exit statuses;
import, remove, export, audit and jobs did not, so a script's author had to guess (or read the
manual) which statuses mean a finding, a failure or a bad argument. Each now states them, and
each status a ``--help`` states (but the signals', which the signal tests check) is what the
command returns in its main cases, run here against the sandbox."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from app.api.client import ApiClient
from app.cli.main import main
from tests.conftest import TOKEN
from tests.core.test_audit import seed_campaign_with_conflicts

Case = Callable[[], int]


@pytest.fixture(autouse=True)
def env_token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _epilog(capsys: pytest.CaptureFixture[str], *command: str) -> str:
    with pytest.raises(SystemExit):
        main([*command, "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "Exit status: " in text, f"{' '.join(command)} --help states no exit status"
    return text.split("Exit status: ", 1)[1]


def _stated(epilog: str) -> set[int]:
    """The statuses the epilog names, but the signals' (128 + the signal's number)."""
    said = {int(n) for n in re.findall(r"(?:^|; )(\d+)[ ,]", epilog)}
    return {n for n in said if n < 128}


def _sheet(tmp_path: Path) -> Path:
    sheet = tmp_path / "numbers.csv"
    # One number and one that is none: a job with an invalid row still runs to its end.
    sheet.write_text("Phone\n3035550101\nnot a number\n", encoding="utf-8")
    return sheet


def _wrong_token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", "not-the-token-0000")


def _cases(
    command: str,
    sandbox: Any,
    api: ApiClient,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> list[tuple[int, list[str], Callable[[], None] | None]]:
    """(the status expected, the arguments, a change made before they run)."""
    url = ["--base-url", sandbox.base_url]
    sheet = str(_sheet(tmp_path))
    missing = str(tmp_path / "missing.csv")
    wrong = lambda: _wrong_token(monkeypatch)  # noqa: E731
    if command == "import":
        run = ["import", sheet, "--into", "dnc", "--scope", "global", *url]
        return [
            (0, run, None),
            (0, [*run, "--dry-run"], None),
            (1, ["import", missing, "--into", "dnc", "--scope", "global", *url], None),
            (1, run, wrong),
            (2, ["import", sheet, "--into", "dnc", "--scope", "nowhere", *url], None),
        ]
    if command == "remove":
        run = ["remove", sheet, "--scope", "global", "--note", "asked to be called", *url]
        return [
            (0, run, None),  # its number is not on the list: a result
            (1, ["remove", missing, "--scope", "global", "--note", "asked", *url], None),
            (1, run, wrong),
            (2, ["remove", sheet, "--scope", "global", *url], None),  # no --note
        ]
    if command == "export":
        out = str(tmp_path / "e.xlsx")
        return [
            (0, ["export", "dnc", "--out", out, *url], None),
            (1, ["export", "sms-opt-out", "--out", str(tmp_path / "f.xlsx"), *url], wrong),
            (2, ["export", "dnc", "--out", str(tmp_path / "e.txt"), *url], None),
        ]
    if command == "audit":
        clean = sandbox.seed_campaign("Summer Leads")
        api.insert_lead(api.insert_list("Summer list", clean), "2025550177")  # on no list
        seeded = seed_campaign_with_conflicts(api)
        return [
            (0, ["audit", "campaign", clean, *url], None),
            (3, ["audit", "campaign", seeded.campaign, *url], None),
            (1, ["audit", "campaign", seeded.campaign, *url], wrong),
            (2, ["audit", "campaign", "999999", *url], None),
        ]
    if command == "journal":
        journal = tmp_path / "data" / "journal.sqlite3"

        def tamper() -> None:
            db = sqlite3.connect(journal)
            with db:
                db.execute("UPDATE journal SET note = 'edited' WHERE id = 1")
            db.close()

        def unreadable() -> None:
            journal.write_bytes(b"not a journal, " * 100)

        out = str(tmp_path / "j.xlsx")
        return [
            (0, ["journal", "verify"], None),  # no journal yet: nothing was altered
            (0, ["import", sheet, "--into", "dnc", "--scope", "global", *url], None),
            (0, ["journal", "verify"], None),
            (0, ["journal", "export", "--out", out], None),
            (2, ["journal", "export", "--out", out], None),  # already there
            (3, ["journal", "verify"], tamper),
            (1, ["journal", "verify"], unreadable),
        ]
    assert command == "jobs"
    not_a_folder = tmp_path / "a file"
    not_a_folder.write_text("", encoding="utf-8")
    return [
        (0, ["jobs"], None),
        (0, ["jobs", "--all"], None),
        (1, ["jobs"], lambda: monkeypatch.setenv("DNC_DESK_DATA_DIR", str(not_a_folder))),
        (2, ["jobs", "--every"], None),
    ]


@pytest.mark.parametrize("command", ["import", "remove", "export", "audit", "jobs", "journal"])
def test_help_states_the_exit_statuses_the_command_returns(
    command: str,
    sandbox: Any,
    api: ApiClient,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    stated = _stated(_epilog(capsys, command))
    if command == "audit":
        assert _stated(_epilog(capsys, "audit", "campaign")) == stated
    if command == "journal":
        # Each action's own: verify never writes a file, export never finds a break.
        assert _stated(_epilog(capsys, "journal", "verify")) == stated
        assert _stated(_epilog(capsys, "journal", "export")) == stated - {3}
    returned: set[int] = set()
    for expected, argv, before in _cases(command, sandbox, api, tmp_path, monkeypatch):
        if before is not None:
            before()
        try:
            status = main(argv)
        except SystemExit as exc:  # argparse's own refusal
            status = int(exc.code or 0)
        err = capsys.readouterr().err
        monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)
        assert status == expected, (argv, err)
        returned.add(status)
    assert stated == returned
