"""Players and levels by name: what the command line, the arena and the web app use.

A **player spec** is a player name or a level name, optionally followed by options::

    random
    alphabeta:time=0.5,tt_mb=16
    mcts:rave=off,playouts=2000
    hard
    expert:time=2

The options ``time`` (seconds), ``nodes``, ``depth`` (plies) and ``playouts`` set the
player's default :class:`~hexgames.engine.base.Limit`; every other option is passed to the
player's constructor as a keyword argument (``tt_mb=16`` -> ``AlphaBetaPlayer(tt_mb=16)``),
its text converted to the type of the parameter's default (``on``/``off`` for a flag, a
whole number, a decimal number or text).

**Varied play.** The levels below ``expert`` vary their play (:attr:`Level.varied`):
their options of varied play (``randomness=P`` for alpha-beta: a random choice among the
root moves within ``P`` points of the best) are given to the player when its class takes
them, and the app seeds the player of each of their moves with :func:`move_seed`, so that
two games against a level rarely repeat and a game can be replayed from its seed.

Which limit a player searches with, most specific first:

1. a limit written in the spec (``mcts:time=2``);
2. the ``limit`` given to :func:`make_player` (a command line's ``--time``/``--nodes``);
3. the level's preset limit (:data:`LEVELS`);
4. the player's own default.

The player modules are imported only when a player is made (by module and class name),
so this registry works before all of them are written: a player whose module is missing
is reported as not available yet.
"""

from __future__ import annotations

import importlib
import inspect
import math
import re
import typing
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from hexgames.core import BOOL_TEXT, BOOL_WORDS, HexgamesError, whole_number
from hexgames.engine.base import (
    DECIMAL_TEXT,
    MAX_LIMIT_COUNT,
    NON_FINITE_WORDS,
    InvalidLimitError,
    Limit,
    Player,
    search_seconds,
)
from hexgames.limits import MAX_PLAYER_SPEC


class UnknownPlayerError(HexgamesError):
    """A player spec that hexgames cannot make: an unknown player or level name, an
    unknown option, a bad option value, or a player that is not available yet."""


#: Player name -> (module, class). The class is called as ``cls(seed, **options)`` and,
#: when its constructor takes it, ``default_limit=``.
_PLAYERS: dict[str, tuple[str, str]] = {
    "random": ("hexgames.engine.random_player", "RandomPlayer"),
    # The native players (native/core/src/search/, bound in hexgames._native).
    "greedy": ("hexgames.engine.greedy", "GreedyPlayer"),
    "alphabeta": ("hexgames.engine.alphabeta", "AlphaBetaPlayer"),
    "mcts": ("hexgames.engine.mcts", "MCTSPlayer"),
    # The exact Abande solver (two pieces in hand or fewer), else ``fallback`` (alpha-beta).
    "solver": ("hexgames.engine.abande_solver", "AbandeSolverPlayer"),
}

#: The player names :func:`make_player` accepts.
PLAYER_NAMES: tuple[str, ...] = tuple(_PLAYERS)


class Level(NamedTuple):
    """A level a person picks by name: a player spec, its limit and what it is.

    ``varied`` is ``None`` for a level that plays its best move (``expert``); for a level
    that varies its play, the options of varied play (``(("randomness", "25"),)``),
    given to the level's player only when its class takes them (so a level works with a
    player that has no such option, and deterministically then), and a sign to callers
    that its moves are to be seeded (:func:`move_seed`).
    """

    spec: str
    limit: Limit
    description: str
    varied: tuple[tuple[str, str], ...] | None = None


#: The levels, weakest first, the same presets for both games, chosen with the ladder
#: benchmark (``benchmarks/bench_ladder.py``: each level, with its varied play, against
#: the one below over 200 colour-balanced games a game, ``expert``'s time scaled to 0.1 s;
#: the targets are 75% against the level below and 95% for ``hard`` against ``easy``).
#: Measured with the native search (issue 10 note): Andantino 93.0% (medium-easy), 85.0%
#: (hard-medium), 92.2% (expert-hard), 99.2% (hard-easy); Abande 100%, 90.2%, 98.2%,
#: 100%. ``hard`` searches 4 plies (3 with the Python search of hexgames 0.1); ``easy``
#: stays the greedy beginner's level. Alpha-beta is every level's search from ``medium``
#: up: at equal time it beat MCTS 20-0 in Andantino and 19-0 (one draw) in Abande
#: (hexgames 0.1's Python players). ``medium`` and ``hard`` search a fixed depth without
#: Abande's reverse futility pruning (``rfp=0``), as they were measured: it came later,
#: and at a fixed depth it would make them weaker (``expert`` has it).
#: The df-pn nodes of ``medium`` and ``hard`` (a depth limit, no time) for a proven win
#: (``AlphaBetaPlayer``'s ``prove``).
LEVEL_PROVE_NODES = 20_000
LEVELS: dict[str, Level] = {
    "easy": Level("greedy:noise=0.75", Limit(),
                  "greedy: takes a win and blocks a loss in one, otherwise a random safe "
                  "move three times in four and the best-looking one the fourth",
                  varied=()),
    "medium": Level(f"alphabeta:rfp=0,prove=0.1,prove_nodes={LEVEL_PROVE_NODES}",
                    Limit(depth=2),
                    "alpha-beta, 2 plies a move, choosing at random among the moves "
                    "within 25 points of the best; a win the solver proves at once is "
                    "played", varied=(("randomness", "25"),)),
    "hard": Level(f"alphabeta:rfp=0,prove=0.1,prove_nodes={LEVEL_PROVE_NODES}",
                  Limit(depth=4),
                  "alpha-beta, 4 plies a move, choosing at random among the moves within "
                  "15 points of the best; a win the solver proves at once is played",
                  varied=(("randomness", "15"),)),
    "expert": Level("solver:fallback=alphabeta:prove=0.1", Limit(time=5.0),
                    "alpha-beta, 5 s a move, the first tenth of it the df-pn solver's "
                    "(a win it proves is played at once), and the moves of the opening "
                    "book of proven positions; in Abande, with two pieces in hand or "
                    "fewer, the exact solver first"),
}

#: The level names :func:`make_player` accepts, weakest first.
LEVEL_NAMES: tuple[str, ...] = tuple(LEVELS)

_LIMIT_KINDS: dict[str, type] = {"time": float, "nodes": int, "depth": int, "playouts": int}
_NAME_RE = re.compile(r"[a-z][a-z0-9_]*")
# Constructor parameters that a spec may not set: they are set by make_player.
_RESERVED = frozenset({"self", "seed", "default_limit"})


@dataclass(frozen=True)
class PlayerSpec:
    """A parsed player spec.

    Attributes:
        text: the spec as given, stripped (used as the player's name in records).
        player: the player name (``alphabeta``), a level resolved to its player.
        level: the level name when the spec names a level, else ``None``.
        options: constructor options as written (``{"tt_mb": "16"}``), the level's
            own options first.
        limit: the limit written in the spec, or ``None`` when it sets none.
        preset: the level's preset limit, or ``None``.
        optional: options given to the player only when its class takes them (a
            level's options of varied play), unless ``options`` sets them.
    """

    text: str
    player: str
    level: str | None = None
    options: dict[str, str] = field(default_factory=dict)
    limit: Limit | None = None
    preset: Limit | None = None
    optional: dict[str, str] = field(default_factory=dict)

    @property
    def varied(self) -> bool:
        """Whether the spec names a level that varies its play (its moves are seeded,
        :func:`move_seed`)."""
        return self.level is not None and LEVELS[self.level].varied is not None

    def default_limit(self, limit: Limit | None = None) -> Limit | None:
        """The limit the player searches with, ``limit`` being a caller's (command
        line's) limit: the spec's own, else ``limit``, else the level's preset, else
        ``None`` (the player's own default)."""
        for candidate in (self.limit, limit, self.preset):
            if candidate is not None and not candidate.is_empty():
                return candidate
        return None


def _split_options(spec: str, text: str) -> tuple[dict[str, str], Limit | None]:
    """``key=value,key=value`` -> (constructor options, limit or ``None``)."""
    options: dict[str, str] = {}
    limits: dict[str, float | int] = {}
    for word in text.split(","):
        key, sep, value = (part.strip() for part in word.partition("="))
        key = key.lower()
        if sep and key and not value:
            raise UnknownPlayerError(
                f"player spec {spec!r}: option {key} needs a value ({key}=...)")
        if not sep or not key or not value:
            raise UnknownPlayerError(
                f"player spec {spec!r}: option {word.strip()!r} is not key=value")
        if key in options or key in limits:
            raise UnknownPlayerError(f"player spec {spec!r}: option {key} is given twice")
        kind = _LIMIT_KINDS.get(key)
        if kind is None:
            if not _NAME_RE.fullmatch(key):
                raise UnknownPlayerError(f"player spec {spec!r}: {key!r} is not an option name")
            options[key] = value
            continue
        if kind is float:  # read and checked as the command line's --time
            try:
                limits[key] = search_seconds(value)
            except ValueError as error:
                raise InvalidLimitError(
                    f"player spec {spec!r}: limit {key} {error}") from None
            continue
        try:
            number = _number(value, kind)
        except ValueError:
            if re.fullmatch(r"\+?[0-9]+", value):  # digits, too many
                raise InvalidLimitError(
                    f"player spec {spec!r}: limit {key} must be at most {MAX_LIMIT_COUNT}, "
                    f"not {value}") from None
            if re.fullmatch(r"-[0-9]+", value):
                raise InvalidLimitError(
                    f"player spec {spec!r}: limit {key} must be at least 1, not {value}") from None
            raise InvalidLimitError(
                f"player spec {spec!r}: limit {key} takes a whole number, not {value!r}"
            ) from None
        # As the command line's --nodes and --depth.
        if number < 1:
            raise InvalidLimitError(
                f"player spec {spec!r}: limit {key} must be at least 1, not {value}")
        limits[key] = number
    return options, (Limit(**limits) if limits else None)  # type: ignore[arg-type]


def _who(parsed: PlayerSpec) -> str:
    """The player a spec names, as a message names it: ``easy (greedy)`` for a level."""
    return parsed.player if parsed.level is None else f"{parsed.level} ({parsed.player})"


def parse_spec(spec: str) -> PlayerSpec:
    """Parse a player spec (``name`` or ``name:key=value,...``; any letter case) without
    importing the player.

    Raises:
        UnknownPlayerError: for an unknown player or level name, a spec longer than
            :data:`hexgames.limits.MAX_PLAYER_SPEC` characters, or an option that is not
            ``key=value`` or is given twice.
        InvalidLimitError: for a ``time``/``nodes``/``depth``/``playouts`` value that is
            not a number of the right kind, or is not above 0 (``time``) or at least 1 (the
            counts), as on the command line.
    """
    if not isinstance(spec, str):
        raise UnknownPlayerError(f"a player spec is text, not {type(spec).__name__}")
    text = spec.strip()
    if len(text) > MAX_PLAYER_SPEC:
        raise UnknownPlayerError(f"a player spec has at most {MAX_PLAYER_SPEC} characters, "
                                 f"not {len(text)}")
    name, colon, rest = text.partition(":")
    name = name.strip().lower()
    if colon and not rest.strip():
        raise UnknownPlayerError(f"player spec {text!r}: no options after ':'")
    options, limit = _split_options(text, rest) if colon else ({}, None)
    if name in LEVELS:
        level = LEVELS[name]
        inner = parse_spec(level.spec)
        merged = {**inner.options, **options}
        optional = {key: value for key, value in level.varied or ()
                    if key not in merged}
        return PlayerSpec(text, inner.player, name, merged, limit or inner.limit,
                          level.limit, optional)
    if name not in _PLAYERS:
        raise UnknownPlayerError(
            f"unknown player {name or text!r} (players: {', '.join(PLAYER_NAMES)}; "
            f"levels: {', '.join(LEVEL_NAMES)})")
    return PlayerSpec(text, name, None, options, limit)


def player_class(name: str) -> type[Player]:
    """The class of the player called ``name``, importing its module.

    Raises:
        UnknownPlayerError: for an unknown name, or a player whose module is not part of
            this installation yet.
    """
    try:
        module_name, class_name = _PLAYERS[name]
    except KeyError:
        raise UnknownPlayerError(
            f"unknown player {name!r} (known: {', '.join(PLAYER_NAMES)})") from None
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        if error.name != module_name:
            raise
        raise UnknownPlayerError(
            f"player {name} is not available yet in this version of hexgames "
            f"(no module {module_name})") from None
    cls = getattr(module, class_name, None)
    if not (isinstance(cls, type) and issubclass(cls, Player)):
        raise UnknownPlayerError(
            f"player {name} is not available yet in this version of hexgames "
            f"({module_name} has no player class {class_name})")
    return cls


#: A whole number as a spec writes it: ASCII digits only (``int()`` would also take
#: ``"١٢"`` and ``"1_000"``), at most 18 of them after any leading zeros.
_INT_TEXT = re.compile(r"[+-]?0*[0-9]{1,18}")
#: A whole number of more digits than :data:`_INT_TEXT` takes.
_LONG_INT_TEXT = re.compile(r"[+-]?0*[1-9][0-9]{18,}")


def _number(text: str, kind: type) -> int | float:
    """``text`` as an ``int`` or a ``float`` (``kind``), read strictly: ASCII digits only.
    A ``float`` may come out infinite (``1e999``) or NaN (the words ``nan``, ``inf``),
    for the caller to refuse with its own message.

    Raises:
        ValueError: for text that is no number of that kind.
    """
    if kind is int:
        if _INT_TEXT.fullmatch(text):
            return whole_number(text)
        raise ValueError(text)
    if DECIMAL_TEXT.fullmatch(text) or text.lower().lstrip("+-") in NON_FINITE_WORDS:
        return float(text)
    raise ValueError(text)


def _convert(spec: str, key: str, value: str, default: Any, *, none: bool = False) -> Any:
    """The text ``value`` as the type of the parameter's ``default``.

    Numbers are read strictly (:func:`_number`): ASCII digits, and a decimal number must
    be finite, so ``exploration=nan`` or ``=inf`` is refused here and never reaches a
    search.

    Raises:
        UnknownPlayerError: naming the option, for text that is not a value of the type,
            or a number that is NaN or infinite.
    """
    lowered = value.lower()
    number: int | float
    try:
        if isinstance(default, bool):
            return BOOL_WORDS[lowered]
        if isinstance(default, int):
            return _number(value, int)
        if isinstance(default, float):
            number = _number(value, float)
            return _finite(spec, key, value, number)
    except (KeyError, ValueError) as error:
        if isinstance(error, UnknownPlayerError):
            raise
        if type(default) is int and _LONG_INT_TEXT.fullmatch(value):
            raise UnknownPlayerError(f"player spec {spec!r}: option {key} has too many "
                                     f"digits: {value} (at most 18)") from None
        what = {bool: BOOL_TEXT, int: "a whole number", float: "a number"}[type(default)]
        what += " or none" if none else ""
        raise UnknownPlayerError(
            f"player spec {spec!r}: option {key} takes {what}, not {value!r}") from None
    if isinstance(default, str):
        return value
    # No typed default (None or no default): the most specific reading of the text.
    if lowered in ("none", "null"):
        return None
    for kind in (int, float):
        try:
            number = _number(value, kind)
        except ValueError:
            continue
        return _finite(spec, key, value, number)
    if lowered in ("on", "off", "true", "false", "yes", "no"):
        return BOOL_WORDS[lowered]
    return value


def _finite(spec: str, key: str, value: str, number: int | float) -> int | float:
    """``number``, unless it is NaN or infinite.

    Raises:
        UnknownPlayerError: naming the option, for NaN or an infinity.
    """
    if not math.isfinite(number):
        raise UnknownPlayerError(
            f"player spec {spec!r}: option {key} takes a finite number, not {value!r}")
    return number


def _constructor_args(parsed: PlayerSpec, cls: type[Player]) -> tuple[dict[str, Any], bool]:
    """The keyword arguments for ``cls`` from the spec's options, and whether the
    constructor takes ``default_limit``."""
    parameters = inspect.signature(cls).parameters
    takes_any = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values())
    known = {name: p for name, p in parameters.items()
             if name not in _RESERVED
             and p.kind in (inspect.Parameter.KEYWORD_ONLY,
                            inspect.Parameter.POSITIONAL_OR_KEYWORD)}
    try:
        hints = typing.get_type_hints(cls.__init__)
    except (NameError, TypeError, AttributeError):  # a hint that cannot be resolved
        hints = {}
    kwargs: dict[str, Any] = {}
    for key, value in parsed.optional.items():
        param = known.get(key)
        if param is not None:  # a class without the option plays without it
            kwargs[key] = _convert_optional(parsed.text, key, value, param, hints)
    for key, value in parsed.options.items():
        param = known.get(key)
        if param is None and not takes_any:
            choices = ", ".join([*known, *_LIMIT_KINDS])
            raise UnknownPlayerError(
                f"player spec {parsed.text!r}: {_who(parsed)} has no option {key!r} "
                f"(options: {choices})")
        kwargs[key] = (_convert(parsed.text, key, value, None) if param is None
                       else _convert_optional(parsed.text, key, value, param, hints))
    return kwargs, "default_limit" in parameters


def _convert_optional(spec: str, key: str, value: str, param: inspect.Parameter,
                      hints: Mapping[str, Any]) -> Any:
    """:func:`_convert` for the constructor parameter ``param``: by its default's type,
    or, when the default is ``None`` (``exploration: float | None = None``), by the
    number type its annotation allows, with ``none`` for ``None``."""
    default = None if param.default is inspect.Parameter.empty else param.default
    if default is None:
        allowed = typing.get_args(hints.get(param.name)) or (hints.get(param.name),)
        for kind, stand_in in ((bool, False), (int, 0), (float, 0.0)):
            if kind in allowed and not (kind is int and float in allowed):
                if value.lower() in ("none", "null"):
                    return None
                return _convert(spec, key, value, stand_in, none=True)
    return _convert(spec, key, value, default)


def check_spec(spec: str) -> PlayerSpec:
    """Parse ``spec`` and check its options against the player's constructor, without
    making the player (which may be costly: a transposition table is allocated).

    Raises:
        UnknownPlayerError, InvalidLimitError: as :func:`make_player`, except for an
            option value that only the constructor itself rejects.
    """
    parsed = parse_spec(spec)
    _constructor_args(parsed, player_class(parsed.player))
    return parsed


def make_player(spec: str, seed: int | None = None, *, limit: Limit | None = None) -> Player:
    """A new player from a player spec (see the module's documentation).

    Args:
        spec: a player or level name with optional options, e.g. ``"random"``,
            ``"hard"``, ``"alphabeta:time=0.5,tt_mb=16"``.
        seed: seeds the player's random choices; the same seed gives the same play under
            a limit that does not depend on the clock (``nodes``, ``depth``, ``playouts``).
        limit: the caller's limit, used unless the spec writes its own; it overrides a
            level's preset.

    Returns:
        the player, with ``default_limit`` set as the module's documentation says and
        ``name`` left as the class's (``alphabeta``...); record the spec text for a
        full name.

    Raises:
        UnknownPlayerError: for an unknown player or level, an unknown option or a bad
            option value, or a player that is not available yet.
        InvalidLimitError: for a bad ``time``/``nodes``/``depth``/``playouts`` value.
    """
    parsed = parse_spec(spec)
    cls = player_class(parsed.player)
    kwargs, takes_limit = _constructor_args(parsed, cls)
    default = parsed.default_limit(limit)
    if takes_limit and default is not None:
        kwargs["default_limit"] = default
    try:
        factory: Callable[..., Player] = cls
        player = factory(seed, **kwargs)
    except InvalidLimitError as error:
        raise InvalidLimitError(f"player spec {parsed.text!r}: {error}") from None
    except (TypeError, ValueError) as error:  # UnknownPlayerError too (a fallback's)
        raise UnknownPlayerError(f"player spec {parsed.text!r}: {error}") from None
    except MemoryError:  # alphabeta:tt_mb=99999999 allocates its table at once
        raise UnknownPlayerError(
            f"player spec {parsed.text!r}: not enough memory to make this player "
            f"(a smaller tt_mb?)") from None
    if default is not None and not takes_limit:
        player.default_limit = default
    return player


def takes_options(spec: str, names: Iterable[str]) -> set[str]:
    """Which of the constructor options ``names`` the player of ``spec`` takes (for an
    option a caller adds only where it applies, such as ``multipv``).

    Raises:
        UnknownPlayerError, InvalidLimitError: for a spec :func:`parse_spec` refuses, or
            a player that is not available.
    """
    parameters = inspect.signature(player_class(parse_spec(spec).player)).parameters
    takes_any = any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters.values())
    return {name for name in names
            if takes_any or (name in parameters and name not in _RESERVED)}


def with_options(spec: str, options: Mapping[str, str]) -> str:
    """``spec`` with those of ``options`` that its player takes and the spec does not
    set already, appended (``with_options("alphabeta", {"multipv": "3"})`` is
    ``"alphabeta:multipv=3"`` for a player with a ``multipv`` option, ``"alphabeta"``
    for one without).

    Raises:
        UnknownPlayerError, InvalidLimitError: as :func:`takes_options`.
    """
    parsed = parse_spec(spec)
    taken = takes_options(spec, options)
    added = [f"{key}={value}" for key, value in options.items()
             if key in taken and key not in parsed.options]
    if not added:
        return parsed.text
    separator = "," if ":" in parsed.text else ":"
    return parsed.text + separator + ",".join(added)


#: The largest seed :func:`move_seed` returns (seeds are 63-bit, for every player).
SEED_BITS = 63


def move_seed(seed: int, ply: int) -> int:
    """The seed of the player that makes the move after ``ply`` plies of a game whose
    seed is ``seed``: ``(seed * 1_000_003 + ply) mod 2**63``.

    A player of a varied level (:attr:`Level.varied`) made anew for each move with this
    seed (``make_player(spec, move_seed(seed, ply))``) draws the same among near-equal
    moves each time the game is replayed under a limit that does not depend on the clock
    (a level's ``depth``), whichever process searches it; the browser app records a
    game's seed in its record's ``Seed`` tag (docs/records.md).
    """
    return (seed * 1_000_003 + ply) % (1 << SEED_BITS)


def describe_levels() -> list[str]:
    """One line per level, ``easy: greedy: ...``, weakest first."""
    return [f"{name}: {level.description}" for name, level in LEVELS.items()]
