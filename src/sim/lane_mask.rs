//! A set of lanes of one warp.

use std::fmt;

/// Bit `l` set = lane `l` is in the set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct LaneMask(pub u32);

impl LaneMask {
    pub const EMPTY: LaneMask = LaneMask(0);
    pub const FULL: LaneMask = LaneMask(u32::MAX);

    /// The lowest `n` lanes (n <= 32).
    pub fn first(n: u32) -> LaneMask {
        if n >= 32 { LaneMask::FULL } else { LaneMask((1u32 << n) - 1) }
    }

    pub fn lane(l: u32) -> LaneMask {
        LaneMask(1 << l)
    }

    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub fn count(self) -> u32 {
        self.0.count_ones()
    }

    pub fn contains(self, lane: u32) -> bool {
        lane < 32 && self.0 & (1 << lane) != 0
    }

    pub fn and(self, o: LaneMask) -> LaneMask {
        LaneMask(self.0 & o.0)
    }

    pub fn or(self, o: LaneMask) -> LaneMask {
        LaneMask(self.0 | o.0)
    }

    pub fn minus(self, o: LaneMask) -> LaneMask {
        LaneMask(self.0 & !o.0)
    }

    pub fn is_subset_of(self, o: LaneMask) -> bool {
        self.0 & !o.0 == 0
    }

    /// Lowest lane in the set.
    pub fn lowest(self) -> Option<u32> {
        (self.0 != 0).then(|| self.0.trailing_zeros())
    }

    /// Lanes in ascending order.
    pub fn iter(self) -> impl Iterator<Item = u32> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let l = bits.trailing_zeros();
            bits &= bits - 1;
            Some(l)
        })
    }

    /// `0x55555555`, as in traces.
    pub fn hex(self) -> String {
        format!("{:#010x}", self.0)
    }

    /// A bar of 32 cells, lane 0 first: `#` active, `.` inactive.
    pub fn bar(self) -> String {
        (0..32).map(|l| if self.contains(l) { '#' } else { '.' }).collect()
    }
}

impl fmt::Display for LaneMask {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.hex())
    }
}

/// A lane mask with the per-lane selects the data path writes through: word `l` of `select` is all ones when
/// lane `l` is active, zero otherwise. Built once per group of lanes in a few vector instructions; left to
/// the compiler, each instruction's lane loop rebuilt it lane by lane through the stack, and the vector load
/// of those narrow stores stalled on store forwarding at every issue.
#[derive(Clone, Copy, Debug)]
#[repr(C, align(32))]
pub struct ActiveLanes {
    pub select: [u64; 32],
    pub mask: LaneMask,
}

impl ActiveLanes {
    #[inline(always)]
    pub fn new(mask: LaneMask) -> ActiveLanes {
        let mut a = ActiveLanes { select: [0; 32], mask: LaneMask::EMPTY };
        a.set(mask);
        a
    }

    /// Becomes `mask`'s lanes, in place (a new value would be built aside and copied); nothing to do when
    /// they are the same lanes.
    #[inline(always)]
    pub fn set(&mut self, mask: LaneMask) {
        if mask == self.mask {
            return;
        }
        for (l, s) in self.select.iter_mut().enumerate() {
            *s = 0u64.wrapping_sub((mask.0 as u64 >> l) & 1);
        }
        self.mask = mask;
    }

    /// `v` where lane `l` is active, `old` where it is not.
    #[inline(always)]
    pub fn pick(&self, l: usize, v: u64, old: u64) -> u64 {
        (v & self.select[l]) | (old & !self.select[l])
    }
}

/// Compact ranges of numbers: `0-23`, `0,2,4,...,62`, `1,5,9-12`.
pub fn format_ranges(ids: &[u32]) -> String {
    if ids.is_empty() {
        return "none".into();
    }
    // An arithmetic progression with step > 1 and at least 4 terms reads best as `a,b,c,...,z`.
    if ids.len() >= 4 {
        let step = ids[1].wrapping_sub(ids[0]);
        if step > 1 && ids.windows(2).all(|w| w[1].wrapping_sub(w[0]) == step) {
            return format!("{},{},{},...,{}", ids[0], ids[1], ids[2], ids[ids.len() - 1]);
        }
    }
    let mut parts = vec![];
    let mut i = 0;
    while i < ids.len() {
        let mut j = i;
        while j + 1 < ids.len() && ids[j + 1] == ids[j] + 1 {
            j += 1;
        }
        parts.push(if j > i { format!("{}-{}", ids[i], ids[j]) } else { ids[i].to_string() });
        i = j + 1;
    }
    parts.join(",")
}

/// "thread 5" or "threads 0,2,4,...,62": the noun agrees with the count.
pub fn threads_phrase(ids: &[u32]) -> String {
    if ids.len() == 1 { format!("thread {}", ids[0]) } else { format!("threads {}", format_ranges(ids)) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges() {
        assert_eq!(format_ranges(&[0, 1, 2, 3, 7]), "0-3,7");
        assert_eq!(format_ranges(&(0..32).map(|i| i * 2).collect::<Vec<_>>()), "0,2,4,...,62");
        assert_eq!(format_ranges(&[5]), "5");
        assert_eq!(format_ranges(&[]), "none");
    }

    #[test]
    fn active_lanes_select_exactly_the_mask() {
        for m in [0u32, 1, 0x8000_0000, 0x5555_5555, u32::MAX, 0x0f0f_00f1] {
            let act = ActiveLanes::new(LaneMask(m));
            for l in 0..32 {
                let on = m >> l & 1 != 0;
                assert_eq!(act.select[l], if on { u64::MAX } else { 0 });
                assert_eq!(act.pick(l, 7, 9), if on { 7 } else { 9 });
            }
        }
    }

    #[test]
    fn iter_and_bar() {
        let m = LaneMask(0b1011);
        assert_eq!(m.iter().collect::<Vec<_>>(), vec![0, 1, 3]);
        assert_eq!(&m.bar()[..5], "##.#.");
        assert_eq!(LaneMask::first(24).hex(), "0x00ffffff");
    }
}
