// The game view's keys: the arrows, Home and End walk the moves and lines of the position
// on view, Escape puts back a piece picked up, B puts the focus on the board (whose arrow
// keys then move over its cells: board.js). The keys typed into a field are its own.

/** Whether a key event belongs to a field that takes text (the keys then are its own). */
function typing(target) {
  const tag = (target.tagName || "").toLowerCase();
  if (tag === "textarea" || tag === "select" || target.isContentEditable) return true;
  if (tag !== "input") return false;
  return !["checkbox", "radio", "button", "submit", "range"].includes(
    (target.type || "").toLowerCase(),
  );
}

export class Keyboard {
  /** Listens to the document's keys for `game` (a GameView) until destroy(). */
  constructor(game) {
    this.game = game;
    this.onKey = (e) => this.key(e);
    document.addEventListener("keydown", this.onKey);
  }

  destroy() {
    document.removeEventListener("keydown", this.onKey);
  }

  key(event) {
    const game = this.game;
    if (!game.state || event.altKey || event.ctrlKey || event.metaKey) return;
    if (typing(event.target)) return;
    const actions = {
      ArrowLeft: () => game.back(),
      ArrowRight: () => game.forward(),
      ArrowUp: () => game.sibling(-1),
      ArrowDown: () => game.sibling(1),
      Home: () => game.goTo([]),
      End: () => game.toEnd(),
      b: () => game.board.view.focusCursor(),
    };
    if (event.key === "Escape" && game.selected) {
      game.deselect();
      return;
    }
    const action = actions[event.key];
    if (action) {
      event.preventDefault();
      action();
    }
  }
}
