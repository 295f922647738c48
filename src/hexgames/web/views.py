"""What the server sends about games: boards, rules and players as JSON values
(docs/web-protocol.md), and the checks of what the page sends about them.

Only this module knows each game's pieces; the rest of the server goes through the board
API that both games share.
"""

from __future__ import annotations

import enum
import json
from types import ModuleType
from typing import Any

from hexgames import limits
from hexgames.core import HexgamesError
from hexgames.engine.players import PlayerSpec, check_spec, make_player
from hexgames.games import game_module
from hexgames.record import GameRecord, read_games

#: The player value for a person.
HUMAN = "human"
#: The largest transposition table an AI of the app may ask for, in megabytes (the cap
#: lives with the others).
MAX_TT_MB = limits.MAX_TT_MB

JSON = dict[str, Any]


class AppError(Exception):
    """A request the server refuses; ``status`` is the HTTP status (400 by default)."""

    status = 400


class TooLargeError(AppError):
    """A request body or a record over its cap (HTTP 413)."""

    status = 413


def upload_text(text: object) -> str:
    """The ``text`` field of an upload, which must be a string (checked before the
    upload counts against an account's imports: a request without one is no import).

    Raises:
        AppError: for a ``text`` that is no string.
    """
    if not isinstance(text, str):
        raise AppError("\"text\" must be the text of a .hgn record")
    return text


def uploaded_records(text: object, verb: str) -> list[GameRecord]:
    """The games of the text of a ``.hgn`` record a request sends to be stored (``verb``:
    "imported", "added", for the errors), within the caps of an import.

    Raises:
        AppError: for a ``text`` that is no string, no record (naming its first
            problem), or holds no game.
        TooLargeError: for a text over :data:`hexgames.limits.MAX_IMPORT_BYTES` or of
            more than :data:`hexgames.limits.MAX_IMPORT_GAMES` games.
    """
    text = upload_text(text)
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > limits.MAX_IMPORT_BYTES:
        raise TooLargeError(f"the record is {size} bytes long: an import may hold at most "
                            f"{limits.MAX_IMPORT_BYTES} (hexgames.limits.MAX_IMPORT_BYTES)")
    try:
        records = read_games(text)
    except HexgamesError as error:
        raise AppError(f"the record cannot be {verb}: {error}") from None
    if not records:
        raise AppError("the text holds no game")
    if len(records) > limits.MAX_IMPORT_GAMES:
        raise TooLargeError(f"the record holds {len(records)} games: an import may store "
                            f"at most {limits.MAX_IMPORT_GAMES} "
                            "(hexgames.limits.MAX_IMPORT_GAMES); nothing was stored")
    return records


def json_object(text: str | bytes, what: str) -> JSON:
    """``text`` parsed as a JSON object; ``what`` names it in the errors ("the message").

    Raises:
        AppError: for text that is not JSON, JSON nested too deeply for Python's parser,
            JSON that is not an object, or strings that are not Unicode text (a lone
            surrogate such as ``"\\udcff"``, which JSON allows and UTF-8 cannot hold:
            such a name, comment or tag reached SQLite and the record writer, which
            failed, and a game whose comment held one could no longer be saved).
    """
    try:
        value = json.loads(text)
    except ValueError:
        raise AppError(f"{what} is not JSON") from None
    except RecursionError:
        raise AppError(f"{what} is nested too deeply") from None
    if not isinstance(value, dict):
        raise AppError(f"{what} must be a JSON object")
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise AppError(f"{what} holds text that is not valid Unicode (a lone surrogate "
                       "such as \\udcff)") from None
    except RecursionError:
        raise AppError(f"{what} is nested too deeply") from None
    return value


class NotFoundError(AppError):
    """An unknown game id (HTTP 404)."""

    status = 404


class ConflictError(AppError):
    """An action out of turn or on a finished game (HTTP 409)."""

    status = 409


def move_text(move: Any) -> str:
    """A move (or anything with ``notation()``) in notation."""
    notation = getattr(move, "notation", None)
    return str(notation()) if callable(notation) else str(move)


def _json_value(value: object) -> object:
    return value.value if isinstance(value, enum.Enum) else value


def rules_json(rules: Any) -> JSON:
    """The options of ``rules`` that differ from the defaults, ``{"name": value}`` with
    JSON values (an enum as its text)."""
    default = type(rules)()
    return {name: _json_value(getattr(rules, name)) for name in rules.OPTION_KINDS
            if getattr(rules, name) != getattr(default, name)}


def options_json(module: ModuleType) -> list[JSON]:
    """The rules options of a game for the new-game form:
    ``[{"name", "kind": "bool"|"int"|"choice", "default", "choices", "nullable"}...]``."""
    default = module.Rules()
    options = []
    for name, kind in module.Rules.OPTION_KINDS.items():
        value = getattr(default, name)
        choices = None
        if isinstance(value, enum.Enum):
            shown, choices = "choice", [member.value for member in type(value)]
        elif kind == "bool":
            shown = "bool"
        elif kind in ("int", "int_or_none"):
            shown = "int"
        else:
            shown = "choice"
        options.append({"name": name, "kind": shown, "default": _json_value(value),
                        "choices": choices, "nullable": kind == "int_or_none"})
    return options


def rules_from_json(module: ModuleType, value: object) -> Any:
    """The game's ``Rules`` from ``{"name": value}`` (``null`` or missing: the defaults).

    Raises:
        AppError: naming the field when ``value`` is not an object of options, an option
            is unknown or its value is of the wrong type or out of range.
    """
    if value is None:
        return module.Rules()
    if not isinstance(value, dict):
        raise AppError(f"rules must be an object of options, not {type(value).__name__}")
    words = []
    kinds = module.Rules.OPTION_KINDS
    for name, option in value.items():
        if isinstance(option, bool) and \
                kinds.get(str(name).strip().lower()) in ("int", "int_or_none"):
            # (as "on"/"off" it read "takes a whole number, not 'on'": not what was sent)
            raise AppError(f"rules option {name} takes a whole number, not "
                           f"{'true' if option else 'false'}")
        if isinstance(option, bool):
            text = "on" if option else "off"
        elif option is None:
            text = "none"
        elif isinstance(option, int | str):
            text = str(option)
        else:
            raise AppError(f"rules option {name} must be true/false, a whole number, "
                           f"text or null, not {option!r}")
        if not text.strip() or any(c.isspace() for c in text):
            raise AppError(f"rules option {name}: {text!r} is not a value")
        words.append(f"{name}={text}")
    try:
        return module.Rules.from_options(words)
    except HexgamesError as error:
        raise AppError(f"rules: {error}") from None


def position_from_json(module: ModuleType, rules: Any, value: object) -> str | None:
    """The starting position of a new game from the request's ``position`` (a position
    string of docs/notation.md, or ``null``/missing for the standard start), written as the
    board writes it; ``None`` for the standard start.

    Raises:
        AppError: naming the problem for a value that is not a position string of this
            game under these rules, or a position whose game is over (the standard
            start too, under rules that end it at once: ``tiles_per_player=1``).
    """
    if value is None:
        start = module.Board(None, rules)
        outcome = start.outcome()
        if outcome is not None:
            raise AppError(f"under these rules the game is over before its first move "
                           f"({outcome.termination.value}): there is no game to play "
                           f"({', '.join(rules.options()) or 'the default rules'})")
        return None
    if not isinstance(value, str):
        raise AppError("\"position\" must be a position string, such as "
                       f"{module.Board(None, rules).position()!r}")
    try:
        board = module.Board(value, rules)
    except HexgamesError as error:
        raise AppError(f"position: {error}") from None
    if board.is_game_over():
        raise AppError("position: the game is over in that position, there is no move "
                       "to play")
    written = str(board.position())
    return None if written == module.Board(None, rules).position() else written


def check_players(value: object) -> list[str]:
    """Two player specs, ``"human"`` or any spec :func:`make_player` accepts (with a
    transposition table of at most :data:`MAX_TT_MB`), each of at most
    :data:`hexgames.limits.MAX_PLAYER_SPEC` characters.

    Raises:
        AppError: naming the problem when ``value`` is not a list of two such texts.
    """
    if value is None:
        return [HUMAN, HUMAN]
    if not isinstance(value, list) or len(value) != 2:
        raise AppError("players must be a list of two players, first player first, "
                       "e.g. [\"human\", \"hard\"]")
    players = []
    for side, spec in enumerate(value):
        if not isinstance(spec, str):
            raise AppError(f"players[{side}] must be text, not {type(spec).__name__}")
        if len(spec) > limits.MAX_PLAYER_SPEC:
            raise AppError(f"players[{side}] is {len(spec)} characters long: a player spec "
                           f"may be at most {limits.MAX_PLAYER_SPEC}")
        spec = spec.strip()
        if spec.lower() == HUMAN:
            players.append(HUMAN)
            continue
        # The player's name as the registry writes it ("Easy" was stored and shown as
        # "hexgames Easy", "HUMAN" as "human"); option values keep their case.
        name, sep, options = spec.partition(":")
        spec = name.strip().lower() + sep + options
        try:
            problem = _memory_problem(check_spec(spec))
            if problem is not None:
                raise AppError(f"players[{side}]: {problem}")
            # Made once now, so an option value that only the constructor checks
            # (mcts:exploration=-1) is refused here, not by every search of the game;
            # with the smallest table, so that a refused request costs no memory (a
            # solver makes its table when it is made: 1 GB for table_mb=1024).
            make_player(_smallest_tables(spec))
        except (HexgamesError, ValueError) as error:
            raise AppError(f"players[{side}]: {error}") from None
        players.append(spec)
    return players


#: The options that size a player's memory (its transposition table, solver table or
#: MCTS tree), in megabytes: each at most :data:`MAX_TT_MB` in the app.
MEMORY_OPTIONS = ("tt_mb", "table_mb", "tree_mb")


def _smallest_tables(spec: str) -> str:
    """``spec`` with each option of :data:`MEMORY_OPTIONS` that is a whole number from 1
    to :data:`MAX_TT_MB` set to 1 (MB): the player it makes checks every other option
    as the spec's would, and takes no memory. Another value is left for the player to
    refuse."""
    parsed = check_spec(spec)
    if not any(_size_ok(parsed.options.get(key)) for key in MEMORY_OPTIONS):
        return spec
    name, _, text = spec.partition(":")
    words = []
    for word in text.split(","):
        key, sep, value = word.partition("=")
        if sep and key.strip() in MEMORY_OPTIONS and _size_ok(value.strip()):
            word = f"{key}=1"
        words.append(word)
    return f"{name}:{','.join(words)}"


def _size_ok(value: str | None) -> bool:
    return value is not None and value.isascii() and value.isdigit() and \
        1 <= int(value) <= MAX_TT_MB


def _memory_problem(parsed: PlayerSpec) -> str | None:
    """Why the player ``parsed`` may take more memory than the app allows, or ``None``:
    an option of :data:`MEMORY_OPTIONS` above :data:`MAX_TT_MB`, in the spec or in its
    fallback's. Checked before the player is made, which makes a solver's table."""
    for key in MEMORY_OPTIONS:
        value = parsed.options.get(key)
        try:
            too_much = value is not None and int(value) > MAX_TT_MB
        except ValueError:  # no number: making the player says so
            too_much = False
        if too_much:
            return f"{key}={value}: an AI of this app may use at most {MAX_TT_MB} MB"
    inner = parsed.options.get("fallback")
    problem = None if inner is None else _memory_problem(check_spec(inner))
    return None if problem is None else f"fallback {inner}: {problem}"


def winner(board: Any, result: str) -> int | None:
    """The winning side (0 or 1) of a game whose result is ``result``, else ``None``."""
    outcome = board.outcome()
    if outcome is not None:
        return outcome.winner  # type: ignore[no-any-return]
    return {"1-0": 0, "0-1": 1}.get(result)


def _game_of(board: Any) -> ModuleType:
    """The module of ``board``'s game (:mod:`hexgames.andantino`, :mod:`hexgames.abande`)."""
    return game_module(type(board).__module__.rpartition(".")[2])


def cell_text(board: Any, cell: tuple[int, int]) -> str:
    """A cell of ``board``'s game in notation: ``0,1`` (Andantino), ``d4`` (Abande)."""
    module = _game_of(board)
    if module.GAME_NAME == "Abande":
        return str(module.cell_name(cell))
    return f"{cell[0]},{cell[1]}"


def moves_json(board: Any) -> JSON:
    """The legal moves of the position for the page, in parts that grow with the
    position, not with its square (issue 32): ``legal``, the moves that move no piece
    (placements, entries, the pass) in notation, and ``sources``, the cells of the
    pieces that a legal move moves (a tile to relocate, a stack to capture with), whose
    targets the page asks for one at a time (:func:`targets_json`)."""
    return {"legal": [move_text(move) for move in board.legal_moves_from(None)],
            "sources": [cell_text(board, cell) for cell in board.legal_sources()]}


def targets_json(board: Any, text: str) -> JSON:
    """The ``targets`` message: the cells that the piece on the cell ``text`` may move
    to (``[]`` for a cell without a piece of the side to move that can move), with the
    position's string, by which the page knows which position they are of.

    Raises:
        AppError: for ``text`` that is not a cell of the game.
    """
    if len(text) > limits.MAX_MOVE_TEXT:
        raise AppError(f"\"from\" is {len(text)} characters long: no cell is longer "
                       f"than {limits.MAX_MOVE_TEXT}")
    try:
        cell = _game_of(board).parse_cell(text)
        moves = board.legal_moves_from(cell)
    except HexgamesError as error:
        raise AppError(f"\"from\" must be a cell of the board, such as "
                       f"{cell_text(board, (0, 0))}: {error}") from None
    return {"type": "targets", "from": cell_text(board, cell),
            "position": board.position(),
            "targets": [cell_text(board, move.to) for move in moves]}


def board_json(board: Any) -> JSON:
    """The BOARD value of the protocol for an Andantino or Abande board, with its
    position string (``position``)."""
    last = move_text(board.peek()) if board.move_stack else None
    position = board.position()
    game = position.split(maxsplit=1)[0]
    shown = _abande_json(board, last) if game == "abande" else _andantino_json(board, last)
    shown["position"] = position
    return shown


def _andantino_json(board: Any, last: str | None) -> JSON:
    from hexgames.andantino import Move
    from hexgames.hexgrid import neighbours

    def text(cell: tuple[int, int]) -> str:
        return Move(cell).notation()

    tiles = [{"cell": text(cell), "q": cell[0], "r": cell[1], "side": side}
             for side in (0, 1) for cell in sorted(board.tiles(side), key=lambda c: (c[1], c[0]))]
    hands = [board.hand(0), board.hand(1)]
    outcome = board.outcome()
    line = trapped = None
    if outcome is not None:
        line = [text(c) for c in sorted(outcome.line)] or None
        trapped = [text(c) for c in sorted(outcome.trapped)] or None
    single = None
    if board.rules.single_adjacency:
        # the balance variant: Red's one placement touching a single tile (docs/rules.md)
        used = bool(board.single_adjacency_used)
        cells: list[str] = []
        if not used and int(board.turn) == 1 and outcome is None:
            occupied = board.tiles(0) | board.tiles(1)
            cells = [move.notation() for move in board.legal_moves_from(None)
                     if sum(n in occupied for n in neighbours(move.to)) == 1]
        single = {"used": used, "cells": cells}
    return {"tiles": tiles, "hands": None if hands[0] is None else hands, "line": line,
            "trapped": trapped, "last": last, "single": single}


def _abande_json(board: Any, last: str | None) -> JSON:
    from hexgames.abande import PASS, cell_name

    stacks = [{"cell": cell_name(cell), "q": cell[0], "r": cell[1],
               "pieces": [int(piece) for piece in pieces]}
              for cell, pieces in board.stacks().items()]
    awake = [cell_name(cell) for cell in board.stacks() if board.awake(cell)]
    asleep = board.sleeping()
    sleeping = [cell_name(cell) for cell in board.stacks() if cell in asleep]
    pass_legal = not board.is_game_over() and PASS in board.legal_moves_from(None)
    return {"stacks": stacks, "hands": list(board.hands), "score": list(board.score()),
            "awake": awake, "sleeping": sleeping, "pass_legal": pass_legal, "last": last}


def message_field(message: JSON, name: str, kind: type) -> Any:
    """``message[name]``, checked to be of ``kind`` (``bool`` is no ``int``).

    Raises:
        AppError: naming the field when it is missing or of another type.
    """
    kind_name = {str: "text", int: "a whole number", bool: "true or false"}[kind]
    if name not in message:
        raise AppError(f"a {message.get('type')} message needs \"{name}\" ({kind_name})")
    value = message[name]
    if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
        raise AppError(f"\"{name}\" must be {kind_name}, not {json.dumps(value)[:40]}")
    return value
