//! Perft: the leaf positions of the game tree, to check move generation (PERFT.md).
//!
//! A finished game is a leaf only at the depth where it ends: it is not expanded further
//! and contributes no leaves at greater depths, as in `hexgames.perft`.

use crate::game::Game;

/// The number of positions exactly `depth` plies after `game`'s position; `game` is left
/// as it was found (every push is popped). `perft(game, 0)` is 1.
pub fn perft<G: Game>(game: &mut G, depth: u32) -> u64 {
    let mut buffers: Vec<Vec<G::Move>> = (0..depth).map(|_| Vec::new()).collect();
    count(game, depth, &mut buffers)
}

fn count<G: Game>(game: &mut G, depth: u32, buffers: &mut [Vec<G::Move>]) -> u64 {
    if depth == 0 {
        return 1;
    }
    if game.result().is_some() {
        return 0;
    }
    let (moves, rest) = buffers.split_first_mut().expect("one buffer per ply");
    game.legal_moves(moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut total = 0;
    for &mv in moves.iter() {
        game.push(mv);
        total += count(game, depth - 1, rest);
        game.pop();
    }
    total
}

/// Perft split by the first move: `(notation, perft(depth - 1) after it)` for every legal
/// move, sorted by notation, as `hexgames.perft.divide`. Empty when `depth` is 0 or the
/// game is over.
pub fn divide<G: Game>(game: &mut G, depth: u32) -> Vec<(String, u64)> {
    if depth == 0 || game.result().is_some() {
        return Vec::new();
    }
    let mut moves = Vec::new();
    game.legal_moves(&mut moves);
    let mut counts: Vec<(String, u64)> = moves
        .iter()
        .map(|&mv| {
            let text = game.notation(mv);
            game.push(mv);
            let n = perft(game, depth - 1);
            game.pop();
            (text, n)
        })
        .collect();
    counts.sort();
    counts
}
