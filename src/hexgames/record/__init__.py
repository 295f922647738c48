"""Game records (``.hgn``): reading, validating and writing (docs/notation.md, "Game records";
the whole format, with what this module adds to docs/notation.md, is in ``docs/records.md``).

A record is PGN-like: tag pairs ``[Name "value"]``, then the move text, e.g.::

    [Game "Andantino"]
    [White "Alice"]
    [Red "Bob"]
    [Result "1-0"]
    [Termination "line"]

    {A short game} 1. 0,1 1,1 2. -1,1! (2. 2,0 {is calmer}) 2... -1,0 $14 3. 0,-1
    (3. -1,2?! 1,-1 (3... 0,2)) 3... 1,-1 4. 0,2 -1,-1 5. 0,-2 1-0

Several games may follow each other, separated by a blank line. Every game is served
through :func:`hexgames.games.game_module`, so this module knows nothing of one game's
rules: it uses the game module's ``GAME_NAME``, ``PLAYER_TAGS``, ``Rules`` and ``Board``.

A record keeps everything the text holds: every tag in the order read (unknown ones
too), and the move tree (:attr:`GameRecord.root`, see :mod:`hexgames.record.tree`):
the main line (:attr:`GameRecord.moves`), the variations, the NAGs and the comments.

Reading is in two steps. :func:`parse_games` only reads the text (and checks the tags it
needs to number the moves: ``Game``, ``Rules``, ``Position``); :meth:`GameRecord.validate`
replays every move of every line and checks ``Result``, ``Termination`` and ``Score``
against the main line. :func:`read_games` does both.

Conventions of this reader and writer where docs/notation.md leaves a choice (PGN's where it
has one):

- Tag values escape ``\\`` and ``"`` with a backslash; a value is one line.
- Comments are ``{...}`` (no nesting, no escapes: a comment cannot hold ``}``) and may
  come before the first move, after any move, and at the start of a variation;
  surrounding whitespace is not kept, and two comments at the same place are joined
  with a space.
- Variations (PGN's recursive annotation variations): ``(...)`` right after a move holds
  a line that replaces that move, from the position before it; variations nest, and
  several may follow one move. A variation cannot open before the first move, right
  after another opens, or hold no move, and a result token cannot stand inside one. A
  ``(q,r)`` without spaces inside is an Andantino cell (docs/notation.md), not a variation.
- NAGs (numeric annotation glyphs, PGN's numbering): ``$0`` to ``$255`` after a move, or
  the glyphs ``!`` ``?`` ``!!`` ``??`` ``!?`` ``?!`` (``$1`` to ``$6``) right after it
  or standing alone after it.
- Move numbers (``12.`` or ``12...``) are optional but, when present, must fit the ply of
  their own line; ``12...`` marks a move of the second player. A set-up position with the
  second player to move starts with ``1...``; so does a variation that replaces a second
  player's move.
- A game's move text ends at its result token; anything but comments after it is an
  error, and so is move text that stops (at a blank line, a new tag section or the end of
  the text) without one. The ``Game`` and ``Result`` tags are required (docs/notation.md).
- Error messages name the game and line (``RecordSyntaxError.column`` and
  ``RecordMoveError.column`` give the column) and quote at most 60 characters of the
  text they are about.
- Limits (defined together in :mod:`hexgames.record.tree`): variations nest at most
  :data:`MAX_VARIATION_DEPTH` (100) deep, a game holds at most :data:`MAX_GAME_MOVES`
  (1,000,000) moves counting its variations, a NAG is at most :data:`MAX_NAG` (255)
  and a move number has at most :data:`MAX_NUMBER_DIGITS` (12) digits; reading,
  validating and writing take time and memory linear in the text, with no recursion.

The writer writes the canonical form (PGN's export conventions; a record without
variations or NAGs is written exactly as before they existed), so that
``parse_games(write_games(records)) == records``.
"""

from __future__ import annotations

import copy
import datetime
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from types import ModuleType
from typing import Any, NoReturn

from hexgames.core import GameBoard, GameRules, Termination
from hexgames.games import GAME_NAMES, game_module
from hexgames.record.errors import (
    RecordError,
    RecordMoveError,
    RecordResultError,
    RecordSyntaxError,
    quote,
    shorten_in,
)
from hexgames.record.lexer import RESULTS
from hexgames.record.movetext import movetext_units, wrap
from hexgames.record.reader import Places, read
from hexgames.record.tree import (
    GLYPH_NAGS,
    MAX_GAME_MOVES,
    MAX_NAG,
    MAX_NUMBER_DIGITS,
    MAX_VARIATION_DEPTH,
    MOVE,
    NAG_GLYPHS,
    MoveNode,
    RecordNode,
    copy_tree,
    walk,
)

__all__ = [
    "GLYPH_NAGS",
    "MAX_GAME_MOVES",
    "MAX_NAG",
    "MAX_NUMBER_DIGITS",
    "MAX_VARIATION_DEPTH",
    "NAG_GLYPHS",
    "RESULTS",
    "TERMINATIONS",
    "GameBoard",
    "GameRecord",
    "MoveNode",
    "RecordError",
    "RecordMoveError",
    "RecordNode",
    "RecordResultError",
    "RecordSyntaxError",
    "graft_board",
    "parse_games",
    "read_game",
    "read_games",
    "record_from_board",
    "write_game",
    "write_games",
]

#: The values of the ``Termination`` tag (docs/notation.md).
TERMINATIONS = tuple(t.value for t in Termination)
#: Terminations that end a game before its moves do.
_EARLY_ENDS = (Termination.RESIGNATION.value, Termination.TIME_FORFEIT.value)
_LEADING_TAGS = ("Game", "Event", "Site", "Date", "Round")
_TRAILING_TAGS = ("Rules", "Position", "Result", "Termination", "Score")
#: Tags that record_from_board and graft_board take from the board and their arguments.
_BOARD_TAGS = frozenset({"Game", "Rules", "Position", "Result", "Termination", "Score"})

_TAG_NAME_RE = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_SCORE_RE = re.compile(r"[0-9]+-[0-9]+")


# --- the interface of a game's board: the one protocol of hexgames.core -----------------

# --- the record -----------------------------------------------------------------------

_READ_ONLY = ("is computed from the move tree and cannot be changed: edit record.root "
              "(add_variation, remove_variation, promote_to_main...) instead")


class _MainLine(list[str]):
    """The main line's move texts: a list that refuses changes (they would be lost)."""

    def _refuse(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError(f"GameRecord.moves {_READ_ONLY}")

    append = extend = insert = pop = _refuse
    remove = clear = sort = reverse = _refuse
    __setitem__ = __delitem__ = __iadd__ = __imul__ = _refuse

    def __reduce__(self) -> tuple[Any, ...]:
        return (list, (list(self),))


class _MainComments(dict[int, str]):
    """The main line's comments by ply: a dict that refuses changes."""

    def _refuse(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError(f"GameRecord.comments {_READ_ONLY}")

    __setitem__ = __delitem__ = __ior__ = _refuse
    clear = pop = popitem = setdefault = update = _refuse

    def __reduce__(self) -> tuple[Any, ...]:
        return (dict, (dict(self),))


class GameRecord:
    """One game of a record file: its tags and its move tree.

    ``GameRecord(tags, moves, comments)`` builds a record of one line (as before trees
    existed); ``GameRecord(tags, root=root)`` one of a whole tree.

    Attributes:
        tags: tag name -> value, in the order read; after parsing ``Game`` (spelled as
            the game's ``GAME_NAME``) and ``Result`` are always present.
        root: the root of the move tree (the starting position): its main line is the
            game, its variations the alternatives (:mod:`hexgames.record.tree`).
        game_index: the 1-based index of the game in its file (not compared).
        tag_lines, tag_columns: where each tag was read, for error messages (not
            compared; empty for a record built in code).

    :attr:`moves`, :attr:`comments` and :attr:`move_lines` give the main line as records
    of one line had it (read-only views: edit the tree to change it). Records compare
    equal when their tags (in any order) and trees (moves, NAGs, comments and
    variations, in order) are equal; ``copy.copy``, ``copy.deepcopy`` and pickling copy
    the whole tree, without recursion.
    """

    __hash__ = None  # type: ignore[assignment]

    def __init__(self, tags: dict[str, str], moves: Iterable[str] | None = None,
                 comments: Mapping[int, str] | None = None, game_index: int = 1,
                 tag_lines: dict[str, int] | None = None,
                 move_lines: Sequence[int] | None = None, *, root: RecordNode | None = None,
                 tag_columns: dict[str, int] | None = None) -> None:
        """Args:
            tags: the tags (kept as this very dict).
            moves: the main line's move texts, when ``root`` is not given.
            comments: ply count -> the comment after that many plies of ``moves`` (0:
                before the first move). A key outside ``0..len(moves)`` is kept and
                refused by the writer.
            game_index, tag_lines: as the attributes.
            move_lines: the line of each move of ``moves`` in a text, if any.
            root: the root of a move tree (a node without a parent), instead of
                ``moves`` and ``comments``.
            tag_columns: as the attribute.

        Raises:
            TypeError: if ``root`` is given with ``moves`` or ``comments``.
            RecordError: if ``root`` has a parent, or a move is not text.
        """
        self.tags = tags
        self.game_index = game_index
        self.tag_lines: dict[str, int] = {} if tag_lines is None else tag_lines
        self.tag_columns: dict[str, int] = {} if tag_columns is None else tag_columns
        self._stray_comments: dict[Any, Any] = {}
        if root is not None:
            if moves is not None or comments is not None:
                raise TypeError("GameRecord takes moves and comments, or root, not both")
            if root.parent is not None:
                raise RecordError("a record's root is a node without a parent")
            self.root = root
            return
        self.root = RecordNode()
        nodes: list[RecordNode] = [self.root]
        lines = list(move_lines or ())
        for index, text in enumerate(moves or ()):
            node = nodes[-1].add_variation(text)
            if index < len(lines):
                node.line = lines[index]
            nodes.append(node)
        for ply, text in (comments or {}).items():
            if isinstance(ply, int) and 0 <= ply < len(nodes):
                nodes[ply].comment = text
            else:
                self._stray_comments[ply] = text

    # --- the main line, as before trees -----------------------------------------------

    @property
    def moves(self) -> list[str]:
        """The move texts of the main line, as written (a read-only list)."""
        return _MainLine(node.move for node in self.root.mainline())

    @property
    def comments(self) -> dict[int, str]:
        """The main line's comments: ply count -> the comment after that many plies (0:
        before the first move); a read-only dict. Comments elsewhere are on the nodes."""
        found = _MainComments()
        if self.root.comment is not None:
            dict.__setitem__(found, 0, self.root.comment)
        for ply, node in enumerate(self.root.mainline(), 1):
            if node.comment is not None:
                dict.__setitem__(found, ply, node.comment)
        for ply, text in self._stray_comments.items():
            dict.__setitem__(found, ply, text)
        return found

    @property
    def move_lines(self) -> list[int | None]:
        """The line of each move of the main line in the text read (``None`` for a move
        made in code)."""
        return [node.line for node in self.root.mainline()]

    def mainline(self) -> Iterator[MoveNode]:
        """The nodes of the main line, in order."""
        return self.root.mainline()

    def nodes(self) -> Iterator[MoveNode]:
        """Every node of the tree, in the order the record writes them."""
        return self.root.descendants()

    # --- tags -------------------------------------------------------------------------

    def _places(self) -> Places:
        return Places(self.tag_lines, self.tag_columns)

    @property
    def game(self) -> str:
        """The lower-case name of the game's module (``"andantino"``, ``"abande"``).

        Raises:
            RecordSyntaxError: if the ``Game`` tag is missing or names no known game.
        """
        return _module_name(_game_module(self.tags, self.game_index, self._places()))

    @property
    def result(self) -> str:
        """The ``Result`` tag (``"*"`` when missing, as only a record built in code can be)."""
        return self.tags.get("Result", "*")

    def rules(self) -> GameRules:
        """The game's ``Rules`` from the ``Rules`` tag (the defaults when missing).

        Raises:
            RecordSyntaxError: for a bad ``Game`` or ``Rules`` tag.
        """
        module = _game_module(self.tags, self.game_index, self._places())
        rules: GameRules = _rules(module, self.tags, self.game_index, self._places())
        return rules

    def starting_board(self) -> GameBoard:
        """A board at the ``Position`` tag, or at the standard start, under :meth:`rules`.

        Raises:
            RecordSyntaxError: for a bad ``Game``, ``Rules`` or ``Position`` tag.
        """
        places = self._places()
        module = _game_module(self.tags, self.game_index, places)
        rules = _rules(module, self.tags, self.game_index, places)
        return _start(module, rules, self.tags, self.game_index, places)

    # --- boards -----------------------------------------------------------------------

    def board(self, ply: int | None = None) -> GameBoard:
        """The board after the first ``ply`` plies of the main line (all of them when
        ``None``).

        Raises:
            RecordSyntaxError: for a bad ``Game``, ``Rules`` or ``Position`` tag.
            RecordMoveError: for the first move that cannot be played.
            RecordError: if ``ply`` is negative or beyond the moves.
        """
        if ply is not None:
            plies = sum(1 for _ in self.root.mainline())
            if not 0 <= ply <= plies:
                raise RecordError(f"game {self.game_index}: ply {ply} is out of range "
                                  f"(the record has {plies} plies)")
        board = self.starting_board()
        offset = int(board.turn)
        for index, node in enumerate(self.root.mainline()):
            if ply is not None and index >= ply:
                break
            self._play(board, node, index + 1, offset)
        return board

    def board_at(self, node: RecordNode) -> GameBoard:
        """The board at ``node`` (after its move), which is a node of this record's tree,
        replayed from the start along the variations that lead to it.

        Raises:
            RecordError: if ``node`` is not in this record's tree.
            RecordSyntaxError, RecordMoveError: as :meth:`board`.
        """
        chain: list[MoveNode] = []
        here: RecordNode = node
        while isinstance(here, MoveNode) and here.parent is not None:
            chain.append(here)
            here = here.parent
        if here is not self.root:
            raise RecordError(f"game {self.game_index}: the node is not in this record's tree")
        board = self.starting_board()
        offset = int(board.turn)
        for ply, step in enumerate(reversed(chain), 1):
            self._play(board, step, ply, offset)
        return board

    def _play(self, board: GameBoard, node: MoveNode, ply: int, offset: int) -> None:
        """Push the move of ``node``, the ``ply``-th of its line, onto ``board``."""
        if board.is_game_over():
            self._move_error(node, ply, offset, f"the game is over: it ended "
                             f"{_describe(board)} after ply {ply - 1}")
        try:
            board.push(board.parse_notation(node.move))
        except ValueError as exc:
            self._move_error(node, ply, offset, str(exc), exc)

    def _move_error(self, node: MoveNode, ply: int, offset: int, reason: str,
                    cause: Exception | None = None) -> NoReturn:
        game_ply = ply - 1 + offset
        raise RecordMoveError(
            game_index=self.game_index, move_number=game_ply // 2 + 1, ply=ply,
            move_text=node.move, reason=reason, second_player=game_ply % 2 == 1,
            line=node.line, column=node.column, variation=node.variation_path(),
            offset=offset,
        ) from cause

    def validate(self) -> None:
        """Check the tags, replay every move of the main line and of every variation
        (each from its own position), and check ``Result``, ``Termination`` and
        ``Score`` against the end of the main line (docs/notation.md).

        The moves are checked in the order they are written. A game the main line ends
        must carry its result (and its termination and score, when those tags are
        present). A game it does not end is ``*``, or a decisive result with
        ``Termination`` ``resignation`` or ``time-forfeit``; it cannot be drawn (there
        are no agreed draws). A variation may stop anywhere.

        Work is linear in the number of moves: one board walks the whole tree, pushing
        and popping.

        Raises:
            RecordSyntaxError: for a malformed tag.
            RecordMoveError: for the first move that cannot be played, with its line,
                column and variation path.
            RecordResultError: when ``Result``, ``Termination`` or ``Score`` disagree.
        """
        _check_tags(self.tags, self.game_index, self._places())
        board = self.starting_board()
        offset = int(board.turn)
        pushed: list[RecordNode] = [self.root]  # the nodes whose moves are on the board

        def back_to(target: RecordNode) -> None:
            while pushed[-1] is not target:
                pushed.pop()
                board.pop()

        def repush(node: MoveNode) -> None:  # a move checked before, back on the board
            board.push(board.parse_notation(node.move))
            pushed.append(node)

        for event, node, ply, _ in walk(self.root):
            parent = node.parent
            assert parent is not None
            if event != MOVE:
                back_to(parent)
                continue
            if pushed[-1] is not parent:
                if isinstance(parent, MoveNode) and pushed[-1] is parent.parent:
                    repush(parent)  # the line goes on after the variations of its move
                else:
                    back_to(parent)
            self._play(board, node, ply, offset)
            pushed.append(node)
        end = self.root.end()
        if pushed[-1] is not end:
            assert isinstance(end, MoveNode) and pushed[-1] is end.parent
            repush(end)
        _check_end(self.tags, board, self.game_index)

    # --- copying, comparing -----------------------------------------------------------

    def copy(self) -> GameRecord:
        """An independent copy: the tags, the tree and the places read (time linear in
        the number of moves)."""
        other = GameRecord(dict(self.tags), game_index=self.game_index,
                           tag_lines=dict(self.tag_lines), root=copy_tree(self.root),
                           tag_columns=dict(self.tag_columns))
        other._stray_comments = dict(self._stray_comments)
        return other

    def __copy__(self) -> GameRecord:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, Any]) -> GameRecord:
        other = self.copy()
        other.tags = copy.deepcopy(self.tags, memo)
        return other

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, GameRecord):
            return NotImplemented
        return (self.tags == other.tags and self._stray_comments == other._stray_comments
                and self.root.same_tree(other.root))

    def __repr__(self) -> str:
        sides = sum(len(node.variations) - 1 for node in (self.root, *self.nodes())
                    if node.variations)
        return (f"GameRecord(tags={self.tags!r}, moves={list(self.moves)!r}, "
                f"comments={dict(self.comments)!r}, variations={sides}, "
                f"game_index={self.game_index!r})")


# --- tags -----------------------------------------------------------------------------


def _module_name(module: ModuleType) -> str:
    return module.__name__.rpartition(".")[2]


def _game_module(tags: Mapping[str, str], game_index: int, places: Places) -> ModuleType:
    if "Game" not in tags:
        found = [name for name in tags if name.lower() == "game"]
        hint = f"; tag names are case-sensitive, not {quote(found[0])}" if found else ""
        where = places.of(found[0]) if found else {"line": places.line,
                                                   "column": places.column}
        raise RecordSyntaxError(
            f"no Game tag (it names the game: {', '.join(GAME_NAMES)}){hint}",
            game_index=game_index, **where)
    try:
        return game_module(tags["Game"])
    except ValueError:
        raise RecordSyntaxError(
            f"Game tag {quote(tags['Game'])} names no known game (known: {', '.join(GAME_NAMES)})",
            game_index=game_index, **places.of("Game")) from None


def _rules(module: ModuleType, tags: Mapping[str, str], game_index: int,
           places: Places) -> Any:
    try:
        return module.Rules.from_options(tags.get("Rules", ""))
    except ValueError as exc:
        raise RecordSyntaxError(f"bad Rules tag {quote(tags['Rules'])}: "
                                f"{shorten_in(str(exc), tags['Rules'])}",
                                game_index=game_index, **places.of("Rules")) from exc


def _start(module: ModuleType, rules: Any, tags: Mapping[str, str], game_index: int,
           places: Places) -> GameBoard:
    position = tags.get("Position")
    try:
        board: GameBoard = module.Board(position, rules)
    except ValueError as exc:
        assert position is not None  # the standard start is never bad
        raise RecordSyntaxError(f"bad Position tag {quote(position)}: "
                                f"{shorten_in(str(exc), position)}",
                                game_index=game_index, **places.of("Position")) from exc
    return board


def _check_tags(tags: Mapping[str, str], game_index: int,
                places: Places) -> tuple[ModuleType, GameBoard]:
    """Check the tags the reader understands; return the game module and the start."""
    module = _game_module(tags, game_index, places)
    result = tags.get("Result")
    if result is not None and result not in RESULTS:
        raise RecordSyntaxError(
            f"Result tag {quote(result)} is not one of {', '.join(RESULTS)}",
            game_index=game_index, **places.of("Result"))
    termination = tags.get("Termination")
    if termination is not None and termination not in TERMINATIONS:
        raise RecordSyntaxError(
            f"Termination tag {quote(termination)} is not one of {', '.join(TERMINATIONS)}",
            game_index=game_index, **places.of("Termination"))
    score = tags.get("Score")
    if score is not None and not _SCORE_RE.fullmatch(score):
        raise RecordSyntaxError(
            f"Score tag {quote(score)} is not <first player>-<second player> such as 15-10",
            game_index=game_index, **places.of("Score"))
    rules = _rules(module, tags, game_index, places)
    return module, _start(module, rules, tags, game_index, places)


def _ordered_tags(tags: Mapping[str, str], module: ModuleType) -> dict[str, str]:
    """``tags`` in the writer's order: Game, Event, Site, Date, Round, the players,
    Rules, Position, Result, Termination, Score, then the others as given."""
    order = (*_LEADING_TAGS, *module.PLAYER_TAGS, *_TRAILING_TAGS)
    ordered = {name: tags[name] for name in order if name in tags}
    ordered.update((name, value) for name, value in tags.items() if name not in ordered)
    return ordered


def _check_tag_text(name: str, value: str) -> None:
    if not isinstance(name, str) or not _TAG_NAME_RE.fullmatch(name):
        shown = quote(name) if isinstance(name, str) else repr(name)
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


def parse_games(text: str) -> list[GameRecord]:
    """Read every game of ``text`` without replaying the moves.

    Tolerates any whitespace, CRLF or CR line ends and a UTF-8 byte order mark. Checks the
    syntax (tags, comments, variations, NAGs), the ``Game``, ``Rules``, ``Position``,
    ``Result``, ``Termination`` and ``Score`` tag values, the move numbers against the
    plies of their lines, the caps (:data:`MAX_VARIATION_DEPTH`,
    :data:`MAX_GAME_MOVES`), and the result token that must end every game's move text
    against the ``Result`` tag, which is required (docs/notation.md). Use
    :meth:`GameRecord.validate` (or :func:`read_games`) to check the moves. Time and
    memory are linear in the length of ``text``.

    Returns:
        the games in order (``[]`` for empty or blank text); ``game_index`` counts from 1.

    Raises:
        RecordSyntaxError: for the first unreadable part, with its game, line and column:
            a broken tag line, a duplicate tag, an unterminated ``{`` comment, a missing
            or unknown ``Game`` tag, a missing ``Result`` tag, a bad tag value, a move
            number that does not fit its ply, a malformed variation (a ``)`` without its
            ``(`` or a ``(`` without its ``)``, a variation before any move, right after
            another's ``(`` or without a move, a result token inside one), a NAG out of
            range or after no move, a cap exceeded, move text without a result token at
            its end, a result token that disagrees with the ``Result`` tag, or a stray
            token.
    """
    return [GameRecord(game.tags, game_index=game.game_index, tag_lines=game.tag_lines,
                       root=game.root, tag_columns=game.tag_columns)
            for game in read(text, _check_tags)]


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


def write_game(record: GameRecord) -> str:
    """The ``.hgn`` text of ``record``: tag lines, a blank line, the move text wrapped at
    about 80 characters, ending with the result token and a newline.

    Tags are written in the order Game, Event, Site, Date, Round, the game's player
    tags, Rules, Position, Result, Termination, Score, then the others as given; a
    missing ``Result`` is written as ``*``. The move tree is written in the canonical
    form (see :mod:`hexgames.record.movetext`), its moves as they are, not replayed (use
    :meth:`GameRecord.validate` for that). ``parse_games(write_game(record))`` gives the
    record back (with comments stripped of surrounding whitespace, as the reader keeps
    them).

    Raises:
        RecordSyntaxError: for a tag value the reader would reject (Game, Rules,
            Position, Result, Termination, Score).
        RecordError: for text that cannot be written readably: a tag name that is not a
            word, a tag value with a line break, a move that is not one token, a comment
            with ``}``, a comment before a main continuation, a comment at a ply outside
            the moves, a NAG out of 0..255, or a tree beyond the caps.
    """
    module, start = _check_tags(record.tags, record.game_index, record._places())
    tags = dict(record.tags)
    tags["Game"] = module.GAME_NAME
    tags.setdefault("Result", "*")
    result = tags["Result"]
    lines = []
    for name, value in _ordered_tags(tags, module).items():
        _check_tag_text(name, value)
        lines.append(f'[{name} "{_escape(value)}"]')
    for ply in record._stray_comments:
        raise RecordError(
            f"game {record.game_index}: a comment is keyed by ply {ply!r}, outside the "
            f"{len(record.moves)} plies of the moves")
    units = movetext_units(record.root, offset=int(start.turn),
                           game_index=record.game_index)
    units.append(result)
    return "\n".join(lines) + "\n\n" + "\n".join(wrap(units)) + "\n"


def write_games(records: Iterable[GameRecord]) -> str:
    """The ``.hgn`` text of several games, separated by one blank line.

    Raises:
        RecordError: as :func:`write_game`.
    """
    return "\n".join(write_game(record) for record in records)


# --- records of boards ----------------------------------------------------------------


def _end_tags(tags: dict[str, str], board: GameBoard, result: str | None,
              termination: Termination | None) -> None:
    """Set ``Result``, ``Termination`` and ``Score`` of ``tags`` from ``board`` and the
    arguments (removing those that do not apply)."""
    outcome = board.outcome()
    tags["Result"] = board.result() if result is None else result
    how = None
    if termination is not None:
        how = termination.value
    elif outcome is not None:
        how = outcome.termination.value
    score = None
    if outcome is not None and outcome.score is not None:
        score = f"{outcome.score[0]}-{outcome.score[1]}"
    for name, value in (("Termination", how), ("Score", score)):
        if value is None:
            tags.pop(name, None)
        else:
            tags[name] = value  # in its place when the tag was there


def _extra_tags(tags: Mapping[str, str] | None) -> dict[str, str]:
    extra = dict(tags or {})
    reserved = sorted(_BOARD_TAGS & extra.keys())
    if reserved:
        raise RecordError(
            f"tags {', '.join(reserved)} come from the board and the arguments, not tags=")
    for name, value in extra.items():
        _check_tag_text(name, value)
    return extra


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
    extra = _extra_tags(tags)
    new_tags = {"Game": str(module.GAME_NAME),
                "Date": datetime.date.today().strftime("%Y.%m.%d")}
    new_tags.update(extra)
    options = board.rules.options()
    if options:
        new_tags["Rules"] = " ".join(options)
    root = board.root()
    if root.position() != module.Board(None, board.rules).position():
        new_tags["Position"] = root.position()
    _end_tags(new_tags, board, result, termination)
    moves = [move.notation() for move in board.move_stack]
    for ply in comments or {}:
        if not isinstance(ply, int) or not 0 <= ply <= len(moves):
            raise RecordError(f"a comment is keyed by ply {ply!r}, outside the "
                              f"{len(moves)} plies of the board")
    record = GameRecord(_ordered_tags(new_tags, module), moves, dict(comments or {}))
    _check_tags(record.tags, 1, record._places())
    _check_end(record.tags, board, 1)
    return record


def graft_board(record: GameRecord, board: GameBoard, *,
                tags: Mapping[str, str] | None = None, result: str | None = None,
                termination: Termination | None = None,
                canonical: bool = False) -> GameRecord:
    """A copy of ``record`` whose main line is ``board.move_stack``, keeping the record's
    tags, comments, NAGs and variations: what a program that read a record and played
    on from it (or took moves back) writes.

    From the root, each move of the board follows the record's node that plays it (the
    texts are compared as moves, so ``(1,1)`` matches ``1,1``), which becomes the main
    continuation, the former one an alternative to it; a move the record does not have
    is added. The main line ends where the board does: moves of the record after the
    board's last move are not kept (they cannot be a variation, as no move is there for
    them to replace). ``Result``, ``Termination`` and ``Score`` come from the board and
    the arguments, as in :func:`record_from_board`; the other tags are kept in their
    order, updated by ``tags``.

    Args:
        record: a record (it is not changed).
        board: a board of the same game, rules and starting position.
        tags, result, termination: as :func:`record_from_board`.
        canonical: every move of ``record`` is in canonical notation (as
            ``move.notation()`` writes it): the moves are then compared as texts and
            the game is not replayed, so grafting takes time in proportion to the
            record, not to its moves times the cost of playing one.

    Raises:
        RecordError: if the board is of another game, rules or start, or for a tag that
            may not be given or cannot be written.
        RecordSyntaxError: for a bad tag of ``record`` or a ``result`` that is not one.
        RecordResultError: when ``result`` or ``termination`` disagree with the board.
    """
    start = record.starting_board()
    name = board.position().split(maxsplit=1)[0]
    if game_module(name) is not _game_module(record.tags, record.game_index,
                                             record._places()):
        raise RecordError(f"the board is of {name}, the record of {record.tags['Game']}")
    if board.rules.options() != start.rules.options():
        raise RecordError(
            f"the board's rules ({' '.join(board.rules.options()) or 'the defaults'}) are "
            f"not the record's ({' '.join(start.rules.options()) or 'the defaults'})")
    if board.root().position() != start.position():
        raise RecordError(f"the board starts at {board.root().position()!r}, the record at "
                          f"{start.position()!r}")
    extra = _extra_tags(tags)
    grafted = record.copy()
    node: RecordNode = grafted.root
    for move in board.move_stack:
        found = None
        text = move.notation()
        for child in node.variations:
            try:
                if (child.move == text if canonical
                        else start.parse_notation(child.move) == move):
                    found = child
                    break
            except ValueError:
                continue
        if found is None:
            found = node.add_main_variation(text)
        else:
            node.promote_to_main(found)
        if not canonical:
            start.push(move)
        node = found
    for child in node.variations:  # the record's moves after the board's last
        child.parent = None
    node.variations.clear()
    grafted.tags.update(extra)
    _end_tags(grafted.tags, board, result, termination)
    _check_tags(grafted.tags, grafted.game_index, grafted._places())
    _check_end(grafted.tags, board, grafted.game_index)
    return grafted

