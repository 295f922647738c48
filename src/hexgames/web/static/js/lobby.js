// The lobby of the server mode: challenge someone (or anyone), accept a challenge, play
// the computer, the games waiting for your move, your games, games to watch; and the
// page of an invitation link.

import { me } from "./account.js";
import { clearAlert, showError, showNotice } from "./alerts.js";
import { api } from "./api.js";
import { actionForm, h, replaceChildren } from "./dom.js";
import {
  clockText,
  countText,
  dateText,
  GAME_TITLES,
  rulesText,
  shortResult,
  timeControlText,
} from "./format.js";
import {
  askNotifications,
  notificationsWanted,
  onWaiting,
  pollNow,
  setTitle,
  waitingGames,
} from "./notify.js";
import { SeeksPanel } from "./seeks-panel.js";

/** Fill `box` with a plain list of `items` (<li> elements), or with a note saying there
 * are none (`noteAttrs`: the note's attributes). */
function listOrNote(box, items, note, noteAttrs = {}) {
  replaceChildren(
    box,
    items.length
      ? h("ul", { class: "plain-list" }, items)
      : h("p", { class: "empty-note", ...noteAttrs }, note),
  );
}

function gameLink(g, label) {
  return h(
    "a",
    {
      class: "button small primary",
      href: `#/game/${encodeURIComponent(g.id)}`,
      "data-game-id": g.id,
    },
    label,
  );
}

/** The address of an invitation link of this site. */
function inviteUrl(token) {
  return `${location.origin}/#/invite/${encodeURIComponent(token)}`;
}

/** Put `text` on the clipboard; where the page may not (no secure context), select the
 * text of `element` so that the person copies it. Whether it was copied. */
async function copyText(text, element) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const range = document.createRange();
    range.selectNodeContents(element);
    const selection = window.getSelection();
    selection.removeAllRanges();
    selection.addRange(range);
    return false;
  }
}

function opponentsText(g) {
  const names = (g.accounts || []).map(
    (n, i) => n || (g.players[i] === "human" ? "open seat" : `computer · ${g.players[i]}`),
  );
  return names.join(" – ");
}

export class LobbyView {
  constructor(root) {
    this.root = root;
    this.meta = null;
    // the ids of this person's open challenges the page has shown: when one is accepted
    // (GET /api/challenges "accepted"), the page opens its game
    this.ownChallenges = new Set();
    this.build();
    this.off = onWaiting((list) => this.renderTurn(list));
    this.timer = setInterval(() => this.refresh(), 5000);
    this.load();
    setTitle("Lobby · hexgames");
  }

  destroy() {
    this.off();
    clearInterval(this.timer);
    this.seeks.destroy();
  }

  build() {
    const games = ["andantino", "abande"];
    const gameSelect = (id) =>
      h(
        "select",
        { id },
        games.map((g) => h("option", { value: g }, GAME_TITLES[g])),
      );
    this.form = actionForm(
      { class: "card challenge-form", id: "challenge-form" },
      () => this.create(),
      [
        h("h2", {}, "Challenge"),
        h("label", { class: "field" }, [h("span", {}, "Game"), gameSelect("ch-game")]),
        h("label", { class: "field" }, [
          h("span", {}, "Clock"),
          h("select", { id: "ch-clock", onchange: () => this.syncClock() }, [
            h("option", { value: "live" }, "Live (minutes + seconds a move)"),
            h("option", { value: "correspondence" }, "Correspondence (days a move)"),
            h("option", { value: "none" }, "No clock"),
          ]),
        ]),
        h("div", { class: "row clock-live", id: "ch-live" }, [
          h("label", { class: "field small" }, [
            h("span", {}, "Minutes"),
            h("input", {
              id: "ch-minutes",
              type: "number",
              min: 0.05,
              max: 600,
              step: "any",
              value: 5,
            }),
          ]),
          h("label", { class: "field small" }, [
            h("span", {}, "Increment (s)"),
            h("input", { id: "ch-increment", type: "number", min: 0, max: 600, step: 1, value: 3 }),
          ]),
        ]),
        h("div", { class: "row clock-corr", id: "ch-corr", hidden: true }, [
          h("label", { class: "field small" }, [
            h("span", {}, "Days a move"),
            h("input", { id: "ch-days", type: "number", min: 1, max: 60, step: 1, value: 3 }),
          ]),
          h("label", { class: "field small" }, [
            h("span", {}, "Bank (days, empty: none)"),
            h("input", { id: "ch-bank", type: "number", min: 1, max: 60, step: 1 }),
          ]),
        ]),
        h("label", { class: "field" }, [
          h("span", {}, "Your colour"),
          h("select", { id: "ch-color" }, [
            h("option", { value: "random" }, "Random"),
            h("option", { value: "first" }, "First (moves first)"),
            h("option", { value: "second" }, "Second"),
          ]),
        ]),
        h("label", { class: "field" }, [
          h("span", {}, "Opponent (empty: anyone)"),
          h("input", { id: "ch-opponent", type: "text", maxlength: 32, autocapitalize: "none" }),
        ]),
        h("label", { class: "option check" }, [
          h("input", {
            type: "checkbox",
            id: "ch-rated",
            onchange: (e) => {
              const help = document.getElementById("ch-help");
              help.disabled = e.target.checked;
              if (e.target.checked) help.checked = false;
            },
          }),
          "Rated",
        ]),
        h("label", { class: "option check" }, [
          h("input", { type: "checkbox", id: "ch-help" }),
          "Engine help allowed (a casual game: both may ask for hints and analysis)",
        ]),
        h("label", { class: "option check" }, [
          h("input", { type: "checkbox", id: "ch-invite" }),
          "An invitation link for a friend without an account",
        ]),
        h("button", { type: "submit", class: "primary", id: "ch-create" }, "Make the challenge"),
        h("p", { class: "hint-line", id: "invite-line", hidden: true }),
      ],
    );
    this.aiBox = h("div", { class: "ai-list", id: "ai-list" });
    const aiCard = h("section", { class: "card lobby-ai" }, [
      h("h2", {}, "Play the computer"),
      h("div", { class: "row" }, [
        h("label", {}, ["Game ", gameSelect("ai-game")]),
        h("label", {}, [
          "Clock ",
          h("select", { id: "ai-clock" }, [
            h("option", { value: "none" }, "No clock"),
            h("option", { value: "5+3" }, "5+3"),
            h("option", { value: "15+10" }, "15+10"),
          ]),
        ]),
      ]),
      this.aiBox,
    ]);
    this.turnBox = h("div", { id: "turn-list" });
    this.openBox = h("div", { id: "challenge-list" });
    this.mineBox = h("div", { id: "my-games" });
    this.watchBox = h("div", { id: "watch-list" });
    this.seeks = new SeeksPanel();
    const notifyButton = notificationsWanted()
      ? h(
          "button",
          {
            type: "button",
            class: "small",
            id: "notify",
            onclick: async (e) => {
              await askNotifications();
              e.target.hidden = true;
            },
          },
          "Tell me when it is my move",
        )
      : null;
    replaceChildren(
      this.root,
      h("div", { class: "lobby-view", id: "lobby-view" }, [
        h("div", { class: "start-left" }, [this.form, aiCard]),
        h("div", { class: "lobby-right" }, [
          h("section", { class: "card lobby-turn" }, [
            h("div", { class: "row spread" }, [h("h2", {}, "Your move"), notifyButton]),
            this.turnBox,
          ]),
          this.seeks.element,
          h("section", { class: "card lobby-challenges" }, [
            h("h2", {}, "Challenges"),
            this.openBox,
          ]),
          h("section", { class: "card lobby-mine" }, [h("h2", {}, "Your games"), this.mineBox]),
          h("section", { class: "card lobby-watch" }, [h("h2", {}, "Watch"), this.watchBox]),
        ]),
      ]),
    );
  }

  syncClock() {
    const kind = document.getElementById("ch-clock").value;
    document.getElementById("ch-live").hidden = kind !== "live";
    document.getElementById("ch-corr").hidden = kind !== "correspondence";
  }

  /** The form's clock as the API takes it; throws an Error worded in the form's units
   * (the server's bounds are in seconds: 1 s to 10 hours, increments up to 600 s). */
  timeControl() {
    const kind = document.getElementById("ch-clock").value;
    if (kind === "live") {
      const minutes = Number(document.getElementById("ch-minutes").value);
      const increment = Number(document.getElementById("ch-increment").value) || 0;
      if (!(minutes >= 0.05 && minutes <= 600))
        throw new Error("Minutes must be from 0.05 to 600 (10 hours).");
      if (!(increment >= 0 && increment <= 600))
        throw new Error("The increment must be from 0 to 600 seconds.");
      return { kind, base: Math.round(minutes * 60), increment };
    }
    if (kind === "correspondence") {
      const bank = document.getElementById("ch-bank").value;
      return {
        kind,
        days: Number(document.getElementById("ch-days").value),
        bank: bank ? Number(bank) : null,
      };
    }
    return null;
  }

  async create() {
    clearAlert();
    const opponent = document.getElementById("ch-opponent").value.trim();
    let timeControl;
    try {
      timeControl = this.timeControl();
    } catch (err) {
      showError(err.message);
      return;
    }
    const body = {
      game: document.getElementById("ch-game").value,
      time_control: timeControl,
      color: document.getElementById("ch-color").value,
      opponent: opponent || null,
      rated: document.getElementById("ch-rated").checked,
      invite: document.getElementById("ch-invite").checked,
      engine_help: document.getElementById("ch-help").checked,
    };
    try {
      const made = await api.challenge(body);
      this.ownChallenges.add(made.id);
      const line = document.getElementById("invite-line");
      if (made.invite) {
        const code = h("code", { id: "invite-url" }, inviteUrl(made.invite));
        replaceChildren(line, [
          "Send your friend this link (it stays under Challenges until it is used): ",
          code,
          this.copyButton(made.invite, code),
        ]);
        line.hidden = false;
      } else {
        line.hidden = true;
        showNotice("Challenge made: it waits in the list until someone accepts it.");
      }
      this.refresh();
    } catch (err) {
      showError(err.message);
    }
  }

  async load() {
    this.refresh();
  }

  async refresh() {
    let lobby;
    let mine;
    let all;
    try {
      [lobby, mine, all] = await Promise.all([api.challenges(), api.myGames(50), api.games(30, 0)]);
    } catch (err) {
      showError(err.message);
      return;
    }
    // a challenge of this person that the page showed was accepted: to the game
    const taken = (lobby.accepted || []).find((a) => this.ownChallenges.has(a.challenge));
    if (taken) {
      location.hash = `#/game/${encodeURIComponent(taken.game)}`;
      return;
    }
    for (const c of lobby.challenges || [])
      if (c.creator === me.user.name) this.ownChallenges.add(c.id);
    this.renderChallenges(lobby.challenges || []);
    this.renderAi(lobby.ai || []);
    this.renderGames(this.mineBox, mine.games || [], "You have no games yet.");
    const others = (all.games || []).filter(
      (g) => g.accounts && !g.accounts.includes(me.user.name) && g.result === "*",
    );
    this.renderGames(this.watchBox, others, "No games to watch now.", "Watch");
    pollNow();
  }

  renderTurn(list = waitingGames()) {
    listOrNote(
      this.turnBox,
      list.map((g) =>
        h("li", { "data-game-id": g.id, class: "turn-row" }, [
          h("span", {}, `${GAME_TITLES[g.game]} · ${opponentsText(g)}`),
          g.clock
            ? h("small", { class: "muted" }, ` ${clockText(g.clock.remaining[g.turn])} left`)
            : null,
          gameLink(g, "Play"),
        ]),
      ),
      "No game waits for your move.",
      { id: "no-turn" },
    );
  }

  renderChallenges(list) {
    listOrNote(
      this.openBox,
      list.map((c) => {
        const own = c.creator === me.user.name;
        const colour =
          c.color === "random"
            ? "random colours"
            : `${c.creator} ${c.color === "first" ? "moves first" : "moves second"}`;
        const button = own
          ? h(
              "button",
              {
                type: "button",
                class: "small subtle cancel",
                onclick: () => this.act(() => api.cancel(c.id)),
              },
              c.invite ? "Withdraw" : "Cancel",
            )
          : h(
              "button",
              {
                type: "button",
                class: "small primary accept",
                onclick: () => this.acceptChallenge(c.id),
              },
              "Accept",
            );
        return h(
          "li",
          { class: "challenge-row", "data-challenge-id": c.id, "data-creator": c.creator },
          [
            h("span", {}, [
              h("b", {}, GAME_TITLES[c.game]),
              ` by ${c.creator}${c.creator_rating ? ` (${c.creator_rating})` : ""}${c.opponent ? ` for ${c.opponent}` : ""} · ${c.time_text} · ${colour}${c.rated ? " · rated" : ""}${c.engine_help ? " · engine help allowed" : ""}${Object.keys(c.rules || {}).length ? ` · ${rulesText(c.rules)}` : ""}`,
            ]),
            own && c.invite ? this.inviteLine(c) : null,
            button,
          ],
        );
      }),
      "No open challenges: make one.",
      { id: "no-challenges" },
    );
  }

  /** An own invitation's link in its row, with a Copy button and when it expires. */
  inviteLine(c) {
    const code = h("code", { class: "invite-url" }, inviteUrl(c.invite));
    return h("div", { class: "invite-line" }, [
      h(
        "small",
        { class: "muted" },
        c.expires ? `Invitation, until ${dateText(c.expires)}: ` : "Invitation: ",
      ),
      code,
      this.copyButton(c.invite, code),
    ]);
  }

  /** A button that copies the link of the invitation `token` (shown in `code`). */
  copyButton(token, code) {
    return h(
      "button",
      {
        type: "button",
        class: "small copy-invite",
        onclick: async (e) => {
          const done = await copyText(inviteUrl(token), code);
          e.target.textContent = done ? "Copied" : "Press Ctrl+C";
        },
      },
      "Copy",
    );
  }

  renderAi(levels) {
    replaceChildren(
      this.aiBox,
      levels.map((lv) =>
        h(
          "button",
          {
            type: "button",
            class: "small ai-level",
            "data-level": lv.level,
            title: lv.description,
            onclick: () => this.playAi(lv.level),
          },
          `${lv.level}${lv.rating ? ` (${Math.round(lv.rating)})` : ""}`,
        ),
      ),
    );
  }

  renderGames(box, games, empty, label) {
    listOrNote(
      box,
      games.map((g) =>
        h("li", { class: "game-row", "data-game-id": g.id, "data-result": g.result }, [
          h(
            "span",
            {},
            `${GAME_TITLES[g.game] || g.game} · ${opponentsText(g)} · ${g.result === "*" ? countText(Math.ceil(g.moves / 2), "move") : shortResult(g.result)}`,
          ),
          h(
            "small",
            { class: "muted" },
            ` ${timeControlText(g.time_control)} · ${dateText(g.updated)}`,
          ),
          gameLink(g, label || (g.result === "*" ? "Open" : "Review")),
        ]),
      ),
      empty,
    );
  }

  async acceptChallenge(id) {
    try {
      const game = await api.accept(id);
      location.hash = `#/game/${encodeURIComponent(game.id)}`;
    } catch (err) {
      showError(err.message);
      this.refresh();
    }
  }

  async playAi(level) {
    const clock = document.getElementById("ai-clock").value;
    const [minutes, inc] = clock === "none" ? [0, 0] : clock.split("+").map(Number);
    try {
      const game = await api.playAi({
        game: document.getElementById("ai-game").value,
        players: ["human", level],
        time_control:
          clock === "none" ? null : { kind: "live", base: minutes * 60, increment: inc },
      });
      location.hash = `#/game/${encodeURIComponent(game.id)}`;
    } catch (err) {
      showError(err.message);
    }
  }

  async act(action) {
    try {
      await action();
    } catch (err) {
      showError(err.message);
    }
    this.refresh();
  }
}

/** An invitation link: what it is, then sign up (or log in) and take the seat. */
export class InviteView {
  constructor(root, token) {
    this.root = root;
    this.token = token;
    this.load();
  }

  destroy() {
    this.destroyed = true; // a later answer leaves the next view alone
  }

  async load() {
    let invite;
    try {
      invite = await api.invite(this.token);
    } catch (err) {
      if (this.destroyed) return;
      replaceChildren(
        this.root,
        h("section", { class: "card", id: "invite-gone" }, [
          h("h2", {}, "This invitation cannot be used"),
          h("p", {}, err.message),
        ]),
      );
      return;
    }
    if (this.destroyed) return;
    const text = `${invite.creator} invites you to a game of ${GAME_TITLES[invite.game]} (${invite.time_text}${invite.rated ? ", rated" : ""}).`;
    const actions = me.user
      ? [
          h(
            "button",
            { type: "button", class: "primary", id: "invite-accept", onclick: () => this.accept() },
            "Take the seat",
          ),
        ]
      : [
          h(
            "a",
            {
              class: "button primary",
              id: "invite-signup",
              href: `#/signup?invite=${encodeURIComponent(this.token)}`,
            },
            "Sign up and play",
          ),
          h(
            "a",
            {
              class: "button",
              href: `#/login?next=${encodeURIComponent(`#/invite/${this.token}`)}`,
            },
            "I have an account",
          ),
        ];
    replaceChildren(
      this.root,
      h("section", { class: "card invite-card", id: "invite" }, [
        h("h2", {}, "An invitation"),
        h("p", { id: "invite-text" }, text),
        h("div", { class: "row" }, actions),
      ]),
    );
  }

  async accept() {
    try {
      const game = await api.acceptInvite(this.token);
      location.hash = `#/game/${encodeURIComponent(game.id)}`;
    } catch (err) {
      showError(err.message);
    }
  }
}
