"""Per-row scope from spreadsheet cells: a scope column, a campaign column, or the default.

Scope cells are written the way the CLI takes them (``global``, ``campaign:1001``,
``purpose:Collections``) or the way people write them (``0``, ``1001``, ``Global``, a campaign's
name). Campaign cells hold a campaign's id or name, or the service's own ``campaign_id`` codes:
``0`` (global) and ``-1`` (purpose; the row's Purpose cell names it), or the words a scope cell
takes for those (``global``, ``all``, ``all campaigns``, ``purpose``, ``purpose:TEXT``). A
campaign on the connection named as such a word makes the cell mean two scopes: its row is
invalid, saying how to write each (``campaign:NAME`` is always the campaign). A number cell a
spreadsheet or an older export forced to text with a leading apostrophe (``'-1``) reads as the
number, and so does a whole number written as a float's text (``1001.0``), as the float cell
1001.0 reads as ``1001``. Text a CSV export guarded against formulas with a leading apostrophe
(``'+Sales``, ``'@home``) reads as the text it was (:func:`cell_text`). A scope cell
``campaign`` takes the campaign from the row's Campaign column (the checker does that;
:func:`names_no_campaign` tells it when).

Campaign names resolve through the ``campaign_lookup`` the caller fetched from the service
(name → id, matched without regard to case, surrounding spaces or invisible characters). When
that lookup is a :class:`CampaignDirectory` (the service's whole campaign list, fetched once per
job), campaign ids are checked against it too, so a row naming a campaign the connection does
not have is invalid before anything is sent. A name several campaigns have (as matched) names
none of them, and its row is invalid naming their ids, unless exactly one of them is spelled
exactly as the cell (case included): :func:`ids_named`, the rule ``--scope campaign:NAME``
follows too. Taking one of them would put the entry in a campaign nobody chose. For the same
reason digits that are one campaign's id and another campaign's name name neither (write
``campaign:ID`` for the id), unless their column's header says which it holds (a Campaign Name
column's digits are a name, a Campaign ID column's an id: :func:`campaign_column_holds`), and
digits no campaign has as its id name the campaign named so.
"""

from __future__ import annotations

import ast
import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping
from enum import Enum
from typing import Final, Protocol

from app.api.scope import GLOBAL_CAMPAIGN_ID, PURPOSE_CAMPAIGN_ID, Scope, ScopeError
from app.core.sheet_types import CellValue, error_value
from app.core.wording import joined
from app.core.xlsx_safe import guard_quoted

# Words a scope or campaign cell says for global (as "0" does), in any case.
_GLOBAL_WORDS: Final = ("global", "all", "all campaigns")
# A DNC Desk report's Scope cell, read back as DNC Desk writes it (black-box B12 #5): a
# removal's every-purpose scope (job_report.EVERY_PURPOSE writes these words), and an import
# row's scope followed by the purpose its insert carried (job_report.scope_shown: "global,
# purpose 'Fundraising'", the purpose as Python's repr writes a text, in single or double
# quotes).
EVERY_PURPOSE_WRITTEN: Final = "purpose (every purpose)"
_WITH_PURPOSE: Final = re.compile(
    r"(?is)(.*?),\s*purpose\s+('(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\")"
)


def scope_and_purpose(text: str) -> tuple[str, str] | None:
    """A Scope cell written as a DNC Desk report writes a scope with the purpose its row's
    insert carried (``global, purpose 'Fundraising'``, ``campaign:1001, purpose 'Sales'``):
    (the scope's text, the purpose), or None for any other text."""
    found = _WITH_PURPOSE.fullmatch(text.strip())
    if found is None or not found[1].strip():
        return None
    try:
        purpose = ast.literal_eval(found[2])
    except (SyntaxError, ValueError):
        return None
    if not isinstance(purpose, str) or not purpose.strip():
        return None
    return found[1].strip(), purpose


def purpose_written(value: CellValue) -> str:
    """The purpose a report's Scope cell names after its scope (:func:`scope_and_purpose`), or
    "" when the cell names none so."""
    said = scope_and_purpose(_text(value))
    return "" if said is None else said[1]


class _Campaign(Protocol):
    @property
    def id(self) -> str: ...

    @property
    def name(self) -> str: ...


class CampaignDirectory(Mapping[str, str]):
    """The campaigns of one connection, as fetched for a job: name → id, plus every id.

    Pass it as ``campaign_lookup``: names resolve as with a plain mapping, and ids in scope and
    campaign cells must be in :attr:`ids`. :meth:`unchecked` stands for a job checked with no
    campaign list to check against (an offline dry run): ids then pass unchecked, and the
    staging says so.

    As a mapping it has one id per distinct name (the last campaign listed with it);
    :attr:`named` keeps every campaign, so two campaigns of one name are told apart by the
    :class:`ScopeResolver`, which refuses the name instead of taking one of them.
    """

    def __init__(self, campaigns: Iterable[_Campaign] = (), *, checked: bool = True) -> None:
        items = list(campaigns)
        self.checked = checked
        self.ids: frozenset[str] = frozenset(str(c.id).strip() for c in items)
        # (name, id) of every campaign with a name, in the service's order.
        self.named: tuple[tuple[str, str], ...] = tuple(
            (c.name, str(c.id).strip()) for c in items if c.name
        )
        self._names = dict(self.named)
        # id -> name of each inactive campaign: an import into one is warned of (the dialer does
        # not call from it, and `health` counts its entries as a finding).
        self.inactive: dict[str, str] = {
            str(c.id).strip(): c.name for c in items if not getattr(c, "active", True)
        }

    @classmethod
    def unchecked(cls) -> CampaignDirectory:
        return cls(checked=False)

    def ids_named(self, text: str) -> list[str]:
        """The ids of the campaigns ``text`` names (see :func:`ids_named`)."""
        key = text.casefold()
        spelled = ((visible_text(name), cid) for name, cid in self.named)
        return ids_named([c for c in spelled if c[0].casefold() == key], text)

    def __getitem__(self, name: str) -> str:
        return self._names[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)

    def __repr__(self) -> str:
        state = f"{len(self.ids)} campaigns" if self.checked else "unchecked"
        return f"CampaignDirectory({state})"


def campaign_ids_checked(campaign_lookup: Mapping[str, str] | None) -> bool:
    """Whether ids are checked with this lookup (only a checked :class:`CampaignDirectory`)."""
    return isinstance(campaign_lookup, CampaignDirectory) and campaign_lookup.checked


# How a scope or campaign cell naming a campaign by name ends its reason without a campaign list
# (a dry run with no connection): staging counts such rows for its note on what went unchecked.
UNRESOLVED_OFFLINE: Final = "cannot be resolved without the service's campaign list"


class Holds(Enum):
    """What a campaign column's header says its cells hold (:func:`campaign_column_holds`)."""

    IDS = "ids"  # "Campaign ID", "Campaign #": digits are the campaign's id
    NAMES = "names"  # "Campaign Name": digits are the name of the campaign named so
    EITHER = "either"  # "Campaign": digits one campaign has as its id, another as its name, say two


# Header words saying a campaign column holds ids, or names (black-box B21 F1).
_ID_WORDS: Final = frozenset(
    {"id", "ids", "no", "nr", "num", "number", "code", "key", "campaignid", "campaignno"}
)
_NAME_WORDS: Final = frozenset({"name", "names", "title", "campaignname"})


def campaign_column_holds(header: str) -> Holds:
    """What a campaign column holds, as its header says: ids, names, or (saying neither, or
    both: "Campaign Name/ID") either."""
    words = set(re.findall(r"[a-z0-9]+", header.casefold().replace("#", " no ")))
    ids, names = bool(words & _ID_WORDS), bool(words & _NAME_WORDS)
    if ids == names:
        return Holds.EITHER
    return Holds.IDS if ids else Holds.NAMES


class ScopeResolver:
    """Turns scope and campaign cells into :class:`Scope`, caching each distinct cell.

    Cells are taken as :func:`cell_text` read them (the checker reads each cell once): a CSV
    export's formula-guard apostrophe is already off, and an apostrophe left is the text's own.
    """

    def __init__(self, campaign_lookup: Mapping[str, str] | None = None) -> None:
        named: Iterable[tuple[str, str]] = (
            campaign_lookup.named
            if isinstance(campaign_lookup, CampaignDirectory)
            else (campaign_lookup or {}).items()
        )
        # Matched name -> (name as the service spells it, id) of every campaign that has it.
        self._names: dict[str, list[tuple[str, str]]] = {}
        for name, cid in named:
            spelled = visible_text(name)
            self._names.setdefault(spelled.casefold(), []).append((spelled, str(cid).strip()))
        self._ids: frozenset[str] | None = None
        self._offline = False
        if isinstance(campaign_lookup, CampaignDirectory):
            self._ids = campaign_lookup.ids if campaign_lookup.checked else None
            self._offline = not campaign_lookup.checked
        # Whether a name no campaign has is known to be no campaign's (a connection's list).
        self._names_known = bool(self._names) or self._ids is not None
        self._scope_cache: dict[str, Scope | str] = {}
        self._campaign_cache: dict[tuple[str, Holds], Scope | str] = {}

    def scope_cell(self, value: CellValue) -> Scope | str:
        """The scope a scope cell names, or a reason it names none."""
        text = _text(value)
        found = self._scope_cache.get(text)
        if found is None:
            found = self._parse_scope(text)
            self._scope_cache[text] = found
        return found

    def campaign_cell(self, value: CellValue, holds: Holds = Holds.EITHER) -> Scope | str:
        """The campaign scope a campaign cell (id or name) names, or a reason it names none.
        ``holds``: what its column holds, as its header says (:func:`campaign_column_holds`),
        which tells what digits there are."""
        text = _text(value)
        found = self._campaign_cache.get((text, holds))
        if found is None:
            if error_value(text):
                found = _error_said(text, "campaign")
            else:
                found = self._parse_campaign(text, in_scope=False, holds=holds)
            self._campaign_cache[text, holds] = found
        return found

    def word_unchecked(self, value: CellValue) -> str:
        """A campaign cell's note when it is read as a scope word (``All``, ``global``,
        ``purpose:TEXT``) with no campaign list (an offline dry run), else "".

        With a connection, a campaign named as the word makes the row invalid
        (:meth:`_word`), which cannot be ruled out offline: the row is taken as the word says,
        as a campaign id is taken unchecked, and says so (black-box B21 F9: an offline dry run
        counted a Campaign Name cell 'All' global without a word, and the run refused it).
        """
        if not self._offline:
            return ""
        text = _text(value)
        # The service's codes 0 and -1 too: a run refuses them beside a campaign so named
        # (:meth:`_code`), and offline they went global or purpose without a word (FXH).
        coded = text in (GLOBAL_CAMPAIGN_ID, PURPOSE_CAMPAIGN_ID)
        word = self._code(text) if coded else self._word(text)
        if not isinstance(word, Scope):
            return ""
        return (
            f"{text!r} is read as {word.label()}, but not checked against the service's "
            f"campaigns (no connection): a run with a connection refuses the row if a campaign "
            f"is named {text!r}"
        )

    def _parse_scope(self, text: str) -> Scope | str:
        if error_value(text):
            return _error_said(text, "scope")
        low = text.casefold()
        if low in (GLOBAL_CAMPAIGN_ID, PURPOSE_CAMPAIGN_ID):
            return self._code(text)
        if low == EVERY_PURPOSE_WRITTEN:
            return Scope.purpose("")
        if (said := scope_and_purpose(text)) is not None:
            # The purpose is the row's, not its scope's: the check's caller takes it (see
            # app.core.own_reports); the scope is read as any Scope cell.
            return self._parse_scope(said[0])
        if low.startswith("campaign:"):
            return self._parse_campaign(text, in_scope=True)
        if low == "campaign":
            return (
                "'campaign' names no campaign: write campaign:ID or the campaign's name, "
                "or put its id or name in a Campaign column"
            )
        word = self._word(text)
        if word is not None:
            return word
        if text.isascii() and text.isdigit():
            return self._digits(text, in_scope=True, explicit=False)
        try:
            return self._known(Scope.parse(text), in_scope=True)
        except ScopeError:
            pass
        by_name = self._named(text)
        if by_name is not None:
            return by_name
        if (grouped := _grouped_id(text)) is not None:
            return grouped
        if self._offline:
            return (
                f"{text!r} is not global, campaign:ID or purpose:TEXT, and campaign names "
                f"{UNRESOLVED_OFFLINE}"
            )
        if self._names_known:
            # Most likely meant as a campaign's name: say that none has it, not to write one.
            return f"{text!r} is not a scope and no campaign on this connection has that name"
        return f"{text!r} is not a scope; use global, campaign:ID, purpose:TEXT or a campaign name"

    def _parse_campaign(
        self, text: str, *, in_scope: bool, holds: Holds = Holds.EITHER
    ) -> Scope | str:
        # Messages follow the field they are reported under: "scope: campaign name 'x' …" but
        # "campaign: name 'x' …", so the word is not said twice.
        explicit = text.casefold().startswith("campaign:")
        if explicit:
            text = text.split(":", 1)[1].strip()
        if not in_scope and text in (GLOBAL_CAMPAIGN_ID, PURPOSE_CAMPAIGN_ID):
            # The service's own campaign_id codes, as a dialer's export writes them.
            return self._code(text)
        if text.isascii() and text.isdigit() and text != "0":
            # A Campaign Name column's digits are a name (black-box B21 F1: a cell '12' beside
            # campaign 12 meant campaign 17, named '12'); digits no campaign is named are read
            # as an id, as in any campaign column, and campaign:ID is always the id.
            as_name = holds is Holds.NAMES and not explicit
            named = self._named(text) if as_name else None
            if named is not None:
                return named
            if as_name and self._offline:
                # Whether a campaign has these digits as its name is not known offline: read
                # as an id, the dry run named a campaign the run would not take (FXH).
                return f"name {text!r} {UNRESOLVED_OFFLINE} (its column holds names)"
            return self._digits(text, in_scope=in_scope, explicit=explicit or holds is Holds.IDS)
        if not in_scope and not explicit:
            # A campaign column says global or a purpose in the words a scope column takes
            # ("campaign:" before a word makes it a campaign's name).
            word = self._word(text)
            if word is not None:
                return word
        by_name = self._named(text)
        if by_name is not None:
            return by_name
        if (grouped := _grouped_id(text)) is not None:
            return grouped
        if self._offline:
            noun = "campaign name" if in_scope else "name"
            return f"{noun} {text!r} {UNRESOLVED_OFFLINE}"
        if not self._names_known:
            return f"{text!r} is not a campaign id, and no campaign names were loaded"
        return f"no campaign is named {text!r}"

    def _word(self, text: str) -> Scope | str | None:
        """The scope a scope or campaign cell's word names (``global``, ``all``, ``all
        campaigns``, ``purpose``, ``purpose:TEXT``, any case), or why the row is invalid, or
        None when ``text`` is no such word.

        A campaign on the connection named as the word makes the cell say two things: taking
        either could put an entry in the wrong scope (a global entry for a file meaning one
        campaign, which blocks every campaign, or one campaign's entry for a file meaning
        global, which leaves the number callable on the others), so the row is invalid,
        naming both readings and how to write each.
        """
        low = text.casefold()
        if low in _GLOBAL_WORDS:
            scope = Scope.global_()
            meaning, written = "the global scope", "0"
        elif low == "purpose":
            scope = Scope.purpose("")
            meaning, written = "a purpose scope", "-1 with the purpose in a Purpose column"
        elif low.startswith("purpose:"):
            purpose = text.split(":", 1)[1].strip()
            if not purpose:
                return "a purpose scope needs its purpose text, e.g. purpose:Collections"
            scope = Scope.purpose(purpose)
            meaning = f"the purpose {purpose!r}"
            written = "-1 with the purpose in a Purpose column"
        else:
            return None
        return self._unless_named(text, scope, meaning, written)

    def _code(self, text: str) -> Scope | str:
        """The scope the service's own campaign_id code ``0`` (global) or ``-1`` (purpose)
        names, or why not: a campaign named so makes the cell say two things, as a word does
        (:meth:`_word`; black-box B21 F3: "0" went global beside a campaign named '0')."""
        if text == GLOBAL_CAMPAIGN_ID:
            return self._unless_named(text, Scope.global_(), "the global scope", "global")
        return self._unless_named(
            text,
            Scope.purpose(""),
            "a purpose scope",
            "purpose with the purpose in a Purpose column",
        )

    def _digits(self, text: str, *, in_scope: bool, explicit: bool) -> Scope | str:
        """The campaign a cell's digits name, or why they name no one campaign.

        Digits are a campaign's id, but a campaign may be named with digits (a campaign
        '2024', or one named '12' beside campaign 12: black-box B21 F1, where a Campaign Name
        cell '12' put the entry in campaign 12, not in campaign 17 named so). Digits no
        campaign has as its id are the name of the campaign named so; digits that are one
        campaign's id and another's name say two campaigns, and taking either could put the
        entry in (or remove it from) a campaign nobody chose, so the row is invalid naming
        both, unless written ``campaign:ID`` or in a Campaign ID column (``explicit``), which
        is the id (a Campaign Name column's digits are read as a name before they get here).
        """
        others = [c for c in self._names.get(text, ()) if c[1] != text]
        if not others:
            return self._known(Scope.campaign(text), in_scope=in_scope)
        if self._ids is not None and text not in self._ids:
            by_name = self._named(text)
            assert by_name is not None  # others are named so
            return by_name
        if explicit:
            return Scope.campaign(text)
        return _two_readings(
            text,
            f"campaign {text} (its id)",
            f"campaign:{text} for campaign {text}",
            _ids_of(others),
            f"the one named {text!r}",
        )

    def _unless_named(self, text: str, scope: Scope, meaning: str, written: str) -> Scope | str:
        """``scope``, which ``text`` means, unless a campaign on the connection is named
        ``text``: then why the cell is invalid, naming both readings and how to write each."""
        alike = _ids_of(self._names.get(text.casefold(), ()))
        if not alike:
            return scope
        return _two_readings(text, meaning, f"{written} for {meaning}", alike, "the campaign")

    def _named(self, text: str) -> Scope | str | None:
        """The campaign named ``text`` (matched without regard to case, surrounding spaces or
        invisible characters), why the name names no one campaign, or None when no campaign
        has it.

        Among several campaigns of that name, the one spelled exactly as ``text`` (case
        included) is taken when it is the only one so spelled, as ``--scope campaign:NAME``
        takes it (:func:`ids_named`); otherwise the name is refused naming their ids: taking
        one would put the entry in a campaign nobody chose.
        """
        alike = self._names.get(text.casefold())
        if not alike:
            return None
        ids = ids_named(alike, text)
        if len(ids) > 1:
            return (
                f"{text!r} names {len(ids)} campaigns on this connection "
                f"(ids {joined(ids)}); write campaign:ID for the one meant"
            )
        try:
            return Scope.campaign(ids[0])
        except ScopeError as exc:
            return str(exc)

    def _known(self, scope: Scope, *, in_scope: bool) -> Scope | str:
        """``scope``, or why not: a campaign id the service's campaign list lacks."""
        if self._ids is not None and scope.is_campaign and scope.campaign_id not in self._ids:
            noun = "campaign" if in_scope else "id"
            return f"{noun} {scope.campaign_id} does not exist on this connection"
        return scope


def _error_said(text: str, what: str) -> str:
    """Why a scope or campaign cell holding a spreadsheet's error value as text ("#N/A" in
    a CSV: a formula that failed) names no scope: not that no campaign has that name."""
    return (
        f"{text!r} is an error value from a spreadsheet, not a {what}: correct it in the file "
        "and run the file again"
    )


def _ids_of(campaigns: Iterable[tuple[str, str]]) -> list[str]:
    """The campaigns' ids, in numeric order (as the CLI lists them)."""
    return sorted({cid for _, cid in campaigns}, key=lambda i: (len(i), i))


def ids_named(alike: Iterable[tuple[str, str]], text: str) -> list[str]:
    """Of the campaigns whose names match ``text`` but for case (``(name as spelled, id)``),
    the ids ``text`` names: the one spelled exactly as ``text`` when it is the only one so
    spelled, else every one of them (more than one: the name says no one campaign). File cells
    and ``--scope campaign:NAME`` follow this one rule."""
    alike = list(alike)
    ids = _ids_of(alike)
    if len(ids) > 1:
        exact = _ids_of(c for c in alike if c[0] == text)
        if len(exact) == 1:
            return exact
    return ids


def campaign_cell_written(value: CellValue, holds: Holds = Holds.EITHER) -> str:
    """A campaign cell written as ``--scope`` writes the scope it is read as, for a report's
    Scope column: the service's own codes as what they mean (``0`` global, ``-1`` and ``-1.0``
    purpose: black-box R4 #9, where a cell ``-1.0``, read as the purpose scope, was shown as
    ``campaign:-1.0``), a scope word as itself, anything else as ``campaign:`` and the cell (a
    whole float's text as its number, as it is read).

    Digits of a Campaign Name column (``holds``) are a name, which ``campaign:12`` is not
    (always campaign 12): they are written bare, which a Scope cell reads as the campaign
    named so when no campaign has them as its id, and refuses naming both when one does, so a
    re-import of the report never takes campaign 12 for the one named '12' (FXH)."""
    text = _text(value)
    if holds is Holds.NAMES and text.isascii() and text.isdigit() and text != "0":
        return text
    low = text.casefold()
    if not text:
        return ""
    if text == GLOBAL_CAMPAIGN_ID or low in _GLOBAL_WORDS:
        return "global"
    if text == PURPOSE_CAMPAIGN_ID:
        return "purpose"
    if low == "purpose" or low.startswith(("purpose:", "campaign:")):
        return text
    return f"campaign:{text}"


def names_no_campaign(value: CellValue) -> bool:
    """Whether a scope cell says only "campaign" (the campaign is in the Campaign column)."""
    return _text(value).casefold() in ("campaign", "campaign:")


# A whole number forced to text with a leading apostrophe ("'-1", "'1001").
_FORCED_NUMBER = re.compile(r"'\s*(-?[0-9]+(?:[.,]0+)?)")
# A whole number written as a float's text ("1001.0", "-1.0"), as a CSV saved from a tool that
# read the column as numbers writes it: read as the number, as the float cell 1001.0 is. A
# European CSV writes it with a decimal comma ("1001,0": pandas' to_csv(decimal=","); black-box
# B13 #1), read the same way.
_WHOLE_FLOAT = re.compile(r"(-?[0-9]+)[.,]0+")
# A number written with thousands separators ("1,001", "1.001", "12,000", "1.234.567", "1,001.0"):
# as an id it could be the digits run together (1001) or, for a decimal point or comma, the
# number before the separator ("1,000" is 1 with pandas' decimal comma), so it names no sure
# campaign. The first group starts with 1-9, so "0.000" is still 0 (and "-1,000" -1: no campaign
# has the id -1000).
_GROUPED = re.compile(r"([1-9][0-9]{0,2}([.,])[0-9]{3}(?:\2[0-9]{3})*)(?:(?!\2)[.,]0+)?")


def visible_text(text: str) -> str:
    """``text`` without invisible format characters (Unicode category Cf: zero-width space,
    bidi marks, BOM, soft hyphen) and without surrounding spaces.

    A purpose or scope that prints as "Surveys" must be "Surveys": the service and the dialer
    compare the text as it is, so an invisible character would make it another purpose.
    Text typed for a job (an option, a GUI field) is cleaned so; a cell's text is cleaned by
    :func:`cell_text`, which also drops a CSV export's formula-guard apostrophe.
    """
    if text.isascii():
        return text.strip()
    return "".join(c for c in text if unicodedata.category(c) != "Cf").strip()


def _without_format(text: str) -> str:
    if text.isascii():
        return text
    return "".join(c for c in text if unicodedata.category(c) != "Cf")


def cell_text(text: str) -> str:
    """A text cell's text: :func:`visible_text`, without the apostrophe a CSV export puts
    before text that could start a formula.

    :func:`~app.core.xlsx_safe.csv_cell` writes ``=1+1`` as ``'=1+1`` (and so for text
    beginning with ``+``, ``-``, ``@``, tab, CR or LF), and text that already is a run of
    apostrophes followed by one of those characters with one apostrophe more (``'=1+1`` as
    ``''=1+1``): one apostrophe is dropped from such a cell, so an exported reason, purpose,
    scope or campaign reads back as itself, whatever apostrophes it has (black-box N1 #2). An
    apostrophe before anything else is the text's own ("'til 5pm"). The text left is cleaned
    as any cell (``'\\t x`` reads as ``x``, as a cell ``\\t x`` does).

    Read a cell once: reading the text read again drops another apostrophe (``''=1+1`` reads
    as ``'=1+1``, and that as ``=1+1``), as it must for every text to read back as itself.
    Phone cells have their own handling (:mod:`app.core.phones`).
    """
    cleaned = visible_text(text)
    if cleaned[:1] != "'":
        return cleaned
    # Told before the trailing spaces go: "'\t" is an export's tab, not an apostrophe.
    text = _without_format(text).lstrip()
    if guard_quoted(text):
        text = text[1:]
    return text.strip()


def _text(value: CellValue) -> str:
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    # visible_text, not cell_text: the cell was read once already, and reading it again would
    # take off an apostrophe of the text's own ("''=x" is read as "'=x", which must stay).
    text = "" if value is None else visible_text(str(value))
    if text[:1] == "'":
        forced = _FORCED_NUMBER.fullmatch(text)
        if forced is not None:
            return _whole(forced[1]) or forced[1]
    elif "." in text or "," in text:
        # Black-box N3 #7a: "1001.0" in a CSV named no campaign, 1002.0 in an xlsx did.
        return _whole(text) or text
    return text


def _whole(text: str) -> str | None:
    """The whole number ``text`` writes as a float ("1001.0", "1001,00" → "1001"), or None: for
    other text, and for a number that could be thousands-grouped ("1,000", "1.000": 1000 or 1),
    which :func:`_grouped_id` refuses rather than take either campaign."""
    whole = _WHOLE_FLOAT.fullmatch(text)
    if whole is None or _GROUPED.fullmatch(text) is not None:
        return None
    return whole[1]


def _grouped_id(text: str) -> str | None:
    """Why a campaign or scope cell written with thousands separators ("1,001", "1.000") names
    no campaign, or None for any other text.

    A CSV from a locale that groups thousands with a comma writes campaign 1000 as "1,000",
    one that writes a decimal comma writes the float 1.0 as "1,000" too (and "1.000" is 1000 in
    Germany, 1 with three decimals elsewhere): taking any one reading could put the entry in a
    campaign nobody chose, so the row is refused, naming the id the digits make."""
    grouped = _GROUPED.fullmatch(text)
    if grouped is None:
        return None
    digits = re.sub(r"[.,]", "", grouped[1])
    whole = _WHOLE_FLOAT.fullmatch(text)
    if whole is not None:
        return (
            f"{text!r} could be campaign {digits} written with a thousands separator or "
            f"campaign {whole[1]} written with decimals; write the campaign id in digits alone "
            f"(as {digits} or {whole[1]})"
        )
    return (
        f"{text!r} is written with a thousands or decimal separator; write the campaign id in "
        f"digits alone (as {digits} if that is the campaign meant)"
    )


def _two_readings(text: str, meaning: str, write: str, ids: list[str], campaign: str) -> str:
    """Why a cell that means ``meaning`` and is also the name of the campaigns ``ids`` names
    none of them: both readings, and how to write each (``write``, "campaign:ID for …")."""
    if len(ids) == 1:
        return (
            f"{text!r} could mean {meaning} or the campaign named {text!r} "
            f"(campaign:{ids[0]}) on this connection; write {write}, or "
            f"campaign:{ids[0]} for {campaign}"
        )
    listed = joined([f"campaign:{cid}" for cid in ids])
    return (
        f"{text!r} could mean {meaning} or one of the {len(ids)} campaigns named "
        f"{text!r} ({listed}) on this connection; write {write}, or "
        f"campaign:ID for {campaign} meant"
    )
