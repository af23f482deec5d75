"""The file-level warning on rows refused as US numbers that are another country's counts
the digits that are, as they stand, a valid number of a country writing no leading 0 (Italy's
mobile 3471234567), as the rows' own messages name that reading first (black-box FXJ leftover:
an Italian CSV read under the default code was advised --phone-code 44, for the United
Kingdom, counting only the readings with a 0 put back).
"""

from __future__ import annotations

from pathlib import Path

from tests.core.test_damage_scientific_and_lost_zeros import stage, write_csv

ITALIAN = [
    "3339141777",
    "3893170669",
    "3470806360",
    "3934068124",
    "3485868344",
    "3938690736",
    "3892585178",
    "3482865707",
    "3471234567",
    "3401234568",
    "0558288360",
    "0555983867",
    "0218401107",
    "0643419254",
    "0622482447",
    "0668850100",
    "0612345678",
    "0287654321",
    "0554567890",
    "0698765432",
]
UK_LOST_ZERO = [f"79111234{n:02d}" for n in range(50, 70)]


def _country_warning(warnings: list[str]) -> str:
    said = [w for w in warnings if "not valid US numbers" in w]
    assert len(said) == 1, warnings
    return said[0]


def test_an_italian_csv_is_advised_italy_first(tmp_path: Path) -> None:
    source = write_csv(
        tmp_path / "italy.csv", ["Name,Phone", *(f"P{i},{n}" for i, n in enumerate(ITALIAN))]
    )
    _, warnings, _ = stage(source)
    warning = _country_warning(warnings)
    assert "--phone-code 39 for Italy / Vatican" in warning
    # Named first, as the country most rows fit, before any lost-0 reading's country.
    assert warning.index("--phone-code 39") == warning.index("--phone-code")
    assert "Italy / Vatican (" in warning
    assert "--phone-code 44" not in warning
    assert "as written or with a leading 0" in warning
    assert "are valid Italy / Vatican numbers as written" in warning


def test_a_uk_csv_that_lost_its_zeros_is_still_advised_the_uk_first(tmp_path: Path) -> None:
    source = write_csv(
        tmp_path / "uk.csv", ["Name,Phone", *(f"P{i},{n}" for i, n in enumerate(UK_LOST_ZERO))]
    )
    _, warnings, _ = stage(source)
    warning = _country_warning(warnings)
    assert "20 rows read under the default country code 1" in warning
    assert "United Kingdom (20 of 20 rows)" in warning
    assert "--phone-code 44 for United Kingdom" in warning
    assert "as written" not in warning
    assert "written with a leading 0" in warning
