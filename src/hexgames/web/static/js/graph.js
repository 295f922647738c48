// The evaluation graph of a whole-game analysis (the state's game_analysis.result):
// the first player's winning chance after each ply, the mistakes marked, and a click
// goes to that position.

import { s } from "./dom.js";

const W = 300;
const H = 90;
const PAD = 4;

export const JUDGEMENT_WORDS = { inaccuracy: "inaccuracy", mistake: "mistake", blunder: "blunder" };
const GLYPHS = { inaccuracy: "?!", mistake: "?", blunder: "??" };

/** The SVG graph; onPly(ply) is called with the ply clicked (0 = the start). */
export function evaluationGraph(result, { current, onPly, names }) {
  const positions = result.positions || [];
  const n = Math.max(1, positions.length - 1);
  const x = (ply) => PAD + (W - 2 * PAD) * (ply / n);
  const y = (wp) => PAD + (H - 2 * PAD) * (1 - wp);
  const svg = s("svg", {
    class: "eval-graph",
    id: "eval-graph",
    viewBox: `0 0 ${W} ${H}`,
    role: "img",
    "aria-label": `Winning chance of ${names[0]} by move`,
  });
  svg.append(s("rect", { class: "graph-back", x: 0, y: 0, width: W, height: H }));
  svg.append(s("line", { class: "graph-mid", x1: PAD, x2: W - PAD, y1: y(0.5), y2: y(0.5) }));
  let path = "";
  let area = `M${x(0)},${y(0)}`;
  let lastWp = 0.5;
  positions.forEach((p, ply) => {
    const wp = p && typeof p.wp === "number" ? p.wp : lastWp;
    lastWp = wp;
    path += `${ply ? "L" : "M"}${x(ply).toFixed(1)},${y(wp).toFixed(1)}`;
    area += `L${x(ply).toFixed(1)},${y(wp).toFixed(1)}`;
  });
  area += `L${x(positions.length - 1)},${y(0)}Z`;
  svg.append(s("path", { class: "graph-area", d: area }));
  svg.append(s("path", { class: "graph-line", d: path }));
  if (typeof current === "number") {
    svg.append(
      s("line", { class: "graph-now", x1: x(current), x2: x(current), y1: PAD, y2: H - PAD }),
    );
  }
  for (const report of result.reports || []) {
    if (!report.judgement) continue;
    const after = report.ply + 1;
    const p = positions[after];
    const chance = typeof report.after === "number" ? report.after : 0.5;
    const wp = p && typeof p.wp === "number" ? p.wp : report.mover === 0 ? chance : 1 - chance;
    const better = report.best && report.best !== report.move ? `; better ${report.best}` : "";
    const drop = dropText(report.drop);
    svg.append(
      s(
        "circle",
        {
          class: `graph-mark ${report.judgement}`,
          cx: x(after),
          cy: y(wp),
          r: 3.2,
          "data-ply": after,
          "data-judgement": report.judgement,
        },
        [
          s(
            "title",
            {},
            `${report.move}${GLYPHS[report.judgement]}: ${JUDGEMENT_WORDS[report.judgement]}${drop ? ` (${drop})` : ""}${better}`,
          ),
        ],
      ),
    );
  }
  svg.addEventListener("click", (event) => {
    const box = svg.getBoundingClientRect();
    const at = ((event.clientX - box.left) / box.width) * W;
    const ply = Math.round(((at - PAD) / (W - 2 * PAD)) * n);
    onPly(Math.max(0, Math.min(positions.length - 1, ply)));
  });
  return svg;
}

/** "−35%": a drop of the mover's winning chance (0 to 1); "" when it is not known (a
 * judgement read from a record's NAG). */
export function dropText(drop) {
  return typeof drop === "number" ? `−${Math.round(drop * 100)}%` : "";
}

export function judgementGlyph(judgement) {
  return GLYPHS[judgement] || "";
}
