"""Black-box pass H2: which column is read as the phone numbers and which as their country code.

1. A header naming other digits ("Account Number", "Order Number", "Policy Number") is never
   read as the phone column by its word "number": a header naming a phone line ("Home Phone",
   "Phone (Mobile)", "SMS Number", "Cell #", "Contact #", "Ph#", "Telefonnummer", "Número de
   teléfono", "MDN", "CTN") is, wherever each column is.
2. A column headed as a dialling code ("Country Code") is read before one headed "Country",
   whatever their order.
3. Country headers ("Country/Region", "Land", "Pays", "País", "Country Name", "Home Country",
   "Country ISO", "Ländercode", "Código de país", "Indicatif") are read as the country code;
   of Outlook's several Country/Region columns, the one of the phone column's kind.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.sheet_mapping import propose_mapping

ACCOUNTS = ["3035551801", "3035551802", "3035551803"]
MOBILES = ["(202) 555-1801", "(202) 555-1802", "(202) 555-1803"]
NATIONALS = ["2025551801", "2025551802", "2025551803"]


def _csv(tmp_path: Path, lines: list[str], name: str = "file.csv") -> Path:
    path = tmp_path / name
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _stage(path: Path, tmp_path: Path) -> tuple[dict[str, str], list[tuple[str, str, str]]]:
    """The mapping of staging ``path`` and each row's (code, national number, message)."""
    store, _ = stage_import(JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None)
    try:
        mapping = dict(store.meta().get("mapping") or {})
        rows = [(row.phone_code, row.national, row.message) for row in store.rows()]
    finally:
        store.close()
    return mapping, rows


def test_the_cli_reads_the_mobiles_not_the_account_numbers(tmp_path: Path) -> None:
    lines = ["Account Number,First Name,Last Name,Phone (Mobile),Opt-Out Date"]
    lines += [
        f'{acct},Ann,Lee,"{mobile}",11/1{i}/2026'
        for i, (acct, mobile) in enumerate(zip(ACCOUNTS, MOBILES, strict=True))
    ]
    path = _csv(tmp_path, lines, "acct.csv")
    env = dict(os.environ)
    env.update(
        DNC_DESK_CONFIG_DIR=str(tmp_path / "cfg"),
        DNC_DESK_DATA_DIR=str(tmp_path / "data"),
    )
    cli = Path(sys.executable).with_name("dnc-desk")
    argv = [str(cli), "import", str(path), "--into", "dnc"]
    argv += ["--scope", "global", "--dry-run", "--json"]
    done = subprocess.run(argv, capture_output=True, text=True, env=env, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["mapping"]["phone"] == "Phone (Mobile) (column D)"
    assert result["valid"] == 3
    assert not any("Phone (Mobile)" in str(w) for w in result["warnings"]), result["warnings"]


@pytest.mark.parametrize("other", ["Account Number", "Order Number", "Policy Number"])
@pytest.mark.parametrize(
    "phone",
    [
        "Home Phone",
        "Work Phone",
        "Phone (Home)",
        "Phone (Mobile)",
        "SMS Number",
        "Cell #",
        "Contact #",
        "Ph#",
        "Telefonnummer",
        "Número de teléfono",
        "MDN",
        "CTN",
    ],
)
def test_a_phone_line_header_beats_one_naming_other_digits_in_column_a(
    other: str, phone: str, tmp_path: Path
) -> None:
    lines = [f"{other},{phone}"]
    lines += [f'{a},"{m}"' for a, m in zip(ACCOUNTS, MOBILES, strict=True)]
    mapping, rows = _stage(_csv(tmp_path, lines), tmp_path)
    assert mapping["phone"] == f"{phone} (column B)"
    assert [national for _, national, _ in rows] == NATIONALS


@pytest.mark.parametrize("phone", ["Telefonnummer", "Contact #", "Ph#", "MDN", "Telefon"])
def test_a_phone_line_header_beats_account_number_in_column_c(phone: str, tmp_path: Path) -> None:
    lines = [f"{phone},Name,Account Number"]
    lines += [f'"{m}",Ann,{a}' for a, m in zip(ACCOUNTS, MOBILES, strict=True)]
    mapping, rows = _stage(_csv(tmp_path, lines), tmp_path)
    assert mapping["phone"] == f"{phone} (column A)"
    assert [national for _, national, _ in rows] == NATIONALS


def test_a_line_header_beats_a_bare_number_header_before_it() -> None:
    rows = [(i + 2, [a, m]) for i, (a, m) in enumerate(zip(ACCOUNTS, MOBILES, strict=True))]
    assert propose_mapping(["Ticket Number", "Home Phone"], rows).phone == 1
    assert propose_mapping(["Member No", "Customer Phone"], rows).phone == 1


def test_an_account_number_column_alone_is_not_the_phone_column_by_its_header() -> None:
    rows = [(i + 2, [a, "Ann"]) for i, a in enumerate(ACCOUNTS)]
    assert propose_mapping(["Policy Number", "Name"], rows).phone is None


@pytest.mark.parametrize(
    ("lines", "read"),
    [
        (
            ["Phone,Country,Country Code", "55 1234 5611,United States,52", "5512345612,,52"],
            "Country Code (column C)",
        ),
        (
            ["Phone,Country Code,Country", "55 1234 5611,52,United States", "5512345612,52,"],
            "Country Code (column B)",
        ),
        (
            ["Phone,Country,Dial Code", "55 1234 5611,USA,52", "5512345612,,+52"],
            "Dial Code (column C)",
        ),
    ],
)
def test_a_dialling_code_column_beats_a_country_column_in_either_order(
    lines: list[str], read: str, tmp_path: Path
) -> None:
    mapping, rows = _stage(_csv(tmp_path, lines), tmp_path)
    assert mapping["phone_code"] == read
    assert [(code, national) for code, national, _ in rows] == [
        ("52", "5512345611"),
        ("52", "5512345612"),
    ]


@pytest.mark.parametrize(
    ("header", "value", "code", "phone", "national"),
    [
        ("Country/Region", "Mexico", "52", "55 1234 5620", "5512345620"),
        ("Home Country/Region", "Mexico", "52", "55 1234 5620", "5512345620"),
        ("Business Country/Region", "Mexico", "52", "55 1234 5620", "5512345620"),
        ("Country Name", "Mexico", "52", "55 1234 5620", "5512345620"),
        ("Land", "Deutschland", "49", "030 12345679", "3012345679"),
        ("Pays", "France", "33", "01 42 68 53 00", "142685300"),
        ("País", "México", "52", "55 1234 5620", "5512345620"),
        ("Nation", "Germany", "49", "030 12345679", "3012345679"),
        ("Home Country", "Mexico", "52", "55 1234 5620", "5512345620"),
        ("Country ISO", "DE", "49", "030 12345679", "3012345679"),
        ("Ländercode", "DE", "49", "030 12345679", "3012345679"),
        ("Código de país", "52", "52", "55 1234 5620", "5512345620"),
        ("Indicatif", "33", "33", "01 42 68 53 00", "142685300"),
    ],
)
def test_a_country_header_gives_the_country_code(
    header: str, value: str, code: str, phone: str, national: str, tmp_path: Path
) -> None:
    lines = [f"Name,Mobile Phone,{header}", f"Juan,{phone},{value}", f"Li,{phone},{value}"]
    mapping, rows = _stage(_csv(tmp_path, lines), tmp_path)
    assert mapping["phone_code"] == f"{header} (column C)"
    assert rows[0][:2] == (code, national)


OUTLOOK_HEADER = (
    '"First Name","Business Phone","Home Phone","Mobile Phone","Business Country/Region",'
    '"Home Country/Region","Other Country/Region"'
)


def test_outlook_mobiles_take_the_home_country(tmp_path: Path) -> None:
    lines = [
        OUTLOOK_HEADER,
        '"Juan","","","55 1234 5620","United States","Mexico",""',
        '"Li","","","81 2345 6700","United States","Mexico","Germany"',
    ]
    mapping, rows = _stage(_csv(tmp_path, lines), tmp_path)
    assert mapping["phone"] == "Mobile Phone (column D)"
    assert mapping["phone_code"] == "Home Country/Region (column F)"
    assert [(code, national) for code, national, _ in rows] == [
        ("52", "5512345620"),
        ("52", "8123456700"),
    ]


def test_outlook_business_phones_take_the_business_country(tmp_path: Path) -> None:
    lines = [
        OUTLOOK_HEADER,
        '"Juan","030 12345679","","","Germany","Mexico",""',
        '"Li","030 12345670","","","Germany","Mexico",""',
    ]
    mapping, rows = _stage(_csv(tmp_path, lines), tmp_path)
    assert mapping["phone"] == "Business Phone (column B)"
    assert mapping["phone_code"] == "Business Country/Region (column E)"
    assert [code for code, _, _ in rows] == ["49", "49"]


def test_an_empty_country_column_gives_way_to_one_with_values(tmp_path: Path) -> None:
    lines = [
        OUTLOOK_HEADER,
        '"Juan","","","55 1234 5620","Mexico","",""',
        '"Li","","","81 2345 6700","Mexico","",""',
    ]
    mapping, rows = _stage(_csv(tmp_path, lines), tmp_path)
    assert mapping["phone_code"] == "Business Country/Region (column E)"
    assert [code for code, _, _ in rows] == ["52", "52"]


def test_euro_numbers_under_land_are_read_with_their_country(tmp_path: Path) -> None:
    lines = [
        "Name;Telefon;Land;Betrag",
        "Müller;+49 30 12345678;Deutschland;12,50",
        "Weiß;030 12345679;DE;1.234,00",
        "Smith;2025550143;USA;0,00",
        "Dupont;01 42 68 53 00;France;3,1",
    ]
    mapping, rows = _stage(_csv(tmp_path, lines), tmp_path)
    assert mapping["phone"] == "Telefon (column B)"
    assert mapping["phone_code"] == "Land (column C)"
    assert [(code, national) for code, national, _ in rows] == [
        ("49", "3012345678"),
        ("49", "3012345679"),
        ("1", "2025550143"),
        ("33", "142685300"),
    ]
