"""The ``alphabeta`` player: negamax with principal variation search for both games.

Iterative deepening runs full-width searches of depth 1, 2, ... until the limit (time,
nodes or depth, whichever comes first) or :meth:`~Player.stop`; the move played is the
best of the last completed iteration, or of the current one once its first move (the
previous best) has been searched and beaten. Each node is searched by negamax with
principal variation search (Reinefeld, "An improvement to the Scout tree search
algorithm", ICCA Journal 1983): the first move with the full window, the others with a
null window and a re-search when they fall inside it.

**Transposition table.** A fixed number of slots (from the size in megabytes), each
holding one entry (full 64-bit Zobrist key, depth, bound type, score, best move,
generation), indexed by the key modulo the slot count; an entry is replaced unless the
slot holds a deeper entry of another position from the current search. The table stays
between the moves of a game and is cleared by :meth:`AlphaBetaPlayer.new_game` (and
when the game or its rules change). A stored score cuts the search off only at exactly
the depth it was searched to, so at a fixed depth the table never changes the value.

**Move order.** The table's move, two killer moves per ply, then the rest by a static
guess (Andantino: the evaluation gain of the placement; Abande: the captured height)
plus the history heuristic (Schaeffer, "The history heuristic and alpha-beta search
enhancements in practice", IEEE PAMI 1989).

**Scores** are in evaluation points for the side to move (:mod:`.evaluation`); a win in
``n`` plies scores ``MATE - n`` and a loss ``-(MATE - n)``, so faster wins and slower
losses are preferred; draws score 0.

**Andantino forcing moves (exact, no guesswork).** Each node first looks for the side to
move's line win (the empty cell of its four) and plays it at once. Otherwise it collects
the opponent's *threat cells*: cells that complete a four of the opponent and touch two
tiles, and cells where an opponent tile would enclose a tile of the side to move (a
bounded flood fill, :func:`~.evaluation_andantino.trap_cells`). If there are any, every
move that neither fills one nor wins at once loses two plies later, so those moves are
only pushed to test for an immediate trap win (when they join two walls) and are scored
as lost, and the one blocking move is searched *one ply deeper*: the extension. It is
bounded: a forced node searches one move, the depth still falls by one every two plies
unless both sides keep making threats, and the game has at most 48 placements (and the
search at most ``MAX_PLY`` plies). With two threat cells nothing helps and the node is
scored as lost. At the last ply, a placement that lands next to four or more opponent
tiles is tested for an immediate trap. All of this depends on the position only, so the
table stays exact; a brute-force cross-check on 616 positions of random games found no
false claim and no missed win in three.

**Leaves.** In Andantino the search keeps the evaluation's line and enclosure sums up to
date (:class:`~.evaluation_andantino.Tracker`), so the last ply scores each placement as
the parent's value plus the gain of its 15 windows and six neighbours; every leaf is
still pushed to test for wins, traps and self-traps. In Abande the last ply pushes each
move and evaluates the bit sets. No move is ever pruned without search other than as
described, so PVS, plain alpha-beta and the table all give the same value at a fixed
depth.

Nodes are counted one per push.
"""

from __future__ import annotations

import sys
from typing import Any

from hexgames import abande, andantino
from hexgames.engine.base import Clock, GameState, Info, InfoCallback, Limit, Player, PlayResult
from hexgames.engine.legacy import evaluation_andantino as ea
from hexgames.engine.legacy.evaluation import game_name, win_probability
from hexgames.engine.legacy.evaluation_abande import static_abande

MATE = 1_000_000
#: Scores beyond this (in absolute value) are proven wins or losses.
MATE_BOUND = MATE - 10_000
INF = 10**9
MAX_PLY = 120
#: The deepest iteration the player starts when no depth limit is given.
MAX_DEPTH = 100
EXACT, LOWER, UPPER = 0, 1, 2
#: Nodes between two looks at the clock and the stop flag.
CHECK_EVERY = 256

_TILE = ea.TILE
_DELTAS = ea.DELTAS
_RUNS = ea.RUNS
_GAIN = ea.GAIN
_WINDOWS = ea.WINDOWS
_H = ea.ENCLOSURE_WEIGHTS
_LOW = (1 << 20) - 1
_POP = ea.POP
_PLACEMENTS = andantino._PLACEMENTS


class _Stop(Exception):
    """Raised inside the search when a limit is reached or stop() was called."""


class TranspositionTable:
    """A fixed-size transposition table: ``capacity`` slots preallocated in a list.

    Each entry is the tuple (key, depth, bound, score, move, generation). The capacity
    is ``megabytes * 2**20`` divided by :attr:`entry_bytes`, an honest estimate of one
    entry: the list slot, the tuple and the two ints it owns (the key and a score),
    measured with :func:`sys.getsizeof` (moves are shared objects, small ints cached).

    Args:
        megabytes: the memory budget, at least 1.

    Raises:
        ValueError: if ``megabytes`` is below 1.
    """

    def __init__(self, megabytes: int = 64) -> None:
        if megabytes < 1:
            raise ValueError(f"a transposition table needs at least 1 MB, not {megabytes}")
        key = (1 << 63) | 12345
        sample = (key, 12, EXACT, 123_456, None, 200)
        self.entry_bytes = (8 + sys.getsizeof(sample) + sys.getsizeof(key)
                            + sys.getsizeof(123_456))
        self.megabytes = megabytes
        self.capacity = max(1, megabytes * 2**20 // self.entry_bytes)
        self.slots: list[tuple[int, int, int, int, Any, int] | None] = [None] * self.capacity
        self.used = 0
        self.stores = 0
        self.generation = 0

    def __len__(self) -> int:
        """Entries held (at most :attr:`capacity`)."""
        return self.used

    def clear(self) -> None:
        """Forget every entry."""
        self.slots = [None] * self.capacity
        self.used = 0

    def probe(self, key: int) -> tuple[int, int, int, int, Any, int] | None:
        """The entry stored for the Zobrist ``key``, or ``None``."""
        entry = self.slots[key % self.capacity]
        return entry if entry is not None and entry[0] == key else None

    def store(self, key: int, depth: int, bound: int, score: int, move: Any) -> None:
        """Store an entry; a deeper entry of another position from this search stays."""
        self.stores += 1
        i = key % self.capacity
        old = self.slots[i]
        if old is None:
            self.used += 1
        elif old[0] != key and old[5] == self.generation and old[1] > depth:
            return
        self.slots[i] = (key, depth, bound, score, move, self.generation)


def _to_tt(score: int, ply: int) -> int:
    if score > MATE_BOUND:
        return score + ply
    if score < -MATE_BOUND:
        return score - ply
    return score


def _from_tt(score: int, ply: int) -> int:
    if score > MATE_BOUND:
        return score - ply
    if score < -MATE_BOUND:
        return score + ply
    return score


def _andantino_key(move: Any) -> int:
    return int(move._key) if move._from_key < 0 else int(move._key | (move._from_key + 1) << 32)


def _abande_key(move: Any) -> int:
    return int((move._from + 1) * 64 + move._to + 1)


class AlphaBetaPlayer(Player):
    """Negamax alpha-beta with PVS, iterative deepening and a transposition table.

    Args:
        seed: accepted for a uniform registry; the search is deterministic.
        tt_mb: the transposition table's memory budget in megabytes (at least 1).
        default_limit: the limit used when ``play`` gets none (default 1 second).
        pvs: principal variation search (``False``: plain alpha-beta, for testing).
        use_tt: use the transposition table (``False`` for testing).

    Raises:
        ValueError: if ``tt_mb`` is below 1.
    """

    name = "alphabeta"

    def __init__(self, seed: int | None = None, *, tt_mb: int = 64,
                 default_limit: Limit | None = None, pvs: bool = True,
                 use_tt: bool = True) -> None:
        super().__init__(default_limit or Limit(time=1.0))
        self.seed = seed
        self.tt = TranspositionTable(tt_mb)
        self.pvs = pvs
        self.use_tt = use_tt
        self.history: tuple[dict[int, int], dict[int, int]] = ({}, {})
        self._context: tuple[str, Any] | None = None

    def new_game(self) -> None:
        """Clear the transposition table and the history."""
        self.tt.clear()
        self.history = ({}, {})

    def _search(self, board: GameState, limit: Limit,
                on_info: InfoCallback | None) -> PlayResult:
        game = game_name(board)
        context = (game, board.rules)
        if context != self._context:
            self.new_game()
            self._context = context
        self.tt.generation = (self.tt.generation + 1) & 0xFF
        for table in self.history:
            for k in table:
                table[k] >>= 2
        search = _Search(self, board, limit, game)
        return search.run(on_info)


class _Search:
    """One search: the board (a copy), limits, counters and the per-ply tables."""

    def __init__(self, player: AlphaBetaPlayer, board: Any, limit: Limit, game: str) -> None:
        self.player = player
        self.board = board
        self.game = game
        self.andantino = game == "andantino"
        self.tt = player.tt if player.use_tt else None
        self.pvs = player.pvs
        self.history = player.history
        self.killers: list[list[int]] = [[-1, -1] for _ in range(MAX_PLY + 2)]
        self.pv: list[list[Any]] = [[] for _ in range(MAX_PLY + 2)]
        nodes = limit.nodes if limit.nodes is not None else limit.playouts
        self.node_limit = INF if nodes is None else max(1, int(nodes))
        self.max_depth = MAX_DEPTH if limit.depth is None else max(1, int(limit.depth))
        self.clock = Clock(limit.time)
        self.nodes = 0
        self.check_at = min(CHECK_EVERY, self.node_limit)
        self.mkey = _andantino_key if self.andantino else _abande_key
        self.tracker: ea.Tracker | None = None
        self.forcing = False
        if self.andantino:
            self.tracker = ea.Tracker(board)
            rules = board.rules
            self.forcing = rules.self_trap is not andantino.SelfTrap.ILLEGAL
            self.self_trap_loses = rules.self_trap is andantino.SelfTrap.OPPONENT_WINS

    # -- limits ----------------------------------------------------------------------

    def _check(self) -> None:
        if (self.nodes >= self.node_limit or self.player.stopped()
                or self.clock.expired()):
            raise _Stop
        self.check_at = min(self.nodes + CHECK_EVERY, self.node_limit)

    # -- the root --------------------------------------------------------------------

    def run(self, on_info: InfoCallback | None) -> PlayResult:
        board = self.board
        moves = list(board.legal_moves)
        mover = board.turn
        if self.andantino:
            order = self._order_andantino(moves, None, 0, mover)
        else:
            order = self._order_abande(moves, None, 0, mover)
        tt = self.tt
        if tt is not None:
            entry = tt.probe(board.zobrist_hash())
            if entry is not None and entry[4] is not None:
                key = self.mkey(entry[4])
                order.sort(key=lambda m: self.mkey(m) != key)
        best_move = order[0]
        best_score = -INF
        best_pv: list[Any] = [best_move]
        depth_done = 0
        info = Info(pv=[best_move])
        try:
            for depth in range(1, self.max_depth + 1):
                scores: dict[int, int] = {}
                alpha = -INF
                beta = INF
                cur_move = None
                cur_score = -INF
                cur_pv: list[Any] = []
                for i, move in enumerate(order):
                    self._push(move, mover)
                    self.pv[1] = []
                    outcome = board.outcome()
                    if outcome is not None:
                        v = self._terminal(outcome, mover, 0)
                    elif i == 0 or not self.pvs:
                        v = -self._negamax(depth - 1, -beta, -alpha, 1)
                    else:
                        v = -self._negamax(depth - 1, -alpha - 1, -alpha, 1)
                        if v > alpha:
                            v = -self._negamax(depth - 1, -beta, -alpha, 1)
                    self._pop(move, mover)
                    scores[self.mkey(move)] = v
                    if v > cur_score:
                        cur_score = v
                        cur_move = move
                        cur_pv = [move, *self.pv[1]] if outcome is None else [move]
                        # The iteration's best so far is founded once it beats the
                        # previous best, searched first.
                        best_move, best_score, best_pv = cur_move, cur_score, cur_pv
                    if v > alpha:
                        alpha = v
                assert cur_move is not None
                best_move, best_score, best_pv = cur_move, cur_score, cur_pv
                depth_done = depth
                info = self._info(best_score, best_pv, depth)
                if on_info is not None:
                    on_info(info)
                if tt is not None:
                    tt.store(board.zobrist_hash(), depth, EXACT, best_score, best_move)
                order.sort(key=lambda m: -scores[self.mkey(m)])
                if abs(best_score) > MATE_BOUND or len(order) == 1:
                    break
                if self.clock.expired() or self.player.stopped():
                    break
        except _Stop:
            pass
        if depth_done == 0 or info.pv[:1] != best_pv[:1]:
            # Stopped inside an iteration that had already improved on the last one.
            info = self._info(best_score if best_score > -INF else 0, best_pv,
                              depth_done)
        else:  # the completed iteration's findings, with the whole search's effort
            elapsed = self.clock.elapsed()
            info.nodes = self.nodes
            info.time = elapsed
            info.nps = self.nodes / elapsed if elapsed > 0 else 0.0
        return PlayResult(best_move, info)

    def _info(self, score: int, pv: list[Any], depth: int) -> Info:
        elapsed = self.clock.elapsed()
        mate = None
        if score > MATE_BOUND:
            mate = MATE - score
            probability = 1.0
        elif score < -MATE_BOUND:
            mate = -(MATE + score)
            probability = 0.0
        else:
            probability = win_probability(score, self.game)
        return Info(score=probability, eval=None if mate is not None else float(score),
                    mate=mate, pv=list(pv), depth=depth, nodes=self.nodes,
                    nps=self.nodes / elapsed if elapsed > 0 else 0.0, time=elapsed)

    # -- make / unmake -----------------------------------------------------------------

    def _push(self, move: Any, color: int) -> None:
        self.board.push(move)
        self.nodes += 1
        if self.nodes >= self.check_at:
            self._check()
        if self.tracker is not None and self.board._outcome is None:
            self.tracker.push(move, color)

    def _pop(self, move: Any, color: int) -> None:
        board = self.board
        tracked = self.tracker is not None and board._outcome is None
        board.pop()
        if tracked:
            assert self.tracker is not None
            self.tracker.pop(move, color)

    @staticmethod
    def _terminal(outcome: Any, mover: int, ply: int) -> int:
        """The value for ``mover``, whose move at ``ply`` ended the game."""
        winner = outcome.winner
        if winner is None:
            return 0
        return MATE - ply - 1 if winner == mover else -(MATE - ply - 1)

    def _relocating(self) -> bool:
        board = self.board
        return bool(board.rules.extended and board._hands[board._turn] == 0)

    # -- the tree ----------------------------------------------------------------------

    def _negamax(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        board = self.board
        mover = board._turn
        if ply >= MAX_PLY:
            return self._static()
        tt = self.tt
        tt_move = None
        key = 0
        if tt is not None:
            key = board._hash
            entry = tt.slots[key % tt.capacity]
            if entry is not None and entry[0] == key:
                tt_move = entry[4]
                if entry[1] == depth:
                    score = _from_tt(entry[3], ply)
                    bound = entry[2]
                    if (bound == EXACT or (bound == LOWER and score >= beta)
                            or (bound == UPPER and score <= alpha)):
                        self.pv[ply] = [] if tt_move is None else [tt_move]
                        return score
        block = None
        if self.forcing:
            found = self._threats(ply, mover)
            if found is not None:
                if isinstance(found, int):
                    return found
                block = found
        if block is not None:  # one threat cell to fill: the extension keeps the depth
            value, best = self._interior(depth + 1, alpha, beta, ply, mover, tt_move, block)
        elif depth <= 0:  # only below a one-ply root search
            return self._static()
        elif depth == 1:
            if self.andantino:
                value, best = self._frontier_andantino(alpha, beta, ply, mover, tt_move)
            else:
                value, best = self._frontier_abande(alpha, beta, ply, mover, tt_move)
        else:
            value, best = self._interior(depth, alpha, beta, ply, mover, tt_move, block)
        if tt is not None:
            bound = LOWER if value >= beta else EXACT if value > alpha else UPPER
            tt.store(key, depth, bound, _to_tt(value, ply), best)
        return value

    def _interior(self, depth: int, alpha: int, beta: int, ply: int, mover: int,
                  tt_move: Any, block: Any) -> tuple[int, Any]:
        board = self.board
        if block is not None:
            moves = [block]
        elif self.andantino:
            moves = self._order_andantino(board.legal_moves, tt_move, ply, mover)
        else:
            moves = self._order_abande(board.legal_moves, tt_move, ply, mover)
        pvs = self.pvs
        pv = self.pv
        best = -INF
        best_move = None
        child = depth - 1
        for i, move in enumerate(moves):
            self._push(move, mover)
            outcome = board._outcome
            pv[ply + 1] = []
            if outcome is not None:
                v = self._terminal(outcome, mover, ply)
            elif i == 0 or not pvs:
                v = -self._negamax(child, -beta, -alpha, ply + 1)
            else:
                v = -self._negamax(child, -alpha - 1, -alpha, ply + 1)
                if alpha < v < beta:
                    v = -self._negamax(child, -beta, -alpha, ply + 1)
            self._pop(move, mover)
            if v > best:
                best = v
                best_move = move
                if v > alpha:
                    alpha = v
                    pv[ply] = [move, *pv[ply + 1]]
                    if v >= beta:
                        self._cutoff(move, ply, depth, mover)
                        break
        return best, best_move

    def _cutoff(self, move: Any, ply: int, depth: int, mover: int) -> None:
        k = self.mkey(move)
        killers = self.killers[ply]
        if killers[0] != k:
            killers[1] = killers[0]
            killers[0] = k
        history = self.history[mover]
        history[k] = history.get(k, 0) + depth * depth

    def _static(self) -> int:
        board = self.board
        if self.tracker is not None:
            return self.tracker.static(board._turn)
        return static_abande(board)

    # -- Andantino ---------------------------------------------------------------------

    def _threats(self, ply: int, mover: int) -> int | Any | None:
        """Forcing analysis of an Andantino node (see the module text).

        Returns a score when the node is decided (a win now, or two threats), the one
        blocking move to search deeper, or ``None`` for an ordinary node. Everything
        here depends on the position only, so table entries stay exact.
        """
        board = self.board
        hands = board._hands
        other = 1 - mover
        if board.rules.extended and not (hands[mover] and hands[other]):
            return None
        tracker = self.tracker
        assert tracker is not None
        cells = board._cells
        for c in tracker.fours[mover]:  # the empty cell of our four wins now
            if self._placeable(c, mover):
                move = andantino._PLACEMENTS[c]
                outcome = self._probe(move)
                if outcome is not None and outcome.winner == mover:
                    self.pv[ply] = [move]
                    return MATE - ply - 1
        if not hands[other]:  # our move ends the game drawn, whatever it is
            return None
        threats = set(ea.trap_cells(board, other, None, tracker.masks[other]))
        for c in tracker.fours[other]:
            if 2 <= cells.get(c, 0) < _TILE:
                threats.add(c)
        if not threats:
            return None
        return self._forced(threats, ply, mover)

    def _probe(self, move: Any) -> Any:
        """Push and pop ``move`` (one node); the outcome it led to."""
        board = self.board
        board.push(move)
        self.nodes += 1
        outcome = board._outcome
        board.pop()
        if self.nodes >= self.check_at:
            self._check()
        return outcome

    def _placeable(self, c: int, color: int) -> bool:
        """Whether ``color`` (to move) may place a tile on the empty packed cell ``c``."""
        board = self.board
        v = board._cells.get(c, 0)
        if v >= _TILE:
            return False
        return bool(v >= 2 or (v == 1 and board._single_available()))

    def _forced(self, threats: set[int], ply: int, mover: int) -> int | Any:
        """Score a node facing ``threats``; or return the one blocking move to search."""
        board = self.board
        loss = -(MATE - ply - 2)
        best = -INF
        block = None
        assert self.tracker is not None
        masks = self.tracker.masks[mover]
        walled = board._enclosed[1 - mover]
        for move in board.legal_moves:
            k = move._key
            if k in threats and len(threats) == 1:
                block = move
                continue
            if _RUNS[masks.get(k, 0)] >= 2:  # it might enclose: try it
                outcome = self._probe(move)
                if outcome is not None:
                    v = self._terminal(outcome, mover, ply)
                    if v > MATE_BOUND:
                        self.pv[ply] = [move]
                        return v
                    best = max(best, v)
                    continue
            elif k in walled and self.self_trap_loses:
                best = max(best, -(MATE - ply - 1))
                continue
            best = max(best, loss)
        if block is None:
            self.pv[ply] = []
            return best
        return block

    def _order_andantino(self, moves: Any, tt_move: Any, ply: int, mover: int) -> list[Any]:
        """Moves in search order: the table move, then by the gain of the placement
        (as in :meth:`~.evaluation_andantino.Tracker.gain`, inlined) plus history, the
        killers lifted above the rest."""
        tracker = self.tracker
        assert tracker is not None
        hget = self.history[mover].get
        k1, k2 = self.killers[ply]
        tt_key = -2 if tt_move is None else _andantino_key(tt_move)
        get = tracker.wc.get
        gt = _GAIN[mover]
        mine = tracker.masks[mover]
        theirs = tracker.masks[1 - mover]
        cget = self.board._cells.get
        their_tile = _TILE + 1 - mover
        h = _H
        pop = _POP
        scored = []
        for i, move in enumerate(moves):
            k = move._key
            key = k if move._from_key < 0 else _andantino_key(move)
            if key == tt_key:
                s = 1 << 40
            else:
                g = 0
                for wid in _WINDOWS[k]:
                    g += gt[get(wid, 0)]
                e = -h[pop[theirs.get(k, 0)]]
                for d in _DELTAS:
                    n = k + d
                    if cget(n) == their_tile:
                        x = pop[mine.get(n, 0)]
                        e += h[x + 1] - h[x]
                s = ((g & _LOW) + e) * 16 + hget(key, 0)
                if g >> 20 >= 2:
                    s += ea.DOUBLE_FOUR * 16
                if key == k1:
                    s += 1 << 30
                elif key == k2:
                    s += 1 << 29
            scored.append((s, -i, move))
        scored.sort(reverse=True)
        return [item[2] for item in scored]

    def _frontier_andantino(self, alpha: int, beta: int, ply: int, mover: int,
                            tt_move: Any) -> tuple[int, Any]:
        """The last ply: each placement scored by the parent's value plus its gain,
        pushed to test for wins, traps and self-traps. The table move and the killers
        go first, before the other placements are scored and sorted."""
        board = self.board
        tracker = self.tracker
        assert tracker is not None
        if self._relocating():
            return self._frontier_generic(alpha, beta, ply, mover)
        base = tracker.static(mover)
        get = tracker.wc.get
        gt = _GAIN[mover]
        other = 1 - mover
        mine = tracker.masks[mover]
        theirs = tracker.masks[other]
        cget = board._cells.get
        their_tile = _TILE + other
        h = _H
        pop = _POP
        best = -INF
        best_move = None
        legal = board._legal
        first: list[int] = []
        if board._live is legal:
            for key in (-1 if tt_move is None else tt_move._key, *self.killers[ply]):
                if key in legal and key not in first:
                    first.append(key)
        stage = 0
        while True:
            if stage == 0:
                todo = [(0, 0, _PLACEMENTS[k]) for k in first]
            else:
                todo = []
                for i, move in enumerate(board.legal_moves):
                    if move._key not in first:
                        todo.append((0, -i, move))
            for j, (_, i, move) in enumerate(todo):
                k = move._key
                g = 0
                for wid in _WINDOWS[k]:
                    g += gt[get(wid, 0)]
                e = -h[pop[theirs.get(k, 0)]]
                for d in _DELTAS:
                    n = k + d
                    if cget(n) == their_tile:
                        x = pop[mine.get(n, 0)]
                        e += h[x + 1] - h[x]
                v = base + (g & _LOW) + e
                if g >> 20 >= 2:
                    v += ea.DOUBLE_FOUR
                todo[j] = (v, i, move)
            if stage:
                todo.sort(reverse=True)
            for v, _, move in todo:
                board.push(move)
                self.nodes += 1
                if self.nodes >= self.check_at:
                    self._check()
                outcome = board._outcome
                if outcome is not None:
                    v = self._terminal(outcome, mover, ply)
                elif (pop[theirs.get(move._key, 0)] >= 4 and board._hands[other]
                      and self._trapped_next(move._key, other)):
                    v = -(MATE - ply - 2)
                board.pop()
                if v > best:
                    best = v
                    best_move = move
                    if v > alpha:
                        alpha = v
                        self.pv[ply] = [move]
                        if v >= beta:
                            self._cutoff(move, ply, 1, mover)
                            return best, best_move
            if stage:
                return best, best_move
            stage = 1

    def _trapped_next(self, k: int, color: int) -> bool:
        """Whether ``color`` (to move) can enclose the tile just placed on ``k`` by
        filling one of its empty neighbours."""
        board = self.board
        cells = board._cells
        near = [k + d for d in _DELTAS if 2 <= cells.get(k + d, 0) < _TILE]
        return bool(near) and bool(ea.trap_cells(board, color, near))

    def _frontier_generic(self, alpha: int, beta: int, ply: int,
                          mover: int) -> tuple[int, Any]:
        """The last ply by pushing each move and evaluating (Andantino relocations)."""
        board = self.board
        best = -INF
        best_move = None
        for move in board.legal_moves:
            self._push(move, mover)
            outcome = board._outcome
            v = (self._terminal(outcome, mover, ply) if outcome is not None
                 else -self._static())
            self._pop(move, mover)
            if v > best:
                best = v
                best_move = move
                if v > alpha:
                    alpha = v
                    self.pv[ply] = [move]
                    if v >= beta:
                        break
        return best, best_move

    # -- Abande ------------------------------------------------------------------------

    def _order_abande(self, moves: Any, tt_move: Any, ply: int, mover: int) -> list[Any]:
        history = self.history[mover]
        hget = history.get
        k1, k2 = self.killers[ply]
        tt_key = -2 if tt_move is None else _abande_key(tt_move)
        code = self.board._code
        scored = []
        for i, move in enumerate(moves):
            key = (move._from + 1) * 64 + move._to + 1
            if key == tt_key:
                s = 1 << 40
            else:
                s = hget(key, 0)
                if move._from >= 0:  # a capture: the height taken
                    s += 64 * code[move._to].bit_length()
                if key == k1:
                    s += 1 << 30
                elif key == k2:
                    s += 1 << 29
            scored.append((s, -i, move))
        scored.sort(reverse=True)
        return [item[2] for item in scored]

    def _frontier_abande(self, alpha: int, beta: int, ply: int, mover: int,
                         tt_move: Any) -> tuple[int, Any]:
        board = self.board
        moves = self._order_abande(board.legal_moves, tt_move, ply, mover)
        best = -INF
        best_move = None
        for move in moves:
            board.push(move)
            self.nodes += 1
            if self.nodes >= self.check_at:
                self._check()
            outcome = board._outcome
            v = (self._terminal(outcome, mover, ply) if outcome is not None
                 else -static_abande(board))
            board.pop()
            if v > best:
                best = v
                best_move = move
                if v > alpha:
                    alpha = v
                    self.pv[ply] = [move]
                    if v >= beta:
                        self._cutoff(move, ply, 1, mover)
                        break
        return best, best_move


__all__ = ["MATE", "AlphaBetaPlayer", "TranspositionTable", "abande"]
