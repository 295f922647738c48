//! The proof search against a plain full-width minimax on small positions of both games,
//! and its strategies checked by play.

use super::*;
use crate::abande;
use crate::andantino;
use crate::zobrist::Rng;

/// The exact value of `g` for its side to move (1 a win, 0 a draw, -1 a loss), or
/// `None` when it takes more than `budget` nodes.
fn minimax<G: Game>(g: &mut G, budget: &mut u64) -> Option<i32> {
    if let Some(result) = g.result() {
        return Some(match result.winner {
            None => 0,
            Some(w) if w == g.turn() => 1,
            Some(_) => -1,
        });
    }
    *budget = budget.checked_sub(1)?;
    let mut moves = Vec::new();
    g.legal_moves(&mut moves);
    let mut best = -1;
    for mv in moves {
        g.push(mv);
        let value = minimax(g, budget);
        g.pop();
        best = best.max(-value?);
        if best == 1 {
            break;
        }
    }
    Some(best)
}

/// `count` positions with their values: random play from the start for a number of
/// plies in `plies`
/// (fewer when `early` says stop), kept when the minimax settles them within 200,000
/// nodes.
fn near_the_end<G: Game>(
    start: &G,
    plies: std::ops::Range<usize>,
    count: usize,
    seed: u64,
    early: impl Fn(&G) -> bool,
) -> Vec<(G, i32)> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    let mut scratch = Vec::new();
    let mut tries = 0;
    while out.len() < count {
        tries += 1;
        assert!(tries < 100 * count, "too few positions within the budget");
        let mut g = start.clone();
        let length = plies.start + rng.below(plies.len());
        for _ in 0..length {
            if early(&g) {
                break;
            }
            match g.random_move(&mut rng, &mut scratch) {
                Some(mv) if g.result().is_none() => g.push(mv),
                _ => break,
            }
        }
        if g.result().is_none() {
            if let Some(value) = minimax(&mut g.clone(), &mut 200_000) {
                out.push((g, value));
            }
        }
    }
    out
}

/// Each goal's verdict agrees with the minimax, and each proof's strategy holds against
/// every reply by play.
fn agrees<G: ProofGame>(positions: &[(G, i32)]) -> (usize, usize, usize) {
    agrees_with(positions, true).0
}

/// [`agrees`] with the threat-space search on or off; also the nodes it proved.
fn agrees_with<G: ProofGame>(
    positions: &[(G, i32)],
    threat_space: bool,
) -> ((usize, usize, usize), u64) {
    // a small table (32,768 entries): proofs are lost from it and must be found again
    // when the strategy is written
    let mut prover = Prover::new(1).unwrap();
    prover.set_threat_space(threat_space);
    let mut threat_proofs = 0;
    let (mut wins, mut draws, mut losses) = (0, 0, 0);
    for (g, value) in positions {
        let value = *value;
        match value {
            1 => wins += 1,
            0 => draws += 1,
            _ => losses += 1,
        }
        let me = g.turn();
        for attacker in [me, 1 - me] {
            for draw_ok in [false, true] {
                let goal = Goal { attacker, draw_ok };
                let report = prover.prove(g, goal, ProofLimits::default()).unwrap();
                threat_proofs += report.threat_proofs;
                let for_attacker = if attacker == me { value } else { -value };
                let expected = for_attacker > 0 || (draw_ok && for_attacker == 0);
                let got = report.verdict == Verdict::Proven;
                assert_eq!(
                    got,
                    expected,
                    "{} attacker {attacker} draw_ok {draw_ok}: value {value}",
                    g.position()
                );
                assert_ne!(report.verdict, Verdict::Unknown);
                if got {
                    let (lines, _) = prover.strategy(g, goal, ProofLimits::default()).unwrap();
                    holds(g, goal, &lines);
                }
            }
        }
    }
    ((wins, draws, losses), threat_proofs)
}

/// The strategy `lines` wins (reaches `goal`) against every reply, by play.
fn holds<G: ProofGame>(g: &G, goal: Goal, lines: &[(String, String)]) {
    let table: std::collections::HashMap<&str, &str> = lines
        .iter()
        .map(|(p, m)| (p.as_str(), m.as_str()))
        .collect();
    fn walk<G: ProofGame>(g: &mut G, goal: Goal, table: &std::collections::HashMap<&str, &str>) {
        if let Some(result) = g.result() {
            assert!(
                goal.reached(result),
                "the strategy misses the goal at {}",
                g.position()
            );
            return;
        }
        if g.turn() == goal.attacker {
            let position = g.position();
            let text = table
                .get(position.as_str())
                .unwrap_or_else(|| panic!("no move for {position}"));
            let mv = g.parse_move(text).expect("a legal move");
            g.push(mv);
            walk(g, goal, table);
            g.pop();
        } else {
            let mut moves = Vec::new();
            g.legal_moves(&mut moves);
            for mv in moves {
                g.push(mv);
                walk(g, goal, table);
                g.pop();
            }
        }
    }
    walk(&mut g.clone(), goal, &table);
}

#[test]
fn andantino_values_agree_with_minimax() {
    let rules = andantino::Rules {
        tiles_per_player: Some(10),
        ..andantino::Rules::default()
    };
    let start = andantino::Board::new(None, rules).unwrap();
    let positions = near_the_end(&start, 11..14, 60, 3, |_| false);
    let (wins, draws, losses) = agrees(&positions);
    assert!(wins > 0 && draws > 0, "{wins} {draws} {losses}");
}

/// The start of Andantino with 10 tiles a player under these rules.
fn ten_tiles(single_adjacency: bool, self_trap: andantino::SelfTrap) -> andantino::Board {
    let rules = andantino::Rules {
        tiles_per_player: Some(10),
        single_adjacency,
        self_trap,
        ..andantino::Rules::default()
    };
    andantino::Board::new(None, rules).unwrap()
}

/// The threat-space search (VCF) is a pruning rule of the attacker's moves: with it and
/// without it every verdict equals the full-width minimax, and with it some nodes are
/// proven by it (it is not idle).
#[test]
fn threat_space_search_agrees_with_full_width_minimax() {
    for (single, self_trap) in [
        (false, andantino::SelfTrap::OpponentWins),
        (true, andantino::SelfTrap::Ignore),
    ] {
        let start = ten_tiles(single, self_trap);
        let positions = near_the_end(&start, 10..13, 20, 11, |_| false);
        let (_, none) = agrees_with(&positions, false);
        assert_eq!(none, 0);
        let ((wins, _, _), proved) = agrees_with(&positions, true);
        assert!(
            wins > 0 && proved > 0,
            "{wins} wins, {proved} threat-space proofs"
        );
    }
}

/// `threatens` is exact: the side not to move can win at once if given the move
/// exactly when one of all its legal moves (each tried, no first tests) wins.
#[test]
fn threatens_is_exact() {
    let rules = andantino::Rules {
        tiles_per_player: Some(12),
        ..andantino::Rules::default()
    };
    let start = andantino::Board::new(None, rules).unwrap();
    let mut rng = Rng::new(5);
    let (mut moves, mut scratch) = (Vec::new(), Vec::new());
    let (mut yes, mut no) = (0, 0);
    for _ in 0..300 {
        let mut g = start.clone();
        let plies = 6 + rng.below(14);
        for _ in 0..plies {
            match g.random_move(&mut rng, &mut moves) {
                Some(mv) if g.result().is_none() => g.push(mv),
                _ => break,
            }
        }
        if g.result().is_some() || g.hand_count(1 - g.turn()) == 0 {
            continue;
        }
        let got = g.threatens(&mut scratch);
        let other = 1 - g.turn();
        g.flip_turn();
        g.legal_moves(&mut moves);
        let expected = moves.clone().into_iter().any(|mv| {
            g.push(mv);
            let won = g.result().is_some_and(|r| r.winner == Some(other));
            g.pop();
            won
        });
        g.flip_turn();
        assert_eq!(got, expected, "{}", g.position());
        if got {
            yes += 1;
        } else {
            no += 1;
        }
    }
    assert!(yes > 10 && no > 10, "{yes} threatened, {no} not");
}

#[test]
fn andantino_balance_variant_and_self_traps_agree_with_minimax() {
    for (single, self_trap) in [
        (true, andantino::SelfTrap::OpponentWins),
        (false, andantino::SelfTrap::Illegal),
        (true, andantino::SelfTrap::Ignore),
    ] {
        let start = ten_tiles(single, self_trap);
        agrees(&near_the_end(&start, 11..14, 25, 11, |_| false));
    }
}

#[test]
fn abande_values_agree_with_minimax() {
    let start = abande::Board::new(None, abande::Rules::default()).unwrap();
    // random play until the hands are nearly empty, then on into the captures for a
    // random number of plies: positions a minimax can settle
    let positions = near_the_end(&start, 70..71, 12, 5, |g: &abande::Board| {
        g.hands().0 + g.hands().1 <= 1 && g.entries() % 3 == 0
    });
    let (wins, _, losses) = agrees(&positions);
    assert!(wins > 0 && losses > 0, "{wins} {losses}");
}

#[test]
fn a_finished_game_and_a_stop_are_handled() {
    let mut g = andantino::Board::new(None, andantino::Rules::default()).unwrap();
    let mut prover = Prover::new(1).unwrap();
    let goal = Goal {
        attacker: 0,
        draw_ok: false,
    };
    prover.stop_flag().set();
    let report = prover
        .prove(
            &g,
            goal,
            ProofLimits {
                time: Some(0.05),
                nodes: None,
            },
        )
        .unwrap();
    // the flag is cleared when a search starts: the time limit ends this one
    assert_eq!(report.verdict, Verdict::Unknown);
    assert!(report.time < 1.0);
    for text in ["0,1", "1,1", "-1,1", "-1,0", "0,-1", "1,-1"] {
        let mv = g.parse_move(text).unwrap();
        g.push(mv);
        if g.result().is_some() {
            break;
        }
    }
    if g.result().is_some() {
        assert!(prover.prove(&g, goal, ProofLimits::default()).is_err());
    }
}

#[test]
fn extended_play_with_cycles_ends_and_never_claims_a_refuted_proof() {
    // few tiles, then relocations that can repeat positions: the search must end within
    // its node limit (no endless descent around a cycle) and a proof it reports must
    // hold by play
    let rules = andantino::Rules {
        tiles_per_player: Some(4),
        extended: true,
        ..andantino::Rules::default()
    };
    let start = andantino::Board::new(None, rules).unwrap();
    let mut prover = Prover::new(4).unwrap();
    let mut rng = Rng::new(7);
    let mut scratch = Vec::new();
    for _ in 0..6 {
        let mut g = start.clone();
        for _ in 0..(4 + rng.below(6)) {
            match g.random_move(&mut rng, &mut scratch) {
                Some(mv) if g.result().is_none() => g.push(mv),
                _ => break,
            }
        }
        if g.result().is_some() {
            continue;
        }
        for attacker in [0, 1] {
            let goal = Goal {
                attacker,
                draw_ok: false,
            };
            let limits = ProofLimits {
                time: None,
                nodes: Some(20_000),
            };
            let report = prover.prove(&g, goal, limits).unwrap();
            assert!(report.nodes <= 20_000 + CHECK_EVERY);
            if report.verdict == Verdict::Proven {
                if let Ok((lines, _)) = prover.strategy(&g, goal, limits) {
                    holds(&g, goal, &lines);
                }
            }
        }
    }
}

/// The children's tests read from what the game finds at the node once
/// ([`ProofGame::prepare_replies`]) make the same search as trying each child: the same
/// verdicts, node counts and root numbers, with and without the threat-space search.
#[test]
fn replies_make_the_same_search() {
    let rules = andantino::Rules {
        tiles_per_player: Some(14),
        ..andantino::Rules::default()
    };
    let start = andantino::Board::new(None, rules).unwrap();
    let mut rng = Rng::new(23);
    let mut scratch = Vec::new();
    let mut settled = 0;
    for _ in 0..40 {
        let mut g = start.clone();
        for _ in 0..8 + rng.below(10) {
            match g.random_move(&mut rng, &mut scratch) {
                Some(mv) if g.result().is_none() => g.push(mv),
                _ => break,
            }
        }
        if g.result().is_some() {
            continue;
        }
        for threat_space in [true, false] {
            let goal = Goal {
                attacker: g.turn(),
                draw_ok: false,
            };
            let limits = ProofLimits {
                time: None,
                nodes: Some(20_000),
            };
            let reports: Vec<_> = [true, false]
                .map(|replies| {
                    let mut prover = Prover::new(4).unwrap();
                    prover.set_threat_space(threat_space);
                    prover.set_replies(replies);
                    prover.prove(&g, goal, limits).unwrap()
                })
                .into_iter()
                .map(|r| (r.verdict, r.nodes, r.pn, r.dn, r.threat_proofs))
                .collect();
            assert_eq!(reports[0], reports[1], "{}", g.position());
            settled += usize::from(reports[0].0 != Verdict::Unknown);
        }
    }
    assert!(settled > 20, "{settled} settled");
}
