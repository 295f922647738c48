"""A Ray backend for the arena: games as Ray tasks on a local or remote Ray cluster
(``pip install 'hexgames[cluster]'``).

:class:`RayExecutor` is a :class:`~hexgames.arena.executor.GameExecutor`: it keeps as
many games in flight as the cluster has CPUs (each game is one task of one CPU), making
the next task only when one finishes, and yields results as they come. A worker process
or node that dies loses only the games it was playing: Ray runs such a task again (up to
``retries`` times; Ray's ``max_retries`` for system failures), and since a task holds its
seeds the replayed game is the same game. Closing the iterator (Ctrl-C, or a sequential
test that has decided) cancels the tasks in flight.

**Running on several machines.** Install hexgames with the extra on every machine, the
same version of hexgames, Ray and Python everywhere (Ray requires it)::

    pip install 'hexgames[cluster]'
    # on the head machine:
    ray start --head --port=6379 --num-cpus=N
    # on each other machine (the command ``ray start --head`` printed):
    ray start --address=HEAD_HOST:6379 --num-cpus=N
    # then, on any machine of the cluster:
    hexgames match andantino -p hard -p expert -n 1000 --executor ray --address auto

``--address auto`` joins the cluster this machine belongs to; ``HOST:PORT`` names a head
(from a machine of the cluster's network), and ``ray://HOST:10001`` connects through the
Ray Client from outside. Without ``--address`` a Ray instance is started on this machine
for the run. ``ray stop`` on each machine ends the cluster. Ray's token authentication
(on by default from Ray 2.59 for local instances, 2.61 for all clusters) needs the same
``RAY_AUTH_MODE=token`` and ``RAY_AUTH_TOKEN`` (``ray get-auth-token --generate``) on
every machine and where ``hexgames`` runs; Ray's documentation covers firewalls (the
ports ``ray start`` uses).
"""

from __future__ import annotations

import contextlib
import logging
import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

from hexgames.arena.errors import ArenaError
from hexgames.processes import signal_handlers_kept

T = TypeVar("T")
R = TypeVar("R")

_ADDRESS_RE = re.compile(r"(ray://)?[A-Za-z0-9._\-]+:([0-9]{1,5})")


def check_address(address: str | None) -> str | None:
    """``address`` stripped, if it is ``None``, ``auto``, ``HOST:PORT`` or
    ``ray://HOST:PORT`` (port 1 to 65535).

    Raises:
        ArenaError: for any other text.
    """
    if address is None:
        return None
    text = address.strip()
    if text == "auto":
        return text
    match = _ADDRESS_RE.fullmatch(text)
    if match is None or not 1 <= int(match.group(2)) <= 65535:
        shown = text if len(text) <= 60 else text[:57] + "..."
        raise ArenaError(f"a Ray address is auto, HOST:PORT or ray://HOST:PORT, "
                         f"not {shown!r}")
    return text


#: Ray's switch for a single-machine instance: with it off, a local instance puts all
#: its processes on the loopback address instead of this machine's network address.
_LOCAL_ONLY = "RAY_ENABLE_WINDOWS_OR_OSX_CLUSTER"


def _import_ray(local: bool = False) -> Any:
    """Import Ray; for a ``local`` instance (no cluster address) first ask it to keep
    every process on loopback (read when Ray is imported, and by its workers)."""
    if local and "ray" not in sys.modules:
        os.environ.setdefault(_LOCAL_ONLY, "0")
    try:
        import ray
    except ImportError:
        raise ArenaError("the ray executor needs Ray, which is not installed: "
                         "pip install 'hexgames[cluster]'") from None
    return ray


class RayExecutor:
    """Runs tasks as Ray tasks (see the module).

    Args:
        address: the cluster to use (``auto``, ``HOST:PORT``, ``ray://HOST:PORT``), or
            ``None`` to start a Ray instance on this machine when Ray is not initialised
            yet (an initialised one is used as it is).
        num_cpus: CPUs of a Ray instance this executor starts (``None``: all).
        max_in_flight: the most tasks submitted at once; ``None`` for the cluster's CPUs.
        retries: how many times Ray runs a task again whose worker died.

    Raises:
        ArenaError: if Ray is not installed, or for a bad address.
        ValueError: for a bad ``num_cpus``, ``max_in_flight`` or ``retries``.
    """

    name = "ray"

    def __init__(self, address: str | None = None, *, num_cpus: int | None = None,
                 max_in_flight: int | None = None, retries: int = 3) -> None:
        self.address = check_address(address)
        self._ray = _import_ray(local=self.address is None)
        for label, value, least in (("num_cpus", num_cpus, 1),
                                    ("max_in_flight", max_in_flight, 1),
                                    ("retries", retries, 0)):
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                                      or value < least):
                raise ValueError(f"{label} must be a whole number of {least} or more, "
                                 f"not {value!r}")
        self.num_cpus = num_cpus
        self.max_in_flight = max_in_flight
        self.retries = retries
        self.jobs: int | None = None
        self._started = False

    class _QuietStart(logging.Filter):
        """Drops two warnings of ``ray.init`` that are no concern of ours: that it set no
        SIGTERM handler off the main thread (we keep our own handlers in any case:
        :func:`hexgames.processes.signal_handlers_kept`), and, for an instance we start
        on this machine, that its token authentication is on."""

        def __init__(self, local: bool) -> None:
            super().__init__()
            self.local = local

        def filter(self, record: logging.LogRecord) -> bool:
            text = record.getMessage()
            if text.startswith("SIGTERM handler is not set"):
                return False
            return not (self.local and text.startswith("Token authentication is enabled"))

    def connect(self) -> None:
        """Join (or start) the Ray cluster, if not done yet.

        Raises:
            ArenaError: if the cluster cannot be reached.
        """
        ray = self._ray
        if not ray.is_initialized():
            options: dict[str, Any] = {"logging_level": logging.WARNING,
                                       "log_to_driver": False}
            if self.address is None:
                options.update(num_cpus=self.num_cpus, include_dashboard=False)
            quiet = self._QuietStart(local=self.address is None)
            loggers = [logging.getLogger(name) for name in
                       ("ray", "ray._private.worker", "ray._private.authentication",
                        "ray._private.authentication.authentication_token_setup")]
            for logger in loggers:
                logger.addFilter(quiet)
            try:
                with signal_handlers_kept():  # Ray's own SIGTERM handler exits at once
                    ray.init(address=self.address, **options)
            except (ConnectionError, RuntimeError, ValueError) as error:
                raise ArenaError(f"cannot reach the Ray cluster at "
                                 f"{self.address or 'a local instance'}: {error}") from None
            finally:
                for logger in loggers:
                    logger.removeFilter(quiet)
            self._started = True
        cpus = int(ray.cluster_resources().get("CPU", 1))
        self.jobs = self.max_in_flight or max(1, cpus)

    @property
    def started(self) -> bool:
        """Whether :meth:`connect` initialised Ray (and :meth:`close` shuts it down),
        rather than finding it initialised."""
        return self._started

    def close(self) -> None:
        """Shut down the Ray connection (and a local instance) if this executor made it."""
        if self._started and self._ray.is_initialized():
            with signal_handlers_kept():
                self._ray.shutdown()
        self._started = False

    def map_unordered(self, fn: Callable[[T], R], tasks: Iterable[T]) -> Iterator[R]:
        """``fn(task)`` for every task as a Ray task, yielded in order of completion;
        an exception raised by ``fn`` is raised as it is."""
        ray = self._ray
        self.connect()
        assert self.jobs is not None
        remote = ray.remote(fn).options(num_cpus=1, max_retries=self.retries,
                                        retry_exceptions=False)
        todo = iter(tasks)
        pending: list[Any] = []
        try:
            for task in todo:
                pending.append(remote.remote(task))
                if len(pending) >= self.jobs:
                    break
            while pending:
                done, pending = ray.wait(pending, num_returns=1)
                for task in todo:
                    pending.append(remote.remote(task))
                    break
                yield self._get(done[0])
        finally:
            # A Ray instance this executor started is shut down by close(), which ends
            # its workers; cancelling their tasks first can crash Ray's own bookkeeping
            # (a task completing while it is cancelled aborts the driver in Ray 2.60).
            # On someone else's cluster, ask the tasks to stop.
            if not self._started:
                for ref in pending:
                    with contextlib.suppress(Exception):
                        ray.cancel(ref, force=False)

    def _get(self, ref: Any) -> Any:
        ray = self._ray
        try:
            return ray.get(ref)
        except ray.exceptions.RayTaskError as error:
            cause = getattr(error, "cause", None)
            if isinstance(cause, BaseException):
                raise cause from None
            raise
        except (ray.exceptions.WorkerCrashedError, ray.exceptions.NodeDiedError,
                ray.exceptions.ObjectLostError) as error:
            raise ArenaError(f"a game's Ray worker died {self.retries + 1} times "
                             f"({type(error).__name__}); giving up") from None
