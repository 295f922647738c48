// The game view's opening explorer (issue 35): for the position on view, each move played
// from it in this server's finished games and the imported collection, with the games, the
// score of each side, the players' average rating and the proven value where the opening
// book knows it (GET /api/explorer, docs/web-protocol.md). A click on a move plays it as
// the board would: a side line from a past position, the game's move when it is this
// page's turn (the server decides either way).

import { api } from "./api.js";
import { button, h, replaceChildren } from "./dom.js";
import { prefs } from "./prefs.js";

/** The rules of a STATE ({name: value}) as the words of docs/notation.md. */
export function rulesWords(rules) {
  return Object.entries(rules || {})
    .map(([name, value]) => {
      const word =
        value === true ? "on" : value === false ? "off" : value === null ? "none" : value;
      return `${name}=${word}`;
    })
    .join(" ");
}

function percent(part, whole) {
  return whole ? `${Math.round((100 * part) / whole)}%` : "–";
}

export class ExplorerPanel {
  /** game: the GameView whose position on view this explores. */
  constructor(game) {
    this.game = game;
    this.on = prefs.get("explorer", false);
    this.asked = null; // the query of the answer shown or on its way
    this.answer = null;
    this.toggleButton = button(
      "explorer-toggle",
      "Explorer",
      "Show the moves played from this position in this server's games",
      () => this.toggle(),
      { "aria-pressed": String(this.on), "aria-controls": "explorer" },
    );
    this.source = prefs.get("explorer.source", "all");
    this.sourceSelect = h(
      "select",
      {
        id: "explorer-source",
        "aria-label": "Games the explorer counts",
        onchange: (e) => {
          this.source = e.target.value;
          prefs.set("explorer.source", this.source);
          this.render();
        },
      },
      [
        ["all", "All games"],
        ["games", "This server's games"],
        ["collection", "The collection"],
      ].map(([value, text]) => h("option", { value, selected: value === this.source }, text)),
    );
    this.summary = h("p", { class: "explorer-summary", id: "explorer-summary" });
    this.table = h("table", { class: "explorer-table", id: "explorer-table" });
    this.box = h("div", { class: "explorer", id: "explorer", hidden: !this.on }, [
      this.summary,
      this.table,
    ]);
    this.element = h("section", { class: "panel-section explorer-section" }, [
      h("div", { class: "row" }, [this.toggleButton, this.sourceSelect]),
      this.box,
    ]);
  }

  toggle() {
    this.on = !this.on;
    prefs.set("explorer", this.on);
    this.toggleButton.setAttribute("aria-pressed", String(this.on));
    this.box.hidden = !this.on;
    this.render();
  }

  /** The query of the position on view, or null while its board is on its way. */
  query() {
    const st = this.game.state;
    const board = this.game.shownBoard();
    if (!st || !board || !board.position) return null;
    const params = new URLSearchParams({
      game: st.game,
      rules: rulesWords(st.rules),
      position: board.position,
      source: this.source,
    });
    return params.toString();
  }

  /** Ask for the position on view when it changed, or the game did (a game that ends is
   * indexed: its counts change); the page calls this on every draw. */
  render() {
    if (!this.on) return;
    const query = this.query();
    const st = this.game.state;
    const key = `${query}|${st?.ply}|${st?.result}`;
    if (query === null || key === this.asked) return;
    this.asked = key;
    this.summary.textContent = "Looking the position up…";
    api
      .explorer(query)
      .then((answer) => {
        if (this.asked === key) this.show(answer);
      })
      .catch((err) => {
        if (this.asked !== key) return;
        this.answer = null;
        this.summary.textContent = err.message;
        replaceChildren(this.table, []);
      });
  }

  show(answer) {
    this.answer = answer;
    const names = this.game.state.names;
    const count = answer.games;
    this.summary.textContent = count
      ? `${count} ${count === 1 ? "game" : "games"} from this position`
      : "No game of this server has reached this position.";
    if (answer.proven) {
      const p = answer.proven;
      this.summary.textContent += ` · proven: ${names[p.winner]} wins with ${p.move} (in ${p.plies} plies at most)`;
    }
    const head = h("tr", {}, [
      h("th", { scope: "col" }, "Move"),
      h("th", { scope: "col" }, "Games"),
      h("th", { scope: "col" }, `${names[0]} / draw / ${names[1]}`),
      h("th", { scope: "col" }, "Rating"),
      h("th", { scope: "col" }, "Proven"),
    ]);
    const rows = answer.moves.map((m) => {
      const proven = m.proven ? `${names[m.proven.winner]} wins` : "";
      return h(
        "tr",
        {
          class: "explorer-move",
          "data-move": m.move,
          "data-games": m.games,
          "data-wins": m.wins.join(","),
          "data-draws": m.draws,
          "data-rating": m.rating ?? "",
        },
        [
          h("td", {}, [
            h(
              "button",
              {
                type: "button",
                class: "link explorer-play",
                title: `Play ${m.move}`,
                onclick: () => this.game.typedMove(m.move),
              },
              m.move,
            ),
          ]),
          h("td", {}, String(m.games)),
          h(
            "td",
            {
              class: "explorer-score",
              title: `${m.wins[0]} won by ${names[0]}, ${m.draws} drawn, ${m.wins[1]} won by ${names[1]}`,
            },
            [
              h("span", { class: "w0" }, percent(m.wins[0], m.games)),
              " / ",
              h("span", { class: "wd" }, percent(m.draws, m.games)),
              " / ",
              h("span", { class: "w1" }, percent(m.wins[1], m.games)),
            ],
          ),
          h("td", {}, m.rating === null ? "–" : String(m.rating)),
          h("td", { class: "explorer-proven" }, proven),
        ],
      );
    });
    replaceChildren(this.table, [h("thead", {}, [head]), h("tbody", {}, rows)]);
  }
}
