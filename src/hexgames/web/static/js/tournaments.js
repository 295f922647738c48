// Tournaments of the server mode (docs/web-protocol.md, "Tournaments"): "#/tournaments"
// lists them with the create form (shown to who may create), "#/tournament/<id>" one of
// them: entrants, rounds, standings and crosstable (a league: each season's divisions),
// the join/leave/start buttons. The server decides who may do what; the page only
// hides the buttons it would refuse. A tournament's page looks again every few seconds,
// so a round that starts by itself appears.

import { showError, showNotice } from "./alerts.js";
import { request } from "./api.js";
import { actionForm, h, replaceChildren } from "./dom.js";
import { GAME_TITLES, shortResult } from "./format.js";
import { setTitle } from "./notify.js";

const enc = encodeURIComponent;
const KIND_TITLES = {
  round_robin: "Round robin",
  double_round_robin: "Double round robin",
  swiss: "Swiss",
  league: "League",
};
/** Seconds between two looks at a tournament's page. */
const REFRESH = 3;

const tournamentApi = {
  list: () => request("GET", "/api/tournaments"),
  create: (body) => request("POST", "/api/tournaments", body),
  get: (id) => request("GET", `/api/tournaments/${enc(id)}`),
  act: (id, action, body) => request("POST", `/api/tournaments/${enc(id)}/${action}`, body),
  remove: (id) => request("DELETE", `/api/tournaments/${enc(id)}`),
};

function kindText(t) {
  const kind = KIND_TITLES[t.kind] || t.kind;
  if (t.kind === "swiss") return `${kind}, ${t.settings.rounds} rounds`;
  if (t.kind === "league") return `${kind}, divisions of ${t.settings.division_size}`;
  return kind;
}

function statusText(t) {
  if (t.status === "open") return "open for entries";
  if (t.status === "finished") return "finished";
  return `${t.kind === "league" ? "season" : "round"} ${t.round}`;
}

export class TournamentsView {
  constructor(root) {
    this.root = root;
    setTitle("Tournaments · hexgames");
    this.load();
  }

  destroy() {
    this.destroyed = true;
  }

  async load() {
    let data;
    try {
      data = await tournamentApi.list();
    } catch (err) {
      if (!this.destroyed) showError(err.message);
      return;
    }
    if (this.destroyed) return;
    const rows = data.tournaments.map((t) =>
      h("tr", { "data-id": t.id }, [
        h("td", {}, h("a", { href: `#/tournament/${enc(t.id)}`, class: "t-link" }, t.name)),
        h("td", {}, `${GAME_TITLES[t.game]} · ${kindText(t)}`),
        h("td", {}, t.time_text),
        h("td", {}, String(t.entrant_count)),
        h("td", {}, statusText(t)),
      ]),
    );
    replaceChildren(
      this.root,
      h("div", { class: "t-page" }, [
        h("section", { class: "card", id: "tournaments" }, [
          h("h2", {}, "Tournaments"),
          rows.length
            ? h("div", { class: "table-scroll" }, [
                h("table", { class: "games", id: "tournament-list" }, [
                  h(
                    "thead",
                    {},
                    h(
                      "tr",
                      {},
                      ["Name", "Game", "Clock", "Entrants", "Status"].map((t) => h("th", {}, t)),
                    ),
                  ),
                  h("tbody", {}, rows),
                ]),
              ])
            : h("p", { class: "empty-note", id: "no-tournaments" }, "No tournaments yet."),
        ]),
        data.may_create ? this.form(data.levels || []) : null,
      ]),
    );
  }

  form(levels) {
    const field = (label, input) => h("label", { class: "field" }, [label, " ", input]);
    const number = (id, value, min, max) =>
      h("input", { id, type: "number", value, min, max, step: 1, class: "narrow" });
    const select = (id, options) =>
      h(
        "select",
        { id },
        options.map(([value, text]) => h("option", { value }, text)),
      );
    const kind = select(
      "t-kind",
      Object.entries(KIND_TITLES).map(([k, v]) => [k, v]),
    );
    const game = select("t-game", [
      ["andantino", "Andantino"],
      ["abande", "Abande"],
    ]);
    const clock = select("t-clock", [
      ["live", "live"],
      ["correspondence", "correspondence"],
    ]);
    const ai = levels.map((level) =>
      h("label", { class: "check" }, [
        h("input", { type: "checkbox", class: "t-ai", value: level }),
        ` ${level}`,
      ]),
    );
    const fields = {
      name: h("input", { id: "t-name", maxlength: 80, required: true }),
      minutes: number("t-minutes", 10, 1, 180),
      increment: number("t-increment", 5, 0, 60),
      days: number("t-days", 3, 1, 30),
      max: number("t-max", 16, 2, 64),
      rounds: number("t-rounds", 5, 1, 15),
      size: number("t-division-size", 6, 2, 12),
      promote: number("t-promote", 1, 0, 6),
      seasons: number("t-seasons", 1, 1, 100),
      scoring: select("t-scoring", [
        ["points", "points"],
        ["series", "Andantino series score"],
      ]),
      rated: h("input", { id: "t-rated", type: "checkbox" }),
    };
    const swissOnly = field("Rounds", fields.rounds);
    const leagueOnly = h("div", { class: "row" }, [
      field("Division size", fields.size),
      field("Promoted and relegated", fields.promote),
      field("Seasons", fields.seasons),
    ]);
    const liveOnly = h("div", { class: "row" }, [
      field("Minutes", fields.minutes),
      field("+ seconds a move", fields.increment),
    ]);
    const daysOnly = field("Days a move", fields.days);
    const shown = () => {
      swissOnly.hidden = kind.value !== "swiss";
      leagueOnly.hidden = kind.value !== "league";
      liveOnly.hidden = clock.value !== "live";
      daysOnly.hidden = clock.value !== "correspondence";
    };
    kind.addEventListener("change", shown);
    clock.addEventListener("change", shown);
    shown();
    const submit = async () => {
      const body = {
        name: fields.name.value,
        kind: kind.value,
        game: game.value,
        time_control:
          clock.value === "live"
            ? {
                kind: "live",
                base: Number(fields.minutes.value) * 60,
                increment: Number(fields.increment.value),
              }
            : { kind: "correspondence", days: Number(fields.days.value) },
        max_entrants: Number(fields.max.value),
        scoring: fields.scoring.value,
        rated: fields.rated.checked,
        ai: [...this.root.querySelectorAll(".t-ai:checked")].map((box) => box.value),
      };
      if (kind.value === "swiss") body.rounds = Number(fields.rounds.value);
      if (kind.value === "league") {
        body.division_size = Number(fields.size.value);
        body.promote = Number(fields.promote.value);
        body.seasons = Number(fields.seasons.value);
      }
      try {
        const made = await tournamentApi.create(body);
        location.hash = `#/tournament/${enc(made.id)}`;
      } catch (err) {
        showError(err.message);
      }
    };
    return h("section", { class: "card", id: "tournament-create" }, [
      h("h2", {}, "New tournament"),
      actionForm({ id: "tournament-form", class: "stack" }, submit, [
        field("Name", fields.name),
        h("div", { class: "row" }, [field("Kind", kind), field("Game", game)]),
        swissOnly,
        leagueOnly,
        h("div", { class: "row" }, [field("Clock", clock), liveOnly, daysOnly]),
        h("div", { class: "row" }, [
          field("Most entrants", fields.max),
          field("Ranked by", fields.scoring),
          h("label", { class: "check" }, [fields.rated, " rated"]),
        ]),
        ai.length ? h("div", { class: "row" }, ["Computer entrants:", ...ai]) : null,
        h("button", { type: "submit", id: "t-create", class: "primary" }, "Create"),
      ]),
    ]);
  }
}

export class TournamentView {
  constructor(root, id) {
    this.root = root;
    this.id = id;
    this.load();
    this.timer = setInterval(() => this.load(), REFRESH * 1000);
  }

  destroy() {
    this.destroyed = true;
    clearInterval(this.timer);
  }

  async load() {
    let t;
    try {
      t = await tournamentApi.get(this.id);
    } catch (err) {
      if (!this.destroyed) {
        showError(err.message);
        clearInterval(this.timer);
      }
      return;
    }
    if (this.destroyed) return;
    setTitle(`${t.name} · hexgames`);
    this.render(t);
  }

  async act(action, body = {}) {
    try {
      if (action === "delete") {
        await tournamentApi.remove(this.id);
        showNotice("The tournament was deleted.");
        location.hash = "#/tournaments";
        return;
      }
      this.render(await tournamentApi.act(this.id, action, body));
    } catch (err) {
      showError(err.message);
    }
  }

  render(t) {
    const buttons = [];
    const open = t.status === "open" || (t.kind === "league" && t.status === "running");
    if (open && !t.joined)
      buttons.push(
        h("button", { id: "t-join", class: "primary", onclick: () => this.act("join") }, "Join"),
      );
    if (t.joined && open)
      buttons.push(h("button", { id: "t-leave", onclick: () => this.act("leave") }, "Leave"));
    if (t.may_manage && t.status === "open") {
      buttons.push(h("button", { id: "t-start", onclick: () => this.act("start") }, "Start"));
      buttons.push(
        h(
          "button",
          { id: "t-delete", class: "subtle", onclick: () => this.act("delete") },
          "Delete",
        ),
      );
    }
    const entrants = t.entrants.map((e) =>
      h("li", { "data-name": e.name }, [
        e.ai ? e.name : h("a", { href: `#/user/${enc(e.name)}` }, e.name),
        e.leaving ? " (leaves after this season)" : "",
      ]),
    );
    const sections = [
      h("section", { class: "card", id: "tournament" }, [
        h("h2", { id: "t-title" }, t.name),
        h(
          "p",
          { class: "muted" },
          `${GAME_TITLES[t.game]} · ${kindText(t)} · ${t.time_text}${t.rated ? " · rated" : ""}` +
            ` · made by ${t.creator}`,
        ),
        h("p", { id: "t-status", "data-status": t.status, "data-round": t.round }, [
          statusText(t),
          t.note ? ` (${t.note})` : "",
        ]),
        buttons.length ? h("div", { class: "row" }, buttons) : null,
        h("h3", {}, `Entrants (${t.entrants.length} of at most ${t.settings.max_entrants})`),
        h("ul", { class: "plain-list", id: "t-entrants" }, entrants),
      ]),
    ];
    if (t.kind === "league") {
      for (const season of t.seasons || []) {
        sections.push(
          h("section", { class: "card", "data-season": season.season }, [
            h("h3", {}, `Season ${season.season}`),
            ...season.divisions.map((d) =>
              h("div", { class: "t-division", "data-division": d.division }, [
                h("h4", {}, `Division ${d.division}`),
                standingsTable(d, t.kind),
                crosstable(d.crosstable),
              ]),
            ),
          ]),
        );
      }
    } else if (t.standings) {
      sections.push(
        h("section", { class: "card", id: "t-table" }, [
          h("h3", {}, "Standings"),
          standingsTable(t, t.kind),
          h("h3", {}, "Crosstable"),
          crosstable(t.crosstable),
        ]),
      );
    }
    if (t.rounds.length) sections.push(roundsCard(t));
    replaceChildren(this.root, h("div", { class: "t-page" }, sections));
  }
}

function standingsTable(table, kind) {
  const series = table.standings.some((line) => line.series !== null);
  const breaks =
    kind === "swiss"
      ? [
          ["Buchholz", "buchholz"],
          ["S-B", "sonneborn_berger"],
        ]
      : [
          ["S-B", "sonneborn_berger"],
          ["Buchholz", "buchholz"],
        ];
  const head = ["#", "Entrant", "Points", ...(series ? ["Series"] : [])];
  head.push(...breaks.map(([title]) => title), "Played", "+", "=", "−");
  const rows = table.standings.map((line) =>
    h("tr", { "data-name": line.name }, [
      h("td", {}, String(line.rank)),
      h("td", {}, line.name),
      h("td", { class: "t-points" }, String(line.points)),
      series ? h("td", { class: "t-series" }, String(line.series)) : null,
      ...breaks.map(([, key]) => h("td", {}, String(line[key]))),
      h("td", {}, String(line.played)),
      h("td", {}, String(line.won)),
      h("td", {}, String(line.drawn)),
      h("td", {}, String(line.lost)),
    ]),
  );
  // a phone's width scrolls the table, not the page
  return h("div", { class: "table-scroll" }, [
    h("table", { class: "games t-standings" }, [
      h(
        "thead",
        {},
        h(
          "tr",
          {},
          head.map((t) => h("th", {}, t)),
        ),
      ),
      h("tbody", {}, rows),
    ]),
  ]);
}

function crosstable(cross) {
  const names = cross.names;
  return h("div", { class: "table-scroll" }, [
    h("table", { class: "games t-crosstable" }, [
      h(
        "thead",
        {},
        h("tr", {}, [h("th", {}, ""), ...names.map((_, j) => h("th", {}, String(j + 1)))]),
      ),
      h(
        "tbody",
        {},
        names.map((name, i) =>
          h("tr", { "data-name": name }, [
            h("th", {}, `${i + 1}. ${name}`),
            ...cross.results[i].map((cell, j) =>
              h("td", { class: i === j ? "t-self" : "" }, i === j ? "×" : cell),
            ),
          ]),
        ),
      ),
    ]),
  ]);
}

function roundsCard(t) {
  const word = t.kind === "league" ? "Season" : "Round";
  return h(
    "section",
    { class: "card", id: "t-rounds" },
    [...t.rounds].reverse().map((r) =>
      h("div", { class: "t-round", "data-round": r.round }, [
        h("h3", {}, `${word} ${r.round}`),
        h(
          "ul",
          { class: "plain-list" },
          r.games.map((g) =>
            h("li", { class: "t-pairing" }, [
              t.kind === "league" ? `Division ${g.division + 1}: ` : `Board ${g.board}: `,
              g.second === null
                ? `${g.first} has a bye`
                : h(
                    "a",
                    {
                      href: `#/game/${enc(g.game_id)}`,
                      class: "t-game",
                      "data-first": g.first,
                      "data-second": g.second,
                      "data-result": g.result,
                    },
                    `${g.first} – ${g.second} ${g.result === "*" ? "(playing)" : shortResult(g.result)}`,
                  ),
            ]),
          ),
        ),
      ]),
    ),
  );
}
