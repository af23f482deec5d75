"""Black-box re-test U2 #2: one foreign row in a US list.

A file of 60 bare-digit US numbers and one Italian landline (0669884901, valid in Germany too)
was warned of as maybe a Germany list: 51 of its US rows "read two ways, valid Germany numbers
too once a 0 is put back" (nearly any US number with a 0 before it is a German one), and the
warning advised removing them if the file was a Germany list. Only a file that looks like that
country's list (its refused rows mostly that country's, at least 3 and a tenth of its rows)
names US rows as read two ways now (the --phone-code advice stays, as a condition); the UK list
of black-box R2 #8 still does.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from app.cli.main import main
from tests.conftest import TOKEN

US_ROWS = "".join(f"{area}555{n:04d},opt out\n" for n in range(30) for area in ("214", "303"))


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _warnings(sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str) -> Any:
    path = tmp_path / "list.csv"
    path.write_text(text, encoding="utf-8")
    argv = ["import", str(path), "--into", "dnc", "--scope", "global", "--dry-run", "--json"]
    assert main([*argv, "--base-url", sandbox.base_url]) == 0
    captured = capsys.readouterr()
    assert "Traceback" not in captured.err
    return json.loads(captured.out)["warnings"]


@pytest.mark.parametrize(
    "foreign", [["0669884901"], ["0669884901", "0612345902"]], ids=["one", "two"]
)
def test_one_or_two_foreign_rows_do_not_make_a_us_list_another_countrys(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str], foreign: list[str]
) -> None:
    text = "Phone,Notes\n" + US_ROWS + "".join(f"{n},abroad\n" for n in foreign)
    warnings = _warnings(sandbox, tmp_path, capsys, text)
    (said,) = [w for w in warnings if "default country code 1" in w]
    # The advice stays a condition the officer decides; no US row is named as read two ways
    # and nothing advises removing them.
    assert "import it again with that country's: --phone-code 49 for Germany" in said
    for advice in ("read two ways", "read as US ones", "remove them", "remove it"):
        assert advice not in said


def test_a_short_german_list_keeps_its_advice(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Regression check V1: a German list of ten rows, two of which were counted as German
    numbers with their 0, was told "So few of the file's rows do not make it a Germany list"
    and lost the --phone-code 49 advice."""
    text = (
        "Phone\n+49 170 1234301\n0170 1234302\n0049 30 12345303\n(030) 1234-5315\n"
        "030 / 1234 5316\n0170 1234317\n001 303 555 0320\n"
    )
    warnings = _warnings(sandbox, tmp_path, capsys, text)
    said = " ".join(w for w in warnings if "default country code 1" in w)
    assert "do not make it a Germany list" not in said
    assert "--phone-code 49" in said


def test_a_uk_list_still_names_its_bare_digits_read_two_ways(
    sandbox: Any, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = (
        "Customer,Telephone\n"
        "Mrs Smith,07911 123401\n"
        "Mr Jones,7911123402\n"
        "C Evans,020 7946 0401\n"
        "D Owen,2079460402\n"
        "F Lewis,0161 496 0404\n"
        "G Hale,2145550405\n"
    )
    warnings = _warnings(sandbox, tmp_path, capsys, text)
    (said,) = [w for w in warnings if "--phone-code 44" in w]
    assert "1 row read as a US number from bare digits reads two ways" in said
    assert "(row 5: the US number +1 207 946 0402, or +44 20 7946 0402)" in said
    assert "row 7" not in said  # 0214…: no UK number with a 0 before it
