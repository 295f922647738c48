// The game view's actions: undo (a take-back request between people of the server mode),
// a draw offer, resigning (a second click confirms it), a new game, the record and a
// picture of the position on view to download; and the bar of a standing draw offer or
// take-back request, with its answer. The server decides who may do what: the buttons
// only follow its state.

import { api } from "./api.js";
import { button, h } from "./dom.js";

/** How long "Really resign?" waits for its second click (ms). */
const RESIGN_CONFIRM = 4000;

export class ActionsPanel {
  /** game: the GameView whose game these act on. */
  constructor(game) {
    this.game = game;
    this.resignArmed = false;
    this.resignTimer = null;
    this.undoButton = button("undo", "Undo", "Take back the last move", () => this.undo());
    this.resignButton = button("resign", "Resign", "Resign this game", () => this.resign());
    this.drawButton = button(
      "draw",
      "Offer a draw",
      "Offer your opponent a draw",
      () => game.send({ type: "draw", action: "offer" }),
      { hidden: true },
    );
    this.offerBox = h("div", { class: "offer", id: "offer", hidden: true }, [
      h("span", { id: "offer-text", role: "status" }), // said by a screen reader
      button("offer-accept", "Accept", "Accept the offer", () => this.answerOffer(true), {
        class: "small primary",
      }),
      button("offer-decline", "Decline", "Decline the offer", () => this.answerOffer(false), {
        class: "small",
      }),
    ]);
    this.offerNote = h("div", { class: "offer-note", id: "offer-note", hidden: true });
    this.noteTimer = null;
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
        href: api.recordUrl(game.id),
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
        href: api.svgUrl(game.id),
        download: "",
        title: "Download this position as a picture (SVG)",
        "aria-label": "Position as SVG",
      },
      "Position SVG",
    );
    this.element = h("section", { class: "panel-section actions" }, [
      h("div", { class: "row" }, [this.undoButton, this.drawButton, this.resignButton, newGame]),
      h("div", { class: "row" }, [this.exportHgn, this.exportSvg]),
    ]);
  }

  /** A new state; `changed`: its moves or its end differ; `first`: the page's first. */
  gotState(changed, first) {
    if (changed && !first) this.resignArmed = false;
  }

  /** An `offer` message: the offer box above the board shows it (the state brings it). */
  gotOffer() {
    this.showNote("");
  }

  /** An `offer_declined` message: told to who made the offer, above the board for a few
   * seconds (not as a notice floating over the board's tools). */
  gotDeclined(msg) {
    if (this.game.mySides().includes(msg.side))
      this.showNote(
        msg.kind === "draw"
          ? "Your draw offer was declined."
          : "Your take-back request was declined.",
      );
  }

  /** The game view is gone: none of its timers draws it again. */
  destroy() {
    clearTimeout(this.resignTimer);
    clearTimeout(this.noteTimer);
  }

  /** Show `text` in the line above the board for 4 seconds ("": hide it). */
  showNote(text) {
    clearTimeout(this.noteTimer);
    this.offerNote.textContent = text;
    this.offerNote.hidden = !text;
    if (text) this.noteTimer = setTimeout(() => this.showNote(""), 4000);
  }

  undo() {
    const st = this.game.state;
    if (st.mode === "server") this.game.send({ type: "takeback", action: "offer", ply: st.ply });
    else this.game.send({ type: "undo", ply: st.ply });
  }

  answerOffer(accept) {
    const offer = this.game.state?.offer;
    if (!offer) return;
    this.game.send({ type: offer.kind, action: accept ? "accept" : "decline" });
  }

  resign() {
    const game = this.game;
    const st = game.state;
    if (!st || st.over) return;
    const mine = game.mySides();
    const side = mine.includes(st.turn) ? st.turn : mine.length ? mine[0] : -1;
    if (side < 0) return;
    if (!this.resignArmed) {
      this.resignArmed = true;
      this.resignButton.textContent = "Really resign?";
      this.resignButton.classList.add("danger");
      clearTimeout(this.resignTimer);
      this.resignTimer = setTimeout(() => {
        this.resignArmed = false;
        game.renderPanel();
      }, RESIGN_CONFIRM);
      return;
    }
    clearTimeout(this.resignTimer);
    this.resignArmed = false;
    game.send({ type: "resign", side });
  }

  render() {
    const game = this.game;
    const st = game.state;
    const offline = !game.connected;
    const server = st.mode === "server";
    const playing = game.mySides().length > 0;
    this.undoButton.disabled = !st.can_undo || offline || (server && (!playing || st.over));
    this.undoButton.textContent = server ? "Take back" : "Undo";
    this.undoButton.hidden = server && !playing;
    this.resignButton.disabled = st.over || !playing || offline;
    this.resignButton.hidden = server && !playing;
    const versusPerson = server && st.players[0] === "human" && st.players[1] === "human";
    this.drawButton.hidden = !versusPerson || !playing;
    this.drawButton.disabled = st.over || offline || !!(st.offer && st.offer.kind === "draw");
    if (!this.resignArmed) {
      this.resignButton.textContent = "Resign";
      this.resignButton.classList.remove("danger");
    }
    const line = game.shownLine();
    const shownPly = line.length;
    const onMain = game.tree.onMain(line);
    // an account barred from engine help gets the record without the engine's part
    this.exportHgn.title = st.analysis_hidden
      ? `Download the game record (.hgn): ${st.analysis_hidden}`
      : "Download the game record (.hgn)";
    this.exportSvg.href = onMain ? api.svgUrl(game.id, shownPly) : api.svgLineUrl(game.id, line);
    this.exportSvg.setAttribute(
      "download",
      `${st.game}-${game.id}-${onMain ? `ply${shownPly}` : `line${shownPly}`}.svg`,
    );
  }

  /** The bar of a standing offer: whose, and the answer for its opponent. */
  renderOffer() {
    const game = this.game;
    const st = game.state;
    const offer = st && !st.over ? st.offer : null;
    this.offerBox.hidden = !offer;
    if (!offer) return;
    const mine = game.mySides().includes(offer.side);
    const what = offer.kind === "draw" ? "offers a draw" : "asks to take back the last move";
    const who = st.accounts?.[offer.side] || st.names[offer.side];
    const yours =
      offer.kind === "draw" ? "You offered a draw" : "You asked to take back your last move";
    document.getElementById("offer-text").textContent = mine
      ? `${yours}; waiting for the answer.`
      : `${who} ${what}.`;
    const answer = !mine && game.mySides().length > 0;
    document.getElementById("offer-accept").hidden = !answer;
    document.getElementById("offer-decline").hidden = !answer;
    this.offerBox.dataset.kind = offer.kind;
  }
}
