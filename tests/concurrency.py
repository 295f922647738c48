"""The concurrency test kit: fire N requests at a live server at the same moment, each
from its own client on its own connection (real sockets), and hand back every answer,
so a test can assert the invariant that must hold afterwards (a cap, a count of rows).

    answers = at_once(40, lambda i: Client(server).login("alice", "wrong-password"))
    assert statuses(answers).count(401) <= limits.MAX_LOGIN_FAILURES

The requests start together: each thread prepares its client, then waits at a barrier;
all are released at once, so the server sees them interleaved as a burst from many
browsers would be.
"""

from __future__ import annotations

import threading
from collections import Counter
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")


def at_once(count: int, request: Callable[[int], T], *,
            prepare: Callable[[int], Any] | None = None, timeout: float = 120.0) -> list[T]:
    """Run ``request(i)`` for ``i`` in ``range(count)``, each in a thread of its own,
    released together; the answers in order of ``i``.

    ``prepare(i)``, when given, runs in the thread before the barrier (make and log in
    a client there, so only the request itself is in the burst); its value is then
    passed to ``request`` instead of ``i``.

    Raises:
        AssertionError: if a request raised (its exception is chained) or did not end
            within ``timeout`` seconds.
    """
    barrier = threading.Barrier(count)
    answers: list[Any] = [None] * count
    failures: list[BaseException] = []

    def run(index: int) -> None:
        try:
            argument = prepare(index) if prepare is not None else index
        except BaseException as error:
            failures.append(error)
            barrier.abort()
            return
        try:
            barrier.wait(timeout)
            answers[index] = request(argument)
        except BaseException as error:
            failures.append(error)

    threads = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout)
    alive = sum(thread.is_alive() for thread in threads)
    assert alive == 0, f"{alive} of {count} requests did not end within {timeout} s"
    if failures:
        raise AssertionError(f"{len(failures)} of {count} requests failed: "
                             f"{failures[0]!r}") from failures[0]
    return answers


def statuses(answers: list[Any]) -> Counter[int]:
    """How many answers had each HTTP status."""
    return Counter(int(answer.status_code) for answer in answers)
