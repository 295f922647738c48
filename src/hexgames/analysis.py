"""Whole-game analysis: the engine's view of every position of a game, its mistakes,
and a record annotated with both.

:func:`analyse_record` searches each position of a record's main line with one player
and returns a :class:`GameAnalysis`: for each position the search's :class:`~hexgames.
engine.base.Info` (the side to move's winning chance, evaluation, best line), and for
each move played the drop of the mover's winning chance it caused. :func:`annotate`
writes that into a copy of the record: after each move a comment with the evaluation,
a NAG (``?!``, ``?``, ``??``) for the mistakes, and the engine's better line as a
variation where the move played was a mistake. ``hexgames analyse --record FILE --all``
does this on the command line; the browser app's "analyse the whole game" uses the same
functions.

**The judgement of a move** (after lichess's, which judges moves by the drop of the
winning chance rather than of the evaluation, so that a blunder in a won position and
one in a lost position count alike): ``before`` is the mover's winning chance with the
best move (the search of the position before the move), ``after`` the mover's chance
after the move played (one minus the opponent's chance found by the search of the next
position, or the game's result when it ended). A mate score (a forced win found by the
search or proven by the solver) counts as a chance of 1 for the side that wins and 0 for
the other, whatever chance the player reported beside it. A drop of at least
:data:`INACCURACY` (0.10) is an inaccuracy, :data:`MISTAKE` (0.20) a mistake,
:data:`BLUNDER` (0.30) a blunder. Whatever the drop, a move that walks into a forced loss
(the position after it is a mate score against the mover, the one before was not) is a
blunder; a move that throws a forced win away is judged by its drop from 1 (a blunder
once the mover's chance falls to 0.70 or below). Searches are not perfect, so a move can
also "gain": drops below zero count as none. docs/records.md has the rule as a table.

**The comments** hold the evaluation after the move from the first player's point of
view, in the form lichess uses for its evaluations (``[%eval 0.35]``, in pawns there;
here in the engine's points divided by 100, so ``[%eval 1.20]`` is an edge of 120
points), ``[%eval #5]`` / ``[%eval #-5]`` for a forced win of the first / second player
in 5 plies, and ``[%wp 0.62]``, the first player's winning chance. See
``docs/records.md``. Annotating a record that carries them already replaces them (and
the judgement NAG, and keeps one better line per move), so a record annotated twice
holds one evaluation a move, the newest; :func:`engine_tags` reads them back and
:func:`strip_engine_tags` gives a comment's own text. :func:`without_annotations` takes
out all that :func:`annotate` writes (for a reader who may not see the engine's view:
the server mode's players of a game without engine help, ``hexgames.web.policy``).
"""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from hexgames import limits
from hexgames.engine.base import Info, Limit, Player, game_value
from hexgames.record import GameRecord, MoveNode

__all__ = [
    "BLUNDER",
    "INACCURACY",
    "MISTAKE",
    "GameAnalysis",
    "MoveReport",
    "analyse_record",
    "annotate",
    "chance",
    "engine_tags",
    "has_annotations",
    "judge",
    "strip_engine_tags",
    "without_annotations",
]

#: Drops of the mover's winning chance (0 to 1) that make a move an inaccuracy, a
#: mistake and a blunder.
INACCURACY = 0.10
MISTAKE = 0.20
BLUNDER = 0.30
#: The NAG of each judgement (PGN: $6 ?!, $2 ?, $4 ??).
NAGS = {"inaccuracy": 6, "mistake": 2, "blunder": 4}
#: The better line's comment starts so (a record annotated again keeps one such line).
BETTER = "best: the move played lost"
#: The ``Annotator`` tag of a record :func:`annotate` wrote into starts so.
ANNOTATOR = "hexgames "
#: The commands of the engine's view in a comment, ``[%eval ...]`` and ``[%wp ...]``,
#: with the space before each.
_ENGINE_TAG = re.compile(r"\s*\[%(eval|wp)\s+([^\]\s]*)\s*\]")


def judge(drop: float, *, forced_loss: bool = False) -> str | None:
    """``"blunder"``, ``"mistake"``, ``"inaccuracy"`` or ``None`` for a drop of the
    mover's winning chance (0 to 1); ``forced_loss``: the move walked into a forced loss
    from a position not lost by force, a blunder whatever the drop."""
    if drop >= BLUNDER or forced_loss:
        return "blunder"
    if drop >= MISTAKE:
        return "mistake"
    if drop >= INACCURACY:
        return "inaccuracy"
    return None


@dataclass(frozen=True)
class MoveReport:
    """What the analysis says of one move of the main line.

    Attributes:
        ply: plies before the move (0 for the first move).
        move: the move played, in notation.
        mover: 0 (the first player) or 1.
        before: the mover's winning chance with the engine's best move (0 to 1).
        after: the mover's winning chance after the move played.
        drop: ``max(0, before - after)``.
        judgement: ``"inaccuracy"``, ``"mistake"``, ``"blunder"`` or ``None``.
        best: the engine's best move in the position before, in notation.
        best_line: the engine's principal variation there, in notation.
    """

    ply: int
    move: str
    mover: int
    before: float
    after: float
    drop: float
    judgement: str | None
    best: str | None
    best_line: tuple[str, ...]


@dataclass
class GameAnalysis:
    """The analysis of a game's main line.

    Attributes:
        infos: the search's report on each position analysed, by ply (the position
            before move ``ply``); a finished position has none.
        moves: one :class:`MoveReport` per move whose position before and after are
            both known.
        player: the analysing player's spec or name.
        limit: the limit of each search.
        complete: whether every position was analysed (false when stopped early).
        first_turn: the side to move at the record's start (0 or 1).
    """

    infos: dict[int, Info] = field(default_factory=dict)
    moves: list[MoveReport] = field(default_factory=list)
    player: str = ""
    limit: Limit | None = None
    complete: bool = False
    first_turn: int = 0

    def turn(self, ply: int) -> int:
        """The side to move after ``ply`` plies."""
        return (self.first_turn + ply) % 2

    def first_player_chance(self, ply: int) -> float | None:
        """The first player's winning chance in the position after ``ply`` plies, as
        the analysis found it (1 or 0 for a mate score, see :func:`chance`), or ``None``
        if that position was not analysed."""
        info = self.infos.get(ply)
        if info is None or (info.score is None and not info.mate):
            return None
        return chance(info) if self.turn(ply) == 0 else 1.0 - chance(info)


ProgressCallback = Callable[[int, int], None]


def chance(info: Info) -> float:
    """The side to move's winning chance (0 to 1) of a search's report: 1 or 0 for a
    mate score (a forced win or loss), else its ``score`` (0.5 when it has none)."""
    if info.mate is not None and info.mate != 0:
        return 1.0 if info.mate > 0 else 0.0
    return 0.5 if info.score is None else float(info.score)


def _notation(move: Any) -> str:
    return str(move.notation())


def analyse_record(record: GameRecord, player: Player, limit: Limit, *,
                   name: str = "", progress: ProgressCallback | None = None,
                   should_stop: Callable[[], bool] | None = None) -> GameAnalysis:
    """Search every position of ``record``'s main line with ``player``.

    Args:
        record: a validated record (its moves are replayed; an illegal move raises the
            record's error).
        player: the analysing player; it is told ``new_game()`` first.
        limit: the limit of each search (seconds, nodes or depth).
        name: the player's spec, kept in the result (for the ``Annotator`` tag).
        progress: called with (positions done, positions to analyse) after each one.
        should_stop: polled between positions; when it returns true the analysis ends
            early with what it has (``complete`` false).

    Returns:
        the :class:`GameAnalysis`; ply ``p``'s side to move is ``p % 2`` counted from
        the record's starting position's side to move.
    """
    board: Any = record.starting_board()
    first_turn = int(board.turn)
    moves = list(record.moves)
    analysis = GameAnalysis(player=name or player.name, limit=limit, first_turn=first_turn)
    player.new_game()
    values: dict[int, float] = {}  # ply -> chance of the side to move there
    total = len(moves) + 1
    for ply in range(total):
        if should_stop is not None and should_stop():
            break
        if board.is_game_over():
            values[ply] = game_value(board, int(board.turn))
        else:
            result = player.play(board, limit)
            info = result.info
            if not info.pv:
                info.pv = [result.move]
            analysis.infos[ply] = info
            values[ply] = chance(info)
        if progress is not None:
            progress(ply + 1, total)
        if ply < len(moves):
            board.push(board.parse_notation(moves[ply]))
    else:
        analysis.complete = True
    for ply, text in enumerate(moves):
        if ply not in values or ply + 1 not in values:
            break
        before = values[ply]
        after = 1.0 - values[ply + 1]
        drop = max(0.0, before - after)
        found = analysis.infos.get(ply)
        line = tuple(_notation(m) for m in found.pv) if found is not None else ()
        following = analysis.infos.get(ply + 1)
        # the opponent wins by force after the move, and the mover did not lose by force
        forced_loss = (following is not None and following.mate is not None
                       and following.mate > 0
                       and not (found is not None and found.mate is not None
                                and found.mate < 0))
        analysis.moves.append(MoveReport(
            ply=ply, move=text, mover=(first_turn + ply) % 2, before=before, after=after,
            drop=drop, judgement=judge(drop, forced_loss=forced_loss),
            best=line[0] if line else None, best_line=line))
    return analysis


def _eval_text(info: Info, first_sign: int) -> str:
    """``[%eval ...] [%wp ...]`` of a position, from the first player's point of view;
    ``first_sign`` is +1 when the first player is to move there, else -1."""
    if info.mate is not None:
        evaluation = f"#{first_sign * info.mate}"
    elif info.eval is not None:
        evaluation = f"{first_sign * info.eval / 100:.2f}"
        if evaluation == "-0.00":  # a zero seen from the second player, or a rounding
            evaluation = "0.00"
    else:
        evaluation = None
    parts = []
    if evaluation is not None:
        parts.append(f"[%eval {evaluation}]")
    if info.score is not None or info.mate:
        first = chance(info) if first_sign > 0 else 1.0 - chance(info)
        parts.append(f"[%wp {first:.2f}]")
    return " ".join(parts)


def strip_engine_tags(comment: str | None) -> str | None:
    """``comment`` without the engine's ``[%eval ...]`` and ``[%wp ...]`` commands (any
    others, such as ``[%clk ...]``, stay), its surrounding space trimmed; ``None`` when
    nothing is left of a comment that had them (or when ``comment`` is ``None``)."""
    if comment is None:
        return None
    text = _ENGINE_TAG.sub("", comment)
    if text == comment:
        return comment
    return text.strip() or None


def engine_tags(comment: str | None) -> dict[str, str]:
    """The engine's commands in ``comment``, ``{"eval": "1.20" | "#-5", "wp": "0.62"}``
    (those present); of a command written more than once (a record annotated twice by
    an older version), the last, the newest."""
    found: dict[str, str] = {}
    for match in _ENGINE_TAG.finditer(comment or ""):
        found[match.group(1)] = match.group(2)
    return found


def _with_engine_tags(comment: str | None, tags: str) -> str:
    """``comment``'s own text and then ``tags`` (the engine's commands it had are
    replaced), within :data:`hexgames.limits.MAX_COMMENT` characters: an own text too
    long for both is shortened, its end marked by an ellipsis."""
    own = strip_engine_tags(comment)
    if not own:
        return tags
    room = limits.MAX_COMMENT - len(tags) - 1
    if len(own) > room:
        own = own[:max(0, room - 1)].rstrip() + "…"
    return f"{own} {tags}"


def annotate(record: GameRecord, analysis: GameAnalysis, *,
             variations: bool = True) -> GameRecord:
    """A copy of ``record`` with the analysis written in.

    After each move of the main line whose next position was analysed: a comment with
    that position's evaluation (``[%eval ...] [%wp ...]``, see the module docstring),
    after the comment's own text (the engine's commands it had are replaced; an own text
    too long for both within :data:`hexgames.limits.MAX_COMMENT` is shortened); a NAG
    for an inaccuracy, mistake or blunder, in place of another of those three; and, with
    ``variations``, for a mistake or blunder whose best move differs and is not a
    variation there already, the engine's best line from the position before as a
    variation, its first move commented with the drop. An ``Annotator`` tag names the
    player and the limit. Nothing else of the record changes.
    """
    annotated = copy.deepcopy(record)
    nodes = list(annotated.root.mainline())
    reports = {report.ply: report for report in analysis.moves}
    for ply, node in enumerate(nodes):
        info = analysis.infos.get(ply + 1)
        if info is not None:
            sign = 1 if analysis.turn(ply + 1) == 0 else -1
            text = _eval_text(info, sign)
            if text:
                node.comment = _with_engine_tags(node.comment, text)
        report = reports.get(ply)
        if report is None or report.judgement is None:
            continue
        nag = NAGS[report.judgement]
        node.nags = [n for n in node.nags if n == nag or n not in NAGS.values()]
        if nag not in node.nags:
            node.nags.append(nag)
        parent = node.parent
        assert parent is not None
        if (variations and report.judgement != "inaccuracy" and report.best is not None
                and report.best != report.move
                and all(v.move != report.best for v in parent.variations)):
            start = parent.add_variation(
                report.best, comment=f"{BETTER} {report.drop:.0%} of the winning chance")
            start.add_line(report.best_line[1:])
    described = analysis.limit.describe() if analysis.limit is not None else ""
    limit_text = f", {described} a position" if described else ""
    annotated.tags["Annotator"] = f"{ANNOTATOR}{analysis.player}{limit_text}"
    return annotated


def _better_line(node: MoveNode) -> bool:
    """Whether ``node`` starts a better line :func:`annotate` wrote (a variation, its
    comment :data:`BETTER`'s)."""
    return not node.is_main_variation() and (node.comment or "").startswith(BETTER)


def _engines_annotator(record: GameRecord) -> bool:
    return record.tags.get("Annotator", "").startswith(ANNOTATOR)


def has_annotations(record: GameRecord) -> bool:
    """Whether ``record`` holds anything :func:`without_annotations` takes out."""
    return _engines_annotator(record) or bool(engine_tags(record.root.comment)) or any(
        engine_tags(node.comment) or engine_tags(node.starting_comment)
        or _better_line(node) for node in record.nodes())


def without_annotations(record: GameRecord) -> GameRecord:
    """A copy of ``record`` without what an engine wrote into it (:func:`annotate`'s
    work, for a reader who may not see the engine's view): the ``[%eval ...]`` and
    ``[%wp ...]`` commands of every comment (:func:`strip_engine_tags`), the better
    lines (a variation whose comment starts with :data:`BETTER`, with what grew on it),
    and in a record this module annotated (its ``Annotator`` tag starts with
    :data:`ANNOTATOR`) that tag and the judgement NAGs of its main line (``?!``, ``?``,
    ``??``: a record does not say who wrote a NAG, so a person's own of those three go
    too). The rest (the comments' own text and other commands such as ``[%clk ...]``,
    the other NAGs, the side lines people wrote, the other tags) stays. Time linear in
    the number of moves; ``record`` is unchanged."""
    shown = record.copy()
    judged = _engines_annotator(shown)
    if judged:
        del shown.tags["Annotator"]
    shown.root.comment = strip_engine_tags(shown.root.comment)
    for node in list(shown.nodes()):
        if _better_line(node) and node.parent is not None:
            node.parent.remove_variation(node)
    for node in shown.nodes():
        node.comment = strip_engine_tags(node.comment)
        node.starting_comment = strip_engine_tags(node.starting_comment)
        if judged and node.is_mainline():
            node.nags = [nag for nag in node.nags if nag not in NAGS.values()]
    return shown
