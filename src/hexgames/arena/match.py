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
opening books). A random ply never spends Red's once-a-game right of Andantino's balance
variant (a tile touching one tile, docs/rules.md): whether and when to use it is the players'
decision, and a uniform draw would spend it in most openings, since early on the cells
touching one tile outnumber those touching two (171-173 of 200 four-ply openings did,
seeds 21 and 22), which turns the variant back into the standard game with Red a tile
down.

**Bounded by design.** A match's tasks are made one at a time as the executor asks for
them (:func:`match_tasks` is a generator), its statistics are running totals
(:class:`Tally`), and with ``out`` every game is written as it finishes
(:mod:`hexgames.arena.output`), so a match of any length needs memory for the games in
progress only (and, unless ``keep_results=False``, for the results it keeps).
"""

from __future__ import annotations

import hashlib
import json
import math
import random
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any, Protocol

from hexgames import __version__
from hexgames.arena.errors import ArenaError
from hexgames.arena.executor import GameExecutor, LocalProcessExecutor, prepare
from hexgames.arena.output import GAMES_FILE, SUMMARY_FILE, GameOutput
from hexgames.arena.sprt import Sprt
from hexgames.arena.stats import EloEstimate, elo_estimate_counts, pentanomial_scores
from hexgames.core import Outcome
from hexgames.engine.base import Info, Limit, Player
from hexgames.engine.players import check_spec, make_player
from hexgames.games import game_module
from hexgames.processes import interrupt_deferred, interrupt_once
from hexgames.record import GameRecord, record_from_board, write_games

#: Player names in a match: index 0 is A, 1 is B.
SIDES = ("A", "B")

PlayerLike = str | Player


def derive_seed(seed: int, *parts: object) -> int:
    """A 63-bit seed determined by ``seed`` and ``parts`` (e.g. a game index), the same
    on every machine and run (BLAKE2b of their text)."""
    text = ":".join(str(part) for part in (seed, *parts)).encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big") >> 1


# --- one game -------------------------------------------------------------------------


@dataclass(frozen=True)
class Sample:
    """A position of a game and what the player's search said there: a training sample
    for self-play (:mod:`hexgames.arena.selfplay` documents the columns it becomes).

    Attributes:
        ply: plies played before this position (0 at the start).
        position: the position string (docs/notation.md) before the move.
        turn: the colour to move, 0 for the first player, 1 for the second.
        move: the move played, in the game's notation.
        score: the search's estimate (0 to 1) that the side to move wins, draws counting
            one half, or ``None`` when the player reported none.
        eval: alpha-beta's evaluation for the side to move, or ``None``.
        depth: the search depth the player reported (plies), 0 for none.
        nodes: the nodes (or simulations) it reported.
        policy: the search's move probabilities as ``(move notation, probability)``
            pairs (:attr:`hexgames.engine.base.Info.policy`), or ``None``.
    """

    ply: int
    position: str
    turn: int
    move: str
    score: float | None
    eval: float | None
    depth: int
    nodes: int
    policy: tuple[tuple[str, float], ...] | None = None


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
        series: Andantino series points (docs/rules.md, "Series scoring") of A and B, or
            ``None`` for a game without series scoring.
        samples: one :class:`Sample` per ply a player chose (not the random opening
            plies) when the game was played with ``samples=True``, else ``None``.
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
    samples: tuple[Sample, ...] | None = None

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
              tags: dict[str, str] | None = None, opening_plies: int = 0,
              samples: bool = False) -> GameResult:
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
        samples: also keep a :class:`Sample` of every ply a player chose.

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
    random_plies = 0  # the opening's, fewer than asked when the game ends first
    if opening_plies:
        opening = random.Random(None if seed is None else derive_seed(seed, "opening"))
        for _ in range(opening_plies):
            if board.is_game_over():
                break
            board.push(opening.choice(opening_moves(board)))
            random_plies += 1
    for player in objects:
        player.new_game()
    play_limits = [limit if isinstance(p, Player) else None for p in players]
    times = [0.0, 0.0]
    moves = [0, 0]
    nodes = [0, 0]
    kept: list[Sample] | None = [] if samples else None
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
        if kept is not None:
            kept.append(_sample(board, move, chosen.info))
        board.push(move)
    outcome = board.outcome()
    assert outcome is not None
    by_color = (names[first], names[1 - first])
    record_tags = dict(tags or {})
    record_tags["Round"] = str(index + 1)
    if opening_plies:
        record_tags["Opening"] = f"{random_plies} random plies" + (
            "; the game ended in them" if random_plies < opening_plies
            or sum(moves) == 0 else "")
    record_tags.update(zip(module.PLAYER_TAGS, by_color, strict=True))
    return GameResult(
        index=index, players=(names[0], names[1]), first=first, seed=seed,
        record=record_from_board(board, tags=record_tags), outcome=outcome,
        plies=board.ply(), times=(times[0], times[1]), moves=(moves[0], moves[1]),
        nodes=(nodes[0], nodes[1]), series=_series(module, board, first),
        samples=None if kept is None else tuple(kept))


def _sample(board: Any, move: Any, info: Info) -> Sample:
    policy = None
    if info.policy is not None:
        policy = tuple((str(m.notation()), float(p)) for m, p in info.policy)
    return Sample(ply=board.ply(), position=board.position(), turn=int(board.turn),
                  move=str(move.notation()), score=info.score, eval=info.eval,
                  depth=info.depth, nodes=info.nodes, policy=policy)


#: The most random opening plies a game takes (a game of either game under the default
#: rules lasts well under a hundred plies; the cap keeps a typo from running for ever
#: under rules without a tile limit).
MAX_OPENING_PLIES = 1000


def opening_moves(board: Any) -> list[Any]:
    """The moves a random opening ply draws from: the legal moves, less those that would
    spend Red's balance-variant right (Andantino's ``single_adjacency``; see the module's
    documentation), unless nothing else is legal."""
    moves = list(board.legal_moves)
    if not getattr(board.rules, "single_adjacency", False) or int(board.turn) != 1 \
            or board.single_adjacency_used:
        return moves  # only Red (colour 1) has the right
    kept = []
    for move in moves:
        board.push(move)
        spent = board.single_adjacency_used
        board.pop()
        if not spent:
            kept.append(move)
    return kept or moves


def _check_opening_plies(opening_plies: int) -> None:
    if isinstance(opening_plies, bool) or not isinstance(opening_plies, int) \
            or not 0 <= opening_plies <= MAX_OPENING_PLIES:
        raise ArenaError(f"opening_plies must be a whole number from 0 to "
                         f"{MAX_OPENING_PLIES}, not {opening_plies!r}")


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
    samples: bool = False


def play_task(task: GameTask) -> GameResult:
    """Play the game of ``task``: the function executors run."""
    return play_game(task.game, task.players, list(task.rules), task.seed, task.limit,
                     first=task.first, position=task.position, index=task.index,
                     tags={"Event": task.event}, opening_plies=task.opening_plies,
                     samples=task.samples)


def match_tasks(game: str, spec_a: str, spec_b: str, games: int, seed: int, *,
                rules: Sequence[str] = (), position: str | None = None,
                limit: Limit | None = None, event: str = "hexgames match",
                opening_plies: int = 0, samples: bool = False) -> Iterator[GameTask]:
    """The tasks of a match, made one at a time as they are asked for (so a match of any
    length needs memory for the games in progress only): game ``i`` belongs to pair
    ``i // 2`` and its seed (and so its random opening), with A moving first when ``i``
    is even."""
    options = tuple(rules)
    for i in range(games):
        yield GameTask(index=i, game=game, players=(spec_a, spec_b), first=i % 2,
                       seed=derive_seed(seed, "pair", i // 2), rules=options,
                       position=position, limit=limit, event=event,
                       opening_plies=opening_plies, samples=samples)


def _wdl(wins: int, draws: int, losses: int) -> dict[str, Any]:
    games = wins + draws + losses
    return {"games": games, "wins": wins, "draws": draws, "losses": losses,
            "score": (wins + draws / 2) / games if games else None}


@dataclass
class Tally:
    """Running totals of a match's games, in memory that does not grow with the number
    of games (the games in progress aside): what :class:`MatchResult` reports.

    Attributes:
        games: games counted.
        wdl: A's wins, draws and losses.
        by_colour: A's wins, draws and losses as the first player (index 0) and as the
            second (1).
        first: the first player's wins, draws and losses, whoever it was.
        series: Andantino series points of A and B, summed.
        series_games: games that had series points.
        terminations: termination tag -> games.
        plies: total plies; ``min_plies``, ``max_plies`` the shortest and longest game.
        seconds, moves, nodes: A's and B's thinking time, plies and reported nodes.
        pentanomial: complete colour-swapped pairs by A's points (see
            :mod:`hexgames.arena.sprt`).
        pending: pair index -> A's score in the one game of the pair finished so far.
    """

    games: int = 0
    wdl: list[int] = field(default_factory=lambda: [0, 0, 0])
    by_colour: list[list[int]] = field(default_factory=lambda: [[0, 0, 0], [0, 0, 0]])
    first: list[int] = field(default_factory=lambda: [0, 0, 0])
    series: list[int] = field(default_factory=lambda: [0, 0])
    series_games: int = 0
    terminations: Counter[str] = field(default_factory=Counter)
    plies: int = 0
    min_plies: int | None = None
    max_plies: int | None = None
    seconds: list[float] = field(default_factory=lambda: [0.0, 0.0])
    moves: list[int] = field(default_factory=lambda: [0, 0])
    nodes: list[int] = field(default_factory=lambda: [0, 0])
    pentanomial: list[int] = field(default_factory=lambda: [0] * 5)
    pending: dict[int, float] = field(default_factory=dict)

    def add(self, result: GameResult) -> tuple[float, float] | None:
        """Count ``result``; returns A's scores in the two games of its pair when it
        completes one, else ``None``."""
        self.games += 1
        column = {0: 0, None: 1, 1: 2}[result.winner]
        self.wdl[column] += 1
        self.by_colour[result.color_of(0)][column] += 1
        self.first[{0: 0, None: 1, 1: 2}[result.outcome.winner]] += 1
        if result.series is not None:
            self.series[0] += result.series[0]
            self.series[1] += result.series[1]
            self.series_games += 1
        self.terminations[result.outcome.termination.value] += 1
        self.plies += result.plies
        self.min_plies = result.plies if self.min_plies is None \
            else min(self.min_plies, result.plies)
        self.max_plies = result.plies if self.max_plies is None \
            else max(self.max_plies, result.plies)
        for side in (0, 1):
            self.seconds[side] += result.times[side]
            self.moves[side] += result.moves[side]
            self.nodes[side] += result.nodes[side]
        pair = result.index // 2
        other = self.pending.pop(pair, None)
        if other is None:
            self.pending[pair] = result.score_a
            return None
        self.pentanomial[round(2 * (other + result.score_a))] += 1
        return (other, result.score_a) if result.index % 2 else (result.score_a, other)


@dataclass
class MatchResult:
    """The games of a match between A and B, and what they say.

    The statistics come from running totals (:attr:`tally`), so a match of any length
    is summed in constant memory; the games themselves are kept in :attr:`results`
    unless the match was played with ``keep_results=False`` (its records streamed to a
    directory instead).

    Attributes:
        game: the game's module name (``andantino``).
        players: the specs of A and B.
        results: the finished games kept, in game order (fewer than ``games`` when the
            match was interrupted or stopped by its SPRT; none when not kept).
        games: the number of games planned (the cap of a sequential test).
        rules: the rules options that differ from the defaults.
        position: the starting position string, or ``None`` for the standard start.
        limit: the match's limit (used by specs that set none), or ``None``.
        seed: the match seed (chosen at random when none was given).
        jobs: the number of worker processes, or ``None`` for a custom executor.
        elapsed: wall-clock seconds the match took.
        opening_plies: random plies that open each pair (see the module's documentation).
        interrupted: whether Ctrl-C ended the match early.
        sprt: the sequential test the match played for, or ``None``.
        executor: the executor's name (``local``, ``ray``...).
        tally: the running totals; made from ``results`` when not given.
        kept: whether ``results`` holds every game counted.
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
    interrupted: bool = False
    sprt: Sprt | None = None
    executor: str = "local"
    tally: Tally = field(default_factory=Tally)
    kept: bool = True

    def __post_init__(self) -> None:
        if not self.tally.games:
            self.results.sort(key=lambda r: r.index)
            for result in self.results:
                self.tally.add(result)

    def add(self, result: GameResult) -> tuple[float, float] | None:
        """Count a finished game (and keep it when :attr:`kept`); returns its pair's
        scores when it completes a pair (:meth:`Tally.add`)."""
        if self.kept:
            self.results.append(result)
        return self.tally.add(result)

    @property
    def played(self) -> int:
        """Games finished and counted."""
        return self.tally.games

    @property
    def complete(self) -> bool:
        """Whether every planned game was played."""
        return self.tally.games == self.games

    @property
    def wins(self) -> int:
        """Games A won."""
        return self.tally.wdl[0]

    @property
    def draws(self) -> int:
        """Drawn games."""
        return self.tally.wdl[1]

    @property
    def losses(self) -> int:
        """Games A lost."""
        return self.tally.wdl[2]

    @property
    def score(self) -> float:
        """A's mean score (0 to 1); ``nan`` with no games."""
        if not self.tally.games:
            return math.nan
        return (self.wins + self.draws / 2) / self.tally.games

    def elo(self) -> EloEstimate | None:
        """A's Elo difference over B with its 95% interval from the per-game scores
        (:func:`hexgames.arena.stats.elo_estimate_counts`); ``None`` with no games."""
        if not self.tally.games:
            return None
        return elo_estimate_counts({1.0: self.wins, 0.5: self.draws, 0.0: self.losses})

    def elo_pairs(self) -> EloEstimate | None:
        """As :meth:`elo` but from the mean score of each complete colour-swapped pair
        (the pentanomial counts), which takes the first player's advantage out of the
        variance; ``None`` with no complete pair."""
        if not sum(self.tally.pentanomial):
            return None
        return elo_estimate_counts(pentanomial_scores(self.tally.pentanomial),
                                   method="pairs")

    def by_colour(self) -> dict[str, dict[str, Any]]:
        """A's results by the colour it played: colour tag -> games, wins, draws,
        losses, score (``None`` with no games)."""
        module = game_module(self.game)
        return {str(tag): _wdl(*self.tally.by_colour[color])
                for color, tag in enumerate(module.PLAYER_TAGS)}

    def first_player(self) -> dict[str, Any]:
        """The first player's results, whoever it was: games, wins, draws, losses, score."""
        return _wdl(*self.tally.first)

    def series(self) -> tuple[int, int] | None:
        """Series points of A and B summed over the games, or ``None`` for a game without
        series scoring (Abande, or Andantino with an unlimited tile supply)."""
        if not self.tally.games or self.tally.series_games != self.tally.games:
            return None
        return (self.tally.series[0], self.tally.series[1])

    def terminations(self) -> dict[str, int]:
        """How the games ended: termination tag -> games, most common first."""
        return dict(self.tally.terminations.most_common())

    def records(self) -> list[GameRecord]:
        """The game records kept, in game order."""
        return [r.record for r in sorted(self.results, key=lambda r: r.index)]

    def summary(self) -> dict[str, Any]:
        """The match as a JSON-ready dict (what ``summary.json`` holds); Elo values that
        are infinite are the strings ``"+inf"``/``"-inf"``. The per-game ``results``
        are there only when the games were kept (:attr:`kept`); a streamed match has
        them in ``results.jsonl`` (:mod:`hexgames.arena.output`)."""
        tally = self.tally
        elo = self.elo()
        pairs = self.elo_pairs()
        series = self.series()
        n = tally.games
        time_use = {}
        for side, name in enumerate(SIDES):
            total, moves = tally.seconds[side], tally.moves[side]
            time_use[name] = {"seconds": total, "moves": moves,
                              "seconds_per_move": total / moves if moves else None,
                              "nodes": tally.nodes[side]}
        summary: dict[str, Any] = {
            **run_json(self, {"A": self.players[0], "B": self.players[1]}),
            "games": n,
            "games_planned": self.games,
            "complete": self.complete,
            "interrupted": self.interrupted,
            "wins": self.wins,
            "draws": self.draws,
            "losses": self.losses,
            "score": None if n == 0 else self.score,
            "elo": None if elo is None else elo.to_json(),
            "elo_pairs": None if pairs is None else pairs.to_json(),
            "pentanomial": list(tally.pentanomial),
            "by_colour": self.by_colour(),
            "first_player": self.first_player(),
            "series": None if series is None else {"A": series[0], "B": series[1]},
            "terminations": self.terminations(),
            "plies": {"mean": tally.plies / n, "min": tally.min_plies,
                      "max": tally.max_plies} if n else None,
            "time": time_use,
            "elapsed": self.elapsed,
        }
        if self.sprt is not None:
            summary["sprt"] = self.sprt.to_json()
        if self.kept:
            summary["results"] = [game_json(r)
                                  for r in sorted(self.results, key=lambda r: r.index)]
        return summary

    def write(self, directory: str | Path) -> tuple[Path, Path]:
        """Write every kept game to ``directory/games.hgn`` (in game order) and the
        summary to ``directory/summary.json``, creating the directory if needed.

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


def run_json(run: Any, players: object) -> dict[str, Any]:
    """The head of a run's ``summary.json``, the same for a match and a tournament:
    the hexgames version, the game, ``players`` as given, and what the run was played
    with (rules, position, opening plies, limit, seed, executor, jobs) from ``run``."""
    return {
        "hexgames": __version__,
        "game": str(game_module(run.game).GAME_NAME),
        "players": players,
        "rules": list(run.rules),
        "position": run.position,
        "opening_plies": run.opening_plies,
        "limit": limit_json(run.limit),
        "seed": run.seed,
        "executor": run.executor,
        "jobs": run.jobs,
    }


def limit_json(limit: Limit | None) -> dict[str, float | int] | None:
    """The limits that are set, as a JSON-ready dict, or ``None`` for no limit."""
    if limit is None or limit.is_empty():
        return None
    values = {"time": limit.time, "nodes": limit.nodes, "depth": limit.depth,
              "playouts": limit.playouts}
    return {key: value for key, value in values.items() if value is not None}


def game_json(result: GameResult) -> dict[str, Any]:
    """One game as a JSON-ready dict: its number, who moved first, seed, result,
    termination, winner (``A``/``B``/``None``), A's score, plies, the game's score
    (Abande) and series points, and the players' thinking times (seconds)."""
    score = result.outcome.score
    return {"game": result.index + 1, "players": list(result.players),
            "first": SIDES[result.first], "seed": result.seed,
            "result": result.result, "termination": result.outcome.termination.value,
            "winner": None if result.winner is None else SIDES[result.winner],
            "score_a": result.score_a, "plies": result.plies,
            "score": None if score is None else list(score),
            "series": None if result.series is None else list(result.series),
            "times": list(result.times)}


ProgressCallback = Callable[[GameResult, int, int], None]


class Run(Protocol):
    """What :func:`finish_run` wraps up: a :class:`MatchResult` or a
    :class:`hexgames.arena.tournament.TournamentResult`."""

    elapsed: float
    interrupted: bool
    results: list[GameResult]

    def summary(self) -> dict[str, Any]: ...


def finish_run(run: Run, start: float, output: GameOutput | None) -> None:
    """The end of a match's or a tournament's loop: its wall-clock time since ``start``
    (a :func:`time.perf_counter` reading), its results in game order and the final
    summary written to ``output``. All of it is done even if Ctrl-C comes again
    meanwhile (once the run is interrupted, that Ctrl-C asks for nothing more).

    Raises:
        OutputError: if ``output`` cannot take the summary.
    """
    with interrupt_deferred(reraise=not run.interrupted):
        run.elapsed = time.perf_counter() - start
        run.results.sort(key=lambda r: r.index)
        if output is not None:
            output.finish(run.summary())


def run_games(run: Run, executor: GameExecutor, tasks: Iterator[GameTask],
              on_result: Callable[[GameResult], bool], *, start: float,
              output: GameOutput | None, stop_on_interrupt: bool) -> None:
    """The loop of a match and a tournament: the starting summary written to
    ``output``, :func:`drive` ``tasks``, then :func:`finish_run`; a Ctrl-C (or SIGTERM)
    anywhere in it sets ``run.interrupted`` (one before the loop began left it false in
    the final summary, or left no summary). After the first, more are dropped until the
    summary is written (:func:`interrupt_once`), however soon they come: two 1 ms apart
    could cut the run's end short (an ``interrupted`` left false, or the final summary
    never written).

    Raises:
        KeyboardInterrupt: when interrupted without ``stop_on_interrupt``.
        OutputError: if ``output`` cannot take the starting summary (before any game;
            nothing is written then) or the final one.
    """
    began = output is None
    with interrupt_once():
        try:
            if output is not None:
                output.begin(run.summary())
                began = True
            run.interrupted = drive(executor, tasks, on_result,
                                    stop_on_interrupt=stop_on_interrupt)
        except KeyboardInterrupt:
            run.interrupted = True
            if not stop_on_interrupt:
                raise
        finally:
            if began or run.interrupted:
                finish_run(run, start, output)


def drive(executor: GameExecutor, tasks: Iterator[GameTask],
          on_result: Callable[[GameResult], bool], *,
          stop_on_interrupt: bool = False) -> bool:
    """Run ``tasks`` on ``executor`` (tasks are made as the executor asks for them) and
    call ``on_result`` with each result as it comes; ``on_result`` returns ``True`` to
    stop: the executor is then closed, abandoning the games in progress.

    Returns:
        whether Ctrl-C ended the run (only with ``stop_on_interrupt``; otherwise the
        ``KeyboardInterrupt`` is raised, after the executor is closed). A second Ctrl-C
        while the executor closes counts as the same interrupt.
    """
    results = executor.map_unordered(play_task, tasks)
    interrupted = False
    try:
        for result in results:
            with interrupt_deferred():
                stop = on_result(result)
            if stop:
                break
    except KeyboardInterrupt:
        if not stop_on_interrupt:
            raise
        interrupted = True
    finally:
        close = getattr(results, "close", None)
        if close is not None:
            try:
                close()
            except KeyboardInterrupt:
                if not stop_on_interrupt:
                    raise
                interrupted = True
    return interrupted


def check_match(module: ModuleType, rules: Any, position: str | None,
                specs: Sequence[str], opening_plies: int) -> Any:
    """Check what a match is to be played with before any game starts; returns the
    ``Rules``.

    Raises:
        InvalidRulesError, InvalidPositionError, UnknownPlayerError, InvalidLimitError,
            ArenaError: as :func:`run_match`.
    """
    _check_opening_plies(opening_plies)
    rules_obj = _rules(module, rules)
    board = module.Board(position, rules_obj)  # a bad position fails here, not in a worker
    if board.is_game_over():
        raise ArenaError("the game is over in the starting position: nothing to play")
    for spec in specs:
        check_spec(spec)
    return rules_obj


def run_match(game: str, spec_a: str, spec_b: str, *, games: int = 2,
              limit: Limit | None = None, rules: Any = None, jobs: int = 1,
              seed: int | None = None, executor: GameExecutor | None = None,
              progress: ProgressCallback | None = None, position: str | None = None,
              event: str = "hexgames match", opening_plies: int = 0,
              sprt: Sprt | None = None, out: str | Path | GameOutput | None = None,
              keep_results: bool = True, stop_on_interrupt: bool = False) -> MatchResult:
    """Play a match of ``games`` games between A (``spec_a``) and B (``spec_b``).

    Games come in colour-swapped pairs (see the module's documentation); give an even
    number of games for a colour-balanced match. Tasks are made as the executor asks
    for them, so memory does not grow with ``games`` (nor, with ``keep_results=False``,
    with the games played).

    Args:
        game: the game's name.
        spec_a, spec_b: player specs (:func:`hexgames.engine.players.make_player`).
        games: the number of games, 1 or more; with ``sprt``, the most games to play
            (an even number).
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
        sprt: play for this sequential test (:class:`hexgames.arena.sprt.Sprt`): each
            complete pair is added to it, in order of completion, and the match stops
            when it accepts H0 or H1 (the games in progress are abandoned) or after
            ``games`` games.
        out: a directory (or a :class:`~hexgames.arena.output.GameOutput`) to stream
            the records and per-game results to as games finish, with ``summary.json``
            written at the start and the end (:mod:`hexgames.arena.output`).
        keep_results: keep every :class:`GameResult` in the result's ``results``
            (memory grows with the games); ``False`` keeps only the running totals.
        stop_on_interrupt: on Ctrl-C, stop and return the games finished so far (the
            result's ``interrupted`` is set) instead of raising ``KeyboardInterrupt``.

    Returns:
        the :class:`MatchResult`.

    Raises:
        UnknownGameError, InvalidRulesError, InvalidPositionError: for a bad game,
            rules or position.
        UnknownPlayerError, InvalidLimitError: for a bad player spec (checked before any
            game starts).
        ArenaError: for fewer than one game, an odd cap with ``sprt``, a negative
            ``opening_plies``, a starting position where the game is over, an output
            directory that cannot be written (checked before any game starts), or a
            player that plays an illegal move.
        ValueError: for a bad ``jobs``.
    """
    module = game_module(game)
    name = module.__name__.rpartition(".")[2]
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise ArenaError(f"a match needs 1 or more games, not {games!r}")
    if sprt is not None and games % 2:
        raise ArenaError(f"a sequential test plays pairs of games: its cap must be an even "
                         f"number of games, not {games}")
    specs = (spec_a.strip(), spec_b.strip())
    rules_obj = check_match(module, rules, position, specs, opening_plies)
    if seed is None:
        seed = random.SystemRandom().randrange(1 << 63)
    if executor is None:
        executor = LocalProcessExecutor(jobs)
    where, used_jobs = prepare(executor)
    options = tuple(rules_obj.options())
    match = MatchResult(name, specs, [], games, options, position, limit, seed, used_jobs,
                        0.0, opening_plies, sprt=sprt, executor=where, kept=keep_results)
    output = GameOutput(out) if isinstance(out, str | Path) else out
    tasks = match_tasks(name, specs[0], specs[1], games, seed, rules=options,
                        position=position, limit=limit, event=event,
                        opening_plies=opening_plies)
    return play_match(match, executor, tasks, output=output, progress=progress,
                      stop_on_interrupt=stop_on_interrupt)


def play_match(match: MatchResult, executor: GameExecutor, tasks: Iterator[GameTask], *,
               output: GameOutput | None = None, progress: ProgressCallback | None = None,
               stop_on_interrupt: bool = False) -> MatchResult:
    """Play ``tasks`` into ``match`` (its :attr:`~MatchResult.sprt`, if any, decides when
    to stop), streaming each game to ``output``: the loop of :func:`run_match` and
    :func:`hexgames.arena.selfplay.run_selfplay`.

    Raises:
        OutputError: if ``output`` cannot take the starting summary.
    """
    sprt = match.sprt
    start = time.perf_counter()

    def on_result(result: GameResult) -> bool:
        if output is not None:
            output.add(result)
        pair = match.add(result)
        if sprt is not None and pair is not None:
            sprt.add_pair(*pair)
        match.elapsed = time.perf_counter() - start
        if progress is not None:
            progress(result, match.played, match.games)
        return sprt is not None and sprt.verdict() is not None

    run_games(match, executor, tasks, on_result, start=start, output=output,
              stop_on_interrupt=stop_on_interrupt)
    return match
