"""Game clocks of the server mode: Fischer time controls for live games and days per
move for correspondence games, kept by the server on an injectable time source.

A time control (the JSON of the protocol):

- live: ``{"kind": "live", "base": 300, "increment": 2}``: ``base`` seconds each,
  ``increment`` seconds added after each of one's own moves (Fischer);
- correspondence: ``{"kind": "correspondence", "days": 3, "bank": 10}``: ``days`` a
  move; time left unused stays on the clock up to ``bank`` days (``null``: no bank,
  each move starts again from ``days``).

Both are one rule: a clock starts at ``base`` (live) or ``days`` (correspondence);
after a move the mover's clock loses the time the move took and gains the increment
(live) or ``days`` (correspondence), then is cut to the cap (``bank`` days, or
``days`` when there is no bank; live clocks have none). The clock of the side to move
runs from the moment the previous move was committed (or the game began); the other
stands.

**The server keeps the time on the wall clock** (:func:`time.time`, injectable), and
the state saved with every move is the time left of both sides and the moment the
running clock started, so a restart loses no time: **time passes while the server is
down**, as it would on a chess clock whose referee stepped out. A flag that fell
meanwhile is flagged when the server starts again (the game is lost on time by the side
whose clock ran out), and a move that reaches the server after its mover's flag fell
is refused: the game was already lost.

Clock readings (the time left after each move, in seconds) are kept with the clock
and go into records as ``{[%clk 0:04:32]}`` comments (:func:`clk_text`).

**Pauses** (a player's vacation, :mod:`hexgames.web.vacation`): a side's clock may have
spans of wall-clock time ``[start, end)`` during which it does not run. The time a
running clock has used is the time since it started less its pauses' part of it, so
its deadline moves back by the length of every pause after it started. Only
correspondence games get pauses; a pause that has ended before a move is forgotten.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

#: A source of the current time in seconds since the epoch (:func:`time.time`).
TimeSource = Callable[[], float]

#: The most seconds a live clock may start with (10 hours) and its largest increment.
MAX_LIVE_BASE = 10 * 3600
MAX_LIVE_INCREMENT = 600
#: The most days a move of a correspondence game, and a bank, may hold.
MAX_DAYS = 60
_DAY = 86400.0


class TimeControlError(ValueError):
    """A time control that is not one the server offers."""


@dataclass(frozen=True)
class TimeControl:
    """A time control (see the module's documentation); seconds throughout.

    Attributes:
        kind: ``live`` or ``correspondence``.
        base: seconds each clock starts with.
        increment: seconds added after each move.
        cap: the most seconds a clock may hold after a move, or ``None``.
    """

    kind: str
    base: float
    increment: float
    cap: float | None

    @classmethod
    def from_json(cls, value: object) -> TimeControl | None:
        """The time control of a JSON value (``None``/``null``: an untimed game).

        Raises:
            TimeControlError: naming the field that is wrong.
        """
        if value is None:
            return None
        if not isinstance(value, dict):
            raise TimeControlError("time_control must be an object such as "
                                   '{"kind": "live", "base": 300, "increment": 2}, or null')
        kind = value.get("kind")
        if kind == "live":
            base = _number(value, "base", 1, MAX_LIVE_BASE)
            increment = _number(value, "increment", 0, MAX_LIVE_INCREMENT, default=0)
            return cls("live", base, increment, None)
        if kind == "correspondence":
            days = _number(value, "days", 1, MAX_DAYS, whole=True)
            bank = value.get("bank")
            cap = days
            if bank is not None:
                cap = _number(value, "bank", days, MAX_DAYS, whole=True)
            return cls("correspondence", days * _DAY, days * _DAY, cap * _DAY)
        raise TimeControlError(f"time_control kind must be live or correspondence, not "
                               f"{str(kind)[:40]!r}")

    def to_json(self) -> dict[str, Any]:
        """The JSON form :meth:`from_json` reads."""
        if self.kind == "live":
            return {"kind": "live", "base": _plain(self.base),
                    "increment": _plain(self.increment)}
        bank = None if self.cap == self.base else round((self.cap or 0) / _DAY)
        return {"kind": "correspondence", "days": round(self.base / _DAY), "bank": bank}

    def tag(self) -> str:
        """The record's ``TimeControl`` tag: PGN's ``base+increment`` in seconds for a
        live game (``300+2``), and PGN's ``moves/seconds`` form for correspondence, one
        move in that many seconds (``1/259200`` for 3 days a move; a bank is given in
        the ``TimeBank`` tag, in seconds)."""
        if self.kind == "live":
            return f"{_plain(self.base)}+{_plain(self.increment)}"
        return f"1/{_plain(self.base)}"

    def describe(self) -> str:
        """``5+2`` (minutes + seconds) or ``3 days a move (bank 10 days)``."""
        if self.kind == "live":
            minutes = self.base / 60
            shown = f"{minutes:g}" if minutes >= 1 else f"{_plain(self.base)} s"
            return f"{shown}+{_plain(self.increment)}"
        days = round(self.base / _DAY)
        text = f"{days} day{'s' * (days != 1)} a move"
        if self.cap is not None and self.cap != self.base:
            text += f" (bank {round(self.cap / _DAY)} days)"
        return text


def _plain(value: float) -> int | float | str:
    """A number as a message writes it: ``60``, ``2.5``, ``1e+308`` (not 309 digits)."""
    if abs(value) >= 1e15:
        return f"{float(value):g}"
    return int(value) if float(value).is_integer() else value


def _number(value: dict[str, Any], name: str, low: float, high: float, *,
            default: float | None = None, whole: bool = False) -> float:
    number = value.get(name, default)
    if isinstance(number, int) and not isinstance(number, bool) and \
            not -1e300 < number < 1e300:  # a whole number too large for a float
        raise TimeControlError(f"time_control {name} must be from {_plain(low)} to "
                               f"{_plain(high)}, not a number this large")
    if isinstance(number, bool) or not isinstance(number, int | float) or \
            not math.isfinite(number):
        raise TimeControlError(f"time_control {name} must be a number, not "
                               f"{str(number)[:40]}")
    if whole and number != int(number):
        raise TimeControlError(f"time_control {name} must be a whole number of days")
    if not low <= number <= high:
        raise TimeControlError(f"time_control {name} must be from {_plain(low)} to "
                               f"{_plain(high)}, not {_plain(number)}")
    return float(number)


@dataclass
class GameClock:
    """Both clocks of one game.

    Attributes:
        control: the time control.
        remaining: seconds left of each side when its clock last stopped (the running
            one's as of ``since``).
        running: the side whose clock runs, or ``None`` (not started, or stopped at
            the end).
        since: when the running clock started (seconds since the epoch).
        readings: the mover's time left after each move, in ply order.
    """

    control: TimeControl
    remaining: list[float]
    running: int | None = None
    since: float | None = None
    readings: list[float] = field(default_factory=list)
    #: each side's pauses: ``[start, end]`` spans (seconds since the epoch) in which its
    #: clock does not run, in order, not overlapping.
    pauses: list[list[list[float]]] = field(default_factory=lambda: [[], []])

    @classmethod
    def start(cls, control: TimeControl, side: int, now: float) -> GameClock:
        """A new game's clocks, ``side``'s running from ``now``."""
        return cls(control, [control.base, control.base], side, now)

    def left(self, side: int, now: float) -> float:
        """Seconds ``side`` has left at ``now`` (0 or less once its flag fell)."""
        if self.running == side and self.since is not None:
            used = now - self.since - self.paused_time(side, self.since, now)
            return self.remaining[side] - max(0.0, used)
        return self.remaining[side]

    def paused_time(self, side: int, start: float, end: float) -> float:
        """Seconds of ``[start, end)`` in which ``side``'s clock is paused."""
        return sum(max(0.0, min(end, stop) - max(start, begin))
                   for begin, stop in self.pauses[side])

    def paused_until(self, side: int, now: float) -> float | None:
        """The end of ``side``'s pause at ``now``, or ``None`` when it has none now."""
        for begin, stop in self.pauses[side]:
            if begin <= now < stop:
                return stop
        return None

    def pause(self, side: int, start: float, end: float) -> None:
        """Pause ``side``'s clock from ``start`` to ``end`` (seconds since the epoch);
        spans that overlap are merged."""
        spans = sorted([*self.pauses[side], [start, end]])
        merged: list[list[float]] = []
        for begin, stop in spans:
            if merged and begin <= merged[-1][1]:
                merged[-1][1] = max(merged[-1][1], stop)
            else:
                merged.append([begin, stop])
        self.pauses[side] = merged

    def end_pauses(self, side: int, now: float) -> None:
        """``side``'s pauses end at ``now`` (a vacation ended early): one that runs is
        cut there, one that has not begun goes."""
        self.pauses[side] = [[begin, min(stop, now)] for begin, stop in self.pauses[side]
                             if begin < now]

    def fallen(self, now: float) -> int | None:
        """The side whose flag has fallen at ``now``, or ``None``."""
        if self.running is not None and self.left(self.running, now) <= 0:
            return self.running
        return None

    def deadline(self) -> float | None:
        """When the running clock's flag falls (seconds since the epoch), or ``None``."""
        if self.running is None or self.since is None:
            return None
        when, budget = self.since, self.remaining[self.running]
        for begin, stop in self.pauses[self.running]:
            if stop <= when:
                continue
            begin = max(begin, when)
            if when + budget <= begin:
                break
            budget -= begin - when
            when = stop
        return when + budget

    def moved(self, side: int, now: float) -> float:
        """``side`` has moved at ``now``: its clock stops, loses the time taken and gains
        the increment (cut to the cap), and the other side's clock starts. Returns the
        reading of the move (the mover's time left), also appended to ``readings``.

        Raises:
            ValueError: if ``side``'s flag has fallen (the move came too late) or its
                clock was not running.
        """
        if self.running != side:
            raise ValueError(f"the clock of side {side} is not running")
        left = self.left(side, now)
        if left <= 0:
            raise ValueError(f"the flag of side {side} has fallen")
        left += self.control.increment
        if self.control.cap is not None:
            left = min(left, self.control.cap)
        self.remaining[side] = left
        self.running = 1 - side
        self.since = now
        self.readings.append(round(left, 3))
        self.pauses = [[span for span in spans if span[1] > now] for spans in self.pauses]
        return left

    def stop(self, now: float) -> None:
        """Stop the running clock at ``now`` (the game ended)."""
        if self.running is not None:
            self.remaining[self.running] = max(0.0, self.left(self.running, now))
        self.running = None
        self.since = None

    def hold(self, side: int, now: float) -> bool:
        """Stop ``side``'s running clock at ``now`` without a move (the computer waits
        while its player may have no engine help: :meth:`hexgames.web.ai.GameAI.waits_for`):
        it keeps the time it had left and no clock runs, so no flag falls meanwhile;
        whether it was running."""
        if self.running != side:
            return False
        self.remaining[side] = max(0.0, self.left(side, now))
        self.running = self.since = None
        return True

    def resume(self, side: int, now: float) -> bool:
        """Start ``side``'s clock again from ``now`` after :meth:`hold` (the waited time
        is charged to nobody); whether no clock was running (call it for a running
        game only: a finished game's clock is stopped too)."""
        if self.running is not None:
            return False
        self.running, self.since = side, now
        return True

    def take_back(self, plies: int, first: int, side_to_move: int, now: float) -> None:
        """``plies`` moves were taken back (``first`` is the side that made the game's
        first move): each side gets back the time of its last reading before them (or
        the base), and ``side_to_move``'s clock runs from ``now``."""
        if plies:
            del self.readings[-plies:]
        self.remaining = [self.control.base, self.control.base]
        for index, reading in enumerate(self.readings):
            self.remaining[(first + index) % 2] = reading
        self.running = side_to_move
        self.since = now

    def to_json(self, now: float | None = None) -> dict[str, Any]:
        """What is stored (``now`` None) or sent: the control, ``remaining`` (as of
        ``now`` when given), ``running``, ``since`` and ``readings``; when a side has
        pauses, ``pauses`` (stored) or ``paused`` (sent: each side's pause's end at
        ``now``, or ``None``)."""
        remaining = [self.left(side, now) if now is not None else self.remaining[side]
                     for side in (0, 1)]
        shown: dict[str, Any] = {
            "control": self.control.to_json(),
            "remaining": [round(max(0.0, value), 3) for value in remaining],
            "running": self.running, "since": self.since, "readings": list(self.readings)}
        if any(self.pauses):
            if now is None:
                shown["pauses"] = [[list(span) for span in spans] for spans in self.pauses]
            else:
                shown["paused"] = [self.paused_until(side, now) for side in (0, 1)]
        return shown

    @classmethod
    def from_json(cls, value: dict[str, Any]) -> GameClock:
        """The clock :meth:`to_json` stored.

        Raises:
            ValueError: for a value it did not write.
        """
        control = TimeControl.from_json(value.get("control"))
        remaining = value.get("remaining")
        if control is None or not isinstance(remaining, list) or len(remaining) != 2:
            raise ValueError("the stored clock cannot be read")
        running = value.get("running")
        since = value.get("since")
        readings = value.get("readings") or []
        pauses = value.get("pauses") or [[], []]
        if not isinstance(pauses, list) or len(pauses) != 2:
            raise ValueError("the stored clock's pauses cannot be read")
        return cls(control, [float(remaining[0]), float(remaining[1])],
                   running if running in (0, 1) else None,
                   float(since) if isinstance(since, int | float) else None,
                   [float(reading) for reading in readings],
                   [[[float(begin), float(stop)] for begin, stop in spans]
                    for spans in pauses])


def clk_text(seconds: float) -> str:
    """A clock reading as a record comment in the lichess style: ``[%clk 0:04:32]``
    (hours:minutes:seconds, whole seconds rounded down; days as many hours)."""
    whole = max(0, int(seconds))
    hours, rest = divmod(whole, 3600)
    minutes, secs = divmod(rest, 60)
    return f"[%clk {hours}:{minutes:02d}:{secs:02d}]"


def wall_clock() -> float:
    """The default time source."""
    return time.time()
