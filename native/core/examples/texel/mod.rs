//! What the tuning examples share: Texel's method (Peter Österlund, "Texel's tuning
//! method", 2014) on positions labelled with their game's result, and matches of
//! colour-swapped pairs between two option sets of the alpha-beta player. (A folder
//! without `main.rs`, so Cargo builds no example of its own from it.) Each example uses
//! part of it, hence the allowance of dead code.

#![allow(dead_code)]

use std::thread;

use hexgames_core::game::{Color, Game};
use hexgames_core::search::alphabeta::{AlphaBeta, Options, SearchGame};
use hexgames_core::search::{Limits, Stop};
use hexgames_core::zobrist::Rng;
use hexgames_core::{abande, andantino};

/// The command line of a tuning example: `[games] [depth] [match_pairs]
/// [match_seconds] [seed]` (an example may read more after them).
#[derive(Clone, Copy)]
pub struct Arguments {
    pub games: usize,
    pub depth: u32,
    pub pairs: usize,
    pub seconds: f64,
    pub seed: u64,
}

/// The arguments, with `games` self-play games by default, depth 4, 50 pairs at 0.2 s
/// a move and seed 1 (an argument that is not a number takes its default).
pub fn arguments(games: usize) -> Arguments {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let arg = |i: usize, default: f64| args.get(i).and_then(|a| a.parse().ok()).unwrap_or(default);
    Arguments {
        games: arg(0, games as f64) as usize,
        depth: arg(1, 4.0) as u32,
        pairs: arg(2, 50.0) as usize,
        seconds: arg(3, 0.2),
        seed: arg(4, 1.0) as u64,
    }
}

/// A position's evaluation terms (side to move's view) and its game's result for the
/// side to move: 1, 1/2 or 0.
pub struct Sample<const N: usize> {
    pub terms: [f64; N],
    pub result: f64,
}

/// The result of a game won by `winner` (`None`: drawn) for `mover`: 1, 1/2 or 0.
pub fn result_for(winner: Option<Color>, mover: Color) -> f64 {
    match winner {
        None => 0.5,
        Some(w) if w == mover => 1.0,
        Some(_) => 0.0,
    }
}

/// The weighted sum of the terms.
pub fn value<const N: usize>(w: &[f64; N], t: &[f64; N]) -> f64 {
    w.iter().zip(t).map(|(a, b)| a * b).sum()
}

/// The winning chance of a value of `x` points: `1 / (1 + exp(-x / scale))`.
pub fn sigmoid(x: f64, scale: f64) -> f64 {
    1.0 / (1.0 + (-x / scale).exp())
}

/// The mean squared error between the results and the winning chances of the values.
pub fn error<const N: usize>(w: &[f64; N], data: &[Sample<N>], scale: f64) -> f64 {
    data.iter()
        .map(|s| (s.result - sigmoid(value(w, &s.terms), scale)).powi(2))
        .sum::<f64>()
        / data.len() as f64
}

/// The weights that minimise [`error`], by projected gradient descent (Adam: Kingma and
/// Ba, "Adam: a method for stochastic optimization", 2015) with steps of about `lr`
/// points from `start`; `project` puts the weights back into their allowed set after
/// each step. Prints the error every 250 steps to standard error.
pub fn fit<const N: usize>(
    start: [f64; N],
    data: &[Sample<N>],
    scale: f64,
    lr: f64,
    project: impl Fn(&mut [f64; N]),
) -> [f64; N] {
    let mut w = start;
    let (mut m, mut v) = ([0.0; N], [0.0; N]);
    let (b1, b2) = (0.9, 0.999);
    for step in 1..=2000 {
        let mut grad = [0.0; N];
        for s in data {
            let p = sigmoid(value(&w, &s.terms), scale);
            let g = -2.0 * (s.result - p) * p * (1.0 - p) / scale;
            for (gi, t) in grad.iter_mut().zip(&s.terms) {
                *gi += g * t;
            }
        }
        for i in 0..N {
            let g = grad[i] / data.len() as f64;
            m[i] = b1 * m[i] + (1.0 - b1) * g;
            v[i] = b2 * v[i] + (1.0 - b2) * g * g;
            let mh = m[i] / (1.0 - b1.powi(step));
            let vh = v[i] / (1.0 - b2.powi(step));
            w[i] -= lr * mh / (vh.sqrt() + 1e-12);
        }
        project(&mut w);
        if step % 250 == 0 {
            let shown: Vec<i64> = w.iter().map(|x| x.round() as i64).collect();
            eprintln!(
                "  step {step}: error {:.6} {shown:?}",
                error(&w, data, scale)
            );
        }
    }
    w
}

/// `work(k)` for k = 0 and 1 on two threads, the results in that order.
pub fn on_two_threads<T: Send + 'static>(
    work: impl Fn(u64) -> T + Send + Copy + 'static,
) -> Vec<T> {
    let threads: Vec<_> = (0..2).map(|k| thread::spawn(move || work(k))).collect();
    threads
        .into_iter()
        .map(|t| t.join().expect("a thread"))
        .collect()
}

/// What one side of a match scored: wins, draws and losses, by colour (index 0: as the
/// side to move in the opening position).
#[derive(Clone, Copy, Debug, Default)]
pub struct Tally {
    pub wins: [u32; 2],
    pub draws: [u32; 2],
    pub losses: [u32; 2],
}

impl Tally {
    /// Points (a draw is half a point) and games.
    pub fn points(&self) -> (f64, usize) {
        let sum = |x: [u32; 2]| f64::from(x[0] + x[1]);
        let games = sum(self.wins) + sum(self.draws) + sum(self.losses);
        (sum(self.wins) + 0.5 * sum(self.draws), games as usize)
    }

    fn add(mut self, other: Tally) -> Tally {
        for c in 0..2 {
            self.wins[c] += other.wins[c];
            self.draws[c] += other.draws[c];
            self.losses[c] += other.losses[c];
        }
        self
    }
}

/// A player of the matches: the search's options and the evaluation's weights.
pub type Player<G> = (Options, <G as SearchGame>::Weights);

/// The arena's player (`hexgames.engine.alphabeta`: late move reductions, quiescence,
/// reverse futility pruning of 150 points in Abande) without its weights.
pub fn arena_options(game: &str) -> Options {
    Options {
        lmr: true,
        quiescence: true,
        rfp: if game == "abande" { 150 } else { 0 },
        ..Options::default()
    }
}

/// The arena's Andantino weights: `TEMPO` 30 and `RIGHT` 40.
pub fn arena_andantino_weights() -> andantino::ai::Weights {
    andantino::ai::Weights {
        tempo: 30,
        right: 40,
        ..Default::default()
    }
}

/// The tally of the player `a` against `b` over the games of colour-swapped pairs from
/// each of `starts`, at `seconds[0]` a move for `a` and `seconds[1]` for `b`.
pub fn match_tally<G: SearchGame>(
    a: Player<G>,
    b: Player<G>,
    starts: &[G],
    seconds: [f64; 2],
) -> Tally {
    let limits = seconds.map(|s| Limits {
        time: Some(s),
        ..Limits::default()
    });
    let mut tally = Tally::default();
    for start in starts {
        for a_color in [0u8, 1u8] {
            let mut players = [
                AlphaBeta::<G>::with_weights(16, a.0, a.1).expect("a player"),
                AlphaBeta::<G>::with_weights(16, b.0, b.1).expect("a player"),
            ];
            let mut game = start.clone();
            let first = game.turn();
            while game.result().is_none() {
                let who = usize::from(game.turn() != a_color);
                let limit = &limits[who];
                let r = players[who]
                    .search(&game, limit, &Stop::new(), &mut |_| {}, &mut || false)
                    .expect("a move");
                game.push(r.best);
            }
            let c = usize::from(a_color != first);
            match game.result().and_then(|r| r.winner) {
                None => tally.draws[c] += 1,
                Some(w) if w == a_color => tally.wins[c] += 1,
                Some(_) => tally.losses[c] += 1,
            }
        }
    }
    tally
}

/// Points of the player `a` against `b` over the games of colour-swapped pairs from
/// each of `starts`, at `seconds` a move: (points, games).
pub fn match_points<G: SearchGame>(
    a: Player<G>,
    b: Player<G>,
    starts: &[G],
    seconds: f64,
) -> (f64, usize) {
    match_tally(a, b, starts, [seconds; 2]).points()
}

/// [`match_tally`] over `pairs` colour-swapped pairs from openings made by `opening`,
/// on two threads (each with its own generator, seeded from `seed`).
pub fn pair_match_tally<G: SearchGame + 'static>(
    a: Player<G>,
    b: Player<G>,
    pairs: usize,
    seconds: [f64; 2],
    seed: u64,
    opening: fn(&mut Rng) -> G,
) -> Tally {
    on_two_threads(move |k| {
        let mut rng = Rng::new(seed * 1000 + 500 + k);
        let n = pairs / 2 + (pairs % 2) * usize::from(k == 0);
        let starts: Vec<G> = (0..n).map(|_| opening(&mut rng)).collect();
        match_tally(a, b, &starts, seconds)
    })
    .into_iter()
    .fold(Tally::default(), Tally::add)
}

/// [`pair_match_tally`] with `seconds` a move for both: (points, games).
pub fn pair_match<G: SearchGame + 'static>(
    a: Player<G>,
    b: Player<G>,
    pairs: usize,
    seconds: f64,
    seed: u64,
    opening: fn(&mut Rng) -> G,
) -> (f64, usize) {
    pair_match_tally(a, b, pairs, [seconds; 2], seed, opening).points()
}

/// The positions of `games` self-play games of `player` at `depth` plies a move, from
/// openings made by `opening` (generator seeded by `seed`), each with its `terms` and
/// its game's result for the side to move.
pub fn self_play<G: SearchGame, const N: usize>(
    player: Player<G>,
    games: usize,
    depth: u32,
    seed: u64,
    opening: fn(&mut Rng) -> G,
    terms: fn(&G) -> [f64; N],
) -> Vec<Sample<N>> {
    let mut rng = Rng::new(seed);
    let mut ab = AlphaBeta::<G>::with_weights(16, player.0, player.1).expect("a player");
    let limits = Limits {
        depth: Some(depth),
        ..Limits::default()
    };
    let mut out = Vec::new();
    for _ in 0..games {
        let mut game = opening(&mut rng);
        ab.new_game();
        let mut seen = Vec::new();
        while game.result().is_none() {
            seen.push((terms(&game), game.turn()));
            let r = ab
                .search(&game, &limits, &Stop::new(), &mut |_| {}, &mut || false)
                .expect("a move");
            game.push(r.best);
        }
        let winner = game.result().and_then(|r| r.winner);
        out.extend(seen.into_iter().map(|(terms, mover)| Sample {
            terms,
            result: result_for(winner, mover),
        }));
    }
    out
}

/// [`self_play`] of `args.games` games at `args.depth` on two threads, the player made
/// by `player` from each thread's seed; prints how many positions.
pub fn samples<G: SearchGame + 'static, const N: usize>(
    args: Arguments,
    player: impl Fn(u64) -> Player<G> + Send + Copy + 'static,
    opening: fn(&mut Rng) -> G,
    terms: fn(&G) -> [f64; N],
) -> Vec<Sample<N>> {
    let data: Vec<Sample<N>> = on_two_threads(move |k| {
        let seed = args.seed * 1000 + k;
        self_play(
            player(seed),
            args.games / 2,
            args.depth,
            seed,
            opening,
            terms,
        )
    })
    .into_iter()
    .flatten()
    .collect();
    println!(
        "{} positions from {} games at depth {}",
        data.len(),
        args.games,
        args.depth
    );
    data
}

/// Random plies that open an Andantino game (as `hexgames match --opening-plies 4`).
pub const ANDANTINO_OPENING_PLIES: usize = 4;
/// Random plies that open an Abande game (as `hexgames match --opening-plies 6`).
pub const ABANDE_OPENING_PLIES: usize = 6;

/// The balance variant of Andantino (`single_adjacency`), the rules of the matches.
pub fn andantino_rules() -> andantino::Rules {
    andantino::Rules {
        single_adjacency: true,
        ..andantino::Rules::default()
    }
}

/// An Andantino opening of [`ANDANTINO_OPENING_PLIES`] random plies under
/// [`andantino_rules`], leaving Red's balance-variant right alone as the arena does.
pub fn andantino_opening(rng: &mut Rng) -> andantino::Board {
    let mut board = andantino::Board::new(None, andantino_rules()).expect("the start");
    let mut moves = Vec::new();
    for _ in 0..ANDANTINO_OPENING_PLIES {
        board.legal_moves(&mut moves);
        let keep: Vec<_> = moves
            .iter()
            .copied()
            .filter(|m| board.touching(m.to()) >= 2)
            .collect();
        let pool = if keep.is_empty() { &moves } else { &keep };
        board.push(pool[rng.below(pool.len())]);
        if board.result().is_some() {
            break;
        }
    }
    board
}

/// An Abande opening of [`ABANDE_OPENING_PLIES`] uniformly random plies.
pub fn abande_opening(rng: &mut Rng) -> abande::Board {
    let mut board = abande::Board::new(None, abande::Rules::default()).expect("the start");
    let mut moves = Vec::new();
    for _ in 0..ABANDE_OPENING_PLIES {
        Game::legal_moves(&board, &mut moves);
        board.push(moves[rng.below(moves.len())]);
    }
    board
}
