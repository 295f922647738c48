// The game view's engine panel: the analysis of the position on view (the evaluation
// bar, the evaluation, the best line and the MultiPV lines) and the whole-game analysis
// of a finished game (its button, progress, graph and mistakes). Methods of GameView.

import { h, replaceChildren } from "./dom.js";
import { evaluationGraph, judgementGlyph } from "./graph.js";
import { moveLabel } from "./tree.js";

/** The evaluation from the first player's side: "+1.20", "#5" (in plies), "#-3". */
export function evalText(a, mover) {
  const sign = mover === 0 ? 1 : -1;
  if (typeof a.mate === "number" && a.mate !== 0) return `#${sign * a.mate}`;
  if (typeof a.eval === "number") {
    const v = (sign * a.eval) / 100;
    return `${v >= 0 ? "+" : ""}${v.toFixed(2)}`;
  }
  return "";
}

export const analysisMethods = {
  renderAnalysis() {
    const st = this.state;
    this.analysisToggle.checked = this.analysisOn;
    this.analysisBox.hidden = !this.analysisOn;
    this.linesSelect.hidden = !this.analysisOn;
    if (!this.analysisOn || !st) return;
    const facts = this.shownFacts();
    const board = this.shownBoard();
    // the AI's figures stand in while it thinks about the live position
    let a = this.isLive() && st.thinking && this.thinking ? this.thinking : this.analysis;
    if (a && a !== this.thinking && a.position && board && a.position !== board.position) a = null;
    const fill = this.analysisBox.querySelector(".winbar-fill");
    let first = 0.5;
    if (a && typeof a.score === "number") {
      const mover = a.side !== undefined ? a.side : facts.turn;
      first = mover === 0 ? a.score : 1 - a.score;
    }
    fill.style.width = `${(first * 100).toFixed(1)}%`;
    fill.className = `winbar-fill ${st.game}`;
    this.analysisBox.dataset.game = st.game;
    this.analysisBox.dataset.position = a?.position ? a.position : "";
    document.getElementById("winbar-left").textContent =
      `${st.names[0]} ${a ? `${Math.round(first * 100)}%` : ""}`;
    document.getElementById("winbar-right").textContent =
      `${a ? `${Math.round((1 - first) * 100)}% ` : ""}${st.names[1]}`;
    document.getElementById("eval-text").textContent = a
      ? evalText(a, a.side !== undefined ? a.side : facts.turn)
      : "";
    const pv = document.getElementById("pv");
    const lines = document.getElementById("pv-lines");
    if (!a) {
      pv.textContent = facts.over ? "The game is over in this position." : "Analysing…";
      lines.replaceChildren();
      return;
    }
    const info = [
      a.depth ? `depth ${a.depth}` : "",
      a.nodes ? `${a.nodes.toLocaleString("en")} nodes` : "",
    ]
      .filter(Boolean)
      .join(", ");
    const line = (a.pv || []).slice(0, 10).join(" ") + ((a.pv || []).length > 10 ? " …" : "");
    const who = a === this.thinking ? `${st.names[a.side]} thinks: ` : "Best line: ";
    pv.textContent = `${who}${line || a.best || "?"}${info ? ` (${info}${a.done ? ", finished" : ""})` : ""}`;
    const mover = a.side !== undefined ? a.side : facts.turn;
    lines.replaceChildren(
      ...(a.lines || []).map((l, i) => {
        const chance = typeof l.score === "number" ? (mover === 0 ? l.score : 1 - l.score) : null;
        return h("li", { class: "pv-line", "data-rank": i + 1 }, [
          h("span", { class: "pv-score" }, chance === null ? "?" : `${Math.round(chance * 100)}%`),
          h("span", { class: "pv-moves" }, (l.pv || []).slice(0, 8).join(" ")),
        ]);
      }),
    );
  },

  /** The whole-game analysis of a finished game: the button, the progress, the graph. */
  renderWholeGame() {
    const st = this.state;
    if (!st) return;
    const ga = this.gameAnalysis;
    const server = st.mode === "server";
    const noHelp = server && !st.over;
    this.wholeSection.hidden = !st.over || noHelp || !st.moves?.length; // nothing to analyse
    if (this.wholeSection.hidden) return;
    const running = !!ga?.running;
    this.wholeButton.textContent = running
      ? "Stop the analysis"
      : ga?.result
        ? "Analyse the whole game again"
        : "Analyse the whole game";
    this.wholeButton.disabled = !this.connected;
    this.wholeProgress.hidden = !running;
    if (running) {
      const pct = ga.total ? (100 * ga.done) / ga.total : 0;
      this.wholeProgress.firstChild.style.width = `${pct.toFixed(1)}%`;
      this.wholeProgress.dataset.done = String(ga.done);
      this.wholeProgress.dataset.total = String(ga.total);
    }
    const result = ga?.result;
    this.graphBox.hidden = !result;
    this.annotateButton.hidden = !result || !st.study || this.readOnly;
    if (!result) {
      this.mistakes.replaceChildren();
      return;
    }
    const line = this.shownLine();
    const onMain = this.tree.onMain(line);
    replaceChildren(
      this.graphBox,
      evaluationGraph(result, {
        current: onMain ? line.length : null,
        names: st.names,
        onPly: (ply) => this.goTo(st.moves.slice(0, ply)),
      }),
    );
    const items = (result.reports || [])
      .filter((r) => r.judgement)
      .map((r) => {
        const label = moveLabel(r.ply, st.first_turn || 0, true);
        const better = r.best && r.best !== r.move ? ` · better ${r.best}` : "";
        return h(
          "li",
          { class: `mistake ${r.judgement}`, "data-ply": r.ply + 1 },
          h(
            "button",
            {
              type: "button",
              class: "small subtle",
              onclick: () => this.goTo(st.moves.slice(0, r.ply + 1)),
            },
            `${label} ${r.move}${judgementGlyph(r.judgement)} ${r.judgement} (−${Math.round(r.drop * 100)}%)${better}`,
          ),
        );
      });
    this.mistakes.replaceChildren(...items);
  },
};
