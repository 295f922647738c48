// The move list: the game's main line in numbered pairs, and after a move its side lines
// inline, in parentheses (as a PGN move tree is written). Every move is a button naming
// its line; the page's own private lines are marked. A comment shows its text without
// its commands ([%eval], [%wp], [%clk]); a move whose comment holds an evaluation shows
// it small beside the move, so the rows stay in pairs.

import { h } from "./dom.js";
import { commentText, engineTags, evalNote, recordEvalText } from "./evaluation.js";
import { lineKey, moveLabel, nagText } from "./tree.js";

/**
 * Draw `tree` (a StudyTree) into `list` (an <ol>). current: the line on view; firstTurn:
 * the side that moved first; sides: the sides' names; onSelect(line), onHover(line|null).
 */
export function renderMoveList(list, tree, { current, firstTurn, sides, onSelect, onHover }) {
  const currentKey = lineKey(current);
  const items = [];
  const button = (node, cls, text) => {
    const key = lineKey(node.line);
    const attrs = {
      type: "button",
      class: `${cls}${key === currentKey ? " current" : ""}${node.private ? " private" : ""}`,
      "data-line": key,
      onclick: () => onSelect(node.line),
      onmouseenter: () => onHover(node.line),
      onmouseleave: () => onHover(null),
      onfocus: () => onHover(node.line),
      onblur: () => onHover(null),
    };
    return [attrs, text];
  };

  // a side line, inline: its moves, each move's alternatives in parentheses after it
  const inline = (start) => {
    const parts = [];
    let node = start;
    let force = true;
    while (node) {
      const i = node.line.length - 1;
      const label = moveLabel(i, firstTurn, force);
      const [attrs] = button(node, "side-move");
      attrs["aria-label"] = `${label} ${node.move}${node.private ? " (your line)" : ""}`;
      parts.push(
        h("button", attrs, [
          label ? h("span", { class: "move-no-inline" }, `${label} `) : null,
          node.move,
          node.nags.length ? h("span", { class: "nag" }, nagText(node.nags)) : null,
        ]),
      );
      force = false;
      const text = commentText(node.comment);
      if (text) {
        parts.push(h("span", { class: "move-comment" }, text));
        force = true;
      }
      if (node !== start && node.parent.children.length > 1) {
        for (const alt of node.parent.children.slice(1))
          parts.push(h("span", { class: "variation" }, ["(", ...inline(alt), ")"]));
        force = true;
      }
      node = node.children[0];
    }
    return parts;
  };

  const opening = commentText(tree.root.comment);
  if (opening) items.push(h("li", { class: "comment-row" }, opening));
  let row = null;
  let node = tree.root.children[0];
  let ply = 0;
  const main = [];
  while (node) {
    main.push(node);
    node = node.children[0];
  }
  for (const n of main) {
    ply += 1;
    const index = firstTurn + ply - 1;
    const side = index % 2;
    const number = Math.floor(index / 2) + 1;
    if (side === 0 || !row) {
      row = h("li", { class: "move-row" }, [h("span", { class: "move-no" }, `${number}.`)]);
      items.push(row);
      if (side === 1) row.append(h("span", { class: "move-gap" }, "…"));
    }
    const [attrs] = button(n, "move");
    attrs["data-ply"] = ply;
    attrs["aria-label"] = `Move ${number} ${sides[side]} ${n.move}`;
    const evaluation = recordEvalText(engineTags(n.comment).eval);
    row.append(
      h("span", { class: "move-cell" }, [
        h("button", attrs, n.move),
        n.nags.length ? h("span", { class: "nag" }, nagText(n.nags)) : null,
        evaluation
          ? h("span", { class: "move-eval", title: evalNote(evaluation, sides) }, evaluation)
          : null,
      ]),
    );
    const alternatives = n.parent.children.slice(1);
    const text = commentText(n.comment);
    if (text || alternatives.length) {
      if (side === 0) row.append(h("span", { class: "move-gap" }, "…"));
      row = null; // the reply starts a row of its own, numbered "n…"
      if (text) items.push(h("li", { class: "comment-row", "data-line": lineKey(n.line) }, text));
      if (alternatives.length) {
        items.push(
          h(
            "li",
            { class: "variations" },
            alternatives.map((alt) => h("div", { class: "variation-line" }, inline(alt))),
          ),
        );
      }
    }
  }
  if (!main.length) items.push(h("li", { class: "no-moves" }, "No moves yet"));
  // side lines from the last position of the game (the page's own, a finished game has none)
  const last = main.length ? main[main.length - 1] : tree.root;
  if (last.children.length) {
    items.push(
      h(
        "li",
        { class: "variations" },
        last.children.map((alt) => h("div", { class: "variation-line" }, inline(alt))),
      ),
    );
  }
  list.replaceChildren(...items);
  // keep the current move in sight by scrolling the list only, never the page
  const cur = list.querySelector(".current");
  if (cur) {
    const box = list.getBoundingClientRect();
    const at = cur.getBoundingClientRect();
    if (at.top < box.top) list.scrollTop -= box.top - at.top;
    else if (at.bottom > box.bottom) list.scrollTop += at.bottom - box.bottom;
  }
}
