"""Games and matches between players: colour-swapped pairs, seeds, results, records.

A match between players A and B plays its games in **colour-swapped pairs**: game ``2k``
has A moving first, game ``2k + 1`` has B moving first, both from the same pair seed, so
the first player's advantage (large in Andantino) cancels out. With an odd number of
games the last one has A moving first.

Every game's seed comes from the match seed and the pair index alone (:func:`derive_seed`),
and each player's seed from the game seed and whether it is A or B, so the same match seed
gives the same games whatever the number of processes, as long as the players' limits do
not depend on the clock (``nodes``, ``depth``, ``playouts``, or players that need none).

Players whose limit does not depend on the clock play the same game again and again from
the same position, so a match can begin each pair with **random opening plies**
(``opening_plies``): that many uniformly random legal moves, drawn from the pair seed, so
both games of a pair start from the same opening with the colours swapped. This is the
usual way engine matches get varied, balanced games (as chess engine testing plays from
opening books).
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

from hexgames import __version__
from hexgames.arena.executor import GameExecutor, LocalProcessExecutor
from hexgames.arena.stats import EloEstimate, elo_estimate
from hexgames.core import HexgamesError, Outcome
from hexgames.engine.base import Limit, Player
from hexgames.engine.players import check_spec, make_player
from hexgames.games import game_module
from hexgames.record import GameRecord, record_from_board, write_games

#: Player names in a match: index 0 is A, 1 is B.
SIDES = ("A", "B")
#: The file names :meth:`MatchResult.write` uses in the output directory.
GAMES_FILE = "games.hgn"
SUMMARY_FILE = "summary.json"

PlayerLike = str | Player


class ArenaError(HexgamesError):
    """A match that cannot be played as asked, or a player that broke the rules."""


def derive_seed(seed: int, *parts: object) -> int:
    """A 63-bit seed determined by ``seed`` and ``parts`` (e.g. a game index), the same
    on every machine and run (BLAKE2b of their text)."""
    text = ":".join(str(part) for part in (seed, *parts)).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1


# --- one game -------------------------------------------------------------------------


@dataclass(frozen=True)
class GameResult:
    """One finished game of a match.

    Attributes:
        index: the game's 0-based index in the match (0 for a lone game).
        players: the names of A and B (their specs, or a player object's ``name``).
        first: 0 when A moved first, 1 when B did.
        seed: the game's seed (shared by the two games of a pair), or ``None``.
        record: the game record; its player tags are ``players`` in colour order.
        outcome: how the game ended (``winner`` is a colour: 0 the first player).
        plies: plies played.
        times: seconds A and B spent choosing their moves, in total.
        moves: plies A and B played.
        nodes: nodes (or simulations) A's and B's searches reported, in total.
        series: Andantino series points (RULES.md, "Series scoring") of A and B, or
            ``None`` for a game without series scoring.
    """

    index: int
    players: tuple[str, str]
    first: int
    seed: int | None
    record: GameRecord
    outcome: Outcome
    plies: int
    times: tuple[float, float]
    moves: tuple[int, int]
    nodes: tuple[int, int] = (0, 0)
    series: tuple[int, int] | None = None

    @property
    def result(self) -> str:
        """The result from the first player's point of view (``1-0``, ``0-1``, ``1/2-1/2``)."""
        return self.outcome.result()

    @property
    def winner(self) -> int | None:
        """0 when A won, 1 when B won, ``None`` for a draw."""
        if self.outcome.winner is None:
            return None
        return self.outcome.winner ^ self.first

    @property
    def score_a(self) -> float:
        """A's score: 1 a win, 0.5 a draw, 0 a loss."""
        return 0.5 if self.winner is None else float(self.winner == 0)

    def color_of(self, side: int) -> int:
        """The colour (0 first player, 1 second) that A (``side`` 0) or B (1) played."""
        return side ^ self.first


def _rules(module: ModuleType, rules: Any) -> Any:
    """The game's ``Rules`` from ``None`` (the defaults), option words (a string or an
    iterable of ``key=value`` words) or a ``Rules`` object."""
    if rules is None:
        return module.Rules()
    if isinstance(rules, module.Rules):
        return rules
    if isinstance(rules, str):
        return module.Rules.from_options(rules)
    if isinstance(rules, Iterable):
        return module.Rules.from_options([str(word) for word in rules])
    raise ArenaError(f"rules must be {module.GAME_NAME} rules or key=value words, "
                     f"not {type(rules).__name__}")


def _series(module: ModuleType, board: Any, first: int) -> tuple[int, int] | None:
    """Series points of A and B, for games that score series (Andantino's
    ``series_points``) under a limited tile supply."""
    series_points = getattr(module, "series_points", None)
    if series_points is None or getattr(board.rules, "tiles_per_player", 0) is None:
        return None
    points = series_points(board)
    return (points[first], points[1 - first])


def play_game(game: str, players: Sequence[PlayerLike], rules: Any = None,
              seed: int | None = None, limit: Limit | None = None, *, first: int = 0,
              position: str | None = None, index: int = 0,
              tags: dict[str, str] | None = None, opening_plies: int = 0) -> GameResult:
    """Play one game between A and B to its end.

    Args:
        game: the game's name (``andantino``, ``abande``).
        players: A and B, each a player spec (made with :func:`make_player`, seeded from
            ``seed``) or a :class:`Player` (used as it is, after ``new_game()``).
        rules: ``None`` for the default rules, ``key=value`` words, or a ``Rules``.
        seed: the game's seed; A's and B's seeds are derived from it. ``None`` leaves
            the players unseeded.
        limit: the search limit of a spec that sets none (see :func:`make_player`); for
            a :class:`Player` object, the limit passed to every ``play``.
        first: 0 when A moves first, 1 when B does.
        position: a position string to start from instead of the standard start.
        index: the game's index in its match (kept in the result; ``Round`` is
            ``index + 1``).
        tags: further record tags (``Event``...).
        opening_plies: uniformly random plies played first (seeded by ``seed``), before
            the players take over; they are part of the record, and recorded in an
            ``Opening`` tag.

    Returns:
        the :class:`GameResult`; its record's player tags are the specs (or names).

    Raises:
        UnknownGameError, InvalidRulesError, InvalidPositionError: for a bad game, rules
            or position.
        UnknownPlayerError, InvalidLimitError: for a bad player spec.
        ArenaError: for a bad ``players`` or ``first``, or a player that returns an
            illegal move.
    """
    module = game_module(game)
    if len(players) != 2:
        raise ArenaError(f"a game needs two players, not {len(players)}")
    if first not in (0, 1):
        raise ArenaError(f"first must be 0 (A moves first) or 1 (B), not {first!r}")
    _check_opening_plies(opening_plies)
    board = module.Board(position, _rules(module, rules))
    objects: list[Player] = []
    names: list[str] = []
    for side, player in enumerate(players):
        if isinstance(player, Player):
            objects.append(player)
            names.append(player.name)
        elif isinstance(player, str):
            player_seed = None if seed is None else derive_seed(seed, SIDES[side])
            objects.append(make_player(player, player_seed, limit=limit))
            names.append(player.strip())
        else:
            raise ArenaError(f"a player is a spec or a Player, not {type(player).__name__}")
    if opening_plies:
        opening = random.Random(None if seed is None else derive_seed(seed, "opening"))
        for _ in range(opening_plies):
            if board.is_game_over():
                break
            board.push(opening.choice(board.legal_moves))
    for player in objects:
        player.new_game()
    play_limits = [limit if isinstance(p, Player) else None for p in players]
    times = [0.0, 0.0]
    moves = [0, 0]
    nodes = [0, 0]
    while not board.is_game_over():
        side = int(board.turn) ^ first
        start = time.perf_counter()
        chosen = objects[side].play(board, play_limits[side])
        times[side] += time.perf_counter() - start
        moves[side] += 1
        nodes[side] += chosen.info.nodes
        move = chosen.move
        if not board.is_legal(move):
            shown = move.notation() if hasattr(move, "notation") else repr(move)
            raise ArenaError(f"game {index + 1}: {names[side]} ({SIDES[side]}) played the "
                             f"illegal move {shown} in {board.position()}")
        board.push(move)
    outcome = board.outcome()
    assert outcome is not None
    by_color = (names[first], names[1 - first])
    record_tags = dict(tags or {})
    record_tags["Round"] = str(index + 1)
    if opening_plies:
        record_tags["Opening"] = f"{opening_plies} random plies"
    record_tags.update(zip(module.PLAYER_TAGS, by_color, strict=True))
    return GameResult(
        index=index, players=(names[0], names[1]), first=first, seed=seed,
        record=record_from_board(board, tags=record_tags), outcome=outcome,
        plies=board.ply(), times=(times[0], times[1]), moves=(moves[0], moves[1]),
        nodes=(nodes[0], nodes[1]), series=_series(module, board, first))


def _check_opening_plies(opening_plies: int) -> None:
    if isinstance(opening_plies, bool) or not isinstance(opening_plies, int) \
            or opening_plies < 0:
        raise ArenaError(f"opening_plies must be a whole number 0 or more, "
                         f"not {opening_plies!r}")


# --- a match --------------------------------------------------------------------------


@dataclass(frozen=True)
class GameTask:
    """What a worker needs to play one game of a match (picklable)."""

    index: int
    game: str
    players: tuple[str, str]
    first: int
    seed: int
    rules: tuple[str, ...]
    position: str | None
    limit: Limit | None
    event: str
    opening_plies: int = 0


def play_task(task: GameTask) -> GameResult:
    """Play the game of ``task``: the function executors run."""
    return play_game(task.game, task.players, list(task.rules), task.seed, task.limit,
                     first=task.first, position=task.position, index=task.index,
                     tags={"Event": task.event}, opening_plies=task.opening_plies)


def match_tasks(game: str, spec_a: str, spec_b: str, games: int, seed: int, *,
                rules: Sequence[str] = (), position: str | None = None,
                limit: Limit | None = None, event: str = "hexgames match",
                opening_plies: int = 0) -> list[GameTask]:
    """The tasks of a match: game ``i`` belongs to pair ``i // 2`` and its seed (and so
    its random opening), with A moving first when ``i`` is even."""
    return [GameTask(index=i, game=game, players=(spec_a, spec_b), first=i % 2,
                     seed=derive_seed(seed, "pair", i // 2), rules=tuple(rules),
                     position=position, limit=limit, event=event,
                     opening_plies=opening_plies)
            for i in range(games)]


@dataclass
class MatchResult:
    """The games of a match between A and B, and what they say.

    Attributes:
        game: the game's module name (``andantino``).
        players: the specs of A and B.
        results: the finished games, in game order (fewer than ``games`` when the
            match was interrupted).
        games: the number of games planned.
        rules: the rules options that differ from the defaults.
        position: the starting position string, or ``None`` for the standard start.
        limit: the match's limit (used by specs that set none), or ``None``.
        seed: the match seed (chosen at random when none was given).
        jobs: the number of worker processes, or ``None`` for a custom executor.
        elapsed: wall-clock seconds the match took.
        opening_plies: random plies that open each pair (see the module's documentation).
    """

    game: str
    players: tuple[str, str]
    results: list[GameResult]
    games: int
    rules: tuple[str, ...] = ()
    position: str | None = None
    limit: Limit | None = None
    seed: int = 0
    jobs: int | None = 1
    elapsed: float = 0.0
    opening_plies: int = 0
    _cache: dict[str, Any] = field(default_factory=dict, repr=False, compare=False)

    @property
    def complete(self) -> bool:
        """Whether every planned game was played."""
        return len(self.results) == self.games

    @property
    def wins(self) -> int:
        """Games A won."""
        return sum(r.winner == 0 for r in self.results)

    @property
    def draws(self) -> int:
        """Drawn games."""
        return sum(r.winner is None for r in self.results)

    @property
    def losses(self) -> int:
        """Games A lost."""
        return sum(r.winner == 1 for r in self.results)

    @property
    def score(self) -> float:
        """A's mean score (0 to 1); ``nan`` with no games."""
        if not self.results:
            return math.nan
        return math.fsum(r.score_a for r in self.results) / len(self.results)

    def elo(self) -> EloEstimate | None:
        """A's Elo difference over B with its 95% interval from the per-game scores
        (:func:`hexgames.arena.stats.elo_estimate`); ``None`` with no games."""
        if not self.results:
            return None
        return elo_estimate([r.score_a for r in self.results], method="games")

    def elo_pairs(self) -> EloEstimate | None:
        """As :meth:`elo` but from the mean score of each complete colour-swapped pair,
        which takes the first player's advantage out of the variance; ``None`` with no
        complete pair."""
        by_index = {r.index: r for r in self.results}
        pairs = [(by_index[i].score_a + by_index[i + 1].score_a) / 2
                 for i in range(0, self.games - 1, 2)
                 if i in by_index and i + 1 in by_index]
        if not pairs:
            return None
        return elo_estimate(pairs, method="pairs")

    def by_colour(self) -> dict[str, dict[str, Any]]:
        """A's results by the colour it played: colour tag -> games, wins, draws,
        losses, score (``None`` with no games)."""
        module = game_module(self.game)
        table: dict[str, dict[str, Any]] = {}
        for color, tag in enumerate(module.PLAYER_TAGS):
            games = [r for r in self.results if r.color_of(0) == color]
            table[str(tag)] = _wdl([r.score_a for r in games])
        return table

    def first_player(self) -> dict[str, Any]:
        """The first player's results, whoever it was: games, wins, draws, losses, score."""
        return _wdl([0.5 if r.outcome.winner is None else float(r.outcome.winner == 0)
                     for r in self.results])

    def series(self) -> tuple[int, int] | None:
        """Series points of A and B summed over the games, or ``None`` for a game without
        series scoring (Abande, or Andantino with an unlimited tile supply)."""
        points = [r.series for r in self.results]
        if not points or any(p is None for p in points):
            return None
        return (sum(p[0] for p in points if p is not None),
                sum(p[1] for p in points if p is not None))

    def terminations(self) -> dict[str, int]:
        """How the games ended: termination tag -> games, most common first."""
        counts = Counter(r.outcome.termination.value for r in self.results)
        return dict(counts.most_common())

    def records(self) -> list[GameRecord]:
        """The game records in game order."""
        return [r.record for r in self.results]

    def summary(self) -> dict[str, Any]:
        """The match as a JSON-ready dict (what ``summary.json`` holds); Elo values that
        are infinite are the strings ``"+inf"``/``"-inf"``."""
        elo = self.elo()
        pairs = self.elo_pairs()
        series = self.series()
        n = len(self.results)
        plies = [r.plies for r in self.results]
        time_use = {}
        for side, name in enumerate(SIDES):
            total = math.fsum(r.times[side] for r in self.results)
            moves = sum(r.moves[side] for r in self.results)
            nodes = sum(r.nodes[side] for r in self.results)
            time_use[name] = {"seconds": total, "moves": moves,
                              "seconds_per_move": total / moves if moves else None,
                              "nodes": nodes}
        return {
            "hexgames": __version__,
            "game": str(game_module(self.game).GAME_NAME),
            "players": {"A": self.players[0], "B": self.players[1]},
            "rules": list(self.rules),
            "position": self.position,
            "opening_plies": self.opening_plies,
            "limit": _limit_json(self.limit),
            "seed": self.seed,
            "jobs": self.jobs,
            "games": n,
            "games_planned": self.games,
            "complete": self.complete,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "score": None if n == 0 else self.score,
            "elo": None if elo is None else elo.to_json(),
            "elo_pairs": None if pairs is None else pairs.to_json(),
            "by_colour": self.by_colour(),
            "first_player": self.first_player(),
            "series": None if series is None else {"A": series[0], "B": series[1]},
            "terminations": self.terminations(),
            "plies": {"mean": math.fsum(plies) / n, "min": min(plies), "max": max(plies)}
            if n else None,
            "time": time_use,
            "elapsed": self.elapsed,
            "results": [_game_json(r) for r in self.results],
        }

    def write(self, directory: str | Path) -> tuple[Path, Path]:
        """Write every game to ``directory/games.hgn`` (in game order) and the summary to
        ``directory/summary.json``, creating the directory if needed.

        Returns:
            the two paths.

        Raises:
            OSError: if the directory or a file cannot be written.
        """
        out = Path(directory)
        out.mkdir(parents=True, exist_ok=True)
        games_path = out / GAMES_FILE
        summary_path = out / SUMMARY_FILE
        games_path.write_text(write_games(self.records()), encoding="utf-8")
        summary_path.write_text(json.dumps(self.summary(), indent=2) + "\n", encoding="utf-8")
        return games_path, summary_path


def _wdl(scores: list[float]) -> dict[str, Any]:
    return {"games": len(scores), "wins": scores.count(1.0), "draws": scores.count(0.5),
            "losses": scores.count(0.0),
            "score": math.fsum(scores) / len(scores) if scores else None}


def _limit_json(limit: Limit | None) -> dict[str, float | int] | None:
    if limit is None or limit.is_empty():
        return None
    values = {"time": limit.time, "nodes": limit.nodes, "depth": limit.depth,
              "playouts": limit.playouts}
    return {key: value for key, value in values.items() if value is not None}


def _game_json(result: GameResult) -> dict[str, Any]:
    score = result.outcome.score
    return {"game": result.index + 1, "first": SIDES[result.first], "seed": result.seed,
            "result": result.result, "termination": result.outcome.termination.value,
            "winner": None if result.winner is None else SIDES[result.winner],
            "score_a": result.score_a, "plies": result.plies,
            "score": None if score is None else list(score),
            "series": None if result.series is None else list(result.series),
            "times": list(result.times)}


ProgressCallback = Callable[[GameResult, int, int], None]


def run_match(game: str, spec_a: str, spec_b: str, *, games: int = 2,
              limit: Limit | None = None, rules: Any = None, jobs: int = 1,
              seed: int | None = None, executor: GameExecutor | None = None,
              progress: ProgressCallback | None = None, position: str | None = None,
              event: str = "hexgames match", opening_plies: int = 0) -> MatchResult:
    """Play a match of ``games`` games between A (``spec_a``) and B (``spec_b``).

    Games come in colour-swapped pairs (see the module's documentation); give an even
    number of games for a colour-balanced match.

    Args:
        game: the game's name.
        spec_a, spec_b: player specs (:func:`hexgames.engine.players.make_player`).
        games: the number of games, 1 or more.
        limit: the search limit of a spec that sets none.
        rules: ``None``, ``key=value`` words or a ``Rules`` object.
        jobs: local worker processes (1 plays in this process); ignored when
            ``executor`` is given.
        seed: the match seed; ``None`` picks one at random (it is in the result, so the
            match can be played again).
        executor: where the games run (:class:`GameExecutor`); by default a
            :class:`LocalProcessExecutor` of ``jobs`` processes.
        progress: called as ``progress(result, done, total)`` after each game, in order
            of completion.
        position: a position string to start every game from.
        event: the records' ``Event`` tag.
        opening_plies: uniformly random plies that open each pair of games, the same for
            both games of a pair (see the module's documentation).

    Returns:
        the :class:`MatchResult`, its games in game order.

    Raises:
        UnknownGameError, InvalidRulesError, InvalidPositionError: for a bad game,
            rules or position.
        UnknownPlayerError, InvalidLimitError: for a bad player spec (checked before any
            game starts).
        ArenaError: for fewer than one game, a negative ``opening_plies``, or a player
            that plays an illegal move.
        ValueError: for a bad ``jobs``.
    """
    module = game_module(game)
    name = module.__name__.rpartition(".")[2]
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ArenaError(f"a match needs 1 or more games, not {games!r}")
    _check_opening_plies(opening_plies)
    rules_obj = _rules(module, rules)
    module.Board(position, rules_obj)  # a bad position fails here, not in a worker
    specs = (spec_a.strip(), spec_b.strip())
    for spec in specs:
        check_spec(spec)
    if seed is None:
        seed = random.SystemRandom().randrange(1 << 63)
    if executor is None:
        executor = LocalProcessExecutor(jobs)
        used_jobs: int | None = executor.jobs
    else:
        used_jobs = None
    options = tuple(rules_obj.options())
    tasks = match_tasks(name, specs[0], specs[1], games, seed, rules=options,
                        position=position, limit=limit, event=event,
                        opening_plies=opening_plies)
    start = time.perf_counter()
    results: list[GameResult] = []
    for result in executor.map_unordered(play_task, tasks):
        results.append(result)
        if progress is not None:
            progress(result, len(results), games)
    results.sort(key=lambda r: r.index)
    return MatchResult(name, specs, results, games, options, position, limit, seed,
                       used_jobs, time.perf_counter() - start, opening_plies)
