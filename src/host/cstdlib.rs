//! `<cstdlib>`'s other generators and `<unistd.h>`'s sleeps: `random`/`srandom` (glibc's `rand` is
//! `random`: one state), `rand_r` (glibc's three-step LCG), the `drand48` family (the 48-bit LCG
//! `x = 0x5DEECE66D x + 0xB`, state 0 until `srand48`), and `sleep`/`usleep`/`nanosleep`, which advance the
//! virtual host clock (`src/host/cuda/timing.rs`) that `clock`, `gettimeofday` and `clock_gettime` read.

use super::interp::{Interp, Unwind};
pub use super::libfns::StdlibFn;
use super::tree::{Expr, Lib, LibArgs};
use crate::front::types::{Scalar, Type};

/// The signature of a `<cstdlib>`/`<unistd.h>` function: (what, parameters, variadic, result).
pub(super) fn library(name: &str) -> Option<(Lib, Vec<Type>, bool, Type)> {
    let ptr = || Type::ptr(Type::Void, false);
    let long = Type::Scalar(Scalar::I64);
    let (f, params, ret) = match name {
        // glibc's `rand()` is `random()`, `srand` is `srandom`.
        "random" => return Some((Lib::Rand, vec![], false, long)),
        "srandom" => return Some((Lib::Srand, vec![Type::UINT], false, Type::Void)),
        "rand_r" => (StdlibFn::RandR, vec![ptr()], Type::INT),
        "drand48" => (StdlibFn::Drand48, vec![], Type::Scalar(Scalar::F64)),
        "lrand48" => (StdlibFn::Lrand48, vec![], long),
        "mrand48" => (StdlibFn::Mrand48, vec![], long),
        "srand48" => (StdlibFn::Srand48, vec![long], Type::Void),
        "sleep" => (StdlibFn::Sleep(1_000_000_000), vec![Type::UINT], Type::UINT),
        "usleep" => (StdlibFn::Sleep(1_000), vec![Type::UINT], Type::INT),
        "nanosleep" => (StdlibFn::Nanosleep, vec![ptr(), ptr()], Type::INT),
        "atexit" => {
            (StdlibFn::Atexit, vec![Type::ptr(Type::Func(std::sync::Arc::new((Type::Void, vec![]))), false)], Type::INT)
        }
        _ => return None,
    };
    Some((Lib::Stdlib(f), params, false, ret))
}

/// glibc's `rand_r` step on `*seed`: (result, new seed).
pub fn rand_r(seed: u32) -> (i32, u32) {
    let step = |x: u32| x.wrapping_mul(1103515245).wrapping_add(12345);
    let mut next = step(seed);
    let mut result = (next / 65536) % 2048;
    next = step(next);
    result = (result << 10) ^ ((next / 65536) % 1024);
    next = step(next);
    result = (result << 10) ^ ((next / 65536) % 1024);
    (result as i32, next)
}

/// The `drand48` family's next state after `x`.
pub fn step48(x: u64) -> u64 {
    x.wrapping_mul(0x5_DEEC_E66D).wrapping_add(0xB) & ((1 << 48) - 1)
}

impl Interp<'_> {
    /// Runs `<cstdlib>`/`<unistd.h>` function `f` on its evaluated arguments.
    pub(super) fn cstdlib(&mut self, f: StdlibFn, v: &LibArgs, e: &Expr) -> Result<u64, Unwind> {
        Ok(match f {
            StdlibFn::RandR => {
                let b = self.read_bytes(v[0], 4, e.span)?;
                let (r, next) = rand_r(u32::from_le_bytes([b[0], b[1], b[2], b[3]]));
                self.write_bytes(v[0], Some(&next.to_le_bytes()), 4, 0, e.span)?;
                r as u32 as u64
            }
            StdlibFn::Drand48 | StdlibFn::Lrand48 | StdlibFn::Mrand48 => {
                self.rand48 = step48(self.rand48);
                match f {
                    // The 48 bits as a double's fraction: exactly x / 2^48.
                    StdlibFn::Drand48 => (self.rand48 as f64 / (1u64 << 48) as f64).to_bits(),
                    StdlibFn::Lrand48 => self.rand48 >> 17,
                    _ => (self.rand48 >> 16) as u32 as i32 as i64 as u64,
                }
            }
            StdlibFn::Srand48 => {
                self.rand48 = ((v[0] & 0xFFFF_FFFF) << 16) | 0x330E;
                0
            }
            StdlibFn::Sleep(unit) => {
                self.rt.clock.host_ns += (v[0] as u32 as u64).saturating_mul(unit);
                0
            }
            StdlibFn::Atexit => {
                self.at_exit.push(v[0]);
                0
            }
            StdlibFn::Nanosleep => {
                let b = self.read_bytes(v[0], 16, e.span)?;
                let word = |i: usize| i64::from_le_bytes(b[i..i + 8].try_into().unwrap_or([0; 8]));
                let (sec, nsec) = (word(0), word(8));
                if sec < 0 || !(0..1_000_000_000).contains(&nsec) {
                    // EINVAL.
                    self.set_errno(22);
                    return Ok(u32::MAX as u64);
                }
                self.rt.clock.host_ns += (sec as u64).saturating_mul(1_000_000_000) + nsec as u64;
                0
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Values gcc 12 / glibc 2.36 print for the same calls.
    #[test]
    fn generators_match_glibc() {
        let (a, s) = rand_r(42);
        let (b, _) = rand_r(s);
        assert_eq!((a, b), (681191333, 928546885));
        let x = step48(0);
        assert_eq!(x >> 17, 0);
        let mut x = ((1234u64) << 16) | 0x330E;
        x = step48(x);
        assert_eq!(x as f64 / (1u64 << 48) as f64, 0.740_876_929_442_496_4);
        x = step48(x);
        assert_eq!(x >> 17, 460710097);
        x = step48(x);
        assert_eq!((x >> 16) as u32 as i32, 1452540047);
    }
}
