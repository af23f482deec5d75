"""With no header naming it, the phone column is the one holding the most different valid
numbers (black-box findings: an SMS log's "to" column of the business's own number was read
instead of "from"; one line split by a stray comma made a one-column file read its column B)."""

from __future__ import annotations

from pathlib import Path

from app.api.scope import Scope
from app.core.job_staging import JobSettings, open_mapped
from app.core.sheet_mapping import propose_from_preview
from app.core.sheet_types import CellValue, Row


def numbered(*rows: list[CellValue]) -> list[Row]:
    return [(i, row) for i, row in enumerate(rows, 1)]


def test_an_sms_log_reads_the_senders_not_the_business_number() -> None:
    rows = numbered(
        ["from", "to", "body"],
        *([f"+1303555014{i}", "+18005550199", "STOP"] for i in range(1, 6)),
    )
    assert propose_from_preview(rows).phone == 0
    swapped = numbered(
        ["to", "from", "body"],
        *(["+18005550199", f"+1303555014{i}", "STOP"] for i in range(1, 6)),
    )
    assert propose_from_preview(swapped).phone == 1


def test_a_line_split_by_a_stray_comma_does_not_move_the_column(tmp_path: Path) -> None:
    path = tmp_path / "numbers.csv"
    path.write_text("3035551001\n3035551002\n3035551003,3035551004\n3035551005\n3035551006\n")
    source, mapping = open_mapped(path, JobSettings(file=path, scope=Scope.global_()))
    source.close()
    assert mapping.phone == 0


def test_of_two_columns_as_full_the_first_is_read() -> None:
    rows = numbered(
        ["Primary", "Secondary"],
        *([f"303555{i:04d}", f"720555{i:04d}"] for i in range(6)),
    )
    assert propose_from_preview(rows).phone == 0


def test_the_note_on_other_phone_columns_names_an_option_for_each() -> None:
    from app.core.sheet_mapping import other_phone_columns
    from app.core.staging_notes import other_columns_sentence

    rows = numbered(
        ["Name", "Phone", "Fax", "Mobile Phone", "Home Phone", "Other Phone"],
        *(
            [f"n{i}", f"303555{i:04d}", "", f"720555{i:04d}", f"719555{i:04d}", f"970555{i:04d}"]
            for i in range(6)
        ),
    )
    mapping = propose_from_preview(rows)
    assert mapping.phone == 1
    others = other_phone_columns(mapping, rows[1:])
    assert others == [3, 4, 5]
    sentence = other_columns_sentence(mapping, others, "import")
    assert sentence.endswith(
        "run the file again once for each: --phone-column column:D, --phone-column column:E "
        "and --phone-column column:F."
    ), sentence
