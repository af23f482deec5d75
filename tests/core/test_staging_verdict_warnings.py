"""Row notes that now have a warning of their own, and an email opt-out column worded so.

- Black-box L1 #7 (a): a Campaign column naming campaigns the connection does not have (an SMS
  platform's "Holiday Promo", a Five9 "Solar Outbound") made every row invalid with no
  warning: one now names the column, the count, the names and ``--ignore-column``.
- Black-box L3 #4: a row whose cells name two scopes (Scope campaign:1001 beside Campaign
  1002; Campaign ID 1003 beside a Campaign Name naming 1001) was imported into one with only
  the row's message saying so: a warning counts them and says which scope was used.
- Black-box L3 #5: a reason over 255 characters was cut with only a row note: a warning
  counts those rows.
- Black-box L1 #9: an 'Email Opt Out' column was worded as a do-not-call flag ("If only the
  rows marked yes asked not to be called").
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from app.api.models import Campaign
from app.api.scope import Scope
from app.core.connections import Connection
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.job_store import JobStore
from app.core.removal_job import stage_removal
from app.core.sheet_scope import CampaignDirectory
from tests.core.sheet_factory import write_csv

DIRECTORY = CampaignDirectory(
    [
        Campaign("1001", "Solar Savings Outreach", True, "", ""),
        Campaign("1002", "Winter Push", True, "", ""),
        Campaign("1003", "Roof Repair", True, "", ""),
    ]
)


def _warnings(store: JobStore) -> list[str]:
    with store:
        return list(store.meta().get("warnings", []))


def _import(path: Path, tmp_path: Path, lookup: Any = DIRECTORY, **kw: Any) -> JobStore:
    store, _ = stage_import(
        JobSettings(path, Scope.global_()), tmp_path / "jobs", campaign_lookup=lookup, **kw
    )
    return store


def test_campaigns_the_connection_lacks_are_counted_with_the_way_out(
    tmp_path: Path, sandbox: Any, api: Any
) -> None:
    rows = [["Phone Number", "Keyword", "Campaign"]]
    rows += [[f"1303555310{n}", "STOP", "Holiday Promo"] for n in range(4)]
    rows += [["13035553109", "STOP", "Back to School"], ["13035553108", "STOP", "Back to School"]]
    path = write_csv(tmp_path / "c2_optout_keyword_log.csv", rows)
    lookup = CampaignDirectory(api.campaigns())
    store = _import(path, tmp_path, lookup, connection=Connection("Sandbox", sandbox.base_url))
    assert _warnings(store) == [
        "6 rows are invalid because column C ('Campaign') names no campaign on the connection "
        "'Sandbox' ('Holiday Promo' and 'Back to School'; rows 2, 3, 4, 5, 6 and 7). If that "
        "column does not hold this connection's campaigns (an SMS platform's or another "
        "dialer's campaigns), run the file again with --ignore-column 'Campaign': the column "
        "is then not read, and the job's scope (--scope) applies to every row."
    ]
    # The way out works: the rows take the job's scope.
    settings = JobSettings(path, Scope.global_(), ignore_columns=("Campaign",))
    again, summary = stage_import(settings, tmp_path / "jobs", connection=None)
    with again:
        assert summary.valid == 6


def test_an_unknown_id_and_a_stand_in_column_are_worded_so(tmp_path: Path) -> None:
    rows = [
        ["Phone", "Campaign ID", "Campaign Name"],
        ["3035554002", "9999", ""],
        ["3035554003", "", "Medicare Enrollment 2026"],
    ]
    store = _import(write_csv(tmp_path / "ids.csv", rows), tmp_path, connection=None)
    assert _warnings(store) == [
        "1 row is invalid because column B ('Campaign ID') names no campaign on this "
        "connection (id 9999; row 2). If that column does not hold this connection's "
        "campaigns (an SMS platform's or another dialer's campaigns), run the file again with "
        "--ignore-column 'Campaign ID': the column is then not read, and the job's scope "
        "(--scope) applies to every row.",
        "1 row is invalid because column C ('Campaign Name') names no campaign on this "
        "connection ('Medicare Enrollment 2026'; row 3). If that column does not hold this "
        "connection's campaigns (an SMS platform's or another dialer's campaigns), run the "
        "file again with --ignore-column 'Campaign Name': the column is then not read, and the "
        "job's scope (--scope) applies to the rows whose column B ('Campaign ID') cell is "
        "empty.",
    ]


def test_rows_naming_two_scopes_are_counted_saying_which_was_used(tmp_path: Path) -> None:
    scope_rows = [
        ["Phone", "Scope", "Campaign"],
        ["3035555009", "campaign:1001", "1001"],
        ["3035555010", "campaign:1001", "1002"],
    ]
    store = _import(write_csv(tmp_path / "pC_scope.csv", scope_rows), tmp_path, connection=None)
    assert _warnings(store) == [
        "1 row names two scopes in its cells and was imported into one of them (row 3): where "
        "the Scope and Campaign cells disagree (1 row), the scope in column B ('Scope') was "
        "used. Each row's message says which; make the cells agree (or empty one) and run the "
        "file again if the other was meant."
    ]
    name_rows = [
        ["Phone", "Campaign ID", "Campaign Name"],
        ["3035554005", "1002", "Winter Push"],
        ["3035554006", "1003", "Solar Savings Outreach"],
        ["3035554007", "1002", "Roof Repair"],
    ]
    store = _import(write_csv(tmp_path / "pB_idname.csv", name_rows), tmp_path, connection=None)
    assert _warnings(store) == [
        "2 rows name two scopes in their cells and were imported into one of them (rows 3 and "
        "4): where column C ('Campaign Name') names another campaign than the row's scope (2 "
        "rows), the scope read from column B ('Campaign ID') was used. Each row's message says "
        "which; make the cells agree (or empty one) and run the file again if the other was "
        "meant."
    ]
    # A removal takes neither: those rows are invalid, and each says why.
    removal, summary = stage_removal(
        JobSettings(tmp_path / "pB_idname.csv", Scope.global_(), scope_from_rows=True),
        tmp_path / "jobs",
        connection=None,
        campaign_lookup=DIRECTORY,
    )
    assert summary.invalid == 2
    assert not any("two scopes" in w for w in _warnings(removal))


def test_reasons_cut_to_the_limit_are_counted(tmp_path: Path) -> None:
    rows = [
        ["Phone", "Reason"],
        ["3035550110", "R" * 255],
        ["3035550111", "S" * 256],
        ["3035550112", "T" * 300],
    ]
    store = _import(write_csv(tmp_path / "t1_global.csv", rows), tmp_path, connection=None)
    assert _warnings(store) == [
        "2 rows (rows 3 and 4) have reasons longer than 255 characters, the most the service "
        "keeps: they were cut to 255 (each row's message says how long it was). If the end of "
        "a reason matters, shorten it in the file and run the file again."
    ]


def test_an_email_opt_out_column_is_not_worded_as_a_do_not_call_flag(tmp_path: Path) -> None:
    rows = [
        ["Contact ID", "Phone", "Do Not Call", "Email Opt Out", "HasOptedOutOfFax"],
        ["0035e00000AbCd1", "(303) 555-7101", "1", "0", "0"],
        ["0035e00000AbCd2", "(303) 555-7102", "1", "1", "1"],
        ["0035e00000AbCd3", "(303) 555-7103", "0", "", ""],
    ]
    store = _import(write_csv(tmp_path / "g2.csv", rows), tmp_path, connection=None)
    warnings = _warnings(store)
    assert (
        "Column D ('Email Opt Out') marks who opted out of email, which is not a request not to "
        "be called or texted; it is not read, and every row is imported whatever it says."
    ) in warnings
    assert any(w.startswith("Column C ('Do Not Call') marks each row yes or no") for w in warnings)
    assert not any("Email Opt Out" in w and "asked not to be called" in w for w in warnings)
