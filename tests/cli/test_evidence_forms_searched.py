"""``dnc-desk evidence NUMBER`` says which written forms of the number each list was searched in
(fixer F4's note on black-box P2 #3: ``--json`` printed ``"dnc": []`` and exited 0 with no word
of what was searched, though absence is only of the forms searched).

``--json`` gives ``dnc_forms_searched`` and ``sms_forms_searched``, as the pack's Summary sheet
does; the printed summary says them of each list where nothing was found. Run through ``main``
against a sandbox over loopback.
"""

from __future__ import annotations

import json
from typing import Any

import openpyxl
import pytest

from app.cli.main import main
from tests.conftest import TOKEN

NUMBER = "2025550177"


@pytest.fixture(autouse=True)
def token_env(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DNC_DESK_TOKEN", TOKEN)


def _pack_summary(path: str) -> dict[Any, Any]:
    book = openpyxl.load_workbook(path, read_only=True)
    try:
        return {r[0]: r[1] for r in book["Summary"].iter_rows(values_only=True) if r}
    finally:
        book.close()


def test_the_json_names_the_forms_each_list_was_searched_in(
    sandbox: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["evidence", NUMBER, "--base-url", sandbox.base_url, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["dnc"] == [] and data["sms_opt_out"] == []
    pack = _pack_summary(data["report"])
    # The forms the pack's Summary names, the number as the app writes it among them.
    assert data["dnc_forms_searched"] == pack["DNC forms searched"]
    assert data["sms_forms_searched"] == pack["SMS forms searched"]
    for searched in (data["dnc_forms_searched"], data["sms_forms_searched"]):
        assert searched.startswith(f"{NUMBER} under phone code 1; "), searched
        assert f"1{NUMBER}, 001{NUMBER}" in searched and "under any phone code" in searched


def test_the_printed_summary_says_the_forms_of_a_list_where_nothing_was_found(
    sandbox: Any, capsys: pytest.CaptureFixture[str]
) -> None:
    url = ["--base-url", sandbox.base_url]
    assert main(["evidence", NUMBER, *url, "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert main(["evidence", NUMBER, *url]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith(f"+1{NUMBER}: 0 DNC entries, 0 SMS opt-outs")
    # This data folder has no change journal: said, as the pack holds none of its entries.
    assert lines[1].startswith("Not checked. There is no change journal yet at "), lines[1]
    assert lines[2] == f"No DNC entry in the written forms searched: {data['dnc_forms_searched']}."
    assert lines[3] == (
        f"No SMS opt-out in the written forms searched: {data['sms_forms_searched']}."
    )
    # On the DNC list: the DNC line goes, the SMS one stays.
    sandbox.bulk_seed_dnc([(NUMBER, "1", "0", "", "")])
    assert main(["evidence", NUMBER, *url]) == 3
    out = capsys.readouterr().out
    # One entry is "1 DNC entry" (black-box bb2 F2: "1 DNC entries").
    assert out.startswith(f"+1{NUMBER}: 1 DNC entry, 0 SMS opt-outs, 0 leads, "), out
    assert "No DNC entry" not in out
    assert f"No SMS opt-out in the written forms searched: {data['sms_forms_searched']}." in out
