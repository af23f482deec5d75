"""Hidden rows of an xlsx whose row tags do not all say their number (``<row>`` without
``r="N"``, as the spec allows and some writers do), numbered as python-calamine numbers them:
a row tag by its ``r``, else the previous row tag's number + 1; a cell by its own reference,
else its row tag's. Each case's truth is where calamine itself puts the hidden rows' values.
See :class:`app.core.sheet_worker.XmlScan`."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
import python_calamine

from app.core import sheet_worker
from app.core.sheet_reader import open_sheet
from tests.core import sheet_factory as f
from tests.core.test_sheet_hidden_rows import outcomes, stage_dry, warnings
from tests.core.test_sheet_ods_hidden import worker_messages

HIDDEN = ' hidden="1"'
NOT_REMOVED = (
    "hidden in the file (hidden or filtered out); not removed unless hidden rows are included "
    "(--include-hidden)"
)
CHUNKS = (16, 23, 37, 64, 101, 173, 256, 499, 1024, 4099, 1 << 20)


def c(value: str, ref: str = "", quote: str = '"') -> str:
    """An inline-string cell, with no reference unless ``ref``."""
    r = f" r={quote}{ref}{quote}" if ref else ""
    return f'<c{r} t="inlineStr"><is><t>{value}</t></is></c>'


def row(cells: str, attributes: str = "") -> str:
    return f"<row{attributes}>{cells}</row>"


def write(path: Path, rows: str) -> Path:
    return f.write_raw_xlsx(path, f"{f.SHEET_HEAD}<sheetData>{rows}</sheetData></worksheet>")


def calamine_rows(path: Path) -> dict[str, int]:
    """Each value of the sheet and the row (1-based) calamine puts it in."""
    sheet = python_calamine.CalamineWorkbook.from_path(str(path)).get_sheet_by_name("Sheet1")
    found: dict[str, int] = {}
    for index, cells in enumerate(sheet.to_python(skip_empty_area=False), 1):
        for value in cells:
            if value != "":
                assert value not in found, value
                found[str(value)] = index
    return found


def hidden_truth(path: Path) -> set[int]:
    """The rows calamine puts the values of hidden rows in (their values start with "h")."""
    return {n for value, n in calamine_rows(path).items() if value.startswith("h")}


def scanned(path: Path) -> list[int]:
    scan = sheet_worker.open_scan(str(path), "Sheet1")
    assert isinstance(scan, sheet_worker.XmlScan)
    hidden, _, _ = scan.advance(0)
    return hidden


# -- the scan, by shape -------------------------------------------------------------------------


def no_r_anywhere() -> str:
    """The black-box finding: no r on rows or cells."""
    return (
        row(c("Phone"))
        + row(c("v2025550101"))
        + row(c("h2025550102"), HIDDEN)
        + row(c("v2025550103"))
        + row(c("h2025550104"), HIDDEN)
    )


def numbered_header_then_none() -> str:
    """The first row says r="1", the rest say nothing."""
    return (
        row(c("Phone", "A1"), ' r="1"')
        + row(c("v2"))
        + row(c("h3"), HIDDEN)
        + row(c("v4"))
        + row(c("h5"), HIDDEN)
    )


def r_on_some_rows() -> str:
    """Rows with r jump ahead; a row without r follows the one before it."""
    return (
        row(c("Phone"))
        + row(c("h2"), HIDDEN)
        + row(c("v5"), ' r="5"')
        + row(c("h6"), HIDDEN)
        + row(c("h7"), ' hidden="1" r="7"')
        + row(c("v8"))
        + row(c("v20"), ' r="20"')
        + row(c("h21"), HIDDEN)
    )


def hidden_unnumbered_then_numbered() -> str:
    return (
        row(c("h1"), HIDDEN) + row(c("h2"), HIDDEN) + row(c("v9"), ' r="9"') + row(c("h10"), HIDDEN)
    )


def empty_row_tags_count() -> str:
    """<row/> and <row></row> take a number; hidden ones holding nothing are not listed."""
    return (
        row(c("Phone"))
        + "<row/>"
        + "<row></row>"
        + row(c("h4"), HIDDEN)
        + f"<row{HIDDEN}/>"
        + f"<row{HIDDEN}></row>"
        + f"<row{HIDDEN}> </row>"
        + row(c("h8"), ' ht="0" customHeight="1"')
        + row(c("v9"))
    )


def cells_numbered_rows_not() -> str:
    """Cells say their row; the row tags do not."""
    return "".join(
        row(c(f"{'h' if n in (2, 4) else 'v'}{n}", f"A{n}"), HIDDEN if n in (2, 4) else "")
        for n in range(1, 6)
    )


def cells_skip_rows_their_tags_do_not() -> str:
    """A writer that skips empty rows in the cells' references but not with r on the rows:
    calamine puts a value by its cell's reference, a row tag's number by counting."""
    return (
        row(c("Phone", "A1"))
        + row(c("h5", "A5"), HIDDEN)  # the 2nd row tag; its value is in row 5
        + row(c("v9", "A9"))
        + row(c("h4"), HIDDEN)  # the 4th row tag, whatever the cells before said
    )


def mixed_cells_in_one_row() -> str:
    """A cell with no reference after one with: calamine puts it in the row tag's row."""
    return row(c("Phone")) + row(c("h7", "B7") + c("h2"), HIDDEN) + row(c("v3"))


def single_quotes() -> str:
    return (
        row(c("Phone"), " r='1'")
        + row(c("v2"))
        + row(c("h3", "A3", "'"), " hidden='1'")
        + row(c("h4"), " customHeight='1' ht='0'")
        + row(c("v5"), " r='5'")
    )


def prefixed_and_pretty() -> str:
    return (
        "\n  "
        + "\n  ".join(
            f"<x:row{attrs}>\n    <x:c><x:v>{value}</x:v></x:c>\n  </x:row>"
            for attrs, value in (
                ("", "1"),
                (' hidden="1"', "2"),
                (' r="4"', "4"),
                (' hidden="true"', "5"),
            )
        )
        + "\n"
    )


SHAPES = {
    "no r anywhere": no_r_anywhere,
    "numbered header then none": numbered_header_then_none,
    "r on some rows": r_on_some_rows,
    "hidden unnumbered then numbered": hidden_unnumbered_then_numbered,
    "empty row tags count": empty_row_tags_count,
    "cells numbered, rows not": cells_numbered_rows_not,
    "cells skip rows their tags do not": cells_skip_rows_their_tags_do_not,
    "mixed cells in one row": mixed_cells_in_one_row,
    "single quotes": single_quotes,
}
EXPECTED = {
    "no r anywhere": [3, 5],
    "numbered header then none": [3, 5],
    "r on some rows": [2, 6, 7, 21],
    "hidden unnumbered then numbered": [1, 2, 10],
    "empty row tags count": [4, 8],
    "cells numbered, rows not": [2, 4],
    "cells skip rows their tags do not": [5, 4],
    "mixed cells in one row": [7, 2],
    "single quotes": [3, 4],
}


@pytest.mark.parametrize("name", list(SHAPES))
def test_hidden_rows_are_numbered_as_calamine_numbers_them(
    name: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write(tmp_path / "s.xlsx", SHAPES[name]())
    assert sorted(EXPECTED[name]) == sorted(hidden_truth(path))
    for chunk in CHUNKS:
        monkeypatch.setattr(sheet_worker, "SCAN_CHUNK", chunk)
        assert scanned(path) == EXPECTED[name], chunk


def test_a_prefixed_pretty_printed_sheet_without_row_numbers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    xml = (
        '<?xml version="1.0" encoding="UTF-8"?>\n<x:worksheet '
        'xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main">\n'
        f"<x:sheetData>{prefixed_and_pretty()}</x:sheetData>\n</x:worksheet>"
    )
    path = f.write_raw_xlsx(tmp_path / "x.xlsx", xml)
    assert calamine_rows(path) == {"1.0": 1, "2.0": 2, "4.0": 4, "5.0": 5}
    for chunk in CHUNKS:
        monkeypatch.setattr(sheet_worker, "SCAN_CHUNK", chunk)
        assert scanned(path) == [2, 5], chunk


def random_sheet(rng: random.Random, rows: int) -> str:
    """Rows of every mix: r or not on the row (jumping ahead when it has), cells with a
    reference to their own row, to a row far below (unique, so values never collide), or
    none; empty and self-closing row tags; hidden by hidden="1" or a zero height, in either
    quote. A hidden row's values start with "h"."""
    parts: list[str] = []
    number = 0  # as calamine counts the row tags
    far = 5_000  # rows only cells name
    for i in range(rows):
        q = rng.choice(['"', '"', "'"])
        attributes = ""
        if rng.random() < 0.3:
            number += rng.randint(1, 3)
            attributes += f" r={q}{number}{q}"
        else:
            number += 1
        hidden = rng.random() < 0.35
        if hidden:
            attributes += rng.choice(
                [f" hidden={q}1{q}", f" hidden={q}true{q}", f" ht={q}0{q} customHeight={q}1{q}"]
            )
        attributes += rng.choice(["", "", ' spans="1:3"', ' s="2" customFormat="1"'])
        kind = rng.random()
        if kind < 0.1:
            parts.append(f"<row{attributes}/>")
            continue
        if kind < 0.15:
            parts.append(f"<row{attributes}>" + rng.choice(["", " ", "\n"]) + "</row>")
            continue
        cells = []
        for j in range(rng.randint(1, 3)):
            value = f"{'h' if hidden else 'v'}{i}x{j}"
            how = rng.random()
            if how < 0.4:
                cells.append(c(value))
            elif how < 0.8:
                cells.append(c(value, f"{'ABC'[j]}{number}", q))
            else:
                far += 1
                cells.append(c(value, f"{'ABC'[j]}{far}", q))
        gap = rng.choice(["", "", "\n    "])
        parts.append(f"<row{attributes}>{gap}{gap.join(cells)}{gap}</row>")
    return "\n".join(parts) if rng.random() < 0.5 else "".join(parts)


@pytest.mark.parametrize("seed", range(12))
def test_random_mixes_at_many_chunk_sizes(
    seed: int, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    rng = random.Random(seed)
    path = write(tmp_path / "r.xlsx", random_sheet(rng, 150))
    truth = hidden_truth(path)
    assert truth  # the mix hides some rows holding values
    for chunk in CHUNKS:
        monkeypatch.setattr(sheet_worker, "SCAN_CHUNK", chunk)
        hidden = scanned(path)
        assert len(hidden) == len(set(hidden)), chunk
        assert set(hidden) == truth, chunk


def test_unnumbered_rows_over_many_chunks_are_known_before_their_rows(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The worker, in this process, on a sheet of thousands of rows without r, scanned in small
    # chunks: the hidden rows go out before the first rows, numbered as the rows are.
    hidden = {2, 999, 1_000, 1_001, 2_500, 4_000}
    rows = row(c("Phone")) + "".join(
        row(c(f"20255{n:05d}"), HIDDEN if n in hidden else "") for n in range(2, 4_001)
    )
    path = write(tmp_path / "big.xlsx", rows)
    monkeypatch.setattr(sheet_worker, "SCAN_CHUNK", 4_099)
    messages = worker_messages(path)
    kinds = [m[0] for m in messages]
    scans = [m for m in messages[: kinds.index("rows")] if m[0] == "scan"]
    assert scans[0] == ("scan", [], [])
    assert scans[1][1] == sorted(hidden) and len(scans) == 2
    numbered = {n: cells[0] for m in messages if m[0] == "rows" for n, cells in m[1]}
    assert numbered[999] == "2025500999" and numbered[4_000] == "2025504000"


# -- the reader and staging ---------------------------------------------------------------------


def test_the_reader_reports_the_hidden_rows_of_an_unnumbered_sheet(tmp_path: Path) -> None:
    path = write(tmp_path / "n.xlsx", numbered_header_then_none())
    with open_sheet(path) as source:
        assert [n for n, _ in source.iter_rows()] == [1, 2, 3, 4, 5]
        assert source.notes.hidden_known and source.notes.hidden_rows == {3, 5}


def phone_sheet(shape: str) -> str:
    """A header and numbers in rows 2 to 5, rows 3 and 5 hidden, written in ``shape``."""
    numbers = {n: f"202555010{n}" for n in range(2, 6)}
    hide = {3: HIDDEN, 5: HIDDEN}
    if shape == "no r anywhere":
        return row(c("Phone")) + "".join(row(c(v), hide.get(n, "")) for n, v in numbers.items())
    if shape == "numbered header":
        return row(c("Phone", "A1"), ' r="1"') + "".join(
            row(c(v), hide.get(n, "")) for n, v in numbers.items()
        )
    if shape == "cells numbered":
        return row(c("Phone", "A1")) + "".join(
            row(c(v, f"A{n}"), hide.get(n, "")) for n, v in numbers.items()
        )
    # The cells skip row 2 (no number there), the row tags do not: the hidden rows are the
    # 2nd and 4th row tags, their values in rows 3 and 5.
    assert shape == "cells skip"
    return row(c("Phone", "A1")) + "".join(
        row(c(numbers[n], f"A{n}"), hide.get(n, "")) for n in (3, 4, 5)
    )


@pytest.mark.parametrize(
    "shape", ["no r anywhere", "numbered header", "cells numbered", "cells skip"]
)
def test_a_removal_leaves_hidden_rows_of_an_unnumbered_sheet_alone(
    shape: str, tmp_path: Path
) -> None:
    path = write(tmp_path / "remove.xlsx", phone_sheet(shape))
    rows = outcomes(stage_dry(path, tmp_path, kind="removal"))
    for n in (3, 5):
        assert rows[n] == ("not_attempted", f"row {n}: {NOT_REMOVED}"), (shape, n)
    assert rows[4][0] == "pending"
    if shape == "cells skip":
        assert rows[2][0] == "blank"
    else:
        assert rows[2][0] == "pending"
    store = stage_dry(path, tmp_path, kind="removal")
    assert warnings(store)[0].startswith("Rows 3 and 5 (2 rows) are hidden in sheet 'Sheet1'")
    taken = outcomes(stage_dry(path, tmp_path, kind="removal", include_hidden=True))
    assert taken[3][0] == taken[5][0] == "pending"
