//! A match between two option sets of the native alpha-beta player: colour-swapped
//! pairs from random openings (Andantino's balance variant from 4 random plies that
//! leave Red's right alone, Abande from 6), at a fixed time a move, on two threads, in
//! one process (no Python between the moves). It is how the evaluation's options were
//! chosen; `benchmarks/bench_strength.py` plays the same kind of match through the
//! arena, against any player spec.
//!
//!     cargo run --release -p hexgames-core --example options_match -- \
//!         GAME PAIRS SECONDS SEED A B
//!
//! GAME is `andantino` or `abande`; A and B are option sets, `key=value` separated by
//! commas (`tempo=0,quiescence=0`; `base` for none), over the options of the arena's
//! player (`hexgames.engine.alphabeta`: `lmr` on, tempo 30, right 40, quiescence on,
//! in Abande `rfp` 150; the rest `Options::default()`). Keys:
//! `tempo`, `right`, `three`, `abande_tempo`, `rfp` (points), `lmp` (moves), `lmr_log` (see
//! `Options::lmr_log`), `order_weight` (see `SearchGame::ORDER_WEIGHT`), `lmr`,
//! `tt_deeper`, `null_move`, `quiescence`, `leaf_threats`, `history_malus` (0 or 1);
//! `aspiration` (points, see `Options::aspiration`);
//! and `time` (seconds a move for that side instead of SECONDS, for a match against a
//! weaker player). Prints A's points, games and score, and its wins, draws and losses
//! as the side to move in the opening position and as the other side.

use hexgames_core::search::alphabeta::Options;
use hexgames_core::{abande, andantino};

mod texel;
use texel::{
    abande_opening, andantino_opening, arena_andantino_weights, arena_options, pair_match_tally,
    Tally,
};

/// One side: the search's options, the evaluation's (both games'), seconds a move.
struct Side {
    options: Options,
    andantino: andantino::ai::Weights,
    abande: abande::ai::Weights,
    time: f64,
}

/// The option set `text` of one side and its seconds a move (`time`, else `seconds`).
fn side(text: &str, game: &str, seconds: f64) -> Result<Side, String> {
    let mut time = seconds;
    let mut rest = Vec::new();
    for item in text.split(',') {
        match item.strip_prefix("time=") {
            Some(t) => {
                time = t
                    .parse()
                    .map_err(|_| format!("time: {t:?} is not a number"))?;
                if !(time.is_finite() && time > 0.0) {
                    return Err(format!("time: {t:?} is not more than 0"));
                }
            }
            None => rest.push(item),
        }
    }
    let (options, andantino, abande) = options(&rest.join(","), game)?;
    Ok(Side {
        options,
        andantino,
        abande,
        time,
    })
}

type Both = (Options, andantino::ai::Weights, abande::ai::Weights);

fn options(text: &str, game: &str) -> Result<Both, String> {
    // The arena's player (hexgames.engine.alphabeta: TEMPO, RIGHT, quiescence=True, RFP
    // in Abande).
    let mut o = arena_options(game);
    let mut a = arena_andantino_weights();
    let mut b = abande::ai::Weights::default();
    for item in text.split(',').filter(|s| !s.is_empty() && *s != "base") {
        let (key, value) = item
            .split_once('=')
            .ok_or_else(|| format!("{item:?} is not key=value"))?;
        let n: i32 = value
            .parse()
            .map_err(|_| format!("{key}: {value:?} is not a whole number"))?;
        match key {
            "tempo" => a.tempo = n,
            "right" => a.right = n,
            "three" => a.three = n,
            "lmr_log" => o.lmr_log = n,
            "abande_tempo" => b.tempo = n,
            "rfp" => o.rfp = n,
            "lmp" => o.lmp = n,
            "lmr" => o.lmr = n != 0,
            "history_malus" => o.history_malus = Some(n != 0),
            "order_weight" => o.order_weight = Some(i64::from(n)),
            "tt_deeper" => o.tt_deeper = n != 0,
            "null_move" => o.null_move = n != 0,
            "quiescence" => o.quiescence = n != 0,
            "leaf_threats" => o.leaf_threats = n != 0,
            "aspiration" => o.aspiration = n,
            _ => return Err(format!("unknown option {key:?}")),
        }
    }
    Ok((o, a, b))
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let usage = "usage: options_match GAME PAIRS SECONDS SEED A B";
    let parsed = (|| -> Result<_, String> {
        let [game, pairs, seconds, seed, a, b] = args.as_slice() else {
            return Err(usage.to_string());
        };
        let pairs: usize = pairs.parse().map_err(|_| format!("PAIRS: {pairs:?}"))?;
        let seconds: f64 = seconds
            .parse()
            .map_err(|_| format!("SECONDS: {seconds:?}"))?;
        let seed: u64 = seed.parse().map_err(|_| format!("SEED: {seed:?}"))?;
        if !matches!(game.as_str(), "andantino" | "abande") {
            return Err(format!("GAME is andantino or abande, not {game:?}"));
        }
        Ok((
            game.clone(),
            pairs,
            seconds,
            seed,
            side(a, game, seconds)?,
            side(b, game, seconds)?,
        ))
    })();
    let (game, pairs, seconds, seed, a, b) = match parsed {
        Ok(p) => p,
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let start = std::time::Instant::now();
    let times = [a.time, b.time];
    let tally: Tally = if game == "andantino" {
        let (a, b) = ((a.options, a.andantino), (b.options, b.andantino));
        pair_match_tally(a, b, pairs, times, seed, andantino_opening)
    } else {
        let (a, b) = ((a.options, a.abande), (b.options, b.abande));
        pair_match_tally(a, b, pairs, times, seed, abande_opening)
    };
    let (points, games) = tally.points();
    println!(
        "{game}: {} against {}: {points} of {games} games ({:.1}%) at {seconds} s a move, \
         seed {seed}, {:.0} s; to move first {}W {}D {}L, second {}W {}D {}L",
        args[4],
        args[5],
        100.0 * points / games as f64,
        start.elapsed().as_secs_f64(),
        tally.wins[0],
        tally.draws[0],
        tally.losses[0],
        tally.wins[1],
        tally.draws[1],
        tally.losses[1],
    );
}
