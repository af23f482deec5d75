"""The synopsis lines of docs/cli.md and the README name every option the command takes
(black-box B30 F6: export's lacked --phone-number, --phone-code, --id and the connection
options, so a reader of the synopsis could not know one number can be exported)."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from app.cli import export_cmd, import_cmd

ROOT = Path(__file__).resolve().parents[2]
# Options documented in a section of their own, not on the synopsis line.
ELSEWHERE = {"import": {"--resume", "--help"}, "export": {"--help"}}


def _options(module: object) -> set[str]:
    parser = argparse.ArgumentParser()
    module.add_arguments(parser)  # type: ignore[attr-defined]
    return {o for action in parser._actions for o in action.option_strings if o.startswith("--")}


def _synopsis(text: str, command: str) -> str:
    lines = [ln for ln in text.splitlines() if f"dnc-desk {command} " in ln and "[--" in ln]
    assert lines, command
    return lines[0]


@pytest.mark.parametrize("command, module", [("import", import_cmd), ("export", export_cmd)])
@pytest.mark.parametrize("doc", ["docs/cli.md", "README.md"])
def test_synopsis_names_every_option(command: str, module: object, doc: str) -> None:
    line = _synopsis((ROOT / doc).read_text(encoding="utf-8"), command)
    named = set(re.findall(r"--[a-z][a-z0-9-]*", line))
    missing = _options(module) - ELSEWHERE[command] - named
    assert not missing, f"{doc}: the {command} synopsis lacks {sorted(missing)}"
    unknown = named - _options(module)
    assert not unknown, f"{doc}: the {command} synopsis names {sorted(unknown)}"
