"""Black-box finding D11: the sandbox gave a deleted entry's id to the next new entry, so one
id in the change journal could name two different numbers. A real service does not reuse ids."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from app.sandbox.store import Store
from tests.sandbox.conftest import Api


def _dnc_insert(api: Api, number: str) -> int:
    body = api.ok("/dnc/insert", phone_number=number, phone_code="1", campaign_id="0")
    return int(body["id"])


def test_a_deleted_dnc_entrys_id_is_not_given_to_the_next_entry(api: Api) -> None:
    _dnc_insert(api, "2025550171")
    last = _dnc_insert(api, "2025550172")
    api.ok("/dnc/delete", phone_number="2025550172", phone_code="1", campaign_id="0")
    assert _dnc_insert(api, "2025550173") > last


def test_a_deleted_sms_opt_outs_id_is_not_given_to_the_next_one(api: Api) -> None:
    # The service has no SMS opt-out delete: the entry goes as a deletion on the service would.
    for number in ("2025550181", "2025550182"):
        api.ok("/sms-opt-out/insert", phone_number=number, phone_code="1", campaign_id="0")
    store = api.server.store
    (last,) = store.one("SELECT MAX(id) FROM sms_opt_out")
    store.execute("DELETE FROM sms_opt_out WHERE id = ?", (last,))
    api.ok("/sms-opt-out/insert", phone_number="2025550183", phone_code="1", campaign_id="0")
    row = store.one("SELECT id FROM sms_opt_out WHERE phone_number = '2025550183'")
    assert row is not None and row["id"] > last


def test_a_database_file_with_the_old_tables_still_opens(tmp_path: Path) -> None:
    # CREATE TABLE IF NOT EXISTS keeps an existing file's table as it was (ids without
    # AUTOINCREMENT): the file still works, entries and all.
    path = tmp_path / "old.sqlite3"
    with sqlite3.connect(path) as old:
        old.execute(
            "CREATE TABLE dnc (id INTEGER PRIMARY KEY, phone_number TEXT NOT NULL, "
            "phone_code TEXT NOT NULL, campaign_id INTEGER NOT NULL, "
            "reason TEXT NOT NULL DEFAULT '', purpose TEXT NOT NULL DEFAULT '', "
            "insert_date TEXT NOT NULL)"
        )
        old.execute(
            "INSERT INTO dnc(phone_number, phone_code, campaign_id, insert_date) "
            "VALUES ('2025550191', '1', 0, '2024-01-02 03:04:05')"
        )
    old.close()
    store = Store(path)
    try:
        store.execute(
            "INSERT INTO dnc(phone_number, phone_code, campaign_id, insert_date) "
            "VALUES ('2025550192', '1', 0, '2024-01-02 03:04:05')"
        )
        numbers = [r["phone_number"] for r in store.all("SELECT phone_number FROM dnc ORDER BY id")]
        assert numbers == ["2025550191", "2025550192"]
    finally:
        store.close()
