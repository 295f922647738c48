//! The board's own tests: docs/perft.md, the examples of docs/rules.md, make/unmake,
//! position strings, errors, and the incremental enclosure against a recomputation.

use super::*;
use crate::error::Error;
use crate::game::{Game, Termination};
use crate::perft::perft;
use crate::playout::random_playouts;
use crate::zobrist::Rng;

fn board(position: &str) -> Board {
    Board::new(Some(position), Rules::default()).unwrap()
}

fn cell(q: i64, r: i64) -> Cell {
    Cell::new(q, r).unwrap()
}

fn push(b: &mut Board, text: &str) {
    let mv = b.parse_move(text).unwrap();
    b.push(mv);
}

fn notations(b: &Board) -> Vec<String> {
    let mut moves = Vec::new();
    b.legal_moves(&mut moves);
    let mut texts: Vec<String> = moves.iter().map(|m| m.notation()).collect();
    texts.sort();
    texts
}

#[test]
fn perft_of_perft_md() {
    let mut standard = Board::new(None, Rules::default()).unwrap();
    let counts: Vec<u64> = (1..=5).map(|d| perft(&mut standard, d)).collect();
    assert_eq!(counts, [2, 6, 24, 120, 672]);
    let single = Rules {
        single_adjacency: true,
        ..Rules::default()
    };
    let mut balance = Board::new(None, single).unwrap();
    let counts: Vec<u64> = (1..=5).map(|d| perft(&mut balance, d)).collect();
    assert_eq!(counts, [2, 18, 72, 480, 2640]);
    assert_eq!(
        standard.position(),
        "andantino w=0,0 r=1,0 turn=w hands=w24,r24"
    );
}

#[test]
fn examples_of_rules_md() {
    let mut b = Board::new(None, Rules::default()).unwrap();
    assert_eq!(notations(&b), ["0,1", "1,-1"]);
    push(&mut b, "0,1");
    assert_eq!(notations(&b), ["-1,1", "1,-1", "1,1"]);
    let single = Rules {
        single_adjacency: true,
        ..Rules::default()
    };
    let mut b = Board::new(None, single).unwrap();
    push(&mut b, "0,1");
    assert_eq!(b.legal_count(), 9);

    // The ring trap.
    let mut b = board("andantino w=1,0;-1,0;0,1;0,-1;1,-1 r=0,0;2,0;2,-1;-2,0;-2,1 turn=w");
    push(&mut b, "-1,1");
    let outcome = b.outcome().unwrap();
    assert_eq!(outcome.termination, Termination::Trap);
    assert_eq!(outcome.winner, Some(0));
    assert_eq!(outcome.trapped, [cell(0, 0)]);
    assert!(outcome.line.is_empty());
    assert_eq!(b.enclosed_cells(0), [cell(0, 0)]);
    b.pop_move();
    assert!(b.enclosed_cells(0).is_empty());
    assert!(b.outcome().is_none());

    // The ring around an empty cell only.
    let mut b = board("andantino w=1,0;-1,0;0,1;0,-1;1,-1 r=1,1;2,0;2,-1;-2,0;-2,1 turn=w");
    push(&mut b, "-1,1");
    assert!(b.outcome().is_none());
    assert_eq!(b.enclosed_cells(0), [cell(0, 0)]);
    // Red placing into it is a self-trap: White wins.
    let mut red = b.clone();
    assert!(red.parse_move("0,0").is_ok());
    push(&mut red, "0,0");
    let outcome = red.outcome().unwrap();
    assert_eq!(
        (outcome.termination, outcome.winner),
        (Termination::SelfTrap, Some(0))
    );
    assert_eq!(outcome.trapped, [cell(0, 0)]);
    // With self_trap=illegal it is no legal move.
    let illegal = Rules {
        self_trap: SelfTrap::Illegal,
        ..Rules::default()
    };
    let mut b = Board::new(
        Some("andantino w=1,0;-1,0;0,1;0,-1;1,-1 r=1,1;2,0;2,-1;-2,0;-2,1 turn=w"),
        illegal,
    )
    .unwrap();
    push(&mut b, "-1,1");
    assert!(!notations(&b).contains(&"0,0".to_string()));
    assert_eq!(
        b.parse_move("0,0"),
        Err(Error::IllegalMove(
            "illegal move 0,0: 0,0 lies in a pocket walled off by the opponent (self-trap)"
                .to_string()
        ))
    );
}

#[test]
fn a_line_of_five_wins() {
    let mut b = board("andantino w=0,0;1,0;2,0;3,0 r=0,1;1,1;2,1;3,1 turn=w");
    push(&mut b, "4,0");
    let outcome = b.outcome().unwrap();
    assert_eq!(
        (outcome.termination, outcome.winner),
        (Termination::Line, Some(0))
    );
    assert_eq!(outcome.line, (0..5).map(|q| cell(q, 0)).collect::<Vec<_>>());
    // A set-up position with a line of the player who just moved is decided.
    let b = board("andantino w=0,0;1,0;2,0;3,0;4,0 r=0,1;1,1;2,1;3,1 turn=r");
    assert_eq!(b.outcome().unwrap().line.len(), 5);
    assert_eq!(b.legal_count(), 0);
}

#[test]
fn bad_input_gives_the_right_error_kind() {
    let kind = |r: Result<Board, Error>| match r {
        Err(Error::InvalidPosition(_)) => "position",
        Err(Error::InvalidRules(_)) => "rules",
        Err(_) => "other",
        Ok(_) => "ok",
    };
    assert_eq!(
        kind(Board::new(
            Some("andantino w=0,0 r=5,5 turn=w"),
            Rules::default()
        )),
        "position"
    );
    assert_eq!(
        Board::new(Some("andantino w=0,0 r=5,5 turn=w"), Rules::default())
            .unwrap_err()
            .message(),
        "no legal move in this position (every move needs a cell touching two tiles; are the \
         tiles in one group?)"
    );
    assert_eq!(
        kind(Board::new(Some("chess"), Rules::default())),
        "position"
    );
    let bad = Rules {
        extended: true,
        tiles_per_player: Some(1),
        ..Rules::default()
    };
    assert_eq!(kind(Board::new(None, bad)), "rules");
    let b = Board::new(None, Rules::default()).unwrap();
    assert!(matches!(b.parse_move("0,0"), Err(Error::IllegalMove(_))));
    assert!(matches!(b.parse_move("x"), Err(Error::InvalidMove(_))));
    assert_eq!(
        b.parse_move("0,0").unwrap_err().message(),
        "illegal move 0,0: 0,0 is occupied"
    );
    assert_eq!(
        b.parse_move("5,5").unwrap_err().message(),
        "illegal move 5,5: 5,5 touches 0 tile(s); a tile must touch at least two"
    );
    assert_eq!(
        b.parse_move("0,0>0,1").unwrap_err().message(),
        "illegal move 0,0>0,1: tiles are relocated only in extended play once your hand is empty"
    );
    assert_eq!(
        b.parse_move("9999,9999").unwrap_err().message(),
        "illegal move 9999,9999: 9999,9999 touches 0 tile(s); a tile must touch at least two"
    );
}

/// Tiles of `color` around `cell`.
fn own_neighbours(b: &Board, cell: Cell, color: u8) -> usize {
    [(1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1)]
        .iter()
        .filter(|(dq, dr)| {
            Cell::new((cell.q() + dq) as i64, (cell.r() + dr) as i64)
                .is_ok_and(|n| b.color_at(n) == Some(color))
        })
        .count()
}

/// A random move; with `clump`, half of the time one touching the most own tiles
/// (placements that join several runs of own tiles, which close loops).
fn choose(b: &Board, rng: &mut Rng, moves: &[Move], clump: bool) -> Move {
    if clump && rng.below(2) == 0 {
        let me = b.turn();
        let best = moves
            .iter()
            .map(|m| own_neighbours(b, m.to(), me))
            .max()
            .unwrap_or(0);
        let top: Vec<Move> = moves
            .iter()
            .copied()
            .filter(|m| own_neighbours(b, m.to(), me) == best)
            .collect();
        return top[rng.below(top.len())];
    }
    moves[rng.below(moves.len())]
}

/// Random games, checked after every push against recomputations: the enclosures by
/// flood fills from scratch, the trap and self-trap verdicts from the enclosures before
/// and after the move, the key, position and legal moves of a board set up from the
/// position string; popping the whole game restores every position.
/// `random_move` draws what indexing `legal_moves`' list `moves` by `Rng::below` draws
/// (`None` without a draw when the list is empty), with as many numbers of the generator.
fn assert_draws_like_the_list(b: &Board, moves: &[Move], rng: &Rng) {
    let (mut by_list, mut drawn) = (rng.clone(), rng.clone());
    let expected = (!moves.is_empty()).then(|| moves[by_list.below(moves.len())]);
    let mut scratch = Vec::new();
    assert_eq!(
        b.random_move(&mut drawn, &mut scratch),
        expected,
        "{}",
        b.position()
    );
    assert_eq!(by_list.next_u64(), drawn.next_u64());
}

/// `may_win_at_once` holds every legal move that wins at once (found by trying each),
/// and only legal moves.
fn assert_wins_are_candidates(b: &Board, moves: &[Move]) {
    let mut candidates = Vec::new();
    b.may_win_at_once(&mut candidates);
    let mut g = b.clone();
    let me = g.turn();
    for &mv in moves {
        g.push(mv);
        let won = g.result().is_some_and(|r| r.winner == Some(me));
        g.pop();
        if won {
            assert!(candidates.contains(&mv), "{mv} missed in {}", b.position());
        }
    }
    for mv in candidates {
        assert!(b.check_move(mv).is_ok(), "{mv} in {}", b.position());
    }
}

fn random_games(rules: Rules, start: Option<&str>, games: u64, seed: u64, clump: bool) -> [u64; 8] {
    let mut rng = Rng::new(seed);
    let mut ends = [0u64; 8];
    let root = Board::new(start, rules).unwrap();
    let mut moves = Vec::new();
    for _ in 0..games {
        let mut b = root.clone();
        let mut history = vec![(b.position(), b.zobrist(), notations(&b))];
        while b.result().is_none() && b.ply() < 400 {
            b.legal_moves(&mut moves);
            assert_eq!(moves.len(), b.legal_count());
            assert_draws_like_the_list(&b, &moves, &rng);
            assert_wins_are_candidates(&b, &moves);
            let mv = choose(&b, &mut rng, &moves, clump);
            assert!(b.check_move(mv).is_ok(), "{mv:?} in {}", b.position());
            let me = b.turn();
            let walled_before = b.enclosed_from_scratch(me);
            let pocket = b.enclosed_from_scratch(1 - me).contains(&mv.to());
            b.push(mv);
            let walled = b.enclosed_from_scratch(me);
            assert_eq!(b.enclosed_cells(me), walled, "{}", b.position());
            assert_eq!(b.enclosed_cells(1 - me), b.enclosed_from_scratch(1 - me));
            let trapped: Vec<Cell> = walled
                .iter()
                .copied()
                .filter(|&c| b.color_at(c) == Some(1 - me) && !walled_before.contains(&c))
                .collect();
            match b.outcome() {
                Some(o)
                    if matches!(o.termination, Termination::Trap | Termination::LineAndTrap) =>
                {
                    assert_eq!(o.trapped, trapped, "{}", b.position());
                }
                Some(o) if o.termination == Termination::SelfTrap => {
                    assert!(trapped.is_empty() && pocket && o.trapped == [mv.to()]);
                    assert_eq!(o.winner, Some(1 - me));
                }
                _ => assert!(trapped.is_empty(), "missed trap: {}", b.position()),
            }
            if pocket && trapped.is_empty() && rules.self_trap == SelfTrap::OpponentWins {
                let o = b.outcome().unwrap();
                assert!(matches!(
                    o.termination,
                    Termination::SelfTrap | Termination::Line
                ));
            }
            if b.result().is_none() {
                let again = Board::new(Some(&b.position()), rules).unwrap();
                assert_eq!(again.position(), b.position());
                assert_eq!(notations(&again), notations(&b));
                assert_eq!(again.zobrist(), b.zobrist());
            }
            history.push((b.position(), b.zobrist(), notations(&b)));
        }
        b.legal_moves(&mut moves);
        assert_draws_like_the_list(&b, &moves, &rng);
        if let Some(result) = b.result() {
            let index = crate::playout::TERMINATIONS
                .iter()
                .position(|&t| t == result.termination);
            ends[index.unwrap_or(7)] += 1;
        }
        while b.pop_move().is_some() {
            assert_eq!(history[b.ply()], (b.position(), b.zobrist(), notations(&b)));
        }
    }
    ends
}

#[test]
fn random_standard_games_are_consistent() {
    let ends = random_games(Rules::default(), None, 200, 1, false);
    assert!(ends[0] > 0 && ends[1] > 0 && ends[4] > 0, "{ends:?}");
    let ends = random_games(Rules::default(), None, 200, 5, true);
    assert!(ends[1] > 0, "{ends:?}");
}

#[test]
fn random_variant_games_are_consistent() {
    let rules = Rules {
        single_adjacency: true,
        self_trap: SelfTrap::Illegal,
        ..Rules::default()
    };
    random_games(rules, None, 100, 2, true);
    let rules = Rules {
        self_trap: SelfTrap::Ignore,
        tiles_per_player: None,
        ..Rules::default()
    };
    random_games(rules, None, 60, 3, true);
    let rules = Rules {
        extended: true,
        tiles_per_player: Some(7),
        extended_move_limit: 40,
        ..Rules::default()
    };
    let ends = random_games(rules, None, 100, 4, true);
    assert!(ends[5] > 0, "{ends:?}");
    // Relocations are drawn and counted without being listed: with pockets refused,
    // on the edge of the range and on the hash map surface too.
    let rules = Rules {
        extended: true,
        tiles_per_player: Some(8),
        extended_move_limit: 30,
        self_trap: SelfTrap::Illegal,
        ..Rules::default()
    };
    random_games(rules, None, 60, 6, true);
    for start in [
        "andantino w=16380,0;16380,1 r=16379,1;16379,0 turn=w hands=w4,r4",
        "andantino w=0,0;400,0;-1,1 r=1,0;401,0;399,1 turn=w hands=w3,r3",
    ] {
        let rules = Rules {
            extended: true,
            tiles_per_player: Some(6),
            extended_move_limit: 30,
            ..Rules::default()
        };
        random_games(rules, Some(start), 20, 7, true);
    }
}

#[test]
fn set_up_positions_are_consistent() {
    // Pockets of either colour, a tile enclosed already, far-flung tiles (the hash map
    // surface) and tiles on the edge of the range.
    let starts = [
        "andantino w=1,0;-1,0;0,1;0,-1;1,-1;-1,1 r=1,1;2,0;2,-1;-2,0;-2,1 turn=r",
        "andantino w=1,0;-1,0;0,1;0,-1;1,-1;-1,1 r=0,0;2,0;3,0 turn=w",
        "andantino w=0,0;400,0;-1,1 r=1,0;401,0;399,1 turn=w",
        "andantino w=16380,0;16380,1 r=16379,1;16379,0 turn=w",
    ];
    for (i, start) in starts.iter().enumerate() {
        random_games(Rules::default(), Some(start), 30, 10 + i as u64, true);
        let ignore = Rules {
            self_trap: SelfTrap::Ignore,
            ..Rules::default()
        };
        random_games(ignore, Some(start), 20, 20 + i as u64, true);
    }
    let far = Board::new(Some(starts[2]), Rules::default()).unwrap();
    assert!(!far.is_dense());
    assert!(Board::new(Some(starts[0]), Rules::default())
        .unwrap()
        .is_dense());
}

#[test]
fn the_window_grows_and_moves_with_the_tiles() {
    // An unlimited game that keeps growing to the right (each player takes the legal
    // move furthest right that does not end the game): the window is re-centred and
    // grown, then given up for the hash map, while keys, positions and legal moves stay
    // those of a fresh set-up and popping restores every position.
    let rules = Rules {
        tiles_per_player: None,
        ..Rules::default()
    };
    let mut b = Board::new(None, rules).unwrap();
    let mut moves = Vec::new();
    let mut history = vec![(b.position(), notations(&b))];
    let mut dense_until = None;
    while b.ply() < 700 {
        b.legal_moves(&mut moves);
        moves.sort_by_key(|m| (-m.to().q(), m.to().r().abs()));
        let kept = moves.iter().any(|&m| {
            b.push(m);
            if b.result().is_none() {
                return true;
            }
            b.pop();
            false
        });
        if !kept {
            break;
        }
        history.push((b.position(), notations(&b)));
        if !b.is_dense() && dense_until.is_none() {
            dense_until = Some(b.ply());
        }
        if b.ply() % 25 == 0 {
            let again = Board::new(Some(&b.position()), rules).unwrap();
            assert_eq!(
                (again.zobrist(), notations(&again)),
                (b.zobrist(), notations(&b))
            );
            assert!(b.enclosures_agree());
        }
    }
    let rightmost = b
        .tiles(0)
        .iter()
        .chain(b.tiles(1).iter())
        .map(|c| c.q())
        .max();
    assert!(rightmost > Some(130), "{rightmost:?}");
    assert!(dense_until.is_some_and(|p| p > 100), "{dense_until:?}");
    while b.pop_move().is_some() {
        assert_eq!(history[b.ply()], (b.position(), notations(&b)));
    }
}

#[test]
fn relocations_walk_the_window_away_and_popping_brings_it_back() {
    // Extended play, four tiles a side (no line, no trap): each side relocates its
    // leftmost tile to the rightmost cell it may take, so the group walks to the right
    // and the window is re-centred on it. Popping then returns each tile to where it
    // was, cells the window had left behind: the pop must move the window back (it
    // wrote outside it, and MCTS playouts of 2,048 relocations corrupted the heap).
    let mut b = crate::search::big::endless();
    let mut moves = Vec::new();
    let mut history = vec![(b.position(), notations(&b))];
    while b.ply() < 600 && b.result().is_none() {
        b.legal_moves(&mut moves);
        let mv = moves
            .iter()
            .copied()
            .max_by_key(|m| (-m.from().map_or(0, |c| c.q()), m.to().q(), -m.to().r()))
            .unwrap();
        b.push(mv);
        history.push((b.position(), notations(&b)));
    }
    let leftmost = b.tiles(0).iter().chain(&b.tiles(1)).map(|c| c.q()).min();
    assert!(leftmost > Some(200), "{leftmost:?} after {} plies", b.ply());
    assert!(b.is_dense());
    while b.pop_move().is_some() {
        assert_eq!(history[b.ply()], (b.position(), notations(&b)));
    }
    assert!(b.enclosures_agree());
}

#[test]
fn an_endless_playout_ends_at_the_time_and_at_stop() {
    // Four tiles a side make neither a line nor a trap: with a relocation limit of a
    // billion a random game goes on until a position repeats. The batch looked at its
    // time and its stop (Ctrl-C) only between playouts: it never returned.
    let mut b = crate::search::big::endless();
    let before = (b.position(), b.zobrist());
    let began = std::time::Instant::now();
    let stats = random_playouts(&mut b, None, Some(0.05), 3, || false);
    assert!(began.elapsed().as_secs_f64() < 1.0, "{stats:?}");
    assert_eq!(stats.terminations.iter().sum::<u64>(), stats.playouts);
    let mut polls = 0;
    let began = std::time::Instant::now();
    let stats = random_playouts(&mut b, Some(5), None, 3, || {
        polls += 1;
        polls >= 3
    });
    let took = began.elapsed().as_secs_f64();
    assert!(took < 1.0 && polls == 3, "{took} s, {stats:?}");
    assert!(stats.playouts < 5);
    assert_eq!((b.position(), b.zobrist()), before);
}

#[test]
fn playouts_leave_the_board_as_found() {
    let mut b = Board::new(None, Rules::default()).unwrap();
    let before = (b.position(), b.zobrist());
    let stats = random_playouts(&mut b, Some(2000), None, 9, || false);
    assert_eq!(stats.playouts, 2000);
    assert_eq!(stats.wins[0] + stats.wins[1] + stats.draws, 2000);
    assert_eq!((b.position(), b.zobrist()), before);
}

/// Placements touching three runs of own tiles of which some share a group: each way
/// the gaps between them can form regions (found in random games; the expected cells
/// are the Python board's).
#[test]
fn placements_between_three_runs() {
    type Case<'a> = (&'a str, &'a str, &'a [(i64, i64)]);
    let cases: [Case; 4] = [
        // runs 0 and 1 joined: the gap between them is walled off
        (
            "andantino w=-1,-2;0,-2;1,-2;-2,-1;1,-1;2,-1;-2,0;0,0;2,0;-1,1;2,1;-3,2;-1,2;1,2;-2,3 \
             r=0,-3;1,-3;-2,-2;2,-2;3,-2;-1,-1;0,-1;-1,0;1,0;0,1;1,1;-2,2;-3,3;-1,3;-3,4 turn=w",
            "-2,1",
            &[(-1, -1), (-1, 0), (0, -1)],
        ),
        // runs 1 and 2 joined
        (
            "andantino w=2,-2;4,-2;5,-2;1,-1;2,-1;3,-1;-1,0;0,0;2,0;4,0;-2,1;3,1;-3,2;0,2;1,2;\
             -3,3;-2,3;-1,3;-2,4 r=2,-3;4,-3;5,-3;1,-2;3,-2;0,-1;4,-1;-2,0;1,0;3,0;-3,1;-1,1;\
             0,1;-2,2;-1,2;-4,3;0,3;1,3;0,4 turn=w",
            "2,1",
            &[(-2, 2), (-1, 1), (-1, 2), (0, 1), (1, 0), (1, 1)],
        ),
        // runs 2 and 0 joined
        (
            "andantino w=6,-7;2,-6;5,-6;-1,-5;2,-5;4,-5;5,-5;-1,-4;2,-4;-3,-3;-1,-3;0,-3;1,-3;\
             -6,-2;-4,-2;1,-2;2,-2;4,-2;5,-2;-6,-1;-5,-1;-4,-1;-3,-1;-1,-1;1,-1;2,-1;3,-1;4,-1;\
             -7,0;-5,0;-4,0;-3,0;-2,0;0,0;-7,1;-4,1;-1,1;0,1;-6,2;-3,2;-1,2;2,2;-5,3;-1,3;0,3;\
             -6,4;-4,4;-3,4;-1,4;0,4;-5,5;-4,5;-3,5;-6,6;-3,6;-1,6;-5,7;-3,7 r=0,-6;1,-6;6,-6;\
             1,-5;6,-5;-3,-4;-2,-4;0,-4;1,-4;3,-4;4,-4;5,-4;6,-4;-2,-3;2,-3;3,-3;4,-3;5,-3;-5,-2;\
             -3,-2;-2,-2;-1,-2;0,-2;3,-2;-2,-1;0,-1;-1,0;1,0;2,0;3,0;-6,1;-5,1;-3,1;-2,1;1,1;\
             2,1;3,1;-7,2;-5,2;-2,2;0,2;1,2;-6,3;-4,3;-3,3;1,3;-5,4;-2,4;-7,5;-6,5;-2,5;-1,5;\
             -5,6;-4,6;-2,6;-4,7;-5,8 turn=r",
            "-4,2",
            &[(-3, 2)],
        ),
        // all three joined
        (
            "andantino w=2,-5;3,-5;-1,-4;3,-4;-4,-3;-2,-3;0,-3;3,-3;-5,-2;-1,-2;1,-2;2,-2;4,-2;\
             -4,-1;-3,-1;0,-1;1,-1;3,-1;4,-1;-2,0;0,0;0,1;1,1;2,1;3,1;-5,2;-4,2;-3,2;-1,2;0,2;\
             1,2;-3,3;-2,3;-3,4;-1,4;-1,5;-3,6;-2,6 r=4,-5;-2,-4;2,-4;4,-4;-3,-3;-1,-3;1,-3;\
             2,-3;-4,-2;-3,-2;-2,-2;0,-2;3,-2;-5,-1;-1,-1;2,-1;-5,0;-4,0;-3,0;-1,0;1,0;2,0;3,0;\
             -4,1;-3,1;-2,1;-1,1;-2,2;-5,3;-1,3;0,3;1,3;-4,4;-2,4;0,4;-4,5;-2,5 turn=r",
            "-2,-1",
            &[(-4, -1), (-3, -1), (-2, 0)],
        ),
    ];
    let rules = Rules {
        tiles_per_player: None,
        ..Rules::default()
    };
    for (position, mv, walled) in cases {
        let mut b = Board::new(Some(position), rules).unwrap();
        let me = b.turn();
        let before = b.enclosed_cells(me);
        push(&mut b, mv);
        let new: Vec<Cell> = b
            .enclosed_cells(me)
            .into_iter()
            .filter(|c| !before.contains(c))
            .collect();
        let expected: Vec<Cell> = walled.iter().map(|&(q, r)| cell(q, r)).collect();
        assert_eq!(new, expected, "{mv} in {position}");
        assert!(b.enclosures_agree());
        assert_eq!(b.outcome().map(|o| o.termination), Some(Termination::Trap));
        b.pop_move();
        assert_eq!(b.enclosed_cells(me), before);
    }
}
