//! Where variables live in memory: each thread's copy of a local array, the addresses of file-scope
//! variables, and the kernel's shared arrays (one per declaration, however often its function is inlined).

use super::*;

impl Lowerer<'_> {
    /// The address of this thread's copy of a local variable whose copies start at `base`, `bytes` apart.
    pub(super) fn thread_copy(&mut self, base: Reg, bytes: u32, span: Span) -> Reg {
        let linear = self.thread_linear(span);
        let offset = self.temp(Ty::U64);
        self.emit(
            Instr::Binary { op: ArithOp::Mul, ty: Ty::U64, dst: offset, a: linear, b: Operand::Imm(bytes as u64) },
            span,
        );
        let dst = self.new_reg(None, Ty::Ptr);
        self.emit(
            Instr::Binary { op: ArithOp::Add, ty: Ty::U64, dst, a: Operand::Reg(base), b: Operand::Reg(offset) },
            span,
        );
        dst
    }

    /// The thread's linear index in the grid, in 64 bits: worked out once, in the kernel's prologue (where
    /// every thread copy is made), and reused by the others.
    fn thread_linear(&mut self, span: Span) -> Operand {
        if let Some(l) = self.thread_linear {
            return l;
        }
        use crate::front::tast::Special as Sp;
        let special = |lw: &mut Self, which| {
            let dst = lw.temp(Ty::U32);
            lw.emit(Instr::Special { dst, which }, span);
            Operand::Reg(dst)
        };
        let (tx, ty, tz) =
            (special(self, Sp::ThreadIdx(0)), special(self, Sp::ThreadIdx(1)), special(self, Sp::ThreadIdx(2)));
        let (bx, by, bz) =
            (special(self, Sp::BlockIdx(0)), special(self, Sp::BlockIdx(1)), special(self, Sp::BlockIdx(2)));
        let (dx, dy, dz) =
            (special(self, Sp::BlockDim(0)), special(self, Sp::BlockDim(1)), special(self, Sp::BlockDim(2)));
        let (gx, gy) = (special(self, Sp::GridDim(0)), special(self, Sp::GridDim(1)));
        let op = |lw: &mut Self, op, ty, a, b| {
            let dst = lw.temp(ty);
            lw.emit(Instr::Binary { op, ty, dst, a, b }, span);
            Operand::Reg(dst)
        };
        // Block (x fastest) times threads per block, plus the thread (x fastest), in 64 bits.
        let wide = |lw: &mut Self, v| {
            let dst = lw.temp(Ty::U64);
            lw.emit(Instr::Convert { from: Ty::U32, to: Ty::U64, dst, src: v }, span);
            Operand::Reg(dst)
        };
        let block = op(self, ArithOp::Mul, Ty::U32, bz, gy);
        let block = op(self, ArithOp::Add, Ty::U32, block, by);
        let block = op(self, ArithOp::Mul, Ty::U32, block, gx);
        let block = op(self, ArithOp::Add, Ty::U32, block, bx);
        let per_block = op(self, ArithOp::Mul, Ty::U32, dx, dy);
        let per_block = op(self, ArithOp::Mul, Ty::U32, per_block, dz);
        let thread = op(self, ArithOp::Mul, Ty::U32, tz, dy);
        let thread = op(self, ArithOp::Add, Ty::U32, thread, ty);
        let thread = op(self, ArithOp::Mul, Ty::U32, thread, dx);
        let thread = op(self, ArithOp::Add, Ty::U32, thread, tx);
        let (block, per_block, thread) = (wide(self, block), wide(self, per_block), wide(self, thread));
        let linear = op(self, ArithOp::Mul, Ty::U64, block, per_block);
        let linear = op(self, ArithOp::Add, Ty::U64, linear, thread);
        self.thread_linear = Some(linear);
        linear
    }

    /// The address of file-scope variable `g`: a shared array's, or the hidden parameter of a global one.
    pub(super) fn global_addr(&mut self, g: u32, span: Span) -> Operand {
        if let Some(&reg) = self.global_regs.get(&g) {
            return Operand::Reg(reg);
        }
        let array = match self.global_shared.get(&g) {
            Some(&i) => i,
            None => {
                let decl = &self.program.globals[g as usize];
                let dynamic = matches!(decl.space, t::GlobalSpace::Shared { dynamic: true });
                self.shared.push(SharedArray {
                    name: decl.name.clone(),
                    ty: decl.ty.clone(),
                    elem: Ty::from(decl.elem),
                    bytes: if dynamic { 0 } else { decl.ty.size() },
                    dynamic,
                });
                let i = self.shared.len() as u32 - 1;
                self.global_shared.insert(g, i);
                i
            }
        };
        let dst = self.temp(Ty::Ptr);
        self.emit(Instr::SharedAddr { dst, array }, span);
        Operand::Reg(dst)
    }

    pub(super) fn shared_array(&mut self, local_id: u32) -> u32 {
        let func = self.frame().func;
        if let Some(&i) = self.shared_index.get(&(func, local_id)) {
            return i;
        }
        let decl = &self.program.function(func).shared[local_id as usize];
        self.shared.push(SharedArray {
            name: decl.name.clone(),
            ty: decl.ty.clone(),
            elem: Ty::from(decl.elem),
            bytes: decl.ty.size(),
            dynamic: false,
        });
        let i = self.shared.len() as u32 - 1;
        self.shared_index.insert((func, local_id), i);
        i
    }
}
