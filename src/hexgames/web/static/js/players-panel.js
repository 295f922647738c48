// The game view's head and player cards: the game, its rules and event, and for each side
// its name, who plays it, its hand and points in the position on view, and its clock.

import { me } from "./account.js";
import { h, replaceChildren } from "./dom.js";
import { GAME_TITLES, playerLabel, rulesText } from "./format.js";

export class PlayersPanel {
  /** game: the GameView whose players this shows. */
  constructor(game) {
    this.game = game;
    this.title = h("h2", { class: "game-title", id: "game-title" });
    this.rulesLine = h("div", { class: "rules-line", id: "rules-line" });
    // server mode: rated, or casual with or without the engine's help (both players see it)
    this.helpLine = h("div", { class: "rules-line", id: "help-line", hidden: true });
    this.head = h("div", { class: "panel-head" }, [this.title, this.rulesLine, this.helpLine]);
    this.eventLine = h("div", { class: "event-line", id: "event-line" });
    this.cards = [0, 1].map((side) =>
      h("div", { class: `player-card side${side}`, id: `player${side}` }),
    );
    this.players = h("div", { class: "players" }, this.cards);
  }

  render() {
    const game = this.game;
    const st = game.state;
    const live = game.isLive();
    const board = game.shownBoard();
    const facts = game.shownFacts();
    this.title.textContent = GAME_TITLES[st.game] || st.game;
    const rules = rulesText(st.rules);
    this.rulesLine.textContent = st.setup ? `${rules} · from a set-up position` : rules;
    this.rulesLine.title = st.setup ? `Set-up position: ${st.setup}` : "";
    this.helpLine.hidden = st.mode !== "server";
    this.helpLine.dataset.engineHelp = String(!!st.engine_help);
    // what the engine may do is the server's word (the state's help); the line only
    // says why: once the game is over help is open, but not to an account that plays
    // a rated game or one between two people elsewhere, nor to a guest; in a running
    // game against the computer (or an import) its player may ask, unless so barred
    const barred = me.user
      ? "no engine help while you play a rated game or a game between two people"
      : "log in for hints and analysis";
    const people = game.betweenPeople();
    this.helpLine.textContent = st.over
      ? `${st.rated ? "Rated" : "Casual"} · over: ${st.help ? "hints and analysis are open" : barred}`
      : st.rated
        ? "Rated · no engine help"
        : st.engine_help
          ? "Casual · engine help allowed for both players"
          : people
            ? "Casual · no engine help while it is played"
            : st.help
              ? "Casual · hints and analysis are open to its player"
              : game.mySides().length
                ? `Casual · ${barred}`
                : "Casual · hints and analysis for its player only";
    const tags = st.tags || {};
    const event = [tags.Event, tags.Site, tags.Date, tags.Round ? `round ${tags.Round}` : null]
      .filter(Boolean)
      .join(" · ");
    // a tournament's game links to its tournament
    replaceChildren(
      this.eventLine,
      st.tournament
        ? h(
            "a",
            { href: `#/tournament/${encodeURIComponent(st.tournament)}`, id: "event-link" },
            event,
          )
        : event,
    );
    const names = st.player_names || st.names;
    st.names.forEach((name, side) => {
      const card = this.cards[side];
      const toMove = !facts.over && facts.turn === side;
      card.classList.toggle("to-move", toMove);
      card.classList.toggle("winner", live && st.over && st.winner === side);
      const stats = [];
      if (board.hands)
        stats.push(
          h("span", { class: "stat", "data-stat": "hand" }, [
            h("b", { id: `hand${side}` }, String(board.hands[side])),
            st.game === "abande" ? " in hand" : " tiles",
          ]),
        );
      // a score means something while the game goes on or after it ended on score, not
      // after a resignation, a time forfeit or an agreed draw
      const early = live && st.over && st.termination !== "score";
      if (st.game === "abande" && board.score && !early)
        stats.push(
          h("span", { class: "stat", "data-stat": "score" }, [
            h("b", { id: `score${side}` }, String(board.score[side])),
            board.score[side] === 1 ? " point" : " points",
          ]),
        );
      const account = st.accounts ? st.accounts[side] : null;
      let kind = playerLabel(st.players[side]);
      if (st.mode === "server" && st.players[side] === "human")
        kind = account ? account + ((st.you || []).includes(side) ? " (you)" : "") : "open seat";
      const given = names[side];
      const own =
        given &&
        given !== "Person" &&
        given !== "You" &&
        given !== account &&
        given !== `hexgames ${st.players[side]}`;
      // an imported game's players are its record's: its names alone
      const player = st.imported && given ? given : own ? `${given} · ${kind}` : kind;
      replaceChildren(card, [
        h("span", { class: `swatch ${st.game}-side${side}`, "aria-hidden": "true" }),
        h("div", { class: "who" }, [
          h("div", { class: "side-name" }, name),
          h("div", { class: "player-kind", id: `account${side}` }, player),
          seatLine(st, side),
        ]),
        h("div", { class: "stats" }, stats),
        game.clock.element(side),
      ]);
    });
  }
}

/** The rating of a seat and whether its account's page is open (server mode), or null. */
function seatLine(st, side) {
  const rating = st.ratings ? st.ratings[side] : null;
  const online = st.online && st.accounts?.[side] ? st.online[side] : null;
  if (!rating && online === null) return null;
  return h("div", { class: "seat-line" }, [
    online === null
      ? null
      : h(
          "span",
          {
            class: `presence ${online ? "online" : "offline"}`,
            id: `online${side}`,
            "data-online": String(online),
            title: online ? "online: the page of the game is open" : "offline",
          },
          online ? "● online" : "○ offline",
        ),
    rating
      ? h(
          "span",
          { class: "rating", id: `rating${side}` },
          ` ${rating.rating}${rating.provisional ? "?" : ""}`,
        )
      : null,
  ]);
}
