//! Zobrist keys, equal to those of the Python board (`hexgames.abande`: `_piece_key`,
//! `_StackKeys`, `_Z_TURN`, `_Z_PASSES`, `_Z_HAND`): one key per (point, height level
//! from the bottom, colour) of every piece, one for White to move, one per passes state
//! 1 and 2, and one per (colour, pieces in hand). All come from SplitMix64.

use super::bits::SIZE;
use crate::zobrist::splitmix64;

/// Pieces each player owns (docs/rules.md, "Material").
pub const PIECES: usize = 18;
/// The highest stack any rules allow (all 36 pieces).
pub const MAX_LEVELS: usize = 2 * PIECES;

/// `splitmix64(0xAB000000 + (b * 64 + level) * 2 + color)`, as `_piece_key`.
pub const fn piece_key(b: u32, level: u32, color: u32) -> u64 {
    splitmix64(0xAB00_0000 + ((b as u64 * 64 + level as u64) * 2 + color as u64))
}

const fn piece_table() -> [[[u64; 2]; SIZE]; MAX_LEVELS] {
    let mut out = [[[0u64; 2]; SIZE]; MAX_LEVELS];
    let mut level = 0;
    while level < MAX_LEVELS {
        let mut b = 0;
        while b < SIZE {
            out[level][b][0] = piece_key(b as u32, level as u32, 0);
            out[level][b][1] = piece_key(b as u32, level as u32, 1);
            b += 1;
        }
        level += 1;
    }
    out
}

/// `PIECE[level][bit][color]`: the key of one piece (levels count from the bottom, 0).
pub static PIECE: [[[u64; 2]; SIZE]; MAX_LEVELS] = piece_table();

/// White to move.
pub const TURN: u64 = splitmix64(0xAB_0001);
/// The passes state 0, 1 or 2.
pub const PASSES: [u64; 3] = [0, splitmix64(0xAB_0002), splitmix64(0xAB_0003)];

const fn hand_table() -> [[u64; PIECES + 1]; 2] {
    let mut out = [[0u64; PIECES + 1]; 2];
    let mut c = 0;
    while c < 2 {
        let mut n = 0;
        while n <= PIECES {
            out[c][n] = splitmix64(0xAB_1000 + 64 * c as u64 + n as u64);
            n += 1;
        }
        c += 1;
    }
    out
}

/// `HAND[color][pieces in hand]`.
pub const HAND: [[u64; PIECES + 1]; 2] = hand_table();

/// The key of a whole stack code on `b` (see `board`): the XOR of its pieces' keys.
pub fn stack_key(b: u32, code: u64) -> u64 {
    let mut key = 0;
    for level in 0..super::board::height(code) {
        key ^= PIECE[level as usize][b as usize][(code >> level & 1) as usize];
    }
    key
}
