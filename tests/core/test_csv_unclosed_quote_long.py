"""Black-box B17 F5: a quote mark never closed, with more than a mebibyte of lines after it, was
refused as "cannot be read as CSV after record 11 (field larger than field limit (1048576))",
naming neither the quote nor the fix; with less after it, the refusal names them. Both do now."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.core.sheet_reader import SheetError, open_sheet


def _csv(path: Path, rows_after: int) -> Path:
    lines = ["Phone,Notes"] + [f"303555{n:04d},ok" for n in range(10)]
    lines.append('3035550999,"called back')  # the quote is never closed
    lines += [f"303556{n % 10000:04d},note {n} " + "x" * 60 for n in range(rows_after)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


@pytest.mark.parametrize(("rows_after", "record"), [(100, 12), (20_000, 12)])
def test_a_quote_never_closed_is_named_however_much_follows(
    tmp_path: Path, rows_after: int, record: int
) -> None:
    path = _csv(tmp_path / "quote.csv", rows_after)
    with pytest.raises(SheetError) as raised:
        with open_sheet(path) as source:
            list(source.iter_rows())
    said = str(raised.value)
    assert f"record {record}" in said
    assert "quote mark" in said and "never closed" in said
    assert "field limit" not in said
