"""The ``alphabeta`` player: the native core's alpha-beta search for both games.

A thin wrapper over ``hexgames._native.AlphaBeta`` (Rust, ``native/core/src/search/``).
Positions reach the native core only through :mod:`hexgames.native`; moves and principal
variations come back as the board's own ``Move`` objects.

**Search.** Iterative deepening runs full-width searches of depth 1, 2, ... until the
limit or :meth:`~hexgames.engine.base.Player.stop`; the move played is the best of the
last completed iteration, or of the current one once its first move (the previous best)
has been searched and beaten. The limits and the stop are looked at every 256 nodes
and every 4,096 moves a node scores or sorts for its order, so the search stops within
a few milliseconds even where a node has 500,000 moves (``docs/limits.md``, "How soon
a search stops"). Each node is searched by negamax with alpha-beta pruning
(Knuth and Moore, "An analysis of alpha-beta pruning", Artificial Intelligence 1975)
and principal variation search (Reinefeld, "An improvement to the Scout tree search
algorithm", ICCA Journal 1983): the first move with the full window, the others with a
null window and a re-search when they fall inside it. Moves are ordered by the
transposition table's move, two killer moves per ply, then the history heuristic
(Schaeffer, "The history heuristic and alpha-beta search enhancements in practice",
IEEE PAMI 1989) plus a static guess: in Andantino the evaluation gain of the placement,
which the history soon outweighs; in Abande the height captured, which decides (captures
first, the tallest first; the history orders moves of equal guess), and a cutoff also
lowers the history of the moves searched before it (the history malus). In Abande's
native matches (``native/core/examples/options_match.rs``, 200 games at 0.2 s a move
against history-first ordering without the malus) captures first scored 63.0%, the
malus 60.5% and both 65.0%; both scored 56.2% over 120 games at 0.5 s a move.
With ``lmr`` (on by default) a late quiet move is first searched a ply or two shallower
(late move reductions). In Abande, with ``rfp`` (150 points a ply by default), a
null-window node one to three plies from the depth whose static value is that far above
beta is cut off (reverse futility pruning). Nodes are counted one per position reached:
a push, or an Andantino last-ply move scored without one (it cannot end the game).

**Transposition table.** Buckets of entries holding the full 64-bit Zobrist key, the
depth, the bound type, the score, the best move and the search that stored it; a store
overwrites the entry of the same position, else an empty one, else the entry with the
lowest depth less eight plies per search since it was stored. A stored score cuts the
search off only at exactly the depth it was searched to (unless ``tt_deeper``), so at a
fixed depth the table never changes the value.

**Scores** are in evaluation points for the side to move; a win in ``n`` plies scores
``MATE - n`` and a loss ``-(MATE - n)``, so faster wins and slower losses are preferred;
a draw scores 0. :class:`~hexgames.engine.base.Info` reports the win probability
``1 / (1 + exp(-points / s))`` with ``s`` 250 points in Andantino and 200 in Abande.

**Andantino forcing analysis (exact).** Each node first plays the side to move's line
win (the empty cell of its four). Otherwise it collects the opponent's *threat cells*:
cells that complete a four of the opponent, and cells where an opponent tile would
enclose a tile of the side to move (a flood fill bounded to small regions, so large traps
may be missed but every cell found is a trap). If there are any, every move that neither
fills one nor wins at once loses two plies later, so those moves are only pushed to test
for an immediate trap win and are scored as lost, and the blocking move is searched one
ply deeper. With two threat cells nothing helps and the node is scored as lost. At the
last ply a placement next to four or more opponent tiles is tested for an immediate
trap. All of it depends on the position only, so the table stays exact; PVS, plain
alpha-beta and the table give the same value at a fixed depth (with ``lmr`` and ``rfp``
off).

**Evaluations** (points for the side to move; about 100 points is a clear edge):

- *Andantino*, kept incrementally under make/unmake; hand-written (``eval=hand``). Line
  potential: every window of five consecutive cells along one of the three axes that
  holds tiles of one colour only is worth 0, 1, 6, 30, 160 points to that colour for 0
  to 4 of its tiles (the weight of three is the option ``three``); a window holding both
  colours is dead, so one sum measures both the length and the openness of a run.
  Enclosure potential: each tile is worth 0, 0, 1, 4, 16, 60, 60 points to the opponent
  for 0 to 6 of its neighbours that hold opponent tiles (walls growing around it). The
  value is the side to move's sum minus the opponent's, plus ``tempo`` (30) points for
  being the side to move, and in the balance variant ``right`` (40) points to Red while
  its once-a-game right is unused (it lets Red finish a line on a cell touching one
  tile, where White cannot place).
  Both were chosen by native matches of colour-swapped pairs from random 4-ply openings
  of the balance variant (``native/core/examples/options_match.rs``): at 0.1 s a move
  tempo 15 scored 48.5%, 30 55.8%, 40 57.5% and 60 54.8% against none (200 games each),
  right 40 59.2% and 100 57.5% against none (200 games each, tempo 30 on both sides);
  at 0.3 s the two together 55.8% against neither (200 games). Tempo 30 and 40 are
  equal within the noise of 200 games; 30 is the one the right was measured with.
  By default (``eval=learned``; ``eval=hand`` for the weights above) the same
  evaluation has weights fitted to self-play results (:mod:`hexgames.engine.learned`:
  the tables 0, 21, 68, 186 and 0, 0, 49, 96, 98, 120, 120, tempo 94, right 40).
- *Abande*, hand-written (``eval=hand``; docs/rules.md, "Scoring"), each term the side
  to move's value minus the opponent's: the game score now (heights of awake stacks)
  x100; the heights of all the stacks each side controls, awake or asleep, x8; stacks at
  the maximum height (which can neither move nor be captured) x0; the heights of the
  opponent's stacks the side to move could capture now x81, against its own stacks the
  opponent could capture on its turn x81 (band connectivity ignored); stacks that have a
  capture x94 (these three terms once the opening restriction is over); pieces in hand
  x163. 100 points are one point of the game's score. The terms are hexgames 0.1's; the
  weights (its were 100, 25, 20, 30, 15, 6, 30) were fitted to the results of 4,000
  self-play games by Texel's method (``native/core/examples/abande_tune.rs``) and won 69
  of 100 games at 0.2 s a move against the old ones.
- *Abande*, learned (``eval=learned``, and the default): the seven terms above and nine
  more (sleeping stacks, awake single pieces, stacks on the rim and in the centre, the
  score near the end, the hand times the pieces in hand, a tempo, the colour, awake
  full stacks), weighted by a fit of Texel's method to 1,600 self-play games
  (:mod:`hexgames.engine.learned`, ``tools/train_eval.py``, docs/evaluation.md).

**Limits.** ``time`` (seconds for this move: the search uses nearly all of it),
``nodes`` (pushes, probes included), ``depth`` (plies), and a game clock: ``clock``
(seconds left) with ``increment`` (Fischer), from which the native time manager sets a
soft and a hard budget per move and spends more where the search is unsettled (the best
move changes, the score falls) and less where it is not (a single legal move, a proven
result). ``playouts`` counts as ``nodes``.

**Tables.** One native player per game, made at the first search of that game; its
transposition table stays between the moves of a game and is cleared by
:meth:`AlphaBetaPlayer.new_game` and when the rules change.

**Varied play and replay.** With ``randomness=P`` the root gives an exact score to every
move within ``P`` points of the best, and the move is drawn among them by a generator
seeded with the player's ``seed`` (``make_player(spec, seed)``); a proven win is always
played and a proven loss never drawn. A game against such a player is replayed by making
it again with the same seed and playing the same moves under a limit that does not
depend on the clock (``depth`` or ``nodes``): the draws then come out the same. Under a
time limit the searches (and so the candidates) differ from run to run.
"""

from __future__ import annotations

import dataclasses
import os
import time
from collections.abc import Callable
from typing import Any

from hexgames import native
from hexgames.engine.base import (
    GameState,
    Info,
    InfoCallback,
    Limit,
    Player,
    PlayResult,
    time_left,
)

#: The largest share of the machine's memory a transposition table may take.
MEMORY_SHARE = 0.5
#: The most MultiPV lines.
MAX_MULTIPV = 1000
#: The largest ``randomness``: the native search's bound of a mate score (``MATE_BOUND``).
MAX_RANDOMNESS = 990_000
#: The largest ``three``: the native evaluation keeps the weight of a three below a
#: four's (``native/core/src/search/eval_andantino.rs``).
MAX_THREE = 159
#: The largest ``tempo``, ``right`` and ``rfp`` (points).
MAX_POINTS = 1000
#: Andantino: the evaluation's points for the side to move (option ``tempo``).
TEMPO = 30
#: Andantino's balance variant: the evaluation's points to Red while its once-a-game
#: right is unused (option ``right``).
RIGHT = 40
#: Abande: the margin of reverse futility pruning, points a ply of depth (option ``rfp``).
RFP = 150
#: The df-pn prover's table of a player that proves (``prove``), in MB.
PROVE_MB = 16
#: With ``prove`` (not ``prove_value``): the solver is asked only when the player's last
#: search found the side to move's chance at least this (or a forced win), or when there
#: was none yet: an arena match at 0.2 s a move with the solver asked at every move
#: (balance variant, random 4-ply openings) scored 43.4% over 122 games (43 wins, 20
#: draws, 59 losses) against the player without it; asked only so, it scored 49.6% over
#: 120 games (53 wins, 13 draws, 54 losses; Elo -2.9, 95% CI -62 to +56; ``hexgames match
#: andantino -p alphabeta:prove=0.1 -p alphabeta --time 0.2 --opening-plies 4 --rules
#: single_adjacency=on -n 120 --jobs 2 --seed 36``).
PROVE_CHANCE = 0.85
#: The longest ``prove_max``, seconds.
MAX_PROVE_SECONDS = 60.0
#: The longest time (seconds) handed to the native search, for ``time``, ``clock`` and
#: ``increment`` alike (its MCTS and solver clamp theirs the same way): a larger finite
#: time made the native time manager panic (``Duration::from_secs_f64``).
MAX_SECONDS = 1.0e9


def _whole(value: Any) -> bool:
    """Whether ``value`` is an ``int`` and not a ``bool``."""
    return isinstance(value, int) and not isinstance(value, bool)


def _physical_memory() -> int | None:
    """Bytes of physical memory, or ``None`` where the system does not say."""
    try:
        return int(os.sysconf("SC_PAGE_SIZE")) * int(os.sysconf("SC_PHYS_PAGES"))
    except (AttributeError, ValueError, OSError):
        return None


def memory_problem(mb: int, what: str) -> str | None:
    """Why a table ``what`` (``"transposition table"``) of ``mb`` MB may not be made:
    more than :data:`MEMORY_SHARE` of the machine's physical memory; ``None`` when it
    may (or the system does not say how much there is)."""
    memory = _physical_memory()
    if memory is not None and mb * 2**20 > memory * MEMORY_SHARE:
        return (f"not enough memory for a {what} of {mb} MB (this machine has "
                f"{memory // 2**20} MB; at most {MEMORY_SHARE:.0%} of it)")
    return None


class AlphaBetaPlayer(Player):
    """Native negamax alpha-beta with PVS, iterative deepening and a transposition table.

    Args:
        seed: seeds the draws of varied play (``randomness``), any whole number (the
            native player takes it modulo 2**64, as the other players do); without it
            the player is deterministic.
        tt_mb: the transposition table's memory budget in megabytes (at least 1; at most
            half the machine's memory), one table per game played.
        default_limit: the limit used when ``play`` gets none (default 1 second).
        pvs: principal variation search (``False``: plain alpha-beta, for testing).
        use_tt: use the transposition table (``False`` for testing).
        multipv: root lines searched with exact scores (1 or more); the lines are in
            ``Info.lines``.
        randomness: points within which a root move may be drawn instead of the best
            (0: always the best; see the module text).
        leaf_threats: at the last ply, search a move that makes a four one ply deeper
            instead of scoring it (Andantino), so that sequences of fours are followed
            to their end at the leaves (off: it scored 45% over 40 games at 0.3 s a
            move against the player without it).
        lmr: late move reductions (a late quiet move is searched a ply or two shallower
            first): a deeper, selective search, on by default (at 0.3 s a move it scored
            56% over 80 games in Andantino and 64% over 40 in Abande against the same
            player without it); off, the value at a fixed depth is plain alpha-beta's.
        tt_deeper: let a table entry searched deeper than needed cut the search off too
            (off: only an entry of exactly the depth does; on, it scored 43.8% over 200
            games in Abande at 0.2 s a move against the player without it).
        null_move: null-move pruning (a node whose side to move stays at or above beta
            even when the opponent moves twice, in a search two or three plies
            shallower, is cut off). It reaches one to three plies deeper in 1 s, but
            off: against the player without it it scored 50.2% over 200 games at 0.1 s
            a move and 51.7% over 60 at 0.3 s in Andantino (balance variant), 53.5% over
            100 at 0.2 s and 54.2% over 60 at 0.3 s in Abande; with ``quiescence`` on
            (the default since), 28.8% over 200 at 0.3 s in Abande.
        three: Andantino's worth of a window of five holding three tiles of one colour
            (see "Evaluations" in the module text), used with ``eval=hand`` only: the
            learned weights replace it, and ``tempo`` and ``right``.
        tempo: Andantino's points for the side to move (default :data:`TEMPO`; 0 is
            hexgames 0.1's evaluation).
        right: points to Red in Andantino's balance variant while its once-a-game right
            (a tile touching one tile) is unused (default :data:`RIGHT`; 0: the right
            is worth nothing, as in hexgames 0.1).
        quiescence: past the depth, follow Abande's captures (a quiescence search: the
            side to move stands on the static value or captures, at most 8 plies on);
            on: at 0.1 s a move it scored 63.3% over 120 games, at 0.3 s 60.4% over
            120, against the same player without it. Andantino has no captures: the
            option changes nothing there.
        rfp: Abande's reverse futility pruning (static null-move pruning; Heinz,
            "Extended futility pruning", ICCA Journal 1998): a null-window node 1 to 3
            plies from the depth whose static value is at least beta plus ``rfp``
            points a ply is cut off (default :data:`RFP`; 0: off). Against the same
            player without it, ``rfp=150`` scored 57.2% over 200 games at 0.2 s a move,
            55.4% over 120 at 0.5 s and 53.8% over 40 at 1 s. Not measured in
            Andantino, which ignores it. Like ``lmr``, it needs ``pvs`` (its null-window
            nodes); the levels ``medium`` and ``hard`` set it to 0.
        prove: the share of a move's time (0 to 1; 0, the default: never) first given
            to the df-pn solver (:mod:`hexgames.proving`, docs/solver.md), after a look
            in the opening book of proven positions (:mod:`hexgames.book`): a win it
            proves, its proof passed by the independent checker, is played at once and
            reported as proven (``Info.proven``, ``mate`` the proven distance, the
            proof's principal line as the PV); otherwise the search has the rest of the
            time. The solver is asked at the first move and then only where the last
            search saw a likely win (:data:`PROVE_CHANCE`), unless ``prove_value``.
            Under a game clock the share is of the move's time
            (:meth:`~hexgames.engine.base.Limit.move_time`); under a depth or node
            limit the solver gets ``prove_nodes`` nodes instead. The prover's table
            (:data:`PROVE_MB` MB) stays between moves, so once a win is proven the
            following moves of it are found at once.
        prove_nodes: the solver's df-pn nodes with ``prove`` under a limit of no time.
        prove_max: the most seconds the solver gets with ``prove``.
        prove_value: with ``prove``, prove the whole value (a loss or a draw too: what
            an analysis shows; the move returned is then the proof's principal line's
            first), not only a win of the side to move.
        eval: the evaluation: ``default`` (the learned one where it beat the
            hand-written one under SPRT, :data:`hexgames.engine.learned.DEFAULT_LEARNED`:
            both games; elo0 0, elo1 10, alpha = beta = 0.05 at 0.05 s a move: Abande
            Elo +87.7, 95% CI +56.5 to +120.4 over 364 games; Andantino's balance
            variant Elo +16.1, 95% CI +4.2 to +28.0 over 1,447 games;
            docs/evaluation.md), ``hand`` (the hand-written ones), ``learned`` (the
            learned ones of both games, with the weights that ship with the package;
            :mod:`hexgames.engine.learned`) or the path of a weights file written by
            ``tools/train_eval.py`` (for its game; the other is evaluated by hand).
            Andantino's learned weights replace ``three``, ``tempo`` and ``right``.

    Raises:
        ValueError: (``hexgames.core.HexgamesError``) for a ``tt_mb`` below 1 or beyond
            the memory (the message starts with "not enough memory"), a ``multipv``
            that is not 1 to :data:`MAX_MULTIPV`, a ``randomness`` that is not 0 to
            :data:`MAX_RANDOMNESS`, a ``three`` that is not 0 to :data:`MAX_THREE`, or
            a ``tempo``, ``right`` or ``rfp`` that is not 0 to :data:`MAX_POINTS`,
            a ``prove`` that is not 0 to 1, a ``prove_max`` that is not above 0 and at
            most :data:`MAX_PROVE_SECONDS`, a ``prove_nodes`` below 1, or an ``eval``
            that is not ``hand``, ``learned`` or a readable weights file (the message
            names the file and what is wrong).
    """

    name = "alphabeta"
    changes_board = False  # (it reads the board: see Player.changes_board)
    handles_clock = True

    def __init__(self, seed: int | None = None, *, tt_mb: int = 64,
                 default_limit: Limit | None = None, pvs: bool = True,
                 use_tt: bool = True, multipv: int = 1, randomness: int = 0,
                 leaf_threats: bool = False, lmr: bool = True,
                 tt_deeper: bool = False, null_move: bool = False,
                 three: int = 30, tempo: int = TEMPO, right: int = RIGHT,
                 quiescence: bool = True, rfp: int = RFP, prove: float = 0.0,
                 prove_nodes: int = 50_000, prove_max: float = 3.0,
                 prove_value: bool = False, eval: str = "default") -> None:
        super().__init__(default_limit or Limit(time=1.0))
        from hexgames.core import HexgamesError

        if isinstance(tt_mb, bool) or not isinstance(tt_mb, int):
            raise HexgamesError(f"tt_mb is a whole number of megabytes, not {tt_mb!r}")
        if tt_mb < 1:
            raise HexgamesError(f"a transposition table needs at least 1 MB, not {tt_mb}")
        problem = memory_problem(tt_mb, "transposition table")
        if problem is not None:
            raise HexgamesError(problem)
        if not _whole(multipv) or not 1 <= multipv <= MAX_MULTIPV:
            raise HexgamesError(f"multipv must be 1 to {MAX_MULTIPV}, not {multipv!r}")
        if _whole(randomness) and randomness < 0:
            raise HexgamesError(f"randomness must be 0 or more points, not {randomness}")
        if not _whole(randomness) or randomness > MAX_RANDOMNESS:
            raise HexgamesError(f"randomness must be a whole number from 0 to "
                                f"{MAX_RANDOMNESS} points, not {randomness!r}")
        if not _whole(three) or not 0 <= three <= MAX_THREE:
            raise HexgamesError(
                f"three must be a whole number from 0 to {MAX_THREE}, not {three!r}")
        for name, points in (("tempo", tempo), ("right", right), ("rfp", rfp)):
            if not _whole(points) or not 0 <= points <= MAX_POINTS:
                raise HexgamesError(f"{name} must be a whole number from 0 to "
                                    f"{MAX_POINTS} points, not {points!r}")
        if isinstance(prove, bool) or not isinstance(prove, int | float) \
                or not 0 <= prove <= 1:
            raise HexgamesError(f"prove must be a share of the time from 0 to 1, not "
                                f"{prove!r}")
        if isinstance(prove_max, bool) or not isinstance(prove_max, int | float) \
                or not 0 < prove_max <= MAX_PROVE_SECONDS:
            raise HexgamesError(f"prove_max must be above 0 and at most "
                                f"{MAX_PROVE_SECONDS:g} seconds, not {prove_max!r}")
        if not _whole(prove_nodes) or prove_nodes < 1:
            raise HexgamesError(f"prove_nodes must be a whole number of nodes from 1, "
                                f"not {prove_nodes!r}")
        from hexgames.engine.learned import eval_weights

        self.eval_weights = eval_weights(eval)
        self.eval = eval
        self.prove = float(prove)
        self.prove_nodes = prove_nodes
        self.prove_max = float(prove_max)
        self.prove_value = prove_value
        self._prover: Any = None
        # whether the last search saw a likely win (None: no search yet this game)
        self._hopeful: bool | None = None
        self.seed = seed
        # the native player's seed (0 to 2**64 - 1), checked now (1.5 is refused)
        self._native_seed = None if seed is None else native.seed_of(seed)
        self.tt_mb = tt_mb
        self.pvs = pvs
        self.use_tt = use_tt
        self.multipv = multipv
        self.randomness = randomness
        self.leaf_threats = leaf_threats
        self.lmr = lmr
        self.tt_deeper = tt_deeper
        self.null_move = null_move
        self.three = three
        self.tempo = tempo
        self.right = right
        self.quiescence = quiescence
        self.rfp = rfp
        self._engines: dict[str, Any] = {}

    def engine(self, game: str) -> Any:
        """The native player of ``game`` (made on first use)."""
        engine = self._engines.get(game)
        if engine is None:
            evaluation: dict[str, Any] = {"three": self.three, "tempo": self.tempo,
                                          "right": self.right}
            evaluation.update(self._learned(game))
            engine = native.alphabeta(game, tt_mb=self.tt_mb, pvs=self.pvs,
                                      use_tt=self.use_tt, multipv=self.multipv,
                                      randomness=self.randomness,
                                      seed=self._native_seed,
                                      leaf_threats=self.leaf_threats, lmr=self.lmr,
                                      tt_deeper=self.tt_deeper,
                                      null_move=self.null_move,
                                      quiescence=self.quiescence,
                                      rfp=self.rfp if game == "abande" else 0,
                                      **evaluation)
            self._engines[game] = engine
        return engine

    def _learned(self, game: str) -> dict[str, Any]:
        """The native player's arguments of ``game``'s learned evaluation, if any."""
        weights = self.eval_weights.get(game)
        if weights is None:
            return {}
        if game == "andantino":  # the tables, then tempo and right
            return {"eval_weights": list(weights[:11]), "tempo": weights[11],
                    "right": weights[12]}
        return {"eval_weights": list(weights)}

    def table_info(self, game: str) -> dict[str, int]:
        """The transposition table's figures for ``game`` (see ``_native.pyi``)."""
        return dict(self.engine(game).table_info())

    def new_game(self) -> None:
        """Clear the transposition tables and the history."""
        for engine in self._engines.values():
            engine.new_game()
        if self._prover is not None:
            self._prover.clear()
        self._hopeful = None

    def stop(self) -> None:
        super().stop()
        for engine in list(self._engines.values()):
            engine.stop()
        prover = self._prover
        if prover is not None:
            prover.stop()

    def _proven(self, board: GameState, limit: Limit) -> PlayResult | None:
        """With ``prove``: the solver's proven win (or, with ``prove_value``, any
        proven value) as the move and its :class:`Info`, else None."""
        from hexgames.proving import prove

        if self._prover is None:
            self._prover = native.Prover(PROVE_MB)
        move_time = limit.move_time()
        seconds = None if move_time is None else min(self.prove * move_time,
                                                     self.prove_max)
        nodes = self.prove_nodes if seconds is None else None
        found = prove(board, time=seconds, max_nodes=nodes, prover=self._prover,
                      win_only=not self.prove_value, should_stop=self.stopped)
        if found is None or not found.line:
            return None
        info = found.info(board)
        return PlayResult(info.pv[0], info)

    def _search(self, board: GameState, limit: Limit,
                on_info: InfoCallback | None) -> PlayResult:
        start = time.perf_counter()
        game = native.game_of(board)
        engine = self.engine(game)  # the first search of a game allocates the table
        if self.prove > 0:
            # the opening book of proven positions first (hexgames.book)
            from hexgames.book import book_info, book_move

            listed = book_move(board)
            if listed is not None:
                info = book_info(board, *listed)
                if on_info is not None:
                    on_info(info)
                return self._with_lines(PlayResult(listed[0], info), board, limit,
                                        start, on_info)
        if self.prove > 0 and not self.stopped() and (
                self.prove_value or self._hopeful is None or self._hopeful):
            proven = self._proven(board, limit)
            if proven is not None:
                if on_info is not None:
                    on_info(proven.info)
                return self._with_lines(proven, board, limit, start, on_info)

        def report(found: dict[str, Any]) -> None:
            assert on_info is not None
            on_info(_info(board, found))

        found = self._native_search(engine, board, limit, start,
                                    None if on_info is None else report)
        info = _info(board, found["info"])
        self._hopeful = (info.mate is not None and info.mate > 0) or (
            info.score is not None and info.score >= PROVE_CHANCE)
        lines = found["lines"]
        if len(lines) > 1:
            info.lines = [_info(board, line) for line in lines]
        move = _moves(board, [found["move"]])[0]
        return PlayResult(move, info)

    def _with_lines(self, proven: PlayResult, board: GameState, limit: Limit,
                    start: float, on_info: InfoCallback | None) -> PlayResult:
        """A proven value (or a book move) with its MultiPV lines, when ``multipv`` asks
        for more than one: the proven line first, then the search's other root moves,
        searched in the rest of the time (each progress report is the proven value with
        the lines so far). Without ``multipv``, or when stopped, it as it is."""
        if self.multipv < 2 or self.stopped():
            return proven
        first = dataclasses.replace(proven.info, lines=[])
        proven_move = proven.move.notation()

        def lines(found: dict[str, Any]) -> list[Info]:
            others = [_info(board, line) for line in found.get("lines", ())
                      if line["pv"] and line["pv"][0] != proven_move]
            return [first, *others[:self.multipv - 1]]

        def report(found: dict[str, Any]) -> None:
            assert on_info is not None
            on_info(dataclasses.replace(proven.info, lines=lines(found)))

        found = self._native_search(self.engine(native.game_of(board)), board, limit,
                                    start, None if on_info is None else report)
        searched = found["lines"] or [found["info"]]
        proven.info.lines = lines({"lines": searched})
        return proven

    def _native_search(self, engine: Any, board: GameState, limit: Limit, start: float,
                       on_info: Callable[[dict[str, Any]], None] | None
                       ) -> dict[str, Any]:
        """The native search of ``board`` within what is left of ``limit`` since
        ``start``; ``on_info`` gets each iteration's dict."""
        state = native.state_of(board)
        nodes = limit.nodes if limit.nodes is not None else limit.playouts
        # The time of this move counts what was spent above.
        seconds = time_left(limit.time, start)
        if seconds is not None:
            seconds = min(seconds, MAX_SECONDS)
        clock = time_left(limit.clock, start)
        if clock is not None:
            clock = min(clock, MAX_SECONDS)
        increment = None if limit.increment is None else min(limit.increment, MAX_SECONDS)
        result: dict[str, Any] = engine.search(
            state, time=seconds, nodes=nodes, depth=limit.depth, clock=clock,
            increment=increment, on_info=on_info, stopped=self.stopped(),
            should_stop=self.stopped)
        return result


def _moves(board: Any, texts: list[str]) -> list[Any]:
    """The board's ``Move`` objects for ``texts``, played in turn from ``board`` (see
    :func:`hexgames.native.board_moves`; ``board`` is not changed).

    Raises:
        RuntimeError: for a text the board does not take: a bug of the native search.
    """
    try:
        return native.board_moves(board, texts)
    except ValueError as error:
        raise RuntimeError(f"the native alpha-beta search returned {texts!r}, which the "
                           f"board refuses: {error}") from error


def _info(board: Any, found: dict[str, Any]) -> Info:
    """An :class:`Info` from the native search's dict, the PV as the board's moves (and
    so each MultiPV line of a progress report's ``lines``)."""
    evaluation = found["eval"]
    return Info(score=found["score"], eval=None if evaluation is None else float(evaluation),
                mate=found["mate"], pv=_moves(board, list(found["pv"])),
                depth=found["depth"], nodes=found["nodes"], nps=found["nps"],
                time=found["time"], seldepth=found["seldepth"],
                lines=[_info(board, line) for line in found.get("lines", ())])


__all__ = ["AlphaBetaPlayer"]
