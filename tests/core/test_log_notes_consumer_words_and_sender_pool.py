"""Re-test M1: a disposition in the consumer's words ("Take me off your list") says do not call
(#11), and a log sent from a pool of numbers does not say one of them is on most rows (#13)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.sheet_check import Target


def _warnings(tmp_path: Path, text: str, target: Target = Target.DNC) -> list[str]:
    path = tmp_path / "list.csv"
    path.write_text(text)
    settings = JobSettings(path, Scope.global_(), target=target)
    store, _ = stage_import(settings, tmp_path / "jobs", connection=None)
    warnings = [str(w) for w in store.meta().get("warnings") or []]
    store.close()
    return warnings


@pytest.mark.parametrize(
    "value", ["Take me off your list", "Please opt me out", "Leave me alone", "Unsubscribe me"]
)
def test_a_disposition_in_the_consumers_words_says_do_not_call(tmp_path: Path, value: str) -> None:
    text = (
        "Phone,Disposition\n3035550371,Do Not Call\n3035550372,do not call\n"
        f"3035550375,Remove from list\n3035550376,{value}\n"
    )
    warnings = _warnings(tmp_path, text)
    assert not [w for w in warnings if "something else" in w], warnings


@pytest.mark.parametrize("value", ["No more interest", "Prioridad baja", "Interés alto"])
def test_status_words_that_only_look_like_opt_outs_are_something_else(
    tmp_path: Path, value: str
) -> None:
    text = f"Phone,Status\n3035550371,DNC\n3035550372,DNC\n3035550373,{value}\n"
    warnings = _warnings(tmp_path, text)
    assert any(f"something else ({value!r}: row 4)" in w for w in warnings), warnings


def _pool_log(senders: list[str]) -> str:
    lines = ["From,To,Body,Status,SentDate,Direction"]
    lines += [
        f"{sender},+1303555800{i},Acme deals! Reply STOP to opt out,delivered,2026-11-18,"
        "outbound-api"
        for i, sender in enumerate(senders)
    ]
    # More rows received than sent, so the log says the consumers are the senders ("From"
    # is read): since black-box Q1 #2 the end is the one most rows say is the consumers'.
    lines += [
        f"+130355581{i:02d},+17205550100,STOP,received,2026-11-18,inbound"
        for i in range(len(senders) + 1)
    ]
    return "\n".join(lines) + "\n"


def test_a_pool_of_senders_is_said_as_numbers_not_one_on_most_rows(tmp_path: Path) -> None:
    senders = [f"+1720555010{i}" for i in range(8)] + ["+17205550100", "+17205550101"]
    warnings = _warnings(tmp_path, _pool_log(senders), Target.SMS_OPT_OUT)
    said = [w for w in warnings if w.startswith("Column F ('Direction') says 10 of the 21")]
    assert len(said) == 1, warnings
    assert (
        "on those rows column A ('From') holds the business's own numbers ('+17205550100' and "
        "7 others), not a consumer's, the consumer being on the other end (column B ('To')), "
        "so they are not imported (each is invalid, its message saying why)." in said[0]
    ), said
    assert "most" not in said[0]


def test_one_sender_on_more_than_half_the_rows_is_on_most_of_them(tmp_path: Path) -> None:
    senders = ["+17205550100"] * 3 + ["+17205550101", "+17205550102"]
    warnings = _warnings(tmp_path, _pool_log(senders), Target.SMS_OPT_OUT)
    assert any("own number ('+17205550100' on most of them)" in w for w in warnings), warnings


def test_half_the_rows_is_not_most(tmp_path: Path) -> None:
    senders = ["+17205550100"] * 2 + ["+17205550101", "+17205550102"]
    warnings = _warnings(tmp_path, _pool_log(senders), Target.SMS_OPT_OUT)
    assert any("own numbers ('+17205550100' and 2 others)" in w for w in warnings), warnings
