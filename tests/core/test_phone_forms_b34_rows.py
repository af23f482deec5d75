"""Black-box B34 F2 and F4 as an import reads its rows: a local number beside a region with one
area code is completed, the row's note naming the cell; 810 beside Russia or Belarus is their
exit code, read as "00" is."""

from __future__ import annotations

from pathlib import Path

from app.api.scope import Scope
from app.core.import_job import stage_import
from app.core.job_staging import JobSettings
from app.core.job_store import JobRow


def _staged(tmp_path: Path, text: str) -> dict[int, JobRow]:
    path = tmp_path / "list.csv"
    path.write_text(text, encoding="utf-8")
    store, _summary = stage_import(
        JobSettings(path, Scope.global_()), tmp_path / "jobs", connection=None
    )
    with store:
        return {r.row_number: r for r in store.rows()}


def test_local_number_beside_a_one_area_region_is_completed(tmp_path: Path) -> None:
    got = _staged(
        tmp_path,
        "Phone,Country\n812345,JE\n712345,Guernsey\n612345,IM\n91388009,CC\n91388008,CX\n"
        "4412345,BM\n7946 0123,GB\n",
    )
    read = {n: (r.outcome, r.phone_code, r.national) for n, r in got.items()}
    assert read[2] == ("", "44", "1534812345")
    assert read[3] == ("", "44", "1481712345")
    assert read[4] == ("", "44", "1624612345")
    assert read[5] == ("", "61", "891388009")
    assert read[6] == ("", "61", "891388008")
    assert got[2].message == (
        "row 2: read as +44 1534 812345: the number is written without its area code, and the "
        "'Country' cell's 'JE' (column B) names Jersey, whose only area code is 1534"
    )
    assert "names Christmas Island, whose only area code is 8" in got[6].message
    # Bermuda has one area code, 441, which phonenumbers adds as it adds Jersey's (FXB item 3);
    # Great Britain has many: its 8-digit local number stays refused.
    assert read[7] == ("", "1", "4414412345")
    assert read[8][0] == "invalid"


def test_810_beside_russia_or_belarus_is_their_exit_code(tmp_path: Path) -> None:
    got = _staged(
        tmp_path,
        "Phone,Country\n810495052726,BY\n810 49 30 1234567,RU\n810 49 30 1234568,DE\n"
        "8 495 123-45-67,RU\n",
    )
    assert (got[2].outcome, got[2].phone_code, got[2].national) == ("", "49", "5052726")
    assert (got[3].outcome, got[3].phone_code, got[3].national) == ("", "49", "301234567")
    assert got[3].message == (
        "row 3: read under its own +49 (Germany), not the 'Country' cell's 'RU' (Russia / "
        "Kazakhstan, column B): where a consumer lives need not be where the line is"
    )
    # 810 is no exit code in Germany: the digits are read as a German number's.
    assert (got[4].phone_code, got[4].national) != ("49", "301234568")
    assert (got[5].phone_code, got[5].national) == ("7", "4951234567")
