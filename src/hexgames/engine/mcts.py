"""The ``mcts`` player: Monte Carlo tree search for both games, in the native core.

A thin wrapper over ``hexgames._native.Mcts`` (``native/core/src/search/mcts.rs``). The
search is UCT (Kocsis and Szepesvári, "Bandit based Monte-Carlo planning", ECML 2006):
UCB1, ``mean + c * sqrt(ln N / n)``, on the win rates of the children, each from the
point of view of the player who moved into the child, unvisited children first in random
order, with these additions, each of which can be switched off:

- **GRAVE** (Cazenave, "Generalized Rapid Action Value Estimation", IJCAI 2015): the
  all-moves-as-first term of RAVE (Gelly and Silver, "Monte-Carlo tree search and rapid
  action value estimation in computer Go", AIJ 2011) taken from the closest ancestor
  with at least ``grave_ref`` simulations (``grave_ref=0`` is plain RAVE, each node its
  own statistics). A child's value is ``(1 - b) * mean + b * amaf`` with
  ``b = amaf_n / (amaf_n + n + bias * amaf_n * n)``.
- **MCTS-Solver** (Winands, Björnsson and Saito, "Monte-Carlo tree search solver",
  CG 2008): a node whose side to move has a winning child, or whose children are all
  proven, is proven; a child proven lost for the mover is never chosen again, and the
  search stops as soon as the root is proven. Proven draws count as solved too, so a
  position whose every move draws or loses is proven drawn. A new node whose side to
  move wins at once by a cheap test (an Andantino line of five in one; an Abande pass
  after the opponent's pass while ahead) is proven at once.
- **Decisive and anti-decisive playout moves** (F. Teytaud and O. Teytaud, "On the huge
  benefit of decisive moves in Monte-Carlo tree search algorithms", CIG 2010), off by
  default: a playout plays a move that wins at once if there is one, else one that stops
  the opponent's immediate win, else a random move. In Andantino the cells completing a
  line of five are kept incrementally during a playout, and a random move into the
  opponent's pocket (a self-trap) is drawn again once; in Abande a pass that ends the
  game won is played, and a side behind with an empty hand does not pass (that would
  let the opponent end the game won).
- **Tree reuse**: the subtree of the moves played since the last search is kept when the
  new position follows from the old root (same starting position, rules and move
  history); :meth:`MCTSPlayer.new_game` drops it.
- **Playout cut-off** (early playout termination: Lorentz, "Using evaluation functions
  in Monte-Carlo tree search", Theoretical Computer Science 644, 2016; Winands,
  Björnsson and Saito, "Monte Carlo tree search in Lines of Action", IEEE TCIAIG 2010):
  a playout stops after ``abande_cutoff`` plies in Abande, ``andantino_cutoff`` in
  Andantino (by default :data:`DEFAULT_CUTOFF`: 4 with the score, 2 with the learned
  evaluation), and its position is scored as a win probability by what the ``eval``
  option says (:data:`DEFAULT_EVAL` by default):

  - ``score``: Abande's awake-stack score difference ``d`` as ``1 / (1 + exp(-d /
    cutoff_scale))``; Andantino has no score, and plays out.
  - ``learned``: the learned evaluation ``v`` of :mod:`hexgames.engine.learned` (the
    shipped weights, alpha-beta's default) as ``1 / (1 + exp(-v / s))`` for the side to
    move, ``s`` the scale its weights were fitted to by Texel's method (200 points in
    Abande, 250 in Andantino: ``learned.PROBABILITY_SCALE`` and
    ``learned.ANDANTINO_PROBABILITY_SCALE``; the weights files store none). Andantino's
    incremental tracker is brought to the cut-off's position (only the tiles that
    differ from the last one's), and the forced moves that alpha-beta's forcing
    analysis sees are played first: a line the side to move completes wins, two
    threats lose, a single one is filled.
  - ``none``: no cut-off, playouts to the end in both games.

  Against the score's MCTS at 0.1 s a move: docs/evaluation.md, "MCTS's cut-off".

Andantino playouts use these policies under the standard move rules; under the other
rules (extended play, single adjacency, self-traps illegal) they are uniformly random
and the tree has no immediate-win test. The tree lives in flat arrays of bounded size
(``tree_mb``); one copy of the position is searched by make/unmake. With the same seed
and a simulation limit the same moves come out.

The defaults were chosen by matches between option sets (``benchmarks/bench_mcts.py
match``: colour-swapped pairs from seeded random openings, played by the pure-Python
search of hexgames 0.1 that this one ports; the figures are in the issue notes): GRAVE
beat plain UCT (Andantino 62% at 1,000 simulations a move and 55% at 0.25 s, Abande 74%
at 0.25 s); ``grave_ref`` 0 to 100, ``rave_bias`` 1e-4 or 1e-2 and ``exploration`` 0 or
0.1 were level within the noise in Andantino; decisive playouts lost with GRAVE (44%
over 400 games); Abande playouts cut off after 4 plies beat full ones 60 games to 0 at
0.25 s a move.

**Playout length and stopping.** A playout is at most 2,048 plies; one that gets there
is scored as a draw. No game of the default rules lasts that long (Abande 144 plies,
Andantino 998 placements and 200 relocations); only a raised ``extended_move_limit``
makes such games (four tiles a side, which can make neither a line nor a trap,
relocate until a position repeats), and a draw is the rules' own answer to an
overlong game. The search looks at its time limit and :meth:`~MCTSPlayer.stop` every
simulation, every 16 plies of a playout and every 4,096 children of a node it lists,
so it stops within a few milliseconds even where one simulation takes seconds (a
playout cut short is not counted): see ``docs/limits.md``, "How soon a search stops".

The position reaches the core through :mod:`hexgames.native` only; the move and the
principal variation come back as the board's own ``Move`` objects.
"""

from __future__ import annotations

import time
from typing import Any

from hexgames import native
from hexgames.core import HexgamesError
from hexgames.engine import learned
from hexgames.engine.base import (
    GameState,
    Info,
    InfoCallback,
    Limit,
    Player,
    PlayResult,
    time_left,
)

__all__ = ["DEFAULT_CUTOFF", "DEFAULT_EVAL", "EVAL_WORDS", "MCTSPlayer", "cutoff_evals"]

#: The UCB1 constant without GRAVE (and before a GRAVE reference exists).
UCT_EXPLORATION = 0.7
#: The games, in the order of the player's native searches.
GAMES = ("andantino", "abande")
#: What each game's cut-off scores by with ``eval=default``: the learned evaluation
#: where it beat the score's cut-off under SPRT, Abande's (+163 Elo at 0.1 s a move);
#: Andantino's plays out (docs/evaluation.md, "MCTS's cut-off").
DEFAULT_EVAL: dict[str, str] = {"andantino": "score", "abande": "learned"}
#: The words of the ``eval`` option (else it is the path of a weights file).
EVAL_WORDS = ("default", "score", "learned", "none")
#: The plies before the cut-off when ``abande_cutoff`` or ``andantino_cutoff`` is
#: ``None``, by game and what scores it: Abande's score after 4 (hexgames 0.1's choice),
#: the learned evaluation after 2 (20-game probes of 1 to 20 plies against the score's
#: MCTS at 0.1 s a move: docs/evaluation.md, "MCTS's cut-off").
DEFAULT_CUTOFF: dict[tuple[str, str], int] = {
    ("abande", "score"): 4, ("abande", "learned"): 2, ("andantino", "learned"): 2}


def cutoff_evals(spec: str) -> dict[str, tuple[int, ...] | str]:
    """What each game's playout cut-off scores by for the ``eval`` option ``spec`` (see
    :class:`MCTSPlayer`): ``"score"``, ``"none"`` or the learned evaluation's weights.

    Raises:
        ValueError: (``HexgamesError``) naming the option, for text that is none of
            :data:`EVAL_WORDS` and no readable weights file.
    """
    choices = ", ".join(EVAL_WORDS)
    if not isinstance(spec, str) or not spec.strip():
        raise HexgamesError(f"eval must be {choices} or the path of a weights file, "
                            f"not {spec!r}")
    if spec == "default":
        return {game: cutoff_evals(DEFAULT_EVAL[game])[game] for game in GAMES}
    if spec in ("score", "none"):
        return dict.fromkeys(GAMES, spec)
    if spec == "learned":
        return {game: learned.shipped_weights(game) for game in GAMES}
    try:
        game, weights = learned.read_weights(spec)
    except HexgamesError as error:
        raise HexgamesError(f"eval must be {choices} or the path of a weights file, "
                            f"not {spec!r}: {error}") from None
    return {**cutoff_evals("default"), game: weights}

def info_of(board: GameState, report: dict[str, Any]) -> Info:
    """A native search report as an :class:`Info`, the principal variation parsed into
    the board's moves."""
    return Info(score=report["score"], eval=report["eval"], mate=report["mate"],
                pv=native.board_moves(board, report["pv"]), depth=report["depth"],
                nodes=report["nodes"], nps=report["nps"], time=report["time"])


def _ends_a_search(limit: Limit) -> bool:
    """Whether ``limit`` ends an MCTS search: it sets a time, a node or playout count,
    or a clock (which :meth:`Player.play` turns into a time); a depth does not."""
    return any(x is not None for x in (limit.time, limit.nodes, limit.playouts, limit.clock))


def _weights(how: tuple[int, ...] | str) -> list[int] | None:
    """The native search's ``eval_weights`` of a cut-off's evaluation (``None`` for the
    score or none)."""
    return None if isinstance(how, str) else list(how)


class MCTSPlayer(Player):
    """Monte Carlo tree search (see the module docstring for the algorithms).

    Args:
        seed: seeds the search; with a node or playout limit the same seed gives the
            same moves. ``None`` picks one at random.
        rave: add the GRAVE term (all-moves-as-first statistics).
        solver: MCTS-Solver: prove wins, losses and draws in the tree; a proven win at
            the root is played at once and proven losses are never chosen.
        reuse_tree: keep the subtree of the moves played between searches.
        exploration: the UCB1 constant ``c`` in ``mean + c * sqrt(ln N / n)``; 0 leaves
            exploration to the GRAVE term and the first-play value. ``None`` picks 0.0
            with ``rave``, 0.7 without.
        default_limit: the limit when ``play`` gets none (default 1 second). One that
            sets none of ``time``, ``nodes``, ``playouts`` and ``clock`` (a ``depth``
            alone, as ``mcts:depth=2`` gives) would never end a search: 1 second then.
        decisive: decisive and anti-decisive moves in the playouts (the solver's
            immediate-win test in the tree does not depend on it).
        grave_ref: simulations a node needs before its all-moves-as-first statistics
            are used for the nodes below it; 0 is plain RAVE (each node its own).
        amaf_start: simulations a node needs before it keeps all-moves-as-first
            statistics at all (at most ``grave_ref``; each table takes a few KB, and
            only nodes with ``grave_ref`` simulations are read). 50 scored 41/80
            against 8 at 0.5 s a move (level) with 2.5 times less memory.
        rave_bias: the ``bias`` of the GRAVE weight
            ``b = amaf_n / (amaf_n + n + bias * amaf_n * n)``.
        abande_cutoff: Abande playouts stop after this many plies and are scored (by
            ``eval``); 0 plays them to the end; ``None``: :data:`DEFAULT_CUTOFF` (4 with
            the score, 2 with the learned evaluation).
        andantino_cutoff: Andantino playouts stop after this many plies and are scored,
            when ``eval`` gives Andantino an evaluation (the learned one; with ``score``
            they play out: Andantino has no score); 0 plays them to the end; ``None``:
            :data:`DEFAULT_CUTOFF` (2).
        cutoff_scale: points of score difference that change the cut-off's win
            probability from 0.5 to about 0.73 (Abande's score; the learned evaluation
            has the scale of its fit).
        eval: what the cut-off scores a position by: ``default`` (:data:`DEFAULT_EVAL`:
            the learned evaluation in Abande, where it beat the score under SPRT, +163
            Elo; the score in Andantino, where it lost, -96 Elo), ``score`` (Abande's
            score difference; Andantino plays out), ``learned`` (both games' learned
            evaluation, the shipped weights), ``none`` (no cut-off: every playout to the
            end), or the path of a weights file of ``tools/train_eval.py`` (the learned
            evaluation of its game with those weights; the other game as ``default``).
        tree_mb: the most memory (MB) the search tree may take; once it is full the
            tree stops growing and the search goes on with playouts from its leaves
            (``tree_full`` tells). A second of search takes about 160 MB in Andantino
            and 175 MB in Abande with the default options (400 and 350 MB with
            ``amaf_start=8``).

    Raises:
        ValueError: for a negative or non-finite ``exploration`` or ``rave_bias``, a
            negative ``grave_ref``, ``abande_cutoff`` or ``andantino_cutoff``, a
            ``cutoff_scale`` not above 0, a ``tree_mb`` below 1, or an ``eval`` that is
            none of its words and no readable weights file (the message names the
            option).

    Limits: ``Limit.time`` (seconds), ``Limit.nodes`` and ``Limit.playouts``
    (simulations; the smaller counts), whichever is reached first; ``Limit.depth`` is
    ignored. Each :class:`Info` has ``score`` the root win probability for the side to
    move, ``pv`` the most-visited line, ``depth`` the deepest tree path, ``nodes`` the
    simulations of this search, and ``mate`` when the root is proven (plies to the end,
    negative for a loss). Reports come about every 100 ms and at the end.
    """

    name = "mcts"
    changes_board = False  # (it reads the board: see Player.changes_board)

    def __init__(self, seed: int | None = None, *, rave: bool = True, solver: bool = True,
                 reuse_tree: bool = True, exploration: float | None = None,
                 default_limit: Limit | None = None, decisive: bool = False,
                 grave_ref: int = 50, amaf_start: int = 50, rave_bias: float = 1e-4,
                 abande_cutoff: int | None = None, andantino_cutoff: int | None = None,
                 cutoff_scale: float = 2.0, eval: str = "default",
                 tree_mb: int = 1024) -> None:
        if default_limit is None or not _ends_a_search(default_limit):
            default_limit = Limit(time=1.0)
        super().__init__(default_limit)
        if exploration is None:
            exploration = 0.0 if rave else UCT_EXPLORATION
        for name, cutoff in (("abande_cutoff", abande_cutoff),
                             ("andantino_cutoff", andantino_cutoff)):
            if cutoff is not None and cutoff < 0:
                raise ValueError(f"{name} must be 0 or more, not {cutoff}")
        evals = cutoff_evals(eval)
        if grave_ref < 0:
            raise ValueError(f"grave_ref must be 0 or more, not {grave_ref}")
        if amaf_start < 0:
            raise ValueError(f"amaf_start must be 0 or more, not {amaf_start}")
        self.seed = seed
        self.rave = rave
        self.solver = solver
        self.reuse_tree = reuse_tree
        self.exploration = exploration
        self.decisive = decisive
        self.grave_ref = grave_ref
        self.amaf_start = amaf_start
        self.rave_bias = rave_bias
        kinds = {game: how if isinstance(how, str) else "learned"
                 for game, how in evals.items()}
        plies = {game: None if kinds[game] == "none"
                 else DEFAULT_CUTOFF.get((game, kinds[game])) if given is None else given
                 for game, given in (("abande", abande_cutoff),
                                     ("andantino", andantino_cutoff))}
        #: The plies before each game's cut-off (``None``: played out; Andantino's is
        #: used only with an evaluation).
        self.abande_cutoff = plies["abande"] or None
        self.andantino_cutoff = plies["andantino"] or None
        self.cutoff_scale = cutoff_scale
        self.eval = eval
        #: What each game's cut-off scores by: ``"score"``, ``"none"`` or the learned
        #: evaluation's weights.
        self.cutoff_evals = evals
        self.tree_mb = tree_mb
        #: Simulations of the root kept from the previous search (0 for a new tree).
        self.reused_visits = 0
        #: Whether the last search stopped because the tree was full.
        self.tree_full = False
        seed64 = native.seed_of(seed)
        cutoffs = {"andantino": self.andantino_cutoff, "abande": self.abande_cutoff}
        self._searches = {
            game: native.Mcts(game, seed=seed64, rave=rave, solver=solver,
                              reuse_tree=reuse_tree, exploration=float(exploration),
                              decisive=decisive, grave_ref=grave_ref, amaf_start=amaf_start,
                              rave_bias=float(rave_bias),
                              # 0 plays out (None would be the native default)
                              cutoff=cutoffs[game] or 0,
                              cutoff_scale=float(cutoff_scale),
                              eval_weights=_weights(evals[game]),
                              tree_mb=tree_mb)
                          for game in GAMES}

    def new_game(self) -> None:
        """Drop the kept search trees."""
        for search in self._searches.values():
            search.new_game()

    def stop(self) -> None:
        super().stop()
        for search in self._searches.values():
            search.stop()

    def _search(self, board: GameState, limit: Limit,
                on_info: InfoCallback | None) -> PlayResult:
        if not _ends_a_search(limit):
            limit = self.default_limit
        start = time.perf_counter()
        budgets = [x for x in (limit.nodes, limit.playouts) if x is not None]
        max_sims = min(budgets) if budgets else None
        if self.stopped():  # stopped before the search began
            max_sims = 0
        search = self._searches[native.game_of(board)]
        state = native.state_of(board)
        seen: list[Info] = []

        def report(d: dict[str, Any]) -> None:
            info = info_of(board, d)
            seen.append(info)
            if on_info is not None:
                on_info(info)

        # should_stop: a stop that came after the check above but before the native
        # search began would not reach it by its stop()
        result = search.search(state, time=time_left(limit.time, start), nodes=max_sims,
                               on_info=report if on_info is not None else None,
                               should_stop=self.stopped)
        self.reused_visits = result["reused_visits"]
        self.tree_full = result["tree_full"]
        info = seen[-1] if seen else info_of(board, result)
        move = native.board_moves(board, [result["move"]])[0]
        return PlayResult(move, info)
