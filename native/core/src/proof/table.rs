//! The transposition table of the proof search: a fixed number of buckets (from a size
//! in megabytes) of [`BUCKET`] entries, each the full 64-bit key (the position's Zobrist
//! key mixed with the goal searched), its proof and disproof numbers, the move that
//! proved it (for the strategy) and the work spent below it.
//!
//! **Replacement**: an entry of the same key is overwritten; otherwise the bucket's
//! empty slot, else its entry with the least work (a settled entry, proof or disproof
//! number 0, counts as having more work than any unsettled one: it is the result the
//! search exists for). The memory is allocated once, fallibly, and never grows.

use crate::error::{Error, Result};

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

impl Entry {
    #[inline]
    fn keep_value(&self) -> u64 {
        let settled = self.pn == 0 || self.dn == 0;
        (u64::from(settled) << 32) | u64::from(self.work)
    }
}

/// The table.
pub struct Table {
    entries: Vec<Entry>,
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
        let per_bucket = (std::mem::size_of::<Entry>() * BUCKET) as u64;
        let mut buckets = (bytes / per_bucket).max(1);
        buckets = 1 << (63 - buckets.leading_zeros());
        let slots = buckets as usize * BUCKET;
        let mut entries = Vec::new();
        entries.try_reserve_exact(slots).map_err(|_| {
            Error::InvalidArgument(format!("no memory for a proof table of {mb} MB"))
        })?;
        entries.resize(slots, Entry::default());
        Ok(Table {
            entries,
            mask: buckets as usize - 1,
            used: 0,
        })
    }

    /// The table's size in bytes.
    pub fn bytes(&self) -> usize {
        self.entries.len() * std::mem::size_of::<Entry>()
    }

    /// The share of slots in use (0 to 1).
    pub fn fill(&self) -> f64 {
        self.used as f64 / self.entries.len() as f64
    }

    /// Forget every entry.
    pub fn clear(&mut self) {
        self.entries.iter_mut().for_each(|e| *e = Entry::default());
        self.used = 0;
    }

    #[inline]
    fn bucket(&self, key: u64) -> usize {
        ((key as usize) & self.mask) * BUCKET
    }

    /// The entry of `key`, if stored.
    #[inline]
    pub fn get(&self, key: u64) -> Option<&Entry> {
        let start = self.bucket(key);
        self.entries[start..start + BUCKET]
            .iter()
            .find(|e| e.key == key && key != 0)
    }

    /// Store an entry (see the module's replacement rule).
    pub fn put(&mut self, entry: Entry) {
        let key = entry.key;
        if key == 0 {
            return;
        }
        let start = self.bucket(key);
        let bucket = &mut self.entries[start..start + BUCKET];
        if let Some(e) = bucket.iter_mut().find(|e| e.key == key) {
            *e = entry;
            return;
        }
        if let Some(e) = bucket.iter_mut().find(|e| e.key == 0) {
            *e = entry;
            self.used += 1;
            return;
        }
        let victim = bucket
            .iter_mut()
            .min_by_key(|e| e.keep_value())
            .expect("a bucket has entries");
        if victim.keep_value() <= entry.keep_value() {
            *victim = entry;
        }
    }
}
