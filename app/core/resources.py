"""Find files in ``resources/`` the same way from a source checkout and a PyInstaller bundle."""

from __future__ import annotations

import sys
from pathlib import Path

RESOURCES_DIRNAME = "resources"


def resources_dir() -> Path:
    """The folder holding icons and other data files.

    A PyInstaller bundle unpacks data files below ``sys._MEIPASS`` (the spec copies
    ``resources/`` there under the same name); from source it is the repository root's
    ``resources/`` next to the ``app`` package.
    """
    bundle = getattr(sys, "_MEIPASS", None)
    if isinstance(bundle, str) and bundle:
        return Path(bundle) / RESOURCES_DIRNAME
    return Path(__file__).resolve().parents[2] / RESOURCES_DIRNAME


def resource_path(*parts: str) -> Path:
    """A path inside the resources folder (it may not exist; callers check)."""
    return resources_dir().joinpath(*parts)
