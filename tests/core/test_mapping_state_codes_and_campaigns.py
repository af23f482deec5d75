"""Black-box pass J1: which columns are read for country codes, campaigns and phone numbers.

A. A "Country" column of US state codes ("IN", "DE", "FL", "NM") read Indiana's numbers as
   India's (+91) and Delaware's as Germany's (+49), without a word: such a column is not read,
   and a warning names it.
B. "Georgia" in a Country column was refused as no country code though the README says it is
   taken for the US state: a US state's full name gives the US code 1.
C. A "Campaign Status" column of "Active" was read as the campaign column, so every row was
   invalid ("no campaign is named 'Active'").
D. Customer, account and contract numbers headed "Kd.-Nr.", "Numero di conto", "N. contratto"
   were offered in a warning as phone columns to import with --phone-column.
E. A "Phone 1" whose every number had an extension, beside a sparse "Phone 2", was named in no
   warning: Phone 2 is read (it holds the only numbers the check takes), and Phone 1 is named.
F. "Irlanda", "Filipinas", "Jamaïque" and a dialling code of "1876" were no country code.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.phones import normalize_code


def _stage(
    tmp_path: Path, text: str, name: str = "file.csv", code: str = "1"
) -> tuple[dict[str, str], list[str], dict[str, tuple[str, str]], int]:
    """The mapping, the warnings, each row's (code, reason) by its phone cell, and how many
    rows are invalid, of staging ``text`` written as a CSV."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    store, summary = stage_import(
        JobSettings(path, Scope.global_(), phone_code=code), tmp_path / "jobs", connection=None
    )
    meta = store.meta()
    rows = {r.original: (r.phone_code, r.message) for r in store.rows()}
    store.close()
    mapping = dict(meta.get("mapping") or {})
    return mapping, [str(w) for w in meta.get("warnings") or []], rows, summary.invalid


# --- A: a Country column of US state codes ---------------------------------------------------

STATES = (
    "Name,Phone,Country\n"
    "a,8126193612,IN\n"
    "b,7656193614,IN\n"
    "c,3026193609,DE\n"
    "d,7196193615,CO\n"
    "e,9176193616,IN\n"
    "f,6786193617,GA\n"
    "g,2176193618,IL\n"
    "h,5056193619,NM\n"
    "i,8126193620,US\n"
    "j,2396193621,FL\n"
)


def test_a_country_column_of_us_state_codes_is_not_read(tmp_path: Path) -> None:
    mapping, warnings, rows, invalid = _stage(tmp_path, STATES)
    assert "phone_code" not in mapping
    assert invalid == 0, rows
    assert rows["8126193612"][0] == "1"  # Indiana, not India
    assert rows["3026193609"][0] == "1"  # Delaware, not Germany
    assert warnings == [
        "Column C ('Country') holds US state codes (NM, FL, IN…), not countries, so it was not "
        "read: every row used the default code +1 (unless its number starts with its own, as "
        "+44), where a code such as IN or DE would have made the number India's or Germany's. "
        "If the column does hold countries, write them as names (India, Germany) and run the "
        "file again."
    ]


def test_a_column_of_state_codes_that_are_country_codes_too_is_not_read(tmp_path: Path) -> None:
    # No code here is only a state's, but four different ones in a column of them is a
    # column of states (an international list is not India, Germany, Gabon and Colombia).
    text = "Phone,Country\n8126193612,IN\n3026193609,DE\n6786193617,GA\n7196193615,CO\n"
    mapping, warnings, rows, invalid = _stage(tmp_path, text)
    assert "phone_code" not in mapping
    assert invalid == 0, rows
    assert warnings and warnings[0].startswith("Column B ('Country') holds US state codes")


def test_a_country_column_of_countries_stays_read(tmp_path: Path) -> None:
    text = (
        "Phone,Country\n"
        "020 7946 0018,GB\n"
        "55 1234 5678,MX\n"
        "030 12345678,DE\n"
        "416-555-0199,CA\n"
        "303-555-0101,US\n"
        "01 23 45 67 89,FR\n"
        "303-555-0102,NY\n"
    )
    mapping, warnings, rows, _ = _stage(tmp_path, text)
    assert mapping["phone_code"] == "Country (column B)"
    assert rows["020 7946 0018"][0] == "44"
    assert rows["030 12345678"][0] == "49"
    assert not any("state codes" in w for w in warnings)


# --- B: US state names in a Country column ---------------------------------------------------


@pytest.mark.parametrize(
    "state", ["Georgia", "New York", "District of Columbia", "Washington, D.C.", "new mexico"]
)
def test_a_us_state_name_in_a_country_column_is_the_us(tmp_path: Path, state: str) -> None:
    text = f'Phone,Country\n404-555-0143,"{state}"\n020 7946 0018,United Kingdom\n'
    mapping, _, rows, invalid = _stage(tmp_path, text)
    assert mapping["phone_code"] == "Country (column B)"
    assert invalid == 0, rows
    assert rows["404-555-0143"][0] == "1"
    assert rows["020 7946 0018"][0] == "44"


def test_a_column_of_state_names_is_not_named_as_country_names(tmp_path: Path) -> None:
    # Under a header naming no role, with another default code: state names are read as code
    # 1 in a Country column, but a "Region" of them names no other country.
    text = "Phone,Region\n020 7946 0018,Texas\n020 7946 0019,Ohio\n020 7946 0020,Florida\n"
    _, warnings, _, invalid = _stage(tmp_path, text, code="44")
    assert invalid == 0
    assert not any("country names" in w for w in warnings), warnings


# --- C: a campaign's status, type or date is not the campaign ---------------------------------


@pytest.mark.parametrize(
    "header", ["Campaign Status", "Campaign Type", "Campaign Start", "Campaign Result"]
)
def test_a_campaign_status_column_is_not_the_campaign(tmp_path: Path, header: str) -> None:
    text = f"Phone,{header}\n303-619-6131,Active\n303-619-6132,Active\n"
    mapping, _, rows, invalid = _stage(tmp_path, text)
    assert "campaign" not in mapping
    assert invalid == 0, rows


def test_a_campaign_name_column_stays_the_campaign(tmp_path: Path) -> None:
    text = "Phone,Campaign Name\n303-619-6131,Spring\n"
    mapping, _, _, _ = _stage(tmp_path, text)
    assert mapping["campaign"] == "Campaign Name (column B)"


# --- D: customer, account and contract numbers in other languages -----------------------------


@pytest.mark.parametrize(
    "header", ["Kd.-Nr.", "Numero di conto", "N. contratto", "KdNr", "Nº cta.", "N° cpte"]
)
def test_a_customer_number_column_is_not_offered_as_phones(tmp_path: Path, header: str) -> None:
    rows = [f"n{i},303619440{i},{f'720-619-410{i}' if i % 2 == 0 else ''}" for i in range(10)]
    text = "\n".join([f"Nombre,{header},Tel.", *rows]) + "\n"
    mapping, warnings, _, _ = _stage(tmp_path, text)
    assert mapping["phone"] == "Tel. (column C)"
    assert not any("Column B" in w for w in warnings), warnings


# --- E: a phone-line column whose every number the check refuses is named ---------------------


@pytest.mark.parametrize("extension", [" x123", " ext. 5", "x1", " #22"])
def test_a_phone_1_of_extensions_is_named_beside_the_phone_2_read(
    tmp_path: Path, extension: str
) -> None:
    rows = [
        f"n{i},303-619-41{i:02d}{extension},{f'720-619-41{i:02d}' if i in (2, 7) else ''}"
        for i in range(12)
    ]
    text = "\n".join(["Name,Phone 1,Phone 2", *rows]) + "\n"
    mapping, warnings, _, _ = _stage(tmp_path, text)
    assert mapping["phone"] == "Phone 2 (column C)"
    # ... and says why running the file on it alone would not do: its numbers are refused.
    assert (
        "Column B ('Phone 1') also holds phone numbers but is not imported: only column C "
        "('Phone 2') is read. To import it too, run the file again with --phone-column column:B."
        " The numbers in column B ('Phone 1') are refused as it writes them (an extension or a "
        "note beside the number): put each number alone in its cell first."
    ) in warnings, warnings


def test_a_phone_column_of_notes_without_numbers_is_not_named(tmp_path: Path) -> None:
    rows = [f"n{i},{'call after 5' if i % 2 else 'no'},720-619-41{i:02d}" for i in range(6)]
    text = "\n".join(["Name,Work Phone,Mobile", *rows]) + "\n"
    mapping, warnings, _, _ = _stage(tmp_path, text)
    assert mapping["phone"] == "Mobile (column C)"
    assert not any("Column B" in w for w in warnings), warnings


# --- F: Spanish, French and German names; a territory's code with its area code ---------------


@pytest.mark.parametrize(
    ("cell", "code"),
    [
        ("Irlanda", "353"),
        ("Irlande", "353"),
        ("Filipinas", "63"),
        ("Philippinen", "63"),
        ("Jamaïque", "1"),
        ("Jamaika", "1"),
        ("República Dominicana", "1"),
        ("Trinité-et-Tobago", "1"),
        ("Países Bajos", "31"),
        ("1876", "1"),
        ("1809", "1"),
    ],
)
def test_foreign_names_and_a_territory_code_give_their_code(cell: str, code: str) -> None:
    assert normalize_code(cell) == code


def test_a_dialling_code_column_of_1876_reads_jamaican_numbers(tmp_path: Path) -> None:
    text = "Phone,Country Code\n876-523-0123,1876\n087 123 4567,353\n"
    mapping, _, rows, invalid = _stage(tmp_path, text)
    assert mapping["phone_code"] == "Country Code (column B)"
    assert invalid == 0, rows
    assert rows["876-523-0123"][0] == "1"
