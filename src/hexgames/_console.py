"""The console script ``hexgames``: it imports the command line (:mod:`hexgames.cli`,
about half a second of imports) itself, so that a stop while it loads ends as a stop
during a command does, not as a traceback or a death by the signal's default action:
Ctrl-C gives ``error: aborted`` and exit status 130, SIGTERM and SIGHUP (when not
ignored) ``error: terminated`` and 143 or 129 (128 plus the signal's number), and the
first signal decides. (Signals in the first few milliseconds, while Python itself
starts, still act before this module runs.)"""

from __future__ import annotations

import atexit
import signal
import sys
from typing import Any


class LoadingStop:
    """The handler of Ctrl-C, SIGTERM and SIGHUP while the command line loads: it
    drops them all from then on (the process is ending; the first signal decides its
    status) and raises ``KeyboardInterrupt`` (:class:`Stopped` for SIGTERM and SIGHUP).
    The signals keep it until the command line's own handlers replace it
    (``hexgames.processes.terminate_as_interrupt`` takes it for the default)."""

    def __call__(self, signum: int, frame: Any) -> None:
        _ignore_stops()
        if signum == signal.SIGINT:
            raise KeyboardInterrupt
        raise Stopped(signum)


class Stopped(KeyboardInterrupt):
    """SIGTERM or SIGHUP while the command line loads."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


_STOPS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP")
               if hasattr(signal, name))


def main() -> None:
    """Run ``hexgames`` (:func:`hexgames.cli.main`)."""
    loading = LoadingStop()
    installed = []
    for signum in _STOPS:
        # (an ignored signal, SIGHUP under nohup, stays ignored)
        previous = signal.getsignal(signum)
        if previous in (signal.SIG_DFL, signal.default_int_handler):
            installed.append((signum, signal.signal(signum, loading)))
    try:
        from hexgames.cli import main as cli_main

        cli_main()
    except KeyboardInterrupt as stopped:  # the command line stops itself otherwise
        _ignore_stops()
        if isinstance(stopped, Stopped):
            print("error: terminated", file=sys.stderr)
            sys.exit(128 + stopped.signum)
        print("error: aborted", file=sys.stderr)
        sys.exit(130)
    finally:
        for signum, previous in installed:  # the command has ended: as before it began
            if isinstance(signal.getsignal(signum), LoadingStop):
                signal.signal(signum, previous)


def _ignore_stops() -> None:
    """Drop Ctrl-C, SIGTERM and SIGHUP from now on (the process is exiting): a handler
    that does nothing, since one set to ``SIG_IGN`` while a signal waits for its
    handler printed "Signal 15 ignored due to race condition"; ``SIG_IGN`` from the
    first exit function on, as the interpreter gives every Python handler its default
    back as it finalizes."""
    for signum in _STOPS:
        if signal.getsignal(signum) is not signal.SIG_IGN:
            signal.signal(signum, _drop)
    atexit.register(_ignore_to_the_end)


def _drop(signum: int, frame: Any) -> None:
    """Drop a signal: the process is exiting."""


def _ignore_to_the_end() -> None:
    for signum in _STOPS:
        if signal.getsignal(signum) is _drop:
            signal.signal(signum, signal.SIG_IGN)
