// A short rules page for each game ("#/rules/andantino", "#/rules/abande"), with the
// computer's levels as the server describes them, and a link to the whole rulebook
// (docs/rules.md, served as /docs/rules).

import { showError } from "./alerts.js";
import { api } from "./api.js";
import { h, replaceChildren } from "./dom.js";
import { GAME_TITLES } from "./format.js";
import { setTitle } from "./notify.js";

const RULES = {
  andantino: {
    by: "David L. Smith, 1995",
    sections: [
      [
        "The tiles",
        "White and Red have 25 hexagonal tiles each; there is no board. One White and one Red tile start side by side, and White moves first.",
      ],
      [
        "A move",
        "Place one of your tiles on an empty cell that touches at least two tiles already on the table (of either colour). There is no passing.",
      ],
      [
        "Winning",
        "You win with five (or more) of your tiles in a row along one of the three directions, or by walling in enemy tiles: after your move at least one of them can no longer reach the open surface through cells that are not yours.",
      ],
      [
        "Self-trap",
        "Placing a tile into a pocket that your opponent already walls off traps your own tile: by default your opponent wins at once (the rules option decides).",
      ],
      [
        "Draw",
        "When all 50 tiles are placed and nobody has won, the game is drawn (unless extended play lets you move your tiles on).",
      ],
      [
        "Balance variant",
        "With it on, Red may once in the game place a tile touching only one tile. The page draws those placements with a dotted ring and says whether the right is used.",
      ],
    ],
  },
  abande: {
    by: "Dieter Stein, 2005",
    sections: [
      [
        "The board",
        "37 points in a hexagon; 18 Black and 18 White stackable pieces start in hand. Black moves first.",
      ],
      [
        "A turn",
        "Enter a piece from your hand next to the pieces on the board (Black's very first piece may go anywhere), or move one of your stacks (its top piece is yours) one step onto a neighbouring enemy stack: every move is a capture. A stack is at most 3 high, and all pieces must stay one connected group. With an empty hand you may pass.",
      ],
      ["Opening", "No captures until Black has entered its second piece."],
      ["The end", "The game ends when both players pass in turn, with every piece on the board."],
      [
        "Scoring",
        "A stack is awake when a neighbouring stack is the opponent's; otherwise it sleeps and scores nothing. Each player scores the height of their awake stacks; the higher score wins.",
      ],
      [
        "On the board",
        'Your stacks that can capture are ringed; pick one up to see its targets. "Sleeping" shows which stacks would score nothing if the game ended now.',
      ],
    ],
  },
};

export class RulesView {
  constructor(root, game) {
    this.root = root;
    // (own keys only: "constructor" is a property of every object)
    const known = typeof game === "string" && Object.hasOwn(RULES, game.toLowerCase());
    this.game = known ? game.toLowerCase() : "andantino";
    setTitle(`Rules of ${GAME_TITLES[this.game]} · hexgames`);
    this.render([]);
    if (game !== undefined && !known)
      showError(`hexgames has no game "${game}": here are the rules of ${GAME_TITLES[this.game]}.`);
    this.load();
  }

  destroy() {
    this.destroyed = true; // a later answer leaves the next view alone
  }

  async load() {
    try {
      const meta = await api.meta();
      if (!this.destroyed) this.render(meta.levels || []);
    } catch {
      // the rules stand without the levels
    }
  }

  render(levels) {
    const rules = RULES[this.game];
    const tabs = h(
      "div",
      { class: "row" },
      Object.keys(RULES).map((g) =>
        h(
          "a",
          {
            class: `button small${g === this.game ? " primary" : ""}`,
            href: `#/rules/${g}`,
            id: `rules-${g}`,
          },
          GAME_TITLES[g],
        ),
      ),
    );
    replaceChildren(
      this.root,
      h("section", { class: "card rules-page", id: "rules-page", "data-game": this.game }, [
        h("h2", {}, `The rules of ${GAME_TITLES[this.game]}`),
        h("p", { class: "muted" }, [
          `${rules.by}. `,
          // the rulebook the server serves (GET /docs/rules), at this game's part
          h("a", { href: `/docs/rules#${this.game}`, id: "full-rules" }, "The full rules"),
          ": every option, the examples, and what hexgames decided where the published rules leave a choice.",
        ]),
        tabs,
        ...rules.sections.flatMap(([title, text]) => [h("h3", {}, title), h("p", {}, text)]),
        h("h3", {}, "The computer's levels"),
        levels.length
          ? h(
              "ul",
              { class: "plain-list", id: "levels-list" },
              levels.map((lv) =>
                h("li", { "data-level": lv.name }, [
                  h("b", {}, lv.name),
                  h("span", {}, lv.description),
                ]),
              ),
            )
          : h("p", { class: "muted" }, "Loading the levels…"),
        h(
          "p",
          { class: "muted" },
          "The levels below expert choose at random among moves of nearly equal value, so two games rarely repeat; each game records its seed, so it can be replayed.",
        ),
        h("a", { class: "button", href: "#/" }, "Back"),
      ]),
    );
  }
}
