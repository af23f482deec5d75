"""Which column holds what: a proposal from header names and content, which the user may change.

:class:`ColumnMapping` is a plain dataclass (0-based column indexes) that the CLI fills from
``--phone-column`` and friends and the GUI from its wizard; :func:`propose_mapping` makes the
first guess. Columns a file lacks are covered by the defaults on the mapping.
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata
from collections.abc import Sequence, Set
from dataclasses import dataclass, field
from enum import IntEnum, StrEnum
from functools import lru_cache
from typing import Final

from app.api.scope import Scope
from app.core import phones
from app.core.country_names import DC_NAMES, US_STATES, US_TERRITORIES, name_with_lost_letters
from app.core.sheet_dates import parse_request_date
from app.core.sheet_header import holds_phone_number, is_blank, looks_like_phone
from app.core.sheet_types import CellValue, Row, SheetError
from app.core.wording import joined


class Role(StrEnum):
    PHONE = "phone"
    PHONE_CODE = "phone_code"
    REASON = "reason"
    PURPOSE = "purpose"
    CAMPAIGN = "campaign"
    SCOPE = "scope"
    REQUEST_DATE = "request_date"


def _split(names: str) -> frozenset[str]:
    return frozenset(names.split("|"))


class CallSide(IntEnum):
    """Which end of a call or text a call log's number column names."""

    CALLED = 0  # the number called or texted: in a log of calls received, the business's line
    CALLER = 1  # the number calling or texting: in a log of calls received, the consumer's


# A call log's headers for either end ("Caller ID, Number Called"; an SMS log's "From, To").
_CALLER: Final = _split(
    "caller id|callerid|caller id number|caller id phone|caller|caller number|caller no|"
    "caller phone|caller phone number|calling number|calling no|calling party|"
    "calling party number|calling phone|calling line id|cli|ani|from|from number|from no|"
    "from phone|sender|sender number|sender phone|source number|originating number|"
    "origin number|de|desde|remitente|origen|numero de origen|numero origen|von|absender|"
    "anrufer|rufnummer anrufer|expediteur|appelant|numero appelant|emetteur|"
    # An SMS gateway's ends (MessageBird's "originator, recipient", an SMPP log's "Source
    # Address"; black-box Q1 S1 #3: "originator" was read as no end, so "recipient" won).
    "originator|originator number|originating address|source address|sender id|"
    "sender address"
)
_CALLED: Final = _split(
    "number called|called number|called no|called|called party|called party number|"
    "called phone|phone called|number dialed|number dialled|dialed number|dialled number|"
    "dialed no|dialled no|dialed|dialled|dnis|did|did number|to|to number|to no|to phone|"
    "recipient|recipient number|destination|destination number|dest number|number texted|"
    "texted number|para|destinatario|destino|numero de destino|numero destino|an|empfanger|"
    "ziel|zielrufnummer|angerufene nummer|destinataire|numero appele|numero destinataire|"
    "recipients|recipient address|destination address|dest address"
)
# Of these, the ones that say phone number themselves are phone headers whatever the column
# holds; the others ("From", "To", "Caller", "DNIS") only over a column of phone numbers.
_SAYS_NUMBER: Final = frozenset({"number", "no", "phone", "id", "callerid", "ani"})


def _split_side(names: frozenset[str]) -> frozenset[str]:
    return frozenset(n for n in names if set(n.split()) & _SAYS_NUMBER)


# Exact header names (after lower-casing and reducing punctuation to single spaces).
_EXACT: Final[dict[Role, frozenset[str]]] = {
    Role.PHONE: _split(
        "phone|phone number|phone no|phone nr|phone num|phonenumber|phone 1|phone1|"
        "primary phone|mobile|mobile number|mobile no|mobile phone|cell|cell phone|cellphone|"
        "cell number|telephone|telephone number|tel|tel no|msisdn|number|opt out number|"
        "optout number|opt out phone|dnc number|dnc phone|contact number|contact phone|"
        "wireless|wireless number|landline|land line|ph|ani|e164|phone e164|customer phone|"
        "subscriber number|number to block|do not call number|"
        # Abbreviations and phrases naming a line without one of _LINE_WORDS: "Ph#", "Contact
        # #", "SMS Number", a carrier's Mobile Directory Number and Cellular Telephone Number.
        "ph no|ph num|contact no|contact num|contact nr|sms number|sms no|sms phone|"
        "sms phone number|text number|mdn|ctn|mdn number|ctn number"
    )
    | _split_side(_CALLER | _CALLED),
    Role.PHONE_CODE: _split(
        "country code|phone code|phonecode|dial code|dialing code|dialling code|calling code|"
        "country calling code|cc|intl code|international code|country prefix|"
        "country dial code|isd code|isd|ctry code|cntry code|"
        # German, Spanish, French ("Ländercode", "Código de país", "Indicatif"; accents are
        # read without them).
        "landercode|landescode|landervorwahl|landesvorwahl|internationale vorwahl|"
        "codigo de pais|codigo pais|codigo del pais|cod pais|prefijo|prefijo internacional|"
        "prefijo de pais|prefijo del pais|indicatif|indicatif pays|indicatif du pays|"
        "indicatif international|indicatif telephonique|code pays|code du pays"
    ),
    Role.REASON: _split(
        "reason|reasons|opt out reason|optout reason|dnc reason|reason for opt out|"
        "comment|comments|note|notes|remark|remarks|description|details|"
        # German, Spanish, French (black-box pass N4: "Bemerkung", "Grund", "Motivo" were not
        # read while "Notes" was; accents are read without them).
        "bemerkung|bemerkungen|grund|kommentar|kommentare|anmerkung|anmerkungen|notiz|notizen|"
        "hinweis|hinweise|comentario|comentarios|observacion|observaciones|nota|notas|motivo|"
        "motivos|razon|raison|motif|remarque|remarques|commentaire|commentaires|observations"
    ),
    Role.PURPOSE: _split("purpose|purpose type|opt out purpose|dnc purpose"),
    Role.CAMPAIGN: _split(
        "campaign|campaign id|campaignid|campaign name|campaign number|campaign no"
    ),
    Role.SCOPE: _split("scope|dnc scope|list scope|applies to|opt out scope"),
}
# Words naming a phone line itself (a "Phone/Fax" column holds phone numbers too), in English
# and as German, Spanish, French and Portuguese headers have them ("Telefonnummer", "Número de
# teléfono", "Téléphone portable", "Handy").
_LINE_WORDS: Final = frozenset(
    {
        "phone", "mobile", "cell", "cellular", "telephone", "tel", "msisdn", "wireless",
        "telefon", "telefonnummer", "telefonnr", "rufnummer", "mobil", "mobilnummer",
        "mobiltelefon", "handy", "handynummer", "telefono", "movil", "celular", "telefone",
        "portable",
        # Their abbreviations (black-box pass I2: "Tfno.", "Cel", "Mobilnr." were not read as
        # phone headers, so a customer-number column was read by its ten digits instead).
        "tfno", "tlfno", "tfn", "tlf", "tlfn", "telf", "fono", "cel", "celu", "whatsapp",
        "mobilnr", "rufnr", "handynr", "telnr", "natel", "gsm", "telemovel", "cellulare",
        "telefonino", "mob",
    }
)  # fmt: skip
# Headers naming where the consumer lives ("Country", Outlook's "Home Country/Region"): read
# as the country-code column, after one headed as a dialling code (see _code_rank).
_COUNTRY_NAMES: Final = _split(
    "country|land|pays|pais|nation|paese|land region|cntry|ctry|staat|herkunftsland|nacion|"
    "pays de residence|pais de residencia|wohnsitzland"
)
_COUNTRY_FILLER: Final = frozenset(
    {
        "home", "business", "work", "office", "other", "mailing", "billing", "shipping",
        "region", "name", "iso", "iso2", "iso3", "alpha", "alpha2", "alpha3", "of",
        "residence", "primary", "contact", "customer", "address", "current", "1", "2", "3",
        "territory", "addr", "postal", "mail", "client", "consumer", "subscriber", "member",
        "account", "lead", "user", "physical", "permanent",
    }
)  # fmt: skip
# Words that, anywhere in a header, point to a role (checked in this order). The request date
# has no words here: headers are ranked by request_date_rank instead.
_WORDS: Final[tuple[tuple[Role, frozenset[str]], ...]] = (
    (Role.PHONE_CODE, frozenset({"dial", "dialing", "dialling", "calling", "isd"})),
    (Role.REQUEST_DATE, frozenset()),
    (Role.CAMPAIGN, frozenset({"campaign"})),
    (Role.SCOPE, frozenset({"scope"})),
    (Role.PURPOSE, frozenset({"purpose"})),
    (
        Role.REASON,
        frozenset(
            {
                "reason", "comment", "comments", "note", "notes", "remarks", "grund",
                "motivo", "motif", "raison", "bemerkung", "kommentar", "anmerkung",
                "comentario", "observaciones",
            }
        ),
    ),
    (Role.PHONE, _LINE_WORDS | {"number"}),
)  # fmt: skip
# A dialling word ("calling", "dial") names the country code only beside a word for a code
# ("Calling Code", "Dial Prefix", "ISD") in a header naming no phone line or number: black-box
# pass N4 found "Your phone number (the one to stop calling)" read as country codes, and the
# form's other number column, the business's own caller ID, imported in its place.
_CODE_WORDS: Final = frozenset({"code", "codes", "prefix", "prefixes", "cc", "isd"})


def _names_dialling_code(tokens: set[str]) -> bool:
    return bool(tokens & _CODE_WORDS) and not tokens & (_LINE_WORDS | {"number", "numbers"})


_FAX: Final = frozenset({"fax", "facsimile", "telefax"})
# Words naming something of a campaign other than itself ("Campaign Status", "Campaign Type",
# "Campaign Start", "Campaign Result"): such a column holds no campaign's name or id
# (black-box pass J1: a "Campaign Status" of "Active" made every row "no campaign is named
# 'Active'").
_NOT_CAMPAIGN: Final = frozenset(
    {
        "status", "state", "stage", "type", "kind", "category", "date", "dates", "time", "day",
        "start", "started", "end", "ended", "count", "total", "result", "results", "outcome",
        "disposition", "response", "responses", "rate", "score", "priority", "active",
        "channel", "source", "medium", "cost", "budget", "spend", "owner", "manager",
        "description", "desc", "language", "attempts", "calls", "uid", "uuid", "guid",
    }
)  # fmt: skip
# "fax": a fax number is not a line a person asked not to be called on (phones refuses a cell
# labelled fax too); such a column is read only when chosen by name.
_NOT_PHONE: Final = frozenset({"type", "ext", "extension", "id", "count", "status", "name"}) | _FAX
_PUNCT: Final = re.compile(r"[^0-9a-z]+")


def _not_a_phone_header(words: list[str]) -> bool:
    """Whether a header's words say its column is not one of phone numbers: an id, a type, a
    fax number ("Fax Number", "Fax Phone", "Telefax"). A column naming a phone line before a
    fax ("Phone/Fax", "Tel / Fax") is read: it holds phone numbers too."""
    if set(words) & (_NOT_PHONE - _FAX):
        return True
    faxes = [i for i, word in enumerate(words) if word in _FAX]
    if not faxes:
        return False
    lines = [i for i, word in enumerate(words) if word in _LINE_WORDS]
    return not lines or lines[0] > faxes[0]


def call_side(header: str) -> CallSide | None:
    """The end of a call or text a call log's header names ("Caller ID", "Number Called",
    "From", "To", "ANI", "DNIS"), or None for any other header."""
    words = _words(header)
    if words in _CALLER:
        return CallSide.CALLER
    if words in _CALLED:
        return CallSide.CALLED
    return None


# A message or call log's Direction column, as SMS platforms and call centres head it ("Call
# Type: Inbound/Outbound"), also in German, Spanish and French ("Richtung", "Dirección",
# "Sens"): read so only when its values say inbound or outbound (:func:`message_direction`).
# A type header ("Type", "Call Type") comes after one naming the direction itself: RingCentral's
# "Type" of "SMS" stands before its "Direction" (black-box Q1 S1 #2: that "Type" was taken as
# the direction column, and the outbound rows were imported unsaid). And its message column
# ("Body", "Text").
_DIRECTION_ONLY: Final = frozenset(
    {"direction", "message direction", "msg direction", "sms direction", "call direction",
     "dir", "richtung", "nachrichtenrichtung", "direccion", "direccion del mensaje", "sentido",
     "sens", "sens du message"}
)  # fmt: skip
_TYPE_HEADERS: Final = frozenset(
    {"type", "call type", "message type", "msg type", "sms type", "tipo", "typ"}
)
DIRECTION_HEADERS: Final = _DIRECTION_ONLY | _TYPE_HEADERS
BODY_HEADERS: Final = frozenset(
    {"body", "message", "message body", "message text", "msg", "sms", "sms body", "sms text",
     "text", "content", "message content", "keyword", "reply", "response", "nachricht",
     "mensaje", "texto"}
)  # fmt: skip
# A Direction cell's values, in English ("inbound", Twilio's "outbound-api", MessageBird's and
# Vonage's "mo"/"mt": mobile originated, mobile terminated), Spanish, French and German, read
# without accents ("Entrante", "Reçu", "Envoyé", "Eingehend"; black-box Q1 S1 #1: a Spanish log's
# "Entrante" said nothing, and the business's pool in "Para" was imported).
_INBOUND: Final = frozenset(
    {"inbound", "incoming", "in", "received", "mo", "inbound api", "mobile originated",
     "entrante", "entrada", "recibido", "recibida", "entrant", "recu", "recue",
     "eingehend", "empfangen", "eingang"}
)  # fmt: skip
_OUTBOUND: Final = frozenset(
    {"outgoing", "out", "sent", "mt", "mobile terminated", "saliente", "salida", "enviado",
     "enviada", "sortant", "sortante", "envoye", "envoyee", "ausgehend", "gesendet", "ausgang"}
)  # fmt: skip
# Words that ask to stop, anywhere in a message: the CTIA keywords carriers require senders to
# honour (STOP, STOPALL, UNSUBSCRIBE; CANCEL, END and QUIT are everyday words too, see
# _OPT_OUT_MESSAGES), REVOKE and OPTOUT, and the usual ways people write them ("UNSUB", German
# "Stopp", French "Arrêt", Spanish "Alto", "Baja", "Parar"), in plain words. The one list of
# them: message_log_notes reads a message's words by it too (black-box Q1 S1 #1: a log's "BAJA"
# and "STOPP" were opt-outs there, yet said nothing of which end the consumer is at here).
OPT_OUT_KEYWORDS: Final = frozenset(
    {"stop", "stopall", "unsubscribe", "unsub", "unsubscribed", "optout", "revoke", "arret",
     "stopp", "alto", "baja", "parar", "unsuscribir"}
)  # fmt: skip
# The keywords carriers require senders to honour as a whole message (CTIA: STOP, STOPALL,
# UNSUBSCRIBE, CANCEL, END, QUIT) and the others an opt-out is written as: a message that is
# one of them and nothing else is the consumer's, never the business's.
_OPT_OUT_MESSAGES: Final = (
    phones.OPT_OUT_WORDS
    | OPT_OUT_KEYWORDS
    | frozenset({"stop all", "cancel", "end", "quit", "opt out", "darse de baja", "dar de baja"})
)
STOP_KEYWORDS: Final = (
    "(?:"
    + "|".join(sorted(OPT_OUT_KEYWORDS | {"end", "cancel", "quit", "opt out", "remove"}))
    + ")"
)
TOLD_TO: Final = r"\b(?:reply|replying|rply|rpl|respond|text|txt|send|msg|sms|type)(?: \w+){0,2} "
# An instruction to opt out, as the business's marketing texts carry it ("Reply STOP to opt
# out", "Txt STOP to end", "STOP2END"), read in plain words: the sentence says what would
# happen, not what did.
STOP_INSTRUCTION: Final = re.compile(
    TOLD_TO + STOP_KEYWORDS + r"\b|\bstop ?(?:2|to) ?(?:end|quit|cancel|stop|opt|unsub|be removed)"
)

# Everyday words that are opt-out keywords only as the message itself or its first word
# ("END", "Cancel please"; not "see you at the end of the week").
KEYWORDS_ALONE: Final = frozenset({"cancel", "end", "quit", "remove"})
# Since the FCC's 2024 revocation rule any reasonable words revoke consent, so phrases count
# beside the keywords (OPT_OUT_KEYWORDS: STOP, "Stopp", "Arrêt", "Baja", …).
OPT_OUT_PHRASES: Final = (
    "opt out", "opt me out", "do not text", "dont text", "don t text", "do not contact",
    "dont contact", "don t contact", "do not call", "dont call", "don t call",
    "do not message", "no more", "leave me alone", "take me off", "remove me",
)  # fmt: skip
# A message confirming an opt-out, as only the business sends ("You have been unsubscribed").
CONFIRMS_OPT_OUT: Final = re.compile(
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


def asks_to_stop(key: str) -> bool:
    """Whether a message's plain words (:func:`plain_words`) ask to stop: an opt-out keyword
    or phrase anywhere, or an everyday keyword as the message or its first word."""
    if not key:
        return False
    words = key.split()
    if set(words) & OPT_OUT_KEYWORDS or any(p in key for p in OPT_OUT_PHRASES):
        return True
    return words[0] in KEYWORDS_ALONE or (len(words) <= 3 and bool(set(words) & KEYWORDS_ALONE))


def names_direction(header: str) -> bool:
    """Whether a header names a log's direction itself ("Direction", "Richtung"), not a type."""
    return plain_words(header) in _DIRECTION_ONLY


def direction_columns(headers: Sequence[str]) -> list[int]:
    """The columns that may be a log's Direction column, by their headers: those naming the
    direction ("Direction", "Dirección", "Sens") before type headers ("Type", "Call Type")."""
    keys = [plain_words(h) if h else "" for h in headers]
    return [i for i, k in enumerate(keys) if k in _DIRECTION_ONLY] + [
        i for i, k in enumerate(keys) if k in _TYPE_HEADERS
    ]


def message_direction(value: CellValue) -> str:
    """ "in", "out" or "" (not said) for a Direction cell ("inbound", "outbound-api")."""
    if not isinstance(value, str):
        return ""
    key = plain_words(value)
    if key in _INBOUND:
        return "in"
    if key.startswith("outbound") or key in _OUTBOUND:
        return "out"
    return ""


class RowDirections:
    """Which way each row of a log went, by its Direction column: of the columns headed so
    (:func:`direction_columns`), the first whose cell on a row says a direction, taken from that
    row on (black-box Q1 S1 #2: RingCentral's "Type" of "SMS" stands before its "Direction").
    The check and the log's warnings read the rows through one of these each, so a row the
    check refuses as going the other way is the row the warning counts."""

    def __init__(self, headers: Sequence[str]) -> None:
        self.columns = direction_columns(headers)
        self.column: int | None = self.columns[0] if self.columns else None
        self._found = len(self.columns) < 2

    def of(self, cells: Sequence[CellValue]) -> str:
        """ "in", "out" or "" for the row ``cells``."""
        if not self._found:
            for index in self.columns:
                if index < len(cells) and message_direction(cells[index]):
                    self.column = index
                    self._found = True
                    break
        column = self.column
        if column is None or column >= len(cells):
            return ""
        return message_direction(cells[column])


def foreign_direction(side: CallSide) -> str:
    """On which rows a log's column of ``side`` holds the business's own line: the sender
    ("From") of what the business sent, the recipient ("To") of what it received."""
    return "out" if side is CallSide.CALLER else "in"


def other_end(headers: Sequence[str], column: int) -> int | None:
    """The column of a log's other end than ``column``'s ("To" beside "From"), if any."""
    side = call_side(headers[column]) if column < len(headers) else None
    for index, header in enumerate(headers):
        found = call_side(header) if header and index != column else None
        if found is not None and found is not side:
            return index
    return None


def _message_sender(value: CellValue) -> str:
    """Who sent a log's message, as its words tell: "in" (the consumer) for an opt-out word
    alone ("STOP", "Unsubscribe.") or words asking to stop, "out" (the business) for a text
    telling how to opt out ("Reply STOP to opt out"), else ""."""
    if not isinstance(value, str):
        return ""
    key = plain_words(value)
    if key in _OPT_OUT_MESSAGES:
        return "in"
    if STOP_INSTRUCTION.search(key):
        return "out"
    # A sentence asking to stop is a consumer's as a bare STOP is ("please stop texting me",
    # "Unsubscribe me now": black-box B31 F4 read a log of them from its "To", the business's
    # pool), unless it confirms an opt-out, as the business does.
    return "in" if asks_to_stop(key) and not CONFIRMS_OPT_OUT.search(key) else ""


def log_consumers_end(
    headers: Sequence[str], data: Sequence[Sequence[CellValue]]
) -> CallSide | None:
    """Which end of a message or call log the consumers are at, as its rows say: the sender
    ("From", "Caller ID") on a row its Direction column says is inbound, or whose message is
    an opt-out word alone ("STOP"), as only a consumer sends; the recipient ("To") on a row said
    to be outbound, or whose message tells how to opt out ("Reply STOP to opt out"), as only
    the business sends. The end more rows say; of as many each way, the sender's: opt-outs are
    the messages consumers send, and a log of STOPs and the business's confirmations has one row
    each way (black-box Q1 S1 #4: Telnyx's log of both was called a guess by the count of
    numbers, as if it said nothing). None when no row says.

    Black-box Q1 #1: a business texting from a pool of four numbers, three consumers sending
    STOP, had its own numbers read from "To" (more different numbers than "From"), even with
    every row's Direction saying inbound."""
    direction = next(
        (
            i
            for i in direction_columns(headers)
            if any(message_direction(v) for v in _values(data, i))
        ),
        None,
    )
    body = next(
        (i for i, header in enumerate(headers) if header and plain_words(header) in BODY_HEADERS),
        None,
    )
    if direction is None and body is None:
        return None
    ways = {"in": 0, "out": 0}
    for cells in data:
        way = (
            message_direction(cells[direction])
            if direction is not None and direction < len(cells)
            else ""
        )
        if not way and body is not None and body < len(cells):
            way = _message_sender(cells[body])
        if way:
            ways[way] += 1
    if ways["in"] > ways["out"]:
        return CallSide.CALLER
    if ways["out"] > ways["in"]:
        return CallSide.CALLED
    return CallSide.CALLER if ways["in"] else None


def _names_other_digits(header: str) -> bool:
    """Whether a header names digits that are no phone numbers (an id, an account, a zip, a
    policy, member or stock number, a quantity or a price). "Caller ID" and "Phone ID" name a
    line itself: a column of such is read by its content, as is "Customer Phone"."""
    words = set(_words(header).split())
    if call_side(header) is not None:
        return False
    if words & _LINE_WORDS and words - _LINE_WORDS == {"id"}:
        return False
    if words & _NOT_OTHER_PHONE:
        return True
    if _names_measure(header) or _names_goods(header) or _names_key(header):
        return True
    return bool(words & _NUMBERED_THINGS) and not _names_line(header)


class OtherDigits(StrEnum):
    """What a header names instead of a phone line (see :func:`other_digits_named`)."""

    MEASURE = "measure"  # a quantity, an amount or a price ("Volume", "Total Amount")
    GOODS = "goods"  # a stock, part or security number ("Stock Number", "NSN", "CUSIP")
    ID = "id"  # a record's id, key or reference ("ID", "Key", "Ref", "Customer ID")
    OTHER = "other"  # another thing's number ("Account Number", "Customer Number")


def other_digits_named(header: str) -> OtherDigits:
    """What a header that names other digits than a phone number's names, for a sentence
    saying why its column was not read (black-box V3: a "Volume" column was said to name "an
    account, customer or member number")."""
    words = set(_words(header).split())
    if _names_measure(header):
        return OtherDigits.MEASURE
    if _names_goods(header):
        return OtherDigits.GOODS
    if _names_key(header) or words & _ID_WORDS:
        return OtherDigits.ID
    return OtherDigits.OTHER


def _names_goods(header: str) -> bool:
    """Whether a header names a stock, part or security number and nothing else ("Stock
    Number", "Part #", "Security Number", "NSN", "SKU"): goods, never a person, so its column
    is not read by its content however its values are written (a "Customer Number" written
    as "(303) 555-0101" is the customer's phone number; a "Stock Number" so written is not
    read by content: black-box V3 found "Stock Number" read where "Stock No" was refused).
    "Security Contact" names a person."""
    words = set(_words(header).split())
    return bool(words & _GOODS) and words <= _GOODS | _GOODS_FILLER and not _names_line(header)


def _names_key(header: str) -> bool:
    """Whether a header names a record's key and nothing else ("Key", "Primary Key", "PK",
    "UID"): black-box V3 found a "Key" column of ten-digit ids read over a "High Priority"
    column of phone numbers, the first of two equally full columns. "Key Contact" names a
    person."""
    words = set(_words(header).split())
    return bool(words & _KEY_WORDS) and words <= _KEY_WORDS | _KEY_FILLER


def _names_measure(header: str) -> bool:
    """Whether a header names a quantity, an amount or a price ("Volume", "Qty", "Total
    Cost", "Unit Price") and nothing else: its digits are what it counts, whatever number
    they spell. A header with any other word ("Sales Contact", "DNC Total", "High Priority",
    "Open Leads") names a list of people by what it is about: black-box V3 found such phone
    columns refused once one of their words was read as a measure."""
    words = set(_words(header).split())
    return (
        bool(words & _MEASURES) and words <= _MEASURES | _MEASURE_FILLER and not _names_line(header)
    )


def _names_line(header: str) -> bool:
    """Whether a header names a phone line ("Home Phone", "Cell #", "Telefonnummer", "MDN",
    "Caller ID", "Contact Number"), not only a number of something ("Number", "Ticket
    Number"): of the columns headed as phone numbers, such a one is read first."""
    words = _words(header)
    if call_side(header) is not None or set(words.split()) & _LINE_WORDS:
        return True
    return words != "number" and words in _EXACT[Role.PHONE]


# A form's question naming the number a consumer wants left alone ("Your phone number", "Number
# to stop calling", "Number to remove"), and one naming the number that called them ("What
# number called you?", "Number that texted you"): that one is the business's own line, which
# black-box pass N4 found imported in place of the consumer's.
_CONSUMER_PHRASE: Final = re.compile(
    r"\b(?:your|my)\b|\bstop (?:calling|calls?|texting|texts?|contacting|messaging|messages)\b|"
    r"\b(?:not to|never) (?:call|text|contact)\b|"
    r"\bto (?:block|remove|opt out|optout|unsubscribe|stop)\b"
)
_CALLED_THEM: Final = re.compile(
    r"\b(?:called|calling|texted|texting|contacted|contacting|messaged|rang|phoned|dialed|"
    r"dialled) (?:you|u|me)\b|\b(?:that|which|who) (?:called|texted|contacted|rang|phoned|"
    r"messaged|dialed|dialled)\b"
)


def names_consumers_number(header: str) -> bool:
    """Whether a phone header names the number the consumer asks about ("Your phone number
    (the one to stop calling)", "Phone number to stop calling"): of the columns of phone
    numbers, such a one is read first."""
    words = _words(header)
    return bool(_CONSUMER_PHRASE.search(words)) and not names_number_that_called(header)


def names_number_that_called(header: str) -> bool:
    """Whether a form's header names the number that called or texted the consumer ("What
    number called you?", "Number that called you"): the business's line, never read over
    another column of phone numbers."""
    return bool(_CALLED_THEM.search(_words(header)))


# A header naming the business's own line in the first person ("Our number", "Our line", "Our
# DID", "Our SMS number"): a log's or a tracker's column of the line the consumer reached.
_OUR_LINE: Final = re.compile(r"\bour\b")
# Words naming the business's side of a log or tracker ("Business Number", "Company Phone").
# "Business Phone" and "Company Phone" are also a contact's work line in a contact list
# (Outlook's export), so they name the business's own line only by what they hold.
# Also in Spanish, French, German, Italian and Dutch headers, read without accents ("Número de
# la empresa", "Numéro de l'entreprise", "Numero aziendale"): regression check V2 #1 found
# those read over the customers' column, the business's line imported once and 11 duplicates.
_BUSINESS_WORDS: Final = frozenset(
    {"business", "company", "corporate", "merchant", "brand", "empresa", "entreprise",
     "societe", "azienda", "aziendale", "impresa", "firma", "unternehmen", "bedrijf"}
)  # fmt: skip
# What a business's own line is called besides a phone ("Business Number", "Company DID",
# "Business SMS Number", "Company Caller ID", "Número de la empresa").
_OWN_LINE_NOUNS: Final = frozenset(
    {"number", "numbers", "no", "num", "nr", "line", "lines", "did", "dids", "caller",
     "callerid", "sms", "sender", "longcode", "shortcode", "tfn", "numero", "nummer", "linea",
     "ligne", "linha"}
)  # fmt: skip
# German and Dutch write the business's number as one word ("Firmennummer", "Bedrijfsnummer").
_OWN_LINE_COMPOUNDS: Final = frozenset(
    {"firmennummer", "firmennr", "unternehmensnummer", "bedrijfsnummer"}
)
# Words naming the consumer's side ("Customer Number", "Client Phone", "Subscriber #",
# "Número del cliente", "Kundennummer", "Klantnummer"): such a column is read over one naming
# the business's side or one end of a log.
_CUSTOMER_WORDS: Final = frozenset(
    {"customer", "customers", "cust", "consumer", "consumers", "client", "clients",
     "subscriber", "subscribers", "cliente", "clientes", "clienti", "kunde", "kunden",
     "kundennummer", "kundennr", "klant", "klanten", "klantnummer"}
)  # fmt: skip


def names_own_line(header: str) -> bool:
    """Whether a header names the business's own line ("Our number", "Our Phone", "Business
    Number", "Company Line"): never read over another column of phone numbers (black-box T1:
    "Our number" was read over the log's "Customer number", and the business's one line went
    on the list for every consumer; regression check V1 #1: "Business Number" was, too)."""
    words = _words(header)
    if _OUR_LINE.search(words):
        return True
    tokens = set(words.split())
    if tokens & _OWN_LINE_COMPOUNDS:
        return True
    return (
        bool(tokens & _BUSINESS_WORDS)
        and bool(tokens & _OWN_LINE_NOUNS)
        and not tokens & (_LINE_WORDS | _CUSTOMER_WORDS | _FAX)
    )


def names_business_side(header: str) -> bool:
    """Whether a header names the business's side: its own line (:func:`names_own_line`) or
    a business's phone ("Company Phone", "Business Phone"), which in a log is the business's
    own line and in a contact list the contact's work line."""
    if names_own_line(header):
        return True
    tokens = set(_words(header).split())
    return bool(tokens & _BUSINESS_WORDS) and not tokens & (_CUSTOMER_WORDS | _FAX)


def names_customers_side(header: str) -> bool:
    """Whether a header names the consumer's own number ("Customer Number", "Client Phone",
    "Your phone number"), not the business's side."""
    if names_business_side(header):
        return False
    return bool(set(_words(header).split()) & _CUSTOMER_WORDS) or names_consumers_number(header)


# A column holds one or a few numbers over and over, as a business's own line does in a log,
# when its sample has at least this many rows of valid numbers and at most a third as many
# different numbers (regression check V1 #2: one number on every row was imported unsaid).
REPEATED_ROWS: Final = 3


def few_repeated(rows: int, distinct: int) -> bool:
    """Whether ``distinct`` different numbers on ``rows`` rows are one or a few over and over."""
    return rows >= REPEATED_ROWS and distinct * 3 <= rows


def repeats_few_numbers(data: Sequence[Sequence[CellValue]], index: int, code: str) -> bool:
    """Whether a column's valid numbers are one or a few repeated on many rows: a log's column
    of the business's own line, where a list of opt-outs has a different consumer on each."""
    numbers = [phones.normalize(v, code) for v in _values(data, index)]
    found = [(r.phone_code, r.national) for r in numbers if r.ok]
    return few_repeated(len(found), len(set(found)))


def _customers_beside_business(
    headers: Sequence[str], phone_like: Sequence[float], index: int
) -> bool:
    """Whether a column of phone numbers headed as the customer's ("Customer Number",
    "Kundennummer", "Número del cliente"), which alone names an account number, stands beside
    a column of phone numbers naming the business's side ("Business Number", "Firmennummer"):
    then it is the consumers' phone numbers, the business's line beside them (regression check
    V2 #1, #5: the business's line was read instead, or the file refused)."""
    header = headers[index] if index < len(headers) else ""
    if not header or not names_customers_side(header) or phone_like[index] < 0.5:
        return False
    return any(
        i != index and i < len(headers) and f >= 0.5 and names_business_side(headers[i])
        for i, f in enumerate(phone_like)
    )


def _own_line_unread(
    header: str,
    data: Sequence[Sequence[CellValue]],
    index: int,
    phone_like: Sequence[float],
    code: str,
) -> bool:
    """Whether a column headed as the business's own line is left unread unless chosen: "Our
    number" always (the first person says whose it is), "Business Number" beside another
    column of phone numbers or when it holds one or a few numbers over and over (regression
    check V1 #2: an "Our number" column alone was imported without a word)."""
    if not header or not names_own_line(header):
        return False
    if _OUR_LINE.search(_words(header)) or _other_phones(phone_like, index):
        return True
    return repeats_few_numbers(data, index, code)


# Of a column's phone numbers, the share written as a person writes a phone number ("+1 720
# 555 1234", "(720) 555-1234"), above which a header naming other digits ("Customer number")
# is read as naming the customer's phone number: an id or an account number is written bare.
_WRITTEN_SHARE: Final = 0.8


def _other_phones(phone_like: Sequence[float], index: int) -> bool:
    """Whether a column other than ``index`` is mostly phone numbers."""
    return any(f >= 0.5 for i, f in enumerate(phone_like) if i != index)


def _written_as_phones(data: Sequence[Sequence[CellValue]], index: int, code: str) -> bool:
    """Whether nearly every value of a column is a valid phone number written as one: with its
    "+" or in a phone number's groups. "Customer number" of such is the customer's phone
    number; of bare ten-digit numbers, it is most often the customer's id in a CRM."""
    values = _phone_values(data, index)
    written = 0
    for value in values:
        if not isinstance(value, str):
            continue
        text = value.strip()
        if (text.startswith("+") or _WRITTEN_AS_PHONE.fullmatch(text)) and _valid_phone(text, code):
            written += 1
    return bool(values) and written >= _WRITTEN_SHARE * len(values)


# The kind of line a phone header names, and of the address a country header belongs to:
# Outlook's export has Business, Home and Other Country/Region beside Business, Home and
# Mobile Phone, and a mobile is a person's own, as their home is.
_LINE_KINDS: Final = (
    ("home", frozenset({"home", "mobile", "cell", "cellular", "personal", "private", "handy"})),
    ("business", frozenset({"business", "work", "office", "company"})),
    ("other", frozenset({"other"})),
)


def _line_kind(header: str) -> str | None:
    words = set(_words(header).split())
    return next((kind for kind, keys in _LINE_KINDS if words & keys), None)


SAMPLE_ROWS: Final = 200
# A column headed as country codes is read as such when at least this share of its non-empty
# values are codes: the rows whose value is not one are then invalid, each naming its value,
# instead of every row silently taking the default code (a London number read as a US one).
CODE_SHARE: Final = 0.5


def plain_words(text: str) -> str:
    """``text`` casefolded, without accents ("Teléfono" is "telefono", not "tel fono"), its
    punctuation and spaces as single spaces."""
    text = text.casefold()
    if not text.isascii():
        text = "".join(
            c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c)
        )
    return _PUNCT.sub(" ", text).strip()


def _words(text: str) -> str:
    """A header's words ("#" read as "no": "Cell #" is "cell no")."""
    return plain_words(text.replace("#", " no "))


class DateRank(IntEnum):
    """How surely a header names the day a consumer's request was received.

    The days to insertion are counted from that day (47 CFR 64.1200(d)(3)), so a column of
    some other date (a last call, a birthday, the day a row was added) is never read as it:
    the wrong column is false evidence, of a late request or of a timely one.
    """

    OTHER = 0  # names another day ("Last Call Date", "Date of Birth", "Invoice Date")
    BARE = 1  # a date, no more said ("Date", "Timestamp", "When")
    SUBMITTED = 2  # a form's submission ("Submitted", "Date submitted")
    REQUEST = 3  # the request itself ("Opt-out Request Date", "Date received", "DNC date")


# Words saying a column holds dates (of one kind or another).
_DATE_WORDS: Final = frozenset(
    {
        "date", "dates", "dated", "dt", "datetime", "timestamp", "when", "dob", "birthday",
        "datum", "fecha",
    }
)  # fmt: skip
_REQUEST_WORDS: Final = frozenset(
    {
        "request", "requests", "requested", "req", "received", "receipt", "rcvd", "recvd",
        "recd", "optout", "dnc", "unsubscribe", "unsubscribed", "unsubscription", "unsub",
        "revoke", "revoked", "revocation", "revoking", "stop", "stopped", "withdraw",
        "withdrawn", "withdrawal", "withdrew",
        # French, Spanish, German: "Date de la demande", "Reçu le", "Fecha de solicitud",
        # "Eingangsdatum" (accents are read without them).
        "demande", "recu", "recue", "recus", "reception", "desinscription", "opposition",
        "solicitud", "recibido", "recibida", "recepcion", "baja", "eingang", "anfrage",
        "antrag", "widerruf", "abmeldung", "abmelde",
        # "Date de désabonnement", "Date de retrait", "Fecha de desuscripción", "Abgemeldet am"
        # (black-box B16 #5: the first two were read as another day).
        "desabonnement", "desabonne", "desabonnee", "retrait", "desinscrit", "desinscrite",
        "desuscripcion", "desuscrito", "desuscrita", "abgemeldet", "widerrufen",
    }
)  # fmt: skip
_SUBMITTED_WORDS: Final = frozenset({"submitted", "submission", "submit"})
# What else a bare date's header may say: "Date/Time (UTC)", "Received on", "Date (mm/dd/yy)".
_DATE_FILLER: Final = frozenset(
    {
        "time", "day", "on", "at", "of", "the", "utc", "gmt", "est", "edt", "cst", "cdt", "mst",
        "mdt", "pst", "pdt", "et", "ct", "pt", "local", "mm", "dd", "yy", "yyyy", "m", "d", "y",
        "de", "la", "le", "du", "del", "el", "der", "die", "am",
    }
)  # fmt: skip
# Words naming another day: a header with one is never the request date.
_OTHER_DAYS: Final = frozenset(
    {
        "birth", "birthday", "birthdate", "dob", "born", "expiry", "expires", "expire",
        "expired", "expiration", "exp", "created", "create", "creation", "inserted", "insert",
        "insertion", "added", "add", "entered", "entry", "modified", "modify", "modification",
        "updated", "update", "edited", "changed", "called", "contacted", "dialed", "dialled",
        "texted", "messaged", "emailed", "mailed", "sent", "send", "due", "start", "started",
        "starts", "begin", "began", "end", "ended", "ends", "finish", "finished", "payment",
        "payments", "paid", "pay", "billing", "billed", "invoice", "invoiced", "ship",
        "shipped", "shipping", "shipment", "delivery", "delivered", "order", "ordered",
        "orders", "purchase", "purchased", "sale", "sold", "optin", "signup", "subscribe",
        "subscribed", "subscription", "registered", "registration", "enrolled", "enrollment",
        "joined", "activated", "activation", "processed", "completed", "closed", "resolved",
        "effective", "imported", "import", "uploaded", "upload", "loaded", "exported",
        "export", "synced", "deleted", "removed", "scheduled", "appointment", "callback",
        "renewal", "renewed", "hired", "hire", "visit", "visited", "login", "seen", "activity",
        "naissance", "creacion", "nacimiento", "geburt", "erstellung", "anderung",
    }
)  # fmt: skip
# Words naming another day unless the header names the request too: "Last Call Date" is not
# the request date, "Last opt-out date" and "Consent revoked" are.
_OTHER_UNLESS_REQUEST: Final = frozenset(
    {"last", "first", "next", "previous", "prev", "call", "calls", "contact", "consent"}
)
# Words that name a day with no date word ("Received", "Requested", "Submitted"), as does
# "on" or "at" after an event ("Opted out on", "Revoked at"), when every other word of the
# header is one of _SAID_WITH_THEM ("Requested by" names a person, "Revoked" may be a yes/no).
_DATED_ALONE: Final = frozenset(
    {"received", "requested", "submitted", "rcvd", "recvd", "recd", "recu", "recue"}
)
_ON_AT: Final = frozenset({"on", "at"})
# The channel an event's header may name ("Last SMS Unsubscribe", Klaviyo's; black-box B16
# #5): it names no other day, but is no date word either ("SMS Date" is not a bare date).
_CHANNEL_WORDS: Final = frozenset({"sms", "text", "texts", "txt", "mms"})
_SAID_WITH_THEM: Final = (
    _REQUEST_WORDS
    | _SUBMITTED_WORDS
    | _DATE_FILLER
    | _OTHER_DAYS
    | _OTHER_UNLESS_REQUEST
    | _CHANNEL_WORDS
)
_DATE_PHRASES: Final = (
    (re.compile(r"\bdo not (?:call|contact|text|sms)\b"), "dnc"),
    (re.compile(r"\bopt(?:ed|ing)? outs?\b"), "optout"),
    (re.compile(r"\bopt(?:ed|ing)? ins?\b"), "optin"),
    (re.compile(r"\bsign(?:ed)? ups?\b"), "signup"),
)
_DATE_ALIASES: Final = {
    "optedout": "optout",
    "optouts": "optout",
    "optedin": "optin",
    "donotcall": "dnc",
    "donotcontact": "dnc",
}
_CAMEL: Final = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def _date_tokens(text: str) -> set[str]:
    """The words of a header as ranked here: "optOutDate" and "Opted-out date" both give
    {"optout", "date"}, "Do Not Call date" {"dnc", "date"}."""
    return set(_date_words(text))


def _date_words(text: str) -> list[str]:
    """:func:`_date_tokens` in the header's order."""
    # Accents read without them: "Date reçue" is "date recue" (not "date re ue").
    plain = "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))
    words = _words(_CAMEL.sub(" ", plain))
    for pattern, one_word in _DATE_PHRASES:
        words = pattern.sub(one_word, words)
    return [part for token in words.split() for part in _unglued(_DATE_ALIASES.get(token, token))]


def _on_at_after_event(words: Sequence[str]) -> bool:
    """Whether "on" or "at" follows the event it dates ("Opted out on", "Revoked at"): "On
    DNC" says whether a number is on the list, no day (black-box pass N4: a Yes/No "On DNC"
    was read as the request date, each row's "No" not a date)."""
    return any(
        word in _ON_AT and any(w not in _DATE_FILLER for w in words[:i])
        for i, word in enumerate(words)
    )


def _unglued(word: str) -> tuple[str, ...]:
    """ "requestdate" → request, date; "datereceived" → date, received; German
    "Eingangsdatum" → eingang, date (a word ranked here glued to "date" or "datum";
    "update" and "candidate" stay whole)."""
    if word in ("date", "datum"):
        return (word,)
    if word.endswith("date"):
        rest = word[: -len("date")]
    elif word.startswith("date"):
        rest = word[len("date") :]
    elif word.endswith("datum"):
        rest = word[: -len("datum")]
        if rest not in _SAID_WITH_THEM and rest.endswith("s"):
            rest = rest[:-1]  # the joining s of "Eingangsdatum", "Antragsdatum"
    else:
        return (word,)
    rest = _DATE_ALIASES.get(rest, rest)
    return (rest, "date") if rest in _SAID_WITH_THEM and len(rest) > 1 else (word,)


@lru_cache(maxsize=1024)
def request_date_rank(text: str, dated: bool = False) -> DateRank | None:
    """How surely the header ``text`` names the day of the consumer's request; None if it
    names no day at all.

    A header names a day when it has a date word ("Date", "Opt-out dt", "Timestamp",
    "When", "DOB", "Datum", "Fecha") or is only words such as "Received" and "Requested on";
    over a column of dates (``dated``), also when it is only words naming the request ("Opted
    Out", "Unsubscribe Time") or a qualified event ("Last Updated"): a yes/no "Opted Out"
    names no day.
    Then: a word
    naming another day (birth, expiry, created, inserted, added, updated, called, sent, due,
    start, end, payment, ship, order, …) makes it :attr:`DateRank.OTHER`, as does "last",
    "first", "call", "contact" or "consent" unless it also names the request; a word naming
    the request (request, received, opt-out, unsubscribe, revoke, stop, DNC, do not call, …)
    makes it :attr:`DateRank.REQUEST`; "submitted" :attr:`DateRank.SUBMITTED`; a date and
    filler only ("Date", "Date/Time (UTC)") :attr:`DateRank.BARE`; any other word ("Invoice
    Date", "Hire date") names some other day: :attr:`DateRank.OTHER`.
    """
    words = _date_words(text)
    tokens = set(words)
    if not tokens & _DATE_WORDS:
        named = tokens & _DATED_ALONE or _on_at_after_event(words)
        if dated:
            # "Opted Out", "Unsubscribe Time", "Last Updated"; a lone "Created" or "Updated"
            # is left unranked, as before (it may name who did it, not when).
            qualified = tokens & _OTHER_UNLESS_REQUEST and tokens - _OTHER_UNLESS_REQUEST
            named = named or tokens & (_REQUEST_WORDS | _SUBMITTED_WORDS) or qualified
        if not named or not tokens <= _SAID_WITH_THEM:
            return None
    if tokens & _OTHER_DAYS:
        return DateRank.OTHER
    if tokens & _REQUEST_WORDS:
        return DateRank.REQUEST
    if tokens & _OTHER_UNLESS_REQUEST:
        return DateRank.OTHER
    if tokens & _SUBMITTED_WORDS:
        return DateRank.SUBMITTED
    if tokens <= _DATE_WORDS | _DATE_FILLER:
        return DateRank.BARE
    return DateRank.OTHER


@lru_cache(maxsize=1024)
def _header_match(text: str) -> tuple[Role, bool] | None:
    """The role a header names and whether the name matched exactly."""
    words = _words(text)
    if not words:
        return None
    for role, names in _EXACT.items():
        if words in names:
            return role, True
    tokens = set(words.split())
    if "country" in tokens and "code" in tokens:
        return Role.PHONE_CODE, True
    if _is_country_header(words):
        return Role.PHONE_CODE, False
    for role, keys in _WORDS:
        if role is Role.REQUEST_DATE:
            rank = request_date_rank(text)
            if rank is not None:  # a header naming another day names no other role either
                return (role, rank is DateRank.REQUEST) if rank else None
            continue
        if tokens & keys:
            if role is Role.PHONE_CODE and not _names_dialling_code(tokens):
                continue
            if role is Role.PHONE and _not_a_phone_header(words.split()):
                continue
            if role is Role.CAMPAIGN and tokens & _NOT_CAMPAIGN:
                continue  # "Campaign Status" holds "Active", no campaign's name
            return role, False
    return None


def _is_country_header(words: str) -> bool:
    """Whether a header (as :func:`_words` gives it) names the consumer's country: "Country",
    "Country/Region", "Home Country", "Country Name", "Country ISO", "Land", "Pays", "País"."""
    tokens = set(words.split())
    return words in _COUNTRY_NAMES or (
        "country" in tokens and tokens - {"country"} <= _COUNTRY_FILLER
    )


def header_names_a_country(text: str) -> bool:
    """Whether a column header names the consumer's country ("Country", "País"), not a
    dialling code ("Country Code")."""
    return _is_country_header(_words(text))


def header_role_exact(text: str) -> bool:
    """Whether a header is one of the names a role is known by as a whole ("Phone", "Notes"),
    not a phrase holding one of its words ("wrong number", "Reason unknown")."""
    match = _header_match(text)
    return match is not None and match[1]


def header_role(text: str) -> Role | None:
    """The role a column header names (``"Mobile #"`` → phone), or None."""
    match = _header_match(text)
    return match[0] if match else None


@dataclass
class ColumnMapping:
    """Where each field comes from (0-based column indexes) and the values for absent columns.

    ``header_row`` is the sheet row number of the header (None: no header, data from the first
    row). ``headers`` are the header cells as text (or ``Column A``… without a header).
    """

    header_row: int | None = None
    headers: tuple[str, ...] = ()
    phone: int | None = None
    phone_code: int | None = None
    reason: int | None = None
    purpose: int | None = None
    campaign: int | None = None
    scope: int | None = None
    request_date: int | None = None
    default_phone_code: str = "1"
    default_reason: str = ""
    default_purpose: str = ""
    default_scope: Scope = field(default_factory=Scope.global_)
    # Columns whose header names a day by its event alone ("Opted Out", "Last Updated") and
    # whose values are dates: their headers rank as dates (request_date_rank's ``dated``).
    dated: frozenset[int] = frozenset()
    # Columns whose header names a day but whose values are none (see _no_dates): neither read
    # as the request date nor named as another date column.
    undated: frozenset[int] = frozenset()
    # A country column ("Country") beside the dialling-code column read as ``phone_code``
    # ("Country Code"): a row whose code cell is empty takes its code from this one, as it did
    # when the country column was the only one (black-box pass H4: "55 1234 5613, Mexico, "
    # was read as a US number once the Country Code column was preferred).
    country: int | None = None
    # A message or call log whose rows say nothing of which end is the consumer's (no
    # Direction, no "STOP" or "Reply STOP" message): the end read, by its count of different
    # numbers alone, and the other end, for the warning that the choice is a guess.
    guessed_end: tuple[int, int] | None = None
    # A column naming the business's side ("Company Phone", "Sender") passed over for holding
    # one or a few numbers over and over, as the business's own line does, and the column
    # read in its place, for the note that says so (regression check V1 #1).
    own_line_by_count: tuple[int, int] | None = None
    # A headerless column read as the reason because its cells ask to stop (_asking_to_stop):
    # the consumers' messages a "Reply" or "Status" column holds, so a removal is refused on it
    # and an import names its other values as it does theirs (black-box bb16 F4, F5).
    stop_words: int | None = None

    def column(self, role: Role) -> int | None:
        index: int | None = getattr(self, role.value)
        return index

    def set_column(self, role: Role, index: int | None) -> None:
        setattr(self, role.value, index)

    def header_width(self) -> int | None:
        """How many columns the header names (up to its last named one), or None with no
        header row: a cell right of them is in no column anyone named."""
        named = [i for i, header in enumerate(self.headers) if header]
        return named[-1] + 1 if self.header_row and named else None

    def describe(self) -> dict[str, str]:
        """Role → column name, for reports and the CLI's JSON."""
        out: dict[str, str] = {}
        for role in Role:
            index = self.column(role)
            if index is not None:
                out[role.value] = column_name(self.headers, index)
        if self.country is not None:
            out["phone_code_when_empty"] = column_name(self.headers, self.country)
        if stand_ins := campaign_stand_ins(self):
            # The check reads a row's campaign from these when its Campaign cell is empty
            # (black-box pass L3: a Campaign Name column gave rows their campaign unnamed).
            out["campaign_when_empty"] = STAND_IN_SEPARATOR.join(
                column_name(self.headers, i) for i in stand_ins
            )
        return out


# Between the columns of ``campaign_when_empty``, each tried in turn.
STAND_IN_SEPARATOR: Final = ", then "


def campaign_stand_ins(mapping: ColumnMapping) -> list[int]:
    """The columns besides ``mapping.campaign`` headed as a campaign (a Campaign Name beside
    the Campaign ID read), in the sheet's order: a row whose Campaign cell is empty takes its
    campaign from the first of them that is filled, and a filled one must agree with it. None
    when no Campaign column is read, or for the phone or scope column."""
    if mapping.campaign is None:
        return []
    mapped = {mapping.phone, mapping.campaign, mapping.scope}
    return [
        i
        for i, header in enumerate(mapping.headers)
        if i not in mapped and header_role(header) is Role.CAMPAIGN
    ]


def column_letter(index: int) -> str:
    """0 → ``A``, 26 → ``AA``: the letters Excel shows."""
    letters = ""
    index += 1
    while index:
        index, rem = divmod(index - 1, 26)
        letters = chr(65 + rem) + letters
    return letters


def column_said(headers: Sequence[str], index: int) -> str:
    """How a sentence names a column: "column C ('To')", or "column C" with no header."""
    name = headers[index] if index < len(headers) else ""
    return f"column {column_letter(index)}" + (f" ({name!r})" if name else "")


def column_name(headers: Sequence[str], index: int) -> str:
    name = headers[index] if index < len(headers) else ""
    return f"{name} (column {column_letter(index)})" if name else f"column {column_letter(index)}"


class ColumnError(SheetError):
    """A column asked for by name or letter (``--phone-column``) is missing or ambiguous."""


# "column:C", "col:C", "column:3" and "#3": a column by position, whatever the headers say.
_EXPLICIT: Final = re.compile(r"(?:col(?:umn)?\s*:\s*([a-z]{1,3}|\d+)|#\s*(\d+))", re.IGNORECASE)
_LIST_AT_MOST: Final = 20


def _spaced(text: str) -> str:
    return " ".join(text.casefold().split())


def _letter_index(letters: str) -> int:
    index = 0
    for ch in letters.upper():
        index = index * 26 + (ord(ch) - 64)
    return index - 1


def resolve_column(headers: Sequence[str], wanted: str, where: str = "the sheet") -> int:
    """The 0-based column ``wanted`` names, for ``--phone-column``; raises ColumnError.

    In this order: ``column:C`` / ``column:3`` / ``#3`` pick a column by position; a header
    equal to ``wanted`` ignoring case and spacing; a header equal ignoring punctuation too
    (``Phone #`` for ``phone no``); then, only when no header matches, a bare column letter
    (``C``, ``AB``), so ``TEL`` finds the header ``Tel`` and never column 10,958. Two headers
    that match equally are refused, naming their columns. ``headers`` must span the sheet's
    width (as :attr:`ColumnMapping.headers` does); ``where`` names the file in messages.
    """
    text = wanted.strip()
    width = len(headers)
    explicit = _EXPLICIT.fullmatch(text)
    if explicit:
        ref = explicit.group(1) or explicit.group(2)
        index = int(ref) - 1 if ref.isdigit() else _letter_index(ref)
        if 0 <= index < width:
            return index
        shown = f"#{ref}" if ref.isdigit() else ref.upper()
        raise ColumnError(f"{where} has no column {shown}; {_span(width)}.")
    for key_of in (_spaced, _words):
        key = key_of(text)
        if not key:
            continue
        hits = [i for i, header in enumerate(headers) if header and key_of(header) == key]
        if len(hits) == 1:
            return hits[0]
        if hits:
            letters = [column_letter(i) for i in hits]
            raise ColumnError(
                f"{text!r} heads {len(hits)} columns of {where} ({joined(letters)}); "
                f"choose one by letter, as {' or '.join(f'column:{x}' for x in letters[:3])}."
            )
    if text.isascii() and text.isalpha() and len(text) <= 3:
        index = _letter_index(text)
        if index < width:
            return index
    named = [(i, h) for i, h in enumerate(headers) if h]
    if not named:
        raise ColumnError(
            f"{where} has no header row, so {text!r} names no column; "
            f"give it by letter or number instead: {_span(width)}."
        )
    shown = ", ".join(f"{h!r} ({column_letter(i)})" for i, h in named[:_LIST_AT_MOST])
    if len(named) > _LIST_AT_MOST:
        shown += f" and {len(named) - _LIST_AT_MOST} more"
    hint = f"column:{column_letter(named[0][0])} or #{named[0][0] + 1}"
    raise ColumnError(
        f"{where} has no column headed {text!r}; its headers are {shown} "
        f"(a column can also be given by position, as {hint})."
    )


def _span(width: int) -> str:
    if width == 0:
        return "it has no columns"
    if width == 1:
        return "it has one column, A (#1)"
    return f"its columns are A to {column_letter(width - 1)} (#1 to #{width})"


def find_column(headers: Sequence[str], wanted: str) -> int | None:
    """:func:`resolve_column`, with None instead of an error for a missing or ambiguous name."""
    try:
        return resolve_column(headers, wanted)
    except ColumnError:
        return None


def header_texts(cells: Sequence[CellValue], width: int) -> tuple[str, ...]:
    texts = [("" if v is None else str(v).strip()) for v in cells]
    texts += [""] * (width - len(texts))
    return tuple(texts)


def propose_mapping(
    header: Sequence[CellValue] | None,
    sample_rows: Sequence[Row],
    default_phone_code: str = "1",
) -> ColumnMapping:
    """Guess the mapping from header names and the content of ``sample_rows`` (data rows)."""
    data = [cells for _, cells in sample_rows[:SAMPLE_ROWS] if not is_blank(cells)]
    width = max([len(header or ())] + [len(cells) for cells in data])
    headers = header_texts(header or (), width)
    mapping = ColumnMapping(headers=headers, default_phone_code=default_phone_code)
    scores: dict[Role, tuple[float, int]] = {}
    phone_like = [_phone_fraction(data, i, default_phone_code) for i in range(width)]
    mapping.dated = frozenset(_dated_columns(headers, data))
    lines: list[tuple[float, int]] = []
    line_numbers: dict[int, _Numbers] = {}  # a column headed as a phone line: its numbers
    consumers: set[int] = set()  # of those, the ones naming the consumer's number
    codes: list[tuple[float, int]] = []
    undated: set[int] = set()
    candidates: list[tuple[float, int]] = []  # the columns scored as phone numbers
    said_of_job = report_job_columns(headers)
    for index, text in enumerate(headers):
        if index in said_of_job:
            continue
        match = _header_match(text) if text else None
        if match is None and index in mapping.dated:
            rank = request_date_rank(text, dated=True)
            match = (Role.REQUEST_DATE, True) if rank else None
        if match is None and text and call_side(text) is not None and phone_like[index] >= 0.5:
            match = (Role.PHONE, False)  # "From", "To", "DNIS" over a column of phone numbers
        if match is None:
            continue
        role, exact = match
        if (
            role is Role.PHONE
            and _names_other_digits(text)
            and not _names_line(text)
            and (_names_goods(text) or not _written_as_phones(data, index, default_phone_code))
            and not _customers_beside_business(headers, phone_like, index)
        ):
            continue  # "Account Number", "Stock Number": ten digits that are no phone number
        if role is Role.PHONE and _own_line_unread(
            text, data, index, phone_like, default_phone_code
        ):
            continue  # "Our number", "Business Number": the business's line, read when chosen
        if (
            role is Role.PHONE
            and not _says_phone(text)
            and not _holds_a_phone_number(data, index, default_phone_code)
        ):
            continue  # "Number of patients", "Number Off Bends": counts, no phone number
        if role is Role.PHONE_CODE:
            if _code_fraction(data, index) >= CODE_SHARE and not us_state_codes(
                _code_values(data, index)
            ):
                codes.append((_code_rank(text, exact), index))
            # A "Country" column of names no code reads as would fail every row; one of US
            # states ("IN", "DE", "FL") would make Indiana's numbers India's.
            continue
        if role is Role.CAMPAIGN and phone_like[index] >= 0.5:
            continue  # an IVR log's "Campaign Number" is the line called, not a campaign's name
        if role is Role.REQUEST_DATE and _no_dates(text, data, index):
            undated.add(index)
            continue
        score = 2.0 if exact else 1.0
        if role is Role.REQUEST_DATE:
            # The best; of equals, the first.
            score = float(request_date_rank(text, dated=index in mapping.dated) or 0)
        if role is Role.PHONE:
            score += 4 * phone_like[index]
            if phone_like[index] == 0 and any(f > 0.5 for f in phone_like):
                continue  # a "Number" column of ids next to a column of real phone numbers
            # "What phone number called you?" names the business's line: no bonus.
            if (_names_line(text) or names_consumers_number(text)) and not (
                names_number_that_called(text)
            ):
                # "Home Phone" or "Telefonnummer" over phone numbers is read before "Number"
                # or "Ticket Number" over ten-digit numbers, wherever each is; so is one whose
                # numbers are fewer than half its cells, between extensions and notes, if it
                # holds a few (a "Phone 1" of "303-555-0102 x12" cells beside a sparse "Phone 2").
                numbers = _distinct_phones(data, index, default_phone_code)
                if phone_like[index] >= 0.5 or numbers >= 2:
                    score += _LINE_BONUS
                    if names_consumers_number(text):
                        score += _LINE_BONUS  # "Your phone number" over a form's "Phone"
                        consumers.add(index)
                    line_numbers[index] = _written_numbers(data, index, default_phone_code)
            lines.append((score, index))
        if role is Role.PHONE:
            candidates.append((score, index))
        best = scores.get(role)
        if best is None or score > best[0]:
            scores[role] = (score, index)
    if lines:
        read, mapping.guessed_end = _call_log_phone(lines, headers, data, default_phone_code)
        if (ends := _log_end_of_many(lines, read, headers, data, default_phone_code)) is not None:
            read = ends[1]
            mapping.guessed_end = None
            mapping.own_line_by_count = ends
        if read in consumers:
            # A sparser "Your phone number" is still the consumer's, over a fuller "Phone".
            line_numbers = {i: n for i, n in line_numbers.items() if i in consumers}
        side = call_side(headers[read])
        if side is not None:
            # Nor is the other end of a log, whichever holds more numbers.
            line_numbers = {
                i: n for i, n in line_numbers.items() if call_side(headers[i]) in (None, side)
            }
        scores[Role.PHONE] = (0.0, _fuller_line(read, line_numbers, headers))
        if Role.REQUEST_DATE not in scores:
            sent = _message_date(headers, data, scores[Role.PHONE][1])
            if sent is not None:
                scores[Role.REQUEST_DATE] = (0.0, sent)
    for role, (_, index) in scores.items():
        mapping.set_column(role, index)
    mapping.undated = frozenset(undated)
    if mapping.phone is not None:
        _read_the_consumers_side(mapping, candidates, data)
    if mapping.phone is None:
        taken = {i for _, i in scores.values()} | {i for _, i in codes}
        # By content only under a header naming nothing else: an "Account ID" or "Fax"
        # column of ten-digit numbers is not the phone column because no header said so.
        candidates = [
            (f, i)
            for i, f in enumerate(phone_like)
            if i not in taken
            and f >= 0.5
            and (
                not _names_other_digits(headers[i])
                or _customers_beside_business(headers, phone_like, i)
            )
            and not _own_line_unread(headers[i], data, i, phone_like, default_phone_code)
            # Under a header, as an id's "BKG_NUM"; with none, or right of an area-code
            # column ("Area", "Local"), 7-digit numbers are local numbers to refuse by name
            # (and the area-code column or a column of formulas beside them to point to).
            and (
                not headers[i]
                or (i > 0 and is_area_code_header(headers[i - 1]))
                or _holds_a_phone_number(data, i, default_phone_code)
            )
        ]
        if candidates:
            # The column with the most different valid numbers, then the most phone-like, then
            # the first: in an SMS log's "from, to" the business's own number fills "to" (one
            # number, over and over), and a line split by a stray comma leaves one number in a
            # column of its own.
            mapping.phone = max(
                candidates,
                key=lambda c: (_distinct_phones(data, c[1], default_phone_code), c[0], -c[1]),
            )[1]
    # A column of "IN", "DE", "GA" beside Indiana's, Delaware's and Georgia's numbers is one of
    # states, which no code list tells from India, Germany and Gabon (black-box R2 #3).
    codes = [c for c in codes if not _read_as_states(data, c[1], mapping.phone)]
    if codes:
        mapping.phone_code = _code_of_phone(codes, headers, data, mapping.phone)
        if not _is_country_header(_words(headers[mapping.phone_code])):
            countries = [c for c in codes if _is_country_header(_words(headers[c[1]]))]
            if countries:
                mapping.country = _code_of_phone(countries, headers, data, mapping.phone)
    if mapping.phone_code is None:
        mapping.phone_code = _code_column(data, width, mapping)
    return mapping


def _read_the_consumers_side(
    mapping: ColumnMapping,
    candidates: Sequence[tuple[float, int]],
    data: Sequence[Sequence[CellValue]],
) -> None:
    """Of the columns scored as phone numbers (score, index), reads the consumer's side when
    the one chosen names the business's side or one end of a log (regression check V1 #1:
    "Business Number" was read over "Customer Number", and the business's line went on the
    list for every consumer): a column naming the consumer ("Customer Number", "Client
    Phone"), or else one holding at least twice as many different numbers as a column naming
    the business's side ("Company Phone") that holds one or a few over and over. A column so
    passed over for what it holds is kept in :attr:`ColumnMapping.own_line_by_count`."""
    assert mapping.phone is not None
    headers, code, read = mapping.headers, mapping.default_phone_code, mapping.phone
    header = headers[read]
    business = names_business_side(header)
    if business or call_side(header) is not None or names_number_that_called(header):
        rivals = [c for c in candidates if c[1] != read and not names_business_side(headers[c[1]])]
        customers = [c for c in rivals if names_customers_side(headers[c[1]])]
        repeated = repeats_few_numbers(data, read, code)
        if not customers and business and repeated:
            customers = [c for c in rivals if _more_numbers(data, c[1], read, code)]
        if not customers and repeated:
            consumers = [c for c in rivals if _many_written_beside(headers, data, c[1], read, code)]
            if consumers:
                # Not kept as passed over by count: its note counts valid numbers only, and
                # would say the consumers' column holds none.
                mapping.phone = max(consumers, key=lambda c: (c[0], -c[1]))[1]
                mapping.guessed_end = None
                return
        if customers:
            mapping.phone = max(customers, key=lambda c: (c[0], -c[1]))[1]
            mapping.guessed_end = None  # the end of the log is said by a header or the counts
            if repeated:
                mapping.own_line_by_count = (read, mapping.phone)
            return
    # Read over it by its score ("Phone" over "Company Phone"): still said, not offered.
    for _, index in sorted(candidates, key=lambda c: c[1]):
        other = headers[index]
        if (
            index != mapping.phone
            and names_business_side(other)
            and not names_own_line(other)  # staging names those as the business's line
            and repeats_few_numbers(data, index, code)
            and _more_numbers(data, mapping.phone, index, code)
        ):
            mapping.own_line_by_count = (index, mapping.phone)
            return


def _many_written_beside(
    headers: Sequence[str],
    data: Sequence[Sequence[CellValue]],
    index: int,
    line: int,
    code: str,
) -> bool:
    """Whether column ``index``, headed as a phone line ("Phone") or as the other end of the
    log ``line`` is one end of, holds at least twice as many different numbers as written
    (:func:`_written_numbers`: valid or not) as ``line``, a column of one or a few numbers over
    and over, and is no such column itself: the consumers beside the business's own line,
    however many of their numbers are invalid under the default code (black-box B24 F1: a
    dialer's log of UK numbers in "phone" beside its US "caller_id" of one number on every
    row put the business's line on the list, each consumer a duplicate of it)."""
    header, side = headers[index], call_side(headers[line])
    if not _says_phone(header) and call_side(header) in (None, side):
        return False
    if repeats_few_numbers(data, index, code):
        return False
    mine = _written_numbers(data, line, code).written
    return _written_numbers(data, index, code).written >= max(2, 2 * mine)


def _more_numbers(data: Sequence[Sequence[CellValue]], index: int, than: int, code: str) -> bool:
    """Whether column ``index`` holds at least twice as many different valid numbers as column
    ``than`` (and two at least): the consumers beside the business's own line."""
    return _distinct_phones(data, index, code) >= max(2, 2 * _distinct_phones(data, than, code))


# More than any phone header's score otherwise (2 for an exact name, plus 4 at most for its
# content): a header naming a line over a column mostly of phone numbers outranks one naming
# only a number ("Number", "Ticket Number"), however phone-like that one's digits are.
_LINE_BONUS: Final = 8.0


def _code_rank(text: str, exact: bool) -> float:
    """How surely a header names the country code of the phone numbers: a dialling code by
    name ("Country Code", "Dial Code", "Indicatif", 2) or word ("ISD Prefix", 1), above a
    country ("Country", "Country/Region", "Land", 0.5), which most often says where the
    consumer lives."""
    if _is_country_header(_words(text)):
        return 0.5
    return 2.0 if exact else 1.0


def _code_of_phone(
    codes: list[tuple[float, int]],
    headers: Sequence[str],
    data: Sequence[Sequence[CellValue]],
    phone: int | None,
) -> int:
    """Of the columns headed as country codes (rank, index), the one read: one with values
    before an empty one; then the best ranked (a dialling code before a country); then, of
    several countries (Outlook's Business, Home and Other Country/Region), the one of the
    phone column's kind (a Mobile or Home Phone's home), one of no kind, another; then the
    first."""
    kind = _line_kind(headers[phone]) if phone is not None else None

    def fit(index: int) -> int:
        theirs = _line_kind(headers[index])
        if theirs is None:
            return 1
        return 2 if theirs == kind else 0

    return max(codes, key=lambda c: (bool(_code_values(data, c[1])), c[0], fit(c[1]), -c[1]))[1]


def _fuller_line(best: int, line_numbers: dict[int, _Numbers], headers: Sequence[str]) -> int:
    """``best``, or another column headed as a phone line holding at least twice as many
    different numbers (and more than one): a sparse "Alt Phone" or "Phone 2" of clean numbers is
    not read over the "Phone" or "Phone 1" most rows have a number in (black-box pass I2:
    303-555-0101 in "Phone 1" went unread while "Phone 2" held two numbers). The numbers are
    counted as written (:func:`_written_numbers`: a +44 number and one with an extension too),
    and the fuller column must also hold more the check reads: a "Phone 1" whose every number
    has an extension is not read over a "Phone 2" of two clean ones (black-box pass J1).

    Else a column the header puts first ("Phone 1", "Primary Phone", "Mobile" before "Phone 2"
    or "Other Phone", :func:`_line_order`) is read over ``best`` when it reads more numbers,
    or as many and holds as many as written: black-box B2 #7 found Google's "Phone 2 - Value"
    (two numbers) read over "Phone 1 - Value" (two read, four written) for its tidier cells."""
    if best not in line_numbers:
        return best
    fullest = max(line_numbers, key=lambda i: (line_numbers[i].written, -i))
    mine, theirs = line_numbers[best], line_numbers[fullest]
    if theirs.written >= 2 * mine.written and theirs.written > 1 and theirs.read > mine.read:
        return fullest
    order = _line_order(headers[best])
    ahead = [
        i
        for i, n in line_numbers.items()
        if _line_order(headers[i]) < order
        and (n.read > mine.read or (n.read == mine.read and n.written >= mine.written))
    ]
    if ahead:
        return min(
            ahead,
            key=lambda i: (
                _line_order(headers[i]),
                -line_numbers[i].read,
                -line_numbers[i].written,
                i,
            ),
        )
    return best


# Words putting a phone line first or after another: a contacts export's "Phone 1" and
# "Phone 2", Outlook's "Primary Phone" and "Other Phone", "Alt Phone".
_FIRST_LINE: Final = frozenset({"1", "primary", "main", "first", "principal", "preferred"})
_LATER_LINE: Final = frozenset(
    {
        "2", "3", "4", "5", "other", "alt", "alternate", "alternative", "secondary", "second",
        "additional", "backup", "extra", "otro", "otra", "autre", "andere", "weitere",
    }
)  # fmt: skip
_GLUED_ORDINAL: Final = re.compile(r"([a-z]+)([1-9])")


def _line_order(header: str) -> int:
    """Where a phone header puts its line among a contact's: 0 the first ("Phone 1",
    "Primary Phone", "Phone1"), 2 a later one ("Phone 2", "Other Phone", "Alt Phone"), 1 one
    that says neither ("Mobile", "Home Phone"). A line of the business's side is never first:
    Outlook's "Company Main Phone" is not read over a "Mobile Phone" for its "Main"."""
    if names_business_side(header):
        return 2
    words = set()
    for word in _words(header).split():
        glued = _GLUED_ORDINAL.fullmatch(word)
        if glued and glued[1] in _LINE_WORDS | {"number", "no", "nr", "num"}:
            word = glued[2]  # "Phone1", "Tel2"; not "E164"
        words.add(word)
    if words & _LATER_LINE:
        return 2
    return 0 if words & _FIRST_LINE else 1


def _call_log_phone(
    lines: list[tuple[float, int]],
    headers: Sequence[str],
    data: Sequence[Sequence[CellValue]],
    code: str,
) -> tuple[int, tuple[int, int] | None]:
    """Of the columns headed as phone numbers (score, index), the phone column: the best
    scored (of equals, the first), unless it is one end of a call log and the log says the
    consumers are at the other, or says nothing and the other end holds more different
    numbers. With it, when the choice between both ends of a log was by that count alone,
    the column read and the other end (:attr:`ColumnMapping.guessed_end`).

    One end of a call log is the business's own line. The log says which end by its rows
    (:func:`log_consumers_end`): the sender of what was received, the recipient of what was
    sent. When it says nothing, the business's line is taken to be the end with fewer different
    numbers, the same number over and over: the number called in a log of calls received
    ("Caller ID, Number Called"), the caller in a log of calls it made ("Caller ID, Number
    Dialed"; an SMS log's "From, To" of texts sent); of as many, the caller's ("Caller ID",
    "From"), as opt-outs are most often calls and texts received. That is a guess: a business
    sending from a pool of numbers has more of its own than a log has consumers. A column
    naming the number called never wins over one of as many numbers under another header
    ("Phone").
    """
    best = max(lines, key=lambda line: (line[0], -line[1]))[1]
    side = call_side(headers[best])
    if side is None:
        return best, None
    if side is CallSide.CALLED:
        rivals = [line for line in lines if call_side(headers[line[1]]) is not CallSide.CALLED]
    else:
        rivals = [line for line in lines if call_side(headers[line[1]]) is CallSide.CALLED]
    if not rivals:
        return best, None
    rival = max(rivals, key=lambda line: (line[0], -line[1]))[1]
    other = call_side(headers[rival])
    both_ends = other is not None
    if both_ends:
        said = log_consumers_end(headers, data)
        if said is side:
            return best, None
        if said is other:
            return rival, None
    mine, theirs = _distinct_phones(data, best, code), _distinct_phones(data, rival, code)
    read, unread = (
        (rival, best)
        if theirs > mine or (theirs == mine and side is CallSide.CALLED)
        else (best, rival)
    )
    return read, (read, unread) if both_ends else None


def _log_end_of_many(
    lines: Sequence[tuple[float, int]],
    read: int,
    headers: Sequence[str],
    data: Sequence[Sequence[CellValue]],
    code: str,
) -> tuple[int, int] | None:
    """When ``read`` is one end of a log ("Sender", "From") holding one or a few numbers over
    and over and the other end ("Recipient", "To") holds at least twice as many different
    numbers, none over and over: (``read``, the other end), the other end to read in its place,
    as a column of many is read over a "Company Phone" of one (regression check V2 #3: a
    "Sender" of one number on all 12 rows beside 12 recipients, its rows "STOP", imported the
    business's line once and 11 duplicates). Where the ends hold no such difference, the rows'
    direction decides, as :func:`_call_log_phone` does: an inbound log's few consumers texting
    STOP again and again are fewer than twice the business's lines."""
    side = call_side(headers[read])
    if side is None:
        return None
    ends = [i for _, i in lines if call_side(headers[i]) not in (None, side)]
    if not ends or not repeats_few_numbers(data, read, code):
        return None
    other = max(ends, key=lambda i: _distinct_phones(data, i, code))
    if repeats_few_numbers(data, other, code) or not _more_numbers(data, other, read, code):
        return None
    return read, other


# A message's own time in an SMS platform's log (Twilio's "SentDate", "Date Sent",
# "date_created", Bandwidth's "Time"): the day of a consumer's request when the consumer sent
# the message.
_MESSAGE_TIME_WORDS: Final = frozenset({"sent", "send", "created", "create", "time"})


def _message_date(
    headers: Sequence[str], data: Sequence[Sequence[CellValue]], phone: int
) -> int | None:
    """The column of each message's time, to read as the request date, when ``phone`` is the
    sender's end of a message log whose rows say they were received or are opt-out words: on
    such a row the message is the consumer's request (black-box Q1 #3: Twilio's "SentDate" of
    an inbound STOP log was not read, so no row's lateness was checked). A log of messages
    the business sent is not read so: its time is no request."""
    if call_side(headers[phone]) is not CallSide.CALLER:
        return None
    if log_consumers_end(headers, data) is not CallSide.CALLER:
        return None
    for index, header in enumerate(headers):
        tokens = _date_tokens(header) if header else set()
        if (
            tokens & _MESSAGE_TIME_WORDS
            and tokens <= _MESSAGE_TIME_WORDS | _DATE_WORDS | _DATE_FILLER
            and _holds_dates(data, index)
        ):
            return index
    return None


def _dated_columns(headers: Sequence[str], data: Sequence[Sequence[CellValue]]) -> list[int]:
    """Columns whose header names a day only by its event ("Opted Out", "Unsubscribed",
    "Last Updated") and whose values are dates: ranked as dates (a yes/no "Opted Out" is not
    one)."""
    return [
        index
        for index, text in enumerate(headers)
        if text
        and request_date_rank(text) is None
        and request_date_rank(text, dated=True) is not None
        and _holds_dates(data, index)
    ]


def _no_dates(header: str, data: Sequence[Sequence[CellValue]], index: int) -> bool:
    """Whether a column headed as a day holds none: its values are yes/no (a flag, whatever
    its header says: black-box pass N4 found an "On DNC" of Yes and No read as the request
    date, each row's "No" not a date, and the flag's warning lost), or, under a header naming
    the day by an event alone ("Received", "Requested on"), fewer than half are dates."""
    texts = [t for t in (_flag_text(v) for v in _values(data, index)) if t]
    if not texts:
        return False  # an empty column harms nothing: no row's lateness is measured from it
    if sum(t in _YES or t in _NO for t in texts) >= _FLAG_SHARE * len(texts):
        return True
    return not _date_tokens(header) & _DATE_WORDS and not _holds_dates(data, index)


def _holds_dates(data: Sequence[Sequence[CellValue]], index: int) -> bool:
    """Whether at least half a column's values are dates (date cells, or text read as one)."""
    values = [v for v in _values(data, index) if not (isinstance(v, str) and not v.strip())]
    dates = sum(
        1
        for v in values
        if isinstance(v, dt.date) or (isinstance(v, str) and parse_request_date(v).date)
    )
    return bool(values) and dates * 2 >= len(values)


# Header words of columns that hold digits but not phone numbers a person asked about.
_NOT_OTHER_PHONE: Final = _NOT_PHONE | frozenset(
    {"fax", "account", "acct", "zip", "postal", "ssn", "order", "invoice", "ref", "reference"}
)
# Words naming another thing whose number a header may give ("Policy Number", "Member No",
# "Customer #", "Ticket Number"): under a header naming no phone line, its digits are that
# thing's ("Customer Phone" and "Policy Holder Phone" name a line).
_NUMBERED_THINGS: Final = frozenset(
    {
        "policy", "member", "membership", "customer", "cust", "client", "patient", "mrn",
        "student", "employee", "emp", "staff", "badge", "agent", "user", "lead", "ticket",
        "case", "incident", "claim", "loan", "contract", "plan", "group", "transaction", "txn",
        "tracking", "confirmation", "receipt", "booking", "reservation", "voucher", "coupon",
        "card", "pin", "routing", "bank", "iban", "tax", "vat", "ein", "sin", "nin",
        "passport", "license", "licence", "vin", "serial", "sku", "upc", "ean", "isbn", "item",
        "product", "part", "model", "lot", "batch", "record", "row", "seq", "sequence",
        "index", "po", "purchase", "shipment", "package", "parcel", "quote", "job", "project",
        "task", "file", "document", "doc", "check", "cheque", "payment", "store", "branch",
        "unit", "suite", "apartment", "apt", "house", "street", "building", "room",
        "postcode", "zipcode", "plz",
        # The same in Spanish, Portuguese, German, French and Italian headers, which are read
        # without accents ("Número de cliente", "Kundennummer", "Numéro de contrat"): black-box
        # pass I2 found them read as the phone column.
        "cliente", "clientes", "cuenta", "conta", "poliza", "apolice", "socio", "socios",
        "documento", "dni", "nif", "nie", "cif", "rut", "curp", "rfc", "cpf", "cnpj",
        "pedido", "factura", "fatura", "contrato", "expediente", "referencia", "matricula",
        "afiliado", "asociado", "empleado", "paciente", "codigo", "kunde", "kunden",
        "kundennummer", "kundennr", "konto", "kontonummer", "kontonr", "vertrag",
        "vertragsnummer", "vertragsnr", "mitglied", "mitglieds", "mitgliedsnummer",
        "mitgliedsnr", "rechnung", "rechnungsnummer", "rechnungsnr", "bestellung",
        "bestellnummer", "bestellnr", "auftrag", "auftragsnummer", "auftragsnr", "versicherung",
        "versicherungsnummer", "police", "policennummer", "ausweis", "ausweisnummer",
        "steuernummer", "personalnummer", "compte", "contrat", "adherent", "dossier",
        "commande", "facture", "codice", "fiscale", "tessera", "ordine", "fattura",
        "postleitzahl",
        # Their abbreviations and the Italian and Portuguese words (black-box pass J1: "Kd.-Nr.",
        # "Numero di conto", "N. contratto" were offered as phone columns to import).
        "kd", "kdnr", "knr", "kto", "ktonr", "kundenkonto", "vnr", "versnr",
        "mitgl", "mitglnr", "rechnr", "bestnr", "auftrnr", "artnr", "artikel",
        "artikelnummer", "vorgang", "vorgangsnummer", "aktenzeichen", "conto", "contratto",
        "clienti", "utente", "pratica", "polizza", "abbonamento", "partita", "iva", "cta",
        "cte", "clte", "afiliacion", "suministro", "albaran", "cpte", "cpt", "clt",
        "abonnement", "sinistre", "cde", "securite", "siret", "siren", "contribuinte",
        "encomenda",
        # A stock or part number by its register's name (black-box B2 #1: csvkit's "nsn", the
        # NATO Stock Number 1005-00-073-9421, was read as the phone column, every row "too
        # long"), a security's code, a census area's FIPS code.
        "stock", "nsn", "niin", "asin", "gtin", "mpn", "isin", "cusip", "sedol", "ticker",
        "fips", "geoid",
    }
)  # fmt: skip
# Words naming goods or a security by their number (a stock, part, serial or model number, a
# security's code), and the words beside them that keep a header theirs ("Stock Number",
# "Product No", "National Stock Number", "Mfr Part #").
_GOODS: Final = frozenset(
    {
        "stock", "nsn", "niin", "asin", "gtin", "mpn", "isin", "cusip", "sedol", "ticker",
        "security", "securities", "part", "parts", "serial", "sku", "upc", "ean", "isbn",
        "item", "product", "model", "lot", "batch", "vin", "catalog", "catalogue", "artnr",
        "artikel", "artikelnummer",
    }
)  # fmt: skip
_GOODS_FILLER: Final = frozenset(
    {
        "number", "numbers", "no", "nr", "num", "id", "code", "ref", "reference", "symbol",
        "of", "the", "national", "nato", "manufacturer", "mfr", "mfg", "vendor", "supplier",
        "cat", "nummer", "numero", "de",
    }
)  # fmt: skip
# Words naming a record's key ("Key", "Primary Key", "PK", "UID") and the words beside them
# that keep a header one ("Record Key", "Unique Key", "Row UID").
_KEY_WORDS: Final = frozenset({"key", "keys", "pk", "uid", "uuid", "guid"})
_KEY_FILLER: Final = frozenset(
    {
        "primary", "record", "row", "unique", "sort", "lookup", "foreign", "fk", "surrogate",
        "natural", "hash", "db", "database", "internal", "external", "system", "sys", "entry",
        "table", "id", "no", "number", "nr", "num", "of", "the",
    }
)  # fmt: skip
# Words naming an id or a reference: a refusal says such a column names one.
_ID_WORDS: Final = frozenset({"id", "ref", "reference", "referencia"}) | _KEY_WORDS
# Words naming a quantity, an amount, a price or a measure: a market data file's "Open, High,
# Low, Close, Volume", an order's "Quantity" and "Total", a sheet's "Count" or "Amount". Such
# a column's digits are what it counts, never the phone column by content alone (black-box B2
# #1: stock volumes of 8 to 10 digits were read as phone numbers, and 2123456789 imported as a
# US number). A header naming a phone line as well ("Phone 1 - Valor") is read as before, and
# --phone-column reads any column.
_MEASURES: Final = frozenset(
    {
        "volume", "volumes", "vol", "price", "prices", "open", "opening", "high", "low",
        "close", "closing", "adj", "adjusted", "amount", "amounts", "amt", "qty", "qtty",
        "quantity", "quantities", "counts", "total", "totals", "subtotal", "sum", "cost",
        "costs", "balance", "revenue", "revenues", "profit", "salary", "income",
        "fee", "fees", "charge", "charges", "weight", "height", "width", "length", "size",
        "age", "rating", "percent", "percentage", "pct", "duration", "seconds",
        "secs", "minutes", "mins", "hours", "units", "pcs", "pieces", "shares", "inventory",
        "population", "latitude", "longitude", "lat", "lon", "lng", "timestamp", "epoch",
        "usd", "eur", "gbp", "dollars", "budget", "spend", "clicks", "impressions",
        "visits", "downloads",
        # German, Spanish, French, Italian, Portuguese (read without accents).
        "menge", "anzahl", "betrag", "summe", "preis", "gesamt", "kosten", "umsatz",
        "cantidad", "importe", "monto", "precio", "suma", "valor", "quantite", "montant",
        "prix", "somme", "quantita", "importo", "prezzo", "quantidade", "preco",
    }
)  # fmt: skip
# A header alone ("Sales", "Score", "Views") as often heads a list of people as a measure:
# black-box V3 found a "Sales" column of phone numbers refused. Beside them, only these words
# keep a header a measure's ("Total Amount", "Unit Price", "Volume (USD)", "No. of Units").
_MEASURE_FILLER: Final = frozenset(
    {
        "of", "no", "number", "nr", "num", "in", "per", "the", "unit", "avg", "average",
        "mean", "net", "gross", "daily", "monthly", "value", "values", "grand", "sub", "de",
        "del", "la", "le", "du", "des", "der", "die", "das", "pro", "je",
    }
)  # fmt: skip


# Headers of a column saying, row by row, whether the person opted out ("Do Not Call: No").
_FLAG_PHRASES: Final = (
    "do not call", "do not text", "do not sms", "opt out", "opted out", "ne pas appeler",
    "no llamar", "nicht anrufen",
)  # fmt: skip
_FLAG_WORDS: Final = frozenset({"dnc", "optout", "optedout", "unsubscribed"})
# Yes and no as a Canadian, Latin American or German export writes them too (Oui/Non, O/N,
# Sí/No, Ja/Nein; black-box B16 #3: such columns got neither the flag nor the consent warning).
_YES: Final = frozenset({"yes", "y", "true", "1", "x", "oui", "o", "si", "sí", "ja"})
_NO: Final = frozenset({"no", "n", "false", "0", "non", "nein"})
# A column is one of yes/no flags when at least this share of its values say yes or no.
_FLAG_SHARE: Final = 0.8


@dataclass(frozen=True)
class FlagColumn:
    """An unread column saying, row by row, what the consumer asked for: an opt-out flag
    ("Do Not Call: No"), or one saying the consumer opted in, consented or is subscribed
    (``consent``: "SMS Opt-In: Yes", "Subscription Status: subscribed").

    For a consent column, ``opted_in`` and ``opted_out`` count the sampled rows (of ``rows``)
    saying each, with the first value saying it (``in_value``, ``out_value``)."""

    index: int
    consent: bool = False
    rows: int = 0
    opted_in: int = 0
    opted_out: int = 0
    in_value: str = ""
    out_value: str = ""


def opt_out_flag_columns(mapping: ColumnMapping, sample_rows: Sequence[Row]) -> list[FlagColumn]:
    """Unread columns headed as an opt-out flag ("Do Not Call", "DNC", "Opted Out") whose
    values are yes/no and of which some rows (of ``sample_rows``) say no or nothing: every row
    is sent whatever its flag says, which a person who meant only the "yes" rows must hear.
    And unread columns headed as consent ("SMS Opt-In", "Consent to call", "Subscription
    Status") of which some rows say the consumer opted in: those numbers are imported too."""
    used = {mapping.column(role) for role in Role}
    found = []
    for index, header in enumerate(mapping.headers):
        if not header or index in used:
            continue
        values = [cells[index] if index < len(cells) else None for _, cells in sample_rows]
        if consent_header(header):
            consent = _consent_column(index, values)
            if consent is not None:
                found.append(consent)
            continue
        words = _words(header)
        if not (
            any(phrase in f" {words} " for phrase in (f" {p} " for p in _FLAG_PHRASES))
            or set(words.split()) & _FLAG_WORDS
        ):
            continue
        texts = [_flag_text(v) for v in values]
        said = [t for t in texts if t]
        if not said or sum(t in _YES or t in _NO for t in said) < _FLAG_SHARE * len(said):
            continue
        if len(said) < len(texts) or any(t in _NO for t in said):
            found.append(FlagColumn(index))
    return found


# Headers of a column saying the consumer agreed to be contacted ("SMS Opt-In", "Consent to
# call", "Subscription Status", "OK to text", Shopify's "Accepts SMS Marketing", HubSpot's
# "Marketing contact status"), and words that make it an opt-out instead.
_CONSENT_PHRASE: Final = re.compile(
    r"\b(?:opt(?:ed|ing)? ?ins?|ok to (?:call|text|sms|contact)|(?:can|may) (?:call|text|contact)|"
    r"allow(?:s|ed)? (?:calls?|texts?|sms|contact)|"
    r"accept(?:s|ed|ing)? (?:sms|texts?|marketing|calls?|e ?mails?|contact|messages?)|"
    r"marketing contact)\b"
)
# "PEWC" is prior express written consent; French, Spanish, Portuguese and German name consent
# too ("Consentement SMS", "Consentimiento", "SMS-Einwilligung"; black-box B16 #1, #3).
_CONSENT_WORDS: Final = frozenset(
    {"consent", "consented", "consents", "subscribed", "subscription", "subscribe", "permission",
     "pewc", "consentement", "consentimiento", "consentimento", "einwilligung"}
)  # fmt: skip
_NOT_CONSENT: Final = frozenset(
    {
        "out", "optout", "unsubscribed", "unsubscribe", "dnc", "revoke", "revoked",
        "revocation", "withdraw", "withdrawn", "withdrawal", "date", "dt", "timestamp", "time",
        # Consent withdrawn, and its day, in the languages consent is read in ("Consentement
        # retiré", "Consentimiento revocado", "Einwilligung widerrufen", "Fecha de
        # consentimiento"): such a column's "yes" rows are opt-outs, not consumers who agreed.
        "retire", "retiree", "retrait", "revoque", "revoquee", "revocado", "revocada",
        "retirado", "retirada", "widerrufen", "widerruf", "fecha", "datum", "horodatage",
    }
)  # fmt: skip
# What a consent column's cells say: opted in, or not.
# Cells are read without accents ("Sí" is "si").
_OPTED_IN: Final = _YES | frozenset(
    {"opted in", "opt in", "optin", "subscribed", "active", "granted", "given", "consented",
     "agreed", "allowed", "accepted", "marketing contact"}
)  # fmt: skip
_OPTED_OUT: Final = _NO | frozenset(
    {"opted out", "opt out", "optout", "unsubscribed", "inactive", "revoked", "withdrawn",
     "declined", "denied", "refused", "stopped", "stop", "cancelled", "canceled", "none",
     "non marketing contact"}
)  # fmt: skip


def consent_header(header: str) -> bool:
    """Whether ``header`` names consent or an opt-in ("SMS Opt-In", "TCPA Consent", "PEWC",
    "Accepts SMS Marketing"): its "yes" rows are consumers who agreed to be contacted, never
    the ones to keep on an opt-out list (the law's name "TCPA" beside it changes nothing)."""
    words = _words(header)
    tokens = set(words.split())
    if tokens & _NOT_CONSENT or " do not " in f" {words} ":
        return False
    return bool(_CONSENT_PHRASE.search(words) or tokens & _CONSENT_WORDS)


def _consent_column(index: int, values: Sequence[CellValue]) -> FlagColumn | None:
    """A consent column's counts, when its values say opted in or not (at least 80% of those
    given) and some say opted in; else None."""
    texts = [_words(_flag_text(v)) for v in values]  # "Opted-in" reads as "opted in"
    said = [t for t in texts if t]
    yes = [i for i, t in enumerate(texts) if t in _OPTED_IN]
    no = [i for i, t in enumerate(texts) if t in _OPTED_OUT]
    if not yes or len(yes) + len(no) < 0.8 * len(said):
        return None
    out_value = _cell_text(values[no[0]]) if no else ""
    return FlagColumn(
        index, True, len(values), len(yes), len(no), _cell_text(values[yes[0]]), out_value
    )


def _cell_text(value: CellValue) -> str:
    """A cell as the sheet shows it (TRUE, 1), for a warning to quote."""
    if isinstance(value, bool):
        return "TRUE" if value else "FALSE"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return "" if value is None else str(value).strip()


def _flag_text(value: CellValue) -> str:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    return str(value).strip().casefold()


# Headers of a column holding the extension of the number beside it ("Ext", "Ext.", "Phone
# Ext", "Extension", "Durchwahl", "Extensión", "Poste"), with the labels phones.py reads
# after a number in its cell (_EXTENSION_LABELS: an "Nebenstelle" column was not named while
# "Durchwahl" was). Not its "App.", "int.", "interne", "interno" or "anexo": as a header's
# word alone they as often name an app, an interest, an internal code or an attachment, and a
# column of such short numbers beside the phone would be called extensions.
_EXTENSION_WORDS: Final = frozenset(
    {
        "ext",
        "extn",
        "extension",
        "durchwahl",
        "dw",
        "nebenstelle",
        "apparat",
        "poste",
        "ramal",
        "toestel",
        "tst",
        "anknytning",
        "ankn",
    }
)
# An extension as written in its own cell: "204", "x15", "Ext. 15", "#15".
_EXTENSION_VALUE: Final = re.compile(
    r"(?:x|ext\.?|extn\.?|extension)?\s*#?\s*[0-9]{1,6}", re.IGNORECASE
)
_EXTENSION_ROWS_SHOWN: Final = 3


@dataclass(frozen=True)
class ExtensionColumn:
    """A column headed as extensions that no role reads, and its first sampled rows holding
    one beside a phone number (row number, the extension as written)."""

    index: int
    rows: tuple[tuple[int, str], ...]


def extension_columns(mapping: ColumnMapping, sample_rows: Sequence[Row]) -> list[ExtensionColumn]:
    """Columns headed as a phone extension ("Ext", "Extension") holding one beside a number
    of the phone column: they are not read, so each such row's number goes on the list as the
    main line alone, while a number written with its extension in one cell is refused, as the
    line behind it may serve others (black-box pass P3 #6: an "Ext" column of 204 was dropped
    without a word)."""
    if mapping.phone is None:
        return []
    used = {mapping.column(role) for role in Role} | {mapping.country}
    found = []
    for index, header in enumerate(mapping.headers):
        if index in used or not set(_words(header).split()) & _EXTENSION_WORDS:
            continue
        rows = []
        for number, cells in sample_rows:
            if number <= (mapping.header_row or 0) or max(index, mapping.phone) >= len(cells):
                continue
            value, phone = cells[index], cells[mapping.phone]
            if phone is None or _placeholder(phone) or value is None or isinstance(value, bool):
                continue
            text = _cell_text(value).strip()
            if _EXTENSION_VALUE.fullmatch(text) and not _placeholder(value):  # not 0
                rows.append((number, text))
        if rows:
            found.append(ExtensionColumn(index, tuple(rows[:_EXTENSION_ROWS_SHOWN])))
    return found


def extension_sentence(mapping: ColumnMapping, column: ExtensionColumn, kind: str) -> str:
    """The warning on an unread extension column (``kind``: "import" or "removal")."""
    assert mapping.phone is not None
    said = column_said(mapping.headers, column.index)
    phone = column_said(mapping.headers, mapping.phone)
    shown = joined([f"row {n}: {text!r}" for n, text in column.rows])
    verb = "removed from the list" if kind == "removal" else "imported"
    return (
        f"{said[0].upper()}{said[1:]} holds extensions ({shown}"
        f"{', …' if len(column.rows) >= _EXTENSION_ROWS_SHOWN else ''}) and is not read: each "
        f"such row's number in {phone} is {verb} alone, as the whole line, though the line "
        "behind an extension may serve others (a number written with its extension in one "
        "cell is refused for that). Check those rows, take out any that are not for the whole "
        "line, and run the file again."
    )


def fax_columns(headers: Sequence[str]) -> list[str]:
    """The headers naming fax numbers: never proposed as the phone column (see _NOT_PHONE)."""
    found = []
    for header in headers:
        words = _words(header).split()
        if set(words) & _FAX and _not_a_phone_header(words):
            found.append(header)
    return found


def other_phone_columns(
    mapping: ColumnMapping, sample_rows: Sequence[Row], default_phone_code: str = "1"
) -> list[int]:
    """Columns besides ``mapping.phone`` that also hold phone numbers, none of them read.

    A second column of numbers (Home Phone beside Cell Phone) or a second table to the right
    of the first would be dropped without a word, so staging warns about these. A column
    counts when it has no other role, its header (if any) does not name something else (an
    id, a fax, an account), and at least half of its values in ``sample_rows`` (data rows)
    are valid phone numbers, bare or labelled ("Home: 303-555-2403"), placeholders ("N/A")
    left out; or, under a header naming a phone line ("Work Phone", "Phone 1"), when any is,
    or any cell holds a number the check refuses (an extension, a note): such a column's
    numbers would otherwise go unread without a word, however many of its cells hold an
    extension or a note (black-box passes I2, J1).
    """
    if mapping.phone is None:
        return []
    data = [cells for _, cells in sample_rows[:SAMPLE_ROWS] if not is_blank(cells)]
    width = max([len(mapping.headers)] + [len(cells) for cells in data])
    used = {mapping.column(role) for role in Role}
    # Right of the header's columns is no column anyone named: each row holding something
    # there says so itself (a CSV line split by a comma, most often).
    header_width = mapping.header_width()
    found = []
    if mapping.own_line_by_count is not None:
        # Said by its own note (message_log_notes), never offered for import: it is the
        # business's line, as far as the file shows.
        used.add(mapping.own_line_by_count[0])
    for index in range(width if header_width is None else min(width, header_width)):
        if index in used:
            continue
        header = mapping.headers[index] if index < len(mapping.headers) else ""
        if _report_original(mapping, index):
            continue
        if header:
            role = header_role(header)
            if role is not None and role is not Role.PHONE:
                continue
            if _names_other_digits(header):
                continue
        values = _phone_values(data, index)
        if not values:
            continue
        valid = sum(1 for v in values if _reads_as_phone(v, default_phone_code))
        line = bool(header) and _names_line(header)
        if valid * 2 >= len(values) or (line and (valid or _writes_numbers(values))):
            found.append(index)
    return found


def visible_twin(mapping: ColumnMapping, others: Sequence[int], hidden: Set[int]) -> int | None:
    """Of ``others`` (:func:`other_phone_columns`), the first visible column headed as the
    phone column read is, when that one is hidden in the file: of two equal "Phone" columns,
    the one the person sees holds the numbers they mean (black-box bb13 F6: the hidden column
    B of old numbers was read over the visible C of new ones). None otherwise."""
    read = mapping.phone
    if read is None or read not in hidden:
        return None
    headers = mapping.headers
    name = plain_words(headers[read]) if read < len(headers) else ""
    for index in others:
        header = headers[index] if index < len(headers) else ""
        if index not in hidden and plain_words(header) == name:
            return index
    return None


def holds_phones(sample_rows: Sequence[Row], index: int, default_phone_code: str = "1") -> bool:
    """Whether column ``index`` gives any phone number in ``sample_rows``, read or refused by
    the check (an extension, a note): a column named with --phone-column that gives none is
    most likely the wrong one (black-box B30 F5)."""
    data = [cells for _, cells in sample_rows[:SAMPLE_ROWS] if not is_blank(cells)]
    values = _phone_values(data, index)
    return any(_reads_as_phone(v, default_phone_code) for v in values) or _writes_numbers(values)


# A DNC Desk report's Rows sheet (app.core.job_report.ROW_COLUMNS begins with these): the
# number its job made of each row beside the cell as the row's file had it; the sheet's first
# seven columns, which tell a report; and the columns saying what its
# job did with each row, none of them a field of the row (black-box B12 #6: the Damage note was
# read as the reason of a report with no Reason column).
_REPORT_PHONES: Final = ("Original value", "Normalized number")
REPORT_HEADER_START: Final = (
    "Source row",
    *_REPORT_PHONES,
    "Country code",
    "Scope",
    "Outcome",
    "Message",
)
_REPORT_JOB_COLUMNS: Final = frozenset(
    {"Source row", "Outcome", "Message", "Damage note", "Business days to insertion", "Late"}
)


def report_job_columns(headers: Sequence[str]) -> frozenset[int]:
    """The columns of a DNC Desk report's Rows sheet saying what its job did (see above), or
    none when ``headers`` are not such a sheet's."""
    names = [" ".join(h.split()) for h in headers]
    if tuple(names[: len(REPORT_HEADER_START)]) != REPORT_HEADER_START:
        return frozenset()
    return frozenset(i for i, name in enumerate(names) if name in _REPORT_JOB_COLUMNS)


def _report_original(mapping: ColumnMapping, index: int) -> bool:
    """Whether column ``index`` is a DNC Desk report's Original value read beside its
    Normalized number: an import reads it on the rows corrected there (app.core.own_reports),
    so it is no column of numbers left unread (black-box B12 #2)."""
    headers, phone = mapping.headers, mapping.phone
    return (
        phone is not None
        and phone == index + 1
        and phone < len(headers)
        and (headers[index], headers[phone]) == _REPORT_PHONES
    )


def _writes_numbers(values: Sequence[CellValue]) -> bool:
    """Whether some text cell holds a phone number, read or refused by the check ("303-619-4100
    x123", "ext. 5", "call 303 555 0104 after 5"): under a phone-line header, a column of
    them is phone numbers, each row of which would be refused (black-box pass J1: a "Phone 1"
    whose every number had an extension went unnamed beside the "Phone 2" read)."""
    return any(isinstance(v, str) and holds_phone_number(v) for v in values)


def refused_phone_columns(
    columns: Sequence[int], sample_rows: Sequence[Row], default_phone_code: str = "1"
) -> list[int]:
    """Of ``columns`` (named by :func:`other_phone_columns`), those whose numbers are mostly
    refused as written (fewer than half read as valid numbers, some cells holding one with an
    extension or a note): running the file on them alone would make their rows invalid.

    A column of bare numbers the check refuses (Iranian mobiles "09120000001" under code 1) is
    not one: nothing is written beside them to take away, and black-box B2 #2 found such a
    column told to "put each number alone in its cell"."""
    data = [cells for _, cells in sample_rows[:SAMPLE_ROWS] if not is_blank(cells)]
    found = []
    for index in columns:
        values = _phone_values(data, index)
        valid = sum(1 for v in values if _reads_as_phone(v, default_phone_code))
        if values and valid * 2 < len(values) and any(_written_beside(v) for v in values):
            found.append(index)
    return found


# What a phone number alone is written with: its digits, spaces, "+", "-", ".", "(" and ")".
_BARE_NUMBER: Final = re.compile(r"[\d\s+\-.()]+")
_MOST_DIGITS: Final = 15  # E.164's longest number: more is two numbers in one cell


def _written_beside(value: CellValue) -> bool:
    """Whether a cell holds a phone number with something else written in it: an extension
    ("303-555-0102 x12", "#22"), a note ("call 303 555 0104 after 5"), a second number."""
    if not isinstance(value, str) or not holds_phone_number(value):
        return False
    text = value.strip()
    return not _BARE_NUMBER.fullmatch(text) or sum(c.isdigit() for c in text) > _MOST_DIGITS


def skipped_phone_columns(
    headers: Sequence[str], sample_rows: Sequence[Row], default_phone_code: str = "1"
) -> list[int]:
    """Columns whose header names other digits ("Customer Number", "Member No", "Account
    Number") though at least half their values are valid phone numbers: never read as the
    phone column unless chosen, so a refusal for want of one names them (black-box pass H4:
    "No column of phone numbers was found" over a "Customer Number" column of phone numbers).
    A "Volume" or "Total" of phone numbers is named too: black-box V3 found a file refused
    naming only its "Agent Line" beside one, so the user was sent to the wrong column.

    A column is named when at least half its values are valid phone numbers and more of its
    numbers are valid than not: four phone numbers among four part codes are a sparse column
    of phone numbers, but four valid among eight ten-digit volumes are what any ten-digit
    numbers give (a random one is a valid US number about half the time)."""
    data = [cells for _, cells in sample_rows[:SAMPLE_ROWS] if not is_blank(cells)]
    found = []
    for index, header in enumerate(headers):
        if not header or not _names_other_digits(header):
            continue
        if set(_words(header).split()) & _FAX:
            continue  # a fax column has its own sentence (fax_columns)
        values = _values(data, index)
        valid = [_reads_as_phone(v, default_phone_code) for v in values]
        refused = sum(
            1 for v, ok in zip(values, valid, strict=True) if not ok and looks_like_phone(v)
        )
        if values and sum(valid) * 2 >= len(values) and sum(valid) > refused:
            found.append(index)
    return found


def _valid_phone(value: CellValue, code: str) -> bool:
    # As the check reads it: "+44 …" names its own code whatever the default.
    return phones.normalize(value, code).ok or phones.normalize(value, None).ok


def _labelled_phone(value: CellValue, code: str) -> bool:
    """A text cell that is not a bare number but that the check reads as a valid one: a
    number with a label ("Mobile: 303-555-2401", "303-555-2401 (cell)", "Home 303-555-2403"),
    read without it by :func:`phones.normalize`. An id or order number written with a word
    ("Order 3035552405", "ID 3035552406", "#3035552406", "Zip 80202") is refused there, so
    it is not one."""
    return (
        isinstance(value, str)
        and not looks_like_phone(value)
        and holds_phone_number(value)  # cheap: a run of 7+ digits, before the full reading
        and _valid_phone(value, code)
    )


def _reads_as_phone(value: CellValue, code: str) -> bool:
    """A valid phone number as the check reads it, bare or labelled."""
    if looks_like_phone(value):
        return _valid_phone(value, code)
    return _labelled_phone(value, code)


def _values(data: Sequence[Sequence[CellValue]], index: int) -> list[CellValue]:
    return [cells[index] for cells in data if index < len(cells) and cells[index] is not None]


# What a phone cell holds when the person gave no number: not counted for or against a column
# being one of phone numbers (black-box pass I2: a "Phone" column of four numbers and six "N/A"
# lost to an "Alt Phone" column of two, and was not named).
_PLACEHOLDERS: Final = frozenset(
    {
        "n/a", "na", "n.a.", "n.a", "n a", "none", "null", "nil", "unknown", "unk", "tbd",
        "tba", "no phone", "no number", "not available", "not provided", "missing", "blank",
        "empty", "x", "xx", "xxx", "nan", "nat", "<na>",
    }
)  # fmt: skip


def _placeholder(value: CellValue) -> bool:
    """Whether a cell stands for "no number": empty, "N/A", "-", "none", 0, "000-000-0000"."""
    if isinstance(value, bool):
        return False
    if isinstance(value, int | float):
        return value == 0
    if not isinstance(value, str):
        return False
    text = value.strip().lower()
    if not text or text in _PLACEHOLDERS or not any(c.isalnum() for c in text):
        return True
    if any(c.isalpha() for c in text):
        return False
    digits = {c for c in text if c.isdigit()}
    return digits == {"0"}


def _phone_values(data: Sequence[Sequence[CellValue]], index: int) -> list[CellValue]:
    """A column's values that give a number or something else, placeholders left out."""
    return [v for v in _values(data, index) if not _placeholder(v)]


# A whole number grouped in threes by dots, as a European locale writes an amount
# ("200.000.000", "1.234.567"); a phone number so written begins with its trunk 0 or "+", or
# ends in a group of four ("212.555.0147").
_DOTTED_THOUSANDS: Final = re.compile(r"-?[1-9]\d{0,2}(?:\.\d{3})+")


def _phone_shaped(value: CellValue, code: str) -> bool:
    """Whether a cell looks like a phone number to the finder: phone-shaped, and not an amount
    grouped in threes by dots unless the check reads it under ``code`` (black-box B24 F6: a
    csvkit locale test's "200.000.000", valid only as a French or Australian number, made its
    column the phone column and the file one invalid row, where files of no phone numbers are
    refused as having none)."""
    if not looks_like_phone(value):
        return False
    if isinstance(value, str) and _DOTTED_THOUSANDS.fullmatch(value.strip()):
        return phones.normalize(value, code).ok
    return True


def _phone_fraction(data: Sequence[Sequence[CellValue]], index: int, code: str) -> float:
    """Share of a column that looks like phone numbers, plus a bonus for valid ones.

    The bonus tells a column of real numbers from one of ten-digit account ids. A number with
    a label ("Mobile: 303-555-2401", "303-555-2402 (cell)") counts when the check reads it as
    a valid number (:func:`_labelled_phone`): a file of such cells with no header naming
    them has a phone column all the same, and words around an id or an order number still
    make it no phone number. Placeholders ("N/A", "-") count neither way.
    """
    values = _phone_values(data, index)
    if not values:
        return 0.0
    shaped = [v for v in values if _phone_shaped(v, code)]
    valid = sum(1 for v in shaped if phones.normalize(v, code).ok)
    labelled = sum(1 for v in values if _labelled_phone(v, code))
    return (len(shaped) + labelled + 0.5 * (valid + labelled)) / (1.5 * len(values))


def _says_phone(header: str) -> bool:
    """Whether a header names a phone line or the consumer's number ("Phone", "Cell #",
    "Caller ID", "Your number"), not only a number ("Number", "BKG_NUM") or a call log's end
    ("From", "To"), which hold phone numbers only when their values are some."""
    if call_side(header) is not None and not set(_words(header).split()) & _SAYS_NUMBER:
        return False
    return _names_line(header) or names_consumers_number(header)


# Written as a phone number is: "303-555-0100", "(303) 555 0100", "555.0100", a local number
# with its dash, whatever the country code makes of it.
_WRITTEN_AS_PHONE: Final = re.compile(r"(?:\(\d{3}\)\s?|\d{3}[-. ])?\d{3}[-. ]\d{4}")
# Values tried under every supported country code: enough to find a list of another country's
# numbers, few enough that a wide sheet of counts stays quick.
_OTHER_CODE_VALUES: Final = 20
_NATIONAL_DIGITS: Final = 9


def _holds_a_phone_number(data: Sequence[Sequence[CellValue]], index: int, code: str) -> bool:
    """Whether a column's sample has at least one phone number: one the check reads (under
    ``code`` or its own "+"), one written as a phone number ("927-1234", "303-555-0100 x12"),
    or one valid under another supported country code ("020 7946 0958" under +1).

    A column with none, under a header that does not say phone, is no column of phone numbers
    (black-box pass P3 #8: a booking number "BKG_NUM" of 7-digit ids and a count "Number Off
    Bends" were read as the phone column, every row invalid, where a file of no phone numbers
    is refused as having none)."""
    values = _phone_values(data, index)
    if any(_reads_as_phone(v, code) for v in values):
        return True
    texts = [v.strip() for v in values if isinstance(v, str)]
    if any(_WRITTEN_AS_PHONE.search(t) for t in texts):
        return True
    for value in [v for v in values if _phone_shaped(v, code)][:_OTHER_CODE_VALUES]:
        digits = _digits(value)
        # Another country's number is written with its trunk 0 or with its code: a shorter
        # run of digits is an id most countries' plans would take (Germany's takes 4894831).
        if len(digits) < _NATIONAL_DIGITS and not digits.startswith("0"):
            continue
        if phones.normalize(f"+{digits}", None).ok:
            return True
        for other in phones.SUPPORTED_PHONE_CODES:
            if other != code and phones.normalize(digits, other).ok:
                return True
    return False


def _distinct_phones(data: Sequence[Sequence[CellValue]], index: int, code: str) -> int:
    """How many different valid phone numbers a column holds (the sample's)."""
    found = set()
    for value in _values(data, index):
        result = phones.normalize(value, code)
        if result.ok:
            found.add((result.phone_code, result.national))
    return len(found)


@dataclass(frozen=True)
class _Numbers:
    """A column's different phone numbers: as written, and of those, the ones the check reads."""

    written: int
    read: int


def _written_numbers(data: Sequence[Sequence[CellValue]], index: int, code: str) -> _Numbers:
    """How many different phone numbers a column's sample holds as a person wrote them: valid
    under ``code`` or their own ("+44 20 7946 0958"), or refused for what is written with them
    ("303-555-2104 x22"). Black-box pass N4: a "Phone" of five such beside a "Mobile" of two
    counted three, and the sparse Mobile was read; the +44 number and the one with an
    extension then went unread (the check refuses the extension by name when it is read)."""
    valid: set[tuple[str, str]] = set()
    refused: set[str] = set()
    for value in _phone_values(data, index):
        result = phones.normalize(value, code)
        if not result.ok:
            result = phones.normalize(value, None)
        if result.ok:
            valid.add((result.phone_code, result.national))
        elif isinstance(value, str) and holds_phone_number(value):
            refused.add("".join(c for c in value if c.isdigit()))
    return _Numbers(len(valid) + len(refused), len(valid))


def _code_values(data: Sequence[Sequence[CellValue]], index: int) -> list[CellValue]:
    """A column's non-empty values (an empty cell, or one of spaces, takes the default code)."""
    return [v for v in _values(data, index) if not (isinstance(v, str) and not v.strip())]


def _code_fraction(data: Sequence[Sequence[CellValue]], index: int) -> float:
    values = _code_values(data, index)
    if not values:
        return 1.0  # an empty column of codes harms nothing: the default applies
    return sum(1 for v in values if phones.normalize_code(v) is not None) / len(values)


# A column headed as country codes is one of US states when at least this share of its
# non-empty values are two-letter state codes (and some are no country's, or many differ).
_STATES_SHARE: Final = 2 / 3
_STATES_DISTINCT: Final = 4


def us_state_codes(values: Sequence[CellValue]) -> tuple[str, ...]:
    """The distinct US state codes among ``values`` (those no country has first), when they
    make the column one of US states; else ().

    Many state codes are some country's ISO code too ("IN" India, "DE" Germany, "GA" Gabon),
    so a column of them read as countries quietly dials Indiana's numbers as India's
    (black-box pass J1). It is one of states when at least two thirds of its values are state
    codes and either some are no country's code ("FL", "NY", "TX", "NM") or at least four
    different ones are given: a country column ("US", "GB", "MX", "CA", "DE") holds too few.
    Fewer, all countries' too ("IN", "DE", "GA"), are told apart by the phone numbers beside
    them (:class:`StateNumbers`).
    """
    if not values:
        return ()
    states = [code for code in map(_two_letters, values) if code in US_STATES]
    if len(states) < _STATES_SHARE * len(values):
        return ()
    distinct = list(dict.fromkeys(states))
    only_states = [code for code in distinct if phones.normalize_code(code) is None]
    if not only_states and len(distinct) < _STATES_DISTINCT:
        return ()
    return tuple(only_states + [code for code in distinct if code not in only_states])


def _two_letters(value: CellValue) -> str:
    """A cell's two-letter code in capitals ("fl", " NY "), or "" for any other cell."""
    if not isinstance(value, str):
        return ""
    text = value.strip()
    return text.upper() if len(text) == 2 and text.isascii() and text.isalpha() else ""


# A column mostly of state codes that are all some country's code too ("IN", "DE", "GA"), too
# few different ones for us_state_codes, is told apart by the phone numbers beside it.
@dataclass(frozen=True)
class StateNumbers:
    """What the phone numbers beside a column of US state codes that are countries' codes too
    say of it (black-box pass R2 #3: "IN", "DE", "GA" beside Indiana's, Delaware's and
    Georgia's numbers were read as India, Germany and Gabon).

    Each sampled row with a bare number (one written with its own +code is read under it
    whatever the column says) counts once: as a valid US number and no valid number of the
    country the code names (``us_only``: the country's reading would refuse it); as a valid
    number both ways whose area code is in the state the code names (``home``: 317 beside
    "IN"), or in another or an unknown one (``both``, their rows); or as the country's only
    (``abroad_only``). Numbers valid neither way say nothing.
    """

    index: int
    codes: tuple[str, ...]  # the column's distinct state codes, in order
    us_only: int = 0
    home: int = 0
    abroad_only: int = 0
    both: tuple[int, ...] = ()
    # The sampled rows valid both ways (home or not), and the first of them: its row, state
    # code, and number read as a US number and as the country's ("+1 317-555-6221", "+91 …").
    two_ways: tuple[int, ...] = ()
    example: tuple[int, str, str, str] | None = None

    @property
    def states(self) -> bool:
        """The numbers say states: each is a US number the country could not have, or one in
        the very state its code names (317 beside "IN"); and no number is the country's only.
        One number in its state is no proof (an Indian 317… is no rarity), one the country
        could not have is: its reading would refuse the row anyway."""
        if self.abroad_only or self.both:
            return False
        return self.us_only > 0 or self.home >= _HOME_PROOF

    @property
    def doubt(self) -> bool:
        """The numbers read both ways and say neither: some are valid US numbers and valid
        numbers of the country, and none is that country's only."""
        return not self.states and not self.abroad_only and bool(self.both or self.home)


_HOME_PROOF: Final = 2


def state_numbers(mapping: ColumnMapping, sample_rows: Sequence[Row]) -> StateNumbers | None:
    """:class:`StateNumbers` of the column read for codes or countries, when it is mostly of
    US state codes that are some country's code too; else None."""
    if mapping.phone is None:
        return None
    rows = [r for r in sample_rows[:SAMPLE_ROWS] if not is_blank(r[1])]
    for index in (mapping.phone_code, mapping.country):
        if index is not None and (found := _state_numbers(rows, index, mapping.phone)):
            return found
    return None


def _state_numbers(rows: Sequence[Row], index: int, phone: int) -> StateNumbers | None:
    """:class:`StateNumbers` of column ``index`` beside the phone column, or None when it is no
    column mostly of state codes, or one :func:`us_state_codes` already takes for states."""
    values = _code_values([cells for _, cells in rows], index)
    states = [code for code in map(_two_letters, values) if code in US_STATES]
    if not states or len(states) < _STATES_SHARE * len(values) or us_state_codes(values):
        return None
    us_only = home = abroad_only = 0
    both: list[int] = []
    two_ways: list[int] = []
    example: tuple[int, str, str, str] | None = None
    for number, cells in rows:
        state = _two_letters(cells[index]) if index < len(cells) else ""
        value = cells[phone] if phone < len(cells) else None
        country = phones.normalize_code(state) if state in US_STATES else None
        if country is None or country == "1" or value is None:
            continue  # no state code, or a +1 territory's: the same numbers either way
        if isinstance(value, str) and value.lstrip().startswith(("+", "00")):
            continue  # read under its own code, whatever the column says
        us = phones.normalize(value, "1")
        abroad = phones.normalize(value, country)
        if us.ok and not abroad.ok:
            us_only += 1
        elif abroad.ok and not us.ok:
            abroad_only += 1
        elif us.ok:
            two_ways.append(number)
            if example is None:
                n = us.national
                as_us = f"+1 {n[:3]} {n[3:6]} {n[6:]}"
                example = (
                    number,
                    state,
                    as_us,
                    phones.format_for_display(abroad.national, country),
                )
            if nanp_state(us.national) == state:
                home += 1
            else:
                both.append(number)
    return StateNumbers(
        index,
        tuple(dict.fromkeys(states)),
        us_only=us_only,
        home=home,
        abroad_only=abroad_only,
        both=tuple(both),
        two_ways=tuple(two_ways),
        example=example,
    )


def _read_as_states(data: Sequence[Sequence[CellValue]], index: int, phone: int | None) -> bool:
    """Whether the phone numbers beside column ``index`` make it one of US states."""
    if phone is None:
        return False
    found = _state_numbers(list(enumerate(data)), index, phone)
    return found is not None and found.states


def nanp_state(national: str) -> str:
    """The USPS code of the state or territory a valid US number's area code (and exchange)
    is in, by phonenumbers' geocoder ("Indiana", "Chicago, IL"); "" when it names none, or
    the geocoder's data is not installed (phonenumberslite)."""
    try:
        from phonenumbers import geocoder, parse  # ~0.4 s: only state-code columns ask
    except ImportError:
        return ""
    place = geocoder.description_for_number(parse(f"+1{national}"), "en")
    if ", " in place:
        code = place.rsplit(", ", 1)[1].strip()
        return code if code in US_STATES else ""
    return _STATE_BY_NAME.get(plain_words(place), "")


_STATE_BY_NAME: Final = {plain_words(name): code for code, name in US_STATES.items()}


@dataclass(frozen=True)
class UnreadCodeColumn:
    """A column headed as country codes that was not read as such (too few values are codes)."""

    index: int
    codes: int  # how many of its non-empty sampled values read as codes
    values: int  # how many non-empty values were sampled
    # An area-code column ("Area Code", "NPA") beside a phone column of 7-digit numbers: how
    # many of the phone column's sampled values are such local numbers (0: a country code).
    local: int = 0
    # A column under a header naming no role ("Nation", "Residence") whose values are country
    # names: the first few of them naming another country than the default code's.
    countries: tuple[str, ...] = ()
    # A column headed as country codes whose values are US state codes (see us_state_codes):
    # the distinct codes, those no country has first.
    states: tuple[str, ...] = ()
    # Whether those codes are all countries' too, and the phone numbers beside them made the
    # column one of states (StateNumbers.states).
    states_by_numbers: bool = False
    # A column headed as country codes: the first few distinct values no code or country name
    # reads, each with the sheet row it is first in, so that the note can name what to correct
    # (black-box B7 #1: "only 3 of its 8 values are country codes" named none of the others).
    unknown: tuple[tuple[str, int], ...] = ()


def unread_code_columns(
    mapping: ColumnMapping, sample_rows: Sequence[Row], code: str = "1"
) -> list[UnreadCodeColumn]:
    """Columns whose header names the country-code role but that the mapping leaves out,
    columns of country names under a header naming no role, and area-code columns beside a
    phone column of numbers without their area code.

    A country-code column only when no column is read for codes: every row then takes the
    default code (unless its number names its own), so staging says which column and why (one
    of US state codes, :func:`us_state_codes` or by its numbers :class:`StateNumbers`, is
    never read). So
    does a column of country names no header names (:func:`_country_names`), when some name
    another country than the default ``code``'s: it is not read on a guess, as a column of
    names is often where the consumer lives, not the line's country. An
    area code is never put in front of a number here (which column holds it is a guess): each
    such row is invalid, and staging names the column to combine with the numbers.
    """
    numbered = [(n, cells) for n, cells in sample_rows[:SAMPLE_ROWS] if not is_blank(cells)]
    data = [cells for _, cells in numbered]
    used = {mapping.column(role) for role in Role}
    default = phones.normalize_code(code) or code
    found = []
    for index, text in enumerate(mapping.headers):
        if mapping.phone_code is not None or mapping.country is not None:
            break
        if index in used:
            continue
        role = header_role(text) if text else None
        values = _code_values(data, index)
        if role is Role.PHONE_CODE:
            codes = sum(1 for v in values if phones.normalize_code(v) is not None)
            unknown = _unknown_codes(numbered, index, mapping.header_row or 0)
            states = us_state_codes(values)
            by_numbers = False
            if not states and _read_as_states(data, index, mapping.phone):
                states = tuple(
                    dict.fromkeys(c for c in map(_two_letters, values) if c in US_STATES)
                )
                by_numbers = True
            found.append(
                UnreadCodeColumn(
                    index,
                    codes,
                    len(values),
                    states=states,
                    states_by_numbers=by_numbers,
                    unknown=unknown,
                )
            )
        elif role is None and (countries := _country_names(values, default)):
            found.append(UnreadCodeColumn(index, len(values), len(values), countries=countries))
    return found + _area_code_columns(mapping, data, used)


# Words in a header naming the rows' country, as a column no role reads may be headed.
_COUNTRY_WORDS: Final = frozenset({"country", "countries", "nation", "region"})


def country_headed_columns(mapping: ColumnMapping) -> dict[int, bool]:
    """The columns the mapping leaves unread whose header names the rows' country (as a
    country-code or country column is headed, or with the word country, nation or region),
    when no column is read for codes, each with whether only "region" names it (most often a
    part of one country: "Sales Region"); in sheet order."""
    if mapping.phone_code is not None or mapping.country is not None:
        return {}
    used = {mapping.column(role) for role in Role}
    found = {}
    for index, text in enumerate(mapping.headers):
        if not text or index in used:
            continue
        if header_role(text) is Role.PHONE_CODE or header_names_a_country(text):
            found[index] = False
        elif words := set(plain_words(text).split()) & _COUNTRY_WORDS:
            found[index] = words == {"region"}
    return found


def unread_country_column(mapping: ColumnMapping) -> int | None:
    """The first of :func:`country_headed_columns` not named by "region" alone; None when
    there is none (or a column is read for codes).

    A row of such a file refused as a US number that reads as another country's is that
    row's own country's to give, in that column's cell, not one --phone-code's for the whole
    file (black-box B7 #1): see :func:`app.core.sheet_damage.other_country_note`."""
    found = country_headed_columns(mapping)
    return next((index for index, by_region in found.items() if not by_region), None)


# The distinct values not read as codes that an UnreadCodeColumn keeps (the first row of each).
UNKNOWN_CODES_KEPT: Final = 5


def _unknown_codes(rows: Sequence[Row], index: int, header_row: int) -> tuple[tuple[str, int], ...]:
    """The first :data:`UNKNOWN_CODES_KEPT` distinct values of column ``index`` below the
    header that no code or country name reads, as the cell shows them, each with the first
    row it is in."""
    found: dict[str, int] = {}
    for number, cells in rows:
        if number <= header_row or index >= len(cells):
            continue
        value = cells[index]
        if value is None or isinstance(value, bool) or phones.normalize_code(value) is not None:
            continue
        if isinstance(value, float) and value.is_integer():
            text = str(int(value))
        else:
            text = value.strip() if isinstance(value, str) else str(value)
        if not text or text in found:
            continue
        found[text] = number
        if len(found) == UNKNOWN_CODES_KEPT:
            break
    return tuple(found.items())


# A column is taken for country names when this share of its values are (and a few at least).
_NAMES_SHARE: Final = 0.8
_NAMES_AT_LEAST: Final = 3
_NAMES_SHOWN: Final = 3
_STATE_NAMES: Final = frozenset(
    plain_words(name)
    for name in (*(n for c, n in US_STATES.items() if c not in US_TERRITORIES), *DC_NAMES)
)


def _country_names(values: Sequence[CellValue], code: str) -> tuple[str, ...]:
    """The first few distinct values naming another country than ``code``'s, when the values
    are country names ("Mexico", "United States", "USA"); else ().

    Names only, of three letters or more: two-letter values are most often US states ("CA",
    "GA", "IN", "DE" are ISO codes of Canada, Gabon, India and Germany too), and digits a
    count or an id as often as a dialling code. A name whose accented letters the file's
    encoding turned into '?' ("M?xico") counts as the one name it fits (re-test M1 #1). Fewer
    than three values count when every one of them is a name (re-test M1 #2: a daily batch of
    two rows, "Mexico" and "USA", went unsaid).
    """
    if not values:
        return ()
    named = 0
    others: list[str] = []
    for value in values:
        if not isinstance(value, str):
            continue
        text = value.strip()
        if len(text) < 3 or not any(c.isalpha() for c in text) or any(c.isdigit() for c in text):
            continue
        found = phones.normalize_code(text)
        if found is None and (name := name_with_lost_letters(text)) is not None:
            found = phones.normalize_code(name)
        if found is None or plain_words(text) in _STATE_NAMES:
            continue  # a "State" column's "Texas" is read as code 1, but names no country
        named += 1
        if found != code and text not in others:
            others.append(text)
    few = len(values) < _NAMES_AT_LEAST
    if not others or named < (len(values) if few else _NAMES_SHARE * len(values)):
        return ()
    return tuple(others[:_NAMES_SHOWN])


_AREA_HEADERS: Final = _split(
    "area code|areacode|area|area cd|npa|area code npa|npa area code|ac|a c|area cde"
)


def is_area_code_header(text: str) -> bool:
    """Whether a header names a column of area codes ("Area Code", "NPA", "area_cd")."""
    return bool(text) and _words(text) in _AREA_HEADERS


_AREA_CODE: Final = re.compile(r"[2-9]\d\d")
_LOCAL_DIGITS: Final = 7


def _area_code_columns(
    mapping: ColumnMapping, data: Sequence[Sequence[CellValue]], used: set[int | None]
) -> list[UnreadCodeColumn]:
    """Unread columns headed as area codes, mostly of three-digit area codes, beside a phone
    column some of whose numbers have seven digits (a local number wanting its area code)."""
    if mapping.phone is None:
        return []
    local = sum(1 for v in _values(data, mapping.phone) if len(_digits(v)) == _LOCAL_DIGITS)
    if not local:
        return []
    found = []
    for index, text in enumerate(mapping.headers):
        if index in used or not (
            is_area_code_header(text) or _area_under_phone_header(mapping, index)
        ):
            continue
        values = _code_values(data, index)
        codes = sum(1 for v in values if _AREA_CODE.fullmatch(_digits(v)))
        if codes and codes * 2 >= len(values):
            found.append(UnreadCodeColumn(index, codes, len(values), local))
    return found


def _area_under_phone_header(mapping: ColumnMapping, index: int) -> bool:
    """Whether the column just left of the phone column is under its header: a "Phone" merged
    over both (a reader gives each cell the merge's text; a CSV saved from it leaves the
    second header empty) or written over each, as US contact lists put the area code and the
    local number side by side (black-box B26 F4: every row refused as 7 digits, no advice).
    Its values must still be mostly area codes (see :func:`_area_code_columns`)."""
    phone = mapping.phone
    if phone is None or index != phone - 1:
        return False
    header = mapping.headers[index].strip() if index < len(mapping.headers) else ""
    over_phone = mapping.headers[phone].strip() if phone < len(mapping.headers) else ""
    if not header or header_role(header) is not Role.PHONE:
        return False
    return not over_phone or over_phone.casefold() == header.casefold()


def _digits(value: CellValue) -> str:
    if isinstance(value, bool) or not isinstance(value, str | int | float):
        return ""
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else ""
    return "".join(c for c in str(value) if c.isdigit())


@dataclass(frozen=True)
class DateColumn:
    """A column whose header names a date, not read as the request date."""

    index: int
    rank: DateRank


def other_date_columns(mapping: ColumnMapping) -> list[DateColumn]:
    """Columns besides ``mapping.request_date`` (and the other mapped ones) whose headers name
    a date, for a warning.

    :func:`propose_mapping` reads the column :func:`request_date_rank` ranks highest (of
    equals, the first, as for every role). Of the rest, one ranked as high as the one read is
    a tie a person should settle; one ranked lower (a bare "Date" beside "Opt-out date") could
    still be the request date; one of :attr:`DateRank.OTHER` is never read, and with no
    request-date column read says why no row's lateness was checked.
    """
    used = {mapping.column(role) for role in Role}
    found = []
    for index, text in enumerate(mapping.headers):
        if not text or index in used or index in mapping.undated:
            continue
        rank = request_date_rank(text, dated=index in mapping.dated)
        if rank is not None:
            found.append(DateColumn(index, rank))
    return found


def _code_column(
    data: Sequence[Sequence[CellValue]], width: int, mapping: ColumnMapping
) -> int | None:
    """An unnamed column of country codes (1, 44, +61…) beside the phone column, if any."""
    if mapping.phone is None:
        return None
    used = {mapping.column(role) for role in Role}
    for index in range(width):
        if index in used or mapping.headers[index]:
            continue
        values = [cells[index] for cells in data if index < len(cells) and cells[index] is not None]
        if len(values) >= 2 and all(_short_code(v) for v in values):
            return index
    return None


def _short_code(value: CellValue) -> bool:
    if isinstance(value, bool):
        return False
    if isinstance(value, str) and not value.strip().lstrip("+").isdigit():
        return False
    if not isinstance(value, str | int | float):
        return False
    code = phones.normalize_code(value)
    return code is not None and code in phones.SUPPORTED_PHONE_CODES


def propose_from_preview(preview: Sequence[Row], default_phone_code: str = "1") -> ColumnMapping:
    """Header detection plus :func:`propose_mapping` over the first rows of a sheet."""
    from app.core.sheet_header import detect_header

    return propose_under_header(preview, detect_header(preview), default_phone_code)


def propose_under_header(
    preview: Sequence[Row],
    header_row: int | None,
    default_phone_code: str = "1",
    *,
    chosen: bool = False,
) -> ColumnMapping:
    """:func:`propose_mapping` with row ``header_row`` of ``preview`` as the header (None: the
    sheet has none, every row is data). ``chosen``: the user picked that row as the header
    (the wizard's header row, a column named in it), so its cells name the columns even when
    it is shaped as a title over wider rows."""
    from app.core.sheet_header import title_over_data

    header: Sequence[CellValue] | None = None
    if header_row is not None:
        header = next((cells for number, cells in preview if number == header_row), None)
        if not chosen and header is not None and title_over_data((header_row, header), preview):
            header = None  # a title over headerless rows names none of their columns
    data = [row for row in preview if header_row is None or row[0] > header_row]
    mapping = propose_mapping(header, data, default_phone_code)
    mapping.header_row = header_row
    if header is None and mapping.reason is None and mapping.phone is not None:
        mapping.reason = mapping.stop_words = _asking_to_stop(data, mapping)
    return mapping


# Of a column with no header, the share of its filled cells asking to stop ("stop", "STOP
# please", "unsubscribe") that makes it the rows' reasons.
_STOP_SHARE: Final = 0.5


def _asking_to_stop(data: Sequence[Row], mapping: ColumnMapping) -> int | None:
    """The column of headerless rows whose text asks to stop, read as their reason (None if
    none): with no header to name it, it went unread and the entries lost their reasons (fxD,
    session 33: "Kim,201-555-0310,stop" under a title). Of two, the one holding more."""
    read = {index for role in Role if (index := mapping.column(role)) is not None}
    rows = [cells for _, cells in data[:SAMPLE_ROWS]]
    best: tuple[int, int] | None = None
    for index in range(max((len(cells) for cells in rows), default=0)):
        if index in read:
            continue
        texts = [
            cells[index]
            for cells in rows
            if index < len(cells) and cells[index] is not None and str(cells[index]).strip()
        ]
        if not texts or any(not isinstance(v, str) or looks_like_phone(v) for v in texts):
            continue
        asking = sum(asks_to_stop(plain_words(v)) for v in texts if isinstance(v, str))
        if asking / len(texts) >= _STOP_SHARE and (best is None or asking > best[0]):
            best = (asking, index)
    return best[1] if best else None
