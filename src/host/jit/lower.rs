//! One hot host loop in Cranelift IR. Values are the interpreter's raw bits (`i64`, narrow integers
//! zero-extended, floats as their bit patterns); every slot the loop names is a Cranelift variable, loaded
//! from the frame's slots on entry and stored back on the way out and around every call back into the
//! interpreter. What is compiled inline has the exact semantics of `sim::alu` (wrapping integer add, sub,
//! mul and bitwise operations, IEEE float add, sub, mul, div, comparisons, integer conversions); the rest is
//! a call to the very function the interpreter uses (division and shifts, float conversions, math), and any
//! other expression or statement is a call back into the interpreter itself.

use std::collections::BTreeSet;

use cranelift_codegen::ir::condcodes::IntCC;
use cranelift_codegen::ir::types::I64;
use cranelift_codegen::ir::{
    AbiParam, Block, InstBuilder, MemFlagsData, SigRef, Signature, StackSlotData, StackSlotKind,
};
use cranelift_codegen::ir::{StackSlot, Value};
use cranelift_codegen::isa::CallConv;
use cranelift_frontend::{FunctionBuilder, Variable};

mod ops;

use super::helpers::Helper;
use super::{BREAK, CONTINUE, DONE, EXIT, Site};
use crate::front::source::Span;
use crate::front::tast::{ArithOp, UnOp};
use crate::front::types::Scalar;
use crate::host::tree::*;
use crate::ir::Ty;

/// The helper signatures, by argument count (all `i64` in, one `i64` out).
struct Sigs {
    by_args: Vec<SigRef>,
}

pub(super) struct Lower<'b, 'f> {
    pub b: &'b mut FunctionBuilder<'f>,
    sites: Vec<Site>,
    vars: Vec<(Slot, Variable)>,
    steps: Variable,
    env: Value,
    slots: Value,
    steps_ptr: Value,
    max_steps: Value,
    /// Each access site's cache of the allocation it last reached: (base, size - access size + 1, data
    /// address - base), so that `addr - base < that` means `addr + (data - base)` holds the bytes.
    caches: Value,
    n_caches: u32,
    /// (break, continue) targets, innermost last.
    loops: Vec<(Block, Block)>,
    exit: Block,
    out: StackSlot,
    sigs: Sigs,
}

impl<'b, 'f> Lower<'b, 'f> {
    /// Starts the function `(env, slots, steps, max_steps, caches) -> code` in `b` for a loop naming `named`.
    pub fn new(b: &'b mut FunctionBuilder<'f>, named: &BTreeSet<Slot>, call_conv: CallConv) -> Self {
        let sigs = Sigs {
            by_args: (0..=5)
                .map(|n| {
                    let mut sig = Signature::new(call_conv);
                    sig.params.extend((0..n).map(|_| AbiParam::new(I64)));
                    sig.returns.push(AbiParam::new(I64));
                    b.import_signature(sig)
                })
                .collect(),
        };
        let entry = b.create_block();
        b.append_block_params_for_function_params(entry);
        b.switch_to_block(entry);
        let p = b.block_params(entry).to_vec();
        let (env, slots, steps_ptr, max_steps, caches) = (p[0], p[1], p[2], p[3], p[4]);
        let out = b.create_sized_stack_slot(StackSlotData::new(StackSlotKind::ExplicitSlot, 8, 3));
        let exit = b.create_block();
        let steps = b.declare_var(I64);
        let vars = named.iter().map(|&s| (s, b.declare_var(I64))).collect();
        let mut l = Lower {
            b,
            sites: vec![],
            vars,
            steps,
            env,
            slots,
            steps_ptr,
            max_steps,
            caches,
            n_caches: 0,
            loops: vec![],
            exit,
            out,
            sigs,
        };
        l.reload();
        l
    }

    /// The loop `s`, entered at its condition (a `for`'s initialisation has run), then `return DONE`; the
    /// sites its helper calls name, and how many access caches it uses.
    pub fn region(mut self, s: &Stmt) -> (Vec<Site>, u32) {
        match s {
            Stmt::For { cond: c, step, body, .. } => self.for_loop(c.as_ref(), step.as_ref(), body),
            _ => self.stmt(s),
        }
        self.spill();
        let code = self.b.ins().iconst(I64, DONE);
        self.b.ins().return_(&[code]);
        self.b.switch_to_block(self.exit);
        let code = self.b.ins().iconst(I64, EXIT);
        self.b.ins().return_(&[code]);
        self.b.seal_all_blocks();
        (self.sites, self.n_caches)
    }

    fn var(&self, s: Slot) -> Variable {
        self.vars.iter().find(|(x, _)| *x == s).map(|(_, v)| *v).expect("every slot of the loop is a variable")
    }

    /// Stores every variable (and the step count) where the interpreter keeps them.
    fn spill(&mut self) {
        for i in 0..self.vars.len() {
            let (s, v) = self.vars[i];
            let x = self.b.use_var(v);
            self.b.ins().store(MemFlagsData::trusted(), x, self.slots, (s * 8) as i32);
        }
        self.store_steps();
    }

    fn store_steps(&mut self) {
        let x = self.b.use_var(self.steps);
        self.b.ins().store(MemFlagsData::trusted(), x, self.steps_ptr, 0);
    }

    /// Reads every variable (and the step count) back after the interpreter ran.
    fn reload(&mut self) {
        for i in 0..self.vars.len() {
            let (s, v) = self.vars[i];
            let x = self.b.ins().load(I64, MemFlagsData::trusted(), self.slots, (s * 8) as i32);
            self.b.def_var(v, x);
        }
        let x = self.b.ins().load(I64, MemFlagsData::trusted(), self.steps_ptr, 0);
        self.b.def_var(self.steps, x);
    }

    fn site(&mut self, s: Site) -> Value {
        self.sites.push(s);
        self.b.ins().iconst(I64, self.sites.len() as i64 - 1)
    }

    fn call(&mut self, f: Helper, args: &[Value]) -> Value {
        let callee = self.b.ins().iconst(I64, f.address() as i64);
        let sig = self.sigs.by_args[args.len()];
        let call = self.b.ins().call_indirect(sig, callee, args);
        self.b.inst_results(call)[0]
    }

    /// A fresh block to go on in after a jump (code after `break` is unreachable but must be valid).
    fn go_on(&mut self) {
        let b = self.b.create_block();
        self.b.switch_to_block(b);
    }

    fn tick(&mut self, span: Span) {
        let s = self.b.use_var(self.steps);
        let s = self.b.ins().iadd_imm_s(s, 1);
        self.b.def_var(self.steps, s);
        let over = self.b.ins().icmp(IntCC::UnsignedGreaterThan, s, self.max_steps);
        let (limit, ok) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(over, limit, &[], ok, &[]);
        self.b.set_cold_block(limit);
        self.b.switch_to_block(limit);
        self.store_steps();
        let site = self.site(Site::Tick(span));
        self.call(Helper::StepLimit, &[self.env, site]);
        self.b.ins().jump(self.exit, &[]);
        self.b.switch_to_block(ok);
    }

    /// `e != 0`, as a Cranelift condition.
    fn test(&mut self, e: &Expr) -> Value {
        let v = self.expr(e);
        self.b.ins().icmp_imm_s(IntCC::NotEqual, v, 0)
    }

    /// `e != 0` as the interpreter's 0 or 1.
    fn test_bits(&mut self, e: &Expr) -> Value {
        let t = self.test(e);
        self.b.ins().uextend(I64, t)
    }

    /// Goes on in a new block when `c` holds, else to `otherwise`.
    fn enter_if(&mut self, c: &Expr, otherwise: Block) {
        let t = self.test(c);
        let then = self.b.create_block();
        self.b.ins().brif(t, then, &[], otherwise, &[]);
        self.b.switch_to_block(then);
    }

    /// A loop's body, whose `break` goes to `brk` and `continue` to `cont`.
    fn body(&mut self, body: &Stmt, brk: Block, cont: Block) {
        self.loops.push((brk, cont));
        self.stmt(body);
        self.loops.pop();
    }

    fn for_loop(&mut self, c: Option<&Expr>, step: Option<&Expr>, body: &Stmt) {
        let (head, stepb, done) = (self.b.create_block(), self.b.create_block(), self.b.create_block());
        self.b.ins().jump(head, &[]);
        self.b.switch_to_block(head);
        if let Some(c) = c {
            self.enter_if(c, done);
        }
        self.tick(c.or(step).map(|e| e.span).unwrap_or_default());
        self.body(body, done, stepb);
        self.b.ins().jump(stepb, &[]);
        self.b.switch_to_block(stepb);
        if let Some(s) = step {
            self.expr(s);
        }
        self.b.ins().jump(head, &[]);
        self.b.switch_to_block(done);
    }

    fn stmt(&mut self, s: &Stmt) {
        match s {
            Stmt::Expr(e) => {
                self.expr(e);
            }
            Stmt::Block(b) => b.iter().for_each(|s| self.stmt(s)),
            Stmt::If { cond: c, then: t, otherwise: f } => {
                let (fb, done) = (self.b.create_block(), self.b.create_block());
                self.enter_if(c, fb);
                self.stmt(t);
                self.b.ins().jump(done, &[]);
                self.b.switch_to_block(fb);
                if let Some(f) = f {
                    self.stmt(f);
                }
                self.b.ins().jump(done, &[]);
                self.b.switch_to_block(done);
            }
            Stmt::While(c, body) => {
                let (head, done) = (self.b.create_block(), self.b.create_block());
                self.b.ins().jump(head, &[]);
                self.b.switch_to_block(head);
                self.enter_if(c, done);
                self.tick(c.span);
                self.body(body, done, head);
                self.b.ins().jump(head, &[]);
                self.b.switch_to_block(done);
            }
            Stmt::DoWhile(body, c) => {
                let (top, cond, done) = (self.b.create_block(), self.b.create_block(), self.b.create_block());
                self.b.ins().jump(top, &[]);
                self.b.switch_to_block(top);
                self.tick(c.span);
                self.body(body, done, cond);
                self.b.ins().jump(cond, &[]);
                self.b.switch_to_block(cond);
                let t = self.test(c);
                self.b.ins().brif(t, top, &[], done, &[]);
                self.b.switch_to_block(done);
            }
            Stmt::For { init, cond: c, step, body } => {
                init.iter().for_each(|s| self.stmt(s));
                self.for_loop(c.as_ref(), step.as_ref(), body);
            }
            Stmt::Break | Stmt::Continue => {
                let (brk, cont) = *self.loops.last().expect("a break inside the compiled loop");
                self.b.ins().jump(if matches!(s, Stmt::Break) { brk } else { cont }, &[]);
                self.go_on();
            }
            // `return`, `goto`, `switch` and the rest: the interpreter runs them.
            _ => self.callback_stmt(s),
        }
    }

    fn callback_stmt(&mut self, s: &Stmt) {
        let site = self.site(Site::Stmt(s as *const Stmt));
        self.spill();
        let r = self.call(Helper::Stmt, &[self.env, site, self.slots]);
        self.reload();
        let (brk, cont) = *self.loops.last().expect("statements run inside the compiled loop");
        let (go, not_normal, not_break, not_continue) =
            (self.b.create_block(), self.b.create_block(), self.b.create_block(), self.b.create_block());
        let normal = self.b.ins().icmp_imm_s(IntCC::Equal, r, DONE);
        self.b.ins().brif(normal, go, &[], not_normal, &[]);
        self.b.switch_to_block(not_normal);
        let is_break = self.b.ins().icmp_imm_s(IntCC::Equal, r, BREAK);
        self.b.ins().brif(is_break, brk, &[], not_break, &[]);
        self.b.switch_to_block(not_break);
        let is_continue = self.b.ins().icmp_imm_s(IntCC::Equal, r, CONTINUE);
        self.b.ins().brif(is_continue, cont, &[], not_continue, &[]);
        self.b.switch_to_block(not_continue);
        self.b.ins().jump(self.exit, &[]);
        self.b.switch_to_block(go);
    }

    /// The interpreter evaluates `e`; a stop leaves the loop.
    fn callback_expr(&mut self, e: &Expr) -> Value {
        let site = self.site(Site::Expr(e as *const Expr));
        self.spill();
        let out = self.b.ins().stack_addr(I64, self.out, 0);
        let r = self.call(Helper::Expr, &[self.env, site, self.slots, out]);
        self.reload();
        self.leave_unless_zero(r);
        self.b.ins().stack_load(I64, I64, self.out, 0)
    }

    /// `r != 0` leaves the loop (what stopped is in the environment; the step count is stored).
    fn leave_unless_zero(&mut self, r: Value) {
        let (go, leave) = (self.b.create_block(), self.b.create_block());
        self.b.ins().brif(r, leave, &[], go, &[]);
        self.b.set_cold_block(leave);
        self.b.switch_to_block(leave);
        self.store_steps();
        self.b.ins().jump(self.exit, &[]);
        self.b.switch_to_block(go);
    }

    fn expr(&mut self, e: &Expr) -> Value {
        match &e.kind {
            ExprKind::Const(v) => self.b.ins().iconst(I64, *v as i64),
            ExprKind::Slot(s) => self.b.use_var(self.var(*s)),
            ExprKind::Load { addr, storage: s, what } => {
                let a = self.address(addr);
                let p = self.host_ptr(a, *s, what, e.span, false);
                self.load(p, *s)
            }
            ExprKind::Arith { op, op_ty: s, left: a, right: b } => {
                let (x, y) = (self.expr(a), self.expr(b));
                self.arith(*op, *s, x, y, e.span)
            }
            ExprKind::Cmp { op, op_ty: s, left: a, right: b } => {
                let (x, y) = (self.expr(a), self.expr(b));
                self.compare(*op, *s, x, y)
            }
            ExprKind::Convert { from, to, value: v } => {
                let x = self.expr(v);
                self.convert(*from, *to, x)
            }
            ExprKind::PtrAdd { .. } => self.address(e),
            ExprKind::PtrDiff { left: a, right: b, elem_size: size } if *size > 0 => {
                let (x, y) = (self.expr(a), self.expr(b));
                let d = self.b.ins().isub(x, y);
                self.b.ins().sdiv_imm_s(d, *size)
            }
            ExprKind::Lib(Lib::Rand, args) if args.is_empty() => self.call(Helper::Rand, &[self.env]),
            ExprKind::Lib(Lib::Math(f), args) if args.len() <= 2 => {
                let mut v = [None, None];
                for (i, a) in args.iter().enumerate() {
                    v[i] = Some(self.expr(a));
                }
                let zero = self.b.ins().iconst(I64, 0);
                let ty = Ty::from(e.ty.scalar().unwrap_or(Scalar::F64));
                let site = self.site(Site::Math(*f, ty));
                self.call(Helper::Pure, &[self.env, site, v[0].unwrap_or(zero), v[1].unwrap_or(zero)])
            }
            ExprKind::Assign { place, storage: s, value } => {
                let x = self.expr(value);
                match &**place {
                    Place::Slot(slot) => self.b.def_var(self.var(*slot), x),
                    Place::Mem { addr, what } => {
                        let a = self.address(addr);
                        let ptr = self.host_ptr(a, *s, what, e.span, true);
                        self.store(ptr, *s, x);
                    }
                }
                x
            }
            ExprKind::Compound { op, op_ty: c, storage: t, place: p, value: v } => {
                let rhs = self.expr(v);
                let (old, ptr) = self.read_place(p, *t, e.span);
                let x = self.convert(*t, *c, old);
                let r = self.arith(*op, *c, x, rhs, e.span);
                let new = self.convert(*c, *t, r);
                self.write_back(p, *t, ptr, new);
                new
            }
            ExprKind::PtrCompound { elem_size: size, place: p, value: v } => {
                let i = self.expr(v);
                let (old, ptr) = self.read_place(p, Scalar::U64, e.span);
                let d = self.b.ins().imul_imm_s(i, *size);
                let new = self.b.ins().iadd(old, d);
                self.write_back(p, Scalar::U64, ptr, new);
                new
            }
            ExprKind::IncDec { storage: Scalar::Bool, .. } => self.callback_expr(e),
            ExprKind::IncDec { place: p, storage: s, step, prefix } => {
                let (old, ptr) = self.read_place(p, *s, e.span);
                let new = if s.is_float() {
                    let one = self.b.ins().iconst(I64, Scalar::I64.convert_bits(*s, *step as u64) as i64);
                    self.arith(ArithOp::Add, *s, old, one, e.span)
                } else {
                    let v = self.b.ins().iadd_imm_s(old, *step);
                    self.normalize(v, *s)
                };
                self.write_back(p, *s, ptr, new);
                if *prefix { new } else { old }
            }
            ExprKind::Unary { op: UnOp::Not, operand: v, .. } => {
                let x = self.expr(v);
                let z = self.b.ins().icmp_imm_s(IntCC::Equal, x, 0);
                self.b.ins().uextend(I64, z)
            }
            ExprKind::Unary { op, op_ty: s, operand: v } => {
                let x = self.expr(v);
                let site = self.site(Site::Unary(*op, Ty::from(*s)));
                let zero = self.b.ins().iconst(I64, 0);
                self.call(Helper::Pure, &[self.env, site, x, zero])
            }
            ExprKind::And(a, b) | ExprKind::Or(a, b) => {
                let and = matches!(e.kind, ExprKind::And(..));
                let x = self.test_bits(a);
                let (second, done) = (self.b.create_block(), self.b.create_block());
                let r = self.b.append_block_param(done, I64);
                if and {
                    self.b.ins().brif(x, second, &[], done, &[x.into()]);
                } else {
                    self.b.ins().brif(x, done, &[x.into()], second, &[]);
                }
                self.b.switch_to_block(second);
                let y = self.test_bits(b);
                self.b.ins().jump(done, &[y.into()]);
                self.b.switch_to_block(done);
                r
            }
            ExprKind::Cond { cond: c, then: a, otherwise: b } => {
                let (fb, done) = (self.b.create_block(), self.b.create_block());
                let r = self.b.append_block_param(done, I64);
                self.enter_if(c, fb);
                let y = self.expr(a);
                self.b.ins().jump(done, &[y.into()]);
                self.b.switch_to_block(fb);
                let z = self.expr(b);
                self.b.ins().jump(done, &[z.into()]);
                self.b.switch_to_block(done);
                r
            }
            ExprKind::Comma(a, b) => {
                self.expr(a);
                self.expr(b)
            }
            // `assert(c[i] == a[i] + b[i])` in a check loop: the condition inline; only a failing one goes to
            // the interpreter, which evaluates it again (it has no effects) and reports as it always does.
            ExprKind::Lib(Lib::Assert, args) if args.len() == 2 && reads_only(&args[0]) => {
                let x = self.expr(&args[0]);
                let (fail, done) = (self.b.create_block(), self.b.create_block());
                let zero = self.b.ins().iconst(I64, 0);
                self.b.ins().brif(x, done, &[], fail, &[]);
                self.b.set_cold_block(fail);
                self.b.switch_to_block(fail);
                self.callback_expr(e);
                self.b.ins().jump(done, &[]);
                self.b.switch_to_block(done);
                zero
            }
            _ => self.callback_expr(e),
        }
    }

    /// `p[i]`'s address (`p + i * size`, wrapping), or any other pointer expression's value.
    fn address(&mut self, e: &Expr) -> Value {
        match &e.kind {
            ExprKind::PtrAdd { ptr: p, index: i, elem_size: size } => {
                let (p, i) = (self.expr(p), self.expr(i));
                let d = self.b.ins().imul_imm_s(i, *size);
                self.b.ins().iadd(p, d)
            }
            _ => self.expr(e),
        }
    }

    /// Where `s.size()` bytes at `a` live in host memory; a bad address (read or `write`, through the pointer
    /// named `what`, by the expression at `span`) leaves the loop with the interpreter's report of it.
    fn host_ptr(&mut self, a: Value, s: Scalar, what: &Option<String>, span: Span, write: bool) -> Value {
        // This site's cache first: the allocation it reached last time, while nothing has been freed.
        let cache = self.n_caches;
        self.n_caches += 1;
        let entry = self.b.ins().iadd_imm_s(self.caches, cache as i64 * 24);
        let base = self.b.ins().load(I64, MemFlagsData::trusted(), entry, 0);
        let room = self.b.ins().load(I64, MemFlagsData::trusted(), entry, 8);
        let off = self.b.ins().isub(a, base);
        let hit = self.b.ins().icmp(IntCC::UnsignedLessThan, off, room);
        let (cached, ask, bad, ok) =
            (self.b.create_block(), self.b.create_block(), self.b.create_block(), self.b.create_block());
        let p = self.b.append_block_param(ok, I64);
        self.b.ins().brif(hit, cached, &[], ask, &[]);
        self.b.switch_to_block(cached);
        let delta = self.b.ins().load(I64, MemFlagsData::trusted(), entry, 16);
        let at = self.b.ins().iadd(a, delta);
        self.b.ins().jump(ok, &[at.into()]);
        self.b.switch_to_block(ask);
        let size = self.b.ins().iconst(I64, s.size() as i64);
        let which = self.b.ins().iconst(I64, cache as i64);
        let found = self.call(Helper::Ptr, &[self.env, a, size, which]);
        self.b.ins().brif(found, ok, &[found.into()], bad, &[]);
        self.b.set_cold_block(bad);
        self.b.switch_to_block(bad);
        self.store_steps();
        let site = self.site(Site::Fault { what: what.clone(), span, write, size: s.size() });
        self.call(Helper::Fault, &[self.env, site, a]);
        self.b.ins().jump(self.exit, &[]);
        self.b.switch_to_block(ok);
        p
    }
}

/// Whether evaluating `e` changes nothing (no store, call or draw), so the interpreter may evaluate it again.
fn reads_only(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Const(_) | ExprKind::Slot(_) | ExprKind::Str(_) | ExprKind::Global(_) => true,
        ExprKind::Load { addr, .. } => reads_only(addr),
        ExprKind::Unary { operand, .. } | ExprKind::Convert { value: operand, .. } => reads_only(operand),
        ExprKind::Arith { left, right, .. }
        | ExprKind::Cmp { left, right, .. }
        | ExprKind::PtrDiff { left, right, .. }
        | ExprKind::PtrAdd { ptr: left, index: right, .. }
        | ExprKind::And(left, right)
        | ExprKind::Or(left, right) => reads_only(left) && reads_only(right),
        ExprKind::Cond { cond, then, otherwise } => reads_only(cond) && reads_only(then) && reads_only(otherwise),
        _ => false,
    }
}
