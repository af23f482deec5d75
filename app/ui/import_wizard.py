"""The import wizard: file → columns → list and scope → check → run → result.

Each page lives in its own module (``import_pages_*``); the run and result pages are shared
with bulk removal and the job list (:mod:`app.ui.job_progress`). The wizard holds what the
pages share: the session, the runner, the campaign names (fetched once, in the background)
and the :class:`JobHandle` once the import starts.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from PySide6.QtCore import Signal
from PySide6.QtWidgets import QWidget, QWizard

from app.api.models import Campaign
from app.core.job_staging import JobSettings
from app.core.paths import AppPaths
from app.core.session import Session
from app.core.sheet_check import Target
from app.core.sheet_mapping import ColumnMapping
from app.core.sheet_scope import CampaignDirectory
from app.core.sheet_types import SheetError
from app.core.wording import counted
from app.ui.error_messages import user_message
from app.ui.import_pages_check import CheckPage
from app.ui.import_pages_mapping import MappingPage, TargetChoices, TargetPage
from app.ui.import_pages_source import SourcePage
from app.ui.import_wizard_engine import (
    UnreadColumn,
    adopt_staged,
    discard_staged,
    source_changed,
    stage_job,
)
from app.ui.job_list import refuse_beside_in_window
from app.ui.job_progress import JobHandle, ResultPage, RunPage
from app.ui.plain_text import literal, window_title
from app.ui.tasks import TaskRunner


@dataclass(frozen=True)
class NextImport:
    """A second import of the same file, offered once an import has ended: read from
    ``phone_column``, a column of phone numbers the job before left unread; ``imported`` are
    the phone columns of the jobs before (the check page says so of them, not "not
    imported"). ``header_row`` and ``choices`` are what the person confirmed for the job
    before (its header row; its list, scope and note): set again, to confirm or change, so
    only the phone column is new."""

    sheet: str | None
    phone_column: int
    imported: tuple[int, ...]
    header_row: int | None
    choices: TargetChoices
    # The ids of the jobs before, which the report of this one names (bb14 W6).
    jobs: tuple[str, ...] = ()


class ImportWizard(QWizard):
    """Import a spreadsheet of numbers into the DNC or SMS opt-out list.

    Signals:
        job_started(object): the :class:`JobHandle` of the import, once it starts.
        job_finished(object): the job's summary dict when it has ended (for refreshing views).
        next_import(object): the :class:`ImportWizard` opened to import a second phone
            column of the same file (for the window to follow it as it follows this one).
    """

    job_started = Signal(object)
    job_finished = Signal(object)
    next_import = Signal(object)

    PAGE_SOURCE, PAGE_MAPPING, PAGE_TARGET, PAGE_CHECK, PAGE_RUN, PAGE_RESULT = range(6)

    def __init__(
        self,
        session: Session,
        runner: TaskRunner,
        paths: AppPaths,
        file: Path | None = None,
        parent: QWidget | None = None,
        follow: NextImport | None = None,
    ) -> None:
        super().__init__(parent)
        self.follow = follow
        # The columns of phone numbers the started job leaves unread, offered for the next.
        self.unread_phones: list[UnreadColumn] = []
        self.session = session
        self.runner = runner
        self.paths = paths
        # The connection's campaigns, fetched once: names resolve and ids are checked
        # against them; until they arrive (or if they cannot be loaded) ids go unchecked.
        self.campaign_lookup = CampaignDirectory.unchecked()
        self.campaigns_error = ""
        self.handle: JobHandle | None = None
        self.setWindowTitle(window_title(f"Import numbers — {session.connection.name}"))
        self.setWizardStyle(QWizard.WizardStyle.ClassicStyle)
        self.setOption(QWizard.WizardOption.NoBackButtonOnLastPage, True)
        self.setOption(QWizard.WizardOption.NoCancelButtonOnLastPage, True)
        self.setOption(QWizard.WizardOption.HaveHelpButton, False)
        self.source_page = SourcePage(self)
        self.mapping_page = MappingPage(self)
        self.target_page = TargetPage(self)
        self.check_page = CheckPage(self)
        self.run_page = RunPage(self.start_job, "import", self)
        self.result_page = ResultPage(self.run_page, "import", self)
        for page_id, page in enumerate(
            (
                self.source_page,
                self.mapping_page,
                self.target_page,
                self.check_page,
                self.run_page,
                self.result_page,
            )
        ):
            self.setPage(page_id, page)
        # A consumer's second number needs an import of its own: offered, never started
        # unasked, once this one has ended (the next wizard checks it before Start).
        self.setOption(QWizard.WizardOption.HaveCustomButton1, True)
        self.next_button = self.button(QWizard.WizardButton.CustomButton1)
        self.next_button.hide()
        self.customButtonClicked.connect(lambda _which: self.import_next())
        self.currentIdChanged.connect(lambda _id: self._offer_next())
        self.resize(980, 680)
        self._load_campaigns()
        if file is not None:
            self.source_page.set_path(file, follow.sheet if follow is not None else None)

    def _offer_next(self) -> None:
        shown = self.currentId() == self.PAGE_RESULT and bool(self.unread_phones)
        if shown:
            first = self.unread_phones[0]
            self.setButtonText(
                QWizard.WizardButton.CustomButton1, f"&Import column {first.letter} next…"
            )
            self.next_button.setToolTip(
                f"Open a new import of this file reading {first.said} as the phone number; "
                "it is checked before anything is sent."
            )
            # Said on the page too: a button alone at the bottom is easily missed.
            self.result_page.setSubTitle(
                f"⚠ {first.said[:1].upper()}{first.said[1:]} holds phone numbers this import "
                f'left off the list (on {counted(first.differing, "row", "rows")}): press "Import '
                f'column {first.letter} next" to import them.'
            )
        self.next_button.setVisible(shown)

    def import_next(self) -> ImportWizard | None:
        """Open a new import of this file reading the first column of phone numbers this job
        left unread, and close this one."""
        probe = self.source_page.probe
        mapping = self.mapping_page.mapping
        if not self.unread_phones or probe is None or mapping is None or mapping.phone is None:
            return None
        before = self.follow.imported if self.follow is not None else ()
        jobs = self.follow.jobs if self.follow is not None else ()
        follow = NextImport(
            probe.sheet or None,
            self.unread_phones[0].index,
            (*before, mapping.phone),
            mapping.header_row,
            self.target_page.choices(),
            (*jobs, self.handle.job_id) if self.handle is not None else jobs,
        )
        wizard = ImportWizard(
            self.session, self.runner, self.paths, probe.path, self.parentWidget(), follow
        )
        self.next_import.emit(wizard)
        wizard.show()
        self.accept()
        return wizard

    def set_session(self, session: Session) -> None:
        """A new token for the same connection: what starts later goes through
        ``session`` (the old one's client is closed)."""
        self.session = session

    def _load_campaigns(self) -> None:
        api = self.session.api

        def done(campaigns: list[Campaign]) -> None:
            self.campaign_lookup = CampaignDirectory(campaigns)
            self.target_page.set_campaigns(self.campaign_lookup.named)
            # A check made without the list is checked again with it.
            self.check_page.campaigns_loaded()

        def failed(exc: BaseException) -> None:
            self.campaigns_error = user_message(exc, "Loading the campaigns").text
            self.target_page.set_campaigns(())
            self.target_page.campaign_combo.setPlaceholderText("Campaigns could not be loaded")
            self.target_page.campaign_combo.setToolTip(literal(self.campaigns_error))

        self.runner.submit(
            "load campaigns",
            lambda ctx: api.campaigns(ctx.cancel_event),
            on_done=done,
            on_error=failed,
        )

    def done(self, result: int) -> None:
        # Closing stops a check still reading the file; a started import goes on (Jobs tab).
        if self.check_page.task is not None:
            self.check_page.task.cancel()
        # QWizard.done cleans up the pages (cleanupPage): the check page deletes the job it
        # staged, and the one a check still running stages (its answer comes too late).
        super().done(result)

    def source_changed(self) -> None:
        """The file, sheet or header row changed: the mapping must be proposed again."""
        self.mapping_page._key = None

    def sheet_reproposed(self, before: str, now: str) -> None:
        """The chosen list made the wizard read sheet ``now`` instead of ``before``: its
        columns are proposed again if they were already, and the Target page says so."""
        if self.currentId() > self.PAGE_MAPPING:
            self.mapping_page.initializePage()
            # A scope or campaign column on the new sheet offers the per-row scope.
            self.target_page.initializePage()
        listed = "SMS opt-out" if self.target_page.target is Target.SMS_OPT_OUT else "DNC"
        self.target_page.say_sheet(
            f"Sheet {now!r} is read for the {listed} list, not {before!r}, as the command line "
            "reads it: its columns were proposed again — go Back to check them, or choose "
            "another sheet on the 'Choose the file' page."
        )

    def effective_mapping(self) -> ColumnMapping | None:
        """The mapping to check and send with: the page's columns and defaults, the chosen
        scope as default, and the scope/campaign columns only when "per row" is chosen (a
        scope picked for the whole file must not be overridden by cells)."""
        mapping = self.mapping_page.current_mapping()
        scope = self.target_page.scope()
        if mapping is None or scope is None:
            return None
        out = replace(mapping, default_scope=scope)
        if not self.target_page.per_row:
            out.scope = out.campaign = None
        return out

    def settings(self) -> JobSettings:
        probe = self.source_page.probe
        mapping = self.effective_mapping()
        scope = self.target_page.scope()
        assert probe is not None and mapping is not None and scope is not None
        return JobSettings(
            file=probe.path,
            scope=scope,
            target=self.target_page.target,
            sheet=probe.sheet or None,
            sheet_guessed=not probe.chosen,
            phone_code=mapping.default_phone_code,
            reason=mapping.default_reason,
            purpose=mapping.default_purpose,
            name=self.target_page.name_edit.text().strip(),
            note=self.target_page.note_edit.text().strip(),
            countries_chosen=self.check_page.countries_chosen,
            imported_before=self.follow.imported if self.follow is not None else (),
            imported_by=self.follow.jobs if self.follow is not None else (),
        )

    def start_job(self) -> JobHandle:
        """Send the job the check page staged, or stage the checked file anew when something
        changed since (a box ticked, the campaign list loaded), and start sending (called by
        the run page)."""
        if self.handle is not None:
            return self.handle
        settings = self.settings()
        mapping = self.effective_mapping()
        assert mapping is not None
        fixes = dict(self.check_page.fixes)
        lookup = self.campaign_lookup
        paths = self.paths
        connection = self.session.connection
        result = self.check_page.result
        # What the page showed was read from the file as it was then (its fingerprint).
        shown = result.staged if result is not None else None
        checked = self.check_page.take_staged()
        # A column whose every number is the one read adds nothing: not offered.
        self.unread_phones = [c for c in self.check_page.unread_shown if c.differing]

        def stage() -> Any:
            # The page checked the file at Start (validatePage); changed in the instant since,
            # nothing is sent rather than rows the page never showed.
            if shown is not None and (change := source_changed(shown)):
                if checked is not None:
                    discard_staged(checked)
                raise SheetError(
                    f"{settings.file.name} {change} since it was checked: nothing was sent. "
                    "Import it again to check it anew."
                )
            if checked is not None and checked.path.is_file():
                # What the check page showed is exactly what is sent.
                staged = adopt_staged(checked, paths.jobs_dir)
            else:
                staged = stage_job(
                    settings,
                    mapping,
                    paths.jobs_dir,
                    paths.reports_dir,
                    kind="import",
                    connection=connection,
                    campaign_lookup=lookup,
                    fixes=fixes,
                )
            # Not beside a job of the same file into the same list (S31 bb4 #6).
            refuse_beside_in_window(
                staged[0], paths.jobs_dir, f"Import of {settings.file.name} not started"
            )
            return staged

        handle = JobHandle(
            self.runner,
            self.session,
            "import",
            stage=stage,
            concurrency=self.target_page.concurrency_spin.value(),
            parent=self.runner,
        )
        handle.finished.connect(self.job_finished)
        self.handle = handle
        handle.start()
        self.job_started.emit(handle)
        return handle
