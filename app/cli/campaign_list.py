"""The service's campaigns as a refusal of an unknown one lists them, for a person with only
the CLI to pick from (``audit campaign ID|NAME``, ``--scope campaign:ID``): every one up to a
few, else those close to what was typed, else the first few by id, and how many there are."""

from __future__ import annotations

import difflib
from typing import Final

from app.core.sheet_scope import CampaignDirectory, visible_text
from app.core.wording import joined

# A refusal lists every campaign up to this many; beyond it only a few, so a service with
# hundreds of campaigns does not fill the terminal.
LISTED_AT_MOST: Final = 10


def campaign_words(campaigns: CampaignDirectory, ids: list[str]) -> str:
    """``ids`` as ``1001 ('Solar savings')``, each with its name when it has one."""
    names = {cid: name for name, cid in campaigns.named}
    return joined([f"{cid} ({names[cid]!r})" if cid in names else cid for cid in ids])


def campaigns_listed(campaigns: CampaignDirectory, given: str) -> str | None:
    """``its campaigns are …`` or, past :data:`LISTED_AT_MOST`, ``it has N campaigns, of which
    close to GIVEN: …`` (by name or id) or ``…, the first 10 by id: …``; None when it has
    none (black-box bb12 F3: an import's refusal sent a CLI user to the window's list)."""
    ordered = sorted(campaigns.ids, key=lambda cid: (len(cid), cid))
    if not ordered:
        return None
    if len(ordered) <= LISTED_AT_MOST:
        return f"its campaigns are {campaign_words(campaigns, ordered)}"
    by_key = {visible_text(name).casefold(): cid for name, cid in campaigns.named}
    close = [
        by_key[key]
        for key in difflib.get_close_matches(given.casefold(), list(by_key), n=LISTED_AT_MOST)
    ]
    close += difflib.get_close_matches(given, ordered, n=LISTED_AT_MOST)
    near = list(dict.fromkeys(close))[:LISTED_AT_MOST]
    many = f"it has {len(ordered):,} campaigns"
    if near:
        return f"{many}, of which close to it: {campaign_words(campaigns, near)}"
    first = campaign_words(campaigns, ordered[:LISTED_AT_MOST])
    return f"{many}, the first {LISTED_AT_MOST} by id: {first}"
