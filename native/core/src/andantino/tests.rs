//! The board's own tests: PERFT.md, the examples of RULES.md, make/unmake, position
//! strings, errors, and the incremental enclosure against a recomputation.

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

/// Random games: after every push the key, position and legal moves agree with a board
/// set up from the position string, the enclosure marks with a recomputation; popping
/// the whole game restores every position.
fn random_games(rules: Rules, start: Option<&str>, games: u64, seed: u64) -> [u64; 8] {
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
            let mv = moves[rng.below(moves.len())];
            assert!(b.check_move(mv).is_ok(), "{mv} in {}", b.position());
            b.push(mv);
            assert!(b.enclosures_are_consistent(), "{}", b.position());
            if b.result().is_none() {
                let again = Board::new(Some(&b.position()), rules).unwrap();
                assert_eq!(again.position(), b.position());
                assert_eq!(notations(&again), notations(&b));
                assert_eq!(again.zobrist(), b.zobrist());
            }
            history.push((b.position(), b.zobrist(), notations(&b)));
        }
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
    let ends = random_games(Rules::default(), None, 300, 1);
    assert!(ends[0] > 0 && ends[1] > 0 && ends[4] > 0, "{ends:?}");
}

#[test]
fn random_variant_games_are_consistent() {
    let rules = Rules {
        single_adjacency: true,
        self_trap: SelfTrap::Illegal,
        ..Rules::default()
    };
    random_games(rules, None, 100, 2);
    let rules = Rules {
        self_trap: SelfTrap::Ignore,
        tiles_per_player: None,
        ..Rules::default()
    };
    random_games(rules, None, 100, 3);
    let rules = Rules {
        extended: true,
        tiles_per_player: Some(7),
        extended_move_limit: 40,
        ..Rules::default()
    };
    let ends = random_games(rules, None, 200, 4);
    assert!(ends[5] > 0, "{ends:?}");
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
