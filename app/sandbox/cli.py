"""The ``dnc-desk sandbox`` command: serve the sandbox until interrupted."""

from __future__ import annotations

import argparse
import errno
import os
import signal
import sqlite3
import sys
import threading
from types import FrameType

from app.sandbox.opt_out_queries import DAY, INSERT_DATE_MODES
from app.sandbox.runner import SandboxServer
from app.sandbox.validation import ANY_PHONE, PHONE_FORMATS

DEFAULT_PORT = 8765
# A demo token for a local sandbox holding no real data, not a credential.
DEFAULT_TOKEN = "sandbox-token"  # noqa: S105
# A launcher passes its per-launch token here rather than as --token, which any local user
# could read from the process list.
TOKEN_ENV = "DNC_DESK_SANDBOX_TOKEN"  # noqa: S105  (a variable name, not a secret)
# The read-only and limited tokens travel the same way, for a script trying refusals.
READ_ONLY_TOKEN_ENV = "DNC_DESK_SANDBOX_READ_ONLY_TOKEN"  # noqa: S105  (a variable name)
LIMITED_TOKEN_ENV = "DNC_DESK_SANDBOX_LIMITED_TOKEN"  # noqa: S105  (a variable name)


def add_arguments(parser: argparse.ArgumentParser) -> None:
    # The docs say never a token on the command line; these options are the exception, test
    # tokens of a local sandbox, and --help says so (black-box s31).
    parser.epilog = (
        "The token options are for a local test sandbox only: any local user can read a "
        f"command line in the process list. Set {TOKEN_ENV}, {READ_ONLY_TOKEN_ENV} and "
        f"{LIMITED_TOKEN_ENV} instead to keep the tokens out of it (a variable wins over its "
        "option). "
        # Every other command ends its --help so (black-box bb8); a stop asked for is how a
        # sandbox ends, so Ctrl+C and SIGTERM are 0, as run() returns after them.
        "Exit status: 0 stopped by Ctrl+C, SIGTERM or (with --exit-with-parent) standard input "
        "closing; 1 it could not start (the port in use, a --db that cannot be used); 2 a bad "
        "option; 129 SIGHUP stopped it."
    )
    parser.add_argument(
        "--host", default="127.0.0.1", metavar="HOST", help="address to bind (default 127.0.0.1)"
    )
    parser.add_argument(
        "--port",
        type=int,
        metavar="PORT",
        default=DEFAULT_PORT,
        help="port; 0 picks a free one (default 8765)",
    )
    parser.add_argument(
        "--db", default=None, metavar="PATH", help="SQLite file to keep data in (default: memory)"
    )
    parser.add_argument(
        "--token",
        default=DEFAULT_TOKEN,
        metavar="TOKEN",
        help=f"sandbox token with full permissions (default {DEFAULT_TOKEN}; or set {TOKEN_ENV})",
    )
    parser.add_argument(
        "--read-only-token",
        default=None,
        metavar="TOKEN",
        help=f"sandbox token that may only read (or set {READ_ONLY_TOKEN_ENV})",
    )
    parser.add_argument(
        "--limited-token",
        default=None,
        metavar="TOKEN",
        help=f"sandbox token without campaign management (or set {LIMITED_TOKEN_ENV})",
    )
    parser.add_argument("--empty", action="store_true", help="start without demo data")
    parser.add_argument(
        "--exit-with-parent",
        action="store_true",
        help="stop when standard input closes (a launching app exited or died)",
    )
    parser.add_argument("--reset", action="store_true", help="wipe an existing --db and reseed")
    parser.add_argument(
        "--seed", type=int, metavar="N", default=1, help="demo data and fault random seed"
    )
    parser.add_argument(
        "--latency-ms", type=float, metavar="MS", default=0.0, help="added latency per request"
    )
    parser.add_argument(
        "--error-rate",
        type=_fraction,
        metavar="F",
        default=0.0,
        help="fraction of requests answered with 5xx",
    )
    parser.add_argument(
        "--drop-rate",
        type=_fraction,
        metavar="F",
        default=0.0,
        help="fraction of responses cut off after handling",
    )
    parser.add_argument(
        "--rate-limit",
        type=int,
        metavar="N",
        default=0,
        help="requests per minute per token (0: unlimited)",
    )
    parser.add_argument(
        "--dnc-insert-date",
        choices=INSERT_DATE_MODES,
        default=DAY,
        help="how the DNC search matches insert_date: day, its whole day (default); moment, "
        "the exact moment, a bare YYYY-MM-DD being its midnight 00:00:00; strict, a bare date "
        "refused (code 6008). The API spec gives the DNC search a moment (YYYY-MM-DD "
        "hh:mm:ss), so a service may do either of the last two; the SMS opt-out search always "
        "matches a day",
    )
    parser.add_argument(
        "--dnc-phone-format",
        choices=PHONE_FORMATS,
        default=ANY_PHONE,
        help="which phone_number the DNC search takes: any, any digits up to 15 (default); "
        "strict, also refusing one that starts with 0 (code 6006, invalid phone format), as a "
        "service may that reads phone_number as the number beside phone_code (E.164's national "
        "number), with no trunk 0 nor exit code (00, 011). Inserts and the SMS opt-out search "
        "(whose code 6006 is another error) are unchanged",
    )


def _token(variable: str) -> str:
    """The token ``variable`` holds ("" when none), taken out of the environment so that
    nothing this process starts inherits it; a variable wins over its option, whose --token
    default cannot be told from a token given."""
    return os.environ.pop(variable, "")


def _start_refusal(error: Exception, port: int) -> str:
    """Why the sandbox did not start; a taken port in words with the next step rather than
    "[Errno 98] Address already in use" (black-box bb2 F11)."""
    if isinstance(error, OSError) and error.errno == errno.EADDRINUSE:
        return f"port {port} is in use: give another --port, or --port 0 for a free one."
    return str(error)


def _token_line(from_variable: bool, token: str) -> str:
    """Where the full token came from, for a new user who must pass it as DNC_DESK_TOKEN; the
    built-in test token by value, any other never (black-box bb8: nothing said which)."""
    if from_variable:
        return f"token: from {TOKEN_ENV} (not shown)"
    if token == DEFAULT_TOKEN:
        return f"token: the test token {DEFAULT_TOKEN!r} (export DNC_DESK_TOKEN={DEFAULT_TOKEN})"
    return "token: the one given with --token (not shown)"


def _port_line(asked: int, chosen: int) -> str:
    if asked == 0:
        return f"port: {chosen}, a free one picked for --port 0"
    return f"port: {chosen} (--port 0 picks a free one)"


def run(args: argparse.Namespace) -> int:
    env_token = _token(TOKEN_ENV)
    token = env_token or args.token
    try:
        server = SandboxServer(
            db_path=args.db,
            host=args.host,
            port=args.port,
            token=token,
            read_only_token=_token(READ_ONLY_TOKEN_ENV) or args.read_only_token,
            limited_token=_token(LIMITED_TOKEN_ENV) or args.limited_token,
            demo=not args.empty,
            seed=args.seed,
            latency_ms=args.latency_ms,
            error_rate=args.error_rate,
            drop_rate=args.drop_rate,
            rate_limit=args.rate_limit,
            reset=args.reset,
            dnc_insert_date=args.dnc_insert_date,
            dnc_phone_format=args.dnc_phone_format,
        ).start()
    except (OSError, ValueError, RuntimeError, sqlite3.Error) as error:
        print(f"dnc-desk sandbox: {_start_refusal(error, args.port)}", file=sys.stderr)
        return 1
    stop = threading.Event()

    def request_stop(signum: int, frame: FrameType | None) -> None:
        stop.set()

    # A Ctrl+C ignored by whoever started the sandbox (a shell's background job, ``nohup``) is
    # meant for the foreground, not for it; SIGTERM is always someone stopping it on purpose.
    stop_signals = [signal.SIGTERM]
    if signal.getsignal(signal.SIGINT) is not signal.SIG_IGN:
        stop_signals.append(signal.SIGINT)
    previous = {sig: signal.signal(sig, request_stop) for sig in stop_signals}
    if getattr(args, "exit_with_parent", False):

        def watch_stdin() -> None:
            # read() returns only at end-of-file: the launcher closed the pipe or died.
            sys.stdin.buffer.read()
            stop.set()

        threading.Thread(target=watch_stdin, name="sandbox-parent-watch", daemon=True).start()
    try:
        # The first line as it was: the app's launcher waits for it (sandbox_launcher).
        print(f"DNC Desk sandbox serving {server.base_url}", flush=True)
        print(_token_line(bool(env_token), token), flush=True)
        print(_port_line(args.port, server.port), flush=True)
        # A timed wait keeps the main thread responsive to signals.
        while not stop.wait(0.5):
            pass
    finally:
        server.stop()
        for sig, handler in previous.items():
            signal.signal(sig, handler)
    return 0


def _fraction(text: str) -> float:
    """A fault rate: a number from 0 to 1 (a bad one is a bad argument, exit status 2)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number from 0 to 1") from None
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"{text} is not from 0 to 1 (a fraction of requests)")
    return value
