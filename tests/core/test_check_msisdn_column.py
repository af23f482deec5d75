"""A phone column headed MSISDN or E.164 holds international numbers written without their "+":
its "4917612345678" under the German code is +49 176 12345678. Under any other header the
same digits read two ways and the row is refused, naming both (black-box pass F: they were
stored as the German number 4917612345678, and the real mobile was on no list)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings


def _stage(tmp_path: Path, header: str) -> list[tuple[str, str, str]]:
    path = tmp_path / "in.csv"
    path.write_text(f"{header}\n4917612345678\n4989123456\n", encoding="utf-8")
    settings = JobSettings(path, Scope.global_(), phone_code="49")
    store, _ = stage_import(settings, tmp_path / "jobs", connection=None)
    rows = [(r.outcome, r.national, r.message) for r in store.rows()]
    store.close()
    return rows


@pytest.mark.parametrize("header", ["MSISDN", "msisdn", "E.164", "Phone E164", "E164 number"])
def test_an_msisdn_column_reads_the_country_code(tmp_path: Path, header: str) -> None:
    (mobile, landline) = _stage(tmp_path, header)
    assert mobile[:2] == ("", "17612345678"), mobile
    assert landline[:2] == ("", "89123456"), landline  # one reading only: as before


def test_a_phone_column_refuses_the_two_readings(tmp_path: Path) -> None:
    (mobile, landline) = _stage(tmp_path, "Phone")
    assert mobile[0] == "invalid"
    assert "reads two ways: +49 176 12345678 if 49 is the country code" in mobile[2], mobile
    assert landline[:2] == ("", "89123456")


def test_an_msisdn_column_without_a_country_code_reads_each_numbers_own(tmp_path: Path) -> None:
    # No --phone-code: the default +1 does not fit "447911123456", which an MSISDN column
    # writes for +44 7911 123456; such a row is read so, saying why. A +1 number stays one.
    path = tmp_path / "in.csv"
    path.write_text("MSISDN\n447911123456\n33612345678\n13035551402\n", encoding="utf-8")
    store, _ = stage_import(JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None)
    rows = [(r.outcome, r.phone_code, r.national, r.message) for r in store.rows()]
    store.close()
    assert [r[:3] for r in rows] == [
        ("", "44", "7911123456"),
        ("", "33", "612345678"),
        ("", "1", "3035551402"),
    ]
    assert rows[0][3].endswith(
        "read as +44 7911 123456 (United Kingdom): an MSISDN column holds numbers with their "
        "country code"
    ), rows[0][3]
    assert rows[2][3] == ""


def test_a_phone_column_keeps_refusing_a_number_too_long_for_the_default(tmp_path: Path) -> None:
    path = tmp_path / "in.csv"
    path.write_text("Phone\n447911123456\n", encoding="utf-8")
    store, _ = stage_import(JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None)
    (row,) = store.rows()
    store.close()
    assert row.outcome == "invalid" and "if its '+' was lost" in row.message, row.message
