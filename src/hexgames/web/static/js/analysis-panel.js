// The game view's engine panel: a hint (the engine's best move in the live position), the
// analysis of the position on view (the evaluation bar, the evaluation, the best line and
// the MultiPV lines; the server analyses the position the page shows, and the AI's
// figures stand in while it thinks), and the whole-game analysis of a finished game (its
// button, progress, graph and mistakes), or the one written in the record ([%wp]).

import { button, h, replaceChildren } from "./dom.js";
import { evalNote, evalText, recordAnalysis } from "./evaluation.js";
import { dropText, evaluationGraph, judgementGlyph } from "./graph.js";
import { prefs } from "./prefs.js";
import { lineKey, moveLabel } from "./tree.js";

export class AnalysisPanel {
  /** game: the GameView whose positions this analyses. */
  constructor(game) {
    this.game = game;
    this.hint = null; // the last hint message, of the live position
    this.hintPending = false;
    this.on = false; // this socket's analysis (state.analysis)
    this.analysedKey = null; // the position the server was asked to analyse
    this.restore = false; // switch the analysis on again once reconnected
    this.multipv = prefs.get("multipv", 1);
    this.analysis = null; // the last analysis message of the position on view
    this.gameAnalysis = null; // {running, done, total, result}

    this.hintButton = button("hint", "Hint", "Show the engine's best move", () => this.askHint());
    this.hintText = h("div", { class: "hint-text", id: "hint-text", hidden: true });
    this.toggleBox = h("input", {
      type: "checkbox",
      id: "analysis-toggle",
      role: "switch",
      onchange: (e) => this.toggle(e.target.checked),
    });
    this.linesSelect = h(
      "select",
      {
        id: "analysis-lines",
        "aria-label": "Lines the analysis shows",
        onchange: (e) => this.setLines(Number(e.target.value)),
      },
      [1, 2, 3, 5].map((n) =>
        h("option", { value: n, selected: n === this.multipv }, n === 1 ? "1 line" : `${n} lines`),
      ),
    );
    this.box = h("div", { class: "analysis", id: "analysis", hidden: true }, [
      h("div", { class: "winbar", id: "winbar", title: "Win probability" }, [
        h("div", { class: "winbar-fill" }),
      ]),
      h("div", { class: "winbar-labels" }, [
        h("span", { id: "winbar-left" }),
        h("span", { id: "eval-text" }),
        h("span", { id: "winbar-right" }),
      ]),
      h("div", { class: "eval-note", id: "eval-note", hidden: true }),
      h("div", { class: "pv", id: "pv" }),
      h("ol", { class: "pv-lines", id: "pv-lines" }),
    ]);
    this.engineSection = h("section", { class: "panel-section engine" }, [
      h("div", { class: "row" }, [
        this.hintButton,
        this.linesSelect,
        h("label", { class: "switch", for: "analysis-toggle" }, [
          this.toggleBox,
          h("span", { class: "switch-track", "aria-hidden": "true" }),
          "Analysis",
        ]),
      ]),
      this.hintText,
      this.box,
    ]);

    this.wholeButton = button(
      "analyse-game",
      "Analyse the whole game",
      "Search every position of the game and draw its evaluation",
      () => this.analyseGame(),
    );
    this.wholeProgress = h(
      "div",
      { class: "progress", id: "game-analysis-progress", hidden: true },
      [h("div", { class: "progress-fill" })],
    );
    this.graphBox = h("div", { class: "graph-box", id: "graph-box", hidden: true });
    this.graphSource = h("p", { class: "graph-source", id: "graph-source", hidden: true });
    // why the server sent no engine analysis of the game (the state's analysis_hidden)
    this.hiddenNote = h("p", { class: "graph-source", id: "analysis-hidden", hidden: true });
    this.mistakes = h("ol", { class: "mistakes", id: "mistakes" });
    this.annotateButton = button(
      "annotate",
      "Write into the record",
      "Write the evaluations, the mistakes and the better moves into the game's record",
      () => game.send({ type: "study", action: "annotate" }),
      { class: "small", hidden: true },
    );
    this.wholeSection = h(
      "section",
      { class: "panel-section whole-game", id: "whole-game", hidden: true },
      [
        h("div", { class: "row" }, [this.wholeButton, this.annotateButton]),
        this.wholeProgress,
        this.hiddenNote,
        this.graphSource,
        this.graphBox,
        this.mistakes,
      ],
    );
  }

  // ---- messages ------------------------------------------------------------------------

  /** A new state (`changed`: its moves or its end differ): the whole-game analysis it
   * carries, a hint of another position dropped, and this socket's analysis switch
   * (switched on again after a reconnection). */
  gotState(msg, changed) {
    if (msg.game_analysis !== undefined) {
      const running = this.gameAnalysis?.running;
      if (msg.game_analysis || !running) this.gameAnalysis = msg.game_analysis;
    }
    if (changed) {
      this.hint = null;
      this.hintPending = false;
    }
    if (typeof msg.analysis === "boolean") {
      if (this.restore && this.game.connected) {
        this.restore = false;
        this.analysedKey = null;
        this.sync();
      } else if (!this.restore) {
        this.on = msg.analysis;
      }
    }
  }

  /** A `hint` message; whether it is of the game's position now (else dropped). */
  gotHint(msg) {
    const st = this.game.state;
    if (st && msg.ply !== undefined && msg.ply !== st.ply) return false;
    this.hintPending = false;
    this.hint = msg;
    return true;
  }

  /** An `analysis` message: shown if it is of the position on view (else stale). */
  gotAnalysis(msg) {
    const shown = this.game.shownBoard();
    if (shown && msg.position && msg.position !== shown.position) return;
    this.analysis = msg;
    this.render();
  }

  /** A `game_analysis` message: the progress of the whole-game analysis, or its result. */
  gotGameAnalysis(msg) {
    this.gameAnalysis =
      msg.result || !this.gameAnalysis
        ? msg
        : { ...this.gameAnalysis, ...msg, result: this.gameAnalysis.result };
    this.renderWholeGame();
  }

  /** The connection was lost (a hint asked for will not come) or an error came. */
  dropHint() {
    this.hintPending = false;
  }

  /** A new socket after a lost one: it analyses nothing yet; the switch goes on again. */
  reconnected() {
    this.analysedKey = null; // the new socket analyses nothing yet
    if (this.on) this.restore = true;
  }

  // ---- actions -------------------------------------------------------------------------

  /** Tell the server which position this page analyses, when it changed. */
  sync() {
    const game = this.game;
    if (!game.state || !game.connected) return;
    if (!this.on) {
      this.analysedKey = null;
      return;
    }
    const live = game.isLive();
    const key = live ? "live" : lineKey(game.path);
    const wanted = `${key}|${this.multipv}`;
    if (this.analysedKey === wanted) return;
    this.analysedKey = wanted;
    this.analysis = null;
    const msg = { type: "analyse", on: true, multipv: this.multipv };
    if (!live) msg.line = game.path;
    game.socket.send(msg);
  }

  toggle(on) {
    this.on = on;
    this.analysis = null;
    this.analysedKey = null;
    if (on) this.sync();
    else this.game.send({ type: "analyse", on: false });
    this.render();
  }

  setLines(n) {
    this.multipv = n;
    prefs.set("multipv", n);
    this.sync();
  }

  askHint() {
    const game = this.game;
    if (!game.state || game.state.over) return;
    this.hintPending = true;
    this.hint = null;
    game.send({ type: "hint" });
    game.renderPanel();
  }

  analyseGame() {
    if (this.gameAnalysis?.running) this.game.send({ type: "analyse_game", action: "stop" });
    else this.game.send({ type: "analyse_game", action: "start" });
  }

  /** The hint's move to mark on the board, while the live position is on view. */
  hintMove() {
    return this.game.isLive() && this.hint ? this.hint.move : null;
  }

  // ---- drawing -------------------------------------------------------------------------

  /** The hint button and text, and the analysis switch, as the game allows them. */
  renderButtons() {
    const game = this.game;
    const st = game.state;
    const live = game.isLive();
    const offline = !game.connected;
    const playing = game.mySides().length > 0;
    // the server says whether this page may ask the engine (`help`); the page hides what
    // it would refuse (older servers: rated games and watchers only)
    const noHelp =
      typeof st.help === "boolean"
        ? !st.help
        : st.mode === "server" && !st.over && (st.rated || st.tournament || !playing);
    this.engineSection.hidden = noHelp && !this.on;
    this.hintButton.disabled = st.over || !live || this.hintPending || offline || noHelp;
    this.toggleBox.disabled = offline || (noHelp && !this.on);
    this.hintButton.textContent = this.hintPending ? "Thinking…" : "Hint";
    this.hintText.hidden = !this.hint || !live;
    if (this.hint) {
      const pct =
        this.hint.score === null || this.hint.score === undefined
          ? ""
          : ` · ${Math.round(this.hint.score * 100)}% to win`;
      this.hintText.textContent = `Hint: ${this.hint.move}${pct}`;
    }
  }

  /** The analysis of the position on view. */
  render() {
    const game = this.game;
    const st = game.state;
    this.toggleBox.checked = this.on;
    this.box.hidden = !this.on;
    this.linesSelect.hidden = !this.on;
    if (!this.on || !st) return;
    const facts = game.shownFacts();
    const board = game.shownBoard();
    // the AI's figures stand in while it thinks about the live position
    const thinking = game.thinking.current;
    let a = game.isLive() && st.thinking && thinking ? thinking : this.analysis;
    if (a && a !== thinking && a.position && board && a.position !== board.position) a = null;
    const fill = this.box.querySelector(".winbar-fill");
    // where the game is over (by its rules, a resignation, an agreed draw...) the bar
    // shows the result, all to the winner, whatever a search of the position says
    const ended = !!facts.over;
    let first = 0.5;
    if (ended) {
      first = facts.winner === 0 ? 1 : facts.winner === 1 ? 0 : 0.5;
    } else if (a && typeof a.score === "number") {
      const mover = a.side !== undefined ? a.side : facts.turn;
      first = mover === 0 ? a.score : 1 - a.score;
    }
    const known = !!a || ended;
    fill.style.width = `${(first * 100).toFixed(1)}%`;
    fill.className = `winbar-fill ${st.game}`;
    this.box.dataset.game = st.game;
    this.box.dataset.position = a?.position ? a.position : "";
    document.getElementById("winbar-left").textContent =
      `${st.names[0]} ${known ? `${Math.round(first * 100)}%` : ""}`;
    document.getElementById("winbar-right").textContent =
      `${known ? `${Math.round((1 - first) * 100)}% ` : ""}${st.names[1]}`;
    // a value the solver proved: its words ("White wins in 17 (proven)") for the guess's
    const mover = a && a.side !== undefined ? a.side : facts.turn;
    const shown = a ? evalText(a, mover) : "";
    const result =
      facts.winner === null || facts.winner === undefined
        ? "Draw"
        : `${st.names[facts.winner]} won`;
    const evaluation = ended ? result : a ? a.proven || shown : "";
    const evalBox = document.getElementById("eval-text");
    evalBox.textContent = evaluation;
    evalBox.title = a && !a.proven && !ended ? evalNote(shown, st.names) : "";
    // a mate score says what it means, wherever the evaluation turns into one
    const note = document.getElementById("eval-note");
    note.hidden = !(a && !a.proven && !ended && shown.startsWith("#"));
    note.textContent = note.hidden ? "" : evalNote(shown, st.names);
    this.box.classList.toggle("proven", !!a?.proven);
    const pv = document.getElementById("pv");
    const lines = document.getElementById("pv-lines");
    if (!a) {
      pv.textContent = facts.over ? "The game is over in this position." : "Analysing…";
      lines.replaceChildren();
      return;
    }
    const moves = a.pv || [];
    // a proven line's length; the opening book's ends where the book does, before the game
    const plies = a.proven && typeof a.mate === "number" ? Math.abs(a.mate) : 0;
    const length =
      !plies || !moves.length
        ? ""
        : moves.length < plies
          ? `${moves.length} of ${plies} plies, as far as the opening book goes`
          : `${moves.length} plies`;
    const info = [
      length,
      a.depth && !length ? `depth ${a.depth}` : "",
      a.nodes ? `${a.nodes.toLocaleString("en")} nodes` : "",
    ]
      .filter(Boolean)
      .join(", ");
    const line = moves.slice(0, 10).join(" ") + (moves.length > 10 ? " …" : "");
    const who =
      a === thinking ? `${st.names[a.side]} thinks: ` : a.proven ? "Proven line: " : "Best line: ";
    pv.textContent = `${who}${line || a.best || "?"}${info ? ` (${info}${a.done ? ", finished" : ""})` : ""}`;
    lines.replaceChildren(
      ...(a.lines || []).map((l, i) => {
        const chance = typeof l.score === "number" ? (mover === 0 ? l.score : 1 - l.score) : null;
        const text = evalText(l, mover);
        return h("li", { class: "pv-line", "data-rank": i + 1 }, [
          h("span", { class: "pv-score" }, chance === null ? "?" : `${Math.round(chance * 100)}%`),
          h("span", { class: "pv-eval", title: evalNote(text, st.names) }, text),
          h("span", { class: "pv-moves" }, (l.pv || []).slice(0, 8).join(" ")),
        ]);
      }),
    );
  }

  /** The whole-game analysis of a finished game: the button, the progress, the graph. */
  renderWholeGame() {
    const game = this.game;
    const st = game.state;
    if (!st) return;
    const ga = this.gameAnalysis;
    const server = st.mode === "server";
    const noHelp = server && !st.over;
    // else nothing to analyse, or the server would refuse (the state's help)
    const canAnalyse = st.over && !noHelp && st.moves?.length && st.help !== false;
    // an imported (or annotated) record's own evaluations draw the graph until the game
    // is analysed here
    const written = ga?.result ? null : recordAnalysis(game.tree, st.first_turn || 0);
    const hidden = st.analysis_hidden || "";
    this.hiddenNote.hidden = !hidden;
    this.hiddenNote.textContent = hidden ? `${hidden[0].toUpperCase()}${hidden.slice(1)}.` : "";
    this.wholeSection.hidden = (!canAnalyse && !written && !hidden) || (noHelp && st.rated);
    if (this.wholeSection.hidden) return;
    this.wholeButton.hidden = !canAnalyse;
    const running = !!ga?.running;
    this.wholeButton.textContent = running
      ? "Stop the analysis"
      : ga?.result
        ? "Analyse the whole game again"
        : "Analyse the whole game";
    this.wholeButton.disabled = !game.connected;
    this.wholeProgress.hidden = !running;
    if (running) {
      const pct = ga.total ? (100 * ga.done) / ga.total : 0;
      this.wholeProgress.firstChild.style.width = `${pct.toFixed(1)}%`;
      this.wholeProgress.dataset.done = String(ga.done);
      this.wholeProgress.dataset.total = String(ga.total);
    }
    const result = ga?.result || written;
    this.graphBox.hidden = !result;
    this.graphSource.hidden = !written;
    this.graphSource.textContent = written ? "The evaluations written in the record:" : "";
    this.annotateButton.hidden = !ga?.result || !st.study || game.readOnly;
    if (!result) {
      this.mistakes.replaceChildren();
      return;
    }
    const line = game.shownLine();
    const onMain = game.tree.onMain(line);
    replaceChildren(
      this.graphBox,
      evaluationGraph(result, {
        current: onMain ? line.length : null,
        names: st.names,
        onPly: (ply) => game.goTo(st.moves.slice(0, ply)),
      }),
    );
    const items = (result.reports || [])
      .filter((r) => r.judgement)
      .map((r) => {
        const label = moveLabel(r.ply, st.first_turn || 0, true);
        const better = r.best && r.best !== r.move ? ` · better ${r.best}` : "";
        const drop = dropText(r.drop);
        return h(
          "li",
          { class: `mistake ${r.judgement}`, "data-ply": r.ply + 1 },
          h(
            "button",
            {
              type: "button",
              class: "small subtle",
              onclick: () => game.goTo(st.moves.slice(0, r.ply + 1)),
            },
            `${label} ${r.move}${judgementGlyph(r.judgement)} ${r.judgement}${drop ? ` (${drop})` : ""}${better}`,
          ),
        );
      });
    this.mistakes.replaceChildren(...items);
  }
}
