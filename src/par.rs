//! Work spread over every core with the `parallel` feature (rayon), or done in order on one
//! thread without it (a browser page has no threads). The results are the same either way.

/// Maps each chunk of `items` (of `chunk` items) with `map` and folds the results with `reduce`
/// from `identity`. `reduce` must be associative.
pub fn map_reduce_chunks<T, R>(
    items: &[T],
    chunk: usize,
    map: impl Fn(&[T]) -> R + Sync + Send,
    identity: impl Fn() -> R + Sync + Send,
    reduce: impl Fn(R, R) -> R + Sync + Send,
) -> R
where
    T: Sync,
    R: Send,
{
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        items.par_chunks(chunk).map(map).reduce(identity, reduce)
    }
    #[cfg(not(feature = "parallel"))]
    {
        items.chunks(chunk).map(map).fold(identity(), reduce)
    }
}

/// Maps each index of `range` with `map` and folds the results with `reduce` from `identity`.
/// `reduce` must be associative.
pub fn map_reduce_range<R: Send>(
    range: std::ops::Range<u64>,
    map: impl Fn(u64) -> R + Sync + Send,
    identity: impl Fn() -> R + Sync + Send,
    reduce: impl Fn(R, R) -> R + Sync + Send,
) -> R {
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        range.into_par_iter().map(map).reduce(identity, reduce)
    }
    #[cfg(not(feature = "parallel"))]
    {
        range.map(map).fold(identity(), reduce)
    }
}

/// Sorts `v` (unstable).
pub fn sort_unstable<T: Ord + Send>(v: &mut [T]) {
    #[cfg(feature = "parallel")]
    {
        use rayon::slice::ParallelSliceMut;
        v.par_sort_unstable();
    }
    #[cfg(not(feature = "parallel"))]
    v.sort_unstable();
}

/// The threads work is spread over.
pub fn threads() -> usize {
    #[cfg(feature = "parallel")]
    {
        rayon::current_num_threads().max(1)
    }
    #[cfg(not(feature = "parallel"))]
    1
}
