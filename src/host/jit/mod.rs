//! Hot host loops compiled to machine code with Cranelift. A loop that has run `HOT` iterations in the
//! interpreter (a CPU reference check, an initialisation loop) is compiled and goes on from its condition in
//! machine code; later runs of the same loop start there. Nothing observable changes: the same values (the
//! operations compiled inline are `sim::alu`'s, the others call it), the same step count (ticks at the
//! interpreter's places), the same host memory checks and reports (every access asks `HostMemory`), and
//! whatever the compiled code does not cover calls back into the interpreter. [`JitMode::Off`] (the run's
//! options, `WARPDBG_HOST_JIT=off`) runs everything in the interpreter, `Eager` compiles every loop when it
//! starts (the tests compare the three).

mod helpers;
mod lower;
mod run;
mod slots;

use std::cell::{Cell, UnsafeCell};
use std::collections::{BTreeSet, HashMap};
use std::rc::Rc;

use cranelift_codegen::ir::AbiParam;
use cranelift_codegen::ir::types::I64;
use cranelift_codegen::settings::{self, Configurable};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::Module;

use super::JitMode;
use super::tree::{Expr, Stmt};
use crate::front::source::Span;
use crate::front::tast::{ArithOp, CmpOp, MathFn, UnOp};
use crate::front::types::Scalar;
use crate::ir::Ty;
use run::Env;

/// The return codes of a compiled loop and of the interpreter's callbacks ([`helpers`]).
const DONE: i64 = 0;
const BREAK: i64 = 1;
const CONTINUE: i64 = 2;
/// Leave the loop: a flow (`return`, `goto`) or a halt (an error, `exit`) waits in the environment.
const EXIT: i64 = 3;

/// Iterations of one run of a loop in the interpreter before it is compiled.
const HOT: u32 = 2048;

impl JitMode {
    /// Iterations after which the interpreter hands a running loop over.
    pub fn after(self) -> u32 {
        match self {
            JitMode::Off => u32::MAX,
            JitMode::Hot => HOT,
            JitMode::Eager => 1,
        }
    }
}

/// What a compiled loop's helper calls need to know about the place they are called from.
pub(super) enum Site {
    /// A bad host access here: the pointer's name, the expression, whether it writes, its size.
    Fault {
        what: Option<String>,
        span: Span,
        write: bool,
        size: u32,
    },
    /// An arithmetic operation not compiled inline (division, shifts, narrow integers): its type, and where
    /// it is (the line of a division by zero).
    Arith {
        op: ArithOp,
        ty: Ty,
        span: Span,
    },
    Cmp(CmpOp, Ty),
    Convert(Scalar, Scalar),
    Unary(UnOp, Ty),
    Math(MathFn, Ty),
    /// A statement or expression the interpreter runs (the program's tree outlives every compiled loop).
    Stmt(*const Stmt),
    Expr(*const Expr),
    /// A loop iteration's step (the step limit's line).
    Tick(Span),
}

type Code = unsafe extern "C" fn(*mut Env, *mut u64, *mut u64, u64, *mut [u64; 3]) -> i64;

/// A compiled loop.
pub(super) struct CompiledLoop {
    code: Code,
    sites: Vec<Site>,
    /// Its access sites' caches (see `lower::Lower::caches`), valid while `HostMemory::frees` is `frees`.
    caches: UnsafeCell<Vec<[u64; 3]>>,
    frees: Cell<u64>,
}

/// A loop the compiler has seen (by the address of its statement in the program's tree).
enum Seen {
    /// Iterations run in the interpreter so far.
    Counting(u32),
    Compiled(Rc<CompiledLoop>),
    /// Cranelift refused it.
    Refused,
}

/// The compiler and the loops it has seen.
pub struct Jit {
    module: Option<JITModule>,
    ctx: cranelift_codegen::Context,
    fctx: FunctionBuilderContext,
    loops: HashMap<*const Stmt, Seen, foldhash::fast::FixedState>,
}

impl Jit {
    fn new() -> Jit {
        Jit {
            module: None,
            ctx: cranelift_codegen::Context::new(),
            fctx: FunctionBuilderContext::new(),
            loops: HashMap::default(),
        }
    }

    /// A module for this machine (made when the first loop is compiled), or None where Cranelift has no
    /// backend for it.
    fn module() -> Option<JITModule> {
        let mut flags = settings::builder();
        flags.set("opt_level", "speed").ok()?;
        flags.set("use_colocated_libcalls", "false").ok()?;
        flags.set("is_pic", "false").ok()?;
        let isa = cranelift_native::builder().ok()?.finish(settings::Flags::new(flags)).ok()?;
        Some(JITModule::new(JITBuilder::with_isa(isa, cranelift_module::default_libcall_names())))
    }

    /// Compiles loop `s` and records it: its code, or None where Cranelift refuses it.
    fn compile(&mut self, s: &Stmt) -> Option<Rc<CompiledLoop>> {
        if self.module.is_none() {
            self.module = Self::module();
        }
        let code = self.code(s).map(Rc::new);
        self.loops.insert(s as *const Stmt, code.clone().map_or(Seen::Refused, Seen::Compiled));
        code
    }

    /// Machine code for loop `s` entered at its condition, or None where Cranelift refuses it.
    fn code(&mut self, s: &Stmt) -> Option<CompiledLoop> {
        let Jit { module, ctx, fctx, .. } = self;
        let module = module.as_mut()?;
        let mut named = BTreeSet::new();
        slots::slots_of(s, &mut named);
        module.clear_context(ctx);
        let call_conv = module.isa().default_call_conv();
        let sig = &mut ctx.func.signature;
        sig.call_conv = call_conv;
        sig.params.extend((0..5).map(|_| AbiParam::new(I64)));
        sig.returns.push(AbiParam::new(I64));
        let mut b = FunctionBuilder::new(&mut ctx.func, fctx);
        let (sites, n_caches) = lower::Lower::new(&mut b, &named, call_conv).region(s);
        b.finalize(module.isa().frontend_config());
        // (Anonymous: loops are found by their statement, never by a name.)
        let id = module.declare_anonymous_function(&ctx.func.signature).ok()?;
        module.define_function(id, ctx).ok()?;
        module.clear_context(ctx);
        module.finalize_definitions().ok()?;
        let ptr = module.get_finalized_function(id);
        // SAFETY: `ptr` is the function just defined with the signature `Code` describes.
        let code = unsafe { std::mem::transmute::<*const u8, Code>(ptr) };
        Some(CompiledLoop {
            code,
            sites,
            caches: UnsafeCell::new(vec![[0; 3]; n_caches as usize]),
            frees: Cell::new(u64::MAX),
        })
    }
}

impl Drop for Jit {
    fn drop(&mut self) {
        self.loops.clear();
        if let Some(module) = self.module.take() {
            // SAFETY: the interpreter that owns this compiler is going away: none of its loops runs, and the
            // code pointers went with `loops` (a running loop holds its own `Rc`, but never across a drop).
            unsafe { module.free_memory() };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::tree::ExprKind;

    /// `while (0) {}` at a span of its own (loops are told apart by their statement's address anyway).
    fn empty_loop() -> Stmt {
        let never = Expr::new(ExprKind::Const(0), crate::front::types::Type::INT, Span::default());
        Stmt::While(never, Box::new(Stmt::Block(vec![])))
    }

    /// Loops compiled in any order, counted first or not, all get code (two once shared a name, and the
    /// second stayed interpreted).
    #[test]
    fn every_loop_compiles_whatever_the_order() {
        let loops: Vec<Stmt> = (0..4).map(|_| empty_loop()).collect();
        let mut jit = Jit::new();
        jit.loops.insert(&loops[0] as *const Stmt, Seen::Counting(HOT));
        assert!(jit.compile(&loops[0]).is_some());
        for l in &loops[1..] {
            assert!(jit.compile(l).is_some());
        }
        assert!(jit.loops.values().all(|s| matches!(s, Seen::Compiled(_))));
    }
}
