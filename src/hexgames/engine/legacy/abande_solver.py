"""An exact endgame solver for Abande, and a player that uses it.

Once both hands are empty the only moves are stack moves (captures) and the pass, and
the game ends after two passes in succession (RULES.md, "Abande"). Every capture joins
two stacks, so the endgame is a finite tree that a full search can settle:
:func:`solve` runs negamax with alpha-beta pruning on the final score difference (the
side to move's awake-stack score minus the opponent's), fail-soft, with a transposition
table keyed by the full Zobrist key holding a lower and an upper bound and the best move
of each position searched, and this move order: the table move; the pass when the
opponent has just passed (it ends the game, so its value is the score now and costs no
search); then the other moves by the score difference right after them.

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
from dataclasses import dataclass, field
from typing import Any

from hexgames import abande
from hexgames.engine.base import Info, InfoCallback, Limit, Player, PlayResult

__all__ = ["AbandeSolverPlayer", "SolveLimitError", "SolveResult", "solve"]

_INF = 1 << 20


class SolveLimitError(Exception):
    """:func:`solve` gave up: the node or time budget ran out before the proof."""


@dataclass(frozen=True)
class SolveResult:
    """What :func:`solve` proved.

    Attributes:
        value: the game result for the side to move under perfect play: +1 a win, 0 a
            draw, -1 a loss.
        best_move: a move that reaches that result, and among those the one with the best
            final score difference; ``None`` if the game is already over.
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


class _Abort(Exception):
    pass


class _Search:
    def __init__(self, board: abande.Board, table: dict[int, tuple[int, int, Any]],
                 max_nodes: int | None, deadline: float | None,
                 should_stop: Callable[[], bool] | None) -> None:
        self.board = board
        self.table = table
        self.nodes = 0
        self.max_nodes = max_nodes
        self.deadline = deadline
        self.should_stop = should_stop

    def diff_now(self) -> int:
        """The score difference for the side to move if the game ended now."""
        black, white = self.board.score()
        return black - white if self.board.turn == 0 else white - black

    def negamax(self, alpha: int, beta: int) -> int:
        board = self.board
        self.nodes += 1
        nodes = self.nodes
        if nodes & 1023 == 0:
            if self.max_nodes is not None and nodes > self.max_nodes:
                raise _Abort
            if self.deadline is not None and time.perf_counter() > self.deadline:
                raise _Abort
            if self.should_stop is not None and self.should_stop():
                raise _Abort
        if board.is_game_over():
            # The previous player's pass ended the game; the side to move sees it.
            return self.diff_now()
        key = board.zobrist_hash()
        entry = self.table.get(key)
        table_move = None
        lower, upper = -_INF, _INF
        if entry is not None:
            lower, upper, table_move = entry
            if lower >= beta:
                return lower
            if upper <= alpha:
                return upper
            if lower == upper:
                return lower
            alpha = max(alpha, lower)
            beta = min(beta, upper)
        alpha0, beta0 = alpha, beta
        best = -_INF
        best_move = None
        for move in self.ordered(table_move):
            if move.is_pass and board.passes:
                value = self.diff_now()  # passing now ends the game as it stands
            else:
                board.push(move)
                value = -self.negamax(-beta, -alpha)
                board.pop()
            if value > best:
                best, best_move = value, move
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        if best <= alpha0:
            upper = min(upper, best)
        elif best >= beta0:
            lower = max(lower, best)
        else:
            lower = upper = best
        self.table[key] = (lower, upper, best_move)
        return best

    def ordered(self, table_move: Any) -> list[abande.Move]:
        """The legal moves, best first: the table move, the pass that ends the game,
        then by the score difference for the mover right after the move."""
        board = self.board
        moves = board.legal_moves
        if len(moves) == 1:
            return list(moves)
        first: list[abande.Move] = []
        rest: list[tuple[int, int, abande.Move]] = []
        mover = int(board.turn)
        for i, move in enumerate(moves):
            if move == table_move:
                first.insert(0, move)
            elif move.is_pass and board.passes:
                first.append(move)
            else:
                board.push(move)
                black, white = board.score()
                board.pop()
                rest.append((white - black if mover == 0 else black - white, i, move))
        rest.sort()
        return first + [move for _, _, move in rest]

    def principal_line(self, value: int, exact: bool) -> list[abande.Move]:
        """Moves from the position to the end of the game that keep the solved value
        ``value`` for the side to move at every step: the exact score difference, or
        with ``exact`` false only its sign (the game result)."""
        board = self.board
        line: list[abande.Move] = []
        while not board.is_game_over():
            entry = self.table.get(board.zobrist_hash())
            table_move = entry[2] if entry is not None else None
            for move in self.ordered(table_move):
                if move.is_pass and board.passes:
                    child = self.diff_now()
                    pushed = False
                else:
                    board.push(move)
                    pushed = True
                    # A window of one value around it (or around the draw): the search
                    # returns the value itself when it lies inside.
                    centre = -value if exact else 0
                    child = -self.negamax(centre - 1, centre + 1)
                if child == value or (not exact and _sign(child) == _sign(value)):
                    line.append(move)
                    if not pushed:
                        board.push(move)
                    break
                if pushed:
                    board.pop()
            else:  # pragma: no cover - the value was exact, so some move keeps it
                raise AssertionError("no move keeps the solved value")
            value = -value
        for _ in line:
            board.pop()
        return line


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


def solve(board: abande.Board, *, exact_score: bool = True, max_nodes: int | None = None,
          time_limit: float | None = None,
          table: dict[int, tuple[int, int, Any]] | None = None,
          should_stop: Callable[[], bool] | None = None) -> SolveResult:
    """Solve an Abande endgame exactly (both hands empty).

    Args:
        board: the position; it is not changed (a copy is searched).
        exact_score: search the exact final score difference (full window); with
            ``False`` only the result is searched (the window -1 to 1, several times
            faster): ``value`` is still exact, ``best_move`` reaches it, but ``diff``,
            ``score`` and ``pv`` are those of one line that keeps the result, not
            necessarily the best difference.
        max_nodes: give up after about this many positions.
        time_limit: give up after about this many seconds.
        table: a transposition table to use and fill (Zobrist key -> (lower bound,
            upper bound, best move)), kept by a caller that solves several positions of
            one game; a new one by default.
        should_stop: polled every 1,024 positions; the search gives up when it returns
            true (a player's :meth:`~hexgames.engine.base.Player.stopped`).

    Raises:
        ValueError: if a hand is not empty (the endgame has not begun).
        SolveLimitError: if ``max_nodes`` or ``time_limit`` ran out first, or
            ``should_stop`` said so.
    """
    if any(board.hands):
        raise ValueError(f"the Abande endgame solver needs both hands empty, not "
                         f"{board.hands[0]} and {board.hands[1]} pieces in hand")
    if board.is_game_over():
        outcome = board.outcome()
        assert outcome is not None and outcome.score is not None
        black, white = outcome.score
        diff = black - white if board.turn == 0 else white - black
        return SolveResult(_sign(diff), None, (black, white), 0, diff)
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    search = _Search(board.copy(), {} if table is None else table, max_nodes, deadline,
                     should_stop)
    try:
        window = _INF if exact_score else 1
        diff = search.negamax(-window, window)
        if not exact_score:
            diff = _sign(diff)
        line = search.principal_line(diff, exact_score)
    except _Abort:
        raise SolveLimitError(
            f"the endgame was not solved within {search.nodes:,} positions") from None
    end = search.board
    for move in line:
        end.push(move)
    outcome = end.outcome()
    assert outcome is not None and outcome.score is not None
    for _ in line:
        end.pop()
    black, white = outcome.score
    final = black - white if board.turn == 0 else white - black
    assert exact_score is False or final == diff
    return SolveResult(_sign(final), line[0], outcome.score, search.nodes, final, tuple(line))


class AbandeSolverPlayer(Player):
    """Plays the solved move in Abande endgames (both hands empty) and otherwise the move
    of ``fallback``.

    In an endgame the solver proves the result first (the fast result-only search of
    :func:`solve`); a proven win or draw is played with the solver's move. When the
    position is lost against perfect play, or too big to solve in the solver's share of
    the time, the fallback plays with the time left (it may still find a line an
    imperfect opponent gets wrong). The solver gets ``solve_share`` of a time limit, or
    ``solve_nodes`` positions under a node or playout limit. Its transposition table is
    kept between moves, so once an endgame is solved the following moves are found at
    once; :meth:`new_game` clears it.

    It is the player ``solver`` of :mod:`hexgames.engine.players` and the ``expert``
    level's: in Andantino, where there is no such endgame, it is its fallback.

    Args:
        seed: the fallback's seed when the fallback is given as a spec.
        fallback: the player for the other positions: a :class:`Player`, or a player
            spec for :func:`~hexgames.engine.players.make_player` (default
            ``"alphabeta"``, the native alpha-beta player, the strongest at equal time;
            ``fallback=py-alphabeta`` gives the pure-Python expert of hexgames 0.1).
        solve_share: the share of a time limit the solver may use.
        solve_nodes: the solver's position budget under a node or playout limit.
        default_limit: the limit when ``play`` gets none (default 1 second).
    """

    name = "abande-solver"

    def __init__(self, seed: int | None = None, *, fallback: Player | str = "alphabeta",
                 solve_share: float = 0.5, solve_nodes: int = 200_000,
                 default_limit: Limit | None = None) -> None:
        super().__init__(default_limit or Limit(time=1.0))
        if isinstance(fallback, str):
            from hexgames.engine.players import make_player
            try:
                fallback = make_player(fallback, seed)
            except ValueError as error:
                raise type(error)(f"fallback: {error}") from None
        if not 0 < solve_share <= 1:
            raise ValueError(f"solve_share must be in (0, 1], not {solve_share}")
        if solve_nodes < 0:
            raise ValueError(f"solve_nodes must be 0 or more, not {solve_nodes}")
        self.fallback = fallback
        self.solve_share = solve_share
        self.solve_nodes = solve_nodes
        self._table: dict[int, tuple[int, int, Any]] = {}

    def new_game(self) -> None:
        self._table.clear()
        self.fallback.new_game()

    def stop(self) -> None:
        super().stop()
        self.fallback.stop()

    def _search(self, board: Any, limit: Limit,
                on_info: InfoCallback | None) -> PlayResult:
        start = time.perf_counter()
        if isinstance(board, abande.Board) and not any(board.hands):
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
            if self.stopped():
                limit = Limit(nodes=1)
            elif limit.time is not None:
                spent = time.perf_counter() - start
                limit = Limit(time=max(limit.time - spent, 0.01), nodes=limit.nodes,
                              playouts=limit.playouts)
        return self.fallback.play(board, limit, on_info=on_info)

    def _solve(self, board: abande.Board, limit: Limit) -> SolveResult | None:
        time_limit = None if limit.time is None else limit.time * self.solve_share
        max_nodes = None
        if limit.nodes is not None or limit.playouts is not None or time_limit is None:
            max_nodes = self.solve_nodes
        if len(self._table) > 2_000_000:  # about 400 MB; keep memory bounded
            self._table.clear()
        try:
            return solve(board, exact_score=False, max_nodes=max_nodes,
                         time_limit=time_limit, table=self._table, should_stop=self.stopped)
        except SolveLimitError:
            return None
