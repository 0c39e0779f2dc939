//! Heap buffers with a chosen alignment, for O_DIRECT (which needs the buffer address aligned
//! to the logical block size) and for page-aligned transfers in general.

use std::alloc::{self, Layout};
use std::ops::{Deref, DerefMut};
use std::ptr::NonNull;

/// A zeroed heap buffer whose address is a multiple of `align`.
pub struct AlignedBuf {
    ptr: NonNull<u8>,
    len: usize,
    align: usize,
}

// SAFETY: the buffer owns its allocation exclusively, like a `Vec<u8>`; shared access only
// hands out `&[u8]`.
unsafe impl Send for AlignedBuf {}
unsafe impl Sync for AlignedBuf {}

impl AlignedBuf {
    /// Allocates `len` zeroed bytes aligned to `align` (a power of two; 0 is taken as 1).
    ///
    /// Panics if `align` is not a power of two (a programming error, not an I/O condition);
    /// aborts through `handle_alloc_error` when memory is exhausted, as `Vec` does.
    pub fn new(len: usize, align: usize) -> Self {
        let align = align.max(1);
        assert!(
            align.is_power_of_two(),
            "AlignedBuf alignment {align} is not a power of two"
        );
        if len == 0 {
            // A zero-size allocation is not allowed; a dangling pointer at `align` is aligned,
            // non-null and never dereferenced for a zero-length slice.
            let ptr = NonNull::new(align as *mut u8).expect("align is non-zero");
            return AlignedBuf { ptr, len, align };
        }
        let layout = Self::layout(len, align);
        // SAFETY: `layout` has a non-zero size.
        let raw = unsafe { alloc::alloc_zeroed(layout) };
        let ptr = NonNull::new(raw).unwrap_or_else(|| alloc::handle_alloc_error(layout));
        AlignedBuf { ptr, len, align }
    }

    fn layout(len: usize, align: usize) -> Layout {
        Layout::from_size_align(len, align)
            .unwrap_or_else(|_| panic!("AlignedBuf of {len} bytes aligned to {align} is too large"))
    }

    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The alignment the buffer was created with.
    pub fn align(&self) -> usize {
        self.align
    }

    pub fn as_ptr(&self) -> *const u8 {
        self.ptr.as_ptr()
    }

    pub fn as_mut_ptr(&mut self) -> *mut u8 {
        self.ptr.as_ptr()
    }

    pub fn as_slice(&self) -> &[u8] {
        // SAFETY: `ptr` is valid for `len` initialised (zeroed) bytes, or dangling with len 0.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
    }

    pub fn as_mut_slice(&mut self) -> &mut [u8] {
        // SAFETY: as in `as_slice`, and `&mut self` guarantees exclusive access.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
    }
}

impl Deref for AlignedBuf {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        self.as_slice()
    }
}

impl DerefMut for AlignedBuf {
    fn deref_mut(&mut self) -> &mut [u8] {
        self.as_mut_slice()
    }
}

impl Drop for AlignedBuf {
    fn drop(&mut self) {
        if self.len != 0 {
            // SAFETY: allocated in `new` with exactly this layout.
            unsafe { alloc::dealloc(self.ptr.as_ptr(), Self::layout(self.len, self.align)) };
        }
    }
}

impl std::fmt::Debug for AlignedBuf {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AlignedBuf")
            .field("ptr", &self.ptr)
            .field("len", &self.len)
            .field("align", &self.align)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aligned_and_zeroed() {
        for &(len, align) in &[
            (1usize, 1usize),
            (4096, 4096),
            (10_000, 4096),
            (3, 64),
            (1 << 20, 1 << 16),
        ] {
            let b = AlignedBuf::new(len, align);
            assert_eq!(b.len(), len);
            assert_eq!(b.as_ptr() as usize % align, 0, "len {len} align {align}");
            assert!(b.iter().all(|&x| x == 0));
        }
    }

    #[test]
    fn zero_length_works() {
        let mut b = AlignedBuf::new(0, 4096);
        assert!(b.is_empty());
        assert_eq!(b.as_slice(), &[] as &[u8]);
        assert_eq!(b.as_mut_slice().len(), 0);
        assert_eq!(b.as_ptr() as usize % 4096, 0);
    }

    #[test]
    fn writable_through_deref() {
        let mut b = AlignedBuf::new(8192, 4096);
        b[..4].copy_from_slice(b"abcd");
        b.as_mut_slice()[8191] = 7;
        assert_eq!(&b[..4], b"abcd");
        assert_eq!(b.as_slice()[8191], 7);
    }

    #[test]
    fn send_and_sync() {
        fn check<T: Send + Sync>() {}
        check::<AlignedBuf>();
        let b = AlignedBuf::new(100, 512);
        let h = std::thread::spawn(move || b.len());
        assert_eq!(h.join().unwrap(), 100);
    }
}
