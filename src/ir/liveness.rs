//! Liveness per thread: which registers a basic block's entry may still read before writing them. Per thread,
//! execution follows one path of the control-flow graph and every write is masked to the threads that execute
//! it, so the classic backward analysis holds per lane (as in `defined.rs`). Register packing (`pack.rs`)
//! builds its interference from it; whole runs' spin check (`sim::machine::spin`) hashes only what is live.

use super::{Instr, Kernel, Operand};

/// Per basic block: the registers live at its entry (`n` flags each, `n` the kernel's register count).
pub fn live_in(kernel: &Kernel) -> Vec<Vec<bool>> {
    let (n, blocks) = (kernel.regs.len(), &kernel.blocks);
    let mut live_in = vec![vec![false; n]; blocks.len()];
    let mut changed = true;
    while changed {
        changed = false;
        for b in (0..blocks.len()).rev() {
            let live = walk(kernel, b, live_out(kernel, b, &live_in), &mut |_, _| {});
            if live != live_in[b] {
                live_in[b] = live;
                changed = true;
            }
        }
    }
    live_in
}

/// The registers live at block `b`'s exit: its successors' entries.
pub fn live_out(kernel: &Kernel, b: usize, live_in: &[Vec<bool>]) -> Vec<bool> {
    let mut live = vec![false; kernel.regs.len()];
    for s in &kernel.blocks[b].succs {
        for (l, x) in live.iter_mut().zip(&live_in[s.0 as usize]) {
            *l |= *x;
        }
    }
    live
}

/// Walks block `b` backwards from its exit, where `live` is live, calling `at_def(dst, live after it)` at each
/// write; returns what is live at its entry.
pub fn walk(kernel: &Kernel, b: usize, mut live: Vec<bool>, at_def: &mut dyn FnMut(usize, &[bool])) -> Vec<bool> {
    let block = &kernel.blocks[b];
    for i in kernel.instrs[block.start.0 as usize..block.end.0 as usize].iter().rev() {
        let i: &Instr = i;
        if let Some(d) = i.dst() {
            at_def(d.0 as usize, &live);
            live[d.0 as usize] = false;
        }
        i.each_source(|o| {
            if let Operand::Reg(r) = o {
                live[r.0 as usize] = true;
            }
        });
    }
    live
}
