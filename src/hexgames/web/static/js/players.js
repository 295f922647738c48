// The rating lists and a player's page (server mode).

import { showError } from "./alerts.js";
import { api } from "./api.js";
import { h, replaceChildren } from "./dom.js";
import { countText, dateText, GAME_TITLES, shortResult, timeControlText } from "./format.js";
import { setTitle } from "./notify.js";

export class RatingsView {
  constructor(root, game) {
    this.root = root;
    this.game = game || "andantino";
    setTitle("Ratings · hexgames");
    this.load();
  }

  destroy() {
    this.destroyed = true; // a later answer leaves the next view alone
  }

  async load() {
    let data;
    try {
      data = await api.ratings(this.game);
    } catch (err) {
      if (!this.destroyed) showError(err.message);
      return;
    }
    if (this.destroyed) return;
    const tabs = h(
      "div",
      { class: "row" },
      ["andantino", "abande"].map((g) =>
        h(
          "a",
          {
            class: `button small${g === this.game ? " primary" : ""}`,
            href: `#/ratings/${g}`,
            id: `ratings-${g}`,
          },
          GAME_TITLES[g],
        ),
      ),
    );
    const rows = data.ratings.map((r, i) =>
      h("tr", { "data-name": r.name }, [
        h("td", {}, String(i + 1)),
        h("td", {}, h("a", { href: `#/user/${encodeURIComponent(r.name)}` }, r.name)),
        h("td", { class: "rating" }, `${r.rating}${r.provisional ? "?" : ""}`),
        h("td", {}, `±${r.rd}`),
        h("td", {}, String(r.games)),
      ]),
    );
    const ai = Object.entries(data.ai || {}).map(([level, rating]) =>
      h("li", {}, `computer · ${level}: ${Math.round(rating)} (fixed)`),
    );
    replaceChildren(
      this.root,
      h("section", { class: "card ratings-card", id: "ratings" }, [
        h("h2", {}, `Ratings · ${GAME_TITLES[data.game]}`),
        tabs,
        data.ratings.length
          ? h("table", { class: "games", id: "ratings-table" }, [
              h(
                "thead",
                {},
                h(
                  "tr",
                  {},
                  ["#", "Player", "Rating", "Deviation", "Games"].map((t) => h("th", {}, t)),
                ),
              ),
              h("tbody", {}, rows),
            ])
          : h("p", { class: "empty-note", id: "no-ratings" }, "No rated games yet."),
        ai.length ? h("ul", { class: "plain-list muted" }, ai) : null,
        h(
          "p",
          { class: "hint-line" },
          "Glicko-2 ratings; a ? marks a rating of few games (deviation over 110).",
        ),
      ]),
    );
  }
}

export class PlayerView {
  constructor(root, name) {
    this.root = root;
    this.name = name;
    setTitle(`${name} · hexgames`);
    this.load();
  }

  destroy() {
    this.destroyed = true; // a later answer leaves the next view alone
  }

  async load() {
    let data;
    try {
      data = await api.user(this.name);
    } catch (err) {
      if (this.destroyed) return;
      showError(err.message);
      replaceChildren(
        this.root,
        h("section", { class: "card", id: "player-gone" }, [
          h("h2", {}, "No such player"),
          h("p", {}, err.message),
        ]),
      );
      return;
    }
    if (this.destroyed) return;
    const ratings = Object.entries(data.ratings).map(([game, r]) =>
      h(
        "li",
        { "data-game": game },
        `${GAME_TITLES[game]}: ${r.rating}${r.provisional ? "?" : ""} (±${r.rd}, ${countText(r.games, "game")})`,
      ),
    );
    const games = data.games.map((g) =>
      h("tr", { "data-game-id": g.id }, [
        h("td", {}, GAME_TITLES[g.game] || g.game),
        h(
          "td",
          {},
          (g.accounts || []).map((n, i) => n || `computer · ${g.players[i]}`).join(" – "),
        ),
        h("td", {}, shortResult(g.result)),
        h("td", {}, timeControlText(g.time_control)),
        h("td", {}, dateText(g.updated)),
        h(
          "td",
          {},
          h(
            "a",
            { class: "button small", href: `#/game/${encodeURIComponent(g.id)}` },
            g.result === "*" ? "Open" : "Review",
          ),
        ),
      ]),
    );
    const r = data.results;
    replaceChildren(
      this.root,
      h("section", { class: "card player-card-page", id: "player" }, [
        h("h2", { id: "player-name" }, data.name + (data.admin ? " (administrator)" : "")),
        h("p", { id: "player-results" }, `${r.won} won, ${r.lost} lost, ${r.drawn} drawn`),
        ratings.length
          ? h("ul", { class: "plain-list", id: "player-ratings" }, ratings)
          : h("p", { class: "empty-note" }, "No rated games yet."),
        games.length
          ? h("div", { class: "table-scroll" }, [
              h("table", { class: "games", id: "player-games" }, [h("tbody", {}, games)]),
            ])
          : h("p", { class: "empty-note" }, "No games yet."),
      ]),
    );
  }
}
