// The game view: the board, the side panel and the game's WebSocket.

import { h, s, replaceChildren } from "./dom.js";
import { api, GameSocket } from "./api.js";
import { BoardView } from "./board.js";
import { splitMove } from "./hex.js";
import { showError, showNotice, clearAlert } from "./alerts.js";
import { GAME_TITLES, clockText, playerLabel, resultText, rulesText } from "./format.js";
import { notifyTurn, pollNow, setTitle } from "./notify.js";

/** Seconds left under which a live clock warns. */
const LOW_SECONDS = 10;

const prefs = {
  get(key, fallback) {
    try {
      const v = localStorage.getItem(`hexgames.${key}`);
      return v === null ? fallback : JSON.parse(v);
    } catch {
      return fallback;
    }
  },
  set(key, value) {
    try {
      localStorage.setItem(`hexgames.${key}`, JSON.stringify(value));
    } catch {
      // private windows may refuse storage; the setting then lasts for this page only
    }
  },
};

export class GameView {
  constructor(root, id) {
    this.root = root;
    this.id = id;
    this.state = null;
    this.review = null; // {ply, board, last} while looking at an earlier position
    this.wantPly = null; // the ply asked for by the last navigation
    this.selected = null;
    this.hint = null;
    this.hintPending = false;
    this.thinking = null;
    this.thinkingSince = 0;
    this.analysisOn = false; // the game's analysis switch (state.analysis), shared by its tabs
    this.restoreAnalysis = false; // switching it on again after a reconnect
    this.wasClosed = false;
    this.connected = false; // the socket is open (controls that need the server are off otherwise)
    this.gone = false; // the server refused the game (unknown, or it cannot be opened)
    this.lastError = null; // the last error message, which says why a refused game is gone
    this.pausedAt = null; // when the connection was lost: the thinking timer stands still
    this.rebaseTimer = false; // take the next thinking message's elapsed time as it is
    this.movePending = false;
    this.analysis = null;
    this.resignArmed = false;
    this.clockAt = 0; // performance.now() when the last state's clock readings were made
    this.coords = prefs.get("coords", false);
    this.flipped = false;
    this.build();
    this.socket = new GameSocket(id, (msg) => this.message(msg), (status) => this.connection(status));
    this.onKey = (e) => this.key(e);
    document.addEventListener("keydown", this.onKey);
    this.ticker = setInterval(() => this.tick(), 200);
  }

  destroy() {
    this.socket.close();
    document.removeEventListener("keydown", this.onKey);
    clearInterval(this.ticker);
  }

  // ---- layout ------------------------------------------------------------------------

  build() {
    const button = (id, text, title, onclick, extra = {}) =>
      h("button", { id, type: "button", title, "aria-label": title, onclick, ...extra }, text);

    this.boardBox = h("div", { class: "board-box", id: "board" });
    this.board = new BoardView(this.boardBox, { onCell: (cell) => this.cellClicked(cell) });
    this.banner = h("div", { class: "board-banner", id: "result", hidden: true });
    this.reviewBar = h("div", { class: "review-bar", id: "review-bar", hidden: true }, [
      h("span", { id: "review-text" }),
      h("button", { type: "button", id: "review-exit", onclick: () => this.goTo(this.state.ply) }, "Back to the game"),
    ]);
    this.connBar = h("div", { class: "conn-bar", id: "connection", hidden: true }, "Connection lost: reconnecting…");
    this.zoomTools = h("div", { class: "tool-group", id: "zoom-tools" }, [
      button("zoom-in", "+", "Zoom in", () => this.board.zoom(1 / 1.25)),
      button("zoom-out", "−", "Zoom out", () => this.board.zoom(1.25)),
      button("fit", "Fit", "Fit the board to the window", () => this.board.fit()),
    ]);
    this.coordsButton = button("coords", "Coordinates", "Show coordinates", () => this.toggleCoords(), { "aria-pressed": String(this.coords) });
    this.flipButton = button("flip", "Flip", "Turn the board around", () => this.toggleFlip(), { "aria-pressed": "false" });
    // on narrow screens the panel is below the board: a compact status line above it
    this.miniText = h("span", { class: "mini-text", id: "mini-status-text" });
    this.miniSpinner = h("span", { class: "spinner", "aria-hidden": "true", hidden: true });
    this.miniSwatch = h("span", { class: "swatch", "aria-hidden": "true" });
    this.miniMoveNow = button("mini-move-now", "Move now", "Make the computer play its best move so far", () => this.send({ type: "stop" }), { class: "small", hidden: true });
    this.miniStatus = h("div", { class: "mini-status", id: "mini-status" }, [this.miniSwatch, this.miniSpinner, this.miniText, this.miniMoveNow]);
    const toolbar = h("div", { class: "board-tools" }, [
      this.zoomTools,
      h("div", { class: "tool-group" }, [this.coordsButton, this.flipButton]),
    ]);

    // side panel
    this.playerCards = [0, 1].map((side) => h("div", { class: `player-card side${side}`, id: `player${side}` }));
    this.status = h("div", { class: "status", id: "status", "aria-live": "polite" });
    this.legend = h("div", { class: "legend", id: "legend", hidden: true });
    this.passButton = button("pass", "Pass", "Pass (your hand is empty)", () => this.play("pass"), { hidden: true, class: "primary" });
    this.thinkingBox = h("div", { class: "thinking", id: "thinking", hidden: true }, [
      h("div", { class: "thinking-head" }, [h("span", { class: "spinner", "aria-hidden": "true" }), h("span", { id: "thinking-text" })]),
      h("div", { class: "thinking-detail", id: "thinking-detail" }),
      button("move-now", "Move now", "Make the computer play its best move so far", () => this.send({ type: "stop" })),
    ]);
    this.hintButton = button("hint", "Hint", "Show the engine's best move", () => this.askHint());
    this.hintText = h("div", { class: "hint-text", id: "hint-text", hidden: true });
    this.analysisToggle = h("input", { type: "checkbox", id: "analysis-toggle", role: "switch", onchange: (e) => this.toggleAnalysis(e.target.checked) });
    this.analysisBox = h("div", { class: "analysis", id: "analysis", hidden: true }, [
      h("div", { class: "winbar", id: "winbar", title: "Win probability" }, [h("div", { class: "winbar-fill" })]),
      h("div", { class: "winbar-labels" }, [h("span", { id: "winbar-left" }), h("span", { id: "winbar-right" })]),
      h("div", { class: "pv", id: "pv" }),
    ]);
    this.moveList = h("ol", { class: "move-list", id: "moves", "aria-label": "Moves" });
    this.navButtons = {
      first: button("nav-first", icon("M5 4h2v16H5zM19 4v16L8 12z"), "First position (Home)", () => this.goTo(0)),
      back: button("nav-back", icon("M17 4v16L6 12z"), "Back one move (Left arrow)", () => this.goTo(this.viewPly() - 1)),
      forward: button("nav-forward", icon("M7 4v16l11-8z"), "Forward one move (Right arrow)", () => this.goTo(this.viewPly() + 1)),
      last: button("nav-last", icon("M17 4h2v16h-2zM5 4v16l11-8z"), "Current position (End)", () => this.goTo(this.state.ply)),
    };
    // the ply this page believes, as for moves: two tabs sending undo at once take back one move
    this.undoButton = button("undo", "Undo", "Take back the last move", () => this.undo());
    this.resignButton = button("resign", "Resign", "Resign this game", () => this.resign());
    this.drawButton = button("draw", "Offer a draw", "Offer your opponent a draw", () => this.send({ type: "draw", action: "offer" }), { hidden: true });
    this.offerBox = h("div", { class: "offer", id: "offer", hidden: true }, [
      h("span", { id: "offer-text" }),
      button("offer-accept", "Accept", "Accept the offer", () => this.answerOffer(true), { class: "small primary" }),
      button("offer-decline", "Decline", "Decline the offer", () => this.answerOffer(false), { class: "small" }),
    ]);
    const newGame = h("a", { class: "button", id: "new-game", href: "#/", title: "Start a new game", "aria-label": "New game" }, "New game");
    this.exportHgn = h("a", { class: "button", id: "export-hgn", href: api.recordUrl(this.id), download: "", title: "Download the game record (.hgn)", "aria-label": "Export .hgn" }, "Export .hgn");
    this.exportSvg = h("a", { class: "button", id: "export-svg", href: api.svgUrl(this.id), download: "", title: "Download this position as a picture (SVG)", "aria-label": "Position as SVG" }, "Position SVG");
    this.title = h("h2", { class: "game-title", id: "game-title" });
    this.rulesLine = h("div", { class: "rules-line", id: "rules-line" });

    const panel = h("aside", { class: "panel" }, [
      h("div", { class: "panel-head" }, [this.title, this.rulesLine]),
      h("div", { class: "players" }, this.playerCards),
      this.status,
      this.offerBox,
      this.legend,
      this.passButton,
      this.thinkingBox,
      h("section", { class: "panel-section engine" }, [
        h("div", { class: "row" }, [
          this.hintButton,
          h("label", { class: "switch", for: "analysis-toggle" }, [this.analysisToggle, h("span", { class: "switch-track", "aria-hidden": "true" }), "Analysis"]),
        ]),
        this.hintText,
        this.analysisBox,
      ]),
      h("section", { class: "panel-section moves-section" }, [
        h("div", { class: "nav" }, Object.values(this.navButtons)),
        this.moveList,
      ]),
      h("section", { class: "panel-section actions" }, [
        h("div", { class: "row" }, [this.undoButton, this.drawButton, this.resignButton, newGame]),
        h("div", { class: "row" }, [this.exportHgn, this.exportSvg]),
      ]),
    ]);

    const stage = h("section", { class: "stage" }, [
      toolbar,
      this.miniStatus,
      h("div", { class: "board-wrap" }, [this.boardBox, this.banner, this.reviewBar, this.connBar]),
    ]);
    replaceChildren(this.root, h("div", { class: "game-view", id: "game-view", "data-game-id": this.id }, [stage, panel]));
    this.view = this.root.firstChild;
  }

  // ---- messages from the server --------------------------------------------------------

  connection(status) {
    this.connBar.hidden = status !== "closed";
    const now = performance.now();
    if (status === "open") {
      this.connected = true;
      // the timer goes on from where it stood; the next thinking message sets it right
      if (this.pausedAt !== null) this.thinkingSince += now - this.pausedAt;
      this.pausedAt = null;
      this.rebaseTimer = true;
    } else {
      if (this.connected) this.pausedAt = now;
      this.connected = false;
    }
    if (status === "closed") {
      this.wasClosed = true;
      this.movePending = false; // a move lost on the way: the state after reconnecting tells
      this.hintPending = false;
      this.selected = null;
    }
    // the switch goes off when a game's last socket closes: after a reconnect, turn it on again
    if (status === "open" && this.wasClosed && this.analysisOn) {
      this.restoreAnalysis = true;
      this.socket.send({ type: "analyse", on: true });
    }
    if (status === "login") {
      location.hash = `#/login?next=${encodeURIComponent(`#/game/${this.id}`)}`;
      return;
    }
    if (status === "gone") {
      // the server said why before it closed the socket (no such game, a deleted one,
      // or one this version cannot open): say so instead of an empty board
      this.gone = true;
      const why = this.lastError || `There is no game ${this.id} on this server.`;
      showError(why);
      replaceChildren(this.root, h("section", { class: "card gone-card", id: "game-gone", "data-game-id": this.id }, [
        h("h2", {}, "This game cannot be opened"),
        h("p", { id: "gone-message" }, why),
        h("a", { class: "button primary", href: "#/" }, "Back to your games"),
      ]));
      return;
    }
    this.render();
  }

  message(msg) {
    switch (msg.type) {
      case "state":
        this.gotState(msg);
        break;
      case "view":
        if (this.wantPly !== null && msg.ply !== this.wantPly) return; // an older request
        if (this.state && msg.ply === this.state.ply) {
          this.review = null;
        } else {
          this.review = msg;
        }
        this.render();
        break;
      case "thinking":
        if (!this.thinking || this.rebaseTimer) this.thinkingSince = performance.now() - (msg.elapsed || 0) * 1000;
        this.rebaseTimer = false;
        this.thinking = msg;
        this.renderThinking();
        if (this.analysisOn) this.renderAnalysis(); // analysis pauses; the AI's figures stand in
        break;
      case "ai_move":
        this.thinking = null;
        break;
      case "offer":
        if (this.mySides().length && !this.mySides().includes(msg.side)) showNotice(msg.kind === "draw" ? "Your opponent offers a draw." : "Your opponent asks to take back a move.");
        break;
      case "offer_declined":
        if (this.mySides().includes(msg.side)) showNotice(msg.kind === "draw" ? "Your draw offer was declined." : "Your take-back request was declined.");
        break;
      case "hint":
        if (this.state && msg.ply !== undefined && msg.ply !== this.state.ply) return;
        this.hintPending = false;
        this.hint = msg;
        this.render();
        break;
      case "analysis":
        if (this.state && msg.ply !== undefined && msg.ply !== this.state.ply) return;
        this.analysis = msg;
        this.analysisOn = true;
        this.restoreAnalysis = false;
        this.renderAnalysis();
        break;
      case "error":
        this.lastError = msg.message;
        this.movePending = false;
        this.hintPending = false;
        this.selected = null;
        showError(msg.message);
        this.render();
        break;
      default:
        break;
    }
  }

  gotState(msg) {
    this.movePending = false;
    this.clockAt = performance.now();
    const changed = !this.state || this.state.ply !== msg.ply || this.state.moves.join(" ") !== msg.moves.join(" ") || this.state.over !== msg.over;
    const first = !this.state;
    this.state = msg;
    if (changed) {
      this.selected = null;
      this.hint = null;
      this.hintPending = false;
      if (!first) this.resignArmed = false;
      if (this.analysis && this.analysis.ply !== msg.ply) this.analysis = null;
    }
    if (!msg.thinking) this.thinking = null;
    if (typeof msg.analysis === "boolean") {
      if (msg.analysis) this.restoreAnalysis = false;
      if (!this.restoreAnalysis) this.analysisOn = msg.analysis;
    }
    if (first) {
      // a board seen from the side of the only person playing the second side
      this.flipped = msg.players[0] !== "human" && msg.players[1] === "human";
      this.flipButton.setAttribute("aria-pressed", String(this.flipped));
    }
    if (first && msg.mode === "server" && msg.you) {
      // seen from the player's own side
      this.flipped = msg.you.length === 1 && msg.you[0] === 1;
      this.flipButton.setAttribute("aria-pressed", String(this.flipped));
    }
    const yours = this.humanToMove(msg);
    setTitle(`${GAME_TITLES[msg.game] || msg.game} · hexgames`, yours && msg.mode === "server");
    if (yours && msg.mode === "server") notifyTurn(msg.id, msg.ply, `${GAME_TITLES[msg.game]}: your move`);
    if (changed && msg.mode === "server") pollNow(); // the count of games waiting for you
    if (this.review && this.review.ply > msg.ply) this.review = null;
    if (this.wantPly !== null && (this.wantPly > msg.ply || (!this.review && this.wantPly !== msg.ply))) this.wantPly = null;
    this.render();
  }

  // ---- actions -----------------------------------------------------------------------

  send(msg) {
    clearAlert();
    if (!this.socket.send(msg)) showError("Not connected to the server: the action was not sent. Reconnecting…");
  }

  play(move) {
    this.selected = null;
    // until the server answers, further clicks would be stale (a double click): ignore them
    this.movePending = this.socket.send({ type: "move", move, ply: this.state.ply });
    clearAlert();
    if (!this.movePending) showError("Not connected to the server: the move was not sent. Reconnecting…");
  }

  /** Whether the person at this page may move now: a person's side to move (the local
   * mode), and in the server mode their own seat. */
  humanToMove(st = this.state) {
    if (!st || st.over || st.players[st.turn] !== "human") return false;
    return st.mode !== "server" || (st.you || []).includes(st.turn);
  }

  /** The sides this page's person plays. */
  mySides() {
    const st = this.state;
    if (!st) return [];
    if (st.mode === "server") return st.you || [];
    return [0, 1].filter((side) => st.players[side] === "human");
  }

  undo() {
    const st = this.state;
    if (st.mode === "server") this.send({ type: "takeback", action: "offer", ply: st.ply });
    else this.send({ type: "undo", ply: st.ply });
  }

  answerOffer(accept) {
    const offer = this.state && this.state.offer;
    if (!offer) return;
    this.send({ type: offer.kind, action: accept ? "accept" : "decline" });
  }

  cellClicked(cell) {
    const st = this.state;
    if (!st || this.movePending) return;
    if (!this.connected) {
      showNotice("Not connected to the server: wait until the connection is back.");
      return;
    }
    if (this.review) {
      const ply = this.review.ply;
      const where = ply === 0 ? "the start position" : `the position after move ${moveNumber(ply)}`;
      showNotice(`You are looking at ${where}. Press End or "Back to the game" to play.`);
      return;
    }
    if (st.over) {
      showNotice(`The game is over: ${resultText(st.result, st.termination, st.names)}.`);
      return;
    }
    if (!this.humanToMove() || st.thinking) {
      showNotice(`Please wait: ${st.names[st.turn]} (${playerLabel(st.players[st.turn])}) is to move.`);
      return;
    }
    const { singles, moves } = this.legalParts();
    if (this.selected) {
      const from = this.selected;
      if (cell === from) {
        this.selected = null;
        this.render();
        return;
      }
      const pair = moves.find(([a, b]) => a === from && b === cell);
      if (pair) {
        this.play(pair[2]);
        return;
      }
      if (moves.some(([a]) => a === cell)) {
        this.selected = cell;
        this.render();
        return;
      }
      // not a target of the chosen piece: put it back, send nothing
      this.selected = null;
      this.render();
      const what = st.game === "abande" ? `The stack on ${from} cannot move to ${cell}` : `The tile on ${from} cannot go to ${cell}`;
      showNotice(`${what}: choose again.`);
      return;
    }
    if (singles.includes(cell)) {
      this.play(cell);
      return;
    }
    if (moves.some(([a]) => a === cell)) {
      this.selected = cell;
      this.render();
      return;
    }
    this.play(cell); // not legal: the server's error says why, and nothing changes
  }

  joinMove(from, to) {
    return `${from}${this.state.game === "abande" ? "-" : ">"}${to}`;
  }

  /** The legal moves split into one-cell moves and [from, to, text] two-cell moves. */
  legalParts() {
    const singles = [];
    const moves = [];
    for (const move of this.state.legal || []) {
      if (move === "pass") continue;
      const pair = splitMove(this.state.game, move);
      if (pair) moves.push([pair[0], pair[1], move]);
      else singles.push(move);
    }
    return { singles, moves };
  }

  askHint() {
    if (!this.state || this.state.over) return;
    this.hintPending = true;
    this.hint = null;
    this.send({ type: "hint" });
    this.renderPanel();
  }

  toggleAnalysis(on) {
    this.analysisOn = on;
    this.analysis = null;
    this.send({ type: "analyse", on });
    this.renderAnalysis();
  }

  resign() {
    const st = this.state;
    if (!st || st.over) return;
    const mine = this.mySides();
    const side = mine.includes(st.turn) ? st.turn : mine.length ? mine[0] : -1;
    if (side < 0) return;
    if (!this.resignArmed) {
      this.resignArmed = true;
      this.resignButton.textContent = "Really resign?";
      this.resignButton.classList.add("danger");
      setTimeout(() => {
        this.resignArmed = false;
        this.renderPanel();
      }, 4000);
      return;
    }
    this.resignArmed = false;
    this.send({ type: "resign", side });
  }

  toggleCoords() {
    this.coords = !this.coords;
    prefs.set("coords", this.coords);
    this.coordsButton.setAttribute("aria-pressed", String(this.coords));
    this.render();
  }

  toggleFlip() {
    this.flipped = !this.flipped;
    this.flipButton.setAttribute("aria-pressed", String(this.flipped));
    this.board.autoFit = true;
    this.render();
  }

  viewPly() {
    if (this.wantPly !== null) return this.wantPly;
    return this.review ? this.review.ply : this.state ? this.state.ply : 0;
  }

  goTo(ply) {
    const st = this.state;
    if (!st) return;
    const target = Math.max(0, Math.min(st.ply, ply));
    this.wantPly = target;
    if (target === st.ply) {
      // wantPly stays set, so that the answer to an earlier step back is dropped
      this.review = null;
      this.render();
      return;
    }
    this.send({ type: "view", ply: target });
    this.renderMoves();
  }

  key(event) {
    if (!this.state || event.altKey || event.ctrlKey || event.metaKey) return;
    const tag = (event.target.tagName || "").toLowerCase();
    if (tag === "input" || tag === "textarea" || tag === "select") return;
    const actions = {
      ArrowLeft: () => this.goTo(this.viewPly() - 1),
      ArrowRight: () => this.goTo(this.viewPly() + 1),
      Home: () => this.goTo(0),
      End: () => this.goTo(this.state.ply),
    };
    if (event.key === "Escape" && this.selected) {
      this.selected = null;
      this.render();
      return;
    }
    const action = actions[event.key];
    if (action) {
      event.preventDefault();
      action();
    }
  }

  tick() {
    this.renderClocks();
    if (this.thinking && this.state && this.state.thinking && this.connected) {
      const text = this.thinkingHeadline();
      const el = document.getElementById("thinking-text");
      if (el) el.textContent = text;
      this.miniText.textContent = text;
    }
  }

  // ---- drawing -----------------------------------------------------------------------

  render() {
    const st = this.state;
    if (!st) return;
    const reviewing = !!this.review;
    const board = reviewing ? this.review.board : st.board;
    const interactive = !reviewing && this.humanToMove() && !st.thinking && this.connected;
    let emptyCells = [];
    let sources = [];
    let targets = [];
    if (interactive) {
      const { singles, moves } = this.legalParts();
      emptyCells = singles;
      sources = [...new Set(moves.map(([a]) => a))];
      if (this.selected) targets = moves.filter(([a]) => a === this.selected).map(([, b]) => b);
    }
    if (st.game === "andantino" && targets.length) emptyCells = emptyCells.concat(targets);
    this.board.render({
      game: st.game,
      board,
      emptyCells,
      sources,
      targets,
      selected: interactive ? this.selected : null,
      hint: !reviewing && this.hint ? this.hint.move : null,
      coords: this.coords,
      flipped: this.flipped,
      interactive,
      over: st.over && !reviewing,
    });
    this.view.dataset.ply = String(st.ply);
    this.view.dataset.over = String(!!st.over);
    this.view.dataset.turn = String(st.turn);
    this.view.dataset.reviewing = String(reviewing);
    this.view.dataset.interactive = String(interactive);
    this.view.dataset.connected = String(this.connected);
    this.zoomTools.hidden = st.game !== "andantino";
    this.boardBox.dataset.game = st.game;
    this.renderBanner();
    this.renderPanel();
    this.renderMoves();
    this.renderThinking();
    this.renderAnalysis();
  }

  renderBanner() {
    const st = this.state;
    const over = st.over && !this.review;
    this.banner.hidden = !over;
    if (over) {
      let text = resultText(st.result, st.termination, st.names);
      if (st.game === "abande" && st.board.score) text += ` · ${st.board.score[0]}–${st.board.score[1]}`;
      this.banner.textContent = text;
      this.banner.dataset.result = st.result;
    }
    this.reviewBar.hidden = !this.review;
    if (this.review) {
      const n = this.review.ply;
      document.getElementById("review-text").textContent =
        n === 0 ? "Reviewing the start position" : `Reviewing the position after ${moveNumber(n)}${n % 2 ? "." : "…"} ${st.moves[n - 1]}`;
    }
  }

  renderPanel() {
    const st = this.state;
    if (!st) return;
    this.title.textContent = GAME_TITLES[st.game] || st.game;
    this.rulesLine.textContent = rulesText(st.rules);
    const board = st.board;
    st.names.forEach((name, side) => {
      const card = this.playerCards[side];
      const toMove = !st.over && st.turn === side;
      card.classList.toggle("to-move", toMove);
      card.classList.toggle("winner", st.over && st.winner === side);
      const stats = [];
      if (board.hands) stats.push(h("span", { class: "stat", "data-stat": "hand" }, [h("b", {}, String(board.hands[side])), st.game === "abande" ? " in hand" : " tiles"]));
      if (st.game === "abande" && board.score) stats.push(h("span", { class: "stat", "data-stat": "score" }, [h("b", { id: `score${side}` }, String(board.score[side])), board.score[side] === 1 ? " point" : " points"]));
      const account = st.accounts ? st.accounts[side] : null;
      let kind = playerLabel(st.players[side]);
      if (st.mode === "server" && st.players[side] === "human") kind = account ? account + ((st.you || []).includes(side) ? " (you)" : "") : "open seat";
      replaceChildren(card, [
        h("span", { class: `swatch ${st.game}-side${side}`, "aria-hidden": "true" }),
        h("div", { class: "who" }, [h("div", { class: "side-name" }, name), h("div", { class: "player-kind", id: `account${side}` }, kind)]),
        h("div", { class: "stats" }, stats),
        st.clock ? h("div", { class: "clock", id: `clock${side}`, "data-side": side }) : null,
      ]);
    });
    this.renderClocks();
    this.renderOffer();

    let status;
    if (st.over) {
      status = resultText(st.result, st.termination, st.names);
      if (st.game === "abande" && board.score) status += ` (${board.score[0]}–${board.score[1]})`;
    } else if (st.thinking || st.players[st.turn] !== "human") {
      status = `${st.names[st.turn]} is thinking…`;
    } else {
      const humans = st.players.filter((p) => p === "human").length;
      if (st.mode === "server") {
        const who = st.accounts && st.accounts[st.turn] ? ` (${st.accounts[st.turn]})` : "";
        status = this.humanToMove() ? `Your move (${st.names[st.turn]})` : `${st.names[st.turn]}${who} to move`;
      } else {
        status = humans === 1 ? `Your move (${st.names[st.turn]})` : `${st.names[st.turn]} to move`;
      }
      if (this.selected) {
        status += st.game === "abande" ? ` · stack ${this.selected} chosen: click a highlighted target` : ` · tile ${this.selected} picked up: click where it goes`;
      } else if (!this.review && !st.thinking && this.legalParts().moves.length) {
        const { singles } = this.legalParts();
        if (st.game === "abande") status += singles.length ? ": enter a piece, or click a stack of yours to move it" : ": click a stack of yours to move it";
        else status += ": click a tile of yours to move it";
      }
    }
    this.status.textContent = status;
    const legend = this.legendText();
    this.legend.hidden = !legend;
    this.legend.textContent = legend;
    this.status.classList.toggle("over", !!st.over);

    const canPass = !this.review && this.humanToMove() && !st.thinking && (st.legal || []).includes("pass");
    this.passButton.hidden = !canPass;
    const offline = !this.connected; // nothing that needs the server can be done meanwhile
    this.passButton.disabled = offline;

    const server = st.mode === "server";
    const playing = this.mySides().length > 0;
    this.undoButton.disabled = !st.can_undo || offline || (server && (!playing || st.over));
    this.undoButton.textContent = server ? "Take back" : "Undo";
    this.undoButton.hidden = server && !playing;
    this.resignButton.disabled = st.over || !playing || offline;
    this.resignButton.hidden = server && !playing;
    const versusPerson = server && st.players[0] === "human" && st.players[1] === "human";
    this.drawButton.hidden = !versusPerson || !playing;
    this.drawButton.disabled = st.over || offline || !!(st.offer && st.offer.kind === "draw");
    // no engine help in a running rated game; in a running unrated one for the players only
    const noHelp = server && !st.over && (st.rated || !playing);
    if (!this.resignArmed) {
      this.resignButton.textContent = "Resign";
      this.resignButton.classList.remove("danger");
    }
    this.hintButton.disabled = st.over || !!this.review || this.hintPending || offline || noHelp;
    this.analysisToggle.disabled = offline || (noHelp && !this.analysisOn);
    this.hintButton.textContent = this.hintPending ? "Thinking…" : "Hint";
    this.hintText.hidden = !this.hint || !!this.review;
    if (this.hint) {
      const pct = this.hint.score === null || this.hint.score === undefined ? "" : ` · ${Math.round(this.hint.score * 100)}% to win`;
      this.hintText.textContent = `Hint: ${this.hint.move}${pct}`;
    }
    this.exportSvg.href = api.svgUrl(this.id, this.review ? this.review.ply : st.ply);
    this.renderNav();
  }

  /** Both clocks, the running one counted down from the last state (the server keeps
   * the real time: a flag falls there, and the next state says so). */
  renderClocks() {
    const st = this.state;
    if (!st || !st.clock) return;
    const clock = st.clock;
    const live = clock.control.kind === "live";
    const paused = !this.connected;
    for (const side of [0, 1]) {
      const el = document.getElementById(`clock${side}`);
      if (!el) continue;
      let left = clock.remaining[side];
      const running = clock.running === side && !st.over;
      if (running && !paused) left -= (performance.now() - this.clockAt) / 1000;
      left = Math.max(0, left);
      el.textContent = clockText(left);
      el.classList.toggle("running", running);
      el.classList.toggle("low", running && live && left < LOW_SECONDS);
      el.classList.toggle("flagged", st.over && st.termination === "time-forfeit" && st.winner === 1 - side);
      el.dataset.seconds = left.toFixed(1);
    }
  }

  /** A standing draw offer or take-back request: the opponent may answer it here. */
  renderOffer() {
    const st = this.state;
    const offer = st && !st.over ? st.offer : null;
    this.offerBox.hidden = !offer;
    if (!offer) return;
    const mine = this.mySides().includes(offer.side);
    const what = offer.kind === "draw" ? "offers a draw" : "asks to take back the last move";
    const who = (st.accounts && st.accounts[offer.side]) || st.names[offer.side];
    const yours = offer.kind === "draw" ? "You offered a draw" : "You asked to take back your last move";
    document.getElementById("offer-text").textContent = mine ? `${yours}; waiting for the answer.` : `${who} ${what}.`;
    const answer = !mine && this.mySides().length > 0;
    document.getElementById("offer-accept").hidden = !answer;
    document.getElementById("offer-decline").hidden = !answer;
    this.offerBox.dataset.kind = offer.kind;
  }

  renderNav() {
    const ply = this.viewPly();
    const last = this.state.ply;
    // an earlier position comes from the server; the current one is here already
    const offline = !this.connected;
    this.navButtons.first.disabled = ply <= 0 || offline;
    this.navButtons.back.disabled = ply <= 0 || offline;
    this.navButtons.forward.disabled = ply >= last || (offline && ply + 1 !== last);
    this.navButtons.last.disabled = ply >= last;
  }

  /** What the end-of-game marks on the board mean. */
  legendText() {
    const st = this.state;
    if (!st.over || this.review) return "";
    if (st.game === "abande") {
      return "Stacks with a gold ring are awake and score their height; faded stacks are asleep and score nothing.";
    }
    const parts = [];
    if (st.board.line && st.board.line.length) parts.push("the winning line is outlined in gold");
    if (st.board.trapped && st.board.trapped.length) parts.push("trapped tiles are crossed out");
    return parts.length ? parts.join("; ").replace(/^./, (c) => c.toUpperCase()) + "." : "";
  }

  renderMoves() {
    const st = this.state;
    if (!st) return;
    const current = this.viewPly();
    const items = [];
    for (let i = 0; i < st.moves.length; i += 2) {
      const cells = [i, i + 1].filter((j) => j < st.moves.length).map((j) =>
        h("button", {
          type: "button",
          class: `move${j + 1 === current ? " current" : ""}`,
          "data-ply": j + 1,
          "aria-label": `Move ${moveNumber(j + 1)} ${st.names[j % 2]} ${st.moves[j]}`,
          onclick: () => this.goTo(j + 1),
        }, st.moves[j]));
      items.push(h("li", {}, [h("span", { class: "move-no" }, `${i / 2 + 1}.`), ...cells]));
    }
    if (!items.length) items.push(h("li", { class: "no-moves" }, "No moves yet"));
    replaceChildren(this.moveList, items);
    // keep the current move in sight by scrolling the list only, never the page
    const cur = this.moveList.querySelector(".current");
    const list = this.moveList;
    if (cur) {
      const box = list.getBoundingClientRect();
      const at = cur.getBoundingClientRect();
      if (at.top < box.top) list.scrollTop -= box.top - at.top;
      else if (at.bottom > box.bottom) list.scrollTop += at.bottom - box.bottom;
    }
    this.renderNav();
  }

  thinkingHeadline() {
    const st = this.state;
    const side = this.thinking ? this.thinking.side : st.turn;
    const now = this.pausedAt !== null ? this.pausedAt : performance.now();
    const seconds = this.thinking ? (now - this.thinkingSince) / 1000 : 0;
    const paused = this.pausedAt !== null ? " · paused: not connected" : "";
    return `${st.names[side]} is thinking · ${seconds.toFixed(1)} s${paused}`;
  }

  renderThinking() {
    const st = this.state;
    const on = !!(st && st.thinking && !st.over);
    this.thinkingBox.hidden = !on;
    this.renderMini();
    if (!on) return;
    document.getElementById("thinking-text").textContent = this.thinkingHeadline();
    document.getElementById("move-now").disabled = !this.connected;
    this.thinkingBox.classList.toggle("paused", !this.connected);
    const t = this.thinking;
    const parts = [];
    if (t) {
      if (t.depth) parts.push(`depth ${t.depth}`);
      if (t.nodes) parts.push(`${t.nodes.toLocaleString("en")} nodes`);
      if (t.best) parts.push(`best ${t.best}`);
      if (typeof t.score === "number") parts.push(`${Math.round(t.score * 100)}% to win`);
    }
    document.getElementById("thinking-detail").textContent = parts.join(" · ");
  }

  /** The compact status line above the board (shown on narrow screens only). */
  renderMini() {
    const st = this.state;
    if (!st) return;
    const thinking = !!(st.thinking && !st.over);
    let text = this.status.textContent;
    if (thinking) text = this.thinkingHeadline();
    else if (!st.over && st.players[st.turn] === "human") text = text.split(" · ")[0].split(":")[0];
    if (this.review) text = `Reviewing move ${this.review.ply} · ${text}`;
    if (!this.connected && !this.gone && !thinking) text = `Not connected · ${text}`;
    this.miniText.textContent = text;
    this.miniSpinner.hidden = !thinking || !this.connected;
    this.miniMoveNow.hidden = !thinking;
    this.miniMoveNow.disabled = !this.connected;
    const side = st.over ? st.winner : st.turn;
    this.miniSwatch.className = `swatch ${st.game}-side${side}`;
    this.miniSwatch.hidden = side === null || side === undefined;
    this.miniStatus.classList.toggle("over", !!st.over);
  }

  renderAnalysis() {
    const st = this.state;
    this.analysisToggle.checked = this.analysisOn;
    this.analysisBox.hidden = !this.analysisOn;
    if (!this.analysisOn || !st) return;
    const a = st.thinking && this.thinking ? this.thinking : this.analysis;
    const fill = this.analysisBox.querySelector(".winbar-fill");
    let first = 0.5;
    if (a && typeof a.score === "number") {
      const mover = a.side !== undefined ? a.side : st.turn;
      first = mover === 0 ? a.score : 1 - a.score;
    }
    fill.style.width = `${(first * 100).toFixed(1)}%`;
    fill.className = `winbar-fill ${st.game}`;
    this.analysisBox.dataset.game = st.game;
    document.getElementById("winbar-left").textContent = `${st.names[0]} ${a ? Math.round(first * 100) + "%" : ""}`;
    document.getElementById("winbar-right").textContent = `${a ? Math.round((1 - first) * 100) + "% " : ""}${st.names[1]}`;
    const pv = document.getElementById("pv");
    if (!a) {
      pv.textContent = st.over ? "The game is over." : "Analysing…";
    } else {
      const info = [a.depth ? `depth ${a.depth}` : "", a.nodes ? `${a.nodes.toLocaleString("en")} nodes` : ""].filter(Boolean).join(", ");
      const line = (a.pv || []).slice(0, 10).join(" ") + ((a.pv || []).length > 10 ? " …" : "");
      const who = a === this.thinking ? `${st.names[a.side]} thinks: ` : "Best line: ";
      pv.textContent = `${who}${line || a.best || "?"}${info ? ` (${info}${a.done ? ", finished" : ""})` : ""}`;
    }
  }
}

function icon(path) {
  return s("svg", { viewBox: "0 0 24 24", "aria-hidden": "true" }, [s("path", { d: path })]);
}

function moveNumber(ply) {
  return Math.ceil(ply / 2);
}
