"""A job's campaign list, fetched before the file is read, is tried once more when the service
fails it (black-box pass H3: one failed /campaigns/search refused a whole removal at 60 %
errors, where the run's own handling of faults would have finished it)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from app.api.client import ApiClient
from app.api.scope import Scope
from app.api.transport import RetryPolicy
from app.cli.connection_args import CliError
from app.cli.import_cmd import PREFLIGHT_ROUNDS, preflight
from app.core.connections import Connection
from tests.conftest import TOKEN

QUICK = RetryPolicy(attempts=2, base_delay=0.001, max_delay=0.002)


class CampaignsFail(httpx.BaseTransport):
    """The first ``failing`` /campaigns/search requests answered 502; the rest forwarded."""

    def __init__(self, failing: int) -> None:
        self._http = httpx.HTTPTransport()
        self.failing = failing
        self.asked = 0

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.path.endswith("/campaigns/search"):
            self.asked += 1
            if self.failing > 0:
                self.failing -= 1
                return httpx.Response(502, text="<html>Bad Gateway</html>", request=request)
        return self._http.handle_request(request)

    def close(self) -> None:
        self._http.close()


def _preflight(sandbox: Any, wire: CampaignsFail) -> Any:
    with ApiClient(sandbox.base_url, TOKEN, http_transport=wire, retry=QUICK) as api:
        return preflight(api, Connection("Sandbox", sandbox.base_url), Scope.global_(), "Import")


def test_a_campaign_list_the_service_failed_once_is_fetched_again(sandbox: Any) -> None:
    wire = CampaignsFail(failing=QUICK.attempts)  # the first round's every attempt
    campaigns, scope = _preflight(sandbox, wire)
    assert campaigns.ids and scope == Scope.global_()
    assert wire.asked == QUICK.attempts + 1


def test_a_service_failing_every_round_still_refuses_the_job(sandbox: Any) -> None:
    wire = CampaignsFail(failing=QUICK.attempts * PREFLIGHT_ROUNDS)
    with pytest.raises(CliError, match="502"):
        _preflight(sandbox, wire)
    assert wire.asked == QUICK.attempts * PREFLIGHT_ROUNDS
