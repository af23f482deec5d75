"""Black-box B36 F1 through the CLI: ``remove --lead-status`` with a status the service lacks
is refused (exit 2, nothing sent) naming statuses like it, found without the blank
/status/search (every status) the spec's required query does not allow; the sandbox refuses
a blank query as the spec says.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.api.client import ApiClient
from app.api.scope import Scope
from app.cli.main import main
from tests.conftest import TOKEN

NUMBER = "2025558312"


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def test_an_unknown_lead_status_is_refused_naming_statuses_like_it(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with ApiClient(sandbox.base_url, TOKEN) as api:
        api.insert_dnc(NUMBER, "1", Scope.global_())
    src = tmp_path / "rm.csv"
    src.write_text(f"Phone\n{NUMBER}\n")
    argv = ["remove", str(src), "--scope", "global", "--note", "ticket 7", "--lead-status"]
    argv_end = ["--base-url", sandbox.base_url]
    code = main([*argv, "DNCX", *argv_end])
    captured = capsys.readouterr()
    assert code == 2, captured.err
    assert "Traceback" not in captured.err
    assert "no lead status 'DNCX'" in captured.err
    assert "statuses whose code or name holds 'DNC': DNC (Do Not Call)" in captured.err
    assert int(sandbox.store.scalar("SELECT count(*) FROM dnc")) == 1

    code = main([*argv, "ZZZZ", *argv_end, "--json"])
    body = json.loads(capsys.readouterr().out)
    assert (code, body["exit_status"]) == (2, 2)
    assert "no lead status 'ZZZZ'" in body["error"] and "in the window" in body["error"]
    assert int(sandbox.store.scalar("SELECT count(*) FROM dnc")) == 1
