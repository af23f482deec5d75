"""Black-box pass R1 (severe), through the command line: `export` and `snapshot` against a
service on loopback that answers search pages with fewer rows than asked before the end of its
result (the sandbox behind a small proxy cutting its answers as such a service does) write
every entry once, and what such a service never gives is said with its true reason and the
exit status of an incomplete copy. The demo list exports exactly as it does from the sandbox.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from app.cli.main import main
from tests.conftest import TOKEN
from tests.core.test_export_short_pages import (
    Shorten,
    at_most,
    nothing_from,
    one_short,
    shorten_body,
)
from tests.loopback_proxy import Answer, Forward, proxies

EXIT_FINDINGS = 3


@pytest.fixture(autouse=True)
def env_token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


@pytest.fixture
def short_service() -> Iterator[Callable[[str, Shorten], str]]:
    """``make(sandbox_url, cut)`` serves, on loopback, a proxy of that sandbox whose search
    answers are cut with ``cut``, and returns its base URL."""
    with proxies() as serve:

        def make(target: str, cut: Shorten) -> str:
            def answer(path: str, params: dict[str, list[str]], forward: Forward) -> Answer:
                status, kind, content = forward()
                if status == 200 and "json" in kind:
                    content = json.dumps(shorten_body(path, params, json.loads(content), cut))
                    return status, kind, content.encode()
                return status, kind, content

            return serve(target, answer)

        yield make


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def _seed(sandbox: Any, n: int) -> set[str]:
    sandbox.bulk_seed_dnc((f"3{i:09d}", "1", "0", "", "") for i in range(n))
    return {str(row["id"]) for row in sandbox.store.all("SELECT id FROM dnc")}


def test_export_and_snapshot_read_every_entry_past_short_pages(
    sandbox: Any,
    short_service: Callable[[str, Shorten], str],
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    ids = _seed(sandbox, 2_500)
    url = short_service(sandbox.base_url, one_short)
    out = tmp_path / "exp_short.csv"
    status, stdout, err = _run(
        capsys, "export", "dnc", "--out", str(out), "--base-url", url, "--json"
    )
    assert status == 0, err
    result = json.loads(stdout)
    assert (result["rows"], result["total"], result["unreachable"]) == (2_500, 2_500, 0)
    assert "Warning" not in err
    lines = out.read_text(encoding="utf-8-sig").splitlines()[1:]
    written = [line.split(",")[8] for line in lines]
    assert sorted(written) == sorted(ids)

    status, stdout, err = _run(capsys, "snapshot", "dnc", "--base-url", url, "--json")
    assert status == 0, err
    snap = json.loads(stdout)
    assert (snap["entries"], snap["reported_total"], snap["unreachable"]) == (2_500, 2_500, 0)


def test_entries_the_service_never_gives_are_said_so_not_blamed_on_the_cap(
    sandbox: Any,
    short_service: Callable[[str, Shorten], str],
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    _seed(sandbox, 2_500)
    url = short_service(sandbox.base_url, nothing_from(1_500))

    status, stdout, err = _run(capsys, "snapshot", "dnc", "--base-url", url)
    assert status == EXIT_FINDINGS, err
    assert "Saved 1,500 of 2,500 entries" in stdout
    assert "1,000 entries of the list could not be read (the service counted them but did not " in (
        stdout
    )
    assert "no search of the service reaches" not in stdout

    out = tmp_path / "gap.csv"
    status, stdout, err = _run(
        capsys, "export", "dnc", "--out", str(out), "--base-url", url, "--json"
    )
    # An export's file holds every row the service gave: exit 0, as with rows the cap hides.
    assert status == 0, err
    assert json.loads(stdout)["unreachable"] == 1_000
    assert "1,000 matching rows could not be reached: they were counted by the service" in err
    assert "101,000" not in err


@pytest.mark.parametrize("kind", ["dnc", "sms-opt-out"])
def test_the_demo_list_exports_the_same_from_the_sandbox_and_a_short_paged_service(
    demo_sandbox: Any,
    short_service: Callable[[str, Shorten], str],
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    kind: str,
) -> None:
    table = "dnc" if kind == "dnc" else "sms_opt_out"
    ids = {str(row["id"]) for row in demo_sandbox.store.all(f"SELECT id FROM {table}")}
    files = []
    for name, url in (
        ("sandbox", demo_sandbox.base_url),
        ("short", short_service(demo_sandbox.base_url, at_most(170))),
    ):
        out = tmp_path / f"{name}.csv"
        status, stdout, err = _run(
            capsys, "export", kind, "--out", str(out), "--base-url", url, "--json"
        )
        assert status == 0, err
        result = json.loads(stdout)
        assert (result["rows"], result["unreachable"], result["searches"]) == (len(ids), 0, 1)
        files.append(out.read_bytes())
    assert files[0] == files[1]
    lines = files[0].decode("utf-8-sig").splitlines()
    assert len(lines) == len(ids) + 1
