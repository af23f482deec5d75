"""Re-test M1 #1 and #2: an unread column of country names is warned about when its names lost
their accented letters to '?' ("M?xico", "Canad?"), and in a batch of fewer than three rows
when every value is a country name."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings


def _warnings(tmp_path: Path, text: str) -> list[str]:
    path = tmp_path / "list.csv"
    path.write_text(text)
    store, _ = stage_import(JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None)
    warnings = [str(w) for w in store.meta().get("warnings") or []]
    store.close()
    return warnings


def _country_warning(warnings: list[str]) -> list[str]:
    return [w for w in warnings if "holds country names" in w]


def test_country_names_with_lost_letters_are_seen(tmp_path: Path) -> None:
    text = (
        "Nombre,Tel?fono,Pa?s\nAna,55 1234 5695,M?xico\nBo,303-555-4952,USA\n"
        "Cy,303-555-4953,Estados Unidos\nDi,613-555-0127,Canad?\n"
    )
    (warning,) = _country_warning(_warnings(tmp_path, text))
    assert warning.startswith("Column C ('Pa?s') holds country names ('M?xico') and was not read")


def test_a_value_fitting_no_country_is_no_country_name(tmp_path: Path) -> None:
    text = (
        "Name,Phone,Note\nAna,55 1234 5695,M?xico\nBo,303-555-4952,Ab?cd\n"
        "Cy,303-555-4953,Xy?z\nDi,613-555-0127,Canad?\n"
    )
    assert not _country_warning(_warnings(tmp_path, text))


@pytest.mark.parametrize("header", ["Location", "Market", "Region"])
def test_two_rows_of_country_names_are_enough(tmp_path: Path, header: str) -> None:
    text = f"Nombre,Telefono,{header}\nAna,55 1234 5696,Mexico\nBo,303-555-4954,USA\n"
    (warning,) = _country_warning(_warnings(tmp_path, text))
    assert warning.startswith(f"Column C ('{header}') holds country names ('Mexico')")


def test_few_rows_need_every_value_a_country_name(tmp_path: Path) -> None:
    text = "Nombre,Telefono,Location\nAna,55 1234 5696,Mexico\nBo,303-555-4954,Denver\n"
    assert not _country_warning(_warnings(tmp_path, text))


def test_few_rows_of_the_default_codes_country_say_nothing(tmp_path: Path) -> None:
    text = "Nombre,Telefono,Location\nAna,303-555-4955,USA\nBo,303-555-4954,Canada\n"
    assert not _country_warning(_warnings(tmp_path, text))
