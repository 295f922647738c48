"""Matches between players: colour-swapped pairs in parallel processes, Elo differences
with confidence intervals, Andantino series scores, records and JSON summaries.

    >>> from hexgames.arena import run_match
    >>> match = run_match("andantino", "random", "random", games=2, seed=1)
    >>> match.wins + match.draws + match.losses
    2
    >>> [r.first for r in match.results]
    [0, 1]

Games run through a :class:`GameExecutor` (local processes today, see
:mod:`hexgames.arena.executor` for adding a cluster backend).
"""

from __future__ import annotations

from hexgames.arena.executor import GameExecutor, LocalProcessExecutor
from hexgames.arena.match import (
    GAMES_FILE,
    SUMMARY_FILE,
    ArenaError,
    GameResult,
    GameTask,
    MatchResult,
    derive_seed,
    match_tasks,
    play_game,
    play_task,
    run_match,
)
from hexgames.arena.stats import (
    EloEstimate,
    elo_estimate,
    elo_from_score,
    format_elo,
    score_from_elo,
)

__all__ = [
    "GAMES_FILE",
    "SUMMARY_FILE",
    "ArenaError",
    "EloEstimate",
    "GameExecutor",
    "GameResult",
    "GameTask",
    "LocalProcessExecutor",
    "MatchResult",
    "derive_seed",
    "elo_estimate",
    "elo_from_score",
    "format_elo",
    "match_tasks",
    "play_game",
    "play_task",
    "run_match",
    "score_from_elo",
]
