//! Zero-filled byte buffers that cost memory only where they are written: the backing of device and host
//! allocations.
//!
//! A GPU lets a program reserve most of its memory (an H100: 80 GB) and touch a little of it (issue 33's
//! oversubscription programs allocate 1 to 30 GB and free it untouched). A `Vec` of that many zeros asks
//! the allocator for all of it at once, which the kernel refuses past the machine's memory (and warpdbg would
//! abort). Large buffers are therefore mapped anonymously without reserving swap (`MAP_NORESERVE`): the
//! kernel hands out zero pages on first write, so a 30 GB allocation of which a kernel writes 1 MB costs
//! 1 MB. Small buffers, and every buffer where there is no `mmap` (the page's wasm build), stay `Vec`s.

use std::ops::{Deref, DerefMut};

/// Buffers from this size up are mapped lazily (where that is possible); smaller ones are `Vec`s, whose
/// allocation is cheaper than a system call.
#[cfg(all(unix, feature = "native"))]
const MAP_FROM: usize = 1 << 20;

/// A zero-filled, fixed-length byte buffer (see the module's documentation).
pub struct Zeroed(Inner);

enum Inner {
    Owned(Vec<u8>),
    #[cfg(all(unix, feature = "native"))]
    Mapped(mapped::Mapping),
}

impl Zeroed {
    /// `len` zero bytes, or None when the system has no room for them (not even as a mapping: a program's
    /// `cudaMalloc` then fails with `cudaErrorMemoryAllocation`, as on a GPU, instead of aborting warpdbg).
    pub fn try_new(len: usize) -> Option<Zeroed> {
        #[cfg(all(unix, feature = "native"))]
        if len >= MAP_FROM {
            return mapped::Mapping::new(len).map(|m| Zeroed(Inner::Mapped(m)));
        }
        let mut v = Vec::new();
        v.try_reserve_exact(len).ok()?;
        v.resize(len, 0);
        Some(Zeroed(Inner::Owned(v)))
    }

    /// `len` zero bytes; aborts like any allocation where the system has no room (sizes warpdbg caps).
    pub fn new(len: usize) -> Zeroed {
        Zeroed::try_new(len).unwrap_or_else(|| Zeroed(Inner::Owned(vec![0; len])))
    }

    /// Whether the buffer is mapped lazily rather than held in a `Vec` (tests).
    pub fn is_lazy(&self) -> bool {
        match &self.0 {
            Inner::Owned(_) => false,
            #[cfg(all(unix, feature = "native"))]
            Inner::Mapped(_) => true,
        }
    }
}

/// Copies `src` into `dst` (of the same length) a page at a time, skipping pages that already hold the same
/// bytes: keeping a managed allocation's host and device copies level writes only the pages a launch or the
/// host changed, so pages both hold as zeros stay unbacked (reading an untouched page maps the system's
/// shared zero page; writing it costs a page of memory).
pub fn copy_changed(dst: &mut [u8], src: &[u8]) {
    const PAGE: usize = 4096;
    for (d, s) in dst.chunks_mut(PAGE).zip(src.chunks(PAGE)) {
        if d != s {
            d.copy_from_slice(s);
        }
    }
}

impl Default for Zeroed {
    fn default() -> Zeroed {
        Zeroed(Inner::Owned(Vec::new()))
    }
}

impl From<Vec<u8>> for Zeroed {
    /// Bytes already made (a launch's initialised arguments): kept as they are.
    fn from(v: Vec<u8>) -> Zeroed {
        Zeroed(Inner::Owned(v))
    }
}

impl Deref for Zeroed {
    type Target = [u8];
    #[inline]
    fn deref(&self) -> &[u8] {
        match &self.0 {
            Inner::Owned(v) => v,
            #[cfg(all(unix, feature = "native"))]
            Inner::Mapped(m) => m.bytes(),
        }
    }
}

impl DerefMut for Zeroed {
    #[inline]
    fn deref_mut(&mut self) -> &mut [u8] {
        match &mut self.0 {
            Inner::Owned(v) => v,
            #[cfg(all(unix, feature = "native"))]
            Inner::Mapped(m) => m.bytes_mut(),
        }
    }
}

impl Clone for Zeroed {
    /// A copy that stays as lazy as the original: pages that hold zeros are not written (a debugger snapshot
    /// of a program's 30 GB reservation costs what the program wrote).
    fn clone(&self) -> Zeroed {
        let mut c = Zeroed::new(self.len());
        copy_changed(&mut c, self);
        c
    }
}

impl PartialEq for Zeroed {
    fn eq(&self, other: &Zeroed) -> bool {
        **self == **other
    }
}

impl std::fmt::Debug for Zeroed {
    /// The length only: a buffer may be gigabytes.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Zeroed({} bytes)", self.len())
    }
}

#[cfg(all(unix, feature = "native"))]
mod mapped {
    use std::ptr::NonNull;

    /// An anonymous private mapping of `len` bytes, readable and writable, swap not reserved.
    pub(super) struct Mapping {
        ptr: NonNull<u8>,
        len: usize,
    }

    // SAFETY: the mapping is owned memory like a `Vec`'s; nothing else holds its address.
    unsafe impl Send for Mapping {}
    // SAFETY: shared access is only through `&[u8]`.
    unsafe impl Sync for Mapping {}

    impl Mapping {
        /// None when the system refuses the mapping.
        pub(super) fn new(len: usize) -> Option<Mapping> {
            #[cfg(any(target_os = "linux", target_os = "android"))]
            const FLAGS: libc::c_int = libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE;
            #[cfg(not(any(target_os = "linux", target_os = "android")))]
            const FLAGS: libc::c_int = libc::MAP_PRIVATE | libc::MAP_ANON;
            // SAFETY: a fresh anonymous mapping at an address the system picks; no existing memory is touched.
            let p = unsafe { libc::mmap(std::ptr::null_mut(), len, libc::PROT_READ | libc::PROT_WRITE, FLAGS, -1, 0) };
            if p == libc::MAP_FAILED {
                return None;
            }
            NonNull::new(p.cast::<u8>()).map(|ptr| Mapping { ptr, len })
        }

        pub(super) fn bytes(&self) -> &[u8] {
            // SAFETY: `ptr` maps `len` readable bytes (zero until written) for the mapping's lifetime.
            unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.len) }
        }

        pub(super) fn bytes_mut(&mut self) -> &mut [u8] {
            // SAFETY: as `bytes`, and `&mut self` makes this the only reference.
            unsafe { std::slice::from_raw_parts_mut(self.ptr.as_ptr(), self.len) }
        }
    }

    impl Drop for Mapping {
        fn drop(&mut self) {
            // SAFETY: unmaps exactly the mapping `new` made; no slice of it outlives `self`.
            unsafe {
                libc::munmap(self.ptr.as_ptr().cast(), self.len);
            }
        }
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::Zeroed;

    #[test]
    fn small_buffers_are_vecs_and_read_zero() {
        let mut z = Zeroed::new(100);
        assert!(!z.is_lazy());
        assert_eq!(z.len(), 100);
        assert!(z.iter().all(|&b| b == 0));
        z[7] = 9;
        let c = z.clone();
        assert_eq!(c[7], 9);
        assert_eq!(c, z);
    }

    /// 64 GiB, more than this machine (or any CI runner) has, written at both ends and in the middle: only the
    /// pages written cost memory.
    #[cfg(all(unix, feature = "native", target_pointer_width = "64"))]
    #[test]
    fn a_buffer_larger_than_memory_maps_lazily() {
        // (Under strict overcommit, `vm.overcommit_memory = 2`, the system refuses any mapping past its memory.)
        if std::fs::read_to_string("/proc/sys/vm/overcommit_memory").is_ok_and(|m| m.trim() == "2") {
            return;
        }
        let len = 64usize << 30;
        let mut z = Zeroed::try_new(len).expect("a lazy mapping of 64 GiB");
        assert!(z.is_lazy());
        assert_eq!(z.len(), len);
        z[0] = 1;
        z[len / 2] = 2;
        z[len - 1] = 3;
        assert_eq!((z[0], z[1], z[len / 2], z[len - 2], z[len - 1]), (1, 0, 2, 0, 3));
    }

    #[test]
    fn copy_changed_copies_every_byte() {
        let src: Vec<u8> = (0..10_000u32).map(|i| if (4096..8192).contains(&i) { 0 } else { i as u8 | 1 }).collect();
        let mut dst = vec![0u8; 10_000];
        dst[5000] = 7;
        super::copy_changed(&mut dst, &src);
        assert_eq!(dst, src);
    }
}
