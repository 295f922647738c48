//! FxHash, the multiply-rotate hasher of rustc (after Firefox's): fast for the integer
//! keys of the crate's hash maps (Zobrist keys, packed cells, move ids), where the
//! standard library's SipHash would cost more than the lookups. Not resistant to chosen
//! keys; no key here comes from outside as such.
//!
//! The product's low bits depend only on the key's low bits, and a hash table picks a
//! bucket by the low bits of the hash: so `finish` rotates the high bits down (as
//! rustc-hash 2 does). Without that, keys that differ only in their high half (the
//! relocations `from<<32 | to` to one cell, the cells `q<<15 | r` of one row) all fell
//! into one bucket: numbering the 500,000 relocations of an extended-play position
//! for the MCTS tree took 1.2 s instead of milliseconds.

use std::hash::{BuildHasherDefault, Hasher};

/// The hasher: `h = (h.rotate_left(5) ^ word) * K` for each word written, and
/// `h.rotate_left(26)` at the end.
#[derive(Default, Clone, Copy)]
pub(crate) struct FxHasher(u64);

/// FxHash's multiplier.
const K: u64 = 0x51_7c_c1_b7_27_22_0a_95;

impl Hasher for FxHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }

    #[inline]
    fn write_u64(&mut self, x: u64) {
        self.0 = (self.0.rotate_left(5) ^ x).wrapping_mul(K);
    }

    #[inline]
    fn write_u32(&mut self, x: u32) {
        self.write_u64(x as u64);
    }

    #[inline]
    fn write_usize(&mut self, x: usize) {
        self.write_u64(x as u64);
    }

    #[inline]
    fn finish(&self) -> u64 {
        self.0.rotate_left(26)
    }
}

/// The `BuildHasher` of a `HashMap` keyed by FxHash.
pub(crate) type FxBuild = BuildHasherDefault<FxHasher>;

#[cfg(test)]
mod tests {
    use super::*;
    use std::hash::{BuildHasher, Hash};

    #[test]
    fn one_word_is_one_step() {
        let hash = |x: &dyn Fn(&mut FxHasher)| {
            let mut h = FxBuild::default().build_hasher();
            x(&mut h);
            h.finish()
        };
        assert_eq!(
            hash(&|h| 7u64.hash(h)),
            7u64.wrapping_mul(K).rotate_left(26)
        );
        // A u32 and a usize key hash as the same u64, not byte by byte.
        assert_eq!(hash(&|h| 7u32.hash(h)), hash(&|h| 7u64.hash(h)));
        assert_eq!(hash(&|h| 7usize.hash(h)), hash(&|h| 7u64.hash(h)));
    }

    #[test]
    fn keys_differing_in_their_high_half_spread_over_the_buckets() {
        // The relocations to one cell (move ids `from << 32 | to`): 1,024 keys that
        // share their low 32 bits land in many of 4,096 buckets (the low 12 bits of the
        // hash), not in one.
        let buckets: std::collections::HashSet<u64> = (0..1024u64)
            .map(|from| FxBuild::default().hash_one((from << 32) | 0x1234_5678) & 4095)
            .collect();
        assert!(buckets.len() > 500, "{} buckets", buckets.len());
    }
}
