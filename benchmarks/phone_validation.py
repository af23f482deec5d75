"""Phone validation throughput: phonenumbers alone against ``app.core.phones.normalize``.

Run: ``.venv/bin/python benchmarks/phone_validation.py [--rows N] [--seed S] [--xlsx]``

Generates a realistic column (mostly valid US numbers in mixed formats and cell
types, some other countries, ~3 % invalid, ~30 % repeated values) and prints
numbers/s for the baseline (``phonenumbers.parse`` + ``is_valid_number``), for
``normalize`` with its cache cleared (cold) and filled (warm), and the ratios.
With ``--xlsx`` it also writes the column to an xlsx and compares bare
python-calamine iteration with iteration + ``normalize`` (issue target: ≤ 2×).
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import cast

import phonenumbers

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.core import phones

US_AREAS = (
    "202", "212", "213", "305", "312", "404", "415", "469", "512", "602",
    "617", "646", "702", "713", "718", "786", "808", "813", "917", "954",
    "416", "604", "514",
)  # fmt: skip
US_FORMATS = (
    "({a}) {b}-{c}",
    "{a}-{b}-{c}",
    "{a}{b}{c}",
    "+1 {a} {b} {c}",
    "1-{a}-{b}-{c}",
    "{a}.{b}.{c}",
    "+1 ({a}) {b}-{c}",
    "'{a}{b}{c}",
)
OTHER = {
    "44": ("20 7946 {c}", "07700 9{b3}{c3}", "+44 7911 {b3}{c3}", "0113 496 {c}"),
    "61": ("02 9{b3} {c}", "+61 4{b3} {c3}{d2}", "04{b3} {c3} {d2}"),
    "49": ("030 {b3}{c}", "+49 151 {b3}{c}{d1}", "089 {b3} {c}"),
    "33": ("01 {d2} {d2} {d2} {d2}", "+33 6 {d2} {d2} {d2} {d2}"),
    "34": ("91 {b3} {c}{d1}", "+34 6{d2} {b3} {c3}"),
    "91": ("98{b3} {c}{d1}", "+91 98765 {c}{d1}"),
    "86": ("138 {c} {c}", "+86 10 {c} {c}"),
    "52": ("55 {c} {c}", "+52 33 {c} {c}"),
    "55": ("(11) 9{c}-{c}", "+55 21 9{c}-{c}"),
}
INVALID = (
    "(123) 555-0123",
    "555-0123",
    "202-555-0123 x{c3}",
    "1-800-FLOWERS",
    "2.02555E+09",
    "{a}{b}{c}99",
    "+44 20 7946 {c}",
    "",
    "N/A",
)


def _fill(template: str, rng: random.Random) -> str:
    return template.format(
        a=rng.choice(US_AREAS),
        b=rng.randint(200, 999),
        c=f"{rng.randint(0, 9999):04d}",
        b3=f"{rng.randint(0, 999):03d}",
        c3=f"{rng.randint(0, 999):03d}",
        d2=f"{rng.randint(10, 99)}",
        d1=rng.randint(0, 9),
    )


def generate(rows: int, seed: int) -> list[tuple[object, str]]:
    """(cell value, phone code) pairs as an importer would hand them over."""
    rng = random.Random(seed)
    cells: list[tuple[object, str]] = []
    for _ in range(rows):
        roll = rng.random()
        if cells and roll < 0.30:
            cells.append(rng.choice(cells))
            continue
        kind = rng.random()
        if kind < 0.03:
            cells.append((_fill(rng.choice(INVALID), rng), "1"))
        elif kind < 0.18:
            code = rng.choice(tuple(OTHER))
            cells.append((_fill(rng.choice(OTHER[code]), rng), code))
        elif kind < 0.30:
            # Numeric cells: calamine hands these over as floats.
            cells.append((float(_fill("{a}{b}{c}", rng)), "1"))
        else:
            cells.append((_fill(rng.choice(US_FORMATS), rng), "1"))
    return cells


REGION = {"1": "US", "44": "GB", "61": "AU", "49": "DE", "33": "FR"}
REGION |= {"34": "ES", "91": "IN", "86": "CN", "52": "MX", "55": "BR"}


def baseline(cells: Sequence[tuple[object, str]]) -> int:
    valid = 0
    for value, code in cells:
        text = value if isinstance(value, str) else str(value)
        try:
            number = phonenumbers.parse(text, REGION[code])
        except phonenumbers.NumberParseException:
            continue
        valid += phonenumbers.is_valid_number(number)
    return valid


def with_normalize(cells: Sequence[tuple[object, str]]) -> int:
    normalize = phones.normalize
    return sum(normalize(value, code).ok for value, code in cells)


def timed(
    fn: Callable[[], int], repeat: int = 1, before: Callable[[], None] | None = None
) -> tuple[float, int]:
    """Best CPU time of ``repeat`` runs.

    CPU time rather than wall time, and the best of several runs, because this
    machine is shared: other work only ever adds time, never removes it.
    """
    best, result = float("inf"), 0
    for _ in range(repeat):
        if before is not None:
            before()
        start = time.process_time()
        result = fn()
        best = min(best, time.process_time() - start)
    return best, result


def xlsx_comparison(cells: Sequence[tuple[object, str]], repeat: int) -> None:
    import openpyxl
    import python_calamine

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "phones.xlsx"
        wb = openpyxl.Workbook(write_only=True)
        ws = wb.create_sheet("Numbers")
        ws.append(["Phone", "Country code"])
        for value, code in cells:
            ws.append([value, int(code)])
        wb.save(path)

        def bare() -> int:
            book = python_calamine.CalamineWorkbook.from_path(str(path))
            count = 0
            for _row in book.get_sheet_by_index(0).iter_rows():
                count += 1
            return count

        def validating() -> int:
            book = python_calamine.CalamineWorkbook.from_path(str(path))
            normalize = phones.normalize
            rows = book.get_sheet_by_index(0).iter_rows()
            next(rows)
            # The code column is numeric, so calamine hands over floats (1.0).
            return sum(normalize(row[0], cast(float, row[1])).ok for row in rows)

        bare_s, _ = timed(bare, repeat)
        full_s, valid = timed(validating, repeat, phones.clear_cache)
    print(f"xlsx: calamine iteration alone     {bare_s:7.3f} s")
    print(f"xlsx: calamine + normalize (cold)  {full_s:7.3f} s   ({valid} valid)")
    print(f"xlsx: ratio                        {full_s / bare_s:7.2f}x   (target <= 2x)")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=100_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--xlsx", action="store_true", help="also compare with calamine")
    parser.add_argument("--repeat", type=int, default=3, help="best of this many runs")
    parser.add_argument(
        "--baseline-rows",
        type=int,
        default=30_000,
        help="rows the (slow) baseline is timed on; its rate is per number either way",
    )
    args = parser.parse_args(argv)

    cells = generate(args.rows, args.seed)
    distinct = len(set(cells))
    print(f"{len(cells)} numbers, {distinct} distinct ({1 - distinct / len(cells):.0%} repeated)")

    # One untimed pass each so imports and the fast path's compiled patterns
    # are not billed to the first timed run.
    baseline(cells[:1000])
    with_normalize(cells[:1000])

    sample = cells[: args.baseline_rows]
    base_s, base_valid = timed(lambda: baseline(sample), max(1, args.repeat - 1))
    cold_s, cold_valid = timed(lambda: with_normalize(cells), args.repeat, phones.clear_cache)
    warm_s, warm_valid = timed(lambda: with_normalize(cells), args.repeat)
    assert cold_valid == warm_valid

    rows = len(cells)
    base_rate, cold_rate, warm_rate = len(sample) / base_s, rows / cold_s, rows / warm_s
    print(f"baseline phonenumbers.parse+is_valid_number {base_rate:12,.0f} numbers/s")
    print(f"normalize, cold cache                       {cold_rate:12,.0f} numbers/s")
    print(f"normalize, warm cache                       {warm_rate:12,.0f} numbers/s")
    print(f"ratio cold / baseline                       {cold_rate / base_rate:12.1f}x")
    print(f"ratio warm / baseline                       {warm_rate / base_rate:12.1f}x")
    print(f"{rows} rows validated cold in {cold_s:.3f} s CPU, warm in {warm_s:.3f} s CPU")
    print(
        f"valid: baseline {base_valid} of {len(sample)}, normalize {cold_valid} of {rows} "
        "(normalize also reads floats, apostrophes, 00-prefixes the baseline rejects)"
    )
    if args.xlsx:
        xlsx_comparison(cells, args.repeat)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
