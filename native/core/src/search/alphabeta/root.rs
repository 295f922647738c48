//! The root: iterative deepening, the root's moves (MultiPV, varied play), aspiration
//! windows, and the report of a line.

use super::game::SearchGame;
use super::movepick::sort_in_steps;
use super::search::{terminal, Search};
use super::{Options, SearchResult, ASPIRATION_DEPTH, INF, MATE, MATE_BOUND};
use crate::game::Color;
use crate::search::tt::Bound;
use crate::search::{win_probability, Info};
use crate::zobrist::Rng;

/// `(mate in plies, win probability)` of a score.
pub(super) fn mate_and_probability(score: i32, scale: f64) -> (Option<i32>, f64) {
    if score > MATE_BOUND {
        (Some(MATE - score), 1.0)
    } else if score < -MATE_BOUND {
        (Some(-(MATE + score)), 0.0)
    } else {
        (None, win_probability(score as f64, scale))
    }
}

/// One root line of an iteration.
#[derive(Clone)]
struct Line<M> {
    mv: M,
    score: i32,
    pv: Vec<M>,
}

impl<G: SearchGame> Search<'_, G> {
    pub(super) fn run(
        &mut self,
        max_depth: u32,
        options: Options,
        rng: &mut Rng,
        on_info: &mut dyn FnMut(&Info),
    ) -> SearchResult<G::Move> {
        let mover = self.game.turn();
        let mut root: Vec<G::Move> = Vec::new();
        self.game.legal_moves(&mut root);
        let tt_move = self.tt_move();
        self.order_into(&root, tt_move, 0, mover);
        let mut order: Vec<G::Move> = self.scored[0].iter().map(|&(_, _, m)| m).collect();
        let multipv = (options.multipv as usize).min(order.len()).max(1);
        let randomness = options.randomness;
        let mut best: Line<G::Move> = Line {
            mv: order[0],
            score: -INF,
            pv: vec![order[0]],
        };
        let mut completed: Vec<Line<G::Move>> = Vec::new();
        let mut candidates: Vec<(G::Move, i32)> = Vec::new();
        let mut depth_done = 0;
        let mut seldepth_done = 0;
        let mut scores: Vec<i32> = vec![-INF; order.len()];
        for depth in 1..=max_depth {
            let mut lines: Vec<Line<G::Move>> = Vec::with_capacity(multipv);
            let mut iteration_candidates: Vec<(G::Move, i32)> = Vec::new();
            for k in 0..multipv {
                let margin = if k == 0 { randomness } else { 0 };
                let excluded: Vec<G::Move> = lines.iter().map(|l| l.mv).collect();
                let last = completed.first().map(|l| l.score);
                let found = match last {
                    Some(last)
                        if multipv == 1
                            && margin == 0
                            && options.aspiration > 0
                            && depth >= ASPIRATION_DEPTH
                            && last.abs() < MATE_BOUND =>
                    {
                        self.aspirated(
                            depth,
                            &order,
                            &mut scores,
                            options.aspiration,
                            last,
                            mover,
                            &mut best,
                        )
                    }
                    _ => self.root(
                        depth,
                        &order,
                        &excluded,
                        &mut scores,
                        margin,
                        &mut iteration_candidates,
                        mover,
                        if k == 0 { Some(&mut best) } else { None },
                        (-INF, INF),
                    ),
                };
                match found {
                    Some(line) => lines.push(line),
                    None => break,
                }
                if self.aborted {
                    break;
                }
            }
            if self.aborted {
                break;
            }
            // The iteration is complete.
            best = lines[0].clone();
            depth_done = depth;
            seldepth_done = self.seldepth;
            candidates = iteration_candidates;
            if let Some(tt) = self.tt.as_deref_mut() {
                tt.store(
                    self.game.zobrist(),
                    depth as i32,
                    Bound::Exact,
                    best.score,
                    Some(best.mv),
                );
            }
            self.time.iteration(G::move_id(best.mv), best.score);
            completed = lines;
            let mut info = self.info(&best, depth_done, seldepth_done);
            if multipv > 1 {
                // the page shows every line as it deepens, not only once the search ends
                info.lines = completed
                    .iter()
                    .map(|l| self.info(l, depth_done, seldepth_done))
                    .collect();
            }
            on_info(&info);
            if best.score.abs() > MATE_BOUND || order.len() == 1 {
                break;
            }
            if self.stop.is_set() || !self.time.next_iteration() {
                break;
            }
            // Next iteration: the lines first, then by this iteration's scores (stably:
            // `keyed` is in the order's order).
            let mut keyed: Vec<(i64, usize, G::Move)> = order
                .iter()
                .enumerate()
                .map(|(i, &m)| {
                    let line = completed.iter().position(|l| l.mv == m);
                    let key = match line {
                        Some(j) => i64::from(INF) * 2 - j as i64,
                        None => i64::from(scores[i]),
                    };
                    (key, i, m)
                })
                .collect();
            if !sort_in_steps(&mut keyed, |a| a.0, |n| self.busy(n)) {
                break;
            }
            let new_scores: Vec<i32> = keyed.iter().map(|&(_, i, _)| scores[i]).collect();
            order = keyed.into_iter().map(|(_, _, m)| m).collect();
            scores = new_scores;
        }
        // The move: the last completed iteration's, or the current one's if it beat it.
        let principal = match completed.first() {
            Some(line) if line.mv == best.mv => line.clone(),
            _ => best.clone(),
        };
        let mut chosen = principal.mv;
        if randomness > 0 && completed.first().is_some_and(|l| l.mv == best.mv) {
            chosen = choose(&candidates, principal.score, randomness, rng).unwrap_or(chosen);
        }
        let seldepth = seldepth_done.max(depth_done as usize);
        let mut info = self.info(&principal, depth_done, seldepth);
        if chosen != principal.mv {
            if let Some(&(_, s)) = candidates.iter().find(|c| c.0 == chosen) {
                info = self.info(
                    &Line {
                        mv: chosen,
                        score: s,
                        pv: vec![chosen],
                    },
                    depth_done,
                    seldepth,
                );
            }
        }
        let mut lines: Vec<Info> = completed
            .iter()
            .map(|l| self.info(l, depth_done, seldepth))
            .collect();
        match lines.first_mut() {
            Some(first) => *first = info.clone(),
            None => lines.push(info.clone()),
        }
        SearchResult {
            best: chosen,
            info,
            lines,
        }
    }

    fn info(&self, line: &Line<G::Move>, depth: u32, seldepth: usize) -> Info {
        let score = if line.score == -INF { 0 } else { line.score };
        let (mate, probability) = mate_and_probability(score, G::PROBABILITY_SCALE);
        Info {
            depth,
            seldepth: seldepth.max(depth as usize) as u32,
            eval: if mate.is_none() { Some(score) } else { None },
            score: probability,
            mate,
            pv: line.pv.iter().map(|&m| self.game.notation(m)).collect(),
            nodes: self.nodes,
            time: self.start.elapsed().as_secs_f64(),
            lines: Vec::new(),
        }
    }

    fn tt_move(&self) -> Option<G::Move> {
        let tt = self.tt.as_deref()?;
        tt.probe(self.game.zobrist()).and_then(|e| e.mv)
    }

    /// One search of the root at `depth` over the moves of `order` not in `excluded`.
    /// Updates `scores` (by place in `order`), `best` as soon as the first move is
    /// beaten (line 0 only), and with a `margin` the candidates of varied play.
    #[allow(clippy::too_many_arguments)]
    fn root(
        &mut self,
        depth: u32,
        order: &[G::Move],
        excluded: &[G::Move],
        scores: &mut [i32],
        margin: i32,
        candidates: &mut Vec<(G::Move, i32)>,
        mover: Color,
        mut best: Option<&mut Line<G::Move>>,
        window: (i32, i32),
    ) -> Option<Line<G::Move>> {
        let depth = depth as i32;
        let (mut alpha, beta) = window;
        let mut cur: Option<Line<G::Move>> = None;
        let mut first = true;
        candidates.clear();
        for (i, &mv) in order.iter().enumerate() {
            if excluded.contains(&mv) {
                continue;
            }
            let ended = self.push(mv, mover);
            self.pv[1].clear();
            let mut exact = true;
            let v = if let Some(result) = ended {
                terminal(result, mover, 0)
            } else if margin > 0 && !first {
                // Varied play: exact scores down to `margin` below the best.
                let floor = alpha.saturating_sub(margin).max(-INF + 1);
                let mut v = -self.negamax(depth - 1, -floor, -(floor - 1), 1);
                if v >= floor && !self.aborted {
                    v = -self.negamax(depth - 1, -beta, -(floor - 1), 1);
                } else {
                    exact = false;
                }
                v
            } else if first || !self.pvs {
                -self.negamax(depth - 1, -beta, -alpha, 1)
            } else {
                let mut v = -self.negamax(depth - 1, -alpha - 1, -alpha, 1);
                if v > alpha && !self.aborted {
                    v = -self.negamax(depth - 1, -beta, -alpha, 1);
                } else {
                    exact = false;
                }
                v
            };
            self.pop(mv, mover, ended.is_some());
            if self.aborted {
                break;
            }
            first = false;
            scores[i] = v;
            if margin > 0 && exact {
                candidates.push((mv, v));
            }
            if cur.as_ref().map_or(true, |c| v > c.score) {
                let mut pv = vec![mv];
                if ended.is_none() {
                    pv.extend_from_slice(&self.pv[1]);
                }
                let line = Line { mv, score: v, pv };
                if let Some(b) = best.as_deref_mut() {
                    *b = line.clone();
                }
                cur = Some(line);
            }
            if v > alpha {
                alpha = v;
            }
            if v >= beta {
                break; // fails high: the caller widens the window
            }
        }
        cur
    }

    /// The root searched within aspiration windows around `last` (the last iteration's
    /// score), `delta` points wide either side and twice as wide on the side it fails
    /// on, until its score falls inside: the line of [`Search::root`]. After a fail-low
    /// `best` goes back to what it was (its moves' scores were only bounds); if the
    /// search is cut off before a score falls inside, `best` is the last iteration's
    /// move or the last one that failed high.
    #[allow(clippy::too_many_arguments)]
    fn aspirated(
        &mut self,
        depth: u32,
        order: &[G::Move],
        scores: &mut [i32],
        mut delta: i32,
        last: i32,
        mover: Color,
        best: &mut Line<G::Move>,
    ) -> Option<Line<G::Move>> {
        // The move to play if the search is cut off before a score falls inside: the
        // last iteration's, or one that failed high since.
        let mut keep = best.clone();
        let (mut low, mut high) = (last.saturating_sub(delta), last.saturating_add(delta));
        let mut candidates = Vec::new();
        loop {
            low = low.max(-INF);
            high = high.min(INF);
            let line = self.root(
                depth,
                order,
                &[],
                scores,
                0,
                &mut candidates,
                mover,
                Some(&mut *best),
                (low, high),
            )?;
            if self.aborted {
                // Cut off: keep the search's best only if its score is exact (inside the
                // window), else the last good move.
                if line.score <= low || line.score >= high {
                    *best = keep;
                }
                return Some(line);
            }
            delta = delta.saturating_mul(2);
            if line.score <= low && low > -INF {
                *best = keep.clone();
                low = line.score.saturating_sub(delta);
            } else if line.score >= high && high < INF {
                keep = line.clone();
                high = line.score.saturating_add(delta);
            } else {
                return Some(line);
            }
        }
    }
}

/// A move drawn among `candidates` (exact root scores) within `margin` of `best`; a
/// proven win is always the best move, a proven loss is never drawn unless all are.
fn choose<M: Copy>(candidates: &[(M, i32)], best: i32, margin: i32, rng: &mut Rng) -> Option<M> {
    if best > MATE_BOUND {
        return None; // play the (fastest) win: the best move
    }
    let pool: Vec<M> = candidates
        .iter()
        .filter(|&&(_, s)| s >= best.saturating_sub(margin) && s >= -MATE_BOUND)
        .map(|&(m, _)| m)
        .collect();
    if pool.is_empty() {
        return None;
    }
    Some(pool[rng.below(pool.len())])
}
