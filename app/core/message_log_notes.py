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
do-not-call values and others ("No Answer", "Callback") is named with its counts, as every
row is imported whatever it says.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from typing import Final

from app.core.sheet_mapping import (
    CallSide,
    ColumnMapping,
    Role,
    call_side,
    column_letter,
    column_said,
    plain_words,
)
from app.core.sheet_types import CellValue, Row
from app.core.wording import joined

# Also as call-center and SMS exports head it ("Call Type: Inbound/Outbound") and in German
# and Spanish; a column is read so only when its values say inbound or outbound.
_DIRECTION_HEADERS: Final = frozenset(
    {"direction", "message direction", "msg direction", "sms direction", "call direction",
     "type", "call type", "message type", "msg type", "sms type", "richtung", "direccion"}
)  # fmt: skip
_BODY_HEADERS: Final = frozenset(
    {"body", "message", "message body", "message text", "msg", "sms", "sms body", "sms text",
     "text", "content", "message content", "keyword", "reply", "response", "nachricht",
     "mensaje", "texto"}
)  # fmt: skip
_INBOUND: Final = frozenset({"inbound", "incoming", "in", "received", "mo", "inbound api"})
_OUTBOUND: Final = frozenset({"outgoing", "out", "sent", "mt"})
# Words that ask to stop, anywhere in a message: the CTIA keywords carriers require senders to
# honour (STOP, STOPALL, UNSUBSCRIBE, CANCEL, END, QUIT), REVOKE and OPTOUT, and the usual
# ways people write them ("UNSUB", "Remove", German "Stopp", French "Arrêt", Spanish "Alto",
# "Baja", "Parar"). Since the FCC's 2024 revocation rule any reasonable words revoke consent,
# so the phrases below count too, and the warning asks for a check, not a deletion.
_OPT_OUT_WORDS: Final = frozenset(
    {"stop", "stopall", "unsubscribe", "unsub", "unsubscribed", "optout", "revoke", "arret",
     "stopp", "alto", "baja", "parar", "unsuscribir"}
)  # fmt: skip
# Everyday words that are opt-out keywords only as the message itself or its first word
# ("END", "Cancel please"; not "see you at the end of the week").
_KEYWORDS_ALONE: Final = frozenset({"cancel", "end", "quit", "remove"})
_OPT_OUT_PHRASES: Final = (
    "opt out", "opt me out", "do not text", "dont text", "don t text", "do not contact",
    "dont contact", "don t contact", "do not call", "dont call", "don t call",
    "do not message", "no more", "leave me alone", "take me off", "remove me",
)  # fmt: skip
# A message the business sent is its own words, never the consumer's request: it shows an
# opt-out only when it confirms one ("You have been unsubscribed"), while "Reply STOP to opt
# out", "Txt STOP to end" or "STOP2END" is the boilerplate carriers require on every marketing
# text (black-box pass L1: a log's "Reply STOP to opt out" promotions counted as opt-outs).
# Read in plain words (see sheet_mapping.plain_words), a sentence at a time.
_SENTENCES: Final = re.compile(r"[.!?;\n]+")
_STOP_KEYWORDS: Final = (
    r"(?:stop|stopall|end|cancel|quit|unsubscribe|unsub|optout|opt out|remove|arret|stopp|baja|"
    r"alto|parar)"
)
_START_KEYWORDS: Final = r"(?:start|unstop|yes|y|subscribe|join|help|info)"
_TOLD: Final = r"\b(?:reply|replying|rply|rpl|respond|text|txt|send|msg|sms|type)(?: \w+){0,2} "
# An instruction to opt out: the sentence around it says what would happen, not what did.
_STOP_INSTRUCTION: Final = re.compile(
    _TOLD + _STOP_KEYWORDS + r"\b|\bstop ?(?:2|to) ?(?:end|quit|cancel|stop|opt|unsub|be removed)"
)
# An instruction to opt (back) in: what follows it in its sentence is what would happen.
_START_INSTRUCTION: Final = re.compile(_TOLD + _START_KEYWORDS + r"\b")
_CONFIRMS_OPT_OUT: Final = re.compile(
    r"\bunsubscribed\b|\bopted (?:you )?out\b|\bopt out (?:confirmed|confirmation|successful)\b"
    r"|\bunsubscri\w* (?:confirmed|successful|complete|processed)\b"
    r"|\byou (?:have been|ve been|are|re|were|are now|re now|have|ve) removed\b"
    r"|\bremoved (?:you )?from (?:our|the|this|all|any|future|further)\b"
    r"|\bno longer (?:receive|get|be sent|be contacted|be texted|be messaged|send)\b"
    r"|\b(?:receive|get|be sent) no (?:more|further)\b"
    r"|\bno (?:more|further) (?:messages|msgs|texts|text messages|sms|alerts|notifications|calls)\b"
    r"|\b(?:will not|won t|wont) (?:receive|get) (?:any )?(?:more |further |additional )?"
    r"(?:messages|msgs|texts|text messages|sms|alerts|notifications|calls)\b"
    r"|\bdad[oa] de baja\b|\bdesuscrit[oa]\b|\bno recibira mas\b|\bdesabonne\b"
    r"|\bne recevrez plus\b|\babgemeldet\b"
)
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
_DNC_VALUES: Final = frozenset(
    {"dnc", "dnd", "remove", "removed", "removal", "stop", "stopall", "stop all", "stopped",
     "unsub", "optout", "opt out", "revoke", "revoked"}
)  # fmt: skip
_DNC_WORDS: Final = frozenset({"dnc", "dnd", "optout", "unsubscribe", "unsubscribed", "revoked"})
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
_DNC_OPT_OUT_PHRASES: Final = tuple(p for p in _OPT_OUT_PHRASES if p != "no more")
_DNC_OPT_OUT_WORDS: Final = _OPT_OUT_WORDS - {"alto", "baja"}
# A column with more different values than this is free text, not a status or keyword column:
# it is no longer watched for opt-in values (a message column is, by its header).
_DISTINCT_WATCHED: Final = 1000


def _find(mapping: ColumnMapping, names: frozenset[str]) -> int | None:
    for index, header in enumerate(mapping.headers):
        if header and plain_words(header) in names:
            return index
    return None


def _cell(cells: Sequence[CellValue], index: int) -> CellValue:
    return cells[index] if index < len(cells) else None


def _direction(value: CellValue) -> str:
    """ "in", "out" or "" (not said) for a Direction cell ("inbound", "outbound-api")."""
    if not isinstance(value, str):
        return ""
    key = plain_words(value)
    if key in _INBOUND:
        return "in"
    if key.startswith("outbound") or key in _OUTBOUND:
        return "out"
    return ""


def _log_side(mapping: ColumnMapping) -> CallSide | None:
    """The end of a call or message the phone column holds, when the file is such a log."""
    if mapping.phone is None or mapping.phone >= len(mapping.headers):
        return None
    return call_side(mapping.headers[mapping.phone])


def _foreign_direction(side: CallSide) -> str:
    """On which rows the phone column holds the business's own line: the sender ("From") of
    what the business sent, the recipient ("To") of what it received."""
    return "out" if side is CallSide.CALLER else "in"


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
        stop = _STOP_INSTRUCTION.search(key)
        start = _START_INSTRUCTION.search(key)
        if stop is None:
            out = out or bool(_CONFIRMS_OPT_OUT.search(key[: start.start()] if start else key))
        if start is None:
            opt_in = opt_in or bool(_CONFIRMS_OPT_IN.search(key[: stop.start()] if stop else key))
    return out, opt_in


def _is_disposition(header: str) -> bool:
    key = plain_words(header)
    return key in _DISPOSITION_HEADERS or bool(set(key.split()) & _DISPOSITION_WORDS)


def _says_do_not_call(value: str) -> bool:
    """Whether a disposition or status cell says do not call ("DNC - Customer Request", "Do Not
    Call", "Opted Out", "Remove")."""
    key = plain_words(value)
    if not key or _opts_in(value, message=False):
        return False
    words = key.split()
    return (
        key in _DNC_VALUES
        or key in _OPT_OUT_WORDS
        or bool(set(words) & (_DNC_WORDS | _DNC_OPT_OUT_WORDS))
        or words[0] in {"dnc", "remove", "stop"}
        or any(p in key for p in _DNC_PHRASES + _DNC_OPT_OUT_PHRASES)
    )


def _rows_said(numbers: Sequence[int], count: int) -> str:
    """ "row 14", "rows 14 and 15", "rows 14, 15, 16, …"."""
    shown = [str(n) for n in numbers]
    listed = joined(shown) if count <= len(shown) else f"{', '.join(shown)}, …"
    return f"{'row' if count == 1 else 'rows'} {listed}"


def _opts_out(text: str) -> bool:
    key = plain_words(text)
    if not key:
        return False
    words = key.split()
    if set(words) & _OPT_OUT_WORDS or any(p in key for p in _OPT_OUT_PHRASES):
        return True
    return words[0] in _KEYWORDS_ALONE or (len(words) <= 3 and bool(set(words) & _KEYWORDS_ALONE))


# Distinct values kept for a warning (the business's numbers, the Direction values): a log's
# other-way rows repeat a few of each, and a crafted file must not grow them without bound.
_KEPT_VALUES: Final = 50


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

    def __init__(self, mapping: ColumnMapping, kind: str) -> None:
        self.mapping = mapping
        self.kind = kind
        side = _log_side(mapping)
        used = {mapping.column(role) for role in Role}
        self.direction = _find(mapping, _DIRECTION_HEADERS) if side is not None else None
        # A message or keyword column is read in any import file, a log's or not: "STOP" and
        # "START" rows side by side are not all opt-outs.
        body = _find(mapping, _BODY_HEADERS) if kind == "import" else None
        self.body = None if body in used else body
        self.foreign = _foreign_direction(side) if side is not None else ""
        # Every other column no role reads is watched for opt-in cells ("Opted In", "START"),
        # and so is the reason column, whose text goes onto the entry (re-test J1: "remove me
        # from your DNC list" became an entry's reason without a word).
        reason = mapping.reason if mapping.reason not in (None, mapping.phone) else None
        self.watched = (
            [
                i
                for i, _ in enumerate(mapping.headers)
                if (i not in used or i == reason) and i != self.body and i != self.direction
            ]
            if kind == "import"
            else []
        )
        self._seen: dict[int, dict[str, bool]] = {i: {} for i in self.watched}
        # Each disposition column's distinct values, judged once: do not call or not.
        self._dispositions: dict[int, dict[str, bool]] = {
            i: {} for i in self.watched if _is_disposition(mapping.headers[i])
        }
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

    @property
    def active(self) -> bool:
        return self.direction is not None or self.body is not None or bool(self.watched)

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
        dnc = judged.get(value)
        if dnc is None:
            if len(judged) >= _DISTINCT_WATCHED:
                self._forget_disposition(index)  # free text: no disposition column
                return
            dnc = judged[value] = _says_do_not_call(value)
        shown = value.strip()
        if dnc:
            self.do_not_call[index] += 1
            said = self.dnc_values.setdefault(index, Counter())
            if shown in said or len(said) < _KEPT_VALUES:
                said[shown] += 1
            return
        self.not_dnc[index] += 1
        others = self.not_dnc_values.setdefault(index, {})
        if shown in others:
            others[shown][0] += 1
        elif len(others) < _KEPT_VALUES:
            others[shown] = [1, number]

    def _opt_in(self, index: int, number: int, value: str) -> None:
        self.opt_in_counts[index] += 1
        first = self.opt_ins.setdefault(index, [])
        if len(first) < _OPT_INS_SHOWN:
            first.append((number, value.strip()))

    def _count(self, number: int, cells: Sequence[CellValue]) -> None:
        if self.watched:
            self._opt_in_cells(number, cells)
        phone, direction = self.mapping.phone, self.direction
        said = _cell(cells, direction) if direction is not None else None
        way = _direction(said)
        if way:
            self.said += 1
            if way == self.foreign:
                self.wrong_count += 1
                if len(self.wrong) < _SHOWN:
                    self.wrong.append(number)
                value = str(said).strip()
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

    def sentences(self) -> list[str]:
        """The warnings, after every row went through :meth:`watch`."""
        found = [
            self._direction_sentence(),
            *self._opt_in_sentences(),
            *self._disposition_sentences(),
            self._body_sentence(),
            self._sent_sentence(),
        ]
        return [s for s in found if s]

    def _opt_in_sentences(self) -> list[str]:
        out = []
        for index in sorted(self.opt_ins):
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
            if not dnc or not other:
                continue
            said = ", ".join(repr(v) for v, _ in self.dnc_values[index].most_common(_SHOWN))
            values = sorted(self.not_dnc_values[index].items(), key=lambda v: -v[1][0])
            shown = "; ".join(
                f"{v!r}: row {first}" if n == 1 else f"{v!r}: {n:,} rows, the first is row {first}"
                for v, (n, first) in values[:_SHOWN]
            )
            more = "; …" if len(values) > _SHOWN else ""
            column = column_said(self.mapping.headers, index)
            one = other == 1
            them = "it is imported as an opt-out" if one else "they are imported as opt-outs"
            out.append(
                f"{column[0].upper()}{column[1:]}: {dnc:,} of the {dnc + other:,} rows "
                f"{'says' if dnc == 1 else 'say'} do not call ({said}), the other {other:,} "
                f"{'says' if one else 'say'} something else ({shown}{more}), yet "
                f"{them} too. Keep only the rows that say do not call (filter {column}) and run "
                "the file again."
            )
        return out

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
        said = (
            f"{column[0].upper()}{column[1:]} says "
            f"{self.wrong_count:,} of the {self.said:,} rows {are} {way} ({listed}; the first "
            f"is row {self.wrong[0]}): on {'that row' if one else 'those rows'} {phone} holds "
            f"the business's own {self._own_numbers()}, not a consumer's, and "
            f"{'it is' if one else 'they are'} {verb} too."
        )
        if foreign == "in" and self.replies_count:
            return f"{said} {self._replies_advice()}"
        if foreign == "in" and self.unconfirmed_count and self.body is not None:
            body = column_said(mapping.headers, self.body)
            return (
                f"{said} Keep only the outbound rows whose message confirms an opt-out (filter "
                f"{column} and {body}) and run the file again."
            )
        return f"{said} Keep only the {other} rows (filter {column}) and run the file again."

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
        side = _log_side(self.mapping)
        for index, header in enumerate(self.mapping.headers):
            found = call_side(header) if header and index != self.mapping.phone else None
            if found is not None and found is not side:
                return index
        return None

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
