"""Run an app command for ``make play`` and ``make terminal``: ``python3
tools/run_app.py COMMAND...`` shows the command, runs it, and ends with its exit status,
except that 130 (the app stopped by Ctrl-C) is a normal stop, 0, so that make does not
say ``Error 130``.

It stands between make and the app so that each signal reaches the app once: Ctrl-C
reaches the whole job, this process ignores it and the app stops as it does on Ctrl-C;
SIGTERM, which make (killed, or stopped by ``timeout``) sends only to the recipe's own
process, is passed on to the app, which stops cleanly (a shell there died of it and
left the server running). Standard library only: it runs before the
virtual environment's packages are needed.
"""

from __future__ import annotations

import signal
import subprocess
import sys
from types import FrameType

#: The exit status of a program stopped by Ctrl-C (128 + SIGINT).
CTRL_C_STATUS = 128 + signal.SIGINT


def main(command: list[str]) -> int:
    """Run ``command``; its exit status (a signal's death as 128 + the signal), 0 for
    :data:`CTRL_C_STATUS`."""
    print(" ".join(command), flush=True)
    app: subprocess.Popen[bytes] | None = None
    pending: list[int] = []

    def forward(signum: int, frame: FrameType | None) -> None:
        if app is None:
            pending.append(signum)
        else:
            app.send_signal(signum)

    # A handler, not SIG_IGN, which the app would inherit: it gets the default.
    signal.signal(signal.SIGINT, lambda signum, frame: None)
    signal.signal(signal.SIGTERM, forward)
    try:
        app = subprocess.Popen(command)
    except OSError as error:
        print(f"{command[0]}: {error.strerror or error}", file=sys.stderr)
        return 127
    for signum in pending:  # one that came while the app was being started
        app.send_signal(signum)
    status = app.wait()
    status = 128 - status if status < 0 else status
    return 0 if status == CTRL_C_STATUS else status


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: run_app.py COMMAND [ARGUMENT...]")
    sys.exit(main(sys.argv[1:]))
