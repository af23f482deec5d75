"""Black-box R3 #2: a CSV line of millions of fields (commas100mb.csv, a 100 MB line of
commas; nonewline100mb.csv, 9.5 M fields and no line break) was refused in one clear sentence
only after the csv module had made a string of every field: nearly 1 GB. A line is read a
piece at a time now and refused, in the same sentence naming its row, once it holds far more
delimiters than any row (or is far longer than any row), before the csv module sees it.
The limits are parameters here, so the tests need no 100 MB file."""

from __future__ import annotations

import io
import itertools
from pathlib import Path

import pytest

from app.core import sheet_csv
from app.core.sheet_csv import CsvSource, _guarded_lines, _LineTooBig
from app.core.sheet_types import SheetError


class _Pieces(io.StringIO):
    """A text file that checks every read of a line is bounded, as the guard promises."""

    def __init__(self, text: str, piece: int) -> None:
        super().__init__(text, newline="")
        self.piece = piece
        self.reads = 0

    def readline(self, size: int | None = -1, /) -> str:
        assert size == self.piece, "a line was read whole"
        self.reads += 1
        return super().readline(size)


TEXTS = [
    "Phone,Reason\n3035550100,ok\n",
    "Phone,Reason\r\n3035550100,ok\r\n3035550101,\r\n",
    "a,b\rc,d\re,f",  # CR alone (a Mac's CSV), no break at the end
    "x" * 7 + "\r\n" + "y" * 8 + "\r\n" + "z" * 9 + "\r" + "\n" * 3,  # CRLF across pieces
    '"a\r\nb",c\r\n' + "q" * 20 + "\n\r\n",
]


@pytest.mark.parametrize("text", TEXTS)
@pytest.mark.parametrize("piece", [1, 2, 3, 8, 9, 1 << 20])
def test_lines_come_out_as_the_file_gives_them(text: str, piece: int) -> None:
    plain = list(io.StringIO(text, newline=""))
    guarded = list(_guarded_lines(_Pieces(text, piece), ",", 10**6, 10**6, piece))
    assert guarded == plain


def test_a_line_of_many_delimiters_is_refused_without_being_held(tmp_path: Path) -> None:
    text = "Phone,Reason\n3035550100,ok\n" + "," * 10_000 + "\n3035550101,ok\n"
    fh = _Pieces(text, 64)
    lines = _guarded_lines(fh, ",", max_delimiters=100, max_chars=10**6, piece=64)
    assert list(itertools.islice(lines, 2)) == ["Phone,Reason\n", "3035550100,ok\n"]
    with pytest.raises(_LineTooBig) as refused:
        next(lines)
    assert (refused.value.fields, refused.value.length) == (10_001, 0)
    # The whole line was counted, 64 characters at a time.
    assert fh.reads == 2 + 10_001 // 64 + 1


def _source(path: Path, delimiters: int, chars: int) -> CsvSource:
    source = CsvSource(path)
    source._line_limits = (delimiters, chars)
    return source


def test_the_sentence_names_the_row_and_its_columns(tmp_path: Path) -> None:
    path = tmp_path / "commas.csv"
    path.write_text("Phone,Reason\n3035550100,ok\n" + "," * 5000 + "\n3035550101,ok\n")
    with pytest.raises(SheetError) as refused:
        list(_source(path, 1000, 10**6).iter_rows())
    assert str(refused.value) == (
        "commas.csv row 3 has 5,001 columns; that is not a table a spreadsheet program can hold."
    )


def test_a_line_with_no_end_is_refused_as_row_one(tmp_path: Path) -> None:
    path = tmp_path / "nonewline.csv"
    path.write_text(",".join(["3035552100"] * 3000))
    with pytest.raises(SheetError, match=r"^nonewline\.csv row 1 has 3,000 columns; that is"):
        list(_source(path, 1000, 10**6).iter_rows())


def test_a_line_far_too_long_is_refused_by_its_length(tmp_path: Path) -> None:
    path = tmp_path / "line.csv"
    path.write_text("Phone,Reason\n3035550100,ok\n3035550101," + "x" * 5000 + "\n")
    with pytest.raises(SheetError) as refused:
        list(_source(path, 1000, 2000).iter_rows())
    assert str(refused.value) == (
        "line.csv row 3 is 5,012 characters long on one line; that is not a table a "
        "spreadsheet program can hold."
    )


def test_the_row_counts_records_not_lines(tmp_path: Path) -> None:
    # A quoted cell spanning lines is one record: the wide line is row 3's, not line 4's.
    path = tmp_path / "quoted.csv"
    path.write_text('Phone,Note\n3035550100,"two\nlines"\n' + ";" * 10 + "," * 3000 + "\n")
    with pytest.raises(SheetError, match=r"^quoted\.csv row 3 has 3,001 columns"):
        list(_source(path, 1000, 10**6).iter_rows())


def test_rows_under_the_limits_read_as_before(tmp_path: Path) -> None:
    path = tmp_path / "wide.csv"
    header = ",".join(f"C{i}" for i in range(300))
    row = ",".join(["3035550100"] + ["x" * 20] * 299)
    path.write_text(f"{header}\r\n{row}\r\n" * 1)
    rows = list(_source(path, 1000, 10_000).iter_rows())
    assert [n for n, _ in rows] == [1, 2] and len(rows[1][1]) == 300


@pytest.mark.parametrize("piece", [3, 8, 9])
def test_a_real_file_reads_its_crlf_split_across_pieces(tmp_path: Path, piece: int) -> None:
    data = TEXTS[3].encode()
    path = tmp_path / "split.csv"
    path.write_bytes(data)
    with path.open("r", encoding="utf-8", newline="") as fh:
        guarded = list(_guarded_lines(fh, ",", 10**6, 10**6, piece))
    with path.open("r", encoding="utf-8", newline="") as fh:
        assert guarded == list(fh)


def test_the_reader_uses_the_module_limits(tmp_path: Path) -> None:
    path = tmp_path / "ok.csv"
    path.write_text("Phone\n3035550100\n")
    assert CsvSource(path)._line_limits == (
        sheet_csv.MAX_LINE_DELIMITERS,
        sheet_csv.MAX_LINE_CHARS,
    )
