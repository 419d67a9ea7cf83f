//! Atomics whose order cannot show, so whole runs may keep them (`machine/parallel.rs`): a course's
//! histogram (`atomicAdd(&bins[v], 1)`) or a reduction's last step (`atomicAdd(sum, blockSum)`).
//!
//! An atomic commutes when nothing reads what it returns (its result register is dead) and its operation
//! gives the same final value in any order: integer add, subtract, and, or, xor, min and max (exact, wrapping),
//! and floating-point add and subtract *when the sums are exact* ([`ExactSums`]: checked as the run goes, since
//! it depends on the values). The whole run then still refuses when anything else touches the bytes such
//! atomics update while they do (another warp of the block in the same barrier interval, or any other access
//! of any block for global memory), or when two kinds of commuting atomic meet on the same bytes.

use crate::front::tast::AtomicOp;
use crate::ir::{Instr, Kernel, Ty, liveness};

/// The kind of access of a whole run's touched range: plain reads and writes, or a commuting atomic of a
/// kind (accesses of one kind commute with each other and with nothing else).
pub type AccessKind = u8;
/// A plain read.
pub const READ: AccessKind = 0;
/// A plain write, or an atomic that does not commute.
pub const WRITE: AccessKind = 1;

/// Per instruction, the kind of its accesses in a whole run: [`WRITE`] for stores and atomics whose order
/// could show, a kind of its own (2 and up) per operation class and type for the atomics that commute,
/// [`READ`] otherwise.
pub fn access_kinds(kernel: &Kernel) -> Vec<AccessKind> {
    let dead = dead_results(kernel);
    kernel
        .instrs
        .iter()
        .enumerate()
        .map(|(pc, i)| match *i {
            Instr::Store { .. } => WRITE,
            Instr::Atomic { op, ty, .. } if dead[pc] => commute_kind(op, ty).unwrap_or(WRITE),
            Instr::Atomic { .. } => WRITE,
            _ => READ,
        })
        .collect()
}

/// Does every atomic of `kernel` commute (see [`access_kinds`])?
pub fn all_atomics_commute(kinds: &[AccessKind], kernel: &Kernel) -> bool {
    kernel.instrs.iter().zip(kinds).all(|(i, k)| !matches!(i, Instr::Atomic { .. }) || *k > WRITE)
}

/// The kind of an atomic whose result is unused, None when its order shows in memory. Add and subtract are one
/// kind (`a - x + y` in any order); each type is its own (the same bytes updated as `int` and as `float` do
/// not commute).
fn commute_kind(op: AtomicOp, ty: Ty) -> Option<AccessKind> {
    let class = match op {
        AtomicOp::Add | AtomicOp::Sub => 0,
        AtomicOp::And if !is_float(ty) => 1,
        AtomicOp::Or if !is_float(ty) => 2,
        AtomicOp::Xor if !is_float(ty) => 3,
        // (Floating-point min and max may pick either zero of `-0.0` and `+0.0`.)
        AtomicOp::Min if !is_float(ty) => 4,
        AtomicOp::Max if !is_float(ty) => 5,
        _ => return None,
    };
    let ty = match ty {
        Ty::I32 => 0,
        Ty::U32 => 1,
        Ty::I64 => 2,
        Ty::U64 => 3,
        Ty::F32 => 4,
        Ty::F64 => 5,
        _ => return None,
    };
    Some(2 + class * 6 + ty)
}

fn is_float(ty: Ty) -> bool {
    matches!(ty, Ty::F32 | Ty::F64)
}

/// Per instruction: it writes a register nothing reads after it.
fn dead_results(kernel: &Kernel) -> Vec<bool> {
    let live_in = liveness::live_in(kernel);
    let mut dead = vec![false; kernel.instrs.len()];
    for (b, block) in kernel.blocks.iter().enumerate() {
        // `walk` calls back at each write, last first.
        let mut writers = (block.start.0..block.end.0).rev().filter(|&pc| kernel.instrs[pc as usize].dst().is_some());
        liveness::walk(kernel, b, liveness::live_out(kernel, b, &live_in), &mut |dst, live| {
            if let Some(pc) = writers.next() {
                dead[pc as usize] = !live[dst];
            }
        });
    }
    dead
}

/// Whether a whole run's floating-point atomic sums come out the same in any order: every value added (and
/// every value found at the address) is a multiple of `2^low`, and their magnitudes add up to less than
/// `2^(low + p)` for the type's `p`-bit significand, so every partial sum in any order is exact. Integers
/// summed as floats (a count, `rand() % 10`) are; `0.1f` summed a million times is not, and the run refuses.
#[derive(Clone, Copy, Debug)]
pub struct ExactSums {
    /// Per type (f32, f64): the lowest power of two dividing every value seen (`i32::MAX`: none yet).
    low: [i32; 2],
    /// The magnitudes added, and the largest magnitude found at an address (a bound on the start value).
    added: [f64; 2],
    found: [f64; 2],
    /// A value that is not finite.
    infinite: bool,
}

impl Default for ExactSums {
    fn default() -> Self {
        ExactSums { low: [i32::MAX; 2], added: [0.0; 2], found: [0.0; 2], infinite: false }
    }
}

impl ExactSums {
    /// An atomic add or subtract of `x` found `old` (the values as `f64`, exact for both types).
    pub fn add(&mut self, double: bool, old: f64, x: f64) {
        let t = double as usize;
        if !old.is_finite() || !x.is_finite() {
            self.infinite = true;
            return;
        }
        self.low[t] = self.low[t].min(lowest_bit(old)).min(lowest_bit(x));
        self.added[t] += x.abs();
        self.found[t] = self.found[t].max(old.abs());
    }

    /// Every sum seen is the same in any order.
    pub fn exact(&self) -> bool {
        // f64's own sum of magnitudes may round down: half the bound is a margin far larger than that error.
        let bits = [24, 52];
        !self.infinite
            && (0..2).all(|t| {
                self.low[t] == i32::MAX
                    || (self.found[t] + self.added[t]) < 2f64.powi((self.low[t] + bits[t]).clamp(-1074, 1023))
            })
    }
}

/// The exponent of the lowest set bit of `v`'s value (`v = m * 2^e`, `m` odd); `i32::MAX` for zero.
fn lowest_bit(v: f64) -> i32 {
    if v == 0.0 {
        return i32::MAX;
    }
    let bits = v.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i32;
    let frac = bits & ((1u64 << 52) - 1);
    let (mantissa, e) = if exp == 0 { (frac, -1074) } else { (frac | (1u64 << 52), exp - 1075) };
    e + mantissa.trailing_zeros() as i32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lowest_bits() {
        assert_eq!(lowest_bit(1.0), 0);
        assert_eq!(lowest_bit(6.0), 1);
        assert_eq!(lowest_bit(0.75), -2);
        assert_eq!(lowest_bit(-256.0), 8);
        assert_eq!(lowest_bit(f64::from_bits(1)), -1074);
    }

    #[test]
    fn integer_sums_below_the_significand_are_exact() {
        let mut s = ExactSums::default();
        for k in 0..1000 {
            s.add(false, k as f64, 9.0);
        }
        assert!(s.exact());
        // 2^24 + 1 is not a float: in another order the sum could round.
        let mut s = ExactSums::default();
        s.add(false, 16_777_215.0, 2.0);
        assert!(!s.exact());
        // Multiples of 256 may go further: every partial sum stays a float.
        let mut s = ExactSums::default();
        s.add(false, 0.0, 256.0 * 1_000_000.0);
        s.add(false, 256.0 * 1_000_000.0, 256.0);
        assert!(s.exact());
    }

    #[test]
    fn fractions_that_are_not_dyadic_are_not() {
        let mut s = ExactSums::default();
        s.add(false, 0.0, 0.1f32 as f64);
        s.add(false, 0.1f32 as f64, 0.1f32 as f64);
        assert!(!s.exact());
        let mut s = ExactSums::default();
        s.add(true, 0.0, f64::INFINITY);
        assert!(!s.exact());
        assert!(ExactSums::default().exact());
    }
}
