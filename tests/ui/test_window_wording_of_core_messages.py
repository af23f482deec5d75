"""Task S20 W5 (black-box B11 #5): the import wizard's check page showed staging's warnings and
row messages as core words them for the command line ("import it again with that country's:
--phone-code 49 for Germany, …"), flags the window has none of. :func:`for_window` names the
window's boxes instead; an option the window has no box for stays as written.

The sentences are core's own, made by staging real files (nothing is hand-written here but
the expectations)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import openpyxl

from app.api.scope import Scope
from app.core.job_staging import JobSettings, stage
from app.core.removal_job import stage_removal
from app.core.session import Session
from app.core.staging_notes import hidden_sheets_sentences
from app.ui.import_pages_check import COL_PROBLEM, COL_ROW
from app.ui.tasks import TaskRunner
from app.ui.window_words import FILE_PAGE, MAPPING_PAGE, TARGET_PAGE, for_window
from tests.ui.test_import_wizard import open_wizard, to_check_page

# German numbers as dialled in Germany, no country anywhere (the screenshot's file).
GERMAN = (
    "Phone\n" + "".join(f"030 {1234500 + i}\n" for i in range(5)) + "0171 2345678\n089 12345678\n"
)
CODE_BOX = "the Country code box on the 'Match the columns' page"
REMOVAL_CODE_BOX = (
    "the 'Country code for numbers without one' box on the 'Numbers to remove from the DNC "
    "list' page"
)
FLAG = re.compile(r"--[a-z][a-z-]+")


def _staged(
    tmp_path: Path, name: str, text: str, *, removal: bool = False, **settings: Any
) -> tuple[list[str], dict[int, str]]:
    """Core's warnings and row messages for ``text`` staged as an import (or a removal)."""
    folder = tmp_path / f"{name}-{'removal' if removal else 'import'}"
    folder.mkdir()
    path = folder / name
    if text:
        path.write_text(text, encoding="utf-8")
    else:
        _two_sheets(path)
    job = JobSettings(file=path, scope=Scope.global_(), **settings)
    staged = (
        stage_removal(job, folder, connection=None)
        if removal
        else stage(job, folder, kind="import", connection=None)
    )
    store = staged[0]
    try:
        warnings = [str(w) for w in store.meta().get("warnings", [])]
        messages = {r.row_number: r.message for r in store.rows() if r.message}
    finally:
        store.close()
    return warnings, messages


def _two_sheets(path: Path) -> None:
    book = openpyxl.Workbook()
    first = book.active
    assert first is not None
    first.title = "A"
    second = book.create_sheet("B")
    for sheet, area in ((first, "303"), (second, "312")):
        sheet.append(["Phone"])
        for i in range(5):
            sheet.append([f"{area}555{1000 + i}"])
    book.save(path)


def test_the_screenshots_warning_names_the_country_code_box(tmp_path: Path) -> None:
    warnings, _ = _staged(tmp_path, "german.csv", GERMAN)
    core = next(w for w in warnings if "--phone-code 49" in w)
    assert "import it again with that country's: --phone-code 49 for Germany" in core
    said = for_window(core)
    assert (
        "If the file is one country's list, go back and import it with that country's: "
        f"country code 49 ({CODE_BOX}) for Germany, country code 39 for Italy / Vatican"
    ) in said
    assert not FLAG.search(said), said
    # The rest of the sentence is core's, word for word.
    assert said.startswith(core.split(" If the file")[0])


def test_a_rows_message_names_the_box_once(tmp_path: Path) -> None:
    _, messages = _staged(tmp_path, "german.csv", GERMAN)
    core = messages[7]
    assert "use --phone-code 49 or a Country column; for the others, --phone-code 91" in core
    said = for_window(core)
    assert f"use country code 49 ({CODE_BOX}) or a Country column" in said
    assert "for the others, country codes 91 or 39" in said
    assert said.count(CODE_BOX) == 1
    assert not FLAG.search(said), said


def test_a_removal_names_the_removal_dialogs_boxes(tmp_path: Path) -> None:
    warnings, messages = _staged(tmp_path, "german.csv", GERMAN, removal=True)
    core = next(w for w in warnings if "--phone-code 49" in w)
    said = for_window(core, removal=True)
    assert (
        "start the removal again with that country's: "
        f"country code 49 ({REMOVAL_CODE_BOX}) for Germany"
    ) in said
    assert MAPPING_PAGE not in said  # a removal has no mapping page
    assert not FLAG.search(for_window(messages[2], removal=True))
    # A row naming another scope than the removal's: the box that takes the file's scopes.
    _, scoped = _staged(
        tmp_path, "scope.csv", "Phone,Scope\n3035550123,purpose:Surveys\n", removal=True
    )
    assert "(--per-row-scope takes each row's scope from the file)" in scoped[2]
    assert for_window(scoped[2], removal=True).endswith(
        "(ticking 'Take each row's scope from the file's Scope or Campaign column' on the "
        "'Scope, leads and reason' page takes each row's scope from the file)"
    )


def test_a_us_code_in_parentheses_is_said_once(tmp_path: Path) -> None:
    warnings, _ = _staged(
        tmp_path, "states.csv", "Phone,Country\n3035550123,TX\n3125550199,CA\n", phone_code="44"
    )
    core = next(w for w in warnings if "(--phone-code 1)" in w)
    assert f"need the default code +1 (country code 1 in {CODE_BOX})." in for_window(core)


def test_another_sheet_is_chosen_in_the_sheet_list(tmp_path: Path) -> None:
    warnings, _ = _staged(tmp_path, "two.xlsx", "")
    core = next(w for w in warnings if "--sheet" in w)
    # Sheet B is laid out as A: staging's warning gives the whole command (session 32, fx1).
    assert core.endswith(" --into dnc --scope global --sheet 'B'")
    said = for_window(core)
    assert said.endswith(
        f"To import it too, go back and choose it in the Sheet list on the '{FILE_PAGE}' page "
        "('B')."
    )
    assert not FLAG.search(said), said
    removal, _ = _staged(tmp_path, "two.xlsx", "", removal=True)
    said = for_window(next(w for w in removal if "--sheet" in w), removal=True)
    assert said.endswith(
        "start the removal again choosing it in the Sheet list on the 'Numbers to remove from "
        "the DNC list' page ('B')."
    )


def test_options_the_window_lacks_and_command_line_asides_stay() -> None:
    # Core's sentence for any front end names the command line's option on purpose.
    gui, _cli = hidden_sheets_sentences("book.xlsx", ["Hidden"])
    assert "(or name it with --sheet 'Hidden' on the command line)" in gui
    assert for_window(gui) == gui
    # The removal dialog has no phone column list: its option, and its "again", stay.
    cli = "run the file again with --phone-column column:C; a dry run shows what it reads"
    assert for_window(cli, removal=True) == cli
    assert for_window(cli).startswith(
        f"go back and import it with column C as the Phone number column on the '{MAPPING_PAGE}'"
    )
    assert for_window("the job's scope (--scope) applies") == (
        f"the job's scope (the Scope list on the '{TARGET_PAGE}' page) applies"
    )
    plain = "written with --report and --overwrite"
    assert for_window(plain) == plain


def test_the_check_page_shows_the_window_wording(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any, tmp_path: Path
) -> None:
    path = tmp_path / "german.csv"
    path.write_text(GERMAN, encoding="utf-8")
    wizard = open_wizard(qtbot, session, runner, path)
    # The pages the sentences send a person to are named as the wizard titles them.
    assert (wizard.source_page.title(), wizard.mapping_page.title()) == (FILE_PAGE, MAPPING_PAGE)
    assert wizard.target_page.title() == TARGET_PAGE
    to_check_page(qtbot, wizard, "German list, B11 #5")
    page = wizard.check_page
    assert page.warnings_box.isVisible()
    shown = page.warnings_box.toPlainText()
    assert (
        f"go back and import it with that country's: country code 49 ({CODE_BOX}) for Germany"
    ) in shown
    assert not FLAG.search(shown), shown
    model = page.model
    problems = {
        int(model.item(r, COL_ROW).text()): model.item(r, COL_PROBLEM)
        for r in range(model.rowCount())
    }
    assert f"use country code 49 ({CODE_BOX}) or a Country column" in problems[7].text()
    for item in problems.values():
        assert not FLAG.search(item.text()), item.text()
        assert not FLAG.search(item.toolTip()), item.toolTip()
    assert CODE_BOX in problems[7].toolTip()


def test_the_scope_a_removal_s_rows_name_is_worded_with_the_scope_list(tmp_path: Path) -> None:
    # Black-box bb2 F13: the warning counting rows of another scope names the option taking
    # them; a campaign's stayed after the box's name, a purpose of two words was cut.
    scope_list = "the Scope list on the 'Scope, leads and reason' page"
    for name, cell, said in (
        ("campaign.csv", "campaign:1002", f"scope campaign:1002 ({scope_list})"),
        (
            "purpose.csv",
            "purpose:Spring Sale",
            "the scope 'A purpose' with Purpose 'Spring Sale' (the Scope list and Purpose box "
            "on the 'Scope, leads and reason' page)",
        ),
    ):
        text = f"Phone,Scope\n3035550123,{cell}\n3035550124,{cell}\n"
        warnings, _ = _staged(tmp_path, name, text, removal=True)
        core = next(w for w in warnings if "another scope than this removal's" in w)
        shown = for_window(core, removal=True)
        assert f"to remove them, start the removal again with {said}, or with 'Take" in shown
        assert not FLAG.search(shown), shown


def test_the_check_page_says_the_other_months_without_a_command(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any, tmp_path: Path
) -> None:
    # Session 32 (fx1, black-box bb4 #7): a month-per-sheet workbook's other months are counted
    # in a warning whose commands the window words as its Sheet list.
    path = tmp_path / "months.xlsx"
    book = openpyxl.Workbook()
    first = book.active
    assert first is not None
    first.title = "Escalations"
    for sheet, base, count in (
        (first, 100, 8),
        (book.create_sheet("Nov 2026"), 200, 30),
        (book.create_sheet("Oct 2026"), 300, 30),
    ):
        sheet.append(["Phone", "Name"])
        for i in range(count):
            sheet.append([f"(415) 555-{base + i:04d}", f"N {i}"])
    book.save(path)
    wizard = open_wizard(qtbot, session, runner, path)
    to_check_page(qtbot, wizard, "month sheets, bb4 #7")
    shown = wizard.check_page.warnings_box.toPlainText()
    assert (
        "Sheets 'Nov 2026' and 'Oct 2026' of months.xlsx, laid out as sheet 'Escalations', "
        "hold 60 more rows with a phone number (30 in 'Nov 2026', 30 in 'Oct 2026'), which are "
        "not imported: only sheet 'Escalations' is read. To import them too, go back and "
        f"choose each in turn in the Sheet list on the '{FILE_PAGE}' page ('Nov 2026', "
        "'Oct 2026')."
    ) in shown
    assert not FLAG.search(shown) and "dnc-desk" not in shown, shown
