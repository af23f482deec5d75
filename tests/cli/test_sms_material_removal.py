"""A removal takes entries off the DNC list only, so the SMS opt-out list's own material is
no removal file (black-box B31 F1, F3): DNC Desk's report of an import into the SMS opt-out
list, and its export of that list, are refused before anything is sent; a CSV export, which
does not say its list, is warned of. A workbook keeping both lists on sheets of their own is
read on the sheet named for the list the job writes (F5)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.api.client import ApiClient
from app.cli.main import main
from tests.conftest import TOKEN

# Two consumers asked by phone not to be called; the same numbers later texted STOP.
VERBAL = "phone,reason\n3125550301,verbal request\n3125550308,verbal request\n"
STOPS = "phone,reason\n3125550301,STOP reply\n3125550308,STOP reply\n3125550309,STOP reply\n"


@pytest.fixture(autouse=True)
def token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _run(capsys: pytest.CaptureFixture[str], argv: list[str]) -> tuple[int, dict[str, Any]]:
    status = main([*argv, "--json"])
    return status, dict(json.loads(capsys.readouterr().out))


def _listed(sandbox: Any) -> list[str]:
    with ApiClient(sandbox.base_url, TOKEN) as api:
        return sorted(e.phone_number for e in api.iter_dnc())


def _both_lists(tmp_path: Path, sandbox: Any, capsys: pytest.CaptureFixture[str]) -> None:
    verbal, stops = tmp_path / "verbal.csv", tmp_path / "stops.csv"
    verbal.write_text(VERBAL)
    stops.write_text(STOPS)
    url = ["--scope", "global", "--base-url", sandbox.base_url]
    assert _run(capsys, ["import", str(verbal), "--into", "dnc", *url])[0] == 0
    report = tmp_path / "sms_report.xlsx"
    argv = ["import", str(stops), "--into", "sms-opt-out", *url, "--report", str(report)]
    assert _run(capsys, argv)[0] == 0


def test_the_report_of_an_sms_import_is_refused_for_a_removal(
    tmp_path: Path, sandbox: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    _both_lists(tmp_path, sandbox, capsys)
    argv = ["remove", str(tmp_path / "sms_report.xlsx"), "--scope", "global", "--per-row-scope"]
    status, data = _run(capsys, [*argv, "--base-url", sandbox.base_url, "--note", "undo"])
    assert status == 1
    assert data["error"] == (
        "sms_report.xlsx is the report of an import into the SMS opt-out list (its Summary "
        "says Target sms-opt-out): a removal takes entries off the DNC list, which that job "
        "did not write; nothing was sent."
    )
    assert _listed(sandbox) == ["3125550301", "3125550308"]  # the verbal requests stay


def test_the_report_of_a_dnc_import_is_still_read_for_a_removal(
    tmp_path: Path, sandbox: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    src = tmp_path / "verbal.csv"
    src.write_text(VERBAL)
    report = tmp_path / "dnc_report.xlsx"
    url = ["--scope", "global", "--base-url", sandbox.base_url]
    assert (
        _run(capsys, ["import", str(src), "--into", "dnc", *url, "--report", str(report)])[0] == 0
    )
    status, data = _run(capsys, ["remove", str(report), *url, "--note", "undo"])
    assert (status, data["removed"]) == (0, 2)
    assert _listed(sandbox) == []


def test_an_export_of_the_sms_list_is_refused_for_a_removal(
    tmp_path: Path, sandbox: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    _both_lists(tmp_path, sandbox, capsys)
    export = tmp_path / "sms_export.xlsx"
    argv = ["export", "sms-opt-out", "--out", str(export), "--base-url", sandbox.base_url]
    assert _run(capsys, argv)[0] == 0
    argv = ["remove", str(export), "--scope", "global", "--per-row-scope", "--note", "undo"]
    status, data = _run(capsys, [*argv, "--base-url", sandbox.base_url])
    assert status == 1
    assert data["error"] == (
        "sms_export.xlsx is an export of the SMS opt-out list (its About sheet says List SMS "
        "opt-out list): a removal takes entries off the DNC list, which are not that list's "
        "entries; nothing was sent."
    )
    assert _listed(sandbox) == ["3125550301", "3125550308"]


def test_a_csv_export_is_warned_of_as_not_saying_its_list(
    tmp_path: Path, sandbox: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    _both_lists(tmp_path, sandbox, capsys)
    export = tmp_path / "sms_export.csv"
    argv = ["export", "sms-opt-out", "--out", str(export), "--base-url", sandbox.base_url]
    assert _run(capsys, argv)[0] == 0
    status, data = _run(capsys, ["remove", str(export), "--scope", "global", "--dry-run"])
    assert status == 0
    assert any(
        str(w).startswith(
            "sms_export.csv is read as a DNC Desk export (its header is an export's), which as "
            "a text file does not say which list it was exported from"
        )
        for w in data["warnings"]
    )


def _two_sheets(path: Path, first: str, second: str) -> Path:
    book = openpyxl.Workbook()
    sheet = book.active
    assert sheet is not None
    sheet.title = first
    sheet.append(["Phone", "Date received"])
    for n in range(1, 6):
        sheet.append([f"+1312555600{n}", "2026-11-20"])
    other = book.create_sheet(second)
    other.append(["Phone", "Date received"])
    for n in range(1, 6):
        other.append([f"+1312555700{n}", "2026-11-20"])
    book.save(path)
    return path


@pytest.mark.parametrize(
    ("sheets", "argv", "read"),
    [
        (("DNC", "SMS Opt-outs"), ["import", "--into", "sms-opt-out"], "SMS Opt-outs"),
        (("SMS Opt-outs", "DNC"), ["import", "--into", "dnc"], "DNC"),
        (("SMS Opt-outs", "DNC"), ["remove"], "DNC"),
        (("DNC", "SMS Opt-outs"), ["import", "--into", "dnc"], "DNC"),
        (("Text STOPs", "Do Not Call"), ["import", "--into", "dnc"], "Do Not Call"),
    ],
)
def test_the_sheet_named_for_the_list_is_read(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    sheets: tuple[str, str],
    argv: list[str],
    read: str,
) -> None:
    src = _two_sheets(tmp_path / "both.xlsx", *sheets)
    command = [argv[0], str(src), *argv[1:], "--scope", "global", "--dry-run"]
    status, data = _run(capsys, command)
    assert status == 0, data
    assert data["sheet"] == read


def _opt_out_sheets(path: Path, names: list[str], hidden: str = "") -> Path:
    """A workbook of sheets ``names`` (``hidden`` hidden), each of the same layout, sheet i
    holding +1 312 555 6i0n for n in 1..3."""
    book = openpyxl.Workbook()
    for i, name in enumerate(names):
        sheet = book.create_sheet(name)
        sheet.append(["Name", "Phone"])
        for n in range(1, 4):
            sheet.append([f"Person {n}", f"+1312555{6 + i}00{n}"])
        if name == hidden:
            sheet.sheet_state = "hidden"
    del book[book.sheetnames[0]]
    book.save(path)
    return path


@pytest.mark.parametrize(
    ("names", "into", "read", "other"),
    [
        (["Contacts", "Opt Outs", "Secret", "SMS Opt-outs"], "sms-opt-out", 3, "Opt Outs"),
        (["Opt Outs", "SMS Opt-outs"], "sms-opt-out", 1, "Opt Outs"),
        (["Opt Outs", "Do Not Call"], "dnc", 1, "Opt Outs"),
    ],
)
def test_among_opt_out_sheets_the_one_named_for_the_list_is_read(
    tmp_path: Path,
    sandbox: Any,
    capsys: pytest.CaptureFixture[str],
    names: list[str],
    into: str,
    read: int,
    other: str,
) -> None:
    # black-box bb12 F2: 'Opt Outs' was read for an SMS import beside 'SMS Opt-outs'.
    src = _opt_out_sheets(tmp_path / "wb.xlsx", names, hidden="Secret")
    argv = ["import", str(src), "--into", into, "--scope", "global"]
    status, data = _run(capsys, [*argv, "--base-url", sandbox.base_url])
    assert status == 0, data
    assert data["sheet"] == names[read]
    with ApiClient(sandbox.base_url, TOKEN) as api:
        found = api.iter_sms() if into == "sms-opt-out" else api.iter_dnc()
        listed = sorted(e.phone_number for e in found)
    assert listed == [f"312555{6 + read}00{n}" for n in range(1, 4)]
    # The opt-out sheet passed over is named, with the option that reads it.
    said = [w for w in data["warnings"] if f"Sheet {other!r} of wb.xlsx" in w]
    assert len(said) == 1 and f"--sheet {other!r}" in said[0], data["warnings"]


@pytest.mark.parametrize(
    ("names", "into", "read"),
    [
        (["Opt-outs", "SMS Leads"], "sms-opt-out", 0),
        (["Opt-outs", "SMS Campaign Contacts"], "sms-opt-out", 0),
        (["Opt-outs", "Text Blast List"], "sms-opt-out", 0),
        (["Opt-outs", "Call Log"], "dnc", 0),
        (["Opt-outs", "Calls"], "dnc", 0),
        (["Opt-outs", "Calls Made"], "dnc", 0),
        (["Opt Outs", "SMS Opt-outs"], "sms-opt-out", 1),
        (["Opt-outs", "Text Unsubscribes"], "sms-opt-out", 1),
    ],
)
def test_a_sheet_naming_the_list_but_not_opt_outs_is_not_read_over_the_opt_outs(
    tmp_path: Path,
    sandbox: Any,
    capsys: pytest.CaptureFixture[str],
    names: list[str],
    into: str,
    read: int,
) -> None:
    # black-box bb16 F6: beside 'Opt-outs', a sheet of leads or dialled numbers merely named
    # for the list ('SMS Leads', 'Call Log') was read, putting numbers that never opted out on
    # the list; only a sheet whose name says opt-outs too is read before the generic one.
    src = _opt_out_sheets(tmp_path / "wb.xlsx", names)
    argv = ["import", str(src), "--into", into, "--scope", "global"]
    status, data = _run(capsys, [*argv, "--base-url", sandbox.base_url])
    assert status == 0, data
    assert data["sheet"] == names[read]
    with ApiClient(sandbox.base_url, TOKEN) as api:
        found = api.iter_sms() if into == "sms-opt-out" else api.iter_dnc()
        listed = sorted(e.phone_number for e in found)
    assert listed == [f"312555{6 + read}00{n}" for n in range(1, 4)]
