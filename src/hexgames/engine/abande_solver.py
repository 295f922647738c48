"""The exact Abande solver, in the native core, and a player that uses it.

Abande is a finite game (docs/rules.md, "End"): every entry empties a hand by one, every
capture joins two stacks, a pass needs an empty hand and two passes in succession end
the game. So a full search settles any position, with pieces in hand or not; what limits
it is the size of the tree, which the pieces in hand decide (``benchmarks/
bench_abande_exact.py`` measures how far it goes). :func:`solve` runs negamax with
alpha-beta pruning (Knuth and Moore, "An analysis of alpha-beta pruning", Artificial
Intelligence 1975) on the final score difference (the side to move's awake-stack score
minus the opponent's), fail-soft, with a transposition table of a fixed size keyed by
the full Zobrist key, holding a lower and an upper bound and the best move of each
position searched, and this move order: the table move; the pass when the opponent has
just passed (it ends the game, so its value is the score now and costs no search); then
the other moves best first, by the alpha-beta player's evaluation in the first plies and
by the score difference right after them deeper down. In those first plies the
children's table entries are probed before any is searched: the enhanced transposition
cutoff (Plaat, Schaeffer, Pijls and de Bruin, "Exploiting graph properties of game
trees", AAAI 1996). Every solve first searches the window -1 to 1, which settles the
result; the exact score then comes by MTD(f) (Plaat, Schaeffer, Pijls and de Bruin,
"Best-first fixed-depth minimax algorithms", Artificial Intelligence 1996): null-window
searches from that bound until the bounds on the difference meet. The search is
``hexgames._native.AbandeSolver`` (``native/core/src/abande/ai/solver.rs``); the
position reaches it through :mod:`hexgames.native` only.

The sign of the best score difference is the game result under perfect play, since the
sign is a monotone function of the difference and so commutes with minimax.

    >>> from hexgames import abande
    >>> board = abande.Board("abande a1=BBB a2=WWW a3=BBB a4=WWW b1=BBB b2=WWW b3=BBB "
    ...                      "b4=WWW b5=BBB c1=WWW c2=BBB c3=WWW turn=b hands=b0,w0")
    >>> solve(board).value  # nothing can move and every stack is awake: 15-15
    0
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from hexgames import abande, native
from hexgames.core import HexgamesError
from hexgames.engine.alphabeta import memory_problem
from hexgames.engine.base import Info, InfoCallback, Limit, Player, PlayResult

__all__ = ["AbandeSolverPlayer", "SolveLimitError", "SolveResult", "margin_report", "new_solver",
           "solve"]


class SolveLimitError(Exception):
    """:func:`solve` gave up: the node or time budget ran out before the proof, or it
    was stopped."""


#: The player's default ``solve_hand``: the solver is tried once the two hands hold this
#: many pieces or fewer. Measured on positions of random games
#: (``benchmarks/bench_abande_exact.py --positions 25 --time 2.5 --mode result``, the
#: expert level's share of its 5 s): with 2 pieces 25 of 25 were solved (the slowest in
#: 1.6 s, the median in 1 ms); with 3, 24 of 25; with 4, 20 of 25. At 2 a failed solve,
#: which leaves the fallback half its time, was not seen; 3 would cost it that about one
#: move in 25.
SOLVE_HAND = 2

#: The largest ``table_mb`` (the native solver's ``MAX_TABLE_MB``).
MAX_TABLE_MB = 65536


@dataclass(frozen=True)
class SolveResult:
    """What :func:`solve` proved.

    Attributes:
        value: the game result for the side to move under perfect play: +1 a win, 0 a
            draw, -1 a loss.
        best_move: a move that reaches that result, and among those the one with the best
            final score difference (with ``exact_score``); ``None`` if the game is
            already over.
        score: the final (Black, White) score at the end of the principal line.
        nodes: positions searched (transposition table hits included).
        diff: the final score difference for the side to move at the end of the principal
            line: the best difference under perfect play when solved with
            ``exact_score``.
        pv: the principal line, from the searched position to the end of the game.
    """

    value: int
    best_move: abande.Move | None
    score: tuple[int, int]
    nodes: int
    diff: int = 0
    pv: tuple[abande.Move, ...] = field(default=())


def solve(board: abande.Board, *, exact_score: bool = True, max_nodes: int | None = None,
          time_limit: float | None = None, solver: Any = None,
          should_stop: Callable[[], bool] | None = None) -> SolveResult:
    """Solve an Abande position exactly: the game's result and final score difference
    under perfect play, with pieces in hand or not.

    How far it goes (``benchmarks/bench_abande_exact.py``, one core): positions of
    random games with up to about four pieces left in both hands are mostly solved
    within seconds; each piece more multiplies the work by roughly the number of
    points open to an entry.

    Args:
        board: the position; it is not changed.
        exact_score: search the exact final score difference (by MTD(f)); with
            ``False`` only the result is searched (the window -1 to 1, several times
            faster): ``value`` is still exact, ``best_move`` reaches it, but ``diff``,
            ``score`` and ``pv`` are those of one line that keeps the result, not
            necessarily the best difference.
        max_nodes: give up after about this many positions.
        time_limit: give up after about this many seconds.
        solver: a ``hexgames.native.AbandeSolver`` whose transposition table to use and
            keep, for a caller that solves several positions of one game; by default a
            new one with a 16 MB table.
        should_stop: called about every 50 ms (and after the first 1,024 positions); the
            search gives up when it returns true (a player's
            :meth:`~hexgames.engine.base.Player.stopped`).

    Raises:
        HexgamesError: (a ``ValueError``) for a bad limit, or for a board that is not
            an Abande board.
        SolveLimitError: if ``max_nodes`` or ``time_limit`` ran out first, or
            ``should_stop`` said so.
    """
    if not isinstance(board, abande.Board):
        raise HexgamesError(f"the endgame solver takes an Abande board, not "
                            f"{type(board).__name__}")
    if solver is None:
        solver = native.AbandeSolver(16)
    found = solver.solve(native.state_of(board), exact_score, max_nodes, time_limit,
                         should_stop)
    if not found["solved"]:
        raise SolveLimitError(
            f"the position was not solved within {found['nodes']:,} positions")
    line = native.board_moves(board, found["pv"])
    black, white = found["score"]
    return SolveResult(found["value"], line[0] if line else None, (black, white),
                       found["nodes"], found["diff"], tuple(line))


def new_solver(table_mb: int) -> Any:
    """A ``hexgames.native.AbandeSolver`` with a table of ``table_mb`` MB.

    Raises:
        HexgamesError: (a ``ValueError``) for a size outside 1 to 65536, or one beyond
            the share of the machine's memory a table may take.
    """
    if isinstance(table_mb, int) and not isinstance(table_mb, bool) \
            and 1 <= table_mb <= MAX_TABLE_MB:
        # the table is made and filled now: a size the machine cannot hold would
        # take its memory (a bad value is the native solver's to refuse)
        problem = memory_problem(table_mb, "solver table")
        if problem is not None:
            raise HexgamesError(problem)
    return native.AbandeSolver(table_mb)


def margin_report(board: abande.Board, *, time_limit: float | None = None,
                  max_nodes: int | None = None, table_mb: int = 64,
                  should_stop: Callable[[], bool] | None = None) -> list[str]:
    """The exact final score margin of ``board`` under perfect play, as the lines that
    ``hexgames solve abande POSITION --margin`` prints: the verdict ("Black wins by 3
    points, 19 to 16, under perfect play"), the principal line to the end of the game,
    and the nodes and seconds; or "unknown within the limits" with the nodes searched.

    Args:
        board: the position (pieces in hand or not); it is not changed.
        time_limit: seconds (or ``None`` for no limit).
        max_nodes: positions (or ``None``).
        table_mb: the transposition table, in MB (1 to 65536).
        should_stop: as :func:`solve`'s (a Ctrl-C handler's flag).

    Raises:
        HexgamesError: (a ``ValueError``) for a board that is not an Abande board, a
            bad limit or table size, or a table the machine cannot hold.
    """
    solver = new_solver(table_mb)
    start = time.perf_counter()
    try:
        result = solve(board, max_nodes=max_nodes, time_limit=time_limit, solver=solver,
                       should_stop=should_stop)
    except SolveLimitError as error:
        return [f"unknown within the limits ({error})"]
    seconds = time.perf_counter() - start
    names = abande.PLAYER_TAGS
    black, white = result.score
    if result.value == 0:
        verdict = f"a draw, {black} to {white}, under perfect play"
    else:
        winner = int(board.turn) if result.value > 0 else 1 - int(board.turn)
        margin = abs(result.diff)
        verdict = (f"{names[winner]} wins by {margin} {'point' if margin == 1 else 'points'}"
                   f", {black} to {white}, under perfect play")
    mover = names[int(board.turn)]
    return [f"{verdict} (margin {result.diff:+d} for {mover}, to move), solved exactly",
            "line: " + " ".join(move.notation() for move in result.pv),
            f"{result.nodes:,} nodes in {seconds:.2f} s"]


class AbandeSolverPlayer(Player):
    """Plays the solved move in Abande positions with at most ``solve_hand`` pieces in
    both hands together, and otherwise the move of ``fallback``.

    In such a position the solver proves the result first (the fast result-only search of
    :func:`solve`); a proven win or draw is played with the solver's move. When the
    position is lost against perfect play, or too big to solve in the solver's share of
    the time, the fallback plays with the time left (it may still find a line an
    imperfect opponent gets wrong). The solver gets ``solve_share`` of a time limit, or
    ``solve_nodes`` positions under a node or playout limit. Its transposition table
    (``table_mb`` MB) is kept between moves, so once an endgame is solved the following
    moves are found at once; :meth:`new_game` clears it.

    It is the player ``solver`` of :mod:`hexgames.engine.players` and the ``expert``
    level's: in Andantino, where there is no such endgame, it is its fallback.

    Args:
        seed: the fallback's seed when the fallback is given as a spec.
        fallback: the player for the other positions: a :class:`Player`, or a player
            spec for :func:`~hexgames.engine.players.make_player` (default
            ``"alphabeta"``).
        solve_share: the share of a time limit the solver may use.
        solve_nodes: the solver's position budget under a node or playout limit.
        solve_hand: the most pieces in both hands together at which the solver is
            tried (0: only once both hands are empty). The default, 2, is measured by
            ``benchmarks/bench_abande_exact.py --mode result --time 2.5`` (the expert
            level's share of its 5 s): see :data:`SOLVE_HAND`.
        table_mb: the size of the solver's transposition table, in MB (1 to 65536,
            and at most half the machine's memory: the table is made here).
        default_limit: the limit when ``play`` gets none (default 1 second).

    Raises:
        ValueError: for a ``solve_share`` outside (0, 1], a negative ``solve_nodes`` or
            ``solve_hand``,
            a bad ``table_mb`` (or one beyond half the machine's memory), a bad
            fallback spec (the message says it is the fallback's) or a solver as the
            fallback.
    """

    name = "abande-solver"
    #: A game clock is handed to the fallback (alpha-beta manages it), less what the
    #: solver spent; the solver itself takes ``solve_share`` of the move's time.
    handles_clock = True
    #: It reads the board; its fallback's own play() copies it if that player changes it.
    changes_board = False

    def __init__(self, seed: int | None = None, *, fallback: Player | str = "alphabeta",
                 solve_share: float = 0.5, solve_nodes: int = 200_000,
                 solve_hand: int = SOLVE_HAND, table_mb: int = 64,
                 default_limit: Limit | None = None) -> None:
        super().__init__(default_limit or Limit(time=1.0))
        if not 0 < solve_share <= 1:
            raise ValueError(f"solve_share must be in (0, 1], not {solve_share}")
        if solve_nodes < 0:
            raise ValueError(f"solve_nodes must be 0 or more, not {solve_nodes}")
        if solve_hand < 0:
            raise ValueError(f"solve_hand must be 0 or more, not {solve_hand}")
        from hexgames.engine.players import UnknownPlayerError, make_player, parse_spec

        # A solver as the fallback would solve nothing more, but make a table of its
        # own (and a chain of them, one per 16 characters of a spec, took the memory).
        solver = "a solver's fallback plays where it cannot solve, so it is another player"
        if isinstance(fallback, AbandeSolverPlayer):
            raise UnknownPlayerError(f"fallback: {type(fallback).__name__} is a solver: "
                                     f"{solver}")
        if isinstance(fallback, str):
            try:
                if parse_spec(fallback).player == "solver":
                    raise UnknownPlayerError(f"{fallback!r} is a solver: {solver}")
                fallback = make_player(fallback, seed)
            except ValueError as error:
                raise type(error)(f"fallback: {error}") from None
        self.fallback = fallback
        self.solve_share = solve_share
        self.solve_nodes = solve_nodes
        self.solve_hand = solve_hand
        self._solver = new_solver(table_mb)

    def new_game(self) -> None:
        self._solver.new_game()
        self.fallback.new_game()

    def stop(self) -> None:
        super().stop()
        self._solver.stop()
        self.fallback.stop()

    def _search(self, board: Any, limit: Limit,
                on_info: InfoCallback | None) -> PlayResult:
        start = time.perf_counter()
        if isinstance(board, abande.Board) and sum(board.hands) <= self.solve_hand:
            result = self._solve(board, limit)
            if result is not None and result.value >= 0:
                assert result.best_move is not None
                elapsed = time.perf_counter() - start
                plies = len(result.pv)
                info = Info(score=(result.value + 1) / 2,
                            mate=plies if result.value > 0 else None,
                            pv=list(result.pv), depth=plies, nodes=result.nodes,
                            nps=result.nodes / elapsed if elapsed > 0 else 0.0,
                            time=elapsed)
                if on_info is not None:
                    on_info(info)
                return PlayResult(result.best_move, info)
            # The time left of the move and of the clock; every other limit as given.
            spent = time.perf_counter() - start
            if limit.time is not None:
                limit = replace(limit, time=max(limit.time - spent, 0.01))
            if limit.clock is not None:
                limit = replace(limit, clock=max(limit.clock - spent, 0.01))
        if self.stopped():
            # The fallback's play() clears a stop that came before it began (in Andantino
            # that was the whole search: a stop while the board was copied was lost).
            limit = Limit(nodes=1)
        return self.fallback.play(board, limit, on_info=on_info)

    def _solve(self, board: abande.Board, limit: Limit) -> SolveResult | None:
        move_time = limit.move_time()
        time_limit = None if move_time is None else move_time * self.solve_share
        max_nodes = None
        if limit.nodes is not None or limit.playouts is not None or time_limit is None:
            max_nodes = self.solve_nodes
        try:
            return solve(board, exact_score=False, max_nodes=max_nodes,
                         time_limit=time_limit, solver=self._solver,
                         should_stop=self.stopped)
        except SolveLimitError:
            return None
