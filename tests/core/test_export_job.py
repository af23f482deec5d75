"""Exports: every page, splitting past the offset cap, exact missing counts, safe cells,
text phone numbers, the About sheet, a round trip through the reader and LibreOffice."""

from __future__ import annotations

import csv
import datetime as dt
import shutil
import subprocess
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import openpyxl
import pytest
from python_calamine import CalamineWorkbook

from app.api.client import ApiClient, DncQuery
from app.api.limits import PageLimits
from app.api.paging import Cancelled
from app.api.scope import Scope
from app.core.export_job import COLUMNS, ExportJob, ListKind
from app.core.sheet_reader import open_sheet
from tests.conftest import TOKEN


@pytest.fixture
def client(sandbox: Any) -> Iterator[ApiClient]:
    with ApiClient(sandbox.base_url, TOKEN) as api:
        yield api


def _seed_small(sandbox: Any, campaign: str) -> None:
    sandbox.bulk_seed_dnc(
        [(f"20255{i:05d}", "1", "0", '=HYPERLINK("x")' if i == 3 else "", "") for i in range(300)]
        + [("07700900123", "44", campaign, "-rude", ""), ("2025551111", "1", "-1", "", "+Sales")]
    )


@pytest.mark.slow
def test_export_over_offset_cap_is_split_and_complete(
    sandbox: Any, client: ApiClient, tmp_path: Path
) -> None:
    campaign = client.campaigns()[0].id
    # 102,000 rows: one search reaches 101,000; split by scope, each part is reachable.
    sandbox.bulk_seed_dnc((f"3{i:09d}", "1", "0", "", "") for i in range(72_000))
    sandbox.bulk_seed_dnc((f"4{i:09d}", "1", campaign, "", "") for i in range(30_000))
    out = tmp_path / "all.csv"
    result = ExportJob(client, ListKind.DNC, DncQuery(), out, connection_name="Sandbox").run()
    assert (result.total, result.rows, result.unreachable) == (102_000, 102_000, 0)
    assert result.parts == ["scope=global", f"scope=campaign:{campaign}"]
    with out.open(encoding="utf-8-sig", newline="") as fh:
        reader = csv.reader(fh)
        assert next(reader) == list(COLUMNS)
        numbers = [row[0] for row in reader]
    assert len(numbers) == len(set(numbers)) == 102_000


def test_unreachable_rows_are_counted_exactly(
    sandbox: Any, client: ApiClient, tmp_path: Path
) -> None:
    sandbox.bulk_seed_dnc((f"3{i:09d}", "1", "0", "", "") for i in range(1_800))
    sandbox.bulk_seed_dnc((f"5{i:09d}", "44", "0", "", "") for i in range(200))
    job = ExportJob(
        client, ListKind.DNC, DncQuery(), tmp_path / "x.xlsx", connection_name="S", page_size=500
    )
    # A cap of 500 lets one search reach 1,000 rows: the 1,800 global +1 blank-reason rows of
    # one day cannot be split further, so exactly 800 stay out; the +44 rows all come out.
    job.limits = PageLimits("/dnc/search", 100, 1000, max_offset=500)
    result = job.run()
    assert (result.total, result.rows, result.unreachable) == (2_000, 1_200, 800)
    today = dt.date.today().isoformat()
    assert f"scope=global, phone_code=1, insert_date={today}, reason=-BLANK-" in result.parts
    about = dict(openpyxl.load_workbook(result.path)["About"].iter_rows(values_only=True))
    assert about["Rows that could not be reached"] == 800
    assert "800 matching rows" in about["Warning"]


def test_split_by_insert_day_reaches_everything(
    sandbox: Any, client: ApiClient, tmp_path: Path
) -> None:
    sandbox.bulk_seed_dnc((f"3{i:09d}", "1", "0", "", "") for i in range(1_800))
    old = (dt.date.today() - dt.timedelta(days=40)).isoformat()
    sandbox.store.execute(f"UPDATE dnc SET insert_date = '{old} 10:00:00' WHERE id <= 900")
    job = ExportJob(client, ListKind.DNC, DncQuery(), tmp_path / "d.csv", page_size=500)
    job.limits = PageLimits("/dnc/search", 100, 1000, max_offset=500)
    result = job.run()
    assert (result.total, result.rows, result.unreachable) == (1_800, 1_800, 0)
    assert sum(f"insert_date={old}" in p for p in result.parts) == 1


def test_xlsx_export_round_trips_through_reader(
    sandbox: Any, client: ApiClient, tmp_path: Path
) -> None:
    campaign = client.campaigns()[0].id
    _seed_small(sandbox, campaign)
    out = tmp_path / "dnc.xlsx"
    result = ExportJob(client, ListKind.DNC, DncQuery(), out, connection_name="Sandbox").run()
    assert result.rows == 302
    wb = openpyxl.load_workbook(out)
    entries = wb["Entries"]
    assert [c.value for c in entries[1]] == list(COLUMNS)
    phone_cells = [row[0] for row in entries.iter_rows(min_row=2)]
    assert all(c.data_type == "s" for c in phone_cells)
    values = {c.value for c in phone_cells}
    assert "07700900123" in values and "2025500000" in values
    about = dict(wb["About"].iter_rows(values_only=True))
    assert about["Connection"] == "Sandbox" and about["Rows exported"] == 302
    assert about["Filters"] == "all" and about["Rows that could not be reached"] == 0
    with open_sheet(out, "Entries") as source:
        rows = list(source.iter_rows())
    assert len(rows) == 303
    by_number = {cells[0]: cells for _, cells in rows[1:]}
    # Text that could start a formula keeps its exact text (it used to get a literal leading
    # quote, which a re-import then took for part of the reason): a string cell with Excel's
    # quotePrefix style. A plain negative number (the purpose scope's campaign_id) is left alone.
    assert by_number["07700900123"][6] == "-rude"
    assert by_number["2025500003"][6] == '=HYPERLINK("x")'
    assert by_number["2025551111"][7] == "+Sales"
    assert by_number["2025551111"][2] == "purpose:+Sales"
    assert by_number["2025551111"][3] == "-1"
    cells = {row[0].value: row for row in entries.iter_rows(min_row=2)}
    for number, column in (("07700900123", 6), ("2025500003", 6), ("2025551111", 7)):
        assert cells[number][column].data_type == "s" and cells[number][column].quotePrefix
    assert not cells["2025551111"][3].quotePrefix and not cells["2025551111"][0].quotePrefix
    calamine = {
        r[0]: r
        for r in CalamineWorkbook.from_path(str(out)).get_sheet_by_name("Entries").to_python()
    }
    assert calamine["07700900123"][6] == "-rude" and calamine["2025551111"][3] == "-1"
    assert calamine["2025500003"][6] == '=HYPERLINK("x")'


def test_csv_export_quotes_formulas_but_not_plain_negative_numbers(
    sandbox: Any, client: ApiClient, tmp_path: Path
) -> None:
    campaign = client.campaigns()[0].id
    _seed_small(sandbox, campaign)
    out = tmp_path / "dnc.csv"
    ExportJob(client, ListKind.DNC, DncQuery(), out).run()
    with out.open(encoding="utf-8-sig", newline="") as fh:
        by_number = {row[0]: row for row in csv.reader(fh)}
    # campaign_id -1 is the service's code for a purpose entry: other tools must read -1.
    assert by_number["2025551111"][3] == "-1"
    assert by_number["2025551111"][7] == "'+Sales"
    assert by_number["07700900123"][6] == "'-rude"
    assert by_number["2025500003"][6] == '\'=HYPERLINK("x")'


def test_filtered_sms_export_and_cancel(sandbox: Any, client: ApiClient, tmp_path: Path) -> None:
    for i in range(25):
        client.insert_sms(f"20255500{i:02d}", "1", Scope.global_(), reason="STOP")
    client.insert_sms("2025559999", "1", Scope.purpose("Promo"))
    query = DncQuery(scope=Scope.global_())
    result = ExportJob(
        client, ListKind.SMS, query, tmp_path / "sms.csv", page_size=10, connection_name="S"
    ).run()
    assert (result.rows, result.total) == (25, 25)
    cancel = threading.Event()
    cancel.set()
    with pytest.raises(Cancelled):
        ExportJob(client, ListKind.SMS, query, tmp_path / "c.csv", cancel=cancel).run()
    assert not (tmp_path / "c.csv").exists()


needs_soffice = pytest.mark.skipif(
    shutil.which("soffice") is None, reason="LibreOffice (soffice) not installed"
)
# LibreOffice's CSV export: comma separated, double quotes, UTF-8 (76), first sheet.
LO_CSV = "csv:Text - txt - csv (StarCalc):44,34,76,1"


def libreoffice_convert(source: Path, target: str, tmp_path: Path) -> Path:
    """``source`` opened and saved again by LibreOffice as ``target`` (a --convert-to filter:
    LO_CSV, "xlsx"), in ``tmp_path / "lo"``; returns the file it wrote."""
    converted = tmp_path / "lo"
    subprocess.run(
        [
            "soffice",
            "--headless",
            "--norestore",
            f"-env:UserInstallation=file://{tmp_path / 'profile'}",
            "--convert-to",
            target,
            "--outdir",
            str(converted),
            str(source),
        ],
        check=True,
        capture_output=True,
        timeout=120,
    )
    return converted / f"{source.stem}.{target.split(':')[0]}"


@needs_soffice
def test_libreoffice_reads_the_same_values(sandbox: Any, client: ApiClient, tmp_path: Path) -> None:
    campaign = client.campaigns()[0].id
    _seed_small(sandbox, campaign)
    out = tmp_path / "dnc.xlsx"
    ExportJob(client, ListKind.DNC, DncQuery(), out).run()
    with libreoffice_convert(out, LO_CSV, tmp_path).open(encoding="utf-8", newline="") as fh:
        lo_rows = list(csv.reader(fh))
    wb = openpyxl.load_workbook(out, read_only=True)
    ours = [
        ["" if v is None else str(v) for v in r] for r in wb["Entries"].iter_rows(values_only=True)
    ]
    wb.close()
    assert len(lo_rows) == len(ours) == 303
    for lo, mine in zip(lo_rows, ours, strict=True):
        assert lo[: len(mine)] == mine


def test_a_number_filter_finds_the_entry_kept_with_its_trunk_0(
    sandbox: Any, client: ApiClient, tmp_path: Path
) -> None:
    # Black-box finding (pass E): `export --phone-number "+44 20 7946 0009"` wrote 0 rows while
    # the list kept the number as 02079460009 (entered by hand), which a removal finds and
    # deletes as the same number. Both forms are searched; the list did not change.
    sandbox.bulk_seed_dnc(
        [("02079460009", "44", "0", "by hand", ""), ("2079460009", "44", "0", "", "")]
    )
    sandbox.bulk_seed_dnc([("2079460010", "44", "0", "another number", "")])
    query = DncQuery(phone_number="2079460009", phone_code="44")
    out = tmp_path / "one.xlsx"
    result = ExportJob(client, ListKind.DNC, query, out).run()
    rows = list(openpyxl.load_workbook(out)["Entries"].iter_rows(min_row=2, values_only=True))
    numbers = sorted(str(r[COLUMNS.index("phone_number")]) for r in rows)
    assert numbers == ["02079460009", "2079460009"]
    assert (result.rows, result.total, result.unreachable) == (2, 2, 0)
    assert not result.list_changed and result.total_at_end == 2


def test_a_15_digit_number_filter_searches_no_16_digit_trunk_form(
    sandbox: Any, client: ApiClient, tmp_path: Path
) -> None:
    # Black-box B15 #2: a 15-digit number under a code that drops a trunk 0 (49) was also
    # searched with the 0 (16 digits), which the service refuses with code 6006: the export
    # stopped, no file written, though the number was on the list.
    sandbox.bulk_seed_dnc([("123456789012345", "49", "0", "fifteen digits", "")])
    query = DncQuery(phone_number="123456789012345", phone_code="49")
    out = tmp_path / "fifteen.csv"
    result = ExportJob(client, ListKind.DNC, query, out).run()
    with out.open(newline="", encoding="utf-8-sig") as fh:
        rows = list(csv.reader(fh))[1:]
    assert [r[COLUMNS.index("phone_number")] for r in rows] == ["123456789012345"]
    assert (result.rows, result.total, result.unreachable) == (1, 1, 0)
