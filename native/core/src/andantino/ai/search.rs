//! The alpha-beta search's view of Andantino ([`SearchGame`]): the [`Tracker`] as the
//! incremental evaluation, the last ply's values without a push, the null move; the
//! forcing analysis's hooks are [`Threats`] (`super::forcing`). No noisy moves.

use super::eval::{slot, Tracker, Weights, CELLS, DOUBLE_FOUR, RUNS};
use super::forcing::Threats;
use crate::andantino::{Board, Move, Rules};
use crate::error::{Error, Result};
use crate::game::{Color, Game};
use crate::search::alphabeta::{AllQuiet, Forcing, Leaf, SearchGame};

/// The search's view of Andantino: the [`Tracker`] as the incremental evaluation and
/// the forcing analysis of hexgames 0.1's player (see `alphabeta`'s module text).
impl SearchGame for Board {
    type Aux = Tracker;
    type Rules = Rules;
    type Weights = Weights;
    type Forcing = Threats;
    type Noisy = AllQuiet;
    const PROBABILITY_SCALE: f64 = 250.0;
    const HISTORY_SIZE: usize = CELLS;

    fn rules_of(&self) -> Rules {
        self.rules()
    }

    fn new_aux(&self) -> Tracker {
        Tracker::new(self)
    }

    fn reset_aux(&self, aux: &mut Tracker) {
        aux.reset(self);
    }

    fn sync_aux(&self, aux: &mut Tracker) {
        aux.sync(self);
    }

    /// The line and enclosure weights must be 0 to 65536 and grow with the tiles and
    /// the neighbours (the incremental gains assume it); `three` is not checked.
    fn check_weights(weights: &Weights) -> Result<()> {
        let growing = |w: &[i32]| w.windows(2).all(|p| p[0] <= p[1]) && w[0] >= 0;
        let top = *weights
            .line
            .iter()
            .chain(&weights.enclosure)
            .max()
            .unwrap_or(&0);
        if !growing(&weights.line) || !growing(&weights.enclosure) || top > 1 << 16 {
            return Err(Error::InvalidArgument(format!(
                "Andantino's weights are 0 to 65536 and grow with the tiles and the \
                 neighbours, not {:?} and {:?}",
                weights.line, weights.enclosure
            )));
        }
        Ok(())
    }

    fn configure_aux(&self, aux: &mut Tracker, weights: &Weights) {
        let mut line = weights.line;
        line[3] = weights.three;
        if !aux.has_weights(&line, &weights.enclosure) {
            aux.set_weights(self, line, weights.enclosure);
        }
        aux.tempo = weights.tempo;
        aux.right = weights.right;
    }

    #[inline]
    fn push_aux(&self, aux: &mut Tracker, mv: Move, mover: Color) {
        aux.push(mv, mover);
    }

    #[inline]
    fn pop_aux(&self, aux: &mut Tracker, mv: Move, mover: Color) {
        aux.pop(mv, mover);
    }

    #[inline]
    fn evaluate(&self, aux: &Tracker) -> i32 {
        let turn = self.turn();
        let mut v = aux.static_value(turn) + aux.tempo;
        if aux.right != 0 && self.rules().single_adjacency && !self.single_adjacency_used() {
            v += if turn == 1 { aux.right } else { -aux.right };
        }
        v
    }

    #[inline]
    fn order_value(&self, aux: &Tracker, mv: Move) -> i32 {
        aux.placement_value(self.turn(), mv.to())
    }

    #[inline]
    fn history_index(mv: Move) -> usize {
        slot(mv.to().q(), mv.to().r())
    }

    fn moves_left(&self) -> u32 {
        let hand = self.hand_count(self.turn());
        if self.rules().extended || hand > 1000 {
            30
        } else {
            hand.max(1) as u32
        }
    }

    #[inline]
    fn incremental_leaves(&self) -> bool {
        !self.relocating()
    }

    #[inline]
    fn leaf_value(&self, aux: &Tracker, base: i32, mv: Move) -> Option<Leaf> {
        let turn = self.turn();
        let other = 1 - turn;
        let cell = mv.to();
        let (g, fours, five) = aux.gain_and_five(turn, cell);
        let mut v = if fours >= 2 { g + DOUBLE_FOUR } else { g };
        // The side to move changes (the tempo), and Red may spend its right.
        v -= 2 * aux.tempo;
        if aux.right != 0 && turn == 1 && self.single_available() && self.touching(cell) == 1 {
            v -= aux.right;
        }
        // What ends a game of these rules (docs/rules.md) once the tile is down: a line of
        // five, a wall around opponent tiles (it takes two runs of own tiles around
        // the cell), a tile walled in by the opponent under `self_trap=opponent-wins`,
        // an opponent without tiles, and in extended play repetition and the move
        // limit; and the frontier's own test, a trap of the new tile next move (four
        // opponent neighbours). The tracker's cells are the board's while its tiles
        // are compact (see `COMPACT_SPAN`).
        let settled = !five
            && !self.rules().extended
            && aux.compact
            && RUNS[aux.mask(turn, cell) as usize] < 2
            && aux.mask(other, cell).count_ones() < 4
            && self.hand_count(other) > 0
            && !Threats::loses_at_once(self, mv);
        Some(Leaf {
            value: base + v,
            forcing: fours >= 1,
            settled,
        })
    }

    fn null_move_ok(&self) -> bool {
        !self.rules().extended && self.hand_count(0) > 1 && self.hand_count(1) > 1
    }

    #[inline]
    fn flip_turn(&mut self) {
        Board::flip_turn(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::andantino::{Cell, Rules, SelfTrap};
    use crate::zobrist::Rng;

    /// Weights with a tempo and a right.
    const WEIGHTS: Weights = Weights {
        line: super::super::eval::LINE_WEIGHTS,
        enclosure: super::super::eval::ENCLOSURE_WEIGHTS,
        three: 30,
        tempo: 30,
        right: 40,
    };

    /// The start of a game of `rules` and its tracker with [`WEIGHTS`].
    fn start(rules: Rules) -> (Board, Tracker) {
        let board = Board::new(None, rules).unwrap();
        let mut aux = board.new_aux();
        board.configure_aux(&mut aux, &WEIGHTS);
        (board, aux)
    }

    #[test]
    fn tempo_and_right_at_the_leaves_as_after_the_push() {
        // The last ply's values (parent value plus gain) must be the children's own
        // evaluations, the tempo changing hands and Red's right spent or kept.
        let rules = Rules {
            single_adjacency: true,
            ..Rules::default()
        };
        let mut rng = Rng::new(11);
        let (mut moves, mut spent) = (Vec::new(), 0);
        for _ in 0..20 {
            let (mut board, mut aux) = start(rules);
            for _ in 0..30 {
                let turn = board.turn();
                let base = board.evaluate(&aux);
                let plain = aux.static_value(turn);
                let right = !board.single_adjacency_used();
                let sign = if turn == 1 { 1 } else { -1 };
                assert_eq!(base, plain + 30 + if right { 40 * sign } else { 0 });
                board.legal_moves(&mut moves);
                for &mv in &moves {
                    let leaf = board.leaf_value(&aux, base, mv).unwrap().value;
                    let (_, fours) = aux.gain(turn, mv.to());
                    board.push(mv);
                    if board.result().is_none() && fours < 2 {
                        board.push_aux(&mut aux, mv, turn);
                        assert_eq!(leaf, -board.evaluate(&aux), "{board:?}");
                        spent += usize::from(right && board.single_adjacency_used());
                        board.pop();
                        board.pop_aux(&mut aux, mv, turn);
                    } else {
                        board.pop();
                    }
                }
                let mv = moves[rng.below(moves.len())];
                board.push(mv);
                if board.result().is_some() {
                    break;
                }
                board.push_aux(&mut aux, mv, turn);
            }
        }
        assert!(spent > 0, "no move spent the right");
    }

    /// Rule sets whose game ends differ: the standard game, the balance variant, each
    /// self-trap setting, hands that run out, the unlimited supply, extended play.
    fn rule_sets() -> Vec<Rules> {
        let d = Rules::default();
        vec![
            d,
            Rules {
                single_adjacency: true,
                ..d
            },
            Rules {
                self_trap: SelfTrap::Ignore,
                ..d
            },
            Rules {
                self_trap: SelfTrap::Illegal,
                ..d
            },
            Rules {
                tiles_per_player: Some(9),
                ..d
            },
            Rules {
                tiles_per_player: None,
                ..d
            },
            Rules {
                extended: true,
                tiles_per_player: Some(8),
                extended_move_limit: 12,
                ..d
            },
        ]
    }

    #[test]
    fn a_settled_leaf_ends_nothing_and_is_worth_its_value() {
        // Half the moves greedy (lines of five and walls come up), half at random.
        let mut rng = Rng::new(21);
        let mut moves = Vec::new();
        let (mut settled, mut pushed, mut ended) = (0, 0, 0);
        for rules in rule_sets() {
            for _ in 0..25 {
                let (mut board, mut aux) = start(rules);
                for _ in 0..60 {
                    let turn = board.turn();
                    let base = board.evaluate(&aux);
                    board.legal_moves(&mut moves);
                    if moves.is_empty() {
                        break;
                    }
                    let mut greedy = (i32::MIN, moves[0]);
                    for &mv in &moves {
                        if mv.from().is_some() {
                            continue;
                        }
                        let leaf = board.leaf_value(&aux, base, mv).unwrap();
                        if leaf.value > greedy.0 {
                            greedy = (leaf.value, mv);
                        }
                        board.push(mv);
                        let end = board.result();
                        ended += usize::from(end.is_some());
                        if leaf.settled {
                            settled += 1;
                            assert_eq!(end, None, "{mv:?} {board:?}");
                            assert!(
                                !Threats::loses_next(&board, &mut aux, mv, turn),
                                "{board:?}"
                            );
                            // Two fours at once add their bonus, as at the frontier.
                            let (_, fours) = aux.gain(turn, mv.to());
                            let bonus = if fours >= 2 { DOUBLE_FOUR } else { 0 };
                            board.push_aux(&mut aux, mv, turn);
                            assert_eq!(leaf.value, bonus - board.evaluate(&aux), "{board:?}");
                            board.pop_aux(&mut aux, mv, turn);
                        } else {
                            pushed += 1;
                        }
                        board.pop();
                    }
                    let mv = if rng.below(2) == 0 {
                        greedy.1
                    } else {
                        moves[rng.below(moves.len())]
                    };
                    board.push(mv);
                    if board.result().is_some() {
                        break;
                    }
                    board.push_aux(&mut aux, mv, turn);
                }
            }
        }
        // Most last-ply moves are settled; every game end was pushed.
        assert!(settled > 3 * pushed, "{settled} settled, {pushed} pushed");
        assert!(ended > 100, "{ended} game ends");
    }

    #[test]
    fn tiles_far_apart_are_never_settled() {
        // Red's (3,256) shares the tracker's slot with (4,0), the cell that completes
        // White's line of five: the tracker's window there holds "Red", so only the
        // board can tell that the move wins. Close tiles are settled as usual.
        let far = "andantino w=0,0;1,0;2,0;3,0 r=-1,0;4,-1;3,256 turn=w";
        let near = "andantino w=0,0;1,0;2,0;3,0 r=-1,0;4,-1;3,-6 turn=w";
        let win = Move::place(Cell::new(4, 0).unwrap());
        let quiet = Move::place(Cell::new(1, -1).unwrap());
        for (position, settled) in [(far, [false, false]), (near, [false, true])] {
            let mut board = Board::new(Some(position), Rules::default()).unwrap();
            let aux = board.new_aux();
            let base = board.evaluate(&aux);
            let leaves = [win, quiet].map(|mv| board.leaf_value(&aux, base, mv).unwrap());
            assert_eq!(leaves.map(|l| l.settled), settled, "{position}");
            board.push(win);
            assert_eq!(board.result().and_then(|r| r.winner), Some(0));
        }
    }
}
