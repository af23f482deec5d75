"""Warnings for a message or call log read as a list of opt-outs.

An SMS platform's log (Twilio's "Date Sent, From, To, Body, Status, Direction") has a row per
message, both ways: on a row the business sent, "From" holds the business's own line and "To"
the consumer, the other way round on a row it received; and a row is an opt-out only when the
consumer's message asks to stop. An import reads every row of its phone column as an opt-out,
so a log of both directions puts the business's own line on the list, and a consumer's "Yes I
will attend" counts as a STOP (black-box pass H2). Both are said after the check has read
every row, before anything is sent: filtering the file is the person's choice, as only they
know which rows are the opt-outs.

The same watch reads, in any import file, a message or keyword column and every column no role
reads (and the reason column) for cells saying the consumer opted in or asked to be called
again ("START", "Opted In", "remove me from your DNC list"): those rows are named too.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from typing import Final

from app.core.sheet_mapping import (
    CallSide,
    ColumnMapping,
    Role,
    call_side,
    column_said,
    plain_words,
)
from app.core.sheet_types import CellValue, Row

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
    hold no opt-out word: the whole file, not the first rows the mapping was proposed from
    (black-box pass H4: 300 outbound rows after 400 inbound ones were imported unsaid). In an
    import of any file it also names the rows whose cells opted in (see the module's
    docstring)."""

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
                    continue
            if verdict:
                self._opt_in(index, number, value)

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
                return  # not a consumer's row: its message is the business's
        if self.body is None:
            return
        text = _cell(cells, self.body)
        if not isinstance(text, str) or not text.strip():
            return
        self.written += 1
        if _opts_in(text, message=True):
            self._opt_in(self.body, number, text)
        elif not _opts_out(text):
            self.other_count += 1
            if len(self.other) < _SHOWN:
                self.other.append((number, text.strip()))

    def sentences(self) -> list[str]:
        """The warnings, after every row went through :meth:`watch`."""
        found = [self._direction_sentence(), *self._opt_in_sentences(), self._body_sentence()]
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

    def _direction_sentence(self) -> str:
        mapping, direction = self.mapping, self.direction
        if not self.wrong_count or direction is None or mapping.phone is None:
            return ""
        line, _ = self.own.most_common(1)[0]
        foreign = self.foreign
        way, other = ("outbound", "inbound") if foreign == "out" else ("inbound", "outbound")
        listed = ", ".join(repr(v) for v, _ in self.values.most_common(_SHOWN))
        verb = "removed" if self.kind == "removal" else "imported"
        rows = "row" if self.wrong_count == 1 else "rows"
        are = "is" if self.wrong_count == 1 else "are"
        column = column_said(mapping.headers, direction)
        phone = column_said(mapping.headers, mapping.phone)
        return (
            f"{column[0].upper()}{column[1:]} says "
            f"{self.wrong_count:,} of the {self.said:,} rows {are} {way} ({listed}; the first "
            f"is row {self.wrong[0]}): on those {rows} {phone} holds "
            f"the business's own number ({line!r} on most of them), not a consumer's, and "
            f"{'it is' if self.wrong_count == 1 else 'they are'} {verb} too. Keep only the "
            f"{other} rows (filter {column}) and run the file again."
        )

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
