"""A DNC Desk export told by its header row, and its text cells read back exactly as the service
had them (black-box B27 F5, F3): the one apostrophe the export puts before text that could
start a formula is taken off, and nothing else (spaces, a tab, an invisible mark stay)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from app.core.export_job import COLUMNS, exported_text, is_export_header
from app.core.job_report import ROW_COLUMNS
from app.core.xlsx_safe import neutralise


def test_an_export_s_header_is_told() -> None:
    assert is_export_header(COLUMNS)
    assert is_export_header(COLUMNS[:-1])  # an export older than campaign_uid
    assert is_export_header([*COLUMNS, "", ""])
    set_aside = ["" if name in ("reason", "campaign_name") else name for name in COLUMNS]
    assert is_export_header(set_aside)


def test_other_headers_are_not_an_export_s() -> None:
    assert not is_export_header(["Phone", "Scope", "Purpose"])
    assert not is_export_header(ROW_COLUMNS)
    assert not is_export_header([*COLUMNS, "notes"])
    assert not is_export_header(COLUMNS[:-2])
    swapped = list(COLUMNS)
    swapped[6], swapped[7] = swapped[7], swapped[6]
    assert not is_export_header(swapped)
    # Without the columns saying which entry a row is, it is read as any file.
    for told_by in ("scope", "purpose", "campaign_id", "phone_number"):
        assert not is_export_header(["" if name == told_by else name for name in COLUMNS])


def test_export_text_is_read_exactly() -> None:
    assert exported_text("'\t=Alerts") == "\t=Alerts"  # the CSV's guard
    assert exported_text("\t=Alerts") == "\t=Alerts"  # the xlsx's cell (quotePrefix style)
    assert exported_text("  Alerts ") == "  Alerts "
    assert exported_text("''=1+1") == "'=1+1"
    assert exported_text("  ''=1") == "  '=1"
    assert exported_text("'til 5pm") == "'til 5pm"
    assert exported_text("\u200fNotices") == "\u200fNotices"


@settings(max_examples=300)
@given(st.text(alphabet=st.sampled_from(list("'=+-@\t\r\n x1\u200b")), max_size=8))
def test_export_text_reads_back_what_the_csv_export_wrote(text: str) -> None:
    assert exported_text(neutralise(text)) == text
