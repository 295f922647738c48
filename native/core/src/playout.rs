//! Batches of uniformly random playouts from a position, with their statistics: the
//! native path of `hexgames bench` and of Monte Carlo research code.

use std::time::Instant;

use crate::game::{Game, Termination};
use crate::zobrist::Rng;

/// Every termination, in the order of [`PlayoutStats::terminations`].
pub const TERMINATIONS: [Termination; 8] = [
    Termination::Line,
    Termination::Trap,
    Termination::LineAndTrap,
    Termination::SelfTrap,
    Termination::TilesExhausted,
    Termination::MoveLimit,
    Termination::Repetition,
    Termination::Score,
];

/// What a batch of playouts measured.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlayoutStats {
    /// Games played to the end.
    pub playouts: u64,
    /// Plies played in all of them.
    pub plies: u64,
    /// Wall-clock seconds taken.
    pub seconds: f64,
    /// Playouts that ended by each termination, indexed as [`TERMINATIONS`].
    pub terminations: [u64; 8],
    /// Playouts won by (the first player, the second player).
    pub wins: [u64; 2],
    /// Playouts that ended drawn.
    pub draws: u64,
}

/// The plies of a playout between two looks at the time and `stop` inside it: more than
/// any game under the default rules lasts (Andantino: 998 placements and 200
/// relocations), so only a game of a raised relocation limit is ever cut short.
pub const LONG_PLAYOUT: u64 = 2048;

/// Play uniformly random games from `game`'s position (each move drawn by
/// [`Game::random_move`]) until `count` playouts are done or, with
/// `seconds`, until the first playout that ends after that time (at least one playout is
/// played, unless it outlasts the time by more than [`LONG_PLAYOUT`] plies). `stop` is
/// polled between playouts and every [`LONG_PLAYOUT`] plies of one: when it returns
/// true the batch ends. A playout cut short so (extended play with four tiles a side and
/// a relocation limit of a billion goes on until a position repeats: for ever, as far
/// as anyone waits) is not counted. `game` is left as it was found.
pub fn random_playouts<G: Game>(
    game: &mut G,
    count: Option<u64>,
    seconds: Option<f64>,
    seed: u64,
    mut stop: impl FnMut() -> bool,
) -> PlayoutStats {
    let mut rng = Rng::new(seed);
    let mut stats = PlayoutStats::default();
    let start = Instant::now();
    let deadline = seconds.map(|s| start + crate::search::time::seconds(s));
    let mut moves = Vec::new();
    loop {
        let base = game.ply();
        let mut plies = 0u64;
        let mut cut = false;
        loop {
            if game.result().is_some() {
                break;
            }
            let Some(mv) = game.random_move(&mut rng, &mut moves) else {
                break;
            };
            game.push(mv);
            plies += 1;
            if plies % LONG_PLAYOUT == 0
                && (deadline.is_some_and(|d| Instant::now() >= d) || stop())
            {
                cut = true;
                break;
            }
        }
        if cut {
            while game.ply() > base {
                game.pop();
            }
            break;
        }
        let result = game.result();
        stats.plies += (game.ply() - base) as u64;
        stats.playouts += 1;
        if let Some(result) = result {
            let index = TERMINATIONS
                .iter()
                .position(|&t| t == result.termination)
                .unwrap_or(0);
            stats.terminations[index] += 1;
            match result.winner {
                None => stats.draws += 1,
                Some(w) => stats.wins[(w & 1) as usize] += 1,
            }
        }
        while game.ply() > base {
            game.pop();
        }
        if count.is_some_and(|n| stats.playouts >= n)
            || deadline.is_some_and(|d| Instant::now() >= d)
            || stop()
        {
            break;
        }
    }
    stats.seconds = start.elapsed().as_secs_f64();
    stats
}
