// The game view's stage: the board (board.js) with its tools (zoom, a move typed in,
// sleeping stacks, coordinates, flip), the result above it, the review bar below it while
// another position than the live one is on view, and the bar of a lost connection.

import { BoardView } from "./board.js";
import { actionForm, button, h } from "./dom.js";
import { resultText } from "./format.js";
import { prefs } from "./prefs.js";

export class BoardPanel {
  /** game: the GameView whose positions this draws; clicks on cells go to it. */
  constructor(game) {
    this.game = game;
    this.coords = null; // per game, from the preferences once the game is known
    this.flipped = false;
    this.showSleeping = false;
    this.box = h("div", { class: "board-box", id: "board" });
    this.view = new BoardView(this.box, {
      onCell: (cell) => game.cellClicked(cell),
      onMark: (from, to, color) => game.cellMarked(from, to, color),
    });
    // the result and the review bar sit outside the board: they never cover a point
    this.banner = h("div", { class: "board-banner", id: "result", hidden: true });
    this.reviewBar = h("div", { class: "review-bar", id: "review-bar", hidden: true }, [
      h("span", { id: "review-text" }),
      h(
        "button",
        { type: "button", id: "review-exit", onclick: () => game.goLive() },
        "Back to the game",
      ),
    ]);
    this.connBar = h(
      "div",
      { class: "conn-bar", id: "connection", hidden: true },
      "Connection lost: reconnecting…",
    );
    this.wrap = h("div", { class: "board-wrap" }, [this.box, this.connBar]);
    this.zoomTools = h("div", { class: "tool-group", id: "zoom-tools" }, [
      button("zoom-in", "+", "Zoom in", () => this.view.zoom(1 / 1.25)),
      button("zoom-out", "−", "Zoom out", () => this.view.zoom(1.25)),
      button("fit", "Fit", "Fit the board to the window", () => this.view.fit()),
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
    const moveForm = actionForm({ class: "move-form", id: "move-form" }, () => this.typed(), [
      this.moveInput,
    ]);
    this.toolbar = h("div", { class: "board-tools" }, [
      this.zoomTools,
      moveForm,
      h("div", { class: "tool-group" }, [this.sleepButton, this.coordsButton, this.flipButton]),
    ]);
  }

  /** The page's first state: the coordinates as last chosen for its game, the board
   * turned so that the side this page plays is at the bottom. */
  firstState(msg) {
    this.coords = prefs.get(`coords.${msg.game}`, true);
    this.coordsButton.setAttribute("aria-pressed", String(this.coords));
    this.flipped = msg.players[0] !== "human" && msg.players[1] === "human";
    if (msg.mode === "server" && msg.you) this.flipped = msg.you.length === 1 && msg.you[0] === 1;
    this.flipButton.setAttribute("aria-pressed", String(this.flipped));
  }

  /** The connection's status ("open", "closed", ...): the bar of a lost one. */
  connection(status) {
    this.connBar.hidden = status !== "closed";
  }

  /** A move typed into the move box: the box empties once the game took it. */
  typed() {
    if (this.game.typedMove(this.moveInput.value.trim())) this.moveInput.value = "";
  }

  toggleCoords() {
    const st = this.game.state;
    this.coords = !this.coords;
    prefs.set(`coords.${st ? st.game : "andantino"}`, this.coords);
    this.coordsButton.setAttribute("aria-pressed", String(this.coords));
    this.game.render();
  }

  toggleFlip() {
    this.flipped = !this.flipped;
    this.flipButton.setAttribute("aria-pressed", String(this.flipped));
    this.view.autoFit = true;
    this.game.render();
  }

  toggleSleeping() {
    this.showSleeping = !this.showSleeping;
    this.sleepButton.setAttribute("aria-pressed", String(this.showSleeping));
    this.game.render();
  }

  /** Mark `cells` on the board (a move of the list under the pointer); [] unmarks. */
  preview(cells) {
    this.view.preview(cells);
  }

  /** Draw `board` (a BOARD of the protocol) with what a click may do (`marks`:
   * emptyCells, sources, targets, selected, hint, interactive, study, single, over, scored: a game ended on score). */
  render(game, board, marks) {
    this.view.render({
      game,
      board,
      ...marks,
      coords: this.coords,
      flipped: this.flipped,
      showSleeping: this.showSleeping,
    });
    this.zoomTools.hidden = game !== "andantino";
    this.sleepButton.hidden = game !== "abande";
    this.box.dataset.game = game;
    this.renderBanner();
  }

  /** The result of a finished game on view live, or the review bar of another position. */
  renderBanner() {
    const game = this.game;
    const st = game.state;
    const live = game.isLive();
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
      const line = game.shownLine();
      const side = !game.tree.onMain(line);
      let text = line.length === 0 ? "The start position" : `After ${game.moveName(line)}`;
      text += side ? " · a side line" : " · reviewing";
      if (game.readOnly) text += " · read-only";
      document.getElementById("review-text").textContent = text;
    }
  }
}
