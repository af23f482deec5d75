"""The warning on a Country column not read said "every row used the default code +1", yet a
row whose cell there names a country of another code is refused (commit 642cd6b, black-box
B22 F1); it now says so. A column of country names under a header naming no role refuses no
row, and its warning says nothing of it."""

from __future__ import annotations

from pathlib import Path

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings

_TAKEN_NOT = "a row whose cell names a country of another code, as Mexico, is not taken"


def _staged(tmp_path: Path, text: str) -> tuple[dict[int, str], list[str]]:
    path = tmp_path / "list.csv"
    path.write_text(text, encoding="utf-8")
    store, _ = stage_import(JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None)
    with store:
        outcomes = {r.row_number: r.outcome for r in store.rows()}
        warnings = [str(w) for w in store.meta().get("warnings") or []]
    return outcomes, warnings


def test_the_unread_country_column_warning_says_such_rows_are_not_taken(tmp_path: Path) -> None:
    outcomes, warnings = _staged(
        tmp_path,
        "Phone,Country\n2079460123,Narnia\n2025554012,Oz\n2025554013,US\n5512345678,Mexico\n"
        "2025554014,Atlantis\n",
    )
    assert outcomes[5] == "invalid"  # what the warning now says
    (said,) = [w for w in warnings if "was not read as country codes" in w]
    assert (
        "so every row used the default code +1 (unless its number starts with its own, as "
        f"+44; {_TAKEN_NOT})." in said
    ), said


def test_a_column_under_a_header_naming_no_role_says_nothing_of_refusals(
    tmp_path: Path,
) -> None:
    outcomes, warnings = _staged(
        tmp_path,
        "Phone,Location\n5512345678,Mexico\n2025554012,United States\n2025554013,USA\n"
        "2025554014,Mexico\n",
    )
    assert outcomes[2] != "invalid"
    (said,) = [w for w in warnings if "holds country names" in w]
    assert "is not taken" not in said
