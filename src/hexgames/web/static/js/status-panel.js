// The game view's status: what the position on view asks for ("Your move (White)",
// "Red is thinking…", the result, a review or side line), the balance variant's
// single-touch right, the legend of the board's marks and the pass button; and its short
// twin above the board (the mini status) for narrow screens.

import { button, h } from "./dom.js";
import { reasonText, resultText } from "./format.js";

export class StatusPanel {
  /** game: the GameView whose position this describes. */
  constructor(game) {
    this.game = game;
    this.line = h("div", { class: "status", id: "status", "aria-live": "polite" });
    this.single = h("div", { class: "single-status", id: "single-status", hidden: true });
    this.legend = h("div", { class: "legend", id: "legend", hidden: true });
    this.passButton = button(
      "pass",
      "Pass",
      "Pass (your hand is empty)",
      () => game.passClicked(),
      { hidden: true, class: "primary" },
    );
    this.miniText = h("span", { class: "mini-text", id: "mini-status-text" });
    this.miniSpinner = h("span", { class: "spinner", "aria-hidden": "true", hidden: true });
    this.miniSwatch = h("span", { class: "swatch", "aria-hidden": "true" });
    this.miniMoveNow = button(
      "mini-move-now",
      "Move now",
      "Make the computer play its best move so far",
      () => game.send({ type: "stop" }),
      { class: "small", hidden: true },
    );
    this.mini = h("div", { class: "mini-status", id: "mini-status" }, [
      this.miniSwatch,
      this.miniSpinner,
      this.miniText,
      this.miniMoveNow,
    ]);
  }

  /** The status line of the position on view. */
  statusText() {
    const game = this.game;
    const st = game.state;
    const board = game.shownBoard();
    const facts = game.shownFacts();
    let status;
    if (!game.isLive()) {
      if (facts.loading) status = "Loading the position…";
      else if (facts.over) status = resultText(facts.result, facts.termination, st.names);
      else status = `${st.names[facts.turn]} to move`;
      return `${game.tree.onMain(game.shownLine()) ? "Reviewing" : "Side line"}: ${status}`;
    }
    if (st.over) {
      status = resultText(st.result, st.termination, st.names);
      if (st.game === "abande" && board.score && st.termination === "score")
        status += ` (${board.score[0]}–${board.score[1]})`;
      return status;
    }
    if (st.thinking || st.players[st.turn] !== "human") return `${st.names[st.turn]} is thinking…`;
    const humans = st.players.filter((p) => p === "human").length;
    if (st.mode === "server") {
      const who = st.accounts?.[st.turn] ? ` (${st.accounts[st.turn]})` : "";
      status = game.humanToMove()
        ? `Your move (${st.names[st.turn]})`
        : `${st.names[st.turn]}${who} to move`;
    } else {
      status = humans === 1 ? `Your move (${st.names[st.turn]})` : `${st.names[st.turn]} to move`;
    }
    if (game.selected) {
      status +=
        st.game === "abande"
          ? ` · stack ${game.selected} chosen: click a highlighted target`
          : ` · tile ${game.selected} picked up: click where it goes`;
    } else if (!st.thinking && game.legalParts().sources.length) {
      const { singles } = game.legalParts();
      if (st.game === "abande")
        status += singles.length
          ? ": enter a piece, or click a ringed stack of yours to capture"
          : ": click a ringed stack of yours to capture";
      else status += ": click a tile of yours to move it";
    }
    return status;
  }

  render() {
    const game = this.game;
    const board = game.shownBoard();
    const facts = game.shownFacts();
    this.line.textContent = this.statusText();
    // the balance variant's right, for the position on view
    const single = board.single;
    this.single.hidden = !single;
    if (single) {
      this.single.textContent = single.used
        ? "Red has used its single-touch placement."
        : `Red's single-touch placement (a tile touching one tile) is unused${single.cells.length ? ": the cells with a dotted ring use it" : ""}.`;
      this.single.dataset.used = String(single.used);
    }
    const legend = this.legendText();
    this.legend.hidden = !legend;
    this.legend.textContent = legend;
    this.line.classList.toggle("over", !!facts.over);

    const how = game.clickMode();
    const canPass = !how.notice && facts.legal.includes("pass");
    this.passButton.hidden = !canPass;
    this.passButton.textContent = how.mode === "line" ? "Pass (side line)" : "Pass";
    this.passButton.disabled = !game.connected;
  }

  legendText() {
    const game = this.game;
    const st = game.state;
    const facts = game.shownFacts();
    const board = game.shownBoard();
    // an Abande game ended otherwise than by its moves (on time, by resignation or
    // agreement) was not scored: its awake and sleeping stacks decided nothing
    if (st.game === "abande" && facts.over && facts.termination !== "score")
      return `The game ended ${reasonText(facts.termination) || "early"}, not on score: the stacks were not counted.`;
    if (st.game === "abande" && (facts.over || game.board.showSleeping)) {
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

  /** The mini status: the status line cut short, or the AI's thinking headline. */
  renderMini() {
    const game = this.game;
    const st = game.state;
    if (!st) return;
    const thinking = !!(st.thinking && !st.over);
    const status = this.line.textContent;
    let text = status;
    if (thinking && game.isLive()) text = game.thinking.headline();
    else if (!st.over && st.players[st.turn] === "human") text = text.split(" · ")[0].split(":")[0];
    if (!game.isLive()) {
      const line = game.shownLine();
      // the same numbering as the review bar and the move list: full moves
      text = `${line.length ? `After ${game.moveName(line)}` : "Start"} · ${status.split(": ").slice(1).join(": ") || ""}`;
    } else if (st.over) {
      // a finished game's result is on the board's banner just below (and in the
      // panel): the line above the board (the phone's layout) says where to go on; a
      // rematch only where the page offers one (a player of a game between two people)
      const rematch = st.mode === "server" && game.mySides().length > 0 && game.betweenPeople();
      text = `Game over · the moves${rematch ? ", review and rematch are" : " and review are"} below the board`;
    }
    if (!game.connected && !game.gone && !thinking) text = `Not connected · ${text}`;
    this.miniText.textContent = text;
    this.miniSpinner.hidden = !thinking || !game.connected;
    this.miniMoveNow.hidden = !thinking;
    this.miniMoveNow.disabled = !game.connected;
    const facts = game.shownFacts();
    const side = facts.over ? facts.winner : facts.turn;
    this.miniSwatch.className = `swatch ${st.game}-side${side}`;
    this.miniSwatch.hidden = side === null || side === undefined;
    this.mini.classList.toggle("over", !!facts.over);
  }

  /** Show `text` in the mini status (the thinking headline as it counts). */
  setMiniText(text) {
    this.miniText.textContent = text;
  }
}
