// The engine's evaluations as the page shows them: "+1.20" or a mate score "#13" with
// what it means, the commands of a record's comments ([%eval], [%wp], [%clk]) kept out of
// the text shown, and a whole-game analysis read back from a record's [%eval]/[%wp]
// (docs/records.md).

// a command of a comment: [%name value]
const COMMAND = /\s*\[%(\w+)\s+([^\]]*?)\s*\]/g;
// the judgement NAGs the analysis writes: $6 ?!, $2 ?, $4 ??
const JUDGEMENTS = { 6: "inaccuracy", 2: "mistake", 4: "blunder" };

/** A comment's own text, without its commands ([%eval ...], [%wp ...], [%clk ...]);
 * "" when it holds nothing else. */
export function commentText(comment) {
  return (comment || "").replace(COMMAND, " ").replace(/\s+/g, " ").trim();
}

/** The engine's commands of a comment, {eval: "1.20" | "#-5", wp: 0.62} (those present;
 * of one written twice, the last, the newest). */
export function engineTags(comment) {
  const found = {};
  for (const [, name, value] of (comment || "").matchAll(COMMAND)) {
    if (name === "eval") found.eval = value;
    else if (name === "wp" && Number.isFinite(Number.parseFloat(value)))
      found.wp = Number.parseFloat(value);
  }
  return found;
}

/** The evaluation from the first player's side: "+1.20", "#5" (in plies), "#-3"; of a
 * search's report whose side to move is `mover`. */
export function evalText(a, mover) {
  const sign = mover === 0 ? 1 : -1;
  if (typeof a.mate === "number" && a.mate !== 0) return `#${sign * a.mate}`;
  if (typeof a.eval === "number") {
    const v = (sign * a.eval) / 100;
    return `${v >= 0 ? "+" : ""}${v.toFixed(2)}`;
  }
  return "";
}

/** A record's [%eval] value as the page writes evaluations: "0.85" is "+0.85", "#-5"
 * stays; "" for none or one that is not a number. */
export function recordEvalText(value) {
  if (!value) return "";
  if (/^#-?\d+$/.test(value)) return value;
  const v = Number.parseFloat(value);
  return Number.isFinite(v) ? `${v >= 0 ? "+" : ""}${v.toFixed(2)}` : "";
}

/** What an evaluation text means: for a mate score "#13" ("#-13"), "#13: White wins by
 * force within 13 plies (a mate score)"; for points, "+1.20: White's edge in the engine's
 * points / 100"; "" for none. names: the sides' names. */
export function evalNote(text, names) {
  const mate = /^#(-?)(\d+)$/.exec(text || "");
  if (mate) {
    const winner = names[mate[1] ? 1 : 0];
    const plies = Number(mate[2]);
    return `${text}: ${winner} wins by force within ${plies} ${plies === 1 ? "ply" : "plies"} (a mate score: the search saw a forced end)`;
  }
  if (!text) return "";
  const negative = text.startsWith("-");
  return `${text}: the engine's points / 100 for ${names[negative ? 1 : 0]} (a mate score, #n, when it sees a forced end)`;
}

/** The whole-game analysis written in a record, as a game_analysis result for the graph
 * and the mistakes (docs/web-protocol.md): each main-line position's [%wp]/[%eval] from
 * the comment of the move that led to it, each move's judgement from its NAG; null when
 * the main line holds no [%wp]. tree: a StudyTree; firstTurn: the side that moved first. */
export function recordAnalysis(tree, firstTurn) {
  const positions = [null];
  const reports = [];
  let node = tree.root.children[0];
  let found = false;
  while (node) {
    const tags = engineTags(node.comment);
    if (typeof tags.wp === "number") found = true;
    positions.push(
      typeof tags.wp === "number" ? { wp: tags.wp, eval_text: tags.eval || null } : null,
    );
    const ply = positions.length - 2;
    const judgement = node.nags.map((n) => JUDGEMENTS[n]).find(Boolean);
    if (judgement) {
      const mover = (firstTurn + ply) % 2;
      const before = positions[ply];
      const after = positions[ply + 1];
      const chance = (p) => (p ? (mover === 0 ? p.wp : 1 - p.wp) : null);
      const drop = before && after ? Math.max(0, chance(before) - chance(after)) : null;
      reports.push({ ply, move: node.move, mover, judgement, drop, best: null });
    }
    node = node.children[0];
  }
  return found ? { positions, reports, fromRecord: true } : null;
}
