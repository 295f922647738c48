"""Set-up of the whole test session."""

from __future__ import annotations

import signal

# A process started in the background by a shell without job control (`make test &`,
# `nohup`, some CI runners) begins with SIGINT ignored, and Python then installs no
# handler that raises KeyboardInterrupt: the tests that stop a long native call with
# SIGINT (a perft of depth 12, a search without a limit) waited for it for ever.
if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
    signal.signal(signal.SIGINT, signal.default_int_handler)
