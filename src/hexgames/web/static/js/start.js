// The start view: a new game, the stored games, importing a record.

import { clearAlert, showError, showNotice } from "./alerts.js";
import { api } from "./api.js";
import { actionForm, h, replaceChildren } from "./dom.js";
import {
  choiceLabel,
  dateText,
  GAME_TITLES,
  optionLabel,
  playerLabel,
  resultText,
  rulesText,
  shortResult,
} from "./format.js";

const BLURBS = {
  andantino:
    "Place hexagonal tiles so each touches two others. Five in a row, or wall in an enemy tile, wins.",
  abande:
    "Enter pieces, then capture by stacking. At the end, only stacks next to an enemy stack score.",
};

const PAGE = 50; // stored games fetched and drawn at a time (the server's default page)
const MAX_PAGE = 500; // the most games the server lists in one answer (limits.MAX_GAMES_PAGE)

export class StartView {
  constructor(root) {
    this.root = root;
    this.meta = null;
    this.games = []; // the games fetched so far, newest first; all of them are drawn
    this.total = 0; // how many games the server has
    this.game = sessionStorage.getItem("hexgames.newGame") || "andantino";
    this.build();
    this.load();
  }

  destroy() {
    this.destroyed = true; // an answer that comes later finds no page to fill
  }

  build() {
    this.gameChoice = h("div", { class: "game-choice", role: "radiogroup", "aria-label": "Game" });
    this.options = h("fieldset", { class: "options", id: "options" }, [h("legend", {}, "Rules")]);
    this.playersBox = h("div", { class: "player-choice", id: "players" });
    this.startButton = h(
      "button",
      { type: "submit", id: "start-game", class: "primary big", "aria-label": "Start game" },
      "Start game",
    );
    this.positionInput = h("input", {
      type: "text",
      id: "start-position",
      placeholder: "andantino w=0,0 r=1,0 turn=w",
      "aria-label": "Start from a position string",
      spellcheck: "false",
      autocomplete: "off",
    });
    this.rulesLink = h(
      "a",
      { href: "#/rules/andantino", id: "rules-link", class: "rules-link" },
      "How to play",
    );
    const form = actionForm({ class: "card new-game", id: "new-game-form" }, () => this.start(), [
      h("h2", {}, "New game"),
      this.gameChoice,
      h("p", { class: "blurb", id: "game-blurb" }),
      h("p", { class: "rules-links" }, [
        this.rulesLink,
        " · the levels of the computer are described there",
      ]),
      this.playersBox,
      h("details", { class: "rules-details" }, [h("summary", {}, "Rules options"), this.options]),
      h("details", { class: "rules-details", id: "setup-details" }, [
        h("summary", {}, "Start from a position"),
        h("label", { class: "option" }, [
          h("span", {}, "Paste a position string (the game's “Copy position”); empty: the start"),
          this.positionInput,
        ]),
      ]),
      this.startButton,
    ]);

    this.gamesBody = h("tbody", { id: "games-body" });
    this.gamesTable = h("table", { class: "games", id: "games-table" }, [
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          ["Game", "Players", "Result", "Date", ""].map((t) => h("th", { scope: "col" }, t)),
        ),
      ),
      this.gamesBody,
    ]);
    this.noGames = h(
      "p",
      { class: "empty-note", id: "no-games", hidden: true },
      "No games yet: start one, or import a record.",
    );
    // only the newest games are drawn at first: thousands of rows would make every
    // later change of the page (typing in the import box) slow
    this.moreText = h("span", { id: "games-count" });
    this.moreButton = h(
      "button",
      { type: "button", id: "show-more", class: "small", onclick: () => this.showMore() },
      "Show more",
    );
    this.moreBox = h("div", { class: "list-more", id: "list-more", hidden: true }, [
      this.moreText,
      this.moreButton,
    ]);
    const list = h("section", { class: "card stored" }, [
      h("h2", {}, "Your games"),
      h("div", { class: "table-scroll" }, [this.gamesTable]),
      this.moreBox,
      this.noGames,
    ]);

    this.importText = h("textarea", {
      id: "import-text",
      rows: 5,
      placeholder: '[Game "Andantino"]\n[Result "*"]\n\n1. 0,1 1,1 *',
      "aria-label": "Record text",
      spellcheck: "false",
    });
    this.importFile = h("input", {
      type: "file",
      id: "import-file",
      accept: ".hgn,.txt,text/plain",
      "aria-label": "Record file",
      onchange: () => this.readFile(),
    });
    const importCard = h("section", { class: "card import" }, [
      h("h2", {}, "Import a record"),
      h(
        "p",
        { class: "hint-line" },
        "Choose a .hgn file, drop one onto the page, or paste the record's text, then import it to review or continue it.",
      ),
      h("div", { class: "row" }, [
        h("label", { class: "file-label button" }, ["Choose file…", this.importFile]),
      ]),
      this.importText,
      h("div", { class: "row" }, [
        h(
          "button",
          {
            type: "button",
            id: "import-button",
            class: "primary",
            onclick: () => this.importRecord(),
          },
          "Import",
        ),
      ]),
    ]);

    replaceChildren(
      this.root,
      h("div", { class: "start-view", id: "start-view" }, [
        h("div", { class: "start-left" }, [form, importCard]),
        list,
      ]),
    );
  }

  async load() {
    try {
      this.meta = await api.meta();
    } catch (err) {
      if (!this.destroyed) showError(err.message);
      return;
    }
    if (this.destroyed) return; // left before the answer ("Cannot set properties of null")
    if (!this.meta.games[this.game]) this.game = Object.keys(this.meta.games)[0];
    this.renderChoice();
    this.refreshGames();
  }

  renderChoice() {
    const games = Object.keys(this.meta.games);
    replaceChildren(
      this.gameChoice,
      games.map((name) =>
        h("label", { class: `choice${name === this.game ? " chosen" : ""}` }, [
          h("input", {
            type: "radio",
            name: "game",
            value: name,
            id: `game-${name}`,
            checked: name === this.game,
            onchange: () => {
              this.game = name;
              sessionStorage.setItem("hexgames.newGame", name);
              this.renderChoice();
            },
          }),
          h("span", { class: `choice-icon ${name}`, "aria-hidden": "true" }),
          GAME_TITLES[name] || name,
        ]),
      ),
    );
    document.getElementById("game-blurb").textContent = BLURBS[this.game] || "";
    this.rulesLink.href = `#/rules/${this.game}`;
    this.rulesLink.textContent = `How to play ${GAME_TITLES[this.game] || this.game}`;

    const info = this.meta.games[this.game];
    const levels = this.meta.levels || [];
    replaceChildren(
      this.playersBox,
      info.sides.map((sideName, side) => {
        const select = h(
          "select",
          { id: `player${side}`, name: `player${side}`, "aria-label": `${sideName} is played by` },
          [
            h("option", { value: "human" }, "Person"),
            ...levels.map((lv) =>
              h("option", { value: lv.name, title: lv.description }, `Computer · ${lv.name}`),
            ),
          ],
        );
        const saved = sessionStorage.getItem(`hexgames.player${side}`);
        select.value =
          saved && [...select.options].some((o) => o.value === saved)
            ? saved
            : side === 0
              ? "human"
              : levels[0]
                ? levels[0].name
                : "human";
        select.addEventListener("change", () =>
          sessionStorage.setItem(`hexgames.player${side}`, select.value),
        );
        return h("label", { class: "player-select" }, [
          h("span", { class: `swatch ${this.game}-side${side}`, "aria-hidden": "true" }),
          h("span", { class: "side-label" }, `${sideName}${side === 0 ? " (moves first)" : ""}`),
          select,
        ]);
      }),
    );

    const fields = info.options.map((opt) => this.optionField(opt));
    replaceChildren(this.options, [
      h("legend", {}, "Rules"),
      ...(fields.length ? fields : [h("p", {}, "This game has no options.")]),
    ]);
    // an option named after a switch ("extended_move_limit" after "extended") only counts when it is on
    for (const opt of info.options) {
      const parent = info.options.find(
        (o) => o.kind === "bool" && opt.name.startsWith(`${o.name}_`),
      );
      if (!parent) continue;
      const box = document.getElementById(`opt-${parent.name}`);
      const input = document.getElementById(`opt-${opt.name}`);
      const sync = () => {
        input.disabled = !box.checked;
        input.closest(".option").classList.toggle("off", input.disabled);
      };
      box.addEventListener("change", sync);
      sync();
    }
  }

  optionField(opt) {
    const id = `opt-${opt.name}`;
    const label = optionLabel(opt.name);
    if (opt.kind === "bool") {
      return h("label", { class: "option check" }, [
        h("input", { type: "checkbox", id, "data-option": opt.name, checked: !!opt.default }),
        label,
      ]);
    }
    if (opt.kind === "choice") {
      const select = h(
        "select",
        { id, "data-option": opt.name },
        (opt.choices || []).map((c) =>
          h(
            "option",
            { value: String(c), selected: c === opt.default },
            choiceLabel(c) + (c === opt.default ? " (standard)" : ""),
          ),
        ),
      );
      return h("label", { class: "option" }, [h("span", {}, label), select]);
    }
    const input = h("input", {
      type: "number",
      id,
      "data-option": opt.name,
      min: 1,
      step: 1,
      value: opt.default === null ? "" : opt.default,
      placeholder: opt.nullable ? "unlimited" : "",
    });
    const parts = [h("span", {}, label), input];
    if (opt.nullable) parts.push(h("small", {}, "empty: unlimited"));
    return h("label", { class: "option" }, parts);
  }

  readRules() {
    const rules = {};
    for (const opt of this.meta.games[this.game].options) {
      const el = document.getElementById(`opt-${opt.name}`);
      if (!el || el.disabled) continue;
      let value;
      if (opt.kind === "bool") value = el.checked;
      else if (opt.kind === "choice")
        value = (opt.choices || []).find((c) => String(c) === el.value);
      else if (el.value.trim() === "") value = opt.nullable ? null : opt.default;
      else value = Number(el.value);
      if (value !== opt.default) rules[opt.name] = value;
    }
    return rules;
  }

  async start() {
    if (!this.meta) return;
    clearAlert();
    const players = [0, 1].map((side) => document.getElementById(`player${side}`).value);
    const position = this.positionInput.value.trim();
    let name = this.game;
    if (position) {
      // the position names its game: start that one
      const word = position.split(/\s+/)[0].toLowerCase();
      if (this.meta.games[word]) name = word;
    }
    this.startButton.disabled = true;
    try {
      const rules = name === this.game ? this.readRules() : {};
      const game = await api.create(name, rules, players, position || undefined);
      location.hash = `#/game/${encodeURIComponent(game.id)}`;
    } catch (err) {
      showError(err.message);
    } finally {
      this.startButton.disabled = false;
    }
  }

  /** Fetch `count` games from `offset` on, a page of at most MAX_PAGE at a time. */
  async fetchGames(offset, count) {
    const games = [];
    while (games.length < count) {
      const data = await api.games(Math.min(MAX_PAGE, count - games.length), offset + games.length);
      this.total = data.total;
      games.push(...(data.games || []));
      if (!data.games || data.games.length === 0 || offset + games.length >= data.total) break;
    }
    return games;
  }

  /** Fetch and draw again as many of the newest games as were shown (at least a page). */
  async refreshGames() {
    let games;
    try {
      games = await this.fetchGames(0, Math.max(PAGE, this.games.length));
    } catch (err) {
      if (!this.destroyed) showError(err.message);
      return;
    }
    if (this.destroyed) return;
    this.games = games;
    this.gamesBody.replaceChildren(...games.map((g) => this.gameRow(g)));
    this.updateCount();
  }

  /** Fetch the next page of older games and draw them below those shown. */
  async showMore() {
    let more;
    try {
      more = await this.fetchGames(this.games.length, PAGE);
    } catch (err) {
      showError(err.message);
      return;
    }
    const known = new Set(this.games.map((g) => g.id));
    // a game changed meanwhile moves to the top: do not draw it twice
    const fresh = more.filter((g) => !known.has(g.id));
    this.games.push(...fresh);
    this.gamesBody.append(...fresh.map((g) => this.gameRow(g)));
    this.updateCount();
  }

  updateCount() {
    const shown = this.games.length;
    this.noGames.hidden = shown > 0;
    this.gamesTable.hidden = shown === 0;
    const left = this.total - shown;
    this.moreBox.hidden = left <= 0;
    this.moreText.textContent = `Showing the newest ${shown} of ${this.total} games.`;
    this.moreButton.textContent = `Show ${Math.min(left, PAGE)} more`;
  }

  gameRow(g) {
    const names =
      g.names || (this.meta.games[g.game] ? this.meta.games[g.game].sides : ["first", "second"]);
    const over = g.result && g.result !== "*";
    const actions = [];
    if (!g.error) {
      actions.push(
        h(
          "a",
          {
            class: "button small primary open",
            href: `#/game/${encodeURIComponent(g.id)}`,
            "aria-label": `${over ? "Review" : "Continue"} game ${g.id}`,
          },
          over ? "Review" : "Continue",
        ),
      );
      actions.push(
        h(
          "a",
          {
            class: "button small",
            href: api.recordUrl(g.id),
            download: "",
            "aria-label": `Export game ${g.id} as .hgn`,
          },
          ".hgn",
        ),
      );
    }
    const del = h(
      "button",
      { type: "button", class: "small subtle delete", "aria-label": `Delete game ${g.id}` },
      "Delete",
    );
    actions.push(del);
    let armed = false;
    del.addEventListener("click", async () => {
      if (!armed) {
        armed = true;
        del.textContent = "Sure?";
        del.classList.add("danger");
        setTimeout(() => {
          armed = false;
          del.textContent = "Delete";
          del.classList.remove("danger");
        }, 4000);
        return;
      }
      try {
        await api.remove(g.id);
        showNotice("Game deleted.");
      } catch (err) {
        showError(err.message);
      }
      this.refreshGames();
    });
    const named = (p, i) => {
      const name = g.player_names ? g.player_names[i] : null;
      if (g.imported && name) return name; // the record's own names
      return name && name !== "Person" && !name.startsWith("hexgames ") ? name : playerLabel(p);
    };
    const players = (g.players || []).map((p, i) =>
      h("div", { class: "row-player" }, [
        h("span", { class: `swatch small ${g.game}-side${i}`, "aria-hidden": "true" }),
        h("span", { class: "player-name" }, named(p, i)),
      ]),
    );
    // g.moves counts plies; a move, as in the move list and records, is a full turn.
    const turns = Math.ceil(g.moves / 2);
    const moves = h(
      "small",
      { class: "moves-count" },
      `${turns} ${turns === 1 ? "move" : "moves"}`,
    );
    let resultCell;
    if (g.error) {
      // the gist in the row ("unknown Andantino rules option 'x'"), all of it on hover
      const why = String(g.error)
        .replace(/^game \S+ cannot be opened: /, "")
        .replace(/\s*\(known:[^)]*\)/, "");
      resultCell = h("td", { class: "result broken", title: g.error }, [
        h("span", { class: "error-badge" }, "Cannot be opened"),
        h("small", { class: "row-error" }, why),
      ]);
    } else {
      resultCell = h(
        "td",
        { class: "result", title: over ? resultText(g.result, g.termination, names) : "" },
        [h("span", {}, shortResult(g.result)), moves],
      );
    }
    const rules = rulesText(g.rules);
    return h(
      "tr",
      {
        "data-game-id": g.id,
        "data-result": g.result,
        "data-moves": g.moves,
        class: g.error ? "broken" : null,
        "data-error": g.error || null,
      },
      [
        h("td", { class: "game-name" }, [
          h("span", { class: `choice-icon small ${g.game}`, "aria-hidden": "true" }),
          h("span", {}, [
            GAME_TITLES[g.game] || g.game,
            h("small", {}, rules === "standard rules" ? "" : rules),
          ]),
        ]),
        h("td", { class: "players-cell" }, players),
        resultCell,
        h("td", { class: "date" }, dateText(g.updated || g.created)),
        h("td", { class: "actions-cell" }, h("div", { class: "row-actions" }, actions)),
      ],
    );
  }

  readFile() {
    const file = this.importFile.files[0];
    if (!file) return;
    const reader = new FileReader();
    reader.onload = () => {
      this.importText.value = String(reader.result);
      showNotice(`Read ${file.name}. Press Import to store it.`);
    };
    reader.onerror = () => showError(`Could not read ${file.name}.`);
    reader.readAsText(file);
  }

  async importRecord() {
    const text = this.importText.value;
    if (!text.trim()) {
      showError("Paste a record or choose a .hgn file first.");
      return;
    }
    clearAlert();
    try {
      const answer = await api.importRecord(text);
      const ids = answer.ids || [];
      this.importText.value = "";
      this.importFile.value = "";
      if (ids.length === 1) {
        location.hash = `#/game/${encodeURIComponent(ids[0])}`;
      } else {
        showNotice(`Imported ${ids.length} games.`);
        this.refreshGames();
      }
    } catch (err) {
      showError(err.message);
    }
  }
}
