//! How a launch used every 128-byte line it touched: which blocks, how many sectors, how often (the
//! footprint the timing model prices, and the reuse caches may serve).

/// How one 128-byte line was used in a launch: by which blocks, how often, which of its sectors.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LineUse {
    /// The lowest and highest linear block index that touched it.
    pub first: u32,
    pub last: u32,
    /// Sectors requested in it, over all requests (a sector asked for twice counts twice).
    pub touches: u32,
    /// Its sectors read (bits 0-3) and written (bits 4-7).
    pub sectors: u8,
}

impl LineUse {
    /// Adds another run's use of the same line: the result does not depend on the order of runs.
    fn merge(&mut self, o: &LineUse) {
        if o.touches == 0 {
            return;
        }
        if self.touches == 0 {
            *self = *o;
            return;
        }
        self.first = self.first.min(o.first);
        self.last = self.last.max(o.last);
        self.touches = self.touches.saturating_add(o.touches);
        self.sectors |= o.sectors;
    }
}

/// Lines per chunk of a [`LineMap`] (128 KB of memory).
const CHUNK_LINES: u64 = 1024;

/// Every line a launch touched, in chunks sorted by address: its footprint and its reuse. Merging two runs'
/// maps (blocks run on other cores) gives what one run of all their blocks gives, in any order.
#[derive(Clone, Default)]
pub struct LineMap {
    chunks: Vec<(u64, Box<[LineUse; CHUNK_LINES as usize]>)>,
    /// The chunks the last requests hit, newest first: a warp's next request is usually in one of them
    /// (`c[i] = a[i] + b[i]` goes round three arrays).
    recent: [usize; 4],
}

/// The lines only: `recent` is a cache, which a whole run and single-stepping leave in different orders.
impl std::fmt::Debug for LineMap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LineMap").field("chunks", &self.chunks).finish()
    }
}

impl LineMap {
    #[inline(always)]
    fn chunk(&mut self, key: u64) -> &mut [LineUse; CHUNK_LINES as usize] {
        // (The newest chunk, tested inline: a run of requests stays in one chunk for 128 KB.)
        let i = self.recent[0];
        if self.chunks.get(i).is_some_and(|c| c.0 == key) {
            return &mut self.chunks[i].1;
        }
        self.chunk_slow(key)
    }

    #[inline(never)]
    fn chunk_slow(&mut self, key: u64) -> &mut [LineUse; CHUNK_LINES as usize] {
        let hit = self.recent.iter().position(|&i| self.chunks.get(i).is_some_and(|c| c.0 == key));
        let i = match hit {
            Some(0) => self.recent[0],
            Some(k) => {
                let i = self.recent[k];
                self.recent.copy_within(0..k, 1);
                self.recent[0] = i;
                i
            }
            None => {
                let i = match self.chunks.binary_search_by_key(&key, |c| c.0) {
                    Ok(i) => i,
                    Err(i) => {
                        self.chunks.insert(i, (key, Box::new([LineUse::default(); CHUNK_LINES as usize])));
                        // (The chunks after it moved up one.)
                        self.recent = [usize::MAX; 4];
                        i
                    }
                };
                self.recent.copy_within(0..3, 1);
                self.recent[0] = i;
                i
            }
        };
        &mut self.chunks[i].1
    }

    /// Block `block` asked for the sectors `first..=last` (one request's run of consecutive sectors).
    pub(super) fn touch(&mut self, block: u32, first: u64, last: u64, write: bool, read: bool) {
        let mut s = first;
        while s <= last {
            let line = s / 4;
            let end = last.min(line * 4 + 3);
            let chunk = self.chunk(line / CHUNK_LINES);
            let u = &mut chunk[(line % CHUNK_LINES) as usize];
            if u.touches == 0 {
                (u.first, u.last) = (block, block);
            } else {
                u.first = u.first.min(block);
                u.last = u.last.max(block);
            }
            u.touches = u.touches.saturating_add((end - s + 1) as u32);
            let bits = ((1u8 << (end - s + 1)) - 1) << (s % 4);
            u.sectors |= if read { bits } else { 0 } | if write { bits << 4 } else { 0 };
            s = end + 1;
        }
    }

    pub(super) fn merge(&mut self, o: &LineMap) {
        for (k, c) in &o.chunks {
            for (a, b) in self.chunk(*k).iter_mut().zip(c.iter()) {
                a.merge(b);
            }
        }
    }

    /// Every line touched.
    pub fn lines(&self) -> impl Iterator<Item = &LineUse> {
        self.chunks.iter().flat_map(|c| c.1.iter()).filter(|u| u.touches > 0)
    }

    /// Sectors read and sectors written at least once (the launch's footprints).
    pub fn footprints(&self) -> (u64, u64) {
        self.lines().fold((0, 0), |(r, w), u| {
            (r + (u.sectors & 15).count_ones() as u64, w + (u.sectors >> 4).count_ones() as u64)
        })
    }

    /// Memory the map holds.
    pub fn heap_bytes(&self) -> usize {
        self.chunks.capacity() * 16 + self.chunks.len() * CHUNK_LINES as usize * size_of::<LineUse>()
    }
}

impl PartialEq for LineMap {
    /// The lines touched and how (which chunk was hit last is not part of it).
    fn eq(&self, o: &LineMap) -> bool {
        self.lines().eq(o.lines())
    }
}
