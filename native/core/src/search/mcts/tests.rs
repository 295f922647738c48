//! The tree's invariants, MCTS-Solver's proofs, tree reuse and reproducibility, on the
//! positions of the Python tests (`tests/test_engine_mcts.py`).

use super::tree::{Proof, NONE};
use super::*;
use crate::search::big::endless;
use crate::search::{Limits, Stop, Watch};
use crate::zobrist::Rng;
use crate::{abande, andantino, Game};

// White to move; White wins at 4,0 (a line); Red would win at -1,1.
const WIN_IN_ONE: &str = "andantino w=0,0;1,0;2,0;3,0 r=0,1;1,1;2,1;3,1 turn=w";
// White to move cannot win at once; Red threatens a line at -1,1, which White must fill.
const BLOCK: &str = "andantino w=0,0;1,0;2,0;2,-1 r=0,1;1,1;2,1;3,1 turn=w";
// docs/rules.md, "Andantino examples", a ring trap: White -1,1 walls in the Red tile on
// 0,0.
const TRAP: &str = "andantino w=1,0;-1,0;0,1;0,-1;1,-1 r=0,0;2,0;2,-1;-2,0;-2,1 turn=w";
// White wins in three plies, and only by 0,-1 (checked by brute force in the Python
// tests).
const WIN_IN_THREE: &str = "andantino w=1,-2;1,-1;0,0;2,0;-1,1;0,1;0,2 \
                            r=2,-2;3,-2;2,-1;1,0;1,1;-1,2;-1,3 turn=w hands=w18,r18";
// Red threatens lines at -1,1 and 4,1; White cannot block both: lost in two plies.
const LOST: &str = "andantino w=0,0;1,0;2,-1;4,0 r=0,1;1,1;2,1;3,1 turn=w";
// Black has just passed; White leads 20-13, so passing ends the game won.
const ABANDE_PASS_WINS: &str = "abande b2=W b3=WWB c2=BW c3=WB c4=B c6=W d1=B d2=B d6=BW \
                                d7=B e1=WB e2=BBW e3=BW e4=BW e6=B f2=W f3=WB f4=W f5=WBW \
                                g1=W g2=BW g4=B turn=w hands=b0,w0 passes=1";

fn andantino_board(position: &str) -> andantino::Board {
    andantino::Board::new(Some(position), andantino::Rules::default()).unwrap()
}

fn abande_board(position: Option<&str>) -> abande::Board {
    abande::Board::new(position, abande::Rules::default()).unwrap()
}

fn player<G: MctsGame>(seed: u64, f: impl FnOnce(&mut MctsOptions)) -> Mcts<G> {
    let mut options = MctsOptions {
        seed,
        ..MctsOptions::default()
    };
    f(&mut options);
    Mcts::new(options).unwrap()
}

fn nodes(n: u64) -> Limits {
    Limits {
        nodes: Some(n),
        ..Limits::default()
    }
}

fn search<G: MctsGame>(mcts: &mut Mcts<G>, game: &G, limits: Limits) -> MctsResult<G::Move> {
    mcts.search(game, &limits, &Stop::new(), &mut |_| {}, &mut || false)
        .unwrap()
}

/// A position after `plies` seeded random plies that is not over.
fn random_position<G: Game>(start: &G, seed: u64, plies: usize) -> G {
    let mut attempt = 0;
    loop {
        let mut rng = Rng::new(seed * 1000 + attempt);
        attempt += 1;
        let mut g = start.clone();
        let mut moves = Vec::new();
        for _ in 0..plies {
            if g.result().is_some() {
                break;
            }
            g.legal_moves(&mut moves);
            g.push(moves[rng.below(moves.len())]);
        }
        if g.result().is_none() {
            return g;
        }
    }
}

/// A random position (as [`random_position`]) where the side to move cannot win at once.
fn quiet_position<G: Game>(start: &G, mut seed: u64, plies: usize) -> G {
    loop {
        let g = random_position(start, seed, plies);
        if immediate_wins(&g).is_empty() {
            return g;
        }
        seed += 1000;
    }
}

/// The moves with which the side to move wins at once, by trying each.
fn immediate_wins<G: Game>(game: &G) -> Vec<G::Move> {
    let mut g = game.clone();
    let me = g.turn();
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    moves
        .into_iter()
        .filter(|&mv| {
            g.push(mv);
            let won = g.result().is_some_and(|r| r.winner == Some(me));
            g.pop();
            won
        })
        .collect()
}

/// Every invariant of the tree's statistics below `root` (a full tree may count visits
/// of children it has no node for).
fn check_tree<G: MctsGame>(mcts: &Mcts<G>, root: u32, root_is_fresh: bool) -> u64 {
    check_tree_of(mcts, root, root_is_fresh, false)
}

fn check_tree_of<G: MctsGame>(mcts: &Mcts<G>, root: u32, root_is_fresh: bool, full: bool) -> u64 {
    let t = &mcts.tree;
    let nd = t.nodes[root as usize];
    if nd.expanded() {
        let slots = nd.first as usize..(nd.first + nd.len) as usize;
        let sum: u64 = t.cn[slots.clone()].iter().map(|&c| c as u64).sum();
        // A node's own first visit was as a leaf, before it had children.
        let own = u64::from(!root_is_fresh);
        assert_eq!(nd.n as u64, sum + own, "visits of node {root}");
        let mut unproven = 0;
        for s in slots {
            let kid = t.kids[s];
            if kid == NONE {
                assert!(full || t.cn[s] == 0);
                unproven += 1;
                continue;
            }
            let k = t.nodes[kid as usize];
            assert_eq!(t.cn[s], k.n, "a slot's visits are its child's");
            if k.result != Some(Proof::Loss) {
                assert!(t.cw[s] >= 0.0 && t.cw[s] <= t.cn[s] as f64 + 1e-9);
            } else {
                assert_eq!(t.cw[s], f64::NEG_INFINITY);
            }
            if k.result.is_none() {
                unproven += 1;
            }
            check_tree_of(mcts, kid, false, full);
        }
        if nd.result.is_none() {
            assert_eq!(nd.unproven, unproven, "unproven children of node {root}");
        }
    }
    nd.n as u64
}

#[test]
fn visits_add_up_in_both_games() {
    let start = andantino_board(
        andantino::Board::new(None, Default::default())
            .unwrap()
            .position()
            .as_str(),
    );
    for seed in 0..3 {
        let board = random_position(&start, seed, 14);
        for options in [
            MctsOptions::default(),
            MctsOptions {
                rave: false,
                ..MctsOptions::default()
            },
            MctsOptions {
                grave_ref: 0,
                decisive: true,
                ..MctsOptions::default()
            },
        ] {
            let mut mcts = Mcts::<andantino::Board>::new(MctsOptions { seed, ..options }).unwrap();
            let before = (board.position(), board.zobrist(), board.ply());
            let result = search(&mut mcts, &board, nodes(3000));
            assert_eq!((board.position(), board.zobrist(), board.ply()), before);
            assert!(board.check_move(result.best).is_ok());
            // The kept tree's root is node 0; it was searched afresh.
            let n = check_tree(&mcts, 0, true);
            if result.info.mate.is_none() {
                assert_eq!(n, 3000);
                assert_eq!(result.info.nodes, 3000);
            }
        }
    }
    let start = abande_board(None);
    for (seed, plies) in [(0, 10), (1, 30), (2, 50)] {
        let board = random_position(&start, seed, plies);
        let mut mcts = player::<abande::Board>(seed, |o| o.playout_cutoff = None);
        let result = search(&mut mcts, &board, nodes(2000));
        assert!(board.legal_moves().contains(&result.best));
        check_tree(&mcts, 0, true);
    }
}

#[test]
fn win_in_one_is_proven_before_any_simulation() {
    let board = andantino_board(WIN_IN_ONE);
    let result = search(&mut player(1, |_| {}), &board, nodes(5000));
    assert_eq!(result.best.notation(), "4,0");
    assert_eq!(result.info.mate, Some(1));
    assert_eq!(result.info.score, 1.0);
    assert_eq!(result.info.nodes, 0);
    assert_eq!(result.info.pv, vec!["4,0".to_string()]);
}

#[test]
fn win_and_block_without_the_solver() {
    for seed in 0..2 {
        for solver in [true, false] {
            for rave in [true, false] {
                let mut mcts = player(seed, |o| {
                    o.solver = solver;
                    o.rave = rave;
                });
                let win = search(&mut mcts, &andantino_board(WIN_IN_ONE), nodes(1500));
                assert_eq!(win.best.notation(), "4,0");
                let block = search(&mut mcts, &andantino_board(BLOCK), nodes(1500));
                assert_eq!(block.best.notation(), "-1,1");
            }
        }
    }
}

#[test]
fn solver_proves_a_trap_a_win_in_three_and_a_loss() {
    let board = andantino_board(TRAP);
    assert_eq!(immediate_wins(&board).len(), 1);
    let result = search(&mut player(1, |_| {}), &board, nodes(5000));
    assert_eq!(result.best.notation(), "-1,1");
    assert_eq!(result.info.mate, Some(1));
    assert!(result.info.nodes < 5000);

    let board = andantino_board(WIN_IN_THREE);
    assert!(immediate_wins(&board).is_empty());
    let result = search(&mut player(1, |_| {}), &board, nodes(100_000));
    assert_eq!(result.best.notation(), "0,-1");
    assert_eq!(result.info.mate, Some(3));
    assert_eq!(result.info.score, 1.0);
    assert!(result.info.nodes < 100_000);
    let plain = search(&mut player(1, |o| o.solver = false), &board, nodes(500));
    assert_eq!(plain.info.mate, None);

    let board = andantino_board(LOST);
    let result = search(&mut player(1, |_| {}), &board, nodes(5000));
    assert_eq!(result.info.mate, Some(-2));
    assert_eq!(result.info.score, 0.0);
    assert!(board.check_move(result.best).is_ok());
}

#[test]
fn solver_passes_to_win_abande() {
    let board = abande_board(Some(ABANDE_PASS_WINS));
    assert_eq!(board.score(), (13, 20));
    let result = search(&mut player(1, |_| {}), &board, nodes(1000));
    assert_eq!(result.best, abande::Move::PASS);
    assert_eq!(result.info.mate, Some(1));
    assert_eq!(result.info.score, 1.0);
}

#[test]
fn a_single_legal_move_needs_no_simulation() {
    // Only 3-stacks, which can neither move nor be captured: the pass is the one move.
    let board = abande_board(Some(
        "abande a1=BBB a2=WWW a3=BBB a4=WWW b1=BBB b2=WWW b3=BBB b4=WWW b5=BBB c1=WWW \
         c2=BBB c3=WWW turn=b hands=b0,w0",
    ));
    let result = search(&mut player(1, |_| {}), &board, nodes(1000));
    assert_eq!(result.best, abande::Move::PASS);
    // Only the pass is legal: no simulation is needed.
    assert_eq!(result.info.nodes, 0);
}

#[test]
fn tree_reuse_keeps_the_subtree() {
    let start = andantino_board(
        andantino::Board::new(None, Default::default())
            .unwrap()
            .position()
            .as_str(),
    );
    let mut board = quiet_position(&start, 5, 12);
    let mut mcts = player::<andantino::Board>(1, |_| {});
    let first = search(&mut mcts, &board, nodes(3000));
    assert_eq!(first.reused_visits, 0);
    assert!(first.info.pv.len() >= 2);
    // The node two plies down the principal variation.
    let t = &mcts.tree;
    let child_of = |node: u32, text: &str| {
        let nd = t.nodes[node as usize];
        let s = (nd.first..nd.first + nd.len)
            .find(|&s| t.move_at(s).notation() == text)
            .unwrap();
        t.kids[s as usize]
    };
    let mine = child_of(0, &first.info.pv[0]);
    let reply = child_of(mine, &first.info.pv[1]);
    let expected = t.nodes[reply as usize].n as u64;
    assert!(expected > 10);
    let size_before = mcts.tree_nodes();
    for text in &first.info.pv[..2] {
        let mv = board.parse_move(text).unwrap();
        board.push(mv);
    }
    let second = search(&mut mcts, &board, nodes(100));
    assert_eq!(second.reused_visits, expected);
    assert!(mcts.tree_nodes() < size_before);
    check_tree(&mcts, 0, false);
    // A position that does not follow from the kept root starts afresh.
    let other = random_position(&start, 6, 12);
    assert_eq!(search(&mut mcts, &other, nodes(100)).reused_visits, 0);
    // So does a new game, and a player that does not reuse trees.
    search(&mut mcts, &board, nodes(100));
    mcts.new_game();
    assert_eq!(search(&mut mcts, &board, nodes(100)).reused_visits, 0);
    let mut plain = player::<andantino::Board>(1, |o| o.reuse_tree = false);
    search(&mut plain, &board, nodes(100));
    assert_eq!(search(&mut plain, &board, nodes(100)).reused_visits, 0);
    // The same position searched again keeps its whole tree.
    let again = search(&mut mcts, &board, nodes(100));
    assert_eq!(again.reused_visits, 100);
}

#[test]
fn seeds_reproduce_moves() {
    fn same<G: MctsGame>(game: &G) {
        let one = search(&mut player(7, |_| {}), game, nodes(400));
        let two = search(&mut player(7, |_| {}), game, nodes(400));
        let key = |r: &MctsResult<G::Move>| {
            (
                r.best,
                r.info.pv.clone(),
                r.info.score,
                r.info.nodes,
                r.info.depth,
            )
        };
        assert_eq!(key(&one), key(&two));
        assert_eq!(one.info.nodes, 400);
        // Another seed searches otherwise (a different tree, as a rule a different line).
        let other = search(&mut player(8, |_| {}), game, nodes(400));
        assert_ne!(key(&one), key(&other));
    }
    same(&quiet_position(
        &andantino_board("andantino w=0,0 r=1,0 turn=w"),
        2,
        14,
    ));
    same(&quiet_position(&abande_board(None), 2, 30));
}

#[test]
fn stop_and_reports() {
    let board = random_position(&abande_board(None), 1, 20);
    let stop = Stop::new();
    let flag = stop.clone();
    let waker = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(250));
        flag.set();
    });
    let mut mcts = player::<abande::Board>(1, |_| {});
    let start = std::time::Instant::now();
    let mut reports = Vec::new();
    let limits = Limits {
        time: Some(30.0),
        ..Limits::default()
    };
    let result = mcts
        .search(
            &board,
            &limits,
            &stop,
            &mut |i| reports.push(i.clone()),
            &mut || false,
        )
        .unwrap();
    waker.join().unwrap();
    let elapsed = start.elapsed().as_secs_f64();
    assert!(elapsed < 0.3, "stopped after {elapsed} s");
    assert!(result.info.nodes > 0);
    assert!(reports.len() >= 2, "{} reports", reports.len());
    assert_eq!(reports.last(), Some(&result.info));
    assert!(reports.windows(2).all(|w| w[0].nodes <= w[1].nodes));
    // An interruption (the binding's Ctrl-C) stops it too.
    let mut calls = 0;
    let result = mcts
        .search(&board, &limits, &Stop::new(), &mut |_| {}, &mut || {
            calls += 1;
            calls > 3
        })
        .unwrap();
    // The poll is asked at each look of the watch, at most MAX_STRIDE units (each
    // simulation one at least) apart.
    assert!(result.info.nodes <= 4 * Watch::MAX_STRIDE);
}

#[test]
fn bad_options_and_finished_games_are_errors() {
    for options in [
        MctsOptions {
            exploration: Some(-1.0),
            ..MctsOptions::default()
        },
        MctsOptions {
            exploration: Some(f64::NAN),
            ..MctsOptions::default()
        },
        MctsOptions {
            rave_bias: f64::INFINITY,
            ..MctsOptions::default()
        },
        MctsOptions {
            cutoff_scale: 0.0,
            ..MctsOptions::default()
        },
        MctsOptions {
            tree_mb: 0,
            ..MctsOptions::default()
        },
    ] {
        assert!(matches!(
            Mcts::<abande::Board>::new(options),
            Err(crate::Error::InvalidArgument(_))
        ));
    }
    let over = abande_board(Some(
        "abande a1=BBB a2=WWW a3=BBB a4=WWW b1=BBB b2=WWW b3=BBB b4=WWW b5=BBB c1=WWW \
         c2=BBB c3=WWW turn=b hands=b0,w0 passes=2",
    ));
    let mut mcts = player::<abande::Board>(1, |_| {});
    let err = mcts.search(&over, &nodes(10), &Stop::new(), &mut |_| {}, &mut || false);
    assert!(matches!(err, Err(crate::Error::InvalidArgument(_))));
    let board = abande_board(None);
    let limits = Limits {
        time: Some(f64::NAN),
        ..Limits::default()
    };
    let err = mcts.search(&board, &limits, &Stop::new(), &mut |_| {}, &mut || false);
    assert!(matches!(err, Err(crate::Error::InvalidArgument(_))));
}

#[test]
fn a_full_tree_stops_growing_and_the_search_goes_on() {
    let board = random_position(&abande_board(None), 3, 20);
    let mut mcts = player::<abande::Board>(1, |o| o.tree_mb = 1);
    let result = search(&mut mcts, &board, nodes(300_000));
    assert!(result.tree_full);
    assert_eq!(result.info.nodes, 300_000);
    assert!(board.legal_moves().contains(&result.best));
    assert!(mcts.tree_bytes() <= 1 << 21, "{} bytes", mcts.tree_bytes());
    check_tree_of(&mcts, 0, true, true);
    // Without GRAVE, too.
    let mut mcts = player::<andantino::Board>(1, |o| {
        o.tree_mb = 1;
        o.rave = false;
    });
    let board = quiet_position(&andantino_board("andantino w=0,0 r=1,0 turn=w"), 5, 12);
    let result = search(&mut mcts, &board, nodes(200_000));
    assert!(result.tree_full, "{:?}", result.info);
    assert_eq!(result.info.nodes, 200_000);
    check_tree_of(&mcts, 0, true, true);
}

#[test]
fn immediate_wins_are_exactly_the_winning_lines() {
    // The cheap test against trying every move, on random standard games.
    let start = andantino_board("andantino w=0,0 r=1,0 turn=w");
    let mut with_a_line = 0;
    for seed in 0..40 {
        let mut rng = Rng::new(seed);
        let mut board = start.clone();
        let mut moves = Vec::new();
        while board.result().is_none() {
            let me = board.turn();
            let lines: Vec<_> = {
                let mut g = board.clone();
                board.legal_moves(&mut moves);
                moves
                    .iter()
                    .copied()
                    .filter(|&mv| {
                        g.push(mv);
                        let r = g.result();
                        g.pop();
                        r.is_some_and(|r| {
                            r.winner == Some(me)
                                && matches!(
                                    r.termination,
                                    crate::Termination::Line | crate::Termination::LineAndTrap
                                )
                        })
                    })
                    .collect()
            };
            let found = board.immediate_win();
            assert_eq!(found.is_some(), !lines.is_empty(), "{}", board.position());
            if let Some(mv) = found {
                assert!(lines.contains(&mv));
                with_a_line += 1;
            }
            // The threats through each tile are the cells completing a line there.
            let mut threats = Vec::new();
            for &tile in board.tile_list(me) {
                board.line_threats_through(tile, me, &mut threats);
            }
            for mv in &lines {
                assert!(threats.contains(&mv.to()), "{} {}", board.position(), mv);
            }
            board.legal_moves(&mut moves);
            board.push(moves[rng.below(moves.len())]);
        }
    }
    assert!(with_a_line > 30, "{with_a_line}");
}

/// One playout of `board` with `options` and the random numbers of `seed`, watched by
/// `stop` alone: what it returned and its moves.
#[allow(clippy::type_complexity)]
fn play_out<G: MctsGame>(
    board: &mut G,
    options: &PlayoutOptions<G::EvalWeights>,
    seed: u64,
    stop: &Stop,
) -> (Option<(f64, Option<G::Move>)>, Vec<G::Move>) {
    let mut never = || false;
    let mut watch = Watch::new(stop, None, &mut never);
    let mut trace = Vec::new();
    let ended = board.playout(
        options,
        &mut Rng::new(seed),
        &mut trace,
        &mut G::Scratch::default(),
        &mut watch,
    );
    (ended, trace)
}

/// Playouts played to the end.
fn full<W>() -> PlayoutOptions<W> {
    PlayoutOptions {
        decisive: false,
        cutoff: None,
        scale: 2.0,
        eval: None,
    }
}

#[test]
fn abande_playout_cut_off() {
    let mut board = random_position(&abande_board(None), 3, 10);
    let plies = board.ply();
    let options = PlayoutOptions {
        decisive: true,
        cutoff: Some(6),
        scale: 2.0,
        eval: None,
    };
    let (ended, trace) = play_out(&mut board, &options, 1, &Stop::new());
    let (value, win) = ended.unwrap();
    assert_eq!(board.ply(), plies + 6);
    assert_eq!(trace.len(), 6);
    assert_eq!(win, None);
    let (black, white) = board.score();
    let expected = 1.0 / (1.0 + ((white as f64 - black as f64) / 2.0).exp());
    assert!((value - expected).abs() < 1e-12);
    let full = PlayoutOptions {
        cutoff: None,
        ..options
    };
    let (value, win) = play_out(&mut board, &full, 1, &Stop::new()).0.unwrap();
    assert!(board.is_game_over() || win == Some(abande::Move::PASS));
    assert!([0.0, 0.5, 1.0].contains(&value));
}

#[test]
fn solver_proves_draws_and_agrees_with_the_endgame_solver() {
    // Small Abande endgames from seeded random play, solved exactly by the endgame
    // solver: MCTS-Solver with full playouts proves the same result, draws included.
    use crate::abande::ai::solver::{Solve, Solver};
    let mut table = Solver::new(4).unwrap();
    let (mut draws, mut checked) = (0, 0);
    let mut seed = 0;
    while checked < 30 {
        seed += 1;
        let mut rng = Rng::new(seed);
        let mut b = abande_board(None);
        while b.hands() != (0, 0) && !b.is_game_over() {
            let moves = b.legal_moves();
            b.push(moves[rng.below(moves.len())]);
        }
        if b.is_game_over() || b.legal_moves().len() < 2 {
            continue;
        }
        let b = abande_board(Some(&b.position()));
        let Ok(Solve::Solved(exact)) =
            table.solve(&b, false, Some(20_000), None, &Stop::new(), &mut || false)
        else {
            continue;
        };
        let mut mcts = player::<abande::Board>(seed, |o| o.playout_cutoff = None);
        let result = search(&mut mcts, &b, nodes(200_000));
        let root = mcts.tree.nodes[0];
        let Some(proof) = root.result else {
            continue; // not proven within the budget: nothing to compare
        };
        let expected = match exact.value {
            1 => Proof::Loss, // lost for the player who moved into the root
            0 => Proof::Draw,
            _ => Proof::Win,
        };
        assert_eq!(proof, expected, "{}", b.position());
        if expected == Proof::Draw {
            draws += 1;
            assert_eq!((result.info.mate, result.info.score), (None, 0.5));
        }
        checked += 1;
    }
    assert!(draws > 0, "no drawn endgame among {checked}");
}

// --- stopping on positions where a simulation is dear ----------------------------------

#[test]
fn a_playout_is_at_most_max_playout_plies_and_then_a_draw() {
    for seed in 0..5 {
        let mut board = endless();
        let (ended, trace) = play_out(&mut board, &full(), seed, &Stop::new());
        assert_eq!(ended, Some((0.5, None)));
        assert_eq!(trace.len(), MAX_PLAYOUT_PLIES as usize);
        assert_eq!(board.result(), None);
    }
    // MCTS scores such playouts as draws.
    let r = player::<andantino::Board>(1, |_| {})
        .search(
            &endless(),
            &nodes(50),
            &Stop::new(),
            &mut |_| {},
            &mut || false,
        )
        .unwrap();
    assert!((r.info.score - 0.5).abs() < 1e-9, "{}", r.info.score);
}

#[test]
fn a_playout_stops_when_the_watch_says_so() {
    // Both games, a long playout and a cut-off one: each ends unscored within a stride.
    let stop = Stop::new();
    stop.set();
    let mut board = crate::search::big::board(150, 150, 4, 999_999_999);
    let (ended, trace) = play_out(&mut board, &full(), 3, &stop);
    assert_eq!(ended, None);
    assert!(trace.len() <= (Watch::MAX_STRIDE as usize).max(playout::CHECK_PLIES as usize));
    let mut board = abande_board(None);
    let (ended, trace) = play_out(&mut board, &full(), 3, &stop);
    assert_eq!((ended, trace.len()), (None, playout::CHECK_PLIES as usize));
}

#[test]
fn a_search_stops_in_time_where_a_simulation_is_dear() {
    // 500 tiles a side: about 500,000 relocations at every node, and playouts of up to
    // MAX_PLAYOUT_PLIES relocations. Before, 16 simulations ran between looks at the
    // clock (several seconds here) and a playout ran to its end.
    let board = crate::search::big::board(500, 500, 4, 999_999_999);
    let mut mcts = player::<andantino::Board>(1, |_| {});
    let runs = crate::search::big::limited_and_stopped(|limits, stop| {
        mcts.search(&board, limits, stop, &mut |_| {}, &mut || false)
            .unwrap()
    });
    for (r, took) in runs {
        assert!(took < 0.6, "{took} s, {} simulations", r.info.nodes);
        assert!(board.check_move(r.best).is_ok());
    }
}

#[test]
fn an_expansion_given_up_leaves_the_node_as_it_was() {
    // A node of 500,000 children takes 25 to 50 ms to list: the search's watch is asked
    // between chunks, and a stop leaves the node unexpanded and the arrays as they were.
    use super::tree::{Tree, EXPAND_CHUNK};
    let mut tree: Tree<u64> = Tree::new(1 << 30);
    let root = tree.add_node().unwrap();
    let moves: Vec<u64> = (0..3 * EXPAND_CHUNK as u64 + 5).collect();
    let mut asked = 0;
    let done = tree.expand(
        root,
        &moves,
        |m| m,
        |n| {
            assert_eq!(n, EXPAND_CHUNK);
            asked += 1;
            asked < 2
        },
    );
    assert_eq!((done, asked), (Ok(false), 2));
    assert!(!tree.nodes[root as usize].expanded());
    assert!(tree.kids.is_empty() && tree.cn.is_empty() && tree.cw.is_empty());
    assert_eq!(tree.expand(root, &moves, |m| m, |_| true), Ok(true));
    assert_eq!(tree.nodes[root as usize].len as usize, moves.len());
    assert_eq!(tree.kids.len(), moves.len());
}

// --- the cut-off scored by an evaluation -----------------------------------------------

use crate::andantino::ai::MAX_FORCED;

/// Weights of Abande's learned evaluation (those shipped when this test was written;
/// the tests ask only that the cut-off scores by the evaluation they give).
fn abande_eval() -> abande::ai::Weights {
    abande::ai::Weights {
        learned: Some([
            1600, -427, 1851, 527, 515, 557, 3551, 680, 538, 287, 159, 931, -62, -12, -216, -963,
        ]),
        ..Default::default()
    }
}

/// Weights of Andantino's learned evaluation (as `abande_eval`), as the binding makes
/// them of the 13 numbers of a weights file: the line tables with the weight of three,
/// the enclosure tables, the tempo and Red's right.
fn andantino_eval() -> andantino::ai::Weights {
    andantino::ai::Weights {
        line: [0, 0, 21, 68, 186, 186],
        enclosure: [0, 0, 49, 96, 98, 120, 120],
        three: 68,
        tempo: 94,
        right: 40,
    }
}

fn balance() -> andantino::Rules {
    andantino::Rules {
        single_adjacency: true,
        ..Default::default()
    }
}

/// The win probability for the first player of `points` for the side to move of `game`.
fn first_players(game: &impl Game, points: i32, scale: f64) -> f64 {
    let p = crate::search::win_probability(f64::from(points), scale);
    if game.turn() == 0 {
        p
    } else {
        1.0 - p
    }
}

/// Alpha-beta's evaluation of `board` with `weights`, by a tracker of its own.
fn andantino_points(board: &andantino::Board, weights: &andantino::ai::Weights) -> i32 {
    use crate::search::alphabeta::SearchGame;
    let mut aux = board.new_aux();
    board.configure_aux(&mut aux, weights);
    board.evaluate(&aux)
}

#[test]
fn the_cutoff_value_is_the_evaluations_logistic() {
    // Abande: the learned evaluation, at the scale of its fit (200 points), for Black.
    let w = abande_eval();
    let mut eval = CutoffEval::<abande::Board>::default();
    let mut values = Vec::new();
    for seed in 0..30 {
        let board = random_position(&abande_board(None), seed, 4 + 5 * (seed as usize % 10));
        let v = abande::ai::learned::evaluate_learned(&board, &w.learned.unwrap());
        assert_eq!(eval.points(&board, &w), v);
        let value = eval.value(&board, &w);
        assert!((value - first_players(&board, v, 200.0)).abs() < 1e-12);
        values.push(value);
    }
    // Hand-written weights (no learned ones) give the hand-written evaluation.
    let board = random_position(&abande_board(None), 1, 20);
    let hand = abande::ai::Weights::default();
    assert_eq!(
        eval.points(&board, &hand),
        abande::ai::eval::evaluate(&board)
    );
    // Andantino, standard and balance variant: the tracker set up from scratch for each
    // position (one tracker for all, its weights set once) gives what a tracker of the
    // position's own gives, at the scale of the fit (250 points).
    let w = andantino_eval();
    let mut eval = CutoffEval::<andantino::Board>::default();
    for rules in [andantino::Rules::default(), balance()] {
        let start = andantino::Board::new(None, rules).unwrap();
        for seed in 0..30 {
            let board = random_position(&start, seed, 2 + seed as usize);
            let v = andantino_points(&board, &w);
            assert_eq!(eval.points(&board, &w), v, "{}", board.position());
            let value = eval.value(&board, &w);
            assert!((value - first_players(&board, v, 250.0)).abs() < 1e-12);
            values.push(value);
        }
        // Other weights are taken at once.
        let board = random_position(&start, 3, 20);
        let hand = andantino::ai::Weights::default();
        assert_eq!(eval.points(&board, &hand), andantino_points(&board, &hand));
        assert_ne!(eval.points(&board, &w), eval.points(&board, &hand));
    }
    // The values say something: strictly between 0 and 1, and not all alike.
    assert!(values.iter().all(|&v| v > 0.0 && v < 1.0));
    assert!(values.iter().any(|&v| (v - values[0]).abs() > 0.05));
}

#[test]
fn a_playout_with_an_evaluation_stops_at_the_cutoff() {
    for decisive in [false, true] {
        // Abande: 6 plies, then the learned evaluation of the position reached.
        let mut board = random_position(&abande_board(None), 3, 10);
        let plies = board.ply();
        let options = PlayoutOptions {
            decisive,
            cutoff: Some(6),
            scale: 2.0,
            eval: Some(abande_eval()),
        };
        let (ended, trace) = play_out(&mut board, &options, 1, &Stop::new());
        let (value, win) = ended.unwrap();
        assert_eq!((board.ply(), trace.len(), win), (plies + 6, 6, None));
        let v = abande::ai::learned::evaluate_learned(&board, &abande_eval().learned.unwrap());
        assert!((value - first_players(&board, v, 200.0)).abs() < 1e-12);
        // Andantino (decisive playouts under the standard rules, uniform ones in the
        // balance variant): 5 plies, unless the game ends first, then the forced moves
        // (`andantino::ai::playout::cutoff_value`, tested there) and the evaluation.
        for rules in [andantino::Rules::default(), balance()] {
            let start = andantino::Board::new(None, rules).unwrap();
            let options = PlayoutOptions {
                decisive,
                cutoff: Some(5),
                scale: 2.0,
                eval: Some(andantino_eval()),
            };
            let mut cut = 0;
            for seed in 0..20 {
                let mut board = quiet_position(&start, seed, 12);
                let plies = board.ply();
                let (ended, trace) = play_out(&mut board, &options, seed, &Stop::new());
                let (value, win) = ended.unwrap();
                assert_eq!(board.ply(), plies + trace.len());
                if board.result().is_some() || win.is_some() {
                    assert!(trace.len() <= 5);
                    assert!([0.0, 0.5, 1.0].contains(&value));
                    continue;
                }
                assert!(
                    (5..=5 + MAX_FORCED).contains(&trace.len()),
                    "{}",
                    trace.len()
                );
                if value == 0.0 || value == 1.0 {
                    continue; // lost to two threats, or one it cannot fill
                }
                cut += 1;
                let v = andantino_points(&board, &andantino_eval());
                assert!((value - first_players(&board, v, 250.0)).abs() < 1e-12);
            }
            assert!(cut >= 10, "{cut} of 20 cut off and evaluated");
            // Without an evaluation Andantino has nothing to score by: played out.
            let mut board = random_position(&start, 1, 12);
            let plain = PlayoutOptions {
                eval: None,
                ..options
            };
            let (ended, trace) = play_out(&mut board, &plain, 1, &Stop::new());
            let (value, win) = ended.unwrap();
            assert!(board.result().is_some() || win.is_some());
            assert!(trace.len() > 5 && [0.0, 0.5, 1.0].contains(&value));
        }
    }
}

/// A player whose cut-off (at `cutoff` plies) is scored by `eval`.
fn evaluating<G: MctsGame>(seed: u64, cutoff: u32, eval: G::EvalWeights) -> Mcts<G> {
    let options = MctsOptions {
        seed,
        playout_cutoff: Some(cutoff),
        ..MctsOptions::default()
    };
    Mcts::with_eval(options, Some(eval)).unwrap()
}

#[test]
fn the_search_with_an_evaluation_passes_the_searchs_tests() {
    // The tests above with the cut-off scored by the evaluation in both games.
    let start = andantino::Board::new(None, balance()).unwrap();
    for seed in 0..3 {
        let board = random_position(&start, seed, 14);
        let mut mcts = evaluating::<andantino::Board>(seed, 4, andantino_eval());
        assert_eq!(mcts.eval_weights(), Some(&andantino_eval()));
        let result = search(&mut mcts, &board, nodes(2000));
        assert!(board.check_move(result.best).is_ok());
        let n = check_tree(&mcts, 0, true);
        if result.info.mate.is_none() {
            assert_eq!((n, result.info.nodes), (2000, 2000));
        }
        let board = random_position(&abande_board(None), seed, 10 + 20 * seed as usize);
        let mut mcts = evaluating::<abande::Board>(seed, 4, abande_eval());
        let result = search(&mut mcts, &board, nodes(2000));
        assert!(board.legal_moves().contains(&result.best));
        check_tree(&mcts, 0, true);
    }
    for cutoff in [1, 4, 10] {
        let mut mcts = evaluating::<andantino::Board>(1, cutoff, andantino_eval());
        let win = search(&mut mcts, &andantino_board(WIN_IN_ONE), nodes(1500));
        assert_eq!(
            (win.best.notation().as_str(), win.info.mate),
            ("4,0", Some(1))
        );
        let block = search(&mut mcts, &andantino_board(BLOCK), nodes(1500));
        assert_eq!(block.best.notation(), "-1,1");
        let mut mcts = evaluating::<andantino::Board>(1, cutoff, andantino_eval());
        let three = search(&mut mcts, &andantino_board(WIN_IN_THREE), nodes(100_000));
        assert_eq!(
            (three.best.notation().as_str(), three.info.mate),
            ("0,-1", Some(3))
        );
        let lost = search(&mut mcts, &andantino_board(LOST), nodes(5000));
        assert_eq!((lost.info.mate, lost.info.score), (Some(-2), 0.0));
        let mut mcts = evaluating::<abande::Board>(1, cutoff, abande_eval());
        let pass = search(
            &mut mcts,
            &abande_board(Some(ABANDE_PASS_WINS)),
            nodes(1000),
        );
        assert_eq!((pass.best, pass.info.mate), (abande::Move::PASS, Some(1)));
    }
    // Seeds reproduce moves.
    let board = quiet_position(&start, 2, 14);
    let key = |r: MctsResult<andantino::Move>| (r.best, r.info.pv, r.info.score, r.info.nodes);
    let one = search(&mut evaluating(7, 4, andantino_eval()), &board, nodes(400));
    let two = search(&mut evaluating(7, 4, andantino_eval()), &board, nodes(400));
    assert_eq!(key(one), key(two));
}

#[test]
fn bad_evaluation_weights_are_errors() {
    let shrinking = andantino::ai::Weights {
        line: [0, 30, 6, 1, 160, 160],
        ..andantino_eval()
    };
    assert!(matches!(
        Mcts::<andantino::Board>::with_eval(MctsOptions::default(), Some(shrinking)),
        Err(crate::Error::InvalidArgument(_))
    ));
    let mut huge = abande_eval();
    huge.learned.as_mut().unwrap()[3] = abande::ai::learned::MAX_LEARNED_WEIGHT + 1;
    assert!(matches!(
        Mcts::<abande::Board>::with_eval(MctsOptions::default(), Some(huge)),
        Err(crate::Error::InvalidArgument(_))
    ));
}
