"""Game records (``.hgn``): reading, validating and writing (NOTATION.md, "Game records").

A record is PGN-like: tag pairs ``[Name "value"]``, then the move text, e.g.::

    [Game "Andantino"]
    [White "Alice"]
    [Red "Bob"]
    [Result "1-0"]
    [Termination "line"]

    1. 0,1 1,1 2. -1,1 -1,0 {a comment} 3. 0,-1 1,-1 4. 0,2 -1,-1 5. 0,-2 1-0

Several games may follow each other, separated by a blank line. Every game is served
through :func:`hexgames.games.game_module`, so this module knows nothing of one game's
rules: it uses the game module's ``GAME_NAME``, ``PLAYER_TAGS``, ``Rules`` and ``Board``.

Reading is in two steps. :func:`parse_games` only reads the text (and checks the tags it
needs to number the moves: ``Game``, ``Rules``, ``Position``); :meth:`GameRecord.validate`
replays the moves and checks ``Result``, ``Termination`` and ``Score`` against them.
:func:`read_games` does both.

Conventions of this reader and writer where NOTATION.md leaves a choice:

- Tag values escape ``\\`` and ``"`` with a backslash; a value is one line.
- Comments are ``{...}`` (no nesting); surrounding whitespace is not kept, and two
  comments at the same place are joined with a space.
- Move numbers (``12.`` or ``12...``) are optional but, when present, must fit the ply;
  ``12...`` marks a move of the second player. A set-up position with the second player to
  move starts with ``1...``.
- A game's move text ends at its result token; anything but comments after it is an
  error, and so is move text that stops (at a blank line, a new tag section or the end of
  the text) without one. The ``Game`` and ``Result`` tags are required (NOTATION.md).
- Error messages quote at most 60 characters of the text they are about.
"""

from __future__ import annotations

import datetime
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any, NoReturn, Protocol

from hexgames.core import HexgamesError, Outcome, Termination
from hexgames.games import GAME_NAMES, game_module

__all__ = [
    "RESULTS",
    "TERMINATIONS",
    "GameBoard",
    "GameRecord",
    "RecordError",
    "RecordMoveError",
    "RecordResultError",
    "RecordSyntaxError",
    "parse_games",
    "read_game",
    "read_games",
    "record_from_board",
    "write_game",
    "write_games",
]

#: The values of the ``Result`` tag, from the first player's point of view.
RESULTS = ("1-0", "0-1", "1/2-1/2", "*")
#: The values of the ``Termination`` tag (NOTATION.md).
TERMINATIONS = tuple(t.value for t in Termination)
#: Terminations that end a game before its moves do.
_EARLY_ENDS = (Termination.RESIGNATION.value, Termination.TIME_FORFEIT.value)
_LEADING_TAGS = ("Game", "Event", "Site", "Date", "Round")
_TRAILING_TAGS = ("Rules", "Position", "Result", "Termination", "Score")
#: Tags that record_from_board takes from the board and its arguments.
_BOARD_TAGS = frozenset({"Game", "Rules", "Position", "Result", "Termination", "Score"})
_LINE_WIDTH = 80

_TAG_NAME_RE = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_TAG_RE = re.compile(
    r'\[[^\S\n]*([A-Za-z][A-Za-z0-9_]*)[^\S\n]*"((?:[^"\\\n]|\\.)*)"[^\S\n]*\]')
_SPACE_RE = re.compile(r"[^\S\n]+")
_WORD_RE = re.compile(r"[^\s\[{]+")
_NUMBER_RE = re.compile(r"([0-9]+)(\.(?:\.\.)?)(.*)", re.DOTALL)
# What may be a move in some game (Andantino 0,1 and 2,-1>0,3; Abande d4, c3-d4, pass):
# it is read as a move and judged by the game when the record is validated.
_MOVE_RE = re.compile(r"[A-Za-z0-9(),>\-]*[A-Za-z0-9][A-Za-z0-9(),>\-]*")
_SCORE_RE = re.compile(r"[0-9]+-[0-9]+")
_MAX_NUMBER_DIGITS = 12
#: Characters of offending text quoted in an error message.
_SHOWN = 60


def _shorten(text: str, limit: int = _SHOWN) -> str:
    """``text`` cut to ``limit`` characters, the cut marked by an ellipsis."""
    return text if len(text) <= limit else text[:limit - 1] + "\u2026"


def _quote(text: str) -> str:
    """``text`` quoted for an error message (``repr``, at most about 60 characters)."""
    return repr(_shorten(text))


# A word is a run without spaces, quotes, brackets or an ellipsis (a word already cut).
_LONG_WORD_RE = re.compile(rf"[^\s'\"()\[\]{{}}\u2026]{{{_SHOWN + 1},}}")


def _shorten_in(message: str, text: str) -> str:
    """``message`` (a game's own error message about ``text``) with each quotation of a
    long ``text``, and any other over-long word, shortened."""
    if len(text) > _SHOWN:
        message = message.replace(repr(text), _quote(text)).replace(text, _shorten(text))
    return _LONG_WORD_RE.sub(lambda m: _shorten(m.group()), message)


# --- the interface of a game's board, as records use it --------------------------------


class GameMove(Protocol):
    """A move of any game: it has a canonical notation."""

    def notation(self) -> str: ...


class GameRules(Protocol):
    """The rules options of any game."""

    def options(self) -> list[str]: ...


class GameBoard(Protocol):
    """What records need of a game's ``Board`` (see :mod:`hexgames.games`)."""

    @property
    def turn(self) -> int: ...

    @property
    def rules(self) -> GameRules: ...

    @property
    def move_stack(self) -> Sequence[GameMove]: ...

    def parse_notation(self, text: str) -> GameMove: ...

    def push(self, move: Any) -> None: ...

    def is_game_over(self) -> bool: ...

    def outcome(self) -> Outcome | None: ...

    def result(self) -> str: ...

    def position(self) -> str: ...

    def root(self) -> GameBoard: ...


# --- errors ---------------------------------------------------------------------------


class RecordError(HexgamesError):
    """Base class of the errors about a game record (a ``ValueError``)."""

    game_index: int | None = None


class RecordSyntaxError(RecordError):
    """Text that is not a readable record, or a tag whose value is malformed.

    Attributes:
        message: what is wrong, without the location.
        game_index: the 1-based index of the game in the text, when known.
        line: the 1-based line number in the text, when known.
    """

    def __init__(self, message: str, *, game_index: int | None = None,
                 line: int | None = None) -> None:
        where = []
        if game_index is not None:
            where.append(f"game {game_index}")
        if line is not None:
            where.append(f"line {line}")
        super().__init__(f"{', '.join(where)}: {message}" if where else message)
        self.message = message
        self.game_index = game_index
        self.line = line


class RecordMoveError(RecordError):
    """A move of the record that is malformed, illegal, or played after the end.

    ``str()`` reads ``game 1, move 3 (3. 0,-1): illegal move 0,-1: ...`` (a move text
    longer than 60 characters is shortened there, not in :attr:`move_text`).

    Attributes:
        game_index: the 1-based index of the game.
        move_number: the full-turn number of the move (NOTATION.md).
        ply: the 1-based ply of the move in the record.
        move_text: the move as written.
        reason: why it cannot be played (the game's own message).
        line: the line of the move in the text, when known.
    """

    def __init__(self, *, game_index: int, move_number: int, ply: int, move_text: str,
                 reason: str, second_player: bool = False, line: int | None = None) -> None:
        dots = "..." if second_player else "."
        super().__init__(
            f"game {game_index}, move {move_number} ({move_number}{dots} "
            f"{_shorten(move_text)}): {_shorten_in(reason, move_text)}")
        self.game_index = game_index
        self.move_number = move_number
        self.ply = ply
        self.move_text = move_text
        self.reason = reason
        self.line = line


class RecordResultError(RecordError):
    """A ``Result``, ``Termination`` or ``Score`` tag that disagrees with the moves.

    Attributes:
        game_index: the 1-based index of the game.
        tag: the name of the tag at fault.
        value: what the tag says (``None`` when the tag is missing but needed).
        actual: what the moves give (a result, termination or score text), or ``None``
            when the moves do not end the game.
    """

    def __init__(self, message: str, *, game_index: int, tag: str, value: str | None,
                 actual: str | None) -> None:
        super().__init__(f"game {game_index}: {message}")
        self.game_index = game_index
        self.tag = tag
        self.value = value
        self.actual = actual


# --- the record -----------------------------------------------------------------------


@dataclass
class GameRecord:
    """One game of a record file.

    Attributes:
        tags: tag name -> value, in the order read; after parsing ``Game`` (spelled as
            the game's ``GAME_NAME``) and ``Result`` are always present.
        moves: the move texts as written in the move text, in order.
        comments: ply count -> the comment after that many plies (0: before the first
            move).
        game_index: the 1-based index of the game in its file (not compared).
        tag_lines, move_lines: line numbers in the text read, for error messages (not
            compared; empty for a record built in code).
    """

    tags: dict[str, str]
    moves: list[str]
    comments: dict[int, str] = field(default_factory=dict)
    game_index: int = field(default=1, compare=False)
    tag_lines: dict[str, int] = field(default_factory=dict, compare=False, repr=False)
    move_lines: list[int] = field(default_factory=list, compare=False, repr=False)

    @property
    def game(self) -> str:
        """The lower-case name of the game's module (``"andantino"``, ``"abande"``).

        Raises:
            RecordSyntaxError: if the ``Game`` tag is missing or names no known game.
        """
        return _module_name(_game_module(self.tags, self.game_index, self.tag_lines))

    @property
    def result(self) -> str:
        """The ``Result`` tag (``"*"`` when missing, as only a record built in code can be)."""
        return self.tags.get("Result", "*")

    def rules(self) -> GameRules:
        """The game's ``Rules`` from the ``Rules`` tag (the defaults when missing).

        Raises:
            RecordSyntaxError: for a bad ``Game`` or ``Rules`` tag.
        """
        module = _game_module(self.tags, self.game_index, self.tag_lines)
        rules: GameRules = _rules(module, self.tags, self.game_index, self.tag_lines)
        return rules

    def starting_board(self) -> GameBoard:
        """A board at the ``Position`` tag, or at the standard start, under :meth:`rules`.

        Raises:
            RecordSyntaxError: for a bad ``Game``, ``Rules`` or ``Position`` tag.
        """
        module = _game_module(self.tags, self.game_index, self.tag_lines)
        rules = _rules(module, self.tags, self.game_index, self.tag_lines)
        return _start(module, rules, self.tags, self.game_index, self.tag_lines)

    def board(self, ply: int | None = None) -> GameBoard:
        """The board after the first ``ply`` plies (all of them when ``None``).

        Raises:
            RecordSyntaxError: for a bad ``Game``, ``Rules`` or ``Position`` tag.
            RecordMoveError: for the first move that cannot be played.
            RecordError: if ``ply`` is negative or beyond the moves.
        """
        if ply is not None and not 0 <= ply <= len(self.moves):
            raise RecordError(
                f"game {self.game_index}: ply {ply} is out of range "
                f"(the record has {len(self.moves)} plies)")
        board = self.starting_board()
        offset = int(board.turn)
        for index, text in enumerate(self.moves[:ply]):
            if board.is_game_over():
                self._move_error(index, offset, text,
                                 f"the game is over: it ended {_describe(board)} "
                                 f"after ply {index}")
            try:
                move = board.parse_notation(text)
                board.push(move)
            except ValueError as exc:
                self._move_error(index, offset, text, str(exc), exc)
        return board

    def validate(self) -> None:
        """Check the tags, replay every move and check ``Result``, ``Termination`` and
        ``Score`` against the end of the game (NOTATION.md).

        A game the moves end must carry their result (and their termination and score,
        when those tags are present). A game they do not end is ``*``, or a decisive
        result with ``Termination`` ``resignation`` or ``time-forfeit``; it cannot be
        drawn (there are no agreed draws).

        Raises:
            RecordSyntaxError: for a malformed tag.
            RecordMoveError: for the first move that cannot be played.
            RecordResultError: when ``Result``, ``Termination`` or ``Score`` disagree.
        """
        _check_tags(self.tags, self.game_index, self.tag_lines)
        board = self.board()
        _check_end(self.tags, board, self.game_index)

    def _move_error(self, index: int, offset: int, text: str, reason: str,
                    cause: Exception | None = None) -> NoReturn:
        ply = index + offset
        line = self.move_lines[index] if index < len(self.move_lines) else None
        raise RecordMoveError(
            game_index=self.game_index, move_number=ply // 2 + 1, ply=index + 1,
            move_text=text, reason=reason, second_player=ply % 2 == 1, line=line,
        ) from cause


# --- tags -----------------------------------------------------------------------------


def _module_name(module: ModuleType) -> str:
    return module.__name__.rpartition(".")[2]


def _game_module(tags: Mapping[str, str], game_index: int,
                 lines: Mapping[str, int], line: int | None = None) -> ModuleType:
    if "Game" not in tags:
        found = [name for name in tags if name.lower() == "game"]
        hint = f"; tag names are case-sensitive, not {_quote(found[0])}" if found else ""
        raise RecordSyntaxError(
            f"no Game tag (it names the game: {', '.join(GAME_NAMES)}){hint}",
            game_index=game_index, line=lines.get(found[0]) if found else line)
    try:
        return game_module(tags["Game"])
    except ValueError:
        raise RecordSyntaxError(
            f"Game tag {_quote(tags['Game'])} names no known game (known: {', '.join(GAME_NAMES)})",
            game_index=game_index, line=lines.get("Game")) from None


def _rules(module: ModuleType, tags: Mapping[str, str], game_index: int,
           lines: Mapping[str, int]) -> Any:
    try:
        return module.Rules.from_options(tags.get("Rules", ""))
    except ValueError as exc:
        raise RecordSyntaxError(f"bad Rules tag {_quote(tags['Rules'])}: "
                                f"{_shorten_in(str(exc), tags['Rules'])}",
                                game_index=game_index, line=lines.get("Rules")) from exc


def _start(module: ModuleType, rules: Any, tags: Mapping[str, str], game_index: int,
           lines: Mapping[str, int]) -> GameBoard:
    position = tags.get("Position")
    try:
        board: GameBoard = module.Board(position, rules)
    except ValueError as exc:
        assert position is not None  # the standard start is never bad
        raise RecordSyntaxError(f"bad Position tag {_quote(position)}: "
                                f"{_shorten_in(str(exc), position)}",
                                game_index=game_index, line=lines.get("Position")) from exc
    return board


def _check_tags(tags: Mapping[str, str], game_index: int, lines: Mapping[str, int],
                line: int | None = None) -> tuple[ModuleType, GameBoard]:
    """Check the tags the reader understands; return the game module and the start."""
    module = _game_module(tags, game_index, lines, line)
    result = tags.get("Result")
    if result is not None and result not in RESULTS:
        raise RecordSyntaxError(
            f"Result tag {_quote(result)} is not one of {', '.join(RESULTS)}",
            game_index=game_index, line=lines.get("Result"))
    termination = tags.get("Termination")
    if termination is not None and termination not in TERMINATIONS:
        raise RecordSyntaxError(
            f"Termination tag {_quote(termination)} is not one of {', '.join(TERMINATIONS)}",
            game_index=game_index, line=lines.get("Termination"))
    score = tags.get("Score")
    if score is not None and not _SCORE_RE.fullmatch(score):
        raise RecordSyntaxError(
            f"Score tag {_quote(score)} is not <first player>-<second player> such as 15-10",
            game_index=game_index, line=lines.get("Score"))
    rules = _rules(module, tags, game_index, lines)
    return module, _start(module, rules, tags, game_index, lines)


def _ordered_tags(tags: Mapping[str, str], module: ModuleType) -> dict[str, str]:
    """``tags`` in the writer's order: Game, Event, Site, Date, Round, the players,
    Rules, Position, Result, Termination, Score, then the others as given."""
    order = (*_LEADING_TAGS, *module.PLAYER_TAGS, *_TRAILING_TAGS)
    ordered = {name: tags[name] for name in order if name in tags}
    ordered.update((name, value) for name, value in tags.items() if name not in ordered)
    return ordered


def _check_tag_text(name: str, value: str) -> None:
    if not isinstance(name, str) or not _TAG_NAME_RE.fullmatch(name):
        shown = _quote(name) if isinstance(name, str) else repr(name)
        raise RecordError(
            f"tag name {shown} cannot be written: it must be a letter, then letters, "
            "digits or _")
    if not isinstance(value, str) or "\n" in value or "\r" in value:
        raise RecordError(f"tag {name} cannot be written: its value must be one line of text")


# --- the end of a game ----------------------------------------------------------------


def _player(board: GameBoard, color: int) -> str:
    module = game_module(board.position().split(maxsplit=1)[0])
    return str(module.PLAYER_TAGS[color])


def _describe(board: GameBoard) -> str:
    """How the moves leave the game, e.g. ``1-0 (White wins by line)``."""
    outcome = board.outcome()
    if outcome is None:
        return f"* (not over, {_player(board, int(board.turn))} to move)"
    how = outcome.termination.value
    if outcome.winner is None:
        return f"{outcome.result()} (a draw by {how})"
    return f"{outcome.result()} ({_player(board, outcome.winner)} wins by {how})"


def _check_end(tags: Mapping[str, str], board: GameBoard, game_index: int) -> None:
    """Check Result, Termination and Score against the board the moves reach."""
    result = tags.get("Result", "*")
    termination = tags.get("Termination")
    score = tags.get("Score")

    def fail(message: str, tag: str, value: str | None, actual: str | None) -> NoReturn:
        raise RecordResultError(message, game_index=game_index, tag=tag, value=value,
                                actual=actual)

    outcome = board.outcome()
    plies = len(board.move_stack)
    if outcome is not None:
        actual = outcome.result()
        how = outcome.termination.value
        if result != actual:
            fail(f"Result tag says {result} but the moves give {_describe(board)}",
                 "Result", result, actual)
        if termination is not None and termination != how:
            fail(f"Termination tag says {termination} but the moves end the game by {how}",
                 "Termination", termination, how)
        if score is not None:
            if outcome.score is None:
                fail(f"Score tag says {score} but the moves give no score "
                     f"(the game ended by {how})", "Score", score, None)
            given = f"{outcome.score[0]}-{outcome.score[1]}"
            if score != given:
                fail(f"Score tag says {score} but the moves give {given}",
                     "Score", score, given)
        return
    unfinished = f"the moves do not end the game ({plies} plies, {_describe(board)})"
    if score is not None:
        fail(f"Score tag says {score} but {unfinished}, so there is no score",
             "Score", score, None)
    if result == "*":
        if termination is not None:
            fail(f"Termination tag says {termination} but the Result is * (unfinished)",
                 "Termination", termination, None)
    elif result == "1/2-1/2":
        fail(f"Result tag says 1/2-1/2 but {unfinished}; there are no agreed draws",
             "Result", result, None)
    elif termination not in _EARLY_ENDS:
        said = "" if termination is None else f", not {termination}"
        fail(f"Result tag says {result} but {unfinished}; a result before the end needs "
             f"Termination {' or '.join(_EARLY_ENDS)}{said}",
             "Termination", termination, None)


# --- reading --------------------------------------------------------------------------


@dataclass
class _Draft:
    """A game being read."""

    index: int
    first_line: int = 0
    last_line: int = 0  # the line of the last thing read
    tags: dict[str, str] = field(default_factory=dict)
    tag_lines: dict[str, int] = field(default_factory=dict)
    moves: list[str] = field(default_factory=list)
    move_lines: list[int] = field(default_factory=list)
    comments: dict[int, list[str]] = field(default_factory=dict)
    result: tuple[str, int] | None = None  # the result token and its line
    number: tuple[str, int, int] | None = None  # pending move number: text, value, line
    in_moves: bool = False
    blank_after_tags: bool = False
    module: ModuleType | None = None
    offset: int = 0  # 1 when the second player moves first

    def empty(self) -> bool:
        return not self.tags and not self.in_moves

    def fail(self, message: str, line: int | None) -> NoReturn:
        raise RecordSyntaxError(message, game_index=self.index, line=line)

    def begin_moves(self, line: int | None) -> None:
        """The tag section is over: check it and learn who moves first."""
        self.module, start = _check_tags(self.tags, self.index, self.tag_lines,
                                         line or self.first_line)
        if "Result" not in self.tags:
            found = [name for name in self.tags if name.lower() == "result"]
            hint = (f"; tag names are case-sensitive, not {_quote(found[0])}" if found
                    else "")
            self.fail(f"no Result tag (it is required: the result, one of "
                      f"{', '.join(RESULTS)}){hint}",
                      self.tag_lines.get(found[0]) if found else line or self.first_line)
        self.offset = int(start.turn)
        self.in_moves = True

    def add_word(self, token: str, line: int) -> None:
        if not self.in_moves:
            self.begin_moves(line)
        while token:
            if self.result is not None:
                self.fail(f"unexpected {_quote(token)} after the result {self.result[0]}",
                          line)
            m = _NUMBER_RE.fullmatch(token)
            if m is not None:
                self.check_no_number()
                digits, dots, token = m.groups()
                if len(digits) > _MAX_NUMBER_DIGITS:
                    self.fail(f"move number {_shorten(digits + dots)} is out of range", line)
                self.number = (digits + dots, int(digits), line)
                continue
            if token in RESULTS:
                self.check_no_number()
                self.result = (token, line)
                return
            if _MOVE_RE.fullmatch(token):
                self.add_move(token, line)
                return
            self.fail(f"unexpected {_quote(token)}: not a move, move number, result or comment",
                      line)

    def check_no_number(self) -> None:
        if self.number is not None:
            self.fail(f"move number {self.number[0]} is not followed by a move",
                      self.number[2])

    def add_move(self, token: str, line: int) -> None:
        ply = len(self.moves) + self.offset
        if self.number is not None:
            text, value, number_line = self.number
            expected = ply // 2 + 1
            second = ply % 2 == 1
            assert self.module is not None
            if value != expected:
                dots = "..." if second else "."
                self.fail(f"move number {text} does not fit: ply {len(self.moves) + 1} "
                          f"({_shorten(token)}) is move {expected}{dots}", number_line)
            if text.endswith("...") and not second:
                player = self.module.PLAYER_TAGS[0]
                self.fail(f"move number {text} marks a second player's move, but "
                          f"{_shorten(token)} is {player}'s", number_line)
            self.number = None
        self.moves.append(token)
        self.move_lines.append(line)

    def add_comment(self, text: str, line: int) -> None:
        if not self.in_moves:
            self.begin_moves(line)
        self.comments.setdefault(len(self.moves), []).append(text.strip())

    def finish(self) -> GameRecord:
        if not self.in_moves:
            self.begin_moves(None)
        self.check_no_number()
        assert self.module is not None
        self.tags["Game"] = self.module.GAME_NAME
        if self.result is None:
            where = "the move text" if self.moves or self.comments else "the game"
            self.fail(f"{where} ends without a result token: it must end with one of "
                      f"{', '.join(RESULTS)} (the Result tag is {self.tags['Result']})",
                      self.last_line or self.first_line)
        token, line = self.result
        tag = self.tags["Result"]
        if tag != token:
            self.fail(f"result token {token} disagrees with the Result tag {tag}", line)
        comments = {ply: " ".join(part for part in parts if part)
                    for ply, parts in self.comments.items()}
        return GameRecord(self.tags, self.moves, comments, self.index, self.tag_lines,
                          self.move_lines)


def _unescape(raw: str, name: str, draft: _Draft, line: int) -> str:
    def replace(m: re.Match[str]) -> str:
        if m.group(1) not in '\\"':
            draft.fail(f"tag {_shorten(name)}: unknown escape \\{m.group(1)} "
                       '(only \\\\ and \\" are allowed)', line)
        return m.group(1)

    return re.sub(r"\\(.)", replace, raw)


def parse_games(text: str) -> list[GameRecord]:
    """Read every game of ``text`` without replaying the moves.

    Tolerates any whitespace, CRLF or CR line ends and a UTF-8 byte order mark. Checks the
    syntax, the ``Game``, ``Rules``, ``Position``, ``Result``, ``Termination`` and
    ``Score`` tag values, the move numbers against the plies, and the result token that
    must end every game's move text against the ``Result`` tag, which is required
    (NOTATION.md). Use :meth:`GameRecord.validate` (or :func:`read_games`) to check the
    moves.

    Returns:
        the games in order (``[]`` for empty or blank text); ``game_index`` counts from 1.

    Raises:
        RecordSyntaxError: for the first unreadable part, with its game and line: a broken
            tag line, a duplicate tag, an unterminated ``{`` comment, a missing or
            unknown ``Game`` tag, a missing ``Result`` tag, a bad tag value, a move number
            that does not fit its ply, move text without a result token at its end, a
            result token that disagrees with the ``Result`` tag, or a stray token.
    """
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    records: list[GameRecord] = []
    draft = _Draft(1)
    pos, line, end = 0, 1, len(text)
    line_has_content = False

    def next_game() -> None:
        nonlocal draft
        if not draft.empty():
            records.append(draft.finish())
            draft = _Draft(draft.index + 1)

    while pos < end:
        char = text[pos]
        if char == "\n":
            if not line_has_content:
                if draft.in_moves:
                    next_game()
                elif draft.tags:
                    draft.blank_after_tags = True
            line += 1
            pos += 1
            line_has_content = False
            continue
        space = _SPACE_RE.match(text, pos)
        if space is not None:
            pos = space.end()
            continue
        line_has_content = True
        if char == "[" and (draft.in_moves or draft.blank_after_tags):
            next_game()
        if draft.empty():
            draft.first_line = line
        if char == "[":
            tag = _TAG_RE.match(text, pos)
            if tag is None:
                snippet = text[pos:].split("\n", 1)[0][:60]
                draft.fail(f'broken tag line {snippet!r}: a tag is [Name "value"] with '
                           'the value escaping \\ and " by a backslash', line)
            name = tag.group(1)
            if name in draft.tags:
                draft.fail(f"tag {_shorten(name)} is given twice", line)
            draft.tags[name] = _unescape(tag.group(2), name, draft, line)
            draft.tag_lines[name] = line
            pos = tag.end()
        elif char == "{":
            close = text.find("}", pos + 1)
            if close < 0:
                draft.fail("unterminated comment: '{' without a closing '}'", line)
            body = text[pos + 1:close]
            draft.add_comment(body, line)
            line += body.count("\n")
            pos = close + 1
        else:
            word = _WORD_RE.match(text, pos)
            assert word is not None  # char is neither space, "[" nor "{"
            draft.add_word(word.group(), line)
            pos = word.end()
        draft.last_line = line
    next_game()
    return records


def read_games(text: str) -> list[GameRecord]:
    """Read and validate every game of ``text``: :func:`parse_games`, then
    :meth:`GameRecord.validate` on each game in order.

    Raises:
        RecordSyntaxError, RecordMoveError, RecordResultError: the first problem found.
    """
    records = parse_games(text)
    for record in records:
        record.validate()
    return records


def read_game(text: str) -> GameRecord:
    """Read and validate the one game of ``text``.

    Raises:
        RecordSyntaxError: if ``text`` holds no game or more than one.
        RecordMoveError, RecordResultError: as :func:`read_games`.
    """
    records = parse_games(text)
    if len(records) != 1:
        raise RecordSyntaxError(f"expected one game, found {len(records)}")
    records[0].validate()
    return records[0]


# --- writing --------------------------------------------------------------------------


def _escape(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _comment_text(record: GameRecord, ply: int) -> str:
    text = record.comments[ply]
    if not isinstance(text, str) or "}" in text:
        raise RecordError(
            f"game {record.game_index}: the comment after ply {ply} cannot be written: "
            "a comment is text without '}'")
    return f"{{{text}}}"


def _wrap(units: list[str]) -> list[str]:
    """Join ``units`` with spaces into lines of at most ``_LINE_WIDTH`` characters where
    possible; a unit is never split (a comment keeps its own line breaks)."""
    lines: list[str] = []
    current = ""
    for unit in units:
        first = unit.split("\n", 1)[0]
        if current and len(current) + 1 + len(first) > _LINE_WIDTH:
            lines.append(current)
            current = unit
        else:
            current = f"{current} {unit}" if current else unit
        if "\n" in current:
            *done, current = current.split("\n")
            lines.extend(done)
    lines.append(current)
    return lines


def write_game(record: GameRecord) -> str:
    """The ``.hgn`` text of ``record``: tag lines, a blank line, the move text wrapped at
    about 80 characters, ending with the result token and a newline.

    Tags are written in the order Game, Event, Site, Date, Round, the game's player
    tags, Rules, Position, Result, Termination, Score, then the others as given; a
    missing ``Result`` is written as ``*``. The moves are written as they are, not
    replayed (use :meth:`GameRecord.validate` for that).

    Raises:
        RecordSyntaxError: for a tag value the reader would reject (Game, Rules,
            Position, Result, Termination, Score).
        RecordError: for text that cannot be written readably: a tag name that is not a
            word, a tag value with a line break, a move that is not one token, a comment
            with ``}``, or a comment at a ply outside the moves.
    """
    module, start = _check_tags(record.tags, record.game_index, record.tag_lines)
    tags = dict(record.tags)
    tags["Game"] = module.GAME_NAME
    tags.setdefault("Result", "*")
    result = tags["Result"]
    lines = []
    for name, value in _ordered_tags(tags, module).items():
        _check_tag_text(name, value)
        lines.append(f'[{name} "{_escape(value)}"]')

    for ply in record.comments:
        if not isinstance(ply, int) or not 0 <= ply <= len(record.moves):
            raise RecordError(
                f"game {record.game_index}: a comment is keyed by ply {ply!r}, outside the "
                f"{len(record.moves)} plies of the moves")
    offset = int(start.turn)
    units = [_comment_text(record, 0)] if 0 in record.comments else []
    for index, move in enumerate(record.moves):
        if (not isinstance(move, str) or not _MOVE_RE.fullmatch(move)
                or move in RESULTS):
            raise RecordError(
                f"game {record.game_index}: move {index + 1} "
                f"{_quote(move) if isinstance(move, str) else repr(move)} cannot be written: "
                "a move is one word of letters, digits and , ( ) > -")
        ply = index + offset
        if ply % 2 == 0:
            units.append(f"{ply // 2 + 1}. {move}")
        elif index == 0 or index in record.comments:
            units.append(f"{ply // 2 + 1}... {move}")
        else:
            units.append(move)
        if index + 1 in record.comments:
            units.append(_comment_text(record, index + 1))
    units.append(result)
    return "\n".join(lines) + "\n\n" + "\n".join(_wrap(units)) + "\n"


def write_games(records: Iterable[GameRecord]) -> str:
    """The ``.hgn`` text of several games, separated by one blank line.

    Raises:
        RecordError: as :func:`write_game`.
    """
    return "\n".join(write_game(record) for record in records)


def record_from_board(board: GameBoard, *, tags: Mapping[str, str] | None = None,
                      result: str | None = None, termination: Termination | None = None,
                      comments: Mapping[int, str] | None = None) -> GameRecord:
    """A record of ``board.move_stack``, played from ``board.root()``.

    The tags are ``Game`` (the game's ``GAME_NAME``), ``Date`` (today, ``YYYY.MM.DD``,
    unless ``tags`` gives one), the given ``tags``, ``Rules`` (the options that differ
    from the defaults, if any), ``Position`` (when the root is not the standard start
    under the board's rules), ``Result`` (``board.result()`` unless ``result`` is given,
    e.g. ``"0-1"`` for a resignation), ``Termination`` (``termination``, else the
    outcome's when the game is over) and ``Score`` (when the outcome has one).

    Args:
        board: a board of any game (see :mod:`hexgames.games`).
        tags: further tags such as ``Event`` or the players; not Game, Rules, Position,
            Result, Termination or Score, which come from the board and the arguments.
        result: the result when the game ended otherwise than by its moves.
        termination: how it ended then (``Termination.RESIGNATION`` or
            ``Termination.TIME_FORFEIT``).
        comments: ply count -> comment, as :attr:`GameRecord.comments`.

    Raises:
        RecordError: for a tag that may not be given, a tag that cannot be written, or a
            comment keyed outside ``0..len(board.move_stack)``.
        RecordSyntaxError: for a ``result`` that is not a result.
        RecordResultError: when ``result`` or ``termination`` disagree with the board
            (as :meth:`GameRecord.validate` would find).
    """
    module = game_module(board.position().split(maxsplit=1)[0])
    extra = dict(tags or {})
    reserved = sorted(_BOARD_TAGS & extra.keys())
    if reserved:
        raise RecordError(
            f"tags {', '.join(reserved)} come from the board and the arguments, not tags=")
    for name, value in extra.items():
        _check_tag_text(name, value)
    new_tags = {"Game": str(module.GAME_NAME),
                "Date": datetime.date.today().strftime("%Y.%m.%d")}
    new_tags.update(extra)
    options = board.rules.options()
    if options:
        new_tags["Rules"] = " ".join(options)
    root = board.root()
    if root.position() != module.Board(None, board.rules).position():
        new_tags["Position"] = root.position()
    outcome = board.outcome()
    new_tags["Result"] = board.result() if result is None else result
    if termination is not None:
        new_tags["Termination"] = termination.value
    elif outcome is not None:
        new_tags["Termination"] = outcome.termination.value
    if outcome is not None and outcome.score is not None:
        new_tags["Score"] = f"{outcome.score[0]}-{outcome.score[1]}"
    moves = [move.notation() for move in board.move_stack]
    record = GameRecord(_ordered_tags(new_tags, module), moves, dict(comments or {}))
    for ply in record.comments:
        if not isinstance(ply, int) or not 0 <= ply <= len(moves):
            raise RecordError(f"a comment is keyed by ply {ply!r}, outside the "
                              f"{len(moves)} plies of the board")
    _check_tags(record.tags, 1, {})
    _check_end(record.tags, board, 1)
    return record
