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
//!
//! **Storage.** An entry is three words: the key, the rest packed into one word (an
//! empty slot is all 0), and the move ([`TableMove`]). The words come zeroed from the
//! allocator (calloc): the system hands out their pages as the search first touches
//! them, so a big table costs nothing until it is used. A shallow search of a new
//! player (a self-play game at depth 3) touches a few pages of its 64 MB; filling
//! the table with empty entries first took ten times that game's search.

use crate::error::{Error, Result};
use crate::memory::zeroed_words;

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

/// A move as the table keeps it: packed into a word (any word `pack` returns must
/// `unpack` to the same move).
pub trait TableMove: Copy {
    /// The move as a word.
    fn pack(self) -> u64;
    /// The move of a word that `pack` returned.
    fn unpack(word: u64) -> Self;
}

impl TableMove for u32 {
    fn pack(self) -> u64 {
        u64::from(self)
    }
    fn unpack(word: u64) -> Self {
        word as u32
    }
}

impl TableMove for u64 {
    fn pack(self) -> u64 {
        self
    }
    fn unpack(word: u64) -> Self {
        word
    }
}

/// Words of one entry: the key, the packed rest, the move.
const WORDS: usize = 3;

// The packed word: the score (bits 0-31), the depth (32-47), the bound (48-49), the
// generation (50-57), and whether there is a move (58).
const DEPTH_SHIFT: u32 = 32;
const BOUND_SHIFT: u32 = 48;
const GENERATION_SHIFT: u32 = 50;
const HAS_MOVE: u64 = 1 << 58;

#[inline(always)]
fn bound_of(meta: u64) -> Bound {
    match (meta >> BOUND_SHIFT) & 3 {
        0 => Bound::None,
        1 => Bound::Exact,
        2 => Bound::Lower,
        _ => Bound::Upper,
    }
}

#[inline(always)]
fn depth_of(meta: u64) -> i16 {
    (meta >> DEPTH_SHIFT) as u16 as i16
}

#[inline(always)]
fn generation_of(meta: u64) -> u8 {
    (meta >> GENERATION_SHIFT) as u8
}

#[inline(always)]
fn pack(score: i32, depth: i16, bound: Bound, generation: u8, has_move: bool) -> u64 {
    u64::from(score as u32)
        | u64::from(depth as u16) << DEPTH_SHIFT
        | (bound as u64) << BOUND_SHIFT
        | u64::from(generation) << GENERATION_SHIFT
        | if has_move { HAS_MOVE } else { 0 }
}

/// A transposition table of moves of type `M`.
#[derive(Clone)]
pub struct Table<M: Copy> {
    /// [`WORDS`] words an entry (see the module text).
    words: Vec<u64>,
    buckets: u64,
    generation: u8,
    used: usize,
    stores: u64,
    megabytes: u64,
    moves: std::marker::PhantomData<M>,
}

impl<M: TableMove> Table<M> {
    /// Bytes of one entry.
    pub const ENTRY_BYTES: usize = 8 * WORDS;

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
        let words = zeroed_words(count * WORDS).ok_or_else(|| {
            Error::InvalidArgument(format!(
                "not enough memory for a transposition table of {megabytes} MB"
            ))
        })?;
        Ok(Table {
            words,
            buckets,
            generation: 0,
            used: 0,
            stores: 0,
            megabytes,
            moves: std::marker::PhantomData,
        })
    }

    /// The size asked for, in MiB.
    pub fn megabytes(&self) -> u64 {
        self.megabytes
    }

    /// Entries the table can hold.
    pub fn capacity(&self) -> usize {
        self.words.len() / WORDS
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
        // An empty table is all 0 already, and its untouched pages stay untouched (a
        // new player's first game clears its table).
        if self.used > 0 {
            self.words.fill(0);
        }
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
    pub fn probe(&self, key: u64) -> Option<Entry<M>> {
        let start = self.bucket(key) * WORDS;
        let bucket = &self.words[start..start + BUCKET * WORDS];
        bucket.chunks_exact(WORDS).find_map(|e| {
            let meta = e[1];
            let bound = bound_of(meta);
            (e[0] == key && bound != Bound::None).then(|| Entry {
                key,
                mv: (meta & HAS_MOVE != 0).then(|| M::unpack(e[2])),
                score: meta as u32 as i32,
                depth: depth_of(meta),
                bound,
                generation: generation_of(meta),
            })
        })
    }

    /// Store what a search found for `key` (see the module text for the replacement).
    #[inline]
    pub fn store(&mut self, key: u64, depth: i32, bound: Bound, score: i32, mv: Option<M>) {
        self.stores += 1;
        let generation = self.generation;
        let start = self.bucket(key) * WORDS;
        let bucket = &mut self.words[start..start + BUCKET * WORDS];
        let mut victim = 0;
        let mut worst = i32::MAX;
        for (i, e) in bucket.chunks_exact(WORDS).enumerate() {
            let meta = e[1];
            if bound_of(meta) == Bound::None {
                if worst > i32::MIN {
                    victim = i;
                    worst = i32::MIN;
                }
                continue;
            }
            if e[0] == key {
                victim = i;
                break;
            }
            let age = i32::from(generation.wrapping_sub(generation_of(meta)));
            let value = i32::from(depth_of(meta)) - 8 * age;
            if value < worst {
                worst = value;
                victim = i;
            }
        }
        let e = &mut bucket[victim * WORDS..(victim + 1) * WORDS];
        let (old_key, old_meta, old_move) = (e[0], e[1], e[2]);
        if bound_of(old_meta) == Bound::None {
            self.used += 1;
        }
        // A store without a move keeps the position's move.
        let mv = match mv {
            Some(m) => Some(m.pack()),
            None if old_key == key && old_meta & HAS_MOVE != 0 => Some(old_move),
            None => None,
        };
        let depth = depth.clamp(i16::MIN as i32, i16::MAX as i32) as i16;
        e[0] = key;
        e[1] = pack(score, depth, bound, generation, mv.is_some());
        e[2] = mv.unwrap_or(0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn size_comes_from_megabytes() {
        let bucket = BUCKET * Table::<u64>::ENTRY_BYTES;
        for mb in [1, 4, 64] {
            let t: Table<u64> = Table::new(mb).unwrap();
            let bytes = t.capacity() * Table::<u64>::ENTRY_BYTES;
            assert!(bytes <= (mb as usize) << 20 && bytes > (mb << 20) as usize - bucket);
            assert_eq!(t.capacity() % BUCKET, 0);
        }
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

    #[test]
    fn a_new_table_is_empty_and_scores_depths_and_moves_come_back_whole() {
        let mut t: Table<u64> = Table::new(1).unwrap();
        assert!(t.is_empty() && t.probe(0).is_none() && t.probe(7).is_none());
        let cases = [
            (
                1u64,
                i32::MIN,
                i32::from(i16::MIN),
                Bound::Upper,
                Some(u64::MAX),
            ),
            (2, i32::MAX, i32::from(i16::MAX), Bound::Lower, Some(0)),
            (3, -1, -1, Bound::Exact, None),
            (4, 0, 100_000, Bound::Exact, Some(1 << 63)), // depth clamped to i16::MAX
        ];
        for _ in 0..300 {
            t.new_search(); // generations wrap
        }
        for &(key, score, depth, bound, mv) in &cases {
            t.store(key, depth, bound, score, mv);
            let e = t.probe(key).unwrap();
            let depth = depth.clamp(i32::from(i16::MIN), i32::from(i16::MAX)) as i16;
            assert_eq!(
                (e.key, e.score, e.depth, e.bound, e.mv),
                (key, score, depth, bound, mv)
            );
            assert_eq!(e.generation, t.generation());
        }
    }

    #[test]
    fn moves_pack_into_a_word_and_back() {
        use crate::game::Game;
        let mut rng = crate::zobrist::Rng::new(5);
        let (mut moves, mut entries) = (Vec::new(), Vec::new());
        for _ in 0..200 {
            // extended play: relocations as well as placements
            let rules = crate::andantino::Rules {
                extended: true,
                extended_move_limit: 40,
                tiles_per_player: Some(6),
                ..Default::default()
            };
            let mut board = crate::andantino::Board::new(None, rules).unwrap();
            while board.result().is_none() && board.ply() < 60 {
                board.legal_moves(&mut moves);
                for &m in &moves {
                    assert_eq!(<crate::andantino::Move as TableMove>::unpack(m.pack()), m);
                }
                let Some(m) = board.random_move(&mut rng, &mut moves) else {
                    break;
                };
                board.push(m);
            }
            let rules = crate::abande::Rules::default();
            let mut board = crate::abande::Board::new(None, rules).unwrap();
            while board.result().is_none() {
                Game::legal_moves(&board, &mut entries);
                for &m in &entries {
                    assert_eq!(<crate::abande::Move as TableMove>::unpack(m.pack()), m);
                }
                let Some(m) = board.random_move(&mut rng, &mut entries) else {
                    break;
                };
                board.push(m);
            }
        }
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
