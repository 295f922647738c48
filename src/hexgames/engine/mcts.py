"""The ``mcts`` player: Monte Carlo tree search for both games, in the native core.

A thin wrapper over ``hexgames._native.Mcts`` (``native/core/src/search/mcts.rs``), with
the algorithms and options of the pure-Python player it replaces
(:mod:`hexgames.engine.legacy.mcts`, where each is described with its source):

- **UCT** (Kocsis and Szepesvári, ECML 2006) with unvisited children first;
- **GRAVE** (Cazenave, IJCAI 2015), the all-moves-as-first term of RAVE (Gelly and
  Silver, AIJ 2011) from the closest ancestor with ``grave_ref`` simulations;
- **MCTS-Solver** (Winands, Björnsson and Saito, CG 2008) with proven wins, losses and
  draws, and the immediate-win test at new nodes (an Andantino line in one, an Abande
  pass that ends the game won);
- **decisive and anti-decisive playout moves** (F. Teytaud and O. Teytaud, CIG 2010),
  off by default;
- **tree reuse** between the moves of one game; :meth:`MCTSPlayer.new_game` drops it;
- the **Abande playout cut-off**, scored by a logistic of the score difference.

The position reaches the core through :mod:`hexgames.native` only; the move and the
principal variation come back as the board's own ``Move`` objects.
"""

from __future__ import annotations

from typing import Any

from hexgames import native
from hexgames.engine.base import GameState, Info, InfoCallback, Limit, Player, PlayResult

__all__ = ["MCTSPlayer"]

#: The UCB1 constant without GRAVE (and before a GRAVE reference exists).
UCT_EXPLORATION = 0.7

def info_of(board: GameState, report: dict[str, Any]) -> Info:
    """A native search report as an :class:`Info`, the principal variation parsed into
    the board's moves."""
    return Info(score=report["score"], eval=report["eval"], mate=report["mate"],
                pv=native.board_moves(board, report["pv"]), depth=report["depth"],
                nodes=report["nodes"], nps=report["nps"], time=report["time"])


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
        default_limit: the limit when ``play`` gets none (default 1 second).
        decisive: decisive and anti-decisive moves in the playouts (the solver's
            immediate-win test in the tree does not depend on it).
        grave_ref: simulations a node needs before its all-moves-as-first statistics
            are used for the nodes below it; 0 is plain RAVE (each node its own).
        amaf_start: simulations a node needs before it keeps all-moves-as-first
            statistics at all (at most ``grave_ref``; each table takes a few KB, and
            only nodes with ``grave_ref`` simulations are read). The legacy player
            starts at 8; 50 scored 41/80 against 8 at 0.5 s a move (level) with 2.5
            times less memory.
        rave_bias: the ``bias`` of the GRAVE weight
            ``b = amaf_n / (amaf_n + n + bias * amaf_n * n)``.
        abande_cutoff: Abande playouts stop after this many plies and are scored by the
            score difference; ``None`` or 0 plays them to the end.
        cutoff_scale: points of score difference that change the cut-off's win
            probability from 0.5 to about 0.73.
        tree_mb: the most memory (MB) the search tree may take; once it is full the
            tree stops growing and the search goes on with playouts from its leaves
            (``tree_full`` tells). A second of search takes about 160 MB in Andantino
            and 175 MB in Abande with the default options (400 and 350 MB with
            ``amaf_start=8``).

    Raises:
        ValueError: for a negative or non-finite ``exploration`` or ``rave_bias``, a
            negative ``grave_ref`` or ``abande_cutoff``, a ``cutoff_scale`` not above 0,
            or a ``tree_mb`` below 1.

    Limits: ``Limit.time`` (seconds), ``Limit.nodes`` and ``Limit.playouts``
    (simulations; the smaller counts), whichever is reached first; ``Limit.depth`` is
    ignored. Each :class:`Info` has ``score`` the root win probability for the side to
    move, ``pv`` the most-visited line, ``depth`` the deepest tree path, ``nodes`` the
    simulations of this search, and ``mate`` when the root is proven (plies to the end,
    negative for a loss). Reports come about every 100 ms and at the end.
    """

    name = "mcts"

    def __init__(self, seed: int | None = None, *, rave: bool = True, solver: bool = True,
                 reuse_tree: bool = True, exploration: float | None = None,
                 default_limit: Limit | None = None, decisive: bool = False,
                 grave_ref: int = 50, amaf_start: int = 50, rave_bias: float = 1e-4,
                 abande_cutoff: int | None = 4, cutoff_scale: float = 2.0,
                 tree_mb: int = 1024) -> None:
        super().__init__(default_limit or Limit(time=1.0))
        if exploration is None:
            exploration = 0.0 if rave else UCT_EXPLORATION
        if abande_cutoff is not None and abande_cutoff < 0:
            raise ValueError(f"abande_cutoff must be 0 or more, not {abande_cutoff}")
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
        self.abande_cutoff = abande_cutoff or None
        self.cutoff_scale = cutoff_scale
        self.tree_mb = tree_mb
        #: Simulations of the root kept from the previous search (0 for a new tree).
        self.reused_visits = 0
        #: Whether the last search stopped because the tree was full.
        self.tree_full = False
        seed64 = native.seed_of(seed)
        self._searches = {
            game: native.Mcts(game, seed=seed64, rave=rave, solver=solver,
                              reuse_tree=reuse_tree, exploration=float(exploration),
                              decisive=decisive, grave_ref=grave_ref, amaf_start=amaf_start,
                              rave_bias=float(rave_bias), abande_cutoff=self.abande_cutoff,
                              cutoff_scale=float(cutoff_scale), tree_mb=tree_mb)
                          for game in ("andantino", "abande")}

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
        if limit.time is None and limit.nodes is None and limit.playouts is None:
            limit = self.default_limit
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

        result = search.search(state, time=limit.time, nodes=max_sims,
                               on_info=report if on_info is not None else None)
        self.reused_visits = result["reused_visits"]
        self.tree_full = result["tree_full"]
        info = seen[-1] if seen else info_of(board, result)
        move = native.board_moves(board, [result["move"]])[0]
        return PlayResult(move, info)
