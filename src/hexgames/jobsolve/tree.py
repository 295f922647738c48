"""The master tree of job-level proof-number search: a proof-number search (Allis et
al., *Proof-number search*, Artificial Intelligence 66, 1994) over the top of the game,
whose leaves are settled by jobs (I-C. Wu et al., *Job-level proof-number search for
Connect6*, Computers and Games 2010; IEEE TCIAIG 5(1), 2013).

Nodes are positions (a position reached by two orders of moves is one node, so the tree
is a directed acyclic graph: positions never repeat outside extended play, which the
job-level search refuses). An OR node has the attacker to move, an AND node the
defender. Proof and disproof numbers as in PNS: a new leaf 1 and 1; a finished game 0
and infinity when it meets the goal (the attacker's win; for ``not lose`` a draw too),
else infinity and 0; an OR node the least of its children's proof numbers and the sum
of their disproof numbers, an AND node the other way round.

**Flags** (the "flagging" of JL-PNS): a leaf whose job is running is flagged, and
selection never chooses it, nor a node all of whose unsettled children lead only to
flagged leaves: the next most-proving node is then found elsewhere, so N jobs run on
N different leaves at once. A flagged leaf keeps its numbers while its job runs (the
paper's "virtual equivalence": it is assumed to come back as it went; the paper found
this with flagging the best of its policies).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any

#: Infinity of proof and disproof numbers (sums saturate here).
INF = 1 << 62


class Node:
    """A position of the master tree (see the module)."""

    __slots__ = ("children", "dn", "expanded", "flagged", "moves", "or_node", "parents",
                 "pn", "position", "record", "terminal")

    def __init__(self, position: str, or_node: bool) -> None:
        self.position = position
        self.or_node = or_node
        self.pn = 1
        self.dn = 1
        self.parents: list[Node] = []
        self.children: list[Node] = []
        #: The move from this position to each child, in the game's notation.
        self.moves: list[str] = []
        self.expanded = False
        self.flagged = False
        self.terminal = False
        #: The job record that settled this node (a leaf settled by a job), if any.
        self.record: Any = None

    @property
    def settled(self) -> bool:
        return self.pn == 0 or self.dn == 0

    @property
    def proven(self) -> bool:
        return self.pn == 0

    def __repr__(self) -> str:
        kind = "OR" if self.or_node else "AND"
        return f"Node({self.position!r}, {kind}, pn={self.pn}, dn={self.dn})"


class MasterTree:
    """The master tree of one goal: can ``attacker`` win from ``board``'s position
    (``draw_ok`` False), or not lose (True)?

    Args:
        board: the root position (a board of either game; not changed).
        attacker: 0 the first player, 1 the second.
        draw_ok: whether not losing is the goal.
    """

    def __init__(self, board: Any, attacker: int, draw_ok: bool) -> None:
        self._board_class = type(board)
        self.rules = board.rules
        self.attacker = attacker
        self.draw_ok = draw_ok
        self.nodes: dict[str, Node] = {}
        self.root = self._node(str(board.position()), board)

    def __len__(self) -> int:
        return len(self.nodes)

    def _node(self, position: str, board: Any) -> Node:
        """The node of ``position`` (on ``board``), made when new."""
        node = self.nodes.get(position)
        if node is None:
            node = Node(position, int(board.turn) == self.attacker)
            outcome = board.outcome()
            if outcome is not None:
                node.terminal = True
                met = ((outcome.winner is not None and int(outcome.winner) == self.attacker)
                       or (outcome.winner is None and self.draw_ok))
                node.pn, node.dn = (0, INF) if met else (INF, 0)
            self.nodes[position] = node
        return node

    def expand(self, node: Node) -> None:
        """Add ``node``'s children (every legal move), as new leaves or as the nodes
        their positions already have, and update the numbers above."""
        assert not node.expanded and not node.terminal
        board = self._board_class(node.position, self.rules)
        for move in list(board.legal_moves):
            board.push(move)
            child = self._node(str(board.position()), board)
            board.pop()
            child.parents.append(node)
            node.children.append(child)
            node.moves.append(move.notation())
        node.expanded = True
        self.update(node)

    def settle(self, node: Node, proven: bool, record: Any) -> None:
        """``node`` settled by a job (``record``): proven or disproven; the numbers
        above updated. Its children, if it has any, no longer count."""
        node.pn, node.dn = (0, INF) if proven else (INF, 0)
        node.record = record
        self.update(node)

    def update(self, node: Node) -> None:
        """Recompute the numbers of ``node`` (from its children, unless a job or the
        end of the game settled it) and of every ancestor whose numbers change."""
        if _from_children(node):
            node.pn, node.dn = _numbers(node)
        stack = list(node.parents)
        while stack:
            n = stack.pop()
            if _from_children(n):
                numbers = _numbers(n)
                if numbers != (n.pn, n.dn):
                    n.pn, n.dn = numbers
                    stack.extend(n.parents)

    def select(self) -> Node | None:
        """The most-proving unflagged leaf (see the module), or None when every
        unsettled leaf reachable is flagged (or the root is settled)."""
        return self._pick(self.root, set(), flagged=False)

    def select_flagged(self) -> Node | None:
        """The most-proving leaf among the flagged ones: a leaf whose job runs, to
        expand at once when workers are idle and no unflagged leaf is left."""
        return self._pick(self.root, set(), flagged=True)

    def _pick(self, node: Node, dead: set[int], flagged: bool) -> Node | None:
        if node.settled or id(node) in dead:
            return None
        if not node.expanded:
            if node.flagged == flagged:
                return node
            dead.add(id(node))
            return None
        if node.or_node:
            order = sorted((c for c in node.children if not c.settled),
                           key=lambda c: (c.pn, c.dn))
        else:
            order = sorted((c for c in node.children if not c.settled),
                           key=lambda c: (c.dn, c.pn))
        for child in order:
            found = self._pick(child, dead, flagged)
            if found is not None:
                return found
        dead.add(id(node))
        return None

    def matters(self, node: Node) -> bool:
        """Whether ``node``'s value still matters: it is unsettled and the root, or a
        child of an unsettled node whose value matters (a job below settled nodes only
        can be dropped). Walks up from ``node``, not down from the root."""
        seen: set[int] = set()
        stack = [node]
        while stack:
            n = stack.pop()
            if n.settled:
                continue
            if n is self.root:
                return True
            for parent in n.parents:
                if id(parent) not in seen:
                    seen.add(id(parent))
                    stack.append(parent)
        return False

    def proof_tree(self) -> Iterator[tuple[Node, str | None]]:
        """The settled root's proof in the master tree, for the side the root's value
        favours (the attacker when proven, the defender when disproven): each node of
        it once with the prover's move there (for a node where that side is to move,
        not settled by a job) or None. A node settled by a job (``record``) is a leaf
        of it, as are finished games."""
        assert self.root.settled
        proving = self.root.proven

        def choice(n: Node) -> int | None:
            """The prover's move at ``n``: a child settled its way."""
            if n.terminal or n.record is not None or n.or_node != proving:
                return None
            return next(i for i, c in enumerate(n.children) if c.settled
                        and c.proven == proving)

        def follow(n: Node) -> Iterable[Node]:
            if n.terminal or n.record is not None:
                return ()
            assert n.expanded and n.settled and n.proven == proving
            index = choice(n)
            return n.children if index is None else (n.children[index],)

        for n in self._reach(follow):
            index = choice(n)
            yield n, None if index is None else n.moves[index]

    def _reach(self, follow: Callable[[Node], Iterable[Node]]) -> Iterator[Node]:
        """Each node reachable from the root by ``follow`` (the children to go on to),
        once."""
        seen: set[int] = set()
        stack = [self.root]
        while stack:
            n = stack.pop()
            if id(n) not in seen:
                seen.add(id(n))
                yield n
                stack.extend(follow(n))


def _from_children(node: Node) -> bool:
    """Whether ``node``'s numbers are its children's (expanded, not settled by a
    job)."""
    return node.expanded and node.record is None


def _numbers(node: Node) -> tuple[int, int]:
    """The proof and disproof numbers of an expanded node from its children's."""
    if node.or_node:
        return (min(c.pn for c in node.children),
                min(INF, sum(c.dn for c in node.children)))
    return (min(INF, sum(c.pn for c in node.children)),
            min(c.dn for c in node.children))
