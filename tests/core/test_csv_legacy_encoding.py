"""A CSV saved in an encoding other than UTF-8 or Windows-1252 that no single-byte reading
makes right (Japanese Shift-JIS, Chinese GB18030) is read as Windows-1252, so its numbers'
digits come out right but its reasons and names garbled. Nothing can tell the encoding for sure,
so the import warns, naming the file and what to do (black-box pass F: garbled reasons were
stored with no word). Excel's "CSV (Macintosh)", a DOS program's cp850 and Cyrillic cp1251 are
read in their encoding when only it reads right (black-box pass L1 #1). Western text in
Windows-1252 or Latin-1, which is read right, gets no warning."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings

ROWS = [
    ("3035552801", "Résilié par téléphone"),
    ("3035552802", "Pidió no llamar — cliente"),
    ("3035552803", "Просил не звонить"),
    ("3035552804", "電話しないで"),
]


def _stage(
    tmp_path: Path, encoding: str, rows: list[tuple[str, str]]
) -> tuple[list[str], list[str], list[str]]:
    path = tmp_path / f"{encoding}.csv"
    lines = ["Phone,Reason", *(f"{n},{r}" for n, r in rows)]
    path.write_bytes("\r\n".join(lines).encode(encoding, errors="replace"))
    store, _ = stage_import(JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None)
    warnings = list(store.meta().get("warnings") or [])
    numbers = [r.national for r in store.rows()]
    reasons = [r.reason for r in store.rows()]
    store.close()
    return warnings, numbers, reasons


def _garbled_warning(warnings: list[str], name: str) -> bool:
    return any(
        w.startswith(f"{name} is not UTF-8 text, and read as Windows-1252") for w in warnings
    )


@pytest.mark.parametrize(
    ("encoding", "rows"),
    [
        ("shift_jis", ROWS[3:]),
        ("gb18030", ROWS[3:]),
    ],
)
def test_a_csv_in_another_encoding_is_read_with_a_warning(
    tmp_path: Path, encoding: str, rows: list[tuple[str, str]]
) -> None:
    warnings, numbers, _ = _stage(tmp_path, encoding, rows)
    assert numbers == [n for n, _ in rows]  # the digits are right whatever the encoding
    assert _garbled_warning(warnings, f"{encoding}.csv"), warnings
    (warning,) = [w for w in warnings if "UTF-8" in w]
    assert warning.endswith('save the file as "CSV UTF-8" and import it again.')


@pytest.mark.parametrize(
    ("encoding", "rows"),
    [
        ("mac_roman", ROWS[:2]),
        ("cp850", [(n, r.replace("—", "-")) for n, r in ROWS[:2]]),  # DOS has no em dash
        ("cp1251", ROWS[2:3]),
    ],
)
def test_a_csv_in_a_single_byte_encoding_is_read_in_it(
    tmp_path: Path, encoding: str, rows: list[tuple[str, str]]
) -> None:
    # Each reads right only in its own encoding (pass F stored them garbled, with a warning).
    warnings, numbers, reasons = _stage(tmp_path, encoding, rows)
    assert numbers == [n for n, _ in rows]
    assert reasons == [r for _, r in rows]
    assert not _garbled_warning(warnings, f"{encoding}.csv"), warnings


@pytest.mark.parametrize("encoding", ["utf-8", "utf-8-sig", "cp1252", "latin-1", "utf-16"])
def test_text_read_right_gets_no_warning(tmp_path: Path, encoding: str) -> None:
    rows = ROWS[:2] if encoding in ("cp1252", "latin-1") else ROWS
    warnings, numbers, _ = _stage(tmp_path, encoding, rows)
    assert numbers == [n for n, _ in rows]
    assert not _garbled_warning(warnings, f"{encoding}.csv"), warnings
