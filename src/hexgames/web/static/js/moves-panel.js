// The game view's moves: the buttons that walk the moves (first, back, forward, end of the
// line) and the move list with its side lines (movelist.js), each move showing its cells
// on the board while the pointer is on it.

import { button, h, icon } from "./dom.js";
import { splitMove } from "./hex.js";
import { renderMoveList } from "./movelist.js";
import { sameLine } from "./tree.js";

export class MovesPanel {
  /** game: the GameView whose moves this lists. */
  constructor(game) {
    this.game = game;
    this.list = h("ol", { class: "move-list", id: "moves", "aria-label": "Moves" });
    this.buttons = {
      first: button("nav-first", icon("M5 4h2v16H5zM19 4v16L8 12z"), "First position (Home)", () =>
        game.goTo([]),
      ),
      back: button("nav-back", icon("M17 4v16L6 12z"), "Back one move (Left arrow)", () =>
        game.back(),
      ),
      forward: button("nav-forward", icon("M7 4v16l11-8z"), "Forward one move (Right arrow)", () =>
        game.forward(),
      ),
      last: button("nav-last", icon("M17 4h2v16h-2zM5 4v16l11-8z"), "End of the line (End)", () =>
        game.toEnd(),
      ),
    };
    this.nav = h("div", { class: "nav" }, Object.values(this.buttons));
  }

  render() {
    const game = this.game;
    const st = game.state;
    if (!st) return;
    renderMoveList(this.list, game.tree, {
      current: game.shownLine(),
      firstTurn: st.first_turn || 0,
      sides: st.names,
      onSelect: (line) => game.goTo(line),
      onHover: (line) => this.preview(line),
    });
    this.renderNav();
  }

  renderNav() {
    const game = this.game;
    const moves = game.state.moves;
    const line = game.shownLine();
    const node = game.tree.find(line);
    const offline = !game.connected;
    const atEnd = game.tree.onMain(line)
      ? sameLine(line, moves) && game.isLive()
      : !node?.children.length;
    this.buttons.first.disabled = line.length === 0 || offline;
    this.buttons.back.disabled = line.length === 0 || offline;
    this.buttons.forward.disabled =
      !node?.children.length || (offline && !sameLine([...line, node.children[0].move], moves));
    this.buttons.last.disabled = atEnd;
  }

  /** Show the cells of a move of the list on the board while the pointer is on it. */
  preview(line) {
    const board = this.game.board;
    if (!line || !line.length) {
      board.preview([]);
      return;
    }
    const move = line[line.length - 1];
    if (move === "pass") return;
    board.preview(splitMove(this.game.state.game, move) || [move]);
  }
}
