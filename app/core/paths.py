"""Where DNC Desk keeps its configuration and its data on this machine."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import platformdirs

APP_NAME = "dnc-desk"
CONFIG_ENV = "DNC_DESK_CONFIG_DIR"
DATA_ENV = "DNC_DESK_DATA_DIR"


@dataclass(frozen=True)
class AppPaths:
    """The two roots (config and data) and the well-known files below them.

    Connections live in the config dir (small, user-edited, may be roamed); the journal,
    job files, reports and the sandbox database live in the data dir (large, machine-local).
    """

    config_dir: Path
    data_dir: Path

    @property
    def journal_db(self) -> Path:
        return self.data_dir / "journal.sqlite3"

    @property
    def jobs_dir(self) -> Path:
        return self.data_dir / "jobs"

    @property
    def reports_dir(self) -> Path:
        return self.data_dir / "reports"

    @property
    def snapshots_dir(self) -> Path:
        return self.data_dir / "snapshots"

    @property
    def locks_dir(self) -> Path:
        """The run locks keyed by job id (:mod:`app.core.job_lock`), one per running job."""
        return self.data_dir / "locks"

    @property
    def sandbox_db(self) -> Path:
        return self.data_dir / "sandbox.sqlite3"

    @property
    def connections_file(self) -> Path:
        return self.config_dir / "connections.json"

    @classmethod
    def default(cls) -> AppPaths:
        """The user's paths; the environment variables exist so tests and scripted runs
        can isolate themselves without touching the real profile."""
        config = os.environ.get(CONFIG_ENV) or platformdirs.user_config_dir(APP_NAME)
        data = os.environ.get(DATA_ENV) or platformdirs.user_data_dir(APP_NAME)
        paths = cls(config_dir=Path(config).expanduser(), data_dir=Path(data).expanduser())
        paths.ensure()
        return paths

    def ensure(self) -> None:
        """Create the directories (owner-only, since the journal names numbers and people)."""
        for directory in (
            self.config_dir,
            self.data_dir,
            self.jobs_dir,
            self.reports_dir,
            self.snapshots_dir,
            self.locks_dir,
        ):
            directory.mkdir(parents=True, exist_ok=True, mode=0o700)
