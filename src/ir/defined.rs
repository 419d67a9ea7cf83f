//! Definite assignment: which registers a thread may read before any instruction (or a parameter) wrote
//! them. Only those must start at zero in a fresh block; every other register is written before it is read
//! on every path, so a whole run can hand a new block the last one's register file without clearing it.
//!
//! Per thread, execution follows a path of the control-flow graph whatever the warp does, so the classic
//! forward analysis (a register is defined at a block's entry when it is defined at the end of every
//! predecessor) holds per lane. Inactive lanes' stale values are computed by the data path but never kept.

use super::{Instr, Kernel, Operand, Reg};

/// The registers that some path may read before writing, in ascending order.
pub fn read_before_written(kernel: &Kernel) -> Vec<Reg> {
    let (nregs, nblocks) = (kernel.regs.len(), kernel.blocks.len());
    if nblocks == 0 {
        return vec![];
    }
    let mut params = vec![false; nregs];
    for p in &kernel.params {
        params[p.reg.0 as usize] = true;
    }
    // Defined at each block's end; "everything" until a path reaches the block (the analysis' top).
    let mut out = vec![vec![true; nregs]; nblocks];
    let entry_of = |b: usize, out: &[Vec<bool>]| -> Vec<bool> {
        let preds = &kernel.blocks[b].preds;
        let mut d = if b == 0 { params.clone() } else { vec![true; nregs] };
        for p in preds {
            for (x, y) in d.iter_mut().zip(&out[p.0 as usize]) {
                *x &= *y;
            }
        }
        d
    };
    let mut changed = true;
    while changed {
        changed = false;
        for b in 0..nblocks {
            let mut d = entry_of(b, &out);
            let block = &kernel.blocks[b];
            for i in &kernel.instrs[block.start.0 as usize..block.end.0 as usize] {
                if let Some(r) = i.dst() {
                    d[r.0 as usize] = true;
                }
            }
            if d != out[b] {
                out[b] = d;
                changed = true;
            }
        }
    }
    let mut undefined = vec![false; nregs];
    for (b, block) in kernel.blocks.iter().enumerate() {
        let mut d = entry_of(b, &out);
        for i in &kernel.instrs[block.start.0 as usize..block.end.0 as usize] {
            i.each_source(|o| {
                if let Operand::Reg(r) = o
                    && !d[r.0 as usize]
                {
                    undefined[r.0 as usize] = true;
                }
            });
            if let Some(r) = i.dst() {
                d[r.0 as usize] = true;
            }
        }
    }
    (0..nregs as u32).map(Reg).filter(|r| undefined[r.0 as usize]).collect()
}

/// The operands an instruction reads, each passed to `$f` as a reference (`$iter`: `iter` or `iter_mut`).
macro_rules! each_source {
    ($instr:expr, $f:ident, $iter:ident) => {
        match $instr {
            Instr::Mov { src, .. } | Instr::Unary { src, .. } | Instr::Convert { src, .. } => $f(src),
            Instr::Binary { a, b, .. }
            | Instr::Cmp { a, b, .. }
            | Instr::PtrDiff { a, b, .. }
            | Instr::Math { a, b, .. }
            | Instr::PtrAdd { base: a, index: b, .. }
            | Instr::Store { addr: a, src: b, .. } => {
                $f(a);
                $f(b);
            }
            Instr::Load { addr, .. } => $f(addr),
            Instr::Atomic { addr, a, b, .. } => [addr, a, b].into_iter().for_each($f),
            Instr::Fma { a, b, c, .. } => [a, b, c].into_iter().for_each($f),
            Instr::SyncWarp { mask } => $f(mask),
            Instr::SyncThreads { pred, .. } => pred.$iter().for_each($f),
            Instr::CheckAlign { addr, .. } => $f(addr),
            Instr::CheckBounds { index, base, .. } => {
                $f(index);
                $f(base);
            }
            Instr::Shfl { mask, value, lane, width, .. } => [mask, value, lane, width].into_iter().for_each($f),
            Instr::Vote { mask, pred, .. } => {
                $f(mask);
                $f(pred);
            }
            Instr::Assert { cond, .. } => $f(cond),
            Instr::Printf { args, .. } => args.$iter().for_each(|(o, _)| $f(o)),
            Instr::Curand { args, .. } | Instr::Texture { args, .. } => args.$iter().for_each($f),
            Instr::Launch { config, args, .. } => {
                config.$iter().chain(args.$iter()).for_each($f);
            }
            Instr::Branch { cond, .. } => $f(cond),
            Instr::Special { .. }
            | Instr::SharedAddr { .. }
            | Instr::ActiveMask { .. }
            | Instr::ReadCounter { .. }
            | Instr::Fence
            | Instr::Jump { .. }
            | Instr::Exit => {}
        }
    };
}

impl Instr {
    /// Calls `f` with every operand the instruction reads.
    #[inline]
    pub fn each_source(&self, mut f: impl FnMut(Operand)) {
        let mut f = |o: &Operand| f(*o);
        each_source!(self, f, iter)
    }

    /// Calls `f` with every operand the instruction reads, to change it (`ir::pack` renames registers).
    pub fn each_source_mut(&mut self, mut f: impl FnMut(&mut Operand)) {
        let mut f = |o: &mut Operand| f(o);
        each_source!(self, f, iter_mut)
    }
}

#[cfg(test)]
mod tests {
    use super::read_before_written;

    fn undefined_names(src: &str) -> Vec<String> {
        let compiled = crate::compile::compile("t.cu", src.as_bytes(), &Default::default()).expect("compiles");
        let names = crate::ir::print::reg_names(&compiled.kernel);
        read_before_written(&compiled.kernel).iter().map(|r| names[r.0 as usize].clone()).collect()
    }

    #[test]
    fn only_registers_some_path_reads_unwritten() {
        let src = "// @block 32\n// @grid 1\n// @arg out int[32] = 0\n// @arg n = 4\n\
                   __global__ void k(int *out, int n) {\n\
                   int tid = threadIdx.x;\n\
                   int x;\n\
                   int y = 0;\n\
                   if (tid < n) { x = 1; y = 2; }\n\
                   for (int i = 0; i < n; i++) y += i;\n\
                   out[tid] = x + y;\n\
                   }\n";
        assert_eq!(undefined_names(src), vec!["x".to_string()]);
    }

    #[test]
    fn the_reductions_read_nothing_unwritten() {
        for f in ["kernels/reduce_neighbored.cu", "kernels/reduce_interleaved.cu", "kernels/vec_add.cu"] {
            let src = std::fs::read_to_string(f).expect("kernel file");
            assert!(undefined_names(&src).is_empty(), "{f}");
        }
    }
}
