"""A fuzz worker process (started by :mod:`fuzz_pool`): ``python fuzz_worker.py
MEMORY_BYTES``. It limits its own address space, says ``ready``, then reads one JSON line
``{"target", "text"}`` at a time from standard input and answers one JSON line
``{"problem": null | "..."}`` on its standard output (anything a target prints goes to
standard error instead)."""

from __future__ import annotations

import contextlib
import json
import os
import resource
import sys
import threading
import traceback
from pathlib import Path


def main() -> None:
    memory = int(sys.argv[1])
    # Small thread stacks: the test client's threads would otherwise take 8 MiB of
    # address space each, which the limit is not about.
    threading.stack_size(1 << 20)
    sys.path.insert(0, str(Path(__file__).parent))
    answers = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    from fuzz_targets import TARGETS, Broken

    for target in TARGETS.values():  # import what the targets need before the limit
        with contextlib.suppress(Broken):
            target("")
    resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
    # No core file from a crash: writing one (where they are on) took the time budget.
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    answers.write("ready\n")
    answers.flush()
    for line in sys.stdin:
        request = json.loads(line)
        problem: str | None = None
        try:
            TARGETS[request["target"]](request["text"])
        except Broken as error:
            problem = str(error)
        except BaseException as error:  # a MemoryError under the limit, say
            problem = f"{type(error).__name__}: {error}\n{traceback.format_exc(limit=-3)}"
        answers.write(json.dumps({"problem": problem}) + "\n")
        answers.flush()
        if problem is not None:
            return  # the parent starts a fresh worker


if __name__ == "__main__":
    main()
