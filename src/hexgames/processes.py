"""Processes of the arena and the browser app and Ctrl-C: the fork server of their worker
processes, started deaf to it, and blocks that hold it back.

A terminal's Ctrl-C reaches the whole process group. Worker processes ignore SIGINT
(their parent stops them), but a fork server ignores it only after importing its preload,
and a Ctrl-C during those imports printed a ``KeyboardInterrupt`` traceback from the
server. :func:`start_forkserver` starts it with SIGINT already ignored.

In the main process, :func:`interrupt_deferred` keeps a Ctrl-C from falling between two
writes that belong together (a game's record and its tally; a run's final summary).
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


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

    Only in the main thread with Python's own SIGINT handler in place (elsewhere a
    handler cannot be set, or another one decides); there the block runs as it is.
    """
    if (threading.current_thread() is not threading.main_thread()
            or signal.getsignal(signal.SIGINT) is not signal.default_int_handler):
        yield
        return
    caught: list[int] = []
    previous = signal.signal(signal.SIGINT, lambda signum, frame: caught.append(signum))
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if caught and reraise:
        raise KeyboardInterrupt
