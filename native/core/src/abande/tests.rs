//! The board's own invariants, the perft numbers of docs/perft.md, the examples of
//! docs/rules.md and values computed by the Python board (`hexgames.abande`).

use super::bits::{self, bit_of_name};
use super::*;
use crate::error::Error;
use crate::game::Game;
use crate::perft::{divide, perft};
use crate::zobrist::Rng;

/// A position of a Python game (seed 3) with both hands empty.
const FULL: &str = "abande a1=W a3=WB a4=B b1=B b3=B b4=WB c1=WB c2=BW c3=B c4=B c5=W d2=BW \
                    d3=W d4=B d6=B e1=WB e3=W e4=WB e5=W e6=W f1=BBW f3=W f4=BW f5=W g1=B \
                    g2=W turn=b hands=b0,w0";

fn board(position: &str) -> Board {
    Board::new(Some(position), Rules::default()).unwrap()
}

fn names(moves: &[Move]) -> Vec<String> {
    moves.iter().map(|m| m.notation()).collect()
}

fn stack_moves(b: &Board) -> Vec<String> {
    names(
        &b.legal_moves()
            .into_iter()
            .filter(|m| m.is_stack_move())
            .collect::<Vec<_>>(),
    )
}

fn position_error(text: &str) -> String {
    match Board::new(Some(text), Rules::default()) {
        Err(Error::InvalidPosition(m)) => m,
        other => panic!("expected InvalidPosition for {text:?}, got {other:?}"),
    }
}

#[test]
fn perft_md() {
    let mut b = Board::new(None, Rules::default()).unwrap();
    let key = b.zobrist();
    // docs/perft.md, "Abande": depths 1-3 from the original table, 4 and 5 by the Python
    // board's perft.
    let counts: Vec<u64> = (1..=5).map(|d| perft(&mut b, d)).collect();
    assert_eq!(counts, [37, 180, 1_176, 10_482, 109_116]);
    assert_eq!(b.position(), "abande turn=b hands=b18,w18");
    assert_eq!(b.zobrist(), key);
    let split = divide(&mut b, 3);
    assert_eq!(split.len(), 37);
    assert_eq!(split.iter().map(|(_, n)| n).sum::<u64>(), 1_176);
}

#[test]
fn perft_six_and_seven() {
    // hexgames.perft.perft(abande.Board(), depth) of the Python board.
    let mut b = Board::new(None, Rules::default()).unwrap();
    assert_eq!(perft(&mut b, 6), 1_273_014);
    assert_eq!(perft(&mut b, 7), 16_479_528);
}

#[test]
fn rules_md_examples() {
    let mut b = Board::new(None, Rules::default()).unwrap();
    assert_eq!(b.legal_moves().len(), 37);
    b.push_notation("d4").unwrap(); // Black (0, 0)
    b.push_notation("e3").unwrap(); // White (1, 0)
    let moves = b.legal_moves();
    assert_eq!(moves.len(), 8);
    assert!(moves.iter().all(|m| m.is_entry()));
    b.push_notation("c4").unwrap(); // Black (-1, 0)
    let moves = b.legal_moves();
    assert_eq!(moves.len(), 11);
    assert_eq!(moves.iter().filter(|m| m.is_entry()).count(), 10);
    assert_eq!(stack_moves(&b), ["e3-d4"]);
}

#[test]
fn legal_move_order_is_the_python_boards() {
    // abande.Board(...).legal_moves of the Python board, as notation.
    let b = board("abande c4=B d4=WB e3=W f2=BW g1=W turn=b hands=b15,w14");
    assert_eq!(
        names(&b.legal_moves()),
        ["b3", "b4", "c3", "c5", "d3", "d5", "e2", "e4", "f1", "f3", "g2"]
    );
    let b = board(
        "abande c6=W d4=B d5=B d6=W e3=B e4=W e5=BW e6=B f3=WB f4=W f5=WWB g3=W turn=b \
         hands=b11,w9",
    );
    assert_eq!(
        names(&b.legal_moves()),
        [
            "b5", "c3", "c4", "c5", "d3", "d7", "e2", "f2", "g2", "g4", "d4-e4", "d5-d6", "d5-e4",
            "d5-e5", "e3-e4", "e6-d6", "e6-e5", "f3-e4", "f3-f4", "f3-g3"
        ]
    );
    assert_eq!(
        names(&board(FULL).legal_moves()),
        [
            "b4-c5", "c3-c2", "c3-d3", "c4-c5", "d4-d3", "d4-e3", "d6-c5", "d6-e5", "d6-e6",
            "e4-e3", "e4-e5", "e4-f3", "g1-g2", "pass"
        ]
    );
}

#[test]
fn band_tests_of_the_python_suite() {
    let b = board("abande c4=W d4=B e3=W f2=B turn=b hands=b16,w16");
    assert_eq!(stack_moves(&b), ["f2-e3"]);
    assert!(
        matches!(b.parse_move("d4-e3"), Err(Error::IllegalMove(m)) if m.ends_with("split the band"))
    );
    let ring = board("abande c3=W c4=B d3=B d5=W e3=W e4=B turn=b hands=b15,w15");
    assert_eq!(
        stack_moves(&ring),
        ["c4-c3", "c4-d5", "d3-c3", "d3-e3", "e4-d5", "e4-e3"]
    );
    let open = board("abande c3=W c4=B d3=B d5=W e4=B turn=b hands=b15,w16");
    assert_eq!(stack_moves(&open), ["d3-c3", "e4-d5"]);
    let spoke = board(
        "abande b2=W b3=W b4=B c2=W c5=W d2=W d4=W d6=W e2=W e3=B e5=W f2=W f3=W f4=W \
         turn=b hands=b16,w6",
    );
    assert_eq!(stack_moves(&spoke), ["b4-b3", "b4-c5"]);
    assert_eq!(
        spoke.parse_move("e3-d4"),
        Err(Error::IllegalMove(
            "illegal move e3-d4: moving the stack on e3 would split the band".into()
        ))
    );
}

#[test]
fn height_limit_and_options() {
    let position = "abande d4=WB e3=BW e4=W turn=b hands=b16,w15";
    assert_eq!(stack_moves(&board(position)), ["d4-e4"]);
    let four = Board::new(Some(position), Rules::new(4).unwrap()).unwrap();
    assert_eq!(stack_moves(&four), ["d4-e3", "d4-e4"]);
    let singles = "abande d4=B e3=W e4=B turn=w hands=b16,w17";
    let one = Board::new(Some(singles), Rules::new(1).unwrap()).unwrap();
    assert_eq!(one.legal_moves().len(), 9);
    assert!(stack_moves(&one).is_empty());
    assert_eq!(
        board("abande d4=BWB e3=W e4=B turn=b hands=b15,w16").parse_move("d4-e3"),
        Err(Error::IllegalMove(
            "illegal move d4-e3: the stack would be 4 high; the rules allow at most 3".into()
        ))
    );
}

#[test]
fn illegal_move_messages_as_python() {
    let b = board("abande c4=B d4=WB e3=W f2=BW g1=W turn=b hands=b15,w14");
    let cases = [
        (
            "pass",
            "Black still has 15 piece(s) in hand; a player passes only with an empty hand",
        ),
        ("d4", "d4 is occupied"),
        (
            "a1",
            "a1 touches no occupied point; a piece enters next to the band",
        ),
        ("a1-a2", "a1 is empty"),
        ("e3-d4", "the stack on e3 is controlled by White"),
        ("c4-e3", "c4 and e3 are not adjacent"),
        (
            "c4-c3",
            "c3 is empty; a stack moves only onto an enemy stack",
        ),
        (
            "d4-c4",
            "the stack on c4 is Black's own; a stack moves only onto an enemy stack",
        ),
    ];
    for (text, reason) in cases {
        assert_eq!(
            b.parse_move(text),
            Err(Error::IllegalMove(format!("illegal move {text}: {reason}"))),
            "{text}"
        );
    }
    let opening = board("abande d4=B e3=W turn=b hands=b17,w17");
    assert_eq!(
        opening.parse_move("d4-e3"),
        Err(Error::IllegalMove(
            "illegal move d4-e3: no stack moves before Black has entered its second piece \
             (the opening restriction)"
                .into()
        ))
    );
    assert!(matches!(b.parse_move("h9"), Err(Error::InvalidMove(_))));
}

#[test]
fn zobrist_keys_of_the_python_board() {
    // abande.Board(...).zobrist_hash() of the Python board.
    let mut b = Board::new(None, Rules::default()).unwrap();
    assert_eq!(b.zobrist(), 0xee0e_ad4d_8886_5370);
    b.push_notation("d4").unwrap();
    assert_eq!(b.zobrist(), 0x47ed_406b_d539_8029);
    let mid = "abande a3=B b4=B b5=B c1=W c2=W c3=BW c4=BW c5=W c6=B d2=B d3=B d4=WB e3=WB \
               f2=BBW f3=W g1=BW turn=b hands=b5,w8";
    assert_eq!(board(mid).zobrist(), 0xac22_2317_d7d7_c5a6);
}

/// A game of the Python board (seed 5), replayed: its position and key at the end.
#[test]
fn a_python_game_replayed() {
    let moves = "d4 e3 e2 e1 d4-e3 e1-e2 d2 f1 d3 c1 c3 b2 c4 b2-c3 g1 b4 e4 b4-c4 b4 c5 a3 \
                 c2 f2 d4 b5 f1-g1 e4-d4 f3 c6 e2-f2 b1 b3 b4-c4 c2-d2 f4 b4 c2 a1 a2 e1 \
                 c2-d2 d7 d6 e2 c6-d7 f5 a3-b4 b3-b4 e3-f3 d1 a2-a1 pass b5-c5 f5-f4 pass \
                 c3-d3 pass pass";
    let mut b = Board::new(None, Rules::default()).unwrap();
    for text in moves.split(' ') {
        b.push_notation(text).unwrap();
    }
    let end = "abande a1=WB b1=B b4=WBW c1=W c4=BWB c5=WB d1=W d2=BWB d3=BBW d4=WB d6=B \
               d7=WB e1=W e2=W f2=BBW f3=WWB f4=BW g1=BW turn=b hands=b0,w0 passes=2";
    assert_eq!(b.position(), end);
    assert_eq!(b.zobrist(), 0x4134_c691_43cd_8632);
    assert_eq!(
        b.outcome(),
        Some(Outcome {
            winner: Some(1),
            score: (14, 15)
        })
    );
    assert!(b.legal_moves().is_empty());
    let again = board(end);
    assert_eq!(again.outcome(), b.outcome());
    assert_eq!(again.zobrist(), b.zobrist());
    while b.ply() > 0 {
        b.pop();
    }
    assert_eq!(b.position(), "abande turn=b hands=b18,w18");
    assert_eq!(b.zobrist(), 0xee0e_ad4d_8886_5370);
}

/// From-scratch values of the incremental state.
fn check_against_scratch(b: &Board) {
    let fresh = Board::new(Some(&b.position()), b.rules()).unwrap();
    assert_eq!(fresh.zobrist(), b.zobrist(), "{}", b.position());
    assert_eq!(fresh.holes(), b.holes());
    assert_eq!(b.holes(), bits::holes(b.occupied()));
    assert_eq!(fresh.entries(), b.entries());
    assert_eq!(fresh.legal_moves(), b.legal_moves());
    assert_eq!(fresh.position(), b.position());
}

/// Whether moving the stack on `s` keeps the band one group, by a plain flood fill.
fn keeps_band(b: &Board, s: u32) -> bool {
    bits::connected(b.occupied() & !(1 << s))
}

fn random_games(rules: Rules, games: usize, seed: u64, prefer_captures: bool) {
    let mut rng = Rng::new(seed);
    let mut moves = Vec::new();
    for _ in 0..games {
        let mut b = Board::new(None, rules).unwrap();
        let mut trail = Vec::new();
        while !b.is_game_over() {
            check_against_scratch(&b);
            Game::legal_moves(&b, &mut moves);
            // Every stack move of a controlled stack onto an adjacent enemy stack within
            // the height limit is generated exactly when it keeps the band whole.
            if !b.opening_restriction() {
                for s in bits::bits(b.occupied()) {
                    for t in bits::bits(bits::NB[s as usize] & b.occupied()) {
                        let mv = Move::stack(s, t);
                        let (cs, ct) = (b.stack_code(s), b.stack_code(t));
                        let shape_ok = b.controller(s) == Some(b.turn())
                            && b.controller(t) == Some(1 - b.turn())
                            && board::height(cs) + board::height(ct) <= rules.max_height;
                        let expected = shape_ok && keeps_band(&b, s);
                        assert_eq!(moves.contains(&mv), expected, "{mv} in {}", b.position());
                        assert_eq!(b.illegal_reason(mv).is_none(), expected);
                    }
                }
            }
            let captures: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|m| m.is_stack_move())
                .collect();
            let mv = if prefer_captures && !captures.is_empty() && rng.below(4) != 0 {
                captures[rng.below(captures.len())]
            } else {
                moves[rng.below(moves.len())]
            };
            trail.push((b.position(), b.zobrist()));
            b.push(mv);
        }
        assert!(b.legal_moves().is_empty());
        assert_eq!(b.hands(), (0, 0));
        check_against_scratch(&b);
        // A clone is the same board with the same moves to take back.
        let mut copy = b.clone();
        assert_eq!(copy.position(), b.position());
        assert!(copy.moves().eq(b.moves()));
        copy.pop();
        assert_ne!(copy.position(), b.position());
        while let Some((position, key)) = trail.pop() {
            b.pop();
            assert_eq!(b.position(), position);
            assert_eq!(b.zobrist(), key);
        }
    }
}

#[test]
fn random_games_keep_their_invariants() {
    random_games(Rules::default(), 150, 1, false);
    random_games(Rules::default(), 150, 2, true);
    for h in [1, 2, 4, 6, 36] {
        random_games(Rules::new(h).unwrap(), 30, 10 + h as u64, true);
    }
}

#[test]
fn position_round_trips() {
    let text = "abande c4=B d4=WB e3=W f2=BW g1=W turn=b hands=b15,w14";
    assert_eq!(board(text).position(), text);
    let lenient = "  ABANDE g1=w F2=bw e3=W d4=wB c4=b TURN=B hands=B15,W14 passes=0 ";
    assert_eq!(board(lenient).position(), text);
    assert_eq!(
        board("abande c4=B d4=WB e3=W f2=BW g1=W turn=b").position(),
        text
    );
    // Numbers are ASCII digits only (issue 14): Arabic-Indic 1 and 5 are refused.
    assert!(matches!(
        Board::new(
            Some("abande c4=B d4=WB e3=W f2=BW g1=W turn=b hands=b\u{661}\u{665},w14"),
            Rules::default()
        ),
        Err(Error::InvalidPosition(m)) if m.starts_with("field hands= must look like b18,w18")
    ));
    let finished = board(&(FULL.to_string() + " passes=2"));
    assert!(finished.is_game_over());
    assert_eq!(finished.position(), FULL.to_string() + " passes=2");
    let mut rng = Rng::new(9);
    let mut moves = Vec::new();
    let mut b = Board::new(None, Rules::default()).unwrap();
    while !b.is_game_over() {
        let again = board(&b.position());
        assert_eq!(again.position(), b.position());
        assert_eq!(again.zobrist(), b.zobrist());
        Game::legal_moves(&b, &mut moves);
        b.push(moves[rng.below(moves.len())]);
    }
}

#[test]
fn bad_positions_as_python() {
    // The messages of abande.Board(text) of the Python board.
    let cases = [
        ("", "position must start with the game name abande, not ''"),
        ("andantino turn=b", "position must start with the game name abande, not 'andantino'"),
        ("abande turn=x hands=b18,w18", "field turn= must be b or w, not 'x'"),
        ("abande hands=b18,w18", "field turn= is missing"),
        ("abande turn=b turn=w", "field turn= is given twice"),
        ("abande d4=B D4=B turn=w hands=b16,w18", "field d4= is given twice"),
        ("abande d4=B d4=X turn=w", "field d4= is given twice"),
        ("abande h1=B turn=w hands=b17,w18", "field h1=: h1 is not a point of the board (points: a1-a4, b1-b5, c1-c6, d1-d7, e1-e6, f1-f5, g1-g4)"),
        ("abande d4=BWBW turn=b hands=b16,w16", "field d4=: the stack BWBW is 4 high; the rules allow at most 3"),
        ("abande d4=bX turn=b", "field d4=: 'bX' is not a stack (B and W from bottom to top)"),
        ("abande d4= turn=b", "field d4=: '' is not a stack (B and W from bottom to top)"),
        ("abande d4=B turn=w hands=b18,w18", "field hands=: Black would own 19 pieces (1 on the board, 18 in hand), more than the 18 each player owns"),
        ("abande d4=B turn=w hands=b16,w18", "field hands=: Black would own 17 pieces (1 on the board, 16 in hand), fewer than the 18 each player owns"),
        ("abande turn=b hands=18,18", "field hands= must look like b18,w18, not '18,18'"),
        ("abande turn=b hands=b0018,w18", "field hands= must look like b18,w18, not 'b0018,w18'"),
        ("abande turn=b hands=b18,w18 passes=3", "field passes= must be 0, 1 or 2, not '3'"),
        ("abande turn=b hands=b18,w18 passes=1", "field passes=1: White, who moved last, has pieces in hand and cannot have passed"),
        ("abande turn=b hands=b18,w18 passes=2", "field passes=2 (the game is over) needs both hands empty"),
        ("abande turn=b hands=b18,w18 colour=b", "unknown field 'colour' in an Abande position"),
        ("abande turn=b =b", "field '=b' is not key=value"),
        ("abande turn=b d4", "field 'd4' is not key=value"),
        ("abande a1=B g4=W turn=b hands=b17,w17", "field g4=: the stacks do not form one connected band (g4 is cut off from a1)"),
        ("abande d\u{664}=B turn=b", "unknown field 'd\u{664}' in an Abande position"),
        ("abande \u{212a}1=B turn=b", "field k1=: k1 is not a point of the board (points: a1-a4, b1-b5, c1-c6, d1-d7, e1-e6, f1-f5, g1-g4)"),
        // More than 18 pieces of a colour with no hands= field (the Python board once
        // read this as a hand of -1).
        ("abande c3=BBB c4=BBB d3=BBB d4=BBB d5=BW e3=BBB e4=BBB turn=w", "field hands=: Black would own 19 pieces (19 on the board, 0 in hand), more than the 18 each player owns"),
    ];
    for (text, message) in cases {
        assert_eq!(position_error(text), message, "{text:?}");
    }
    let two = Rules::new(2).unwrap();
    assert!(matches!(
        Board::new(Some("abande d4=BWB turn=w hands=b16,w17"), two),
        Err(Error::InvalidPosition(m)) if m.contains("at most 2")
    ));
}

#[test]
fn scoring() {
    // Values of the Python board's score() and sleeping().
    let b = board("abande c4=W d4=WB e3=W turn=b hands=b17,w15");
    assert_eq!(b.score(), (2, 2));
    assert_eq!(b.sleeping(), 0);
    let b = board("abande c4=B d4=WB e3=W turn=b hands=b16,w16");
    assert_eq!(b.score(), (2, 1));
    assert_eq!(b.sleeping(), 1 << bit_of_name("c4").unwrap());
    assert_eq!(
        b.awake(),
        (
            1 << bit_of_name("d4").unwrap(),
            1 << bit_of_name("e3").unwrap()
        )
    );
    let b = board(FULL);
    assert_eq!(b.score(), (14, 17));
    let sleeping: Vec<&str> = bits::bits(b.sleeping()).map(bits::name).collect();
    assert_eq!(sleeping, ["a3", "a4", "b3", "f5"]);
}

#[test]
fn passes_end_the_game() {
    let mut b = board(FULL);
    b.push_notation("pass").unwrap();
    assert_eq!(b.position(), FULL.replace("turn=b", "turn=w") + " passes=1");
    assert!(!b.is_game_over());
    assert_eq!(b.legal_moves().last(), Some(&Move::PASS));
    b.push_notation("pass").unwrap();
    assert_eq!(b.position(), FULL.to_string() + " passes=2");
    assert_eq!(
        b.outcome(),
        Some(Outcome {
            winner: Some(1),
            score: (14, 17)
        })
    );
    assert!(b.legal_moves().is_empty());
    assert_eq!(
        b.parse_move("pass"),
        Err(Error::IllegalMove(
            "illegal move pass: the game is over".into()
        ))
    );
    b.pop();
    assert!(!b.is_game_over());
    assert_eq!(b.passes(), 1);
    // A move after a pass resets the count.
    b.push_notation("e3-e4").unwrap();
    assert_eq!(b.passes(), 0);
    assert!(!b.position().contains("passes"));
}
