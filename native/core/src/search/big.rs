//! Test positions where one step of a search is dear: extended-play Andantino with
//! hundreds of tiles a side, as the rules allow them (`tiles_per_player=none` is played
//! up to 500 tiles a side), for the tests that every search stops in time.

use std::time::{Duration, Instant};

use super::{Limits, Stop};
use crate::andantino::{Board, Rules};

/// `n` tiles a side in triangles of three tiles `gap` cells apart (in rows of about the
/// square root of their number), colours alternating: no line, no trap, and every side
/// of a triangle has an empty cell touching two tiles. A `gap` of 4 keeps them in the
/// dense window; a few hundred puts them on the hash-map surface.
pub(crate) fn triangles(n: usize, gap: i32) -> [Vec<(i32, i32)>; 2] {
    let count = (2 * n) / 3 + 1;
    let cols = (count as f64).sqrt() as i32 + 1;
    let mut tiles: [Vec<(i32, i32)>; 2] = [Vec::new(), Vec::new()];
    let mut k = 0;
    for i in 0..count as i32 {
        let (q, r) = ((i % cols) * gap, (i / cols) * gap);
        for cell in [(q, r), (q + 1, r), (q, r + 1)] {
            tiles[k % 2].push(cell);
            k += 1;
        }
    }
    tiles.iter_mut().for_each(|t| t.truncate(n));
    tiles
}

/// The position string of `tiles` with `turn` (`w` or `r`) to move and `extra` fields.
pub(crate) fn position(tiles: &[Vec<(i32, i32)>; 2], turn: char, extra: &str) -> String {
    let list = |cells: &[(i32, i32)]| {
        let mut cells = cells.to_vec();
        cells.sort_by_key(|&(q, r)| (r, q));
        let texts: Vec<String> = cells.iter().map(|(q, r)| format!("{q},{r}")).collect();
        texts.join(";")
    };
    format!(
        "andantino w={} r={} turn={turn} {extra}",
        list(&tiles[0]),
        list(&tiles[1])
    )
}

/// Extended play with the unlimited supply (500 tiles a side) and `limit` relocations.
pub(crate) fn rules(limit: u32) -> Rules {
    Rules {
        extended: true,
        tiles_per_player: None,
        extended_move_limit: limit,
        ..Rules::default()
    }
}

/// `white` and `red` tiles of [`triangles`] under [`rules`] with `limit` relocations:
/// with 500 tiles a side both relocate (some 500,000 moves).
pub(crate) fn board(white: usize, red: usize, gap: i32, limit: u32) -> Board {
    let [mut w, mut r] = triangles(white.max(red), gap);
    w.truncate(white);
    r.truncate(red);
    Board::new(Some(&position(&[w, r], 'w', "")), rules(limit)).unwrap()
}

/// Extended play with four tiles a side, which can make neither a line nor a trap, and
/// a relocation limit of a billion: a game that goes on until a position repeats (a
/// random one, for tens of seconds and more).
pub(crate) fn endless() -> Board {
    let rules = Rules {
        extended: true,
        tiles_per_player: Some(4),
        extended_move_limit: 999_999_999,
        ..Rules::default()
    };
    let start = "andantino w=0,0;2,0;1,1;3,1 r=1,0;3,0;2,1;0,1 turn=w hands=w0,r0";
    Board::new(Some(start), rules).unwrap()
}

/// Run `search` twice, with the limits and stop flag it is given: once with a time
/// limit of 0.1 s, once without one and the flag set from another thread after 0.1 s.
/// Returns what each returned and the seconds it took.
pub(crate) fn limited_and_stopped<R>(mut search: impl FnMut(&Limits, &Stop) -> R) -> [(R, f64); 2] {
    let timed = {
        let start = Instant::now();
        let limits = Limits {
            time: Some(0.1),
            ..Limits::default()
        };
        let r = search(&limits, &Stop::new());
        (r, start.elapsed().as_secs_f64())
    };
    let stop = Stop::new();
    let remote = stop.clone();
    let start = Instant::now();
    let stopper = std::thread::spawn(move || {
        std::thread::sleep(Duration::from_millis(100));
        remote.set();
    });
    let r = search(&Limits::default(), &stop);
    let took = start.elapsed().as_secs_f64();
    let _ = stopper.join();
    [timed, (r, took)]
}
