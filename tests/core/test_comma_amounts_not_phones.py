"""Re-test U2 F4: amounts with a decimal comma ("8035551,125") or grouped as a locale shows
them ("8.035.551,125", "1,051,527.39") counted as phone numbers for the column finder, where
their decimal-point twins ("8035551.125") are amounts since re-test U1 F3: the comma split the
digits and "8035551" alone was a phone number, and a dot-grouped amount was phone-shaped. A
header-less or amount-headed column of them is now refused with "No column of phone numbers",
as the twins are. A whole number a locale shows with zeros after its comma ("3.035.559.633,00")
is still a phone number, as are numbers among words and commas ("303-555-0147,303-555-0148")."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.cli.main import main
from app.core.sheet_header import holds_phone_number, looks_like_phone
from tests.conftest import TOKEN


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _grouped(number: int, separator: str) -> str:
    return f"{number:,}".replace(",", separator)


# How a locale writes an amount: its whole part and its fraction.
_FORMS = {
    "plain comma": lambda n, f: f"{n},{f}",
    "plain point": lambda n, f: f"{n}.{f}",
    "point groups": lambda n, f: f"{_grouped(n, '.')},{f}",
    "comma groups": lambda n, f: f"{_grouped(n, ',')}.{f}",
    "space groups": lambda n, f: f"{_grouped(n, ' ')},{f}",
    "no-break space groups": lambda n, f: f"{_grouped(n, chr(0xA0))},{f}",
    "apostrophe groups": lambda n, f: f"{_grouped(n, chr(0x27))}.{f}",
}

whole_parts = st.integers(min_value=10**6, max_value=10**12 - 1)
fractions = st.text("0123456789", min_size=1, max_size=6).filter(lambda f: f.strip("0") != "")


@settings(max_examples=300, deadline=None)
@given(
    whole=whole_parts,
    fraction=fractions,
    form=st.sampled_from(sorted(_FORMS)),
    sign=st.sampled_from(["", "-", "+"]),
)
def test_an_amount_with_a_fraction_is_no_phone_number(
    whole: int, fraction: str, form: str, sign: str
) -> None:
    amount = sign + _FORMS[form](whole, fraction)
    assert not looks_like_phone(amount)
    assert not holds_phone_number(amount)
    assert not holds_phone_number(f"Betrag {amount} EUR")


@settings(max_examples=200, deadline=None)
@given(whole=whole_parts, zeros=st.integers(min_value=1, max_value=3))
def test_a_whole_number_shown_with_zeros_after_its_comma_still_holds_one(
    whole: int, zeros: int
) -> None:
    for text in (f"{whole},{'0' * zeros}", f"{_grouped(whole, '.')},{'0' * zeros}"):
        assert holds_phone_number(text), text


@pytest.mark.parametrize(
    "amount",
    ["8035551,125", "-8035551,125", "8.035.551,125", "1,051,527.39", "-1.051.527,39"],
)
def test_the_re_test_amounts_are_no_phone_numbers(amount: str) -> None:
    assert not looks_like_phone(amount)
    assert not holds_phone_number(amount)


@pytest.mark.parametrize(
    ("text", "shaped", "held"),
    [
        ("3.035.559.633,00", True, True),
        ("3035559633,00", False, True),  # as "2025550147.0": read, though not phone-shaped
        ("2025550147.0", False, True),
        ("3,035,550,147", True, False),  # thousands: the phone module reads 3035550147
        ("1,051,527.00", True, False),
        ("202.555.0147", True, True),
        ("Tel 303-555-0147, ext 12", False, True),
        ("303-555-0147,303-555-0148", False, True),  # two numbers in one cell
        ("3035550147,3035550148", False, True),
        ("303 555 0147,12", True, True),
        ("Paid 12, call 303 555 0147", False, True),
    ],
)
def test_phone_numbers_with_commas_are_still_found(text: str, shaped: bool, held: bool) -> None:
    assert looks_like_phone(text) is shaped
    assert holds_phone_number(text) is held


AMOUNTS = ["8.035.551,125", "2.025.550,147", "3.035.550,112", "7.205.550,133", "4.155.550,199"]
SPACED = ["8 035 551,125", "2 025 550,147", "3 035 550,112", "7 205 550,133", "4 155 550,199"]
POINTED = ["8,035,551.125", "2,025,550.147", "3,035,550.112", "7,205,550.133", "4,155,550.199"]


def _dry_run(capsys: pytest.CaptureFixture[str], path: Path) -> tuple[int, dict[str, object]]:
    argv = ["import", str(path), "--into", "dnc", "--scope", "global", "--dry-run", "--json"]
    code = main(argv)
    data: dict[str, object] = json.loads(capsys.readouterr()[0])
    return code, data


@pytest.mark.parametrize("values", [AMOUNTS, SPACED, POINTED], ids=["points", "spaces", "commas"])
@pytest.mark.parametrize("header", ["Kunde\tBetrag\n", ""], ids=["amount", "no-header"])
def test_a_column_of_grouped_amounts_is_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], values: list[str], header: str
) -> None:
    # Tab-separated: the delimiter is the file's, whatever commas the amounts hold.
    path = tmp_path / "betraege.tsv"
    rows = [f"{name}\t{value}\n" for name, value in zip("ABCDE", values, strict=True)]
    path.write_text(header + "".join(rows * 3), encoding="utf-8")
    code, data = _dry_run(capsys, path)
    assert code == 1, data
    assert "No column of phone numbers was found" in str(data["error"])


@pytest.mark.parametrize("phone", ["3.035.559.633,00", "3035559633,00"])
def test_a_column_of_phone_numbers_shown_with_a_zero_fraction_still_imports(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], phone: str
) -> None:
    path = tmp_path / "nummern.tsv"
    path.write_text("".join(f"{name}\t{phone}\n" for name in "ABCDE"), encoding="utf-8")
    code, data = _dry_run(capsys, path)
    assert code == 0, data
    assert data["mapping"] == {"phone": "column B"}
    assert (data["valid"], data["invalid"]) == (1, 0)
