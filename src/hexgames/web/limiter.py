"""Rate limits of the server mode that hold when requests arrive at once, and the gate
that bounds the memory of password hashing (docs/security.md).

- :class:`WindowLimit` counts events per key (an address, an account name or id)
  within a sliding window. A request **takes** a place before it does its work
  (:meth:`WindowLimit.take`): the check and the count are one step under a lock, so
  forty parallel requests cannot all pass a limit of five. A request that turns out
  not to count (a login that succeeds) gives its place back. A refused request records
  nothing, and the table holds at most :data:`hexgames.limits.MAX_LIMITER_KEYS` keys,
  each at most its limit's count of times; keys expire with their window.
- :class:`HashGate` lets at most a few argon2id hashes run at once (as many as
  :data:`hexgames.limits.HASH_MEMORY_BUDGET` holds at the hasher's memory cost) and at
  most :data:`hexgames.limits.MAX_HASH_QUEUE` requests wait for one; the next is
  refused at once with :class:`BusyError` (HTTP 503), before any hashing.
"""

from __future__ import annotations

import asyncio
import ipaddress
import math
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import anyio
import anyio.to_thread

from hexgames import limits
from hexgames.web.views import AppError

T = TypeVar("T")


class TooManyError(AppError):
    """A request over a rate limit (HTTP 429); ``wait`` is the seconds until it may be
    tried again."""

    status = 429

    def __init__(self, message: str, wait: float = 0.0) -> None:
        super().__init__(message)
        self.wait = wait


class BusyError(AppError):
    """The server is too busy for the request now (HTTP 503); try again shortly."""

    status = 503


@dataclass(frozen=True)
class Ticket:
    """A place taken in a :class:`WindowLimit`: the key and when it was taken."""

    limit: WindowLimit
    key: str
    stamp: float

    def give_back(self) -> None:
        """The request does not count after all (a good login): its place is free."""
        self.limit.give_back(self)


class WindowLimit:
    """At most ``most`` events per key within ``window`` seconds (a sliding window);
    thread-safe; ``clock`` gives monotonic seconds.

    The keys are kept in the order they were last used, so the expired ones are found
    at the front: taking a place costs O(1) amortized, whatever the table holds.
    """

    def __init__(self, most: int, window: float, *,
                 clock: Callable[[], float] = time.monotonic,
                 max_keys: int = limits.MAX_LIMITER_KEYS) -> None:
        if most < 1 or window <= 0 or max_keys < 1:
            raise ValueError("a limit needs most >= 1, window > 0 and max_keys >= 1")
        self.most = most
        self.window = window
        self.clock = clock
        self.max_keys = max_keys
        self._events: OrderedDict[str, deque[float]] = OrderedDict()
        self._lock = threading.Lock()

    def __len__(self) -> int:
        with self._lock:
            return len(self._events)

    def _expire(self, now: float) -> None:
        """Forget the keys whose last event is out of the window (they are first)."""
        horizon = now - self.window
        while self._events:
            key, events = next(iter(self._events.items()))
            if events and events[-1] > horizon:
                break
            del self._events[key]

    def _recent(self, key: str, now: float) -> deque[float] | None:
        events = self._events.get(key)
        if events is None:
            return None
        horizon = now - self.window
        while events and events[0] <= horizon:
            events.popleft()
        return events

    def _wait(self, key: str, now: float) -> float:
        """Seconds until ``key`` may take a place (0: now), the lock held."""
        self._expire(now)
        events = self._recent(key, now)
        if events is None:
            if len(self._events) < self.max_keys:
                return 0.0
            # full of live keys: until the oldest of them expires
            oldest = next(iter(self._events.values()))
            return max((oldest[-1] if oldest else now) + self.window - now, 1e-3)
        if len(events) < self.most:
            return 0.0
        return max(events[0] + self.window - now, 1e-3)

    def wait(self, key: str) -> float:
        """Seconds until ``key`` may take a place (0: now); records nothing."""
        with self._lock:
            return self._wait(key, self.clock())

    def take(self, key: str) -> Ticket | float:
        """Take a place for ``key`` now: a :class:`Ticket`, or the seconds to wait
        (> 0) when the limit is reached or the table is full of live keys (nothing is
        recorded then)."""
        now = self.clock()
        with self._lock:
            wait = self._wait(key, now)
            if wait > 0:
                return wait
            self._events.setdefault(key, deque()).append(now)
            self._events.move_to_end(key)
            return Ticket(self, key, now)

    def give_back(self, ticket: Ticket) -> None:
        """Free the place of ``ticket`` (nothing if it has expired meanwhile)."""
        with self._lock:
            events = self._events.get(ticket.key)
            if events is None:
                return
            try:
                events.remove(ticket.stamp)
            except ValueError:
                return
            if not events:
                del self._events[ticket.key]

    def forget(self, key: str) -> None:
        """Forget every event of ``key``."""
        with self._lock:
            self._events.pop(key, None)


def take_all(places: list[tuple[WindowLimit, str]]) -> list[Ticket] | float:
    """Take a place in each of several limits, or in none: the tickets, or the longest
    wait (> 0) of the limits that refused (the places taken before are given back)."""
    tickets: list[Ticket] = []
    for limit, key in places:
        taken = limit.take(key)
        if isinstance(taken, float):
            for ticket in tickets:
                ticket.give_back()
            waits = [taken] + [limit.wait(key) for limit, key in places]
            return max(waits)
        tickets.append(taken)
    return tickets


def wait_text(seconds: float) -> str:
    """``try again in 42 s`` for a wait."""
    return f"try again in {max(1, math.ceil(seconds))} s"


class HashGate:
    """Runs password hashes in threads, at most ``width`` at once and at most ``queue``
    waiting for a turn; the next one is refused with :class:`BusyError`.

    ``width`` defaults to what :data:`hexgames.limits.HASH_MEMORY_BUDGET` holds at the
    hasher's memory cost (``memory_kib`` KiB a hash), at least 1. The gate waits in the
    event loop, so a waiting request holds no thread.
    """

    def __init__(self, memory_kib: int, *, width: int | None = None,
                 queue: int = limits.MAX_HASH_QUEUE) -> None:
        self.width = width if width is not None else max(
            1, limits.HASH_MEMORY_BUDGET // max(1, memory_kib * 1024))
        self.queue = queue
        self.peak = 0  # the most hashes that ran at once (for the tests)
        self._running = 0
        self._waiting = 0
        self._limiter: Any = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def _capacity(self) -> Any:
        loop = asyncio.get_running_loop()
        if self._limiter is None or self._loop is not loop:
            self._limiter = anyio.CapacityLimiter(self.width)
            self._loop = loop
            self._running = self._waiting = 0
        return self._limiter

    async def run(self, function: Callable[..., T], *args: Any) -> T:
        """``function(*args)`` in a thread when a turn comes.

        Raises:
            BusyError: when ``queue`` requests wait already (nothing is run).
        """
        capacity = self._capacity()
        if self._waiting >= self.queue:
            raise BusyError("the server is busy checking passwords: try again in a "
                            "few seconds")
        self._waiting += 1
        try:
            await capacity.acquire()
        finally:
            self._waiting -= 1
        self._running += 1
        self.peak = max(self.peak, self._running)
        try:
            return await anyio.to_thread.run_sync(lambda: function(*args))
        finally:
            self._running -= 1
            capacity.release()

    @property
    def waiting(self) -> int:
        """Requests waiting for a turn now."""
        return self._waiting


class ServerLimits:
    """The rate limits of one server, each a :class:`WindowLimit` (``clock``: their
    time source, monotonic seconds); addresses are keys by :func:`address_key`:

    - ``login_tries``: failed logins of an account from an address (``name|address``),
      :data:`~hexgames.limits.MAX_LOGIN_FAILURES` within
      :data:`~hexgames.limits.LOGIN_WINDOW`;
    - ``login_names``: failed logins of an account (its name in lower case),
      :data:`~hexgames.limits.MAX_LOGIN_FAILURES_PER_ACCOUNT` within the window;
    - ``login_addresses``: failed logins from an address,
      :data:`~hexgames.limits.MAX_LOGIN_FAILURES_PER_ADDRESS` within the window;
    - ``logins``: logins of any outcome from an address,
      :data:`~hexgames.limits.MAX_LOGINS_PER_ADDRESS` within the window;
    - ``signups``: sign-ups from an address,
      :data:`~hexgames.limits.MAX_SIGNUPS_PER_ADDRESS` within
      :data:`~hexgames.limits.SIGNUP_WINDOW`;
    - ``password_changes``: of an account (by id),
      :data:`~hexgames.limits.MAX_PASSWORD_CHANGES` within the same hour;
    - ``imports``: imports of an account (by id),
      :data:`~hexgames.limits.MAX_IMPORTS_PER_USER` within
      :data:`~hexgames.limits.IMPORT_WINDOW`.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        window = limits.LOGIN_WINDOW
        self.login_tries = WindowLimit(limits.MAX_LOGIN_FAILURES, window, clock=clock)
        self.login_names = WindowLimit(limits.MAX_LOGIN_FAILURES_PER_ACCOUNT, window,
                                       clock=clock)
        self.login_addresses = WindowLimit(limits.MAX_LOGIN_FAILURES_PER_ADDRESS, window,
                                           clock=clock)
        self.logins = WindowLimit(limits.MAX_LOGINS_PER_ADDRESS, window, clock=clock)
        self.signups = WindowLimit(limits.MAX_SIGNUPS_PER_ADDRESS, limits.SIGNUP_WINDOW,
                                   clock=clock)
        self.password_changes = WindowLimit(limits.MAX_PASSWORD_CHANGES,
                                            limits.SIGNUP_WINDOW, clock=clock)
        self.imports = WindowLimit(limits.MAX_IMPORTS_PER_USER, limits.IMPORT_WINDOW,
                                   clock=clock)

    def login(self, name: str, address: str) -> list[Ticket] | float:
        """Take a login's places: it counts as a failure (of the account from the
        address, of the account, of the address) and as a login of the address from
        its arrival; the tickets in that order, or the wait."""
        name = name.lower()
        return take_all([(self.login_tries, f"{name}|{address}"), (self.login_names, name),
                         (self.login_addresses, address), (self.logins, address)])

    def logged_in(self, name: str, address: str, tickets: list[Ticket]) -> None:
        """The login of :meth:`login` succeeded: no failure after all (and the
        account's failures from that address are forgotten); it stays a login of the
        address."""
        self.login_tries.forget(f"{name.lower()}|{address}")
        tickets[1].give_back()
        tickets[2].give_back()


def address_key(address: str) -> str:
    """The key of a client's address in the limits: an IPv4 address as it is, an IPv6
    one by its /64 network (one subscriber's usual share, from which it could use a new
    address for each request)."""
    if ":" not in address:
        return address
    try:
        return str(ipaddress.IPv6Network(f"{address}/64", strict=False))
    except ValueError:
        return address
