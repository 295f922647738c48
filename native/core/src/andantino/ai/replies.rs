//! What the proof search (`crate::proof`) reads of an Andantino node once, so that the
//! tests of its children need no search of their own: [`Replies`], found by
//! [`Board::prepare_replies`] and read by [`Board::wins_after`] and
//! [`Board::threatens_after`].
//!
//! df-pn decides a child at once when the side to move there can win at once (rule 3 of
//! `crate::proof`), and the threat-space search keeps only the attacker's moves after
//! which it threatens to win at once. Asked of every child by trying every move of the
//! child (the test of [`Board::may_win_at_once`] on each, and a push of each that
//! passes it), that is a node's children times theirs: most of the solver's time. Here
//! the node is looked at once and each child is then answered from what was found,
//! exactly (tested against the search of every child on every ply of random games).
//!
//! **The opponent's wins at once after a move.** Let X be the side to move at the node
//! (with no win at once: the search looked first) and Y the other. After X places a tile
//! on `m`, Y wins at once on a cell `t` exactly when
//! 1. `t` is a legal cell on which Y would win at once now (by a line or a trap), and
//!    `t` is not `m`: X's tile takes no tile of Y's line away and none of Y's walls,
//!    and the region a tile of Y on `t` walls off is the same, with the same tiles of X
//!    in it and one more;
//! 2. or `t` completes a line of five of Y and touches one tile now, and `m` touches it
//!    (it becomes legal);
//! 3. or a tile of Y on `t` walls off a region now (it closes a loop of Y's tiles) that
//!    holds no tile of X, and `m` lies in it (it holds X's tile after the move).
//!
//! No other cell wins for Y after the move: a line of Y is one of Y's tiles and the
//! empty cell, and X's move adds none of Y's tiles; a trap needs the runs of Y's tiles
//! around `t` and Y's walls, neither of which X's tile changes (the regions are found
//! from Y's tiles alone). The other winning cells of Y are legal now: a line cell
//! touches a tile of Y, a trap cell two.
//!
//! **The mover's threats after its move** (the threat-space search: does X, after `m`,
//! win at once if it were its turn again?). X's line cells after `m` are its line cells
//! now (none of them legal, since X cannot win at once now: those touching one tile,
//! legal once `m` touches them) and those of lines through `m`. Its trap cells are among
//! the legal cells with two or more runs of X's tiles around them (the test `push` makes
//! before it looks for a loop): those of now, and the neighbours of `m`, whose runs
//! change. Each is tried by a push. When `m` touches no tile of X, a cell away from `m`
//! is not tried: a tile with no neighbour of its colour joins none of its groups, and
//! the cells around it ring it, so it cuts no region from infinity that was not cut off
//! before; such a cell did not win now, so it does not after.
//!
//! The rules where this holds: the standard moves (self-traps not illegal, no extended
//! play; in the balance variant once Red's right is used, after which both sides place
//! only on cells touching two tiles to the end) and no tile on the edge of the
//! supported range; elsewhere [`Board::prepare_replies`] declines and the search tries
//! every child.

use crate::andantino::board::{with_state, Inner};
use crate::andantino::cell::{Cell, Move};
use crate::andantino::rules::SelfTrap;
use crate::andantino::state::{tile_key, State, AXES, RING, Z_TURN};
use crate::andantino::surface::{Surface, COUNT, ENCLOSED, TILE, TILES};
use crate::andantino::Board;
use crate::game::{Color, Game, GameResult, Termination};

/// What [`Board::prepare_replies`] found at a node (see the module text); reused from
/// node to node.
#[derive(Clone, Debug, Default)]
pub struct Replies {
    /// The position was prepared (the lists below are its).
    ready: bool,
    /// Legal cells where the side not to move would win at once if it were its turn.
    wins: Vec<Cell>,
    /// Cells where a tile of the side not to move completes a line of five, touching
    /// one tile.
    near: Vec<Cell>,
    /// Cells where a tile of the side not to move walls off regions holding no tile of
    /// the mover, with the range of `walled` those regions fill.
    traps: Vec<(Cell, u32, u32)>,
    walled: Vec<Cell>,
    /// Whether `own_near` and `own_traps` are found (asked for: only the threat-space
    /// search's nodes of the attacker need them).
    own_ready: bool,
    /// Cells where a tile of the mover completes a line of five, touching one tile.
    own_near: Vec<Cell>,
    /// Legal cells with two or more runs of the mover's tiles around them.
    own_traps: Vec<Cell>,
    /// Candidates of a test (reused).
    scratch: Vec<Cell>,
    /// The line cells of the positions on the search's path (see [`Lines`]), by the
    /// board's ply (the moves pushed since its set-up).
    lines: Vec<Lines>,
}

/// Each colour's line cells in a position (every empty cell on which its tile would
/// stand in a line of five or more, legal or not), with the position's Zobrist key.
/// Those of a child follow from its parent's: in the standard game a line cell stays one
/// until it is filled (tiles never move), and a move adds the line cells of the lines
/// through its own tile. A search goes down one ply at a time, so each position's are
/// found from its parent's, and a position met again at its ply (df-pn expands a node
/// again and again) has them already.
#[derive(Clone, Debug, Default)]
struct Lines {
    key: Option<u64>,
    cells: [Vec<Cell>; 2],
}

impl Replies {
    fn clear(&mut self) {
        self.ready = false;
        self.wins.clear();
        self.near.clear();
        self.traps.clear();
        self.walled.clear();
        self.own_ready = false;
        self.own_near.clear();
        self.own_traps.clear();
    }
}

impl<S: Surface> State<S> {
    /// The ring mask of `own` tiles around the cell on `s`.
    #[inline]
    fn ring(&self, s: crate::andantino::surface::Slot, own: u8) -> u8 {
        let mut mask = 0u8;
        for d in 0..6 {
            if self.surf.get(self.surf.step(s, d)) & own != 0 {
                mask |= 1 << d;
            }
        }
        mask
    }

    /// Every empty cell on which a tile of `c` would stand in a line of five or more,
    /// legal or not, into `out` (cleared first; each once): the empty cells at both ends
    /// of each run of `c`'s tiles along each axis, where the run, the cell and the run
    /// beyond it make five.
    fn line_cells(&self, c: usize, out: &mut Vec<Cell>) {
        out.clear();
        if self.tiles[c].len() < 4 {
            return;
        }
        let own = TILE[c];
        for &tile in &self.tiles[c] {
            let s = self.surf.slot(tile);
            for &(a, o) in &AXES {
                // each run once: from its tile at the `o` end
                let back = self.surf.step(s, o);
                let bv = self.surf.get(back);
                if bv & own != 0 {
                    continue;
                }
                let run = 1 + self.own_run(s, a, own, u32::MAX);
                if bv & TILES == 0 && run + 1 + self.own_run(back, o, own, u32::MAX) >= 5 {
                    let cell = self.surf.cell(back);
                    if !out.contains(&cell) {
                        out.push(cell);
                    }
                }
                let front = self.surf.step_by(s, a, run as usize);
                if self.surf.get(front) & TILES == 0
                    && run + 1 + self.own_run(front, a, own, u32::MAX) >= 5
                {
                    let cell = self.surf.cell(front);
                    if !out.contains(&cell) {
                        out.push(cell);
                    }
                }
            }
        }
    }
}

impl Board {
    /// Prepare `r` for [`Board::child_after`], [`Board::wins_after`] and (with
    /// `threats`) [`Board::threatens_after`] at this position, where the side to move has no win at once (the caller has made sure:
    /// the answers assume it). Returns false, and `r` unprepared, where the rules or the
    /// position are outside those of the module text (the caller then tries each child).
    /// The position is as it was after the call.
    pub fn prepare_replies(&mut self, r: &mut Replies, threats: bool) -> bool {
        r.clear();
        // (the balance variant once its right is used plays by the standard moves)
        let fits = with_state!(self, st => st.edge_tiles == 0 && st.result.is_none()
            && st.standard_from_here());
        if !fits {
            return false;
        }
        let x = self.turn();
        let y = 1 - x;
        let mut cand = std::mem::take(&mut r.scratch);
        let ply = self.path_lines(&mut r.lines);
        with_state!(self, st => {
            let yi = y as usize;
            if st.hands[yi] > 0 {
                for &t in &r.lines[ply].cells[yi] {
                    if st.peek(t) & COUNT >= 2 {
                        r.wins.push(t);
                    } else {
                        r.near.push(t);
                    }
                }
            }
            cand.clear();
            if st.hands[yi] > 0 {
                for m in &st.legal {
                    let t = m.to();
                    let s = st.surf.slot(t);
                    if st.surf.get(s) & ENCLOSED[yi] == 0
                        && RING[st.ring(s, TILE[yi]) as usize].runs >= 2
                        && !r.wins.contains(&t)
                    {
                        cand.push(t);
                    }
                }
            }
        });
        // the opponent's trap candidates, each tried
        if !cand.is_empty() {
            self.flip_turn();
            for &t in &cand {
                self.push(Move::place(t));
                let won = self.result().is_some_and(|res| res.winner == Some(y));
                if won {
                    r.wins.push(t);
                } else {
                    with_state!(self, st => {
                        let from = st.last().map_or(0, |u| u.enc_added as usize);
                        let added = &st.enc_added[from..];
                        if !added.is_empty() {
                            let start = r.walled.len() as u32;
                            r.walled.extend_from_slice(added);
                            r.traps.push((t, start, r.walled.len() as u32));
                        }
                    });
                }
                self.pop();
            }
            self.flip_turn();
        }
        cand.clear();
        r.scratch = cand;
        if threats {
            self.prepare_own(r, ply);
        }
        r.ready = true;
        true
    }

    /// The mover's part of `r` (for [`Board::threatens_after`]).
    fn prepare_own(&self, r: &mut Replies, ply: usize) {
        with_state!(self, st => {
            let xi = st.turn;
            // the mover's line cells touching one tile (those touching two would win now)
            let lines = &r.lines[ply].cells[xi];
            r.own_near.extend(lines.iter().copied().filter(|&t| st.peek(t) & COUNT == 1));
            for m in &st.legal {
                let t = m.to();
                if RING[st.ring(st.surf.slot(t), TILE[xi]) as usize].runs >= 2 {
                    r.own_traps.push(t);
                }
            }
        });
        r.own_ready = true;
    }

    /// Make `lines[ply]` the line cells of the position on the board (see [`Lines`]),
    /// `ply` the board's; returns `ply`.
    fn path_lines(&self, lines: &mut Vec<Lines>) -> usize {
        with_state!(self, st => {
            let ply = st.undo.len();
            if lines.len() <= ply {
                lines.resize_with(ply + 1, Lines::default);
            }
            if lines[ply].key == Some(st.hash) {
                return ply;
            }
            // the last move, a placement, and the mover, if `lines[ply - 1]` is its parent's
            let from_parent = st.undo.last().and_then(|u| {
                let (m, k) = (u.mv.to(), 1 - st.turn);
                let parent = st.hash ^ Z_TURN ^ tile_key(m, k);
                (u.mv.from().is_none() && lines[ply - 1].key == Some(parent)).then_some((m, k))
            });
            let (before, after) = lines.split_at_mut(ply);
            let here = &mut after[0];
            match from_parent {
                Some((m, k)) => {
                    let parent = &before[ply - 1];
                    for c in 0..2 {
                        here.cells[c].clear();
                        here.cells[c].extend(parent.cells[c].iter().filter(|&&t| t != m));
                    }
                    st.line_threats_through(m, k, &mut here.cells[k]);
                }
                None => {
                    for c in 0..2 {
                        st.line_cells(c, &mut here.cells[c]);
                    }
                }
            }
            here.key = Some(st.hash);
            ply
        })
    }

    /// With the position `r` was prepared at on the board: the result and the Zobrist
    /// key of the position after the move `mv` (a legal move), without playing it. The
    /// mover has no win at once, so its move ends the game only by a self-trap (into a
    /// pocket of the opponent's, under `self_trap=opponent_wins`) or by the opponent's
    /// empty hand (a draw), as `push` decides.
    #[inline]
    pub fn child_after(&self, r: &Replies, mv: Move) -> (Option<GameResult>, u64) {
        debug_assert!(r.ready);
        with_state!(self, st => {
            let x = st.turn;
            let to = mv.to();
            let key = st.hash ^ tile_key(to, x) ^ Z_TURN;
            let result = if st.rules.self_trap == SelfTrap::OpponentWins
                && st.peek(to) & ENCLOSED[1 - x] != 0
            {
                Some(GameResult {
                    termination: Termination::SelfTrap,
                    winner: Some(1 - x as Color),
                })
            } else if st.hands[1 - x] == 0 {
                Some(GameResult {
                    termination: Termination::TilesExhausted,
                    winner: None,
                })
            } else {
                None
            };
            (result, key)
        })
    }

    /// With the position `r` was prepared at on the board (or the child of the move `mv`:
    /// the board is not read), for the game going on after the move `mv`: whether the
    /// side to move there, the opponent, can win at once (as [`Board::may_win_at_once`]
    /// and a push of each candidate would say).
    #[inline]
    pub fn wins_after(&self, r: &Replies, mv: Move) -> bool {
        debug_assert!(r.ready);
        let m = mv.to();
        r.wins.iter().any(|&t| t != m)
            || r.near.iter().any(|&t| t.touches(m) && t.in_range())
            || r.traps
                .iter()
                .any(|&(t, a, b)| t != m && r.walled[a as usize..b as usize].contains(&m))
    }

    /// With the position `r` was prepared at (with threats) on the board, for the game
    /// going on after the move `mv`: whether the mover could win at once after it if it
    /// were its turn again (exact: the threat-space search's test). The move is played
    /// only when a trap candidate must be tried (the position is as it was after).
    pub fn threatens_after(&mut self, r: &mut Replies, mv: Move) -> bool {
        debug_assert!(r.ready && r.own_ready);
        let x: Color = self.turn();
        if self.hand_count(x) <= 1 {
            return false; // (no tile left after the move)
        }
        let m = mv.to();
        let mut cand = std::mem::take(&mut r.scratch);
        cand.clear();
        let line = with_state!(self, st => {
            let xi = x as usize;
            let own = TILE[xi];
            let s = st.surf.slot(m);
            // a cell touching one tile, legal once `m` touches it
            let line = r.own_near.iter().any(|&t| t.touches(m) && t.in_range())
                // or a line through `m`: the empty cell beyond each end of its run, when
                // the run, the cell and the run beyond make five, legal after the move
                // (touching two tiles, `m` counted if it touches it)
                || AXES.iter().any(|&(a, o)| {
                    let (ra, ro) = (
                        st.own_run(s, a, own, u32::MAX),
                        st.own_run(s, o, own, u32::MAX),
                    );
                    [(o, ro), (a, ra)].into_iter().any(|(d, run)| {
                        let end = st.surf.step_by(s, d, run as usize + 1);
                        let v = st.surf.get(end);
                        v & TILES == 0
                            && ra + ro + 2 + st.own_run(end, d, own, u32::MAX) >= 5
                            && (v & COUNT) + u8::from(run == 0) >= 2
                            && st.surf.cell(end).in_range()
                    })
                });
            if !line {
                // the trap candidates: the neighbours of `m` with two runs of X's tiles
                // around them once `m` holds one, and (when `m` joins X's tiles) the
                // parent's others
                let joins = st.ring(s, own) != 0;
                for d in 0..6 {
                    let n = st.surf.step(s, d);
                    let v = st.surf.get(n);
                    let t = m.step(d);
                    let ring = st.ring(n, own) | 1 << ((d + 3) % 6);
                    if v & TILES == 0 && t.in_range() && RING[ring as usize].runs >= 2 {
                        cand.push(t);
                    }
                }
                if joins {
                    for &t in &r.own_traps {
                        if t != m && !t.touches(m) {
                            cand.push(t);
                        }
                    }
                }
                // (the move walls off no cell of X's that is not walled off now)
                cand.retain(|&t| st.peek(t) & ENCLOSED[xi] == 0);
            }
            line
        });
        let mut found = line;
        if !found && !cand.is_empty() {
            // each candidate tried, with the move played and X to move again
            self.push(mv);
            self.flip_turn();
            for &t in &cand {
                self.push(Move::place(t));
                found = self.result().is_some_and(|res| res.winner == Some(x));
                self.pop();
                if found {
                    break;
                }
            }
            self.flip_turn();
            self.pop();
        }
        cand.clear();
        r.scratch = cand;
        found
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::andantino::{Rules, SelfTrap};
    use crate::game::Termination;
    use crate::zobrist::Rng;

    /// How the side to move wins at once, found by trying every legal move (no first
    /// tests): the termination of the first win, if any.
    fn win_by_trying(g: &mut Board) -> Option<Termination> {
        let mover = g.turn();
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        moves.into_iter().find_map(|mv| {
            g.push(mv);
            let won = g
                .result()
                .filter(|r| r.winner == Some(mover))
                .map(|r| r.termination);
            g.pop();
            won
        })
    }

    /// Whether the win at once was by a trap (alone or with a line).
    fn trap(t: Option<Termination>) -> bool {
        matches!(t, Some(Termination::Trap | Termination::LineAndTrap))
    }

    /// On every ply of random games (every position where the side to move has no win
    /// at once), for every legal move: `child_after` equals the child's result and key
    /// after a push; `wins_after` and `threatens_after` equal the opponent's and the
    /// mover's wins at once in the child, each found by trying every legal move there;
    /// the preparation leaves the position as it was. Wins by trap
    /// are among the cases (counted).
    #[test]
    fn replies_equal_trying_every_move() {
        let mut rng = Rng::new(17);
        let mut moves = Vec::new();
        let mut replies = Replies::default();
        let (mut wins, mut trap_wins, mut threats, mut trap_threats, mut children) =
            (0, 0, 0, 0, 0);
        let mut lines = 0;
        // balance-variant positions declined (Red's right unused) and prepared (used)
        let (mut declined, mut balance) = (0, 0);
        for game in 0..480 {
            let rules = Rules {
                // long games on small boards of tiles, and the standard game
                tiles_per_player: Some([12, 25, 40][game % 3]),
                self_trap: [SelfTrap::OpponentWins, SelfTrap::Ignore][game / 3 % 2],
                // the balance variant: the standard moves once Red's right is used
                single_adjacency: game % 6 == 5,
                ..Rules::default()
            };
            let mut g = Board::new(None, rules).unwrap();
            while g.result().is_none() {
                let no_win = win_by_trying(&mut g).is_none();
                let standard = !rules.single_adjacency || g.single_adjacency_used();
                if no_win && !standard {
                    assert!(!g.prepare_replies(&mut replies, true), "{}", g.position());
                    declined += 1;
                }
                if no_win && standard {
                    balance += usize::from(rules.single_adjacency);
                    let before = (g.position(), g.zobrist());
                    assert!(g.prepare_replies(&mut replies, true), "{}", before.0);
                    assert_eq!((g.position(), g.zobrist()), before);
                    // the line cells found from the parent's equal those found afresh
                    let ply = g.ply();
                    for c in 0..2 {
                        let mut fresh = Vec::new();
                        with_state!(g, st => st.line_cells(c, &mut fresh));
                        let mut kept = replies.lines[ply].cells[c].clone();
                        fresh.sort_unstable();
                        kept.sort_unstable();
                        assert_eq!(kept, fresh, "{}", before.0);
                        lines += fresh.len();
                    }
                    assert!(g.enclosures_agree());
                    g.legal_moves(&mut moves);
                    for &mv in &moves.clone() {
                        let known = g.child_after(&replies, mv);
                        let wins_after = g.wins_after(&replies, mv);
                        let threatens_after =
                            known.0.is_none() && g.threatens_after(&mut replies, mv);
                        assert_eq!(g.zobrist(), before.1);
                        g.push(mv);
                        assert_eq!(known, (g.result(), g.zobrist()), "{}", before.0);
                        if g.result().is_none() {
                            children += 1;
                            let won = win_by_trying(&mut g);
                            assert_eq!(
                                wins_after,
                                won.is_some(),
                                "{} after {}",
                                before.0,
                                mv.notation()
                            );
                            wins += usize::from(won.is_some());
                            trap_wins += usize::from(trap(won));
                            let threat = if g.hand_count(1 - g.turn()) > 0 {
                                g.flip_turn();
                                let t = win_by_trying(&mut g);
                                g.flip_turn();
                                t
                            } else {
                                None
                            };
                            assert_eq!(
                                threatens_after,
                                threat.is_some(),
                                "{} after {}",
                                before.0,
                                mv.notation()
                            );
                            threats += usize::from(threat.is_some());
                            trap_threats += usize::from(trap(threat));
                        }
                        g.pop();
                    }
                }
                g.legal_moves(&mut moves);
                let mv = moves[rng.below(moves.len())];
                g.push(mv);
            }
        }
        assert!(
            declined > 50 && balance > 500,
            "{declined} declined, {balance} balance"
        );
        assert!(
            lines > 1000
                && trap_wins > 500
                && trap_threats > 200
                && wins > trap_wins
                && threats > trap_threats,
            "{children} children: {wins} wins ({trap_wins} by trap), {threats} threats \
             ({trap_threats} by trap), {lines} line cells"
        );
    }

    /// Outside the standard moves (the balance variant while Red's right is unused,
    /// illegal self-traps, extended play) nothing is prepared: the search then tries
    /// every child.
    #[test]
    fn other_rules_are_declined() {
        let mut replies = Replies::default();
        for rules in [
            Rules {
                single_adjacency: true,
                ..Rules::default()
            },
            Rules {
                self_trap: SelfTrap::Illegal,
                ..Rules::default()
            },
            Rules {
                extended: true,
                ..Rules::default()
            },
        ] {
            let mut g = Board::new(None, rules).unwrap();
            assert!(!g.prepare_replies(&mut replies, true));
        }
        let mut g = Board::new(None, Rules::default()).unwrap();
        assert!(g.prepare_replies(&mut replies, true));
    }
}
