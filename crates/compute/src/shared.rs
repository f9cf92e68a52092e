//! Shared access to a slice that parallel tile tasks write at disjoint places.
//!
//! Every `unsafe` of the engine goes through this type. The tiled fill must let several tasks
//! write their own tiles of one table while reading tiles finished in earlier tile-waves; the
//! sparse-space fill lets two workers finish heaps of one wave. Safe Rust cannot express
//! "disjoint, irregular parts of one slice, plus reads of other parts"; copying would double the
//! memory. So the table (and the per-line state) is reached through a raw pointer, under the
//! contract on [`Shared::get`] and [`Shared::get_mut`], which `store.rs` (the dense store and a
//! rank's window of rows) and `sparse.rs` (the pipeline of heaps) uphold and document at each
//! use.

use std::marker::PhantomData;

/// A slice whose elements parallel tasks access through a raw pointer, by index from `first`
/// (0 for a whole table; a band of rows held by one rank of a distributed fill is reached by the
/// table's own flat indices).
pub(crate) struct Shared<'a, T> {
    ptr: *mut T,
    len: usize,
    first: usize,
    _borrow: PhantomData<&'a mut [T]>,
}

// SAFETY: `Shared` only hands out access under the contract of `get` and `get_mut`, which rules
// out data races on the elements. Sharing a `&Shared` hands `&T` (from `get`, `slice`) to several
// threads at once, which needs `T: Sync`, and `&mut T` (from `get_mut`) lets a thread move values
// in and out, which needs `T: Send` (as `&mut [T]: Sync` needs `T: Sync`, and `Send` needs
// `T: Send`).
unsafe impl<T: Send + Sync> Sync for Shared<'_, T> {}
// SAFETY: sending the view sends the exclusive borrow of the slice: `&mut [T]: Send` needs
// `T: Send`.
unsafe impl<T: Send> Send for Shared<'_, T> {}

impl<'a, T> Shared<'a, T> {
    /// Shares `slice` for the lifetime of the borrow.
    pub(crate) fn new(slice: &'a mut [T]) -> Shared<'a, T> {
        Shared::starting_at(slice, 0)
    }

    /// Shares `slice`, whose first element has index `first`.
    pub(crate) fn starting_at(slice: &'a mut [T], first: usize) -> Shared<'a, T> {
        Shared { ptr: slice.as_mut_ptr(), len: slice.len(), first, _borrow: PhantomData }
    }

    /// Whether `index` is one of the shared elements.
    #[inline]
    pub(crate) fn holds(&self, index: usize) -> bool {
        index.wrapping_sub(self.first) < self.len
    }

    /// The element at `index`.
    ///
    /// # Safety
    /// No other thread may write `index` while the reference lives, and every write to it by
    /// another thread must happen-before this call (in the tiled fill: it was written in an
    /// earlier tile-wave, and rayon's join between waves orders the two).
    #[inline]
    pub(crate) unsafe fn get(&self, index: usize) -> &T {
        let at = index.wrapping_sub(self.first);
        assert!(at < self.len);
        // SAFETY: in bounds (checked above); no concurrent writer, by the caller's contract.
        unsafe { &*self.ptr.add(at) }
    }

    /// The `len` elements from `start`, as a slice.
    ///
    /// # Safety
    /// As for [`Shared::get`], for every element of the range, while the slice lives.
    #[inline]
    pub(crate) unsafe fn slice(&self, start: usize, len: usize) -> &[T] {
        let at = start.wrapping_sub(self.first);
        assert!(at <= self.len && len <= self.len - at);
        // SAFETY: in bounds (checked above); no concurrent writer, by the caller's contract.
        unsafe { std::slice::from_raw_parts(self.ptr.add(at), len) }
    }

    /// The element at `index`, to change.
    ///
    /// # Safety
    /// No other thread may read or write `index` while the reference lives.
    #[inline]
    #[allow(clippy::mut_from_ref)]
    pub(crate) unsafe fn get_mut(&self, index: usize) -> &mut T {
        let at = index.wrapping_sub(self.first);
        assert!(at < self.len);
        // SAFETY: in bounds (checked above); exclusive, by the caller's contract.
        unsafe { &mut *self.ptr.add(at) }
    }

    /// The `len` elements from `start`, to change.
    ///
    /// # Safety
    /// As for [`Shared::get_mut`], for every element of the range, while the slice lives.
    #[inline]
    #[allow(clippy::mut_from_ref)]
    pub(crate) unsafe fn slice_mut(&self, start: usize, len: usize) -> &mut [T] {
        let at = start.wrapping_sub(self.first);
        assert!(at <= self.len && len <= self.len - at);
        // SAFETY: in bounds (checked above); exclusive, by the caller's contract.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.add(at), len) }
    }
}

#[cfg(test)]
mod tests {
    use super::Shared;
    use std::cell::Cell;

    // Issue 13: `Sync` once required only `T: Send`, so a `&Shared<Cell<u8>>` shared between
    // threads handed the same `&Cell` to both. A shared view needs `T: Sync`.
    static_assertions::assert_not_impl_any!(Shared<'static, Cell<u8>>: Sync);
    static_assertions::assert_impl_all!(Shared<'static, u8>: Sync, Send);
    static_assertions::assert_impl_all!(Shared<'static, Cell<u8>>: Send);
}
