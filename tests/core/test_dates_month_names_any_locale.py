"""Review RV3 #F2: English month and weekday names in request dates were read with strptime's
%b/%B/%a/%A, which follow LC_TIME; the desktop app's QApplication sets it from LANG on Unix
(setlocale(LC_ALL, "")). Under es_US or de_DE "Jan 5, 2026" was not a date, so the 10-business-day
limit was not checked on it, a right weekday was "the wrong weekday … is a Montag", and the
notes named months in the locale's words ("Dez 11, 2026"). Every value now reads, and every note
is worded, as in the C locale, whatever the locale.

Each check runs in a child process with the locale set, as Qt sets it, from locales compiled
with ``localedef`` (skipped where it is missing)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LANGS = ("es_US.UTF-8", "de_DE.UTF-8")

CHILD = r"""
import datetime as dt, json, locale, sys
locale.setlocale(locale.LC_ALL, "")  # what QCoreApplication does on Unix
from app.core.sheet_check import CheckOptions, check_all
from app.core.sheet_dates import parse_request_date
from app.core.sheet_mapping import ColumnMapping

CHECKED = dt.date(2026, 11, 24)
VALUES = [
    "Jan 5, 2026", "Aug 3, 2026", "Monday, November 2, 2026", "October 5 2026", "5 May 2026",
    "Sept 3rd, 2026", "2-Nov-26", "02-DEC-25", "3 MARCH 2026", "mar 4 2026", "Mon, 2 Nov 2026",
    "Tuesday, November 2, 2026", "Wed 11/23/2026", "12/11/26", "11.12.26", "11/10/2026",
    "11.05.2026", "25/10/2026", "12/31/26", "Thu Nov 05 2026 22:30:00 GMT-0500 (EST)",
    "Nov 5, 2026 11:30 PM", "13 de noviembre de 2026", "29-Feb-27", "Foo 5, 2026",
]
read = {
    v: [str(r.date), r.note, r.order] for v in VALUES if (r := parse_request_date(v, CHECKED))
}
rows = [(1, ["Phone", "Requested"])] + [
    (n, [f"30355501{n:02d}", v]) for n, v in enumerate(VALUES[:4], 2)
]
m = ColumnMapping(phone=0, request_date=1, headers=("Phone", "Requested"), header_row=1)
checked, summary = check_all(rows, m, CheckOptions(insertion_date=CHECKED))
december = f"{dt.date(2026, 12, 7):%b}"
# A value first read under this locale is read alike once the locale is C again (cache).
locale.setlocale(locale.LC_ALL, "C")
again = str(parse_request_date("October 5 2026", CHECKED).date)
print(json.dumps({
    "december": december,
    "read": read,
    "late": [c.late for c in checked],
    "late_requests": summary.late_requests,
    "again": again,
}))
"""


def _compiled(lang: str, where: Path) -> Path:
    """``lang`` compiled under ``where``, for ``LOCPATH`` (the machine may have none installed)."""
    if shutil.which("localedef") is None:
        pytest.skip("localedef is not installed")
    # localedef exits 1 on warnings while still writing the locale.
    subprocess.run(
        ["localedef", "-i", lang.split(".")[0], "-f", "UTF-8", str(where / lang)],
        capture_output=True,
        check=False,
    )
    if not (where / lang / "LC_TIME").exists():
        pytest.skip(f"localedef could not compile {lang}")
    return where


def _read_under(lang: str, locales: Path) -> dict[str, object]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("LC_")}
    env.update(LOCPATH=str(locales), LANG=lang)
    done = subprocess.run(
        [sys.executable, "-c", CHILD],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    result: dict[str, object] = json.loads(done.stdout)
    return result


@pytest.mark.parametrize("lang", LANGS)
def test_request_dates_read_and_noted_alike_whatever_the_locale(lang: str, tmp_path: Path) -> None:
    locales = _compiled(lang, tmp_path)
    c_locale = _read_under("C.UTF-8", locales)
    assert c_locale["december"] == "Dec"
    read = c_locale["read"]
    assert isinstance(read, dict)
    assert read["Jan 5, 2026"] == ["2026-01-05", "", ""]
    assert read["Monday, November 2, 2026"] == ["2026-11-02", "", ""]
    assert read["Tuesday, November 2, 2026"][1] == (
        "'Tuesday, November 2, 2026' names the wrong weekday: Nov 02, 2026 is a Monday; "
        "read as that date"
    )
    assert "Dec 11, 2026" in read["12/11/26"][1]
    assert c_locale["late"] == [True, True, True, True]
    assert c_locale["late_requests"] == 4

    local = _read_under(lang, locales)
    assert local["december"] != "Dec"  # the locale took: its strftime names months otherwise
    assert local["read"] == c_locale["read"]  # was: "'Jan 5, 2026' is not a date", "Dez 11"
    assert local["late"] == c_locale["late"]  # was: not late, as not a date
    assert local["late_requests"] == c_locale["late_requests"]
    assert local["again"] == "2026-10-05"
