// The board as SVG, drawn from the server's BOARD JSON (docs/web-protocol.md).
// The page computes no rules: what is clickable comes from the server (the legal moves
// that move no piece, the pieces that can move, and the targets of the one picked up).

import { markColor, markHeads, marksLayer } from "./arrows.js";
import { labelCells } from "./board-a11y.js";
import { s } from "./dom.js";
import {
  abandeAxial,
  abandeName,
  abandePoints,
  centre,
  hexPoints,
  parseAxial,
  SQRT3,
  splitMove,
} from "./hex.js";

const SIZE = 10; // circumradius of a cell in SVG units
const AXES = [
  [1, 0],
  [0, 1],
  [1, -1],
];

/**
 * One SVG board. render(model) redraws it; clicks on cells call onCell(cellText).
 *
 * model = {game, board, emptyCells, selected, targets, sources, hint, coords, flipped,
 *          interactive, over, study, single, showSleeping, preview, cursor, premove, marks,
 *          best}
 *
 * marks: the player's arrows and circles of the position ([{color, cell, to}]); best: the
 * analysis's best move (arrows.js draws both).
 *
 * premove: the empty cells are a premove's (no legal moves of the position: marked apart).
 * study: clicks make side lines (the cells look so); single: Andantino cells that would
 * use Red's one single-touch placement; showSleeping: mark the Abande stacks that would
 * sleep now; preview: cells of a move to show (a move of the list under the pointer).
 * Every cell is a button named by its coordinate and content (board-a11y.js); one of them,
 * the keyboard cursor's, is in the Tab order. Reached by the keyboard, the arrow keys move
 * the cursor (and the focus) to the nearest cell in their direction on the hex grid, and
 * Enter or Space clicks the cell under it.
 */
export class BoardView {
  constructor(container, { onCell, onMark }) {
    this.container = container;
    this.onCell = onCell;
    this.onMark = onMark; // (from, to | null, colour letter): a right drag or click
    this.svg = s("svg", {
      class: "board-svg",
      xmlns: "http://www.w3.org/2000/svg",
      preserveAspectRatio: "xMidYMid meet",
      role: "group",
      tabindex: "-1",
      "aria-label": "Board: the arrow keys move over the cells, Enter or Space plays",
    });
    this.cursor = null; // the cell under the keyboard cursor
    this.keyboardFocus = false; // the board was focused from the keyboard
    this.pointerAt = -Infinity;
    this.svg.addEventListener(
      "pointerdown",
      () => {
        this.pointerAt = performance.now();
        this.keyboardFocus = false;
      },
      true,
    );
    this.svg.addEventListener("focusin", (e) => {
      if (this.refocusing) return; // the board redrawn under the focus: nothing changed
      this.keyboardFocus = performance.now() - this.pointerAt > 300;
      const cell = e.target.closest?.("[data-cell]");
      if (cell && this.keyboardFocus && cell.dataset.cell !== this.cursor) {
        this.cursor = cell.dataset.cell;
        this.markCursor();
      }
    });
    this.svg.addEventListener("focusout", (e) => {
      if (!this.rendering && !this.svg.contains(e.relatedTarget)) this.keyboardFocus = false;
    });
    this.centres = new Map(); // cell -> [x, y] as last drawn
    container.append(this.svg);
    this.viewBox = null; // [x, y, w, h]
    this.autoFit = true;
    this.model = null;
    this.drag = null;
    this.suppressClick = false;
    this.svg.addEventListener("click", (e) => this.click(e));
    this.svg.addEventListener("pointerdown", (e) => this.pointerDown(e));
    this.svg.addEventListener("pointermove", (e) => this.pointerMove(e));
    this.svg.addEventListener("pointerup", (e) => this.pointerUp(e));
    this.svg.addEventListener("pointercancel", () => {
      this.drag = null;
    });
    this.svg.addEventListener("wheel", (e) => this.wheel(e), { passive: false });
    // the player's marks: a right drag from cell to cell draws an arrow, a right click a
    // circle (arrows.js)
    this.svg.addEventListener("contextmenu", (e) => e.preventDefault());
    this.svg.addEventListener("pointerdown", (e) => {
      if (e.button === 2) this.markFrom = this.cellAt(e);
    });
    this.svg.addEventListener("pointerup", (e) => {
      if (e.button !== 2 || !this.markFrom) return;
      const to = this.cellAt(e);
      const from = this.markFrom;
      this.markFrom = null;
      if (to && this.onMark) this.onMark(from, to === from ? null : to, markColor(e));
    });
    this.svg.addEventListener("keydown", (e) => {
      const cell = e.target.closest?.("[data-cell]");
      if (cell && (e.key === "Enter" || e.key === " ")) {
        e.preventDefault();
        this.onCell(cell.dataset.cell);
        return;
      }
      const step = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] }[
        e.key
      ];
      // a board focused by a click leaves the arrows to the moves; one reached by the
      // keyboard (Tab) moves its cursor with them
      if (step && this.keyboardFocus) {
        e.preventDefault();
        e.stopPropagation(); // on the board the arrows move the cursor, not through the moves
        this.moveCursor(step);
        return;
      }
      if ((e.key === "Enter" || e.key === " ") && this.cursor) {
        e.preventDefault();
        this.onCell(this.cursor);
      }
    });
  }

  /** The cell the keyboard cursor starts on: a legal or selectable cell, else the centre. */
  startCell() {
    const m = this.model;
    const pick = (m.emptyCells || [])[0] || (m.sources || [])[0];
    if (pick) return pick;
    let best = null;
    let dist = Infinity;
    for (const [cell, [x, y]] of this.centres) {
      const d = x * x + y * y;
      if (d < dist) {
        dist = d;
        best = cell;
      }
    }
    return best;
  }

  /** Put the focus on the cell under the cursor (its start cell when there is none): the
   * board's keyboard shortcut and the Tab stop. */
  focusCursor() {
    if (!this.model) return;
    if (!this.cursor || !this.centres.has(this.cursor)) this.cursor = this.startCell();
    this.keyboardFocus = true;
    this.pointerAt = -Infinity;
    this.render(this.model);
    this.cellElement(this.cursor)?.focus({ preventScroll: true });
  }

  /** The cell under a pointer event, or null. */
  cellAt(event) {
    const el = document.elementFromPoint(event.clientX, event.clientY)?.closest?.("[data-cell]");
    return el && this.svg.contains(el) ? el.dataset.cell : null;
  }

  cellElement(cell) {
    return cell ? this.svg.querySelector(`[data-cell="${CSS.escape(cell)}"]`) : null;
  }

  /** Draw the cursor's ring on its cell (after a redraw, or the focus moved by Tab). */
  markCursor() {
    for (const el of this.svg.querySelectorAll(".cursor-mark")) el.remove();
    if (this.cursor && this.centres.has(this.cursor)) {
      const [x, y] = this.centres.get(this.cursor);
      this.svg.append(s("circle", { class: "cursor-mark", cx: x, cy: y, r: SIZE * 0.7 }));
      this.svg.dataset.cursor = this.cursor;
    } else delete this.svg.dataset.cursor;
  }

  /** Move the cursor to the nearest drawn cell in the screen direction [dx, dy]. */
  moveCursor([dx, dy]) {
    if (!this.centres.size) return;
    const from = this.centres.get(this.cursor);
    if (!from) {
      this.cursor = this.startCell();
      this.render(this.model);
      this.cellElement(this.cursor)?.focus({ preventScroll: true });
      return;
    }
    let best = null;
    let score = Infinity;
    let bestY = Infinity;
    for (const [cell, [x, y]] of this.centres) {
      if (cell === this.cursor) continue;
      const vx = x - from[0];
      const vy = y - from[1];
      const along = vx * dx + vy * dy;
      if (along <= 0.1) continue;
      const across = Math.abs(vx * dy - vy * dx);
      if (across > along * 1.8) continue; // within about 60 degrees of the direction
      const d = along + across * 2;
      // of two cells as near (the two left or right neighbours of a flat-topped hex)
      // the upper one, so that a key always goes to the same cell
      const tie = Math.abs(d - score) < 1e-3 && y < bestY;
      if (d < score - 1e-3 || tie) {
        score = d;
        best = cell;
        bestY = y;
      }
    }
    if (best) {
      this.cursor = best;
      this.render(this.model);
      this.cellElement(best)?.focus({ preventScroll: true });
    }
  }

  get pannable() {
    return this.model && this.model.game === "andantino";
  }

  // ---- input -------------------------------------------------------------------------

  click(event) {
    if (this.suppressClick) {
      this.suppressClick = false;
      return;
    }
    const target = event.target.closest("[data-cell]");
    if (target && this.svg.contains(target)) this.onCell(target.dataset.cell);
  }

  pointerDown(event) {
    if (!this.pannable || event.button !== 0) return;
    this.drag = {
      x: event.clientX,
      y: event.clientY,
      box: this.viewBox.slice(),
      moved: false,
      id: event.pointerId,
    };
  }

  pointerMove(event) {
    const d = this.drag;
    if (!d) return;
    const dx = event.clientX - d.x;
    const dy = event.clientY - d.y;
    if (!d.moved && Math.hypot(dx, dy) < 6) return;
    if (!d.moved) {
      d.moved = true;
      this.svg.setPointerCapture(d.id);
      this.svg.classList.add("panning");
    }
    const scale = this.unitsPerPixel();
    this.viewBox = [d.box[0] - dx * scale, d.box[1] - dy * scale, d.box[2], d.box[3]];
    this.autoFit = false;
    this.applyViewBox();
  }

  pointerUp() {
    if (this.drag?.moved) {
      this.suppressClick = true;
      // a click that follows a drag is swallowed; if none follows, forget it soon
      setTimeout(() => {
        this.suppressClick = false;
      }, 50);
    }
    this.svg.classList.remove("panning");
    this.drag = null;
  }

  wheel(event) {
    if (!this.pannable) return;
    event.preventDefault();
    const factor = Math.exp(Math.max(-1, Math.min(1, event.deltaY / 300)));
    this.zoom(factor, this.toSvgPoint(event.clientX, event.clientY));
  }

  unitsPerPixel() {
    const ctm = this.svg.getScreenCTM();
    return ctm?.a ? 1 / ctm.a : 1;
  }

  toSvgPoint(clientX, clientY) {
    const ctm = this.svg.getScreenCTM();
    if (!ctm) return null;
    const p = new DOMPoint(clientX, clientY).matrixTransform(ctm.inverse());
    return [p.x, p.y];
  }

  /** Zoom by factor (>1 zooms out) around an SVG point (default: the centre of the view). */
  zoom(factor, around) {
    if (!this.viewBox) return;
    const [x, y, w, h] = this.viewBox;
    const nw = Math.min(4000, Math.max(40, w * factor));
    const f = nw / w;
    const [cx, cy] = around || [x + w / 2, y + h / 2];
    this.viewBox = [cx - (cx - x) * f, cy - (cy - y) * f, w * f, h * f];
    this.autoFit = false;
    this.applyViewBox();
  }

  fit() {
    this.autoFit = true;
    if (this.model) this.render(this.model);
  }

  applyViewBox() {
    this.svg.setAttribute("viewBox", this.viewBox.map((v) => v.toFixed(2)).join(" "));
    // the coordinates stay readable (about 11 px) however far the board is zoomed out,
    // as long as they fit in their cell
    const rect = this.svg.getBoundingClientRect();
    const [, , w, h] = this.viewBox;
    if (rect.width > 0 && rect.height > 0 && w > 0 && h > 0) {
      const scale = Math.min(rect.width / w, rect.height / h);
      const size = Math.max(3.2, Math.min(4.4, 11 / scale));
      this.svg.style.setProperty("--coord-size", `${size.toFixed(2)}px`);
    }
  }

  // ---- drawing -----------------------------------------------------------------------

  render(model) {
    this.model = model;
    const active = document.activeElement;
    const focused = active && active !== this.svg && this.svg.contains(active);
    this.rendering = true;
    this.svg.replaceChildren();
    this.centres = new Map();
    this.svg.dataset.game = model.game;
    this.svg.classList.toggle("interactive", !!model.interactive);
    this.svg.classList.toggle("study", !!model.study);
    this.svg.append(defs());
    const box = model.game === "andantino" ? this.drawAndantino(model) : this.drawAbande(model);
    if (model.game !== "andantino" || this.autoFit || !this.viewBox) {
      this.viewBox = box;
    }
    this.applyViewBox();
    this.svg.append(marksLayer(model.game, model.marks, model.best, SIZE, model.flipped));
    if (this.cursor && !this.centres.has(this.cursor)) this.cursor = null;
    this.markCursor();
    labelCells(this.svg, model, this.cursor || this.startCell());
    if (focused) {
      // the focus stays on the board across a redraw: on the cursor's cell
      const cell = this.cellElement(this.cursor || this.startCell());
      this.refocusing = true;
      cell?.focus({ preventScroll: true });
      this.refocusing = false;
    }
    this.rendering = false;
  }

  /** Mark the cells of a move (a move of the list under the pointer), or none. */
  preview(cells) {
    for (const el of this.svg.querySelectorAll(".previewed")) el.classList.remove("previewed");
    for (const cell of cells || []) {
      const el = this.svg.querySelector(`[data-cell="${CSS.escape(cell)}"]`);
      if (el) el.classList.add("previewed");
    }
  }

  drawAndantino(m) {
    const { board, flipped } = m;
    const tiles = new Map(board.tiles.map((t) => [t.cell, t]));
    const line = new Set(board.line || []);
    const trapped = new Set(board.trapped || []);
    const selected = m.selected;
    const targets = new Set(m.targets || []);
    const sources = new Set(m.sources || []);
    const empties = new Set(m.emptyCells || []);
    const single = new Set(m.single || []);
    const hint = hintCells("andantino", m.hint);
    const last = board.last ? lastCells("andantino", board.last) : [];
    const xs = [];
    const ys = [];
    const layer = s("g", { class: "surface" });
    const top = s("g", { class: "marks" });
    const coords = s("g", { class: "coords" });

    const cellAt = (cell) => {
      const [q, r] = parseAxial(cell);
      const [x, y] = centre(q, r, SIZE, flipped);
      xs.push(x);
      ys.push(y);
      this.centres.set(cell, [x, y]);
      return [x, y];
    };

    for (const cell of empties) {
      if (tiles.has(cell)) continue;
      const [x, y] = cellAt(cell);
      // a premove's cells (m.premove) are no legal moves of the position: marked apart
      const cls = ["cell", "empty", m.premove ? "premove" : targets.has(cell) ? "target" : "legal"];
      if (hint.has(cell)) cls.push("hinted");
      if (single.has(cell)) cls.push("single-touch");
      const mark = m.premove ? "data-premove" : "data-legal";
      const g = s("g", { class: cls.join(" "), "data-cell": cell, [mark]: "true" }, [
        s("polygon", { class: "hex", points: hexPoints(x, y, SIZE * 0.94) }),
        s("circle", { class: "dot", cx: x, cy: y, r: SIZE * 0.18 }),
      ]);
      if (single.has(cell)) {
        // Red's one placement touching a single tile: a ring of dots, not the plain dot
        g.append(s("circle", { class: "single-ring", cx: x, cy: y, r: SIZE * 0.45 }));
      }
      if (m.coords) coords.append(label(x, y + SIZE * 0.55, cell, "coord"));
      if (m.interactive)
        focusable(
          g,
          targets.has(cell)
            ? `Move the tile to ${cell}`
            : single.has(cell)
              ? `Place a tile on ${cell}, using the single-touch right`
              : `Place a tile on ${cell}`,
        );
      layer.append(g);
    }
    for (const tile of board.tiles) {
      const [x, y] = cellAt(tile.cell);
      const cls = ["cell", "tile", `side${tile.side}`];
      if (line.has(tile.cell)) cls.push("in-line");
      if (trapped.has(tile.cell)) cls.push("trapped");
      if (sources.has(tile.cell)) cls.push("source");
      if (selected === tile.cell) cls.push("selected");
      if (hint.has(tile.cell)) cls.push("hinted");
      const g = s("g", { class: cls.join(" "), "data-cell": tile.cell, "data-side": tile.side }, [
        s("polygon", { class: "hex", points: hexPoints(x, y, SIZE * 0.96) }),
        s("polygon", { class: "face", points: hexPoints(x, y, SIZE * 0.8) }),
      ]);
      if (trapped.has(tile.cell)) {
        const d = SIZE * 0.32;
        g.append(
          s("path", {
            class: "trap-mark",
            d: `M${x - d},${y - d}L${x + d},${y + d}M${x + d},${y - d}L${x - d},${y + d}`,
          }),
        );
      }
      if (m.coords) coords.append(label(x, y + SIZE * 0.55, tile.cell, `coord on${tile.side}`));
      if (m.interactive && sources.has(tile.cell)) focusable(g, `Pick up the tile on ${tile.cell}`);
      layer.append(g);
    }
    for (const cell of last) {
      if (!tiles.has(cell)) continue;
      const [q, r] = parseAxial(cell);
      const [x, y] = centre(q, r, SIZE, flipped);
      top.append(s("circle", { class: "last-mark", cx: x, cy: y, r: SIZE * 0.24 }));
    }
    for (const [a, b] of lineRuns(board.line || [])) {
      const [x1, y1] = centre(...a, SIZE, flipped);
      const [x2, y2] = centre(...b, SIZE, flipped);
      top.append(s("line", { class: "win-line", x1, y1, x2, y2 }));
    }
    for (const cell of hint) {
      const [q, r] = parseAxial(cell);
      const [x, y] = centre(q, r, SIZE, flipped);
      top.append(s("polygon", { class: "hint-mark", points: hexPoints(x, y, SIZE * 0.8) }));
    }
    this.svg.append(layer, top, coords);
    if (!xs.length) return [-50, -50, 100, 100];
    const pad = SIZE * 1.6;
    const minX = Math.min(...xs) - pad;
    const minY = Math.min(...ys) - pad;
    let w = Math.max(...xs) + pad - minX;
    let h = Math.max(...ys) + pad - minY;
    // never zoom in further than about 7 cells across (5 on a phone, where 7 would make
    // the cells and their coordinates tiny), so a small surface is not huge
    const narrow = this.svg.clientWidth > 0 && this.svg.clientWidth < 520;
    const minW = SIZE * (narrow ? 11 : 15);
    const cx = minX + w / 2;
    const cy = minY + h / 2;
    if (w < minW) w = minW;
    if (h < minW * 0.75) h = minW * 0.75;
    return [cx - w / 2, cy - h / 2, w, h];
  }

  drawAbande(m) {
    const { board, flipped } = m;
    const stacks = new Map(board.stacks.map((st) => [st.cell, st]));
    const awake = new Set(board.awake || []);
    const sleeping = new Set(board.sleeping || []);
    const entries = new Set(m.emptyCells || []);
    const sources = new Set(m.sources || []);
    const targets = new Set(m.targets || []);
    const hint = hintCells("abande", m.hint);
    const gap = SIZE * SQRT3; // distance between neighbouring points
    const plate = s("g", { class: "plate" });
    const points = s("g", { class: "points" });
    const marks = s("g", { class: "marks" });
    const coords = s("g", { class: "coords" });

    // the board: a hexagon through the corner points, pushed out by a margin
    const corners = [
      [3, 0],
      [3, -3],
      [0, -3],
      [-3, 0],
      [-3, 3],
      [0, 3],
    ].map(([q, r]) => centre(q, r, SIZE, flipped));
    const grow = (3 * gap + gap * 0.75) / (3 * gap);
    plate.append(
      s("polygon", {
        class: "abande-plate",
        points: corners
          .map(([x, y]) => `${(x * grow).toFixed(2)},${(y * grow).toFixed(2)}`)
          .join(" "),
      }),
    );
    // the lines between neighbouring points
    const all = abandePoints();
    const onBoard = (q, r) => Math.max(Math.abs(q), Math.abs(r), Math.abs(q + r)) <= 3;
    let path = "";
    for (const [q, r] of all) {
      const [x, y] = centre(q, r, SIZE, flipped);
      for (const [dq, dr] of AXES) {
        if (!onBoard(q + dq, r + dr)) continue;
        const [x2, y2] = centre(q + dq, r + dr, SIZE, flipped);
        path += `M${x.toFixed(2)},${y.toFixed(2)}L${x2.toFixed(2)},${y2.toFixed(2)}`;
      }
    }
    plate.append(s("path", { class: "abande-lines", d: path }));

    const radius = gap * 0.4;
    const lift = radius * 0.28;
    for (const [q, r] of all) {
      const cell = abandeName(q, r);
      const [x, y] = centre(q, r, SIZE, flipped);
      this.centres.set(cell, [x, y]);
      const st = stacks.get(cell);
      const cls = ["cell", "point"];
      if (st) cls.push("stack", `top${st.pieces[st.pieces.length - 1]}`);
      if (entries.has(cell)) cls.push("legal");
      if (sources.has(cell)) cls.push("source");
      if (targets.has(cell)) cls.push("target");
      if (m.selected === cell) cls.push("selected");
      // the stacks' scoring is shown only when the score ended the game
      if (m.scored && awake.has(cell)) cls.push("awake");
      if ((m.scored || m.showSleeping) && sleeping.has(cell)) cls.push("sleeping");
      const g = s("g", { class: cls.join(" "), "data-cell": cell });
      if (st) {
        g.dataset.height = st.pieces.length;
        g.dataset.pieces = st.pieces.join("");
      }
      // a generous invisible hit area, so the whole point is easy to click
      g.append(s("circle", { class: "hit", cx: x, cy: y, r: gap * 0.5 }));
      g.append(s("circle", { class: "spot", cx: x, cy: y, r: radius * 0.22 }));
      if (st) {
        const n = st.pieces.length;
        const base = y + ((n - 1) * lift) / 2;
        st.pieces.forEach((piece, i) => {
          g.append(
            s("circle", { class: `piece p${piece}`, cx: x, cy: base - i * lift, r: radius }),
          );
        });
        const topY = base - (n - 1) * lift;
        if (n > 1)
          g.append(label(x, topY + radius * 0.36, String(n), `height h${st.pieces[n - 1]}`));
      } else if (entries.has(cell) || targets.has(cell)) {
        g.append(s("circle", { class: "dot", cx: x, cy: y, r: radius * 0.32 }));
      }
      if (sources.has(cell) && st) {
        // a stack that can capture: ringed without hovering (phones have no hover)
        const topY = y + ((st.pieces.length - 1) * lift) / 2 - (st.pieces.length - 1) * lift;
        marks.append(
          s("circle", {
            class: "can-move-ring",
            cx: x,
            cy: topY,
            r: radius * 1.12,
            "data-ring": cell,
          }),
        );
      }
      if (m.interactive && (entries.has(cell) || sources.has(cell) || targets.has(cell))) {
        focusable(
          g,
          entries.has(cell)
            ? `Enter a piece on ${cell}`
            : targets.has(cell)
              ? `Move onto ${cell}`
              : `Choose the stack on ${cell}`,
        );
      }
      points.append(g);
    }

    // the last move: a ring on the point it reached, an arrow for a stack move
    if (board.last && board.last !== "pass") {
      const cells = lastCells("abande", board.last);
      if (cells.length === 2) marks.append(arrow(cells[0], cells[1], flipped, "last-arrow"));
      const [x, y] = centre(...abandeAxial(cells[cells.length - 1]), SIZE, flipped);
      marks.append(s("circle", { class: "last-ring", cx: x, cy: y, r: radius * 1.18 }));
    }
    if (m.hint) {
      const cells = [...hint];
      if (cells.length === 2) marks.append(arrow(cells[0], cells[1], flipped, "hint-arrow"));
      for (const cell of cells) {
        const [x, y] = centre(...abandeAxial(cell), SIZE, flipped);
        marks.append(s("circle", { class: "hint-mark", cx: x, cy: y, r: radius * 1.3 }));
      }
    }

    // the hands, beside the board: first player on the left (right when flipped)
    const hands = s("g", { class: "hands" });
    const span = 3 * gap * grow;
    const side = (player, x) => {
      const count = board.hands ? board.hands[player] : 0;
      const g = s("g", { class: `hand hand${player}`, "data-hand": player });
      const shown = Math.min(count, 9);
      for (let i = 0; i < shown; i++) {
        g.append(
          s("circle", {
            class: `piece p${player}`,
            cx: x,
            cy: SIZE * 2 - i * lift * 0.9,
            r: radius * 0.8,
          }),
        );
      }
      if (!count)
        g.append(s("circle", { class: "hand-empty", cx: x, cy: SIZE * 2, r: radius * 0.8 }));
      g.append(label(x, SIZE * 2 + radius * 2.1, `${count}`, "hand-count"));
      g.append(label(x, SIZE * 2 + radius * 2.75, "in hand", "hand-note"));
      // a game ended otherwise than on score (on time, by resignation) scored nothing
      if (board.score && (!m.over || m.scored)) {
        const points = board.score[player];
        g.append(
          label(
            x,
            SIZE * 2 + radius * 3.75,
            `${points} ${points === 1 ? "point" : "points"}`,
            "hand-score",
          ),
        );
      }
      const pileTop = SIZE * 2 - Math.max(shown - 1, 0) * lift * 0.9;
      g.append(label(x, pileTop - radius * 1.5, player === 0 ? "Black" : "White", "hand-name"));
      hands.append(g);
    };
    const handX = span + gap * 0.9;
    side(0, flipped ? handX : -handX);
    side(1, flipped ? -handX : handX);

    if (m.coords) {
      // the rim: column letters under each column's point 1, numbers left of the points
      // that begin a row (a1..a4 to the left, b5, c6, d7 up the left side)
      for (let q = -3; q <= 3; q++) {
        const bottom = 3 - Math.max(q, 0);
        const [x, y] = centre(q, bottom + 0.78, SIZE, flipped);
        coords.append(label(x, y + SIZE * 0.25, "abcdefg"[q + 3], "coord rim"));
      }
      for (let n = 1; n <= 7; n++) {
        const q = n <= 4 ? -3 : n - 7;
        const r = 4 - n - Math.max(q, 0);
        const [x, y] =
          n <= 4 ? centre(q - 0.78, r + 0.39, SIZE, flipped) : centre(q - 0.7, r, SIZE, flipped);
        coords.append(label(x, y + SIZE * 0.25, String(n), "coord rim"));
      }
    }
    this.svg.append(plate, hands, points, marks, coords);
    const w = 2 * (handX + gap * 1.1);
    const h = 2 * (3 * gap * grow + SIZE * 0.4);
    return [-w / 2, -h / 2, w, h];
  }
}

/** Make a cell reachable with Tab and usable with Enter or Space. */
function focusable(g, name) {
  g.setAttribute("tabindex", "0");
  g.setAttribute("role", "button");
  g.setAttribute("aria-label", name);
}

function defs() {
  return s("defs", {}, [
    s(
      "marker",
      {
        id: "arrowhead",
        viewBox: "0 0 10 10",
        refX: "7",
        refY: "5",
        markerWidth: "4",
        markerHeight: "4",
        orient: "auto-start-reverse",
      },
      [s("path", { d: "M0,0L10,5L0,10z", class: "arrowhead" })],
    ),
    ...markHeads(),
  ]);
}

function label(x, y, text, cls) {
  return s("text", { x: x.toFixed(2), y: y.toFixed(2), class: cls, "text-anchor": "middle" }, text);
}

function arrow(from, to, flipped, cls) {
  const [x1, y1] = centre(...abandeAxial(from), SIZE, flipped);
  const [x2, y2] = centre(...abandeAxial(to), SIZE, flipped);
  const k = 0.28;
  return s("line", {
    class: cls,
    x1: x1 + (x2 - x1) * k,
    y1: y1 + (y2 - y1) * k,
    x2: x2 - (x2 - x1) * k,
    y2: y2 - (y2 - y1) * k,
    "marker-end": "url(#arrowhead)",
  });
}

function lastCells(game, move) {
  const pair = splitMove(game, move);
  return pair || [move];
}

function hintCells(game, move) {
  if (!move || move === "pass") return new Set();
  return new Set(lastCells(game, move));
}

/** The runs of five or more cells of `cells` along each axis, as [first, last] axial pairs. */
function lineRuns(cells) {
  const set = new Set(cells);
  const runs = [];
  for (const [dq, dr] of AXES) {
    for (const cell of cells) {
      const [q, r] = parseAxial(cell);
      if (set.has(`${q - dq},${r - dr}`)) continue; // not the start of a run
      let n = 1;
      while (set.has(`${q + n * dq},${r + n * dr}`)) n++;
      if (n >= 5)
        runs.push([
          [q, r],
          [q + (n - 1) * dq, r + (n - 1) * dr],
        ]);
    }
  }
  return runs;
}
