"""Warnings naming a country say "an India list", not "a India list" (black-box B24 F7,
in_ragged_labels.csv)."""

from __future__ import annotations

from pathlib import Path

from app.core.phones import with_article
from tests.core.test_damage_scientific_and_lost_zeros import stage

_INDIAN_MOBILES = (
    "Karthick,mobile,7708508855,\n"
    "Arun,mobile,7708508855,mobile,8610505689,\n"
    "Jeeva,mobile,7708508855,\n"
    "Arun P R,mobile,8610505689,\n"
    "Sivapradeep,mobile,1234567890,\n"
    "Keerthi Vibisan,mobile,9876543216,\n"
    "Sudharshan,home,1122334455,mobile,5544332211,\n"
    "Vinnava,work,9911882277,home,1234432112,\n"
    "Balasuriya,mobile,7788990077,work,1133224455,home,8987667890,\n"
    "Renjith,mobile,5677654575,home,8822773366,\n"
    "White,work,1234432134,\n"
    "Rue,work,3322443321,\n"
)


def test_a_warning_says_an_india_list(tmp_path: Path) -> None:
    path = tmp_path / "in_ragged_labels.csv"
    path.write_text(_INDIAN_MOBILES, encoding="utf-8")
    _, warnings, _ = stage(path)
    said = " ".join(warnings)
    assert "if the file is an India list, remove them" in said, said
    assert "a India" not in said


def test_the_article_follows_the_sound() -> None:
    assert with_article("India") == "an India"
    assert with_article("Italy / Vatican") == "an Italy / Vatican"
    assert with_article("United Kingdom") == "a United Kingdom"
    assert with_article("Germany") == "a Germany"
