"""The warning of an export made while jobs wrote to the list (black-box B33-3): a file holding
more rows than the service counted at the start and at the end says it includes removed entries."""

from pathlib import Path

from app.core.export_job import ExportResult, change_warning


def _result(rows: int, total: int, at_end: int) -> ExportResult:
    return ExportResult(Path("x.csv"), rows, total, 0, list_changed=True, total_at_end=at_end)


def test_more_rows_than_either_count_says_removed_entries_are_included() -> None:
    text = change_warning(_result(1902, 1834, 1894))
    assert "1,834 entries when it started, 1,894 when it ended" in text
    assert (
        "this file holds 1,902 rows, 8 more than the service counted at either end, so it "
        "includes entries removed while it was read"
    ) in text


def test_rows_within_the_counts_add_nothing() -> None:
    text = change_warning(_result(1850, 1834, 1894))
    assert "more than the service counted" not in text
    assert text.endswith("export again when no job is writing to it")


def test_an_unchanged_list_has_no_warning() -> None:
    result = ExportResult(Path("x.csv"), 10, 10, 0)
    assert change_warning(result) == ""
