//! Memory for the search tables.

/// `count` words of 0 from the allocator's zeroed allocation (calloc: the system gives
/// their pages as they are first touched, so a big table costs nothing until it is
/// used), or `None` when the memory cannot be had: a fallible reservation is tried
/// first and given back, since `vec![0; n]` itself would abort.
pub(crate) fn zeroed_words(count: usize) -> Option<Vec<u64>> {
    let mut words: Vec<u64> = Vec::new();
    words.try_reserve_exact(count).ok()?;
    drop(words);
    Some(vec![0u64; count])
}
