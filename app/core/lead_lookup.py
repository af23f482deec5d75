"""The leads a ``/dnc/delete`` with a lead status re-statuses, looked up just before it.

Both removal paths use it: the bulk removal job (:mod:`app.core.removal_job`) and a removal
picked in the list view (:mod:`app.core.dnc_removal`). The delete itself
(``update_lead_status``) sets the leads holding the digits it sends (:func:`restatused_by`), so
the look-up is the only record of what it changed; both removals also look up the number's own
leads (:func:`number_leads`) and set by ``/leads/update`` those no delete re-statused.
The leads whose status a delete changes (:func:`changed_by`: a lead already in that status is
not changed) go into the delete's journal intent (``before["leads"]``: id, list id, old status, see
:meth:`app.core.session.Session.delete_dnc`) and the removal's message lists them
(:func:`restatus_text`), so what the removal changed can be seen and undone; the message names
the leads already in the status apart, as unchanged.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Sequence
from typing import NamedTuple

from app.api.client import ApiClient, DncQuery
from app.api.models import LEAD_PHONE_FIELDS, DncEntry, Lead
from app.api.scope import Scope
from app.core.phones import format_for_display, national_format
from app.core.session import read_over
from app.core.sheet_damage import drops_trunk_zero

# A row's message names at most this many re-statused leads; the journal keeps them all.
LEADS_IN_MESSAGE = 10


def _digits(text: str) -> str:
    return "".join(ch for ch in text if "0" <= ch <= "9")


def _written_forms(number: str, phone_code: str) -> list[str]:
    """The texts searched for in each lead phone field. ``/leads/search`` matches a field's
    stored text exactly and leads keep numbers as typed, so the number is searched as digits and
    in its usual written forms ("(202) 555-0123", "202-555-0123"). A form holding the country
    code is not searched: its digits are not the number's, so its lead is not re-statused.

    ``number`` is the number as the delete sends it: for a country that drops a trunk 0, an
    entry kept with it ("02079460000") re-statuses the leads typed with it, as digits or in
    the country's national format ("020 7946 0000"), not those typed without it."""
    forms = [number, format_for_display(number, phone_code)]
    if phone_code == "1" and len(number) == 10:
        # The ten-digit ways people type a NANP number (the service re-statuses each of them:
        # black-box finding, "312.555.0009" and "(312)555-0009" leads went unrecorded).
        a, b, c = number[:3], number[3:6], number[6:]
        forms += [f"{a}-{b}-{c}", f"{a}.{b}.{c}", f"{a} {b} {c}", f"({a}){b}-{c}"]
    if number.startswith("0") and drops_trunk_zero(phone_code):
        forms.append(national_format(number[1:], phone_code))
    return [form for form in dict.fromkeys(forms) if _digits(form) == number]


def restatused_by(lead: Lead, number: str, phone_code: str) -> bool:
    """Whether deleting ``number`` (as the delete sends it, under ``phone_code``) re-statuses
    ``lead``: its phone code is that one or blank, and one of its phone fields holds the
    number's digits (digit for digit)."""
    if lead.phone_code not in (phone_code, ""):
        return False
    return any(_digits(getattr(lead, name)) == number for name in LEAD_PHONE_FIELDS)


def leads_to_restatus(
    api: ApiClient,
    number: str,
    phone_code: str,
    scope: Scope,
    cancel: threading.Event | None = None,
) -> list[Lead]:
    """The leads a ``/dnc/delete`` of ``number`` (as the delete sends it) in ``scope`` with a
    lead status re-statuses, with the status each has now (ordered by id, each once).

    The service's rule (as the sandbox applies it): every lead whose phone code is the number's
    or blank and whose phone number or alternate phone holds the sent number's digits; a
    campaign delete only re-statuses leads in that campaign's lists, a global or purpose delete
    any lead. So a delete of an entry kept with its trunk 0 ("02079460000") re-statuses the
    leads typed with the 0, and not those typed without it ("2079460000"); and ``phone_code``
    is the code the delete sends, that of the entry: a removal of +44 7911 129992 kept as
    "447911129992" under code 1 re-statuses the leads under code 1 (or none) holding those
    digits (black-box R2 #6).
    Every page of each search is read: one search per phone field and written form
    (:func:`_written_forms`), 6 forms for a NANP number (18 searches), 2 for a number kept with
    its trunk 0, else 1. A lead whose number is typed in another form cannot be found: the
    search matches exact text. Only reads: ``cancel`` stops it at any point (raising Cancelled).
    """
    return _in_scope(api, _found(api, number, phone_code, cancel), scope, cancel)


def lead_numbers(national: str, phone_code: str) -> list[str]:
    """The digits a lead of the number holds, as :func:`number_leads` looks them up: the
    number as the app writes it and, for a country that drops a trunk 0, with it."""
    if drops_trunk_zero(phone_code) and not national.startswith("0"):
        return [national, f"0{national}"]
    return [national]


def number_leads(
    api: ApiClient,
    national: str,
    phone_code: str,
    scope: Scope,
    cancel: threading.Event | None = None,
) -> list[Lead]:
    """The leads of a removal's number, ``national`` under ``phone_code``, in ``scope`` (as
    :func:`leads_to_restatus` scopes them), with the status each has now (by id, each once):
    those holding it in any phone field in :func:`_written_forms` of the number as the app
    writes it and, for a country that drops a trunk 0, with it ("07911123456",
    "07911 123456"), as evidence attributes them to the number.

    A removal with a lead status (bulk or picked in the list view) ends with every one of
    them in the status, whichever written forms the DNC list keeps the number in: a delete
    re-statuses only the leads holding the digits it sends (:func:`restatused_by`), so a
    number listed only as "13035550140" left its "3035550140" and "(303) 555-0140" leads as
    they were (black-box B3 #1), and a UK one listed without its trunk 0 its "07911123456"
    lead (B3 #2)."""
    return number_leads_apart(api, national, phone_code, scope, cancel)[0]


def number_leads_apart(
    api: ApiClient,
    national: str,
    phone_code: str,
    scope: Scope,
    cancel: threading.Event | None = None,
) -> tuple[list[Lead], list[Lead]]:
    """:func:`number_leads`, and apart the number's leads the same searches found outside
    ``scope`` (a campaign's: in other campaigns' lists; none in another scope), which a removal
    in it leaves as they are and its message names (black-box B5 #3: a campaign removal said
    "no lead found" of a number a lead of another campaign holds). No request more."""
    found: dict[str, Lead] = {}
    for number in lead_numbers(national, phone_code):
        for key, lead in _found(api, number, phone_code, cancel).items():
            found.setdefault(key, lead)
    inside = _in_scope(api, found, scope, cancel)
    kept = {lead.id for lead in inside}
    outside = [lead for key, lead in found.items() if key not in kept]
    return inside, sorted(outside, key=lambda lead: (len(lead.id), lead.id))


def _found(
    api: ApiClient, number: str, phone_code: str, cancel: threading.Event | None
) -> dict[str, Lead]:
    """The leads a delete of ``number`` under ``phone_code`` re-statuses, in any scope, by id."""
    found: dict[str, Lead] = {}
    for field in LEAD_PHONE_FIELDS:
        for form in _written_forms(number, phone_code):
            for lead in _search(api, {field: form}, cancel):
                if lead.id not in found and restatused_by(lead, number, phone_code):
                    found[lead.id] = lead
    return found


def _in_scope(
    api: ApiClient, found: dict[str, Lead], scope: Scope, cancel: threading.Event | None
) -> list[Lead]:
    """``found`` that a write in ``scope`` concerns (a campaign's: the leads in its lists), by
    id."""
    if found and scope.is_campaign:
        lists = {x.id for x in api.all_lists(scope.campaign_id, cancel=cancel)}
        found = {key: lead for key, lead in found.items() if lead.list_id in lists}
    return sorted(found.values(), key=lambda lead: (len(lead.id), lead.id))


# Each of a number's lead searches is tried this many times over (each time with the client's
# own retries) when the service fails it: a row makes 18 of them, and one failing failed the row
# (black-box pass H1: 62 of 400 rows of a removal with --lead-status at 30 % faults, none
# without). They are reads, so trying again is harmless.
SEARCH_ROUNDS = 2


def _search(api: ApiClient, params: dict[str, str], cancel: threading.Event | None) -> list[Lead]:
    """Every lead one search finds (all pages), tried :data:`SEARCH_ROUNDS` times over while
    the service fails it."""
    return read_over(lambda: list(api.iter_leads(params, cancel=cancel)), SEARCH_ROUNDS)


def changed_by(leads: Sequence[Lead], lead_status: str) -> list[Lead]:
    """The ``leads`` whose status a delete setting ``lead_status`` changes: every one not
    already in it (the service's spelling, compared exactly, as it stores it)."""
    return [lead for lead in leads if lead.status != lead_status]


def _named(leads: Sequence[Lead], lead_status: str, *, old: bool) -> str:
    """The first :data:`LEADS_IN_MESSAGE` of ``leads`` by id and list (``old``: with the change
    of status), and how many more there are."""
    texts = []
    for lead in leads[:LEADS_IN_MESSAGE]:
        text = f"lead {lead.id} (list {lead.list_id})"
        if old:
            text += f" {lead.status or '(no status)'}→{lead_status}"
        texts.append(text)
    named = ", ".join(texts)
    if (more := len(leads) - LEADS_IN_MESSAGE) > 0:
        named += f", and {more} more"
    return named


# A removal's row whose number no lead search found. Not "no leads on this number" (black-box
# pass I1), nor that none holds it as the service matches it (re-test J1: a lead typed with a
# trailing space was re-statused by the service): only the written forms searched are known.
NO_LEADS = (
    "no lead found to set to {status} in the forms searched (the number's digits and its "
    "usual written forms); a lead typed otherwise (an extra space, other punctuation) may "
    "still be re-statused by the service without its previous status being kept, and one "
    "holding the number with its country code (as +1 or a leading 1) is neither found nor "
    "re-statused"
)

# How NO_LEADS and NO_CAMPAIGN_LEADS name a lead holding the number with its country code: a
# US number's words, made the number's own code's for another country (black-box B29 F6: a
# +44 number's row spoke of "+1 or a leading 1").
_CODE_WORDS = "(as +1 or a leading 1)"


def _with_code(text: str, phone_code: str) -> str:
    """``text`` (:data:`NO_LEADS`, :data:`NO_CAMPAIGN_LEADS`) naming ``phone_code`` as the
    country code a lead may hold the number with."""
    if not phone_code or phone_code == "1":
        return text
    return text.replace(_CODE_WORDS, f"(as +{phone_code} or a leading {phone_code})")


# The same of a campaign's removal, whose delete re-statuses only the leads in the campaign's
# lists (black-box B5 #3: "no lead found" was said of a number a lead in another campaign's list
# holds, rightly left as it was). {others}: those leads, named (:func:`_others_text`).
NO_CAMPAIGN_LEADS = (
    "no lead in the lists of campaign {campaign} found to set to {status} in the forms searched "
    "(the number's digits and its usual written forms); a lead there typed otherwise (an extra "
    "space, other punctuation) may still be re-statused by the service without its previous "
    "status being kept, and one holding the number with its country code (as +1 or a leading "
    "1) is neither found nor re-statused; a campaign's removal leaves the leads in other "
    "campaigns' lists as they are{others}"
)


def _others_text(others: Sequence[Lead]) -> str:
    """What :data:`NO_CAMPAIGN_LEADS` says of the leads of the number in other campaigns'
    lists, ``""`` for none."""
    if not others:
        return ""
    named = _named(others, "", old=False)
    one = len(others) == 1
    return (
        f" ({'a lead' if one else f'{len(others)} leads'} in another campaign's list "
        f"{'holds' if one else 'hold'} the number, left as {'it was' if one else 'they were'}: "
        f"{named})"
    )


def restatus_text(
    leads: Sequence[Lead],
    lead_status: str,
    scope: Scope | None = None,
    others: Sequence[Lead] = (),
    phone_code: str = "1",
) -> str:
    """The message's account of the leads on a removal's number (as looked up just before its
    delete): those it re-statused, with their list and old status, and apart those already in
    the status, which it left as they were (the first :data:`LEADS_IN_MESSAGE` of each named;
    the journal keeps every re-statused one). A removal in a campaign ``scope`` with no such
    lead says none was found in the campaign's lists, naming ``others``, the number's leads
    found in other campaigns' lists (:func:`number_leads_apart`). ``phone_code``: the number's,
    which a lead holding it with its country code would hold."""
    if not leads and scope is not None and scope.is_campaign:
        text = NO_CAMPAIGN_LEADS.format(
            campaign=scope.campaign_id, status=lead_status, others=_others_text(others)
        )
        return _with_code(text, phone_code)
    if not leads:
        return _with_code(NO_LEADS.format(status=lead_status), phone_code)
    parts = []
    if changed := changed_by(leads, lead_status):
        named = _named(changed, lead_status, old=True)
        if len(changed) > LEADS_IN_MESSAGE:
            named += " (all in the change journal)"
        noun = "lead" if len(changed) == 1 else "leads"
        parts.append(f"re-statused {len(changed)} {noun}: {named}")
    if same := [lead for lead in leads if lead.status == lead_status]:
        named = _named(same, lead_status, old=False)
        if len(same) == 1:
            parts.append(f"1 lead already {lead_status}, its status unchanged: {named}")
        else:
            parts.append(
                f"{len(same)} leads already {lead_status}, their status unchanged: {named}"
            )
    return "; ".join(parts)


def not_set_text(refused: Sequence[str], unanswered: Sequence[str], lead_status: str) -> str:
    """What a removal says of the leads its own ``/leads/update`` did not set to
    ``lead_status`` (each "lead ID (list L): why"), ``""`` for none: ``refused``, answered
    with a refusal, keep their status; ``unanswered``, ended with no answer saying whether the
    update was done (a timeout after it was sent, a 5xx: :func:`app.core.session.fate_open`),
    may have been set, so they are not said to keep it (S18 H1b); and every one of them is to
    be set on the service. Both removals say it (the bulk job and the list view's)."""
    said = []
    if refused:
        said.append(
            f"not set to {lead_status} (the change journal has each attempt), so each "
            f"keeps its status: {'; '.join(refused)}"
        )
    if unanswered:
        said.append(
            f"may not have been set to {lead_status}: the service did not answer whether "
            f"the update was done (the change journal has each attempt): "
            f"{'; '.join(unanswered)}"
        )
    if said:
        which = "it" if len(refused) + len(unanswered) == 1 else "each"
        said.append(f"set {which} to {lead_status} on the service (its lead update)")
    return "; ".join(said)


# A lead the removal re-statused although the number's entries left on the list still cover
# it, and those entries' scopes as a person reads them (Scope.label: "Campaign 1006").
Covered = tuple[Lead, list[str]]


def still_covered(
    api: ApiClient,
    number: str,
    phone_code: str,
    leads: Sequence[Lead],
    campaigns_of_lists: dict[str, str],
) -> list[Covered]:
    """After a delete that re-statused ``leads``: those the number's other DNC entries (still
    on the list) cover, which the service re-statused all the same, each with the scopes of
    the entries covering it; ``[]`` for none.

    The service sets every lead on the number to the status, whatever scope the delete took
    off: a global removal also sets a lead in a campaign whose own entry stays, which makes a
    number still on the DNC list look callable there (unless the status is a DNC status). A
    lead is covered by a global or a purpose entry (which campaigns a purpose covers is not
    known), or by its campaign's own.
    ``campaigns_of_lists`` (list id -> campaign id) is filled from ``/lists/search`` the first
    time a list is not in it. A read after the delete; its errors are the caller's.
    """
    if not leads:
        return []
    left = list(api.iter_dnc(DncQuery(phone_number=number, phone_code=phone_code)))
    return covered_by(api, left, leads, campaigns_of_lists)


def covered_by(
    api: ApiClient,
    left: Sequence[DncEntry],
    leads: Sequence[Lead],
    campaigns_of_lists: dict[str, str],
    cancel: threading.Event | None = None,
) -> list[Covered]:
    """:func:`still_covered` of the number's entries ``left`` on the list (looked up by the
    caller, in every form the number is kept in): the ``leads`` they cover, each with their
    scopes. ``campaigns_of_lists`` is filled from ``/lists/search`` the first time a lead's
    list is not in it; its errors are the caller's."""
    if not leads or not left:
        return []
    if any(lead.list_id not in campaigns_of_lists for lead in leads):
        campaigns_of_lists.update({x.id: x.campaign_id for x in api.all_lists(cancel=cancel)})
    covered: list[Covered] = []
    for lead in leads:
        campaign = campaigns_of_lists.get(lead.list_id, "")
        why = [
            e
            for e in left
            if e.scope.is_global or e.scope.is_purpose or e.scope.campaign_id == campaign
        ]
        if why:
            covered.append((lead, list(dict.fromkeys(e.scope.label() for e in why))))
    return covered


def still_covered_sentence(covered: Sequence[Covered], lead_status: str) -> str:
    """What a removal's row says of the leads :func:`still_covered` found (``""`` for none):
    :func:`still_listed_in` reads it back from the row's message."""
    if not covered:
        return ""
    scopes = list(dict.fromkeys(scope for _, why in covered for scope in why))
    named = ", ".join(
        f"lead {lead.id} (list {lead.list_id})" for lead, _ in covered[:LEADS_IN_MESSAGE]
    )
    more = len(covered) - LEADS_IN_MESSAGE
    if more > 0:
        named += f" and {more} more"
    verb = "stays" if len(covered) == 1 else "stay"
    return (
        f"{named} {verb} on the DNC list through the number's other "
        f"{'entry' if len(scopes) == 1 else 'entries'} ({', '.join(scopes)}), yet the service "
        f"set {'it' if len(covered) == 1 else 'them'} to {lead_status} too: check "
        f"{'its' if len(covered) == 1 else 'their'} status"
    )


# The scope not_checked_sentence names for leads whose coverage could not be looked up: the
# report counts them with those still listed, by this word (black-box B29 F1: they were
# counted as none, and only the row's message said the look-up failed).
NOT_CHECKED = "not checked"


# How not_checked_sentence starts, before the leads it names.
_NOT_CHECKED_LEAD_IN = "whether the number's other entries still list "


def not_checked_sentence(leads: Sequence[Lead], lead_status: str, why: str) -> str:
    """What a removal's row says of ``leads`` it set to ``lead_status`` when whether the
    number's entries left on the list still cover them could not be looked up (``why``):
    :func:`still_listed_in` counts them, their scope :data:`NOT_CHECKED`, as a job must not
    count none of them while some may look callable on a list still holding the number."""
    if not leads:
        return ""
    named = ", ".join(f"lead {lead.id} (list {lead.list_id})" for lead in leads[:LEADS_IN_MESSAGE])
    if (more := len(leads) - LEADS_IN_MESSAGE) > 0:
        named += f" and {more} more"
    one = len(leads) == 1
    return (
        f"{_NOT_CHECKED_LEAD_IN}{'this lead' if one else 'these leads'}"
        f" could not be looked up ({why}), so {'it is' if one else 'they are'} counted as not "
        f"checked: {named} may stay on the DNC list through the number's other entries "
        f"({NOT_CHECKED}), yet the service set {'it' if one else 'them'} to {lead_status} too: "
        f"check {'its' if one else 'their'} status"
    )


def still_covered_text(
    api: ApiClient,
    number: str,
    phone_code: str,
    leads: Sequence[Lead],
    lead_status: str,
    campaigns_of_lists: dict[str, str],
) -> str:
    """:func:`still_covered_sentence` of :func:`still_covered`: the leads the number's other
    DNC entries still cover, which the service re-statused all the same, or ``""``."""
    covered = still_covered(api, number, phone_code, leads, campaigns_of_lists)
    return still_covered_sentence(covered, lead_status)


# still_covered_sentence's sentence, as a row's message holds it: the leads named (the first
# LEADS_IN_MESSAGE), how many more, and the scopes of the entries left.
_COVERED_SAID = re.compile(
    r"((?:lead [^ ]+ \(list [^)]*\)(?:, )?)+)(?: and (\d+) more)? (?:stays?|may stay) on the "
    r"DNC list "
    r"through the number's other (?:entry|entries) \((.*?)\), yet the service set "
    r"(?:it|them) to .*? too: check (?:its|their) status"
)


class StillListed(NamedTuple):
    """What a removal row's message says of its leads :func:`still_covered` found: how many,
    the first named ("lead 7 (list 1006)"), and the scopes of the entries left."""

    leads: int
    named: list[str]
    scopes: list[str]


_LEAD_NAMED = re.compile(r"lead [^ ]+ \(list [^)]*\)")


def still_listed_in(message: str) -> StillListed:
    """How many leads a removal row's ``message`` says the service re-statused although the
    number's entries left on the list still cover them (:func:`still_covered_sentence`, once
    for each delete of the row that found some), those it names, and those entries' scopes;
    none, ``leads`` 0. The report counts them from the job file's rows, as it counts other
    kinds of row. A purpose whose name holds ", " reads as two scopes."""
    leads = 0
    named: list[str] = []
    scopes: list[str] = []
    for found in _COVERED_SAID.finditer(message):
        these = _LEAD_NAMED.findall(found.group(1))
        leads += len(these) + int(found.group(2) or 0)
        named += these
        scopes += [x for x in found.group(3).split(", ") if x not in scopes]
    return StillListed(leads, named, scopes)


def _said_spans(message: str) -> list[tuple[int, int]]:
    """Where ``message`` says which leads stay listed (:func:`still_covered_sentence`) or were
    not checked (:func:`not_checked_sentence`, from its first words)."""
    spans = []
    for found in _COVERED_SAID.finditer(message):
        start = found.start()
        if NOT_CHECKED in found.group(3).split(", "):
            lead_in = message.rfind(_NOT_CHECKED_LEAD_IN, 0, start)
            start = lead_in if lead_in >= 0 else start
        spans.append((start, found.end()))
    return spans


def with_still_listed(message: str, sentence: str) -> str:
    """``message`` saying ``sentence`` (``""``: nothing) where it said which of its leads stay
    listed or were not checked: a removal decides it again once the job's other rows of the
    number have ended, as one may have taken off the entry that was said to cover them."""
    spans = _said_spans(message)
    if not spans:
        return "; ".join(x for x in (message, sentence) if x)
    text, at = message, spans[0][0]
    for start, end in reversed(spans):
        if text[end : end + 2] == "; ":
            end += 2
        elif text[start - 2 : start] == "; ":
            start -= 2
        text = text[:start] + text[end:]
        at = start
    if not sentence:
        return text
    head, tail = text[:at].removesuffix("; "), text[at:].removeprefix("; ")
    return "; ".join(x for x in (head, sentence, tail) if x)
