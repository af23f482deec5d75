"""A refused token: audit and health say where the token came from and which service refused
it, as import, export, evidence, snapshot and diff do (black-box Q2 #5 found evidence saying
only "Invalid or expired authentication token"; audit and health said it the same way)."""

from __future__ import annotations

from typing import Any

import pytest

from app.cli.main import main

WRONG = "tok-wrong-000000"


@pytest.mark.parametrize(
    ("argv", "action"),
    [
        (["audit", "campaign", "1"], "The audit could not start: "),
        (["health"], "The lists could not be read: "),
    ],
)
def test_a_refused_token_is_named_with_the_service(
    sandbox: Any,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    action: str,
) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", WRONG)
    status = main([*argv, "--base-url", sandbox.base_url])
    out, err = capsys.readouterr()
    assert status == 1
    assert action in err and err.count("\n") == 1
    assert f"the token in DNC_DESK_TOKEN was refused by the service at {sandbox.base_url}" in err
    assert WRONG not in err + out
