"""Fixtures shared by the engine's tests: a session on a fresh sandbox, with its own journal."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from app.api.client import ApiClient
from app.core.connections import Connection
from app.core.journal import ChangeJournal
from app.core.session import Session
from tests.conftest import TOKEN


@pytest.fixture
def session(sandbox: Any, tmp_path: Path) -> Iterator[Session]:
    """A session on the test's sandbox (connection "Sandbox"), journaling to ``tmp_path``."""
    journal = ChangeJournal(tmp_path / "journal.sqlite3")
    s = Session(
        Connection("Sandbox", sandbox.base_url), ApiClient(sandbox.base_url, TOKEN), journal
    )
    yield s
    s.close()
    journal.close()
