"""Worker processes of the arena and the browser app: their fork server, started deaf to
Ctrl-C.

A terminal's Ctrl-C reaches the whole process group. Worker processes ignore SIGINT
(their parent stops them), but a fork server ignores it only after importing its preload,
and a Ctrl-C during those imports printed a ``KeyboardInterrupt`` traceback from the
server. :func:`start_forkserver` starts it with SIGINT already ignored.
"""

from __future__ import annotations

import signal
import threading
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
