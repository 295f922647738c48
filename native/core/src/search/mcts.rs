//! Monte Carlo tree search for both games, with the algorithms and options of
//! hexgames 0.1's pure-Python player (`hexgames.engine.mcts` documents them for users):
//!
//! - **UCT** (Kocsis and Szepesvári, "Bandit based Monte-Carlo planning", ECML 2006):
//!   UCB1 `mean + c * sqrt(ln N / n)` on the children's win rates, each from the point
//!   of view of the player who moved into the child; unvisited children are tried first,
//!   in random order.
//! - **GRAVE** (Cazenave, "Generalized Rapid Action Value Estimation", IJCAI 2015): the
//!   all-moves-as-first term of RAVE (Gelly and Silver, AIJ 2011) taken from the closest
//!   ancestor with at least `grave_ref` simulations (`grave_ref = 0`: plain RAVE, each
//!   node its own). A child's value is `(1 - b) * mean + b * amaf` with
//!   `b = amaf_n / (amaf_n + n + bias * amaf_n * n)`; a node keeps a table once it has
//!   `amaf_start` simulations (at most `grave_ref`).
//! - **MCTS-Solver** (Winands, Björnsson and Saito, CG 2008): a node whose side to move
//!   has a winning child, or whose children are all proven, is proven (draws included);
//!   a child proven lost is never chosen again; the search stops once the root is
//!   proven. A new node whose side to move wins at once by the game's cheap test
//!   ([`MctsGame::immediate_win`]) is proven at once.
//! - **Decisive and anti-decisive playout moves** (F. Teytaud and O. Teytaud, CIG 2010),
//!   off by default, and the **playout cut-off** (`playout_cutoff`) scored by a logistic
//!   of the game's score difference, where the game can score a position, or of
//!   alpha-beta's evaluation with the weights given to [`Mcts::with_eval`] (the learned
//!   ones: see [`CutoffEval`]): each game's playout policy ([`MctsGame::playout`]) is in its
//!   `ai` module (`andantino::ai`, `abande::ai`).
//! - **Tree reuse**: the subtree of the moves played since the last search is kept when
//!   the new position follows from the old root (same set-up, rules and move history).
//!
//! The tree lives in flat arrays (the private module `tree`); one copy of the position is
//! searched by make/unmake. With the same seed and a simulation limit the same moves come out.
//!
//! **Stopping.** The stop flag is read before every simulation, and the clock, the
//! flag and the caller's poll by the work done ([`Watch`]): every simulation, every few
//! plies of a playout and every 64 children of a node expanded count. A playout cut
//! short by a limit or a stop is not counted (nothing is backed up), so a search stops
//! within about a millisecond even where one playout takes seconds. A playout is at
//! most [`playout::MAX_PLAYOUT_PLIES`] plies long: see there.

pub(crate) mod playout;
mod tree;

#[cfg(test)]
mod tests;

use std::time::{Duration, Instant};

pub use playout::{
    first_player_probability, CutoffEval, MctsGame, PlayoutOptions, MAX_PLAYOUT_PLIES,
};
use tree::{Full, Proof, Tree, NONE};

use super::{Info, Limits, Stop, Watch};
use crate::error::{Error, Result};
use crate::zobrist::Rng;

/// The UCB1 constant without GRAVE (and before a GRAVE reference exists).
pub const UCT_EXPLORATION: f64 = 0.7;
/// Time between progress reports.
const INFO_EVERY: Duration = Duration::from_millis(100);
/// The largest tree budget, in MB.
pub const MAX_TREE_MB: u64 = 1 << 16;
/// The longest principal variation reported.
const MAX_PV: usize = 64;

/// The options of the search (the Python player's keywords, `hexgames.engine.mcts`).
#[derive(Clone, Debug, PartialEq)]
pub struct MctsOptions {
    /// Seeds the search's random numbers.
    pub seed: u64,
    /// Add the GRAVE term.
    pub rave: bool,
    /// MCTS-Solver.
    pub solver: bool,
    /// Keep the subtree of the moves played between searches.
    pub reuse_tree: bool,
    /// The UCB1 constant `c`; `None` picks 0.0 with `rave`, [`UCT_EXPLORATION`] without.
    pub exploration: Option<f64>,
    /// Decisive and anti-decisive moves in the playouts.
    pub decisive: bool,
    /// Simulations a node needs before its AMAF statistics serve the nodes below it.
    pub grave_ref: u32,
    /// Simulations a node needs before it keeps AMAF statistics at all (at most
    /// `grave_ref`; GRAVE reads them only from nodes with `grave_ref` or more, so most
    /// nodes never need them, and each table takes a few KB). hexgames 0.1's Python player started
    /// at 8; 50 was level with 8 in matches (41/80 games at 0.5 s a move) with 2.5
    /// times less memory.
    pub amaf_start: u32,
    /// The `bias` of the GRAVE weight.
    pub rave_bias: f64,
    /// Playouts stop after this many plies and the position is scored, where the game
    /// can score it: by the evaluation given to [`Mcts::with_eval`], else by the game's
    /// score (Abande's; Andantino has none and plays out); `None` or 0: played out.
    /// The Python keyword is `cutoff` (the player's `abande_cutoff` and
    /// `andantino_cutoff`).
    pub playout_cutoff: Option<u32>,
    /// Points of the game's score difference that move the cut-off's win probability
    /// from 0.5 to about 0.73.
    pub cutoff_scale: f64,
    /// The most memory the tree may hold, in MB; once it is full the tree stops growing
    /// and the search goes on with playouts from where it ends.
    pub tree_mb: u64,
}

impl Default for MctsOptions {
    fn default() -> MctsOptions {
        MctsOptions {
            seed: 0,
            rave: true,
            solver: true,
            reuse_tree: true,
            exploration: None,
            decisive: false,
            grave_ref: 50,
            amaf_start: 50,
            rave_bias: 1e-4,
            playout_cutoff: Some(4),
            cutoff_scale: 2.0,
            tree_mb: 1024,
        }
    }
}

impl MctsOptions {
    /// Check the options.
    ///
    /// Errors: `Error::InvalidArgument` naming the option, for an `exploration` or
    /// `rave_bias` that is negative or not finite, a `cutoff_scale` that is not a
    /// finite number above 0, or a `tree_mb` outside 1 to [`MAX_TREE_MB`].
    pub fn check(&self) -> Result<()> {
        let bad = |m: String| Err(Error::InvalidArgument(m));
        if let Some(c) = self.exploration {
            if !c.is_finite() || c < 0.0 {
                return bad(format!(
                    "exploration must be a finite number, 0 or more, not {c}"
                ));
            }
        }
        if !self.rave_bias.is_finite() || self.rave_bias < 0.0 {
            return bad(format!(
                "rave_bias must be a finite number, 0 or more, not {}",
                self.rave_bias
            ));
        }
        if !self.cutoff_scale.is_finite() || self.cutoff_scale <= 0.0 {
            return bad(format!(
                "cutoff_scale must be a finite number above 0, not {}",
                self.cutoff_scale
            ));
        }
        if !(1..=MAX_TREE_MB).contains(&self.tree_mb) {
            return bad(format!(
                "tree_mb must be from 1 to {MAX_TREE_MB}, not {}",
                self.tree_mb
            ));
        }
        Ok(())
    }

    fn exploration(&self) -> f64 {
        self.exploration
            .unwrap_or(if self.rave { 0.0 } else { UCT_EXPLORATION })
    }
}

/// What a search found.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsResult<M> {
    /// The move to play.
    pub best: M,
    /// The final report: `score` the root win probability for the side to move, `pv`
    /// the most-visited line, `depth` the deepest tree path, `nodes` the simulations of
    /// this search, `mate` when the root is proven.
    pub info: Info,
    /// Simulations of the root kept from the previous search (0 for a new tree).
    pub reused_visits: u64,
    /// Whether the tree filled its memory budget (and stopped growing).
    pub tree_full: bool,
}

/// The position a kept tree belongs to.
struct Kept<G: MctsGame> {
    setup: String,
    rules: G::Rules,
    history: Vec<G::Move>,
}

/// A Monte Carlo tree search player for the game `G`, keeping its tree and its random
/// numbers from one search to the next (as hexgames 0.1's Python player did).
pub struct Mcts<G: MctsGame> {
    options: MctsOptions,
    eval: Option<G::EvalWeights>,
    rng: Rng,
    tree: Tree<G::Move>,
    kept: Option<Kept<G>>,
    scratch: G::Scratch,
    path: Vec<(u32, u32)>,
    trace: Vec<G::Move>,
    seq: Vec<u32>,
    legal: Vec<G::Move>,
}

impl<G: MctsGame> Mcts<G> {
    /// A player with these options.
    ///
    /// Errors: those of [`MctsOptions::check`].
    pub fn new(options: MctsOptions) -> Result<Mcts<G>> {
        Mcts::with_eval(options, None)
    }

    /// A player with these options whose playouts' cut-off scores its position by
    /// alpha-beta's evaluation with `eval`'s weights (the learned ones;
    /// [`CutoffEval`]), or by the game's score for `None`.
    ///
    /// Errors: those of [`MctsOptions::check`] and [`MctsGame::check_eval_weights`].
    pub fn with_eval(options: MctsOptions, eval: Option<G::EvalWeights>) -> Result<Mcts<G>> {
        options.check()?;
        if let Some(w) = &eval {
            G::check_eval_weights(w)?;
        }
        let budget = (options.tree_mb as usize).saturating_mul(1 << 20);
        Ok(Mcts {
            rng: Rng::new(options.seed),
            tree: Tree::new(budget),
            kept: None,
            scratch: G::Scratch::default(),
            path: Vec::new(),
            trace: Vec::new(),
            seq: Vec::new(),
            legal: Vec::new(),
            options,
            eval,
        })
    }

    /// The options.
    pub fn options(&self) -> &MctsOptions {
        &self.options
    }

    /// The weights of the evaluation the cut-off scores by, if any.
    pub fn eval_weights(&self) -> Option<&G::EvalWeights> {
        self.eval.as_ref()
    }

    /// Drop the kept tree (a new game begins).
    pub fn new_game(&mut self) {
        self.kept = None;
        self.tree = Tree::new(self.tree_budget());
    }

    fn tree_budget(&self) -> usize {
        (self.options.tree_mb as usize).saturating_mul(1 << 20)
    }

    /// Nodes in the tree (for tests and reports).
    pub fn tree_nodes(&self) -> usize {
        self.tree.nodes.len()
    }

    /// Bytes the tree's arenas hold (what `tree_mb` bounds).
    pub fn tree_bytes(&self) -> usize {
        self.tree.bytes()
    }

    /// Search `game` (which is not changed) until a limit of `limits` (`time` seconds,
    /// `nodes` simulations; with neither, until `stop` is set), `stop`, `interrupted`
    /// (polled about every millisecond, see [`Watch`]) says so, or the root is proven. A tree that fills
    /// its budget stops growing (`tree_full`). `on_info` gets a report about every
    /// 100 ms and the final one.
    ///
    /// Errors: `Error::InvalidArgument` if the game is over, or for a negative or NaN
    /// time limit.
    pub fn search(
        &mut self,
        game: &G,
        limits: &Limits,
        stop: &Stop,
        on_info: &mut dyn FnMut(&Info),
        interrupted: &mut dyn FnMut() -> bool,
    ) -> Result<MctsResult<G::Move>> {
        let start = Instant::now();
        if game.result().is_some() {
            return Err(Error::InvalidArgument(
                "the game is over: there is no move to search".into(),
            ));
        }
        if let Some(t) = limits.time {
            if t.is_nan() || t < 0.0 {
                return Err(Error::InvalidArgument(format!(
                    "time must be 0 or more seconds, not {t}"
                )));
            }
        }
        let deadline = limits.time.map(|t| start + crate::search::time::seconds(t));
        let mut board = game.clone();
        let here = position_of(game);
        let root = match self.reuse(&here) {
            Some(root) => root,
            None => {
                self.tree.clear();
                match self.fresh_root(&board) {
                    Ok(root) => root,
                    Err(Full) => return self.fallback(&board, start),
                }
            }
        };
        let reused_visits = self.tree.nodes[root as usize].n as u64;
        if !self.tree.nodes[root as usize].expanded() {
            board.legal_moves(&mut self.legal);
            if self
                .tree
                .expand(root, &self.legal, G::move_id, |_| true)
                .is_err()
            {
                return self.fallback(&board, start);
            }
        }
        let mut tree_full = false;
        let mut sims = 0;
        let mut depth = 0;
        let nd = self.tree.nodes[root as usize];
        if nd.result.is_none() && nd.len > 1 {
            let run = self.run(
                &mut board,
                root,
                deadline,
                limits.nodes,
                stop,
                on_info,
                interrupted,
                start,
            );
            (sims, depth) = (run.0, run.1);
            tree_full |= run.2;
        }
        let mut info = self.info(&board, root, sims, depth, start);
        let best = self.best_move(root);
        let best_text = board.notation(best);
        if info.pv.first() != Some(&best_text) {
            info.pv = vec![best_text];
        }
        self.keep(root, here);
        on_info(&info);
        Ok(MctsResult {
            best,
            info,
            reused_visits,
            tree_full,
        })
    }

    /// A move when not even the root fits in memory: the first legal move.
    fn fallback(&mut self, board: &G, start: Instant) -> Result<MctsResult<G::Move>> {
        self.tree.clear();
        board.legal_moves(&mut self.legal);
        let best = *self
            .legal
            .first()
            .ok_or_else(|| Error::InvalidArgument("no legal move".into()))?;
        self.kept = None;
        Ok(MctsResult {
            best,
            info: Info {
                score: 0.5,
                pv: vec![board.notation(best)],
                time: start.elapsed().as_secs_f64(),
                ..Info::default()
            },
            reused_visits: 0,
            tree_full: true,
        })
    }

    /// A new root for `board`, proven at once by an immediate win.
    fn fresh_root(&mut self, board: &G) -> std::result::Result<u32, Full> {
        let root = self.tree.add_node()?;
        if self.options.solver {
            if let Some(win) = board.immediate_win() {
                let nd = &mut self.tree.nodes[root as usize];
                nd.result = Some(Proof::Loss);
                nd.plies = 1;
                nd.win = Some(win);
            }
        }
        Ok(root)
    }

    /// The kept node of `here`, with the tree cut down to its subtree, if it follows
    /// from the kept root.
    fn reuse(&mut self, here: &Kept<G>) -> Option<u32> {
        let kept = self.kept.take()?;
        if !self.options.reuse_tree
            || kept.setup != here.setup
            || kept.rules != here.rules
            || here.history.len() < kept.history.len()
            || here.history[..kept.history.len()] != kept.history[..]
        {
            return None;
        }
        let mut node = 0u32;
        for &mv in &here.history[kept.history.len()..] {
            let nd = self.tree.nodes.get(node as usize)?;
            if !nd.expanded() {
                return None;
            }
            let slots = nd.first as usize..(nd.first + nd.len) as usize;
            let d = self.tree.dense_of(G::move_id(mv))?;
            let i = self.tree.aid[slots.clone()].iter().position(|&a| a == d)?;
            let kid = self.tree.kids[slots.start + i];
            if kid == NONE {
                return None;
            }
            node = kid;
        }
        if node != 0 {
            self.tree = self.tree.subtree(node).ok()?;
        }
        Some(0)
    }

    /// Keep the tree (whose root is `root`) for the next search.
    fn keep(&mut self, root: u32, here: Kept<G>) {
        if !self.options.reuse_tree {
            self.kept = None;
            return;
        }
        if root != 0 {
            match self.tree.subtree(root) {
                Ok(t) => self.tree = t,
                Err(Full) => {
                    self.kept = None;
                    return;
                }
            }
        }
        self.kept = Some(here);
    }

    /// Simulate until a limit, a stop or a proven root; returns (the simulations, the
    /// deepest tree path, whether the tree was full).
    #[allow(clippy::too_many_arguments)]
    fn run(
        &mut self,
        board: &mut G,
        root: u32,
        deadline: Option<Instant>,
        max_sims: Option<u64>,
        stop: &Stop,
        on_info: &mut dyn FnMut(&Info),
        interrupted: &mut dyn FnMut() -> bool,
        start: Instant,
    ) -> (u64, u32, bool) {
        let o = &self.options;
        let (solver, rave, grave_ref) = (o.solver, o.rave, o.grave_ref);
        let amaf_start = if grave_ref == 0 {
            1
        } else {
            o.amaf_start.clamp(1, grave_ref)
        };
        let popts = PlayoutOptions {
            decisive: o.decisive,
            cutoff: o.playout_cutoff.filter(|&c| c > 0),
            scale: o.cutoff_scale,
            eval: self.eval,
        };
        let root_ply = board.ply();
        let root_turn = board.turn() as usize;
        let mut next_info = start + INFO_EVERY;
        let mut sims = 0u64;
        let mut max_depth = 0u32;
        let mut full = false;
        let mut watch = Watch::new(stop, deadline, interrupted);
        while self.tree.nodes[root as usize].result.is_none() {
            if max_sims.is_some_and(|m| sims >= m) || watch.stop_set() || watch.tick(1) {
                break;
            }
            if watch.last_look() >= next_info {
                next_info = watch.last_look() + INFO_EVERY;
                let info = self.info(board, root, sims, max_depth, start);
                on_info(&info);
            }
            // Selection and expansion. Once the tree is full (`full`), it stops growing:
            // a simulation then plays out from where the tree ends.
            self.path.clear();
            let mut node = root;
            let mut refr = NONE;
            let mut turn = root_turn;
            // The leaf (`None`: a position the full tree has no node for) and whether it
            // is new.
            let mut cut = false;
            let (leaf, fresh) = loop {
                if !self.tree.nodes[node as usize].expanded() {
                    if full {
                        break (Some(node), false);
                    }
                    board.legal_moves(&mut self.legal);
                    let units = |n: usize| !watch.tick(n as u64 / Watch::UNIT_MOVES);
                    match self.tree.expand(node, &self.legal, G::move_id, units) {
                        Ok(true) => {}
                        Ok(false) => {
                            cut = true; // stopped: nothing of this simulation counts
                            break (None, false);
                        }
                        Err(Full) => {
                            full = true;
                            break (Some(node), false);
                        }
                    }
                    if rave && grave_ref == 0 {
                        match self.tree.add_table() {
                            Ok(t) => self.tree.nodes[node as usize].amaf = t,
                            Err(Full) => full = true,
                        }
                    }
                }
                if rave {
                    let nd = self.tree.nodes[node as usize];
                    let mut table = nd.amaf;
                    if table == NONE && nd.n >= amaf_start && !full {
                        match self.tree.add_table() {
                            Ok(t) => {
                                table = t;
                                self.tree.nodes[node as usize].amaf = t;
                            }
                            Err(Full) => full = true,
                        }
                    }
                    if table != NONE && nd.n >= grave_ref {
                        refr = table;
                    }
                }
                let i = self.select(node, refr);
                watch.tick(u64::from(self.tree.nodes[node as usize].len) / Watch::UNIT_MOVES);
                self.path.push((node, i));
                board.push(self.tree.move_at(i));
                let kid = self.tree.kids[i as usize];
                if kid == NONE {
                    if full {
                        break (None, false);
                    }
                    match self.new_node(board) {
                        Ok(k) => {
                            self.tree.kids[i as usize] = k;
                            break (Some(k), true);
                        }
                        Err(Full) => {
                            full = true;
                            break (None, false);
                        }
                    }
                }
                if self.tree.nodes[kid as usize].result.is_some() {
                    break (Some(kid), false);
                }
                node = kid;
                turn ^= 1;
            };
            if cut {
                break;
            }
            // The value for the first player: the proof, the end of the game, or a
            // playout.
            self.trace.clear();
            let proof = leaf.and_then(|l| self.tree.nodes[l as usize].result);
            let (v0, win_move) = match proof {
                Some(p) => {
                    let v = p.value(); // for `turn`, who moved into the leaf
                    (if turn == 0 { v } else { 1.0 - v }, None)
                }
                None => match board.playout(
                    &popts,
                    &mut self.rng,
                    &mut self.trace,
                    &mut self.scratch,
                    &mut watch,
                ) {
                    Some(value) => value,
                    None => break, // cut short by a limit or a stop: not counted
                },
            };
            sims += 1;
            max_depth = max_depth.max(self.path.len() as u32);
            // Backpropagation.
            let vt = [v0, 1.0 - v0];
            let mut t = root_turn;
            for &(nd, i) in &self.path {
                self.tree.nodes[nd as usize].n += 1;
                self.tree.cn[i as usize] += 1;
                self.tree.cw[i as usize] += vt[t];
                t ^= 1;
            }
            if let Some(l) = leaf {
                self.tree.nodes[l as usize].n += 1;
            }
            if rave && self.amaf_update(&vt, root_turn, win_move).is_err() {
                full = true;
            }
            while board.ply() > root_ply {
                board.pop();
            }
            if let Some(l) = leaf {
                if solver && fresh && proof.is_some() {
                    self.prove(l);
                }
            }
        }
        while board.ply() > root_ply {
            board.pop();
        }
        (sims, max_depth, full)
    }

    /// Count the simulation's moves in the AMAF tables along the path: each node's
    /// table gets the moves of the side to move there (path and playout), with the
    /// result for that side. With a full tree, what does not fit is left out (and
    /// `Full` returned).
    fn amaf_update(
        &mut self,
        vt: &[f64; 2],
        root_turn: usize,
        win_move: Option<G::Move>,
    ) -> std::result::Result<(), Full> {
        self.seq.clear();
        for &(_, i) in &self.path {
            self.seq.push(self.tree.aid[i as usize]);
        }
        let mut fits = Ok(());
        for k in 0..self.trace.len() + usize::from(win_move.is_some()) {
            let mv = self.trace.get(k).copied().or(win_move);
            let Some(mv) = mv else { break };
            // A move the full tree cannot number keeps its place (the sides alternate).
            let d = self.tree.dense(mv, G::move_id(mv)).unwrap_or_else(|e| {
                fits = Err(e);
                NONE
            });
            self.seq.push(d);
        }
        let mut t = root_turn;
        for depth in 0..self.path.len() {
            let table = self.tree.nodes[self.path[depth].0 as usize].amaf;
            if table != NONE {
                let r = vt[t] as f32;
                for k in (depth..self.seq.len()).step_by(2) {
                    let d = self.seq[k];
                    if d != NONE && self.tree.amaf_add(table, d, r).is_err() {
                        fits = Err(Full);
                    }
                }
            }
            t ^= 1;
        }
        fits
    }

    /// The node of the position just pushed, proven when the game is over there or the
    /// side to move wins at once.
    fn new_node(&mut self, board: &G) -> std::result::Result<u32, Full> {
        let k = self.tree.add_node()?;
        let nd = &mut self.tree.nodes[k as usize];
        if let Some(result) = board.result() {
            let mover = 1 - board.turn();
            nd.result = Some(match result.winner {
                None => Proof::Draw,
                Some(w) if w == mover => Proof::Win,
                Some(_) => Proof::Loss,
            });
        } else if self.options.solver {
            if let Some(win) = board.immediate_win() {
                nd.result = Some(Proof::Loss);
                nd.plies = 1;
                nd.win = Some(win);
            }
        }
        Ok(k)
    }

    /// The child slot to descend into: an unvisited child first (in random order) while
    /// there is no GRAVE reference, else the highest UCB1 / GRAVE value (the first of
    /// equal ones).
    fn select(&mut self, node: u32, refr: u32) -> u32 {
        let nd = self.tree.nodes[node as usize];
        let (first, k) = (nd.first, nd.len);
        let mut c = self.options.exploration();
        if refr == NONE {
            let mut e = nd.nexp;
            while e < k {
                let j = e + self.rng.below((k - e) as usize) as u32;
                if j != e {
                    self.tree
                        .swap_slots((first + e) as usize, (first + j) as usize);
                }
                self.tree.nodes[node as usize].nexp = e + 1;
                if self.tree.cn[(first + e) as usize] == 0 {
                    return first + e;
                }
                e += 1;
            }
            if c == 0.0 {
                c = UCT_EXPLORATION; // before GRAVE has a reference, UCT needs exploration
            }
            let c = c * sqrt_ln(nd.n);
            let range = first as usize..(first + k) as usize;
            let (cw, cn) = (&self.tree.cw[range.clone()], &self.tree.cn[range]);
            let mut best = 0;
            let mut best_v = f64::NEG_INFINITY;
            for (j, (&w, &m)) in cw.iter().zip(cn).enumerate() {
                // w / m + c / sqrt(m), by one table look-up
                let r = inv_sqrt(m);
                let v = r * (w * r + c);
                if v > best_v {
                    (best, best_v) = (j, v);
                }
            }
            return first + best as u32;
        }
        let bias = self.options.rave_bias;
        let c = if c != 0.0 { c * sqrt_ln(nd.n) } else { 0.0 };
        let range = first as usize..(first + k) as usize;
        let (cw, cn, aid) = (
            &self.tree.cw[range.clone()],
            &self.tree.cn[range.clone()],
            &self.tree.aid[range],
        );
        let table = self.tree.tables[refr as usize];
        let amaf = &self.tree.amaf[table.start as usize..(table.start + table.cap) as usize];
        let mut best = 0;
        let mut best_v = f64::NEG_INFINITY;
        for j in 0..cw.len() {
            let (w, m) = (cw[j], cn[j]);
            let mf = m as f64;
            let a = amaf.get(aid[j] as usize).copied().unwrap_or_default();
            let mut v = if a.n == 0 {
                if m > 0 {
                    w / mf
                } else {
                    1.0
                }
            } else {
                let (an, aw) = (a.n as f64, a.w as f64);
                if m > 0 {
                    // (1 - b) * w / m + b * aw / an with b = an / (an + m + bias an m),
                    // in one division.
                    (w * (1.0 + bias * an) + aw) / (an + mf + bias * an * mf)
                } else {
                    aw / an
                }
            };
            if c != 0.0 && m > 0 {
                v += c * inv_sqrt(m);
            }
            if v > best_v {
                (best, best_v) = (j, v);
            }
        }
        first + best as u32
    }

    /// MCTS-Solver: pass the new proof of `leaf` (the end of the current path) up the
    /// path while it proves the parents: a winning child proves its parent lost for the
    /// player who moved into it; a parent whose children are all proven takes the best
    /// of them.
    fn prove(&mut self, leaf: u32) {
        let mut child = leaf;
        for p in (0..self.path.len()).rev() {
            let (node, i) = self.path[p];
            let ch = self.tree.nodes[child as usize];
            let Some(v) = ch.result else {
                return;
            };
            let nd = &mut self.tree.nodes[node as usize];
            if v == Proof::Win {
                // The side to move here has a winning move.
                nd.result = Some(Proof::Loss);
                nd.plies = ch.plies + 1;
                child = node;
                continue;
            }
            if v == Proof::Loss {
                self.tree.cw[i as usize] = f64::NEG_INFINITY;
                nd.loss_plies = nd.loss_plies.max(ch.plies);
            }
            if nd.best.map_or(true, |b| v > b) {
                nd.best = Some(v);
            }
            nd.unproven -= 1;
            if nd.unproven > 0 {
                return;
            }
            nd.result = nd.best.map(Proof::flip);
            nd.plies = nd.loss_plies + 1;
            child = node;
        }
    }

    /// The most-visited child slot of `node` not proven lost (ties to the higher mean),
    /// or `None`.
    fn most_visited(&self, node: u32) -> Option<u32> {
        let nd = self.tree.nodes[node as usize];
        if !nd.expanded() {
            return None;
        }
        let mut best: Option<(u32, u32, f64)> = None;
        for s in nd.first..nd.first + nd.len {
            let (w, m) = (self.tree.cw[s as usize], self.tree.cn[s as usize]);
            if w == f64::NEG_INFINITY {
                continue;
            }
            let mean = if m > 0 { w / m as f64 } else { 0.0 };
            if best.map_or(true, |(_, bm, bmean)| (m, mean) > (bm, bmean)) {
                best = Some((s, m, mean));
            }
        }
        best.map(|b| b.0)
    }

    /// The move to play: a proven win (fastest) or, at a proven draw or loss, the move
    /// that keeps it longest; else the most-visited move not proven lost.
    fn best_move(&self, root: u32) -> G::Move {
        let nd = self.tree.nodes[root as usize];
        if let Some(result) = nd.result {
            if let Some(win) = nd.win {
                return win;
            }
            let want = result.flip(); // for the side to move
            let mut best: Option<(u32, u32)> = None;
            for s in nd.first..nd.first + nd.len {
                let kid = self.tree.kids[s as usize];
                if kid == NONE {
                    continue;
                }
                let k = self.tree.nodes[kid as usize];
                if k.result != Some(want) {
                    continue;
                }
                let better = match best {
                    None => true,
                    Some((_, plies)) if want == Proof::Win => k.plies < plies,
                    Some((_, plies)) => k.plies > plies,
                };
                if better {
                    best = Some((s, k.plies));
                }
            }
            if let Some((s, _)) = best {
                return self.tree.move_at(s);
            }
        }
        let s = self.most_visited(root).unwrap_or_else(|| {
            // Every child proven lost but the root not (cannot happen): the most visited.
            (nd.first..nd.first + nd.len)
                .max_by_key(|&s| self.tree.cn[s as usize])
                .unwrap_or(nd.first)
        });
        self.tree.move_at(s)
    }

    /// The report on the search so far.
    fn info(&self, board: &G, root: u32, sims: u64, depth: u32, start: Instant) -> Info {
        let nd = self.tree.nodes[root as usize];
        let mut pv: Vec<G::Move> = Vec::new();
        let mut mate = None;
        let score;
        if let Some(result) = nd.result {
            score = result.flip().value();
            if result != Proof::Draw {
                let plies = nd.plies.min(i32::MAX as u32) as i32;
                mate = Some(if result == Proof::Loss { plies } else { -plies });
            }
            if let Some(win) = nd.win {
                pv.push(win);
            }
        } else {
            score = match self.most_visited(root) {
                Some(s) if self.tree.cn[s as usize] > 0 => {
                    self.tree.cw[s as usize] / self.tree.cn[s as usize] as f64
                }
                _ => 0.5,
            };
        }
        if pv.is_empty() {
            let mut node = root;
            while node != NONE && pv.len() < MAX_PV {
                let n = self.tree.nodes[node as usize];
                if n.result.is_some() {
                    if let Some(win) = n.win {
                        pv.push(win);
                        break;
                    }
                }
                let Some(s) = self.most_visited(node) else {
                    break;
                };
                if self.tree.cn[s as usize] == 0 {
                    break;
                }
                pv.push(self.tree.move_at(s));
                node = self.tree.kids[s as usize];
            }
        }
        // The texts come from the position each move is played in.
        let mut line = board.clone();
        let mut texts = Vec::with_capacity(pv.len());
        for &mv in &pv {
            if line.result().is_some() {
                break;
            }
            texts.push(line.notation(mv));
            line.push(mv);
        }
        let time = start.elapsed().as_secs_f64();
        Info {
            depth,
            seldepth: depth,
            eval: None,
            score: score.clamp(0.0, 1.0),
            mate,
            pv: texts,
            nodes: sims,
            time,
            lines: Vec::new(),
        }
    }
}

/// The visit counts the tables of [`inv_sqrt`] and [`sqrt_ln`] cover.
const TABLE_SIZE: usize = 4096;

/// `(1 / sqrt(m), sqrt(ln m))` for `m < TABLE_SIZE`.
fn tables() -> &'static [(f64, f64)] {
    static TABLE: std::sync::OnceLock<Box<[(f64, f64)]>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        (0..TABLE_SIZE)
            .map(|m| {
                let m = m as f64;
                (1.0 / m.sqrt(), m.max(1.0).ln().sqrt())
            })
            .collect()
    })
}

/// `1 / sqrt(m)` (infinite for 0), from a table for small `m`.
#[inline(always)]
fn inv_sqrt(m: u32) -> f64 {
    match tables().get(m as usize) {
        Some(&(r, _)) => r,
        None => 1.0 / (m as f64).sqrt(),
    }
}

/// `sqrt(ln n)` (0 for n = 0 or 1), from a table for small `n`.
#[inline]
fn sqrt_ln(n: u32) -> f64 {
    match tables().get(n as usize) {
        Some(&(_, r)) => r,
        None => (n as f64).ln().sqrt(),
    }
}

/// The set-up, rules and moves of `game`'s history.
fn position_of<G: MctsGame>(game: &G) -> Kept<G> {
    let mut setup = game.clone();
    while setup.ply() > 0 {
        setup.pop();
    }
    Kept {
        setup: setup.position(),
        rules: game.game_rules(),
        history: game.history(),
    }
}
