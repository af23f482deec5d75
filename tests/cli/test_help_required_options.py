"""`--help` says what a new job needs (black-box N2 #6: import's and remove's usage showed
--into and --scope as optional, though a new job without them is refused with exit 2)."""

from __future__ import annotations

import pytest

from app.cli.main import main


@pytest.mark.parametrize(
    ("command", "options"), [("import", ("--into", "--scope")), ("remove", ("--scope",))]
)
def test_the_options_a_new_job_needs_say_so(
    command: str, options: tuple[str, ...], capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as done:
        main([command, "--help"])
    assert done.value.code == 0
    # Each option's help: its lines from the one naming it to the next option's (argparse
    # starts each at the left margin but for two spaces and wraps the rest further in).
    blocks: list[list[str]] = []
    for line in capsys.readouterr().out.splitlines():
        if line.startswith("  -") or line.startswith("  --"):
            blocks.append([])
        if blocks:
            blocks[-1].append(line.strip())
    helps = {" ".join(b).split()[0]: " ".join(" ".join(b).split()) for b in blocks}
    for option in options:
        assert "(required, except with --resume)" in helps[option], helps[option]
