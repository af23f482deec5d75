"""Black-box pass F: which column of a call log is the consumer's, request dates under more
headers, consent columns and area-code columns named in warnings.

1. A call log's "Caller ID" is the consumer's number; the number called ("Number Called",
   "Called Number", "DNIS") is the business's own line, read only when it holds more different
   numbers (a log of calls the business made), and named in the warning about unread columns.
2. "Opted Out", "Unsubscribed" and "Unsubscribe Time" over dates, "Datum", "Fecha",
   "Eingangsdatum", "Fecha de solicitud", "Date de la demande" are the request date;
   "Last Updated" over dates names another date.
3. An unread opt-in, consent or subscription column some rows say yes to is named.
4. An unread "Area Code" column beside numbers of 7 digits is named.
"""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings

IVR = [
    ("2026-11-18", "(303) 555-6701", "(800) 555-0199", "9"),
    ("2026-11-18", "(720) 555-6702", "(800) 555-0199", "9"),
    ("2026-11-19", "(303) 555-6703", "(800) 555-0199", "9"),
    ("2026-11-19", "(970) 555-6704", "(800) 555-0199", "9"),
]


def _stage(path: Path, tmp_path: Path) -> tuple[dict[str, str], list[str], dict[str, int]]:
    """The mapping (role → column), the warnings and the counts of staging ``path``."""
    store, summary = stage_import(
        JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None
    )
    meta = store.meta()
    store.close()
    counts = {
        "valid": summary.valid,
        "invalid": summary.invalid,
        "dups": summary.duplicates_in_file,
    }
    return dict(meta.get("mapping") or {}), [str(w) for w in meta.get("warnings") or []], counts


def _csv(tmp_path: Path, header: str, rows: list[tuple[str, ...]]) -> Path:
    path = tmp_path / "file.csv"
    path.write_text("\n".join([header, *(",".join(row) for row in rows)]) + "\n")
    return path


@pytest.mark.parametrize("called", ["Number Called", "Called Number", "Dialed Number"])
def test_an_ivr_log_reads_the_caller_and_names_the_number_called(
    called: str, tmp_path: Path
) -> None:
    path = _csv(tmp_path, f"Date,Caller ID,{called},Keypress", IVR)
    mapping, warnings, counts = _stage(path, tmp_path)
    assert mapping["phone"] == "Caller ID (column B)"
    assert counts == {"valid": 4, "invalid": 0, "dups": 0}
    # Not offered with --phone-column: the business's own line (re-test R1 #2).
    expected = (
        f"Column C ('{called}') also holds phone numbers but is not imported: only column B "
        f"('Caller ID') is read. Column C ('{called}') is the number that was called or texted, "
        "which in a log of calls or texts received is the business's own line, so it is not "
        "read as the consumers' numbers."
    )
    assert expected in warnings, warnings


@pytest.mark.parametrize("header", ["Caller ID", "Caller-ID", "Calling Number", "Phone ID"])
def test_a_caller_id_column_of_formatted_numbers_is_the_phone_column(
    header: str, tmp_path: Path
) -> None:
    rows = [("2026-11-18", "(303) 555-3301", "STOP"), ("2026-11-18", "720-555-3302", "stop")]
    mapping, _, counts = _stage(_csv(tmp_path, f"Date,{header},Message", rows), tmp_path)
    assert mapping["phone"] == f"{header} (column B)"
    assert counts["valid"] == 2


def test_a_caller_id_column_of_number_cells_in_a_workbook_is_read(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.append(["Date", "Caller ID", "Message"])
    for n in (3035550700, 3035550701, 3035550702):
        ws.append(["2026-11-18", n, "STOP"])
    wb.save(tmp_path / "log.xlsx")
    mapping, _, counts = _stage(tmp_path / "log.xlsx", tmp_path)
    assert mapping["phone"] == "Caller ID (column B)"
    assert counts["valid"] == 3


def test_a_log_of_calls_made_reads_the_numbers_dialled(tmp_path: Path) -> None:
    # The business's caller ID is one number over and over; the numbers dialled are many.
    rows = [("(800) 555-0199", f"(303) 555-01{i:02d}") for i in range(4)]
    mapping, warnings, _ = _stage(_csv(tmp_path, "Caller ID,Number Dialed", rows), tmp_path)
    assert mapping["phone"] == "Number Dialed (column B)"
    assert any(
        "Column A ('Caller ID') holds fewer different numbers than column B ('Number Dialed')" in w
        for w in warnings
    ), warnings


@pytest.mark.parametrize(
    ("header", "rows", "phone"),
    [
        # Texts received: "From" is the consumer; sent: "To" is.
        ("Timestamp,From,To,Body", [("t", f"+1303555681{i}", "+18005550199", "STOP") for i in range(3)], "From (column B)"),  # noqa: E501
        ("Timestamp,From,To,Body", [("t", "+18005550199", f"+1303555692{i}", "ok") for i in range(3)], "To (column C)"),  # noqa: E501
        ("Timestamp,To,From,Body", [("t", "+18005550199", f"+1303555691{i}", "STOP") for i in range(3)], "From (column C)"),  # noqa: E501
        # One row: as many numbers either way, the sender's is read.
        ("To,From", [("+18005550199", "+13035550101")], "From (column B)"),
    ],
)  # fmt: skip
def test_an_sms_log_reads_the_end_with_more_numbers(
    header: str, rows: list[tuple[str, ...]], phone: str, tmp_path: Path
) -> None:
    mapping, _, _ = _stage(_csv(tmp_path, header, rows), tmp_path)
    assert mapping["phone"] == phone


@pytest.mark.parametrize(
    ("header", "business", "consumers"),
    [("De,Para,Mensaje", "De", "Para"), ("Von,An,Nachricht", "Von", "An"),
     ("Expéditeur,Destinataire,Message", "Expéditeur", "Destinataire")],
)  # fmt: skip
def test_a_log_in_another_language_is_read_as_a_log(
    header: str, business: str, consumers: str, tmp_path: Path
) -> None:
    # H4: "De/Para", "Von/An" were not read as a log's ends, so nothing said why the one
    # column was read and not the other, nor that its messages were no opt-outs.
    rows = [("+18005550199", f"+1303555692{i}", "ok") for i in range(3)]
    mapping, warnings, _ = _stage(_csv(tmp_path, header, rows), tmp_path)
    assert mapping["phone"] == f"{consumers} (column B)"
    said = (
        f"Column A ('{business}') holds fewer different numbers than column B ('{consumers}'), "
        "as the business's own line does in a log of calls or texts it made"
    )
    assert any(said in w for w in warnings), warnings
    assert any("messages hold no opt-out word" in w for w in warnings), warnings


def test_a_campaign_number_of_phone_numbers_is_not_read_as_campaigns(tmp_path: Path) -> None:
    rows = [(d, caller, called) for d, caller, called, _ in IVR]
    mapping, _, counts = _stage(_csv(tmp_path, "Date,Caller ID,Campaign Number", rows), tmp_path)
    assert mapping["phone"] == "Caller ID (column B)"
    assert "campaign" not in mapping
    assert counts["valid"] == 4


@pytest.mark.parametrize(
    "header",
    [
        "Opted Out",
        "Unsubscribed",
        "Unsubscribe Time",
        "Datum",
        "Fecha",
        "Eingangsdatum",
        "Fecha de solicitud",
        "Date de la demande",
        "Date reçue",
        "Reçu le",
    ],
)
def test_more_request_date_headers_are_read(header: str, tmp_path: Path) -> None:
    rows = [("3035556201", "11/02/2026"), ("3035556202", "11/20/2026")]
    mapping, warnings, _ = _stage(_csv(tmp_path, f"Phone,{header}", rows), tmp_path)
    assert mapping.get("request_date") == f"{header} (column B)"
    assert not any("names another date" in w for w in warnings), warnings


def test_a_yes_no_opted_out_column_is_no_request_date(tmp_path: Path) -> None:
    rows = [("3035556201", "Yes"), ("3035556202", "No")]
    mapping, warnings, _ = _stage(_csv(tmp_path, "Phone,Opted Out", rows), tmp_path)
    assert "request_date" not in mapping
    assert any(w.startswith("Column B ('Opted Out') marks each row yes or no") for w in warnings)


def test_last_updated_dates_name_another_date(tmp_path: Path) -> None:
    rows = [("3035556201", "11/02/2026"), ("3035556202", "11/20/2026")]
    mapping, warnings, _ = _stage(_csv(tmp_path, "Phone,Last Updated", rows), tmp_path)
    assert "request_date" not in mapping
    assert any(
        w.startswith("Column B ('Last Updated') names another date than the day the request")
        for w in warnings
    ), warnings


@pytest.mark.parametrize(
    ("header", "values", "said", "example"),
    [
        ("SMS Opt-In", ["Yes", "No", "Yes"], 2, "Yes"),
        ("Consent to call", ["Y", "N"], 1, "Y"),
        ("Subscription Status", ["unsubscribed", "subscribed", "opted out", "active"], 2, "subscribed"),  # noqa: E501
    ],
)  # fmt: skip
def test_a_consent_column_some_rows_say_yes_to_is_named(
    header: str, values: list[str], said: int, example: str, tmp_path: Path
) -> None:
    rows = [(f"303555520{i}", value) for i, value in enumerate(values)]
    _, warnings, counts = _stage(_csv(tmp_path, f"Phone,{header}", rows), tmp_path)
    assert counts["valid"] == len(values)
    expected = (
        f"Column B ('{header}') says the consumer opted in, consented or is subscribed on "
        f"{said} of the first {len(values)} rows (as '{example}'): every row is imported "
        "whatever it says, so those numbers go on the list too. If they did not opt out, "
        "delete those rows from the file (rows hidden by a filter are imported too) and run it "
        "again."
    )
    assert expected in warnings, warnings


def test_a_consent_column_of_no_only_is_not_named(tmp_path: Path) -> None:
    rows = [("3035555201", "No"), ("3035555202", "N")]
    _, warnings, _ = _stage(_csv(tmp_path, "Phone,SMS Opt-In", rows), tmp_path)
    assert not any("opted in" in w for w in warnings), warnings


@pytest.mark.parametrize("header", ["Area Code", "AC", "A/C"])
def test_an_area_code_column_beside_local_numbers_is_named(tmp_path: Path, header: str) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.append(["Name", header, "Phone Number"])
    for i in range(4):
        ws.append([f"N{i}", 303 + i, f"555-040{i}"])
    wb.save(tmp_path / "split.xlsx")
    _, warnings, counts = _stage(tmp_path / "split.xlsx", tmp_path)
    assert counts["invalid"] == 4
    expected = (
        f"Column B ('{header}') holds area codes, which are not read: only column C ('Phone "
        "Number') is, and 4 of its first numbers have 7 digits, a local number without its "
        "area code, so those rows are invalid. Combine the area code and the number into one "
        "column of 10-digit numbers (in Excel, a new column of =B2&C2 filled down) and run "
        "the file again."
    )
    assert expected in warnings, warnings


def test_an_area_code_column_beside_full_numbers_is_not_named(tmp_path: Path) -> None:
    rows = [("303", "3035552003"), ("720", "7205552004")]
    _, warnings, _ = _stage(_csv(tmp_path, "Area Code,Phone", rows), tmp_path)
    assert not any("area code" in w for w in warnings), warnings
