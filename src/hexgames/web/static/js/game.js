// The game view: the controller of one game's page. It holds the game's WebSocket, the
// server's last state, the position on view and the study tree, acts on the server's
// messages and on the page's moves, and draws through the panels it holds, each a class of
// its own module: the board (board-panel.js), the players (players-panel.js), the status
// (status-panel.js), the clocks (clock-panel.js), the AI's thinking (thinking-panel.js),
// the engine's help (analysis-panel.js), the moves (moves-panel.js), the study tools
// (study-panel.js), the actions and offers (actions-panel.js) and the keys (keyboard.js).
//
// The page shows one position at a time: the game's current one ("live"), or any
// other named by its line (the moves from the start): an earlier position of the game
// or a position of a side line. Everything on the page follows the position on view:
// the board, the panel's hands and points, the analysis (the server analyses the
// position the page shows) and the legal moves. A move played from a position that is
// not the live one makes a side line, never a move of the game: in the game's shared
// study when this page may edit it (state.study), else in the page's own private copy.
// The server decides who may do what; the page only follows its state.

import { AccuracyLine } from "./accuracy.js";
import { ActionsPanel } from "./actions-panel.js";
import { clearAlert, showError, showNotice } from "./alerts.js";
import { AnalysisPanel } from "./analysis-panel.js";
import { GameSocket } from "./api.js";
import { parseMarks, toggleMark } from "./arrows.js";
import { Announcer } from "./board-a11y.js";
import { BoardPanel } from "./board-panel.js";
import { ChatPanel } from "./chat.js";
import { ClockPanel } from "./clock-panel.js";
import { h, replaceChildren } from "./dom.js";
import { ExplorerPanel } from "./explorer-panel.js";
import { GAME_TITLES, playerLabel, resultText } from "./format.js";
import { joinMove, NEIGHBOURS, splitMove } from "./hex.js";
import { Keyboard } from "./keyboard.js";
import { LivePanel } from "./live-panel.js";
import { MovesPanel } from "./moves-panel.js";
import { notifyTurn, pollNow, setTitle } from "./notify.js";
import { PlayersPanel } from "./players-panel.js";
import { endSound, lowTimeSound, moveSound } from "./sounds.js";
import { StatusPanel } from "./status-panel.js";
import { StudyPanel } from "./study-panel.js";
import { ThinkingPanel } from "./thinking-panel.js";
import { isPrefix, lineKey, privateStore, StudyTree, sameLine, withoutPrefix } from "./tree.js";

/** Views of positions kept by the page (a position's board never changes). */
const VIEW_CACHE = 400;
/** Target lists kept by the page: where one piece of one position may go. */
const TARGETS_CACHE = 400;

export class GameView {
  /** options.ply: open read-only at that ply of the game (a shared link). */
  constructor(root, id, options = {}) {
    this.root = root;
    this.id = id;
    this.state = null;
    this.path = null; // the line on view; null: the game's current position, whatever it becomes
    this.views = new Map(); // lineKey -> view message
    this.waitingFor = null; // the lineKey of the view asked for last
    // where a piece may go, asked of the server one piece at a time (a position's list
    // of every relocation grows with its square): "position|from" -> cells
    this.targets = new Map();
    this.targetsAsked = null; // the key of the targets asked for last
    this.pendingClick = null; // a click on a target before the targets came
    this.readOnly = options.ply !== undefined && options.ply !== null;
    this.openAt = this.readOnly ? Number(options.ply) : null;
    this.privateLines = privateStore.load(id);
    this.tree = new StudyTree(null, []);
    this.selected = null;
    this.wasClosed = false;
    this.connected = false;
    this.gone = false;
    this.lastError = null;
    this.movePending = false;
    this.lastBoard = null;
    this.board = new BoardPanel(this);
    this.players = new PlayersPanel(this);
    this.status = new StatusPanel(this);
    this.clock = new ClockPanel(this);
    this.thinking = new ThinkingPanel(this);
    this.analysis = new AnalysisPanel(this);
    this.moves = new MovesPanel(this);
    this.study = new StudyPanel(this);
    this.explorer = new ExplorerPanel(this);
    this.announcer = new Announcer(this);
    this.accuracy = new AccuracyLine(this);
    this.analysis.wholeSection.append(this.accuracy.element);
    this.actions = new ActionsPanel(this);
    this.live = new LivePanel(this);
    this.chat = new ChatPanel(this);
    this.aborted = null; // the server's word when the game was aborted
    this.lowWarned = null; // the ply whose low time was sounded
    this.build();
    this.socket = new GameSocket(
      id,
      (msg) => this.message(msg),
      (status) => this.connection(status),
    );
    this.keyboard = new Keyboard(this);
    this.ticker = setInterval(() => this.tick(), 200);
  }

  destroy() {
    this.socket.close();
    this.keyboard.destroy();
    this.actions.destroy();
    clearInterval(this.ticker);
  }

  /** The page: the stage (the board) beside the side panel. */
  build() {
    const board = this.board;
    // one line of fixed height above the board for the result, a standing offer or its
    // answer: whichever shows, the board does not move and no control is covered
    const note = h("div", { class: "stage-note", id: "stage-note" }, [
      board.banner,
      this.actions.offerBox,
      this.actions.offerNote,
    ]);
    const stage = h("section", { class: "stage" }, [
      board.toolbar,
      this.status.mini,
      note,
      board.wrap,
      board.reviewBar,
      this.announcer.element,
    ]);
    const panel = h("aside", { class: "panel" }, [
      this.players.head,
      this.players.eventLine,
      this.players.players,
      this.study.namesRow,
      this.study.namesForm,
      this.status.line,
      this.status.single,
      this.live.bars,
      this.status.legend,
      this.status.passButton,
      this.thinking.element,
      this.analysis.engineSection,
      this.analysis.wholeSection,
      this.explorer.element,
      h("section", { class: "panel-section moves-section" }, [
        this.moves.nav,
        this.moves.list,
        this.study.lineNote,
        this.study.nodeTools,
      ]),
      this.live.buttons,
      this.actions.element,
      this.chat.element,
      this.live.prefsRow,
      this.study.shareSection,
    ]);
    this.element = h(
      "div",
      {
        class: "game-view",
        id: "game-view",
        "data-game-id": this.id,
        "data-read-only": String(this.readOnly),
      },
      [stage, panel],
    );
    replaceChildren(this.root, this.element);
  }

  // ---- messages from the server --------------------------------------------------------

  connection(status) {
    this.board.connection(status);
    const open = status === "open";
    this.thinking.connection(open, this.connected);
    this.chat.connection(open);
    this.connected = open;
    if (status === "closed") {
      this.wasClosed = true;
      this.movePending = false;
      this.analysis.dropHint();
      this.selected = null;
      this.targetsAsked = null;
    }
    if (open && this.wasClosed) {
      this.analysis.reconnected();
      if (this.path !== null) this.requestView(this.path);
    }
    if (status === "login") {
      location.hash = `#/login?next=${encodeURIComponent(`#/game/${this.id}`)}`;
      return;
    }
    if (status === "gone") {
      this.gone = true;
      const why = this.aborted || this.lastError || `There is no game ${this.id} on this server.`;
      if (this.aborted) showNotice(why);
      else showError(why);
      replaceChildren(
        this.root,
        h("section", { class: "card gone-card", id: "game-gone", "data-game-id": this.id }, [
          h("h2", {}, this.aborted ? "This game was aborted" : "This game cannot be opened"),
          h("p", { id: "gone-message" }, why),
          h("a", { class: "button primary", href: "#/" }, "Back to your games"),
        ]),
      );
      return;
    }
    this.analysis.sync();
    this.render();
  }

  message(msg) {
    switch (msg.type) {
      case "state":
        this.gotState(msg);
        break;
      case "view": {
        const key = lineKey(msg.line || []);
        this.views.set(key, msg);
        if (this.views.size > VIEW_CACHE) this.views.delete(this.views.keys().next().value);
        if (this.waitingFor === key) this.waitingFor = null;
        if (this.path !== null && lineKey(this.path) === key) this.render();
        break;
      }
      case "targets":
        this.gotTargets(msg);
        break;
      case "thinking":
        this.thinking.got(msg);
        this.thinking.render();
        if (this.analysis.on) this.analysis.render();
        break;
      case "ai_move":
        this.thinking.stopped();
        break;
      case "offer":
        this.actions.gotOffer(msg);
        break;
      case "offer_declined":
        this.actions.gotDeclined(msg);
        break;
      case "aborted":
        this.aborted = msg.by
          ? msg.message
          : "The first move was not made in time: the game was aborted.";
        break;
      case "rematch_offer":
        if (!this.mySides().includes(msg.side) && this.mySides().length)
          showNotice("Your opponent offers a rematch.");
        break;
      case "rematch_declined":
        if (this.mySides().length) showNotice("The rematch was declined.");
        break;
      case "rematch":
        this.live.gotRematch(msg);
        break;
      case "premove":
        this.live.gotPremove(msg);
        break;
      case "presence":
        if (this.state) this.state.online = msg.online;
        this.renderPanel();
        break;
      case "chat":
        this.chat.gotMessage(msg);
        break;
      case "chat_history":
        this.chat.gotHistory(msg);
        break;
      case "hint":
        if (this.analysis.gotHint(msg)) this.render();
        break;
      case "analysis":
        this.analysis.gotAnalysis(msg);
        // the best move's arrow follows the analysis
        if (this.state && this.bestMove(this.shownBoard()) !== this.drawnBest) this.render();
        break;
      case "game_analysis":
        this.analysis.gotGameAnalysis(msg);
        this.accuracy.render();
        break;
      case "error":
        this.lastError = msg.message;
        this.movePending = false;
        this.analysis.dropHint();
        this.selected = null;
        this.targetsAsked = null;
        showError(msg.message);
        if (this.state) {
          // a side line the server refused: the tree as the server has it
          this.tree = new StudyTree(this.state.tree, this.state.moves, this.privateLines);
          if (this.path !== null && !this.tree.find(this.path)) {
            let line = this.path.slice();
            while (line.length && !this.tree.find(line)) line = line.slice(0, -1);
            this.goTo(line);
            return;
          }
        }
        this.render();
        break;
      default:
        break;
    }
  }

  gotState(msg) {
    this.movePending = false;
    this.clock.gotState();
    const before = this.state;
    const changed =
      !before ||
      before.ply !== msg.ply ||
      before.moves.join(" ") !== msg.moves.join(" ") ||
      before.over !== msg.over;
    const first = !before;
    if (before && msg.ply > before.ply && msg.moves.length)
      moveSound(this.mySides().includes((msg.first_turn + msg.ply - 1) % 2));
    if (before && !before.over && msg.over) endSound();
    this.state = msg;
    this.chat.gotState(msg);
    this.tree = new StudyTree(msg.tree, msg.moves, this.privateLines);
    if (changed) this.selected = null;
    this.actions.gotState(changed, first);
    if (!msg.thinking) this.thinking.stopped();
    this.analysis.gotState(msg, changed);
    if (first) {
      this.board.firstState(msg);
      if (this.readOnly) this.goTo(msg.moves.slice(0, Math.max(0, Math.min(msg.ply, this.openAt))));
    }
    // a line on view that the game or the study no longer has: back to the game
    if (this.path !== null && !this.tree.find(this.path)) {
      this.path = isPrefix(this.path, msg.moves) ? this.path : null;
    }
    if (this.path !== null && sameLine(this.path, msg.moves) && !this.readOnly) this.path = null;
    const yours = this.humanToMove(msg);
    setTitle(`${GAME_TITLES[msg.game] || msg.game} · hexgames`, yours && msg.mode === "server");
    if (yours && msg.mode === "server")
      notifyTurn(msg.id, msg.ply, `${GAME_TITLES[msg.game]}: your move`);
    if (changed && msg.mode === "server") pollNow();
    this.analysis.sync();
    this.render();
  }

  // ---- the position on view ------------------------------------------------------------

  /** The line on view (the game's moves when live). */
  shownLine() {
    return this.path === null ? this.state.moves : this.path;
  }

  isLive() {
    return (
      this.path === null || (this.state && sameLine(this.path, this.state.moves) && !this.readOnly)
    );
  }

  /** The view message of the position on view, or null while it is on its way. */
  shownView() {
    if (!this.state) return null;
    if (this.isLive()) return null;
    return this.views.get(lineKey(this.path)) || null;
  }

  /** The BOARD on view (the last one shown while the next is on its way). */
  shownBoard() {
    if (!this.state) return null;
    if (this.isLive()) return this.state.board;
    const view = this.shownView();
    return view ? view.board : this.lastBoard || this.state.board;
  }

  /** {turn, over, legal, sources, result, termination, winner, live} of the position on
   * view (loading: while its view is on its way): legal, the moves that move no piece;
   * sources, the pieces a move may move. */
  shownFacts() {
    const st = this.state;
    const live = this.isLive();
    const view = live ? st : this.shownView();
    if (!view)
      return {
        ...positionFacts({
          turn: st.turn,
          over: false,
          result: "*",
          termination: null,
          winner: null,
        }),
        live: false,
        loading: true,
      };
    return { ...positionFacts(view), live };
  }

  /** "12. 0,1" or "12… 1,1": the move that led to a line's position. */
  moveName(line) {
    if (!line.length) return "the start";
    const i = line.length - 1;
    const first = this.state.first_turn || 0;
    const index = first + i;
    const number = Math.floor(index / 2) + 1;
    return `${number}${index % 2 ? "…" : "."} ${line[i]}`;
  }

  /** Whether a person this page plays for is to move in the live game (st: a state). */
  humanToMove(st = this.state) {
    if (!st || st.over || st.players[st.turn] !== "human") return false;
    return st.mode !== "server" || (st.you || []).includes(st.turn);
  }

  /** Whether the game is one between two people: no AI in it, and not an import. */
  betweenPeople(st = this.state) {
    return !!st && st.players.every((player) => player === "human") && !st.imported;
  }

  /** The sides this page plays: its account's in the server mode, else the people's. */
  mySides() {
    const st = this.state;
    if (!st) return [];
    if (st.mode === "server") return st.you || [];
    return [0, 1].filter((side) => st.players[side] === "human");
  }

  /** The moves of the position on view: singles, the cells a click plays (placements,
   * entries); sources, the pieces a click picks up. */
  legalParts() {
    const facts = this.shownFacts();
    return { singles: facts.legal.filter((move) => move !== "pass"), sources: facts.sources };
  }

  /** How a click on the board acts now: "game" (a move of the game), "line" (a side
   * line), or a notice why nothing can be played. */
  clickMode() {
    const st = this.state;
    if (this.readOnly)
      return {
        notice: "This is a read-only link: press “Back to the game” to play or study.",
      };
    const facts = this.shownFacts();
    if (facts.loading) return { notice: "The position is on its way from the server." };
    if (facts.live) {
      if (st.over)
        return {
          notice: `The game is over: ${resultText(st.result, st.termination, st.names)}. Go back to a move to try other lines.`,
        };
      if (this.humanToMove() && !st.thinking) return { mode: "game" };
      // the game's next move is its player's: side lines leave earlier positions
      return {
        notice: `Please wait: ${st.names[st.turn]} (${playerLabel(st.players[st.turn])}) is to move. To try other moves, go back to an earlier position.`,
      };
    }
    if (facts.over) return { notice: "The game is over in this position." };
    return { mode: "line" };
  }

  // ---- where a piece may go, one piece at a time ----------------------------------------

  targetsKey(from) {
    const board = this.shownBoard();
    return `${board ? board.position : ""}|${from}`;
  }

  /** The cells the piece on `from` may go to in the position on view, or null while
   * they are on their way (asked for here). */
  targetsOf(from) {
    const key = this.targetsKey(from);
    const known = this.targets.get(key);
    if (known) return known;
    if (this.targetsAsked !== key) {
      this.targetsAsked = key;
      const msg = { type: "targets", from };
      if (!this.isLive()) msg.line = this.path;
      this.socket.send(msg);
    }
    return null;
  }

  gotTargets(msg) {
    const key = `${msg.position}|${msg.from}`;
    this.targets.set(key, msg.targets);
    if (this.targets.size > TARGETS_CACHE) this.targets.delete(this.targets.keys().next().value);
    if (this.targetsAsked === key) this.targetsAsked = null;
    if (!this.state || this.selected !== msg.from || this.targetsKey(msg.from) !== key) return;
    const click = this.pendingClick;
    this.pendingClick = null;
    if (click)
      this.cellClicked(click); // the click made before they came
    else this.render();
  }

  /** Pick up the piece on `cell`: its targets are shown once known. */
  select(cell) {
    this.selected = cell;
    this.pendingClick = null;
    this.targetsOf(cell);
    this.render();
  }

  /** Put back the piece picked up. */
  deselect() {
    this.selected = null;
    this.render();
  }

  // ---- moving through the moves and lines ---------------------------------------------

  requestView(line) {
    const key = lineKey(line);
    this.waitingFor = key;
    this.socket.send({ type: "view", line });
  }

  /** Show the position of `line` (the live position when it is the game's moves). */
  goTo(line) {
    const st = this.state;
    if (!st) return;
    this.selected = null;
    const board = this.shownBoard();
    if (board) this.lastBoard = board;
    if (sameLine(line, st.moves) && !this.readOnly) {
      this.path = null;
    } else {
      this.path = line.slice();
      if (!this.views.has(lineKey(line))) this.requestView(line);
    }
    this.analysis.sync();
    this.render();
  }

  goLive() {
    if (this.readOnly) {
      this.readOnly = false;
      this.element.dataset.readOnly = "false";
      history.replaceState(null, "", `#/game/${encodeURIComponent(this.id)}`);
    }
    this.goTo(this.state.moves);
  }

  back() {
    const line = this.shownLine();
    if (line.length) this.goTo(line.slice(0, -1));
  }

  forward() {
    const node = this.tree.find(this.shownLine());
    if (node?.children.length) this.goTo(node.children[0].line);
  }

  toEnd() {
    const line = this.shownLine();
    if (this.tree.onMain(line)) this.goTo(this.state.moves);
    else this.goTo(this.tree.endOf(line));
  }

  /** The sibling line before (-1) or after (+1) the move on view. */
  sibling(step) {
    const node = this.tree.find(this.shownLine());
    if (!node || !node.parent) return;
    const list = node.parent.children;
    const next = list[list.indexOf(node) + step];
    if (next) this.goTo(next.line);
  }

  // ---- actions -----------------------------------------------------------------------

  /** Send `msg` to the server (an error is shown when the connection is lost). */
  send(msg) {
    clearAlert();
    if (!this.socket.send(msg))
      showError("Not connected to the server: the action was not sent. Reconnecting…");
  }

  /** Play `move` (text) as the game's next move (held for Confirm when the page asks
   * for it in correspondence games). */
  play(move) {
    if (this.live.wantsConfirm()) {
      this.selected = null;
      this.live.hold(move);
      return;
    }
    this.sendMove(move);
  }

  /** Send `move` as the game's next move. */
  sendMove(move) {
    this.selected = null;
    this.movePending = this.socket.send({ type: "move", move, ply: this.state.ply });
    clearAlert();
    if (!this.movePending)
      showError("Not connected to the server: the move was not sent. Reconnecting…");
  }

  /** A move from a position that is not the live one: a side line, shared or private. */
  playSideLine(move) {
    const line = [...this.shownLine(), move];
    this.selected = null;
    if (this.state.study && !this.readOnly) {
      if (!this.tree.find(line)) {
        this.send({ type: "study", action: "add", line });
        this.tree.addLine(line, false); // until the server's state has it
      }
    } else {
      this.privateLines = withoutPrefix(this.privateLines, line).concat([line]);
      privateStore.save(this.id, this.privateLines);
      this.tree.addPrivate(line);
    }
    this.goTo(line);
  }

  /** Delete the page's private line `line` and what follows it. */
  forgetPrivateLine(line) {
    this.privateLines = withoutPrefix(this.privateLines, line);
    privateStore.save(this.id, this.privateLines);
    this.tree = new StudyTree(this.state.tree, this.state.moves, this.privateLines);
  }

  cellClicked(cell) {
    const st = this.state;
    if (!st || this.movePending) return;
    if (!this.connected) {
      showNotice("Not connected to the server: wait until the connection is back.");
      return;
    }
    const how = this.clickMode();
    if (how.notice && this.isLive() && this.live.canPremove()) {
      this.live.premove(cell); // queued: played when the opponent has moved, if legal
      return;
    }
    if (how.notice) {
      showNotice(how.notice);
      return;
    }
    const { singles, sources } = this.legalParts();
    const act = (move) => (how.mode === "game" ? this.play(move) : this.playSideLine(move));
    if (this.selected) {
      const from = this.selected;
      if (cell === from) {
        this.deselect();
        return;
      }
      const targets = this.targetsOf(from);
      if (targets === null) {
        this.pendingClick = cell; // answered when the targets come
        return;
      }
      if (targets.includes(cell)) {
        act(joinMove(st.game, from, cell));
        return;
      }
      if (sources.includes(cell)) {
        this.select(cell);
        return;
      }
      this.deselect();
      const what =
        st.game === "abande"
          ? `The stack on ${from} cannot move to ${cell}`
          : `The tile on ${from} cannot go to ${cell}`;
      showNotice(`${what}: choose again.`);
      return;
    }
    if (singles.includes(cell)) {
      act(cell);
      return;
    }
    if (sources.includes(cell)) {
      this.select(cell);
      return;
    }
    if (how.mode === "game")
      this.play(cell); // not legal: the server's error says why
    else showNotice(`${cell} is not a legal move in this position.`);
  }

  /** The comment of the node of the position on view (the start's: the record's first). */
  shownComment() {
    const line = this.shownLine();
    if (!line.length) return this.tree.root.comment;
    return this.tree.find(line)?.comment ?? null;
  }

  /** A right click (circle, `to` null) or drag (arrow) on the board: the mark is drawn
   * or taken away in the study of the position on view (a move's comment, docs/records.md). */
  cellMarked(from, to, color) {
    const st = this.state;
    if (!st) return;
    if (!st.study || this.readOnly) {
      showNotice(
        "Arrows and circles are kept in the game's study: only its players may draw them.",
      );
      return;
    }
    const line = this.shownLine();
    if (line.length && !this.tree.find(line)) return;
    const { marks } = parseMarks(this.shownComment(), st.game);
    const changed = toggleMark(marks, { color, cell: from, to });
    this.send({ type: "study", action: "marks", line, marks: changed });
  }

  passClicked() {
    const how = this.clickMode();
    if (how.notice) showNotice(how.notice);
    else if (how.mode === "line") this.playSideLine("pass");
    else this.play("pass");
  }

  /** A move typed into the move box (`text`, trimmed); whether it was taken (else it
   * stays in the box: nothing may be played now). */
  typedMove(text) {
    if (!text || !this.state) return false;
    const how = this.clickMode();
    if (how.notice) {
      showNotice(how.notice);
      return false;
    }
    const wanted = text
      .toLowerCase()
      .replace(/\s+/g, "")
      .replace(/^\((.*)\)$/, "$1");
    const facts = this.shownFacts();
    const legal = facts.legal.find((m) => m.toLowerCase() === wanted);
    const pair = splitMove(this.state.game, wanted);
    if (how.mode === "game") this.play(legal || text);
    else if (legal) this.playSideLine(legal);
    else if (pair && facts.sources.includes(pair[0])) {
      // a side line's relocation or capture: played as the two clicks, once its
      // piece's targets say it is legal
      this.select(pair[0]);
      this.cellClicked(pair[1]);
    } else showError(`${text} is not a legal move in this position.`);
    return true;
  }

  tick() {
    this.clock.render();
    this.thinking.tick();
    const st = this.state;
    if (st?.clock && !st.over && this.mySides().includes(st.clock.running)) {
      const el = document.getElementById(`clock${st.clock.running}`);
      if (el?.classList.contains("low") && this.lowWarned !== st.ply) {
        this.lowWarned = st.ply;
        lowTimeSound();
      }
    }
  }

  // ---- drawing -----------------------------------------------------------------------

  render() {
    const st = this.state;
    if (!st) return;
    const live = this.isLive();
    const board = this.shownBoard();
    const facts = this.shownFacts();
    const how = this.connected ? this.clickMode() : { notice: "offline" };
    const interactive = !how.notice && !this.movePending;
    const study = interactive && how.mode === "line";
    let emptyCells = [];
    let sources = [];
    let targets = [];
    if (interactive) {
      const parts = this.legalParts();
      emptyCells = parts.singles;
      sources = parts.sources;
      if (this.selected) targets = this.targetsOf(this.selected) || [];
    }
    // a premove: the player who waits clicks a cell of the position on the board
    const premove = !interactive && this.connected && live && this.live.canPremove();
    if (premove) emptyCells = premoveCells(st.game, board);
    if (st.game === "andantino" && targets.length) emptyCells = emptyCells.concat(targets);
    this.board.render(st.game, board, {
      emptyCells,
      sources,
      targets,
      selected: interactive ? this.selected : null,
      hint: this.analysis.hintMove(),
      interactive: interactive || premove,
      premove,
      study,
      single: interactive && board.single ? board.single.cells : [],
      over: facts.over,
      marks: parseMarks(this.shownComment(), st.game).marks,
      best: this.bestMove(board),
      scored: facts.over && facts.termination === "score",
    });
    this.drawnBest = this.bestMove(board);
    const data = this.element.dataset;
    data.ply = String(st.ply);
    data.over = String(!!st.over);
    data.turn = String(st.turn);
    data.reviewing = String(!live);
    data.interactive = String(interactive && how.mode === "game");
    data.study = String(study);
    data.connected = String(this.connected);
    data.line = lineKey(this.shownLine());
    data.shownPly = String(this.shownLine().length);
    data.position = board.position || "";
    this.renderPanel();
    this.moves.render();
    this.thinking.render();
    this.analysis.render();
    this.analysis.renderWholeGame();
    this.explorer.render();
    this.announcer.render();
    this.accuracy.render();
  }

  /** The analysis's best move of the position on view while the analysis is on, or null. */
  bestMove(board) {
    const a = this.analysis.on ? this.analysis.analysis : null;
    if (!a || a.position !== board.position) return null;
    return a.best || a.pv?.[0] || null;
  }

  /** The side panel but the move list and the analysis. */
  renderPanel() {
    if (!this.state) return;
    this.players.render();
    this.study.render();
    this.clock.render();
    this.actions.renderOffer();
    this.status.render();
    this.actions.render();
    this.live.render();
    this.analysis.renderButtons();
    this.moves.renderNav();
    this.study.renderNodeTools();
  }
}

/** The facts of a position: a state or a view message (both have these fields). */
function positionFacts(p) {
  return {
    turn: p.turn,
    over: p.over,
    legal: p.legal || [],
    sources: p.sources || [],
    result: p.result,
    termination: p.termination,
    winner: p.winner,
  };
}

/** The cells a premove may name in Andantino: every empty cell beside a tile (the
 * opponent's move is not known yet; the server drops a premove that is not legal when
 * its turn comes). Abande's premoves are not offered on the board. */
function premoveCells(game, board) {
  if (game !== "andantino" || !board.tiles) return [];
  const taken = new Set(board.tiles.map((t) => `${t.q},${t.r}`));
  const cells = new Set();
  for (const t of board.tiles)
    for (const [dq, dr] of NEIGHBOURS) {
      const cell = `${t.q + dq},${t.r + dr}`;
      if (!taken.has(cell)) cells.add(cell);
    }
  return [...cells];
}
