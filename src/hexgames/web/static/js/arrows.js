// Arrows and circles on the board (issue 35): those a player draws in the study (a right
// drag from cell to cell for an arrow, a right click for a circle; Shift red, Alt blue,
// Ctrl or Meta yellow, else green), kept in the move's comment as [%csl]/[%cal] commands
// (docs/records.md, hexgames.record.marks), and the engine's best move while the analysis
// is on (an arrow for a move from cell to cell, a ring for a placement or an entry).

import { s } from "./dom.js";
import { abandeAxial, centre, parseAxial, splitMove } from "./hex.js";

const SEPARATOR = { abande: "-", andantino: ">" };
const CELL = { abande: "[a-g][1-7]", andantino: "-?[0-9]{1,3},-?[0-9]{1,3}" };
export const MARK_COLORS = { G: "#15781b", R: "#882020", Y: "#e68f00", B: "#003088" };

/** The colour of a mark drawn with the keys of `event` held. */
export function markColor(event) {
  if (event.shiftKey) return "R";
  if (event.altKey) return "B";
  if (event.ctrlKey || event.metaKey) return "Y";
  return "G";
}

/** The marks of a comment (as hexgames.record.marks.split_marks reads them): [{color, cell,
 * to}], circles first; and the comment's text without them. */
export function parseMarks(comment, game) {
  const marks = [];
  if (!comment) return { text: "", marks };
  const entry = new RegExp(
    `^([GRYB])(${CELL[game]})(?:${SEPARATOR[game] === "-" ? "-" : ">"}(${CELL[game]}))?$`,
    "i",
  );
  const text = comment.replace(/\s*\[%(csl|cal)\s+([^\]]*)\]/g, (whole, _kind, body) => {
    const found = [];
    for (const part of body.split(";")) {
      if (!part.trim()) continue;
      const m = part.trim().match(entry);
      if (!m) return whole; // not ours: kept as text
      found.push({ color: m[1].toUpperCase(), cell: m[2].toLowerCase(), to: m[3] || null });
    }
    for (const mark of found) if (!marks.some((x) => sameMark(x, mark))) marks.push(mark);
    return "";
  });
  const circles = marks.filter((m) => !m.to);
  return { text: text.trim(), marks: circles.concat(marks.filter((m) => m.to)) };
}

export function sameMark(a, b) {
  return a.color === b.color && a.cell === b.cell && (a.to || null) === (b.to || null);
}

/** `marks` with `mark` added, or taken away when it is there; a mark on the same cells in
 * another colour is replaced (as lichess does). */
export function toggleMark(marks, mark) {
  const same = (m) => m.cell === mark.cell && (m.to || null) === (mark.to || null);
  const old = marks.find(same);
  const rest = marks.filter((m) => !same(m));
  return old && old.color === mark.color ? rest : rest.concat([mark]);
}

function cellCentre(game, cell, size, flipped) {
  const [q, r] = game === "abande" ? abandeAxial(cell) : parseAxial(cell);
  return centre(q, r, size, flipped);
}

function arrowLine(game, from, to, size, flipped, attrs) {
  const [x1, y1] = cellCentre(game, from, size, flipped);
  const [x2, y2] = cellCentre(game, to, size, flipped);
  const len = Math.hypot(x2 - x1, y2 - y1) || 1;
  const back = size * 0.55; // the head ends before the cell's centre
  return s("line", {
    x1,
    y1,
    x2: x2 - ((x2 - x1) / len) * back,
    y2: y2 - ((y2 - y1) / len) * back,
    "marker-end": `url(#mark-head-${attrs.color})`,
    ...attrs.line,
  });
}

/** The arrowheads of the marks' colours (put into the board's <defs>). */
export function markHeads() {
  return Object.entries(MARK_COLORS).map(([letter, colour]) =>
    s(
      "marker",
      {
        id: `mark-head-${letter}`,
        viewBox: "0 0 10 10",
        refX: "4",
        refY: "5",
        markerWidth: "3",
        markerHeight: "3",
        orient: "auto-start-reverse",
      },
      [s("path", { d: "M0,0L10,5L0,10z", fill: colour })],
    ),
  );
}

/** A layer of the player's marks and the best move, for the board of `game`. */
export function marksLayer(game, marks, best, size, flipped) {
  const layer = s("g", { class: "user-marks", "pointer-events": "none" });
  for (const m of marks || []) {
    const colour = MARK_COLORS[m.color] || MARK_COLORS.G;
    if (!m.to) {
      const [x, y] = cellCentre(game, m.cell, size, flipped);
      layer.append(
        s("circle", {
          class: "mark-circle",
          cx: x,
          cy: y,
          r: size * 0.82,
          stroke: colour,
          "data-mark": `${m.color}${m.cell}`,
        }),
      );
    } else {
      layer.append(
        arrowLine(game, m.cell, m.to, size, flipped, {
          color: m.color,
          line: {
            class: "mark-arrow",
            stroke: colour,
            "data-mark": `${m.color}${m.cell}${SEPARATOR[game]}${m.to}`,
          },
        }),
      );
    }
  }
  if (best && best !== "pass") {
    const pair = splitMove(game, best);
    if (pair)
      layer.append(
        arrowLine(game, pair[0], pair[1], size, flipped, {
          color: "B",
          line: { class: "best-arrow", stroke: MARK_COLORS.B, "data-best": best },
        }),
      );
    else {
      const [x, y] = cellCentre(game, best, size, flipped);
      layer.append(
        s("circle", {
          class: "best-ring",
          cx: x,
          cy: y,
          r: size * 0.6,
          stroke: MARK_COLORS.B,
          "data-best": best,
        }),
      );
    }
  }
  return layer;
}
