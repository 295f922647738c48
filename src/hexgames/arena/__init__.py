"""Matches between players: colour-swapped pairs in parallel processes or on a Ray
cluster, Elo differences with confidence intervals, sequential tests (SPRT) over
pentanomial pair statistics, round-robin tournaments with Bradley-Terry ratings,
self-play data, Andantino series scores, records and JSON summaries.

    >>> from hexgames.arena import run_match
    >>> match = run_match("andantino", "random", "random", games=2, seed=1)
    >>> match.wins + match.draws + match.losses
    2
    >>> [r.first for r in match.results]
    [0, 1]

Games run through a :class:`GameExecutor`: local processes
(:class:`LocalProcessExecutor`, the default) or a Ray cluster
(:class:`hexgames.arena.cluster.RayExecutor`, the ``cluster`` extra). The modules:
:mod:`~hexgames.arena.match` (games, matches, running totals), :mod:`~hexgames.arena.sprt`
(the sequential test), :mod:`~hexgames.arena.stats` (Elo intervals),
:mod:`~hexgames.arena.ratings` (Bradley-Terry fit), :mod:`~hexgames.arena.tournament`,
:mod:`~hexgames.arena.selfplay`, :mod:`~hexgames.arena.output` (streamed results) and
:mod:`~hexgames.arena.samples` (Parquet training samples).
"""

from __future__ import annotations

from hexgames.arena.errors import ArenaError, OutputError
from hexgames.arena.executor import GameExecutor, LocalProcessExecutor
from hexgames.arena.match import (
    GameResult,
    GameTask,
    MatchResult,
    Sample,
    Tally,
    derive_seed,
    match_tasks,
    play_game,
    play_task,
    run_match,
)
from hexgames.arena.output import GAMES_FILE, RESULTS_FILE, SUMMARY_FILE, GameOutput
from hexgames.arena.ratings import Rating, fit_ratings
from hexgames.arena.selfplay import run_selfplay
from hexgames.arena.sprt import Sprt, llr_logistic, sprt_bounds
from hexgames.arena.stats import (
    EloEstimate,
    elo_estimate,
    elo_estimate_counts,
    elo_from_score,
    format_elo,
    pentanomial_scores,
    score_from_elo,
)
from hexgames.arena.tournament import TournamentResult, run_tournament

__all__ = [
    "GAMES_FILE",
    "RESULTS_FILE",
    "SUMMARY_FILE",
    "ArenaError",
    "EloEstimate",
    "GameExecutor",
    "GameOutput",
    "GameResult",
    "GameTask",
    "LocalProcessExecutor",
    "MatchResult",
    "OutputError",
    "Rating",
    "Sample",
    "Sprt",
    "Tally",
    "TournamentResult",
    "derive_seed",
    "elo_estimate",
    "elo_estimate_counts",
    "elo_from_score",
    "fit_ratings",
    "format_elo",
    "llr_logistic",
    "match_tasks",
    "pentanomial_scores",
    "play_game",
    "play_task",
    "run_match",
    "run_selfplay",
    "run_tournament",
    "score_from_elo",
    "sprt_bounds",
]
