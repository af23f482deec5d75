"""Warnings for a message or call log read as a list of opt-outs.

An SMS platform's log (Twilio's "Date Sent, From, To, Body, Status, Direction") has a row per
message, both ways: on a row the business sent, "From" holds the business's own line and "To"
the consumer, the other way round on a row it received; and a row is an opt-out only when the
consumer's message asks to stop. An import reads every row of its phone column as an opt-out,
so a log of both directions puts the business's own line on the list, and a consumer's "Yes I
will attend" counts as a STOP (black-box pass H2). Both are said after the check has read
every row, before anything is sent: filtering the file is the person's choice, as only they
know which rows are the opt-outs.

A message the business sent is its own words: it shows an opt-out only when it confirms one
("You have been unsubscribed"), never by the "Reply STOP to opt out" every marketing text
carries. When a log is read on its recipient ("To") side, the consumers' STOP replies are the
received rows, on which "To" holds the business's line and "From" the consumer's: the warning
says so, and which rows to keep (black-box pass L1: it said to keep the outbound rows, the
marketing texts).

The same watch reads, in any import file, a message or keyword column and every column no role
reads (and the reason column) for cells saying the consumer opted in or asked to be called
again ("START", "Opted In", "remove me from your DNC list"): those rows are named too. A
disposition or status column among them ("Disposition", "Call Result") that holds both
do-not-call values and others ("No Answer", "Callback") is named with its counts, as every row is
imported whatever it says (so is a column headed as an opt-out alone, "Opt-out", "Unsubscribed",
"DNC", its yes/no cells left to the flags); a value naming a block ("Litigator", "Blocked",
"DNCL") is do not call there, and a scrub's "Reason", "Description" or "ResultCode" column is
named so when it holds verdicts such as "Clean" or "Invalid Number" (black-box pass N4). Yes/no
flag columns ("Federal DNC", "FederalDNC", "DoNotCall", "Litigator", "CallableFlag") are read
together, a row being an opt-out when any block flag says yes on it, and an opt-out-date column
("opt_out_date") empty on some rows of a subscriber export names those rows, most likely still
subscribed.

The phone column read is watched too when its header names the business's side ("Company
Phone", "Business Number", "Our number" chosen with --phone-column) or one end of a log
("Sender", "From"): that header, or one number on every row, most likely means the business's
own line, which would go on the list in the consumers' place; and a column naming the
business's side passed over for holding one or a few numbers over and over
(:attr:`ColumnMapping.own_line_by_count`) is named with what it holds (regression check V1).

The rows a warning names carry it in their own message too, once :meth:`LogWatch.noted` is
asked for, so that a report's Rows sheet shows it by the row.
"""

from __future__ import annotations

import re
from collections import Counter, deque
from collections.abc import Iterable, Iterator, Sequence, Set
from typing import Final

from app.core import phones
from app.core.own_reports import own_columns
from app.core.sheet_check import CheckedRow, Outcome, Target
from app.core.sheet_mapping import (
    BODY_HEADERS,
    CONFIRMS_OPT_OUT,
    OPT_OUT_KEYWORDS,
    OPT_OUT_PHRASES,
    STOP_INSTRUCTION,
    TOLD_TO,
    CallSide,
    ColumnMapping,
    Role,
    RowDirections,
    asks_to_stop,
    call_side,
    column_letter,
    column_said,
    consent_header,
    few_repeated,
    foreign_direction,
    names_business_side,
    names_direction,
    names_number_that_called,
    other_end,
    plain_words,
)
from app.core.sheet_types import CellValue, Row
from app.core.staging_notes import other_columns_sentence
from app.core.wording import joined

# A message the business sent is its own words, never the consumer's request: it shows an
# opt-out only when it confirms one ("You have been unsubscribed"), while "Reply STOP to opt
# out", "Txt STOP to end" or "STOP2END" is the boilerplate carriers require on every marketing
# text (black-box pass L1: a log's "Reply STOP to opt out" promotions counted as opt-outs).
# Read in plain words (see sheet_mapping.plain_words), a sentence at a time; an instruction to
# opt out is sheet_mapping.STOP_INSTRUCTION.
_SENTENCES: Final = re.compile(r"[.!?;\n]+")
_START_KEYWORDS: Final = r"(?:start|unstop|yes|y|subscribe|join|help|info)"
# An instruction to opt (back) in: what follows it in its sentence is what would happen.
_START_INSTRUCTION: Final = re.compile(TOLD_TO + _START_KEYWORDS + r"\b")
_CONFIRMS_OPT_IN: Final = re.compile(
    r"\bre ?subscribed\b|\bopted (?:back )?in again\b|\bopted back in\b"
    r"|\byou (?:have|ve) opted in\b|\byou (?:are|re) now subscribed\b|\bwelcome back\b"
)
_SHOWN: Final = 3
# Opt-in rows are each a request to check: as many are named as a warning names of request
# dates (re-test K1: "5 rows say…" named three).
_OPT_INS_SHOWN: Final = 10
# A cell saying, whole, that the consumer opted in or back in (a Keyword column's START or
# UNSTOP, a Status column's "Opted In", an Action column's "Resubscribe"), and words asking to
# be taken off a do-not-call list, i.e. to be called (black-box pass I2: such rows were
# imported as opt-outs without a word).
_OPT_IN_VALUES: Final = frozenset(
    {"start", "unstop", "subscribe", "subscribed", "resubscribe", "resubscribed", "opt in",
     "opted in", "optin", "optedin", "opt in confirmed", "re subscribe", "re subscribed",
     "resume", "consented", "consent given", "add me", "join"}
)  # fmt: skip
_OPT_IN_PHRASES: Final = (
    "remove from dnc", "remove me from the dnc", "remove me from your dnc", "off the dnc",
    "off dnc", "from the do not call", "from your do not call", "off the do not call",
    "off your do not call", "want calls", "call me again", "opt back in", "opt me back in",
    "opt me in",
)  # fmt: skip
# Replies that agree (to a "Reply YES to…" message): an opt-in only in a message column.
_AGREEING: Final = frozenset({"yes", "y", "si", "ja", "oui"})
# A column of dispositions or statuses (a dialer's "Disposition", a CRM's "Call Result"): when
# some of its rows say do not call and others say something else ("No Answer", "Callback"),
# only the first are opt-outs, yet every row is imported (black-box pass L1).
_DISPOSITION_WORDS: Final = frozenset(
    {"disposition", "dispo", "status", "result", "results", "outcome", "wrapup"}
)
_DISPOSITION_HEADERS: Final = frozenset({"wrap up", "wrap up code", "call result"})
# Headers of a column that may hold a scrub's verdicts ("Reason", "Description", "ResultCode"):
# named, as a status column is, only when some of its values are verdicts such as "Clean"
# (black-box N4 #2: a scrub's "Reason: Clean" rows were imported, the text their reason).
_VERDICT_WORDS: Final = frozenset(
    {"reason", "reasons", "description", "desc", "verdict", "scrub", "code"}
)
# Where "FederalDNC", "CallableFlag" or "DNCFlag" has a space.
_CAMEL: Final = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_DNC_VALUES: Final = frozenset(
    {"dnc", "dnd", "remove", "removed", "removal", "stop", "stopall", "stop all", "stopped",
     "unsub", "optout", "opt out", "revoke", "revoked"}
)  # fmt: skip
# Besides a request not to be called, a scrub's or dialer's status naming a list or a block
# the number is on ("Litigator", "Blocked", Vicidial's "DNCL", "TCPA") keeps it from being
# called: such a row is one to keep, not "something else" (black-box N4 #5). "Wireless" is
# no block.
_DNC_WORDS: Final = frozenset(
    {"dnc", "dnd", "optout", "unsubscribe", "unsubscribed", "revoked", "dncl", "litigator",
     "litigators", "blocked", "tcpa", "blacklisted", "blocklisted"}
)  # fmt: skip
# A scrub's verdict that the number may be called, or cannot be ("Clean", "Callable", "Not on
# DNC", "Invalid Number"): never a do-not-call request, though "Not on DNC" holds "DNC".
_SCRUB_VERDICTS: Final = frozenset(
    {"clean", "callable", "ok to call", "okay to call", "ok", "safe to call", "can call",
     "not on dnc", "not on the dnc", "not dnc", "non dnc", "no dnc", "not listed",
     "not found", "no match", "not blocked", "cleared", "pass", "passed", "valid", "good",
     "invalid", "invalid number", "invalid phone", "bad number", "disconnected"}
)  # fmt: skip
_VERDICT_STARTS: Final = ("clean ", "callable ", "ok to call ", "not on ", "invalid ")
_DNC_PHRASES: Final = (
    "do not call", "dont call", "don t call", "do not contact", "dont contact", "don t contact",
    "do not text", "dont text", "don t text", "do not disturb", "opt out", "opted out",
    "remove from list", "removed from list", "remove me", "take off list", "taken off list",
    "stop calling", "no more calls", "consent revoked",
)  # fmt: skip
# A disposition saying, in the consumer's words, to stop is do not call too, as a message does
# (re-test M1 #11: "Take me off your list" counted as something else); but "no more" is no
# request in a status ("No more interest"), and "Alto" and "Baja" are Spanish for high and low
# ("Prioridad baja"), so they say do not call only as the whole cell.
_DNC_OPT_OUT_PHRASES: Final = tuple(p for p in OPT_OUT_PHRASES if p != "no more")
_DNC_OPT_OUT_WORDS: Final = OPT_OUT_KEYWORDS - {"alto", "baja"}
# A column with more different values than this is free text, not a status or keyword column:
# it is no longer watched for opt-in values (a message column is, by its header).
_DISTINCT_WATCHED: Final = 1000


# Of a column naming the business's side, the different numbers kept while every row is read:
# past this many it is no one line of the business's, and reading stops.
_LINE_NUMBERS_KEPT: Final = 50


class _LineNumbers:
    """A column's valid numbers over the whole file: its rows holding one, and its different
    numbers (up to :data:`_LINE_NUMBERS_KEPT`), to tell the business's own line, the same on
    every row of a log, from consumers (regression check V1 #2)."""

    def __init__(self, code: str) -> None:
        self.code = code
        self.rows = 0
        self.numbers: Counter[str] = Counter()
        self.more = False  # past _LINE_NUMBERS_KEPT different numbers

    def add(self, value: CellValue) -> None:
        if self.more or not _filled(value):
            return
        result = phones.normalize(value, self.code)
        if not result.ok:
            return
        number = f"+{result.phone_code}{result.national}"
        if number not in self.numbers and len(self.numbers) >= _LINE_NUMBERS_KEPT:
            self.more = True
            return
        self.rows += 1
        self.numbers[number] += 1

    @property
    def repeated(self) -> bool:
        """Whether the column holds one or a few numbers over and over."""
        return not self.more and few_repeated(self.rows, len(self.numbers))

    @property
    def one(self) -> bool:
        """Whether the column holds one number on every row (of three at least)."""
        return self.repeated and len(self.numbers) == 1

    def held(self) -> str:
        """ "one number ('+13035550142') on all 40 of its rows", "3 numbers ('+13035550142'
        and 2 others) over its 40 rows", "41 different numbers", "more than 50 different
        numbers"."""
        if self.more:
            return f"more than {_LINE_NUMBERS_KEPT} different numbers"
        if not self.repeated:
            return f"{len(self.numbers):,} different numbers on its {self.rows:,} rows"
        first = self.numbers.most_common(1)[0][0]
        if len(self.numbers) == 1:
            return f"one number ({first!r}) on all {self.rows:,} of its rows"
        others = len(self.numbers) - 1
        return (
            f"{len(self.numbers)} numbers ({first!r} and {others} "
            f"other{'' if others == 1 else 's'}) over its {self.rows:,} rows"
        )


def _side_said(header: str) -> str:
    """What a header names, said of a column passed over as the business's own line."""
    if names_business_side(header):
        return "names the business's side"
    if call_side(header) is not None:
        return "names one end of each message or call"
    return "names the number that called the consumer"


def _names_a_side(header: str) -> bool:
    """Whether a phone column's header names the business's side ("Company Phone", "Business
    Number"), one end of a log ("Sender", "From") or the number that called the consumer:
    such a column of one number over and over is the business's own line."""
    return (
        names_business_side(header)
        or call_side(header) is not None
        or names_number_that_called(header)
    )


def _find(mapping: ColumnMapping, names: frozenset[str]) -> int | None:
    for index, header in enumerate(mapping.headers):
        if header and plain_words(header) in names:
            return index
    return None


def _cell(cells: Sequence[CellValue], index: int) -> CellValue:
    return cells[index] if index < len(cells) else None


def _log_side(mapping: ColumnMapping) -> CallSide | None:
    """The end of a call or message the phone column holds, when the file is such a log."""
    if mapping.phone is None or mapping.phone >= len(mapping.headers):
        return None
    return call_side(mapping.headers[mapping.phone])


def _opts_in(text: str, message: bool) -> bool:
    """Whether a cell asks to be called or texted (again): a whole cell of an opt-in word, or
    words asking off a do-not-call list; "YES" and the like only in a message column."""
    key = plain_words(text)
    if not key:
        return False
    if key in _OPT_IN_VALUES or (message and key in _AGREEING):
        return True
    return any(p in key for p in _OPT_IN_PHRASES)


def _business_says(text: str) -> tuple[bool, bool]:
    """Whether a message the business sent confirms an opt-out, and whether it confirms an
    opt-in, outside the instructions to opt out or in that marketing texts carry."""
    out = opt_in = False
    for sentence in _SENTENCES.split(text):
        key = plain_words(sentence)
        stop = STOP_INSTRUCTION.search(key)
        start = _START_INSTRUCTION.search(key)
        if stop is None:
            out = out or bool(CONFIRMS_OPT_OUT.search(key[: start.start()] if start else key))
        if start is None:
            opt_in = opt_in or bool(_CONFIRMS_OPT_IN.search(key[: stop.start()] if stop else key))
    return out, opt_in


def _header_key(header: str) -> str:
    """A header's plain words, run-together ones apart ("FederalDNC": "federal dnc")."""
    return plain_words(_CAMEL.sub(" ", header))


def _is_disposition(header: str) -> bool:
    key = _header_key(header)
    return key in _DISPOSITION_HEADERS or bool(set(key.split()) & _DISPOSITION_WORDS)


def _is_verdict_header(header: str) -> bool:
    return bool(set(_header_key(header).split()) & _VERDICT_WORDS)


def _scrub_verdict(value: str) -> bool:
    """Whether a cell is a scrub's verdict that the number is not blocked ("Clean", "OK to
    call", "Not on DNC") or not a number to call at all ("Invalid Number")."""
    key = plain_words(value)
    return key in _SCRUB_VERDICTS or f"{key} ".startswith(_VERDICT_STARTS)


def _says_do_not_call(value: str) -> bool:
    """Whether a disposition or status cell says do not call ("DNC - Customer Request", "Do Not
    Call", "Opted Out", "Remove") or names a block ("Litigator", "Blocked - Federal DNC")."""
    key = plain_words(value)
    if not key or _opts_in(value, message=False) or _scrub_verdict(value):
        return False
    words = key.split()
    return (
        key in _DNC_VALUES
        or key in OPT_OUT_KEYWORDS
        or bool(set(words) & (_DNC_WORDS | _DNC_OPT_OUT_WORDS))
        or words[0] in {"dnc", "remove", "stop"}
        or any(p in key for p in _DNC_PHRASES + _DNC_OPT_OUT_PHRASES)
    )


def _filled(value: CellValue) -> bool:
    return value is not None and not (isinstance(value, str) and not value.strip())


def _rows_said(numbers: Sequence[int], count: int) -> str:
    """ "row 14", "rows 14 and 15", "rows 14, 15, 16, …"."""
    shown = [str(n) for n in numbers]
    listed = joined(shown) if count <= len(shown) else f"{', '.join(shown)}, …"
    return f"{'row' if count == 1 else 'rows'} {listed}"


def _opts_out(text: str) -> bool:
    return asks_to_stop(plain_words(text))


# Headers of a yes/no column flagging a number that is blocked, spaced or run together
# ("Federal DNC", "FederalDNC", "DoNotCall", "Litigator", "OptOut"; black-box N4 #2), as
# their letters read squashed together; and of one flagging a number that may be called
# ("CallableFlag", "OK to call"), whose "yes" rows are no opt-outs. "Wireless" is neither.
_BLOCK_FLAGS: Final = (
    "donotcall", "donotcontact", "donottext", "donotsms", "dnc", "optout", "optedout",
    "unsubscribed", "litigator", "blocked", "blacklist", "blocklist", "nepasappeler",
    "nollamar", "nichtanrufen",
)  # fmt: skip
# "TCPA" is a law's name: a header of it alone (or a "TCPA Flag") is a scrub's block flag, as
# black-box N4 found it; beside other words it is what they say ("TCPA Consent" is consent,
# black-box B16 #1, "TCPA Litigator" a block by "litigator").
_TCPA_ALONE: Final = frozenset({"tcpa", "flag", "flagged"})
_CALLABLE_FLAGS: Final = ("callable", "oktocall", "okaytocall", "safetocall", "cancall", "clean")
# A flag of another channel than calls and texts ("Email Opt Out") is no request not to be
# called or texted (staging_notes says what it is).
_OTHER_CHANNEL_WORDS: Final = frozenset(
    {"email", "emails", "e mail", "mail", "mailing", "mailings", "postal", "post", "newsletter",
     "newsletters", "fax"}
)  # fmt: skip
_CALL_WORDS: Final = frozenset({"call", "calls", "phone", "text", "texts", "sms", "dnc"})
# Read without accents: Oui/Non, O/N, Sí/No, Ja/Nein too (black-box B16 #3).
_FLAG_YES: Final = frozenset({"yes", "y", "true", "1", "x", "oui", "o", "si", "ja"})
_FLAG_NO: Final = frozenset({"no", "n", "false", "0", "non", "nein"})
# Flag columns followed at most: a row's flags that say yes are counted as one of at most
# 2**_FLAG_COLUMNS combinations.
_FLAG_COLUMNS: Final = 10
# A request-date column headed as the day of an opt-out ("opt_out_date", "Unsubscribe Time"),
# as its letters read squashed together: on a subscriber export its empty cells are the
# numbers still subscribed (black-box N4 #7).
_OPT_OUT_DATES: Final = ("optout", "optedout", "unsub", "revoke", "revocation", "stopped")
# Headers naming an opt-out alone ("Opt-out", "Opted out", "Unsubscribed", "DNC", "Do Not
# Call", "Désabonné"), as their letters read squashed together once the words around that
# only say it is a flag or of which channel ("SMS Opt-Out", "DNC Flag", "Opt out (Y/N)") are
# set aside. Such a column holding "STOP" on some rows and "active" on others is a status
# column as "Opt Out Status" is (black-box bb13 F10: its "active" rows were imported without
# a word); its yes/no cells are left to the flags sentence. A header saying more ("Opt-out
# Method", "Opt-out Source") is not read so: its values say how, not whether.
_OPT_OUT_NAMES: Final = frozenset(
    {"optout", "optouts", "optedout", "unsubscribe", "unsubscribed", "unsub", "unsubbed",
     "dnc", "dnd", "donotcall", "donotcontact", "donottext", "donotsms", "donotdisturb",
     "nepasappeler", "nollamar", "nichtanrufen", "desabonne", "desabonnee", "desinscrit",
     "desinscrite", "desuscrito", "desuscrita", "abgemeldet"}
)  # fmt: skip
_OPT_OUT_FILLERS: Final = frozenset(
    {"flag", "flagged", "indicator", "marker", "y", "n", "yn", "sms", "text", "texts", "call",
     "calls", "phone", "voice"}
)  # fmt: skip


def flag_kind(header: str) -> str:
    """ "block" for a header flagging numbers that are blocked or asked not to be called
    ("Federal DNC", "InternalDNC", "DoNotCall", "Litigator"), "callable" for one flagging those
    that may be called ("CallableFlag"), else "". Such a column is read for its yes/no values
    by :class:`LogWatch` in an import; staging need not say its own sentence on it."""
    # A consent or opt-in column's "yes" rows are consumers who agreed to be contacted: staging
    # names it (black-box B16 #1: "TCPA Consent" was read as a block flag, and the warning said
    # to keep only its "yes" rows).
    if consent_header(header):
        return ""
    key = _header_key(header)
    words = set(key.split())
    if any(w in _OTHER_CHANNEL_WORDS for w in (*words, key)) and not words & _CALL_WORDS:
        return ""
    squashed = key.replace(" ", "")
    if "notcallable" in squashed or any(f in squashed for f in _BLOCK_FLAGS):
        return "block"
    if "tcpa" in words and words <= _TCPA_ALONE:
        return "block"
    if any(f in squashed for f in _CALLABLE_FLAGS):
        return "callable"
    return ""


def _flag_value(value: CellValue) -> str:
    """ "yes", "no", "" (empty) or "other" for a flag cell."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, int | float):
        return {1: "yes", 0: "no"}.get(int(value), "other") if value in (0, 1) else "other"
    key = plain_words(str(value))
    if not key:
        return ""
    return "yes" if key in _FLAG_YES else "no" if key in _FLAG_NO else "other"


def _names_opt_out(header: str) -> bool:
    """Whether ``header`` names an opt-out alone (see :data:`_OPT_OUT_NAMES`)."""
    words = _header_key(header).split()
    # "Do Not Call" is a name whole, its "call" no channel's word.
    named = "".join(words) in _OPT_OUT_NAMES or (
        "".join(w for w in words if w not in _OPT_OUT_FILLERS) in _OPT_OUT_NAMES
    )
    return named and not consent_header(header)


def _opt_out_dated(header: str) -> bool:
    squashed = _header_key(header).replace(" ", "")
    return any(w in squashed for w in _OPT_OUT_DATES)


def _first_rows(lists: Iterable[list[int]], at_most: int) -> list[int]:
    return sorted(n for rows in lists for n in rows)[:at_most]


# Distinct values kept for a warning (the business's numbers, the Direction values): a log's
# other-way rows repeat a few of each, and a crafted file must not grow them without bound.
_KEPT_VALUES: Final = 50
# The do-not-call values a status warning names all of; of more, it names the most common and
# how many more (re-test R1 #7: the fourth of four values went unnamed).
_DNC_VALUES_NAMED: Final = 5
# Rows held back, in order, until their status column is known to be one the warning names:
# a row saying "Active" is noted only once some row of its column says do not call, which may
# come later in the file (re-test R1 #6). A verdict is some 300 bytes: this holds a few MB, and
# past it a row goes on without that note, as its column's warning is not yet certain.
_HELD_ROWS: Final = 20_000
# A "Reason" or "Description" column is judged a scrub's verdicts or free text on its first
# rows saying something else than do not call (all of them in a shorter file): it must hold a
# verdict no person writes as a reason ("Clean", "Invalid Number", "Not on DNC"), and as many
# verdicts as other text ("Wireless", "date in phone"). Black-box pass P3 #9: a reason
# column's "ok" beside "x" and "“stop”" was taken for a verdict, and the file was said to mix
# opt-outs and others.
_JUDGED_ROWS: Final = 50
# Verdicts that are also everyday words of a reason or a note: they count only in a column
# holding another verdict.
_COMMON_VERDICTS: Final = frozenset({"ok", "good", "valid", "pass", "passed"})


# A column saying by which channel each opt-out came ("Channel: SMS, Voice, Email"), and its
# values by the list they belong on: a call's request is the DNC list's, a text's STOP the SMS
# opt-out list's, an email unsubscribe neither's (black-box B31 F9: such a column was neither
# read nor named, its Voice rows going onto the SMS list).
_CHANNEL_HEADERS: Final = frozenset(
    {"channel", "opt out channel", "optout channel", "source channel", "contact channel",
     "request channel", "communication channel", "canal", "kanal", "medium"}
)  # fmt: skip
_CHANNELS: Final = {
    **dict.fromkeys(("sms", "text", "texts", "txt", "mms", "text message", "sms text",
                     "short code", "shortcode", "10dlc"), "SMS"),
    **dict.fromkeys(("voice", "call", "calls", "phone", "phone call", "inbound call",
                     "outbound call", "ivr", "verbal", "telephone", "dialer", "agent"), "a call"),
    **dict.fromkeys(("email", "e mail", "mail", "newsletter"), "email"),
}  # fmt: skip


class _Channels:
    """A Channel column's rows whose channel is another list's than the one imported into, as
    every row goes onto that list all the same (see :data:`_CHANNEL_HEADERS`)."""

    def __init__(self, index: int, target: Target) -> None:
        self.index = index
        self.own = "SMS" if target is Target.SMS_OPT_OUT else "a call"
        self.other: Counter[str] = Counter()  # the values naming another channel: rows
        self.rows: list[int] = []
        self.count = 0
        self.said = 0  # rows whose cell names a channel

    def channel(self, value: CellValue) -> str:
        """The channel a cell names ("SMS", "a call", "email"), or "" for none known."""
        return _CHANNELS.get(plain_words(value), "") if isinstance(value, str) else ""

    def add(self, number: int, value: CellValue) -> str:
        """Counts the row; its channel when that is another list's, else ""."""
        channel = self.channel(value)
        if not channel:
            return ""
        self.said += 1
        if channel == self.own:
            return ""
        self.count += 1
        if len(self.rows) < _SHOWN:
            self.rows.append(number)
        shown = str(value).strip()
        if shown in self.other or len(self.other) < _KEPT_VALUES:
            self.other[shown] += 1
        return channel

    def sentence(self, headers: Sequence[str], target: Target) -> str:
        if not self.count:
            return ""
        column = column_said(headers, self.index)
        listed = ", ".join(f"{v!r} on {n:,}" for v, n in self.other.most_common(_SHOWN))
        one = self.count == 1
        listing = "the SMS opt-out list" if target is Target.SMS_OPT_OUT else "the DNC list"
        asks = (
            "an opt-out by call asks for no more calls (the DNC list's), by email for no more "
            "email: neither is a STOP to texts"
            if target is Target.SMS_OPT_OUT
            else "a text's STOP asks for no more texts (the SMS opt-out list's), an email "
            "unsubscribe for no more email: neither is a request not to be called"
        )
        return (
            f"{column[0].upper()}{column[1:]} says {self.count:,} of the {self.said:,} rows "
            f"came by another channel than {'SMS' if self.own == 'SMS' else 'calls'} ({listed}; "
            f"{_rows_said(self.rows, self.count)}), yet {'it is' if one else 'they are'} "
            f"imported onto {listing} too. Check {'that row' if one else 'those rows'}: "
            f"{asks}; take out the rows that are no such request and run the file again."
        )


class LogWatch:
    """Reads every row on its way to the check (:meth:`watch`) when the mapping is a message or
    call log's (its phone column is one end of a call: "From", "To", "Caller ID"...) with a
    Direction or a Body column, and says afterwards (:meth:`sentences`) how many rows went the
    other way, on which the phone column holds the business's own line, and how many messages
    hold no opt-out word (or, sent by the business, confirm no opt-out): the whole file, not the
    first rows the mapping was proposed from (black-box pass H4: 300 outbound rows after 400
    inbound ones were imported unsaid). In an import of any file it also names the rows whose
    cells opted in, and a disposition column's rows that say something else than do not call
    (see the module's docstring)."""

    def __init__(
        self,
        mapping: ColumnMapping,
        kind: str,
        target: Target = Target.DNC,
        said: Set[int] = frozenset(),
    ) -> None:
        """``said``: the columns staging already wrote a flag or consent sentence on (from the
        first rows): their opt-in rows, and a flag column alone, are not said again (black-box
        N4 #12: a consent column had two notes)."""
        self.mapping = mapping
        self.kind = kind
        self.target = target
        self.said_before = said
        # The flag columns the flags sentence names together: staging's sentences on them,
        # each saying to keep its own "yes" rows, are to go (black-box N4 #5).
        self.flag_columns: set[int] = set()
        side = _log_side(mapping)
        used = {mapping.column(role) for role in Role}
        channel = _find(mapping, _CHANNEL_HEADERS) if kind == "import" else None
        self._channels = (
            _Channels(channel, target) if channel is not None and channel not in used else None
        )
        # A log's rows whose number read is toll-free, a business's line (a consumer texts and
        # calls from no 800 number): most likely the business's own, imported all the same as
        # which rows to keep is the person's choice (f2e7b1e named short codes so).
        self._toll_free: list[int] | None = [] if side is not None and kind == "import" else None
        self.toll_free_count = 0
        # The Direction column: of those headed so, the first whose cell on a row says a
        # direction, taken at that row (black-box Q1 S1 #2: RingCentral's "Type" of "SMS",
        # before its "Direction", was taken, and no outbound row was said). Until then no row
        # said one, so none went the other way.
        # The check reads the rows' directions the same way, and refuses the rows going the
        # other way (black-box B31 F6): the rows counted here are the rows it refused.
        self._row_directions = RowDirections(mapping.headers) if side is not None else None
        self._directions = self._row_directions.columns if self._row_directions else []
        # A message or keyword column is read in any import file, a log's or not: "STOP" and
        # "START" rows side by side are not all opt-outs.
        # A removal reads it too: a consumer's STOP is no request to come off the list
        # (black-box B31 F2: a removal of an SMS STOP-reply log took 13 opt-outs off).
        body = _find(mapping, BODY_HEADERS) if kind in ("import", "removal") else None
        # A headerless column read as the reason for asking to stop holds the consumers'
        # messages as a Reply column does: in a removal it is their message (black-box bb16 F4:
        # "Kim,201-555-0310,stop" was taken off the list, the same rows under "Reply" refused).
        stop = mapping.stop_words if mapping.stop_words == mapping.reason else None
        if body is None and kind == "removal":
            body = stop
        # A DNC Desk report's own columns say what its job did with each row: its Message is
        # no consumer's message, its Outcome ("invalid", "inserted") no disposition.
        own = own_columns(mapping.headers)
        self.body = None if (body in used and body != stop) or body in own else body
        self.foreign = foreign_direction(side) if side is not None else ""
        # Every other column no role reads is watched for opt-in cells ("Opted In", "START"),
        # and so is the reason column, whose text goes onto the entry (re-test J1: "remove me
        # from your DNC list" became an entry's reason without a word).
        reason = mapping.reason if mapping.reason not in (None, mapping.phone) else None
        self.watched = (
            [
                i
                for i, _ in enumerate(mapping.headers)
                if (i not in used or i == reason)
                and i != self.body
                and i not in self._directions
                and (i not in own or i == reason)
            ]
            if kind == "import"
            else []
        )
        self._seen: dict[int, dict[str, bool]] = {i: {} for i in self.watched}
        # Each disposition column's distinct values, judged once: do not call or not.
        # A column headed as an opt-out alone ("Opt-out") is one too, its yes/no cells apart.
        self._yes_no_apart = {
            i
            for i in self.watched
            if i != reason
            and _names_opt_out(mapping.headers[i])
            and not _is_disposition(mapping.headers[i])
        }
        self._yes_no_values: dict[str, str] = {}  # a cell's value: what it says as a flag
        # In an import, the headerless stop column's other values ("active") are named as a
        # Status column's are (black-box bb16 F5).
        self._dispositions: dict[int, dict[str, bool]] = {
            i: {}
            for i in self.watched
            if _is_disposition(mapping.headers[i])
            or _is_verdict_header(mapping.headers[i])
            or i in self._yes_no_apart
            or i == stop
        }
        # Of them, those named only when some of their values are a scrub's verdicts.
        self._verdict_only = {
            i
            for i in self._dispositions
            if not _is_disposition(mapping.headers[i]) and i not in self._yes_no_apart and i != stop
        }
        # Yes/no flag columns ("Federal DNC", "CallableFlag"): "block" or "callable" by their
        # header; every row counted under the set of them saying yes on it, as a row is an
        # opt-out when any block flag says yes (black-box N4 #5: a note per column each said
        # to keep only its own "yes" rows).
        self._flags: dict[int, str] = {}
        for i in self.watched:
            kind_of = flag_kind(mapping.headers[i]) if i != reason else ""
            if kind_of and len(self._flags) < _FLAG_COLUMNS:
                self._flags[i] = kind_of
        self._flag_said: Counter[int] = Counter()  # column: its cells saying anything
        self._flag_other: Counter[int] = Counter()  # column: its cells saying neither yes nor no
        self._flag_rows: Counter[frozenset[int]] = Counter()  # the columns saying yes: rows
        self._flag_first: dict[frozenset[int], list[int]] = {}
        # The request-date column, when headed as the day of an opt-out: its empty cells.
        date = mapping.request_date
        self._dated = (
            date
            if kind == "import"
            and date is not None
            and date < len(mapping.headers)
            and _opt_out_dated(mapping.headers[date])
            else None
        )
        self.dated = 0
        self.undated: list[int] = []
        self.undated_count = 0
        # Each row read whose date cell was filled or not, until its verdict comes through
        # :meth:`noted`: only the rows sent count (black-box Q1 #2: a report's "Subtotal" rows,
        # invalid, were counted as subscribers imported). A few rows at a time, as the check
        # yields each row's verdict as it reads it.
        self._date_filled: dict[int, bool] = {}
        # What each row named in a warning is noted with, until its verdict comes through
        # :meth:`noted` (kept only once that is asked for).
        self._noting = False
        # Each note with the status column it waits on (None: due whatever the others say)
        # and whether it is a verdict's (see :meth:`_due`).
        self._pending: dict[int, list[tuple[int | None, str, bool]]] = {}
        self._waiting = 0  # the pending rows with a note waiting on its column
        self._verdicts_seen: set[int] = set()  # the columns with a scrub verdict among their kept
        # A verdict-only column's first rows with a value, as verdicts and free text, until it
        # is judged: kept as a scrub's verdicts (in _verdict_columns) or forgotten as free text.
        self._verdict_rows: Counter[int] = Counter()
        self._common_rows: Counter[int] = Counter()
        self._free_rows: Counter[int] = Counter()
        self._verdict_columns: set[int] = set()
        # Each status column's note on each of its distinct values, and whether it is a verdict:
        # a 100,000-row file says "Active" 100,000 times.
        self._status_notes: dict[tuple[int, str], tuple[str, bool]] = {}
        self.do_not_call: Counter[int] = Counter()  # column: its rows saying do not call
        self.dnc_values: dict[int, Counter[str]] = {}
        self.not_dnc: Counter[int] = Counter()  # column: its rows saying something else
        self.not_dnc_values: dict[int, dict[str, list[int]]] = {}  # value: [rows, first row]
        self._free_text = {reason} if reason is not None else set()
        self.opt_ins: dict[int, list[tuple[int, str]]] = {}  # column: its first opt-in rows
        self.opt_in_counts: Counter[int] = Counter()
        self.said = 0  # rows whose Direction cell says a direction
        self.wrong: list[int] = []  # the first rows going the other way
        self.wrong_count = 0
        self.values: Counter[str] = Counter()
        self.own: Counter[str] = Counter()
        self.written = 0  # the consumers' rows with a message
        self.other: list[tuple[int, str]] = []  # the first messages with no opt-out word
        self.other_count = 0
        # Rows the other way whose message opts out: on a log's "To" side, the consumers'
        # STOP replies (their number is in "From").
        self.replies: list[int] = []
        self.replies_count = 0
        # The messages the business sent, on rows whose phone column holds the consumer.
        self.sent = 0
        self.confirmed = 0  # of them, those confirming an opt-out
        self.unconfirmed: list[tuple[int, str]] = []  # the first confirming none
        self.unconfirmed_count = 0
        # A removal's consumers' rows whose message asks to stop (refused, see
        # removal_refusal), and those asking to be texted again, SMS's START.
        self.stops: list[tuple[int, str]] = []
        self.stops_count = 0
        self.restarts: list[tuple[int, str]] = []
        self.restarts_count = 0
        # The phone column, when its header names a side, and a column naming the business's
        # side passed over for what its first rows hold: their numbers over the whole file.
        self._lines: dict[int, _LineNumbers] = {}
        phone = mapping.phone
        # A removal names the column so passed over as one it does not remove, as it did
        # before it was kept from other_phone_columns (regression check V2 #2).
        self._removal_passed: int | None = None
        passed = mapping.own_line_by_count
        if (
            kind == "removal"
            and passed is not None
            and passed[1] == phone
            and passed[0] < len(mapping.headers)
            and mapping.headers[passed[0]]
        ):
            self._removal_passed = passed[0]
        if kind == "import" and phone is not None and phone < len(mapping.headers):
            code = mapping.default_phone_code
            if _names_a_side(mapping.headers[phone]):
                self._lines[phone] = _LineNumbers(code)
            passed = mapping.own_line_by_count
            # Not set aside as a column to ignore (its header blanked).
            if (
                passed is not None
                and passed[1] == phone
                and passed[0] < len(mapping.headers)
                and mapping.headers[passed[0]]
            ):
                self._lines[passed[0]] = _LineNumbers(code)
                self._lines.setdefault(phone, _LineNumbers(code))

    @property
    def direction(self) -> int | None:
        """The Direction column, once a row's cell there said a direction (else the first)."""
        return self._row_directions.column if self._row_directions else None

    @property
    def active(self) -> bool:
        return (
            self.direction is not None
            or self.body is not None
            or bool(self.watched)
            or self._dated is not None
            or bool(self._lines)
            or self._channels is not None
            or self._toll_free is not None
        )

    @property
    def watches_toll_free(self) -> bool:
        """Whether the log's own watch notes and says the rows of toll-free numbers."""
        return self._toll_free is not None

    @property
    def opt_in_columns(self) -> set[int]:
        """The columns :meth:`sentences` names rows of as opting in, once every row is read."""
        return set(self.opt_ins)

    def noted(self, checked: Iterable[CheckedRow]) -> Iterator[CheckedRow]:
        """``checked``, the verdicts on the rows :meth:`watch` read, each row a warning names
        (going the other way, opting in, asking no stop, a scrub's "Clean") with that said in
        its message, as a report's Rows sheet shows it: an imported row's message was empty
        (black-box N4 #10). A row whose status column may yet get a warning or not ("Active",
        before any row of it said do not call) waits, and the rows after it, until that is
        known. Asked for before the rows are read."""
        if not self.active:
            return iter(checked)  # no log, no scrub columns: nothing to note on any row
        self._noting = True
        return self._noted(checked)

    def _noted(self, checked: Iterable[CheckedRow]) -> Iterator[CheckedRow]:
        held: deque[CheckedRow] = deque()
        for c in checked:
            if self._date_filled:
                self._count_date(c)
            if held or (self._waiting and self._undecided(c.row)):
                held.append(c)
                while held and (len(held) > _HELD_ROWS or not self._undecided(held[0].row)):
                    yield self._with_notes(held.popleft())
                continue
            yield self._with_notes(c)
        self._settle_all()
        while held:  # every row read: a column still undecided gets no warning
            yield self._with_notes(held.popleft())

    def _undecided(self, number: int) -> bool:
        notes = self._pending.get(number, ())
        return any(self._due(i, verdict) is None for i, _, verdict in notes)

    def _named(self, index: int) -> bool | None:
        """Whether :meth:`_disposition_sentences` names the status column, as far as the rows
        read so far tell: None while that may still change one way or the other."""
        if index not in self._dispositions:
            return False  # free text, no status column
        if index in self._verdict_only and index not in self._verdict_columns:
            return None  # not yet judged verdicts or free text
        if self.do_not_call[index] and (
            index not in self._verdict_only or index in self._verdicts_seen
        ):
            return True
        return None

    def _due(self, column: int | None, verdict: bool) -> bool | None:
        """Whether a note waiting on ``column`` is said: a verdict's ("Clean") once the column
        is judged a scrub's verdicts, any other value's once the column is named."""
        if column is None:
            return True
        if not verdict:
            return self._named(column)
        if column not in self._dispositions:
            return False
        if column in self._verdict_only and column not in self._verdict_columns:
            return None
        return True

    def _with_notes(self, c: CheckedRow) -> CheckedRow:
        if self._toll_free is not None and c.national and c.outcome is not Outcome.INVALID:
            self._toll_free_row(c)
        notes = self._pending.pop(c.row, None) if self._pending else None
        if not notes:
            return c
        if any(i is not None for i, _, _ in notes):
            self._waiting -= 1
        said = [n for i, n, verdict in notes if self._due(i, verdict)]
        if said and c.outcome is not Outcome.BLANK:
            note = "; ".join(said)
            c.message = f"{c.message}; {note}" if c.message else f"row {c.row}: {note}"
        return c

    def _toll_free_row(self, c: CheckedRow) -> None:
        """Counts and notes a row whose number read is toll-free (see ``_toll_free``)."""
        phone = self.mapping.phone
        if phone is None or not phones.toll_free(c.national, c.phone_code):
            return
        self.toll_free_count += 1
        if self._toll_free is not None and len(self._toll_free) < _SHOWN:
            self._toll_free.append(c.row)
        note = (
            f"{self._column(phone)} holds a toll-free number, a business's line, not a consumer's"
        )
        c.message = f"{c.message}; {note}" if c.message else f"row {c.row}: {note}"

    def _toll_free_sentence(self) -> str:
        phone = self.mapping.phone
        count = self.toll_free_count
        if not count or phone is None or self._toll_free is None:
            return ""
        one = count == 1
        rows = _rows_said(self._toll_free, count)
        on = rows if count <= len(self._toll_free) else f"{count:,} rows ({rows})"
        return (
            f"{self._said(phone)} holds a toll-free number on {on}, yet "
            f"{'it is' if one else 'they are'} imported: a toll-free number is a business's "
            "line, not a consumer's, most likely the business's own. Check "
            f"{'that row' if one else 'those rows'}; take out the ones that are no consumer's "
            "opt-out and run the file again."
        )

    def _note(
        self, number: int, note: str, column: int | None = None, verdict: bool = False
    ) -> None:
        """``column``: the status column whose warning the note is due with, only; with
        ``verdict``, due once that column is judged a scrub's verdicts, warning or not."""
        if self._noting:
            notes = self._pending.setdefault(number, [])
            if column is not None and all(i is None for i, _, _ in notes):
                self._waiting += 1
            notes.append((column, note, verdict))

    def _column(self, index: int) -> str:
        return column_said(self.mapping.headers, index)

    def _said(self, index: int) -> str:
        column = self._column(index)
        return f"{column[0].upper()}{column[1:]}"

    def watch(self, rows: Iterable[Row]) -> Iterator[Row]:
        """``rows``, unchanged, counted on the way."""
        if not self.active:
            yield from rows
            return
        header = self.mapping.header_row or 0
        for row in rows:
            if row[0] > header:
                self._count(*row)
            yield row

    def _opt_in_cells(self, number: int, cells: Sequence[CellValue]) -> None:
        """Counts the row's opt-in cells in the watched columns (each distinct value judged
        once, while a column keeps few enough of them to be a status column)."""
        for index in self.watched:
            value = _cell(cells, index)
            if not isinstance(value, str):
                continue
            seen = self._seen.get(index)
            if seen is None:
                continue
            verdict = seen.get(value)
            if verdict is None:
                if len(seen) < _DISTINCT_WATCHED:
                    verdict = seen[value] = _opts_in(value, message=False)
                elif index in self._free_text:
                    verdict = _opts_in(value, message=False)  # read all, not remembered
                else:
                    del self._seen[index]  # free text: no status column
                    self._forget_disposition(index)
                    continue
            if verdict:
                self._opt_in(index, number, value)
            elif index in self._dispositions:
                self._disposition(index, number, value)

    def _disposition(self, index: int, number: int, value: str) -> None:
        """Counts a disposition cell that opts nobody in as saying do not call or not."""
        judged = self._dispositions.get(index)
        if judged is None or not value.strip():
            return
        flag = self._flag_word(value) if index in self._yes_no_apart else ""
        if flag == "yes":
            return  # an opt-out flag's yes: neither a status nor something else
        dnc = judged.get(value)
        if dnc is None:
            if len(judged) >= _DISTINCT_WATCHED:
                self._forget_disposition(index)  # free text: no disposition column
                return
            dnc = judged[value] = _says_do_not_call(value)
        shown = value.strip()
        if index in self._verdict_only and index not in self._verdict_columns:
            self._judge(index, dnc, shown)
            if index not in self._dispositions:
                return  # free text: forgotten
        if dnc:
            self.do_not_call[index] += 1
            said = self.dnc_values.setdefault(index, Counter())
            if shown in said or len(said) < _KEPT_VALUES:
                said[shown] += 1
            return
        self.not_dnc[index] += 1
        known = self._status_notes.get((index, shown))
        if known is None:
            note = f"{self._column(index)} says {shown[:40]!r}, which is no opt-out"
            known = self._status_notes[index, shown] = (note, _scrub_verdict(shown))
        note, verdict = known
        others = self.not_dnc_values.setdefault(index, {})
        if shown in others:
            others[shown][0] += 1
        elif len(others) < _KEPT_VALUES:
            others[shown] = [1, number]
            if verdict:
                self._verdicts_seen.add(index)
        if self._noting:
            # A verdict ("Clean") is noted whatever the column holds (once a "Reason" column
            # is judged to be of verdicts, not free text); any other value ("Active", "No
            # Answer") with the warning that counts it, as the column is a status column only
            # when some of its rows say do not call (re-test R1 #6).
            if verdict:
                self._note(number, note, index if index in self._verdict_only else None, True)
            else:
                # A flag's "no" says the consumer did not opt out whatever the column's other
                # rows say: noted at once, so no row of a yes/no file waits on the column.
                self._note(number, note, None if flag == "no" else index)

    def _flag_word(self, value: str) -> str:
        """What a cell of a column headed as an opt-out says as a flag ("yes", "no", "other"),
        each distinct value judged once (a 100,000-row file says "active" 100,000 times). Its
        "no" ("no", "0", "false") says the consumer did not opt out: counted as something else,
        as "active" is, and said so when the column is no yes/no flag column the flags sentence
        names (black-box bb16 F1: 'STOP', 'no', '0', 'false' under "Opt-out" were all imported
        without a word)."""
        said = self._yes_no_values.get(value)
        if said is None:
            said = _flag_value(value)
            if len(self._yes_no_values) < _DISTINCT_WATCHED:
                self._yes_no_values[value] = said
        return said

    def _judge(self, index: int, dnc: bool, value: str) -> None:
        """Counts a verdict-only column's row toward judging the column (``_JUDGED_ROWS``):
        one saying do not call does not count, so a scrub sorted by its result is judged on
        its first other rows."""
        if dnc:
            return
        if plain_words(value) in _COMMON_VERDICTS:
            self._common_rows[index] += 1
        elif _scrub_verdict(value):
            self._verdict_rows[index] += 1
        else:
            self._free_rows[index] += 1
        judged = self._verdict_rows[index] + self._common_rows[index] + self._free_rows[index]
        if judged >= _JUDGED_ROWS:
            self._settle(index)

    def _settle(self, index: int) -> None:
        """Judges a verdict-only column on the rows counted: a scrub's verdicts, or free text."""
        if index not in self._dispositions or index in self._verdict_columns:
            return
        verdicts = self._verdict_rows[index]
        if verdicts and verdicts + self._common_rows[index] >= self._free_rows[index]:
            self._verdict_columns.add(index)
        else:
            self._forget_disposition(index)

    def _settle_all(self) -> None:
        """Every row read: the columns not yet judged are judged on what they held."""
        for index in list(self._verdict_only):
            self._settle(index)

    def _opt_in(self, index: int, number: int, value: str) -> None:
        self.opt_in_counts[index] += 1
        if self._noting:
            said = value.strip()[:40]
            self._note(
                number,
                f"{self._column(index)} says {said!r}: the consumer opted in or asked to be called "
                "again",
            )
        first = self.opt_ins.setdefault(index, [])
        if len(first) < _OPT_INS_SHOWN:
            first.append((number, value.strip()))

    def _count(self, number: int, cells: Sequence[CellValue]) -> None:
        for index, numbers in self._lines.items():
            numbers.add(_cell(cells, index))
        if self.watched:
            self._opt_in_cells(number, cells)
        phone = self.mapping.phone
        if self._channels is not None and phone is not None and _filled(_cell(cells, phone)):
            value = _cell(cells, self._channels.index)
            if channel := self._channels.add(number, value):
                self._note(
                    number,
                    f"{self._column(self._channels.index)} says {str(value).strip()!r}: an "
                    f"opt-out by {channel}, not by {self._channels.own}",
                )
        # Rows with no number are blank, not imported: no flag or date of theirs counts.
        read = self._flags or self._dated is not None
        if read and phone is not None and _filled(_cell(cells, phone)):
            self._flag_cells(number, cells)
            self._date_cell(number, cells)
        way = self._row_directions.of(cells) if self._row_directions else ""
        direction = self.direction
        if way:
            self.said += 1
            if way == self.foreign:
                self.wrong_count += 1
                if len(self.wrong) < _SHOWN:
                    self.wrong.append(number)
                value = str(_cell(cells, direction) if direction is not None else "").strip()
                if value in self.values or len(self.values) < _KEPT_VALUES:
                    self.values[value] += 1
                line = str(_cell(cells, phone) if phone is not None else "").strip()
                if line in self.own or len(self.own) < _KEPT_VALUES:
                    self.own[line] += 1
                self._reply(number, cells, way)
                return  # the phone column holds no consumer on this row
        if self.body is None:
            return
        text = _cell(cells, self.body)
        if not isinstance(text, str) or not text.strip():
            return
        if self.kind == "removal":
            if way != "out":
                self._removal_message(number, text.strip())
            return
        if way == "out":
            self._sent(number, text)
            return
        self.written += 1
        if _opts_in(text, message=True):
            self._opt_in(self.body, number, text)
        elif not _opts_out(text):
            self.other_count += 1
            if len(self.other) < _SHOWN:
                self.other.append((number, text.strip()))
            self._note(number, f"{self._column(self.body)}: the message holds no opt-out word")

    def _removal_message(self, number: int, text: str) -> None:
        """Counts a removal row whose consumer's message asks to stop, or to be texted again."""
        if _opts_out(text) and not _opts_in(text, message=True):
            self.stops_count += 1
            if len(self.stops) < _SHOWN:
                self.stops.append((number, text))
        elif plain_words(text) in _OPT_IN_VALUES | _AGREEING:
            self.restarts_count += 1
            if len(self.restarts) < _SHOWN:
                self.restarts.append((number, text))
            assert self.body is not None
            self._note(
                number,
                f"{self._column(self.body)}: {text[:40]!r} restarts texts from the sender; it "
                "asks nothing of calls",
            )

    def removal_refusal(self, file_name: str) -> tuple[str, str] | None:
        """Why a removal of this file is refused (for any front end, and with the option that
        overrides it), when consumers' messages in it ask to stop: they opted out, and a
        removal would take their numbers off the do-not-call list (black-box B31 F2)."""
        if self.kind != "removal" or not self.stops_count or self.body is None:
            return None
        shown = "; ".join(f"row {n}: {t[:40]!r}" for n, t in self.stops)
        more = "; …" if self.stops_count > len(self.stops) else ""
        many = self.stops_count > 1
        column = column_said(self.mapping.headers, self.body)
        # A headerless column is named by its letter (column:C), as --ignore-column takes it.
        header = self.mapping.headers[self.body] or f"column:{column_letter(self.body)}"
        said = (
            f"{self.stops_count:,} {'rows' if many else 'row'} of {file_name} "
            f"{'hold' if many else 'holds'} a consumer's message asking to stop in {column} "
            f"({shown}{more}): {'those consumers' if many else 'that consumer'} opted out, and "
            "a removal would take their numbers off the do-not-call list; nothing was sent. To "
            "put them on a list, import the file instead"
        )
        return (
            f"{said}; to remove these numbers all the same, set {column} aside and run the "
            "removal again.",
            f"{said} (dnc-desk import {file_name} --into sms-opt-out or --into dnc); to remove "
            f"these numbers all the same, run the removal again with --ignore-column {header!r}.",
        )

    def _restarts_sentence(self) -> str:
        if not self.restarts_count or self.body is None:
            return ""
        shown = "; ".join(f"row {n}: {t[:40]!r}" for n, t in self.restarts)
        more = "; …" if self.restarts_count > len(self.restarts) else ""
        many = self.restarts_count > 1
        return (
            f"{self._said(self.body)}: {self.restarts_count:,} "
            f"{'messages are' if many else 'message is'} an SMS keyword asking to be texted "
            f"again ({shown}{more}), which restarts texts from the sender and asks nothing "
            f"of calls, yet the removal takes {'these numbers' if many else 'the number'} off "
            "the do-not-call list. Check that these consumers asked to be called."
        )

    def _flag_cells(self, number: int, cells: Sequence[CellValue]) -> None:
        yes = []
        for index in self._flags:
            said = _flag_value(_cell(cells, index))
            if said:
                self._flag_said[index] += 1
                if said == "other":
                    self._flag_other[index] += 1
                elif said == "yes":
                    yes.append(index)
        key = frozenset(yes)
        self._flag_rows[key] += 1
        first = self._flag_first.setdefault(key, [])
        if len(first) < _OPT_INS_SHOWN:
            first.append(number)

    def _date_cell(self, number: int, cells: Sequence[CellValue]) -> None:
        if self._dated is None:
            return
        filled = _filled(_cell(cells, self._dated))
        if self._noting:
            self._date_filled[number] = filled  # counted once its verdict says it is sent
        else:
            self._dated_row(number, filled)

    def _count_date(self, c: CheckedRow) -> None:
        filled = self._date_filled.pop(c.row, None)
        if filled is not None and c.outcome is Outcome.VALID:
            self._dated_row(c.row, filled)

    def _dated_row(self, number: int, filled: bool) -> None:
        if filled:
            self.dated += 1
            return
        self.undated_count += 1
        if len(self.undated) < _OPT_INS_SHOWN:
            self.undated.append(number)

    def _forget_disposition(self, index: int) -> None:
        self._dispositions.pop(index, None)
        self.do_not_call.pop(index, None)
        self.not_dnc.pop(index, None)

    def _reply(self, number: int, cells: Sequence[CellValue], way: str) -> None:
        """Counts a row the other way whose message opts out."""
        text = _cell(cells, self.body) if self.body is not None else None
        if not isinstance(text, str) or not text.strip():
            return
        if way == "in":
            opts_out = _opts_out(text) and not _opts_in(text, message=True)
        else:
            opts_out = _business_says(text)[0]
        if opts_out:
            self.replies_count += 1
            if len(self.replies) < _SHOWN:
                self.replies.append(number)

    def _sent(self, number: int, text: str) -> None:
        """Judges a message the business sent to the consumer in the phone column."""
        self.sent += 1
        out, opt_in = _business_says(text)
        if opt_in:
            assert self.body is not None
            self._opt_in(self.body, number, text)
        elif out:
            self.confirmed += 1
        else:
            self.unconfirmed_count += 1
            if len(self.unconfirmed) < _SHOWN:
                self.unconfirmed.append((number, text.strip()))
            assert self.body is not None
            self._note(
                number,
                f"{self._column(self.body)}: a message the business sent, confirming no opt-out",
            )

    def sentences(self) -> list[str]:
        """The warnings, after every row went through :meth:`watch`."""
        self._settle_all()
        # First, for flag_columns: a yes/no column the flags sentence names is not named again
        # as a status column for its few other values.
        flags = self._flags_sentence()
        found = [
            self._removal_passed_sentence(),
            self._own_line_passed_sentence(),
            self._own_line_read_sentence(),
            self._guessed_end_sentence(),
            self._direction_sentence(),
            self._channels.sentence(self.mapping.headers, self.target) if self._channels else "",
            self._toll_free_sentence(),
            *self._opt_in_sentences(),
            *self._disposition_sentences(),
            flags,
            self._undated_sentence(),
            self._body_sentence(),
            self._sent_sentence(),
            self._restarts_sentence(),
        ]
        return [s for s in found if s]

    def _opt_in_sentences(self) -> list[str]:
        out = []
        for index in sorted(self.opt_ins):
            if index in self.said_before:
                continue
            count = self.opt_in_counts[index]
            shown = "; ".join(f"row {n}: {t[:40]!r}" for n, t in self.opt_ins[index])
            more = "; …" if count > len(self.opt_ins[index]) else ""
            column = column_said(self.mapping.headers, index)
            rows = "row says" if count == 1 else "rows say"
            out.append(
                f"{column[0].upper()}{column[1:]}: {count:,} {rows} the consumer opted in or "
                f"asked to be called again ({shown}{more}), yet every row is imported as an "
                "opt-out. Check those rows: a later request to be contacted may stand, or the "
                "opt-out may be the later one; take out the rows that are not opt-outs and run "
                "the file again."
            )
        return out

    def _disposition_sentences(self) -> list[str]:
        out = []
        for index in sorted(self._dispositions):
            dnc, other = self.do_not_call[index], self.not_dnc[index]
            if not dnc or not other or index in self.flag_columns:
                continue
            if index in self._verdict_only and index not in self._verdicts_seen:
                continue
            said = self._dnc_values_said(index)
            values = sorted(self.not_dnc_values[index].items(), key=lambda v: -v[1][0])
            shown = "; ".join(
                f"{v!r}: row {first}" if n == 1 else f"{v!r}: {n:,} rows, the first is row {first}"
                for v, (n, first) in values[:_SHOWN]
            )
            more = "; …" if len(values) > _SHOWN else ""
            column = column_said(self.mapping.headers, index)
            one = other == 1
            them = "it is imported as an opt-out" if one else "they are imported as opt-outs"
            # Said by the list imported into (black-box N4 #12: "say do not call" of an SMS
            # subscriber list's "Unsubscribed").
            asks = "do not call" if self.target is Target.DNC else "the consumer opted out"
            out.append(
                f"{column[0].upper()}{column[1:]}: {dnc:,} of the {dnc + other:,} rows "
                f"{'says' if dnc == 1 else 'say'} {asks} ({said}), the other {other:,} "
                f"{'says' if one else 'say'} something else ({shown}{more}), yet "
                f"{them} too. Keep only the rows that say {asks} (filter {column}) and run "
                "the file again."
            )
        return out

    def _dnc_values_said(self, index: int) -> str:
        """The column's do-not-call values, all of them when few ("'DNC', 'DNCL'"), else the
        most common and how many more ("'DNC', 'DNCL', 'Litigator', 'Blocked' and 3 more")."""
        judged = self._dispositions[index]
        # Every distinct value judged, not only the kept ones.
        count = len({v.strip() for v, dnc in judged.items() if dnc})
        shown = [repr(v) for v, _ in self.dnc_values[index].most_common(_DNC_VALUES_NAMED)]
        if count <= len(shown):
            return ", ".join(shown)
        shown = shown[: _DNC_VALUES_NAMED - 1]
        return f"{', '.join(shown)} and {count - len(shown):,} more"

    def _flags_sentence(self) -> str:
        """The rows no block flag says yes on (or, with no block flag, those a callable flag
        says yes on): every row is imported whatever its flags say. Sets
        :attr:`flag_columns`."""
        flags = [
            i
            for i in self._flags
            if self._flag_said[i] and self._flag_other[i] * 5 <= self._flag_said[i]
        ]
        blocks = {i for i in flags if self._flags[i] == "block"}
        callables = {i for i in flags if self._flags[i] == "callable"}
        total = sum(self._flag_rows.values())
        keep = "delete the others from the file (rows hidden by a filter are imported too)"
        named = blocks | callables
        # Staging's sentences on these go, even when every row is blocked by one of them:
        # each says its own "no" rows are no opt-outs. A lone column's too: read from the first
        # rows, it named no row and said "asked not to be called" of an SMS list (re-test R1
        # #3); this one names the rows of the whole file.
        self.flag_columns = named
        if blocks:
            free = [k for k in self._flag_rows if not k & blocks]
            count = sum(self._flag_rows[k] for k in free)
            if not count:
                return ""
            rows = _rows_said(_first_rows((self._flag_first[k] for k in free), 10), count)
            many, one = len(blocks) > 1, count == 1
            columns = self._columns_said(blocks)
            if many:
                head = (
                    f"{columns} mark each row yes or no: on {count:,} of the {total:,} rows "
                    f"none of them says yes ({rows})"
                )
            else:
                head = (
                    f"{columns} marks each row yes or no: {count:,} of the {total:,} rows "
                    f"{'does' if one else 'do'} not say yes ({rows})"
                )
            marked = sum(self._flag_rows[k] for k in free if k & callables)
            if marked:
                which = "it" if one else f"{marked:,} of them"
                head += (
                    f", and {self._columns_said(callables, lower=True)} "
                    f"mark{'s' if len(callables) == 1 else ''} {which} callable"
                )
            return (
                f"{head}, yet every row is imported as an opt-out, whatever "
                f"{'they say' if many else 'it says'}. Keep only the rows where "
                f"{'any of those columns says' if many else 'it says'} yes: {keep} and run it "
                "again."
            )
        if not callables:
            return ""
        marked_keys = [k for k in self._flag_rows if k & callables]
        count = sum(self._flag_rows[k] for k in marked_keys)
        if not count:
            return ""
        rows = _rows_said(_first_rows((self._flag_first[k] for k in marked_keys), 10), count)
        return (
            f"{self._columns_said(callables)} mark{'s' if len(callables) == 1 else ''} "
            f"{count:,} of the {total:,} rows callable ({rows}), yet every row is imported as "
            "an opt-out. Delete the rows marked callable from the file (rows hidden by a filter "
            "are imported too) and run it again."
        )

    def _columns_said(self, columns: Iterable[int], lower: bool = False) -> str:
        said = joined([column_said(self.mapping.headers, i) for i in sorted(columns)])
        return said if lower else f"{said[0].upper()}{said[1:]}"

    def _undated_sentence(self) -> str:
        """Rows with no date in a request-date column headed as the day of an opt-out, when
        others have one: a subscriber export's numbers still subscribed."""
        if self._dated is None or not self.dated or not self.undated_count:
            return ""
        count = self.undated_count
        one = count == 1
        return (
            f"{self._said(self._dated)} dates each opt-out, yet {count:,} of the "
            f"{count + self.dated:,} rows {'has' if one else 'have'} no date there "
            f"({_rows_said(self.undated, count)}): on a list of subscribers such a row is most "
            "likely a number still subscribed, not an opt-out, and "
            f"{'it is imported as an opt-out' if one else 'they are imported as opt-outs'} "
            f"too. Unless {'that number' if one else 'those numbers'} opted out as well, delete "
            f"{'that row' if one else 'those rows'} from the file (rows hidden by a filter are "
            "imported too) and run it again; a dry run lists every row in its report without "
            "sending anything."
        )

    def _removal_passed_sentence(self) -> str:
        """That a removal does not remove the column passed over as the business's own line
        ("Company Phone" of one number beside "Contact Phone"), and how to remove it all the
        same: a removal must say which phone column it skips (regression check V2 #2)."""
        if self._removal_passed is None:
            return ""
        return other_columns_sentence(self.mapping, [self._removal_passed], "removal")

    def _own_line_passed_sentence(self) -> str:
        """That a column naming the business's side ("Company Phone") was not read for holding
        one or a few numbers over and over, the consumers' column read in its place, and how to
        read it all the same (regression check V1 #1)."""
        mapping = self.mapping
        passed = mapping.own_line_by_count
        if passed is None or passed[1] != mapping.phone or passed[0] not in self._lines:
            return ""
        other, read = passed
        line, consumers = self._lines[other], self._lines[read]
        unread, phone = self._column(other), self._column(read)
        again = (
            f"run the file again with --phone-column column:{column_letter(other)}; a dry run "
            "lists every row in its report without sending anything."
        )
        if not line.repeated:
            return (
                f"{self._said(other)} {_side_said(self.mapping.headers[other])} and held one "
                "or a few numbers "
                f"over and over in the first rows, so {phone} is read as the consumers' numbers "
                f"and {unread} is not imported; over the whole file it holds {line.held()}. "
                f"Check which column holds the consumers' numbers: to read {unread}, {again}"
            )
        return (
            f"{self._said(other)} {_side_said(self.mapping.headers[other])} and holds "
            f"{line.held()}, as the "
            f"business's own line does in a log, while {phone} holds {consumers.held()}: "
            f"{phone} is read as the consumers' numbers and {unread} is not imported (the "
            f"business's own line does not go on the list). If the consumers' numbers are in "
            f"{unread} after all, {again}"
        )

    def _own_line_read_sentence(self) -> str:
        """That the phone column read names the business's side ("Company Phone", "Business
        Number") or holds one or a few numbers over and over under a header naming one end of
        a log ("Sender"): most likely the business's own line, which would go on the list in
        the consumers' place (regression check V1 #2: such a column was imported unsaid)."""
        mapping, phone = self.mapping, self.mapping.phone
        if phone is None or phone not in self._lines:
            return ""
        if mapping.own_line_by_count is not None and mapping.own_line_by_count[1] == phone:
            return ""  # the column read is the consumers', beside the business's line
        line = self._lines[phone]
        business = names_business_side(mapping.headers[phone])
        # A log's end ("From") is the business's line by its content only when it holds ONE
        # number on every row: an inbound log's few consumers texting STOP again and again
        # are no line of the business's (regression check V2 #4).
        own = line.repeated if business else line.one
        if not business and (not own or self.wrong_count):
            return ""  # a log's rows going the other way are said by the Direction sentence
        column = self._said(phone)
        said = []
        if business:
            said.append(
                f"{column} is read as the consumers' numbers, yet its header names the "
                "business's side: in a log or a tracker such a column holds the business's own "
                "number, which must not go on the list in the consumers' place."
            )
        if own:
            holds = "It holds" if business else f"{column} holds"
            said.append(
                f"{holds} {line.held()}: a list of opt-outs has a different consumer on each "
                "row, while the business's own line is the same on every row of a log."
            )
        said.append(
            "Check the file: if the consumers' numbers are in another column, run the file "
            "again with --phone-column naming that column; if this column does hold them (a "
            "contact's work number, or chosen with --phone-column), nothing is wrong. A dry run "
            "lists every row in its report without sending anything."
        )
        return " ".join(said)

    def _guessed_end_sentence(self) -> str:
        """That the end of a log read was a guess by its count of different numbers, and how
        to read the other (black-box Q1 #1: a business's pool of four numbers in "To" was read
        over three consumers in "From", and only staging's reason was said)."""
        mapping = self.mapping
        if mapping.guessed_end is None or mapping.guessed_end[0] != mapping.phone:
            return ""
        read, other = mapping.guessed_end
        if other >= len(mapping.headers) or not mapping.headers[other]:
            return ""  # set aside as a column to ignore
        phone, unread = self._column(read), self._column(other)
        # A Direction column whose values are none read (in a language not known) is there:
        # the note says that of it, not that there is none (black-box Q1 S1 #1).
        named = [i for i in self._directions if names_direction(mapping.headers[i])]
        direction = (
            f"{self._column(named[0])} holds no value read as inbound or outbound"
            if named
            else "no Direction column saying inbound or outbound"
        )
        return (
            "Nothing in the file says which end of each message or call is the consumer's "
            f"({direction}, no message that is an opt-out word such as 'STOP' or tells how to "
            f"opt out): {phone} is read as the consumers' "
            f"numbers only because it holds at least as many different numbers as {unread} in "
            "the first rows. That is a guess: a business sending from a pool of numbers may "
            "have more numbers of its own than the file has consumers. If the consumers' "
            f"numbers are in {unread}, run the file again with --phone-column "
            f"column:{column_letter(other)}; a dry run lists every row in its report without "
            "sending anything."
        )

    def _direction_sentence(self) -> str:
        mapping, direction = self.mapping, self.direction
        if not self.wrong_count or direction is None or mapping.phone is None:
            return ""
        foreign = self.foreign
        way, other = ("outbound", "inbound") if foreign == "out" else ("inbound", "outbound")
        listed = ", ".join(repr(v) for v, _ in self.values.most_common(_SHOWN))
        verb = "removed" if self.kind == "removal" else "imported"
        one = self.wrong_count == 1
        are = "is" if one else "are"
        column = column_said(mapping.headers, direction)
        phone = column_said(mapping.headers, mapping.phone)
        sender = self._sender()
        end = (
            f", the consumer being on the other end ({column_said(mapping.headers, sender)})"
            if sender is not None
            else ""
        )
        # Those rows are invalid (sheet_check refuses them): the business's own line must not
        # go on a list in a consumer's place (black-box B31 F6).
        said = (
            f"{column[0].upper()}{column[1:]} says "
            f"{self.wrong_count:,} of the {self.said:,} rows {are} {way} ({listed}; the first "
            f"is row {self.wrong[0]}): on {'that row' if one else 'those rows'} {phone} holds "
            f"the business's own {self._own_numbers()}, not a consumer's{end}, so "
            f"{'it is' if one else 'they are'} not {verb} "
            f"({'the row is' if one else 'each is'} invalid, its message saying why)."
        )
        if foreign == "in" and self.replies_count:
            return f"{said} {self._replies_advice()}"
        if foreign == "in" and self.unconfirmed_count and self.body is not None:
            body = column_said(mapping.headers, self.body)
            return (
                f"{said} Keep only the outbound rows whose message confirms an opt-out (filter "
                f"{column} and {body}) and run the file again."
            )
        return f"{said} The {other} rows are {verb} as read."

    def _own_numbers(self) -> str:
        """ "number ('+17205550100')", "number ('+17205550100' on most of them)" when it is on
        more than half the rows the other way, else "numbers ('+17205550100' and 7 others)":
        a business sending from a pool of numbers has none on most rows (re-test M1 #13)."""
        line, count = self.own.most_common(1)[0]
        if self.wrong_count == 1:
            return f"number ({line!r})"
        if count * 2 > self.wrong_count:
            return f"number ({line!r} on most of them)"
        others = len(self.own) - 1
        # Past _KEPT_VALUES distinct numbers the rest were not kept, so not counted either.
        least = "at least " if sum(self.own.values()) < self.wrong_count else ""
        return f"numbers ({line!r} and {least}{others:,} other{'' if others == 1 else 's'})"

    def _replies_advice(self) -> str:
        """Where the opt-outs are when the phone column is the recipient's and received rows
        ask to stop: the consumers wrote those, from the number in the sender's column, while
        the rows sent to them are opt-outs only where the business confirmed one."""
        mapping = self.mapping
        assert self.direction is not None and self.body is not None
        column = column_said(mapping.headers, self.direction)
        sender = self._sender()
        replies = self.replies_count
        if replies < self.wrong_count:
            count = f"{replies:,} of them {'holds' if replies == 1 else 'hold'}"
        else:
            count = {1: "it holds", 2: "both hold"}.get(replies, f"all {replies:,} hold")
        if sender is not None:
            where = f"the consumer's number is in {column_said(mapping.headers, sender)}"
        else:
            where = "the consumer's number is in no column of the file"
        parts = [
            f"Yet the inbound rows are the consumers' own messages: {count} an opt-out word "
            f"({_rows_said(self.replies, replies)}), and on {'it' if replies == 1 else 'them'} "
            f"{where}, which is not read."
        ]
        if self.sent:
            confirmed = (
                f"{self.confirmed:,} of the {self.sent:,} {'does' if self.confirmed == 1 else 'do'}"
                if self.confirmed
                else f"none of the {self.sent:,} does"
            )
            if self.unconfirmed_count:
                parts.append(
                    "The outbound rows are the business's own texts, opt-outs only where they "
                    f"confirm one ({confirmed}); the other {self.unconfirmed_count:,} "
                    f"{'is' if self.unconfirmed_count == 1 else 'are'} not "
                    f"{'an opt-out' if self.unconfirmed_count == 1 else 'opt-outs'} (a marketing "
                    "text's 'Reply STOP to opt out' is no request from the consumer)."
                )
        ways = []
        if sender is not None:
            ways.append(
                f"the inbound rows with an opt-out word (filter {column}), with "
                f"--phone-column column:{column_letter(sender)}"
            )
        if self.confirmed:
            ways.append("the outbound rows whose message confirms an opt-out")
        if ways:
            either = "either " if len(ways) > 1 else ""
            parts.append(
                f"Keep only the opt-out rows and run the file again: {either}{', or '.join(ways)}."
            )
        else:
            parts.append(
                "Put the consumers' numbers in a column of their own, keep only the rows with an "
                "opt-out word and run the file again."
            )
        return " ".join(parts)

    def _sender(self) -> int | None:
        """The column of the other end of a message than the phone column's ("From" to a "To")."""
        mapping = self.mapping
        return None if mapping.phone is None else other_end(mapping.headers, mapping.phone)

    def _body_sentence(self) -> str:
        if not self.other_count or self.body is None:
            return ""
        shown = "; ".join(f"row {n}: {t[:40]!r}" for n, t in self.other)
        many = self.other_count > 1
        more = "; …" if self.other_count > len(self.other) else ""
        column = column_said(self.mapping.headers, self.body)
        return (
            f"{column[0].upper()}{column[1:]}: {self.other_count:,} of the {self.written:,} "
            f"messages {'hold' if many else 'holds'} no opt-out word ({shown}{more}), yet every "
            "row is imported as an opt-out. Check those rows: any words that ask to stop revoke "
            "consent ('leave me alone' too), but a reply such as 'Yes I will attend' does not; "
            "take out the rows that ask nothing of the kind and run the file again."
        )

    def _sent_sentence(self) -> str:
        if not self.unconfirmed_count or self.body is None:
            return ""
        shown = "; ".join(f"row {n}: {t[:40]!r}" for n, t in self.unconfirmed)
        many = self.unconfirmed_count > 1
        more = "; …" if self.unconfirmed_count > len(self.unconfirmed) else ""
        column = column_said(self.mapping.headers, self.body)
        return (
            f"{column[0].upper()}{column[1:]}: {self.unconfirmed_count:,} of the {self.sent:,} "
            f"messages the business sent {'confirm' if many else 'confirms'} no opt-out "
            f"({shown}{more}), yet every row is imported as an opt-out. A message the business "
            "sent shows an opt-out only when it confirms one ('You have been unsubscribed'); "
            "'Reply STOP to opt out' or 'Txt STOP to end' is what it tells every recipient, not "
            "a request from one; take out those rows and run the file again."
        )
