"""The ``mcts`` player: Monte Carlo tree search for both games.

The search is UCT (Kocsis and Szepesvári, "Bandit based Monte-Carlo planning", ECML 2006):
UCB1 on the win rates of the children, each from the point of view of the player who
moved into the child, with these additions, each of which can be switched on or off:

- **GRAVE** (Cazenave, "Generalized Rapid Action Value Estimation", IJCAI 2015), the
  all-moves-as-first term of RAVE (Gelly and Silver, "Monte-Carlo tree search and rapid
  action value estimation in computer Go", AIJ 2011) taken from the closest ancestor
  with at least ``grave_ref`` visits; ``grave_ref=0`` is plain RAVE (each node uses its
  own statistics). A child's value is ``(1 - b) * mean + b * amaf`` with
  ``b = amaf_n / (amaf_n + n + bias * amaf_n * n)``.
- **MCTS-Solver** (Winands, Björnsson and Saito, "Monte-Carlo tree search solver",
  CG 2008): a node whose side to move has a winning child, or whose children are all
  proven, is proven; a child proven lost for the mover is never chosen again, and the
  search stops as soon as the root is proven. Proven draws count as solved too, so a
  position whose every move draws or loses is proven drawn.
- **Decisive and anti-decisive moves** (F. Teytaud and O. Teytaud, "On the huge benefit of
  decisive moves in Monte-Carlo tree search algorithms", CIG 2010) in the playouts (off by
  default: with GRAVE they measured weaker, see :class:`MCTSPlayer`): play a
  move that wins at once if there is one, else one that stops the opponent's immediate
  win, else a random move. In Andantino the immediate line wins are kept incrementally:
  each placement adds the empty cells that would complete a line of five through it
  (:func:`_line_threats`), so finding the win or the block costs a dict lookup per
  threat; random moves into the opponent's pocket (self-traps) are also avoided. In
  Abande a pass that ends the game won is played, and a pass that lets the opponent end
  it lost is avoided. With the solver on, the same immediate-win test marks a new tree
  node whose side to move can win at once as proven (one ply to the end), whether or
  not the playouts use decisive moves.
- **Tree reuse**: the subtree of the moves actually played is kept for the next search
  when the new position follows from the old root (same starting position and move
  history, and the same root position string); :meth:`MCTSPlayer.new_game` drops it.
- **Playout cut-off** (Abande, on by default): a playout stops after ``cutoff`` plies and
  scores the position by the awake-stack score difference, mapped to a win probability
  by a logistic curve.

The tree stores each node's children in flat lists (moves, visits, wins, child nodes,
move ids) built once, on the node's second visit; one board copy is searched by
make/unmake (push and pop), so a simulation allocates a node and little else.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from typing import Any

from hexgames import abande, andantino
from hexgames.andantino import _AXES, _TILE
from hexgames.engine.base import Clock, GameState, Info, InfoCallback, Limit, Player, PlayResult

__all__ = ["MCTSPlayer"]

_NEG = float("-inf")
# A node starts keeping all-moves-as-first statistics at this many visits (GRAVE only
# reads them from nodes with grave_ref visits or more, so most leaves never need them).
_AMAF_START = 8
# The UCB1 constant without GRAVE (and before a GRAVE reference exists).
_UCT_EXPLORATION = 0.7
# Seconds between Info reports.
_INFO_EVERY = 0.25


class _Node:
    """A position in the search tree.

    ``result`` is the proven value for the player who moved into the node (1.0 won,
    0.5 drawn, 0.0 lost) or None; ``plies`` the plies from here to the end of the game
    along the proof. The children's statistics live in the parent's flat lists, from the
    point of view of the side to move here: ``cn`` visits, ``cw`` wins (``-inf`` for a
    child proven lost for it).
    """

    __slots__ = ("amaf", "best", "cn", "cw", "extra", "ids", "kids", "loss_plies", "moves",
                 "n", "nexp", "plies", "result", "unproven", "win")

    def __init__(self, extra: Any = None) -> None:
        self.moves: list[Any] | None = None
        self.kids: list[_Node | None] = []
        self.cn: list[int] = []
        self.cw: list[float] = []
        self.ids: list[int] = []
        self.n = 0
        self.nexp = 0
        self.result: float | None = None
        self.plies = 0
        self.unproven = 0
        self.best = -1.0  # best proven child value for the side to move (draws, losses)
        self.loss_plies = 0
        self.amaf: dict[int, list[float]] | None = None
        self.extra = extra
        self.win: Any = None  # the winning move of a node proven by an immediate win


# --- game knowledge -------------------------------------------------------------------


class _Policy:
    """What the search knows of a game beyond :class:`GameState`: extra per-node state,
    immediate wins, the playout and move ids. This base serves any game through the
    protocol alone (uniformly random playouts, no immediate-win test)."""

    def __init__(self, decisive: bool, cutoff: int | None, scale: float) -> None:
        self.decisive = decisive
        self.cutoff = cutoff
        self.scale = scale
        self._ids: dict[Any, int] = {}

    def root_extra(self, board: Any) -> Any:
        return None

    def child_extra(self, board: Any, extra: Any, move: Any, mover: int) -> Any:
        return None

    def winning_move(self, board: Any, extra: Any) -> Any:
        """A move that wins at once for the side to move, or None (None when unknown)."""
        return None

    def move_id(self, move: Any) -> int:
        ids = self._ids
        found = ids.get(move)
        if found is None:
            found = ids[move] = len(ids)
        return found

    def playout(self, board: Any, extra: Any, rnd: Callable[[], float]) -> tuple[float, Any]:
        """Play to the end (or the cut-off) from ``board``, leaving the moves pushed.

        Returns the value for the first player (1.0 won, 0.5 drawn, 0.0 lost, or a
        probability after a cut-off) and a winning move found but not pushed, or None.
        """
        while not board.is_game_over():
            moves = board.legal_moves
            board.push(moves[int(rnd() * len(moves))])
        return _outcome_value(board), None


def _outcome_value(board: Any) -> float:
    winner = board.outcome().winner
    return 0.5 if winner is None else 1.0 - winner


def _line_threats(get: Callable[[int], int | None], key: int, tile: int,
                  out: list[int]) -> None:
    """Append to ``out`` the empty cells where a tile of ``tile``'s colour would complete
    a line of five or more through the tile just placed on ``key`` (packed cells of
    :mod:`hexgames.andantino`; ``get`` is its ``cells.get``, ``tile`` is _TILE + colour).

    Tiles never move in the standard game, so such a cell stays a threat until it is
    filled; a threat cell that does not touch two tiles yet is not a legal move, which
    the caller tests.
    """
    for step in _AXES:
        lo = key - step
        n = 1
        while get(lo) == tile:
            lo -= step
            n += 1
        hi = key + step
        while get(hi) == tile:
            hi += step
            n += 1
        v = get(lo)
        if v is None or v < _TILE:
            m = n + 1
            e = lo - step
            while get(e) == tile:
                e -= step
                m += 1
            if m >= 5 and lo not in out:
                out.append(lo)
        v = get(hi)
        if v is None or v < _TILE:
            m = n + 1
            e = hi + step
            while get(e) == tile:
                e += step
                m += 1
            if m >= 5 and hi not in out:
                out.append(hi)


class _AndantinoPolicy(_Policy):
    """Andantino with the standard move rules (no relocations, no single-adjacency
    placements, self-traps legal), where the legal moves are exactly the empty cells
    touching two tiles. A node keeps the line threats of both sides (``extra`` is a pair
    of tuples of packed cells).

    For speed this reads three internals of :class:`hexgames.andantino.Board`: the
    packed-cell dict ``_cells`` (a tile is ``_TILE + colour``, an empty cell the number
    of tiles it touches), the pockets ``_enclosed`` and ``Move._key`` (the packed cell);
    :func:`_make_policy` falls back to the generic policy if they are missing.
    """

    def root_extra(self, board: Any) -> Any:
        cells = board._cells
        get = cells.get
        found: tuple[list[int], list[int]] = ([], [])
        for key, v in cells.items():
            if v >= _TILE:
                _line_threats(get, key, v, found[v - _TILE])
        return (tuple(found[0]), tuple(found[1]))

    def child_extra(self, board: Any, extra: Any, move: Any, mover: int) -> Any:
        get = board._cells.get
        mine = [c for c in extra[mover] if get(c, 0) < _TILE]
        _line_threats(get, move._key, _TILE + mover, mine)
        other = tuple(c for c in extra[1 - mover] if get(c, 0) < _TILE)
        return (tuple(mine), other) if mover == 0 else (other, tuple(mine))

    def winning_move(self, board: Any, extra: Any) -> Any:
        get = board._cells.get
        for c in extra[int(board.turn)]:
            if 2 <= get(c, 0) < _TILE:  # empty and touching two tiles: legal
                for move in board.legal_moves:
                    if move._key == c:
                        return move
        return None

    def move_id(self, move: Any) -> int:
        return int(move._key)

    def playout(self, board: Any, extra: Any, rnd: Callable[[], float]) -> tuple[float, Any]:
        if not self.decisive:
            push = board.push
            while not board.is_game_over():
                moves = board.legal_moves
                push(moves[int(rnd() * len(moves))])
            return _outcome_value(board), None
        get = board._cells.get
        pockets = board._enclosed
        push = board.push
        turn = int(board.turn)
        threats = (list(extra[0]), list(extra[1]))
        while not board.is_game_over():
            moves = board.legal_moves
            mine = threats[turn]
            for c in mine:
                if 2 <= get(c, 0) < _TILE:  # a legal placement completing a line
                    for move in moves:
                        if move._key == c:
                            return (1.0 if turn == 0 else 0.0), move
            block = -1
            for c in threats[1 - turn]:
                if 2 <= get(c, 0) < _TILE:  # the opponent's: block it
                    block = c
                    break
            move = None
            if block >= 0:
                for m in moves:
                    if m._key == block:
                        move = m
                        break
            if move is None:
                move = moves[int(rnd() * len(moves))]
                if move._key in pockets[1 - turn]:  # a self-trap loses at once: redraw
                    move = moves[int(rnd() * len(moves))]
            push(move)
            _line_threats(get, move._key, _TILE + turn, mine)
            turn = 1 - turn
        return _outcome_value(board), None


class _AbandePolicy(_Policy):
    """Abande: random playouts that pass to end a won game and avoid passing when behind
    once the hand is empty; optionally cut off after ``cutoff`` plies and scored by the
    awake-stack score difference ``d`` (Black minus White) as ``1 / (1 + exp(-d / scale))``
    for Black. Uses the public board API only."""

    def winning_move(self, board: Any, extra: Any) -> Any:
        turn = board.turn
        if board.passes == 1 and not board.hands[turn]:
            black, white = board.score()
            if (black - white if turn == 0 else white - black) > 0:
                return abande.PASS
        return None

    def playout(self, board: Any, extra: Any, rnd: Callable[[], float]) -> tuple[float, Any]:
        cutoff = self.cutoff
        decisive = self.decisive
        push = board.push
        plies = 0
        while not board.is_game_over():
            if cutoff is not None and plies >= cutoff:
                black, white = board.score()
                return 1.0 / (1.0 + math.exp((white - black) / self.scale)), None
            moves = board.legal_moves
            turn = board.turn
            if decisive and len(moves) > 1 and not board.hands[turn]:
                black, white = board.score()
                lead = black - white if turn == 0 else white - black
                if lead > 0 and board.passes:
                    return (1.0 if turn == 0 else 0.0), abande.PASS
                if lead < 0:  # passing lets the opponent end the game won: move instead
                    push(moves[int(rnd() * (len(moves) - 1))])  # (the pass comes last)
                    plies += 1
                    continue
            push(moves[int(rnd() * len(moves))])
            plies += 1
        return _outcome_value(board), None


def _make_policy(board: Any, decisive: bool, cutoff: int | None, scale: float) -> _Policy:
    if isinstance(board, andantino.Board):
        rules = board.rules
        if (not rules.extended and not rules.single_adjacency
                and rules.self_trap is not andantino.SelfTrap.ILLEGAL
                and isinstance(getattr(board, "_cells", None), dict)
                and isinstance(getattr(board, "_enclosed", None), tuple)
                and all(hasattr(m, "_key") for m in board.legal_moves[:1])):
            return _AndantinoPolicy(decisive, None, scale)
        return _Policy(decisive, None, scale)
    if isinstance(board, abande.Board):
        return _AbandePolicy(decisive, cutoff, scale)
    return _Policy(decisive, None, scale)


# --- the player -----------------------------------------------------------------------


class MCTSPlayer(Player):
    """Monte Carlo tree search (see the module docstring for the algorithms).

    Args:
        seed: seeds the player's ``random.Random``; with a node or playout limit the
            same seed gives the same moves.
        rave: add the GRAVE term (all-moves-as-first statistics).
        solver: MCTS-Solver: prove wins, losses and draws in the tree; a proven win at
            the root is played at once and proven losses are never chosen.
        reuse_tree: keep the subtree of the moves played between searches.
        exploration: the UCB1 constant ``c`` in ``mean + c * sqrt(ln N / n)``; 0 leaves
            exploration to the GRAVE term and the first-play value. ``None`` picks the
            measured default: 0.0 with ``rave``, 0.7 without.
        default_limit: the limit when ``play`` gets none (default 1 second).
        decisive: decisive and anti-decisive moves in the playouts (the solver's
            immediate-win test in the tree does not depend on it).
        grave_ref: visits a node needs before its all-moves-as-first statistics are
            used for the nodes below it; 0 is plain RAVE (each node its own).
        rave_bias: the ``bias`` of the GRAVE weight.
        abande_cutoff: Abande playouts stop after this many plies and are scored by the
            score difference; ``None`` or 0 plays them to the end.
        cutoff_scale: points of score difference that change the cut-off's win
            probability from 0.5 to about 0.73.

    Limits: ``Limit.time`` (seconds), ``Limit.nodes`` and ``Limit.playouts``
    (simulations; the smaller counts), whichever is reached first; ``Limit.depth`` is
    ignored. Each :class:`Info` has ``score`` the root win probability for the side to
    move, ``pv`` the most-visited line, ``depth`` the deepest tree path, ``nodes`` the
    simulations of this search, and ``mate`` when the root is proven (plies to the end,
    negative for a loss).

    The defaults were chosen by matches between option sets (``benchmarks/bench_mcts.py
    match``: colour-swapped pairs from seeded random openings; the figures, with 95%
    intervals of about +-9% for 120 games and +-12% for 60, are in the issue note):

    - GRAVE beats plain UCT: Andantino 62% at 1,000 simulations a move and 55% at 0.25 s;
      Abande 74% at 0.25 s.
    - ``grave_ref`` 0 (RAVE), 25, 50 or 100, ``rave_bias`` 1e-4 or 1e-2 and
      ``exploration`` 0 or 0.1 are level within the noise in Andantino.
    - Decisive playouts are a third shorter in Andantino, yet with GRAVE they lost: 44%
      over 400 games at 0.2 s, 0.25 s, 1 s and 1,000 simulations a move (36% at 1 s);
      with UCT they were level (50% at 1,000 simulations). Off by default.
    - Abande playouts cut off and scored win much more than full ones: 4 plies beat full
      playouts 60 games to 0 at 0.25 s a move; 20 plies beat full 80%, 10 beat 20 76%,
      4 beat 10 68%, 6 drew level with 4 and 1 ply only drew level with 10.
    """

    name = "mcts"

    def __init__(self, seed: int | None = None, *, rave: bool = True, solver: bool = True,
                 reuse_tree: bool = True, exploration: float | None = None,
                 default_limit: Limit | None = None, decisive: bool = False,
                 grave_ref: int = 50, rave_bias: float = 1e-4,
                 abande_cutoff: int | None = 4, cutoff_scale: float = 2.0) -> None:
        super().__init__(default_limit or Limit(time=1.0))
        if exploration is None:
            exploration = 0.0 if rave else _UCT_EXPLORATION
        if exploration < 0 or grave_ref < 0 or rave_bias < 0 or cutoff_scale <= 0:
            raise ValueError("exploration, grave_ref and rave_bias must be 0 or more, "
                             "cutoff_scale more than 0")
        if abande_cutoff is not None and abande_cutoff < 0:
            raise ValueError(f"abande_cutoff must be 0 or more, not {abande_cutoff}")
        self.seed = seed
        self.rng = random.Random(seed)
        self.rave = rave
        self.solver = solver
        self.reuse_tree = reuse_tree
        self.exploration = exploration
        self.decisive = decisive
        self.grave_ref = grave_ref
        self.rave_bias = rave_bias
        self.abande_cutoff = abande_cutoff or None
        self.cutoff_scale = cutoff_scale
        #: Visits of the root kept from the previous search (0 when the tree was new).
        self.reused_visits = 0
        self._tree: tuple[Any, ...] | None = None
        self._policies: dict[tuple[type, Any], _Policy] = {}  # by board type and rules
        self._isq: list[float] = [math.inf] + [m ** -0.5 for m in range(1, 1024)]

    def new_game(self) -> None:
        """Drop the kept search tree."""
        self._tree = None
        self._policies.clear()

    # -- the search --------------------------------------------------------------------

    def _search(self, board: GameState, limit: Limit,
                on_info: InfoCallback | None) -> PlayResult:
        if limit.time is None and limit.nodes is None and limit.playouts is None:
            limit = self.default_limit
        budgets = [x for x in (limit.nodes, limit.playouts) if x is not None]
        max_sims = min(budgets) if budgets else None
        clock = Clock(limit.time)
        key: tuple[type, Any] = (type(board), board.rules)
        try:
            policy = self._policies.get(key)
        except TypeError:  # unhashable rules of some other game: one policy per type
            key = (type(board), None)
            policy = self._policies.get(key)
        if policy is None:
            policy = self._policies[key] = _make_policy(
                board, self.decisive, self.abande_cutoff, self.cutoff_scale)
        root = self._reuse(board) if self.reuse_tree else None
        self.reused_visits = root.n if root is not None else 0
        if root is None:
            root = _Node(policy.root_extra(board))
            if self.solver:
                win = policy.winning_move(board, root.extra)
                if win is not None:
                    root.result, root.plies, root.win = 0.0, 1, win
        if root.moves is None:
            self._expand(root, board, policy)
        sims, depth = 0, 0
        if root.result is None and len(root.cn) > 1:
            sims, depth = self._run(board, root, policy, clock, max_sims, on_info)
        info = self._info(root, sims, depth, clock)
        move = self._best_move(root)
        if not info.pv or info.pv[0] != move:
            info.pv = [move]
        self._tree = (type(board), board.rules, list(board.move_stack), board.position(), root)
        if on_info is not None:
            on_info(info)
        return PlayResult(move, info)

    def _reuse(self, board: GameState) -> _Node | None:
        """The kept node of ``board``'s position, if it follows from the kept root."""
        tree = self._tree
        self._tree = None
        if tree is None:
            return None
        kind, rules, history, position, node = tree
        assert isinstance(node, _Node)
        stack = board.move_stack
        if (kind is not type(board) or rules != board.rules or len(stack) < len(history)
                or stack[:len(history)] != history):
            return None
        extra = stack[len(history):]
        for _ in extra:
            board.pop()
        same = board.position() == position
        for move in extra:
            board.push(move)
        if not same:
            return None
        for move in extra:
            if node.moves is None:
                return None
            try:
                i = node.moves.index(move)
            except ValueError:
                return None
            child = node.kids[i]
            if child is None:
                return None
            node = child
        return node

    def _expand(self, node: _Node, board: Any, policy: _Policy) -> None:
        moves = list(board.legal_moves)
        k = len(moves)
        node.moves = moves
        node.kids = [None] * k
        node.cn = [0] * k
        node.cw = [0.0] * k
        move_id = policy.move_id
        node.ids = [move_id(m) for m in moves]
        node.unproven = k
        if self.rave and self.grave_ref == 0:
            node.amaf = {}

    def _new_node(self, board: Any, parent: _Node, move: Any, mover: int,
                  policy: _Policy) -> _Node:
        """The node of the position just pushed (``mover`` made ``move``)."""
        node = _Node()
        outcome = board.outcome()
        if outcome is not None:
            w = outcome.winner
            node.result = 0.5 if w is None else (1.0 if w == mover else 0.0)
            return node
        node.extra = extra = policy.child_extra(board, parent.extra, move, mover)
        if self.solver:
            win = policy.winning_move(board, extra)
            if win is not None:
                node.result, node.plies, node.win = 0.0, 1, win
        return node

    def _run(self, board: Any, root: _Node, policy: _Policy, clock: Clock,
             max_sims: int | None, on_info: InfoCallback | None) -> tuple[int, int]:
        """Simulate until a limit, a stop or a proven root; returns (simulations, the
        deepest tree path)."""
        stack = board.move_stack
        root_len = len(stack)
        root_turn = int(board.turn)
        push, pop = board.push, board.pop
        rnd = self.rng.random
        stopped = self._stop.is_set
        now = time.perf_counter
        deadline = clock.deadline
        next_info = clock.start + _INFO_EVERY
        solver = self.solver
        rave = self.rave
        grave_ref = self.grave_ref
        amaf_start = 1 if grave_ref == 0 else min(_AMAF_START, grave_ref)
        move_id = policy.move_id
        select = self._select
        new_node = self._new_node
        expand = self._expand
        playout = policy.playout
        sims = 0
        max_depth = 0
        while root.result is None:
            if max_sims is not None and sims >= max_sims:
                break
            if stopped():
                break
            if deadline is not None or on_info is not None:
                t = now()
                if deadline is not None and t >= deadline:
                    break
                if on_info is not None and t >= next_info:
                    next_info = t + _INFO_EVERY
                    on_info(self._info(root, sims, max_depth, clock))
            # Selection and expansion.
            node = root
            path: list[tuple[_Node, int]] = []
            ref: dict[int, list[float]] | None = None
            turn = root_turn
            while True:
                if node.moves is None:
                    expand(node, board, policy)
                if rave:
                    amaf = node.amaf
                    if amaf is None and node.n >= amaf_start:
                        amaf = node.amaf = {}
                    if amaf is not None and node.n >= grave_ref:
                        ref = amaf
                i = select(node, ref)
                path.append((node, i))
                move = node.moves[i]  # type: ignore[index]
                push(move)
                child = node.kids[i]
                if child is None:
                    child = node.kids[i] = new_node(board, node, move, turn, policy)
                    fresh = True
                    break
                if child.result is not None:
                    fresh = False
                    break
                node = child
                turn ^= 1
            leaf = child
            win_move = None
            if leaf.result is not None:
                # The player who moved into the leaf is ``turn``.
                v0 = leaf.result if turn == 0 else 1.0 - leaf.result
            else:
                v0, win_move = playout(board, leaf.extra, rnd)
            sims += 1
            if len(path) > max_depth:
                max_depth = len(path)
            # Backpropagation.
            vt = (v0, 1.0 - v0)
            t = root_turn
            for nd, i in path:
                nd.n += 1
                nd.cn[i] += 1
                nd.cw[i] += vt[t]
                t ^= 1
            leaf.n += 1
            if rave:
                seq = [nd.ids[i] for nd, i in path]
                seq.extend(move_id(m) for m in stack[root_len + len(path):])
                if win_move is not None:
                    seq.append(move_id(win_move))
                t = root_turn
                for d, (nd, _) in enumerate(path):
                    amaf = nd.amaf
                    if amaf is not None:
                        r = vt[t]
                        get = amaf.get
                        for x in seq[d::2]:
                            e = get(x)
                            if e is None:
                                amaf[x] = [1.0, r]
                            else:
                                e[0] += 1.0
                                e[1] += r
                    t ^= 1
            for _ in range(len(stack) - root_len):
                pop()
            if solver and fresh and leaf.result is not None:
                self._prove(path, leaf)
        return sims, max_depth

    def _select(self, node: _Node, ref: dict[int, list[float]] | None) -> int:
        """The child to descend into: an unvisited one first (in random order) while
        there is no GRAVE reference, else the highest UCB1 / GRAVE value."""
        cn, cw = node.cn, node.cw
        c = self.exploration
        if ref is None:
            k = len(cn)
            e = node.nexp
            while e < k:
                j = e + int(self.rng.random() * (k - e))
                if j != e:
                    moves, kids, ids = node.moves, node.kids, node.ids
                    assert moves is not None
                    moves[e], moves[j] = moves[j], moves[e]
                    kids[e], kids[j] = kids[j], kids[e]
                    ids[e], ids[j] = ids[j], ids[e]
                    cn[e], cn[j] = cn[j], cn[e]
                    cw[e], cw[j] = cw[j], cw[e]
                node.nexp = e + 1
                if cn[e] == 0:
                    return e
                e += 1
            isq = self._isq
            if node.n >= len(isq):
                isq.extend(m ** -0.5 for m in range(len(isq), 2 * node.n + 2))
            if c == 0.0:
                c = _UCT_EXPLORATION  # before GRAVE has a reference, UCT needs exploration
            c *= math.sqrt(math.log(node.n))
            vals = [w / m + c * isq[m] for w, m in zip(cw, cn, strict=True)]
            return vals.index(max(vals))
        get = ref.get
        bias = self.rave_bias
        vals = []
        app = vals.append
        for w, m, x in zip(cw, cn, node.ids, strict=True):
            a = get(x)
            if a is None:
                app(w / m if m else 1.0)
            else:
                an = a[0]
                if m:
                    b = an / (an + m + bias * an * m)
                    app((1.0 - b) * (w / m) + b * (a[1] / an))
                else:
                    app(a[1] / an)
        if c:
            isq = self._isq
            if node.n >= len(isq):
                isq.extend(m ** -0.5 for m in range(len(isq), 2 * node.n + 2))
            c *= math.sqrt(math.log(node.n))
            vals = [v + c * isq[m] if m else v for v, m in zip(vals, cn, strict=True)]
        return vals.index(max(vals))

    @staticmethod
    def _prove(path: list[tuple[_Node, int]], leaf: _Node) -> None:
        """MCTS-Solver: pass the new proof of ``leaf`` up the path while it proves the
        parents (a winning child proves its parent lost for the player who moved into
        it; a parent whose children are all proven takes the best of them)."""
        child = leaf
        for node, i in reversed(path):
            v = child.result
            assert v is not None
            if v == 1.0:  # the side to move here has a winning move
                node.result = 0.0
                node.plies = child.plies + 1
                child = node
                continue
            if v == 0.0:
                node.cw[i] = _NEG
                if child.plies > node.loss_plies:
                    node.loss_plies = child.plies
            if v > node.best:
                node.best = v
            node.unproven -= 1
            if node.unproven > 0:
                return
            node.result = 1.0 - node.best
            node.plies = node.loss_plies + 1
            child = node

    # -- reading the tree --------------------------------------------------------------

    @staticmethod
    def _most_visited(node: _Node) -> int:
        """The most-visited child not proven lost (ties to the higher mean), or -1."""
        best, best_key = -1, (-1, _NEG)
        for i, (m, w) in enumerate(zip(node.cn, node.cw, strict=True)):
            if w == _NEG:
                continue
            key = (m, w / m if m else 0.0)
            if key > best_key:
                best, best_key = i, key
        return best

    def _best_move(self, root: _Node) -> Any:
        moves = root.moves
        assert moves is not None
        if root.result is not None:
            if root.win is not None:
                return root.win
            want = 1.0 - root.result  # the proven value for the side to move
            best, best_plies = -1, 0
            for i, kid in enumerate(root.kids):
                if kid is None or kid.result != want:
                    continue
                # Win fast, lose slowly.
                better = kid.plies < best_plies if want == 1.0 else kid.plies > best_plies
                if best < 0 or better:
                    best, best_plies = i, kid.plies
            if best >= 0:
                return moves[best]
        i = self._most_visited(root)
        if i < 0:  # every child proven lost but the root not (cannot happen), or none
            i = max(range(len(moves)), key=lambda j: root.cn[j])
        return moves[i]

    def _info(self, root: _Node, sims: int, depth: int, clock: Clock) -> Info:
        elapsed = clock.elapsed()
        pv: list[Any] = []
        mate = None
        if root.result is not None:
            score = 1.0 - root.result
            if root.result != 0.5:
                mate = root.plies if root.result == 0.0 else -root.plies
            if root.win is not None:
                pv = [root.win]
        else:
            i = self._most_visited(root)
            score = root.cw[i] / root.cn[i] if i >= 0 and root.cn[i] else 0.5
        if not pv:
            node: _Node | None = root
            while node is not None and node.moves is not None and len(pv) < 64:
                if node.result is not None and node.win is not None:
                    pv.append(node.win)
                    break
                i = self._most_visited(node)
                if i < 0 or node.cn[i] == 0:
                    break
                pv.append(node.moves[i])
                node = node.kids[i]
        return Info(score=score, mate=mate, pv=pv, depth=depth, nodes=sims,
                    nps=sims / elapsed if elapsed > 0 else 0.0, time=elapsed)

