//! Register packing for whole runs: registers whose values are never needed at the same time share one row
//! of the register file. A block's register file is a row of `threads` words per register, so the lowering's
//! one-use temporaries made it several times larger than the level-1 cache, and every warp instruction of a
//! whole run streamed its rows from further out. Packed, the rows a block works on stay close.
//!
//! Per thread, execution follows one path of the control-flow graph, and every write is masked to the
//! threads that execute it, so the classic analysis holds per lane (`liveness.rs`): two registers
//! interfere when one is written where the other is live (backward liveness over the graph), and registers
//! that do not interfere can share a row. Single-stepping never packs: the debugger shows every register
//! under its own name.
//!
//! Not packed: kernels of more than `MAX_REGS` registers, and kernels that read other lanes' registers
//! (`__shfl*_sync`: a lane may read a register its source lane no longer needs, and that lane's stale value
//! must stay what it was).

use super::{Instr, Kernel, Operand, Reg, RegInfo, liveness};

/// Kernels with more registers are not packed.
const MAX_REGS: usize = 4096;

/// `kernel` with its registers renumbered so that registers never live at once share a number (the kernel's
/// behaviour is the same for every thread); the kernel itself when it is not packed (see the module).
pub fn pack_registers(kernel: &Kernel) -> Kernel {
    let n = kernel.regs.len();
    // (The analysis keeps `n * n` flags: a kernel of that many registers is run as written.)
    if n == 0 || n > MAX_REGS || kernel.instrs.iter().any(|i| matches!(i, Instr::Shfl { .. })) {
        return kernel.clone();
    }
    let interferes = interference(kernel);
    // Greedy colouring in register order: parameters and early registers keep low rows.
    let mut row_of: Vec<u32> = Vec::with_capacity(n);
    let mut taken = vec![false; n];
    for r in 0..n {
        taken.iter_mut().for_each(|t| *t = false);
        for (o, &row) in row_of.iter().enumerate() {
            if interferes[r * n + o] {
                taken[row as usize] = true;
            }
        }
        let row = taken.iter().position(|t| !t).expect("n rows always suffice") as u32;
        row_of.push(row);
    }
    let rows = row_of.iter().max().map_or(0, |m| m + 1) as usize;
    let mut packed = kernel.clone();
    let rename = |r: &mut Reg| *r = Reg(row_of[r.0 as usize]);
    for i in &mut packed.instrs {
        i.each_source_mut(|o| {
            if let Operand::Reg(r) = o {
                rename(r)
            }
        });
        if let Some(d) = i.dst_mut() {
            rename(d);
        }
    }
    for p in &mut packed.params {
        rename(&mut p.reg);
    }
    // Each row keeps the description of its first register (only the debugger reads them).
    let mut regs: Vec<Option<RegInfo>> = vec![None; rows];
    for (r, info) in kernel.regs.iter().enumerate() {
        regs[row_of[r] as usize].get_or_insert_with(|| info.clone());
    }
    packed.regs = regs.into_iter().map(|i| i.expect("every row has a register")).collect();
    packed
}

/// `n * n` flags: registers `a` and `b` interfere at `a * n + b`.
fn interference(kernel: &Kernel) -> Vec<bool> {
    let (n, blocks) = (kernel.regs.len(), &kernel.blocks);
    let mut interferes = vec![false; n * n];
    let mut edge = |a: usize, b: usize| {
        if a != b {
            interferes[a * n + b] = true;
            interferes[b * n + a] = true;
        }
    };
    let live_in = liveness::live_in(kernel);
    for b in 0..blocks.len() {
        liveness::walk(kernel, b, liveness::live_out(kernel, b, &live_in), &mut |d, live| {
            for (r, &l) in live.iter().enumerate() {
                if l {
                    edge(d, r);
                }
            }
        });
    }
    // At a block's start the parameters are written and the registers read before written are cleared, in
    // every row they own: they, and whatever is live there, must not share one.
    let mut at_entry: Vec<usize> = kernel.params.iter().map(|p| p.reg.0 as usize).collect();
    if let Some(entry) = live_in.first() {
        at_entry.extend((0..n).filter(|&r| entry[r]));
    }
    for &a in &at_entry {
        for &b in &at_entry {
            edge(a, b);
        }
    }
    interferes
}

#[cfg(test)]
mod tests {
    use super::pack_registers;
    use crate::ir::{Kernel, Reg};

    fn kernel(src: &str) -> Kernel {
        crate::compile::compile("t.cu", src.as_bytes(), &Default::default()).unwrap_or_else(|e| panic!("{e}")).kernel
    }

    #[test]
    fn the_reduction_needs_seven_rows() {
        // Three parameters, `tid`, `idata` and `stride` live through the loop, and one temporary at a time
        // beside them (two while `idata[tid] + idata[tid + stride]` adds its loads).
        let src = std::fs::read_to_string("kernels/reduce_neighbored.cu").expect("kernel file");
        let k = kernel(&src);
        assert_eq!((k.regs.len(), pack_registers(&k).regs.len()), (35, 7));
    }

    #[test]
    fn what_is_set_at_a_block_start_keeps_its_own_row() {
        // `x` is read before any write on some paths (it must read 0), `n` is a parameter, `unused` one no
        // thread reads: the block's start writes all three rows.
        let src = "// @block 32\n// @grid 1\n// @arg out int[32] = 0\n// @arg n = 4\n// @arg unused = 1\n\
                   __global__ void k(int *out, int n, int unused) {\n\
                   int tid = threadIdx.x;\n\
                   int x;\n\
                   if (tid < n) { x = 1; }\n\
                   out[tid] = x;\n\
                   }\n";
        let k = kernel(src);
        let packed = pack_registers(&k);
        let names = crate::ir::print::reg_names(&k);
        let x = Reg(names.iter().position(|n| n == "x").expect("x is a register") as u32);
        let row_of_x = {
            // The row that the packed kernel's `x = 1` writes.
            let i = k.instrs.iter().position(|i| i.dst() == Some(x)).expect("x is written");
            packed.instrs[i].dst().expect("still a write")
        };
        let mut rows: Vec<Reg> = packed.params.iter().map(|p| p.reg).collect();
        rows.push(row_of_x);
        rows.sort();
        rows.dedup();
        assert_eq!(rows.len(), 4, "parameters and x share rows: {rows:?}");
        assert!(packed.regs.len() < k.regs.len());
    }

    #[test]
    fn kernels_that_read_other_lanes_are_left_alone() {
        let src = "// @block 32\n// @grid 1\n// @arg out int[32] = 0\n\
                   __global__ void k(int *out) {\n\
                   int v = threadIdx.x * 2 + 1;\n\
                   int w = __shfl_down_sync(0xffffffff, v, 1);\n\
                   out[threadIdx.x] = w + 3;\n\
                   }\n";
        let k = kernel(src);
        assert_eq!(pack_registers(&k), k);
    }
}
