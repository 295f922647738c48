//! Proof-number search: depth-first proof-number search (df-pn) over both games, and the
//! winning strategies it finds, written as proof files anyone can check (docs/proofs.md).
//!
//! **The question** ([`Goal`]): can the `attacker` win from a position (or, with
//! `draw_ok`, not lose)? The attacker's positions are OR nodes (one good move
//! suffices), the defender's AND nodes (every reply must be answered). A proof is a
//! strategy of the attacker; a disproof is one of the defender, for the opposite goal
//! (no win for White means Red does not lose). Two searches give three-valued results
//! (`hexgames.solver`).
//!
//! **The search** is df-pn (A. Nagai, *Df-pn algorithm for searching AND/OR trees and
//! its applications*, PhD thesis, University of Tokyo, 2002): the best-first
//! proof-number search of Allis (L. V. Allis, M. van der Meulen, H. J. van den Herik,
//! *Proof-number search*, Artificial Intelligence 66, 1994) run depth first, each
//! node searched until its proof or disproof number reaches a threshold, with a
//! transposition table ([`table`]) of a fixed size holding the numbers. The child's
//! threshold takes the 1+ε trick (J. Pawlewicz, Ł. Lew, *Improving depth-first
//! PN-search: 1+ε trick*, Computers and Games 2006): the most promising child is
//! searched until its number passes the second best's times 1+ε rather than the second
//! best's plus one, which cuts the re-expansions of a deep tree.
//!
//! **What is decided at once** (each exact, so the search stays sound; tested against
//! a full-width minimax in `tests`):
//! 1. a finished game is a proof or a disproof by its result (a draw counts for the
//!    attacker only with `draw_ok`);
//! 2. a side to move that can win at once wins ([`ProofGame::can_win_at_once`]): at the
//!    attacker's node a proof, at the defender's a disproof;
//! 3. a move after which the opponent can win at once loses at once: it is no
//!    candidate of the attacker's, and a defender's reply of that kind needs no search.
//!    In Andantino this is the threat analysis of a search of this kind (Allis'
//!    threat-space search on Go-Moku): against a four or a trap threat the defender's
//!    only replies that are searched are those that stop every one of them, or win.
//!
//! **Cycles** (the graph-history interaction): in Andantino's placement phase and in
//! Abande no position can repeat (tiles are only added; every Abande capture joins two
//! stacks, and two passes end the game), so the table's values are the positions'
//! whatever the path. In extended play, where tiles move and the third repetition is a
//! draw, a value found along one path may not hold along another. There the search keeps
//! the positions of its path and counts a move back to one of them as not reaching the
//! goal (the attacker does not count on it, the defender may take it), and a node deeper
//! than [`MAX_PLY`] likewise: conservative for a proof, so a disproof there means only
//! "not proven". A strategy is always checked by play when it is written
//! ([`Prover::strategy`]), and a proof whose check fails is reported as unknown, never as
//! found.

pub mod table;

#[cfg(test)]
mod tests;

use std::collections::HashSet;
use std::time::Instant;

use crate::abande;
use crate::andantino;
use crate::error::{Error, Result};
use crate::fxhash::FxBuild;
use crate::game::{Color, Game, GameResult};
use crate::search::time::seconds;
use crate::search::Stop;
use table::{Entry, Table};

/// A proof or disproof number that stands for infinity.
pub const INF: u32 = u32::MAX / 4;
/// The ε of the 1+ε trick.
pub const EPSILON: f64 = 0.25;
/// Node visits between two looks at the time and the stop flag.
const CHECK_EVERY: u64 = 1024;
/// Children tried (each a test of a win at once) between two looks at the time and the
/// stop flag: a node of a position with hundreds of thousands of moves (extended play)
/// must not hold the search past its stop.
const CHECK_CHILDREN: u64 = 256;
/// The deepest ply the search goes to; a node below it counts as not reaching the goal
/// (only extended play, where tiles move for ever, can come near it: a game of placements
/// has at most 1,000 plies).
pub const MAX_PLY: usize = 2048;
/// Node visits the threat-space search (VCF) may spend at a new node of the attacker.
pub const VCF_NODES: u64 = 400;
/// What a threat-space search's table keys are mixed with besides the goal's salt (its
/// numbers are those of another question: a win by threats alone).
const VCF_SALT: u64 = 0x5bd1_e995_27d4_eb2f;

/// What a game offers the proof search beyond [`Game`].
pub trait ProofGame: Game {
    /// A move of the side to move that wins at once (ends the game with its win), if
    /// there is one. Exact: never a move that does not win. `scratch` is any list.
    fn can_win_at_once(&mut self, scratch: &mut Vec<Self::Move>) -> Option<Self::Move>;

    /// Whether a position's value may depend on how it was reached (a rule that looks
    /// at the history: Andantino's repetition in extended play), so that a position
    /// settled along one path may not be taken as settled along another.
    fn history_matters(&self) -> bool {
        false
    }

    /// Whether the game has threats of a win at once that the threat-space search
    /// ([`Prover`]'s VCF) can chain: false turns it off.
    fn has_threats(&self) -> bool {
        false
    }

    /// Whether the side **not** to move could win at once if it were its turn (it has
    /// a four or a trap threat). Exact, like [`ProofGame::can_win_at_once`]; false
    /// wherever the question makes no sense (that side has no tile to place).
    fn threatens(&mut self, _scratch: &mut Vec<Self::Move>) -> bool {
        false
    }

    /// What a node's look at the position finds for the tests of its children
    /// ([`ProofGame::prepare_replies`]); `()` where the game finds nothing.
    type Replies: Default;

    /// Look at the position on the board, where the side to move cannot win at once,
    /// for [`ProofGame::child_after`], [`ProofGame::wins_after`] and, with `threats`,
    /// [`ProofGame::threatens_after`] on its children; false where the game does not
    /// (those are not asked then: the search plays each child and asks
    /// [`ProofGame::can_win_at_once`] and [`ProofGame::threatens`] there). The position
    /// is as it was after the call.
    fn prepare_replies(&mut self, _replies: &mut Self::Replies, _threats: bool) -> bool {
        false
    }

    /// With the position `replies` was prepared at on the board: the result and the
    /// Zobrist key of the position after `mv`, without playing it (`None`: it must be
    /// played to be known).
    fn child_after(
        &self,
        _replies: &Self::Replies,
        _mv: Self::Move,
    ) -> Option<(Option<GameResult>, u64)> {
        None
    }

    /// With the position `replies` was prepared at on the board, for the game going on
    /// after `mv`: whether the side to move there can win at once. Exact, equal to
    /// [`ProofGame::can_win_at_once`] finding a move there.
    fn wins_after(&mut self, _replies: &Self::Replies, mv: Self::Move) -> bool {
        self.push(mv);
        let wins = self.can_win_at_once(&mut Vec::new()).is_some();
        self.pop();
        wins
    }

    /// With the position `replies` was prepared at (with `threats`) on the board, for
    /// the game going on after `mv`: [`ProofGame::threatens`] there, exactly. The
    /// position is as it was after the call.
    fn threatens_after(
        &mut self,
        _replies: &mut Self::Replies,
        mv: Self::Move,
        scratch: &mut Vec<Self::Move>,
    ) -> bool {
        self.push(mv);
        let threat = self.threatens(scratch);
        self.pop();
        threat
    }
}

impl ProofGame for andantino::Board {
    fn can_win_at_once(&mut self, scratch: &mut Vec<Self::Move>) -> Option<Self::Move> {
        // the few candidates that pass the first tests of a line or a trap, each tried
        self.may_win_at_once(scratch);
        let mover = self.turn();
        for &mv in scratch.iter() {
            self.push(mv);
            let won = self.result().is_some_and(|r| r.winner == Some(mover));
            self.pop();
            if won {
                return Some(mv);
            }
        }
        None
    }

    fn history_matters(&self) -> bool {
        self.rules().extended
    }

    fn has_threats(&self) -> bool {
        // the null move below is for the placement phase only
        !self.rules().extended
    }

    fn threatens(&mut self, scratch: &mut Vec<Self::Move>) -> bool {
        let other = 1 - self.turn();
        if self.result().is_some() || self.relocating() || self.hand_count(other) == 0 {
            return false;
        }
        self.flip_turn();
        let wins = self.can_win_at_once(scratch).is_some();
        self.flip_turn();
        wins
    }

    type Replies = andantino::ai::Replies;

    fn prepare_replies(&mut self, replies: &mut Self::Replies, threats: bool) -> bool {
        andantino::Board::prepare_replies(self, replies, threats)
    }

    fn child_after(
        &self,
        replies: &Self::Replies,
        mv: Self::Move,
    ) -> Option<(Option<GameResult>, u64)> {
        Some(andantino::Board::child_after(self, replies, mv))
    }

    fn wins_after(&mut self, replies: &Self::Replies, mv: Self::Move) -> bool {
        andantino::Board::wins_after(self, replies, mv)
    }

    fn threatens_after(
        &mut self,
        replies: &mut Self::Replies,
        mv: Self::Move,
        _scratch: &mut Vec<Self::Move>,
    ) -> bool {
        andantino::Board::threatens_after(self, replies, mv)
    }
}

impl ProofGame for abande::Board {
    type Replies = ();

    fn can_win_at_once(&mut self, scratch: &mut Vec<Self::Move>) -> Option<Self::Move> {
        // An Abande game ends only when both players pass in succession: a win at once
        // is a pass right after the opponent's, ahead on the score.
        if self.passes() != 1 {
            return None;
        }
        let mover = Game::turn(self);
        Game::legal_moves(self, scratch);
        let pass = scratch.iter().copied().find(|m| m.is_pass())?;
        self.push(pass);
        let won = self.result().is_some_and(|r| r.winner == Some(mover));
        self.pop();
        won.then_some(pass)
    }
}

/// The question a proof search answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Goal {
    /// The side that wants to win (0 the first player, 1 the second).
    pub attacker: Color,
    /// Whether a draw is good enough for the attacker (a proof of "not lose").
    pub draw_ok: bool,
}

impl Goal {
    /// Whether a finished game reaches the goal.
    #[inline]
    pub fn reached(self, result: GameResult) -> bool {
        match result.winner {
            Some(w) => w == self.attacker,
            None => self.draw_ok,
        }
    }

    /// The question searched for this goal, and whether its answer is this goal's
    /// turned round. "`attacker` does not lose" is "the opponent does not win", so both
    /// questions share one search and one set of table entries (a proof of one is a
    /// disproof of the other): every goal is searched as a question of a win. Not where
    /// the history matters: there a return to a position counts against the attacker of
    /// each question, so the two are not exact complements.
    #[inline]
    fn searched(self, history_matters: bool) -> (Goal, bool) {
        if self.draw_ok && !history_matters {
            let win = Goal {
                attacker: 1 - self.attacker,
                draw_ok: false,
            };
            (win, true)
        } else {
            (self, false)
        }
    }

    /// What the table key of a position is mixed with (each goal its own numbers).
    #[inline]
    fn salt(self) -> u64 {
        0x9e37_79b9_7f4a_7c15u64
            .wrapping_mul(1 + u64::from(self.attacker) * 2 + u64::from(self.draw_ok))
    }
}

/// What a proof search found for its root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The goal is reached against every defence.
    Proven,
    /// The defender stops it (the opposite goal is proven for the defender).
    Disproven,
    /// Not settled within the limits.
    Unknown,
}

/// The limits of one search.
#[derive(Clone, Copy, Debug, Default)]
pub struct ProofLimits {
    /// Seconds of wall-clock time.
    pub time: Option<f64>,
    /// Node visits.
    pub nodes: Option<u64>,
}

/// A search's report.
#[derive(Clone, Debug)]
pub struct ProofReport {
    pub verdict: Verdict,
    /// Node visits (each call of the search on a position).
    pub nodes: u64,
    /// Seconds spent.
    pub time: f64,
    /// The root's proof and disproof numbers at the end.
    pub pn: u32,
    pub dn: u32,
    /// The share of the table in use at the end.
    pub table_fill: f64,
    /// Nodes of the attacker that the threat-space search proved.
    pub threat_proofs: u64,
}

/// What an expansion found (see [`Prover::expand`]).
enum Expansion {
    /// The node's children are in the list.
    Open,
    /// The node's value for the goal, found at once.
    Settled(bool),
    /// The limits ended the search during the expansion.
    Stopped,
}

/// One child of a node, as the search keeps it while it works on the node.
#[derive(Clone, Copy)]
struct Child<M> {
    mv: M,
    key: u64,
    pn: u32,
    dn: u32,
}

/// The proof search: a table, a stop flag and the limits of the running search.
pub struct Prover {
    table: Table,
    stop: Stop,
    nodes: u64,
    start: Instant,
    deadline: Option<std::time::Duration>,
    max_nodes: u64,
    stopped: bool,
    epsilon: f64,
    /// The positions on the path of the strategy being written (extended play).
    strategy_path: Vec<u64>,
    /// When the strategy being written must be done (its limits' time).
    strategy_deadline: Option<Instant>,
    /// Whether the threat-space search (VCF) runs at the attacker's new nodes.
    use_vcf: bool,
    /// Nodes the threat-space search proved in the running search.
    threat_proofs: u64,
    /// Children tried (see [`CHECK_CHILDREN`]).
    children: u64,
    /// Whether a node's children are tested from what the game finds at the node once
    /// ([`ProofGame::prepare_replies`]) rather than each by its own search.
    use_replies: bool,
}

/// A game position with the goal and the scratch lists the search needs.
struct Walk<'a, G: ProofGame> {
    game: &'a mut G,
    goal: Goal,
    scratch: Vec<G::Move>,
    /// The list of a child's test of a win at once.
    wins: Vec<G::Move>,
    /// What the game found at the node being expanded ([`ProofGame::prepare_replies`]).
    replies: G::Replies,
    /// The children of the nodes on the path, one list a ply (reused).
    lists: Vec<Vec<Child<G::Move>>>,
    /// The Zobrist keys of the positions on the path, when the history matters.
    path: Vec<u64>,
    history_matters: bool,
    /// The caller's look at whether to stop (Ctrl-C, a callback).
    poll: &'a mut dyn FnMut() -> bool,
    /// Whether the threat-space search runs (the attacker's moves only threats), and
    /// the node count at which it gives up.
    vcf: bool,
    vcf_end: u64,
    /// Whether the threat-space search is used at the attacker's nodes.
    use_vcf: bool,
}

impl<G: ProofGame> Walk<'_, G> {
    /// The table key of the position on the board for the question being searched.
    #[inline]
    fn key(&self) -> u64 {
        self.key_of(self.game.zobrist())
    }

    /// The table key of the position of Zobrist key `zobrist` for the question being
    /// searched.
    #[inline]
    fn key_of(&self, zobrist: u64) -> u64 {
        let k = zobrist ^ self.goal.salt();
        if self.vcf {
            k ^ VCF_SALT
        } else {
            k
        }
    }
}

impl Prover {
    /// A prover with a table of `table_mb` MB.
    ///
    /// Errors: `Error::InvalidArgument` for a size of 0 or over the table's most, or
    /// memory that cannot be had.
    pub fn new(table_mb: u64) -> Result<Prover> {
        Ok(Prover {
            table: Table::new(table_mb)?,
            stop: Stop::new(),
            nodes: 0,
            start: Instant::now(),
            deadline: None,
            max_nodes: u64::MAX,
            stopped: false,
            epsilon: EPSILON,
            strategy_path: Vec::new(),
            strategy_deadline: None,
            use_vcf: true,
            threat_proofs: 0,
            children: 0,
            use_replies: true,
        })
    }

    /// Turn the threat-space search (VCF, see the module's documentation) on or off
    /// (on by default; off, the search is the plain df-pn, for comparison).
    pub fn set_threat_space(&mut self, on: bool) {
        self.use_vcf = on;
    }

    /// Test a node's children from what the game finds at the node once
    /// ([`ProofGame::prepare_replies`]; on by default) or, off, each child by trying its
    /// moves (the search of earlier versions, for comparison: the same nodes in the same
    /// order, slower).
    pub fn set_replies(&mut self, on: bool) {
        self.use_replies = on;
    }

    /// The stop flag: set from any thread, the search returns within milliseconds
    /// (its verdict then `Unknown` unless settled).
    pub fn stop_flag(&self) -> Stop {
        self.stop.clone()
    }

    /// The table (its fill and size).
    pub fn table(&self) -> &Table {
        &self.table
    }

    /// Forget what the table holds.
    pub fn clear(&mut self) {
        self.table.clear();
    }

    /// Search `game` for `goal` within `limits` (the game is not changed); the stop flag
    /// is cleared first.
    ///
    /// Errors: `Error::InvalidArgument` if the game is over.
    pub fn prove<G: ProofGame>(
        &mut self,
        game: &G,
        goal: Goal,
        limits: ProofLimits,
    ) -> Result<ProofReport> {
        self.stop.clear();
        self.prove_polled(game, goal, limits, &mut || false)
    }

    /// [`Prover::prove`] that also ends when `poll` (called every `CHECK_EVERY` node
    /// visits, from the searching thread) returns true, and leaves the stop flag as it
    /// is (a stop set before the call ends it at once).
    ///
    /// Errors: `Error::InvalidArgument` if the game is over.
    pub fn prove_polled<G: ProofGame>(
        &mut self,
        game: &G,
        goal: Goal,
        limits: ProofLimits,
        poll: &mut dyn FnMut() -> bool,
    ) -> Result<ProofReport> {
        if game.result().is_some() {
            return Err(Error::InvalidArgument(
                "the game is over: there is nothing to prove".into(),
            ));
        }
        self.nodes = 0;
        self.threat_proofs = 0;
        // (from 0 each search, so that a search with a node limit is repeated exactly)
        self.children = 0;
        self.stopped = false;
        self.start = Instant::now();
        self.deadline = limits.time.map(seconds);
        self.max_nodes = limits.nodes.unwrap_or(u64::MAX);
        let mut g = game.clone();
        let history_matters = g.history_matters();
        let (goal, flipped) = goal.searched(history_matters);
        let key = g.zobrist() ^ goal.salt();
        let use_vcf = self.use_vcf && g.has_threats() && !history_matters;
        let mut walk = Walk {
            game: &mut g,
            goal,
            scratch: Vec::new(),
            wins: Vec::new(),
            replies: G::Replies::default(),
            lists: Vec::new(),
            path: Vec::new(),
            history_matters,
            poll,
            vcf: false,
            vcf_end: 0,
            use_vcf,
        };
        let (mut pn, mut dn) = self.numbers(key).unwrap_or((1, 1));
        while pn != 0 && dn != 0 && !self.stopped {
            (pn, dn) = self.mid(&mut walk, key, INF - 1, INF - 1, 0);
        }
        if flipped {
            (pn, dn) = (dn, pn);
        }
        let verdict = if pn == 0 {
            Verdict::Proven
        } else if dn == 0 {
            Verdict::Disproven
        } else {
            Verdict::Unknown
        };
        Ok(ProofReport {
            verdict,
            nodes: self.nodes,
            time: self.start.elapsed().as_secs_f64(),
            pn,
            dn,
            table_fill: self.table.fill(),
            threat_proofs: self.threat_proofs,
        })
    }

    #[inline]
    fn numbers(&self, key: u64) -> Option<(u32, u32)> {
        self.table.numbers(key)
    }

    /// Whether the limits or the stop flag end the search (looked at now and then).
    #[inline]
    fn out_of_time(&mut self, poll: &mut dyn FnMut() -> bool) -> bool {
        if self.stopped {
            return true;
        }
        if self.nodes % CHECK_EVERY == 0 {
            self.look(poll);
        }
        self.stopped
    }

    /// Look at the stop flag, `poll` and the limits now; whether the search is to stop.
    fn look(&mut self, poll: &mut dyn FnMut() -> bool) -> bool {
        if self.stop.is_set()
            || poll()
            || self.nodes >= self.max_nodes
            || self.deadline.is_some_and(|d| self.start.elapsed() >= d)
        {
            self.stopped = true;
        }
        self.stopped
    }

    /// Count a child tried and look at the limits every [`CHECK_CHILDREN`]; whether the
    /// search is to stop.
    #[inline]
    fn child_tried(&mut self, poll: &mut dyn FnMut() -> bool) -> bool {
        self.children += 1;
        self.stopped || (self.children % CHECK_CHILDREN == 0 && self.look(poll))
    }

    /// Expand the node on the board: its children (those still open, with their numbers
    /// from the table or 1 and 1) into `walk.lists[ply]`, or the node's value when it
    /// is settled at once (rules 2 and 3 of the module's documentation), or `Stopped`
    /// when the limits ended the search before every child was tried (the list is then
    /// not the node's: nothing is to be concluded from it).
    fn expand<G: ProofGame>(&mut self, walk: &mut Walk<'_, G>, ply: usize) -> Expansion {
        let goal = walk.goal;
        let or_node = walk.game.turn() == goal.attacker;
        // Below the root every node is a child its parent listed, and a child is listed
        // only when its side to move cannot win at once (each child was tested: rule 3),
        // so only the root is tested here (the old way tests every node again).
        if (ply == 0 || !self.use_replies) && walk.game.can_win_at_once(&mut walk.scratch).is_some()
        {
            return Expansion::Settled(or_node);
        }
        if walk.lists.len() <= ply {
            walk.lists.resize_with(ply + 1, Vec::new);
        }
        let mut list = std::mem::take(&mut walk.lists[ply]);
        list.clear();
        // the threat-space search's test of the attacker's moves
        let threats = walk.vcf && or_node;
        let prepared = self.use_replies && walk.game.prepare_replies(&mut walk.replies, threats);
        walk.game.legal_moves(&mut walk.scratch);
        let moves = std::mem::take(&mut walk.scratch);
        let mut settled = None;
        let mut stopped = false;
        for &mv in &moves {
            if self.child_tried(&mut *walk.poll) {
                stopped = true;
                break;
            }
            // the child's result and key: without playing the move where the game
            // tells them
            let known = if prepared {
                walk.game.child_after(&walk.replies, mv)
            } else {
                None
            };
            // (the children's tests below read the node's look only with the node on
            // the board)
            let (result, key, played) = match known {
                Some((result, zobrist)) => (result, walk.key_of(zobrist), false),
                None => {
                    walk.game.push(mv);
                    (walk.game.result(), walk.key(), true)
                }
            };
            // the child's value for the goal when it is settled at once
            let value = match result {
                Some(result) => Some(goal.reached(result)),
                // a return to a position on the path: not the attacker's way to the goal
                // (the cure for cycles; see the module's documentation)
                None if walk.history_matters && walk.path.contains(&walk.game.zobrist()) => {
                    Some(false)
                }
                None => {
                    // the opponent of the node's mover wins at once after this move
                    let wins = if !played {
                        walk.game.wins_after(&walk.replies, mv)
                    } else {
                        walk.game.can_win_at_once(&mut walk.wins).is_some()
                    };
                    if wins {
                        Some(!or_node)
                    } else if threats {
                        // threat-space search: the attacker's moves are threats only
                        let threat = if !played {
                            walk.game
                                .threatens_after(&mut walk.replies, mv, &mut walk.wins)
                        } else {
                            walk.game.threatens(&mut walk.wins)
                        };
                        (!threat).then_some(false)
                    } else {
                        None
                    }
                }
            };
            if played {
                walk.game.pop();
            }
            match value {
                Some(true) if or_node => {
                    settled = Some(true);
                    break;
                }
                Some(false) if !or_node => {
                    settled = Some(false);
                    break;
                }
                Some(_) => continue, // no help to the node's side: no candidate
                None => {
                    // its numbers are read once every child is listed (below)
                    self.table.prefetch(key);
                    list.push(Child {
                        mv,
                        key,
                        pn: 1,
                        dn: 1,
                    });
                }
            }
        }
        walk.scratch = moves;
        if settled.is_none() && !stopped {
            for child in &mut list {
                (child.pn, child.dn) = self.numbers(child.key).unwrap_or((1, 1));
            }
        }
        walk.lists[ply] = list;
        if let Some(value) = settled {
            return Expansion::Settled(value);
        }
        if stopped {
            return Expansion::Stopped;
        }
        if walk.lists[ply].is_empty() {
            // every move of the attacker fails, or every reply of the defender loses
            return Expansion::Settled(!or_node);
        }
        Expansion::Open
    }

    /// Df-pn's multiple iterative deepening at one node: search it until its proof
    /// number reaches `th_pn` or its disproof number `th_dn` (or it is settled), and
    /// return its numbers. They are stored in the table too, but the caller takes the
    /// returned ones: the table may have refused or since replaced them, and a parent
    /// reading a stale child's numbers would send the search back into it for ever.
    fn mid<G: ProofGame>(
        &mut self,
        walk: &mut Walk<'_, G>,
        key: u64,
        th_pn: u32,
        th_dn: u32,
        ply: usize,
    ) -> (u32, u32) {
        self.nodes += 1;
        if self.out_of_time(&mut *walk.poll) {
            return self.numbers(key).unwrap_or((1, 1));
        }
        if walk.vcf && self.nodes >= walk.vcf_end {
            return self.numbers(key).unwrap_or((1, 1));
        }
        let work_start = self.nodes;
        if ply >= MAX_PLY {
            return (INF, 0);
        }
        if walk.use_vcf && !walk.vcf && walk.game.turn() == walk.goal.attacker {
            if let Some(mv) = self.threat_space(walk, key, ply) {
                self.threat_proofs += 1;
                self.table.put(Entry {
                    key,
                    pn: 0,
                    dn: INF,
                    best: mv,
                    work: (self.nodes - work_start).min(u64::from(u32::MAX)) as u32,
                    has_best: true,
                });
                return (0, INF);
            }
        }
        let value = match self.expand(walk, ply) {
            Expansion::Open => None,
            Expansion::Settled(value) => Some(value),
            Expansion::Stopped => return self.numbers(key).unwrap_or((1, 1)),
        };
        if let Some(value) = value {
            let (pn, dn) = if value { (0, INF) } else { (INF, 0) };
            self.table.put(Entry {
                key,
                pn,
                dn,
                best: 0,
                work: 1,
                has_best: false,
            });
            return (pn, dn);
        }
        let or_node = walk.game.turn() == walk.goal.attacker;
        loop {
            // the node's numbers from its children's: as the expansion read them from
            // the table and as their searches returned them (reading every child from
            // the table again each round costs a cache miss a child and was 43% of the
            // search's time; a sibling's entry changed through a transposition meanwhile
            // is seen when the node is expanded again)
            let list = &mut walk.lists[ply];
            let (pn, dn, best, second) = combine(list, or_node);
            let best_child = list[best];
            if pn >= th_pn
                || dn >= th_dn
                || self.stopped
                || (walk.vcf && self.nodes >= walk.vcf_end)
            {
                let proved_by = (or_node && pn == 0).then(|| G::move_id(best_child.mv));
                self.table.put(Entry {
                    key,
                    pn,
                    dn,
                    best: proved_by.unwrap_or(0),
                    work: (self.nodes - work_start).min(u64::from(u32::MAX)) as u32,
                    has_best: proved_by.is_some(),
                });
                return (pn, dn);
            }
            // the child's thresholds (1+ε trick)
            let grow = |n: u32| -> u32 {
                if n >= INF {
                    INF
                } else {
                    let up = (f64::from(n) * (1.0 + self.epsilon)).ceil() as u64;
                    up.max(u64::from(n) + 1).min(u64::from(INF)) as u32
                }
            };
            let (c_pn, c_dn) = if or_node {
                (
                    th_pn.min(grow(second)),
                    th_dn
                        .saturating_sub(dn)
                        .saturating_add(best_child.dn)
                        .min(INF),
                )
            } else {
                (
                    th_pn
                        .saturating_sub(pn)
                        .saturating_add(best_child.pn)
                        .min(INF),
                    th_dn.min(grow(second)),
                )
            };
            if walk.history_matters {
                walk.path.push(walk.game.zobrist());
            }
            walk.game.push(best_child.mv);
            let (pn, dn) = self.mid(walk, best_child.key, c_pn, c_dn, ply + 1);
            walk.game.pop();
            if walk.history_matters {
                walk.path.pop();
            }
            let child = &mut walk.lists[ply][best];
            child.pn = pn;
            child.dn = dn;
            // on a stop the next round stores the node's numbers and returns
        }
    }

    /// The threat-space search at a node of the attacker (its table key `key` in the
    /// full search): a df-pn in which the attacker's moves are only those after which
    /// it threatens to win at once (a four, or a trap threat in Andantino) and the
    /// defender's replies are every reply that stops the threat or wins (rule 3 of the
    /// module's documentation), within [`VCF_NODES`] node visits, once a node (its
    /// entry in the table, keyed apart, says it was tried). This is the victory by
    /// continuous fours of Go-Moku solvers, the first step of Allis' threat-space search
    /// (L. V. Allis, H. J. van den Herik, M. P. H. Huntjens, *Go-Moku solved by new
    /// search techniques*, Computational Intelligence 12, 1996). Sound: its proofs are
    /// proofs of the full search (every reply of the defender is still answered); its
    /// disproofs say only that no such chain exists, and the full search goes on.
    /// Returns the move id of the first threat of a chain found.
    fn threat_space<G: ProofGame>(
        &mut self,
        walk: &mut Walk<'_, G>,
        key: u64,
        ply: usize,
    ) -> Option<u64> {
        let vkey = key ^ VCF_SALT;
        let (mut pn, mut dn) = match self.table.get(vkey) {
            Some(e) if e.pn == 0 && e.has_best => return Some(e.best),
            Some(_) => return None, // tried before
            None => (1, 1),
        };
        walk.vcf = true;
        walk.vcf_end = self.nodes + VCF_NODES;
        while pn != 0 && dn != 0 && !self.stopped && self.nodes < walk.vcf_end {
            (pn, dn) = self.mid(walk, vkey, INF - 1, INF - 1, ply);
        }
        walk.vcf = false;
        if pn != 0 {
            return None;
        }
        self.table.get(vkey).filter(|e| e.has_best).map(|e| e.best)
    }

    /// The attacker's strategy for a proven `goal` from `game` (the search must have
    /// proven it with this prover's table): `(position, move)` for each position of the
    /// attacker to move that play can reach, and the longest line to the end of the
    /// game, in plies. Each line is checked by play as it is made: a finished game must
    /// reach the goal, every reply of the defender is followed. A child whose proof is
    /// no longer in the table (replaced) is proved again, within the limits.
    ///
    /// Errors: `Error::InvalidArgument` when the strategy cannot be completed (a proof
    /// lost and not found again within the limits, or one that the check by play
    /// refutes: the graph-history interaction of extended play); the proof is then not
    /// to be reported as found.
    pub fn strategy<G: ProofGame>(
        &mut self,
        game: &G,
        goal: Goal,
        limits: ProofLimits,
    ) -> Result<(Vec<(String, String)>, usize)> {
        self.stop.clear();
        self.strategy_polled(game, goal, limits, &mut || false)
    }

    /// [`Prover::strategy`] that also gives up (an error) when `poll` returns true or
    /// the stop flag is set, looked at every `CHECK_EVERY` positions written and in
    /// each search it makes again; the stop flag is left as it is.
    ///
    /// Errors: as [`Prover::strategy`], and `Error::InvalidArgument` when stopped.
    pub fn strategy_polled<G: ProofGame>(
        &mut self,
        game: &G,
        goal: Goal,
        limits: ProofLimits,
        poll: &mut dyn FnMut() -> bool,
    ) -> Result<(Vec<(String, String)>, usize)> {
        let mut g = game.clone();
        let mut lines = Vec::new();
        let mut done: HashSet<u64, FxBuild> = HashSet::default();
        let memo = !g.history_matters();
        let mut scratch = Vec::new();
        let mut longest = 0;
        self.strategy_path.clear();
        self.strategy_deadline = limits.time.map(|t| Instant::now() + seconds(t));
        self.walk_strategy(
            &mut g,
            goal,
            limits,
            &mut lines,
            &mut done,
            memo,
            &mut scratch,
            0,
            &mut longest,
            poll,
        )?;
        Ok((lines, longest))
    }

    #[allow(clippy::too_many_arguments)]
    fn walk_strategy<G: ProofGame>(
        &mut self,
        g: &mut G,
        goal: Goal,
        limits: ProofLimits,
        lines: &mut Vec<(String, String)>,
        done: &mut HashSet<u64, FxBuild>,
        memo: bool,
        scratch: &mut Vec<G::Move>,
        depth: usize,
        longest: &mut usize,
        poll: &mut dyn FnMut() -> bool,
    ) -> Result<()> {
        if let Some(result) = g.result() {
            *longest = (*longest).max(depth);
            if goal.reached(result) {
                return Ok(());
            }
            return Err(Error::InvalidArgument(format!(
                "the strategy reaches a game that does not reach the goal at {}",
                g.position()
            )));
        }
        let key = g.zobrist() ^ goal.salt();
        if memo && done.contains(&key) {
            return Ok(());
        }
        self.nodes += 1;
        if self.nodes % CHECK_EVERY == 0 && self.strategy_stopped(poll) {
            return Err(strategy_stopped());
        }
        if depth >= MAX_PLY {
            return Err(Error::InvalidArgument(format!(
                "the strategy is deeper than {MAX_PLY} plies at {}",
                g.position()
            )));
        }
        if !memo && self.strategy_path[..depth].contains(&g.zobrist()) {
            return Err(Error::InvalidArgument(format!(
                "the strategy comes back to {} (a cycle of extended play)",
                g.position()
            )));
        }
        self.strategy_path.truncate(depth);
        self.strategy_path.push(g.zobrist());
        // the attacker's one move, or every reply of the defender
        let follow = if g.turn() == goal.attacker {
            let mv = self.proving_move(g, goal, limits, scratch, poll)?;
            lines.push((g.position(), g.notation(mv)));
            vec![mv]
        } else {
            let mut replies = Vec::new();
            g.legal_moves(&mut replies);
            replies
        };
        for mv in follow {
            g.push(mv);
            let walked = self.walk_strategy(
                g,
                goal,
                limits,
                lines,
                done,
                memo,
                scratch,
                depth + 1,
                longest,
                poll,
            );
            g.pop();
            walked?;
        }
        if memo {
            done.insert(key);
        }
        Ok(())
    }

    /// Whether the stop flag, `poll` or the time of the strategy's limits ends the
    /// writing of a strategy.
    fn strategy_stopped(&self, poll: &mut dyn FnMut() -> bool) -> bool {
        self.stop.is_set()
            || poll()
            || self
                .strategy_deadline
                .is_some_and(|end| Instant::now() >= end)
    }

    /// A move of the attacker that keeps the goal proven: a win at once, the table's
    /// proving move, a child proven in the table, or (after a search from here) one of
    /// those.
    fn proving_move<G: ProofGame>(
        &mut self,
        g: &mut G,
        goal: Goal,
        limits: ProofLimits,
        scratch: &mut Vec<G::Move>,
        poll: &mut dyn FnMut() -> bool,
    ) -> Result<G::Move> {
        if let Some(mv) = g.can_win_at_once(scratch) {
            return Ok(mv);
        }
        let (searched, flipped) = goal.searched(g.history_matters());
        // the move that proved the node (stored at the OR nodes of the question
        // searched, so not when the goal's answer is that question's turned round)
        let key = g.zobrist() ^ searched.salt();
        // (or, in a chain of threats, the threat-space search's move)
        let hint = self
            .table
            .get(key)
            .filter(|e| e.has_best && !flipped)
            .or_else(|| {
                self.table
                    .get(key ^ VCF_SALT)
                    .filter(|e| e.pn == 0 && !flipped)
            })
            .filter(|e| e.has_best)
            .map(|e| e.best);
        let mut moves = Vec::new();
        g.legal_moves(&mut moves);
        if let Some(id) = hint {
            if let Some(i) = moves.iter().position(|&m| G::move_id(m) == id) {
                moves.swap(0, i);
            }
        }
        let proven = |e: &Entry| if flipped { e.dn == 0 } else { e.pn == 0 };
        let disproven = |e: &Entry| if flipped { e.pn == 0 } else { e.dn == 0 };
        // a child proven in the table, or one that the table does not refute (which
        // are searched again below: the table may have refused or replaced its proof)
        let mut open = Vec::new();
        for &mv in &moves {
            self.children += 1;
            if self.children % CHECK_CHILDREN == 0 && self.strategy_stopped(poll) {
                return Err(strategy_stopped());
            }
            g.push(mv);
            let good = match g.result() {
                Some(result) => Some(goal.reached(result)),
                None if g.can_win_at_once(scratch).is_some() => Some(false),
                None => {
                    let child = g.zobrist() ^ searched.salt();
                    match self.table.get(child) {
                        Some(e) if proven(&e) => Some(true),
                        Some(e) if disproven(&e) => Some(false),
                        // proven by the threat-space search (a proof of the full one)
                        _ if !flipped
                            && self.table.get(child ^ VCF_SALT).is_some_and(|e| e.pn == 0) =>
                        {
                            Some(true)
                        }
                        _ => None,
                    }
                }
            };
            g.pop();
            match good {
                Some(true) => return Ok(mv),
                Some(false) => {}
                None => open.push(mv),
            }
        }
        for mv in open {
            // the time left of the strategy's limits, not the limits again
            let time = self
                .strategy_deadline
                .map(|end| end.saturating_duration_since(Instant::now()).as_secs_f64());
            let limits = ProofLimits { time, ..limits };
            g.push(mv);
            let nodes = self.nodes;
            let report = self.prove_polled(&*g, goal, limits, poll);
            self.nodes += nodes;
            g.pop();
            if report?.verdict == Verdict::Proven {
                return Ok(mv);
            }
            if self.stop.is_set() || self.stopped {
                break;
            }
        }
        Err(Error::InvalidArgument(format!(
            "the proof cannot be completed at {}: no move proven again (the limits or a \
             stop ended the search)",
            g.position()
        )))
    }
}

/// The error of a strategy whose writing was stopped.
fn strategy_stopped() -> Error {
    Error::InvalidArgument("stopped while the strategy was written".into())
}

/// A node's proof and disproof numbers from its children's (OR: the least proof number
/// and the sum of disproof numbers; AND: the other way round), the index of the child
/// to search (the least number of the kind the node minimises) and the second least.
fn combine<M>(list: &[Child<M>], or_node: bool) -> (u32, u32, usize, u32) {
    let mut least = INF;
    let mut second = INF;
    let mut best = 0;
    let mut sum: u64 = 0;
    for (i, c) in list.iter().enumerate() {
        let (minimised, summed) = if or_node { (c.pn, c.dn) } else { (c.dn, c.pn) };
        sum += u64::from(summed);
        if minimised < least {
            second = least;
            least = minimised;
            best = i;
        } else if minimised < second {
            second = minimised;
        }
    }
    let sum = sum.min(u64::from(INF)) as u32;
    if or_node {
        (least, sum, best, second)
    } else {
        (sum, least, best, second)
    }
}
