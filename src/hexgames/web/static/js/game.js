// The game view: the board, the side panel and the game's WebSocket; a study board.
//
// The page shows one position at a time: the game's current one ("live"), or any
// other named by its line (the moves from the start): an earlier position of the game
// or a position of a side line. Everything on the page follows the position on view:
// the board, the panel's hands and points, the analysis (the server analyses the
// position the page shows) and the legal moves. A move played from a position that is
// not the live one makes a side line, never a move of the game: in the game's shared
// study when this page may edit it (state.study), else in the page's own private copy.

import { clearAlert, showError, showNotice } from "./alerts.js";
import { analysisMethods } from "./analysis-panel.js";
import { api, GameSocket } from "./api.js";
import { BoardView } from "./board.js";
import { h, replaceChildren, s } from "./dom.js";
import { clockText, GAME_TITLES, playerLabel, resultText, rulesText } from "./format.js";
import { joinMove, splitMove } from "./hex.js";
import { renderMoveList } from "./movelist.js";
import { notifyTurn, pollNow, setTitle } from "./notify.js";
import { studyMethods } from "./study-panel.js";
import { lineKey, NAG_GLYPHS, privateStore, StudyTree, withoutPrefix } from "./tree.js";

/** Seconds left under which a live clock warns. */
const LOW_SECONDS = 10;
/** Views of positions kept by the page (a position's board never changes). */
const VIEW_CACHE = 400;
/** Target lists kept by the page: where one piece of one position may go. */
const TARGETS_CACHE = 400;

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

const sameLine = (a, b) => a.length === b.length && a.every((m, i) => m === b[i]);
const isPrefix = (a, b) => a.length <= b.length && a.every((m, i) => m === b[i]);

/** Whether a key event belongs to a field that takes text (the keys then are its own). */
function typing(target) {
  const tag = (target.tagName || "").toLowerCase();
  if (tag === "textarea" || tag === "select" || target.isContentEditable) return true;
  if (tag !== "input") return false;
  return !["checkbox", "radio", "button", "submit", "range"].includes(
    (target.type || "").toLowerCase(),
  );
}

export class GameView {
  /** options.ply: open read-only at that ply of the game (a shared link). */
  constructor(root, id, options = {}) {
    this.root = root;
    this.id = id;
    this.state = null;
    this.path = null; // the line on view; null: the game's current position, whatever it becomes
    this.views = new Map(); // lineKey -> view message
    this.waitingFor = null; // the lineKey of the view asked for last
    // where a piece may go, asked of the server one piece at a time (a position's list
    // of every relocation grows with its square): "position|from" -> cells
    this.targets = new Map();
    this.targetsAsked = null; // the key of the targets asked for last
    this.pendingClick = null; // a click on a target before the targets came
    this.readOnly = options.ply !== undefined && options.ply !== null;
    this.openAt = this.readOnly ? Number(options.ply) : null;
    this.privateLines = privateStore.load(id);
    this.tree = new StudyTree(null, []);
    this.selected = null;
    this.hint = null;
    this.hintPending = false;
    this.thinking = null;
    this.thinkingSince = 0;
    this.analysisOn = false; // this socket's analysis (state.analysis)
    this.analysedKey = null; // the position the server was asked to analyse
    this.restoreAnalysis = false;
    this.multipv = prefs.get("multipv", 1);
    this.wasClosed = false;
    this.connected = false;
    this.gone = false;
    this.lastError = null;
    this.pausedAt = null;
    this.rebaseTimer = false;
    this.movePending = false;
    this.analysis = null;
    this.gameAnalysis = null; // {running, done, total, result}
    this.resignArmed = false;
    this.clockAt = 0;
    this.coords = null; // per game, from the preferences once the game is known
    this.flipped = false;
    this.showSleeping = false;
    this.editingNames = false;
    this.build();
    this.socket = new GameSocket(
      id,
      (msg) => this.message(msg),
      (status) => this.connection(status),
    );
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
    // the result and the review bar sit outside the board: they never cover a point
    this.banner = h("div", { class: "board-banner", id: "result", hidden: true });
    this.reviewBar = h("div", { class: "review-bar", id: "review-bar", hidden: true }, [
      h("span", { id: "review-text" }),
      h(
        "button",
        { type: "button", id: "review-exit", onclick: () => this.goLive() },
        "Back to the game",
      ),
    ]);
    this.connBar = h(
      "div",
      { class: "conn-bar", id: "connection", hidden: true },
      "Connection lost: reconnecting…",
    );
    this.zoomTools = h("div", { class: "tool-group", id: "zoom-tools" }, [
      button("zoom-in", "+", "Zoom in", () => this.board.zoom(1 / 1.25)),
      button("zoom-out", "−", "Zoom out", () => this.board.zoom(1.25)),
      button("fit", "Fit", "Fit the board to the window", () => this.board.fit()),
    ]);
    this.coordsButton = button(
      "coords",
      "Coordinates",
      "Show coordinates",
      () => this.toggleCoords(),
      { "aria-pressed": "false" },
    );
    this.flipButton = button("flip", "Flip", "Turn the board around", () => this.toggleFlip(), {
      "aria-pressed": "false",
    });
    this.sleepButton = button(
      "show-sleeping",
      "Sleeping",
      "Show the stacks that would sleep if the game ended now",
      () => this.toggleSleeping(),
      { "aria-pressed": "false", hidden: true },
    );
    this.moveInput = h("input", {
      type: "text",
      id: "move-input",
      class: "move-input",
      placeholder: "Type a move: 0,1 or c3-d4",
      "aria-label": "Type a move",
      autocomplete: "off",
      spellcheck: "false",
      autocapitalize: "none",
    });
    this.moveForm = h(
      "form",
      {
        class: "move-form",
        id: "move-form",
        onsubmit: (e) => {
          e.preventDefault();
          this.typedMove();
        },
      },
      [this.moveInput],
    );
    this.miniText = h("span", { class: "mini-text", id: "mini-status-text" });
    this.miniSpinner = h("span", { class: "spinner", "aria-hidden": "true", hidden: true });
    this.miniSwatch = h("span", { class: "swatch", "aria-hidden": "true" });
    this.miniMoveNow = button(
      "mini-move-now",
      "Move now",
      "Make the computer play its best move so far",
      () => this.send({ type: "stop" }),
      { class: "small", hidden: true },
    );
    this.miniStatus = h("div", { class: "mini-status", id: "mini-status" }, [
      this.miniSwatch,
      this.miniSpinner,
      this.miniText,
      this.miniMoveNow,
    ]);
    const toolbar = h("div", { class: "board-tools" }, [
      this.zoomTools,
      this.moveForm,
      h("div", { class: "tool-group" }, [this.sleepButton, this.coordsButton, this.flipButton]),
    ]);

    // side panel
    this.playerCards = [0, 1].map((side) =>
      h("div", { class: `player-card side${side}`, id: `player${side}` }),
    );
    this.namesForm = h(
      "form",
      {
        class: "names-form",
        id: "names-form",
        hidden: true,
        onsubmit: (e) => {
          e.preventDefault();
          this.saveNames();
        },
      },
      [
        h("input", {
          type: "text",
          id: "name0",
          maxlength: 100,
          "aria-label": "First player's name",
        }),
        h("input", {
          type: "text",
          id: "name1",
          maxlength: 100,
          "aria-label": "Second player's name",
        }),
        h("div", { class: "row" }, [
          h("button", { type: "submit", id: "names-save", class: "small primary" }, "Save names"),
          button(
            "names-cancel",
            "Cancel",
            "Keep the names",
            () => {
              this.editingNames = false;
              this.renderPanel();
            },
            { class: "small" },
          ),
        ]),
      ],
    );
    this.namesButton = button(
      "edit-names",
      "Names",
      "Enter the players' names",
      () => this.editNames(),
      { class: "small subtle", hidden: true },
    );
    this.status = h("div", { class: "status", id: "status", "aria-live": "polite" });
    this.singleLine = h("div", { class: "single-status", id: "single-status", hidden: true });
    this.legend = h("div", { class: "legend", id: "legend", hidden: true });
    this.passButton = button(
      "pass",
      "Pass",
      "Pass (your hand is empty)",
      () => this.passClicked(),
      { hidden: true, class: "primary" },
    );
    this.thinkingBox = h("div", { class: "thinking", id: "thinking", hidden: true }, [
      h("div", { class: "thinking-head" }, [
        h("span", { class: "spinner", "aria-hidden": "true" }),
        h("span", { id: "thinking-text" }),
      ]),
      h("div", { class: "thinking-detail", id: "thinking-detail" }),
      button("move-now", "Move now", "Make the computer play its best move so far", () =>
        this.send({ type: "stop" }),
      ),
    ]);
    this.hintButton = button("hint", "Hint", "Show the engine's best move", () => this.askHint());
    this.hintText = h("div", { class: "hint-text", id: "hint-text", hidden: true });
    this.analysisToggle = h("input", {
      type: "checkbox",
      id: "analysis-toggle",
      role: "switch",
      onchange: (e) => this.toggleAnalysis(e.target.checked),
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
    this.analysisBox = h("div", { class: "analysis", id: "analysis", hidden: true }, [
      h("div", { class: "winbar", id: "winbar", title: "Win probability" }, [
        h("div", { class: "winbar-fill" }),
      ]),
      h("div", { class: "winbar-labels" }, [
        h("span", { id: "winbar-left" }),
        h("span", { id: "eval-text" }),
        h("span", { id: "winbar-right" }),
      ]),
      h("div", { class: "pv", id: "pv" }),
      h("ol", { class: "pv-lines", id: "pv-lines" }),
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
    this.mistakes = h("ol", { class: "mistakes", id: "mistakes" });
    this.annotateButton = button(
      "annotate",
      "Write into the record",
      "Write the evaluations, the mistakes and the better moves into the game's record",
      () => this.send({ type: "study", action: "annotate" }),
      { class: "small", hidden: true },
    );
    this.wholeSection = h(
      "section",
      { class: "panel-section whole-game", id: "whole-game", hidden: true },
      [
        h("div", { class: "row" }, [this.wholeButton, this.annotateButton]),
        this.wholeProgress,
        this.graphBox,
        this.mistakes,
      ],
    );
    this.moveList = h("ol", { class: "move-list", id: "moves", "aria-label": "Moves" });
    this.navButtons = {
      first: button("nav-first", icon("M5 4h2v16H5zM19 4v16L8 12z"), "First position (Home)", () =>
        this.goTo([]),
      ),
      back: button("nav-back", icon("M17 4v16L6 12z"), "Back one move (Left arrow)", () =>
        this.back(),
      ),
      forward: button("nav-forward", icon("M7 4v16l11-8z"), "Forward one move (Right arrow)", () =>
        this.forward(),
      ),
      last: button("nav-last", icon("M17 4h2v16h-2zM5 4v16l11-8z"), "End of the line (End)", () =>
        this.toEnd(),
      ),
    };
    // what may be done with the move on view: a side line's place, its comment and NAGs
    this.nodeTools = h("div", { class: "node-tools", id: "node-tools", hidden: true }, [
      h("div", { class: "row" }, [
        button(
          "line-promote",
          "Promote",
          "Move this side line up",
          () => this.editNode("promote"),
          { class: "small" },
        ),
        button("line-demote", "Demote", "Move this side line down", () => this.editNode("demote"), {
          class: "small",
        }),
        button(
          "line-delete",
          "Delete",
          "Delete this move and the rest of its line",
          () => this.editNode("delete"),
          { class: "small danger-text" },
        ),
      ]),
      h(
        "div",
        { class: "row nag-row", id: "nag-buttons" },
        [1, 2, 3, 4, 5, 6].map((n) =>
          button(
            `nag-${n}`,
            NAG_GLYPHS[n],
            `Mark the move ${NAG_GLYPHS[n]}`,
            () => this.toggleNag(n),
            { class: "small nag-button", "aria-pressed": "false" },
          ),
        ),
      ),
      h(
        "form",
        {
          class: "comment-form",
          onsubmit: (e) => {
            e.preventDefault();
            this.saveComment();
          },
        },
        [
          h("textarea", {
            id: "comment-text",
            rows: 2,
            maxlength: 2000,
            placeholder: "A comment on this move",
            "aria-label": "Comment",
          }),
          h("button", { type: "submit", id: "comment-save", class: "small" }, "Save comment"),
        ],
      ),
    ]);
    this.lineNote = h("div", { class: "line-note", id: "line-note", hidden: true });
    this.undoButton = button("undo", "Undo", "Take back the last move", () => this.undo());
    this.resignButton = button("resign", "Resign", "Resign this game", () => this.resign());
    this.drawButton = button(
      "draw",
      "Offer a draw",
      "Offer your opponent a draw",
      () => this.send({ type: "draw", action: "offer" }),
      { hidden: true },
    );
    this.offerBox = h("div", { class: "offer", id: "offer", hidden: true }, [
      h("span", { id: "offer-text" }),
      button("offer-accept", "Accept", "Accept the offer", () => this.answerOffer(true), {
        class: "small primary",
      }),
      button("offer-decline", "Decline", "Decline the offer", () => this.answerOffer(false), {
        class: "small",
      }),
    ]);
    const newGame = h(
      "a",
      {
        class: "button",
        id: "new-game",
        href: "#/",
        title: "Start a new game",
        "aria-label": "New game",
      },
      "New game",
    );
    this.exportHgn = h(
      "a",
      {
        class: "button",
        id: "export-hgn",
        href: api.recordUrl(this.id),
        download: "",
        title: "Download the game record (.hgn)",
        "aria-label": "Export .hgn",
      },
      "Export .hgn",
    );
    this.exportSvg = h(
      "a",
      {
        class: "button",
        id: "export-svg",
        href: api.svgUrl(this.id),
        download: "",
        title: "Download this position as a picture (SVG)",
        "aria-label": "Position as SVG",
      },
      "Position SVG",
    );
    this.positionField = h("input", {
      type: "text",
      id: "position-text",
      readonly: true,
      "aria-label": "Position string of the position on view",
      onfocus: (e) => e.target.select(),
    });
    this.fromHere = h(
      "form",
      {
        class: "from-here",
        id: "from-here",
        hidden: true,
        onsubmit: (e) => {
          e.preventDefault();
          this.newGameFromHere();
        },
      },
      [
        h(
          "div",
          { class: "row" },
          [0, 1].map((side) =>
            h("select", { id: `from-player${side}`, "aria-label": `Who plays side ${side + 1}` }),
          ),
        ),
        h("div", { class: "row" }, [
          h("button", { type: "submit", id: "from-here-start", class: "small primary" }, "Start"),
          button(
            "from-here-cancel",
            "Cancel",
            "Do not start a game",
            () => {
              this.fromHere.hidden = true;
            },
            { class: "small" },
          ),
        ]),
      ],
    );
    this.title = h("h2", { class: "game-title", id: "game-title" });
    this.rulesLine = h("div", { class: "rules-line", id: "rules-line" });
    this.eventLine = h("div", { class: "event-line", id: "event-line" });

    const panel = h("aside", { class: "panel" }, [
      h("div", { class: "panel-head" }, [this.title, this.rulesLine]),
      this.eventLine,
      h("div", { class: "players" }, this.playerCards),
      h("div", { class: "row names-row" }, [this.namesButton]),
      this.namesForm,
      this.status,
      this.singleLine,
      this.offerBox,
      this.legend,
      this.passButton,
      this.thinkingBox,
      h("section", { class: "panel-section engine" }, [
        h("div", { class: "row" }, [
          this.hintButton,
          this.linesSelect,
          h("label", { class: "switch", for: "analysis-toggle" }, [
            this.analysisToggle,
            h("span", { class: "switch-track", "aria-hidden": "true" }),
            "Analysis",
          ]),
        ]),
        this.hintText,
        this.analysisBox,
      ]),
      this.wholeSection,
      h("section", { class: "panel-section moves-section" }, [
        h("div", { class: "nav" }, Object.values(this.navButtons)),
        this.moveList,
        this.lineNote,
        this.nodeTools,
      ]),
      h("section", { class: "panel-section actions" }, [
        h("div", { class: "row" }, [this.undoButton, this.drawButton, this.resignButton, newGame]),
        h("div", { class: "row" }, [this.exportHgn, this.exportSvg]),
      ]),
      h("section", { class: "panel-section share" }, [
        h("div", { class: "row share-row" }, [
          this.positionField,
          button(
            "copy-position",
            "Copy position",
            "Copy the position string of the position on view",
            () => this.copyPosition(),
            { class: "small" },
          ),
        ]),
        h("div", { class: "row" }, [
          button(
            "copy-link",
            "Copy link",
            "Copy a read-only link to this position of the game",
            () => this.copyLink(),
            { class: "small" },
          ),
          button(
            "new-from-here",
            "New game from here",
            "Start a new game from the position on view",
            () => this.openFromHere(),
            { class: "small" },
          ),
        ]),
        this.fromHere,
      ]),
    ]);

    const stage = h("section", { class: "stage" }, [
      toolbar,
      this.miniStatus,
      this.banner,
      h("div", { class: "board-wrap" }, [this.boardBox, this.connBar]),
      this.reviewBar,
    ]);
    replaceChildren(
      this.root,
      h(
        "div",
        {
          class: "game-view",
          id: "game-view",
          "data-game-id": this.id,
          "data-read-only": String(this.readOnly),
        },
        [stage, panel],
      ),
    );
    this.view = this.root.firstChild;
  }

  // ---- messages from the server --------------------------------------------------------

  connection(status) {
    this.connBar.hidden = status !== "closed";
    const now = performance.now();
    if (status === "open") {
      this.connected = true;
      if (this.pausedAt !== null) this.thinkingSince += now - this.pausedAt;
      this.pausedAt = null;
      this.rebaseTimer = true;
    } else {
      if (this.connected) this.pausedAt = now;
      this.connected = false;
    }
    if (status === "closed") {
      this.wasClosed = true;
      this.movePending = false;
      this.hintPending = false;
      this.selected = null;
      this.targetsAsked = null;
    }
    if (status === "open" && this.wasClosed) {
      this.analysedKey = null; // the new socket analyses nothing yet
      if (this.analysisOn) this.restoreAnalysis = true;
      if (this.path !== null) this.requestView(this.path);
    }
    if (status === "login") {
      location.hash = `#/login?next=${encodeURIComponent(`#/game/${this.id}`)}`;
      return;
    }
    if (status === "gone") {
      this.gone = true;
      const why = this.lastError || `There is no game ${this.id} on this server.`;
      showError(why);
      replaceChildren(
        this.root,
        h("section", { class: "card gone-card", id: "game-gone", "data-game-id": this.id }, [
          h("h2", {}, "This game cannot be opened"),
          h("p", { id: "gone-message" }, why),
          h("a", { class: "button primary", href: "#/" }, "Back to your games"),
        ]),
      );
      return;
    }
    this.syncAnalysis();
    this.render();
  }

  message(msg) {
    switch (msg.type) {
      case "state":
        this.gotState(msg);
        break;
      case "view": {
        const key = lineKey(msg.line || []);
        this.views.set(key, msg);
        if (this.views.size > VIEW_CACHE) this.views.delete(this.views.keys().next().value);
        if (this.waitingFor === key) this.waitingFor = null;
        if (this.path !== null && lineKey(this.path) === key) this.render();
        break;
      }
      case "targets":
        this.gotTargets(msg);
        break;
      case "thinking":
        if (!this.thinking || this.rebaseTimer)
          this.thinkingSince = performance.now() - (msg.elapsed || 0) * 1000;
        this.rebaseTimer = false;
        this.thinking = msg;
        this.renderThinking();
        if (this.analysisOn) this.renderAnalysis();
        break;
      case "ai_move":
        this.thinking = null;
        break;
      case "offer":
        if (this.mySides().length && !this.mySides().includes(msg.side))
          showNotice(
            msg.kind === "draw"
              ? "Your opponent offers a draw."
              : "Your opponent asks to take back a move.",
          );
        break;
      case "offer_declined":
        if (this.mySides().includes(msg.side))
          showNotice(
            msg.kind === "draw"
              ? "Your draw offer was declined."
              : "Your take-back request was declined.",
          );
        break;
      case "hint":
        if (this.state && msg.ply !== undefined && msg.ply !== this.state.ply) return;
        this.hintPending = false;
        this.hint = msg;
        this.render();
        break;
      case "analysis": {
        // an analysis of another position than the one on view is stale: dropped
        const shown = this.shownBoard();
        if (shown && msg.position && msg.position !== shown.position) return;
        this.analysis = msg;
        this.renderAnalysis();
        break;
      }
      case "game_analysis":
        this.gameAnalysis =
          msg.result || !this.gameAnalysis
            ? msg
            : { ...this.gameAnalysis, ...msg, result: this.gameAnalysis.result };
        this.renderWholeGame();
        break;
      case "error":
        this.lastError = msg.message;
        this.movePending = false;
        this.hintPending = false;
        this.selected = null;
        this.targetsAsked = null;
        showError(msg.message);
        if (this.state) {
          // a side line the server refused: the tree as the server has it
          this.tree = new StudyTree(this.state.tree, this.state.moves, this.privateLines);
          if (this.path !== null && !this.tree.find(this.path)) {
            let line = this.path.slice();
            while (line.length && !this.tree.find(line)) line = line.slice(0, -1);
            this.goTo(line);
            return;
          }
        }
        this.render();
        break;
      default:
        break;
    }
  }

  gotState(msg) {
    this.movePending = false;
    this.clockAt = performance.now();
    const before = this.state;
    const changed =
      !before ||
      before.ply !== msg.ply ||
      before.moves.join(" ") !== msg.moves.join(" ") ||
      before.over !== msg.over;
    const first = !before;
    this.state = msg;
    this.tree = new StudyTree(msg.tree, msg.moves, this.privateLines);
    if (msg.game_analysis !== undefined) {
      const running = this.gameAnalysis?.running;
      if (msg.game_analysis || !running) this.gameAnalysis = msg.game_analysis;
    }
    if (changed) {
      this.selected = null;
      this.hint = null;
      this.hintPending = false;
      if (!first) this.resignArmed = false;
    }
    if (!msg.thinking) this.thinking = null;
    if (typeof msg.analysis === "boolean") {
      if (this.restoreAnalysis && this.connected) {
        this.restoreAnalysis = false;
        this.analysedKey = null;
        this.syncAnalysis();
      } else if (!this.restoreAnalysis) {
        this.analysisOn = msg.analysis;
      }
    }
    if (first) {
      this.coords = prefs.get(`coords.${msg.game}`, true);
      this.coordsButton.setAttribute("aria-pressed", String(this.coords));
      this.flipped = msg.players[0] !== "human" && msg.players[1] === "human";
      if (msg.mode === "server" && msg.you) this.flipped = msg.you.length === 1 && msg.you[0] === 1;
      this.flipButton.setAttribute("aria-pressed", String(this.flipped));
      if (this.readOnly) this.goTo(msg.moves.slice(0, Math.max(0, Math.min(msg.ply, this.openAt))));
    }
    // a line on view that the game or the study no longer has: back to the game
    if (this.path !== null && !this.tree.find(this.path)) {
      this.path = isPrefix(this.path, msg.moves) ? this.path : null;
    }
    if (this.path !== null && sameLine(this.path, msg.moves) && !this.readOnly) this.path = null;
    const yours = this.humanToMove(msg);
    setTitle(`${GAME_TITLES[msg.game] || msg.game} · hexgames`, yours && msg.mode === "server");
    if (yours && msg.mode === "server")
      notifyTurn(msg.id, msg.ply, `${GAME_TITLES[msg.game]}: your move`);
    if (changed && msg.mode === "server") pollNow();
    this.syncAnalysis();
    this.render();
  }

  // ---- the position on view ------------------------------------------------------------

  /** The line on view (the game's moves when live). */
  shownLine() {
    return this.path === null ? this.state.moves : this.path;
  }

  isLive() {
    return (
      this.path === null || (this.state && sameLine(this.path, this.state.moves) && !this.readOnly)
    );
  }

  /** The view message of the position on view, or null while it is on its way. */
  shownView() {
    if (!this.state) return null;
    if (this.isLive()) return null;
    return this.views.get(lineKey(this.path)) || null;
  }

  /** The BOARD on view (the last one shown while the next is on its way). */
  shownBoard() {
    if (!this.state) return null;
    if (this.isLive()) return this.state.board;
    const view = this.shownView();
    return view ? view.board : this.lastBoard || this.state.board;
  }

  /** {turn, over, legal, sources, result, termination, winner} of the position on view:
   * legal, the moves that move no piece; sources, the pieces a move may move. */
  shownFacts() {
    const st = this.state;
    if (this.isLive())
      return {
        turn: st.turn,
        over: st.over,
        legal: st.legal || [],
        sources: st.sources || [],
        result: st.result,
        termination: st.termination,
        winner: st.winner,
        live: true,
      };
    const view = this.shownView();
    if (!view)
      return {
        turn: st.turn,
        over: false,
        legal: [],
        sources: [],
        result: "*",
        termination: null,
        winner: null,
        live: false,
        loading: true,
      };
    return {
      turn: view.turn,
      over: view.over,
      legal: view.legal || [],
      sources: view.sources || [],
      result: view.result,
      termination: view.termination,
      winner: view.winner,
      live: false,
    };
  }

  // ---- where a piece may go, one piece at a time ----------------------------------------

  targetsKey(from) {
    const board = this.shownBoard();
    return `${board ? board.position : ""}|${from}`;
  }

  /** The cells the piece on `from` may go to in the position on view, or null while
   * they are on their way (asked for here). */
  targetsOf(from) {
    const key = this.targetsKey(from);
    const known = this.targets.get(key);
    if (known) return known;
    if (this.targetsAsked !== key) {
      this.targetsAsked = key;
      const msg = { type: "targets", from };
      if (!this.isLive()) msg.line = this.path;
      this.socket.send(msg);
    }
    return null;
  }

  gotTargets(msg) {
    const key = `${msg.position}|${msg.from}`;
    this.targets.set(key, msg.targets);
    if (this.targets.size > TARGETS_CACHE) this.targets.delete(this.targets.keys().next().value);
    if (this.targetsAsked === key) this.targetsAsked = null;
    if (!this.state || this.selected !== msg.from || this.targetsKey(msg.from) !== key) return;
    const click = this.pendingClick;
    this.pendingClick = null;
    if (click)
      this.cellClicked(click); // the click made before they came
    else this.render();
  }

  /** Pick up the piece on `cell`: its targets are shown once known. */
  select(cell) {
    this.selected = cell;
    this.pendingClick = null;
    this.targetsOf(cell);
    this.render();
  }

  requestView(line) {
    const key = lineKey(line);
    this.waitingFor = key;
    this.socket.send({ type: "view", line });
  }

  /** Show the position of `line` (the live position when it is the game's moves). */
  goTo(line) {
    const st = this.state;
    if (!st) return;
    this.selected = null;
    const board = this.shownBoard();
    if (board) this.lastBoard = board;
    if (sameLine(line, st.moves) && !this.readOnly) {
      this.path = null;
    } else {
      this.path = line.slice();
      if (!this.views.has(lineKey(line))) this.requestView(line);
    }
    this.syncAnalysis();
    this.render();
  }

  goLive() {
    if (this.readOnly) {
      this.readOnly = false;
      this.view.dataset.readOnly = "false";
      history.replaceState(null, "", `#/game/${encodeURIComponent(this.id)}`);
    }
    this.goTo(this.state.moves);
  }

  back() {
    const line = this.shownLine();
    if (line.length) this.goTo(line.slice(0, -1));
  }

  forward() {
    const node = this.tree.find(this.shownLine());
    if (node?.children.length) this.goTo(node.children[0].line);
  }

  toEnd() {
    const line = this.shownLine();
    if (this.tree.onMain(line)) this.goTo(this.state.moves);
    else this.goTo(this.tree.endOf(line));
  }

  /** The sibling line before (-1) or after (+1) the move on view. */
  sibling(step) {
    const node = this.tree.find(this.shownLine());
    if (!node || !node.parent) return;
    const list = node.parent.children;
    const next = list[list.indexOf(node) + step];
    if (next) this.goTo(next.line);
  }

  // ---- analysis follows the board ------------------------------------------------------

  /** Tell the server which position this page analyses, when it changed. */
  syncAnalysis() {
    if (!this.state || !this.connected) return;
    if (!this.analysisOn) {
      this.analysedKey = null;
      return;
    }
    const live = this.isLive();
    const key = live ? "live" : lineKey(this.path);
    const wanted = `${key}|${this.multipv}`;
    if (this.analysedKey === wanted) return;
    this.analysedKey = wanted;
    this.analysis = null;
    const msg = { type: "analyse", on: true, multipv: this.multipv };
    if (!live) msg.line = this.path;
    this.socket.send(msg);
  }

  toggleAnalysis(on) {
    this.analysisOn = on;
    this.analysis = null;
    this.analysedKey = null;
    if (on) this.syncAnalysis();
    else this.send({ type: "analyse", on: false });
    this.renderAnalysis();
  }

  setLines(n) {
    this.multipv = n;
    prefs.set("multipv", n);
    this.syncAnalysis();
  }

  // ---- actions -----------------------------------------------------------------------

  send(msg) {
    clearAlert();
    if (!this.socket.send(msg))
      showError("Not connected to the server: the action was not sent. Reconnecting…");
  }

  play(move) {
    this.selected = null;
    this.movePending = this.socket.send({ type: "move", move, ply: this.state.ply });
    clearAlert();
    if (!this.movePending)
      showError("Not connected to the server: the move was not sent. Reconnecting…");
  }

  /** A move from a position that is not the live one: a side line, shared or private. */
  playSideLine(move) {
    const line = [...this.shownLine(), move];
    this.selected = null;
    if (this.state.study && !this.readOnly) {
      if (!this.tree.find(line)) {
        this.send({ type: "study", action: "add", line });
        this.tree.addLine(line, false); // until the server's state has it
      }
    } else {
      this.privateLines = withoutPrefix(this.privateLines, line).concat([line]);
      privateStore.save(this.id, this.privateLines);
      this.tree.addPrivate(line);
    }
    this.goTo(line);
  }

  humanToMove(st = this.state) {
    if (!st || st.over || st.players[st.turn] !== "human") return false;
    return st.mode !== "server" || (st.you || []).includes(st.turn);
  }

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
    const offer = this.state?.offer;
    if (!offer) return;
    this.send({ type: offer.kind, action: accept ? "accept" : "decline" });
  }

  /** How a click on the board acts now: "game" (a move of the game), "line" (a side
   * line), or a notice why nothing can be played. */
  clickMode() {
    const st = this.state;
    if (this.readOnly)
      return { notice: "This is a read-only link: press “Back to the game” to play or study." };
    const facts = this.shownFacts();
    if (facts.loading) return { notice: "The position is on its way from the server." };
    if (facts.live) {
      if (st.over)
        return {
          notice: `The game is over: ${resultText(st.result, st.termination, st.names)}. Go back to a move to try other lines.`,
        };
      if (this.humanToMove() && !st.thinking) return { mode: "game" };
      // the game's next move is its player's: side lines leave earlier positions
      return {
        notice: `Please wait: ${st.names[st.turn]} (${playerLabel(st.players[st.turn])}) is to move. To try other moves, go back to an earlier position.`,
      };
    }
    if (facts.over) return { notice: "The game is over in this position." };
    return { mode: "line" };
  }

  cellClicked(cell) {
    const st = this.state;
    if (!st || this.movePending) return;
    if (!this.connected) {
      showNotice("Not connected to the server: wait until the connection is back.");
      return;
    }
    const how = this.clickMode();
    if (how.notice) {
      showNotice(how.notice);
      return;
    }
    const { singles, sources } = this.legalParts();
    const act = (move) => (how.mode === "game" ? this.play(move) : this.playSideLine(move));
    if (this.selected) {
      const from = this.selected;
      if (cell === from) {
        this.selected = null;
        this.render();
        return;
      }
      const targets = this.targetsOf(from);
      if (targets === null) {
        this.pendingClick = cell; // answered when the targets come
        return;
      }
      if (targets.includes(cell)) {
        act(joinMove(st.game, from, cell));
        return;
      }
      if (sources.includes(cell)) {
        this.select(cell);
        return;
      }
      this.selected = null;
      this.render();
      const what =
        st.game === "abande"
          ? `The stack on ${from} cannot move to ${cell}`
          : `The tile on ${from} cannot go to ${cell}`;
      showNotice(`${what}: choose again.`);
      return;
    }
    if (singles.includes(cell)) {
      act(cell);
      return;
    }
    if (sources.includes(cell)) {
      this.select(cell);
      return;
    }
    if (how.mode === "game")
      this.play(cell); // not legal: the server's error says why
    else showNotice(`${cell} is not a legal move in this position.`);
  }

  passClicked() {
    const how = this.clickMode();
    if (how.notice) showNotice(how.notice);
    else if (how.mode === "line") this.playSideLine("pass");
    else this.play("pass");
  }

  /** A move typed into the move box. */
  typedMove() {
    const text = this.moveInput.value.trim();
    if (!text || !this.state) return;
    const how = this.clickMode();
    if (how.notice) {
      showNotice(how.notice);
      return;
    }
    const wanted = text
      .toLowerCase()
      .replace(/\s+/g, "")
      .replace(/^\((.*)\)$/, "$1");
    const facts = this.shownFacts();
    const legal = facts.legal.find((m) => m.toLowerCase() === wanted);
    const pair = splitMove(this.state.game, wanted);
    this.moveInput.value = "";
    if (how.mode === "game") this.play(legal || text);
    else if (legal) this.playSideLine(legal);
    else if (pair && facts.sources.includes(pair[0])) {
      // a side line's relocation or capture: played as the two clicks, once its
      // piece's targets say it is legal
      this.select(pair[0]);
      this.cellClicked(pair[1]);
    } else showError(`${text} is not a legal move in this position.`);
  }

  /** The moves of the position on view: singles, the cells a click plays (placements,
   * entries); sources, the pieces a click picks up. */
  legalParts() {
    const facts = this.shownFacts();
    return { singles: facts.legal.filter((move) => move !== "pass"), sources: facts.sources };
  }

  askHint() {
    if (!this.state || this.state.over) return;
    this.hintPending = true;
    this.hint = null;
    this.send({ type: "hint" });
    this.renderPanel();
  }

  analyseGame() {
    if (this.gameAnalysis?.running) this.send({ type: "analyse_game", action: "stop" });
    else this.send({ type: "analyse_game", action: "start" });
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
    prefs.set(`coords.${this.state ? this.state.game : "andantino"}`, this.coords);
    this.coordsButton.setAttribute("aria-pressed", String(this.coords));
    this.render();
  }

  toggleFlip() {
    this.flipped = !this.flipped;
    this.flipButton.setAttribute("aria-pressed", String(this.flipped));
    this.board.autoFit = true;
    this.render();
  }

  toggleSleeping() {
    this.showSleeping = !this.showSleeping;
    this.sleepButton.setAttribute("aria-pressed", String(this.showSleeping));
    this.render();
  }

  key(event) {
    if (!this.state || event.altKey || event.ctrlKey || event.metaKey) return;
    if (typing(event.target)) return;
    const actions = {
      ArrowLeft: () => this.back(),
      ArrowRight: () => this.forward(),
      ArrowUp: () => this.sibling(-1),
      ArrowDown: () => this.sibling(1),
      Home: () => this.goTo([]),
      End: () => this.toEnd(),
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
    const live = this.isLive();
    const board = this.shownBoard();
    const facts = this.shownFacts();
    const how = this.connected ? this.clickMode() : { notice: "offline" };
    const interactive = !how.notice && !this.movePending;
    const study = interactive && how.mode === "line";
    let emptyCells = [];
    let sources = [];
    let targets = [];
    if (interactive) {
      const parts = this.legalParts();
      emptyCells = parts.singles;
      sources = parts.sources;
      if (this.selected) targets = this.targetsOf(this.selected) || [];
    }
    if (st.game === "andantino" && targets.length) emptyCells = emptyCells.concat(targets);
    const single = interactive && board.single ? board.single.cells : [];
    this.board.render({
      game: st.game,
      board,
      emptyCells,
      sources,
      targets,
      selected: interactive ? this.selected : null,
      hint: live && this.hint ? this.hint.move : null,
      coords: this.coords,
      flipped: this.flipped,
      interactive,
      study,
      single,
      showSleeping: this.showSleeping,
      over: facts.over,
    });
    this.view.dataset.ply = String(st.ply);
    this.view.dataset.over = String(!!st.over);
    this.view.dataset.turn = String(st.turn);
    this.view.dataset.reviewing = String(!live);
    this.view.dataset.interactive = String(interactive && how.mode === "game");
    this.view.dataset.study = String(study);
    this.view.dataset.connected = String(this.connected);
    this.view.dataset.line = lineKey(this.shownLine());
    this.view.dataset.shownPly = String(this.shownLine().length);
    this.view.dataset.position = board.position || "";
    this.zoomTools.hidden = st.game !== "andantino";
    this.sleepButton.hidden = st.game !== "abande";
    this.boardBox.dataset.game = st.game;
    this.renderBanner();
    this.renderPanel();
    this.renderMoves();
    this.renderThinking();
    this.renderAnalysis();
    this.renderWholeGame();
  }

  /** "12. 0,1" or "12… 1,1": the move that led to a line's position. */
  moveName(line) {
    if (!line.length) return "the start";
    const i = line.length - 1;
    const first = this.state.first_turn || 0;
    const index = first + i;
    const number = Math.floor(index / 2) + 1;
    return `${number}${index % 2 ? "…" : "."} ${line[i]}`;
  }

  renderBanner() {
    const st = this.state;
    const live = this.isLive();
    const over = st.over && live;
    this.banner.hidden = !over;
    if (over) {
      let text = resultText(st.result, st.termination, st.names);
      // a score is the end of the game only when the game ended by its moves
      if (st.game === "abande" && st.board.score && st.termination === "score")
        text += ` · ${st.board.score[0]}–${st.board.score[1]}`;
      this.banner.textContent = text;
      this.banner.dataset.result = st.result;
    }
    this.reviewBar.hidden = live;
    if (!live) {
      const line = this.shownLine();
      const side = !this.tree.onMain(line);
      let text = line.length === 0 ? "The start position" : `After ${this.moveName(line)}`;
      text += side ? " · a side line" : " · reviewing";
      if (this.readOnly) text += " · read-only";
      document.getElementById("review-text").textContent = text;
    }
  }

  renderPanel() {
    const st = this.state;
    if (!st) return;
    const live = this.isLive();
    const board = this.shownBoard();
    const facts = this.shownFacts();
    this.title.textContent = GAME_TITLES[st.game] || st.game;
    const rules = rulesText(st.rules);
    this.rulesLine.textContent = st.setup ? `${rules} · from a set-up position` : rules;
    this.rulesLine.title = st.setup ? `Set-up position: ${st.setup}` : "";
    const tags = st.tags || {};
    this.eventLine.textContent = [
      tags.Event,
      tags.Site,
      tags.Date,
      tags.Round ? `round ${tags.Round}` : null,
    ]
      .filter(Boolean)
      .join(" · ");
    const names = st.player_names || st.names;
    st.names.forEach((name, side) => {
      const card = this.playerCards[side];
      const toMove = !facts.over && facts.turn === side;
      card.classList.toggle("to-move", toMove);
      card.classList.toggle("winner", live && st.over && st.winner === side);
      const stats = [];
      if (board.hands)
        stats.push(
          h("span", { class: "stat", "data-stat": "hand" }, [
            h("b", { id: `hand${side}` }, String(board.hands[side])),
            st.game === "abande" ? " in hand" : " tiles",
          ]),
        );
      // a score means something while the game goes on or after it ended on score, not
      // after a resignation, a time forfeit or an agreed draw
      const early = live && st.over && st.termination !== "score";
      if (st.game === "abande" && board.score && !early)
        stats.push(
          h("span", { class: "stat", "data-stat": "score" }, [
            h("b", { id: `score${side}` }, String(board.score[side])),
            board.score[side] === 1 ? " point" : " points",
          ]),
        );
      const account = st.accounts ? st.accounts[side] : null;
      let kind = playerLabel(st.players[side]);
      if (st.mode === "server" && st.players[side] === "human")
        kind = account ? account + ((st.you || []).includes(side) ? " (you)" : "") : "open seat";
      const given = names[side];
      const own =
        given &&
        given !== "Person" &&
        given !== account &&
        given !== `hexgames ${st.players[side]}`;
      const player = own ? `${given} · ${kind}` : kind;
      replaceChildren(card, [
        h("span", { class: `swatch ${st.game}-side${side}`, "aria-hidden": "true" }),
        h("div", { class: "who" }, [
          h("div", { class: "side-name" }, name),
          h("div", { class: "player-kind", id: `account${side}` }, player),
        ]),
        h("div", { class: "stats" }, stats),
        st.clock ? h("div", { class: "clock", id: `clock${side}`, "data-side": side }) : null,
      ]);
    });
    this.namesButton.hidden = !st.can_name || this.readOnly || this.editingNames;
    this.namesForm.hidden = !this.editingNames;
    this.renderClocks();
    this.renderOffer();

    let status;
    if (!live) {
      if (facts.loading) status = "Loading the position…";
      else if (facts.over) status = resultText(facts.result, facts.termination, st.names);
      else status = `${st.names[facts.turn]} to move`;
      status = `${this.tree.onMain(this.shownLine()) ? "Reviewing" : "Side line"}: ${status}`;
    } else if (st.over) {
      status = resultText(st.result, st.termination, st.names);
      if (st.game === "abande" && board.score && st.termination === "score")
        status += ` (${board.score[0]}–${board.score[1]})`;
    } else if (st.thinking || st.players[st.turn] !== "human") {
      status = `${st.names[st.turn]} is thinking…`;
    } else {
      const humans = st.players.filter((p) => p === "human").length;
      if (st.mode === "server") {
        const who = st.accounts?.[st.turn] ? ` (${st.accounts[st.turn]})` : "";
        status = this.humanToMove()
          ? `Your move (${st.names[st.turn]})`
          : `${st.names[st.turn]}${who} to move`;
      } else {
        status = humans === 1 ? `Your move (${st.names[st.turn]})` : `${st.names[st.turn]} to move`;
      }
      if (this.selected) {
        status +=
          st.game === "abande"
            ? ` · stack ${this.selected} chosen: click a highlighted target`
            : ` · tile ${this.selected} picked up: click where it goes`;
      } else if (!st.thinking && this.legalParts().sources.length) {
        const { singles } = this.legalParts();
        if (st.game === "abande")
          status += singles.length
            ? ": enter a piece, or click a ringed stack of yours to capture"
            : ": click a ringed stack of yours to capture";
        else status += ": click a tile of yours to move it";
      }
    }
    this.status.textContent = status;
    // the balance variant's right, for the position on view
    const single = board.single;
    this.singleLine.hidden = !single;
    if (single) {
      this.singleLine.textContent = single.used
        ? "Red has used its single-touch placement."
        : `Red's single-touch placement (a tile touching one tile) is unused${single.cells.length ? ": the cells with a dotted ring use it" : ""}.`;
      this.singleLine.dataset.used = String(single.used);
    }
    const legend = this.legendText();
    this.legend.hidden = !legend;
    this.legend.textContent = legend;
    this.status.classList.toggle("over", !!facts.over);

    const how = this.clickMode();
    const canPass = !how.notice && facts.legal.includes("pass");
    this.passButton.hidden = !canPass;
    this.passButton.textContent = how.mode === "line" ? "Pass (side line)" : "Pass";
    const offline = !this.connected;
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
    const noHelp = server && !st.over && (st.rated || !playing);
    if (!this.resignArmed) {
      this.resignButton.textContent = "Resign";
      this.resignButton.classList.remove("danger");
    }
    this.hintButton.disabled = st.over || !live || this.hintPending || offline || noHelp;
    this.analysisToggle.disabled = offline || (noHelp && !this.analysisOn);
    this.hintButton.textContent = this.hintPending ? "Thinking…" : "Hint";
    this.hintText.hidden = !this.hint || !live;
    if (this.hint) {
      const pct =
        this.hint.score === null || this.hint.score === undefined
          ? ""
          : ` · ${Math.round(this.hint.score * 100)}% to win`;
      this.hintText.textContent = `Hint: ${this.hint.move}${pct}`;
    }
    const shownPly = this.shownLine().length;
    const svgUrl = this.tree.onMain(this.shownLine())
      ? api.svgUrl(this.id, shownPly)
      : api.svgLineUrl(this.id, this.shownLine());
    this.exportSvg.href = svgUrl;
    this.exportSvg.setAttribute(
      "download",
      `${st.game}-${this.id}-${this.tree.onMain(this.shownLine()) ? `ply${shownPly}` : `line${shownPly}`}.svg`,
    );
    this.positionField.value = board.position || "";
    this.renderNav();
    this.renderNodeTools();
  }

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
      el.classList.toggle(
        "flagged",
        st.over && st.termination === "time-forfeit" && st.winner === 1 - side,
      );
      el.dataset.seconds = left.toFixed(1);
    }
  }

  renderOffer() {
    const st = this.state;
    const offer = st && !st.over ? st.offer : null;
    this.offerBox.hidden = !offer;
    if (!offer) return;
    const mine = this.mySides().includes(offer.side);
    const what = offer.kind === "draw" ? "offers a draw" : "asks to take back the last move";
    const who = st.accounts?.[offer.side] || st.names[offer.side];
    const yours =
      offer.kind === "draw" ? "You offered a draw" : "You asked to take back your last move";
    document.getElementById("offer-text").textContent = mine
      ? `${yours}; waiting for the answer.`
      : `${who} ${what}.`;
    const answer = !mine && this.mySides().length > 0;
    document.getElementById("offer-accept").hidden = !answer;
    document.getElementById("offer-decline").hidden = !answer;
    this.offerBox.dataset.kind = offer.kind;
  }

  renderNav() {
    const line = this.shownLine();
    const node = this.tree.find(line);
    const offline = !this.connected;
    const atEnd = this.tree.onMain(line)
      ? sameLine(line, this.state.moves) && this.isLive()
      : !node?.children.length;
    this.navButtons.first.disabled = line.length === 0 || offline;
    this.navButtons.back.disabled = line.length === 0 || offline;
    this.navButtons.forward.disabled =
      !node?.children.length ||
      (offline && !sameLine([...line, node.children[0].move], this.state.moves));
    this.navButtons.last.disabled = atEnd;
  }

  legendText() {
    const st = this.state;
    const facts = this.shownFacts();
    const board = this.shownBoard();
    if (st.game === "abande" && (facts.over || this.showSleeping)) {
      return facts.over
        ? "Stacks with a gold ring are awake and score their height; faded stacks are asleep and score nothing."
        : "Faded stacks would sleep (score nothing) if the game ended now.";
    }
    if (!facts.over) return "";
    const parts = [];
    if (board.line?.length) parts.push("the winning line is outlined in gold");
    if (board.trapped?.length) parts.push("trapped tiles are crossed out");
    return parts.length ? `${parts.join("; ").replace(/^./, (c) => c.toUpperCase())}.` : "";
  }

  renderMoves() {
    const st = this.state;
    if (!st) return;
    renderMoveList(this.moveList, this.tree, {
      current: this.shownLine(),
      firstTurn: st.first_turn || 0,
      sides: st.names,
      onSelect: (line) => this.goTo(line),
      onHover: (line) => this.previewMove(line),
    });
    this.renderNav();
  }

  /** Show the cells of a move of the list on the board while the pointer is on it. */
  previewMove(line) {
    if (!line || !line.length) {
      this.board.preview([]);
      return;
    }
    const move = line[line.length - 1];
    if (move === "pass") return;
    this.board.preview(splitMove(this.state.game, move) || [move]);
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
    const on = !!(st?.thinking && !st.over);
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

  renderMini() {
    const st = this.state;
    if (!st) return;
    const thinking = !!(st.thinking && !st.over);
    let text = this.status.textContent;
    if (thinking && this.isLive()) text = this.thinkingHeadline();
    else if (!st.over && st.players[st.turn] === "human") text = text.split(" · ")[0].split(":")[0];
    if (!this.isLive()) {
      const line = this.shownLine();
      // the same numbering as the review bar and the move list: full moves
      text = `${line.length ? `After ${this.moveName(line)}` : "Start"} · ${this.status.textContent.split(": ").slice(1).join(": ") || ""}`;
    }
    if (!this.connected && !this.gone && !thinking) text = `Not connected · ${text}`;
    this.miniText.textContent = text;
    this.miniSpinner.hidden = !thinking || !this.connected;
    this.miniMoveNow.hidden = !thinking;
    this.miniMoveNow.disabled = !this.connected;
    const facts = this.shownFacts();
    const side = facts.over ? facts.winner : facts.turn;
    this.miniSwatch.className = `swatch ${st.game}-side${side}`;
    this.miniSwatch.hidden = side === null || side === undefined;
    this.miniStatus.classList.toggle("over", !!facts.over);
  }
}

function icon(path) {
  return s("svg", { viewBox: "0 0 24 24", "aria-hidden": "true" }, [s("path", { d: path })]);
}

Object.assign(GameView.prototype, analysisMethods, studyMethods);
