"""Processes of the arena and the browser app, Ctrl-C and SIGTERM: the fork server of
their worker processes, started deaf to Ctrl-C; workers that end with the main process;
blocks that hold Ctrl-C back; and SIGTERM handled as Ctrl-C.

A terminal's Ctrl-C reaches the whole process group. Worker processes ignore SIGINT
(their parent stops them), but a fork server ignores it only after importing its preload,
and a Ctrl-C during those imports printed a ``KeyboardInterrupt`` traceback from the
server. :func:`start_forkserver` starts it with SIGINT already ignored.

In the main process, :func:`interrupt_deferred` keeps a Ctrl-C from falling between two
writes that belong together (a game's record and its tally; a run's final summary).

SIGTERM (``kill``, ``timeout``, a service manager's or a batch system's stop) ended a
command at once by default: a match left its starting summary beside the games it had
written, and its worker processes, orphaned, played on. Inside
:func:`terminate_as_interrupt` it raises :class:`Terminated`, a ``KeyboardInterrupt``, so
that every path that stops cleanly on Ctrl-C stops cleanly on SIGTERM too. A worker
process started with :func:`worker_started` ends when the main process does, however
that ended, ``kill -9`` included.
"""

from __future__ import annotations

import os
import select
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import Any


class Terminated(KeyboardInterrupt):
    """SIGTERM received inside :func:`terminate_as_interrupt`: raised where Ctrl-C
    raises ``KeyboardInterrupt``, and caught wherever that is."""


class _Termination:
    """The SIGTERM handler of :func:`terminate_as_interrupt`; ``received`` tells whether
    a SIGTERM came (also one that :func:`interrupt_deferred` held back)."""

    def __init__(self) -> None:
        self.received = False

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        self.received = True
        raise Terminated


@contextmanager
def terminate_as_interrupt() -> Iterator[_Termination]:
    """Handle SIGTERM as Ctrl-C while the block runs: it raises :class:`Terminated` (a
    ``KeyboardInterrupt``), so a command stops as it does for Ctrl-C, writing what it
    was asked to. Yields the handler, whose ``received`` tells afterwards whether a
    SIGTERM came (a command line then exits with status 143, 128 + SIGTERM). Only in
    the main thread, where Python allows a handler; elsewhere SIGTERM keeps its
    handler."""
    handler = _Termination()
    if threading.current_thread() is not threading.main_thread():
        yield handler
        return
    previous = signal.signal(signal.SIGTERM, handler)
    try:
        yield handler
    finally:
        signal.signal(signal.SIGTERM, previous)


def worker_started(parent: int) -> None:
    """The first thing a worker process does: ignore Ctrl-C (a terminal's reaches the
    whole process group, but only the parent acts on it: it stops its workers), and end
    when the process ``parent`` (a pid: the main process that started the work) ends,
    however it ended (``kill -9``, a crash), rather than play on for no one.

    The operating system's parent of a worker of a ``forkserver`` context is the fork
    server, and the fork server ends only when every process holding its pipe has ended,
    the workers included; so each worker watches ``parent`` itself, in a daemon thread
    that waits on a pidfd (Linux 5.3 and newer) or else checks once a second.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    threading.Thread(target=_end_with, args=(parent,), name="hexgames-parent-watch",
                     daemon=True).start()


def _end_with(parent: int) -> None:
    try:
        handle = os.pidfd_open(parent)
    except ProcessLookupError:
        os._exit(1)
    except (AttributeError, OSError):  # no pidfd here: look once a second
        while _exists(parent):
            time.sleep(1.0)
        os._exit(1)
    select.select([handle], [], [])  # readable once the process has ended
    os._exit(1)


def _exists(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def start_forkserver(context: Any) -> None:
    """Start the fork server of the multiprocessing ``context`` (if it uses one) deaf to
    SIGINT from its first instruction. An ignored signal stays ignored across exec, so
    the handler is set to SIG_IGN while the process is started (from the main thread
    only, where Python allows it; a Ctrl-C in those few milliseconds is lost). Elsewhere,
    or when the server runs already, it only makes sure that it runs."""
    if context.get_start_method() != "forkserver":
        return
    from multiprocessing import forkserver

    if threading.current_thread() is not threading.main_thread():
        forkserver.ensure_running()
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        forkserver.ensure_running()
    finally:
        signal.signal(signal.SIGINT, previous)


@contextmanager
def interrupt_deferred(reraise: bool = True) -> Iterator[None]:
    """Hold Ctrl-C back while the block runs: a SIGINT that arrives inside it raises
    ``KeyboardInterrupt`` when the block ends (or, with ``reraise`` false, is dropped:
    the run is stopping already), so that what the block writes and counts (a finished
    game's record, its result line and its tally; the final summary) is all done or not
    begun.

    A SIGTERM handled by :func:`terminate_as_interrupt` is held back the same way and
    raises :class:`Terminated`. Each signal is held back only when the handler in place
    raises (Python's own for SIGINT, :func:`terminate_as_interrupt`'s for SIGTERM): a
    signal ignored (SIGINT of a command started in the background by a script) or
    handled otherwise is left alone, and so is the other one. Only in the main thread
    (elsewhere a handler cannot be set); there the block runs as it is.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    termination = signal.getsignal(signal.SIGTERM)
    deferred = []
    if signal.getsignal(signal.SIGINT) is signal.default_int_handler:
        deferred.append(signal.SIGINT)
    if isinstance(termination, _Termination):
        deferred.append(signal.SIGTERM)
    caught: list[int] = []

    def hold(signum: int, frame: FrameType | None) -> None:
        caught.append(signum)
        if signum == signal.SIGTERM and isinstance(termination, _Termination):
            termination.received = True

    previous: list[tuple[int, Any]] = []
    try:
        for signum in deferred:
            previous.append((signum, signal.signal(signum, hold)))
        yield
    finally:
        _restore(previous)
    if caught and reraise:
        raise Terminated if signal.SIGTERM in caught else KeyboardInterrupt


def _restore(handlers: list[tuple[int, Any]]) -> None:
    """Put back each ``(signal, handler)``, all of them even if a signal that arrives
    in between raises (it is raised once all are back)."""
    if not handlers:
        return
    signum, handler = handlers[0]
    try:
        signal.signal(signum, handler)
    finally:
        _restore(handlers[1:])
