"""Black-box B7 #1 (session 19): countries written in their own languages ("Sverige",
"Norge", "Suomi", "Danmark", "Polska", "日本") were no country DNC Desk knew, so a Nordic
list's Country column was not read and its rows were all read under one default code. They
are now read as their countries' calling codes, and none of them changes what a name read
before reads as."""

from __future__ import annotations

import phonenumbers
import pytest

from app.core import country_names, phones

ENDONYMS = [
    ("Sverige", "46"),
    ("Norge", "47"),
    ("Suomi", "358"),
    ("Danmark", "45"),
    ("Polska", "48"),
    ("Deutschland", "49"),
    ("Österreich", "43"),
    ("España", "34"),
    ("Italia", "39"),
    ("Nederland", "31"),
    ("België", "32"),
    ("Belgique", "32"),
    ("Schweiz", "41"),
    ("Suisse", "41"),
    ("Svizzera", "41"),
    ("Éire", "353"),
    ("Ελλάδα", "30"),
    ("Magyarország", "36"),
    ("Česko", "420"),
    ("Türkiye", "90"),
    ("日本", "81"),
    ("中国", "86"),
    ("대한민국", "82"),
    ("Россия", "7"),
    ("Brasil", "55"),
    ("México", "52"),
    ("Hrvatska", "385"),
    ("Eesti", "372"),
    ("România", "40"),
    ("Việt Nam", "84"),
    # As lists write them: another case, spaces around, accents lost.
    ("SVERIGE", "46"),
    ("  norge ", "47"),
    ("Magyarorszag", "36"),
    ("Cesko", "420"),
]


@pytest.mark.parametrize(("name", "code"), ENDONYMS)
def test_a_country_in_its_own_language_gives_its_calling_code(name: str, code: str) -> None:
    assert phones.normalize_code(name) == code


def test_each_own_name_is_its_own_countrys() -> None:
    # Every name the table adds reads as its region's code, not another region's the other
    # tables gave the same key (the later table would win unnoticed).
    for region, names in country_names._OWN_NAMES.items():
        code = str(phonenumbers.country_code_for_region(region))
        for name in names:
            assert phones.normalize_code(name) == code, (region, name)


def test_georgia_and_island_stay_out() -> None:
    # "Georgia" is the US state in a Country column, and "Island" (Iceland's own name
    # without its accent) a word of many places.
    assert phones.normalize_code("Georgia") == "1"
    assert phones.normalize_code("Island") is None
    assert phones.normalize_code("Sakartvelo") is None
