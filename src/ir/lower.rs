//! Lowering: typed AST -> basic blocks -> flat instruction list with reconvergence points.
//!
//! Device functions are inlined at each call. `&&`, `||` and `?:` become real branches, as in the source;
//! a condition that is a constant becomes a jump. Branch metrics are attributed to the statement line.
//!
//! This module holds the lowering's state (`Lowerer`: blocks, registers, inlined frames) and the expressions;
//! statements are in `stmt` and `switch`, where variables live in memory in `memory`, constant conditions in
//! `fold`, and the finished kernel's block layout in `layout`.

use std::collections::HashMap;

use super::*;
use super::{Block, BlockId};
use crate::front::diagnostic::Diagnostic;
use crate::front::source::{SourceMap, Span};
use crate::front::tast::{self as t, ExprKind as E, FnId, Intrinsic, LocalId, Place, Program, StmtKind as S};

mod fold;
mod layout;
mod memory;
mod stmt;
mod switch;

use fold::const_bool;

/// The address of a load or store and its part of a vector access (`Intrinsic::VectorPart` around it).
/// Whether a function body may read parameter `p`'s value (conservatively): a use as an expression, or a
/// compound assignment or increment of it; a plain `p = v` is no read. Read from the typed tree's printed
/// form, where an expression's use of a local is `kind: Local(LocalId(N))` and a read-modify-write target is
/// `place: Local(LocalId(N))` (a plain assignment's place is printed without a field name).
fn reads_param(body: &[t::Stmt], p: LocalId) -> bool {
    let text = format!("{body:?}");
    let id = format!("Local(LocalId({}))", p.0);
    text.contains(&format!("kind: {id}")) || text.contains(&format!("place: {id}"))
}

fn vec_part(ptr: &t::Expr) -> (&t::Expr, VecPart) {
    match &ptr.kind {
        E::Intrinsic(Intrinsic::VectorPart { bytes, first }, args) if args.len() == 1 => {
            (&args[0], if *first { VecPart::First { bytes: *bytes as u8 } } else { VecPart::Rest })
        }
        _ => (ptr, VecPart::Alone),
    }
}

/// Bound on a kernel's size after inlining, so a call tree that doubles at every level cannot exhaust memory.
const MAX_INSTRS: usize = 1 << 20;

/// Lowers kernel `id` of a checked program.
pub fn lower_kernel(program: &Program, id: FnId, sources: &SourceMap) -> Result<Kernel, Diagnostic> {
    lower_launched(program, id, sources, false)
}

/// [`lower_kernel`] for a launch made one way: `cooperative` (`cudaLaunchCooperativeKernel`) makes
/// `this_grid().is_valid()` read 1 whether or not the kernel calls `grid.sync()` (an H200's answer).
pub fn lower_launched(
    program: &Program,
    id: FnId,
    sources: &SourceMap,
    cooperative: bool,
) -> Result<Kernel, Diagnostic> {
    let f = program.function(id);
    let mut lw = Lowerer {
        program,
        blocks: vec![],
        cur: BlockId(0),
        regs: vec![],
        strings: vec![],
        shared: vec![],
        shared_index: HashMap::new(),
        global_shared: HashMap::new(),
        global_regs: HashMap::new(),
        thread_linear: None,
        frames: vec![],
        too_big: None,
        stmt_span: f.span,
        ninstrs: 0,
        emitted: vec![],
        term_emitted: vec![],
        open_scopes: vec![],
        var_scopes: vec![],
        entered: vec![],
        entered_count: 0,
        grid_valid: vec![],
        cooperative,
    };
    let entry = lw.new_block();
    lw.set_cur(entry);
    let mut params = vec![];
    let mut locals = HashMap::new();
    for &p in &f.params {
        let local = &f.locals[p.0 as usize];
        let reg = lw.new_var(&local.name, &local.ty);
        locals.insert(p, reg);
        params.push(Param {
            name: local.name.clone(),
            ty: local.ty.clone(),
            reg,
            span: local.span,
            constant_bytes: None,
            local_bytes: None,
        });
    }
    // File-scope `__device__` and `__constant__` variables arrive as hidden last arguments: their addresses;
    // so do local arrays, one copy per thread of the launch, each thread's at its linear index.
    let used = reachable(program, id);
    for (i, g) in program.globals.iter().enumerate() {
        if matches!(g.space, t::GlobalSpace::Constant | t::GlobalSpace::Device | t::GlobalSpace::Local) {
            let ty = crate::front::types::Type::ptr(crate::front::types::Type::Scalar(g.elem), false);
            let reg = lw.new_var(&g.name, &ty);
            let constant_bytes = (g.space == t::GlobalSpace::Constant).then(|| g.elem.size() as u64 * g.len());
            let local_bytes = (g.space == t::GlobalSpace::Local).then(|| g.ty.size() as u64);
            params.push(Param { name: g.name.clone(), ty, reg, span: g.span, constant_bytes, local_bytes });
            // Only this kernel's own local arrays (and its callees') cost it instructions.
            let own = match g.owner {
                Some(f) if g.space == t::GlobalSpace::Local && used.contains(&f) => {
                    lw.thread_copy(reg, g.ty.size(), g.span)
                }
                _ => reg,
            };
            // The debugger names the thread's own copy of a local array, and reads the variable through it.
            if own != reg {
                lw.regs[reg.0 as usize].name = None;
                lw.regs[own.0 as usize].name = Some(g.name.clone());
            }
            let info = &mut lw.regs[own.0 as usize];
            (info.source, info.address_of) = (Some(g.ty.clone()), true);
            lw.global_regs.insert(i as u32, own);
        }
    }
    lw.frames.push(Frame { func: id, locals, ret: None, loops: vec![] });
    lw.scoped_body(&f.body);
    lw.terminate(Term::Exit, f.body_end);
    lw.set_grid_valid();
    if let Some(span) = lw.too_big {
        return Err(Diagnostic::unsupported(
            span,
            format!("kernels larger than {MAX_INSTRS} instructions after inlining device calls"),
        ));
    }
    Ok(lw.finish(f.name.clone(), params, sources))
}

/// The functions kernel `id` runs: itself and every device function it calls, directly or not.
fn reachable(program: &Program, id: FnId) -> Vec<FnId> {
    let mut out = vec![id];
    let mut i = 0;
    while i < out.len() {
        for &c in &program.function(out[i]).calls {
            if !out.contains(&c) {
                out.push(c);
            }
        }
        i += 1;
    }
    out
}

#[derive(Clone, Debug)]
enum Term {
    Jump(BlockId),
    Branch { cond: Operand, then: BlockId, els: BlockId, site: BranchSite },
    Exit,
}

struct BuildBlock {
    instrs: Vec<(Instr, Span)>,
    term: Option<(Term, Span)>,
}

struct LoopTargets {
    brk: BlockId,
    cont: BlockId,
}

/// One function being inlined: its locals' registers, and where `return` goes.
struct Frame {
    func: FnId,
    locals: HashMap<LocalId, Reg>,
    /// `None` in the kernel itself (return = exit); else the continuation block and the result register.
    ret: Option<(BlockId, Option<Reg>)>,
    loops: Vec<LoopTargets>,
}

struct Lowerer<'p> {
    program: &'p Program,
    blocks: Vec<BuildBlock>,
    cur: BlockId,
    regs: Vec<RegInfo>,
    strings: Vec<String>,
    shared: Vec<SharedArray>,
    /// (function, shared id) -> kernel-wide shared array index: one array per declaration, however often inlined.
    shared_index: HashMap<(FnId, u32), u32>,
    /// File-scope (and extern) shared variable -> kernel-wide shared array index.
    global_shared: HashMap<u32, u32>,
    /// File-scope `__device__`/`__constant__` variable -> the hidden parameter holding its address.
    global_regs: HashMap<u32, Reg>,
    /// The thread's linear index in the grid (64 bits), once a local array's thread copy has worked it out.
    thread_linear: Option<Operand>,
    frames: Vec<Frame>,
    too_big: Option<Span>,
    /// The statement being lowered: branch sites of `?:` take its line.
    stmt_span: Span,
    ninstrs: usize,
    /// Per block: each instruction's position in emission order (source order: what a variable's scope is
    /// measured in), and its terminator's.
    emitted: Vec<Vec<u32>>,
    term_emitted: Vec<u32>,
    /// The named registers declared in each open block scope, innermost last.
    open_scopes: Vec<Vec<u32>>,
    /// Per register: the emission positions it is in scope for (see [`VarScope`]).
    var_scopes: Vec<VarScope>,
    /// When each block first became current: the layout follows this, which is source order.
    entered: Vec<u32>,
    entered_count: u32,
    /// Where each `this_grid().is_valid()` put its value (block, instruction index), to set once the whole
    /// kernel is known.
    grid_valid: Vec<(u32, usize)>,
    /// The kernel is lowered for a cooperative launch (`is_valid()` is 1).
    cooperative: bool,
}

impl<'p> Lowerer<'p> {
    /// `this_grid().is_valid()` reads 1 in a cooperative launch (measured on an H200: docs/language.md), and
    /// in a kernel file's kernel that calls `grid.sync()` (a kernel file's launch has every block resident; a
    /// program's plain launch of such a kernel fails before it runs).
    fn set_grid_valid(&mut self) {
        let grid = |b: &BuildBlock| b.instrs.iter().any(|(i, _)| matches!(i, Instr::SyncThreads { grid: true, .. }));
        if !self.cooperative && !self.blocks.iter().any(grid) {
            return;
        }
        for &(b, i) in &self.grid_valid {
            if let Some((Instr::Mov { src, .. }, _)) = self.blocks[b as usize].instrs.get_mut(i) {
                *src = Operand::Imm(1);
            }
        }
    }

    fn new_block(&mut self) -> BlockId {
        self.blocks.push(BuildBlock { instrs: vec![], term: None });
        self.emitted.push(vec![]);
        self.term_emitted.push(0);
        self.entered.push(u32::MAX);
        BlockId(self.blocks.len() as u32 - 1)
    }

    fn set_cur(&mut self, b: BlockId) {
        if self.entered[b.0 as usize] == u32::MAX {
            self.entered[b.0 as usize] = self.entered_count;
            self.entered_count += 1;
        }
        self.cur = b;
    }

    fn new_reg(&mut self, name: Option<String>, ty: Ty) -> Reg {
        self.regs.push(RegInfo { name, ty, source: None, address_of: false });
        self.var_scopes.push(VarScope::EVERYWHERE);
        Reg(self.regs.len() as u32 - 1)
    }

    /// The register of a source variable: its name and declared type.
    fn new_var(&mut self, name: &str, ty: &crate::front::types::Type) -> Reg {
        let r = self.new_reg(Some(name.to_string()), Ty::of(ty));
        self.regs[r.0 as usize].source = Some(ty.clone());
        r
    }

    /// A named register declared here, in scope until its block scope closes.
    fn declare(&mut self, r: Reg) {
        if let Some(open) = self.open_scopes.last_mut() {
            open.push(r.0);
            self.var_scopes[r.0 as usize] = VarScope { from: self.ninstrs as u32, to: u32::MAX };
        }
    }

    fn open_scope(&mut self) {
        self.open_scopes.push(vec![]);
    }

    /// Ends the innermost block scope: its variables go out of scope after the code emitted so far.
    fn close_scope(&mut self) {
        for r in self.open_scopes.pop().unwrap_or_default() {
            self.var_scopes[r as usize].to = self.ninstrs as u32;
        }
    }

    /// Statements in a block scope of their own (`{ ... }`, a function body).
    fn scoped_body(&mut self, stmts: &[t::Stmt]) {
        self.open_scope();
        self.body(stmts);
        self.close_scope();
    }

    /// `base + index * scale`: one `PtrAdd` for a 32-bit index; a 64-bit index (`size_t`, `long`) is
    /// multiplied and added in 64 bits, so no bits of it are lost.
    fn ptr_add(&mut self, base: Operand, index: Operand, index_ty: Ty, scale: i64, span: Span) -> Operand {
        let dst = self.temp(Ty::Ptr);
        if matches!(index_ty, Ty::I64 | Ty::U64) {
            let offset = self.temp(Ty::I64);
            self.emit(
                Instr::Binary { op: ArithOp::Mul, ty: Ty::I64, dst: offset, a: index, b: Operand::Imm(scale as u64) },
                span,
            );
            self.emit(Instr::Binary { op: ArithOp::Add, ty: Ty::U64, dst, a: base, b: Operand::Reg(offset) }, span);
        } else {
            let index_signed = index_ty == Ty::I32;
            self.emit(Instr::PtrAdd { dst, base, index, index_signed, scale }, span);
        }
        Operand::Reg(dst)
    }

    fn temp(&mut self, ty: Ty) -> Reg {
        self.new_reg(None, ty)
    }

    fn frame(&self) -> &Frame {
        self.frames.last().expect("a frame is always open")
    }

    fn emit(&mut self, i: Instr, span: Span) {
        self.ninstrs += 1;
        if self.ninstrs > MAX_INSTRS {
            self.too_big.get_or_insert(span);
            return;
        }
        // Code after a return/break lands in a fresh, unreachable block and is dropped at layout.
        self.blocks[self.cur.0 as usize].instrs.push((i, span));
        self.emitted[self.cur.0 as usize].push(self.ninstrs as u32);
    }

    fn terminate(&mut self, term: Term, span: Span) {
        let b = &mut self.blocks[self.cur.0 as usize];
        if b.term.is_none() {
            b.term = Some((term, span));
            self.term_emitted[self.cur.0 as usize] = self.ninstrs as u32;
        }
    }

    /// Ends the current block with `term` and continues in `next`.
    fn switch_to(&mut self, term: Term, span: Span, next: BlockId) {
        self.terminate(term, span);
        self.set_cur(next);
    }

    /// After an unconditional transfer: keep emitting into a block nothing reaches.
    fn dead_block(&mut self) {
        let b = self.new_block();
        self.set_cur(b);
    }

    /// The line an instruction is shown and stopped at: in the file the user opened (code from a header is
    /// at its `#include`).
    fn line_of(&self, span: Span, sources: &SourceMap) -> u32 {
        let span = sources.in_first_file(span);
        sources.get(span.file).line_of(span.start)
    }

    // ---- expressions ----

    fn local_reg(&mut self, l: LocalId) -> Reg {
        if let Some(&r) = self.frame().locals.get(&l) {
            return r;
        }
        let func = self.program.function(self.frame().func);
        let local = &func.locals[l.0 as usize];
        let (name, ty) = (local.name.clone(), local.ty.clone());
        let r = self.new_var(&name, &ty);
        self.declare(r);
        self.frames.last_mut().expect("frame").locals.insert(l, r);
        r
    }

    /// Writes `v` into `dst`; when `v` is a temporary the last instruction just produced, it writes `dst`
    /// directly instead (no extra move for `x = a + b`).
    fn assign_reg(&mut self, dst: Reg, v: Operand, span: Span) {
        if let Operand::Reg(tmp) = v {
            let is_temp = self.regs[tmp.0 as usize].name.is_none();
            if let Some((last, _)) = self.blocks[self.cur.0 as usize].instrs.last_mut()
                && is_temp
                && last.dst() == Some(tmp)
            {
                *last.dst_mut().expect("has dst") = dst;
                return;
            }
            if tmp == dst {
                return;
            }
        }
        self.emit(Instr::Mov { dst, src: v }, span);
    }

    fn expr(&mut self, e: &t::Expr) -> Operand {
        let span = e.span;
        let ty = Ty::of(&e.ty);
        match &e.kind {
            E::Const(bits) => Operand::Imm(*bits),
            E::Local(l) => Operand::Reg(self.local_reg(*l)),
            E::Load(ptr) => {
                let (ptr, part) = vec_part(ptr);
                let addr = self.expr(ptr);
                let dst = self.temp(ty);
                self.emit(Instr::Load { ty, dst, addr, part }, span);
                Operand::Reg(dst)
            }
            E::Special(which) => {
                let dst = self.temp(Ty::U32);
                self.emit(Instr::Special { dst, which: *which }, span);
                Operand::Reg(dst)
            }
            E::SharedAddr(s) => {
                let array = self.shared_array(s.0);
                let dst = self.temp(Ty::Ptr);
                self.emit(Instr::SharedAddr { dst, array }, span);
                Operand::Reg(dst)
            }
            E::Unary(op, a) => {
                let src = self.expr(a);
                let dst = self.temp(ty);
                self.emit(Instr::Unary { op: *op, ty: Ty::of(&a.ty), dst, src }, span);
                Operand::Reg(dst)
            }
            E::Arith { op: op @ (ArithOp::Add | ArithOp::Sub), left: a, right: b }
                if matches!(ty, Ty::F32 | Ty::F64) && (is_mul(a, ty) || is_mul(b, ty)) =>
            {
                self.contract(*op, a, b, ty, span)
            }
            E::Arith { op, left: a, right: b } => {
                let (a, b) = (self.expr(a), self.expr(b));
                let dst = self.temp(ty);
                self.emit(Instr::Binary { op: *op, ty, dst, a, b }, span);
                Operand::Reg(dst)
            }
            E::Cmp { op, left: a, right: b } => {
                let operand_ty = Ty::of(&a.ty);
                let (a, b) = (self.expr(a), self.expr(b));
                let dst = self.temp(Ty::Bool);
                self.emit(Instr::Cmp { op: *op, ty: operand_ty, dst, a, b }, span);
                Operand::Reg(dst)
            }
            E::PtrOffset { ptr, index, elem_size, negate } => {
                let index_ty = Ty::of(&index.ty);
                let (base, index) = (self.expr(ptr), self.expr(index));
                let scale = if *negate { -(*elem_size as i64) } else { *elem_size as i64 };
                self.ptr_add(base, index, index_ty, scale, span)
            }
            E::GlobalAddr(g) => self.global_addr(g.0, span),
            E::PtrDiff { a, b, elem_size } => {
                let (a, b) = (self.expr(a), self.expr(b));
                let dst = self.temp(Ty::I32);
                self.emit(Instr::PtrDiff { dst, a, b, elem_size: *elem_size }, span);
                Operand::Reg(dst)
            }
            E::LogicalAnd(a, b) | E::LogicalOr(a, b) => {
                let is_and = matches!(e.kind, E::LogicalAnd(..));
                let dst = self.temp(Ty::Bool);
                let av = self.expr(a);
                self.assign_reg(dst, av, a.span);
                let (rhs, join) = (self.new_block(), self.new_block());
                let (then, els) = if is_and { (rhs, join) } else { (join, rhs) };
                let site = BranchSite { line: 0, kind: BranchKind::ShortCircuit, counted: false };
                self.switch_to(Term::Branch { cond: Operand::Reg(dst), then, els, site }, a.span, rhs);
                let bv = self.expr(b);
                self.assign_reg(dst, bv, b.span);
                self.switch_to(Term::Jump(join), b.span, join);
                Operand::Reg(dst)
            }
            E::Ternary { cond: c, then: a, els: b } => {
                let dst = self.temp(ty);
                let (then, els, join) = (self.new_block(), self.new_block(), self.new_block());
                if let Some(cv) = const_bool(c) {
                    self.terminate(Term::Jump(if cv { then } else { els }), c.span);
                } else {
                    let cv = self.expr(c);
                    let site = BranchSite { line: 0, kind: BranchKind::Ternary, counted: true };
                    // The site's line, set at layout from this span, is the statement's.
                    self.terminate(Term::Branch { cond: cv, then, els, site }, self.stmt_span);
                }
                self.set_cur(then);
                let av = self.expr(a);
                self.assign_reg(dst, av, a.span);
                self.switch_to(Term::Jump(join), a.span, els);
                let bv = self.expr(b);
                self.assign_reg(dst, bv, b.span);
                self.switch_to(Term::Jump(join), b.span, join);
                Operand::Reg(dst)
            }
            E::Convert(a) => {
                let from = Ty::of(&a.ty);
                let src = self.expr(a);
                // int <-> unsigned int is the same 32 bits: no instruction.
                if from == ty || matches!((from, ty), (Ty::I32, Ty::U32) | (Ty::U32, Ty::I32)) {
                    return src;
                }
                let dst = self.temp(ty);
                self.emit(Instr::Convert { from, to: ty, dst, src }, span);
                Operand::Reg(dst)
            }
            E::Assign(place, value) => match place {
                Place::Local(l) => {
                    let reg = self.local_reg(*l);
                    let v = self.expr(value);
                    self.assign_reg(reg, v, span);
                    Operand::Reg(reg)
                }
                Place::Mem(ptr) => {
                    let (ptr, part) = vec_part(ptr);
                    let addr = self.expr(ptr);
                    let v = self.expr(value);
                    self.emit(Instr::Store { ty, addr, src: v, part }, span);
                    v
                }
            },
            E::CompoundAssign { place, op, rhs, op_ty } => {
                let op_ty = Ty::from(*op_ty);
                self.read_modify_write(place, ty, span, false, |lw, old| {
                    let old = lw.convert(old, ty, op_ty, span);
                    let r = lw.expr(rhs);
                    let dst = lw.temp(op_ty);
                    lw.emit(Instr::Binary { op: *op, ty: op_ty, dst, a: old, b: r }, span);
                    lw.convert(Operand::Reg(dst), op_ty, ty, span)
                })
                .1
            }
            E::PtrCompoundAssign { place, index, elem_size, negate } => {
                let index_ty = Ty::of(&index.ty);
                let scale = if *negate { -(*elem_size as i64) } else { *elem_size as i64 };
                self.read_modify_write(place, ty, span, false, |lw, old| {
                    let idx = lw.expr(index);
                    lw.ptr_add(old, idx, index_ty, scale, span)
                })
                .1
            }
            E::IncDec { place, increment, prefix } => {
                let ptr_elem = e.ty.pointee().map(|p| p.size() as i64);
                let (old, new) = self.read_modify_write(place, ty, span, !*prefix, |lw, old| {
                    let dst = lw.temp(ty);
                    let instr = match ptr_elem {
                        Some(size) => Instr::PtrAdd {
                            dst,
                            base: old,
                            index: Operand::Imm(1),
                            index_signed: true,
                            scale: if *increment { size } else { -size },
                        },
                        None => {
                            let op = if *increment { ArithOp::Add } else { ArithOp::Sub };
                            let one = match ty {
                                Ty::F32 => (1.0f32).to_bits() as u64,
                                Ty::F64 => (1.0f64).to_bits(),
                                _ => 1,
                            };
                            Instr::Binary { op, ty, dst, a: old, b: Operand::Imm(one) }
                        }
                    };
                    lw.emit(instr, span);
                    Operand::Reg(dst)
                });
                if *prefix { new } else { old }
            }
            E::Intrinsic(intr, args) => self.intrinsic(*intr, args, ty, span),
            E::Seq(stmts, value) => {
                let outer = self.stmt_span;
                for s in stmts {
                    self.stmt(s);
                }
                self.stmt_span = outer;
                self.expr(value)
            }
            E::Call(f, args) => self.inline_call(*f, args, ty),
            E::Assert(text, cond) => {
                let text = self.string_id(text);
                let cond = self.expr(cond);
                self.emit(Instr::Assert { cond, text }, span);
                Operand::Imm(0)
            }
            E::Printf(fmt, args) => {
                let fmt_id = self.string_id(fmt);
                let args: Vec<(Operand, Ty)> = args.iter().map(|a| (self.expr(a), Ty::of(&a.ty))).collect();
                self.emit(Instr::Printf { fmt: fmt_id, args: args.into_boxed_slice() }, span);
                Operand::Imm(0)
            }
            E::Launch { kernel: id, config, args } => {
                let kernel = self.string_id(&self.program.function(*id).name.clone());
                let config: Vec<Operand> = config.iter().map(|c| self.expr(c)).collect();
                let config: [Operand; 7] = config.try_into().expect("the type checker gives seven values");
                let args: Vec<Operand> = args.iter().map(|a| self.expr(a)).collect();
                self.emit(Instr::Launch { kernel, config: Box::new(config), args: args.into_boxed_slice() }, span);
                Operand::Imm(0)
            }
        }
    }

    /// `s`'s index in [`Kernel::strings`], added once.
    fn string_id(&mut self, s: &str) -> u32 {
        self.strings.iter().position(|x| x == s).unwrap_or_else(|| {
            self.strings.push(s.to_string());
            self.strings.len() - 1
        }) as u32
    }

    fn convert(&mut self, v: Operand, from: Ty, to: Ty, span: Span) -> Operand {
        if from == to {
            return v;
        }
        let dst = self.temp(to);
        self.emit(Instr::Convert { from, to, dst, src: v }, span);
        Operand::Reg(dst)
    }

    /// Reads a place, computes the new value with `f`, writes it back. Returns (old, new).
    /// With `keep_old` (postfix `x++`) the old value of a local is copied first, since its register is
    /// overwritten.
    fn read_modify_write(
        &mut self,
        place: &Place,
        ty: Ty,
        span: Span,
        keep_old: bool,
        f: impl FnOnce(&mut Self, Operand) -> Operand,
    ) -> (Operand, Operand) {
        match place {
            Place::Local(l) => {
                let reg = self.local_reg(*l);
                let old = if keep_old {
                    let old = self.temp(ty);
                    self.emit(Instr::Mov { dst: old, src: Operand::Reg(reg) }, span);
                    Operand::Reg(old)
                } else {
                    Operand::Reg(reg)
                };
                let new = f(self, old);
                self.assign_reg(reg, new, span);
                (old, Operand::Reg(reg))
            }
            Place::Mem(ptr) => {
                let addr = self.expr(ptr);
                let old = self.temp(ty);
                self.emit(Instr::Load { ty, dst: old, addr, part: VecPart::Alone }, span);
                let new = f(self, Operand::Reg(old));
                self.emit(Instr::Store { ty, addr, src: new, part: VecPart::Alone }, span);
                (Operand::Reg(old), new)
            }
        }
    }

    fn intrinsic(&mut self, intr: Intrinsic, args: &[t::Expr], ty: Ty, span: Span) -> Operand {
        let vals: Vec<Operand> = args.iter().map(|a| self.expr(a)).collect();
        let arg = |i: usize| vals.get(i).copied().unwrap_or(Operand::Imm(0));
        let instr = match intr {
            Intrinsic::SyncThreads => Instr::SyncThreads { pred: None, grid: false },
            // The barrier, then the block's result, read once it has released.
            Intrinsic::SyncThreadsReduce(k) => {
                self.emit(Instr::SyncThreads { pred: Some(arg(0)), grid: false }, span);
                let dst = self.temp(ty);
                Instr::ReadCounter { dst, which: crate::ir::Counter::Barrier(k) }
            }
            Intrinsic::Clock { wide } => {
                let dst = self.temp(ty);
                let which = if wide { crate::ir::Counter::Clock64 } else { crate::ir::Counter::Clock };
                Instr::ReadCounter { dst, which }
            }
            // A `thread_group`'s sync: a whole block's barrier when its mask is 0, else the warp-level one
            // over its lanes. Every thread of a group agrees, so the branch never diverges; it is part of
            // the call, not a branch of the source, and is not counted.
            Intrinsic::GroupSync => {
                let is_block = self.temp(Ty::Bool);
                let cmp = Instr::Cmp { op: CmpOp::Eq, ty: Ty::U32, dst: is_block, a: arg(0), b: Operand::Imm(0) };
                self.emit(cmp, span);
                let (then, els, join) = (self.new_block(), self.new_block(), self.new_block());
                let site = BranchSite { line: 0, kind: BranchKind::GroupSync, counted: false };
                self.terminate(Term::Branch { cond: Operand::Reg(is_block), then, els, site }, span);
                self.set_cur(then);
                self.emit(Instr::SyncThreads { pred: None, grid: false }, span);
                self.switch_to(Term::Jump(join), span, els);
                self.emit(Instr::SyncWarp { mask: arg(0) }, span);
                self.switch_to(Term::Jump(join), span, join);
                return Operand::Imm(0);
            }
            Intrinsic::ThreadFence => Instr::Fence,
            Intrinsic::CheckAlign { align, bytes, write } => Instr::CheckAlign { addr: arg(0), align, bytes, write },
            // (Read by the load or store it is the address of; anywhere else, only its value.)
            Intrinsic::VectorPart { .. } => return arg(0),
            Intrinsic::CheckIndex { global } => {
                let g = &self.program.globals[global as usize];
                let (len, elem_size) = match &g.ty {
                    crate::front::types::Type::Array(e, n) => (*n, e.size()),
                    t => (1, t.size()),
                };
                let name = self.strings.len() as u32;
                self.strings.push(g.name.clone());
                let dst = self.temp(ty);
                Instr::CheckBounds { dst, index: arg(0), base: arg(1), len, elem_size, name }
            }
            Intrinsic::SyncWarp => Instr::SyncWarp { mask: arg(0) },
            Intrinsic::GridSync => Instr::SyncThreads { pred: None, grid: true },
            // 0 for now; 1 once the whole kernel is lowered if it calls `grid.sync()` (`lower_kernel`).
            Intrinsic::GridValid => {
                let dst = self.temp(Ty::Bool);
                self.emit(Instr::Mov { dst, src: Operand::Imm(0) }, span);
                let b = &self.blocks[self.cur.0 as usize];
                if let Some(i) = b.instrs.len().checked_sub(1) {
                    self.grid_valid.push((self.cur.0, i));
                }
                return Operand::Reg(dst);
            }
            Intrinsic::ActiveMask => {
                let dst = self.temp(Ty::U32);
                self.emit(Instr::ActiveMask { dst }, span);
                return Operand::Reg(dst);
            }
            Intrinsic::Atomic(op) => {
                let dst = self.temp(ty);
                Instr::Atomic { op, ty, dst, addr: arg(0), a: arg(1), b: arg(2) }
            }
            Intrinsic::Shfl(kind) => {
                let dst = self.temp(ty);
                Instr::Shfl { kind, ty, dst, mask: arg(0), value: arg(1), lane: arg(2), width: arg(3) }
            }
            Intrinsic::Vote(kind) => {
                let dst = self.temp(ty);
                Instr::Vote { kind, dst, mask: arg(0), pred: arg(1) }
            }
            Intrinsic::Curand { f, out } => {
                let dst = self.temp(ty);
                Instr::Curand { f, out, ty, dst, args: vals.clone().into_boxed_slice() }
            }
            Intrinsic::Texture { dim, out } => {
                let dst = self.temp(ty);
                Instr::Texture { dim, out, ty, dst, args: vals.clone().into_boxed_slice() }
            }
            Intrinsic::Math(MathFn::Fma) => {
                let dst = self.temp(ty);
                Instr::Fma { ty, dst, a: arg(0), b: arg(1), c: arg(2) }
            }
            Intrinsic::Math(func) => {
                let dst = self.temp(ty);
                Instr::Math { func, ty, dst, a: arg(0), b: arg(1) }
            }
        };
        let out = instr.dst().map_or(Operand::Imm(0), Operand::Reg);
        self.emit(instr, span);
        out
    }

    fn inline_call(&mut self, id: FnId, args: &[t::Expr], ty: Ty) -> Operand {
        let callee = self.program.function(id);
        let mut locals = HashMap::new();
        // The parameters are in scope for the inlined body.
        self.open_scope();
        // References to elements in memory: (address, the parameter's register, type), stored back on return.
        let mut copy_out = vec![];
        for (&p, a) in callee.params.iter().zip(args) {
            // A reference names the caller's register itself.
            if callee.by_ref.contains(&p)
                && let E::Local(l) = a.kind
            {
                let reg = self.local_reg(l);
                locals.insert(p, reg);
                continue;
            }
            // A reference to an element in memory (`z[n]`): copied in, and out when the call returns (inlined
            // device code has no other access to it meanwhile but through the reference).
            if callee.by_ref.contains(&p)
                && let E::Load(ptr) = &a.kind
            {
                let ty = Ty::of(&a.ty);
                let addr = self.expr(ptr);
                let local = &callee.locals[p.0 as usize];
                let reg = self.new_var(&local.name, &local.ty);
                self.declare(reg);
                // Copied in only where the body reads it: `z = x + y` on memory nothing wrote is no read of
                // uninitialised memory.
                if reads_param(&callee.body, p) {
                    self.emit(Instr::Load { ty, dst: reg, addr, part: VecPart::Alone }, a.span);
                }
                locals.insert(p, reg);
                copy_out.push((addr, reg, ty, a.span));
                continue;
            }
            let v = self.expr(a);
            let local = &callee.locals[p.0 as usize];
            let reg = self.new_var(&local.name, &local.ty);
            self.declare(reg);
            self.assign_reg(reg, v, a.span);
            locals.insert(p, reg);
        }
        let result = (callee.ret != crate::front::types::Type::Void).then(|| self.temp(ty));
        let cont = self.new_block();
        self.frames.push(Frame { func: id, locals, ret: Some((cont, result)), loops: vec![] });
        let saved = self.stmt_span;
        self.scoped_body(&callee.body);
        self.close_scope();
        self.stmt_span = saved;
        self.frames.pop();
        self.switch_to(Term::Jump(cont), callee.span, cont);
        for (addr, reg, ty, span) in copy_out {
            self.emit(Instr::Store { ty, addr, src: Operand::Reg(reg), part: VecPart::Alone }, span);
        }
        result.map_or(Operand::Imm(0), Operand::Reg)
    }

    // ---- layout ----

    /// Drops unreachable and empty forwarding blocks, computes post-dominators, lays blocks out in order.
    /// A float `x * y + z`, `z + x * y`, `x * y - z` or `z - x * y` as one FMA, the way nvcc compiles it
    /// (`--fmad=true` by default; LLVM's DAG combine): when both operands are products, the left one is
    /// fused. Operands are evaluated in source order. One rounding instead of two changes results in the
    /// last bit (grayscale.cu's conversion matches an H100 only so).
    fn contract(&mut self, op: ArithOp, a: &t::Expr, b: &t::Expr, ty: Ty, span: Span) -> Operand {
        let negate = |lw: &mut Self, v: Operand| {
            let dst = lw.temp(ty);
            lw.emit(Instr::Unary { op: UnOp::Neg, ty, dst, src: v }, span);
            Operand::Reg(dst)
        };
        let (x, y, z) = if let E::Arith { op: ArithOp::Mul, left: x, right: y } = &a.kind
            && Ty::of(&a.ty) == ty
        {
            let (x, y, z) = (self.expr(x), self.expr(y), self.expr(b));
            // x*y - z = fma(x, y, -z)
            let z = if op == ArithOp::Sub { negate(self, z) } else { z };
            (x, y, z)
        } else {
            let E::Arith { op: ArithOp::Mul, left: x, right: y } = &b.kind else {
                unreachable!("is_mul checked one side")
            };
            let (z, x, y) = (self.expr(a), self.expr(x), self.expr(y));
            // z - x*y = fma(-x, y, z)
            let x = if op == ArithOp::Sub { negate(self, x) } else { x };
            (x, y, z)
        };
        let dst = self.temp(ty);
        self.emit(Instr::Fma { ty, dst, a: x, b: y, c: z }, span);
        Operand::Reg(dst)
    }
}

/// Is `e` a float product of type `ty` (a candidate for FMA contraction)?
fn is_mul(e: &t::Expr, ty: Ty) -> bool {
    matches!(e.kind, E::Arith { op: ArithOp::Mul, .. }) && Ty::of(&e.ty) == ty
}
