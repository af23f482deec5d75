"""What an SMS platform's export writes in its phone column and beside it (black-box B31):
E.164 without its "+" (F7), SMS short codes (F8), and a Channel column of SMS, Voice and
Email rows (F9)."""

from __future__ import annotations

from pathlib import Path

from app.api.scope import Scope
from app.core import phones
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.sheet_check import Target

NO_PLUS = (
    "from,to,body,direction,date_received\n"
    "14155550191,18885550100,STOP,inbound,2026-11-24\n"
    "447911123459,18885550100,STOP,inbound,2026-11-24\n"
    "33612345670,18885550100,ARRET,inbound,2026-11-24\n"
    "5215512345670,18885550100,ALTO,inbound,2026-11-24\n"
    "525512345671,18885550100,BAJA,inbound,2026-11-24\n"
    "4915112345670,18885550100,STOPP,inbound,2026-11-24\n"
)


def _staged(
    tmp_path: Path, text: str, target: Target = Target.SMS_OPT_OUT, name: str = "log.csv"
) -> tuple[dict[int, tuple[str, str]], list[str]]:
    path = tmp_path / name
    path.write_text(text)
    settings = JobSettings(path, Scope.global_(), target=target)
    store, _ = stage_import(settings, tmp_path / "j", connection=None)
    rows = {r.row_number: (r.outcome, r.message) for r in store.rows()}
    warnings = [str(w) for w in store.meta().get("warnings") or []]
    store.close()
    return rows, warnings


def test_many_numbers_without_their_plus_get_a_warning_for_the_file(tmp_path: Path) -> None:
    rows, warnings = _staged(tmp_path, NO_PLUS)
    said = [w for w in warnings if "without the '+'" in w]
    assert said == [
        "5 rows of column A ('from') (rows 3, 4, 5, 6 and 7) hold numbers written with their "
        "country code but without the '+' before it, as SMS platforms write E.164 (row 3: "
        "447911123459 is +44 7911 123459): read as numbers of the default code +1 (United "
        "States / Canada), they "
        "are not imported. Write a '+' before each such number (+447911123459) and run the "
        "file again (they are numbers of Mexico (+52), United Kingdom (+44), France (+33) and "
        "Germany (+49)); each row's message shows its number."
    ], warnings
    assert rows[2][0] == "", rows  # 14155550191 is a US number with its 1


def test_one_country_without_its_plus_is_told_its_phone_code(tmp_path: Path) -> None:
    text = "Phone\n447911123459\n447911123450\n447911123451\n4155550100\n"
    _, warnings = _staged(tmp_path, text, Target.DNC)
    said = [w for w in warnings if "without the '+'" in w]
    assert len(said) == 1, warnings
    assert said[0].endswith(
        "Write a '+' before each such number (+447911123459) and run the file again; or, as "
        "they are all United Kingdom numbers, run the file again with --phone-code 44; each "
        "row's message shows its number."
    ), said


def test_a_stray_number_without_its_plus_is_left_to_its_row(tmp_path: Path) -> None:
    text = "Phone\n4155550100\n4155550101\n4155550102\n447911123459\n"
    rows, warnings = _staged(tmp_path, text, Target.DNC)
    assert not [w for w in warnings if "without the '+'" in w], warnings
    assert "write +44 7911 123459" in rows[5][1]


def test_an_old_mexican_mobile_without_its_plus_gets_a_hint() -> None:
    reason = phones.normalize("5215512345670", "1").reason
    assert reason == (
        "too long for a US number: 13 digits, expected 10 digits; with a '+' before it, it "
        "would be a Mexico number, but the 1 after +52 marked a Mexican mobile number until "
        "2019: without it, enter +52 55 1234 5670"
    )
    assert phones.lost_plus_reading("5215512345670", "1") == ("52", "+52 55 1234 5670")
    assert phones.lost_plus_reading("14155550191", "1") is None
    assert phones.lost_plus_reading("447700900999", "1") is None  # no UK number in use


def test_an_msisdn_column_says_its_number_is_refused_as_its_own_countrys(
    tmp_path: Path,
) -> None:
    text = "MSISDN,Keyword\n13125550151,STOP\n447700900999,STOP\n447911123458,STOP\n"
    rows, _ = _staged(tmp_path, text)
    assert rows[3][0] == "invalid"
    assert rows[3][1].startswith(
        "row 3: phone: not a valid United Kingdom number: 7700900999 (10 digits) is in no "
        "number range in use (read with its country code +44, as an MSISDN column writes it)"
    ), rows[3]
    assert "US number" not in rows[3][1]
    assert rows[4][0] == "", rows


def test_a_short_code_is_said_to_be_one(tmp_path: Path) -> None:
    text = "Phone Number,Keyword\n+14155550301,STOP\n72345,STOP\n888555,STOP\n"
    rows, _ = _staged(tmp_path, text)
    assert rows[3] == (
        "invalid",
        "row 3: phone: too short for a US number: 5 digits, expected 10 digits; 5 digits is the "
        "length of an SMS short code, a business's number for texts, not a consumer's",
    ), rows
    assert "6 digits is the length of an SMS short code" in rows[4][1]
    # Four or seven digits are no short code, nor is a number with a "+".
    assert phones.short_code_note("7234") == ""
    assert phones.short_code_note("7234567") == ""
    assert phones.short_code_note("+72345") == ""


CHANNELS = (
    "Phone,Channel,Opt-out type,Date received\n"
    "+13125558001,SMS,STOP reply,2026-11-23\n"
    "+13125558002,Voice,Verbal DNC,2026-11-23\n"
    "+13125558003,Email,Unsubscribe link,2026-11-23\n"
    "+13125558004,Text,STOP reply,2026-11-23\n"
)


def test_a_channel_column_names_the_rows_of_other_channels_on_the_sms_list(
    tmp_path: Path,
) -> None:
    rows, warnings = _staged(tmp_path, CHANNELS)
    assert (
        "Column B ('Channel') says 2 of the 4 rows came by another channel than SMS ('Voice' "
        "on 1, 'Email' on 1; rows 3 and 4), yet they are imported onto the SMS opt-out list "
        "too. Check those rows: an opt-out by call asks for no more calls (the DNC list's), by "
        "email for no more email: neither is a STOP to texts; take out the rows that are no "
        "such request and run the file again."
    ) in warnings, warnings
    assert rows[3] == (
        "",
        "row 3: column B ('Channel') says 'Voice': an opt-out by a call, not by SMS",
    )
    assert rows[5] == ("", ""), rows  # 'Text' is SMS


def test_a_channel_column_names_the_rows_of_other_channels_on_the_dnc_list(
    tmp_path: Path,
) -> None:
    rows, warnings = _staged(tmp_path, CHANNELS, Target.DNC)
    said = [w for w in warnings if w.startswith("Column B ('Channel')")]
    assert len(said) == 1 and "3 of the 4 rows came by another channel than calls" in said[0]
    assert "imported onto the DNC list too" in said[0]
    assert rows[3] == ("", ""), rows
