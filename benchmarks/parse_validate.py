"""Parse + map + validate a 100,000-row xlsx, against bare python-calamine iteration.

Run: ``.venv/bin/python benchmarks/parse_validate.py [--rows N] [--keep PATH]``. Prints both times
and their ratio (target: at most 2x), plus the check summary so the work is visibly done.
"""

from __future__ import annotations

import argparse
import os
import random
import re
import resource
import sys
import tempfile
import time
import zipfile
from pathlib import Path

import openpyxl
import python_calamine

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.core import phones
from app.core.sheet_check import CheckedRow, CheckOptions, CheckSummary, Outcome, check_rows
from app.core.sheet_mapping import propose_from_preview
from app.core.sheet_reader import open_sheet

UK_MOBILE_PREFIXES = ("7400", "7700", "7911", "7575")


def _us(rng: random.Random) -> str:
    area = rng.choice(("202", "212", "305", "415", "512", "617", "702", "808", "917"))
    return f"{area}{rng.randint(200, 999)}{rng.randint(0, 9999):04d}"


def generate(path: Path, rows: int, seed: int = 7) -> None:
    """A realistic mix: numbers as text and as numbers, punctuation, +1, UK rows, bad rows."""
    rng = random.Random(seed)
    wb = openpyxl.Workbook(write_only=True)
    ws = wb.create_sheet("Opt-outs")
    ws.append(["Phone Number", "Reason", "Country Code"])
    recent: list[list[object]] = []
    for i in range(rows):
        kind = rng.random()
        if recent and kind < 0.03:
            ws.append(rng.choice(recent))
            continue
        if kind < 0.05:
            row: list[object] = [rng.choice(("n/a", "202555", "2.02555E+09", "")), "bad", 1]
        elif kind < 0.15:
            row = [f"0{rng.choice(UK_MOBILE_PREFIXES)}{rng.randint(0, 999999):06d}", "", 44]
        else:
            digits = _us(rng)
            style = i % 5
            cell: object = {
                0: int(digits),
                1: f"({digits[:3]}) {digits[3:6]}-{digits[6:]}",
                2: float(digits),
                3: f"+1{digits}",
                4: digits,
            }[style]
            row = [cell, rng.choice(("customer request", "verbal", "email", "")), 1]
        if len(recent) < 500:
            recent.append(row)
        ws.append(row)
    wb.save(path)


# The attributes LibreOffice Calc writes on every row tag of an xlsx it saves.
LIBREOFFICE_ROW = (
    b' customFormat="false" ht="15" hidden="false" customHeight="false" outlineLevel="0"'
    b' collapsed="false"'
)


def as_libreoffice_writes_rows(source: Path, target: Path) -> None:
    """The same workbook with every row tag carrying LibreOffice's attributes: the layout scan
    reads each tag that may hide its row, and LibreOffice names hidden on every one."""
    with zipfile.ZipFile(source) as zin, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zout:
        for item in zin.infolist():
            data = zin.read(item)
            if item.filename.startswith("xl/worksheets/"):
                data = re.sub(rb'(<row r="\d+")', rb"\1" + LIBREOFFICE_ROW, data)
            zout.writestr(item, data)


def _cpu() -> float:
    """CPU seconds of this process and its finished children (the sheet worker)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def bare_calamine(path: Path) -> tuple[float, float, int]:
    start, cpu = time.perf_counter(), _cpu()
    wb = python_calamine.CalamineWorkbook.from_path(str(path))
    sheet = wb.get_sheet_by_name(wb.sheet_names[0])
    count = 0
    for _ in sheet.iter_rows():
        count += 1
    wb.close()
    return time.perf_counter() - start, _cpu() - cpu, count


def pipeline(path: Path) -> tuple[float, float, CheckSummary]:
    start, cpu = time.perf_counter(), _cpu()
    summary = CheckSummary()
    with open_sheet(path) as source:
        mapping = propose_from_preview(source.preview(50))
        for _ in check_rows(source.iter_rows(), mapping, CheckOptions(), summary):
            pass
    return time.perf_counter() - start, _cpu() - cpu, summary


def read_only(path: Path) -> float:
    """Context: the reader alone (child process, transfer), no checking."""
    start = time.perf_counter()
    with open_sheet(path) as source:
        for _ in source.iter_rows():
            pass
    return time.perf_counter() - start


def floor(path: Path) -> float:
    """Context: the reader and one verdict object per row, nothing checked: the least any
    check yielding a CheckedRow per row can cost here, so the target's room for the check is
    2x bare minus this."""
    start = time.perf_counter()
    valid = Outcome.VALID
    with open_sheet(path) as source:
        for number, cells in source.iter_rows():
            CheckedRow(number, valid, cells[0] if cells else None, "1", "")
    return time.perf_counter() - start


def first_rows(path: Path) -> float:
    """Context: from opening the file to its first rows in this process (the worker's start
    and calamine's parse of the whole sheet): nothing can be checked before, so the check has
    at most 2x bare minus this for its work, however well it overlaps the transfer."""
    start = time.perf_counter()
    with open_sheet(path) as source:
        source.preview(1)
        return time.perf_counter() - start


def check_only(path: Path) -> float:
    """Context: the check alone over rows already in memory (cold phone cache), CPU seconds."""
    with open_sheet(path) as source:
        mapping = propose_from_preview(source.preview(50))
        rows = list(source.iter_rows())
    phones.clear_cache()
    start = time.process_time()
    for _ in check_rows(rows, mapping, CheckOptions(), CheckSummary()):
        pass
    return time.process_time() - start


def phones_only(path: Path) -> float:
    """Context: the phone module alone over the phone column (cold cache), same rows."""
    wb = python_calamine.CalamineWorkbook.from_path(str(path))
    rows = list(wb.get_sheet_by_name(wb.sheet_names[0]).iter_rows())[1:]
    wb.close()
    phones.clear_cache()
    start = time.perf_counter()
    for row in rows:
        phones.normalize(row[0], phones.normalize_code(row[2]) or "1")
    return time.perf_counter() - start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--keep", type=Path, help="write the generated workbook here")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        path = args.keep or Path(tmp) / "bench.xlsx"
        t0 = time.perf_counter()
        generate(path, args.rows)
        print(f"generated {args.rows:,} rows in {time.perf_counter() - t0:.1f} s: {path}")
        bare_times, pipe_times, phone_times, read_times, check_times = [], [], [], [], []
        floor_times, first_times = [], []
        bare_cpu, pipe_cpu = [], []
        summary = CheckSummary()
        count = 0
        for _ in range(args.repeat):
            bare, cpu, count = bare_calamine(path)
            bare_times.append(bare)
            bare_cpu.append(cpu)
            phones.clear_cache()
            piped, cpu, summary = pipeline(path)
            pipe_times.append(piped)
            pipe_cpu.append(cpu)
            phone_times.append(phones_only(path))
            read_times.append(read_only(path))
            floor_times.append(floor(path))
            first_times.append(first_rows(path))
            check_times.append(check_only(path))
        bare, piped = min(bare_times), min(pipe_times)
        print(f"bare python-calamine iteration: {bare:.3f} s ({count:,} rows)")
        print(f"open + header + mapping + check: {piped:.3f} s")
        print(f"ratio: {piped / bare:.2f}x (target <= 2x)")
        print(
            f"CPU seconds (this process + the sheet worker): bare {min(bare_cpu):.3f}, "
            f"pipeline {min(pipe_cpu):.3f}, ratio {min(pipe_cpu) / min(bare_cpu):.2f}x"
        )
        print(
            f"of which the phone module alone (normalize, cold cache): {min(phone_times):.3f} s "
            f"= {min(phone_times) / bare:.2f}x bare calamine"
        )
        print(
            f"the reader alone (child process + transfer): {min(read_times):.3f} s; "
            f"the check alone on rows in memory: {min(check_times):.3f} CPU s"
        )
        least = min(floor_times)
        print(
            f"the reader and one verdict object per row, nothing checked: {least:.3f} s = "
            f"{least / bare:.2f}x bare, leaving {max(0.0, 2 * bare - least):.3f} s for checking "
            f"{count - 1:,} rows within the 2x target"
        )
        first = min(first_times)
        print(
            f"the first rows arrive {first:.3f} s after opening = {first / bare:.2f}x bare "
            f"(worker start + calamine's parse of the whole sheet), leaving "
            f"{max(0.0, 2 * bare - first):.3f} s for transfer and check within the 2x target"
        )
        libre = Path(tmp) / "libreoffice-rows.xlsx"
        as_libreoffice_writes_rows(path, libre)
        libre_bare, libre_piped = [], []
        for _ in range(args.repeat):
            libre_bare.append(bare_calamine(libre)[0])
            phones.clear_cache()
            libre_piped.append(pipeline(libre)[0])
        print(
            f"the same rows with LibreOffice's row attributes: bare {min(libre_bare):.3f} s, "
            f"pipeline {min(libre_piped):.3f} s, ratio {min(libre_piped) / min(libre_bare):.2f}x"
        )
        print(f"load average while measuring: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs")
        print(f"summary: {summary.as_dict()}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
