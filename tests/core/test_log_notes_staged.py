"""Black-box N4 through staging itself (stage_import), where the log watch's notes meet
staging's own: several flag columns get one note (#5), a row a log note names carries it in
its stored message, which the report's Rows sheet shows (#10), and a consent column gets one
note worded by the list (#12)."""

from __future__ import annotations

from pathlib import Path

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.sheet_check import Target


def _staged(
    tmp_path: Path, text: str, target: Target = Target.DNC
) -> tuple[list[str], dict[int, str]]:
    path = tmp_path / "file.csv"
    path.write_text(text)
    store, _ = stage_import(
        JobSettings(path, Scope.global_(), target=target), tmp_path / "jobs", connection=None
    )
    warnings = [str(w) for w in store.meta().get("warnings") or []]
    messages = {r.row_number: r.message for r in store.rows()}
    store.close()
    return warnings, messages


def test_several_flag_columns_get_one_note(tmp_path: Path) -> None:
    text = (
        "Phone,Federal DNC,State DNC,Litigator\n"
        "3035552001,Y,N,N\n"
        "3035552002,N,Y,N\n"
        "3035552003,N,N,Y\n"
        "3035552004,N,N,N\n"
    )
    warnings, _ = _staged(tmp_path, text)
    flagged = [w for w in warnings if "Federal DNC" in w or "State DNC" in w]
    assert len(flagged) == 1, warnings
    note = flagged[0]
    assert "Litigator" in note and "row 5" in note, note
    # No note left saying to keep only one column's "yes" rows.
    assert not any(w.startswith("Column B ('Federal DNC') marks rows") for w in warnings)


def test_an_outbound_log_row_carries_its_note_in_the_stored_message(tmp_path: Path) -> None:
    text = (
        "From,To,Body,Direction\n"
        "+13035550101,+17205550100,STOP,inbound\n"
        "+17205550100,+13035550101,You have been unsubscribed,outbound-reply\n"
        "+13035550102,+17205550100,STOP,inbound\n"
    )
    _, messages = _staged(tmp_path, text, Target.SMS_OPT_OUT)
    assert messages[2] == ""
    assert messages[3] == (
        "row 3: phone: cell D3 says 'outbound-reply' (the business sent this message or made "
        "this call): on this row column A ('From') holds the business's own number, not a "
        "consumer's, and the consumer is on the other end, in column B ('To'); the row is not "
        "imported, as what the business sent is no request of anyone's"
    ), messages


def test_a_consent_column_is_said_once_by_the_list(tmp_path: Path) -> None:
    text = "Phone,Consent\n3035552001,Yes\n3035552002,No\n3035552003,Yes\n"
    warnings, _ = _staged(tmp_path, text, Target.SMS_OPT_OUT)
    consent = [w for w in warnings if "('Consent')" in w]
    assert len(consent) == 1, warnings
    assert "do-not-call" not in consent[0]
    assert "If they did not opt out, delete those rows" in consent[0], consent
