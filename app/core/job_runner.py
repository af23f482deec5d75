"""The run loop of an import or removal job: N requests in flight, pause, resume, cancel.

Requests run on the worker threads of :func:`app.api.concurrency.bounded_map`, a few more
threads than requests in flight (:func:`workers_for`; the gate holds the requests to the
job's concurrency). A worker takes
the next row still to send from the :class:`~app.core.job_store.JobStore`, marks it ``sending``
(committed, together with the outcomes recorded since the last commit) just before its request
starts, and records the outcome when the answer comes; the store's lock serialises those writes.
The calling thread counts outcomes, holds rows that got no answer, and reports progress.

The GUI drives the same object from a worker thread through :class:`JobControl` and gets a
:class:`JobProgress` (counts per outcome, rows/s, ETA) through the ``progress`` callback.

Every request of the run passes the run's :class:`~app.api.concurrency.InFlightGate`, which
knows the job's pause and stop: paused, no request starts (a retry or a look-up waits for the
resume); stopped (suspend, cancel, or the job's own abort), none starts at all, and those
still on the wire :data:`ABANDON_AFTER` seconds later have their connections shut (black-box
L4 #8: a stopped job against a service that never answered went on for minutes). A row so cut
after its write was sent is left ``sending``, for the resume to send again and settle. While
the service has answered nothing for :data:`WAITING_AFTER` seconds, the progress says so
(:attr:`JobProgress.waiting`), even though no row ends; once nothing has been answered for
:data:`SILENT_STOP_AFTER` seconds, or no write while look-ups are, the job stops for a resume.
The sentence of a job so stopped, or stopped by a run of rows with no answer, says the service
"stopped answering" of requests that reached it and got no answer (a timeout, a dropped
connection), and that it "could not be reached" when their connections were refused (S19 W1):
the service is down, not slow; both, when both happened since the last answer.
"""

from __future__ import annotations

import datetime as dt
import threading
import time
from collections import deque
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any

from app.api.concurrency import MAX_CONCURRENCY, InFlightGate, bounded_map
from app.api.errors import (
    ApiError,
    AuthError,
    ClientClosed,
    RateLimitedError,
    ServerError,
    TransportError,
)
from app.api.paging import Cancelled
from app.core.job_report import (
    MAYBE_INSERTED,
    RATE_LIMITED_ROWS,
    TOKEN_REFUSED_ROWS,
    maybe_inserted_count,
    maybe_inserted_said,
    settled_message,
)
from app.core.job_store import JobRow, JobStatus, JobStore, Outcome, RowState, scope_from_text
from app.core.journal import ChangeJournal, JournalError
from app.core.session import (
    Session,
    WriteNotJournaled,
    cancelled_after_refusals,
    e164,
    fate_open,
    journal_target,
)
from app.core.wording import joined

DEFAULT_CONCURRENCY = 8
# This many requests in a row without any answer means the service is gone, not one row bad.
UNREACHABLE_AFTER = 24
# This many sends in a row of one row left Unsettled (its write's fate open, the look-up
# failing too) also stop the job: its every request failed each time.
UNSETTLED_ROUNDS = 3
# A row whose write the service failed and a look-up then showed was not done (NotDone) is
# sent again later in the run, at most this many times more, before it ends as the error
# leaves it: a passing fault (black-box pass G: 0.5-5 % of rows at fault rates 0.1-0.5) no
# longer ends the row failed, while a row the service fails every time still ends.
NOT_DONE_RESENDS = 2
# A job whose requests have had no answer for this many seconds says so on its progress
# channel (JobProgress.waiting): a service that hangs must not look like a job at work.
WAITING_AFTER = 10.0
# Once the job is stopped, its requests still on the wire this many seconds later are cut off
# (their connections shut): a request answered at all is answered by then, and one to a
# service that hangs would otherwise hold the stop for its whole timeout (black-box L4 #8).
ABANDON_AFTER = 2.0
# A job whose requests have had no answer at all for this many seconds is stopped for a
# resume, as a run of failed rows stops it: the client's retries of each request and the
# look-ups after them, each waiting its whole timeout, kept a 4-row job at a service that hung
# busy for 12 minutes (black-box N2 #2). So is one that has answered none of its writes for as
# long while it answers look-ups (black-box R2 #2: each answered look-up restarted the wait, and
# a 20-row import whose inserts hung went on for 7.6 minutes).
SILENT_STOP_AFTER = 180.0
# How many rows the sentence of a job stopped for a failing service names in each group.
ROWS_NAMED = 3


def workers_for(concurrency: int) -> int:
    """Worker threads for ``concurrency`` requests in flight.

    A row's journal intent, outcome and job-file mark take about 4 ms around its request
    (55 ms against a 50 ms service): with a thread per request slot, that left a slot empty
    8 % of the time. The spare threads do that work while the gate keeps the requests in
    flight at ``concurrency`` (see :class:`app.api.concurrency.InFlightGate`). Below four
    requests there are none: a job run one request at a time sends its rows in their order.
    """
    return concurrency + concurrency // 4


@dataclass(frozen=True, slots=True)
class RowResult:
    outcome: Outcome
    message: str = ""
    code: str = ""
    # The day the row's outcome came about when before today: an insert's answer that the
    # change journal kept from a run killed before the job file committed it. A late request's
    # sentence counts to it (black-box N5 #3).
    done_on: dt.date | None = None


# send(row, resent): resent is True when the row was in flight when the job last stopped.
SendFn = Callable[[JobRow, bool], RowResult]


@dataclass(frozen=True, slots=True)
class Sender:
    """A send function with the change journal's word on a row in flight when the job last
    stopped: ``sent_before(row)`` is how the row's messages say it was sent on resume
    (:func:`journal_sent_before`): "" when the journal has no write of it that may have been
    sent (an intent not ended "not_attempted"). The job file marks a row ``sending`` before its
    look-ups, so a row killed or stopped during them was never sent: the runner says it was
    sent on resume of its failed or held rows only when this says so, as the removal's own
    rows do (S18 H1: such rows said it by the job file's state alone). A plain send function,
    with no journal to ask, leaves it to the job file's state, in :data:`RESUMED_SENT`'s
    words."""

    send: SendFn
    sent_before: Callable[[JobRow], str]
    # How a row never sent ends when the job is cancelled, when the journal already settles
    # it without a request (a removal row whose entry another row's delete took), else None:
    # "not attempted" would say the job never tried what it did (S19 A1).
    on_cancel: Callable[[JobRow], RowResult | None] | None = None

    def __call__(self, row: JobRow, resent: bool) -> RowResult:
        return self.send(row, resent)


def journal_sent_before(
    session: Session, job_id: str, kind: str, operation: str
) -> Callable[[JobRow], str]:
    """:attr:`Sender.sent_before` from ``session``'s change journal, for job ``job_id``'s
    intents of ``operation`` ("dnc.delete", "sms.insert", ...) for the row's number in its
    scope (``kind``'s :func:`journal_target`): "" when each ended "not_attempted" (cancelled
    before it was sent), or there are none; :data:`RESENT` when one has an outcome the process
    that sent it recorded (an answer, a lost answer, an error: a request went out);
    else :data:`RESUMED_SENT`. An intent whose outcome is missing, or was given by the resume
    (the process killed first), may have been cut before its request left the process,
    waiting on the rate limit, say (black-box B14 F2: "sent again" of a row the service
    received once): the app cannot know it was sent, so its words must not say so."""
    return sent_before_in(session.journal, job_id, kind, operation)


def sent_before_in(
    journal: ChangeJournal, job_id: str, kind: str, operation: str
) -> Callable[[JobRow], str]:
    """:func:`journal_sent_before` read from ``journal`` itself: a job cancelled while no
    process runs it (``dnc-desk jobs cancel``) asks it with no connection open."""
    # Imported here: job_exec imports this module.
    from app.core.job_exec import UNANSWERED_TEXT

    def sent_before(row: JobRow) -> str:
        target = journal_target(kind, row.national, row.phone_code, scope_from_text(row.scope))
        phone = e164(row.national, row.phone_code)
        entries = journal.job_writes(job=job_id, operation=operation, phone=phone)
        ended = {e.ref: e for e in entries if e.phase == "outcome"}
        intents = [e for e in entries if e.phase == "intent" and e.target == target]
        words = ""
        for intent in intents:
            outcome = ended.get(intent.id)
            if outcome is None or outcome.error == UNANSWERED_TEXT:
                words = RESUMED_SENT
            elif outcome.outcome != "not_attempted":
                return RESENT
        return words

    return sent_before


class Unsettled(Exception):
    """Raised by a send function for a row whose write may or may not have been done (an
    attempt's answer was lost, and the look-up meant to settle it failed too) and that is safe
    to send again: an insert, since the service answers a second insert of a listed number
    "already present". The runner keeps such a row ``sending`` in the job file (its fate is
    open, so a crash resumes it as a resent row) and sends it again later in the run, where
    its answer settles it, instead of ending it ``failed`` with its fate unknown.
    Its sends count towards the stop for a service that keeps failing, as 429 refusals do."""

    def __init__(self, error: ApiError) -> None:
        super().__init__(error.describe())
        self.error = error


class NotDone(Exception):
    """Raised by a send function for a row whose write ended in an error leaving its fate open
    (a 5xx, no answer) and whose look-up right after showed it was not done: an insert's
    number not on the list, a delete's still on it. Sending it again is safe, so the runner
    sends it back (pending again) to be sent once more later in the run, as a row refused with
    429 is, at most :data:`NOT_DONE_RESENDS` times; after those it ends as ``final`` says, or,
    with none, as ``error`` leaves it (held, then failed, as any 5xx). Its sends count towards
    the stop for a service that keeps failing. ``said`` is what the row says of this send
    (by default what a held row with ``error`` says).

    A look-up a send makes before its write raises it too when the service fails it
    (``before_write``): this send wrote nothing. It is raised from the look-up's own error
    (``raise NotDone(...) from exc``): one that never reached the service (a refused
    connection) sends the row back with no limit, as a write that never left does (see
    :func:`_never_sent`)."""

    def __init__(
        self,
        error: ApiError,
        said: str = "",
        final: RowResult | None = None,
        *,
        before_write: bool = False,
    ) -> None:
        super().__init__(said or error.describe())
        self.error = error
        self.said = said or _held_message(error)
        self.final = final
        self.before_write = before_write


class Unfinished(Exception):
    """Raised by a send function for a row whose write was done and the rest of it (a
    removal's lead updates after its deletes) was not, as the job's stop came between: the row
    stays ``sending`` in the job file, so the resume sends it again and finishes it (a removal
    row found gone sets the leads still not in the status), where ending it ``removed`` would
    leave those leads unset for good (issue 4, S18 H1). ``result`` is how the row ends if the
    job is cancelled instead; ``left`` says what is left, for the sentence of a job a failing
    service stopped."""

    def __init__(self, result: RowResult, left: str) -> None:
        super().__init__(left)
        self.result = result
        self.left = left


class JobAborted(Exception):
    """The job cannot go on (token refused, service unreachable); ``str()`` is one sentence.

    Rows not finished stay in the job file, so the job can be resumed once the cause is fixed.
    """


class TokenRefused(JobAborted):
    """The service refused the token mid-run: a caller that knows where the token came from
    (the keyring, an environment variable) names it."""


class ClientGone(JobAborted):
    """The session's API client was closed mid-run (a new token, another connection): the
    rows not finished stay for a resume through an open one."""


class JobControl:
    """Pause, resume, cancel or suspend a running job from any thread."""

    def __init__(self) -> None:
        self.paused = threading.Event()
        self.cancelled = threading.Event()
        self.suspended = threading.Event()
        # Set by any of cancel/suspend/abort: no new request starts.
        self.stop = threading.Event()

    def pause(self) -> None:
        """Start no new request until :meth:`resume` (a row's retry or look-up waits too);
        requests on the wire finish."""
        self.paused.set()

    def resume(self) -> None:
        self.paused.clear()

    def cancel(self) -> None:
        """Stop for good: rows never sent end as ``not_attempted``."""
        self.cancelled.set()
        self.stop.set()
        self.paused.clear()

    def suspend(self) -> None:
        """Stop now but keep unsent rows for a later resume (Ctrl+C in the CLI, app closing).
        Requests still unanswered :data:`ABANDON_AFTER` seconds later are cut off."""
        self.suspended.set()
        self.stop.set()
        self.paused.clear()


@dataclass(frozen=True, slots=True)
class Waiting:
    """The service has answered none of the job's requests since ``since`` (UTC), ``seconds``
    ago; ``url`` is the oldest request still unanswered (or the last that got no answer).
    With ``refused``, no connection to the service could be made since ``since``: every
    request ending since then had its connection refused (or its host unknown), and ``url``
    is the one last tried; a service that is down is not one that does not answer (black-box
    B4 #9: a sandbox killed mid-import was "No answer from the service")."""

    since: dt.datetime
    seconds: float
    url: str
    refused: bool = False

    def text(self) -> str:
        """One sentence for a front end (the CLI's stderr, the GUI's progress line)."""
        if self.refused:
            return (
                f"No connection to the service could be made for {self.seconds:.0f} s (since "
                f"{self.since:%H:%M:%S} UTC; trying {self.url}); the job is still trying."
            )
        return (
            f"No answer from the service for {self.seconds:.0f} s (since "
            f"{self.since:%H:%M:%S} UTC; waiting on {self.url}); the job is still trying."
        )


@dataclass(frozen=True, slots=True)
class JobProgress:
    counts: dict[str, int]
    done: int
    total: int
    rows_per_second: float
    eta_seconds: float | None
    paused: bool
    # Set while the service has answered nothing for WAITING_AFTER seconds or more (the job's
    # progress is then reported even though no row ends: see JobRunner).
    waiting: Waiting | None = None
    # Of the ``already_present`` rows, those this job may have inserted itself (an answer was
    # lost: job_report.maybe_inserted), as the job's summary and report count them.
    maybe_inserted: int = 0


@dataclass
class _Held:
    """Rows whose request got no answer, or only the service's failures (HTTP 5xx, or a 429
    after an earlier attempt's answer was lost), held until we know whether the service is
    gone: a few end failed when answers resume; a run of them stops the job for a resume
    instead of failing every row left.

    A row refused with 429 (after the client's retries, each of which waited for the
    transport's rate-limit hold) was not done: it is not held but sent back, pending again,
    and sent once more later in the same run (:meth:`JobRunner._run`). Its 429 answers count
    in ``refused`` towards the same stop, so a service that only ever answers 429 pauses the
    job instead of keeping it busy forever. A row whose send raised :class:`Unsettled` is sent
    again in the same pass (or the next, when the pass has nothing left to send), and counts
    there too."""

    # (row, the message it ends with if it ends failed)
    rows: list[tuple[JobRow, str]] = field(default_factory=list)
    # 429 answers and unsettled sends of rows sent back since the last answer that got through
    refused: int = 0
    # rows sent back in this pass, to send again in the next one
    sent_back: int = 0
    # Rows whose last request was refused with 429: seq -> (the row, whether it is sent
    # again after an interruption, its 429 answers in this run). A cancel before they are
    # sent again ends them saying so, not "cancelled before it was sent".
    refused_rows: dict[int, tuple[JobRow, bool, int]] = field(default_factory=dict)
    # Rows whose send raised Unsettled, still "sending" in the job file: seq -> (the row,
    # whether it was resent after an interruption, the message it ends with if the job is
    # cancelled before it is sent again, how many times in a row it was left unsettled).
    unsettled: dict[int, tuple[JobRow, bool, str, int]] = field(default_factory=dict)
    # Rows sent back after their send was shown not done (NotDone), waiting to be sent again:
    # seq -> (the row, whether it was resent after an interruption). What their sends said is
    # the runner's (JobRunner._not_done).
    not_done: dict[int, tuple[JobRow, bool]] = field(default_factory=dict)
    # Rows sent back because their request never reached the service (a refused connection,
    # see _never_sent): seq -> (the row, whether it was resent after an interruption, the
    # error). Pending again (a resent one stays "sending"), never held: answers to other rows
    # coming in meanwhile (a service shutting down still answers the requests it has) do not
    # make them failed.
    unreached: dict[int, tuple[JobRow, bool, TransportError]] = field(default_factory=dict)
    # Rows whose write was done and whose rest the job's stop cut short (Unfinished), still
    # "sending" for the resume: seq -> (the row, how it ends if the job is cancelled, what
    # is left of it).
    unfinished: dict[int, tuple[JobRow, RowResult, str]] = field(default_factory=dict)

    def seqs(self) -> set[int]:
        return {row.seq for row, _ in self.rows}


class JobRunner:
    """Send the unfinished rows of one job; :meth:`run` returns the job's new status."""

    def __init__(
        self,
        store: JobStore,
        send: SendFn,
        *,
        concurrency: int = DEFAULT_CONCURRENCY,
        control: JobControl | None = None,
        progress: Callable[[JobProgress], None] | None = None,
        progress_interval: float = 0.25,
        waiting_after: float | None = None,
        abandon_after: float | None = None,
        silent_stop_after: float | None = None,
    ) -> None:
        if not 1 <= concurrency <= MAX_CONCURRENCY:
            raise ValueError(f"concurrency must be between 1 and {MAX_CONCURRENCY}")
        self.store = store
        self._send = send
        self.concurrency = concurrency
        self.control = control or JobControl()
        self._progress = progress
        self._interval = progress_interval
        self._waiting_after = WAITING_AFTER if waiting_after is None else waiting_after
        self._abandon_after = ABANDON_AFTER if abandon_after is None else abandon_after
        self._silent_stop_after = (
            SILENT_STOP_AFTER if silent_stop_after is None else silent_stop_after
        )
        # The last send ended by each kind of no answer since a row was last answered: one
        # whose connection could not be made (nothing reached the service: a refused
        # connection) and one that reached it and got no answer (a timeout, a dropped
        # connection). The sentence of a job they stop says which came (see _stop_if_stuck).
        self._unreached_seen: TransportError | None = None
        self._unanswered_seen: TransportError | None = None
        # When the job last went on after a pause (monotonic; 0: never paused).
        self._asked_since = 0.0
        # The requests of this run (see InFlightGate): the job's stop and pause hold back
        # every request, retries and look-ups included; a stop cuts those left on the wire.
        self._gate = InFlightGate(concurrency, stop=self.control.stop, pause=self.control.paused)
        self._stopped_at: float | None = None
        self._last_report = 0.0
        self._report_args: tuple[int, int, float] | None = None
        # Why a failing service stopped the job: what it did, and how (the words in brackets
        # of the job's sentence, see _stuck_text).
        self._stuck: tuple[str, str] | None = None
        # Why each row left with its write's fate open is so (for the stop's sentence).
        self._why_open: dict[int, str] = {}
        self.counts: dict[str, int] = {}
        # The rows job_report.maybe_inserted counts, a subset of counts' already_present: both
        # change together under _tally (a worker ends a row, the loop counts it, the watch
        # reports progress), or progress showed more maybe-inserted rows than rows already
        # present (bb14 W4). A row a worker ended so waits in _maybe_ended until counted.
        self.maybe_inserted = 0
        self._maybe_ended: set[int] = set()
        self._tally = threading.Lock()
        self.abort_reason = ""
        self.token_refused = False
        # The session's client was closed under the run (ClientGone).
        self.client_gone = False
        # Rows whose send raised Unsettled in this pass, to send again before its next row:
        # queued by the worker that sent them, so that worker's next row is this one again.
        self._again: deque[tuple[JobRow, bool]] = deque()
        # Rows sent back as NotDone: seq -> (their sends so far, what the last one said), so
        # the row's message says why it was sent again. Written by the calling thread before
        # the pass that sends them again starts; read by the workers.
        # The last item counts the write requests those sends made, with the client's retries
        # (black-box R1 #5: "sent 3 times" of a row the service got 12 requests for).
        self._not_done: dict[int, tuple[int, str, bool, int]] = {}
        # The journal's word on rows in flight when the job last stopped (see Sender), asked
        # before a row's first send in this run (after it, that send's own write would count):
        # seq -> how the row says it was sent on resume ("": no earlier send of it went out).
        self._sent_before = send.sent_before if isinstance(send, Sender) else None
        self._went_out: dict[int, str] = {}
        self._on_cancel = send.on_cancel if isinstance(send, Sender) else None

    def _rows(self, held: _Held) -> Iterator[tuple[JobRow, bool]]:
        skip = held.seqs()
        # Rows left unsettled before this pass are "sending": the job file yields them below.
        again = self._again
        again.clear()
        for row in self.store.unfinished():
            # Rows left unsettled in this pass go again before the next row, so the report
            # (written in sheet order) is not held up behind them until the pass ends.
            while again:
                yield again.popleft()
            if row.seq in skip:
                continue  # held from an earlier pass of this run: its outcome is still open
            resent = row.state == RowState.SENDING.value
            if row.seq in held.unsettled:
                # "sending" because its fate is open, not because the job was interrupted:
                # resent only if it already was when this run took it up.
                resent = held.unsettled[row.seq][1]
            if not resent:
                self.store.mark_sending(row.seq)
            yield row, resent
        while again:
            yield again.popleft()

    def _said_resent(self, row: JobRow, resent: bool) -> str:
        """How the row is said to be sent on resume ("" when it is not): in flight when the job
        stopped (``resent``, the job file's word) and, for a :class:`Sender`, with a write the
        journal says may have been sent before this run's first send of it, in the journal's
        words (:func:`journal_sent_before`); a plain send function's cannot tell whether its
        earlier send left the process (:data:`RESUMED_SENT`)."""
        return self._went_out.get(row.seq, RESUMED_SENT) if resent else ""

    def _call(self, item: tuple[JobRow, bool]) -> RowResult:
        row, resent = item
        if resent and self._sent_before is not None and row.seq not in self._went_out:
            self._went_out[row.seq] = self._sent_before(row)
        said = self._said_resent(row, resent)
        try:
            result = self._send(row, resent)
        except Unsettled:
            self._again.append(item)
            raise
        # Queued here, in the worker, so the outcome is committed with the next row's
        # "sending" mark, which this worker makes before its next request: at any moment at
        # most one row per worker thread (workers_for) is left "sending" (resent after a
        # crash).
        message = result.message
        if said and result.outcome is Outcome.FAILED:
            message = _resent_text(message, said)
        message = self._after_not_done(row, message)
        staged = _with_staged(row, message, result.outcome, result.done_on)
        self._mark_done(row.seq, result.outcome, staged, result.code)
        return result

    def _after_not_done(self, row: JobRow, message: str) -> str:
        """``message``, saying why the row took more than one send when it was sent again
        after sends shown not done (NotDone)."""
        earlier = self._not_done.get(row.seq)
        return message if earlier is None else _after_not_done(message, *earlier)

    def run(self) -> JobStatus:
        """Run until every row is done, or until paused for good, cancelled or aborted.

        Holds the job's run lock throughout, unless the caller (``job_exec.execute``) holds
        it in this thread already; raises ``job_lock.JobBusy`` when another runner has it.
        Raises :class:`JobAborted` when the service refuses the token or cannot be reached.
        """
        # Imported here: job_lock's JobBusy is a JobAborted.
        from app.core import job_lock

        if job_lock.held_by_this_thread(self.store.path):
            return self._run()
        with job_lock.acquire(self.store.path, str(self.store.meta().get("job_id", ""))) as lock:
            status = self._run()
            lock.ended = status.value
            return status

    def _run(self) -> JobStatus:
        control = self.control
        self.counts = self.store.counts()
        meta = self.store.meta()
        self.maybe_inserted = self._maybe_inserted_before(meta)
        if meta.get(TOKEN_REFUSED_ROWS) or meta.get(RATE_LIMITED_ROWS):
            # Said of the rows the last run's refused token or the service's rate limit left
            # pending: this run sends them.
            self.store.set_meta({TOKEN_REFUSED_ROWS: {}, RATE_LIMITED_ROWS: {}})
        total = sum(self.counts.values())
        start_done = total - self.counts["pending"]
        self.store.set_status(JobStatus.RUNNING)
        started = time.monotonic()
        self._report_args = (total, start_done, started)
        held = _Held()
        # Passes over the rows still to send: a pass after the first sends the rows the
        # service refused with 429 in the one before (sent back, see _Held), and those left
        # unsettled after it had sent its last row.
        while True:
            held.sent_back = 0
            for done in bounded_map(
                self._call,
                self._rows(held),
                concurrency=self.concurrency,
                workers=workers_for(self.concurrency),
                stop=control.stop,
                pause=control.paused,
                gate=self._gate,
                idle=self._idle,
            ):
                row, resent = done.item
                error = done.error
                if isinstance(error, JournalError):
                    self._journal_failed(row, resent, error, held)
                    control.stop.set()
                    continue
                if isinstance(error, ClientClosed):
                    self._client_closed(row, held)
                    control.stop.set()
                    continue
                # How the row's messages say it (the job file's state stays `resent`'s).
                told = self._said_resent(row, resent)
                if (unreached := _never_sent(error)) is not None:
                    # Nothing of this send reached the service (black-box L2 #1: rows resent
                    # on resume whose delete met a refused connection ended failed for good
                    # when answers to requests in flight came after): sent again in the next
                    # pass, pending meanwhile (a resent row stays "sending"); a run of them
                    # stops the job for a resume, which sends them.
                    if not resent:
                        self.store.mark_pending(row.seq)
                    held.unreached[row.seq] = (row, resent, unreached)
                    held.refused_rows.pop(row.seq, None)
                    held.unsettled.pop(row.seq, None)
                    held.not_done.pop(row.seq, None)
                    held.sent_back += 1
                    held.refused += 1
                    self._stop_if_stuck(held, unreached)
                    continue
                if not isinstance(error, Cancelled):  # a cancel before it is sent again keeps it
                    held.unreached.pop(row.seq, None)
                if isinstance(error, NotDone):
                    so_far = self._not_done.get(row.seq, (0, "", False, 0))
                    sends = so_far[0] + 1
                    requests = so_far[3] + (0 if error.before_write else error.error.attempts)
                    if sends <= NOT_DONE_RESENDS:
                        # Not done, so sent again in the next pass, pending meanwhile (a row
                        # resent after an interruption stays "sending": it is still one).
                        if not resent:
                            self.store.mark_pending(row.seq)
                        held.not_done[row.seq] = (row, resent)
                        self._not_done[row.seq] = (
                            sends,
                            error.said,
                            error.before_write,
                            requests,
                        )
                        held.refused_rows.pop(row.seq, None)
                        held.unsettled.pop(row.seq, None)
                        held.sent_back += 1
                        held.refused += 1
                        self._stop_if_stuck(held, error.error)
                        continue
                    # Sent as often as it may be: it ends as the service's error leaves it,
                    # saying how often it was sent (so not as a row sent again, below).
                    held.not_done.pop(row.seq, None)
                    self._not_done.pop(row.seq, None)
                    if error.final is not None:
                        final = error.final
                        message = _with_staged(
                            row,
                            _resent_text(
                                f"{final.message}; "
                                f"{_sends_text(sends, error.before_write, requests)}",
                                told,
                            ),
                            final.outcome,
                        )
                        self._mark_done(row.seq, final.outcome, message, final.code)
                        self._count(final.outcome, row.seq)
                        continue
                    error.error.add_detail(_sends_text(sends, error.before_write, requests))
                    error = error.error
                if isinstance(error, Unfinished):
                    # Its write was done: "sending" still, for the resume to finish it.
                    held.unfinished[row.seq] = (row, error.result, error.left)
                    held.refused_rows.pop(row.seq, None)
                    held.unsettled.pop(row.seq, None)
                    held.not_done.pop(row.seq, None)
                    held.unreached.pop(row.seq, None)
                    continue
                if isinstance(error, Cancelled) and (opened := _left_open(error)) is not None:
                    # The job's stop cut this row's write short after it was sent (its answer
                    # lost, or the look-up after its error not made): it may have been done.
                    # Kept "sending", so the resume sends it again as such and settles it; a
                    # cancel ends it failed saying so (black-box L4 #8).
                    message = _stopped_open_text(opened, told)
                    times = held.unsettled.get(row.seq, (row, resent, "", 0))[3]
                    held.unsettled[row.seq] = (row, resent, message, times)
                    self._why_open[row.seq] = WHY_STOPPED
                    held.refused_rows.pop(row.seq, None)
                    held.not_done.pop(row.seq, None)
                    held.unreached.pop(row.seq, None)
                    continue
                if isinstance(error, Cancelled):
                    # Stopped before its first attempt was sent: pending again, for a resume;
                    # unless an earlier pass sent it (Unsettled): it stays "sending", its fate
                    # open, and a cancel ends it failed saying so. A row in flight when the
                    # job last stopped stays "sending" too, so the next resume sends it again
                    # as such: pending, it would be a first send there (S18 H1b: a removal
                    # row whose number the killed run deleted, stopped during its look-ups on
                    # resume, then ended "not on the list", its leads never set).
                    if not resent and row.seq not in held.unsettled:
                        self.store.mark_pending(row.seq)
                    continue
                if (
                    isinstance(error, RateLimitedError)
                    and not error.earlier_attempt_lost
                    and not error.earlier_send_open
                ):
                    # Refused before it was processed: not done, so sent again later. A row
                    # resent after an interruption stays "sending" (it is still one).
                    if not resent:
                        self.store.mark_pending(row.seq)
                    held.unsettled.pop(row.seq, None)  # a look-up found it not done
                    held.sent_back += 1
                    held.refused += max(1, error.attempts)
                    before = held.refused_rows.get(row.seq, (row, resent, 0))[2]
                    held.refused_rows[row.seq] = (
                        row,
                        resent,
                        before + max(1, error.attempts),
                    )
                    # A 429 without Retry-After is raised once the service has refused
                    # everything for the client's whole patience (minutes): the job stops then
                    # (black-box R1 #6: it stopped after 7 s, inside one per-minute window).
                    self._stop_if_stuck(held, error, error.patience_spent)
                    continue
                if isinstance(error, Unsettled):
                    # Its fate is open and it is safe to send again: sent in the next pass.
                    message = f"{_held_message(error.error, told)}; {CANCELLED_UNSETTLED}"
                    times = held.unsettled.get(row.seq, (row, resent, "", 0))[3] + 1
                    held.unsettled[row.seq] = (row, resent, message, times)
                    self._why_open[row.seq] = WHY_UNSETTLED
                    held.refused_rows.pop(row.seq, None)
                    held.refused += 1
                    # A row whose every request fails, time after time, is the service failing
                    # (as a run of rows is): each round can take its retries' timeouts.
                    self._stop_if_stuck(held, error.error, times >= UNSETTLED_ROUNDS)
                    continue
                held.refused_rows.pop(row.seq, None)  # it got an answer, or none at all
                held.unsettled.pop(row.seq, None)
                held.not_done.pop(row.seq, None)
                result = self._result(done.result, error, resent)
                if result is None:
                    # No answer, or the service failing: keep the row "sending" (resent on
                    # resume) unless answers resume.
                    held.rows.append((row, self._after_not_done(row, _held_message(error, told))))
                    self._stop_if_stuck(held, error)
                    continue
                held.refused = 0
                self._unreached_seen = self._unanswered_seen = None
                if isinstance(error, AuthError):
                    self.abort_reason = f"The service refused the token: {error.describe()}"
                    self.token_refused = True
                    control.stop.set()
                    self._refused_token(row, resent, error)
                    continue
                if held.rows and not self.abort_reason:
                    self._flush_held(held)
                if error is not None:  # answers were recorded by the worker (_call)
                    text = self._after_not_done(row, _resent_text(result.message, told))
                    message = _with_staged(row, text, result.outcome)
                    self._mark_done(row.seq, result.outcome, message, result.code)
                self._count(result.outcome, row.seq)
                if control.paused.is_set() or control.stop.is_set():
                    # No next request will carry this outcome to disk soon: commit it now.
                    self.store.flush()
                now = time.monotonic()
                if self._progress is not None and now - self._last_report >= self._interval:
                    self._last_report = now
                    self._report(total, start_done, started, now)
            if not (held.sent_back or held.unsettled) or self.abort_reason or control.stop.is_set():
                break
            # The next pass reads the rows still to send from the job file.
            self.store.flush()
        if self._stuck is not None and not self.token_refused:
            self.abort_reason = self._stuck_text(held)
        if held.refused_rows and not control.cancelled.is_set():
            self._rate_limited(held)
        if self.abort_reason:
            self.store.set_status(JobStatus.PAUSED, stopped_because=self.abort_reason)
            stopped = JobAborted
            if self.token_refused:
                stopped = TokenRefused
            elif self.client_gone:
                stopped = ClientGone
            raise stopped(self.abort_reason)
        if held.rows:
            self._flush_held(held)
        if control.cancelled.is_set():
            for seq, (row, result, _left) in held.unfinished.items():
                message = _with_staged(row, result.message, result.outcome)
                self._mark_done(seq, result.outcome, message, result.code)
                self._count(result.outcome, seq)
            for seq, (row, _resent, message, _times) in held.unsettled.items():
                self._mark_done(seq, Outcome.FAILED, _with_staged(row, message, Outcome.FAILED))
                self._count(Outcome.FAILED, seq)
            for seq, (row, resent) in held.not_done.items():
                # Shown not done, and cancelled before it was sent again.
                sends, said, before_write, requests = self._not_done[seq]
                sent = _sends_text(sends, before_write, requests)
                text = f"{said}; {sent}; {CANCELLED_UNSETTLED}"
                message = _resent_text(text, self._said_resent(row, resent))
                self._mark_done(seq, Outcome.FAILED, _with_staged(row, message, Outcome.FAILED))
                self._count(Outcome.FAILED, seq)
            for seq, (row, resent, unreached) in held.unreached.items():
                if not resent:
                    continue  # pending: "cancelled before it was sent", below
                # Its send before the interruption may have been done: said, as for a 429.
                message = _resent_text(
                    f"cancelled: {_unreached_text(unreached)}", self._said_resent(row, resent)
                )
                outcome = Outcome.NOT_ATTEMPTED
                self._mark_done(seq, outcome, _with_staged(row, message, outcome))
                self._count(Outcome.NOT_ATTEMPTED, seq)
            for seq, (row, resent, refused) in held.refused_rows.items():
                message = f"cancelled: {cancelled_after_refusals(refused)}"
                if said := self._said_resent(row, resent):  # that send may have been done
                    message = f"{said}; cancelled: {cancelled_after_refusals(refused, False)}"
                outcome = Outcome.NOT_ATTEMPTED
                self._mark_done(seq, outcome, _with_staged(row, message, outcome))
                self._count(Outcome.NOT_ATTEMPTED, seq)
            if self._on_cancel is not None:
                self._settle_unsent(self._on_cancel)
            n = self.store.mark_not_attempted("cancelled before it was sent")
            with self._tally:
                self.counts["not_attempted"] = self.counts.get("not_attempted", 0) + n
                self.counts["pending"] = 0
            status = JobStatus.CANCELLED
        elif control.suspended.is_set() and (
            # Rows done whose look-ups the stop cut short are the resume's too (B28 F2).
            self.store.counts()["pending"] or self.store.rechecks()
        ):
            status = JobStatus.PAUSED
        else:
            status = JobStatus.FINISHED
        self.store.set_status(status)
        if self._progress is not None:
            self._report(total, start_done, started, time.monotonic(), ended=True)
        return status

    def _settle_unsent(self, on_cancel: Callable[[JobRow], RowResult | None]) -> None:
        """End each row still to send that ``on_cancel`` settles as it says (a cancelled job)."""
        self.store.flush()  # the rows ended above are read as done
        unsent = (RowState.PENDING.value, RowState.SENDING.value)
        for row in self.store.rows():
            if row.state in unsent and (result := on_cancel(row)) is not None:
                message = _with_staged(row, result.message, result.outcome)
                self._mark_done(row.seq, result.outcome, message, result.code)
                self._count(result.outcome, row.seq)

    def _journal_failed(self, row: JobRow, resent: bool, error: JournalError, held: _Held) -> None:
        """A row whose write the change journal could not record (a full disk): no write may go
        out unrecorded, so the job stops for a resume. A row whose intent was not written was
        not sent: pending again. One whose request went out (its outcome not recorded) may
        have been done: it stays "sending", so the resume sends it again as such and settles
        it, instead of ending failed with "the change was not made" while it was on the list
        (black-box B35 F1)."""
        may_be_done = error.may_be_done if isinstance(error, WriteNotJournaled) else True
        if not may_be_done and not resent and row.seq not in held.unsettled:
            self.store.mark_pending(row.seq)
        for kept in (held.unsettled, held.not_done, held.unreached, held.refused_rows):
            kept.pop(row.seq, None)
        if not self.abort_reason:
            self.abort_reason = (
                f"{error} The job stopped, as no change may be sent without its record; "
                "resume it once the journal can be written: it sends the rows not sent and "
                "looks up those whose outcome was not recorded."
            )

    def _client_closed(self, row: JobRow, held: _Held) -> None:
        """A row whose write the session refused because its client was closed (another
        connection opened in the window while the job ran): every next row would meet it too,
        so the job stops for a resume instead of failing them all. The refused write was not
        sent, but an earlier write of the row may have been (a removal's delete before its
        leads): the row stays "sending", so the resume settles it with a look-up, and the
        journal tells its words whether anything of it went out (journal_sent_before)."""
        for kept in (held.unsettled, held.not_done, held.unreached, held.refused_rows):
            kept.pop(row.seq, None)
        self.client_gone = True
        if not self.abort_reason:
            self.abort_reason = (
                f"The job stopped at row {row.row_number}: the connection's API client was "
                "closed (another connection was opened, or the token replaced, while it ran); "
                "resume it from the Jobs tab to send the rows not sent."
            )

    def _refused_token(self, row: JobRow, resent: bool, error: AuthError) -> None:
        """A row the service answered by refusing the token: nothing was done, so it is pending
        again (a first send for the resume), and the report says why, not that its fate is
        open (black-box R1 #7: such rows said "no answer came, or the service failed it").
        Unless an earlier send of it may have been done: it stays "sending" for the resume to
        settle."""
        if resent or error.earlier_attempt_lost or error.earlier_send_open:
            return
        self.store.mark_pending(row.seq)
        done = "deleted" if self.store.meta().get("kind") == "removal" else "inserted"
        said = (
            f"sent, and the service refused the token ({error.describe()}), so nothing was "
            f"{done}; the resume sends it again"
        )
        refused = dict(self.store.meta().get(TOKEN_REFUSED_ROWS) or {})
        refused[str(row.seq)] = said
        self.store.set_meta({TOKEN_REFUSED_ROWS: refused})

    def _rate_limited(self, held: _Held) -> None:
        """The rows the service last refused with HTTP 429, pending as the run ends (paused):
        the report says so, and that the resume sends them (re-test U1 #9: their Message was
        empty, while a row the token was refused for said it was sent and refused). A row
        resent after an interruption stays "sending", its earlier send's fate open: it says
        that instead."""
        done = "deleted" if self.store.meta().get("kind") == "removal" else "inserted"
        said: dict[str, str] = {}
        for seq, (_row, resent, refused) in held.refused_rows.items():
            if resent:
                continue
            times = "once" if refused == 1 else f"{refused:,} times"
            said[str(seq)] = (
                f"sent, and the service refused it {times} for its rate limit (HTTP 429), so "
                f"nothing was {done}; pending: the resume (--resume) sends it again"
            )
        if said:
            self.store.set_meta({RATE_LIMITED_ROWS: said})

    def _idle(self) -> None:
        """Every quarter second of the run (see bounded_map): cut off the requests a stop
        left on the wire once :data:`ABANDON_AFTER` has passed, and report progress while
        the service answers nothing (no row ends then, so nothing else would)."""
        now = time.monotonic()
        if self.control.stop.is_set() and not self._gate.abandoned:
            if self._stopped_at is None:
                self._stopped_at = now
            elif now - self._stopped_at >= self._abandon_after:
                self._gate.abandon()
        elif self.control.paused.is_set():
            # A pause asks nothing of the service: its silence then, and until as long again
            # after the pause, is no sign of a hang (a request unanswered before the pause
            # would otherwise stop the job the moment it goes on).
            self._asked_since = now
        elif (
            not self.control.stop.is_set()
            and self._stuck is None
            and now - self._asked_since >= self._silent_stop_after
        ):
            silent = self._gate.waiting(self._silent_stop_after)
            if silent is not None and silent.refused_since == silent.since:
                # Every request since the last answer had its connection refused: the service
                # is down or unreachable, not slow (S19 W1).
                self._stop_silent(
                    now,
                    (silent.since, silent.refused_url),
                    "no connection could be made",
                    "; the last tried was",
                    stopped="could not be reached",
                )
            elif silent is not None:
                also = ""
                if silent.refused_since is not None:
                    # Unanswered, then refused: both said.
                    at = dt.datetime.now(dt.UTC) - dt.timedelta(seconds=now - silent.refused_since)
                    also = (
                        f"; no connection could be made since {at:%H:%M:%S} UTC, the last tried "
                        f"was {silent.refused_url}"
                    )
                self._stop_silent(
                    now,
                    (silent.since, silent.url),
                    "nothing answered",
                    "; the oldest request unanswered was to",
                    stopped=f"stopped answering{' and could not be reached' if also else ''}",
                    also=also,
                )
            elif (quiet := self._gate.waiting_writes(self._silent_stop_after)) is not None:
                # Its look-ups answered, each restarting the wait above, while no write was:
                # the same stop (black-box R2 #2).
                self._stop_silent(
                    now,
                    quiet,
                    "no write answered",
                    ", while look-ups were; the oldest write unanswered was to",
                    stopped="stopped answering writes",
                )
        if (
            self._progress is not None
            and self._report_args is not None
            and now - self._last_report >= self._interval
        ):
            self._last_report = now
            self._report(*self._report_args, now)

    def _stop_silent(
        self,
        now: float,
        quiet: tuple[float, str],
        lead: str,
        oldest: str,
        *,
        stopped: str,
        also: str = "",
    ) -> None:
        """Stop the job for a resume: since ``quiet`` (when, and the request waiting or last
        tried), nothing (or no write) was answered for SILENT_STOP_AFTER; ``stopped`` is what
        the service did, ``also`` more of it."""
        since, url = quiet
        at = dt.datetime.now(dt.UTC) - dt.timedelta(seconds=now - since)
        words = f"{lead} for {now - since:.0f} s, since {at:%H:%M:%S} UTC{oldest} {url}{also}"
        self._stuck = (stopped, words)
        self.abort_reason = f"The service {stopped}."
        self.control.stop.set()

    def _stop_if_stuck(self, held: _Held, error: BaseException | None, stuck: bool = False) -> None:
        """Stop the job for a resume after a run of rows with nothing done (see _Held), or
        when ``stuck`` says so. Its sentence is made when the run ends (:meth:`_stuck_text`),
        naming the rows left open then. Not once the job is stopping anyway (a pause, a
        cancel, an abort): rows cut short by the stop do not say the service failed.

        A service none of whose requests got an answer "stopped answering" only when they
        reached it (timed out, or their connection dropped): one whose connections were
        refused "could not be reached", and a run of both says both (S19 W1: a sandbox
        stopped mid-run, every connection refused, was said to have stopped answering)."""
        if isinstance(error, TransportError):
            if error.sent:
                self._unanswered_seen = error
            else:
                self._unreached_seen = error
        if self.control.stop.is_set():
            return
        if not stuck and len(held.rows) + held.refused < max(
            UNREACHABLE_AFTER, 2 * self.concurrency
        ):
            return
        if isinstance(error, TransportError):
            what, words = _no_answer_words(self._unanswered_seen, self._unreached_seen)
        elif isinstance(error, RateLimitedError):
            what, words = "kept refusing requests for its rate limit", _failure_words(error)
        else:
            what, words = "kept failing", _failure_words(error)  # a 5xx
        self._stuck = (what, words)
        # Said in full once the run ends; set now, as the loop stops on it.
        self.abort_reason = f"The service {what}."
        self.control.stop.set()

    def _stuck_text(self, held: _Held) -> str:
        """The sentence of a job stopped for a failing service: how it failed, and which rows
        that left open and what is known of each (black-box L4 #12: it named an endpoint and
        one row's error, "nothing was deleted" beside "whether it was removed is not known",
        with no row or number to say whose)."""
        assert self._stuck is not None
        what, words = self._stuck
        text = f"The service {what} ({words}); the job was stopped and can be resumed."
        removal = self.store.meta().get("kind") == "removal"
        write, done = ("delete", "removed") if removal else ("insert", "inserted")
        unknown, undone = f"Not known whether {done}", f"Not {done}"
        groups: dict[tuple[str, str], list[JobRow]] = {}
        for seq, (row, _resent, _message, _times) in held.unsettled.items():
            groups.setdefault((unknown, self._why_open.get(seq, WHY_UNSETTLED)), []).append(row)
        for row, _message in held.rows:
            groups.setdefault((unknown, WHY_HELD), []).append(row)
        for seq, (row, _resent) in held.not_done.items():
            before_write = self._not_done.get(seq, (0, "", False, 0))[2]
            why = WHY_LOOKUP_FAILED if before_write else WHY_NOT_DONE
            groups.setdefault((undone, why), []).append(row)
        for row, _resent, _error in held.unreached.values():
            groups.setdefault((undone, WHY_UNREACHED), []).append(row)
        for row, _resent, _refused in held.refused_rows.values():
            groups.setdefault((undone, WHY_REFUSED), []).append(row)
        for row, _result, left in held.unfinished.values():
            groups.setdefault((f"{done.capitalize()}, not finished", left), []).append(row)
        if not groups:
            return text
        said = [
            f"{state}, as {why.format(write=write)}: {_rows_text(rows)}."
            for (state, why), rows in groups.items()
        ]
        others = self.store.counts()["pending"] - sum(len(rows) for rows in groups.values())
        if others > 0:
            said.append(
                f"{others:,} other {'row was' if others == 1 else 'rows were'} not sent yet."
            )
        again = "The resume sends the rows not done"
        if any(state == unknown for state, _why in groups):
            again += f", which settles whether those not known were {done}"
        if held.unfinished:
            again += ", and finishes those not finished"
        return " ".join([text, *said, f"{again}."])

    def _flush_held(self, held: _Held) -> None:
        for row, message in held.rows:
            self._mark_done(row.seq, Outcome.FAILED, _with_staged(row, message, Outcome.FAILED))
            self._count(Outcome.FAILED, row.seq)
        held.rows.clear()

    def _maybe_inserted_before(self, meta: Mapping[str, Any]) -> int:
        """The rows of the runs before that job_report.maybe_inserted counts: as their report
        stored them, as job_exec.job_summary reads them (else counted, once)."""
        stored = meta.get(MAYBE_INSERTED)
        if isinstance(stored, int):
            return stored
        if not self.counts.get(Outcome.ALREADY_PRESENT.value):
            return 0  # a new job: nothing to read
        return maybe_inserted_count(self.store)

    def _mark_done(self, seq: int, outcome: Outcome, message: str = "", code: str = "") -> None:
        """End the row in the job file; :meth:`_count` counts it as the job's summary will."""
        self.store.mark_done(seq, outcome, message, code)
        if maybe_inserted_said(outcome, message):
            with self._tally:
                self._maybe_ended.add(seq)

    def _count(self, outcome: Outcome, seq: int) -> None:
        """Count row ``seq``'s outcome, and whether this job may have inserted it, at once."""
        with self._tally:
            self.counts[outcome.value] = self.counts.get(outcome.value, 0) + 1
            self.counts["pending"] = max(0, self.counts.get("pending", 0) - 1)
            if seq in self._maybe_ended:
                self._maybe_ended.discard(seq)
                self.maybe_inserted += 1

    @staticmethod
    def _result(
        result: RowResult | None, error: BaseException | None, resent: bool
    ) -> RowResult | None:
        if error is None:
            assert result is not None
            return result
        if isinstance(error, TransportError | ServerError | RateLimitedError):
            return None  # held: see _Held
        if isinstance(error, ApiError):
            code = "" if error.code is None else str(error.code)
            return RowResult(Outcome.FAILED, error.describe(), code)
        return RowResult(Outcome.FAILED, f"{type(error).__name__}: {error}")

    def _report(
        self, total: int, start_done: int, started: float, now: float, ended: bool = False
    ) -> None:
        assert self._progress is not None
        with self._tally:
            counts = dict(self.counts)
            maybe = self.maybe_inserted
        done = total - counts.get("pending", 0)
        elapsed = max(now - started, 1e-6)
        rate = (done - start_done) / elapsed
        remaining = total - done
        eta = remaining / rate if rate > 0 else None
        waiting = None if ended else self._waiting()
        paused = self.control.paused.is_set()
        self._progress(JobProgress(counts, done, total, rate, eta, paused, waiting, maybe))

    def _waiting(self) -> Waiting | None:
        """What the job says while the service has answered nothing for a while."""
        quiet = self._gate.waiting(self._waiting_after)
        if quiet is None:
            return None
        since, url = quiet.since, quiet.url
        if quiet.refused_since is not None:
            since, url = quiet.refused_since, quiet.refused_url
        # Measured after the gate's own check: the report's time was taken before it, so a silence
        # the gate found long enough could read as shorter (0.99992 s of a 1 s threshold).
        seconds = time.monotonic() - since
        at = dt.datetime.now(dt.UTC) - dt.timedelta(seconds=seconds)
        return Waiting(at.replace(microsecond=0), seconds, url, quiet.refused)


def _with_staged(
    row: JobRow, message: str, outcome: Outcome, done_on: dt.date | None = None
) -> str:
    """The row's staged note (a cut reason, a damaged cell, a late request) kept in front of
    what sending it says: the report is evidence, and the send must not erase the check.

    A late request is said as of how the row ended (:func:`settled_message`): counted to its
    insertion when it was inserted (today, or ``done_on``), which a resume days after the
    check may make late."""
    staged = settled_message(row, outcome, done_on or dt.date.today())
    if not staged:
        return message
    return f"{staged}; {message}" if message else staged


# How a row in flight when the job stopped says it was sent on resume: RESENT when the change
# journal shows an earlier request of it went out (its answer, a lost answer, an error was
# recorded), else RESUMED_SENT: an interrupted request may have been cut before it left the
# process (black-box B14 F2: the service received the row once), which the app cannot know.
RESENT = "sent again when the job was resumed"
RESUMED_SENT = (
    "sent when the job was resumed (an earlier attempt, interrupted, may have reached the service)"
)
RESENT_WORDS = (RESENT, RESUMED_SENT)
# How a row whose fate was left open (Unsettled) ends when the job is cancelled before it is
# sent again, after its error's own words.
CANCELLED_UNSETTLED = "the job was cancelled before it was sent again"


def _times(count: int) -> str:
    return "once" if count == 1 else "twice" if count == 2 else f"{count} times"


def _requests_text(requests: int) -> str:
    return "1 request" if requests == 1 else f"{requests:,} requests"


def _sends_text(sends: int, before_write: bool = False, requests: int | None = None) -> str:
    """How often a row was sent (or, ``before_write``, tried: its last try stopped at a look-up
    before the write) in this run, the service failing it and leaving it not done each time;
    ``requests`` is how many write requests those sends made with the client's retries (as
    many as the sends when None), which is what the service's own log counts."""
    if requests is None:
        requests = 0 if before_write else sends
    if before_write:
        text = (
            f"tried {_times(sends)} in this run, not done each time; the last try stopped at a "
            "look-up the service failed, before anything was sent"
        )
        if requests:
            text += (
                f" (the earlier tries sent {_requests_text(requests)}, with the client's "
                "retries, each failed by the service)"
            )
        return text
    if requests == sends:
        return f"sent {_times(sends)} in this run, each time failed by the service and not done"
    return (
        f"sent {_times(requests)} in this run ({sends} send{'' if sends == 1 else 's'} of the "
        "row by the job, with the client's retries), each time failed by the service and not "
        "done"
    )


def _after_not_done(
    message: str, sends: int, said: str, before_write: bool = False, requests: int | None = None
) -> str:
    """``message`` of a row sent again after ``sends`` tries shown not done, the last of which
    said ``said`` (``before_write``: it stopped at a look-up before the write), which made
    ``requests`` write requests with the client's retries: the answer it got is evidence, and
    so is why it took more than one try."""
    many = sends != 1
    if requests is None:
        requests = 0 if before_write else sends
    sent = f" ({_requests_text(requests)} with the client's retries)" if requests != sends else ""
    if before_write:
        sent = f" ({_requests_text(requests)} sent, with the client's retries)" if requests else ""
        earlier = f"its {sends} earlier tries" if many else "its earlier try"
        again = (
            f"{earlier} in this run{sent} {'were' if many else 'was'} not done, the last "
            "stopping at a look-up the service failed, before anything was sent (the last: "
            f"{said})"
        )
    else:
        earlier = f"its {sends} earlier sends" if many else "its earlier send"
        again = (
            f"{earlier} in this run{sent} {'were' if many else 'was'} failed by the service and "
            f"not done (the last: {said})"
        )
    return f"{message}; {again}" if message else again


def _never_sent(error: BaseException | None) -> TransportError | None:
    """The connection error of a send none of whose requests reached the service, else None.

    A write that could not connect (:attr:`TransportError.sent` False) whose earlier attempts
    left nothing open, or a look-up before the write (:class:`NotDone` ``before_write``,
    raised from the look-up's own error) that could not connect: nothing was done, so the row
    is as it was before the send, and sending it again is safe."""
    if isinstance(error, NotDone):
        if not error.before_write:
            return None
        error = error.__cause__
    if (
        isinstance(error, TransportError)
        and not error.sent
        and not error.earlier_attempt_lost
        and not error.earlier_send_open
    ):
        return error
    return None


def _unreached_text(error: TransportError) -> str:
    """What a row whose last send never reached the service says when the job is cancelled
    before it is sent again."""
    return (
        f"the service could not be reached ({_error_text(error)}), so nothing was sent, and "
        "the job was cancelled before it was sent again"
    )


def _resent_text(message: str, resent: str) -> str:
    """``message`` of a row that failed, saying first, in ``resent``'s words, when the row was
    sent on resume after the job was interrupted (its earlier send may have been done: the
    README promises it says so)."""
    if not resent or message.startswith(RESENT_WORDS):
        return message
    return f"{resent}; {message}" if message else resent


def _held_message(error: BaseException | None, resent: str = "") -> str:
    """What a held row says if it ends failed."""
    if isinstance(error, TransportError):
        message = f"no answer from the service: {_error_text(error)}"
        if error.sent:
            # A write whose answer was lost may still have been done: a compliance officer
            # must not read "failed" as "the list is unchanged".
            message += (
                "; the request was sent, so the service may have done it before the answer was lost"
            )
    else:
        message = _error_text(error)  # a 5xx or 429: its own words (and whether it may be done)
    return _resent_text(message, resent)


# Why a row a failing service stopped the job on is left open, or not done ({write}: the
# job's write, "insert" or "delete"), for JobRunner._stuck_text.
WHY_UNSETTLED = (
    "the {write} was sent and got an error or no answer, and the look-up meant to tell "
    "whether it was done failed too"
)
WHY_STOPPED = "the {write} was sent, and the job stopped before an answer or a look-up told"
WHY_HELD = "the {write} was sent and got an error or no answer"
WHY_LOOKUP_FAILED = "the look-up before the {write} failed, so no {write} was sent"
WHY_NOT_DONE = "the {write} failed and a look-up after it found it not done"
WHY_UNREACHED = "the service could not be reached, so nothing was sent"
WHY_REFUSED = "the service refused it for its rate limit (HTTP 429)"
# What a row whose write the job's stop left open says when the job is then cancelled.
STOPPED_OPEN = (
    "the request was sent and the job was stopped before its answer came (or before it was "
    "sent again after its answer was lost), so the service may have done it"
)
STOPPED_BEFORE_LOOK_UP = "the job was stopped before a look-up could tell whether it was done"


def _left_open(error: Cancelled) -> ApiError | Cancelled | None:
    """What left open the write of a row the job's stop cut short: the :class:`Cancelled`
    itself when the transport says an attempt was sent and its answer lost, or the write's
    error when the stop cut the look-up made after it (a look-up cut short raises Cancelled
    while that error is being handled); None when the stop came before anything was sent."""
    if error.maybe_done:
        return error
    cause = error.__context__
    while cause is not None:
        if isinstance(cause, ApiError):
            return cause if fate_open(cause) else None
        cause = cause.__context__
    return None


def _stopped_open_text(opened: ApiError | Cancelled, resent: str) -> str:
    """What a row the job's stop left open (:func:`_left_open`) says if the job is then
    cancelled."""
    if isinstance(opened, ApiError):
        text = f"{_held_message(opened, resent)}; {STOPPED_BEFORE_LOOK_UP}"
    else:
        text = _resent_text(STOPPED_OPEN, resent)
    return f"{text}; {CANCELLED_UNSETTLED}"


def _no_answer_words(
    unanswered: TransportError | None, unreached: TransportError | None
) -> tuple[str, str]:
    """What a service none of a run of requests got an answer from did, and how, for the
    sentence of a job it stopped: ``unanswered`` is the last of them that reached it (a
    timeout, a dropped connection), ``unreached`` the last whose connection could not be
    made (refused, its host unknown). Refused connections are a service down or unreachable,
    not one that stopped answering (S19 W1)."""
    said = [_failure_words(e) for e in (unanswered, unreached) if e is not None]
    if unreached is None:
        what = "stopped answering"
    elif unanswered is None:
        what = "could not be reached"
    else:
        what = "stopped answering and could not be reached"
    return what, "; ".join(said)


# Words of a connection error's cause that name it: a refused connection, a host name the
# resolver does not know.
_REFUSED_WORDS = ("refused",)
_UNKNOWN_HOST_WORDS = (
    "name or service not known",
    "nodename nor servname",
    "name resolution",
    "getaddrinfo failed",
    "no address associated",
)


def _unreached_words(error: TransportError) -> str:
    """Why no connection to the service could be made (``error`` was not sent)."""
    low = error.message.lower()
    if any(w in low for w in _REFUSED_WORDS):
        return "connection refused"
    if error.timeout:
        return "no connection made within the timeout"
    if any(w in low for w in _UNKNOWN_HOST_WORDS):
        return "its host name not found"
    return error.message


def _failure_words(error: BaseException | None) -> str:
    """How the service failed, as the sentence of a job it stopped says it: the kind of
    failure and where it last did, without what one row made of it."""
    endpoint = error.endpoint if isinstance(error, ApiError) else ""
    if isinstance(error, TransportError):
        if not error.sent:
            return f"{_unreached_words(error)}, the last time at {endpoint}"
        kind = "no answer within the timeout" if error.timeout else "no answer"
        return f"{kind}, the last to {endpoint}"
    if isinstance(error, ApiError) and error.http_status is not None:
        try:
            phrase = f" {HTTPStatus(error.http_status).phrase}"
        except ValueError:
            phrase = ""
        body = ""
        if "an HTML page" in error.message:
            body = " with an HTML page"
        elif "an empty body" in error.message:
            body = " with an empty body"
        return f"HTTP {error.http_status}{phrase}{body}, the last from {endpoint}"
    return _error_text(error)


def _rows_text(rows: list[JobRow]) -> str:
    """``row 12 (+12025550112)``, ``rows 12 (+1…), 13 (+1…) and 4 more``: the first few."""
    rows = sorted(rows, key=lambda r: r.row_number)
    shown = [
        f"{r.row_number} ({e164(r.national, r.phone_code) or r.original})"
        for r in rows[:ROWS_NAMED]
    ]
    more = len(rows) - len(shown)
    if more:
        shown.append(f"{more:,} more")
    return f"{'row' if len(rows) == 1 else 'rows'} {joined(shown)}"


def _error_text(error: BaseException | None) -> str:
    if isinstance(error, ApiError):
        return error.describe()
    return str(error)
