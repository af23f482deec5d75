"""Black-box bb12 F2 in the wizard: of a workbook with 'Opt Outs' then 'SMS Opt-outs', an SMS
import on the command line reads 'SMS Opt-outs', but the wizard proposed 'Opt Outs' whatever
the list (it probed before knowing it), so the window imported the other sheet. The list is
chosen after the file: the wizard now reads the sheet the command line reads for the list
chosen, proposes its columns again and says so, unless the person chose the sheet by hand.
Real widgets, against the sandbox."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import openpyxl

from app.api.client import DncQuery
from app.core.session import Session
from app.ui.import_wizard import ImportWizard
from app.ui.tasks import TaskRunner
from tests.ui.test_import_wizard import TIMEOUT, open_wizard

GENERIC = ["2025550101", "2025550102"]
SMS = ["3035550111", "3035550112", "3035550113"]


def _workbook(path: Path) -> Path:
    wb = openpyxl.Workbook()
    first = wb.active
    assert first is not None
    first.title = "Opt Outs"
    first.append(["Phone"])
    for n in GENERIC:
        first.append([n])
    sms = wb.create_sheet("SMS Opt-outs")
    sms.append(["Name", "Mobile"])  # the phone in column B here, not A
    for n in SMS:
        sms.append(["x", n])
    wb.save(path)
    return path


def _to_target(qtbot: Any, wizard: ImportWizard) -> None:
    wizard.next()
    assert wizard.currentId() == wizard.PAGE_MAPPING
    wizard.next()
    assert wizard.currentId() == wizard.PAGE_TARGET


def _sheet_is(qtbot: Any, wizard: ImportWizard, sheet: str) -> None:
    page = wizard.source_page
    qtbot.waitUntil(
        lambda: not page.loading and page.probe is not None and page.probe.sheet == sheet,
        timeout=TIMEOUT,
    )


def test_the_sms_list_chosen_reads_the_sms_sheet_as_the_cli_does(
    qtbot: Any, runner: TaskRunner, session: Session, sandbox: Any, tmp_path: Path
) -> None:
    wizard = open_wizard(qtbot, session, runner, _workbook(tmp_path / "both.xlsx"))
    assert wizard.source_page.probe is not None
    assert wizard.source_page.probe.sheet == "Opt Outs"  # for the DNC list, as the CLI reads
    _to_target(qtbot, wizard)
    target = wizard.target_page
    target.sms_radio.setChecked(True)
    _sheet_is(qtbot, wizard, "SMS Opt-outs")
    assert target.sheet_note.isVisible()
    assert (
        "Sheet 'SMS Opt-outs' is read for the SMS opt-out list, not 'Opt Outs', as the command "
        "line reads it: its columns were proposed again — go Back to check them"
    ) in target.sheet_note.text()
    mapping = wizard.mapping_page.mapping
    assert mapping is not None and mapping.phone == 1  # the new sheet's 'Mobile' column
    target.note_edit.setText("bb12 F2")
    qtbot.waitUntil(target.isComplete, timeout=TIMEOUT)
    wizard.next()
    assert wizard.currentId() == wizard.PAGE_CHECK
    qtbot.waitUntil(lambda: wizard.check_page.result is not None, timeout=TIMEOUT)
    assert wizard.settings().sheet == "SMS Opt-outs"
    with qtbot.waitSignal(wizard.job_finished, timeout=TIMEOUT) as finished:
        wizard.next()
    assert finished.args[0]["inserted"] == 3
    numbers = sorted(e.phone_number for e in session.api.search_sms(DncQuery()).items)
    assert numbers == SMS


def test_back_to_dnc_and_a_sheet_chosen_by_hand_stays(
    qtbot: Any, runner: TaskRunner, session: Session, tmp_path: Path
) -> None:
    wizard = open_wizard(qtbot, session, runner, _workbook(tmp_path / "both.xlsx"))
    _to_target(qtbot, wizard)
    target = wizard.target_page
    target.sms_radio.setChecked(True)
    _sheet_is(qtbot, wizard, "SMS Opt-outs")
    target.dnc_radio.setChecked(True)
    _sheet_is(qtbot, wizard, "Opt Outs")
    assert "Sheet 'Opt Outs' is read for the DNC list, not 'SMS Opt-outs'" in (
        target.sheet_note.text()
    )
    # Chosen by hand on the first page: the list no longer changes it.
    wizard.back()
    wizard.back()
    page = wizard.source_page
    combo = page.sheet_combo
    index = combo.findData("SMS Opt-outs")
    combo.setCurrentIndex(index)
    combo.activated.emit(index)
    _sheet_is(qtbot, wizard, "SMS Opt-outs")
    _to_target(qtbot, wizard)
    target.sms_radio.setChecked(True)
    target.dnc_radio.setChecked(True)
    assert not page.loading
    assert page.probe is not None and page.probe.sheet == "SMS Opt-outs"


def test_a_dnc_import_reads_the_dnc_sheet_after_an_sms_one(
    qtbot: Any, runner: TaskRunner, session: Session, tmp_path: Path
) -> None:
    # B31 F5 in the wizard: 'SMS Opt-outs' first and 'DNC' after, the DNC list (the default)
    # reads 'DNC', as the command line does; the wizard showed the first sheet.
    path = tmp_path / "lists.xlsx"
    wb = openpyxl.Workbook()
    first = wb.active
    assert first is not None
    first.title = "SMS Opt-outs"
    dnc = wb.create_sheet("DNC")
    for sheet, numbers in ((first, SMS), (dnc, GENERIC)):
        sheet.append(["Phone"])
        for n in numbers:
            sheet.append([n])
    wb.save(path)
    wizard = open_wizard(qtbot, session, runner, path)
    _sheet_is(qtbot, wizard, "DNC")
    _to_target(qtbot, wizard)
    wizard.target_page.sms_radio.setChecked(True)
    _sheet_is(qtbot, wizard, "SMS Opt-outs")
