//! What the players of the native core do on a fixed set of positions, printed so that
//! two builds can be compared line for line: a change that keeps the searches' trees
//! keeps this output byte for byte.
//!
//!     cargo run --release -p hexgames-core --example node_counts > after.txt
//!     diff node_counts.txt after.txt
//!
//! For each position (Andantino under several rule sets, extended play and the balance
//! variant among them, and tactical positions of the tests; Abande in the opening, the
//! middle game and the endgame) it prints the position string, then:
//! - alpha-beta at each fixed depth up to the position's deepest, under several option
//!   sets (the defaults, plain alpha-beta without the table, the arena's player, every
//!   selective option, the leaf threats, MultiPV and varied play): nodes, best move,
//!   eval or mate, depth and seldepth, and the principal variation;
//! - MCTS with a fixed seed and number of simulations (the defaults, UCT, decisive
//!   playouts): move, simulations, score and the most-visited line;
//! - the greedy player with fixed seeds, without and with noise: move, eval, nodes;
//! - in Abande endgames (both hands empty), the exact solver, exact and result only:
//!   value, move, difference, nodes.
//!
//! Positions come from seeded random play through the [`Game`] trait only, so they do
//! not depend on the search code. `node_counts.txt` beside this file is the output of
//! the code before issue 33's native move (see the commit that adds it), but for the
//! greedy lines: those are greedy's on alpha-beta's evaluation, which it has used since
//! (the alpha-beta, MCTS and solver lines did not change with it).

use hexgames_core::abande;
use hexgames_core::abande::ai::solver::{Solve, Solver};
use hexgames_core::andantino::{self, SelfTrap};
use hexgames_core::search::alphabeta::{AlphaBeta, Options, SearchGame};
use hexgames_core::search::greedy::{Greedy, GreedyGame};
use hexgames_core::search::mcts::{Mcts, MctsGame, MctsOptions};
use hexgames_core::search::{Info, Limits, Stop};
use hexgames_core::zobrist::Rng;
use hexgames_core::Game;

#[allow(dead_code)]
mod common;
mod texel;
use common::random_play;
use texel::{arena_andantino_weights, arena_options};

/// A search limit of `nodes` (positions or simulations).
fn nodes(nodes: u64) -> Limits {
    Limits {
        nodes: Some(nodes),
        ..Limits::default()
    }
}

fn info_line(info: &Info) -> String {
    let value = match (info.mate, info.eval) {
        (Some(m), _) => format!("mate {m}"),
        (None, Some(e)) => format!("eval {e}"),
        (None, None) => format!("score {:.4}", info.score),
    };
    format!(
        "nodes {} {value} depth {} sel {} pv {}",
        info.nodes,
        info.depth,
        info.seldepth,
        info.pv.join(" ")
    )
}

/// One option set of alpha-beta: its name, options and the evaluation's weights.
type Set<G> = (&'static str, Options, <G as SearchGame>::Weights);

fn alphabeta<G: SearchGame>(g: &G, sets: &[Set<G>], max_depth: u32) {
    for (name, options, weights) in sets {
        // A fresh player per depth (each search from an empty table); plain alpha-beta
        // to 5 plies at most.
        let deepest = if *name == "plain" {
            max_depth.min(5)
        } else {
            max_depth
        };
        for depth in 1..=deepest {
            let mut ab = AlphaBeta::<G>::with_weights(16, *options, *weights).unwrap();
            let limits = Limits {
                depth: Some(depth),
                ..Limits::default()
            };
            let r = ab
                .search(g, &limits, &Stop::new(), &mut |_| {}, &mut || false)
                .unwrap();
            let mut line = format!(
                "  ab {name} d{depth}: {} {}",
                g.notation(r.best),
                info_line(&r.info)
            );
            if r.lines.len() > 1 {
                let scores: Vec<String> = r
                    .lines
                    .iter()
                    .map(|l| format!("{}={:?}/{:?}", l.pv[0], l.eval, l.mate))
                    .collect();
                line += &format!(" lines {}", scores.join(" "));
            }
            println!("{line}");
        }
        // And iterative deepening with one player kept (the table and history carried
        // from one iteration and one search to the next).
        let mut ab = AlphaBeta::<G>::with_weights(16, *options, *weights).unwrap();
        for n in [2_000, 20_000] {
            let r = ab.search(g, &nodes(n), &Stop::new(), &mut |_| {}, &mut || false);
            let r = r.unwrap();
            println!(
                "  ab {name} n{n}: {} {}",
                g.notation(r.best),
                info_line(&r.info)
            );
        }
    }
}

fn mcts<G: MctsGame>(g: &G, sims: u64) {
    let uct = MctsOptions {
        rave: false,
        ..MctsOptions::default()
    };
    let decisive = MctsOptions {
        decisive: true,
        seed: 7,
        ..MctsOptions::default()
    };
    for (name, options) in [
        ("default", MctsOptions::default()),
        ("uct", uct),
        ("decisive", decisive),
    ] {
        let mut m = Mcts::<G>::new(options).unwrap();
        let r = m.search(g, &nodes(sims), &Stop::new(), &mut |_| {}, &mut || false);
        let r = r.unwrap();
        println!(
            "  mcts {name} {sims}: {} {} tree {}",
            g.notation(r.best),
            info_line(&r.info),
            m.tree_nodes()
        );
    }
}

fn greedy<G: GreedyGame>(g: &G) {
    for noise in [0.0, 0.5] {
        let moves: Vec<String> = (0..4)
            .map(|seed| {
                let r = Greedy::new(seed, noise).unwrap().choose(g).unwrap();
                format!(
                    "{}({})",
                    g.notation(r.best),
                    match (r.info.mate, r.info.eval) {
                        (Some(m), _) => format!("mate {m}"),
                        (None, Some(e)) => format!("{e}, {} nodes", r.info.nodes),
                        _ => "?".to_string(),
                    }
                )
            })
            .collect();
        println!("  greedy noise {noise}: {}", moves.join(" "));
    }
}

fn solve(b: &abande::Board) {
    let (black, white) = b.hands();
    if black > 0 || white > 0 {
        return;
    }
    for exact in [true, false] {
        let mut s = Solver::new(16).unwrap();
        match s
            .solve(b, exact, None, None, &Stop::new(), &mut || false)
            .unwrap()
        {
            Solve::Solved(r) => println!(
                "  solver exact={exact}: value {} best {} diff {} nodes {} pv {}",
                r.value,
                r.best.map_or("-".to_string(), |m| b.notation(m)),
                r.diff,
                r.nodes,
                r.pv.iter()
                    .map(|&m| b.notation(m))
                    .collect::<Vec<_>>()
                    .join(" ")
            ),
            Solve::GaveUp { nodes } => println!("  solver exact={exact}: gave up at {nodes}"),
        }
    }
}

/// The alpha-beta option sets: the defaults, plain alpha-beta (no PVS, no table), the
/// arena's player (with the `arena` weights), every selective option (with the
/// `selective` weights), the leaf threats, MultiPV and varied play.
fn option_sets<G: SearchGame>(game: &str, arena: G::Weights, selective: G::Weights) -> Vec<Set<G>> {
    let own = G::Weights::default();
    let sets = option_sets_of(arena_options(game));
    sets.into_iter()
        .map(|(name, options)| {
            let weights = match name {
                "default" | "plain" => own,
                "selective" => selective,
                _ => arena,
            };
            (name, options, weights)
        })
        .collect()
}

fn option_sets_of(arena: Options) -> Vec<(&'static str, Options)> {
    vec![
        ("default", Options::default()),
        (
            "plain",
            Options {
                pvs: false,
                use_tt: false,
                ..Options::default()
            },
        ),
        ("arena", arena),
        (
            "selective",
            Options {
                null_move: true,
                lmp: 2,
                lmr_log: 200,
                rfp: 100,
                tt_deeper: true,
                aspiration: 30,
                ..arena
            },
        ),
        (
            "threats",
            Options {
                leaf_threats: true,
                settle_leaves: false,
                history_malus: Some(true),
                order_weight: Some(1 << 24),
                ..arena
            },
        ),
        (
            "multipv",
            Options {
                multipv: 3,
                ..arena
            },
        ),
        (
            "varied",
            Options {
                randomness: 40,
                seed: 5,
                ..arena
            },
        ),
    ]
}

fn andantino_positions() -> Vec<(String, andantino::Board, u32)> {
    let d = andantino::Rules::default();
    let rule_sets = [
        ("standard", d),
        (
            "balance",
            andantino::Rules {
                single_adjacency: true,
                ..d
            },
        ),
        (
            "self-trap-ignore",
            andantino::Rules {
                self_trap: SelfTrap::Ignore,
                ..d
            },
        ),
        (
            "self-trap-illegal",
            andantino::Rules {
                self_trap: SelfTrap::Illegal,
                ..d
            },
        ),
        (
            "tiles-12",
            andantino::Rules {
                tiles_per_player: Some(12),
                ..d
            },
        ),
        (
            "unlimited",
            andantino::Rules {
                tiles_per_player: None,
                ..d
            },
        ),
        (
            "extended",
            andantino::Rules {
                extended: true,
                tiles_per_player: Some(8),
                extended_move_limit: 30,
                ..d
            },
        ),
    ];
    let mut out = Vec::new();
    for (k, (name, rules)) in rule_sets.into_iter().enumerate() {
        let start = andantino::Board::new(None, rules).unwrap();
        out.push((format!("{name} start"), start.clone(), 7));
        for (i, plies) in [8, 20].into_iter().enumerate() {
            let g = random_play(&start, 100 + 10 * k as u64 + i as u64, plies);
            out.push((format!("{name} {plies} plies"), g, 7));
        }
    }
    // Extended play deep into the relocations.
    let extended = andantino::Rules {
        extended: true,
        tiles_per_player: Some(6),
        extended_move_limit: 40,
        ..d
    };
    let start = andantino::Board::new(None, extended).unwrap();
    out.push((
        "extended relocating".to_string(),
        random_play(&start, 177, 16),
        5,
    ));
    // The tests' tactical positions: a line in one, a trap in one, a four to block, a
    // double threat, an open four.
    for (name, position) in [
        (
            "line win",
            "andantino w=0,0;1,0;2,0;3,0 r=4,0;-1,1;1,1;2,-1 turn=w",
        ),
        (
            "trap win",
            "andantino w=1,0;-1,0;0,1;0,-1;1,-1 r=0,0;2,0;2,-1;-2,0;-2,1 turn=w",
        ),
        (
            "block",
            "andantino w=0,0;1,0;4,1;-1,0 r=0,1;1,1;2,1;3,1 turn=w",
        ),
        (
            "double threat",
            "andantino w=1,-2;2,-1;-1,0;0,0;-1,1;0,1;-2,2;-1,2;0,2;-4,3;1,3;-1,4;0,4 \
             r=-1,-1;0,-1;1,-1;1,0;1,1;2,1;-3,2;1,2;-3,3;-2,3;-1,3;0,3 turn=r hands=w12,r13",
        ),
        ("open four", "andantino w=0,0;1,0;2,0 r=-2,0;3,1;1,1 turn=w"),
        (
            "trap block",
            "andantino w=0,0;2,0;2,-2;-2,0;-2,2;0,2 r=1,0;1,-1;0,-1;-1,0;-1,1 turn=w",
        ),
    ] {
        out.push((
            name.to_string(),
            andantino::Board::new(Some(position), d).unwrap(),
            7,
        ));
    }
    out
}

fn abande_positions() -> Vec<(String, abande::Board, u32)> {
    let rules = abande::Rules::default();
    let start = abande::Board::new(None, rules).unwrap();
    let mut out = vec![("start".to_string(), start.clone(), 7)];
    for (seed, plies, depth) in [(200, 6, 7), (201, 20, 7), (202, 34, 7), (203, 44, 7)] {
        out.push((
            format!("{plies} plies"),
            random_play(&start, seed, plies),
            depth,
        ));
    }
    // Endgames: both hands empty.
    for seed in [210, 211, 212] {
        let mut g = random_play(&start, seed, 36);
        let mut rng = Rng::new(seed);
        let mut moves = Vec::new();
        // Fill the hands (entries first) and play a few captures.
        while g.hands() != (0, 0) && g.result().is_none() {
            Game::legal_moves(&g, &mut moves);
            let entries: Vec<abande::Move> = moves
                .iter()
                .copied()
                .filter(|m| !m.is_stack_move())
                .collect();
            let pool = if entries.is_empty() { &moves } else { &entries };
            g.push(pool[rng.below(pool.len())]);
        }
        if g.result().is_some() {
            continue;
        }
        let g = random_play(&g, seed + 1, 4);
        out.push((format!("endgame {seed}"), g, 8));
    }
    for (name, position) in [
        (
            "pass win",
            "abande a1=W a3=B b1=BW b2=BWB b3=BBW b4=B c1=W c3=BBW c5=B d1=BBW d2=BWB \
             d6=W e1=W e2=WBW e6=W f1=BW f3=WWB g1=B g2=W g3=W turn=w hands=b0,w0 passes=1",
        ),
        (
            "block",
            "abande a2=WB a4=W b1=WWB b3=W b4=BBW b5=WB c2=W c3=BWB c4=B c5=B d2=W d3=B \
             d6=BWB d7=B e1=B e3=B e4=WBW e6=W f3=BW f5=W g1=W g2=W g3=B turn=w hands=b0,w0",
        ),
    ] {
        out.push((
            name.to_string(),
            abande::Board::new(Some(position), rules).unwrap(),
            8,
        ));
    }
    out
}

fn main() {
    // An optional first argument lowers every position's deepest search (a quick look).
    let cap: u32 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(u32::MAX);
    let arena = arena_andantino_weights();
    let selective = andantino::ai::Weights { three: 40, ..arena };
    let sets = option_sets::<andantino::Board>("andantino", arena, selective);
    report(andantino_positions(), &sets, cap, |_| {});
    let own = abande::ai::Weights::default();
    let selective = abande::ai::Weights { tempo: 20, ..own };
    let sets = option_sets::<abande::Board>("abande", own, selective);
    report(abande_positions(), &sets, cap, solve);
}

/// Every player on each of `positions` (name, position, deepest alpha-beta search at
/// most `cap`), then `more`.
fn report<G: MctsGame + GreedyGame>(
    positions: Vec<(String, G, u32)>,
    sets: &[Set<G>],
    cap: u32,
    more: impl Fn(&G),
) {
    for (name, g, depth) in positions {
        println!("{} {name}: {}", G::NAME, g.position());
        alphabeta(&g, sets, depth.min(cap));
        mcts(&g, 3000);
        greedy(&g);
        more(&g);
    }
}
