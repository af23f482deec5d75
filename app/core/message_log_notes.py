"""Warnings for a message or call log read as a list of opt-outs.

An SMS platform's log (Twilio's "Date Sent, From, To, Body, Status, Direction") has a row per
message, both ways: on a row the business sent, "From" holds the business's own line and "To"
the consumer, the other way round on a row it received; and a row is an opt-out only when the
consumer's message asks to stop. An import reads every row of its phone column as an opt-out,
so a log of both directions puts the business's own line on the list, and a consumer's "Yes I
will attend" counts as a STOP (black-box pass H2). Both are said from the first rows of the
file (the sample the mapping is proposed from), before anything is sent: filtering the file is
the person's choice, as only they know which rows are the opt-outs.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from typing import Final

from app.core.sheet_mapping import CallSide, ColumnMapping, call_side, column_letter
from app.core.sheet_types import CellValue, Row

_PUNCT: Final = re.compile(r"[^0-9a-z]+")
_DIRECTION_HEADERS: Final = frozenset(
    {"direction", "message direction", "msg direction", "sms direction", "call direction"}
)
_BODY_HEADERS: Final = frozenset(
    {"body", "message", "message body", "message text", "msg", "sms", "sms body", "sms text",
     "text", "content", "message content"}
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


def _key(text: str) -> str:
    return _PUNCT.sub(" ", text.casefold().replace("ê", "e")).strip()


def _column(mapping: ColumnMapping, index: int) -> str:
    header = mapping.headers[index] if index < len(mapping.headers) else ""
    return f"column {column_letter(index)}" + (f" ({header!r})" if header else "")


def _find(mapping: ColumnMapping, names: frozenset[str]) -> int | None:
    for index, header in enumerate(mapping.headers):
        if header and _key(header) in names:
            return index
    return None


def _cell(cells: Sequence[CellValue], index: int) -> CellValue:
    return cells[index] if index < len(cells) else None


def _direction(value: CellValue) -> str:
    """ "in", "out" or "" (not said) for a Direction cell ("inbound", "outbound-api")."""
    if not isinstance(value, str):
        return ""
    key = _key(value)
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


def direction_sentence(mapping: ColumnMapping, rows: Sequence[Row], kind: str) -> str:
    """The warning for a log whose Direction column says some rows went the other way, on
    which the phone column holds the business's own line, or ``""``."""
    side = _log_side(mapping)
    direction = _find(mapping, _DIRECTION_HEADERS)
    if side is None or direction is None or mapping.phone is None:
        return ""
    foreign = _foreign_direction(side)
    said = [(n, cells) for n, cells in rows if _direction(_cell(cells, direction))]
    wrong = [(n, cells) for n, cells in said if _direction(_cell(cells, direction)) == foreign]
    if not wrong:
        return ""
    values = Counter(str(_cell(cells, direction)).strip() for _, cells in wrong)
    own = Counter(str(_cell(cells, mapping.phone)).strip() for _, cells in wrong)
    line, _ = own.most_common(1)[0]
    way, other = ("outbound", "inbound") if foreign == "out" else ("inbound", "outbound")
    listed = ", ".join(repr(v) for v, _ in values.most_common(_SHOWN))
    verb = "removed" if kind == "removal" else "imported"
    first = wrong[0][0]
    return (
        f"{_column(mapping, direction)[0].upper()}{_column(mapping, direction)[1:]} says "
        f"{len(wrong):,} of the first {len(said):,} rows are {way} ({listed}; the first is row "
        f"{first}): on those rows {_column(mapping, mapping.phone)} holds the business's own "
        f"number ({line!r} on most of them), not a consumer's, and they are {verb} too. Keep "
        f"only the {other} rows (filter {_column(mapping, direction)}) and run the file again."
    )


def _opts_out(text: str) -> bool:
    key = _key(text)
    if not key:
        return False
    words = key.split()
    if set(words) & _OPT_OUT_WORDS or any(p in key for p in _OPT_OUT_PHRASES):
        return True
    return words[0] in _KEYWORDS_ALONE or (len(words) <= 3 and bool(set(words) & _KEYWORDS_ALONE))


def body_sentence(mapping: ColumnMapping, rows: Sequence[Row], kind: str) -> str:
    """The warning for a log whose message column holds messages that are no opt-out ("Yes I
    will attend") on the consumers' rows, which are imported as opt-outs all the same, or
    ``""``. Only for an import: a removal of such a row is the person's to choose."""
    side = _log_side(mapping)
    body = _find(mapping, _BODY_HEADERS)
    if kind != "import" or side is None or body is None or body == mapping.phone:
        return ""
    direction = _find(mapping, _DIRECTION_HEADERS)
    foreign = _foreign_direction(side)
    theirs = [
        (n, cells)
        for n, cells in rows
        if direction is None or _direction(_cell(cells, direction)) != foreign
    ]
    texts = [(n, _cell(cells, body)) for n, cells in theirs]
    written = [(n, t.strip()) for n, t in texts if isinstance(t, str) and t.strip()]
    other = [(n, t) for n, t in written if not _opts_out(t)]
    if not other:
        return ""
    shown = "; ".join(f"row {n}: {t[:40]!r}" for n, t in other[:_SHOWN])
    many = len(other) > 1
    return (
        f"{_column(mapping, body)[0].upper()}{_column(mapping, body)[1:]}: {len(other):,} of "
        f"the first {len(written):,} messages {'hold' if many else 'holds'} no opt-out word "
        f"({shown}{'; …' if len(other) > _SHOWN else ''}), yet every row is imported as an "
        "opt-out. Check those rows: any words that ask to stop revoke consent ('leave me "
        "alone' too), but a reply such as 'Yes I will attend' does not; take out the rows "
        "that ask nothing of the kind and run the file again."
    )
