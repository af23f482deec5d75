"""Black-box bb3 F5 through the command line: `evidence` on a service that fails one search
every time (the sandbox behind a small proxy answering that search with HTTP 503) still writes
the pack, names the search in its output, --json and the pack's Summary, and exits 3 ("not
fully known"), never 0 ("on no list"); before, it failed with exit 1 and no pack."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from python_calamine import CalamineWorkbook

from app.cli.main import main
from tests.cli.test_export_snapshot_short_pages_cli import env_token  # noqa: F401
from tests.loopback_proxy import Answer, Forward, proxies

NUMBER = "2025550123"
EXIT_FINDINGS = 3

Chooses = Callable[[str, dict[str, list[str]]], bool]


@pytest.fixture
def failing_service() -> Iterator[Callable[[str, Chooses], str]]:
    """``make(sandbox_url, chooses)`` serves, on loopback, a proxy of that sandbox answering
    the requests ``chooses`` picks (by path and form fields) with HTTP 503; its base URL."""
    with proxies() as serve:

        def make(target: str, chooses: Chooses) -> str:
            def answer(path: str, params: dict[str, list[str]], forward: Forward) -> Answer:
                if chooses(path, params):
                    return 503, "text/plain", b"Service Unavailable"
                return forward()

            return serve(target, answer)

        yield make


def _dnc_search_of(form: str) -> Chooses:
    return lambda path, params: (
        path.endswith("/dnc/search") and params.get("phone_number") == [form]
    )


def test_evidence_names_a_failed_dnc_search_and_exits_3(
    sandbox: Any,
    failing_service: Callable[[str, Chooses], str],
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    # The number is on no list: with its one DNC search failing, that is not known.
    url = failing_service(sandbox.base_url, _dnc_search_of(NUMBER))
    out = tmp_path / "pack.xlsx"
    code = main(["evidence", NUMBER, "--base-url", url, "--out", str(out), "--json"])
    data = json.loads(capsys.readouterr().out)
    assert code == EXIT_FINDINGS
    searched = f"{NUMBER} under phone code 1"
    assert list(data["searches_not_read"]) == ["dnc"]
    assert list(data["searches_not_read"]["dnc"]) == [searched]
    assert "/dnc/search" in data["searches_not_read"]["dnc"][searched]
    assert data["dnc"] == [] and Path(data["report"]) == out.resolve()
    summary = CalamineWorkbook.from_path(str(out)).get_sheet_by_name("Summary").to_python()
    assert any(row[0] == "DNC search not read" for row in summary)

    code = main(["evidence", NUMBER, "--base-url", url, "--out", str(out), "--overwrite"])
    printed = capsys.readouterr().out
    assert code == EXIT_FINDINGS
    assert f"DNC searches not read (1), so not known: {searched} (/dnc/search" in printed
    assert "No DNC entry" not in printed
    # The SMS list was read whole: its absence is said as before.
    assert "No SMS opt-out in the written forms searched" in printed
