//! Andantino's forcing analysis as alpha-beta asks for it ([`Forcing`]; the search's
//! module text describes the analysis), from the evaluation's [`Tracker`]:
//!
//! - the win candidates: the side to move's line wins (the empty cells of its fours
//!   that it may fill);
//! - the threats: the opponent's threat cells (the empty cells of its fours, and the
//!   cells where its tile would enclose one of ours), as our placements onto them;
//! - a move that may win all the same: one that joins two walls of the mover (a trap);
//! - a move that loses at once: a self-trap (`self_trap=opponent-wins`);
//! - lost next move, at the last ply: a tile placed next to four or more opponent tiles
//!   that the opponent's next tile encloses.
//!
//! The analysis runs while both sides place tiles, under every self-trap rule but
//! `illegal`. Exact: every move it scores without a search is scored right.

use super::eval::{Tracker, RUNS};
use crate::andantino::{Board, Move, SelfTrap};
use crate::game::{Color, Game};
use crate::search::alphabeta::Forcing;

/// Andantino's threat finder: the [`SearchGame::Forcing`] of its board.
///
/// [`SearchGame::Forcing`]: crate::search::alphabeta::SearchGame::Forcing
#[derive(Clone, Copy, Debug)]
pub struct Threats;

impl Forcing<Board> for Threats {
    fn enabled(game: &Board) -> bool {
        game.rules().self_trap != SelfTrap::Illegal
    }

    #[inline]
    fn node(game: &Board) -> bool {
        !game.rules().extended
            || (game.hand_count(game.turn()) > 0 && game.hand_count(1 - game.turn()) > 0)
    }

    fn win_candidates(game: &Board, aux: &Tracker, out: &mut Vec<Move>) {
        out.clear();
        let single = game.single_available();
        for cell in aux.four_cells(game.turn()) {
            let n = game.touching(cell);
            if aux.color_at(cell).is_none()
                && cell.in_range()
                && (n >= 2 || (n == 1 && single))
                && !out.contains(&Move::place(cell))
            {
                out.push(Move::place(cell));
            }
        }
    }

    #[inline]
    fn opponent_moves_on(game: &Board) -> bool {
        game.hand_count(1 - game.turn()) > 0
    }

    fn threats(game: &Board, aux: &mut Tracker, legal: &[Move], out: &mut Vec<Move>) {
        out.clear();
        let other = 1 - game.turn();
        let mut cells = std::mem::take(&mut aux.scratch);
        cells.clear();
        aux.trap_cells(game, other, legal.iter().map(|m| m.to()), &mut cells);
        // Red may complete a four on a cell touching one tile while its balance-variant
        // right lasts.
        let single = other == 1 && game.rules().single_adjacency && !game.single_adjacency_used();
        for cell in aux.four_cells(other) {
            let n = game.touching(cell);
            if aux.color_at(cell).is_none() && (n >= 2 || (n == 1 && single)) {
                cells.push(cell);
            }
        }
        cells.sort_unstable();
        cells.dedup();
        out.extend(cells.iter().map(|&c| Move::place(c)));
        aux.scratch = cells;
    }

    #[inline]
    fn may_win(game: &Board, aux: &Tracker, mv: Move) -> bool {
        RUNS[aux.mask(game.turn(), mv.to()) as usize] >= 2
    }

    #[inline]
    fn loses_at_once(game: &Board, mv: Move) -> bool {
        game.rules().self_trap == SelfTrap::OpponentWins
            && game.walled_off(mv.to(), 1 - game.turn())
    }

    fn loses_next(game: &Board, aux: &mut Tracker, mv: Move, mover: Color) -> bool {
        let other = 1 - mover;
        let k = mv.to();
        if aux.mask(other, k).count_ones() < 4 || game.hand_count(other) == 0 {
            return false;
        }
        let mut near = [k; 6];
        let mut n = 0;
        for d in 0..6 {
            let c = k.step(d);
            if aux.color_at(c).is_none() && game.touching(c) >= 2 {
                near[n] = c;
                n += 1;
            }
        }
        if n == 0 {
            return false;
        }
        let mut cells = std::mem::take(&mut aux.scratch);
        cells.clear();
        aux.place(mover, k);
        aux.trap_cells(game, other, near[..n].iter().copied(), &mut cells);
        aux.remove(mover, k);
        let found = !cells.is_empty();
        aux.scratch = cells;
        found
    }
}
