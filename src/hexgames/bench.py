"""Random playouts for measuring speed: ``hexgames bench`` and the benchmark scripts.

A playout starts at the game's standard start and plays uniformly random legal moves
until the game is over. Two paths play them:

- **native** (the default): the Rust core's batch call (``AndantinoState.random_playouts``
  / ``AbandeState.random_playouts`` of :mod:`hexgames.native`, each move drawn uniformly
  by the core's seeded SplitMix64 generator), with no Python call per ply: what a
  native Monte Carlo search or a research loop gets.
- **python** (``native=False``): the pure-Python board through the API every game
  shares (``moves[int(rng.random() * len(moves))]`` of ``moves = board.legal_moves``,
  then ``board.push``), what Python code driving the public boards gets.

The two use different random generators, so the same seed gives the same games on
every run of one path, not the same games on both; their statistics (plies a game, win
and draw shares) agree up to sampling noise (a test checks it).

    >>> result = random_playouts("andantino", seconds=0.05, seed=1)
    >>> result.playouts > 0 and result.plies >= 5 * result.playouts
    True
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from hexgames.core import Outcome, Termination
from hexgames.games import game_module
from hexgames.limits import MAX_SEARCH_SECONDS
from hexgames.record.errors import shorten


@dataclass
class BenchResult:
    """What a run of :func:`random_playouts` measured.

    Attributes:
        game: the game's lower-case name.
        playouts: games played to the end.
        plies: moves played in all of them.
        seconds: wall-clock time taken (``time.perf_counter``), board setup included.
        terminations: how many playouts ended by each :class:`~hexgames.core.Termination`.
        draws: playouts that ended without a winner.
        wins: playouts won by (the first player, the second player).
        interrupted: whether Ctrl-C ended the run (only with ``interruptible=True``):
            the figures are those of the playouts finished before it.
        native: whether the native core played them (else the pure-Python board).
    """

    game: str
    playouts: int = 0
    plies: int = 0
    seconds: float = 0.0
    terminations: Counter[Termination] = field(default_factory=Counter)
    draws: int = 0
    wins: tuple[int, int] = (0, 0)
    interrupted: bool = False
    native: bool = True

    @property
    def playouts_per_second(self) -> float:
        """Playouts per second of wall-clock time (0.0 if no time was measured)."""
        return self.playouts / self.seconds if self.seconds > 0 else 0.0

    @property
    def plies_per_second(self) -> float:
        """Plies per second of wall-clock time (0.0 if no time was measured)."""
        return self.plies / self.seconds if self.seconds > 0 else 0.0

    @property
    def plies_per_playout(self) -> float:
        """The mean length of a playout in plies."""
        return self.plies / self.playouts if self.playouts else 0.0


def random_playouts(
    game: str,
    seconds: float,
    seed: int | None = None,
    rules: Iterable[str] | Any = None,
    *,
    max_playouts: int | None = None,
    interruptible: bool = False,
    native: bool = True,
) -> BenchResult:
    """Play uniformly random games from the standard start for about ``seconds``.

    The clock is read between playouts, so the run ends with the first playout that
    finishes after ``seconds`` (or after ``max_playouts`` playouts, if sooner); at least
    one playout is played, unless one outlasts the time by :data:`LONG_PLAYOUT` plies
    (the clock is read that often inside a playout too; only a raised relocation limit
    makes such games): it is then cut off and not counted. With a seed and
    ``max_playouts`` (and ``seconds`` set to ``math.inf``) the games played are the
    same on every run.

    Args:
        game: a name of :data:`hexgames.games.GAME_NAMES` (any letter case).
        seconds: the time to spend, in seconds: a number from 0 (one playout) to
            :data:`hexgames.limits.MAX_SEARCH_SECONDS` (a day), or more (``math.inf``)
            together with ``max_playouts``, which then alone ends the run.
        seed: seeds the move choices (``random.Random(seed)``); ``None`` seeds from the
            system.
        rules: the game's ``Rules``, or ``key=value`` words for ``Rules.from_options``, or
            ``None`` for the default rules.
        max_playouts: stop after this many playouts, at least 1 (``None``: no limit).
        interruptible: end the run at a ``KeyboardInterrupt`` (Ctrl-C) and return the
            figures of the playouts finished so far, with ``interrupted`` set (the
            playout under way is not counted; there may be none); otherwise the
            interrupt propagates.
        native: play them in the native core (default) or, if false, on the
            pure-Python board (see the module documentation).

    Raises:
        ValueError: for ``seconds`` that is NaN, negative, or infinite or more than a
            day without ``max_playouts`` (the run would go on until interrupted), and for
            ``max_playouts`` below 1.
        hexgames.games.UnknownGameError: for an unknown game.
        hexgames.core.InvalidRulesError: for a bad rules option.
    """
    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)):
        raise ValueError(f"seconds must be a number, not {shorten(repr(seconds))}")
    if seconds != seconds or seconds < 0:  # (math.isnan of a 400-digit int overflows)
        raise ValueError(f"seconds must be 0 or more, not {shorten(str(seconds))}")
    if max_playouts is not None and (isinstance(max_playouts, bool) or max_playouts < 1):
        raise ValueError(f"max_playouts must be at least 1, not {max_playouts}")
    if seconds > MAX_SEARCH_SECONDS:
        if max_playouts is None:
            # 1e308 ran until interrupted, as inf would have had it not been refused.
            raise ValueError(f"seconds must be at most {MAX_SEARCH_SECONDS:g} (a day) "
                             f"unless max_playouts limits the run, not "
                             f"{shorten(str(seconds))}")
        seconds = math.inf
    module = game_module(game)
    rules_class = module.Rules
    if rules is None:
        rules = rules_class()
    elif not isinstance(rules, rules_class):
        rules = rules_class.from_options(list(rules))
    if native:
        return _native_playouts(module.GAME_NAME.lower(), rules, seconds, seed,
                                max_playouts, interruptible)
    board_class = module.Board
    # rng.random() scaled to the number of moves picks each move with the same chance
    # (up to one part in 2**53) at half the cost of rng.choice, and stays reproducible.
    draw = random.Random(seed).random

    playouts = plies = draws = first_wins = 0
    terminations: Counter[Termination] = Counter()
    clock = time.perf_counter
    start = clock()
    deadline = start + seconds
    interrupted = False
    outcome: Outcome | None = None
    try:
        while True:
            board = board_class(None, rules)
            push = board.push
            # Both games promise an empty legal_moves exactly when the game is over,
            # which saves an is_game_over() call a ply.
            moves = board.legal_moves
            plies_now = 0
            while moves:
                push(moves[int(draw() * len(moves))])
                moves = board.legal_moves
                plies_now += 1
                if plies_now % LONG_PLAYOUT == 0 and clock() >= deadline:
                    break
            if moves:  # a playout outlasting the time (see LONG_PLAYOUT): not counted
                break
            outcome = board.outcome()
            if outcome is None:
                raise RuntimeError(f"{module.GAME_NAME} board with no legal move and no "
                                   f"outcome: {board.position()}")
            winner = outcome.winner
            # One assignment (no interrupt can fall inside it), then the termination:
            # an interrupt between the two is mended below.
            plies, playouts, draws, first_wins = (
                plies + len(board.move_stack), playouts + 1, draws + (winner is None),
                first_wins + (winner == 0))
            terminations[outcome.termination] += 1
            if clock() >= deadline or playouts == max_playouts:
                break
    except KeyboardInterrupt:
        if not interruptible:
            raise
        interrupted = True
        if outcome is not None and sum(terminations.values()) < playouts:
            terminations[outcome.termination] += 1
    elapsed = clock() - start
    second_wins = playouts - draws - first_wins
    return BenchResult(
        game=module.GAME_NAME.lower(),
        playouts=playouts,
        plies=plies,
        seconds=elapsed,
        terminations=terminations,
        draws=draws,
        wins=(first_wins, second_wins),
        interrupted=interrupted,
        native=False,
    )


#: The plies of a playout between two looks at the clock inside it (the native core's
#: ``playout::LONG_PLAYOUT``): more than a game of the default rules lasts, so only a game
#: of a raised relocation limit (which may go on until a position repeats) is cut short,
#: and then not counted.
LONG_PLAYOUT = 2048

#: Playouts (or seconds) a native batch call plays before Python looks again: so Ctrl-C
#: loses little, and a count-limited run is cut into the same batches on every run.
_BATCH_PLAYOUTS = 4096
_BATCH_SECONDS = 0.25


def _native_playouts(game: str, rules: Any, seconds: float, seed: int | None,
                     max_playouts: int | None, interruptible: bool) -> BenchResult:
    """:func:`random_playouts` in the native core, in batches: each batch a seeded
    native call (its seed derived from ``seed`` and the batch number), so a run with a
    seed and ``max_playouts`` plays the same games every time."""
    from hexgames import native
    from hexgames.core import splitmix64

    state = native.state_class(game)(None, rules.options())
    base = random.getrandbits(63) if seed is None else seed & ((1 << 64) - 1)
    result = BenchResult(game=game)
    terminations: Counter[Termination] = Counter()
    wins = [0, 0]
    clock = time.perf_counter
    start = clock()
    deadline = start + seconds
    batch = 0
    try:
        while True:
            count = _BATCH_PLAYOUTS
            if max_playouts is not None:
                count = min(count, max_playouts - result.playouts)
            left = deadline - clock()
            stats = state.random_playouts(
                count=count,
                seconds=None if math.isinf(seconds) else min(_BATCH_SECONDS, max(left, 0.0)),
                seed=splitmix64(base + batch))
            batch += 1
            result.playouts += stats["playouts"]
            result.plies += stats["plies"]
            result.draws += stats["draws"]
            wins[0] += stats["wins"][0]
            wins[1] += stats["wins"][1]
            for tag, n in stats["terminations"].items():
                terminations[Termination(tag)] += n
            if result.playouts == max_playouts or clock() >= deadline:
                break
    except KeyboardInterrupt:
        if not interruptible:
            raise
        result.interrupted = True
    result.seconds = clock() - start
    result.terminations = terminations
    result.wins = (wins[0], wins[1])
    return result
