"""Rows whose other cells say the consumer opted in, or asked to be called again, are named
before an import sends them as opt-outs (black-box pass I2: a Keyword column of STOP, START,
UNSTOP and YES, a Status column of "Opted In" and "Subscribed", an Action column of
"Resubscribe" and a Request column of "remove from DNC" were all imported without a word)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.removal_job import stage_removal
from app.core.sheet_check import Target


def _warnings(tmp_path: Path, text: str, kind: str = "import") -> list[str]:
    path = tmp_path / "list.csv"
    path.write_text(text)
    if kind == "import":
        settings = JobSettings(path, Scope.global_(), target=Target.SMS_OPT_OUT)
        store, _ = stage_import(settings, tmp_path / "jobs", connection=None)
    else:
        store, _ = stage_removal(
            JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None
        )
    warnings = [str(w) for w in store.meta().get("warnings") or []]
    store.close()
    return warnings


def _opt_in_warnings(warnings: list[str]) -> list[str]:
    return [w for w in warnings if "opted in or asked to be called again" in w]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (
            "Phone,Keyword\n303-555-1101,STOP\n303-555-1102,START\n303-555-1103,UNSTOP\n"
            "303-555-1104,YES\n303-555-1105,HELP\n",
            "Column B ('Keyword'): 3 rows say the consumer opted in or asked to be called again "
            "(row 3: 'START'; row 4: 'UNSTOP'; row 5: 'YES')",
        ),
        (
            "Phone,Status\n303-555-1201,Opted Out\n303-555-1202,Opted In\n303-555-1203,Subscribed"
            "\n303-555-1204,Unsubscribed\n",
            "Column B ('Status'): 2 rows say the consumer opted in or asked to be called again "
            "(row 3: 'Opted In'; row 4: 'Subscribed')",
        ),
        (
            "Mobile,Action\n303-555-1301,Unsubscribe\n303-555-1302,Subscribe\n"
            "303-555-1303,Resubscribe\n",
            "Column B ('Action'): 2 rows say the consumer opted in or asked to be called again "
            "(row 3: 'Subscribe'; row 4: 'Resubscribe')",
        ),
        (
            "Phone,Request\n303-555-1501,add to DNC\n303-555-1502,remove from DNC\n"
            '303-555-1503,"please remove me from your do not call list, I want calls"\n',
            "Column B ('Request'): 2 rows say the consumer opted in or asked to be called again "
            "(row 3: 'remove from DNC'; row 4: 'please remove me from your do not call l')",
        ),
    ],
)
def test_opt_in_cells_are_named(tmp_path: Path, text: str, expected: str) -> None:
    (found,) = _opt_in_warnings(_warnings(tmp_path, text))
    assert found.startswith(expected), found
    assert "yet every row is imported as an opt-out" in found


def test_opt_in_cells_far_down_the_file_are_named_too(tmp_path: Path) -> None:
    lines = ["Phone,Status"] + [f"303555{i:04d},Opted Out" for i in range(400)]
    lines.append("3035559999,Opted In")
    (found,) = _opt_in_warnings(_warnings(tmp_path, "\n".join(lines) + "\n"))
    assert "1 row says" in found and "row 402: 'Opted In'" in found


def test_yes_is_an_opt_in_only_in_a_message_column(tmp_path: Path) -> None:
    # A "DNC" column of Yes means the opposite; its own warning (opt-out flags) is apart.
    text = "Phone,Called Before\n303-555-1601,Yes\n303-555-1602,No\n"
    assert _opt_in_warnings(_warnings(tmp_path, text)) == []


def test_a_removal_and_plain_opt_out_files_say_nothing_of_it(tmp_path: Path) -> None:
    plain = "Phone,Status\n303-555-1701,Opted Out\n303-555-1702,Unsubscribed\n"
    assert _opt_in_warnings(_warnings(tmp_path, plain)) == []
    opted_in = "Phone,Status\n303-555-1801,Opted In\n"
    assert _opt_in_warnings(_warnings(tmp_path, opted_in, kind="removal")) == []


def test_opt_in_words_in_the_reason_column_read_are_named_too(tmp_path: Path) -> None:
    # Re-test J1: the Reason column's text goes onto each entry; "remove me from your DNC
    # list" and "START" there were imported as opt-outs without a word.
    lines = ["Phone,Reason"] + [f"303619{i:04d},customer asked {i}" for i in range(1_200)]
    lines += ["3036199998,remove me from your DNC list", "3036199999,START"]
    (found,) = _opt_in_warnings(_warnings(tmp_path, "\n".join(lines) + "\n"))
    assert found.startswith(
        "Column B ('Reason'): 2 rows say the consumer opted in or asked to be called again "
        "(row 1202: 'remove me from your DNC list'; row 1203: 'START')"
    ), found


def test_up_to_ten_opt_in_rows_are_named(tmp_path: Path) -> None:
    # Re-test K1: "5 rows say…" named three of them, and the others were found nowhere.
    lines = ["Phone,Reason"] + [f"303619{i:04d},customer request" for i in range(20)]
    lines += [f"30362{i:05d},Opted In" for i in range(12)]
    (found,) = _opt_in_warnings(_warnings(tmp_path, "\n".join(lines) + "\n"))
    assert found.startswith("Column B ('Reason'): 12 rows say"), found
    named = [f"row {n}: 'Opted In'" for n in range(22, 32)]
    assert all(row in found for row in named) and "row 32:" not in found and "; …)" in found
