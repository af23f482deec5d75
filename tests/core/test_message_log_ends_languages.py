"""Re-test S1 of black-box Q1 #1: which end of a message log is the consumer's, when the log says
so in Spanish, French or German (#1), has RingCentral's "Type" before its "Direction" (#2), is
MessageBird's "direction: mo, originator, recipient" (#3), or has as many rows each way (#4).

Through the command line's dry run (nothing is sent, no connection), on files written here as
the tester's were."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import openpyxl
import pytest

from app.cli.main import main


def _dry_run(
    path: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> tuple[dict[str, Any], set[str]]:
    """The dry run's JSON and the numbers its report's Rows sheet would send."""
    report = tmp_path / f"{path.stem}-report.xlsx"
    argv = ["import", str(path), "--into", "sms-opt-out", "--scope", "global", "--dry-run"]
    code = main([*argv, "--json", "--report", str(report), "--overwrite"])
    out: dict[str, Any] = json.loads(capsys.readouterr().out)
    assert code == 0, out
    book = openpyxl.load_workbook(report, read_only=True)
    try:
        rows = list(book["Rows"].iter_rows(values_only=True))
    finally:
        book.close()
    header = [str(h) for h in rows[0]]
    sent = {
        str(r["Original value"])
        for r in (dict(zip(header, row, strict=False)) for row in rows[1:])
        if str(r["Outcome"]).startswith("valid")
    }
    return out, sent


def _write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _warnings(out: dict[str, Any]) -> list[str]:
    return list(out.get("warnings") or [])


# Two consumers texting a business's pool of four numbers: the pool has more different numbers.
def _pool(header: str, direction: str | None, word: str, ends: tuple[str, str]) -> str:
    cols = ([header] if direction is not None else []) + [*ends, "Message", "Date"]
    lines = [",".join(cols)]
    for i in range(4):
        row = [direction] if direction is not None else []
        row += [f"+1303555128{1 + i % 2}", f"+1720555128{5 + i}", word, f"2026-11-1{2 + i}"]
        lines.append(",".join(row))
    return "\n".join(lines) + "\n"


_CONSUMERS = {"+13035551281", "+13035551282"}


@pytest.mark.parametrize(
    ("header", "direction", "word", "ends"),
    [
        ("Dirección", "Entrante", "BAJA", ("De", "Para")),
        ("Dirección", "Entrada", "Baja", ("De", "Para")),
        ("Dirección", "Recibido", "hola", ("De", "Para")),
        ("Sens", "Entrant", "ARRET", ("Expéditeur", "Destinataire")),
        ("Sens", "Reçu", "bonjour", ("Expéditeur", "Destinataire")),
        ("Richtung", "eingehend", "hallo", ("Von", "An")),
        ("Richtung", "Empfangen", "hallo", ("Von", "An")),
        ("", None, "Arrêt", ("Expéditeur", "Destinataire")),
        ("", None, "STOPP", ("Von", "An")),
        ("", None, "ALTO", ("De", "Para")),
    ],
)
def test_a_log_in_another_language_reads_the_consumers(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    header: str,
    direction: str | None,
    word: str,
    ends: tuple[str, str],
) -> None:
    # Black-box Q1 S1 #1: "Entrante", "BAJA", "STOPP" said nothing of the ends, so the pool in
    # "Para" (more different numbers) was imported, with a note that no Direction column or
    # opt-out word was there.
    text = _pool(header, direction, word, ends)
    out, sent = _dry_run(_write(tmp_path, "log.csv", text), tmp_path, capsys)
    column = "B" if direction is not None else "A"
    assert out["mapping"]["phone"] == f"{ends[0]} (column {column})", out
    assert sent == _CONSUMERS
    assert not any("guess" in w for w in _warnings(out)), out


def test_an_outbound_row_of_a_german_log_is_named(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Black-box Q1 S1 #4: the "ausgehend" row's business number was imported, said only to hold
    # no opt-out word.
    text = (
        "Richtung;Von;An;Nachricht;Datum\n"
        + "".join(
            f"eingehend;+1303555127{i};+17205551271;STOPP;1{i}.11.2026 10:00\n" for i in (1, 2, 3)
        )
        + "ausgehend;+17205551271;+13035551271;Sie wurden abgemeldet.;12.11.2026 10:01\n"
    )
    out, _ = _dry_run(_write(tmp_path, "de.csv", text), tmp_path, capsys)
    assert out["mapping"]["phone"] == "Von (column B)"
    warnings = _warnings(out)
    assert any(
        "Column A ('Richtung') says 1 of the 4 rows is outbound ('ausgehend'" in w for w in warnings
    ), warnings
    assert not any("guess" in w for w in warnings)


def test_an_unread_direction_column_is_not_said_to_be_missing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    text = _pool("Dirección", "Xyz", "hola", ("De", "Para"))
    out, _ = _dry_run(_write(tmp_path, "log.csv", text), tmp_path, capsys)
    guess = [w for w in _warnings(out) if "That is a guess" in w]
    assert len(guess) == 1, out
    assert "column A ('Dirección') holds no value read as inbound or outbound" in guess[0]
    assert "no Direction column" not in guess[0]


_RING = """\
Type,Direction,From,To,Date,Time,Message,Message Status
SMS,Inbound,(303) 555-1251,(720) 555-1251,11/16/2026,9:00 AM,STOP,Received
SMS,Inbound,(303) 555-1252,(720) 555-1251,11/16/2026,9:01 AM,STOP,Received
SMS,Inbound,(303) 555-1253,(720) 555-1251,11/16/2026,9:02 AM,STOP,Received
SMS,Inbound,(303) 555-1254,(720) 555-1251,11/16/2026,9:03 AM,STOP,Received
SMS,Inbound,(303) 555-1255,(720) 555-1251,11/16/2026,9:04 AM,STOP,Received
SMS,Outbound,(720) 555-1251,(303) 555-1261,11/16/2026,8:00 AM,Hi! Reply STOP to opt out,Sent
SMS,Outbound,(720) 555-1251,(303) 555-1262,11/16/2026,8:01 AM,Hi! Reply STOP to opt out,Sent
SMS,Outbound,(720) 555-1251,(303) 555-1263,11/16/2026,8:02 AM,Hi! Reply STOP to opt out,Sent
"""


@pytest.mark.parametrize("message", [True, False])
def test_a_type_column_before_the_direction_keeps_its_warning(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], message: bool
) -> None:
    # Black-box Q1 S1 #2: RingCentral's "Type" of "SMS" was taken as the direction column, and
    # the business line of the 3 outbound rows was imported unsaid.
    text = _RING
    if not message:
        text = "\n".join(",".join(line.split(",")[:6]) for line in _RING.splitlines()) + "\n"
    out, sent = _dry_run(_write(tmp_path, "ring.csv", text), tmp_path, capsys)
    assert out["mapping"]["phone"] == "From (column C)"
    assert "(720) 555-1251" not in sent  # the outbound rows' business line is refused
    warnings = _warnings(out)
    assert any(
        "Column B ('Direction') says 3 of the 8 rows are outbound ('Outbound'" in w
        for w in warnings
    ), warnings


def test_messagebird_mo_rows_read_the_originator(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Black-box Q1 S1 #3: "recipient" (the business's pool) was read, the warning saying the
    # consumer's number was in no column; it is in "originator". "mo" is mobile originated.
    text = "id,direction,originator,recipient,body,createdDatetime\n" + "".join(
        f"mb{i},mo,+1303555144{1 + i % 2},+1720555143{1 + i},STOP,2026-11-16T12:0{i}:00+00:00\n"
        for i in range(4)
    )
    out, sent = _dry_run(_write(tmp_path, "mb.csv", text), tmp_path, capsys)
    assert out["mapping"] == {
        "phone": "originator (column C)",
        "request_date": "createdDatetime (column F)",
    }
    assert sent == {"+13035551441", "+13035551442"}
    assert not any("no column of the file" in w for w in _warnings(out))
    # An SMPP-style "Dir: in, Originator, Destination" log, its "Content" the message.
    text = "Dir,Originator,Destination,Content,Date\n" + "".join(
        f"in,+1303555135{1 + i % 2},+1720555134{1 + i},Stop,2026-11-16 12:0{i}\n" for i in range(4)
    )
    out, sent = _dry_run(_write(tmp_path, "od.csv", text), tmp_path, capsys)
    assert out["mapping"]["phone"] == "Originator (column B)"
    assert sent == {"+13035551351", "+13035551352"}
    # Mobile terminated rows are the business's: read on the recipient's end.
    text = "direction,originator,recipient,body\n" + "".join(
        f"mt,+1720555143{1 + i % 2},+1303555144{1 + i},Reply STOP to opt out\n" for i in range(4)
    )
    out, sent = _dry_run(_write(tmp_path, "mt.csv", text), tmp_path, capsys)
    assert out["mapping"]["phone"] == "recipient (column C)"


def test_a_log_of_stops_and_their_confirmations_is_no_guess(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Black-box Q1 S1 #4: one inbound STOP and one outbound confirmation each; the note said
    # nothing in the file told the ends apart, and "Created At" was not the request date.
    rows = []
    for i in range(6):
        consumer, line = f"+1303555121{1 + i % 2}", f"+1720555120{1 + i % 3}"
        rows.append(f"4{i},inbound,{consumer},{line},STOP,2026-11-1{1 + i % 3}T14:0{i}:00Z")
        rows.append(
            f"5{i},outbound,{line},{consumer},You have been unsubscribed.,"
            f"2026-11-1{1 + i % 3}T14:0{i}:05Z"
        )
    text = "Message ID,Direction,From,To,Text,Created At\n" + "\n".join(rows) + "\n"
    out, _ = _dry_run(_write(tmp_path, "telnyx.csv", text), tmp_path, capsys)
    assert out["mapping"] == {"phone": "From (column C)", "request_date": "Created At (column F)"}
    warnings = _warnings(out)
    assert not any("guess" in w or "no Direction column" in w for w in warnings), warnings
    assert any("says 6 of the 12 rows are outbound" in w for w in warnings), warnings


def test_one_list_of_opt_out_words() -> None:
    # The message warnings and the reading of a log's ends know the same words.
    from app.core import message_log_notes, sheet_mapping

    # Both judge a message with sheet_mapping.asks_to_stop (B31 F4 moved the words there).
    OPT_OUT_KEYWORDS = sheet_mapping.OPT_OUT_KEYWORDS
    assert message_log_notes.asks_to_stop is sheet_mapping.asks_to_stop
    assert all(message_log_notes._opts_out(w) for w in ("Stopp", "Arrêt", "alto", "baja"))
    assert {"stopp", "arret", "alto", "baja"} <= OPT_OUT_KEYWORDS
