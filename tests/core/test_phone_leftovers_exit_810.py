"""810, dialled before a country code as 00 is elsewhere, is read as the exit code beside every
country whose exit code it is today by phonenumbers' metadata (its international_prefix):
Russia and Kazakhstan (+7), Belarus (+375), Tajikistan (+992) and Turkmenistan (+993); not
Uzbekistan (+998), which moved to 00 (black-box B34: only Russia and Belarus were read so)."""

from __future__ import annotations

import re
from pathlib import Path

import phonenumbers
import pytest

from app.api.scope import Scope
from app.core import phones
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.job_store import JobRow


def _staged(tmp_path: Path, text: str) -> dict[int, JobRow]:
    path = tmp_path / "list.csv"
    path.write_text(text, encoding="utf-8")
    store, _summary = stage_import(
        JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None
    )
    with store:
        return {r.row_number: r for r in store.rows()}


def test_810_is_the_exit_code_of_the_codes_phonenumbers_says() -> None:
    expected = set()
    for code, regions in phonenumbers.COUNTRY_CODE_TO_REGION_CODE.items():
        meta = phonenumbers.PhoneMetadata.metadata_for_region(regions[0])
        prefix = meta.international_prefix if meta is not None else None
        if prefix and re.fullmatch(prefix, "810"):
            expected.add(str(code))
    found = {
        str(c)
        for c in phonenumbers.COUNTRY_CODE_TO_REGION_CODE
        if phones.dials_out_with_810(str(c))
    }
    assert found == expected
    assert {"7", "375", "992", "993"} <= found
    assert "998" not in found


@pytest.mark.parametrize("country", ["TJ", "Tajikistan", "TM", "Turkmenistan", "KZ"])
def test_810_beside_tajikistan_or_turkmenistan_is_their_exit_code(
    tmp_path: Path, country: str
) -> None:
    got = _staged(tmp_path, f"Phone,Country\n810 49 30 1234567,{country}\n")
    assert (got[2].outcome, got[2].phone_code, got[2].national) == ("", "49", "301234567")
    assert "read under its own +49 (Germany)" in got[2].message


def test_810_beside_uzbekistan_is_no_exit_code(tmp_path: Path) -> None:
    got = _staged(tmp_path, "Phone,Country\n810 49 30 1234567,Uzbekistan\n")
    assert (got[2].phone_code, got[2].national) != ("49", "301234567")
