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
# remove's --into is only there to be refused ("remove works on the DNC list only").
ELSEWHERE = {
    "import": {"--resume", "--help"},
    "remove": {"--resume", "--into", "--help"},
    "export": {"--help"},
}


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


def _every_command() -> dict[str, set[str]]:
    from app.cli.main import build_parser

    parser = build_parser()
    return {
        name: {o for a in sub._actions for o in a.option_strings if o.startswith("--")}
        for name, sub in parser.subcommands.items()
    }


@pytest.mark.parametrize("doc", ["docs/cli.md", "README.md"])
def test_every_synopsis_names_every_option(doc: str) -> None:
    """Each command's synopsis, not only import's and export's (black-box B37 F6: diff's lacked
    --json and the connection options, which a diff against the list now needs)."""
    text = (ROOT / doc).read_text(encoding="utf-8")
    lacking = {}
    for command, options in _every_command().items():
        lines = [ln for ln in text.splitlines() if f"dnc-desk {command} " in ln and "[--" in ln]
        if not lines:
            continue
        if "…" in lines[0]:
            continue  # "the rest as import's" (remove): its section lists them
        named = set(re.findall(r"--[a-z][a-z0-9-]*", lines[0]))
        missing = options - ELSEWHERE.get(command, {"--help"}) - {"--help"} - named
        if missing:
            lacking[command] = sorted(missing)
    assert not lacking, f"{doc}: synopses lack {lacking}"
