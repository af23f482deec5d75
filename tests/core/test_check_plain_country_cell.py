"""Review RV3 F1: the inline check of plain rows ignored the Country column when no code column
was mapped, while the general check reads it: the same row got another country code (and
outcome) depending only on whether the mapping had a request-date (or purpose/scope) column.

Reached in the import wizard: a file with "Country Code" and "Country" columns is proposed with
phone_code=1, country=2; choosing "(none)" for Country code calls
mapping.set_column(Role.PHONE_CODE, None), which leaves mapping.country set."""

import datetime as dt
from dataclasses import replace

from app.core.sheet_check import CheckOptions, check_all
from app.core.sheet_mapping import ColumnMapping, Role, propose_from_preview

OPTS = CheckOptions(insertion_date=dt.date(2026, 11, 24))
HEADER = ["Phone", "Country Code", "Country", "Requested"]
ROWS = [(1, HEADER)]
ROWS += [(n, [f"2025550{n:03d}", "1", "US", "2026-11-20"]) for n in range(2, 12)]
ROWS += [(12, ["2025550999", "", "GB", "2026-11-20"])]  # a UK row: Country says GB


def _wizard_mapping() -> ColumnMapping:
    mapping = propose_from_preview(ROWS, "1")
    assert (mapping.phone_code, mapping.country, mapping.request_date) == (1, 2, 3)
    mapping.set_column(Role.PHONE_CODE, None)  # "Country code: (none)" in the wizard
    return mapping


def test_plain_and_general_paths_agree_on_a_row_with_a_country_cell() -> None:
    with_date = _wizard_mapping()
    without_date = replace(with_date, request_date=None)  # same file, date column unmapped
    general, _ = check_all(ROWS, with_date, OPTS)  # general check (a date column)
    plain, _ = check_all(ROWS, without_date, OPTS)  # check_plain
    g = next(c for c in general if c.row == 12)
    p = next(c for c in plain if c.row == 12)
    # general: +44 2025550999, invalid ("not a valid United Kingdom number")
    # plain:   +1 2025550999, VALID (the Country cell GB never read)
    assert (p.outcome, p.phone_code, p.national) == (g.outcome, g.phone_code, g.national)
