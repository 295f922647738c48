// The game view's study tools: the side line on view (promote, demote, delete, NAGs, a
// comment), the players' names, and sharing (the position string, a read-only link, a new
// game from the position on view). What the page may edit follows the state (study,
// can_name); the server decides.

import { showError, showNotice } from "./alerts.js";
import { api } from "./api.js";
import { actionForm, button, h, replaceChildren } from "./dom.js";
import { NAG_GLYPHS } from "./tree.js";

/** The NAGs with a button: !, ?, !!, ??, !?, ?!. */
const GLYPHS = [1, 2, 3, 4, 5, 6];

export class StudyPanel {
  /** game: the GameView whose study record this edits. */
  constructor(game) {
    this.game = game;
    this.editingNames = false;
    this.namesButton = button(
      "edit-names",
      "Names",
      "Enter the players' names",
      () => this.editNames(),
      { class: "small subtle", hidden: true },
    );
    this.namesRow = h("div", { class: "row names-row" }, [this.namesButton]);
    this.namesForm = actionForm(
      { class: "names-form", id: "names-form", hidden: true },
      () => this.saveNames(),
      [
        h("input", {
          type: "text",
          id: "name0",
          maxlength: 100,
          "aria-label": "First player's name",
        }),
        h("input", {
          type: "text",
          id: "name1",
          maxlength: 100,
          "aria-label": "Second player's name",
        }),
        h("div", { class: "row" }, [
          h("button", { type: "submit", id: "names-save", class: "small primary" }, "Save names"),
          button("names-cancel", "Cancel", "Keep the names", () => this.cancelNames(), {
            class: "small",
          }),
        ]),
      ],
    );
    // what may be done with the move on view: a side line's place, its comment and NAGs
    this.nodeTools = h("div", { class: "node-tools", id: "node-tools", hidden: true }, [
      h("div", { class: "row" }, [
        button(
          "line-promote",
          "Promote",
          "Move this side line up",
          () => this.editNode("promote"),
          {
            class: "small",
          },
        ),
        button("line-demote", "Demote", "Move this side line down", () => this.editNode("demote"), {
          class: "small",
        }),
        button(
          "line-first",
          "Make main line",
          "Make this side line the main continuation of its position",
          () => this.editNode("first"),
          { class: "small" },
        ),
        button(
          "line-delete",
          "Delete",
          "Delete this move and the rest of its line",
          () => this.editNode("delete"),
          { class: "small danger-text" },
        ),
      ]),
      h(
        "div",
        { class: "row nag-row", id: "nag-buttons" },
        GLYPHS.map((n) =>
          button(
            `nag-${n}`,
            NAG_GLYPHS[n],
            `Mark the move ${NAG_GLYPHS[n]}`,
            () => this.toggleNag(n),
            {
              class: "small nag-button",
              "aria-pressed": "false",
            },
          ),
        ),
      ),
      actionForm({ class: "comment-form" }, () => this.saveComment(), [
        h("textarea", {
          id: "comment-text",
          rows: 2,
          maxlength: 2000,
          placeholder: "A comment on this move",
          "aria-label": "Comment",
        }),
        h("button", { type: "submit", id: "comment-save", class: "small" }, "Save comment"),
      ]),
    ]);
    this.lineNote = h("div", { class: "line-note", id: "line-note", hidden: true });
    this.positionField = h("input", {
      type: "text",
      id: "position-text",
      readonly: true,
      "aria-label": "Position string of the position on view",
      onfocus: (e) => e.target.select(),
    });
    this.fromHere = actionForm(
      { class: "from-here", id: "from-here", hidden: true },
      () => this.newGameFromHere(),
      [
        h(
          "div",
          { class: "row" },
          [0, 1].map((side) =>
            h("select", { id: `from-player${side}`, "aria-label": `Who plays side ${side + 1}` }),
          ),
        ),
        h("div", { class: "row" }, [
          h("button", { type: "submit", id: "from-here-start", class: "small primary" }, "Start"),
          button("from-here-cancel", "Cancel", "Do not start a game", () => this.closeFromHere(), {
            class: "small",
          }),
        ]),
      ],
    );
    this.shareSection = h("section", { class: "panel-section share" }, [
      h("div", { class: "row share-row" }, [
        this.positionField,
        button(
          "copy-position",
          "Copy position",
          "Copy the position string of the position on view",
          () => this.copyPosition(),
          { class: "small" },
        ),
      ]),
      h("div", { class: "row" }, [
        button(
          "copy-link",
          "Copy link",
          "Copy a read-only link to this position of the game",
          () => this.copyLink(),
          { class: "small" },
        ),
        button(
          "new-from-here",
          "New game from here",
          "Start a new game from the position on view",
          () => this.openFromHere(),
          { class: "small" },
        ),
      ]),
      this.fromHere,
    ]);
  }

  // ---- the move on view ----------------------------------------------------------------

  /** Promote, demote or delete the side line on view (private lines in the page). */
  editNode(action) {
    const game = this.game;
    const line = game.shownLine();
    const node = game.tree.find(line);
    if (!node || !node.parent) return;
    if (node.private) {
      if (action === "delete") {
        game.forgetPrivateLine(line);
        game.goTo(line.slice(0, -1));
      } else {
        showNotice("Your own lines keep their place; only the shared study's lines can be moved.");
      }
      return;
    }
    game.send({ type: "study", action, line });
    if (action === "delete") game.goTo(line.slice(0, -1));
  }

  toggleNag(n) {
    const node = this.game.tree.find(this.game.shownLine());
    if (!node || !node.parent || node.private) return;
    // one glyph at a time, as PGN editors do; other NAGs stay
    const nags = node.nags.includes(n)
      ? node.nags.filter((x) => x !== n)
      : [n, ...node.nags.filter((x) => !GLYPHS.includes(x))];
    this.game.send({ type: "study", action: "nags", line: node.line, nags });
  }

  saveComment() {
    const text = document.getElementById("comment-text").value;
    this.game.send({ type: "study", action: "comment", line: this.game.shownLine(), text });
  }

  // ---- the players' names --------------------------------------------------------------

  editNames() {
    this.editingNames = true;
    const names = this.game.state.player_names || [];
    document.getElementById("name0").value = names[0] || "";
    document.getElementById("name1").value = names[1] || "";
    this.game.renderPanel();
    document.getElementById("name0").focus();
  }

  cancelNames() {
    this.editingNames = false;
    this.game.renderPanel();
  }

  saveNames() {
    const names = [0, 1].map((side) => document.getElementById(`name${side}`).value);
    this.editingNames = false;
    this.game.send({ type: "names", names });
    this.game.renderPanel();
  }

  // ---- sharing -------------------------------------------------------------------------

  async copyText(text, what) {
    try {
      await navigator.clipboard.writeText(text);
      showNotice(`${what} copied.`);
    } catch {
      showNotice(`${what}: select it and copy it (the browser refused the clipboard).`);
    }
  }

  copyPosition() {
    const board = this.game.shownBoard();
    if (board?.position) this.copyText(board.position, "The position string");
  }

  /** A read-only link to the position on view (a side line: where it leaves the game). */
  linkPly() {
    const line = this.game.shownLine();
    const moves = this.game.state.moves;
    let ply = 0;
    while (ply < line.length && ply < moves.length && line[ply] === moves[ply]) ply += 1;
    return ply;
  }

  copyLink() {
    const url = `${location.origin}${location.pathname}#/game/${encodeURIComponent(this.game.id)}?ply=${this.linkPly()}`;
    document.getElementById("position-text").dataset.link = url;
    this.copyText(url, "The link");
  }

  async openFromHere() {
    const game = this.game;
    const st = game.state;
    let meta;
    try {
      meta = await api.meta();
    } catch (err) {
      showError(err.message);
      return;
    }
    const turn = game.shownFacts().turn;
    [0, 1].forEach((side) => {
      const select = document.getElementById(`from-player${side}`);
      const options = [
        h("option", { value: "human" }, `${st.names[side]}: Person`),
        ...(meta.levels || []).map((lv) =>
          h("option", { value: lv.name }, `${st.names[side]}: Computer · ${lv.name}`),
        ),
      ];
      replaceChildren(select, options);
      select.value =
        side === turn || (st.mode !== "server" && st.players[side] === "human")
          ? "human"
          : (meta.levels[1] || meta.levels[0] || { name: "human" }).name;
    });
    this.fromHere.hidden = false;
  }

  closeFromHere() {
    this.fromHere.hidden = true;
  }

  async newGameFromHere() {
    const st = this.game.state;
    const board = this.game.shownBoard();
    const players = [0, 1].map((side) => document.getElementById(`from-player${side}`).value);
    try {
      const made = await api.create(st.game, st.rules, players, board.position);
      location.hash = `#/game/${encodeURIComponent(made.id)}`;
    } catch (err) {
      showError(err.message);
    }
  }

  // ---- drawing -------------------------------------------------------------------------

  /** The names button and form, and the position string of the position on view. */
  render() {
    const game = this.game;
    const st = game.state;
    this.namesButton.hidden = !st.can_name || game.readOnly || this.editingNames;
    this.namesForm.hidden = !this.editingNames;
    this.positionField.value = game.shownBoard().position || "";
  }

  /** The tools of the move on view: a side line's place, its NAGs and comment. */
  renderNodeTools() {
    const game = this.game;
    const st = game.state;
    const tree = game.tree;
    const line = game.shownLine();
    const node = tree.find(line);
    const onMain = tree.onMain(line);
    const editable = !!st.study && !game.readOnly;
    const show = !!node && !!node.parent && (editable || node.private);
    this.nodeTools.hidden = !show;
    this.lineNote.hidden = true;
    if (node?.private) {
      this.lineNote.hidden = false;
      this.lineNote.textContent =
        "Your own line: it stays in this page and is not saved with the game.";
    } else if (!editable && !onMain && node) {
      this.lineNote.hidden = false;
      this.lineNote.textContent = "A line of the game's study.";
    }
    if (!show) return;
    const start = tree.variationStart(line);
    const shared = !node.private && editable;
    const promote = document.getElementById("line-promote");
    const demote = document.getElementById("line-demote");
    const first = document.getElementById("line-first");
    const del = document.getElementById("line-delete");
    promote.hidden = demote.hidden = first.hidden = !shared || !start;
    del.hidden = onMain;
    if (start) {
      const index = start.parent.children.indexOf(start);
      promote.disabled = index === 1 && tree.onMain(start.parent.line);
      first.disabled = promote.disabled || index === 0;
      demote.disabled = index === start.parent.children.length - 1;
    }
    document.getElementById("nag-buttons").hidden = !shared;
    for (const n of GLYPHS)
      document
        .getElementById(`nag-${n}`)
        .setAttribute("aria-pressed", String(node.nags.includes(n)));
    const comment = document.getElementById("comment-text");
    comment.closest("form").hidden = !shared;
    if (document.activeElement !== comment) comment.value = node.comment || "";
  }
}
