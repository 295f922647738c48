// The board for the keyboard and for screen readers (issue 35): each cell's accessible
// name (its coordinate and what is on it: "c3, White stack of 2, White on top"), one cell
// in the Tab order at a time (a roving tabindex: the keyboard cursor's), and the
// announcer, an aria-live region that says the last move and the result.

import { h } from "./dom.js";
import { resultText } from "./format.js";
import { splitMove } from "./hex.js";

/** The sides' names of each game, first player first (the pieces' colours). */
const SIDES = { andantino: ["White", "Red"], abande: ["Black", "White"] };

/** What a cell holds, in words: "White tile", "Black stack of 3, White on top", "empty". */
export function cellContent(game, board, cell) {
  const sides = SIDES[game];
  if (game === "andantino") {
    const tile = (board.tiles || []).find((t) => t.cell === cell);
    if (!tile) return "empty";
    let text = `${sides[tile.side]} tile`;
    if ((board.line || []).includes(cell)) text += ", in the winning line";
    if ((board.trapped || []).includes(cell)) text += ", trapped";
    return text;
  }
  const stack = (board.stacks || []).find((st) => st.cell === cell);
  if (!stack) return "empty";
  const n = stack.pieces.length;
  const top = sides[stack.pieces[n - 1]];
  if (n === 1) return `${top} piece`;
  const pieces = stack.pieces.map((p) => sides[p]).join(", ");
  return `${top} stack of ${n} (from the bottom: ${pieces})`;
}

/** What a click (Enter) on the cell does now, or "" when nothing. */
function cellAction(model, cell) {
  const targets = model.targets || [];
  const sources = model.sources || [];
  const empties = model.emptyCells || [];
  if (!model.interactive) return "";
  const andantino = model.game === "andantino";
  if (model.selected === cell) return "picked up: press Enter to put it back";
  if (targets.includes(cell)) return andantino ? "move the tile here" : "capture: move here";
  if (sources.includes(cell)) return andantino ? "pick up this tile" : "choose this stack";
  if (empties.includes(cell)) return andantino ? "place a tile" : "enter a piece";
  return "";
}

/** The accessible name of a cell: coordinate, content, last move, what Enter does. */
export function cellLabel(model, cell) {
  const board = model.board;
  const parts = [cell, cellContent(model.game, board, cell)];
  const last = board.last && board.last !== "pass" ? splitMove(model.game, board.last) : null;
  if (board.last === cell || (last && last[1] === cell)) parts.push("last move");
  const action = cellAction(model, cell);
  if (action) parts.push(action);
  return parts.join(", ");
}

/** Name every cell of `svg` drawn from `model`: a button each (one where Enter plays
 * nothing says so in its name; not aria-disabled: pressed, it tells why not), in the Tab
 * order only the one under the cursor (`cursor`). */
export function labelCells(svg, model, cursor) {
  for (const el of svg.querySelectorAll("[data-cell]")) {
    const cell = el.dataset.cell;
    el.setAttribute("role", "button");
    el.setAttribute("aria-label", cellLabel(model, cell));
    el.setAttribute("tabindex", cell === cursor ? "0" : "-1");
  }
}

/** The game view's aria-live region: says each new move of the position on view and the
 * end of the game once. */
export class Announcer {
  constructor(game) {
    this.game = game;
    this.said = null;
    this.element = h("div", {
      class: "sr-only",
      id: "announcer",
      role: "status",
      "aria-live": "polite",
      "aria-atomic": "true",
    });
  }

  render() {
    const game = this.game;
    const st = game.state;
    const board = game.shownBoard();
    if (!st || !board) return;
    const line = game.shownLine();
    const facts = game.shownFacts();
    const key = `${line.join(" ")}|${facts.result}`;
    if (key === this.said) return;
    this.said = key;
    const parts = [];
    if (line.length) {
      const mover = st.names[((st.first_turn || 0) + line.length - 1) % 2] || "";
      parts.push(`${mover} played ${line[line.length - 1]}.`);
    } else parts.push("The start position.");
    if (facts.over) parts.push(`${resultText(facts.result, facts.termination, st.names)}.`);
    else if (!facts.loading) parts.push(`${st.names[facts.turn]} to move.`);
    this.element.textContent = parts.join(" ");
  }
}
