//! The transposition table of the proof search: a fixed number of buckets (from a size
//! in megabytes) of [`BUCKET`] entries, each the full 64-bit key (the position's Zobrist
//! key mixed with the goal searched), its proof and disproof numbers, the move that
//! proved it (for the strategy) and the work spent below it.
//!
//! **Replacement**: an entry of the same key is overwritten; otherwise the bucket's
//! empty slot, else its entry with the least work (a settled entry, proof or disproof
//! number 0, counts as having more work than any unsettled one: it is the result the
//! search exists for). The memory is allocated once, fallibly, zeroed by the system
//! (so a table of gigabytes costs its pages only as the search reaches them, and
//! making it takes no time), and never grows: each entry is four 64-bit words.

use crate::error::{Error, Result};
use crate::memory::zeroed_words;

/// Entries in one bucket.
pub const BUCKET: usize = 4;
/// The largest table accepted, in megabytes (64 GiB).
pub const MAX_MB: u64 = 1 << 16;

/// One entry.
#[derive(Clone, Copy, Debug, Default)]
pub struct Entry {
    /// The key (0: an empty slot).
    pub key: u64,
    pub pn: u32,
    pub dn: u32,
    /// The id ([`crate::Game::move_id`]) of the move that proved the node (an OR node's
    /// winning move), when `has_best`.
    pub best: u64,
    /// Nodes searched below the entry when it was stored (saturating).
    pub work: u32,
    /// Whether `best` holds a move.
    pub has_best: bool,
}

/// Words of an entry in the table.
const WORDS: usize = 4;
/// Words of a cache line.
const LINE_WORDS: usize = 8;
/// Words from an entry's key to its move (the second half of a bucket).
const COLD: usize = BUCKET * 2;

impl Entry {
    /// The entry's four words (the key first: 0 for an empty slot).
    #[inline]
    fn pack(&self) -> [u64; WORDS] {
        [
            self.key,
            (u64::from(self.pn) << 32) | u64::from(self.dn),
            self.best,
            (u64::from(self.work) << 1) | u64::from(self.has_best),
        ]
    }

    #[inline]
    fn unpack(w: [u64; WORDS]) -> Entry {
        Entry {
            key: w[0],
            pn: (w[1] >> 32) as u32,
            dn: w[1] as u32,
            best: w[2],
            work: (w[3] >> 1) as u32,
            has_best: w[3] & 1 == 1,
        }
    }

    #[inline]
    fn keep_value(&self) -> u64 {
        let settled = self.pn == 0 || self.dn == 0;
        (u64::from(settled) << 32) | u64::from(self.work)
    }
}

/// The table.
pub struct Table {
    /// The entries' words, [`WORDS`] an entry, [`BUCKET`] entries a bucket: a bucket's
    /// keys and numbers (two words an entry) fill its first cache line, their moves and
    /// work (two words an entry, at [`COLD`] words from the first two) the second, so
    /// that reading a child's numbers, the search's most frequent look, waits for one
    /// line of memory.
    words: Vec<u64>,
    /// The first word of the first bucket: buckets start on a cache line (64 bytes).
    base: usize,
    mask: usize,
    /// Slots holding an entry.
    used: usize,
}

impl Table {
    /// A table of about `mb` megabytes (a power of two of buckets, at least one).
    ///
    /// Errors: `Error::InvalidArgument` for 0 or more than [`MAX_MB`], or when the
    /// memory cannot be had.
    pub fn new(mb: u64) -> Result<Table> {
        if mb == 0 || mb > MAX_MB {
            return Err(Error::InvalidArgument(format!(
                "the proof table's size is 1 to {MAX_MB} MB, not {mb}"
            )));
        }
        let bytes = mb << 20;
        let per_bucket = (8 * WORDS * BUCKET) as u64;
        let mut buckets = (bytes / per_bucket).max(1);
        buckets = 1 << (63 - buckets.leading_zeros());
        // (a cache line's words more, for the alignment of the buckets)
        let count = buckets as usize * BUCKET * WORDS + LINE_WORDS;
        let words = zeroed_words(count).ok_or_else(|| {
            Error::InvalidArgument(format!("no memory for a proof table of {mb} MB"))
        })?;
        advise_huge_pages(&words);
        let base = words.as_ptr().align_offset(8 * LINE_WORDS).min(LINE_WORDS);
        Ok(Table {
            words,
            base,
            mask: buckets as usize - 1,
            used: 0,
        })
    }

    /// The table's size in bytes.
    pub fn bytes(&self) -> usize {
        self.words.len() * 8
    }

    /// The share of slots in use (0 to 1).
    pub fn fill(&self) -> f64 {
        self.used as f64 / ((self.mask + 1) * BUCKET) as f64
    }

    /// Forget every entry.
    pub fn clear(&mut self) {
        self.words.fill(0);
        self.used = 0;
    }

    /// The index of the first word of `key`'s bucket.
    #[inline]
    fn bucket(&self, key: u64) -> usize {
        self.base + ((key as usize) & self.mask) * BUCKET * WORDS
    }

    /// Ask the processor to bring the keys and numbers of `key`'s bucket into the cache
    /// (a hint: nothing is read or changed), so that a [`Table::numbers`] of it soon
    /// after does not wait for memory. The search asks for every child of a node first and reads them after,
    /// so that the misses overlap rather than follow each other.
    #[inline]
    pub fn prefetch(&self, key: u64) {
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
            let start = self.bucket(key);
            let keys = &self.words[start..start + COLD];
            // SAFETY: a prefetch reads no memory and faults on no address; this is the
            // bucket's first cache line (its keys and numbers), inside the table.
            unsafe {
                _mm_prefetch::<_MM_HINT_T0>(keys.as_ptr().cast::<i8>());
            }
        }
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
    }

    /// The slot (index of its key's word) of `key` in its bucket, if stored.
    #[inline]
    fn find(&self, start: usize, key: u64) -> Option<usize> {
        (0..BUCKET)
            .map(|i| start + 2 * i)
            .find(|&w| self.words[w] == key)
    }

    /// The entry on the slot `w`.
    #[inline]
    fn entry_at(&self, w: usize) -> Entry {
        let ws = &self.words;
        Entry::unpack([ws[w], ws[w + 1], ws[w + COLD], ws[w + COLD + 1]])
    }

    /// The entry of `key`, if stored.
    #[inline]
    pub fn get(&self, key: u64) -> Option<Entry> {
        if key == 0 {
            return None;
        }
        let w = self.find(self.bucket(key), key)?;
        Some(self.entry_at(w))
    }

    /// The proof and disproof numbers of `key`, if stored (one cache line read).
    #[inline]
    pub fn numbers(&self, key: u64) -> Option<(u32, u32)> {
        if key == 0 {
            return None;
        }
        let w = self.find(self.bucket(key), key)?;
        let n = self.words[w + 1];
        Some(((n >> 32) as u32, n as u32))
    }

    /// Store an entry (see the module's replacement rule).
    pub fn put(&mut self, entry: Entry) {
        let key = entry.key;
        if key == 0 {
            return;
        }
        let start = self.bucket(key);
        let slot = if let Some(w) = self.find(start, key) {
            w
        } else if let Some(w) = self.find(start, 0) {
            self.used += 1;
            w
        } else {
            let victim = (0..BUCKET)
                .map(|i| start + 2 * i)
                .min_by_key(|&w| self.entry_at(w).keep_value())
                .expect("a bucket has entries");
            if self.entry_at(victim).keep_value() > entry.keep_value() {
                return;
            }
            victim
        };
        let [key, numbers, best, work] = entry.pack();
        self.words[slot] = key;
        self.words[slot + 1] = numbers;
        self.words[slot + COLD] = best;
        self.words[slot + COLD + 1] = work;
    }
}

/// Ask the system to back the table with huge pages (2 MB) where it can: every probe of
/// the table goes to a random place in it, and with pages of 4 KB nearly every one also
/// misses the processor's cache of page addresses (the TLB), doubling its wait for
/// memory. Advice only: the table is the same memory either way, and where the system
/// does not follow it (or another system) nothing changes but the speed.
#[cfg(target_os = "linux")]
fn advise_huge_pages(words: &[u64]) {
    extern "C" {
        fn madvise(addr: *mut std::ffi::c_void, len: usize, advice: i32) -> i32;
    }
    /// `MADV_HUGEPAGE` of Linux's `<sys/mman.h>`.
    const MADV_HUGEPAGE: i32 = 14;
    const HUGE: usize = 2 << 20;
    let start = words.as_ptr() as usize;
    let end = start + std::mem::size_of_val(words);
    // the whole huge pages inside the allocation
    let (lo, hi) = ((start + HUGE - 1) & !(HUGE - 1), end & !(HUGE - 1));
    if hi > lo {
        // SAFETY: madvise with MADV_HUGEPAGE changes no memory's contents (only how the
        // system backs it); the range is page-aligned and inside the table's allocation,
        // which outlives no use of it here. Its result is advice taken or not: ignored.
        unsafe {
            madvise(lo as *mut std::ffi::c_void, hi - lo, MADV_HUGEPAGE);
        }
    }
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_words: &[u64]) {}
