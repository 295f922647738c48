//! What the tuning examples share: Texel's method (Peter Österlund, "Texel's tuning
//! method", 2014) on positions labelled with their game's result, and matches of
//! colour-swapped pairs between two option sets of the alpha-beta player. (A folder
//! without `main.rs`, so Cargo builds no example of its own from it.)

use std::thread;

use hexgames_core::game::Color;
use hexgames_core::search::alphabeta::{AlphaBeta, Options, SearchGame};
use hexgames_core::search::{Limits, Stop};

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

/// Points of the player with options `a` against the one with `b` over the games of
/// colour-swapped pairs from each of `starts`, at `seconds` a move: (points, games).
pub fn match_points<G: SearchGame>(
    a: Options,
    b: Options,
    starts: &[G],
    seconds: f64,
) -> (f64, usize) {
    let limits = Limits {
        time: Some(seconds),
        ..Limits::default()
    };
    let (mut points, mut games) = (0.0, 0);
    for start in starts {
        for a_color in [0u8, 1u8] {
            let mut players = [
                AlphaBeta::<G>::new(16, a).expect("a player"),
                AlphaBeta::<G>::new(16, b).expect("a player"),
            ];
            let mut game = start.clone();
            while game.result().is_none() {
                let who = usize::from(game.turn() != a_color);
                let r = players[who]
                    .search(&game, &limits, &Stop::new(), &mut |_| {}, &mut || false)
                    .expect("a move");
                game.push(r.best);
            }
            points += result_for(game.result().and_then(|r| r.winner), a_color);
            games += 1;
        }
    }
    (points, games)
}
