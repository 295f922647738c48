// The game view's thinking box: while the AI searches the live position, for how long
// (counted on the page from the server's `thinking` messages, paused while the connection
// is lost) and what it has found so far (unless the server withholds it from this page:
// the state's thinking_hidden says why, in a rated game or to an account barred from
// engine help), with "Move now"; or that the computer waits and why (the state's
// computer_waits: its player is barred from engine help by another running game).

import { button, h } from "./dom.js";

export class ThinkingPanel {
  /** game: the GameView whose AI this shows. */
  constructor(game) {
    this.game = game;
    this.current = null; // the last `thinking` message of the running search
    this.since = 0; // when the search began (performance.now(), ms)
    this.pausedAt = null; // when the connection was lost, while it is
    this.rebase = false; // take the next message's elapsed time as the truth
    this.element = h("div", { class: "thinking", id: "thinking", hidden: true }, [
      h("div", { class: "thinking-head" }, [
        h("span", { class: "spinner", "aria-hidden": "true" }),
        h("span", { id: "thinking-text" }),
      ]),
      h("div", { class: "thinking-detail", id: "thinking-detail" }),
      button("move-now", "Move now", "Make the computer play its best move so far", () =>
        game.send({ type: "stop" }),
      ),
    ]);
  }

  /** The connection opened (`open`) or was lost; `wasConnected`: whether it held. */
  connection(open, wasConnected) {
    const now = performance.now();
    if (open) {
      if (this.pausedAt !== null) this.since += now - this.pausedAt;
      this.pausedAt = null;
      this.rebase = true;
    } else if (wasConnected) {
      this.pausedAt = now;
    }
  }

  /** A `thinking` message. */
  got(msg) {
    if (!this.current || this.rebase) this.since = performance.now() - (msg.elapsed || 0) * 1000;
    this.rebase = false;
    this.current = msg;
  }

  /** The search ended (the AI moved, or the state says nobody thinks). */
  stopped() {
    this.current = null;
  }

  /** "Red is thinking · 2.4 s". */
  headline() {
    const st = this.game.state;
    if (st.computer_waits && !st.thinking) return `${st.names[st.turn]} waits`;
    const side = this.current ? this.current.side : st.turn;
    const now = this.pausedAt !== null ? this.pausedAt : performance.now();
    const seconds = this.current ? (now - this.since) / 1000 : 0;
    const paused = this.pausedAt !== null ? " · paused: not connected" : "";
    return `${st.names[side]} is thinking · ${seconds.toFixed(1)} s${paused}`;
  }

  render() {
    const game = this.game;
    const st = game.state;
    const waits = !!(st?.computer_waits && !st.thinking && !st.over);
    const on = !!(st?.thinking && !st.over) || waits;
    this.element.hidden = !on;
    game.status.renderMini();
    if (!on) return;
    document.getElementById("thinking-text").textContent = this.headline();
    document.getElementById("move-now").hidden = waits;
    document.getElementById("move-now").disabled = !game.connected;
    if (waits) {
      const why = st.computer_waits;
      document.getElementById("thinking-detail").textContent =
        `${why[0].toUpperCase()}${why.slice(1)}.`;
      return;
    }
    this.element.classList.toggle("paused", !game.connected);
    const t = this.current;
    const parts = [];
    if (t) {
      if (t.depth) parts.push(`depth ${t.depth}`);
      if (t.nodes) parts.push(`${t.nodes.toLocaleString("en")} nodes`);
      if (t.best) parts.push(`best ${t.best}`);
      if (t.proven) parts.push(t.proven);
      else if (typeof t.score === "number") parts.push(`${Math.round(t.score * 100)}% to win`);
    }
    // the server sent nothing of what it found: say why instead
    const hidden = st.thinking_hidden || "";
    document.getElementById("thinking-detail").textContent = hidden
      ? `${hidden[0].toUpperCase()}${hidden.slice(1)}.`
      : parts.join(" · ");
  }

  /** Count the seconds on (called every 200 ms). */
  tick() {
    const game = this.game;
    if (this.current && game.state && game.state.thinking && game.connected) {
      const text = this.headline();
      const el = document.getElementById("thinking-text");
      if (el) el.textContent = text;
      game.status.setMiniText(text);
    }
  }
}
