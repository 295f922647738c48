"""Self-play: one player against itself, for research data and training evaluations.

Every game has its own seed (``derive_seed(seed, "selfplay", i)``), the player's two
sides seeded apart, and the first player is always side A, so the match statistics of
the result are the first player's. With ``samples=True`` the output directory gets
``samples.parquet``: one row per position the player moved from, with the position, the
move, what the search reported (score, evaluation, depth, nodes and, when the player
gives them, move probabilities) and the game's final result from the side to move's
point of view; :mod:`hexgames.arena.samples` documents the columns. Random opening plies
are part of the records but give no samples (no search chose them).
"""

from __future__ import annotations

import random
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from hexgames.arena.errors import ArenaError
from hexgames.arena.executor import GameExecutor, LocalProcessExecutor, prepare
from hexgames.arena.match import (
    GameTask,
    MatchResult,
    ProgressCallback,
    check_match,
    derive_seed,
    play_match,
)
from hexgames.arena.output import GameOutput
from hexgames.engine.base import Limit
from hexgames.games import game_module


def selfplay_tasks(game: str, spec: str, games: int, seed: int, *,
                   rules: Sequence[str] = (), position: str | None = None,
                   limit: Limit | None = None, event: str = "hexgames selfplay",
                   opening_plies: int = 0, samples: bool = False) -> Iterator[GameTask]:
    """The tasks of a self-play run, made one at a time (see the module)."""
    options = tuple(rules)
    for i in range(games):
        yield GameTask(index=i, game=game, players=(spec, spec), first=0,
                       seed=derive_seed(seed, "selfplay", i), rules=options,
                       position=position, limit=limit, event=event,
                       opening_plies=opening_plies, samples=samples)


def run_selfplay(game: str, spec: str, *, games: int = 2, limit: Limit | None = None,
                 rules: Any = None, jobs: int = 1, seed: int | None = None,
                 executor: GameExecutor | None = None,
                 progress: ProgressCallback | None = None, position: str | None = None,
                 event: str = "hexgames selfplay", opening_plies: int = 0,
                 out: str | Path | GameOutput | None = None, samples: bool = False,
                 keep_results: bool = True,
                 stop_on_interrupt: bool = False) -> MatchResult:
    """Play ``games`` games of ``spec`` against itself (see the module).

    Args:
        game, limit, rules, jobs, seed, executor, progress, position, event,
            opening_plies, keep_results, stop_on_interrupt: as for
            :func:`hexgames.arena.run_match`.
        spec: the player spec.
        games: the number of games, 1 or more.
        out: the output directory (or :class:`GameOutput`), as for ``run_match``;
            needed for ``samples``.
        samples: write training samples to ``out`` (``samples.parquet``; needs
            ``pyarrow``, the ``selfplay`` extra); kept results carry them too.

    Returns:
        a :class:`MatchResult` whose A is the first player in every game.

    Raises:
        ArenaError: for fewer than one game, or ``samples`` without ``out``.
        OutputError: for an output that cannot be written, or samples without
            ``pyarrow`` (before any game).
        UnknownGameError, InvalidRulesError, InvalidPositionError, UnknownPlayerError,
            InvalidLimitError: as :func:`run_match`.
    """
    module = game_module(game)
    name = module.__name__.rpartition(".")[2]
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ArenaError(f"self-play needs 1 or more games, not {games!r}")
    if samples and out is None:
        raise ArenaError("training samples need an output directory (out)")
    spec = spec.strip()
    rules_obj = check_match(module, rules, position, [spec], opening_plies)
    if seed is None:
        seed = random.SystemRandom().randrange(1 << 63)
    if executor is None:
        executor = LocalProcessExecutor(jobs)
    options = tuple(rules_obj.options())
    where, jobs_used = prepare(executor)
    match = MatchResult(name, (spec, spec), [], games, options, position, limit, seed,
                        jobs_used, 0.0, opening_plies, executor=where, kept=keep_results)
    output = GameOutput(out, samples=samples) if isinstance(out, str | Path) else out
    tasks = selfplay_tasks(name, spec, games, seed, rules=options, position=position,
                           limit=limit, event=event, opening_plies=opening_plies,
                           samples=samples)
    return play_match(match, executor, tasks, output=output, progress=progress,
                      stop_on_interrupt=stop_on_interrupt)
