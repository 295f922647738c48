//! The greedy player's evaluation of Andantino ([`Evaluate`]): that of hexgames 0.1's
//! pure-Python engine (`evaluation_andantino.py`), computed from scratch: the line and
//! enclosure sums of [`super::eval`] with its default weights, and `WIN_SOON` for a win
//! on the next move (a threat cell of the side to move) or a loss after it (two of the
//! opponent's). `tests/naive_evaluation.py` computes the same values in Python for the
//! greedy tests.
//!
//! Points: about 100 for an open three against nothing.

use crate::andantino::{self, Cell, SelfTrap};
use crate::game::Game;
use crate::search::greedy::Evaluate;

/// Worth of a window of five holding n tiles of one colour and none of the other.
const LINE_WEIGHTS: [i32; 6] = [0, 1, 6, 30, 160, 160];
/// Worth, to the opponent, of a tile with n opponent tiles among its neighbours.
const ENCLOSURE_WEIGHTS: [i32; 7] = [0, 0, 1, 4, 16, 60, 60];
/// The value of winning on the next move by force (below any proven result).
const WIN_SOON: i32 = 30_000;
/// Regions larger than this are taken to reach infinity by the trap test.
const TRAP_REGION_LIMIT: usize = 48;
/// The three line axes as (dq, dr).
const AXES: [(i32, i32); 3] = [(1, 0), (0, 1), (1, -1)];
/// The six neighbours in ring order.
const DELTAS: [(i32, i32); 6] = [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)];

fn shift(c: Cell, dq: i32, dr: i32, k: i32) -> Option<Cell> {
    Cell::new((c.q() + dq * k) as i64, (c.r() + dr * k) as i64).ok()
}

fn neighbours(c: Cell) -> impl Iterator<Item = Cell> {
    DELTAS
        .iter()
        .filter_map(move |&(dq, dr)| shift(c, dq, dr, 1))
}

/// Separate runs of set bits around the ring of six (0 for all six).
fn runs(mask: u8) -> u32 {
    (0..6)
        .filter(|&i| mask >> i & 1 == 1 && mask >> ((i + 5) % 6) & 1 == 0)
        .count() as u32
}

/// What the Python `Tracker` keeps, from scratch: the line and enclosure sums (White
/// minus Red) and each colour's four-completing cells.
struct Sums {
    lines: i32,
    enclosure: i32,
    fours: [Vec<Cell>; 2],
}

fn sums(board: &andantino::Board) -> Sums {
    // Every window of five holding a tile: (start, axis).
    let mut windows: Vec<(Cell, usize)> = Vec::new();
    for color in 0..2 {
        for &t in board.tile_list(color) {
            for (a, &(dq, dr)) in AXES.iter().enumerate() {
                for i in 0..5 {
                    if let Some(start) = shift(t, dq, dr, -i) {
                        windows.push((start, a));
                    }
                }
            }
        }
    }
    windows.sort_unstable();
    windows.dedup();
    let mut lines = 0;
    let mut fours: [Vec<Cell>; 2] = [Vec::new(), Vec::new()];
    for &(start, a) in &windows {
        let (dq, dr) = AXES[a];
        let (mut n, mut empty) = ([0usize; 2], None);
        for i in 0..5 {
            let Some(x) = shift(start, dq, dr, i) else {
                continue;
            };
            match board.color_at(x) {
                Some(c) => n[c as usize] += 1,
                None => empty = Some(x),
            }
        }
        if n[1] == 0 {
            lines += LINE_WEIGHTS[n[0]];
        } else if n[0] == 0 {
            lines -= LINE_WEIGHTS[n[1]];
        }
        for c in 0..2 {
            if n[c] == 4 && n[1 - c] == 0 {
                if let Some(e) = empty {
                    fours[c].push(e);
                }
            }
        }
    }
    let mut enclosure = 0;
    for color in 0..2u8 {
        for &t in board.tile_list(color) {
            let around = neighbours(t)
                .filter(|&x| board.color_at(x) == Some(1 - color))
                .count();
            let w = ENCLOSURE_WEIGHTS[around];
            enclosure += if color == 1 { w } else { -w };
        }
    }
    Sums {
        lines,
        enclosure,
        fours,
    }
}

/// The cells completing `color`'s fours that it can fill: now (it is to move: the cell
/// is a legal placement) or on its next turn (`now` false: the cell is empty and
/// touches two tiles already).
fn line_threats(board: &andantino::Board, color: u8, sums: &Sums, now: bool) -> Vec<Cell> {
    let mut found: Vec<Cell> = Vec::new();
    if now && board.relocating() {
        return found; // no placement is legal (and listing the relocations is dear)
    }
    let legal: Vec<Cell> = if now {
        let mut moves = Vec::new();
        board.legal_moves(&mut moves);
        moves
            .iter()
            .filter(|m| m.from().is_none())
            .map(|m| m.to())
            .collect()
    } else {
        Vec::new()
    };
    for &k in &sums.fours[color as usize] {
        let ok = if now {
            legal.contains(&k)
        } else {
            board.color_at(k).is_none() && board.tiles_touching(k) >= 2
        };
        if ok && !found.contains(&k) {
            found.push(k);
        }
    }
    found
}

/// The cells touching two tiles where a `color` tile would enclose an opponent tile
/// (bounded flood fills: a region over [`TRAP_REGION_LIMIT`] cells, or reaching the box
/// of `color`'s tiles, counts as open).
fn trap_cells(board: &andantino::Board, color: u8) -> Vec<Cell> {
    let tiles = board.tile_list(color);
    if tiles.len() < 5 {
        return Vec::new();
    }
    let mut found = Vec::new();
    let mut bounds: Option<[i32; 6]> = None;
    for m in board.placements() {
        let c = m.to();
        let mut mask = 0u8;
        for (i, &(dq, dr)) in DELTAS.iter().enumerate() {
            if shift(c, dq, dr, 1).is_some_and(|x| board.color_at(x) == Some(color)) {
                mask |= 1 << i;
            }
        }
        if runs(mask) < 2 || board.walled_off_by(c, color) {
            continue;
        }
        let b = *bounds.get_or_insert_with(|| {
            let mut b = [i32::MAX, i32::MIN, i32::MAX, i32::MIN, i32::MAX, i32::MIN];
            for t in tiles {
                let (q, r) = (t.q(), t.r());
                b = [
                    b[0].min(q),
                    b[1].max(q),
                    b[2].min(r),
                    b[3].max(r),
                    b[4].min(q + r),
                    b[5].max(q + r),
                ];
            }
            b
        });
        if encloses(board, c, color, b) {
            found.push(c);
        }
    }
    found
}

/// Whether a `color` tile on `c` walls in a region holding an opponent tile that is
/// not walled in already.
fn encloses(board: &andantino::Board, c: Cell, color: u8, b: [i32; 6]) -> bool {
    let (cq, cr) = (c.q(), c.r());
    let (qlo, qhi, rlo, rhi) = (b[0].min(cq), b[1].max(cq), b[2].min(cr), b[3].max(cr));
    let (slo, shi) = (b[4].min(cq + cr), b[5].max(cq + cr));
    let mut open: Vec<Cell> = Vec::new();
    for start in neighbours(c) {
        if board.color_at(start) == Some(color) || open.contains(&start) {
            continue;
        }
        let mut seen = vec![start, c];
        let mut frontier = vec![start];
        let (mut free, mut holds) = (false, false);
        while let Some(k) = frontier.pop() {
            let (q, r) = (k.q(), k.r());
            if q <= qlo
                || q >= qhi
                || r <= rlo
                || r >= rhi
                || q + r <= slo
                || q + r >= shi
                || open.contains(&k)
                || seen.len() > TRAP_REGION_LIMIT
            {
                free = true;
                break;
            }
            if board.color_at(k) == Some(1 - color) && !board.walled_off_by(k, color) {
                holds = true;
            }
            for n in neighbours(k) {
                if !seen.contains(&n) && board.color_at(n) != Some(color) {
                    seen.push(n);
                    frontier.push(n);
                }
            }
        }
        if free {
            open.extend(seen.into_iter().filter(|&x| x != c));
        } else if holds {
            return true;
        }
    }
    false
}

/// Every threat cell of `color` found: line completions and traps.
fn threat_cells(board: &andantino::Board, color: u8, sums: &Sums, now: bool) -> Vec<Cell> {
    let mut found = line_threats(board, color, sums, now);
    for c in trap_cells(board, color) {
        if !found.contains(&c) {
            found.push(c);
        }
    }
    if now && board.rules().self_trap == SelfTrap::Illegal && !found.is_empty() {
        let mut moves = Vec::new();
        board.legal_moves(&mut moves);
        found.retain(|&c| moves.iter().any(|m| m.to() == c));
    }
    found
}

impl Evaluate for andantino::Board {
    const SCALE: f64 = 250.0;

    fn may_win_at_once(&self, out: &mut Vec<andantino::Move>) {
        andantino::Board::may_win_at_once(self, out);
    }

    fn evaluate(&self) -> i32 {
        let mover = self.turn();
        if let Some(result) = self.result() {
            return match result.winner {
                None => 0,
                Some(w) if w == mover => 10 * WIN_SOON,
                Some(_) => -10 * WIN_SOON,
            };
        }
        let s = sums(self);
        let total = s.lines + s.enclosure;
        let value = if mover == 0 { total } else { -total };
        if self.rules().extended && self.hand(mover) == Some(0) {
            return value; // relocating
        }
        if !threat_cells(self, mover, &s, true).is_empty() {
            return value + WIN_SOON;
        }
        if self.hand(1 - mover) != Some(0) && threat_cells(self, 1 - mover, &s, false).len() >= 2 {
            return value - WIN_SOON;
        }
        value
    }
}
