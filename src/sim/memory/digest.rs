//! Digests of global memory, whole and allocation by allocation, and what a launch changed in it: the memo
//! of repeated launches (`program/device/launch_memo.rs`) answers a launch that starts from memory equal to
//! an earlier one's start by making the changes that one made.

use super::{GlobalMemory, Padding};
use crate::sim::Zeroed;

/// Digests of everything in global memory a launch can read or be reported from (see
/// [`GlobalMemory::digests`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemDigest {
    /// Of all of it. Equal memories give equal digests; two that differ give equal ones by the chance of two
    /// 128-bit values being equal (the memo relies on it).
    pub whole: u128,
    /// Of the allocations' places, types and names, and which of them have written bits: what a launch
    /// leaves as it is.
    layout: u128,
    /// Of each allocation's bytes and written bits, in `allocs` order.
    parts: Vec<u128>,
    /// Of the bytes written next to allocations.
    padding: u128,
}

/// What a launch changed in global memory: the allocations whose bytes or written bits differ afterwards,
/// as they are afterwards, and the padding when it changed (see [`GlobalMemory::delta`]).
#[derive(Clone, Debug, Default)]
pub struct MemDelta {
    /// (index in `allocs`, bytes, written bits when tracked).
    allocs: Vec<(usize, Zeroed, Option<Vec<u64>>)>,
    padding: Option<Option<Box<Padding>>>,
}

impl MemDelta {
    /// The bytes it holds (what keeping it costs).
    pub fn bytes(&self) -> u64 {
        self.allocs
            .iter()
            .map(|(_, data, bits)| data.len() as u64 + bits.as_ref().map_or(0, |b| 8 * b.len() as u64))
            .sum()
    }

    /// Whether the launch changed nothing.
    pub fn is_empty(&self) -> bool {
        self.allocs.is_empty() && self.padding.is_none()
    }
}

impl GlobalMemory {
    /// The memory's digests: each allocation's place, type, name, bytes and written bits (`init`), and the
    /// padding's bytes, whole and part by part.
    pub fn digests(&self) -> MemDigest {
        let mut layout = Digest::default();
        let parts = (self.allocs.iter())
            .map(|a| {
                layout.words(&[a.base, a.len, a.elem as u64, a.name.len() as u64]);
                layout.bytes(a.name.as_bytes());
                let mut d = Digest::default();
                d.bytes(&a.data);
                if let Some((_, bytes, bits)) = self.written_bits(a.base) {
                    layout.word(*bytes);
                    d.words(bits);
                }
                d.finish()
            })
            .collect::<Vec<_>>();
        // Written bits of something no allocation holds (none today) count as layout.
        for (base, bytes, bits) in self.init.iter().flat_map(|i| &i.allocs) {
            if !self.allocs.iter().any(|a| a.base == *base) {
                layout.words(&[*base, *bytes]);
                layout.words(bits);
            }
        }
        let mut pad = Digest::default();
        if let Some(p) = &self.padding {
            let mut bytes: Vec<(u64, u8)> = p.bytes.iter().map(|(a, b)| (*a, *b)).collect();
            bytes.sort_unstable();
            bytes.into_iter().for_each(|(a, b)| pad.words(&[a, b as u64]));
        }
        let (layout, padding) = (layout.finish(), pad.finish());
        let mut whole = Digest::default();
        for d in std::iter::once(&layout).chain(&parts).chain([&padding]) {
            whole.words(&[*d as u64, (*d >> 64) as u64]);
        }
        MemDigest { whole: whole.finish(), layout, parts, padding }
    }

    /// What changed in this memory since it had the digests `before` (`after` being its digests now): None
    /// when allocations came or went (a launch that allocates is not given again).
    pub fn delta(&self, before: &MemDigest, after: &MemDigest) -> Option<MemDelta> {
        if before.layout != after.layout || before.parts.len() != after.parts.len() {
            return None;
        }
        let allocs = (before.parts.iter().zip(&after.parts).enumerate())
            .filter(|(_, (b, a))| b != a)
            .map(|(i, _)| {
                let a = &self.allocs[i];
                (i, a.data.clone(), self.written_bits(a.base).map(|t| t.2.clone()))
            })
            .collect();
        let padding = (before.padding != after.padding).then(|| self.padding.clone());
        Some(MemDelta { allocs, padding })
    }

    /// The initcheck entry (base, bytes, bits) of the allocation at `base`, when it is tracked.
    fn written_bits(&self, base: u64) -> Option<&(u64, u64, Vec<u64>)> {
        self.init.as_ref()?.allocs.iter().find(|a| a.0 == base)
    }

    /// Makes the changes `delta` holds, in memory with the digests its launch started from.
    pub fn apply(&mut self, delta: &MemDelta) {
        for (i, data, bits) in &delta.allocs {
            let a = &mut self.allocs[*i];
            a.data = data.clone();
            if let (Some(bits), Some(init)) = (bits, self.init.as_deref_mut()) {
                init.restore(vec![(a.base, bits.clone())]);
            }
        }
        if let Some(p) = &delta.padding {
            self.padding = p.clone();
        }
    }
}

/// Two chained multiply-xorshift streams over 64-bit words: fast enough to read a course's 100 MB of device
/// memory in milliseconds.
#[derive(Default)]
struct Digest(u64, u64, u64);

impl Digest {
    fn word(&mut self, w: u64) {
        self.0 = (self.0 ^ w).wrapping_mul(0x9e37_79b9_7f4a_7c15);
        self.0 ^= self.0 >> 32;
        self.1 = (self.1.wrapping_add(w) ^ 0x2545_f491_4f6c_dd1d).wrapping_mul(0xc2b2_ae3d_27d4_eb4f).rotate_left(29);
        self.2 += 1;
    }

    fn words(&mut self, ws: &[u64]) {
        ws.iter().for_each(|&w| self.word(w));
    }

    fn bytes(&mut self, b: &[u8]) {
        let mut chunks = b.chunks_exact(8);
        for c in &mut chunks {
            self.word(u64::from_le_bytes(c.try_into().unwrap_or_default()));
        }
        let mut last = [0u8; 8];
        last[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
        self.words(&[u64::from_le_bytes(last), b.len() as u64]);
    }

    fn finish(&self) -> u128 {
        let a = (self.0 ^ self.2).wrapping_mul(0xff51_afd7_ed55_8ccd);
        ((a ^ (a >> 33)) as u128) << 64 | self.1 as u128
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::Ty;
    use crate::sim::memory::{Allocation, InitShadow};

    fn memory() -> GlobalMemory {
        let alloc = |name: &str, base, len| Allocation {
            name: name.into(),
            base,
            elem: Ty::F32,
            len,
            data: Zeroed::new(4 * len as usize),
        };
        let mut init = InitShadow::default();
        init.track(0x1000, 64);
        GlobalMemory {
            allocs: vec![alloc("x", 0x1000, 16), alloc("y", 0x2000, 4)],
            init: Some(Box::new(init)),
            padding: Some(Box::default()),
            ..Default::default()
        }
    }

    #[test]
    fn a_delta_makes_the_launchs_changes_and_only_those() {
        let mut mem = memory();
        mem.allocs[0].data[..4].copy_from_slice(&1f32.to_le_bytes());
        let before = mem.digests();
        let start = mem.clone();
        // A launch: writes `y` and the written bits of `x`'s first element, and a byte of padding.
        mem.allocs[1].data[4..8].copy_from_slice(&2f32.to_le_bytes());
        mem.init.as_deref_mut().expect("tracked").mark(0x1000, 4);
        mem.padding.as_deref_mut().expect("padding").store(0x1040, 1, 7);
        let after = mem.digests();
        assert_ne!(before.whole, after.whole);
        let delta = mem.delta(&before, &after).expect("the same allocations");
        assert_eq!(delta.allocs.iter().map(|d| d.0).collect::<Vec<_>>(), [0, 1]);
        assert_eq!(delta.bytes(), 64 + 8 + 16);
        let mut again = start.clone();
        assert_eq!(again.digests(), before);
        again.apply(&delta);
        assert_eq!(again.digests(), after);
        assert_eq!(again.allocs[1].data[..], mem.allocs[1].data[..]);
        // Nothing changed: an empty delta.
        assert!(mem.delta(&after, &mem.digests()).is_some_and(|d| d.is_empty()));
    }

    #[test]
    fn allocations_that_come_or_go_give_no_delta() {
        let mut mem = memory();
        let before = mem.digests();
        mem.allocs.pop();
        assert_eq!(mem.delta(&before, &mem.digests()).map(|d| d.is_empty()), None);
        let mut renamed = memory();
        renamed.allocs[1].name = "z".into();
        assert_ne!(renamed.digests().whole, before.whole);
        assert_eq!(renamed.delta(&before, &renamed.digests()).map(|d| d.is_empty()), None);
    }
}
