//! The greedy player on the Python tests' positions: wins in one, blocks, ties by the
//! seed, noise.

use std::time::Instant;

use super::*;
use crate::game::Game;
use crate::{abande, andantino};

// The positions of tests/test_engine_greedy.py, where they are described.
const LINE_WIN: &str = "andantino w=0,0;1,0;2,0;3,0 r=4,0;-1,1;1,1;2,-1 turn=w";
const TRAP_WIN: &str = "andantino w=1,0;-1,0;0,1;0,-1;1,-1 r=0,0;2,0;2,-1;-2,0;-2,1 turn=w";
const LINE_BLOCK: &str = "andantino w=0,0;1,0;4,1;-1,0 r=0,1;1,1;2,1;3,1 turn=w";
const TRAP_BLOCK: &str = "andantino w=0,0;2,0;2,-2;-2,0;-2,2;0,2 r=1,0;1,-1;0,-1;-1,0;-1,1 turn=w";
const TRAPPABLE: &str = "andantino w=2,0;2,-2;-2,0;-2,2;0,2;1,-3 r=1,0;1,-1;0,-1;-1,0;-1,1 turn=w";
const ABANDE_PASS_WIN: &str = "abande a1=W a3=B b1=BW b2=BWB b3=BBW b4=B c1=W c3=BBW c5=B \
                               d1=BBW d2=BWB d6=W e1=W e2=WBW e6=W f1=BW f3=WWB g1=B g2=W \
                               g3=W turn=w hands=b0,w0 passes=1";
const ABANDE_BLOCK: &str = "abande a2=WB a4=W b1=WWB b3=W b4=BBW b5=WB c2=W c3=BWB c4=B c5=B \
                            d2=W d3=B d6=BWB d7=B e1=B e3=B e4=WBW e6=W f3=BW f5=W g1=W g2=W \
                            g3=B turn=w hands=b0,w0";

fn play_andantino(position: &str, seed: u64, noise: f64) -> GreedyResult<andantino::Move> {
    let board = andantino::Board::new(Some(position), andantino::Rules::default()).unwrap();
    Greedy::new(seed, noise).unwrap().choose(&board).unwrap()
}

fn play_abande(position: &str, seed: u64) -> GreedyResult<abande::Move> {
    let board = abande::Board::new(Some(position), abande::Rules::default()).unwrap();
    Greedy::new(seed, 0.0).unwrap().choose(&board).unwrap()
}

#[test]
fn wins_at_once() {
    for seed in 0..5 {
        for (position, mv) in [(LINE_WIN, "-1,0"), (TRAP_WIN, "-1,1")] {
            for noise in [0.0, 1.0] {
                let r = play_andantino(position, seed, noise);
                assert_eq!(r.best.notation(), mv);
                assert_eq!(
                    (r.info.mate, r.info.score, r.info.eval),
                    (Some(1), 1.0, None)
                );
            }
        }
        let r = play_abande(ABANDE_PASS_WIN, seed);
        assert_eq!(r.best, abande::Move::PASS);
        assert_eq!(r.info.mate, Some(1));
    }
}

#[test]
fn blocks_and_never_hands_over_a_win() {
    for seed in 0..4 {
        assert_eq!(
            play_andantino(LINE_BLOCK, seed, 0.0).best.notation(),
            "-1,1"
        );
        assert_eq!(
            play_andantino(LINE_BLOCK, seed, 1.0).best.notation(),
            "-1,1"
        );
        assert_eq!(play_andantino(TRAP_BLOCK, seed, 0.0).best.notation(), "0,1");
        // 0,0 would let Red trap the tile with 0,1.
        assert_ne!(play_andantino(TRAPPABLE, seed, 1.0).best.notation(), "0,0");
        // A pass would let Black pass and win 20-14; the one capture does not.
        assert_eq!(play_abande(ABANDE_BLOCK, seed).best.notation(), "a4-b5");
    }
}

#[test]
fn ties_are_broken_by_the_seed_and_reports_are_full() {
    let start = andantino::Board::new(None, andantino::Rules::default()).unwrap();
    let chosen: std::collections::BTreeSet<String> = (0..12)
        .map(|seed| {
            Greedy::new(seed, 0.0)
                .unwrap()
                .choose(&start)
                .unwrap()
                .best
                .notation()
        })
        .collect();
    assert_eq!(chosen.into_iter().collect::<Vec<_>>(), ["0,1", "1,-1"]);
    let r = Greedy::new(3, 0.0).unwrap().choose(&start).unwrap();
    assert_eq!(r.info.depth, 1);
    assert_eq!(r.info.pv, vec![r.best.notation()]);
    assert!(r.info.nodes >= 2);
    let eval = r.info.eval.unwrap();
    assert!((r.info.score - win_probability(eval as f64, 250.0)).abs() < 1e-12);
}

#[test]
fn bad_noise_and_finished_games() {
    for noise in [-0.1, 1.5, f64::NAN] {
        assert!(matches!(
            Greedy::new(0, noise),
            Err(Error::InvalidArgument(_))
        ));
    }
    let over = andantino::Board::new(
        Some("andantino w=0,0;1,0;2,0;3,0;4,0 r=0,1;1,1;2,1;3,1 turn=r"),
        andantino::Rules::default(),
    )
    .unwrap();
    assert!(over.result().is_some());
    assert!(Greedy::new(0, 0.0).unwrap().choose(&over).is_err());
}

// --- limits and stops --------------------------------------------------------------------

#[test]
fn a_limit_or_a_stop_ends_the_choice_with_the_best_move_examined() {
    // 500 tiles a side relocating: some 500,000 moves, each pushed, evaluated and tested
    // for a winning reply: far more than the limits allow. Before, the first look at a
    // limit came after every move was scored.
    let board = crate::search::big::board(500, 500, 4, 200);
    let mut greedy = Greedy::new(1, 0.0).unwrap();
    let runs = crate::search::big::limited_and_stopped(|limits, stop| {
        greedy
            .choose_within(&board, limits, stop, &mut || false)
            .unwrap()
    });
    for (r, took) in runs {
        assert!(took < 0.6, "{took} s, {} nodes", r.info.nodes);
        assert!(board.check_move(r.best).is_ok());
        assert_eq!(r.info.depth, 0, "not every move was examined");
        assert!(r.info.eval.is_some(), "some moves were");
    }
}

#[test]
fn stopped_before_any_move_it_plays_a_legal_one() {
    let board = andantino::Board::new(Some(LINE_BLOCK), andantino::Rules::default()).unwrap();
    let stop = Stop::new();
    stop.set();
    let r = Greedy::new(0, 0.0)
        .unwrap()
        .choose_within(&board, &Limits::default(), &stop, &mut || false)
        .unwrap();
    let mut moves = Vec::new();
    board.legal_moves(&mut moves);
    assert_eq!(r.best, moves[0]);
    assert_eq!(
        (r.info.depth, r.info.eval, r.info.mate, r.info.score),
        (0, None, None, 0.5)
    );
    // A win in one is found before anything else, and taken even when stopped.
    let won = andantino::Board::new(Some(LINE_WIN), andantino::Rules::default()).unwrap();
    let r = Greedy::new(0, 0.0)
        .unwrap()
        .choose_within(&won, &Limits::default(), &stop, &mut || false)
        .unwrap();
    assert_eq!(
        (r.best.notation(), r.info.mate),
        ("-1,0".to_string(), Some(1))
    );
    // A node limit: the moves examined within it.
    let limits = Limits {
        nodes: Some(3),
        ..Limits::default()
    };
    let r = Greedy::new(0, 0.0)
        .unwrap()
        .choose_within(&board, &limits, &Stop::new(), &mut || false)
        .unwrap();
    assert_eq!(r.info.depth, 0);
    assert!(r.info.nodes <= 3 + moves.len() as u64, "{}", r.info.nodes);
}

#[test]
fn a_winning_reply_is_found_without_trying_every_reply() {
    // Extended play, 40 tiles a side relocating (1,600 tiles times cells of moves, each
    // with as many replies): 26 s a move before, growing with the fourth power of the
    // tiles. Now only the replies that may win are pushed.
    let [w, r] = crate::search::big::triangles(40, 4);
    let text = crate::search::big::position(&[w, r], 'w', "hands=w0,r0");
    let rules = andantino::Rules {
        extended: true,
        tiles_per_player: Some(40),
        ..andantino::Rules::default()
    };
    let board = andantino::Board::new(Some(&text), rules).unwrap();
    let mut moves = Vec::new();
    board.legal_moves(&mut moves);
    let start = Instant::now();
    let r = Greedy::new(0, 0.0).unwrap().choose(&board).unwrap();
    let took = start.elapsed().as_secs_f64();
    assert_eq!(r.info.depth, 1);
    // Every move pushed once, and few replies for each.
    assert!(
        r.info.nodes < 3 * moves.len() as u64,
        "{} nodes",
        r.info.nodes
    );
    assert!(took < 5.0, "{took} s");
}
