// Words shown to people: player names, results, rules options.

export const GAME_TITLES = { andantino: "Andantino", abande: "Abande" };

/** "1 game", "3 games". */
export function countText(n, word, plural = `${word}s`) {
  return `${n} ${n === 1 ? word : plural}`;
}

/** Who plays a side when the record names nobody: the local mode's person is "You". */
export function playerLabel(spec) {
  if (spec === "human") return "You";
  return `Computer · ${spec}`;
}

const REASONS = {
  line: "with a line of five",
  trap: "by trapping tiles",
  "line+trap": "with a line and a trap",
  "self-trap": "as the opponent trapped itself",
  "tiles-exhausted": "all tiles are placed",
  "move-limit": "the move limit is reached",
  repetition: "the position repeated three times",
  score: "on score",
  resignation: "by resignation",
  "time-forfeit": "on time",
  agreement: "by agreement",
};

/** Why a game ended, as words after "wins" or "ended": "on time", "by resignation". */
export function reasonText(termination) {
  return termination ? REASONS[termination] || termination : "";
}

/** "White wins with a line of five", "Draw: all tiles are placed". */
export function resultText(result, termination, names) {
  const reason = reasonText(termination);
  if (result === "1-0" || result === "0-1") {
    const winner = names[result === "1-0" ? 0 : 1];
    return `${winner} wins${reason ? ` ${reason}` : ""}`;
  }
  if (result === "1/2-1/2") return reason && termination !== "score" ? `Draw: ${reason}` : "Draw";
  return "In progress";
}

export function shortResult(result) {
  return { "1-0": "1–0", "0-1": "0–1", "1/2-1/2": "½–½", "*": "in progress" }[result] || result;
}

const OPTION_LABELS = {
  single_adjacency: "Balance variant: Red may once place a tile touching one tile",
  self_trap: "Self-trap",
  extended: "Extended play (relocate tiles when all are placed)",
  extended_move_limit: "Relocation limit",
  tiles_per_player: "Tiles per player",
  max_height: "Highest stack",
};

export function optionLabel(name) {
  return OPTION_LABELS[name] || name.replace(/_/g, " ").replace(/^./, (c) => c.toUpperCase());
}

export function choiceLabel(value) {
  return String(value).replace(/_/g, " ");
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** "29 Nov 14:05" (this year) or "29 Nov 2025" from an ISO-8601 time, in the reader's time zone. */
export function dateText(iso) {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso || "";
  const pad = (n) => String(n).padStart(2, "0");
  const day = `${d.getDate()} ${MONTHS[d.getMonth()]}`;
  if (d.getFullYear() !== new Date().getFullYear()) return `${day} ${d.getFullYear()}`;
  return `${day} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

/** The rules of a game as short text: "single_adjacency=true" -> words. */
export function rulesText(rules) {
  const entries = Object.entries(rules || {});
  if (!entries.length) return "standard rules";
  return entries
    .map(([k, v]) => {
      const name = optionLabel(k).split(/[:(]/)[0].trim().toLowerCase();
      if (v === true) return name;
      if (v === false) return `no ${name}`;
      return `${name}: ${v === null ? "unlimited" : choiceLabel(v)}`;
    })
    .join(", ");
}

/** A clock reading: "4:32", "0:09.4" in the last ten seconds, "1:02:03", "2d 3h" for days. */
export function clockText(seconds) {
  const s = Math.max(0, seconds);
  if (s >= 86400) {
    const days = Math.floor(s / 86400);
    const hours = Math.floor((s % 86400) / 3600);
    return `${days}d ${hours}h`;
  }
  if (s < 10) return `0:0${s.toFixed(1)}`;
  const whole = Math.floor(s);
  const h = Math.floor(whole / 3600);
  const m = Math.floor((whole % 3600) / 60);
  const sec = String(whole % 60).padStart(2, "0");
  return h ? `${h}:${String(m).padStart(2, "0")}:${sec}` : `${m}:${sec}`;
}

/** A time control of the protocol as words: "5+2", "3 days a move", "no clock". */
export function timeControlText(tc) {
  if (!tc) return "no clock";
  if (tc.kind === "live") {
    const minutes = tc.base / 60;
    return `${minutes >= 1 ? Number(minutes.toFixed(2)) : `${tc.base} s`}+${tc.increment || 0}`;
  }
  return `${tc.days} day${tc.days === 1 ? "" : "s"} a move${tc.bank ? ` (bank ${tc.bank} days)` : ""}`;
}
