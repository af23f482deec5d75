"""A sheet whose numbers are split over columns (NPA / NXX / Line) has no phone column: the
refusal says so and how to join them (black-box pass F: it only said no column was found)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings, MappingError, split_number_sentence


def test_npa_nxx_line_columns_are_named_with_the_formula_that_joins_them(tmp_path: Path) -> None:
    path = tmp_path / "split.csv"
    path.write_text("Name,NPA,NXX,Line\nAda,303,555,2001\nBob,720,555,2002\n", encoding="utf-8")
    with pytest.raises(MappingError) as caught:
        stage_import(JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None)
    assert str(caught.value).endswith(
        "The numbers look split over the columns 'NPA' and 'NXX' and 'Line': put each whole "
        "number in one column (a new column holding =B2&C2&D2, filled down, then copied and "
        "pasted as values) and run the file again."
    ), str(caught.value)


def test_only_an_area_code_beside_number_parts_is_a_split_number() -> None:
    assert "'Area Code' and 'Phone Number'" in split_number_sentence(["Area Code", "Phone Number"])
    assert split_number_sentence(["Area Code", "City"]) == ""
    assert split_number_sentence(["Phone", "Reason"]) == ""
