// The game view's study tools: the side line on view (promote, demote, delete, NAGs, a
// comment), the players' names, and sharing (the position string, a read-only link, a new
// game from the position on view). Methods of GameView.

import { showError, showNotice } from "./alerts.js";
import { api } from "./api.js";
import { h, replaceChildren } from "./dom.js";
import { privateStore, StudyTree, withoutPrefix } from "./tree.js";

export const studyMethods = {
  /** Promote, demote or delete the side line on view (private lines in the page). */
  editNode(action) {
    const line = this.shownLine();
    const node = this.tree.find(line);
    if (!node || !node.parent) return;
    if (node.private) {
      if (action === "delete") {
        this.privateLines = withoutPrefix(this.privateLines, line);
        privateStore.save(this.id, this.privateLines);
        this.tree = new StudyTree(this.state.tree, this.state.moves, this.privateLines);
        this.goTo(line.slice(0, -1));
      } else {
        showNotice("Your own lines keep their place; only the shared study's lines can be moved.");
      }
      return;
    }
    this.send({ type: "study", action, line });
    if (action === "delete") this.goTo(line.slice(0, -1));
  },

  toggleNag(n) {
    const node = this.tree.find(this.shownLine());
    if (!node || !node.parent || node.private) return;
    const glyphs = [1, 2, 3, 4, 5, 6];
    // one glyph at a time, as PGN editors do; other NAGs stay
    const nags = node.nags.includes(n)
      ? node.nags.filter((x) => x !== n)
      : [n, ...node.nags.filter((x) => !glyphs.includes(x))];
    this.send({ type: "study", action: "nags", line: node.line, nags });
  },

  saveComment() {
    const text = document.getElementById("comment-text").value;
    this.send({ type: "study", action: "comment", line: this.shownLine(), text });
  },

  editNames() {
    this.editingNames = true;
    const names = this.state.player_names || [];
    document.getElementById("name0").value = names[0] || "";
    document.getElementById("name1").value = names[1] || "";
    this.renderPanel();
    document.getElementById("name0").focus();
  },

  saveNames() {
    const names = [0, 1].map((side) => document.getElementById(`name${side}`).value);
    this.editingNames = false;
    this.send({ type: "names", names });
    this.renderPanel();
  },

  async copyText(text, what) {
    try {
      await navigator.clipboard.writeText(text);
      showNotice(`${what} copied.`);
    } catch {
      showNotice(`${what}: select it and copy it (the browser refused the clipboard).`);
    }
  },

  copyPosition() {
    const board = this.shownBoard();
    if (board?.position) this.copyText(board.position, "The position string");
  },

  /** A read-only link to the position on view (a side line: where it leaves the game). */
  linkPly() {
    const line = this.shownLine();
    let ply = 0;
    while (
      ply < line.length &&
      ply < this.state.moves.length &&
      line[ply] === this.state.moves[ply]
    )
      ply += 1;
    return ply;
  },

  copyLink() {
    const url = `${location.origin}${location.pathname}#/game/${encodeURIComponent(this.id)}?ply=${this.linkPly()}`;
    document.getElementById("position-text").dataset.link = url;
    this.copyText(url, "The link");
  },

  async openFromHere() {
    const st = this.state;
    let meta;
    try {
      meta = await api.meta();
    } catch (err) {
      showError(err.message);
      return;
    }
    const turn = this.shownFacts().turn;
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
  },

  async newGameFromHere() {
    const st = this.state;
    const board = this.shownBoard();
    const players = [0, 1].map((side) => document.getElementById(`from-player${side}`).value);
    try {
      const made = await api.create(st.game, st.rules, players, board.position);
      location.hash = `#/game/${encodeURIComponent(made.id)}`;
    } catch (err) {
      showError(err.message);
    }
  },

  /** The tools of the move on view: a side line's place, its NAGs and comment. */
  renderNodeTools() {
    const st = this.state;
    const line = this.shownLine();
    const node = this.tree.find(line);
    const onMain = this.tree.onMain(line);
    const editable = !!st.study && !this.readOnly;
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
    const start = this.tree.variationStart(line);
    const shared = !node.private && editable;
    const promote = document.getElementById("line-promote");
    const demote = document.getElementById("line-demote");
    const del = document.getElementById("line-delete");
    promote.hidden = demote.hidden = !shared || !start;
    del.hidden = onMain;
    if (start) {
      const index = start.parent.children.indexOf(start);
      promote.disabled = index === 1 && this.tree.onMain(start.parent.line);
      demote.disabled = index === start.parent.children.length - 1;
    }
    document.getElementById("nag-buttons").hidden = !shared;
    for (const n of [1, 2, 3, 4, 5, 6])
      document
        .getElementById(`nag-${n}`)
        .setAttribute("aria-pressed", String(node.nags.includes(n)));
    const comment = document.getElementById("comment-text");
    comment.closest("form").hidden = !shared;
    if (document.activeElement !== comment) comment.value = node.comment || "";
  },
};
