"""The console script ``hexgames``: it imports the command line (:mod:`hexgames.cli`,
about half a second of imports) itself, so that a stop while it loads ends as a stop
during a command does, not as a traceback or a death by the signal's default action:
Ctrl-C gives ``error: aborted`` and exit status 130, SIGTERM and SIGHUP (when not
ignored) ``error: terminated`` and 143 or 129 (128 plus the signal's number), and the
first signal decides. (Signals in the first tens of milliseconds, while Python itself
starts, 30 to 70 ms on a loaded machine, still act before this module runs.)

It also holds what any stopped command does as it exits, :func:`drop_while_exiting`
(:mod:`hexgames.processes` shares it and the signals' list): this module cannot import
``hexgames.processes`` while a stop may cut its loading short."""

from __future__ import annotations

import atexit
import os
import signal
import sys
import threading
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


#: The signals that stop a command: Ctrl-C, SIGTERM and SIGHUP (where the platform has
#: them).
STOPPING_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP")
                         if hasattr(signal, name))

#: More signals after a command's stop that are dropped (by :func:`interrupt_once` while
#: it stops, by :func:`drop_while_exiting` while it exits); the next one acts, so that a
#: command that hangs as it stops can still be forced.
FORCING_INTERRUPTS = 3


def main() -> None:
    """Run ``hexgames`` (:func:`hexgames.cli.main`)."""
    loading = LoadingStop()
    installed = []
    for signum in STOPPING_SIGNALS:
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
        drop_while_exiting()
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


def drop_while_exiting() -> None:
    """For a command line that a signal stopped, just before it exits: the next
    :data:`FORCING_INTERRUPTS` signals of :data:`STOPPING_SIGNALS` are dropped while the
    interpreter shuts down, and one more ends the process as the signal's default
    action would; once the exit functions (:mod:`atexit`) run, all are ignored. A second
    press soon after the first killed the process after its report, with that signal's
    exit status rather than the first one's. They are dropped by a handler that does
    nothing, not ignored at once: one set to ``SIG_IGN`` while a signal waits for its
    handler printed "Signal 15 ignored due to race condition". Only in the main thread;
    an ignored signal stays ignored. The handlers stay until the process ends: never
    call it from a process that goes on."""
    if threading.current_thread() is not threading.main_thread():
        return
    late = _Late()
    for signum in STOPPING_SIGNALS:
        if signal.getsignal(signum) is not signal.SIG_IGN:
            signal.signal(signum, late)
    # The interpreter gives every signal with a Python handler its default back as it
    # finalizes, after the exit functions: from the first exit function on (threads
    # joined, executors closed), these signals are ignored to the end.
    atexit.register(_ignore_to_the_end)


class _Late:
    """The handler of :func:`drop_while_exiting` (one for all its signals): drops
    :data:`FORCING_INTERRUPTS` signals, then ends the process by the next as the
    signal's default action would."""

    def __init__(self) -> None:
        self.count = 0

    def __call__(self, signum: int, frame: Any) -> None:
        self.count += 1
        if self.count > FORCING_INTERRUPTS:
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)


def _ignore_to_the_end() -> None:
    for signum in STOPPING_SIGNALS:
        if isinstance(signal.getsignal(signum), _Late):
            signal.signal(signum, signal.SIG_IGN)
