"""A game's study record in the browser app: its tags, comments, NAGs and variations
(the move tree of :mod:`hexgames.record`), kept with the game and edited from the page.

The **main line** of a game's study record is always the game itself (the moves played,
``StoredGame.moves``): a side line never changes the game. A side line is made by a
move from an earlier position, and is navigated, promoted, demoted, deleted, commented
and annotated with NAGs; the game's own move stays the first of the moves played from a
position of the main line (:func:`promote` refuses to put a side line before it). After
every change of the game its moves are grafted onto the record
(:func:`hexgames.record.graft_board`): a move the record already has becomes the main
continuation; an undone move goes, and with it every side line that leaves the game's
line at or after the position the undo goes back to (a variation is an alternative to a
move of the line, and there is none there any more).

A node of the tree is named by its **line**: the moves from the starting position to it,
in notation (``[]`` is the starting position). Every move of a line is checked against
the rules when it is used.

Also here: the JSON of a tree for the page (:func:`tree_json`), the names in the player
tags, and the whole-game analysis of a finished game as JSON
(:func:`analysis_json`, :func:`analysis_of_json`), which :func:`hexgames.analysis.annotate`
writes into the record on request.
"""

from __future__ import annotations

import datetime
from collections.abc import Iterator, Sequence
from typing import Any

from hexgames import limits
from hexgames.accuracy import game_accuracy
from hexgames.analysis import GameAnalysis, MoveReport
from hexgames.core import Termination
from hexgames.engine.base import Info, Limit
from hexgames.record import (
    GameRecord,
    MoveNode,
    RecordError,
    RecordNode,
    graft_board,
    parse_games,
    record_from_board,
    write_game,
)
from hexgames.record.tree import check_nags
from hexgames.web.store import StoredGame
from hexgames.web.views import HUMAN, JSON, AppError, move_text

#: Terminations of a game that ended otherwise than by its moves (as the session's).
EARLY_ENDS = ("resignation", "time-forfeit", "agreement")
#: The name of a person's seat when none was given (as the page says it).
PERSON = "Person"
#: The name of the local mode's one person (its records, its games list, its page).
YOU = "You"
#: The name of a player an imported record does not name (as in PGN).
UNKNOWN = "?"
#: The tag that records the seed of the AI's varied play
#: (:func:`hexgames.engine.players.move_seed`).
SEED_TAG = "Seed"


def default_names(stored: StoredGame, accounts: Sequence[str | None] | None) -> list[str]:
    """The player names of a game that names none: the account in a seat, ``You`` for
    the local mode's person (``accounts`` is ``None``), ``Person`` for a seat of the
    server mode without an account, ``hexgames <spec>`` for an AI."""
    names = []
    for side, player in enumerate(stored.players):
        account = accounts[side] if accounts is not None else None
        if account is not None:
            names.append(account)
        elif player == HUMAN:
            names.append(YOU if accounts is None else PERSON)
        else:
            names.append(f"hexgames {player}")
    return names


def end_of(stored: StoredGame) -> tuple[str | None, Termination | None, dict[str, str]]:
    """How the record of a game ends: ``(result, termination, tags)`` for
    :func:`~hexgames.record.graft_board` (a resignation or a time forfeit gives both;
    a draw by agreement, which docs/notation.md's records do not have, is ``[Result "*"]``
    with the tag ``[Draw "agreement"]``)."""
    if stored.termination == "agreement":
        return None, None, {"Draw": "agreement"}
    if stored.termination in EARLY_ENDS:
        return stored.result, Termination(stored.termination), {}
    return None, None, {}


def new_record(stored: StoredGame, board: Any, names: Sequence[str]) -> GameRecord:
    """The study record of a game that has none yet (a new game, or one stored before
    study records): the tags ``Event``, ``Site``, ``Date`` (of its creation), the player
    tags, ``Seed`` (when the AI varies its play), a tournament's game its name as
    ``Event`` and its ``Round``, and its moves.

    Raises:
        RecordError: if the tags cannot be written (a name with a line break, say).
    """
    tags = {"Event": "hexgames web game", "Site": "hexgames serve"}
    try:
        created = datetime.datetime.fromisoformat(stored.created)
        tags["Date"] = created.strftime("%Y.%m.%d")
    except ValueError:
        pass
    player_tags = board_player_tags(board)
    for tag, name in zip(player_tags, names, strict=True):
        tags[tag] = name
    if stored.extra.get("seed") is not None:
        tags[SEED_TAG] = str(stored.extra["seed"])
    if isinstance(stored.extra.get("event"), str):  # a tournament's game
        tags["Event"] = stored.extra["event"]
        tags["Round"] = str(stored.extra.get("round", "?"))
    result, termination, extra = end_of(stored)
    return record_from_board(board, tags={**tags, **extra}, result=result,
                             termination=termination)


def board_player_tags(board: Any) -> tuple[str, str]:
    """The player tags of a board's game (``("White", "Red")``)."""
    from hexgames.games import game_module

    module = game_module(board.position().split(maxsplit=1)[0])
    first, second = module.PLAYER_TAGS
    return str(first), str(second)


def load_record(stored: StoredGame, board: Any, names: Sequence[str]) -> GameRecord:
    """The study record of a stored game, its main line grafted onto ``board`` (the
    game replayed from its moves) and every side line checked against the rules.

    Raises:
        HexgamesError: (a :class:`~hexgames.record.RecordError`) if the stored record
            cannot be read or does not fit the game.
    """
    if stored.record is None:
        return new_record(stored, board, names)
    records = parse_games(stored.record)
    if len(records) != 1:
        raise RecordError(f"the stored study record holds {len(records)} games, not one")
    return sync(records[0], stored, board, check=True)


def sync(record: GameRecord, stored: StoredGame, board: Any, *,
         check: bool = False) -> GameRecord:
    """A copy of ``record`` whose main line is the game (``board``'s moves) and whose
    end tags are the game's; with ``check``, every side line is replayed too and every
    move written in canonical notation (a record read from the store; the edits of the
    page check their own moves). Without ``check`` the record's moves must be canonical
    (those of a record synced with ``check``, and the page's edits, are): they are
    compared as texts, and the game is not replayed at every move.

    Raises:
        HexgamesError: if the record does not fit the board, or (``check``) a side line
            is illegal.
    """
    result, termination, extra = end_of(stored)
    if "Draw" in record.tags and "Draw" not in extra:
        record = record.copy()
        del record.tags["Draw"]
    seed = stored.extra.get("seed")
    if seed is not None:
        extra[SEED_TAG] = str(seed)
    grafted = graft_board(record, board, tags=extra, result=result,
                          termination=termination, canonical=not check)
    if check:
        grafted.validate()
        canonical_moves(grafted)
    return grafted


def canonical_moves(record: GameRecord) -> None:
    """Write every move of the tree in its canonical notation (``(1,1)`` as ``1,1``,
    ``D4`` as ``d4``), so that a line's moves name its nodes exactly.

    Raises:
        HexgamesError: for a move that cannot be played where it stands.
    """
    for node, move in walk_moves(record):
        node.move = move.notation()


def walk_moves(record: GameRecord) -> Iterator[tuple[MoveNode, Any]]:
    """Every node of the tree with its move parsed on the board before it, in preorder
    (no recursion: one board pushed and popped).

    Raises:
        HexgamesError: for a move that cannot be played where it stands.
    """
    board = record.starting_board()
    stack: list[Iterator[MoveNode]] = [iter(record.root.variations)]
    while stack:
        child = next(stack[-1], None)
        if child is None:
            stack.pop()
            if stack:
                board.pop()
            continue
        move = board.parse_notation(child.move)
        yield child, move
        board.push(move)
        stack.append(iter(child.variations))


def count_nodes(record: GameRecord) -> int:
    """The moves of the tree, its main line and every variation."""
    return sum(1 for _ in record.nodes())


def tree_json(record: GameRecord) -> JSON:
    """The TREE of the protocol: ``{"comment": the comment before the first move,
    "nodes": [{"parent": index or -1, "move", "nags", "comment", "starting_comment"}...]}``,
    in preorder (a node after its parent, the moves from a position in order: the
    first is its main continuation)."""
    nodes: list[JSON] = []
    stack: list[tuple[RecordNode, int]] = [(child, -1)
                                          for child in reversed(record.root.variations)]
    while stack:
        node, parent = stack.pop()
        assert isinstance(node, MoveNode)
        nodes.append({"parent": parent, "move": node.move, "nags": list(node.nags),
                      "comment": node.comment, "starting_comment": node.starting_comment})
        index = len(nodes) - 1
        stack.extend((child, index) for child in reversed(node.variations))
    return {"comment": record.root.comment, "nodes": nodes}


def line_field(value: object, what: str = "line") -> list[str]:
    """A line of the page's message: a list of move texts.

    Raises:
        AppError: naming the field for anything else, or a line longer than
            :data:`hexgames.limits.MAX_LINE_MOVES`.
    """
    if not isinstance(value, list) or not all(isinstance(m, str) for m in value):
        raise AppError(f"\"{what}\" must be a list of moves in notation, e.g. [\"0,1\", "
                       "\"1,1\"]")
    if len(value) > limits.MAX_LINE_MOVES:
        raise AppError(f"\"{what}\" holds {len(value)} moves: a line may hold at most "
                       f"{limits.MAX_LINE_MOVES} (hexgames.limits.MAX_LINE_MOVES)")
    for text in value:
        if len(text) > limits.MAX_MOVE_TEXT:
            raise AppError(f"a move of \"{what}\" is {len(text)} characters long: no "
                           f"move is longer than {limits.MAX_MOVE_TEXT}")
    return list(value)


def find(record: GameRecord, moves: Sequence[str]) -> tuple[RecordNode, int]:
    """The deepest node of the tree along ``moves`` (canonical texts) and how many of
    the moves lead to it."""
    node: RecordNode = record.root
    for depth, text in enumerate(moves):
        child = next((c for c in node.variations if c.move == text), None)
        if child is None:
            return node, depth
        node = child
    return node, len(moves)


def node_at(record: GameRecord, moves: Sequence[str]) -> RecordNode:
    """The node of ``moves`` (canonical texts).

    Raises:
        AppError: if the tree has no such node.
    """
    node, depth = find(record, moves)
    if depth < len(moves):
        raise AppError(f"the study has no line {' '.join(moves[:depth + 1])[:80]}")
    return node


def on_main_line(node: RecordNode) -> bool:
    """Whether ``node`` is a position of the game itself."""
    return node.is_mainline()


def add_line(record: GameRecord, moves: Sequence[str]) -> MoveNode:
    """Add the side line ``moves`` (canonical texts, legal: see
    :meth:`hexgames.web.positions.Positions.board`) to
    the tree: the moves it already has are followed, the others added as the last
    alternatives where they leave it. Returns the line's last node.

    Raises:
        AppError: for an empty line, a line that would continue the game's main line
            from its last position (that move is the game's to play), or a tree that
            would grow beyond :data:`hexgames.limits.MAX_STUDY_NODES`.
    """
    if not moves:
        raise AppError("a side line needs at least one move")
    node, depth = find(record, moves)
    if depth == len(moves):
        assert isinstance(node, MoveNode)
        return node
    if on_main_line(node) and not node.variations:
        raise AppError("the game goes on from this position: its next move is played in "
                       "the game, not as a side line")
    total = count_nodes(record) + len(moves) - depth
    if total > limits.MAX_STUDY_NODES:
        raise AppError(f"the study would hold {total} moves: a game's study may hold at "
                       f"most {limits.MAX_STUDY_NODES} (hexgames.limits.MAX_STUDY_NODES)")
    for text in moves[depth:]:
        node = node.add_variation(text)
    assert isinstance(node, MoveNode)
    return node


def _variation_start(node: RecordNode) -> MoveNode:
    """The first move of the variation ``node`` lies in (``node`` itself when it starts
    one).

    Raises:
        AppError: for a node of the game's main line.
    """
    here: RecordNode = node
    while here.parent is not None and here.is_main_variation():
        here = here.parent
    if here.parent is None:
        raise AppError("that move is the game's own: the main line is the game")
    assert isinstance(here, MoveNode)
    return here


def delete(record: GameRecord, moves: Sequence[str]) -> None:
    """Delete the node of ``moves`` and everything after it.

    Raises:
        AppError: for a node of the game's main line (take it back with undo instead)
            or no node.
    """
    node = node_at(record, moves)
    if on_main_line(node) or node.parent is None or not isinstance(node, MoveNode):
        raise AppError("that move is the game's own: the main line is the game (undo "
                       "takes back its moves)")
    node.parent.remove_variation(node)


def promote(record: GameRecord, moves: Sequence[str]) -> None:
    """Move the variation that holds the node of ``moves`` one place towards the main
    continuation of its position (in a side line it may become the main continuation;
    from a position of the game it stays after the game's own move).

    Raises:
        AppError: for a node of the main line, or a variation right after the game's
            own move.
    """
    start = _variation_start(node_at(record, moves))
    parent = start.parent
    assert parent is not None
    index = next(i for i, child in enumerate(parent.variations) if child is start)
    if index == 1 and on_main_line(parent):
        raise AppError("the game's own move stays first: a side line cannot replace it "
                       "(start a new game from this position to play the line)")
    parent.promote(start)


def demote(record: GameRecord, moves: Sequence[str]) -> None:
    """Move the variation that holds the node of ``moves`` one place away from the main
    continuation.

    Raises:
        AppError: for a node of the main line.
    """
    start = _variation_start(node_at(record, moves))
    assert start.parent is not None
    start.parent.demote(start)


def set_comment(record: GameRecord, moves: Sequence[str], text: object) -> None:
    """Set the comment after the move of ``moves`` (``[]``: the comment before the first
    move); ``None`` or empty text removes it.

    Raises:
        AppError: for text that is not text, longer than
            :data:`hexgames.limits.MAX_COMMENT`, or holding ``}`` (records cannot).
    """
    if text is not None and not isinstance(text, str):
        raise AppError("\"text\" must be the comment's text or null")
    if text is not None and len(text) > limits.MAX_COMMENT:
        raise AppError(f"the comment is {len(text)} characters long: a comment may hold "
                       f"at most {limits.MAX_COMMENT} (hexgames.limits.MAX_COMMENT)")
    if text is not None and "}" in text:
        raise AppError("a comment cannot hold '}' (it ends a comment in a record)")
    node = node_at(record, moves)
    node.comment = text.strip() if text and text.strip() else None


def set_nags(record: GameRecord, moves: Sequence[str], nags: object) -> None:
    """Set the NAGs of the move of ``moves`` (``[1]`` for ``!``; PGN's numbers 0 to 255,
    at most :data:`hexgames.limits.MAX_NAGS` of them).

    Raises:
        AppError: for the starting position, or NAGs that are not such a list.
    """
    if not isinstance(nags, list) or len(nags) > limits.MAX_NAGS:
        raise AppError(f"\"nags\" must be a list of at most {limits.MAX_NAGS} NAGs, e.g. "
                       "[1] for !")
    node = node_at(record, moves)
    if not isinstance(node, MoveNode):
        raise AppError("the starting position has no move to annotate")
    try:
        node.nags = check_nags(nags)
    except RecordError as error:
        raise AppError(str(error)) from None


def write(record: GameRecord) -> str:
    """The canonical ``.hgn`` text of ``record``.

    Raises:
        AppError: if the record cannot be written (a tag value the writer refuses).
    """
    try:
        return write_game(record)
    except RecordError as error:
        raise AppError(f"the study record cannot be written: {error}") from None


# --- whole-game analysis ----------------------------------------------------------------


def _info_json(info: Info) -> JSON:
    return {"score": info.score, "eval": info.eval, "mate": info.mate,
            "pv": [move_text(m) for m in info.pv], "depth": info.depth}


def analysis_json(result: GameAnalysis, moves: Sequence[str], seconds: float) -> JSON:
    """The whole-game analysis of the protocol's ``game_analysis`` (see
    docs/web-protocol.md): per position the first player's winning chance, per move
    the judgement and the engine's better move, and each player's accuracy
    (:mod:`hexgames.accuracy`)."""
    positions = []
    for ply in range(len(moves) + 1):
        info = result.infos.get(ply)
        positions.append(None if info is None else {
            **_info_json(info), "wp": result.first_player_chance(ply)})
    reports = [{"ply": r.ply, "move": r.move, "mover": r.mover, "before": r.before,
                "after": r.after, "drop": r.drop, "judgement": r.judgement,
                "best": r.best, "best_line": list(r.best_line)} for r in result.moves]
    return {"moves": list(moves), "player": result.player, "time": seconds,
            "complete": result.complete, "first_turn": result.first_turn,
            "positions": positions, "reports": reports,
            "accuracy": [None if a is None else round(a, 1)
                         for a in game_accuracy(result.moves)]}


def analysis_of_json(value: JSON) -> GameAnalysis:
    """The :class:`~hexgames.analysis.GameAnalysis` of :func:`analysis_json` (for
    :func:`hexgames.analysis.annotate`; the moves are texts)."""
    infos = {}
    for ply, position in enumerate(value["positions"]):
        if position is not None:
            infos[ply] = Info(score=position["score"], eval=position["eval"],
                              mate=position["mate"], pv=list(position["pv"]),
                              depth=position["depth"])
    reports = [MoveReport(ply=r["ply"], move=r["move"], mover=r["mover"],
                          before=r["before"], after=r["after"], drop=r["drop"],
                          judgement=r["judgement"], best=r["best"],
                          best_line=tuple(r["best_line"])) for r in value["reports"]]
    return GameAnalysis(infos=infos, moves=reports, player=str(value["player"]),
                        limit=Limit(time=float(value["time"])),
                        complete=bool(value["complete"]),
                        first_turn=int(value["first_turn"]))
