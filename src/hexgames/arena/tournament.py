"""Round-robin tournaments: every player against every other in colour-swapped pairs,
with a crosstable, scores and Bradley-Terry ratings (:mod:`hexgames.arena.ratings`).

The games are laid out in rounds: round ``r`` plays pair ``r`` of every pairing (players
``i < j``, in order), both games from one pair seed, ``i`` moving first in the first game.
So a tournament stopped early (Ctrl-C) has about as many games in every pairing, and the
same seed gives the same games whatever executor plays them. Tasks are made as the
executor asks for them, and the totals are kept per pairing, so memory grows with the
number of players squared, never with the games.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from hexgames.arena.errors import ArenaError
from hexgames.arena.executor import GameExecutor, LocalProcessExecutor, prepare
from hexgames.arena.match import (
    GameResult,
    GameTask,
    ProgressCallback,
    Tally,
    check_match,
    derive_seed,
    game_json,
    run_games,
    run_json,
)
from hexgames.arena.output import GameOutput
from hexgames.arena.ratings import MAX_PLAYERS, Rating, fit_ratings, virtual_draws
from hexgames.engine.base import Limit
from hexgames.games import game_module


def tournament_tasks(game: str, specs: Sequence[str], games_per_pair: int, seed: int, *,
                     rules: Sequence[str] = (), position: str | None = None,
                     limit: Limit | None = None, event: str = "hexgames tournament",
                     opening_plies: int = 0) -> Iterator[GameTask]:
    """The tasks of a round robin (see the module), made one at a time: task ``2k`` and
    ``2k + 1`` are the two games of one colour-swapped pair."""
    pairings = [(i, j) for i in range(len(specs)) for j in range(i + 1, len(specs))]
    options = tuple(rules)
    for round_index in range(games_per_pair // 2):
        for number, (i, j) in enumerate(pairings):
            pair = round_index * len(pairings) + number
            pair_seed = derive_seed(seed, "tournament", i, j, round_index)
            for first in (0, 1):
                yield GameTask(index=2 * pair + first, game=game,
                               players=(specs[i], specs[j]), first=first, seed=pair_seed,
                               rules=options, position=position, limit=limit, event=event,
                               opening_plies=opening_plies)


@dataclass
class TournamentResult:
    """A round robin's games and what they say.

    Attributes:
        game: the game's module name.
        players: the players' specs, in the order given.
        games_per_pair: games planned between each two players.
        tallies: ``(i, j)`` with ``i < j`` -> the running totals of their games, from
            player ``i``'s side (``i`` is A).
        results: the games kept (see ``keep_results`` of :func:`run_tournament`).
        rules, position, limit, seed, opening_plies: as for a match.
        executor, jobs: where the games ran.
        elapsed: wall-clock seconds.
        interrupted: whether Ctrl-C ended the tournament early.
        prior_draws: the virtual draws a pair of the ratings' prior.
    """

    game: str
    players: tuple[str, ...]
    games_per_pair: int
    tallies: dict[tuple[int, int], Tally]
    results: list[GameResult] = field(default_factory=list)
    rules: tuple[str, ...] = ()
    position: str | None = None
    limit: Limit | None = None
    seed: int = 0
    opening_plies: int = 0
    executor: str = "local"
    jobs: int | None = 1
    elapsed: float = 0.0
    interrupted: bool = False
    prior_draws: float = 1.0

    @property
    def games(self) -> int:
        """Games played."""
        return sum(t.games for t in self.tallies.values())

    @property
    def games_planned(self) -> int:
        """Games planned: ``games_per_pair`` for every two players."""
        n = len(self.players)
        return self.games_per_pair * n * (n - 1) // 2

    @property
    def complete(self) -> bool:
        """Whether every planned game was played."""
        return self.games == self.games_planned

    def add(self, result: GameResult, *, keep: bool = True) -> None:
        """Count a finished game of two of the players."""
        index = {spec: i for i, spec in enumerate(self.players)}
        i, j = index[result.players[0]], index[result.players[1]]
        self.tallies[(i, j)].add(result)
        if keep:
            self.results.append(result)

    def table(self) -> tuple[list[list[int]], list[list[float]]]:
        """``(games, points)``: ``games[i][j]`` games between players ``i`` and ``j``,
        ``points[i][j]`` the points ``i`` scored in them (draws one half)."""
        n = len(self.players)
        games = [[0] * n for _ in range(n)]
        points = [[0.0] * n for _ in range(n)]
        for (i, j), tally in self.tallies.items():
            wins, draws, losses = tally.wdl
            games[i][j] = games[j][i] = tally.games
            points[i][j] = wins + draws / 2
            points[j][i] = losses + draws / 2
        return games, points

    def crosstable(self) -> list[list[dict[str, int] | None]]:
        """``row[i][j]``: player ``i``'s wins, draws and losses against ``j`` (``None``
        on the diagonal)."""
        n = len(self.players)
        rows: list[list[dict[str, int] | None]] = [[None] * n for _ in range(n)]
        for (i, j), tally in self.tallies.items():
            wins, draws, losses = tally.wdl
            rows[i][j] = {"wins": wins, "draws": draws, "losses": losses}
            rows[j][i] = {"wins": losses, "draws": draws, "losses": wins}
        return rows

    def scores(self) -> list[tuple[float, int]]:
        """Each player's ``(points, games)`` over the tournament."""
        games, points = self.table()
        return [(sum(points[i]), sum(games[i])) for i in range(len(self.players))]

    def ratings(self) -> list[Rating] | None:
        """Each player's Bradley-Terry rating with its 95% interval (mean 0; see
        :func:`hexgames.arena.ratings.fit_ratings`, with :attr:`prior_draws`), or
        ``None`` when the games so far do not determine them."""
        games, points = self.table()
        try:
            return fit_ratings(games, points, prior_draws=self.prior_draws)
        except ValueError:
            return None

    def standings(self) -> list[int]:
        """The players' indices, best first: by rating, then points."""
        ratings = self.ratings()
        scores = self.scores()

        def key(i: int) -> tuple[float, float]:
            return (ratings[i].elo if ratings else 0.0, scores[i][0])

        return sorted(range(len(self.players)), key=key, reverse=True)

    def summary(self) -> dict[str, Any]:
        """The tournament as a JSON-ready dict (what ``summary.json`` holds)."""
        ratings = self.ratings()
        scores = self.scores()
        rows = self.crosstable()
        summary: dict[str, Any] = {
            **run_json(self, list(self.players)),
            "games_per_pair": self.games_per_pair,
            "games": self.games,
            "games_planned": self.games_planned,
            "complete": self.complete,
            "interrupted": self.interrupted,
            "ratings_model": "Bradley-Terry, logistic Elo, maximum likelihood with "
                             f"{virtual_draws(self.prior_draws)} a pair",
            "standings": [{
                "player": self.players[i],
                "points": scores[i][0],
                "games": scores[i][1],
                "rating": None if ratings is None else ratings[i].to_json(),
            } for i in self.standings()],
            "crosstable": {self.players[i]: {self.players[j]: cell
                                             for j, cell in enumerate(row) if cell}
                           for i, row in enumerate(rows)},
            "elapsed": self.elapsed,
        }
        if self.results:
            summary["results"] = [game_json(r)
                                  for r in sorted(self.results, key=lambda r: r.index)]
        return summary


def run_tournament(game: str, specs: Sequence[str], *, games_per_pair: int = 2,
                   limit: Limit | None = None, rules: Any = None, jobs: int = 1,
                   seed: int | None = None, executor: GameExecutor | None = None,
                   progress: ProgressCallback | None = None, position: str | None = None,
                   event: str = "hexgames tournament", opening_plies: int = 0,
                   out: str | Path | GameOutput | None = None, keep_results: bool = True,
                   stop_on_interrupt: bool = False,
                   prior_draws: float = 1.0) -> TournamentResult:
    """Play a round robin between ``specs`` (see the module).

    Args:
        game: the game's name.
        specs: 2 to ``MAX_PLAYERS`` (64) player specs, all different.
        games_per_pair: games between each two players, an even number 2 or more.
        limit, rules, jobs, seed, executor, position, event, opening_plies, out,
            keep_results, stop_on_interrupt: as for :func:`hexgames.arena.run_match`.
        progress: called as ``progress(result, done, total)`` after each game.
        prior_draws: virtual draws a pair in the ratings (:func:`fit_ratings`).

    Raises:
        ArenaError: for fewer than 2 or more than 64 players, a player given twice, an
            odd or too small ``games_per_pair``, or as :func:`run_match`.
        UnknownGameError, InvalidRulesError, InvalidPositionError, UnknownPlayerError,
            InvalidLimitError, OutputError: as :func:`run_match`.
    """
    module = game_module(game)
    name = module.__name__.rpartition(".")[2]
    players = tuple(spec.strip() for spec in specs)
    if not 2 <= len(players) <= MAX_PLAYERS:
        raise ArenaError(f"a tournament needs 2 to {MAX_PLAYERS} players, "
                         f"not {len(players)}")
    seen: set[str] = set()
    for spec in players:
        if spec.lower() in seen:
            raise ArenaError(f"player {spec!r} is given twice")
        seen.add(spec.lower())
    if isinstance(games_per_pair, bool) or not isinstance(games_per_pair, int) \
            or games_per_pair < 2 or games_per_pair % 2:
        raise ArenaError(f"games_per_pair must be an even number 2 or more (colour-swapped "
                         f"pairs), not {games_per_pair!r}")
    rules_obj = check_match(module, rules, position, players, opening_plies)
    if seed is None:
        seed = random.SystemRandom().randrange(1 << 63)
    if executor is None:
        executor = LocalProcessExecutor(jobs)
    options = tuple(rules_obj.options())
    tallies = {(i, j): Tally() for i in range(len(players))
               for j in range(i + 1, len(players))}
    where, jobs_used = prepare(executor)
    result = TournamentResult(name, players, games_per_pair, tallies, [], options, position,
                              limit, seed, opening_plies, where, jobs_used,
                              prior_draws=prior_draws)
    output = GameOutput(out) if isinstance(out, str | Path) else out
    tasks = tournament_tasks(name, players, games_per_pair, seed, rules=options,
                             position=position, limit=limit, event=event,
                             opening_plies=opening_plies)
    total = result.games_planned
    start = time.perf_counter()

    def on_result(game_result: GameResult) -> bool:
        if output is not None:
            output.add(game_result)
        result.add(game_result, keep=keep_results)
        result.elapsed = time.perf_counter() - start
        if progress is not None:
            progress(game_result, result.games, total)
        return False

    run_games(result, executor, tasks, on_result, start=start, output=output,
              stop_on_interrupt=stop_on_interrupt)
    return result
