"""The purposes a list has are read past a page shorter than asked (black-box R1, leftover of
dc0fdd6: import and export read the list's purposes at fixed offsets and took any short page
for the end, so a purpose spelled otherwise further on was not found and `--scope
purpose:surveys` went in as a new purpose beside the list's "Surveys")."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from app.cli.main import main
from tests.cli.test_export_snapshot_short_pages_cli import env_token, short_service  # noqa: F401
from tests.core.test_export_short_pages import Shorten, nothing_from, one_short


def _seed(sandbox: Any) -> None:
    rows = [(f"3{i:09d}", "1", "-1", "", "Marketing") for i in range(1, 1_500)]
    rows += [(f"4{i:09d}", "1", "-1", "", "Surveys") for i in range(1, 11)]
    sandbox.bulk_seed_dnc(rows)


def test_import_finds_the_lists_spelling_past_a_short_page(
    sandbox: Any,
    short_service: Callable[[str, Shorten], str],  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    _seed(sandbox)
    url = short_service(sandbox.base_url, one_short)
    path = tmp_path / "numbers.csv"
    path.write_text("Phone\n3035558102\n")
    argv = ["import", str(path), "--into", "dnc", "--scope", "purpose:surveys"]
    assert main([*argv, "--base-url", url, "--dry-run"]) == 2
    err = capsys.readouterr().err
    assert "'Surveys'" in err, err


def test_export_finds_the_lists_spelling_past_a_short_page(
    sandbox: Any,
    short_service: Callable[[str, Shorten], str],  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    _seed(sandbox)
    url = short_service(sandbox.base_url, one_short)
    out = tmp_path / "out.csv"
    argv = ["export", "dnc", "--out", str(out), "--scope", "purpose:surveys"]
    assert main([*argv, "--base-url", url]) == 2
    err = capsys.readouterr().err
    assert "'Surveys'" in err, err


def test_export_looks_the_spelling_up_after_an_empty_page(
    sandbox: Any,
    short_service: Callable[[str, Shorten], str],  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    """Re-test U1 #3: a page empty before the service's total ended the read as if every
    purpose had been read; 'surveys' was then exported as a purpose the list lacks (0 rows)."""
    _seed(sandbox)
    url = short_service(sandbox.base_url, nothing_from(1_000))
    out = tmp_path / "out.csv"
    argv = ["export", "dnc", "--out", str(out), "--scope", "purpose:surveys"]
    assert main([*argv, "--base-url", url]) == 2
    assert "'Surveys'" in capsys.readouterr().err


def test_import_looks_the_spelling_up_after_an_empty_page(
    sandbox: Any,
    short_service: Callable[[str, Shorten], str],  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    """Re-test U1 #3: an empty page before the service's total ended the read as if every
    purpose had been read, and 'surveys' went in beside the list's 'Surveys'."""
    _seed(sandbox)
    url = short_service(sandbox.base_url, nothing_from(1_000))
    path = tmp_path / "numbers.csv"
    path.write_text("Phone\n3035558102\n")
    argv = ["import", str(path), "--into", "dnc", "--scope", "purpose:surveys"]
    assert main([*argv, "--base-url", url, "--dry-run"]) == 2
    assert "'Surveys'" in capsys.readouterr().err
