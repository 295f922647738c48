// The game view's clocks: each side's time left, as the last state gave it, counted down
// on the page while that side's clock runs and the connection holds.

import { h } from "./dom.js";
import { clockText } from "./format.js";

/** Seconds left under which a live clock warns. */
const LOW_SECONDS = 10;

export class ClockPanel {
  /** game: the GameView whose state's clock this shows. */
  constructor(game) {
    this.game = game;
    this.at = 0; // when the last state came (performance.now(), ms)
  }

  /** A state came: its readings are of now. */
  gotState() {
    this.at = performance.now();
  }

  /** The clock of `side` for its player card, or null for an untimed game. */
  element(side) {
    if (!this.game.state.clock) return null;
    return h("div", { class: "clock", id: `clock${side}`, "data-side": side });
  }

  /** Show each side's time left now (called every 200 ms). */
  render() {
    const st = this.game.state;
    if (!st || !st.clock) return;
    const clock = st.clock;
    const live = clock.control.kind === "live";
    const paused = !this.game.connected;
    for (const side of [0, 1]) {
      const el = document.getElementById(`clock${side}`);
      if (!el) continue;
      let left = clock.remaining[side];
      const running = clock.running === side && !st.over;
      // a vacation pauses a correspondence clock until then (seconds since the epoch)
      const until = clock.paused?.[side];
      const vacation = until != null && until * 1000 > Date.now();
      if (running && !paused && !vacation) left -= (performance.now() - this.at) / 1000;
      left = Math.max(0, left);
      el.textContent = vacation ? `${clockText(left)} · on vacation` : clockText(left);
      el.title = vacation ? `On vacation until ${new Date(until * 1000).toLocaleString()}` : "";
      el.classList.toggle("running", running);
      el.classList.toggle("low", running && live && left < LOW_SECONDS);
      el.classList.toggle(
        "flagged",
        st.over && st.termination === "time-forfeit" && st.winner === 1 - side,
      );
      el.dataset.seconds = left.toFixed(1);
    }
  }
}
