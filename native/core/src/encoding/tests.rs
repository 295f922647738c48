//! The encodings' own tests: the hexagon's numbering, actions both ways, the planes of
//! known positions, the caps and refusals, and the vector of games (stepping, autoreset,
//! bad actions). The Python differential test (`tests/test_integrations_native.py`)
//! checks every plane and mask against `hexgames.integrations.encoding` on random games.

use super::abande::{AbandeEncoding, NUM_ACTIONS, PASS, STACK_MOVES};
use super::andantino::AndantinoEncoding;
use super::vector::{StepOut, VectorEnv};
use super::*;
use crate::abande;
use crate::andantino::{Cell, Move, Rules};
use crate::error::Error;

fn standard() -> AndantinoEncoding {
    AndantinoEncoding::new(Rules::default()).unwrap()
}

fn rules_error(rules: Rules) -> String {
    match AndantinoEncoding::new(rules) {
        Err(Error::InvalidRules(m)) => m,
        other => panic!("expected InvalidRules, got {:?}", other.map(|_| ())),
    }
}

#[test]
fn hexagon_numbers_cells_by_row_then_q() {
    let hex = Hexagon::new(3);
    assert_eq!((hex.len(), hex.side()), (37, 7));
    // hexgrid.hexagon(3) begins (0,-3) (1,-3) (2,-3) (3,-3) (-1,-2) and ends (0,3).
    let first: Vec<_> = (0..5).map(|i| hex.cell(i).unwrap()).collect();
    assert_eq!(first, [(0, -3), (1, -3), (2, -3), (3, -3), (-1, -2)]);
    assert_eq!(hex.cell(36), Some((0, 3)));
    assert_eq!(hex.cell(37), None);
    for radius in [0, 1, 2, 5, 25] {
        let hex = Hexagon::new(radius);
        let r = radius as i32;
        assert_eq!(hex.len() as u32, 3 * radius * (radius + 1) + 1);
        let mut expected = 0;
        for row in -r..=r {
            for q in -r..=r {
                if (q + row).abs() <= r {
                    assert_eq!(hex.index(q, row), Some(expected));
                    assert_eq!(hex.cell(expected as usize), Some((q, row)));
                    expected += 1;
                }
            }
        }
        assert_eq!(hex.index(r + 1, 0), None);
        assert_eq!(hex.index(r, 1), None);
    }
}

#[test]
fn andantino_start_and_actions() {
    let enc = standard();
    assert_eq!(
        (enc.num_actions(), enc.num_planes(), enc.side()),
        (1951, 9, 51)
    );
    let board = enc.new_game();
    let (mut moves, mut legal) = (Vec::new(), Vec::new());
    enc.legal_actions(&board, &mut moves, &mut legal).unwrap();
    let texts: Vec<String> = legal
        .iter()
        .map(|&a| enc.move_of(a as i64).unwrap().notation())
        .collect();
    assert_eq!(texts, ["1,-1", "0,1"]);
    for a in [0, 975, 1950] {
        assert_eq!(enc.action_of(enc.move_of(a).unwrap()).unwrap(), a as u32);
    }
    assert_eq!(enc.move_of(0).unwrap().notation(), "0,-25");
    let refused = |a: i64| enc.move_of(a).unwrap_err().message().to_string();
    assert_eq!(refused(1951), "action 1951 is outside 0..1950");
    assert_eq!(refused(-1), "action -1 is outside 0..1950");
    let far = Move::place(Cell::new(26, 0).unwrap());
    assert_eq!(
        enc.action_of(far).unwrap_err().message(),
        "move 26,0 leaves the hexagon of radius 25"
    );
    let relocation = Move::relocate(Cell::new(0, 0).unwrap(), Cell::new(0, 1).unwrap());
    assert_eq!(
        enc.action_of(relocation).unwrap_err().message(),
        "relocation 0,0>0,1 has no action: extended play is off"
    );
}

#[test]
fn andantino_extended_relocations_are_cell_pairs() {
    let rules = Rules {
        extended: true,
        tiles_per_player: Some(4),
        ..Rules::default()
    };
    let enc = AndantinoEncoding::new(rules).unwrap();
    assert_eq!(enc.num_actions(), 61 + 61 * 61);
    let mv = Move::relocate(Cell::new(2, -1).unwrap(), Cell::new(0, 3).unwrap());
    let a = enc.action_of(mv).unwrap();
    let hex = enc.hexagon();
    let (from, to) = (hex.index(2, -1).unwrap(), hex.index(0, 3).unwrap());
    assert_eq!(a, 61 + from * 61 + to);
    assert_eq!(enc.move_of(a as i64).unwrap(), mv);
}

#[test]
fn andantino_planes_at_the_start() {
    let enc = standard();
    let board = enc.new_game();
    let mut out = vec![0.0f32; enc.observation_len()];
    let mut moves = Vec::new();
    for layout in [Layout::ChannelsFirst, Layout::ChannelsLast] {
        for player in [0, 1] {
            enc.observe(&board, player, layout, &mut moves, &mut out)
                .unwrap();
            let at = |plane: usize, q: i32, r: i32| {
                let (row, col) = ((r + 25) as usize, (q + 25) as usize);
                out[match layout {
                    Layout::ChannelsFirst => (plane * 51 + row) * 51 + col,
                    Layout::ChannelsLast => (row * 51 + col) * 9 + plane,
                }]
            };
            // White's tile (0,0), Red's (1,0); the legal targets (0,1) and (1,-1).
            assert_eq!(at(0, 0, 0), f32::from(player == 0));
            assert_eq!(at(0, 1, 0), f32::from(player == 1));
            assert_eq!(at(1, 1, 0), f32::from(player == 0));
            assert_eq!((at(2, 0, 1), at(2, 1, -1), at(2, 0, 0)), (1.0, 1.0, 0.0));
            assert_eq!(
                (at(3, -25, 0), at(3, 25, -25), at(3, 25, 25)),
                (1.0, 1.0, 0.0)
            );
            assert_eq!(at(4, 0, 0), (24.0f64 / 25.0) as f32);
            assert_eq!(at(4, -25, 25), (24.0f64 / 25.0) as f32);
            assert_eq!(at(4, -25, -25), 0.0); // outside the hexagon
            assert_eq!(at(6, 3, 3), f32::from(player == 0));
            assert_eq!((at(7, 0, 0), at(8, 0, 0)), (0.0, 0.0));
            let sum: f32 = out.iter().sum();
            let hand = (24.0f64 / 25.0) as f32;
            let expected = 2.0 + 2.0 + 1951.0 * (1.0 + 2.0 * hand + f32::from(player == 0));
            assert!((sum - expected).abs() < 0.5, "{sum} {expected}");
        }
    }
    let mut short = vec![0.0f32; 10];
    assert_eq!(
        enc.observe(&board, 0, Layout::ChannelsFirst, &mut moves, &mut short)
            .unwrap_err()
            .message(),
        "an observation has 23409 values, not 10"
    );
    assert!(enc
        .observe(&board, 2, Layout::ChannelsFirst, &mut moves, &mut out)
        .is_err());
}

#[test]
fn andantino_refusals_name_the_problem() {
    let unlimited = Rules {
        tiles_per_player: None,
        ..Rules::default()
    };
    assert!(rules_error(unlimited).starts_with("Andantino with unlimited tiles"));
    let big = Rules {
        extended: true,
        tiles_per_player: Some(130),
        ..Rules::default()
    };
    assert_eq!(
        rules_error(big),
        "Andantino with tiles_per_player=130 and extended play needs 2,610,341,372 \
         actions and observations of 613,089 values; the fixed spaces are capped at \
         16,777,216 of each (a mask or a tensor of that size is made at every step): at \
         most 36 tiles each with extended play, 682 without"
    );
    let huge = Rules {
        tiles_per_player: Some(999_999_999),
        ..Rules::default()
    };
    // The rules' own bound (500 tiles each, issue 14) comes first, as in Python.
    assert!(rules_error(huge).starts_with("tiles_per_player must be at most 500"));
    assert!(AndantinoEncoding::new(Rules {
        tiles_per_player: Some(682),
        ..Rules::default()
    })
    .is_err());
    assert!(AndantinoEncoding::new(Rules {
        tiles_per_player: Some(500),
        ..Rules::default()
    })
    .is_ok());
    let one = Rules {
        extended: true,
        tiles_per_player: Some(1),
        ..Rules::default()
    };
    assert!(rules_error(one).contains("tiles_per_player of at least 2"));
}

#[test]
fn abande_actions_both_ways() {
    let enc = AbandeEncoding::new(abande::Rules::default()).unwrap();
    assert_eq!(
        (enc.num_actions(), enc.num_planes(), enc.side()),
        (260, 12, 7)
    );
    let mut named = 0;
    for a in 0..NUM_ACTIONS as i64 {
        if let Ok(mv) = enc.move_of(a) {
            named += 1;
            assert_eq!(enc.action_of(mv).unwrap() as i64, a, "{mv:?}");
        }
    }
    // 37 entries, the pass, and one stack move per ordered pair of neighbours: 90 edges.
    assert_eq!(named, 37 + 1 + 180);
    assert_eq!(enc.move_of(0).unwrap().notation(), "a1");
    assert_eq!(enc.move_of(18).unwrap().notation(), "d4");
    assert_eq!(enc.move_of(PASS as i64).unwrap().notation(), "pass");
    // a1 is (-3, 3): direction (1, 0) goes to (-2, 3), b1; direction (0, 1) leaves.
    assert_eq!(enc.move_of(STACK_MOVES as i64).unwrap().notation(), "a1-b1");
    let none = enc.move_of(STACK_MOVES as i64 + 5).unwrap_err();
    assert_eq!(
        none.message(),
        "action 42 names no Abande move (the actions are 0..259; a stack move must stay on \
         the board)"
    );
    assert!(enc.move_of(260).is_err() && enc.move_of(-1).is_err());
    let far = abande::Move::parse("a1-d4").unwrap();
    assert!(enc.action_of(far).is_err());
    assert!(AbandeEncoding::new(abande::Rules { max_height: 0 }).is_err());
}

#[test]
fn abande_planes_of_a_position() {
    let enc = AbandeEncoding::new(abande::Rules::default()).unwrap();
    // Black (0,0)=d4, White (1,0), Black (-1,0), White to move (docs/rules.md, "Abande
    // examples").
    let mut board = enc.new_game();
    for text in ["d4", "e3", "c4"] {
        board.push_notation(text).unwrap();
    }
    let (mut moves, mut legal) = (Vec::new(), Vec::new());
    enc.legal_actions(&board, &mut moves, &mut legal).unwrap();
    assert_eq!(legal.len(), 11);
    let mut out = vec![0.0f32; enc.observation_len()];
    enc.observe(&board, 1, Layout::ChannelsFirst, &mut moves, &mut out)
        .unwrap();
    let at =
        |plane: usize, q: i32, r: i32| out[(plane * 7 + (r + 3) as usize) * 7 + (q + 3) as usize];
    // White's point of view: its stack (1,0) on own_1, Black's on opponent_1 (plane 3).
    assert_eq!(
        (at(0, 1, 0), at(3, 0, 0), at(3, -1, 0), at(0, 0, 0)),
        (1.0, 1.0, 1.0, 0.0)
    );
    let entries: usize = (0..49).filter(|&i| out[6 * 49 + i] == 1.0).count();
    assert_eq!(entries, 10);
    assert_eq!((at(7, 0, 0), at(7, 3, 3)), (1.0, 0.0));
    assert_eq!(at(8, 0, 0), (17.0f64 / 18.0) as f32); // White's hand
    assert_eq!(at(9, 0, 0), (16.0f64 / 18.0) as f32); // Black's
    assert_eq!((at(10, 0, 0), at(11, 0, 0)), (1.0, 0.0));
}

#[test]
fn push_action_checks_legality() {
    let enc = standard();
    let mut board = enc.new_game();
    let err = push_action(&enc, &mut board, 0).unwrap_err();
    assert!(matches!(err, Error::IllegalMove(_)));
    assert!(err.message().starts_with("illegal move 0,-25: "), "{err}");
    assert!(matches!(
        push_action(&enc, &mut board, 5000),
        Err(Error::InvalidArgument(_))
    ));
    let a = enc.hexagon().index(0, 1).unwrap() as i64;
    push_action(&enc, &mut board, a).unwrap();
    assert_eq!(board.moves()[0].notation(), "0,1");
    assert_eq!(returns(&board), [0.0, 0.0]);
}

/// The buffers of one step.
struct Outs {
    rewards: Vec<f32>,
    terminated: Vec<u8>,
    winners: Vec<i8>,
    illegal: Vec<u8>,
    plies: Vec<u32>,
}

impl Outs {
    fn new(n: usize) -> Outs {
        Outs {
            rewards: vec![0.0; n],
            terminated: vec![0; n],
            winners: vec![0; n],
            illegal: vec![0; n],
            plies: vec![0; n],
        }
    }

    fn step(&mut self) -> StepOut<'_> {
        StepOut {
            rewards: &mut self.rewards,
            terminated: &mut self.terminated,
            winners: &mut self.winners,
            illegal: &mut self.illegal,
            plies: &mut self.plies,
        }
    }
}

#[test]
fn vector_steps_resets_and_refuses() {
    let enc = standard();
    let mut env = VectorEnv::new(enc.clone(), 3, 7).unwrap();
    let mut outs = Outs::new(3);
    let mut obs = vec![0.0f32; 3 * enc.observation_len()];
    let good = enc.hexagon().index(0, 1).unwrap() as i64;
    let mut step = |env: &mut VectorEnv<AndantinoEncoding>, actions: &[i64], loses: bool| {
        env.step(
            actions,
            loses,
            outs.step(),
            Some((&mut obs, Layout::ChannelsFirst)),
        )
    };
    let message = step(&mut env, &[good, 0, good], false)
        .unwrap_err()
        .to_string();
    assert!(
        message.starts_with("env 1: action 0 is not legal: illegal move 0,-25: "),
        "{message}"
    );
    assert_eq!(
        env.game(0).unwrap().ply(),
        0,
        "nothing is played on an error"
    );
    assert_eq!(
        step(&mut env, &[good, good, 1951], false)
            .unwrap_err()
            .to_string(),
        "env 2: action 1951 is outside the action space 0..1950"
    );
    assert_eq!(step(&mut env, &[good, 0, good], true).unwrap(), 1);
    assert_eq!(outs.terminated, [0, 1, 0]);
    assert_eq!(outs.rewards, [0.0, -1.0, 0.0]);
    assert_eq!(outs.winners, [-1, 1, -1]);
    assert_eq!(outs.illegal, [0, 1, 0]);
    assert_eq!(outs.plies, [1, 0, 1]);
    assert_eq!(env.autoreset(None).unwrap(), 1);
    assert_eq!(env.autoreset(None).unwrap(), 0);
    assert_eq!(env.game(1).unwrap().ply(), 0);
    assert_eq!(env.game(0).unwrap().ply(), 1);
    assert!(VectorEnv::new(enc.clone(), 0, 0).is_err());
    assert!(VectorEnv::new(enc, 20_000, 0).is_err());
}

#[test]
fn vector_random_games_end_and_restart() {
    let enc = AbandeEncoding::new(abande::Rules::default()).unwrap();
    let n = 4;
    let mut env = VectorEnv::new(enc.clone(), n, 1).unwrap();
    let mut twin = env.clone();
    let (mut outs, mut twin_outs) = (Outs::new(n), Outs::new(n));
    let (mut actions, mut twin_actions) = (vec![0i64; n], vec![0i64; n]);
    let mut finished = 0;
    for _ in 0..2000 {
        env.sample_legal(None, &mut actions).unwrap();
        twin.sample_legal(None, &mut twin_actions).unwrap();
        assert_eq!(
            actions, twin_actions,
            "the same seed draws the same actions"
        );
        for (i, &a) in actions.iter().enumerate() {
            assert!(env.legal_actions(i).unwrap().contains(&(a as u32)));
        }
        let ended = env.step(&actions, false, outs.step(), None).unwrap();
        for (i, &done) in outs.terminated.iter().enumerate() {
            if done == 0 {
                assert_eq!(outs.rewards[i], 0.0);
                continue;
            }
            let game = env.game(i).unwrap();
            assert!(game.is_game_over());
            let winner = game.outcome().and_then(|o| o.winner);
            assert_eq!(outs.winners[i], winner.map_or(-1, |w| w as i8));
            // The mover is the side not to move now.
            let mover = 1 - game.turn();
            let expected = winner.map_or(0.0, |w| if w == mover { 1.0 } else { -1.0 });
            assert_eq!(outs.rewards[i], expected);
            assert_eq!(outs.plies[i] as usize, game.ply());
        }
        finished += ended;
        env.autoreset(None).unwrap();
        twin.step(&twin_actions, false, twin_outs.step(), None)
            .unwrap();
        twin.autoreset(None).unwrap();
    }
    assert!(finished > 4, "{finished} games ended");
    let mut masks = vec![0i8; n * 260];
    env.masks(&mut masks).unwrap();
    for (i, row) in masks.chunks_exact(260).enumerate() {
        let ones: Vec<u32> = (0..260).filter(|&a| row[a as usize] == 1).collect();
        assert_eq!(ones, env.legal_actions(i).unwrap());
    }
    let mut players = vec![0i8; n];
    env.current_players(&mut players).unwrap();
    for (i, &p) in players.iter().enumerate() {
        assert_eq!(p as u8, env.turn(i).unwrap());
    }
    assert!(env.masks(&mut [0i8; 3]).is_err());
}

#[test]
fn confined_extended_games_are_played_inside_the_hexagon() {
    let rules = Rules {
        extended: true,
        tiles_per_player: Some(4),
        extended_move_limit: 30,
        ..Rules::default()
    };
    let enc = AndantinoEncoding::new(rules).unwrap();
    let n = 8;
    let mut env = VectorEnv::new(enc.clone(), n, 3).unwrap();
    let mut outs = Outs::new(n);
    let mut actions = vec![0i64; n];
    let mut ended = 0;
    for _ in 0..600 {
        env.sample_legal(None, &mut actions).unwrap();
        for (i, &a) in actions.iter().enumerate() {
            let mv = enc.move_of(a).unwrap();
            assert!(env.game(i).unwrap().check_move(mv).is_ok());
        }
        ended += env.step(&actions, false, outs.step(), None).unwrap();
        for (i, &done) in outs.terminated.iter().enumerate() {
            if done == 0 {
                let game = env.game(i).unwrap();
                for tile in game.tiles(0).into_iter().chain(game.tiles(1)) {
                    assert!(enc.hexagon().index(tile.q(), tile.r()).is_some());
                }
            }
        }
        env.autoreset(None).unwrap();
    }
    assert!(ended > 8);
}

/// Steps `env` through random games with observations and masks written in place into
/// the same buffers, and checks them after every step (and autoreset) against whole
/// writes of each game's observation and legal actions.
fn in_place_writes_equal_whole_ones<E: Encoding>(enc: E, layout: Layout, seed: u64) {
    let n = 5;
    let len = enc.observation_len();
    let width = enc.num_actions();
    let mut env = VectorEnv::new(enc.clone(), n, seed).unwrap();
    let mut outs = Outs::new(n);
    let mut actions = vec![0i64; n];
    let mut obs = vec![0.5f32; n * len];
    let mut masks = vec![7i8; n * width];
    let mut expected = vec![0.0f32; len];
    let mut moves = Vec::new();
    let mut check = |env: &VectorEnv<E>, obs: &[f32], masks: &[i8]| {
        for i in 0..n {
            let game = env.game(i).unwrap();
            enc.observe(game, game.turn(), layout, &mut moves, &mut expected)
                .unwrap();
            assert!(obs[i * len..(i + 1) * len] == expected[..], "env {i}");
            let row = &masks[i * width..(i + 1) * width];
            let ones: Vec<u32> = (0..width as u32)
                .filter(|&a| row[a as usize] == 1)
                .collect();
            assert_eq!(ones, env.legal_actions(i).unwrap());
            assert_eq!(row.iter().filter(|&&v| v != 0).count(), ones.len());
        }
    };
    env.observe(layout, &mut obs).unwrap();
    env.masks(&mut masks).unwrap();
    check(&env, &obs, &masks);
    let mut ended = 0;
    for step in 0..300 {
        env.sample_legal(None, &mut actions).unwrap();
        ended += env
            .step(&actions, false, outs.step(), Some((&mut obs, layout)))
            .unwrap();
        if step % 3 == 0 {
            env.masks(&mut masks).unwrap();
            // The final positions of the games that ended.
            check(&env, &obs, &masks);
        }
        env.autoreset(Some((&mut obs, layout))).unwrap();
        env.masks(&mut masks).unwrap();
        check(&env, &obs, &masks);
    }
    assert!(ended > 3, "{ended} games ended");
    // Another buffer, after forgetting the first, is written whole.
    let mut fresh = vec![0.25f32; n * len];
    env.forget_observations();
    env.observe(layout, &mut fresh).unwrap();
    assert!(fresh == obs);
}

#[test]
fn vector_observations_and_masks_are_updated_in_place() {
    for layout in [Layout::ChannelsFirst, Layout::ChannelsLast] {
        let balance = Rules {
            single_adjacency: true,
            tiles_per_player: Some(9),
            ..Rules::default()
        };
        for window in [None, Some(3), Some(9)] {
            let enc = AndantinoEncoding::with_window(balance, window).unwrap();
            in_place_writes_equal_whole_ones(enc, layout, 11);
        }
        in_place_writes_equal_whole_ones(standard(), layout, 12);
        let windowed = AndantinoEncoding::with_window(Rules::default(), Some(8)).unwrap();
        in_place_writes_equal_whole_ones(windowed, layout, 13);
        let extended = Rules {
            extended: true,
            tiles_per_player: Some(4),
            extended_move_limit: 20,
            ..Rules::default()
        };
        let enc = AndantinoEncoding::with_window(extended, Some(2)).unwrap();
        in_place_writes_equal_whole_ones(enc, layout, 14);
        let enc = AbandeEncoding::new(abande::Rules::default()).unwrap();
        in_place_writes_equal_whole_ones(enc, layout, 15);
    }
}

#[test]
fn repeat_head_copies_the_head_over_the_rest() {
    for (len, size) in [(3, 11), (3, 12), (1, 5), (4, 4), (9, 459), (5, 3), (0, 4)] {
        let mut out: Vec<f32> = (0..size).map(|i| i as f32).collect();
        repeat_head(&mut out, len);
        let expected: Vec<f32> = (0..size)
            .map(|i| if len == 0 { i as f32 } else { (i % len) as f32 })
            .collect();
        assert_eq!(out, expected, "head {len} over {size}");
    }
}
