"""The console script ``hexgames``: it imports the command line (:mod:`hexgames.cli`,
about half a second of imports) itself, so that a stop while it loads ends as a stop
during a command does, not as a traceback or a death by the signal's default action:
Ctrl-C gives ``error: aborted`` and exit status 130, SIGTERM and SIGHUP (when not
ignored) ``error: terminated`` and 143 or 129 (128 plus the signal's number), and the
first signal decides. (Signals in the first tens of milliseconds, while Python itself
starts, 30 to 70 ms on a loaded machine, still act before this module runs.)"""

from __future__ import annotations

import atexit
import signal
import sys
import time
from typing import Any


class LoadingStop:
    """The handler of Ctrl-C, SIGTERM and SIGHUP while the command line loads: it raises
    ``KeyboardInterrupt`` (:class:`Stopped` for SIGTERM and SIGHUP); ``first`` keeps the
    first signal's number, which decides the exit status. More signals within
    :data:`SAME_STOP` seconds of the first are that stop (two sent at once reach Python
    together, and the second's exception would cut the first one's short); a later one
    raises again, so that after one whose exception Python swallowed (in a weakref
    callback, say) the next still stops. The signals keep this handler until the
    command line's own replace it (``hexgames.processes.terminate_as_interrupt`` takes
    it for the default)."""

    def __init__(self) -> None:
        self.first: int | None = None
        self.at = 0.0

    def __call__(self, signum: int, frame: Any) -> None:
        now = time.monotonic()
        if self.first is None:
            self.first, self.at = signum, now
        elif now - self.at < SAME_STOP:
            return
        if signum == signal.SIGINT:
            raise KeyboardInterrupt
        raise Stopped(signum)


#: Seconds after a first signal while loading in which more are the same stop.
SAME_STOP = 0.5


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
    except SystemExit:
        raise
    except BaseException as error:
        # A stop while the command line loads, or before its own handlers: it ends
        # every other way itself. Python wraps an interrupt raised in some places
        # (a ``__set_name__`` as a class is made) in a RuntimeError: once a signal came,
        # whatever it raised is its stop.
        if loading.first is None and not isinstance(error, KeyboardInterrupt):
            raise
        _ignore_stops()
        signum = signal.SIGINT if loading.first is None else loading.first
        if signum == signal.SIGINT:
            print("error: aborted", file=sys.stderr)
            sys.exit(130)
        print("error: terminated", file=sys.stderr)
        sys.exit(128 + signum)
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
