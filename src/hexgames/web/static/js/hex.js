// Hex geometry of the page: flat-topped cells, so that Abande's columns a..g stand upright.

export const SQRT3 = Math.sqrt(3);

/** Centre of axial cell (q, r) for hexes of circumradius `size`; flipped turns the board 180 degrees. */
export function centre(q, r, size, flipped = false) {
  const x = size * 1.5 * q;
  const y = size * SQRT3 * (r + q / 2);
  return flipped ? [-x, -y] : [x, y];
}

/** The six corners of a flat-topped hexagon as an SVG points string. */
export function hexPoints(x, y, radius) {
  const pts = [];
  for (let i = 0; i < 6; i++) {
    const a = (Math.PI / 3) * i;
    pts.push(`${(x + radius * Math.cos(a)).toFixed(2)},${(y + radius * Math.sin(a)).toFixed(2)}`);
  }
  return pts.join(" ");
}

export const NEIGHBOURS = [
  [1, 0],
  [-1, 0],
  [0, 1],
  [0, -1],
  [1, -1],
  [-1, 1],
];

/** Andantino cell text "q,r" -> [q, r]. */
export function parseAxial(text) {
  const [q, r] = text.split(",").map(Number);
  return [q, r];
}

// Abande board names (docs/notation.md, "Abande points"): column letter = "abcdefg"[q + 3],
// number = 4 - r - max(q, 0).
const COLUMNS = "abcdefg";

export function abandeName(q, r) {
  return `${COLUMNS[q + 3]}${4 - r - Math.max(q, 0)}`;
}

export function abandeAxial(name) {
  const q = COLUMNS.indexOf(name[0]) - 3;
  const n = Number(name.slice(1));
  return [q, 4 - n - Math.max(q, 0)];
}

/** The 37 points of the Abande board, in board order (a1, a2, ..., g4). */
export function abandePoints() {
  const points = [];
  for (let q = -3; q <= 3; q++) {
    for (let r = 3; r >= -3; r--) {
      if (Math.max(Math.abs(q), Math.abs(r), Math.abs(q + r)) <= 3) points.push([q, r]);
    }
  }
  return points;
}

const MOVE_SEPARATORS = { abande: "-", andantino: ">" };

/** Split a two-cell move ("c3-d4", "2,-1>0,3") into [from, to], or null for a one-cell move. */
export function splitMove(game, move) {
  const i = move.indexOf(MOVE_SEPARATORS[game]);
  return i < 0 ? null : [move.slice(0, i), move.slice(i + 1)];
}

/** The two-cell move from `from` to `to` in notation ("c3-d4", "2,-1>0,3"). */
export function joinMove(game, from, to) {
  return `${from}${MOVE_SEPARATORS[game]}${to}`;
}
