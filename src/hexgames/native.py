"""The one boundary where Python hands a position to the native core.

``hexgames._native`` is the Rust core (``native/`` in the repository: both games' rules,
perft, playouts and search, built by maturin with PyO3). Engine, arena and integration
code reach it only through this module, and only through the boards' public API: a
native state is made from the board's starting position, its rules options and the
notation of its moves, so it has the same history (for the repetition rule of extended
play) and the same Zobrist key as the board.

    >>> from hexgames import andantino, native
    >>> board = andantino.Board()
    >>> board.push_notation("0,1")
    Move(to=(0, 1))
    >>> state = native.state_of(board)
    >>> state.zobrist_hash() == board.zobrist_hash()
    True

Errors of the native core are the package's own ``ValueError`` subclasses
(:class:`~hexgames.core.InvalidPositionError`, ...), raised with the core's message.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from hexgames import _native
from hexgames.core import GameBoard

__all__ = [
    "AbandeSolver",
    "Greedy",
    "Mcts",
    "NativeState",
    "Prover",
    "alphabeta",
    "board_moves",
    "encoder",
    "game_of",
    "seed_of",
    "state_class",
    "state_of",
    "vector_core",
]

#: A native state of either game (``_native.pyi``).
NativeState = _native.AndantinoState | _native.AbandeState
#: A native encoding of either game's fixed spaces.
NativeEncoder = _native.AndantinoEncoder | _native.AbandeEncoder
#: Native vector cores of either game.
NativeVectorCore = _native.AndantinoVectorCore | _native.AbandeVectorCore


def state_class(game: str) -> type[_native.AndantinoState] | type[_native.AbandeState]:
    """The native state class of the game called ``game`` (``andantino`` or ``abande``).

    Raises:
        hexgames.games.UnknownGameError: for any other name.
    """
    from hexgames.games import UnknownGameError

    key = game.strip().lower()
    if key == "andantino":
        return _native.AndantinoState
    if key == "abande":
        return _native.AbandeState
    raise UnknownGameError(f"unknown game {game!r} (known: andantino, abande)")


def state_of(board: GameBoard) -> NativeState:
    """A native state equal to ``board``: the same starting position, rules and moves.

    Raises:
        TypeError: if ``board`` is not an Andantino or Abande board.
    """
    state = state_class(game_of(board))(board.starting_position(), board.rules.options())
    state.push_moves([move.notation() for move in board.move_stack])
    return state


# --- fixed spaces for learning frameworks (hexgames.integrations) ---


def _game_key(game: str) -> str:
    from hexgames.games import UnknownGameError

    key = game.strip().lower()
    if key not in ("andantino", "abande"):
        raise UnknownGameError(f"unknown game {game!r} (known: andantino, abande)")
    return key


def encoder(game: str, options: Sequence[str] | str = ()) -> NativeEncoder:
    """The native encoding of ``game`` under the rules ``options`` (``key=value``
    words): ``_native.AndantinoEncoder`` or ``_native.AbandeEncoder``, the action spaces
    and observation planes of :mod:`hexgames.integrations.encoding` over native states.

    Raises:
        hexgames.games.UnknownGameError: for an unknown game.
        hexgames.core.InvalidRulesError: for bad options or rules without fixed spaces.
    """
    if _game_key(game) == "andantino":
        return _native.AndantinoEncoder(options)
    return _native.AbandeEncoder(options)


def vector_core(game: str, num_envs: int, options: Sequence[str] | str = (),
                seed: int = 0) -> NativeVectorCore:
    """``num_envs`` native games of ``game`` stepped together
    (``_native.AndantinoVectorCore`` / ``AbandeVectorCore``), the engine of
    :mod:`hexgames.integrations.vector`; ``seed`` seeds its random legal actions.

    Raises:
        hexgames.games.UnknownGameError: for an unknown game.
        hexgames.core.InvalidRulesError: for bad options or rules without fixed spaces.
        hexgames.core.HexgamesError: for ``num_envs`` below 1 or buffers too large.
    """
    if _game_key(game) == "andantino":
        return _native.AndantinoVectorCore(num_envs, options, seed)
    return _native.AbandeVectorCore(num_envs, options, seed)

# --- end fixed spaces ---


# --- The native players without alpha-beta: MCTS, the Abande endgame solver, greedy ---

#: Monte Carlo tree search for one game (``_native.Mcts``, see ``_native.pyi``).
Mcts = _native.Mcts
#: The exact Abande endgame solver with its bounded table (``_native.AbandeSolver``).
AbandeSolver = _native.AbandeSolver
#: The greedy player (``_native.Greedy``).
Greedy = _native.Greedy
#: Df-pn, the proof-number search of both games, with its bounded table
#: (``_native.Prover``; ``hexgames.solver`` is its Python interface).
Prover = _native.Prover


def seed_of(seed: int | None) -> int:
    """A seed for a native player (0 to 2**64 - 1): ``seed`` modulo 2**64, or a random
    one for ``None``.

    Raises:
        hexgames.core.HexgamesError: for a seed that is not a whole number (``1.5``,
            ``"5"``).
    """
    if not (seed is None or isinstance(seed, int)):
        from hexgames.core import HexgamesError

        raise HexgamesError(f"a seed is a whole number, not {seed!r}")
    if seed is None:
        import random

        return random.SystemRandom().getrandbits(64)
    return seed & ((1 << 64) - 1)


def game_of(board: GameBoard) -> str:
    """``"andantino"`` or ``"abande"``: the game of a hexgames board.

    Raises:
        TypeError: if ``board`` is not an Andantino or Abande board.
    """
    module = type(board).__module__
    if module not in ("hexgames.andantino", "hexgames.abande"):
        raise TypeError(f"not a hexgames board: {type(board).__name__}")
    return module.rpartition(".")[2]


# --- the alpha-beta player -----------------------------------------------------------


def alphabeta(game: str, *, tt_mb: int = 64, pvs: bool = True, use_tt: bool = True,
              multipv: int = 1, randomness: int = 0, seed: int | None = None,
              leaf_threats: bool = False, lmr: bool = False,
              tt_deeper: bool = False, null_move: bool = False, three: int = 30,
              tempo: int = 0, right: int = 0, quiescence: bool = False,
              rfp: int = 0,
              eval_weights: list[int] | None = None) -> _native.AlphaBeta:
    """The native alpha-beta player (``_native.AlphaBeta``) of ``game``; its
    ``search(state, ...)`` takes a state from :func:`state_of`.

    Raises:
        hexgames.core.HexgamesError: for an unknown game or a bad option (see
            ``_native.pyi``).
    """
    return _native.AlphaBeta(game, tt_mb=tt_mb, pvs=pvs, use_tt=use_tt, multipv=multipv,
                             randomness=randomness, seed=seed, leaf_threats=leaf_threats,
                             lmr=lmr, tt_deeper=tt_deeper, null_move=null_move,
                             three=three, tempo=tempo, right=right,
                             quiescence=quiescence, rfp=rfp, eval_weights=eval_weights)


def board_moves(board: GameBoard, texts: list[str]) -> list[Any]:
    """The board's own ``Move`` objects for a line of move texts played from ``board``
    (a native search's principal variation), each checked legal where it is played: the
    first on ``board`` itself (which is not changed), the others on a copy (none is
    made for one move: copying and pushing a relocation with hundreds of tiles a side
    takes the Python board a fraction of a second).

    Raises:
        InvalidMoveError, IllegalMoveError: if a text is not a legal move where it is
            played (a native search that returns one has a bug: this is loud on purpose).
    """
    if not texts:
        return []
    moves = [board.parse_notation(texts[0])]
    if len(texts) > 1:
        line = board.copy()
        line.push(moves[0])
        for text in texts[1:]:
            moves.append(line.parse_notation(text))
            if len(moves) < len(texts):
                line.push(moves[-1])
    return moves
