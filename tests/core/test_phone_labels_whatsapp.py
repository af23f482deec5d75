"""Twilio writes a WhatsApp sender as ``whatsapp:+13035550123``: the number is read with the note
"the label 'whatsapp' was left out", as ``tel:+1…`` is, so a message log's From column is found
as the phone column (black-box N4 #11: the import was refused with "No column of phone numbers
was found", and with the column named every row was invalid as words around the number)."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.api.scope import Scope
from app.core.job_staging import JobSettings, stage
from app.core.phones import normalize_with_default
from app.core.sheet_check import Target


@pytest.mark.parametrize(
    ("cell", "code", "national", "label"),
    [
        ("whatsapp:+13035554501", "1", "3035554501", "whatsapp"),
        ("WhatsApp:+447911123458", "44", "7911123458", "WhatsApp"),
        ("WHATSAPP: +1 303 555 4502", "1", "3035554502", "WHATSAPP"),
        ("tel:+13035554503", "1", "3035554503", "tel"),
    ],
)
def test_a_whatsapp_address_is_read_as_a_labelled_number(
    cell: str, code: str, national: str, label: str
) -> None:
    result = normalize_with_default(cell, "1")
    assert result.ok, result.reason
    assert (result.phone_code, result.national) == (code, national)
    assert result.note == f"the label {label!r} was left out"


def test_a_twilio_whatsapp_log_is_read_from_its_from_column(tmp_path: Path) -> None:
    # The shape of the finding's 45_twilio_whatsapp.csv.
    path = tmp_path / "whatsapp.csv"
    path.write_text(
        "From,To,Body,Direction\n"
        "whatsapp:+13035554501,whatsapp:+17205550100,STOP,inbound\n"
        "whatsapp:+13035554502,whatsapp:+17205550100,unsubscribe,inbound\n"
        "whatsapp:+447911123458,whatsapp:+17205550100,stop,inbound\n"
    )
    job = JobSettings(path, Scope.global_(), target=Target.DNC)
    store, summary = stage(job, tmp_path / "jobs", kind="import", connection=None)
    assert store.meta()["mapping"]["phone"] == "From (column A)"
    rows = list(store.rows())
    assert [(r.phone_code, r.national) for r in rows] == [
        ("1", "3035554501"),
        ("1", "3035554502"),
        ("44", "7911123458"),
    ]
    assert summary.invalid == 0
    assert [r.message for r in rows] == [
        f"row {n}: the label 'whatsapp' was left out" for n in (2, 3, 4)
    ]
