//! Perft: the leaf positions of the game tree, to check move generation (docs/perft.md).
//!
//! A finished game is a leaf only at the depth where it ends: it is not expanded further
//! and contributes no leaves at greater depths, as in `hexgames.perft`.
//!
//! [`perft_until`] and [`divide_until`] ask a `stop` callback as they go (the binding
//! uses it for Ctrl-C); [`perft`] and [`divide`] never stop. Move lists are made 64
//! plies at a time as a walk gets there, so a depth beyond any game's length costs no
//! more memory than the game tree itself.

use crate::game::Game;

/// The number of positions exactly `depth` plies after `game`'s position; `game` is left
/// as it was found (every push is popped). `perft(game, 0)` is 1.
pub fn perft<G: Game>(game: &mut G, depth: u32) -> u64 {
    // A run that is never stopped always gives its count.
    perft_until(game, depth, &mut || false).unwrap_or(0)
}

/// [`perft`] that asks `stop` before expanding each position two or more plies above the
/// leaves and gives `None` once it says stop. `game` is left as it was found either way.
pub fn perft_until<G: Game>(
    game: &mut G,
    depth: u32,
    stop: &mut impl FnMut() -> bool,
) -> Option<u64> {
    fresh(game, depth, stop)
}

/// Move lists made at a time: those of the next `CHUNK` plies (more only when a walk
/// gets that deep, which only a depth beyond the length of most games asks for).
const CHUNK: u32 = 64;

/// [`count`] with move lists of its own for the next plies.
fn fresh<G: Game>(game: &mut G, depth: u32, stop: &mut impl FnMut() -> bool) -> Option<u64> {
    let mut buffers: Vec<Vec<G::Move>> = (0..depth.min(CHUNK)).map(|_| Vec::new()).collect();
    count(game, depth, &mut buffers, stop)
}

/// [`fresh`] for a walk that went beyond its move lists: rare, and kept out of line so
/// that [`count`] stays as fast as with move lists for every ply.
#[cold]
#[inline(never)]
fn deeper<G: Game>(game: &mut G, depth: u32, stop: &mut impl FnMut() -> bool) -> Option<u64> {
    fresh(game, depth, stop)
}

/// The perft of `game` to `depth`, with `buffers[i]` the move list of the position `i`
/// plies below (a walk deeper than the buffers makes more).
fn count<G: Game>(
    game: &mut G,
    depth: u32,
    buffers: &mut [Vec<G::Move>],
    stop: &mut impl FnMut() -> bool,
) -> Option<u64> {
    if depth == 0 {
        return Some(1);
    }
    if game.result().is_some() {
        return Some(0);
    }
    let Some((moves, rest)) = buffers.split_first_mut() else {
        return deeper(game, depth, stop);
    };
    game.legal_moves(moves);
    if depth == 1 {
        return Some(moves.len() as u64);
    }
    if stop() {
        return None;
    }
    let mut total = 0;
    for &mv in moves.iter() {
        game.push(mv);
        let n = count(game, depth - 1, rest, stop);
        game.pop();
        total += n?;
    }
    Some(total)
}

/// Perft split by the first move: `(notation, perft(depth - 1) after it)` for every legal
/// move, sorted by notation, as `hexgames.perft.divide`. Empty when `depth` is 0 or the
/// game is over.
pub fn divide<G: Game>(game: &mut G, depth: u32) -> Vec<(String, u64)> {
    divide_until(game, depth, &mut || false).unwrap_or_default()
}

/// [`divide`] that asks `stop` as [`perft_until`] does and gives `None` once it says
/// stop. `game` is left as it was found either way.
pub fn divide_until<G: Game>(
    game: &mut G,
    depth: u32,
    stop: &mut impl FnMut() -> bool,
) -> Option<Vec<(String, u64)>> {
    if depth == 0 || game.result().is_some() {
        return Some(Vec::new());
    }
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let mut buffers: Vec<Vec<G::Move>> = (0..(depth - 1).min(CHUNK)).map(|_| Vec::new()).collect();
    let mut counts = Vec::with_capacity(moves.len());
    for &mv in &moves {
        let text = game.notation(mv);
        game.push(mv);
        let n = count(game, depth - 1, &mut buffers, stop);
        game.pop();
        counts.push((text, n?));
    }
    counts.sort();
    Some(counts)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::andantino::{Board, Rules};

    #[test]
    fn a_stop_gives_none_and_leaves_the_game_as_found() {
        let mut board = Board::new(None, Rules::default()).expect("the start");
        let before = board.position();
        let full = perft(&mut board, 4);
        let mut asked = 0;
        let stopped = perft_until(&mut board, 4, &mut || {
            asked += 1;
            asked > 3
        });
        assert_eq!(stopped, None);
        assert_eq!(asked, 4);
        assert_eq!(board.position(), before);
        assert_eq!(perft_until(&mut board, 4, &mut || false), Some(full));
        assert_eq!(divide_until(&mut board, 4, &mut || true), None);
        assert_eq!(board.position(), before);
        let split = divide(&mut board, 4);
        assert_eq!(split.iter().map(|(_, n)| n).sum::<u64>(), full);
        assert!(split.windows(2).all(|w| w[0].0 < w[1].0));
    }

    #[test]
    fn a_walk_deeper_than_its_move_lists_makes_more() {
        let mut board = Board::new(None, Rules::default()).expect("the start");
        let full = perft(&mut board, 4);
        assert_eq!(
            count(&mut board, 4, &mut [Vec::new()], &mut || false),
            Some(full)
        );
        assert_eq!(count(&mut board, 4, &mut [], &mut || false), Some(full));
    }

    #[test]
    fn a_depth_beyond_the_game_allocates_nothing_per_ply() {
        // A move list per ply of a depth of 2**32 - 1 would take about 100 GB; a
        // finished game asks for none.
        let mut board =
            crate::abande::Board::new(None, crate::abande::Rules::default()).expect("the start");
        let mut moves = Vec::new();
        while board.result().is_none() {
            Game::legal_moves(&board, &mut moves);
            board.push(moves[0]);
        }
        assert_eq!(perft(&mut board, u32::MAX), 0);
        assert_eq!(divide(&mut board, u32::MAX), Vec::new());
    }
}
