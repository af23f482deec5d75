"""A disposition or status column holding both do-not-call values and others is named: every
row is imported, a dialer's "No Answer" and "Sale Closed" rows too (black-box pass L1 #5: a
Five9 call log's DISPOSITION and a filtered sheet's Status of "Callback" went unsaid)."""

from __future__ import annotations

from pathlib import Path

import openpyxl
import pytest

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.sheet_check import Target


def _warnings(path: Path, tmp_path: Path) -> list[str]:
    settings = JobSettings(path, Scope.global_(), target=Target.DNC)
    store, _ = stage_import(settings, tmp_path / "jobs", connection=None)
    warnings = [str(w) for w in store.meta().get("warnings") or []]
    store.close()
    return warnings


def _csv(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "list.csv"
    path.write_text(text)
    return path


def test_a_call_logs_disposition_column_of_mixed_results_is_named(tmp_path: Path) -> None:
    rows = [
        ("jdoe", "No Answer"), ("jdoe", "Do Not Call"), ("jdoe", "Sale Closed"),
        ("asmith", "Answering Machine"), ("asmith", "DNC - Customer Request"),
        ("asmith", "Callback"),
    ]  # fmt: skip
    lines = ["CALL ID,TIMESTAMP,CALL TYPE,AGENT,DISPOSITION,ANI,DNIS,CALL TIME"]
    lines += [
        f'10000{i},"Mon, 16 Nov 2026 10:0{i}:01",Outbound,{agent},{disposition},7205550100,'
        f"303555610{i},0:00:31"
        for i, (agent, disposition) in enumerate(rows, start=1)
    ]
    text = "\n".join(lines) + "\n"
    warnings = _warnings(_csv(tmp_path, text), tmp_path)
    assert (
        "Column E ('DISPOSITION'): 2 of the 6 rows say do not call ('Do Not Call', 'DNC - "
        "Customer Request'), the other 4 say something else ('No Answer': row 2; 'Sale "
        "Closed': row 4; 'Answering Machine': row 5; …), yet they are imported as opt-outs "
        "too. Keep only the rows that say do not call (filter column E ('DISPOSITION')) and "
        "run the file again."
    ) in warnings, warnings


def test_a_filtered_workbooks_status_column_is_named(tmp_path: Path) -> None:
    wb = openpyxl.Workbook()
    ws = wb.active
    assert ws is not None
    ws.append(["Phone", "Status", "Notes"])
    for i in range(12):
        ws.append([f"30355523{i:02d}", "Callback" if i % 3 == 0 else "DNC", f"n{i}"])
    for row in (2, 5, 8, 11):
        ws.row_dimensions[row].hidden = True
    wb.save(tmp_path / "filtered.xlsx")
    warnings = _warnings(tmp_path / "filtered.xlsx", tmp_path)
    assert (
        "Column B ('Status'): 8 of the 12 rows say do not call ('DNC'), the other 4 say "
        "something else ('Callback': 4 rows, the first is row 2), yet they are imported as "
        "opt-outs too. Keep only the rows that say do not call (filter column B ('Status')) and "
        "run the file again."
    ) in warnings, warnings


def test_one_other_row_is_said_so(tmp_path: Path) -> None:
    text = "Phone,Call Result\n3035556201,DNC\n3035556202,Opt Out\n3035556203,Voicemail\n"
    warnings = _warnings(_csv(tmp_path, text), tmp_path)
    assert (
        "Column B ('Call Result'): 2 of the 3 rows say do not call ('DNC', 'Opt Out'), the "
        "other 1 says something else ('Voicemail': row 4), yet it is imported as an opt-out "
        "too. Keep only the rows that say do not call (filter column B ('Call Result')) and run "
        "the file again."
    ) in warnings, warnings


@pytest.mark.parametrize("header", ["Disposition", "Status", "Outcome", "Result"])
def test_a_column_of_do_not_call_values_only_is_not_named(tmp_path: Path, header: str) -> None:
    values = [
        "DNC", "Do Not Call", "Opt Out", "Remove", "Unsubscribe", "STOP",
        "DNC - Customer Request", "Opted Out", "Removed", "Unsubscribed",
    ]  # fmt: skip
    lines = [f"Phone,{header}"] + [f"30355562{i:02d},{v}" for i, v in enumerate(values)]
    warnings = _warnings(_csv(tmp_path, "\n".join(lines) + "\n"), tmp_path)
    assert not [w for w in warnings if "do not call" in w], warnings


def test_opt_in_values_are_named_once_not_as_other_dispositions(tmp_path: Path) -> None:
    text = "Phone,Status\n3035556301,Opted Out\n3035556302,Opted In\n"
    warnings = _warnings(_csv(tmp_path, text), tmp_path)
    assert not [w for w in warnings if "say do not call" in w], warnings
    assert any("opted in or asked to be called again" in w for w in warnings), warnings


def test_a_column_headed_otherwise_is_not_read_as_dispositions(tmp_path: Path) -> None:
    text = "Phone,Agent\n3035556401,DNC\n3035556402,jdoe\n"
    warnings = _warnings(_csv(tmp_path, text), tmp_path)
    assert not [w for w in warnings if "do not call" in w], warnings
