// The study tree of a game as the page holds it: the server's TREE (docs/web-protocol.md)
// and the page's private lines (when it may not edit the shared study, or it is read-only).
// A node is named by its line: the moves from the start to it.

export const NAG_GLYPHS = { 1: "!", 2: "?", 3: "!!", 4: "??", 5: "!?", 6: "?!" };

/** "0,1 1,1": the key of a line. */
export function lineKey(line) {
  return line.join(" ");
}

/** Whether lines `a` and `b` are the same moves. */
export const sameLine = (a, b) => a.length === b.length && a.every((m, i) => m === b[i]);

/** Whether line `a` is the start of line `b` (or all of it). */
export const isPrefix = (a, b) => a.length <= b.length && a.every((m, i) => m === b[i]);

function makeNode(move, parent, extra = {}) {
  return {
    move,
    parent,
    children: [],
    nags: extra.nags || [],
    comment: extra.comment ?? null,
    startingComment: extra.starting_comment ?? null,
    private: !!extra.private,
    line: parent ? [...parent.line, move] : [],
  };
}

export class StudyTree {
  /** tree: the state's TREE; main: the game's moves; privateLines: lines kept by the page. */
  constructor(tree, main, privateLines = []) {
    this.root = makeNode(null, null, { comment: tree ? tree.comment : null });
    this.root.line = [];
    const made = [];
    for (const n of tree?.nodes || []) {
      const parent = n.parent < 0 ? this.root : made[n.parent];
      const node = makeNode(n.move, parent, n);
      parent.children.push(node);
      made.push(node);
    }
    // an older server without a tree: the main line alone
    if (!made.length && main.length) {
      let node = this.root;
      for (const move of main) {
        const child = makeNode(move, node);
        node.children.push(child);
        node = child;
      }
    }
    this.mainLength = main.length;
    for (const line of privateLines) this.addPrivate(line);
  }

  /** The node of a line, or null. */
  find(line) {
    let node = this.root;
    for (const move of line) {
      node = node.children.find((c) => c.move === move);
      if (!node) return null;
    }
    return node;
  }

  /** Whether the line is a prefix of the game's main line. */
  onMain(line) {
    let node = this.root;
    for (const move of line) {
      const next = node.children[0];
      if (!next || next.move !== move) return false;
      node = next;
    }
    return true;
  }

  /** Add a line kept by the page (marked private where it leaves the shared tree). */
  addPrivate(line) {
    return this.addLine(line, true);
  }

  /** Add a line; its new nodes are private (the page's own) or not (the shared study's,
   * shown before the server's state confirms them). */
  addLine(line, isPrivate) {
    let node = this.root;
    for (const move of line) {
      let child = node.children.find((c) => c.move === move);
      if (!child) {
        child = makeNode(move, node, { private: isPrivate });
        node.children.push(child);
      }
      node = child;
    }
    return node;
  }

  /** The end of the line that continues from `line` by main continuations. */
  endOf(line) {
    let node = this.find(line) || this.root;
    while (node.children.length) node = node.children[0];
    return node.line;
  }

  /** The first move of the variation that holds the node of `line` (null on the main line). */
  variationStart(line) {
    let node = this.find(line);
    while (node?.parent && node.parent.children[0] === node) node = node.parent;
    return node?.parent ? node : null;
  }
}

/** Private lines of a game, kept in this browser's session storage. */
export const privateStore = {
  key: (id) => `hexgames.private.${id}`,
  load(id) {
    try {
      const lines = JSON.parse(sessionStorage.getItem(this.key(id)) || "[]");
      return Array.isArray(lines) ? lines.filter((l) => Array.isArray(l)) : [];
    } catch {
      return [];
    }
  },
  save(id, lines) {
    try {
      sessionStorage.setItem(this.key(id), JSON.stringify(lines));
    } catch {
      // storage may be refused: the lines then last for this page only
    }
  },
};

/** The lines of `lines` with every line that starts with `prefix` removed. */
export function withoutPrefix(lines, prefix) {
  return lines.filter((line) => !isPrefix(prefix, line));
}

/** The move number text before a move of ply index i (0-based) given the side that moved first. */
export function moveLabel(i, firstTurn, force = false) {
  const index = firstTurn + i;
  const number = Math.floor(index / 2) + 1;
  if (index % 2 === 0) return `${number}.`;
  return force ? `${number}…` : "";
}

export function nagText(nags) {
  return (nags || []).map((n) => NAG_GLYPHS[n] || ` $${n}`).join("");
}
