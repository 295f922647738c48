"""Set-up of the whole test session."""

from __future__ import annotations

import signal

# A process started in the background by a shell without job control (`make test &`,
# `nohup`, some CI runners) begins with SIGINT ignored, and Python then installs no
# handler that raises KeyboardInterrupt: the tests that stop a long native call with
# SIGINT (a perft of depth 12, a search without a limit) waited for it for ever.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)


def _keep_hangups_away(signum: int, frame: object) -> None:
    """A hangup while the tests run under ``nohup`` is still ignored here."""


# Under `nohup` SIGHUP starts ignored, and the commands the tests start inherit that:
# the eight tests that hang a command up to see it end found it running on. A Python
# handler instead keeps the test session alive as nohup asked, and every command it
# executes starts with SIGHUP's default again (exec resets handled signals).
if signal.getsignal(signal.SIGHUP) is signal.SIG_IGN:
    signal.signal(signal.SIGHUP, _keep_hangups_away)
