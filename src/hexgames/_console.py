"""The console script ``hexgames``: it imports the command line (:mod:`hexgames.cli`,
about half a second of imports) itself, so that a stop while it loads ends as a stop
during a command does, not as a traceback or a death by the signal's default action:
Ctrl-C gives ``error: aborted`` and exit status 130, SIGTERM and SIGHUP (when not
ignored) ``error: terminated`` and 143 or 129 (128 plus the signal's number)."""

from __future__ import annotations

import signal
import sys
from types import FrameType


class _Stopped(KeyboardInterrupt):
    """SIGTERM or SIGHUP while the command line loads."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _stop(signum: int, _frame: FrameType | None) -> None:
    raise _Stopped(signum)


def main() -> None:
    """Run ``hexgames`` (:func:`hexgames.cli.main`)."""
    installed = []
    for name in ("SIGTERM", "SIGHUP"):
        signum = getattr(signal, name, None)
        # (an ignored SIGHUP, under nohup, stays ignored)
        if signum is not None and signal.getsignal(signum) is signal.SIG_DFL:
            signal.signal(signum, _stop)
            installed.append(signum)
    try:
        try:
            from hexgames.cli import main as cli_main
        finally:
            # the defaults back: the command line installs its own handlers over them
            for signum in installed:
                signal.signal(signum, signal.SIG_DFL)
    except KeyboardInterrupt as stopped:
        _ignore_stops()  # the first signal decides the exit status
        if isinstance(stopped, _Stopped):
            print("error: terminated", file=sys.stderr)
            sys.exit(128 + stopped.signum)
        print("error: aborted", file=sys.stderr)
        sys.exit(130)
    cli_main()


def _ignore_stops() -> None:
    """Ignore Ctrl-C, SIGTERM and SIGHUP from now on (the process is exiting)."""
    for name in ("SIGINT", "SIGTERM", "SIGHUP"):
        signum = getattr(signal, name, None)
        if signum is not None and signal.getsignal(signum) is not signal.SIG_IGN:
            signal.signal(signum, signal.SIG_IGN)
