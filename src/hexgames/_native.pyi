"""Type stub of the extension module ``hexgames._native`` (the Rust core, ``native/``)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Generic, Self, TypeVar, final

__all__ = [
    "AbandeEncoder",
    "AbandeSolver",
    "AbandeState",
    "AbandeVectorCore",
    "AlphaBeta",
    "AndantinoEncoder",
    "AndantinoState",
    "AndantinoVectorCore",
    "Greedy",
    "Mcts",
    "Prover",
    "__version__",
    "splitmix64",
]

__version__: str

def splitmix64(x: int) -> int: ...

# --- Abande ---

@final
class AbandeState:
    """An Abande position under make/unmake (``hexgames_core::abande``), with the
    notation, legal-move order, Zobrist keys and error messages of
    :class:`hexgames.abande.Board`."""

    def __new__(
        cls, position: str | None = None, options: Sequence[str] | str | None = None
    ) -> Self: ...
    def copy(self) -> AbandeState: ...
    @property
    def turn(self) -> int: ...
    @property
    def ply(self) -> int: ...
    @property
    def passes(self) -> int: ...
    def legal_moves(self) -> list[str]: ...
    def legal_count(self) -> int: ...
    def push(self, text: str) -> None: ...
    def push_index(self, index: int) -> None: ...
    def push_moves(self, texts: Sequence[str]) -> None: ...
    def pop(self) -> str: ...
    def is_game_over(self) -> bool: ...
    def outcome(self) -> tuple[str, int | None, tuple[int, int]] | None: ...
    def zobrist_hash(self) -> int: ...
    def position(self) -> str: ...
    def options(self) -> list[str]: ...
    def hands(self) -> tuple[int, int]: ...
    def stacks(self) -> dict[str, str]: ...
    def score(self) -> tuple[int, int]: ...
    def sleeping(self) -> list[str]: ...
    def perft(self, depth: int) -> int: ...
    def divide(self, depth: int) -> list[tuple[str, int]]: ...
    def random_playouts(
        self, count: int | None = None, seconds: float | None = None, seed: int | None = None
    ) -> dict[str, Any]: ...

# --- end Abande ---

# --- Andantino ---

@final
class AndantinoState:
    """An Andantino position with its moves (docs/rules.md), played by the native core.

    Positions, moves and rules options are text as in docs/notation.md; errors are the
    package's ``ValueError`` subclasses with the messages of ``hexgames.andantino``.
    """

    def __new__(
        cls, position: str | None = None, options: Sequence[str] | str | None = None
    ) -> Self: ...
    def copy(self) -> AndantinoState: ...
    def __copy__(self) -> AndantinoState: ...
    def __deepcopy__(self, memo: Any) -> AndantinoState: ...
    @property
    def turn(self) -> int: ...
    @property
    def ply(self) -> int: ...
    def legal_moves(self) -> list[str]: ...
    def legal_count(self) -> int: ...
    def push(self, text: str) -> None: ...
    def push_index(self, index: int) -> None: ...
    def push_moves(self, texts: Sequence[str]) -> None: ...
    def pop(self) -> str: ...
    def is_game_over(self) -> bool: ...
    def outcome(
        self,
    ) -> tuple[str, int | None, list[tuple[int, int]], list[tuple[int, int]]] | None: ...
    def zobrist_hash(self) -> int: ...
    def position(self) -> str: ...
    def options(self) -> list[str]: ...
    def hands(self) -> tuple[int | None, int | None]: ...
    def tiles(self, color: int) -> list[tuple[int, int]]: ...
    def enclosed_cells(self, color: int) -> list[tuple[int, int]]: ...
    def perft(self, depth: int) -> int: ...
    def divide(self, depth: int) -> list[tuple[str, int]]: ...
    def random_playouts(
        self, count: int | None = None, seconds: float | None = None, seed: int | None = 0
    ) -> dict[str, Any]: ...

# --- end Andantino ---

# --- Fixed spaces (hexgames.integrations) ---
# Encoders: the action spaces and observation planes of hexgames.integrations.encoding
# over native states (hexgames_core::encoding). Vector cores: N games stepped together
# with same-step autoreset, releasing the GIL. Buffers (``out``, ``observations``...)
# are writable C-contiguous numpy arrays or other buffer-protocol objects.

# The two games' encoders and vector cores have the same methods; the private bases
# exist in this stub only (at run time each class stands alone).
_State = TypeVar("_State", AndantinoState, AbandeState)

class _Encoder(Generic[_State]):
    """A game's fixed spaces over its native state."""

    def __new__(cls, options: Sequence[str] | str | None = None) -> Self: ...
    @property
    def num_actions(self) -> int: ...
    @property
    def num_planes(self) -> int: ...
    @property
    def side(self) -> int: ...
    @property
    def radius(self) -> int: ...
    @property
    def num_cells(self) -> int: ...
    def observation_shape(self, channels_first: bool = True) -> tuple[int, int, int]: ...
    def options(self) -> list[str]: ...
    def notation(self, action: int) -> str: ...
    def action_of(self, text: str) -> int: ...
    def legal_actions(self, state: _State) -> list[int]: ...
    def legal_mask(self, state: _State, out: Any) -> None: ...
    def observe(
        self, state: _State, out: Any, player: int | None = None,
        channels_first: bool = True,
    ) -> None: ...
    def observation_list(self, state: _State, player: int | None = None) -> list[float]: ...
    def observe_and_mask(
        self, state: _State, observation: Any, mask: Any, player: int | None = None,
        legal: bool = True, channels_first: bool = True,
    ) -> int: ...
    def push_action(self, state: _State, action: int) -> None: ...
    def play_action(self, state: _State, action: int) -> bool: ...
    def is_over(self, state: _State) -> bool: ...
    def returns(self, state: _State) -> tuple[float, float]: ...
    def moves(self, state: _State) -> list[str]: ...

@final
class AndantinoEncoder(_Encoder[AndantinoState]):
    """Andantino's fixed spaces over ``AndantinoState``."""

@final
class AbandeEncoder(_Encoder[AbandeState]):
    """Abande's fixed spaces over ``AbandeState``."""

class _VectorCore:
    """N games of one game stepped together."""

    def __new__(
        cls, num_envs: int, options: Sequence[str] | str | None = None, seed: int | None = None
    ) -> Self: ...
    @property
    def num_envs(self) -> int: ...
    @property
    def num_actions(self) -> int: ...
    def observation_shape(self, channels_first: bool = True) -> tuple[int, int, int]: ...
    def options(self) -> list[str]: ...
    def reset(self, seed: int | None = None) -> None: ...
    def observe(self, observations: Any, channels_first: bool = True) -> None: ...
    def step(
        self, actions: Any, rewards: Any, terminations: Any, winners: Any, illegal: Any,
        plies: Any, illegal_loses: bool = False, observations: Any = None,
        channels_first: bool = True,
    ) -> int: ...
    def autoreset(self, observations: Any = None, channels_first: bool = True) -> int: ...
    def masks(self, out: Any) -> None: ...
    def current_players(self, out: Any) -> None: ...
    def window_centres(self, out: Any) -> None: ...
    def sample_legal(self, out: Any, seed: int | None = None) -> None: ...
    def legal_actions(self, index: int) -> list[int]: ...
    def moves(self, index: int) -> list[str]: ...
    def position(self, index: int) -> str: ...

@final
class AndantinoVectorCore(_VectorCore):
    """N Andantino games stepped together."""

@final
class AbandeVectorCore(_VectorCore):
    """N Abande games stepped together."""

# --- end fixed spaces ---

# --- the alpha-beta player ---

@final
class AlphaBeta:
    """The native alpha-beta player of one game (``hexgames_core::search::alphabeta``):
    see :mod:`hexgames.engine.alphabeta`. ``stop()`` may be called from any thread while
    ``search`` runs (the GIL is released)."""

    def __new__(
        cls,
        game: str,
        tt_mb: int | None = None,
        pvs: bool = True,
        use_tt: bool = True,
        multipv: int | None = None,
        randomness: int | None = None,
        seed: int | None = None,
        leaf_threats: bool = False,
        lmr: bool = False,
        tt_deeper: bool = False,
        null_move: bool = False,
        three: int | None = None,
        tempo: int | None = None,
        right: int | None = None,
        quiescence: bool = False,
        rfp: int | None = None,
        eval_weights: Sequence[int] | None = None,
    ) -> Self: ...
    @property
    def game(self) -> str: ...
    def search(
        self,
        state: AndantinoState | AbandeState,
        time: float | None = None,
        nodes: int | None = None,
        depth: int | None = None,
        clock: float | None = None,
        increment: float | None = None,
        on_info: Callable[[dict[str, Any]], object] | None = None,
        stopped: bool = False,
        should_stop: Callable[[], object] | None = None,
    ) -> dict[str, Any]: ...
    def stop(self) -> None: ...
    def new_game(self) -> None: ...
    def table_info(self) -> dict[str, int]: ...
    def evaluate(self, state: AndantinoState | AbandeState) -> int | None: ...

# --- end of the alpha-beta player ---

# --- Monte Carlo tree search, the Abande endgame solver, greedy ---

@final
class Mcts:
    """Monte Carlo tree search for one game (UCT, GRAVE, MCTS-Solver, decisive playouts,
    the playout cut-off scored by Abande's score or the learned evaluation of
    ``eval_weights``, tree reuse), with a tree of at most ``tree_mb`` MB."""

    def __new__(
        cls,
        game: str,
        *,
        seed: int | None = None,
        rave: bool | None = None,
        solver: bool | None = None,
        reuse_tree: bool | None = None,
        exploration: float | None = None,
        decisive: bool | None = None,
        grave_ref: int | None = None,
        amaf_start: int | None = None,
        rave_bias: float | None = None,
        cutoff: int | None = None,
        cutoff_scale: float | None = None,
        eval_weights: Sequence[int] | None = None,
        tree_mb: int | None = None,
    ) -> Self: ...
    @property
    def game(self) -> str: ...
    def search(
        self,
        state: AndantinoState | AbandeState,
        time: float | None = None,
        nodes: int | None = None,
        on_info: Callable[[dict[str, Any]], object] | None = None,
        should_stop: Callable[[], object] | None = None,
    ) -> dict[str, Any]: ...
    def stop(self) -> None: ...
    def new_game(self) -> None: ...

@final
class AbandeSolver:
    """The exact Abande solver (pieces in hand or not) with a transposition table of
    ``table_mb`` MB."""

    def __new__(cls, table_mb: int | None = None) -> Self: ...
    def solve(
        self,
        state: AbandeState,
        exact_score: bool = True,
        max_nodes: int | None = None,
        time: float | None = None,
        should_stop: Callable[[], object] | None = None,
    ) -> dict[str, Any]: ...
    def stop(self) -> None: ...
    def new_game(self) -> None: ...

@final
class Greedy:
    """The greedy player: a win in one, no loss in one, else the best evaluation.
    ``stop()`` may be called from any thread while ``choose`` runs (the GIL is
    released)."""

    def __new__(cls, seed: int | None = None, noise: float | None = None) -> Self: ...
    def choose(
        self,
        state: AndantinoState | AbandeState,
        time: float | None = None,
        nodes: int | None = None,
        should_stop: Callable[[], object] | None = None,
    ) -> dict[str, Any]: ...
    def stop(self) -> None: ...

# --- end Monte Carlo tree search, the Abande endgame solver, greedy ---

# --- The proof-number search ---

@final
class Prover:
    """Df-pn over both games with a transposition table of ``table_mb`` MB, kept between
    searches. ``stop()`` may be called from any thread while a search runs; with
    ``threat_space`` false, without the threat-space search (VCF); with ``replies``
    false, each child tested by trying its moves (the same search, slower: for speed
    comparisons)."""

    def __new__(
        cls,
        table_mb: int | None = None,
        threat_space: bool | None = None,
        *,
        replies: bool | None = None,
    ) -> Self: ...
    @property
    def table_bytes(self) -> int: ...
    def prove(
        self,
        state: AndantinoState | AbandeState,
        attacker: int,
        draw_ok: bool,
        time: float | None = None,
        max_nodes: int | None = None,
        should_stop: Callable[[], object] | None = None,
    ) -> dict[str, Any]: ...
    def strategy(
        self,
        state: AndantinoState | AbandeState,
        attacker: int,
        draw_ok: bool,
        time: float | None = None,
        max_nodes: int | None = None,
        should_stop: Callable[[], object] | None = None,
    ) -> tuple[list[tuple[str, str]], int]: ...
    def stop(self) -> None: ...
    def clear(self) -> None: ...

# --- end the proof-number search ---
