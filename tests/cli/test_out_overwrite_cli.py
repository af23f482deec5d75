"""Black-box finding 7 (third pass): ``evidence --out``, ``audit … --out`` and ``diff --out``
replaced a file already there without a word. An existing file is now refused unless
``--overwrite`` is given (exit 2, one sentence, the ``{"error","exit_status"}`` object under
``--json``), before anything is asked of the service; a file the command reads is refused even
with ``--overwrite``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.cli.main import main
from tests.conftest import TOKEN

PRECIOUS = b"precious: an earlier evidence pack\n"


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    return code, captured.out.strip(), captured.err.strip()


def commands(url: str, snapshots: list[Path]) -> dict[str, list[str]]:
    """Each command that writes ``--out``, without its ``--out``."""
    return {
        "evidence": ["evidence", "+1 202 555 0100", "--base-url", url],
        "audit": ["audit", "campaign", "1", "--base-url", url],
        "diff": ["diff", *map(str, snapshots)],
    }


def two_snapshots(capsys: pytest.CaptureFixture[str], url: str) -> list[Path]:
    taken = []
    for _ in range(2):
        code, out, err = run(
            capsys, "snapshot", "dnc", "--scope", "global", "--json", "--base-url", url
        )
        assert code == 0, err
        taken.append(Path(json.loads(out)["path"]))
    return taken


@pytest.mark.parametrize("command", ["evidence", "audit", "diff"])
def test_an_existing_out_file_is_refused_unless_overwrite(
    sandbox: Any, capsys: pytest.CaptureFixture[str], tmp_path: Path, command: str
) -> None:
    argv = commands(sandbox.base_url, two_snapshots(capsys, sandbox.base_url))[command]
    out = tmp_path / "out" / "earlier.xlsx"
    out.parent.mkdir()
    out.write_bytes(PRECIOUS)

    code, stdout, err = run(capsys, *argv, "--out", str(out))
    assert code == 2
    assert err.endswith(
        f"--out {out} already exists; give another file name, or add --overwrite to replace it."
    ), err
    assert len(err.splitlines()) == 1 and stdout == ""
    assert out.read_bytes() == PRECIOUS

    code, stdout, err = run(capsys, *argv, "--out", str(out), "--json")
    assert code == 2
    refusal = json.loads(stdout)
    assert refusal == {
        "error": f"--out {out} already exists; give another file name, or add --overwrite "
        "to replace it.",
        "exit_status": 2,
    }
    assert out.read_bytes() == PRECIOUS

    # Without a file there, and with --overwrite over one, the file is written.
    fresh = tmp_path / "out" / "fresh.xlsx"
    code, _, err = run(capsys, *argv, "--out", str(fresh))
    assert code in (0, 3), err
    code, _, err = run(capsys, *argv, "--out", str(out), "--overwrite")
    assert code in (0, 3), err
    assert out.read_bytes() != PRECIOUS
    openpyxl.load_workbook(out, read_only=True).close()


def test_diff_never_writes_over_a_snapshot_it_reads(
    sandbox: Any, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A snapshot is a SQLite file whatever it is called; ``--out`` must not replace it, even
    with ``--overwrite`` (through another spelling of its path too)."""
    first, second = two_snapshots(capsys, sandbox.base_url)
    named = tmp_path / "kept.xlsx"
    named.write_bytes(second.read_bytes())
    before = named.read_bytes()
    spelled = tmp_path / "sub" / ".." / "kept.xlsx"
    (tmp_path / "sub").mkdir()
    code, stdout, err = run(
        capsys, "diff", str(first), str(named), "--out", str(spelled), "--overwrite", "--json"
    )
    assert code == 2, err
    assert json.loads(stdout)["error"] == (
        f"--out {spelled} is a file this command reads; the differences file would replace "
        "it, so give another file name."
    )
    assert named.read_bytes() == before
