//! The alpha-beta player's tests: forced results, values equal under every exact
//! option, the selective options, the limits.

use std::time::{Duration, Instant};

use super::movepick::{sort_in_steps, SORT_RUN};
use super::root::mate_and_probability;
use super::search::terminal;
use super::*;
use crate::abande::ai::Captures;
use crate::game::Game;
use crate::{abande, andantino};

#[test]
fn logarithmic_reductions() {
    assert!(reductions(0).is_empty());
    let r = reductions(200);
    for d in 3..64 {
        for i in 3..64 {
            let x = i32::from(r[d][i]);
            // At least one ply, and the reduced search keeps at least one.
            assert!(x >= 1 && d as i32 - 1 - x >= 1, "{d} {i} {x}");
            // Never less for a later move or a deeper node.
            assert!(r[d][i] >= r[d][i - 1] && r[d][i] >= r[d - 1][i]);
        }
    }
    // ln(10) * ln(21) / 2 = 3.5: four plies.
    assert_eq!(r[10][20], 4);
    assert_eq!(r[3][3], 1);
}

fn search<G: SearchGame>(game: &G, limits: Limits, options: Options) -> SearchResult<G::Move> {
    search_with(game, limits, options, G::Weights::default())
}

fn search_with<G: SearchGame>(
    game: &G,
    limits: Limits,
    options: Options,
    weights: G::Weights,
) -> SearchResult<G::Move> {
    let mut ab = AlphaBeta::<G>::with_weights(8, options, weights).unwrap();
    ab.search(game, &limits, &Stop::new(), &mut |_| {}, &mut || false)
        .unwrap()
}

fn depth(d: u32) -> Limits {
    Limits {
        depth: Some(d),
        ..Limits::default()
    }
}

fn random_positions<G: SearchGame>(start: &G, count: usize, seed: u64) -> Vec<G> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    while out.len() < count {
        let mut g = start.clone();
        for _ in 0..6 + rng.below(20) {
            g.legal_moves(&mut moves);
            g.push(moves[rng.below(moves.len())]);
            if g.result().is_some() {
                break;
            }
        }
        if g.result().is_none() {
            out.push(g);
        }
    }
    out
}

fn andantino(position: &str) -> andantino::Board {
    andantino::Board::new(Some(position), andantino::Rules::default()).unwrap()
}

fn best(board: &andantino::Board, d: u32) -> (String, Info) {
    let r = search(board, depth(d), Options::default());
    (r.best.notation(), r.info)
}

#[test]
fn mate_scores_through_the_table() {
    let win = MATE - 7;
    assert_eq!(from_tt(to_tt(win, 3), 3), win);
    assert_eq!(to_tt(win, 3), MATE - 4); // a win in 4 plies from the node
    assert_eq!(from_tt(to_tt(-win, 5), 5), -win);
    assert_eq!(to_tt(123, 9), 123);
    let (mate, p) = mate_and_probability(MATE - 3, 250.0);
    assert_eq!((mate, p), (Some(3), 1.0));
    assert_eq!(mate_and_probability(-(MATE - 2), 250.0), (Some(-2), 0.0));
    assert_eq!(mate_and_probability(0, 250.0), (None, 0.5));
}

#[test]
fn forced_results_in_andantino() {
    // A line in one, a trap in one (docs/rules.md's example), defend a four, lose to a
    // double threat: hexgames 0.1's test positions.
    let (mv, info) = best(
        &andantino("andantino w=0,0;1,0;2,0;3,0 r=4,0;-1,1;1,1;2,-1 turn=w"),
        3,
    );
    assert_eq!((mv.as_str(), info.mate), ("-1,0", Some(1)));
    let trap = "andantino w=1,0;-1,0;0,1;0,-1;1,-1 r=0,0;2,0;2,-1;-2,0;-2,1 turn=w";
    let (mv, info) = best(&andantino(trap), 3);
    assert_eq!((mv.as_str(), info.mate), ("-1,1", Some(1)));
    let block = "andantino w=0,0;1,0;4,1;-1,0 r=0,1;1,1;2,1;3,1 turn=w";
    let (mv, info) = best(&andantino(block), 3);
    assert_eq!((mv.as_str(), info.mate), ("-1,1", None));
    let double = "andantino w=1,-2;2,-1;-1,0;0,0;-1,1;0,1;-2,2;-1,2;0,2;-4,3;1,3;-1,4;0,4 \
                  r=-1,-1;0,-1;1,-1;1,0;1,1;2,1;-3,2;1,2;-3,3;-2,3;-1,3;0,3 turn=r \
                  hands=w12,r13";
    let mut board = andantino(double);
    let (mv, info) = best(&board, 3);
    assert_eq!((mv.as_str(), info.mate), ("-2,0", Some(3)));
    board.push(board.parse_move("-2,0").unwrap());
    let (_, info) = best(&board, 3);
    assert_eq!(info.mate, Some(-2));
    let open_four = "andantino w=0,0;1,0;2,0 r=-2,0;3,1;1,1 turn=w";
    let (mv, info) = best(&andantino(open_four), 3);
    assert_eq!((mv.as_str(), info.mate), ("3,0", Some(3)));
}

#[test]
fn null_move_keeps_the_forced_results_and_the_board() {
    let options = Options {
        lmr: true,
        null_move: true,
        ..Options::default()
    };
    let cases = [
        (
            "andantino w=0,0;1,0;2,0;3,0 r=4,0;-1,1;1,1;2,-1 turn=w",
            "-1,0",
            Some(1),
        ),
        (
            "andantino w=0,0;1,0;4,1;-1,0 r=0,1;1,1;2,1;3,1 turn=w",
            "-1,1",
            None,
        ),
        (
            "andantino w=0,0;1,0;2,0 r=-2,0;3,1;1,1 turn=w",
            "3,0",
            Some(3),
        ),
    ];
    for (position, mv, mate) in cases {
        let r = search(&andantino(position), depth(6), options);
        assert_eq!(
            (r.info.pv[0].as_str(), r.info.mate),
            (mv, mate),
            "{position}"
        );
    }
    // The null move is its own inverse and changes only the side to move.
    let start = andantino::Board::new(None, andantino::Rules::default()).unwrap();
    for mut g in random_positions(&start, 10, 14) {
        let (key, position) = (g.zobrist(), g.position());
        SearchGame::flip_turn(&mut g);
        assert_ne!(g.zobrist(), key);
        assert_ne!(g.turn(), andantino(&position).turn());
        SearchGame::flip_turn(&mut g);
        assert_eq!((g.zobrist(), g.position()), (key, position));
    }
}

fn values_agree<G: SearchGame>(start: &G, d: u32, a: Options, b: Options, seed: u64) -> u64 {
    let mut saved = 0i64;
    for g in random_positions(start, 25, seed) {
        let x = search(&g, depth(d), a);
        let y = search(&g, depth(d), b);
        assert_eq!(
            (x.info.eval, x.info.mate),
            (y.info.eval, y.info.mate),
            "{}",
            g.position()
        );
        saved += y.info.nodes as i64 - x.info.nodes as i64;
    }
    saved.max(0) as u64
}

/// Positions of games played half greedily (the best last-ply value), half at
/// random, 10 to 49 plies in: lines, fours and walls come up.
fn greedy_positions(start: &andantino::Board, count: usize, seed: u64) -> Vec<andantino::Board> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    let mut moves = Vec::new();
    while out.len() < count {
        let mut g = start.clone();
        let mut aux = g.new_aux();
        for _ in 0..10 + rng.below(40) {
            g.legal_moves(&mut moves);
            let base = g.evaluate(&aux);
            let mut mv = moves[rng.below(moves.len())];
            if rng.below(2) == 0 {
                let value = |m| g.leaf_value(&aux, base, m).map_or(base, |l| l.value);
                mv = *moves.iter().max_by_key(|&&m| value(m)).unwrap();
            }
            let mover = g.turn();
            g.push(mv);
            if g.result().is_some() {
                break;
            }
            g.push_aux(&mut aux, mv, mover);
        }
        if g.result().is_none() {
            out.push(g);
        }
    }
    out
}

#[test]
fn settled_leaves_search_the_same_tree() {
    // Scoring settled last-ply moves without a push changes nothing but the time:
    // the same value, move, line and node count at every depth, under rules whose
    // game ends differ, with and without the forcing moves followed at the leaves.
    let d = andantino::Rules::default();
    let rule_sets = [
        d,
        andantino::Rules {
            single_adjacency: true,
            ..d
        },
        andantino::Rules {
            self_trap: andantino::SelfTrap::Ignore,
            ..d
        },
        andantino::Rules {
            tiles_per_player: Some(12),
            ..d
        },
        andantino::Rules {
            tiles_per_player: None,
            ..d
        },
    ];
    for (k, rules) in rule_sets.into_iter().enumerate() {
        let start = andantino::Board::new(None, rules).unwrap();
        for (i, g) in greedy_positions(&start, 8, 40 + k as u64)
            .iter()
            .enumerate()
        {
            let options = Options {
                lmr: true,
                leaf_threats: i % 2 == 0,
                ..Options::default()
            };
            let weights = andantino::ai::Weights {
                tempo: 30,
                right: 40,
                ..Default::default()
            };
            let plain = Options {
                settle_leaves: false,
                ..options
            };
            for d in 1..=6 {
                let x = search_with(g, depth(d), options, weights);
                let y = search_with(g, depth(d), plain, weights);
                let line = |r: &SearchResult<andantino::Move>| {
                    (
                        r.best,
                        r.info.eval,
                        r.info.mate,
                        r.info.nodes,
                        r.info.pv.clone(),
                    )
                };
                assert_eq!(line(&x), line(&y), "{} depth {d}", g.position());
            }
        }
    }
}

#[test]
fn late_move_pruning_skips_only_quiet_moves() {
    // Abande at 4 plies: the tree shrinks and the move stays legal; captures are
    // the noisy moves that are never pruned.
    let start = abande::Board::new(None, abande::Rules::default()).unwrap();
    let pruned = Options {
        lmp: 2,
        ..Options::default()
    };
    let (mut fewer, mut legal) = (0, Vec::new());
    for g in random_positions(&start, 20, 71) {
        let (x, y) = (
            search(&g, depth(4), pruned),
            search(&g, depth(4), Options::default()),
        );
        Game::legal_moves(&g, &mut legal);
        assert!(legal.contains(&x.best));
        fewer += usize::from(x.info.nodes < y.info.nodes);
        for &mv in &legal {
            assert_eq!(Captures::is_noisy(&g, mv), mv.is_stack_move());
        }
    }
    assert!(fewer >= 10, "{fewer}");
    // Without it, and in plain alpha-beta, nothing is pruned.
    let plain = Options {
        pvs: false,
        lmp: 2,
        ..Options::default()
    };
    values_agree(
        &start,
        3,
        plain,
        Options {
            pvs: false,
            ..Options::default()
        },
        72,
    );
}

#[test]
fn abande_searches_captures_first_and_andantino_by_history() {
    // A capture of a 1-stack (guess 4) without history against an entry (guess 0)
    // with the most history a move can have.
    let w = <abande::Board as SearchGame>::ORDER_WEIGHT;
    assert!(order_key(4, -HISTORY_MAX, w) > order_key(0, HISTORY_MAX, w));
    assert!(order_key(8, 0, w) > order_key(4, HISTORY_MAX, w));
    // Andantino: a grown history outweighs the static guess.
    let w = <andantino::Board as SearchGame>::ORDER_WEIGHT;
    assert!(order_key(0, 1 << 20, w) > order_key(1000, 0, w));
}

#[test]
fn any_order_weight_orders_without_overflow() {
    for weight in [i64::MIN, -1, 0, i64::MAX] {
        for guess in [i32::MIN, -1, 0, 1, i32::MAX] {
            for history in [-HISTORY_MAX, 0, HISTORY_MAX] {
                order_key(guess, history, weight);
            }
        }
    }
    assert_eq!(order_key(i32::MAX, HISTORY_MAX, i64::MAX), i64::MAX);
    assert!(order_key(2, 0, i64::MAX) >= order_key(1, HISTORY_MAX, i64::MAX));
}

#[test]
fn the_history_malus_lowers_the_moves_searched_before_a_cutoff() {
    let b = abande::Board::new(None, abande::Rules::default()).unwrap();
    for malus in [false, true] {
        let options = Options {
            history_malus: Some(malus),
            ..Options::default()
        };
        let mut lowest = 0;
        for g in random_positions(&b, 5, 31) {
            let mut ab = AlphaBeta::<abande::Board>::new(8, options).unwrap();
            ab.search(&g, &depth(5), &Stop::new(), &mut |_| {}, &mut || false)
                .unwrap();
            let h = ab.history.lowest();
            lowest = lowest.min(h);
        }
        assert_eq!(lowest < 0, malus, "lowest history {lowest}");
    }
    // The malus is Abande's default, not Andantino's.
    const { assert!(<abande::Board as SearchGame>::HISTORY_MALUS) };
    const { assert!(!<andantino::Board as SearchGame>::HISTORY_MALUS) };
}

#[test]
fn pvs_equals_plain_alphabeta_and_the_table_keeps_the_value() {
    let a = andantino::Board::new(None, andantino::Rules::default()).unwrap();
    let b = abande::Board::new(None, abande::Rules::default()).unwrap();
    let plain = Options {
        pvs: false,
        use_tt: false,
        ..Options::default()
    };
    let pvs = Options {
        use_tt: false,
        ..Options::default()
    };
    values_agree(&a, 4, pvs, plain, 1);
    values_agree(&b, 4, pvs, plain, 2);
    assert!(values_agree(&a, 5, Options::default(), pvs, 3) > 0);
    assert!(values_agree(&b, 5, Options::default(), pvs, 4) > 0);
    // The same with the leaf threats followed.
    let deep = |o: Options| Options {
        leaf_threats: true,
        ..o
    };
    values_agree(&a, 4, deep(pvs), deep(plain), 7);
    assert!(values_agree(&a, 5, deep(Options::default()), deep(pvs), 8) > 0);
    // And with the quiescence search.
    let quiet = |o: Options| Options {
        quiescence: true,
        ..o
    };
    values_agree(&b, 4, quiet(pvs), quiet(plain), 9);
    assert!(values_agree(&b, 5, quiet(Options::default()), quiet(pvs), 10) > 0);
}

#[test]
fn relocations_at_the_last_ply_are_evaluated() {
    // Extended play, Red to place while White can only relocate: at the last ply
    // White relocates (its node does not score leaves incrementally) and each
    // relocation's value is the evaluation after it, though Red, to move there,
    // would score its own leaves incrementally. Two plies by brute force.
    let rules = andantino::Rules {
        extended: true,
        tiles_per_player: Some(7),
        ..andantino::Rules::default()
    };
    let plain = Options {
        pvs: false,
        use_tt: false,
        ..Options::default()
    };
    let mut rng = Rng::new(5);
    let (mut a, mut b) = (Vec::new(), Vec::new());
    let mut checked = 0;
    for _ in 0..100 {
        // A position of random play, then White's hand emptied and Red to move.
        let mut g = andantino::Board::new(None, rules).unwrap();
        for _ in 0..4 + rng.below(5) {
            g.legal_moves(&mut a);
            g.push(a[rng.below(a.len())]);
            if g.result().is_some() {
                break;
            }
        }
        let position = g.position();
        let Some((tiles, _)) = position.split_once(" turn=") else {
            continue;
        };
        let Ok(mut g) = andantino::Board::new(Some(&format!("{tiles} turn=r hands=w0,r3")), rules)
        else {
            continue;
        };
        if g.result().is_some() {
            continue;
        }
        let mut expected = -INF;
        g.legal_moves(&mut a);
        for &m in &a {
            g.push(m);
            let v = if let Some(result) = g.result() {
                terminal(result, 1, 0)
            } else {
                let mut reply = -INF;
                g.legal_moves(&mut b);
                for &r in &b {
                    g.push(r);
                    reply = reply.max(match g.result() {
                        Some(result) => terminal(result, 0, 1),
                        None => -g.evaluate(&g.new_aux()),
                    });
                    g.pop();
                }
                -reply
            };
            g.pop();
            expected = expected.max(v);
        }
        let r = search(&g, depth(2), plain);
        if expected.abs() < MATE_BOUND {
            assert_eq!(r.info.eval, Some(expected), "{}", g.position());
            checked += 1;
        }
    }
    assert!(checked >= 20, "{checked} positions checked");
}

#[test]
fn aspiration_windows_keep_the_value() {
    // A window of 1 point fails nearly every time, on either side: the re-searches
    // must end at the full-window value, with and without the table.
    let a = andantino::Board::new(None, andantino::Rules::default()).unwrap();
    let b = abande::Board::new(None, abande::Rules::default()).unwrap();
    for use_tt in [false, true] {
        let full = Options {
            use_tt,
            ..Options::default()
        };
        for aspiration in [1, 30] {
            let narrow = Options { aspiration, ..full };
            values_agree(&a, 5, narrow, full, 21);
            values_agree(&b, 5, narrow, full, 22);
        }
    }
}

/// Plain minimax to `d` plies, then the quiescence search's tree: the static value
/// or a capture, whichever is best, at most `MAX_QUIESCENCE` plies on.
fn minimax(g: &mut abande::Board, d: u32, ply: usize, plies: usize) -> i32 {
    let aux = g.new_aux();
    let mover = g.turn();
    let mut moves = Vec::new();
    let mut best = if d == 0 { g.evaluate(&aux) } else { -INF };
    if d > 0 {
        Game::legal_moves(g, &mut moves);
    } else if plies < MAX_QUIESCENCE {
        Captures::moves(g, &mut moves);
    }
    for mv in moves {
        g.push(mv);
        let v = match g.result() {
            Some(result) => terminal(result, mover, ply),
            None if d > 0 => -minimax(g, d - 1, ply + 1, 0),
            None => -minimax(g, 0, ply + 1, plies + 1),
        };
        g.pop();
        best = best.max(v);
    }
    best
}

#[test]
fn quiescence_is_the_minimax_of_captures_at_the_leaves() {
    let start = abande::Board::new(None, abande::Rules::default()).unwrap();
    let options = Options {
        pvs: false,
        use_tt: false,
        quiescence: true,
        ..Options::default()
    };
    let (mut differ, mut captures) = (0, 0);
    let mut noisy = Vec::new();
    for mut g in random_positions(&start, 10, 12) {
        for d in [1, 2] {
            let value = minimax(&mut g, d, 0, 0);
            let r = search(&g, depth(d), options);
            if value.abs() < MATE_BOUND {
                assert_eq!(r.info.eval, Some(value), "{} depth {d}", g.position());
            }
            let r = search(
                &g,
                depth(d),
                Options {
                    quiescence: false,
                    ..options
                },
            );
            differ += usize::from(r.info.eval != Some(value));
        }
        Captures::moves(&g, &mut noisy);
        captures += noisy.len();
        // The noisy moves are the legal captures.
        let mut legal = Vec::new();
        Game::legal_moves(&g, &mut legal);
        legal.retain(|m| m.is_stack_move());
        assert_eq!(noisy, legal);
    }
    // The positions have captures, and following them changes some values.
    assert!(captures > 0 && differ > 0, "{captures} {differ}");
}

#[test]
fn moves_are_legal_and_the_position_is_unchanged() {
    fn check<G: SearchGame>(start: &G, seed: u64) {
        let selective = Options {
            lmr: true,
            null_move: true,
            rfp: 150,
            lmp: 2,
            quiescence: true,
            ..Options::default()
        };
        for options in [Options::default(), selective] {
            check_with(start, seed, options);
        }
    }
    fn check_with<G: SearchGame>(start: &G, seed: u64, options: Options) {
        let mut legal = Vec::new();
        let mut ab = AlphaBeta::<G>::new(4, options).unwrap();
        for g in random_positions(start, 30, seed) {
            let (key, position) = (g.zobrist(), g.position());
            let limits = Limits {
                nodes: Some(5000),
                ..Limits::default()
            };
            let r = ab
                .search(&g, &limits, &Stop::new(), &mut |_| {}, &mut || false)
                .unwrap();
            g.legal_moves(&mut legal);
            assert!(legal.contains(&r.best));
            assert_eq!((g.zobrist(), g.position()), (key, position));
            let mut line = g.clone();
            for text in &r.info.pv {
                let mv = line.parse_move(text).unwrap();
                line.push(mv);
            }
        }
    }
    check(
        &andantino::Board::new(None, andantino::Rules::default()).unwrap(),
        5,
    );
    let balance = andantino::Rules {
        single_adjacency: true,
        ..andantino::Rules::default()
    };
    check(&andantino::Board::new(None, balance).unwrap(), 7);
    check(
        &abande::Board::new(None, abande::Rules::default()).unwrap(),
        6,
    );
}

#[test]
fn stop_works_within_milliseconds() {
    let start = andantino::Board::new(None, andantino::Rules::default()).unwrap();
    let g = random_positions(&start, 1, 9).remove(0);
    let stop = Stop::new();
    let remote = stop.clone();
    let asked = std::sync::Arc::new(std::sync::Mutex::new(None));
    let asked2 = asked.clone();
    let t = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(200));
        *asked2.lock().unwrap() = Some(Instant::now());
        remote.set();
    });
    let mut ab = AlphaBeta::<andantino::Board>::new(4, Options::default()).unwrap();
    let limits = Limits {
        time: Some(60.0),
        ..Limits::default()
    };
    let r = ab
        .search(&g, &limits, &stop, &mut |_| {}, &mut || false)
        .unwrap();
    let done = Instant::now();
    t.join().unwrap();
    let asked = asked.lock().unwrap().unwrap();
    assert!(done.duration_since(asked) < Duration::from_millis(20));
    assert!(r.info.depth >= 1);
}

#[test]
fn the_order_of_a_huge_node_looks_at_the_limits() {
    // White places, Red relocates (500 tiles, some 500,000 moves): each node of
    // Red's scores and sorts them for its order. Before, 256 such nodes went by
    // between two looks at the clock: 1 s of time took 1.74 s, 2 s took 2.86 s.
    let board = crate::search::big::board(499, 500, 4, 200);
    let mut ab = AlphaBeta::<andantino::Board>::new(4, Options::default()).unwrap();
    let limits = Limits {
        time: Some(1.0),
        ..Limits::default()
    };
    let start = Instant::now();
    let r = ab
        .search(&board, &limits, &Stop::new(), &mut |_| {}, &mut || false)
        .unwrap();
    let took = start.elapsed().as_secs_f64();
    assert!(took < 1.25, "{took} s");
    assert!(board.check_move(r.best).is_ok());
    assert!(r.info.depth >= 1);
}

#[test]
fn a_sort_in_steps_is_the_stable_sort() {
    let mut rng = Rng::new(5);
    for n in [
        0,
        1,
        7,
        SORT_RUN - 1,
        SORT_RUN,
        SORT_RUN + 1,
        3 * SORT_RUN + 5,
        40_000,
    ] {
        // Few distinct keys, many ties: the index shows the order kept.
        let v: Vec<(i64, usize)> = (0..n).map(|i| (rng.below(50) as i64 - 25, i)).collect();
        let mut expected = v.clone();
        expected.sort_by_key(|a| std::cmp::Reverse(a.0));
        let mut steps = 0;
        let mut sorted = v.clone();
        assert!(sort_in_steps(
            &mut sorted,
            |a| a.0,
            |_| {
                steps += 1;
                false
            }
        ));
        assert_eq!(sorted, expected, "{n}");
        assert_eq!(steps > 0, n > SORT_RUN);
        // Stopped at its third step: the same elements, partly sorted.
        let mut partial = v.clone();
        let mut calls = 0;
        let done = sort_in_steps(
            &mut partial,
            |a| a.0,
            |_| {
                calls += 1;
                calls == 3
            },
        );
        assert_eq!(done, steps <= 3, "{n}");
        partial.sort_by_key(|a| a.1);
        assert_eq!(partial, v);
    }
}

#[test]
fn bad_options_are_errors() {
    assert!(AlphaBeta::<abande::Board>::new(0, Options::default()).is_err());
    let zero = Options {
        multipv: 0,
        ..Options::default()
    };
    assert!(AlphaBeta::<abande::Board>::new(1, zero).is_err());
    // Andantino's weights must not fall (the incremental gains assume it).
    let falling = andantino::ai::Weights {
        line: [0, 1, 6, 30, 20, 160],
        ..Default::default()
    };
    let options = Options::default();
    assert!(AlphaBeta::<andantino::Board>::with_weights(1, options, falling).is_err());
    let negative = andantino::ai::Weights {
        enclosure: [-1, 0, 1, 4, 16, 60, 60],
        ..Default::default()
    };
    assert!(AlphaBeta::<andantino::Board>::with_weights(1, options, negative).is_err());
    let mut ab = AlphaBeta::<abande::Board>::new(1, Options::default()).unwrap();
    let b = abande::Board::new(None, abande::Rules::default()).unwrap();
    let nan = Limits {
        time: Some(f64::NAN),
        ..Limits::default()
    };
    assert!(ab
        .search(&b, &nan, &Stop::new(), &mut |_| {}, &mut || false)
        .is_err());
}
