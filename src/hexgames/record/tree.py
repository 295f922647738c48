"""The move tree of a game record (:attr:`hexgames.record.GameRecord.root`).

A node is a position; the root is the game's starting position and every other node a
:class:`MoveNode`, reached from its parent by its move. A node's ``variations`` are the
moves played from it: ``variations[0]`` continues its line (the main continuation), the
others are alternatives to that move, written after it in parentheses (PGN's recursive
annotation variations). The main line of a record is the root's chain of main
continuations. Comments and NAGs (numeric annotation glyphs) sit on the nodes.

The vocabulary is python-chess's ``GameNode``/``ChildNode`` (``variations``, ``parent``,
``mainline()``, ``add_variation``, ``promote_to_main``, ``remove_variation``...); moves
are the texts of the record, judged by the game only when a record is validated.

Every walk over a tree is a loop, not a recursion, so a main line of any length and
variations of any depth are safe; :data:`MAX_VARIATION_DEPTH` and
:data:`MAX_GAME_MOVES` bound what the reader builds and the writer writes.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from typing import Any, Final

from hexgames.record.errors import RecordError

__all__ = [
    "GLYPH_NAGS",
    "MAX_GAME_MOVES",
    "MAX_NAG",
    "MAX_NUMBER_DIGITS",
    "MAX_VARIATION_DEPTH",
    "NAG_GLYPHS",
    "MoveNode",
    "RecordNode",
]

# --- limits: the caps of the reader and the writer, in one place ----------------------

#: The deepest nesting of variations a record may have: a variation inside a variation
#: ... this many levels down (the main line is level 0).
MAX_VARIATION_DEPTH: Final = 100
#: The most moves one game may hold, counting the main line and every variation.
MAX_GAME_MOVES: Final = 1_000_000
#: The largest numeric annotation glyph, ``$255`` (PGN's range is 0 to 255).
MAX_NAG: Final = 255
#: The most digits a move number may have (no game is that long; a longer number is
#: refused before it is turned into an int).
MAX_NUMBER_DIGITS: Final = 12

#: The glyphs of NAGs 1 to 6, PGN's numbering (``$1`` is ``!``, a good move).
NAG_GLYPHS: Final[Mapping[int, str]] = {1: "!", 2: "?", 3: "!!", 4: "??", 5: "!?", 6: "?!"}
#: The NAG of each glyph of :data:`NAG_GLYPHS`.
GLYPH_NAGS: Final[Mapping[str, int]] = {glyph: nag for nag, glyph in NAG_GLYPHS.items()}

# The events of walk(): a move, the opening of a variation (before its first move) and
# its closing (after its last).
MOVE: Final = 0
OPEN: Final = 1
CLOSE: Final = 2
_LINE: Final = 3


def check_nags(nags: Iterable[int]) -> list[int]:
    """``nags`` as a list, each checked to be a whole number from 0 to :data:`MAX_NAG`.

    Raises:
        RecordError: for anything else.
    """
    result = list(nags)
    for nag in result:
        if isinstance(nag, bool) or not isinstance(nag, int) or not 0 <= nag <= MAX_NAG:
            raise RecordError(f"a NAG is a whole number from 0 to {MAX_NAG}, not {nag!r}")
    return result


def _check_comment(comment: str | None, what: str) -> None:
    if comment is not None and not isinstance(comment, str):
        raise RecordError(f"{what} is text or None, not {comment!r}")


class RecordNode:
    """A position of a record's move tree. The root of a tree (the starting position)
    is a plain ``RecordNode``; the nodes below it are :class:`MoveNode`.

    Nodes compare by identity; :meth:`same_tree` compares what they hold.

    Attributes:
        parent: the node this one's move was played from; ``None`` for the root (and
            for a node removed from its tree).
        variations: the moves played from here, in order: ``variations[0]`` is the main
            continuation, the others are alternatives to it.
        comment: the comment after this node's move, or for the root the comment before
            the first move; ``None`` for none (``""`` is an empty comment, ``{}``).
    """

    __slots__ = ("comment", "parent", "variations")

    def __init__(self, *, comment: str | None = None) -> None:
        _check_comment(comment, "a comment")
        self.parent: RecordNode | None = None
        self.variations: list[MoveNode] = []
        self.comment = comment

    # --- where the node is ------------------------------------------------------------

    def root(self) -> RecordNode:
        """The root of this node's tree (the starting position)."""
        node = self
        while node.parent is not None:
            node = node.parent
        return node

    def ply(self) -> int:
        """The number of moves from the root to this node (0 for the root)."""
        count, node = 0, self
        while node.parent is not None:
            count += 1
            node = node.parent
        return count

    def is_main_variation(self) -> bool:
        """Whether this node is its parent's main continuation (the root is)."""
        return self.parent is None or self.parent.variations[0] is self

    def starts_variation(self) -> bool:
        """Whether this node is the first move of a variation: an alternative to its
        parent's main continuation."""
        return self.parent is not None and self.parent.variations[0] is not self

    def is_mainline(self) -> bool:
        """Whether this node is on the main line of its tree (the root is)."""
        node: RecordNode = self
        while node.parent is not None:
            if node.parent.variations[0] is not node:
                return False
            node = node.parent
        return True

    def variation_path(self) -> tuple[tuple[int, int], ...]:
        """The variations that lead from the root's main line to this node: ``(ply,
        index)`` pairs from the outermost in, ``ply`` being the ply of the variation's
        first move (1-based, from the root) and ``index`` its 1-based number among the
        alternatives to the move it replaces. ``()`` on the main line."""
        chain: list[RecordNode] = []
        node: RecordNode | None = self
        while node is not None:
            chain.append(node)
            node = node.parent
        path = []
        for ply, child in enumerate(reversed(chain)):
            parent = child.parent
            if parent is not None and parent.variations[0] is not child:
                index = next(i for i, other in enumerate(parent.variations) if other is child)
                path.append((ply, index))
        return tuple(path)

    # --- going down -------------------------------------------------------------------

    def next(self) -> MoveNode | None:
        """The main continuation, or ``None`` at the end of a line."""
        return self.variations[0] if self.variations else None

    def is_end(self) -> bool:
        """Whether no move follows this node."""
        return not self.variations

    def end(self) -> RecordNode:
        """The last node of the main continuation from here (this node at an end)."""
        node: RecordNode = self
        while node.variations:
            node = node.variations[0]
        return node

    def mainline(self) -> Iterator[MoveNode]:
        """The nodes of the main continuation from here, in order (not this node)."""
        node: RecordNode = self
        while node.variations:
            node = node.variations[0]
            yield node

    def mainline_moves(self) -> list[str]:
        """The move texts of :meth:`mainline`."""
        return [node.move for node in self.mainline()]

    def descendants(self) -> Iterator[MoveNode]:
        """Every node below this one, in the order a record writes them (each move, then
        the variations that replace it, then the line it continues)."""
        for event, node, _, _ in walk(self):
            if event == MOVE:
                yield node

    def variation(self, which: int | str | MoveNode) -> MoveNode:
        """The variation ``which``: an index into :attr:`variations`, a move text (the
        first variation whose move is written so) or one of the nodes themselves.

        Raises:
            RecordError: if there is no such variation.
        """
        if isinstance(which, MoveNode):
            if any(child is which for child in self.variations):
                return which
            raise RecordError(f"{which!r} is not a variation of this node")
        if isinstance(which, str):
            for child in self.variations:
                if child.move == which:
                    return child
            raise RecordError(f"no variation of this node plays {which!r}")
        if isinstance(which, int) and not isinstance(which, bool):
            if -len(self.variations) <= which < len(self.variations):
                return self.variations[which]
            raise RecordError(f"variation index {which} is out of range "
                              f"(this node has {len(self.variations)})")
        raise RecordError(f"a variation is named by an index, a move text or a node, "
                          f"not {which!r}")

    def has_variation(self, which: int | str | MoveNode) -> bool:
        """Whether :meth:`variation` finds ``which``."""
        try:
            self.variation(which)
        except RecordError:
            return False
        return True

    # --- editing ----------------------------------------------------------------------

    def add_variation(self, move: str, *, nags: Iterable[int] = (),
                      comment: str | None = None,
                      starting_comment: str | None = None) -> MoveNode:
        """A new node playing ``move`` from here, after the existing variations (the main
        continuation when there is none yet).

        The move is a record's move text; it is judged by the game when the record is
        validated, not here.

        Args:
            move: the move as written, e.g. ``"0,1"`` or ``"c3-d4"``.
            nags: its numeric annotation glyphs (0 to 255, see :data:`NAG_GLYPHS`).
            comment: the comment after the move.
            starting_comment: the comment before it, written after the ``(`` that
                opens the variation; only a variation's first move can carry one.

        Raises:
            RecordError: for a move that is not text, a bad NAG or a comment that is not
                text.
        """
        node = MoveNode(move, nags=nags, comment=comment, starting_comment=starting_comment)
        node.parent = self
        self.variations.append(node)
        return node

    def add_main_variation(self, move: str, *, nags: Iterable[int] = (),
                           comment: str | None = None) -> MoveNode:
        """A new node playing ``move`` from here that becomes the main continuation (the
        former one becomes the first alternative). Arguments as :meth:`add_variation`."""
        node = MoveNode(move, nags=nags, comment=comment)
        node.parent = self
        self.variations.insert(0, node)
        return node

    def add_line(self, moves: Iterable[str]) -> RecordNode:
        """Add ``moves`` as a line from here: the first as :meth:`add_variation`, each
        next one as the main continuation of the one before. Returns the last node (this
        node if ``moves`` is empty)."""
        node: RecordNode = self
        for move in moves:
            node = node.add_variation(move)
        return node

    def _index(self, which: int | str | MoveNode) -> int:
        child = self.variation(which)
        return next(i for i, other in enumerate(self.variations) if other is child)

    def promote_to_main(self, which: int | str | MoveNode) -> None:
        """Make the variation ``which`` (as :meth:`variation`) the main continuation; the
        others keep their order after it.

        Raises:
            RecordError: if there is no such variation.
        """
        index = self._index(which)
        self.variations.insert(0, self.variations.pop(index))

    def promote(self, which: int | str | MoveNode) -> None:
        """Move the variation ``which`` one place towards the main continuation."""
        index = self._index(which)
        if index > 0:
            v = self.variations
            v[index - 1], v[index] = v[index], v[index - 1]

    def demote(self, which: int | str | MoveNode) -> None:
        """Move the variation ``which`` one place away from the main continuation."""
        index = self._index(which)
        if index < len(self.variations) - 1:
            v = self.variations
            v[index + 1], v[index] = v[index], v[index + 1]

    def remove_variation(self, which: int | str | MoveNode) -> MoveNode:
        """Remove the variation ``which`` and everything after it; returns its node, now
        the root of a tree of its own (``parent`` ``None``).

        Raises:
            RecordError: if there is no such variation.
        """
        node = self.variations.pop(self._index(which))
        node.parent = None
        return node

    # --- comparing, copying -----------------------------------------------------------

    def same_tree(self, other: RecordNode) -> bool:
        """Whether the trees below this node and ``other`` hold the same moves, NAGs,
        comments and variations in the same order (source lines are not compared)."""
        pairs: list[tuple[RecordNode, RecordNode]] = [(self, other)]
        while pairs:
            a, b = pairs.pop()
            if (_row(a, -1)[1:5] != _row(b, -1)[1:5]
                    or len(a.variations) != len(b.variations)):
                return False
            pairs.extend(zip(a.variations, b.variations, strict=True))
        return True

    def __reduce__(self) -> tuple[Any, ...]:
        # The default would recurse along every line (a long game exceeds the recursion
        # limit); the whole tree goes as a flat list of rows, and this node by its row.
        rows, index = _flatten(self.root(), self)
        return (_rebuild, (rows, index))

    def __repr__(self) -> str:
        return f"RecordNode(comment={self.comment!r}, variations={len(self.variations)})"


class MoveNode(RecordNode):
    """A node reached by a move.

    Attributes:
        move: the move as written in the record (``"0,1"``, ``"c3-d4"``).
        nags: its numeric annotation glyphs, in the order written (``[1]`` for ``!``).
        starting_comment: the comment before the move, at the start of a variation
            (``( {this} 3... 1,1 ...)``); ``None`` for none. A main continuation cannot
            carry one (the comment there is its parent's :attr:`comment`).
        line, column: where the move was read (1-based), ``None`` for a node made in
            code; not compared.
    """

    __slots__ = ("column", "line", "move", "nags", "starting_comment")

    def __init__(self, move: str, *, nags: Iterable[int] = (), comment: str | None = None,
                 starting_comment: str | None = None, line: int | None = None,
                 column: int | None = None) -> None:
        if not isinstance(move, str):
            raise RecordError(f"a move is its text, such as '0,1', not {move!r}")
        _check_comment(starting_comment, "a starting comment")
        super().__init__(comment=comment)
        self.move = move
        self.nags = check_nags(nags)
        self.starting_comment = starting_comment
        self.line = line
        self.column = column

    @classmethod
    def _trusted(cls, parent: RecordNode, move: str, nags: list[int], comment: str | None,
                 starting_comment: str | None, line: int | None,
                 column: int | None) -> MoveNode:
        """A node of values already checked, added as the last variation of ``parent``
        (the reader and the copies make many: this skips the checks)."""
        node = cls.__new__(cls)
        node.parent = parent
        node.variations = []
        node.comment = comment
        node.move = move
        node.nags = nags
        node.starting_comment = starting_comment
        node.line = line
        node.column = column
        parent.variations.append(node)
        return node

    def __repr__(self) -> str:
        return (f"MoveNode({self.move!r}, ply={self.ply()}, nags={self.nags!r}, "
                f"comment={self.comment!r}, starting_comment={self.starting_comment!r}, "
                f"variations={len(self.variations)})")


def walk(start: RecordNode) -> Iterator[tuple[int, MoveNode, int, int]]:
    """The tree below ``start`` in the order a record writes it, as events ``(event,
    node, ply, depth)``: ``MOVE`` for each move; ``OPEN`` before the first move of a
    variation and ``CLOSE`` after its last, both with the variation's first node. ``ply``
    counts moves from ``start`` (1 for its children), ``depth`` the variations open (0
    on ``start``'s main continuation).

    A line is its first move, then the variations that replace that move, then the rest
    of the line: ``1. a (1. b c) (1. d) 1... e``. Linear in the size of the tree, with no
    recursion.
    """
    stack: list[tuple[int, MoveNode | RecordNode, int, int]] = [(_LINE, start, 0, 0)]
    while stack:
        kind, node, ply, depth = stack.pop()
        if kind == _LINE:
            if not node.variations:
                continue
            main = node.variations[0]
            yield MOVE, main, ply + 1, depth
            stack.append((_LINE, main, ply + 1, depth))
            for side in reversed(node.variations[1:]):
                stack.append((CLOSE, side, ply + 1, depth + 1))
                stack.append((_LINE, side, ply + 1, depth + 1))
                stack.append((OPEN, side, ply + 1, depth + 1))
            continue
        assert isinstance(node, MoveNode)
        yield kind, node, ply, depth
        if kind == OPEN:
            yield MOVE, node, ply, depth


# A node as a row: (parent row, move or None for a root, nags, comment, starting
# comment, line, column).
_Row = tuple[int, str | None, tuple[int, ...], str | None, str | None, int | None, int | None]


def _row(node: RecordNode, parent: int) -> _Row:
    if isinstance(node, MoveNode):
        return (parent, node.move, tuple(node.nags), node.comment, node.starting_comment,
                node.line, node.column)
    return (parent, None, (), node.comment, None, None, None)


def _flatten(root: RecordNode, target: RecordNode) -> tuple[list[_Row], int]:
    """The tree of ``root`` as rows in preorder, and the row of ``target``."""
    rows: list[_Row] = []
    found = 0
    stack: list[tuple[RecordNode, int]] = [(root, -1)]
    while stack:
        node, parent = stack.pop()
        if node is target:
            found = len(rows)
        rows.append(_row(node, parent))
        here = len(rows) - 1
        stack.extend((child, here) for child in reversed(node.variations))
    return rows, found


def _rebuild(rows: list[_Row], index: int) -> RecordNode:
    """The node at row ``index`` of the tree that :func:`_flatten` gave ``rows``."""
    nodes: list[RecordNode] = []
    for parent, move, nags, comment, starting, line, column in rows:
        if parent >= 0 and move is not None:
            nodes.append(MoveNode._trusted(nodes[parent], move, list(nags), comment,
                                           starting, line, column))
        elif move is None:
            nodes.append(RecordNode(comment=comment))
        else:  # the top of a detached subtree
            nodes.append(MoveNode(move, nags=nags, comment=comment,
                                  starting_comment=starting, line=line, column=column))
    return nodes[index]


def copy_tree(root: RecordNode) -> RecordNode:
    """A copy of the whole tree of ``root`` (which should be a root), node for node."""
    rows, _ = _flatten(root, root)
    return _rebuild(rows, 0)
