//! The solver against plain minimax on the Python tests' endgames and on random ones;
//! result-only against exact; budgets, stop and bad input.

use super::*;
use crate::abande::Rules;
use crate::zobrist::Rng;

// Ten frozen 3-stacks (a 3-stack can neither move nor be captured) and six single
// pieces: only the singles can move, so the game tree is small.
const FROZEN: &str = "a1=BWB a2=WBW a3=BWB a4=WBW b1=BWB b2=WBW b3=BWB b4=WBW c1=BWB \
                      c2=WBW c3=B c4=W c5=B d1=W d2=B d3=W";
// d7-d6 is Black's only winning move (the Python tests' brute force).
const UNIQUE_WIN: &str = "abande b2=W b3=WWB c2=BW c3=WB c4=B c6=W d1=B d2=B d6=BW d7=B \
                          e1=WB e2=BBW e3=BW e4=BW e6=B f2=W f3=WB f4=W f5=WBW g1=W g2=BW \
                          g4=B turn=b hands=b0,w0";

fn board(position: &str) -> Board {
    Board::new(Some(position), Rules::default()).unwrap()
}

/// The final score difference for the side to move under perfect play, by plain
/// minimax over every line; `None` past `budget` positions.
fn brute_force(board: &mut Board, budget: &mut u64) -> Option<i32> {
    *budget = budget.checked_sub(1)?;
    if let Some(outcome) = board.outcome() {
        let d = outcome.score.0 as i32 - outcome.score.1 as i32;
        return Some(if board.turn() == 0 { d } else { -d });
    }
    let mut best = -1000;
    for mv in board.legal_moves() {
        board.push(mv);
        let v = brute_force(board, budget);
        board.pop();
        best = best.max(-v?);
    }
    Some(best)
}

fn exact(board: &Board) -> i32 {
    brute_force(&mut board.clone(), &mut 10_000_000).unwrap()
}

fn solve(solver: &mut Solver, board: &Board, exact: bool) -> SolveResult {
    match solver
        .solve(board, exact, None, None, &Stop::new(), &mut || false)
        .unwrap()
    {
        Solve::Solved(r) => r,
        Solve::GaveUp { nodes } => panic!("gave up after {nodes}"),
    }
}

/// Endgames from seeded random play (until both hands are empty, then 0-2 random
/// captures) whose whole game tree has at most `max_tree` positions.
fn random_endgames(count: usize, max_tree: u64) -> Vec<Board> {
    random_endgames_from(0, count, max_tree)
}

fn random_endgames_from(first_seed: u64, count: usize, max_tree: u64) -> Vec<Board> {
    let mut boards = Vec::new();
    let mut seed = first_seed;
    while boards.len() < count {
        let mut rng = Rng::new(seed);
        seed += 1;
        let mut b = Board::new(None, Rules::default()).unwrap();
        while b.hands() != (0, 0) && !b.is_game_over() {
            let moves = b.legal_moves();
            b.push(moves[rng.below(moves.len())]);
        }
        for _ in 0..rng.below(3) {
            let captures: Vec<Move> = b
                .legal_moves()
                .into_iter()
                .filter(|m| !m.is_pass())
                .collect();
            if !captures.is_empty() {
                b.push(captures[rng.below(captures.len())]);
            }
        }
        let b = board(&b.position());
        if b.is_game_over() || brute_force(&mut b.clone(), &mut max_tree.clone()).is_none() {
            continue;
        }
        boards.push(b);
    }
    boards
}

/// Positions with `hand` pieces in hand (both hands together): small random endgames
/// with `hand` lone pieces taken back into their owners' hands (where the band stays
/// whole), whose whole game tree has at most `max_tree` positions.
fn positions_with_hands(count: usize, hand: usize, max_tree: u64) -> Vec<Board> {
    let mut boards = Vec::new();
    let mut rng = Rng::new(hand as u64);
    let mut first_seed = 0;
    while boards.len() < count {
        let base = random_endgames_from(first_seed, 1, 3_000).remove(0);
        first_seed += 1 + rng.below(50) as u64;
        let text = base.position();
        let mut words: Vec<&str> = text
            .split(' ')
            .filter(|w| !w.starts_with("passes"))
            .collect();
        let mut hands = [0; 2];
        for _ in 0..hand {
            let singles: Vec<usize> = (0..words.len())
                .filter(|&i| words[i].ends_with("=B") || words[i].ends_with("=W"))
                .collect();
            if singles.is_empty() {
                break;
            }
            let i = singles[rng.below(singles.len())];
            hands[usize::from(words[i].ends_with("=W"))] += 1;
            words.remove(i);
        }
        if hands[0] + hands[1] != hand {
            continue;
        }
        let text = words
            .join(" ")
            .replace("hands=b0,w0", &format!("hands=b{},w{}", hands[0], hands[1]));
        let Ok(b) = Board::new(Some(&text), Rules::default()) else {
            continue; // the band was cut
        };
        if brute_force(&mut b.clone(), &mut max_tree.clone()).is_some() {
            boards.push(b);
        }
    }
    boards
}

/// The line ends the game with the reported score and difference.
fn check_line(board: &Board, r: &SolveResult) {
    let mut end = board.clone();
    for &mv in &r.pv {
        assert!(end.legal_moves().contains(&mv));
        end.push(mv);
    }
    let outcome = end.outcome().unwrap();
    assert_eq!(outcome.score, r.score);
    let d = r.score.0 as i32 - r.score.1 as i32;
    assert_eq!(if board.turn() == 0 { d } else { -d }, r.diff);
    assert_eq!(r.best, r.pv.first().copied());
}

#[test]
fn hand_built_endgames_match_brute_force() {
    let mut solver = Solver::new(4).unwrap();
    let mut values = Vec::new();
    for turn in ["b", "w"] {
        for passes in [0, 1] {
            let b = board(&format!(
                "abande {FROZEN} turn={turn} hands=b0,w0 passes={passes}"
            ));
            let before = b.position();
            let r = solve(&mut solver, &b, true);
            assert_eq!(b.position(), before);
            let expected = exact(&b);
            assert_eq!(r.diff, expected);
            assert_eq!(r.value, expected.signum());
            check_line(&b, &r);
            values.push((r.diff, r.score));
        }
    }
    // The values hexgames 0.1's Python solver found: the side to move wins 19-17 either way.
    assert_eq!(
        values,
        vec![(2, (19, 17)), (2, (19, 17)), (2, (17, 19)), (2, (17, 19))]
    );
}

#[test]
fn random_endgames_match_brute_force() {
    let boards = random_endgames(16, 30_000);
    let mut results = std::collections::BTreeSet::new();
    for b in &boards {
        let expected = exact(b);
        // A fresh table and a kept one, exact and result only.
        let mut solver = Solver::new(1).unwrap();
        let r = solve(&mut solver, b, true);
        assert_eq!(r.diff, expected, "{}", b.position());
        assert_eq!(r.value, expected.signum());
        check_line(b, &r);
        let quick = solve(&mut solver, b, false);
        assert_eq!(quick.value, r.value);
        let fresh = solve(&mut Solver::new(1).unwrap(), b, false);
        assert_eq!(fresh.value, r.value);
        check_line(b, &fresh);
        // The result-only move keeps the result.
        let mut after = b.clone();
        after.push(fresh.best.unwrap());
        assert_eq!((-exact(&after)).signum(), r.value);
        results.insert(r.value);
    }
    assert!(results.contains(&1) && results.contains(&-1), "{results:?}");
}

#[test]
fn positions_with_pieces_in_hand_match_brute_force() {
    // 1 or 2 pieces left in both hands together (with 3, one position in a thousand
    // has a tree small enough for the brute force): entries, passes while one hand is
    // empty (with b1,w0 White may pass while Black still enters), and captures. Exact and result only, with a fresh table and a kept one.
    let mut kept = Solver::new(2).unwrap();
    let mut seen = std::collections::BTreeSet::new();
    for (hand, count) in [(1, 150), (2, 150)] {
        for b in positions_with_hands(count, hand, 50_000) {
            assert_ne!(b.hands(), (0, 0));
            let expected = exact(&b);
            let r = solve(&mut Solver::new(1).unwrap(), &b, true);
            assert_eq!(r.diff, expected, "{}", b.position());
            assert_eq!(r.value, expected.signum());
            check_line(&b, &r);
            assert_eq!(solve(&mut kept, &b, true).diff, expected);
            let quick = solve(&mut kept, &b, false);
            assert_eq!(quick.value, expected.signum(), "{}", b.position());
            check_line(&b, &quick);
            let mut after = b.clone();
            after.push(quick.best.unwrap());
            assert_eq!((-exact(&after)).signum(), quick.value);
            seen.insert((hand, expected.signum()));
        }
    }
    // Wins and losses at every size.
    for hand in 1..=2 {
        for value in [1, -1] {
            let found = seen.iter().any(|&(h, v)| h == hand && v == value);
            assert!(found, "{hand} {value} {seen:?}");
        }
    }
}

#[test]
fn the_start_honours_the_limits() {
    // The whole game is far beyond any budget: a node limit and a time are kept.
    let start = Board::new(None, Rules::default()).unwrap();
    let mut solver = Solver::new(1).unwrap();
    let r = solver.solve(&start, true, Some(5000), None, &Stop::new(), &mut || false);
    assert!(matches!(r, Ok(Solve::GaveUp { nodes }) if nodes <= 5000 + CHECK_EVERY));
    let t = Instant::now();
    let r = solver.solve(&start, false, None, Some(0.05), &Stop::new(), &mut || false);
    assert!(matches!(r, Ok(Solve::GaveUp { .. })));
    assert!(t.elapsed().as_secs_f64() < 0.3, "{:?}", t.elapsed());
}

#[test]
fn unique_winning_move() {
    let b = board(UNIQUE_WIN);
    assert_eq!(b.legal_moves().len(), 7);
    let mut solver = Solver::new(8).unwrap();
    let r = solve(&mut solver, &b, true);
    assert_eq!(r.value, 1);
    assert_eq!(r.best.map(Move::notation).as_deref(), Some("d7-d6"));
    assert_eq!(r.diff, exact(&b));
    assert_eq!((r.diff, r.score), (1, (15, 14))); // as hexgames 0.1's Python solver found
    let quick = solve(&mut Solver::new(8).unwrap(), &b, false);
    assert_eq!(quick.best.map(Move::notation).as_deref(), Some("d7-d6"));
}

#[test]
fn pass_that_ends_the_game() {
    // Black has just passed; White leads 20-13, so passing ends the game won.
    let b = board(&format!(
        "{} passes=1",
        UNIQUE_WIN.replace("turn=b", "turn=w")
    ));
    assert_eq!(b.score(), (13, 20));
    let r = solve(&mut Solver::new(8).unwrap(), &b, true);
    assert_eq!(r.diff, 7);
    assert_eq!(exact(&b), 7);
    assert_eq!(r.pv, vec![Move::PASS]);
    assert_eq!(r.score, (13, 20));
}

#[test]
fn finished_game_and_bad_input() {
    let b = board(&format!("abande {FROZEN} turn=b hands=b0,w0 passes=2"));
    let r = solve(&mut Solver::new(1).unwrap(), &b, true);
    assert_eq!(
        r,
        SolveResult {
            value: 0,
            best: None,
            score: (18, 18),
            nodes: 0,
            diff: 0,
            pv: Vec::new()
        }
    );
    assert!(matches!(Solver::new(0), Err(Error::InvalidArgument(_))));
    assert!(matches!(
        Solver::new(MAX_TABLE_MB + 1),
        Err(Error::InvalidArgument(_))
    ));
    let mut solver = Solver::new(1).unwrap();
    let b = board(UNIQUE_WIN);
    let err = solver.solve(&b, true, None, Some(f64::NAN), &Stop::new(), &mut || false);
    assert!(matches!(err, Err(Error::InvalidArgument(_))));
}

/// A big endgame: every piece entered as a single, so nearly every stack can move.
fn big_endgame() -> Board {
    let mut rng = Rng::new(0);
    let mut b = Board::new(None, Rules::default()).unwrap();
    while b.hands() != (0, 0) {
        let entries: Vec<Move> = b
            .legal_moves()
            .into_iter()
            .filter(|m| m.is_entry())
            .collect();
        b.push(entries[rng.below(entries.len())]);
    }
    b
}

#[test]
fn budgets_and_stop() {
    let big = big_endgame();
    let mut solver = Solver::new(4).unwrap();
    let never = &mut || false;
    match solver
        .solve(&big, false, Some(2000), None, &Stop::new(), never)
        .unwrap()
    {
        Solve::GaveUp { nodes } => assert!((2000..2000 + CHECK_EVERY + 1).contains(&nodes)),
        Solve::Solved(_) => panic!("solved a big endgame in 2,000 positions"),
    }
    let t = Instant::now();
    let r = solver
        .solve(&big, false, None, Some(0.05), &Stop::new(), never)
        .unwrap();
    assert!(matches!(r, Solve::GaveUp { .. }));
    assert!(t.elapsed().as_secs_f64() < 0.2);
    let stop = Stop::new();
    stop.set();
    let r = solver.solve(&big, false, None, None, &stop, never).unwrap();
    assert_eq!(r, Solve::GaveUp { nodes: CHECK_EVERY });
    let r = solver
        .solve(&big, false, None, None, &Stop::new(), &mut || true)
        .unwrap();
    assert_eq!(r, Solve::GaveUp { nodes: CHECK_EVERY });
    // From another thread, within milliseconds.
    let stop = Stop::new();
    let flag = stop.clone();
    let waker = std::thread::spawn(move || {
        std::thread::sleep(std::time::Duration::from_millis(100));
        flag.set();
    });
    let t = Instant::now();
    let r = solver
        .solve(&big, true, None, Some(30.0), &stop, never)
        .unwrap();
    waker.join().unwrap();
    assert!(matches!(r, Solve::GaveUp { .. }));
    assert!(t.elapsed().as_secs_f64() < 0.15, "{:?}", t.elapsed());
}

#[test]
fn the_table_keeps_what_it_learnt() {
    let b = board(UNIQUE_WIN);
    let mut solver = Solver::new(8).unwrap();
    let first = solve(&mut solver, &b, false);
    let again = solve(&mut solver, &b, false);
    assert_eq!(again.value, first.value);
    assert!(
        again.nodes * 4 < first.nodes,
        "{} then {}",
        first.nodes,
        again.nodes
    );
    solver.clear();
    assert_eq!(solve(&mut solver, &b, false).nodes, first.nodes);
}
