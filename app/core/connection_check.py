"""Check an API token before it is saved: one ``/campaigns/search`` call.

The answer tells the user the token works and how much it sees ("it sees 7 campaigns");
a failure is the typed :mod:`app.api.errors` exception, which the UI turns into a message.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from app.api.client import ApiClient
from app.api.transport import RetryPolicy

# A person is waiting for this answer: retry a transient failure once, briefly.
_CHECK_RETRY = RetryPolicy(attempts=2, base_delay=0.25, max_delay=1.0)
_CHECK_TIMEOUT = 15.0


@dataclass(frozen=True)
class TokenCheck:
    """A token the service accepted, and the campaigns it can see."""

    base_url: str
    campaigns: int
    active_campaigns: int

    @property
    def summary(self) -> str:
        noun = "campaign" if self.campaigns == 1 else "campaigns"
        inactive = self.campaigns - self.active_campaigns
        extra = f" ({inactive} inactive)" if inactive else ""
        return f"Token accepted: it sees {self.campaigns} {noun}{extra}."


def check_token(
    base_url: str,
    token: str,
    *,
    timeout: float = _CHECK_TIMEOUT,
    cancel: threading.Event | None = None,
) -> TokenCheck:
    """Ask the service for its campaigns with ``token``.

    Raises the client's typed errors: AuthMissingError / AuthInvalidError for a rejected
    token, PermissionDeniedError, TransportError when the service does not answer.
    """
    with ApiClient(base_url, token, timeout=timeout, retry=_CHECK_RETRY) as client:
        campaigns = client.campaigns(cancel=cancel)
    return TokenCheck(
        base_url=client.base_url,
        campaigns=len(campaigns),
        active_campaigns=sum(1 for c in campaigns if c.active),
    )
