//! Each lowered instruction against the interpreter's (`Alu::apply`, the wide loops' pointer arithmetic and
//! specials) on edge values, lane by lane, with inactive lanes left as they were.

#![allow(clippy::unwrap_used)]

use super::compiled::new_compiler;
use super::lower::Shape;
use super::stretch;
use crate::front::launch::Dim3;
use crate::front::tast::Special;
use crate::sim::decoded::{Alu, Op};

const SENTINEL: u64 = 0x5a5a_5a5a_5a5a_5a5a;

/// Runs segment `ops` of a program with `regs` registers over `rows` (row `r`'s lanes; rows past the inputs
/// start as [`SENTINEL`]) from thread 0, every third lane inactive unless `full`; returns the
/// register file (row `r` at `r * n`).
fn run(ops: &[Op], regs: usize, consts: &[u64], rows: &[Vec<u64>], full: bool, shape: Shape) -> Vec<u64> {
    let n = rows[0].len();
    let mut file = vec![SENTINEL; (regs + consts.len()) * n];
    for (r, lanes) in rows.iter().enumerate() {
        file[r * n..(r + 1) * n].copy_from_slice(lanes);
    }
    for (k, &c) in consts.iter().enumerate() {
        file[(regs + k) * n..(regs + k + 1) * n].fill(c);
    }
    let select: Vec<u64> = (0..n).map(|i| if full || i % 3 != 1 { u64::MAX } else { 0 }).collect();
    let mut c = new_compiler().expect("Cranelift has a backend here");
    let code = c.code(ops, &stretch::rows(ops, regs), consts, shape).expect("compiles");
    let env = [3u64, 5, 7];
    // SAFETY: the file has the rows the segment names, `n` lanes each; `select` has `n` words, `env` three.
    unsafe { code(file.as_mut_ptr(), n as u64, 0, n as u64, select.as_ptr(), env.as_ptr(), full as u64) };
    file
}

fn shape(regs: usize) -> Shape {
    Shape { block_dim: Dim3 { x: 32, y: 1, z: 1 }, grid_dim: Dim3 { x: 9, y: 1, z: 1 }, regs }
}

/// Values that probe the edges: integer limits and shift counts, floats' NaNs (quiet, signalling, negative),
/// infinities, -0.0, denormals, the integer conversions' saturation points; each also with bits above the
/// low half set (32-bit operations read the low half only).
fn edges() -> Vec<u64> {
    let low = [
        0u32,
        1,
        2,
        31,
        32,
        33,
        0x7fff_ffff,
        0x8000_0000,
        u32::MAX,
        0x3f80_0000,
        0x7fc0_0000,
        0xffc0_0000,
        0x7f80_0001,
        0x7f80_0000,
        0xff80_0000,
        0x0000_0001,
        0x4f00_0000,
        0xcf00_0001,
        0x4f80_0000,
        0xbfc0_0000,
        0xcf00_0000,
    ];
    low.into_iter().flat_map(|v| [v as u64, v as u64 | 0xdead_0001_0000_0000]).collect()
}

#[test]
fn every_alu_operation_matches_the_interpreter_bit_for_bit() {
    use Alu::*;
    let vals = edges();
    let (xs, ys): (Vec<u64>, Vec<u64>) = vals.iter().flat_map(|&x| vals.iter().map(move |&y| (x, y))).unzip();
    let n = xs.len();
    for f in [
        AddI, SubI, MulI, And, Or, Xor, Shl, ShrU, ShrS, LtS, LtU, LeS, LeU, GtS, GtU, GeS, GeU, Eq, Ne, AddF, SubF,
        MulF, DivF, Sext, I2F, U2F, F2I, F2U, F2D,
    ] {
        for full in [true, false] {
            let ops = [Op::Alu { f, d: 2, a: 0, b: 1 }];
            let file = run(&ops, 3, &[], &[xs.clone(), ys.clone()], full, shape(3));
            for i in 0..n {
                let want = if full || i % 3 != 1 { f.apply(xs[i], ys[i]) } else { SENTINEL };
                assert_eq!(file[2 * n + i], want, "{f:?} {:#x} {:#x} (full: {full})", xs[i], ys[i]);
            }
        }
    }
}

#[test]
fn chains_keep_values_in_registers_and_write_each_row_last_value() {
    // d = a + b; d = d * c (a constant); e = d < a; a row written twice ends with its last value, a source
    // overwritten later was read before.
    let ops = [
        Op::Alu { f: Alu::AddI, d: 2, a: 0, b: 1 },
        Op::Alu { f: Alu::MulI, d: 2, a: 2, b: 4 },
        Op::Alu { f: Alu::LtU, d: 3, a: 2, b: 0 },
        Op::Mov { d: 0, a: 1 },
    ];
    let a: Vec<u64> = (0..40).map(|i| i * 0x1234_5678 + 0xffff_0000_0000).collect();
    let b: Vec<u64> = (0..40).map(|i| u64::MAX - i * 77).collect();
    let file = run(&ops, 4, &[0x9e37_79b9], &[a.clone(), b.clone()], false, shape(4));
    for i in 0..40 {
        if i % 3 == 1 {
            assert_eq!([file[i], file[40 + i], file[80 + i], file[120 + i]], [a[i], b[i], SENTINEL, SENTINEL]);
            continue;
        }
        let d = Alu::MulI.apply(Alu::AddI.apply(a[i], b[i]), 0x9e37_79b9);
        assert_eq!(file[80 + i], d);
        assert_eq!(file[120 + i], Alu::LtU.apply(d, a[i]));
        // (A move keeps all 64 bits.)
        assert_eq!(file[i], b[i]);
    }
}

#[test]
fn pointer_arithmetic_matches_the_interpreter() {
    let vals = edges();
    let bases: Vec<u64> = vals.iter().map(|v| v.wrapping_mul(0x1_0000_0001) ^ 0x7000_0000_1000).collect();
    for scale in [1i16, 4, 8, 12, -4, 24] {
        for signed in [true, false] {
            let ops = [Op::PtrAdd { d: 2, base: 0, index: 1, scale, signed }];
            let file = run(&ops, 3, &[], &[bases.clone(), vals.clone()], true, shape(3));
            for (i, (&p, &x)) in bases.iter().zip(&vals).enumerate() {
                let idx = if signed { x as u32 as i32 as i64 } else { x as u32 as i64 };
                let want = p.wrapping_add(idx.wrapping_mul(scale as i64) as u64);
                assert_eq!(file[2 * vals.len() + i], want, "{p:#x} + {x:#x} * {scale} (signed: {signed})");
            }
        }
    }
}

#[test]
fn specials_are_the_threads_and_the_launch_s() {
    for (bx, by, bz) in [(64, 1, 1), (8, 4, 2), (16, 16, 1)] {
        let n = (bx * by * bz) as usize;
        let s = Shape { block_dim: Dim3 { x: bx, y: by, z: bz }, grid_dim: Dim3 { x: 11, y: 12, z: 13 }, regs: 12 };
        let which = [
            Special::ThreadIdx(0),
            Special::ThreadIdx(1),
            Special::ThreadIdx(2),
            Special::BlockIdx(0),
            Special::BlockIdx(1),
            Special::BlockIdx(2),
            Special::BlockDim(0),
            Special::BlockDim(1),
            Special::BlockDim(2),
            Special::GridDim(0),
            Special::GridDim(1),
            Special::GridDim(2),
        ];
        let ops: Vec<Op> = which.iter().enumerate().map(|(d, &w)| Op::Special { d: d as u32, which: w }).collect();
        let file = run(&ops, 12, &[], &[vec![0; n]], true, s);
        for t in 0..n as u32 {
            let want = [t % bx, (t / bx) % by, t / (bx * by), 3, 5, 7, bx, by, bz, 11, 12, 13];
            for (d, w) in want.iter().enumerate() {
                assert_eq!(file[d * n + t as usize], *w as u64, "{:?} of thread {t}, block {bx}x{by}x{bz}", which[d]);
            }
        }
    }
}
