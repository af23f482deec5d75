"""Black-box Q1: which end of a message log is the consumer's (#1), a report's subtotal rows in
the "no date" warning (#2) and an inbound log's message time as the request date (#3).

Through the command line's dry run (nothing is sent, no connection), on files written here as
the tester's were."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.cli.main import main

_POOL = """\
From,To,Body,Status,SentDate,Direction
+17205550311,+12025550181,STOP,received,2026-11-20T10:00:00Z,inbound
+17205550312,+12025550182,Stop,received,2026-11-21T11:00:00Z,inbound
+17205550313,+12025550183,STOP ,received,2026-11-22T12:00:00Z,inbound
+17205550311,+12025550184,stop,received,2026-11-20T13:00:00Z,inbound
+17205550312,+12025550181,STOP,received,2026-11-21T14:00:00Z,inbound
+17205550313,+12025550182,Stop,received,2026-11-22T15:00:00Z,inbound
+17205550311,+12025550183,STOP ,received,2026-11-20T16:00:00Z,inbound
+17205550312,+12025550184,stop,received,2026-11-21T17:00:00Z,inbound
"""
_POOL_NO_DIRECTION = """\
From,To,Body,SentDate
+17205550311,+12025550181,STOP,2026-11-20T10:00:00Z
+17205550312,+12025550182,Stop,2026-11-21T11:00:00Z
+17205550313,+12025550183,STOP ,2026-11-22T12:00:00Z
+17205550311,+12025550184,stop,2026-11-20T13:00:00Z
+17205550312,+12025550181,STOP,2026-11-21T14:00:00Z
+17205550313,+12025550182,Stop,2026-11-22T15:00:00Z
+17205550311,+12025550183,STOP ,2026-11-20T16:00:00Z
+17205550312,+12025550184,stop,2026-11-21T17:00:00Z
"""
_BANDWIDTH = """\
Message ID,From Number,To Number,Message,Time
m0,+17205550301,+12025550191,STOP,03/05/2026 10:00 AM
m1,+17205550302,+12025550192,STOP,03/05/2026 10:01 AM
m2,+17205550301,+12025550193,STOP,03/05/2026 10:02 AM
m3,+17205550302,+12025550191,STOP,03/05/2026 10:03 AM
m4,+17205550301,+12025550192,STOP,03/05/2026 10:04 AM
m5,+17205550302,+12025550193,STOP,03/05/2026 10:05 AM
"""
_CONSUMERS = {"+17205550311", "+17205550312", "+17205550313", "+17205550301", "+17205550302"}


def _dry_run(
    path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], *extra: str
) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The dry run's JSON and its report's Rows sheet, a dict per row."""
    report = tmp_path / f"{path.stem}-report.xlsx"
    argv = ["import", str(path), "--into", "sms-opt-out", "--scope", "global", "--dry-run"]
    code = main([*argv, *extra, "--json", "--report", str(report), "--overwrite"])
    out: dict[str, Any] = json.loads(capsys.readouterr().out)
    assert code == 0, out
    book = openpyxl.load_workbook(report, read_only=True)
    try:
        rows = list(book["Rows"].iter_rows(values_only=True))
    finally:
        book.close()
    header = [str(h) for h in rows[0]]
    return out, [dict(zip(header, r, strict=False)) for r in rows[1:]]


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def _sent(rows: list[dict[str, Any]]) -> set[str]:
    return {str(r["Original value"]) for r in rows if str(r["Outcome"]).startswith("valid")}


@pytest.mark.parametrize(
    ("text", "phone"),
    [(_POOL, "From (column A)"), (_POOL_NO_DIRECTION, "From (column A)"),
     (_BANDWIDTH, "From Number (column B)")],
)  # fmt: skip
def test_an_inbound_stop_log_from_a_pool_of_numbers_reads_the_consumers(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], text: str, phone: str
) -> None:
    # The business's pool ("To") holds more different numbers than the consumers ("From"), but
    # the rows say they were received, or are "STOP": the consumers sent them.
    out, rows = _dry_run(_write(tmp_path, "log.csv", text), tmp_path, capsys)
    assert out["mapping"]["phone"] == phone
    sent = _sent(rows)
    assert sent and sent <= _CONSUMERS, sent
    warnings = " ".join(out.get("warnings") or [])
    assert "business's own number" not in warnings
    assert "guess" not in warnings


def test_the_request_date_of_an_inbound_log_is_its_message_time(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for header in ("SentDate", "DateSent", "Date Sent", "date_created"):
        text = _POOL.replace("SentDate", header).replace("2026-11-", "2025-01-")
        out, _ = _dry_run(_write(tmp_path, "log.csv", text), tmp_path, capsys)
        assert out["mapping"]["request_date"] == f"{header} (column E)"
        assert out["late_requests"] == 3  # the three consumers, each read from January 2025
        assert not any("names another date" in w for w in out.get("warnings") or [])
    out, _ = _dry_run(_write(tmp_path, "bw.csv", _BANDWIDTH), tmp_path, capsys)
    assert out["mapping"]["request_date"] == "Time (column E)"


_BLAST = (
    "From,To,Body,Status,SentDate,Direction\n"
    + "".join(
        f"+12025550199,+1303555{i:04d},Spring sale 20% off! Reply STOP to opt out,delivered,"
        f"2026-03-02T15:{i % 60:02d}:11Z,outbound-api\n"
        for i in range(101, 131)
    )
    + (
        "+13035550101,+12025550199,STOP,received,2026-03-02T16:00:00Z,inbound\n"
        "+13035550102,+12025550199,stop,received,2026-03-02T16:01:00Z,inbound\n"
        "+12025550199,+13035550101,You have been unsubscribed and will receive no more messages.,"
        "delivered,2026-03-02T16:00:05Z,outbound-api\n"
    )
)


def test_an_outbound_blast_log_still_reads_the_recipients(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Mostly marketing texts sent: "To" is the consumers', its time no request date; the
    # inbound STOP rows are named as before.
    out, _ = _dry_run(_write(tmp_path, "blast.csv", _BLAST), tmp_path, capsys)
    assert out["mapping"] == {"phone": "To (column B)"}
    warnings = out.get("warnings") or []
    assert any("names another date than the day the request was received" in w for w in warnings)
    assert any("says 2 of the 33 rows are inbound" in w for w in warnings), warnings
    assert not any("guess" in w for w in warnings)
    # With no Direction column, the texts telling how to opt out say the business sent them.
    lines = _BLAST.splitlines()
    no_direction = "\n".join(",".join(line.split(",")[:3]) for line in lines) + "\n"
    out, _ = _dry_run(_write(tmp_path, "blast2.csv", no_direction), tmp_path, capsys)
    assert out["mapping"]["phone"] == "To (column B)"
    assert not any("guess" in w for w in out.get("warnings") or [])


def test_a_log_saying_nothing_of_its_ends_says_the_choice_is_a_guess(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = "\n".join(",".join(line.split(",")[:2]) for line in _POOL.splitlines()) + "\n"
    out, _ = _dry_run(_write(tmp_path, "ends.csv", text), tmp_path, capsys)
    assert out["mapping"]["phone"] == "To (column B)"  # more different numbers, as before
    guess = [w for w in out.get("warnings") or [] if "That is a guess" in w]
    assert len(guess) == 1, out
    assert "--phone-column column:A" in guess[0]
    assert "column B ('To') is read as the consumers' numbers only because" in guess[0]
    # Once the other end is chosen, nothing is said of a guess.
    out, _ = _dry_run(
        _write(tmp_path, "ends.csv", text), tmp_path, capsys, "--phone-column", "column:A"
    )
    assert out["mapping"]["phone"] == "From (column A)"
    assert not any("guess" in w for w in out.get("warnings") or [])


def test_telnyx_and_a_google_form_read_as_before(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    telnyx = "from,to,text,received_at,direction\n" + "".join(
        f"+172055502{i:02d},+1202555019{7 + i % 2},{word},2026-03-0{1 + i % 5}T00:15:00.000+00:00,"
        "inbound\n"
        for i, word in enumerate(["stop", "END", "STOP", "STOPALL", "Cancel", "quit"] * 3)
    )
    out, _ = _dry_run(_write(tmp_path, "telnyx.csv", telnyx), tmp_path, capsys)
    assert out["mapping"] == {"phone": "from (column A)", "request_date": "received_at (column D)"}
    assert out["valid"] == 18
    form = (
        "Timestamp,Your phone number,What number called you?,Anything else?\n"
        "11/19/2026 14:03:11,303-555-0191,(202) 555-0199,stop calling me\n"
        "11/20/2026 9:15:42,3035550192,2025550199,\n"
    )
    out, _ = _dry_run(_write(tmp_path, "form.csv", form), tmp_path, capsys)
    assert out["mapping"] == {
        "phone": "Your phone number (column B)",
        "request_date": "Timestamp (column A)",
    }


def _summary_report(path: Path, undated: bool) -> None:
    """A Salesforce summary report: groups of dated opt-outs, each followed by its Subtotal."""
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.title = "Report"
    ws.append(["DNC Requests by Source"])
    ws.append(["As of 11/21/2026"])
    ws.append([])
    ws.append(["Opt-Out Source", "Contact: Full Name", "Phone", "Opt-Out Date"])
    person = 0
    for source, count in (("Web form", 4), ("Inbound call", 3), ("SMS", 2)):
        ws.append([f"Opt-Out Source: {source} ({count} records)"])
        for _ in range(count):
            when = "2026-11-18"
            if undated and person == 5:
                when = None
            ws.append([None, f"Person {person}", f"(512) 555-81{person:02d}", when])
            person += 1
        ws.append(["Subtotal", None, count, None])
    ws.append(["Grand Total (9 records)"])
    wb.save(path)


def test_a_reports_subtotal_rows_are_not_counted_as_undated_opt_outs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "summary.xlsx"
    _summary_report(path, undated=False)
    out, _ = _dry_run(path, tmp_path, capsys)
    assert (out["valid"], out["invalid"]) == (9, 7)
    assert not any("no date there" in w for w in out.get("warnings") or [])
    # A row sent with no date is still named, and counted among the rows sent only.
    _summary_report(path, undated=True)
    out, _ = _dry_run(path, tmp_path, capsys)
    said = [w for w in out.get("warnings") or [] if "no date there" in w]
    assert len(said) == 1, out
    assert "1 of the 9 rows has no date there (row 13)" in said[0]
