"""Black-box N4: the rows a log warning names carry it in their own message, for the report's
Rows sheet (#10), and a status note is worded by the list imported into (#12).

LogWatch between a real sheet reader and the real check, as staging puts them."""

from __future__ import annotations

from pathlib import Path

from app.core.message_log_notes import LogWatch, flag_kind
from app.core.sheet_check import CheckedRow, CheckOptions, Target, check_rows
from app.core.sheet_csv import CsvSource
from app.core.sheet_header import read_preview
from app.core.sheet_mapping import ColumnMapping, propose_from_preview


def _staged(
    tmp_path: Path, text: str, target: Target = Target.DNC, said: frozenset[int] = frozenset()
) -> tuple[LogWatch, list[CheckedRow]]:
    path = tmp_path / "log.csv"
    path.write_text(text)
    source = CsvSource(path)
    mapping: ColumnMapping = propose_from_preview(read_preview(source))
    log = LogWatch(mapping, "import", target, said)
    options = CheckOptions(target=target)
    checked = list(log.noted(check_rows(log.watch(source.iter_rows()), mapping, options)))
    return log, checked


def test_outbound_start_and_no_opt_out_rows_are_noted_by_the_row(tmp_path: Path) -> None:
    # 01_twilio_message_log.csv: the outbound and START rows were plain "inserted".
    text = (
        "From,To,Body,Direction\n"
        "+13035550101,+17205550100,STOP,inbound\n"
        "+17205550100,+13035550101,You have been unsubscribed,outbound-reply\n"
        "+13035550102,+17205550100,Yes I will attend,inbound\n"
        "+13035550107,+17205550100,START,inbound\n"
    )
    _, checked = _staged(tmp_path, text)
    messages = {c.row: c.message for c in checked}
    assert messages[2] == "", messages
    assert messages[3] == (
        "row 3: phone: cell D3 says 'outbound-reply' (the business sent this message or made "
        "this call): on this row column A ('From') holds the business's own number, not a "
        "consumer's, and the consumer is on the other end, in column B ('To'); the row is not "
        "imported, as what the business sent is no request of anyone's"
    ), messages
    assert messages[4] == "row 4: column C ('Body'): the message holds no opt-out word", messages
    assert messages[5] == (
        "row 5: column C ('Body') says 'START': the consumer opted in or asked to be called again"
    ), messages


def test_a_scrub_verdict_row_is_noted(tmp_path: Path) -> None:
    text = "Phone,Result\n3035552001,Clean\n3035552002,DNC\n"
    _, checked = _staged(tmp_path, text)
    messages = {c.row: c.message for c in checked}
    assert messages == {
        2: "row 2: column B ('Result') says 'Clean', which is no opt-out",
        3: "",
    }, messages


def test_rows_are_not_kept_for_notes_nobody_asked_for(tmp_path: Path) -> None:
    path = tmp_path / "log.csv"
    path.write_text("Phone,Result\n3035552001,Clean\n3035552002,DNC\n")
    source = CsvSource(path)
    mapping = propose_from_preview(read_preview(source))
    log = LogWatch(mapping, "import")
    list(check_rows(log.watch(source.iter_rows()), mapping))
    assert not log._pending


def test_a_status_note_into_the_sms_opt_out_list_says_opted_out(tmp_path: Path) -> None:
    # 29a_sms_subscribers_status.csv: "say do not call" of an SMS subscriber list.
    text = "Phone,Subscriber Status\n+13035552901,Unsubscribed\n+13035552902,Active\n"
    log, _ = _staged(tmp_path, text, Target.SMS_OPT_OUT)
    assert (
        "Column B ('Subscriber Status'): 1 of the 2 rows says the consumer opted out "
        "('Unsubscribed'), the other 1 says something else ('Active': row 3), yet it is "
        "imported as an opt-out too. Keep only the rows that say the consumer opted out "
        "(filter column B ('Subscriber Status')) and run the file again."
    ) in log.sentences()


def test_a_consent_column_staging_named_gets_no_second_note(tmp_path: Path) -> None:
    # 04_klaviyo_suppressed.csv: the SMS Consent column had staging's note and this one.
    text = "Phone Number,SMS Consent\n+13035550401,UNSUBSCRIBED\n+13035550402,SUBSCRIBED\n"
    log, checked = _staged(tmp_path, text, Target.SMS_OPT_OUT)
    assert [s for s in log.sentences() if "opted in" in s], log.sentences()
    log, checked = _staged(tmp_path, text, Target.SMS_OPT_OUT, frozenset({1}))
    assert not [s for s in log.sentences() if "opted in" in s], log.sentences()
    assert "'SUBSCRIBED'" in checked[1].message  # the row says it still


def test_flag_columns_named_together_replace_stagings_own(tmp_path: Path) -> None:
    # 30a_flags_spaced.csv: staging's notes on Federal DNC and State DNC each said to keep
    # only that column's "yes" rows, and the Litigator column went unnamed.
    text = "Phone,Federal DNC,State DNC,Litigator\n3035553001,N,N,N\n3035553002,Y,N,N\n"
    text += "3035553003,N,N,Y\n"
    log, _ = _staged(tmp_path, text, said=frozenset({1, 2}))
    sentences = log.sentences()
    assert [s for s in sentences if "yes or no" in s] == [
        "Column B ('Federal DNC'), column C ('State DNC') and column D ('Litigator') mark each "
        "row yes or no: on 1 of the 3 rows none of them says yes (row 2), yet every row is "
        "imported as an opt-out, whatever they say. Keep only the rows where any of those "
        "columns says yes: delete the others from the file (rows hidden by a filter are "
        "imported too) and run it again."
    ], sentences
    assert log.flag_columns == {1, 2, 3}


def test_a_lone_flag_column_staging_named_gets_the_note_naming_rows(tmp_path: Path) -> None:
    # Re-test R1 #3: staging's note on a lone flag column, read from the first rows, named no
    # row; the watch's, over the whole file, names them and replaces it (flag_columns).
    text = "Phone,Federal DNC\n3035553001,N\n3035553002,Y\n"
    for said in (frozenset({1}), frozenset()):
        log, _ = _staged(tmp_path, text, said=said)
        assert [s for s in log.sentences() if "yes or no" in s] == [
            "Column B ('Federal DNC') marks each row yes or no: 1 of the 2 rows does not say "
            "yes (row 2), yet every row is imported as an opt-out, whatever it says. Keep only "
            "the rows where it says yes: delete the others from the file (rows hidden by a "
            "filter are imported too) and run it again."
        ]
        assert log.flag_columns == {1}


def test_flag_kinds() -> None:
    assert [
        flag_kind(h)
        for h in ("FederalDNC", "InternalDNC", "DoNotCall", "Litigator", "TCPA", "OptOut")
    ] == ["block"] * 6
    assert flag_kind("CallableFlag") == "callable"
    assert [flag_kind(h) for h in ("Wireless", "Email Opt Out", "Phone", "Status")] == [""] * 4
