// Quick pairing in the lobby (server mode): pick a game and a time control and seek; the
// server pairs two seekers of the same pool at once and takes both to the game (the one
// who waited learns it when this panel next asks, every few seconds). docs/web-protocol.md,
// "Quick pairing".

import { showError } from "./alerts.js";
import { api } from "./api.js";
import { h, replaceChildren } from "./dom.js";
import { GAME_TITLES } from "./format.js";

/** How often the panel asks after its seek (ms); the server drops a seek not asked
 * after for 30 s (hexgames.limits.SEEK_IDLE_SECONDS). */
const POLL_MS = 2000;

export class SeeksPanel {
  constructor() {
    this.status = null;
    this.gameSelect = h(
      "select",
      { id: "seek-game", "aria-label": "Game" },
      ["andantino", "abande"].map((g) => h("option", { value: g }, GAME_TITLES[g])),
    );
    this.rated = h("input", { type: "checkbox", id: "seek-rated" });
    this.pools = h("div", { class: "row seek-pools", id: "seek-pools" });
    this.line = h("p", { class: "hint-line", id: "seek-line" });
    this.cancelButton = h(
      "button",
      {
        type: "button",
        class: "small",
        id: "seek-cancel",
        hidden: true,
        onclick: () => this.cancel(),
      },
      "Stop seeking",
    );
    this.element = h("section", { class: "card seeks", id: "seeks" }, [
      h("h2", {}, "Quick pairing"),
      h("div", { class: "row" }, [
        this.gameSelect,
        h("label", { class: "option check" }, [this.rated, "Rated"]),
      ]),
      this.pools,
      h("div", { class: "row" }, [this.line, this.cancelButton]),
    ]);
    this.timer = setInterval(() => this.refresh(), POLL_MS);
    this.refresh();
  }

  destroy() {
    clearInterval(this.timer);
  }

  async refresh() {
    try {
      this.status = await api.seeks();
    } catch {
      return; // the lobby shows the server's errors
    }
    if (this.status.game) {
      location.hash = `#/game/${encodeURIComponent(this.status.game)}`;
      return;
    }
    this.render();
  }

  async seek(pool) {
    try {
      const answer = await api.seek({
        game: this.gameSelect.value,
        pool,
        rated: this.rated.checked,
      });
      if (answer.game) {
        location.hash = `#/game/${encodeURIComponent(answer.game.id)}`;
        return;
      }
      this.status = { ...(this.status || {}), seek: answer.seek };
      this.render();
    } catch (err) {
      showError(err.message);
    }
  }

  async cancel() {
    try {
      await api.cancelSeek();
    } catch (err) {
      showError(err.message);
    }
    this.refresh();
  }

  render() {
    const st = this.status;
    if (!st) return;
    const game = this.gameSelect.value;
    const rated = this.rated.checked;
    replaceChildren(
      this.pools,
      (st.pools || []).map((pool) => {
        const waiting = st.waiting?.[`${game} ${pool.name}${rated ? " rated" : ""}`] || 0;
        return h(
          "button",
          {
            type: "button",
            class: `small seek-pool${st.seek?.pool === pool.name ? " primary" : ""}`,
            "data-pool": pool.name,
            title: pool.time_text,
            disabled: !!st.seek,
            onclick: () => this.seek(pool.name),
          },
          waiting ? `${pool.name} (${waiting} waiting)` : pool.name,
        );
      }),
    );
    this.cancelButton.hidden = !st.seek;
    this.line.textContent = st.seek
      ? `Seeking ${GAME_TITLES[st.seek.game]} ${st.seek.pool}${st.seek.rated ? ", rated" : ""}: waiting for an opponent…`
      : "Pick a time control: you are paired with the next who picks the same.";
  }
}
