//! The transposition table of the alpha-beta search: a fixed number of buckets (from a
//! size in megabytes), each holding [`BUCKET`] entries with the full 64-bit Zobrist key,
//! the depth, the bound type, the score, the best move and the generation (the search
//! that stored it).
//!
//! **Replacement** (the usual depth-preferred scheme with ageing, as in textbook
//! engines): an entry of the same position is overwritten (keeping its move when the
//! new store has none); otherwise the victim is the bucket's empty entry, else its
//! entry with the lowest `depth - 8 * age`, `age` being how many searches ago it was
//! stored, so entries of old searches go first and, within a search, the shallowest.
//! Memory is allocated once, fallibly ([`Vec::try_reserve_exact`]), and never grows.

use crate::error::{Error, Result};

/// Entries in one bucket (the slots a key may occupy).
pub const BUCKET: usize = 4;

/// The largest table accepted, in megabytes (64 GiB): beyond it the size is taken for a
/// mistake.
pub const MAX_MB: u64 = 1 << 16;

/// What a stored score is: the exact value, or a bound from a cut-off.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Bound {
    /// No entry (an empty slot).
    None = 0,
    /// The exact value (the search stayed inside its window).
    Exact = 1,
    /// The value is at least the score (a beta cut-off: fail high).
    Lower = 2,
    /// The value is at most the score (every move failed low).
    Upper = 3,
}

/// One entry: what a search found for one position.
#[derive(Clone, Copy, Debug)]
pub struct Entry<M: Copy> {
    /// The full Zobrist key (0 with `bound == Bound::None` for an empty slot).
    pub key: u64,
    /// The best (or refuting) move, if the search found one.
    pub mv: Option<M>,
    /// The score, mate scores relative to this node (see `alphabeta::to_tt`).
    pub score: i32,
    /// The depth in plies the node was searched to.
    pub depth: i16,
    pub bound: Bound,
    /// The generation of the search that stored it (wrapping).
    pub generation: u8,
}

impl<M: Copy> Entry<M> {
    const EMPTY: Entry<M> = Entry {
        key: 0,
        mv: None,
        score: 0,
        depth: 0,
        bound: Bound::None,
        generation: 0,
    };
}

/// A transposition table of moves of type `M`.
#[derive(Clone)]
pub struct Table<M: Copy> {
    entries: Vec<Entry<M>>,
    buckets: u64,
    generation: u8,
    used: usize,
    stores: u64,
    megabytes: u64,
}

impl<M: Copy> Table<M> {
    /// Bytes of one entry.
    pub const ENTRY_BYTES: usize = std::mem::size_of::<Entry<M>>();

    /// A table of at most `megabytes` MiB (at least one bucket).
    ///
    /// Errors: `Error::InvalidArgument` for a size below 1 or above [`MAX_MB`], or when
    /// the memory cannot be had (the message starts with "not enough memory").
    pub fn new(megabytes: u64) -> Result<Table<M>> {
        if megabytes < 1 {
            return Err(Error::InvalidArgument(format!(
                "a transposition table needs at least 1 MB, not {megabytes}"
            )));
        }
        if megabytes > MAX_MB {
            return Err(Error::InvalidArgument(format!(
                "not enough memory for a transposition table of {megabytes} MB (at most \
                 {MAX_MB} MB)"
            )));
        }
        let bytes = megabytes << 20;
        let buckets = (bytes / (Self::ENTRY_BYTES * BUCKET) as u64).max(1);
        let count = (buckets as usize) * BUCKET;
        let mut entries = Vec::new();
        entries.try_reserve_exact(count).map_err(|_| {
            Error::InvalidArgument(format!(
                "not enough memory for a transposition table of {megabytes} MB"
            ))
        })?;
        entries.resize(count, Entry::EMPTY);
        Ok(Table {
            entries,
            buckets,
            generation: 0,
            used: 0,
            stores: 0,
            megabytes,
        })
    }

    /// The size asked for, in MiB.
    pub fn megabytes(&self) -> u64 {
        self.megabytes
    }

    /// Entries the table can hold.
    pub fn capacity(&self) -> usize {
        self.entries.len()
    }

    /// Entries held now.
    pub fn len(&self) -> usize {
        self.used
    }

    /// Whether the table holds no entry.
    pub fn is_empty(&self) -> bool {
        self.used == 0
    }

    /// Stores since the table was made (or cleared).
    pub fn stores(&self) -> u64 {
        self.stores
    }

    /// The current generation.
    pub fn generation(&self) -> u8 {
        self.generation
    }

    /// Start a new search: entries stored from now on are of a new generation.
    pub fn new_search(&mut self) {
        self.generation = self.generation.wrapping_add(1);
    }

    /// Forget every entry.
    pub fn clear(&mut self) {
        self.entries.fill(Entry::EMPTY);
        self.used = 0;
        self.stores = 0;
    }

    #[inline(always)]
    fn bucket(&self, key: u64) -> usize {
        // Lemire's multiply-shift range reduction: uniform for any bucket count.
        (((key as u128) * (self.buckets as u128)) >> 64) as usize * BUCKET
    }

    /// The entry stored for `key`, if any.
    #[inline]
    pub fn probe(&self, key: u64) -> Option<&Entry<M>> {
        let start = self.bucket(key);
        self.entries[start..start + BUCKET]
            .iter()
            .find(|e| e.key == key && e.bound != Bound::None)
    }

    /// Store what a search found for `key` (see the module text for the replacement).
    #[inline]
    pub fn store(&mut self, key: u64, depth: i32, bound: Bound, score: i32, mv: Option<M>) {
        self.stores += 1;
        let generation = self.generation;
        let start = self.bucket(key);
        let bucket = &mut self.entries[start..start + BUCKET];
        let mut victim = 0;
        let mut worst = i32::MAX;
        for (i, e) in bucket.iter().enumerate() {
            if e.bound == Bound::None {
                if worst > i32::MIN {
                    victim = i;
                    worst = i32::MIN;
                }
                continue;
            }
            if e.key == key {
                victim = i;
                break;
            }
            let age = i32::from(generation.wrapping_sub(e.generation));
            let value = i32::from(e.depth) - 8 * age;
            if value < worst {
                worst = value;
                victim = i;
            }
        }
        let e = &mut bucket[victim];
        if e.bound == Bound::None {
            self.used += 1;
        }
        let mv = if mv.is_none() && e.key == key {
            e.mv
        } else {
            mv
        };
        *e = Entry {
            key,
            mv,
            score,
            depth: depth.clamp(i16::MIN as i32, i16::MAX as i32) as i16,
            bound,
            generation,
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_comes_from_megabytes() {
        let t: Table<u64> = Table::new(1).unwrap();
        assert!(t.capacity() * Table::<u64>::ENTRY_BYTES <= 1 << 20);
        assert!(t.capacity() * Table::<u64>::ENTRY_BYTES > (1 << 20) - BUCKET * 32);
        assert_eq!(t.capacity() % BUCKET, 0);
        let t4: Table<u64> = Table::new(4).unwrap();
        assert_eq!(t4.capacity(), 4 * t.capacity());
        assert!(Table::<u64>::new(0).is_err());
        let err = Table::<u64>::new(MAX_MB + 1).err().unwrap();
        assert!(err.message().starts_with("not enough memory"), "{err:?}");
    }

    #[test]
    fn store_and_probe() {
        let mut t: Table<u32> = Table::new(1).unwrap();
        assert!(t.probe(42).is_none());
        t.store(42, 5, Bound::Exact, 17, Some(7));
        let e = t.probe(42).unwrap();
        assert_eq!(
            (e.depth, e.bound, e.score, e.mv),
            (5, Bound::Exact, 17, Some(7))
        );
        // A store without a move keeps the position's move.
        t.store(42, 6, Bound::Lower, 20, None);
        let e = t.probe(42).unwrap();
        assert_eq!(
            (e.depth, e.bound, e.score, e.mv),
            (6, Bound::Lower, 20, Some(7))
        );
        assert_eq!(t.len(), 1);
        assert!(t.probe(43).is_none());
        t.clear();
        assert!(t.probe(42).is_none() && t.is_empty());
    }

    /// Keys that fall into one bucket.
    fn same_bucket(t: &Table<u32>, n: usize) -> Vec<u64> {
        let b = t.bucket(0x9E37_79B9_7F4A_7C15);
        let mut keys = Vec::new();
        let mut x = 1u64;
        while keys.len() < n {
            x = crate::zobrist::splitmix64(x);
            if t.bucket(x) == b {
                keys.push(x);
            }
        }
        keys
    }

    #[test]
    fn replacement_prefers_deep_and_recent_entries() {
        let mut t: Table<u32> = Table::new(1).unwrap();
        let keys = same_bucket(&t, BUCKET + 2);
        for (i, &k) in keys[..BUCKET].iter().enumerate() {
            t.store(k, 10 + i as i32, Bound::Exact, i as i32, None);
        }
        assert_eq!(t.len(), BUCKET);
        // A fifth position of the same search replaces the shallowest (depth 10).
        t.store(keys[BUCKET], 3, Bound::Exact, 99, None);
        assert!(t.probe(keys[0]).is_none());
        assert!(t.probe(keys[BUCKET]).is_some());
        for &k in &keys[1..BUCKET] {
            assert!(t.probe(k).is_some());
        }
        // Two searches later a shallow new entry still gets in; the victim is the
        // shallowest of the old ones (depth 3).
        t.new_search();
        t.new_search();
        t.store(keys[BUCKET + 1], 1, Bound::Exact, 5, None);
        assert!(t.probe(keys[BUCKET + 1]).is_some());
        assert!(t.probe(keys[BUCKET]).is_none());
        for &k in &keys[1..BUCKET] {
            assert!(t.probe(k).is_some());
        }
        // An entry of this search (depth 1) outlives an old one of depth 11: 11 - 16 < 1.
        t.store(keys[0], 1, Bound::Exact, 6, None);
        assert!(t.probe(keys[BUCKET + 1]).is_some() && t.probe(keys[1]).is_none());
        assert_eq!(t.len(), BUCKET);
        assert_eq!(t.stores(), BUCKET as u64 + 3);
    }
}
