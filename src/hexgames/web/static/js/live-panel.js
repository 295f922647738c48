// The game view's small things of live play (server mode, docs/web-protocol.md): abort
// before the second move, the rematch (offer, answer, and the way to the new game), the
// rating change of a rated game that ended, the premove queued while the opponent thinks,
// the "confirm move" bar of correspondence games and the page's switches (sounds,
// confirm move). The server decides who may do what: the buttons only follow its state.

import { showNotice } from "./alerts.js";
import { button, h, replaceChildren } from "./dom.js";
import { prefs } from "./prefs.js";
import { setSounds, soundsOn } from "./sounds.js";

/** Plies before which a game may be aborted (hexgames.web.live.ABORT_PLIES). */
const ABORT_PLIES = 2;

function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "±0";
}

export class LivePanel {
  /** game: the GameView this acts on. */
  constructor(game) {
    this.game = game;
    this.pending = null; // a move waiting for its Confirm (correspondence)
    this.abortButton = button(
      "abort",
      "Abort",
      "Abort the game (before the second move: no result, no rating)",
      () => game.send({ type: "abort" }),
      { hidden: true },
    );
    this.rematchButton = button(
      "rematch",
      "Rematch",
      "Offer a rematch: colours swapped, same clock",
      () => game.send({ type: "rematch", action: "offer" }),
      { hidden: true },
    );
    this.rematchBox = h("div", { class: "offer", id: "rematch-bar", hidden: true }, [
      h("span", { id: "rematch-text", role: "status" }), // said by a screen reader
      button(
        "rematch-accept",
        "Accept",
        "Accept the rematch",
        () => game.send({ type: "rematch", action: "accept" }),
        { class: "small primary" },
      ),
      button(
        "rematch-decline",
        "Decline",
        "Decline the rematch",
        () => game.send({ type: "rematch", action: "decline" }),
        { class: "small" },
      ),
    ]);
    this.rematchLink = h(
      "a",
      { class: "button primary", id: "rematch-link", hidden: true },
      "Go to the rematch",
    );
    this.ratingLine = h("div", { class: "rating-change", id: "rating-change", hidden: true });
    this.premoveLine = h("div", { class: "premove", id: "premove", hidden: true }, [
      h("span", { id: "premove-text" }),
      button("premove-cancel", "Cancel", "Cancel the premove", () => this.cancelPremove(), {
        class: "small",
      }),
    ]);
    this.confirmBar = h(
      "div",
      { class: "offer confirm-bar", id: "confirm-bar", role: "alert", hidden: true },
      [
        h("span", { id: "confirm-text" }),
        button("confirm-move", "Confirm", "Play this move", () => this.confirm(), {
          class: "small primary",
        }),
        button("cancel-move", "Cancel", "Do not play this move", () => this.cancelPending(), {
          class: "small",
        }),
      ],
    );
    const sounds = h("input", { type: "checkbox", id: "pref-sounds" });
    sounds.checked = soundsOn();
    sounds.addEventListener("change", () => setSounds(sounds.checked));
    const confirmMoves = h("input", { type: "checkbox", id: "pref-confirm" });
    confirmMoves.checked = prefs.get("confirmMove", false) === true;
    confirmMoves.addEventListener("change", () => prefs.set("confirmMove", confirmMoves.checked));
    this.prefsRow = h("div", { class: "row prefs-row", id: "live-prefs" }, [
      h("label", { class: "option check" }, [sounds, "Sounds"]),
      h("label", { class: "option check" }, [confirmMoves, "Confirm moves (correspondence)"]),
    ]);
    this.bars = h("div", { class: "live-bars" }, [
      this.ratingLine,
      this.rematchBox,
      this.confirmBar,
      this.premoveLine,
    ]);
    this.buttons = h("div", { class: "row" }, [
      this.abortButton,
      this.rematchButton,
      this.rematchLink,
    ]);
  }

  /** Whether a move of the game waits for Confirm instead of being sent now. */
  wantsConfirm() {
    const st = this.game.state;
    return (
      st?.mode === "server" &&
      st.clock?.control?.kind === "correspondence" &&
      prefs.get("confirmMove", false) === true
    );
  }

  /** Hold `move` until Confirm is pressed; the focus goes to Confirm (a second Enter of
   * the keyboard plays it, a screen reader says the question). */
  hold(move) {
    this.pending = move;
    this.game.render();
    document.getElementById("confirm-move")?.focus();
  }

  confirm() {
    const move = this.pending;
    const back = this.confirmBar.contains(document.activeElement);
    this.pending = null;
    if (move) this.game.sendMove(move);
    if (back) this.game.board.view.focusCursor(); // the keyboard goes on on the board
  }

  cancelPending() {
    const back = this.confirmBar.contains(document.activeElement);
    this.pending = null;
    this.game.render();
    if (back) this.game.board.view.focusCursor();
  }

  /** Whether this page may queue a premove now: a live game it plays, the opponent to
   * move (a person or the computer). */
  canPremove() {
    const st = this.game.state;
    if (!st || st.mode !== "server" || st.over || st.clock?.control?.kind !== "live") return false;
    const mine = st.you || [];
    return mine.includes(1 - st.turn) && !mine.includes(st.turn);
  }

  premove(move) {
    this.game.send({ type: "premove", move, ply: this.game.state.ply });
  }

  cancelPremove() {
    this.game.send({ type: "premove", move: null, ply: this.game.state.ply });
  }

  /** A `premove` message: the queued one, or one dropped (illegal when its turn came). */
  gotPremove(msg) {
    if (msg.dropped) showNotice(`Your premove ${msg.dropped} was not legal: it was dropped.`);
    if (this.game.state) this.game.state.premove = msg.move;
    this.game.renderPanel();
  }

  /** A `rematch` message: the new game; the players are taken to it. */
  gotRematch(msg) {
    if ((this.game.state?.you || []).length)
      location.hash = `#/game/${encodeURIComponent(msg.game)}`;
    else this.game.renderPanel();
  }

  render() {
    const game = this.game;
    const st = game.state;
    const server = st.mode === "server";
    const mine = game.mySides();
    const playing = server && mine.length > 0;
    const offline = !game.connected;
    // an imported game has neither (the server refuses them): its importer sits in both
    // seats of a record of other people's game
    this.abortButton.hidden = !playing || st.imported || st.over || st.ply >= ABORT_PLIES;
    this.abortButton.disabled = offline;
    const rematch = st.rematch;
    const made = st.rematch_game;
    this.rematchButton.hidden =
      !playing || !st.over || !game.betweenPeople() || !!made || !!rematch;
    this.rematchButton.disabled = offline;
    this.rematchLink.hidden = !made;
    if (made) this.rematchLink.href = `#/game/${encodeURIComponent(made)}`;
    this.rematchBox.hidden = !rematch || !!made;
    if (rematch && !made) {
      const own = mine.includes(rematch.side);
      const who = st.accounts?.[rematch.side] || st.names[rematch.side];
      document.getElementById("rematch-text").textContent = own
        ? "You offered a rematch; waiting for the answer."
        : `${who} offers a rematch.`;
      const answer = playing && !own;
      document.getElementById("rematch-accept").hidden = !answer;
      document.getElementById("rematch-decline").hidden = !answer;
    }
    const change = st.over ? st.rating_change : null;
    this.ratingLine.hidden = !change;
    if (change)
      this.ratingLine.textContent = [0, 1]
        .filter((side) => change[side] !== null && change[side] !== undefined)
        .map((side) => `${st.accounts?.[side] || st.names[side]} ${signed(change[side])}`)
        .join(" · ");
    this.premoveLine.hidden = !st.premove || st.over;
    if (st.premove) document.getElementById("premove-text").textContent = `Premove: ${st.premove}`;
    if (this.pending && (st.over || !game.humanToMove())) this.pending = null;
    this.confirmBar.hidden = !this.pending;
    if (this.pending)
      replaceChildren(document.getElementById("confirm-text"), [
        "Play ",
        h("b", {}, this.pending),
        "?",
      ]);
    this.prefsRow.hidden = !server;
  }
}
