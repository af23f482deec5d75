"""Black-box B9 #7: a text cell of zeros ('0000000000', a template's blank) was called a
number cut short by scientific notation ("(0E+09) … any number from -5000 to 4999"): a
display shows a number from its first significant digit, so zeros first were typed so. And
the warning on numbers that may be cut short said an invalid one "is imported as read"."""

from __future__ import annotations

from pathlib import Path

from app.api.scope import Scope
from app.core import phones
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.sheet_damage import cut_short, describe_damage


def test_zeros_alone_or_first_are_not_a_number_cut_short() -> None:
    assert not cut_short("0000000000")
    assert not cut_short("0202000000")
    result = phones.normalize("0000000000", "1")
    assert describe_damage("0000000000", result) == ""


def test_a_number_cut_short_is_still_named() -> None:
    assert cut_short("2025550000")
    note = describe_damage("2025550000", phones.normalize("2025550000", "1"))
    assert "any number from 2025545000 to 2025554999" in note
    note = describe_damage(2025550000, phones.normalize(2025550000, "1"))
    assert "any number from 2025545000 to 2025554999" in note


def test_the_cut_short_warning_counts_only_rows_it_imports(tmp_path: Path) -> None:
    # 2020000000 (exchange 000) is refused; only 2025550000 goes in as read.
    path = tmp_path / "cut.csv"
    path.write_text("Phone,Reason\n2020000000,x\n2025550000,y\n3035550101,ok\n")
    store, _ = stage_import(JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None)
    warnings = list(store.meta().get("warnings") or [])
    store.close()
    cut = [w for w in warnings if "digits after the sixth are all zeros" in w]
    assert len(cut) == 1
    assert cut[0].startswith("1 row holds a number of ten digits or more whose digits after the")
    assert "(row 3)" in cut[0] and "It is imported as read" in cut[0]
    damaged = [w for w in warnings if w.startswith("2 rows were read from phone cells")]
    assert damaged and "1 of them is invalid" in damaged[0]
