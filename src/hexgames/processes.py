"""Processes of the arena and the browser app and the signals that stop them: the fork
server of their worker processes, started deaf to Ctrl-C; workers that end with the main
process; SIGTERM and SIGHUP handled as Ctrl-C; blocks that hold these back; and runs
that a second one does not cut short.

A terminal's Ctrl-C reaches the whole process group. Worker processes ignore SIGINT
(their parent stops them), but a fork server ignores it only after importing its preload,
and a Ctrl-C during those imports printed a ``KeyboardInterrupt`` traceback from the
server. :func:`start_forkserver` starts it with SIGINT already ignored. A worker process
started with :func:`worker_started` ends when the main process does, however that ended,
``kill -9`` included (orphaned workers played on).

SIGTERM (``kill``, ``timeout``, a service manager's or a batch system's stop) and SIGHUP
(the terminal closed) ended a command at once: a match left its starting summary beside
the games it had written. Inside :func:`terminate_as_interrupt` they raise
:class:`Terminated`, a ``KeyboardInterrupt``, so that every path that stops cleanly on
Ctrl-C stops cleanly on them too.

In the main process, :func:`interrupt_deferred` keeps these signals from falling between
two writes that belong together (a game's record and its tally; a run's final summary),
and :func:`interrupt_once` keeps a second one from cutting short a run that is stopping
for the first.
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

from hexgames._console import FORCING_INTERRUPTS, STOPPING_SIGNALS, LoadingStop
from hexgames._console import drop_while_exiting as drop_while_exiting


class Terminated(KeyboardInterrupt):
    """SIGTERM or SIGHUP received inside :func:`terminate_as_interrupt`: raised where
    Ctrl-C raises ``KeyboardInterrupt``, and caught wherever that is."""


#: The signals that :func:`terminate_as_interrupt` handles as Ctrl-C: SIGTERM (``kill``,
#: ``timeout``, a service manager's or a batch system's stop) and SIGHUP (the terminal
#: closed, an ssh connection lost), where the platform has them.
TERMINATING_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP")
                            if hasattr(signal, name))

#: The signals a terminal sends to a whole process group (Ctrl-C; SIGHUP when it
#: closes), which worker processes and the fork server ignore: their parent acts on them.
_GROUP_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGHUP")
                       if hasattr(signal, name))


class _Termination:
    """The handler of :func:`terminate_as_interrupt`; ``signum`` is the first signal it
    took (also one that :func:`interrupt_deferred` held back), ``None`` before."""

    def __init__(self) -> None:
        self.signum: int | None = None
        #: The read end of the pipe Python writes each signal's number to as it arrives
        #: (:func:`signal.set_wakeup_fd`), when :func:`terminate_as_interrupt` set one.
        self.arrivals: int | None = None
        self._first: int | None = None

    @property
    def received(self) -> bool:
        """Whether a SIGTERM or SIGHUP came."""
        return self.signum is not None

    def first_stop(self) -> int | None:
        """The stopping signal (Ctrl-C, SIGTERM or SIGHUP) that reached the process
        first, by the order they arrived; without that record, the first SIGTERM or
        SIGHUP taken (``signum``). Python runs the handlers of signals that arrived
        together (while native code held the main thread, say) in signal-number order,
        so the first one handled need not be the first one sent. Signals that reach the
        process together, pending at once (it was not running: a millisecond, or 20 ms on
        a loaded machine), have no order: the kernel starts all their handlers at once,
        nested, so the highest number's runs first, and SIGTERM counts as first beside a
        Ctrl-C."""
        if self._first is None and self.arrivals is not None:
            try:
                data = os.read(self.arrivals, 4096)
            except OSError:  # (nothing to read: the pipe does not block)
                data = b""
            self._first = next((n for n in data if n in STOPPING_SIGNALS), None)
        return self.signum if self._first is None else self._first

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        if self.signum is None:
            self.signum = signum
        raise Terminated


class _Once:
    """A handler of :func:`interrupt_once`: the first signal of the run (of any of the
    handlers that share ``count``, a one-item list) goes to ``handler`` (it raises),
    the next :data:`FORCING_INTERRUPTS` are only counted, and one more goes to its
    ``handler`` again."""

    def __init__(self, handler: Any, count: list[int]) -> None:
        self.handler = handler
        self.count = count

    def __call__(self, signum: int, frame: FrameType | None) -> None:
        self.count[0] += 1
        if self.count[0] == 1 or self.count[0] > 1 + FORCING_INTERRUPTS:
            self.handler(signum, frame)


def _raises(handler: Any) -> bool:
    """Whether ``handler`` is a signal handler of ours that raises an interrupt."""
    return handler is signal.default_int_handler or isinstance(handler, _Termination | _Once)


def _main_thread() -> bool:
    return threading.current_thread() is threading.main_thread()


@contextmanager
def terminate_as_interrupt() -> Iterator[_Termination]:
    """Handle SIGTERM and SIGHUP as Ctrl-C while the block runs: they raise
    :class:`Terminated` (a ``KeyboardInterrupt``), so a command stops as it does for
    Ctrl-C, writing what it was asked to. Yields the handler, whose ``signum`` tells
    afterwards which came first (a command line then exits with status 128 + signum:
    143 for SIGTERM). A signal that is ignored (``nohup`` ignores SIGHUP) or handled
    otherwise keeps its handler, and so does every signal outside the main thread,
    where Python allows no handler. The console script's handler while it loads
    (``hexgames._console.LoadingStop``) counts as the default, and Ctrl-C gets Python's
    own instead of it."""
    handler = _Termination()
    installed: list[tuple[int, Any, Any]] = []
    pipe = None
    try:
        if _main_thread():
            pipe = _record_arrivals(handler)
            if isinstance(signal.getsignal(signal.SIGINT), LoadingStop):
                ctrl_c = signal.default_int_handler
                installed.append((signal.SIGINT, signal.signal(signal.SIGINT, ctrl_c),
                                  ctrl_c))
            for signum in TERMINATING_SIGNALS:
                current = signal.getsignal(signum)
                if current is signal.SIG_DFL or isinstance(current, LoadingStop):
                    installed.append((signum, signal.signal(signum, handler), handler))
        yield handler
    finally:
        _put_back(installed)
        if pipe is not None:
            _stop_recording(*pipe)


def _record_arrivals(handler: _Termination) -> tuple[int, int, int] | None:
    """Give Python a wakeup pipe (:func:`signal.set_wakeup_fd`), whose read end goes to
    ``handler.arrivals``; returns the pipe's ends and the wakeup fd before, or ``None``
    when one was set already (an event loop's), which is left alone."""
    read, write = os.pipe()
    os.set_blocking(read, False)
    os.set_blocking(write, False)
    try:
        before = signal.set_wakeup_fd(write, warn_on_full_buffer=False)
    except (ValueError, OSError):
        before = None
    if before != -1:
        if before is not None:
            signal.set_wakeup_fd(before)
        os.close(read)
        os.close(write)
        return None
    handler.arrivals = read
    return read, write, before


def _stop_recording(read: int, write: int, before: int) -> None:
    current = signal.set_wakeup_fd(before)
    if current != write:  # one set since (an event loop's) stays
        signal.set_wakeup_fd(current)
    os.close(read)
    os.close(write)


@contextmanager
def interrupt_once() -> Iterator[None]:
    """Within the block, the first Ctrl-C (or a signal of :func:`terminate_as_interrupt`)
    raises as usual and the next ones are dropped, so that a run stopping for the first
    one (closing its executor, writing its summary) is not cut short by a second one,
    however soon it comes; :data:`FORCING_INTERRUPTS` more force it all the same. Only
    where the handler in place raises, in the main thread."""
    installed: list[tuple[int, Any, Any]] = []
    count = [0]  # the signals of the run, whichever they are
    try:
        if _main_thread():
            for signum in STOPPING_SIGNALS:
                handler = signal.getsignal(signum)
                if _raises(handler) and not isinstance(handler, _Once):
                    once = _Once(handler, count)
                    installed.append((signum, signal.signal(signum, once), once))
        yield
    finally:
        _put_back(installed)


@contextmanager
def signal_handlers_kept() -> Iterator[None]:
    """Put back, when the block ends, the handlers of Ctrl-C and of
    :data:`TERMINATING_SIGNALS` that were in place when it began, whatever the block set.
    For libraries that take them: ``ray.init`` sets SIGTERM to exit at once (a match on a
    cluster then stopped without its summary), and ``ray.shutdown`` gives SIGTERM its
    default back underneath Python (a later SIGTERM killed the process while
    :func:`signal.getsignal` still named Ray's handler). Only in the main thread, and
    only handlers that Python knows."""
    kept: list[tuple[int, Any]] = []
    if _main_thread():
        for signum in STOPPING_SIGNALS:
            handler = signal.getsignal(signum)
            if handler is not None:
                kept.append((signum, handler))
    try:
        yield
    finally:
        _restore(kept)


def worker_started(parent: int) -> None:
    """The first thing a worker process does: ignore Ctrl-C and SIGHUP (a terminal's
    reach the whole process group, but only the parent acts on them: it stops its
    workers), and end when the process ``parent`` (a pid: the main process that started
    the work) ends, however it ended (``kill -9``, a crash), rather than play on for no
    one.

    The operating system's parent of a worker of a ``forkserver`` context is the fork
    server, and the fork server ends only when every process holding its pipe has ended,
    the workers included; so each worker watches ``parent`` itself, in a daemon thread
    that waits on a pidfd (Linux 5.3 and newer) or else checks once a second.
    """
    for signum in _GROUP_SIGNALS:
        signal.signal(signum, signal.SIG_IGN)
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
    """Start the fork server of the multiprocessing ``context`` (if it uses one), and
    the resource tracker it starts, deaf to SIGINT and SIGHUP from their first
    instruction: a terminal's reach the whole process group, and a tracker killed by
    SIGHUP printed tracebacks when it was started again. A process keeps the signal
    mask of the thread that started it, across exec, so a thread that blocks them
    starts the processes: they start, and stay, with both blocked (the workers they
    fork too, which ignore them as well). This thread waits, its signals held back
    (:func:`interrupt_deferred`) but taken as they come: it lost one when the handlers
    were set to SIG_IGN instead, and when it blocked them itself a Ctrl-C waited while
    a SIGTERM sent 4 ms later went first (exit status 143, not 130). When the server
    runs already, it only makes sure that it runs.

    Raises:
        OSError: when a process cannot be started.
    """
    if context.get_start_method() != "forkserver":
        return
    failed: list[BaseException] = []
    starter = threading.Thread(target=_start_deaf, args=(failed,),
                               name="hexgames-forkserver-start")
    with interrupt_deferred():
        starter.start()
        starter.join()
    if failed:
        raise failed[0]


def _start_deaf(failed: list[BaseException]) -> None:
    """:func:`start_forkserver`'s thread."""
    from multiprocessing import forkserver, resource_tracker

    try:
        signal.pthread_sigmask(signal.SIG_BLOCK, _GROUP_SIGNALS)
        # The fork server starts the tracker first, which ends by unblocking SIGINT
        # (it blocks SIGINT and SIGTERM as it starts it): start it here, block again.
        resource_tracker.ensure_running()
        signal.pthread_sigmask(signal.SIG_BLOCK, _GROUP_SIGNALS)
        forkserver.ensure_running()
    except BaseException as error:  # raised in the calling thread
        failed.append(error)


@contextmanager
def interrupt_deferred(reraise: bool = True) -> Iterator[None]:
    """Hold Ctrl-C back while the block runs: a SIGINT that arrives inside it raises
    ``KeyboardInterrupt`` when the block ends (or, with ``reraise`` false, is dropped:
    the run is stopping already), so that what the block writes and counts (a finished
    game's record, its result line and its tally; the final summary) is all done or not
    begun.

    The signals of :func:`terminate_as_interrupt` are held back the same way (they raise
    :class:`Terminated`). A signal is held back only when the handler in place raises
    (Python's own for SIGINT, those of :func:`terminate_as_interrupt` and
    :func:`interrupt_once`); when the block ends, each one held back goes to that
    handler and the first exception one raises is raised, even when the block itself
    raised (its error is then the interrupt's context). A signal that is ignored
    (SIGINT of a command a script started in the background) or handled otherwise is
    left alone. Only in the main thread (elsewhere a handler cannot be set); there the
    block runs as it is.
    """
    caught: list[int] = []

    def hold(signum: int, frame: FrameType | None) -> None:
        caught.append(signum)

    previous: list[tuple[int, Any, Any]] = []
    try:
        if _main_thread():
            for signum in STOPPING_SIGNALS:
                if _raises(signal.getsignal(signum)):
                    previous.append((signum, signal.signal(signum, hold), hold))
        yield
    finally:
        # (here even when the block raised: a caller that catches the block's error and
        # goes on, as the executor does for a broken pool, must not lose the stop)
        _put_back(previous)
        if reraise:
            _deliver(caught, {signum: handler for signum, handler, _ in previous})


def _deliver(caught: list[int], handlers: dict[int, Any]) -> None:
    """Give each signal of ``caught`` to its handler in ``handlers``, so that every one
    is counted, and raise the first exception one raises (they raise, unless they drop a
    second signal)."""
    raised: list[BaseException] = []
    for signum in caught:
        try:
            handlers[signum](signum, None)
        except BaseException as error:
            raised.append(error)
    if raised:
        raise raised[0]


def _put_back(installed: list[tuple[int, Any, Any]]) -> None:
    """For each ``(signal, previous handler, the handler set)``, put the previous one
    back where the handler set is still in place: one set since (the handlers of
    :func:`drop_while_exiting`, for the rest of the process) stays."""
    _restore([(signum, previous) for signum, previous, ours in installed
              if signal.getsignal(signum) is ours])


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
