//! The launch's compiled segments: per instruction, how often the segment starting there was issued and,
//! once hot, its code. Shared by the launch's block ranges (one [`Cache`] per whole run, behind an `Arc`);
//! compiling takes a lock, running a compiled segment takes none.

use std::sync::atomic::{AtomicU32, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use cranelift_codegen::ir::AbiParam;
use cranelift_codegen::ir::types::I64;
use cranelift_codegen::settings::{self, Configurable};
use cranelift_frontend::{FunctionBuilder, FunctionBuilderContext};
use cranelift_jit::{JITBuilder, JITModule};
use cranelift_module::Module;

use super::lower::{self, Code, Shape};
use super::stretch::{self, MAX_LEN, MIN_LEN, Rows};
use crate::front::tast::Special;
use crate::ir::Pc;
use crate::sim::decoded::{Op, Program, Row};
use crate::sim::exec::{Ctx, Uniform, WideLanes};
use crate::sim::machine::DeviceJit;

/// Segments compiled by this process (tests check that the compiled path ran).
static COMPILED: AtomicU64 = AtomicU64::new(0);

/// How many segments this process has compiled.
pub fn compiled_segments() -> u64 {
    COMPILED.load(Ordering::Relaxed)
}

/// Where an instruction of a segment reads an operand: a row as the segment found it, or the result of the
/// segment's instruction with this index.
#[derive(Clone, Copy, Debug)]
enum Src {
    Row(Row),
    Result(usize),
}

/// A compiled segment.
struct Segment {
    code: Code,
    len: u32,
    rows: Rows,
    /// Per instruction, its operands (for the values known in every lane, `Uniform`).
    srcs: Vec<(Op, [Src; 2])>,
    /// Per output row, the instruction that writes its last value.
    last_write: Vec<usize>,
    /// Rows below this one are all the segment touches (the register file's bounds are checked once a call).
    rows_end: usize,
}

/// Per instruction: the segment starting there.
#[derive(Default)]
struct Slot {
    issues: AtomicU32,
    /// Its code, or None where Cranelift refused it.
    code: OnceLock<Option<Segment>>,
}

/// Cranelift's module and contexts.
pub(super) struct Compiler {
    module: JITModule,
    ctx: cranelift_codegen::Context,
    fctx: FunctionBuilderContext,
}

// SAFETY: the module owns executable memory by raw pointers, which no other value refers to but the code
// pointers of finished segments (plain functions, callable from any thread); it is only used under the
// cache's lock.
unsafe impl Send for Compiler {}

/// The compiled segments of one launch's whole run.
pub(crate) struct Cache {
    program: Arc<Program>,
    after: u32,
    /// Per instruction, the length of the segment that starts there.
    lens: Vec<u32>,
    slots: Vec<Slot>,
    compiler: Mutex<Option<Compiler>>,
    /// Segments Cranelift refused (they stay interpreted), for the debug log.
    refused: AtomicU32,
    compiled: AtomicU32,
}

impl Cache {
    /// The cache of a launch of `program`; None when `mode` compiles nothing.
    pub fn new(program: Arc<Program>, mode: DeviceJit) -> Option<Cache> {
        let after = mode.after()?;
        let lens = stretch::lengths(&program);
        let slots = (0..lens.len()).map(|_| Slot::default()).collect();
        Some(Cache {
            program,
            after,
            lens,
            slots,
            compiler: Mutex::new(None),
            refused: AtomicU32::new(0),
            compiled: AtomicU32::new(0),
        })
    }

    /// Segments compiled and refused so far.
    pub fn counts(&self) -> (u32, u32) {
        (self.compiled.load(Ordering::Relaxed), self.refused.load(Ordering::Relaxed))
    }

    /// Runs the segment at `pc` over the group's lanes `lanes` (threads `ctx.base..` of the block) when it is
    /// compiled, hot and at most `room` instructions long; returns how many instructions it issued (0:
    /// nothing done, the interpreter goes on). Known uniform values of its rows are written to the rows
    /// first, and what it writes is no longer known (`Uniform`). Kept out of line: inlined into the group loop
    /// it made the interpreted path with the JIT off 3 % slower (vec_add, callgrind); cold, since the JIT is off
    /// by default.
    #[cold]
    #[inline(never)]
    pub fn run(&self, ctx: &mut Ctx, pc: Pc, room: u32, lanes: &WideLanes, uniform: &mut Uniform) -> u32 {
        let at = pc.0 as usize;
        let len = self.lens[at];
        if !(MIN_LEN..=room).contains(&len) {
            return 0;
        }
        let slot = &self.slots[at];
        let seg = match slot.code.get() {
            Some(Some(seg)) => seg,
            Some(None) => return 0,
            None => {
                if slot.issues.fetch_add(1, Ordering::Relaxed) + 1 < self.after {
                    return 0;
                }
                match slot.code.get_or_init(|| self.compile(pc, ctx)) {
                    Some(seg) => seg,
                    None => return 0,
                }
            }
        };
        let n = lanes.len();
        if ctx.base + n > ctx.stride || seg.rows_end * ctx.stride > ctx.regs.len() || lanes.select.len() < n {
            return 0;
        }
        let b = ctx.block_idx;
        let env = [b.x as u64, b.y as u64, b.z as u64];
        // The values the segment computes that are the same in every lane: when all are, the interpreter's
        // wide loops compute each once (and the rows stay unwritten); otherwise they are what the rows hold.
        let mut known = [None; MAX_LEN as usize];
        for (k, (op, [a, b])) in seg.srcs.iter().enumerate() {
            let get = |s: Src| match s {
                Src::Row(r) => uniform.rows[r as usize],
                Src::Result(j) => known[j],
            };
            known[k] = fold(*op, get(*a), get(*b), env, ctx);
        }
        if seg.last_write.iter().all(|&k| known[k].is_some()) {
            return 0;
        }
        for &r in &seg.rows.inputs {
            uniform.settle(ctx.regs, ctx.stride, r as usize);
        }
        for &d in &seg.rows.outputs {
            uniform.before_lanes_write(ctx.regs, ctx.stride, d);
        }
        // SAFETY: the code reads and writes only the segment's rows (below `rows_end`) at threads
        // `base..base + n` (checked above to lie in the register file), reads `n` select words and `env`'s
        // three, and has `Code`'s signature.
        unsafe {
            (seg.code)(
                ctx.regs.as_mut_ptr(),
                ctx.stride as u64,
                ctx.base as u64,
                n as u64,
                lanes.select.as_ptr(),
                env.as_ptr(),
                lanes.full as u64,
            )
        };
        for (&d, &k) in seg.rows.outputs.iter().zip(&seg.last_write) {
            uniform.lanes_written(d, known[k]);
        }
        seg.len
    }

    /// Compiles the segment at `pc` (a launch's shape comes from `ctx`); None, counted, where Cranelift
    /// refuses it.
    #[cold]
    fn compile(&self, pc: Pc, ctx: &Ctx) -> Option<Segment> {
        let at = pc.0 as usize;
        let ops = &self.program.ops[at..at + self.lens[at] as usize];
        let rows = stretch::rows(ops, self.program.regs);
        let mut last = std::collections::HashMap::new();
        let mut srcs = vec![];
        for (k, op) in ops.iter().enumerate() {
            let src = |r: Row| last.get(&r).map_or(Src::Row(r), |&j| Src::Result(j));
            let s = stretch::sources(op);
            let a = s.first().map_or(Src::Row(0), |&r| src(r));
            let b = s.get(1).map_or(a, |&r| src(r));
            srcs.push((*op, [a, b]));
            if let Some(d) = stretch::dest(op) {
                last.insert(d, k);
            }
        }
        let last_write = rows.outputs.iter().map(|d| last[d]).collect();
        let shape = Shape { block_dim: ctx.block_dim, grid_dim: ctx.grid_dim, regs: self.program.regs };
        let mut compiler = self.compiler.lock().ok()?;
        if compiler.is_none() {
            *compiler = new_compiler();
        }
        let code = compiler.as_mut().and_then(|c| c.code(ops, &rows, &self.program.consts, shape));
        let counter = if code.is_some() { &self.compiled } else { &self.refused };
        counter.fetch_add(1, Ordering::Relaxed);
        COMPILED.fetch_add(code.is_some() as u64, Ordering::Relaxed);
        let code = code?;
        let rows_end = ops
            .iter()
            .flat_map(|op| stretch::sources(op).into_iter().chain(stretch::dest(op)))
            .map(|r: Row| r as usize + 1)
            .max()
            .unwrap_or(0);
        Some(Segment { code, len: ops.len() as u32, rows, srcs, last_write, rows_end })
    }
}

/// The value `op` writes in every lane when its operands `a` and `b` are known in every lane (`Some`), as the
/// interpreter's wide loops compute it (`exec::execute_wide`); None when it differs between lanes or is not
/// known. `block_idx` is the block's index.
fn fold(op: Op, a: Option<u64>, b: Option<u64>, block_idx: [u64; 3], ctx: &Ctx) -> Option<u64> {
    match op {
        Op::Alu { f, .. } => Some(f.apply(a?, b?)),
        Op::Mov { .. } => a,
        Op::PtrAdd { scale, signed, .. } => {
            let (p, i) = (a?, b? as u32);
            let i = if signed { i as i32 as i64 } else { i as i64 };
            Some(p.wrapping_add(i.wrapping_mul(scale as i64) as u64))
        }
        Op::Special { which, .. } => match which {
            Special::ThreadIdx(_) => None,
            Special::BlockIdx(x) => Some(block_idx[x as usize]),
            Special::BlockDim(x) => Some(ctx.block_dim.as_array()[x as usize] as u64),
            Special::GridDim(x) => Some(ctx.grid_dim.as_array()[x as usize] as u64),
        },
        _ => None,
    }
}

impl Drop for Cache {
    fn drop(&mut self) {
        if std::env::var_os("WARPDBG_JIT_DEBUG").is_some() {
            let (compiled, refused) = self.counts();
            eprintln!("device jit: {compiled} segments compiled, {refused} refused");
        }
        if let Ok(Some(c)) = self.compiler.get_mut().map(Option::take) {
            // SAFETY: the cache is going away with every segment's code pointer; no call is running (callers
            // hold the cache while they call).
            unsafe { c.module.free_memory() };
        }
    }
}

/// A module for this machine, or None where Cranelift has no backend for it.
pub(super) fn new_compiler() -> Option<Compiler> {
    let mut flags = settings::builder();
    flags.set("opt_level", "speed").ok()?;
    flags.set("use_colocated_libcalls", "false").ok()?;
    flags.set("is_pic", "false").ok()?;
    let isa = cranelift_native::builder().ok()?.finish(settings::Flags::new(flags)).ok()?;
    Some(Compiler {
        module: JITModule::new(JITBuilder::with_isa(isa, cranelift_module::default_libcall_names())),
        ctx: cranelift_codegen::Context::new(),
        fctx: FunctionBuilderContext::new(),
    })
}

impl Compiler {
    /// The code of segment `ops` (its rows `rows`, the program's constants `consts`), or None where Cranelift
    /// refuses it.
    pub(super) fn code(&mut self, ops: &[Op], rows: &Rows, consts: &[u64], shape: Shape) -> Option<Code> {
        let Compiler { module, ctx, fctx } = self;
        module.clear_context(ctx);
        let sig = &mut ctx.func.signature;
        sig.call_conv = module.isa().default_call_conv();
        sig.params.extend((0..7).map(|_| AbiParam::new(I64)));
        let mut b = FunctionBuilder::new(&mut ctx.func, fctx);
        lower::segment(&mut b, ops, rows, consts, shape);
        b.finalize(module.isa().frontend_config());
        let id = module.declare_anonymous_function(&ctx.func.signature).ok()?;
        let defined = module.define_function(id, ctx);
        module.clear_context(ctx);
        defined.ok()?;
        module.finalize_definitions().ok()?;
        let ptr = module.get_finalized_function(id);
        // SAFETY: `ptr` is the function just defined, with the signature `Code` describes.
        Some(unsafe { std::mem::transmute::<*const u8, Code>(ptr) })
    }
}
