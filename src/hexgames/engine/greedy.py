"""The ``greedy`` player: one ply of lookahead with the evaluation, and no blunders in one.

A thin wrapper over ``hexgames._native.Greedy`` (``native/core/src/search/greedy.rs``).
For each legal move the player pushes it and looks at what follows, in this order:

1. a move that wins at once is played (in Andantino a line or a trap; in Abande the
   move that ends the game with a higher score, such as a pass after the opponent's
   pass while ahead);
2. moves that lose at once (a self-trap in Andantino) and moves after which the opponent
   has a winning reply are *unsafe*; among the safe moves, which include the moves that
   block an opponent threat, the one with the best static evaluation of the position
   after it (negated, as that position is the opponent's to move) is played;
3. only when every move is unsafe does it play the best-evaluated move that does not lose
   at once, and only when all of those lose at once the best-evaluated of the rest.

**The evaluation** (points for the side to move) is the alpha-beta player's static
evaluation with its default weights (:mod:`hexgames.engine.alphabeta`, "Evaluations":
Andantino's line and enclosure potentials, Abande's score, material, frozen stacks,
threats, mobility and hand terms with the search's fitted weights), the same code as the
search's. A finished game is worth 300,000 points to the winner and -300,000 to the
loser in both games, 0 when drawn. :class:`~hexgames.engine.base.Info` reports the
evaluation of the move played and the win probability ``1 / (1 + exp(-points / s))``,
``s`` 250 points in Andantino and 200 in Abande. (Up to hexgames 0.1 the greedy player
had an evaluation of its own: Abande's terms with hexgames 0.1's weights, and in
Andantino 30,000 points for a threat cell of the side to move and against two of the
opponent's; the second is left to rule 2, which sees a win in one of the opponent.)

Ties are broken by the player's seeded random numbers. With ``noise`` > 0 the player
is weaker on purpose (the ``easy`` level): with that probability it plays a uniformly
random move among those of rule 2 (or 3) instead of the best-evaluated one, while still
taking a win in one and still avoiding a loss in one.

**Cost and limits.** The moves that may win at once are found first without trying
every move (in Andantino only the placements next to four in a row or touching two
separate runs of their colour can), so a win in one is seen at once and whether the
opponent has a winning reply costs a few pushes. A move takes well under a millisecond
in the standard games; with extended play and hundreds of tiles a side (hundreds of
thousands of relocations, each evaluated) it can take minutes, so the player honours
``Limit.time`` (seconds), ``Limit.nodes`` (positions pushed) and :meth:`stop` (from
any thread), looked at about every millisecond: stopped early, it plays the best of
the moves examined so far (``Info.depth`` 0 instead of 1), or the first legal move if
it examined none (``eval`` ``None``, ``score`` 0.5). Without a limit it examines every
move.
"""

from __future__ import annotations

import time

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

__all__ = ["GreedyPlayer"]


class GreedyPlayer(Player):
    """Wins at once when it can, never hands the opponent a win in one when it can avoid
    it, and otherwise plays the move the evaluation likes best.

    Args:
        seed: seeds the tie-breaks; the same seed gives the same moves in the same
            positions. ``None`` picks one at random.
        noise: the probability (0 to 1) of playing a uniformly random safe move instead
            of the best-evaluated one; wins in one are always taken.

    Raises:
        ValueError: for a ``noise`` outside 0 to 1.
    """

    name = "greedy"
    changes_board = False  # (it reads the board: see Player.changes_board)

    def __init__(self, seed: int | None = None, *, noise: float = 0.0) -> None:
        super().__init__()
        if not 0.0 <= noise <= 1.0:
            raise ValueError(f"noise is a probability from 0 to 1, not {noise}")
        self.seed = seed
        self.noise = noise
        self._native = native.Greedy(native.seed_of(seed), float(noise))

    def stop(self) -> None:
        super().stop()
        self._native.stop()

    def _search(self, board: GameState, limit: Limit,
                on_info: InfoCallback | None) -> PlayResult:
        start = time.perf_counter()
        nodes = limit.nodes
        if self.stopped():  # stopped before the choice began
            nodes = 0
        state = native.state_of(board)
        # should_stop: a stop that came after the check above but before the native
        # call began would not reach it by its stop()
        found = self._native.choose(state, time=time_left(limit.time, start), nodes=nodes,
                                    should_stop=self.stopped)
        move = native.board_moves(board, [found["move"]])[0]
        value = found["eval"]
        info = Info(score=found["score"], eval=None if value is None else float(value),
                    mate=found["mate"], pv=[move], depth=found["depth"], nodes=found["nodes"],
                    nps=found["nps"], time=found["time"])
        if on_info is not None:
            on_info(info)
        return PlayResult(move, info)
