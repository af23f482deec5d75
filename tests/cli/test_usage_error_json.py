"""Black-box B30 F7: a usage error's ``error`` under ``--json`` is the last line stderr printed
(docs: "the sentence printed on stderr"), with the subcommand's name: ``dnc-desk import: error:
argument --concurrency: …``, an argument no option takes too (it was refused by the top-level
parser: "dnc-desk: error: unrecognized arguments: --bogus")."""

from __future__ import annotations

import json

import pytest

from app.cli.main import main


@pytest.mark.parametrize(
    ("argv", "last"),
    [
        (
            ["import", "a.csv", "--concurrency", "99", "--json"],
            "dnc-desk import: error: argument --concurrency: ",
        ),
        (
            ["import", "a.csv", "--bogus", "--json"],
            "dnc-desk import: error: unrecognized arguments: --bogus",
        ),
        (
            ["remove", "a.csv", "--json", "--bogus", "x"],
            "dnc-desk remove: error: unrecognized arguments: --bogus x",
        ),
    ],
)
def test_usage_errors_json_is_stderrs_last_line(
    argv: list[str], last: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    captured = capsys.readouterr()
    said = captured.err.strip().splitlines()[-1]
    assert said.startswith(last), said
    data = json.loads(captured.out)
    assert data == {"error": said, "exit_status": 2}
    # The usage line is the subcommand's.
    assert captured.err.startswith(f"usage: dnc-desk {argv[0]} "), captured.err
