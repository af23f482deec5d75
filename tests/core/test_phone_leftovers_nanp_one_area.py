"""A +1 territory with one area code (Barbados 246, Bermuda 441, the Cayman Islands 345…):
its 7-digit local number beside a Country cell naming it is read with that area code, as
phonenumbers.parse(number, region) completes it and as 4589dd3 reads Jersey's (black-box
B34). Jamaica (876, 658) and Puerto Rico (787, 939) have two, "KY" and "MS" are Kentucky and
Mississippi too, and +1 alone has hundreds: those rows stay refused."""

from __future__ import annotations

from pathlib import Path

import phonenumbers
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from phonenumbers import NumberParseException

from app.api.scope import Scope
from app.core import country_names, phones
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.job_store import JobRow

# Every +1 region phonenumbers completes a 7-digit number in with an area code.
NANP_ONE_AREA = sorted(
    region
    for region in phonenumbers.COUNTRY_CODE_TO_REGION_CODE[1]
    if (meta := phonenumbers.PhoneMetadata.metadata_for_region(region)) is not None
    and meta.national_prefix_transform_rule
)

# "KY" and "MS" are Kentucky's and Mississippi's codes too: those two are named.
CELL = {r: country_names.ISO_NAMES[r][0] if r in ("KY", "MS") else r for r in NANP_ONE_AREA}


def _staged(tmp_path: Path, text: str) -> dict[int, JobRow]:
    path = tmp_path / "list.csv"
    path.write_text(text, encoding="utf-8")
    store, _summary = stage_import(
        JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None
    )
    with store:
        return {r.row_number: r for r in store.rows()}


def _reference(digits: str, region: str) -> str:
    """The national number phonenumbers completes ``digits`` to in ``region`` (with an area
    code added), or ``""`` when it is no valid number so."""
    try:
        number = phonenumbers.parse(digits, region)
    except NumberParseException:
        return ""
    national = phonenumbers.national_significant_number(number)
    valid = phonenumbers.is_valid_number(number)
    return national if valid and national != digits and national.endswith(digits) else ""


def test_the_regions_are_the_caribbean_and_pacific_one_area_territories() -> None:
    assert {"BB", "BM", "KY", "AG", "TT", "VI", "GU"} <= set(NANP_ONE_AREA)
    assert not {"US", "CA", "JM", "PR", "DO"} & set(NANP_ONE_AREA)


def test_a_local_number_beside_a_one_area_territory_is_completed(tmp_path: Path) -> None:
    got = _staged(
        tmp_path,
        "Phone,Country\n"
        "4561234,BB\n"
        "456-1234,Bermuda\n"
        "949-1234,Cayman Islands\n"
        "9491235,KY\n"
        "5551234,JM\n"
        "4561236,United States\n"
        "4561237,Montserrat\n",
    )
    read = {n: (r.outcome, r.phone_code, r.national) for n, r in got.items()}
    assert read[2] == ("", "1", "2464561234")
    assert read[3] == ("", "1", "4414561234")
    assert read[4] == ("", "1", "3459491234")
    assert got[2].message == (
        "row 2: read as +1 246 456-1234: the number is written without its area code, and the "
        "'Country' cell's 'BB' (column B) names Barbados, whose only area code is 246"
    )
    assert "names Bermuda, whose only area code is 441" in got[3].message
    # Kentucky's code, Jamaica's two area codes, the US's hundreds: refused as before.
    assert [read[n][0] for n in (5, 6, 7)] == ["invalid"] * 3
    assert "local number without the area code" in got[7].message
    # 664 456 1237 is in no range of Montserrat's, nor is it for phonenumbers: refused.
    assert read[8][0] == "invalid" and not _reference("4561237", "MS")


def test_a_code_cell_of_1_beside_barbados_stays_refused(tmp_path: Path) -> None:
    got = _staged(tmp_path, "Phone,Country Code\n4561234,1\n")
    assert got[2].outcome == "invalid"


@pytest.mark.parametrize("region", NANP_ONE_AREA)
def test_every_territory_reads_as_phonenumbers_on_its_first_digits(region: str) -> None:
    # Every exchange (the first three digits) with two line numbers: 2,000 numbers a region.
    for exchange in range(1000):
        for line in ("0000", "4567"):
            digits = f"{exchange:03d}{line}"
            found = phones.one_area_reading(digits, CELL[region])
            national = found[0].national if found is not None else ""
            assert national == _reference(digits, region), (region, digits)


@settings(max_examples=400, deadline=None)
@given(region=st.sampled_from(NANP_ONE_AREA), number=st.integers(0, 9_999_999))
def test_one_area_reading_equals_phonenumbers(region: str, number: int) -> None:
    digits = f"{number:07d}"
    found = phones.one_area_reading(digits, CELL[region])
    national = found[0].national if found is not None else ""
    assert national == _reference(digits, region)
    if found is not None:
        assert found[0].phone_code == "1"
        assert found[1] == national[:3]


def test_no_hint_of_territories_under_plus_1_alone() -> None:
    assert phones.one_area_hint("4561234", "1") == ""
