"""Task W6 #1: a Country column of "IN" and "DE" beside numbers valid both ways (Indiana's or
India's, Delaware's or Germany's) is a doubt the command line warns of on an import and
refuses a removal for; staged with columns a person chose (the import wizard's path) it was
neither. Now the chosen path says the same in the wizard's words, and only the person's word
that the column holds countries (``JobSettings.countries_chosen``) settles it, which the
job's warnings then record."""

from __future__ import annotations

from pathlib import Path

import pytest

from app.api.scope import Scope
from app.core.job_staging import JobSettings, MappingError, stage
from app.core.sheet_mapping import ColumnMapping
from app.ui.import_wizard_engine import mapping_for, probe_file

# 917 is New York's and a valid Indian number too; 302 is Delaware's and valid in Germany.
READS_BOTH_WAYS = "Phone,Country\n9176193616,IN\n3025556222,DE\n3175556221,IN\n"

HEAD = (
    "Column B ('Country') holds IN and DE, which are US states' codes (Indiana and Delaware) "
    "as well as countries' (India and Germany), and its phone numbers read both ways (rows 2, "
    "3 and 4 among its first rows; row 2: the US number +1 917 619 3616, or +91 91761 93616 "
    "under 'IN'), so nothing in the file says which the column holds."
)


def _chosen(
    tmp_path: Path, *, countries_chosen: bool = False, phone_code: str = "1"
) -> tuple[JobSettings, ColumnMapping]:
    """The settings and mapping the import wizard stages with: its proposal, unchanged."""
    path = tmp_path / "states.csv"
    path.write_text(READS_BOTH_WAYS)
    probe = probe_file(path)
    mapping = mapping_for(probe, probe.header_row)
    assert mapping.phone_code == 1  # the proposal reads the column for countries
    settings = JobSettings(
        file=path,
        scope=Scope.global_(),
        note="asked",
        phone_code=phone_code,
        countries_chosen=countries_chosen,
    )
    return settings, mapping


def _warnings(tmp_path: Path, kind: str, *, countries_chosen: bool = False) -> list[str]:
    settings, mapping = _chosen(tmp_path, countries_chosen=countries_chosen)
    jobs = tmp_path / "jobs"
    jobs.mkdir(exist_ok=True)
    store, _summary = stage(settings, jobs, kind=kind, connection=None, mapping=mapping)
    try:
        return [str(w) for w in store.meta().get("warnings") or []]
    finally:
        store.close()


def test_an_import_by_chosen_columns_is_warned_in_the_wizards_words(tmp_path: Path) -> None:
    said = [w for w in _warnings(tmp_path, "import") if "read both ways" in w]
    assert said == [
        f"{HEAD} Those rows were read as the countries' numbers, each row's note naming its US "
        "reading. If the column holds US states, import the file again with “— not in the "
        "file —” chosen for Country code (every row then takes the US code +1); if it holds "
        "countries, tick the box saying so on the import wizard's check page, or write them "
        "as names (India and Germany)."
    ]


def test_a_removal_by_chosen_columns_is_refused(tmp_path: Path) -> None:
    settings, mapping = _chosen(tmp_path)
    jobs = tmp_path / "jobs"
    jobs.mkdir()
    with pytest.raises(MappingError) as refused:
        stage(settings, jobs, kind="removal", connection=None, mapping=mapping)
    assert str(refused.value).startswith(
        f"{HEAD} Nothing is removed: removing by the wrong reading would take someone else's "
        "opt-out off the list. If the column holds US states, run the removal again with "
        "“— not in the file —” chosen for Country code"
    )
    assert list(jobs.iterdir()) == []  # no job file was written


def test_the_persons_word_settles_it_and_is_recorded(tmp_path: Path) -> None:
    choice = (
        "Column B ('Country') holds IN and DE, US states' codes as well as countries', beside "
        "phone numbers that read both ways; it was read for countries (India and Germany), as "
        "chosen when the {kind} was started."
    )
    for kind in ("import", "removal"):
        said = _warnings(tmp_path, kind, countries_chosen=True)
        assert not [w for w in said if "read both ways (" in w]
        assert choice.format(kind=kind) in said


def test_another_default_code_is_named_in_the_advice(tmp_path: Path) -> None:
    settings, mapping = _chosen(tmp_path, phone_code="44")
    jobs = tmp_path / "jobs"
    jobs.mkdir()
    store, _ = stage(settings, jobs, kind="import", connection=None, mapping=mapping)
    said = [w for w in store.meta()["warnings"] if "read both ways" in w]
    store.close()
    assert len(said) == 1
    assert "chosen for Country code and 1 as the default country code (every row" in said[0]
