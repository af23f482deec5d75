"""Black-box pass V3 (regressions of Y1 105ed23): phone columns refused for a measure's word.

Y1 made a header naming a quantity or a price ("Volume", "Qty", "Total") never read as the
phone column by content. Any header holding one such word was caught: "Sales Contact", "DNC
Total", "High Priority", "Open Leads", "Opt-Outs (Total)" were refused ("No column of phone
numbers was found"), and beside another numeric column the refusal named only that one
("'Agent Line' holds phone numbers"), sending the user to import the agent's own line. A header
is a measure's only when it says nothing else; such a column of phone numbers is named.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings, MappingError

NUMBERS = [
    "303-555-0101", "(720) 555-0142", "212.555.0187", "+1 415 555 0133", "3125550176",
    "617-555-0119", "206 555 0168", "(404) 555-0123",
]  # fmt: skip


def _write(tmp_path: Path, header: str, first: list[str]) -> Path:
    path = tmp_path / "file.csv"
    lines = [header] + [f"{a},{b}" for a, b in zip(first, NUMBERS, strict=True)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _stage(path: Path) -> tuple[str, int]:
    store, summary = stage_import(
        JobSettings(path, Scope.global_()), path.parent / "jobs", connection=None
    )
    mapping = dict(store.meta().get("mapping") or {})
    store.close()
    return mapping["phone"], summary.valid


def _refusal(path: Path) -> str:
    with pytest.raises(MappingError) as refused:
        stage_import(JobSettings(path, Scope.global_()), path.parent / "jobs", connection=None)
    return str(refused.value)


@pytest.mark.parametrize(
    "header",
    [
        "Sales Contact", "Inside Sales", "Sales", "High Priority", "High Priority DNC",
        "Low Risk", "Opt-Outs (Total)", "Total List", "DNC Total", "Open Leads",
        "Contact (Sales)", "Charge Dispute Caller", "Balance Inquiry Caller",
        "Fee Complaint Contact", "Score", "Views", "Revenue Team", "Age 65+ Consumers",
        "Weight Loss Leads", "Contacto Valor", "Kontakt Umsatz", "Rufnummern gesamt",
    ],
)  # fmt: skip
def test_a_list_header_with_a_measure_word_is_read(tmp_path: Path, header: str) -> None:
    names = [f"Person {i}" for i in range(len(NUMBERS))]
    path = _write(tmp_path, f'Name,"{header}"', names)
    phone, valid = _stage(path)
    assert phone == f"{header} (column B)"
    assert valid == len(NUMBERS)


def test_the_list_is_read_beside_the_agents_own_line(tmp_path: Path) -> None:
    # own2/x04: "Agent Line" holds the agent's one number on every row, "Total DNC" the list.
    path = _write(tmp_path, "Agent Line,Total DNC", ["3035559999"] * len(NUMBERS))
    assert _stage(path) == ("Total DNC (column B)", len(NUMBERS))


def test_sales_contact_is_read_beside_a_ref_of_ten_digits(tmp_path: Path) -> None:
    # own2/x01: the refusal named only "Ref".
    path = _write(tmp_path, "Ref,Sales Contact", [f"30355501{i:02}" for i in range(8)])
    assert _stage(path) == ("Sales Contact (column B)", len(NUMBERS))


def test_a_refusal_names_a_measure_column_of_phone_numbers_too(tmp_path: Path) -> None:
    # A header that is a measure's alone is not read by content; when the file is refused,
    # it is named beside the other candidate, so the user sees both.
    path = _write(tmp_path, "Ref,Total", [f"30355501{i:02}" for i in range(8)])
    said = _refusal(path)
    assert said.startswith("No column of phone numbers was found in file.csv"), said
    assert "'Ref' (column A) and 'Total' (column B) hold phone numbers" in said, said
    assert "read only when chosen as the phone column" in said, said


@pytest.mark.parametrize(
    "header",
    ["Volume", "Adj Close", "Qty", "Total Amount", "Unit Price", "NSN", "Open"],
)
def test_a_header_that_is_a_measure_alone_is_still_refused(tmp_path: Path, header: str) -> None:
    names = [f"Person {i}" for i in range(len(NUMBERS))]
    said = _refusal(_write(tmp_path, f"Name,{header}", names))
    assert said.startswith("No column of phone numbers was found in file.csv"), said
    assert f"'{header}' (column B) holds phone numbers" in said, said
