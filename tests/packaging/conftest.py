"""Load the scripts in packaging/ (not a package: PyInstaller runs the spec from there)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGING = ROOT / "packaging"


def load(name: str) -> ModuleType:
    """packaging/<name>.py as module ``dnc_packaging_<name>``."""
    module_name = f"dnc_packaging_{name}"
    if module_name in sys.modules:
        return sys.modules[module_name]
    spec = importlib.util.spec_from_file_location(module_name, PACKAGING / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="session")
def icons() -> ModuleType:
    return load("icons")


@pytest.fixture(scope="session")
def lean() -> ModuleType:
    return load("lean")


@pytest.fixture(scope="session")
def build() -> ModuleType:
    return load("build")
