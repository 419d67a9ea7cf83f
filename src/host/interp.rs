//! The host interpreter: runs a [`HostProgram`] on one deterministic host thread.

use std::io::Write;

use super::memory::{AllocKind, HostMemory, MemFault};
use super::tree::*;
use super::{Device, HostEnd, HostError, JitMode};
use crate::front::source::{SourceFile, Span};
use crate::front::tast::ArithOp;
use crate::front::types::Scalar;
use crate::ir::Ty;
use crate::sim::alu;

/// The largest variable-length array: a real machine's default stack (8 MiB).
const VLA_MAX: u64 = 8 << 20;

/// Deepest host call nesting (a real 8 MiB stack holds about this many small frames).
const MAX_DEPTH: u32 = if cfg!(feature = "native") { 100_000 } else { FIXED_STACK_MAX_DEPTH };
/// Without `native` (the page's WebAssembly, whose stack is a fixed 8 MiB: `.ci/page`) the stack cannot grow:
/// a bound well inside it.
const FIXED_STACK_MAX_DEPTH: u32 = 2_000;
#[cfg(feature = "native")]
/// Stack left when a host call moves to a new segment: enough for the deepest statement and expression nesting
/// the parser allows within one function, in an unoptimised build.
const STACK_RED_ZONE: usize = 1 << 20;
#[cfg(feature = "native")]
/// Size of each stack segment host calls move to (heap memory, freed as the calls return).
const STACK_SEGMENT: usize = 16 << 20;

/// Why the host program stops before its statements run to their end: the `Err` that unwinds evaluation
/// ([`HostEnd`] is what it becomes).
pub(super) enum Unwind {
    /// `exit(status)` (or `abort`, a failed `assert`).
    Exit(u8),
    /// A host error warpdbg found.
    Error(Box<HostError>),
    /// A launch stopped the program (deadlock, step limit): warpdbg's status.
    Stopped(u8),
    /// A C++ exception on its way to a `catch` ([`super::exceptions`]).
    Thrown(Box<Thrown>),
}

/// A thrown exception: its type's name as libstdc++ names it (`std::runtime_error`, `int`), the address of
/// its `what()` text (0 for none), and the value thrown (a scalar's bits).
#[derive(Debug)]
pub(super) struct Thrown {
    pub name: String,
    pub what: u64,
    pub value: u64,
}

/// How a statement ends: on to the next one, or a jump.
pub(super) enum Flow {
    Normal,
    Break,
    Continue,
    Return(u64),
    /// To the label of this index, a statement of the function's body.
    Goto(u32),
}

/// A running host program.
pub struct Interp<'a> {
    pub(super) prog: &'a HostProgram,
    pub(super) file: &'a SourceFile,
    pub mem: HostMemory,
    pub(super) dev: &'a mut dyn Device,
    pub(super) out: &'a mut dyn Write,
    pub(super) err: &'a mut dyn Write,
    pub(super) rand: super::libc::GlibcRand,
    /// The addresses of the file-scope variables (in `main`'s frame, set by its prologue).
    pub(super) globals: Vec<u64>,
    /// The environment `setenv` made: name -> address of the value's string.
    pub(super) env: std::collections::HashMap<Vec<u8>, u64>,
    pub(super) files: super::files::Files,
    /// The CUDA runtime's state: errors, events, streams, virtual time, findings.
    pub rt: super::cuda::Runtime,
    /// Addresses of the string literals, by id.
    pub(super) strings: Vec<u64>,
    /// Each output stream's format state (`cout`, `cerr`, and each file or string stream by its handle).
    pub(super) stream_states: std::collections::HashMap<(StreamTo, u64), super::stream::StreamState>,
    /// The standard input `scanf` reads.
    pub(super) stdin: super::libc::Input,
    /// Where the next `strtok(NULL, ...)` starts (0: no string left).
    pub(super) strtok_next: u64,
    /// `errno`'s address (0 until a program or a call first uses it).
    pub(super) errno_at: u64,
    /// The `drand48` family's 48-bit state.
    pub(super) rand48: u64,
    /// The functions `atexit` registered (their addresses), run last first when the program exits.
    pub(super) at_exit: Vec<u64>,
    /// A library call's arguments past its first [`super::tree::LIB_ARGS`], evaluated before it runs.
    pub(super) lib_rest: Vec<u64>,
    pub(super) getopt: super::libfns::GetoptState,
    depth: u32,
    /// The functions being run, innermost last.
    calls: Vec<u32>,
    /// Per call in progress, its variable-length arrays: (slot, address).
    vlas: Vec<Vec<(Slot, u64)>>,
    pub(super) steps: u64,
    pub(super) max_steps: u64,
    /// Hot loops in machine code ([`super::jit`]).
    #[cfg(feature = "native")]
    pub(super) jit: Option<Box<super::jit::Jit>>,
    #[cfg(feature = "native")]
    pub(super) jit_mode: JitMode,
    /// Iterations of one run of a loop before it is handed to the compiler.
    jit_after: u32,
}

impl<'a> Interp<'a> {
    /// An interpreter for `prog` (from `file`) on `dev`, stopped after `max_steps` statements, its loops
    /// compiled as `jit` says (where there is a compiler).
    pub fn new(
        prog: &'a HostProgram,
        file: &'a SourceFile,
        dev: &'a mut dyn Device,
        out: &'a mut dyn Write,
        err: &'a mut dyn Write,
        max_steps: u64,
        jit: JitMode,
    ) -> Self {
        // The host may hold four times `--memory-cap` (16 GiB by default).
        let mut mem = HostMemory::default();
        mem.cap = dev.gpu().host_mem;
        #[cfg(feature = "native")]
        let jit_mode = jit;
        #[cfg(not(feature = "native"))]
        let _ = jit;
        let strings = prog
            .strings
            .iter()
            .map(|s| {
                let at = mem.alloc(s.len() as u64, AllocKind::Literal, "a string literal", 0);
                if let Ok(b) = mem.bytes(at, s.len() as u64) {
                    b.copy_from_slice(s);
                }
                at
            })
            .collect();
        Interp {
            prog,
            file,
            mem,
            dev,
            out,
            err,
            rand: Default::default(),
            globals: vec![0; prog.globals as usize],
            env: Default::default(),
            files: Default::default(),
            rt: Default::default(),
            strings,
            stream_states: Default::default(),
            stdin: Default::default(),
            strtok_next: 0,
            errno_at: 0,
            rand48: 0,
            at_exit: Vec::new(),
            lib_rest: Vec::new(),
            getopt: Default::default(),
            depth: 0,
            calls: vec![],
            vlas: vec![],
            steps: 0,
            max_steps,
            #[cfg(feature = "native")]
            jit: None,
            #[cfg(feature = "native")]
            jit_mode,
            #[cfg(feature = "native")]
            jit_after: jit_mode.after(),
            #[cfg(not(feature = "native"))]
            jit_after: u32::MAX,
        }
    }

    /// Loop `s` ran `n` iterations in the interpreter: hot loops are compiled for their next run.
    #[inline]
    fn loop_ended(&mut self, s: &Stmt, n: u32) {
        #[cfg(feature = "native")]
        if n > 0 && self.jit_mode == JitMode::Hot {
            self.interpreted_loop(s, n);
        }
        #[cfg(not(feature = "native"))]
        let _ = (s, n);
    }

    /// Loop `s` goes on in machine code (from its condition) when it is compiled, or now compiled.
    #[inline]
    fn machine_code(&mut self, s: &Stmt, slots: &mut [u64], compile: bool) -> Result<Option<Flow>, Unwind> {
        #[cfg(feature = "native")]
        return self.compiled_loop(s, slots, compile);
        #[cfg(not(feature = "native"))]
        {
            let _ = (s, slots, compile);
            Ok(None)
        }
    }

    /// A call's arguments, the last evaluated first as g++ on x86-64 evaluates them (`f(i++, i++)` passes
    /// 1 and 0; the order is the compiler's choice, and a program that prints it prints g++'s).
    pub(super) fn arguments(&mut self, args: &[Expr], slots: &mut [u64]) -> Result<Vec<u64>, Unwind> {
        let mut vals = vec![0; args.len()];
        for (v, a) in vals.iter_mut().zip(args).rev() {
            *v = self.eval(a, slots)?;
        }
        Ok(vals)
    }

    /// Runs `main(argc, argv)` to its end.
    pub fn run_main(&mut self, args: &[String]) -> HostEnd {
        let main = &self.prog.functions[self.prog.main as usize];
        let mut vals = vec![];
        if main.params.len() >= 2 {
            // argv: the program's name and the arguments, NUL-terminated, then a null pointer.
            let argv = self.mem.alloc(8 * (args.len() as u64 + 2), AllocKind::Stack, "argv", 0);
            // argv[0] is what a student types to run the program nvcc built from the file: `./reduction`.
            let file = self.file.name.rsplit('/').next().unwrap_or_default();
            let program = format!("./{}", file.rsplit_once('.').map_or(file, |(stem, _)| stem));
            for (i, a) in std::iter::once(&program).chain(args).enumerate() {
                let at = self.mem.alloc(a.len() as u64 + 1, AllocKind::Stack, "argv", 0);
                if let Ok(b) = self.mem.bytes(at, a.len() as u64) {
                    b.copy_from_slice(a.as_bytes());
                }
                let _ = self.mem.store(argv + 8 * i as u64, 8, at);
            }
            vals = vec![args.len() as u64 + 1, argv];
        }
        let span = main.span;
        let mut r = self.call(self.prog.main, vals, span);
        // `exit` and a return from `main` run the `atexit` functions, the last registered first (a fault or
        // an abort does not); one that calls `exit` changes the status and the rest still run, as in glibc.
        if matches!(r, Ok(_) | Err(Unwind::Exit(_))) {
            while let Some(f) = self.at_exit.pop() {
                match self.call_at(f, span) {
                    Ok(_) => {}
                    Err(end @ Unwind::Exit(_)) => r = Err(end),
                    Err(end) => {
                        r = Err(end);
                        break;
                    }
                }
            }
        }
        self.files.close_all();
        let _ = self.out.flush();
        match r {
            Ok(v) => HostEnd::Exited(v as u8),
            Err(Unwind::Exit(code)) => HostEnd::Exited(code),
            Err(Unwind::Error(e)) => HostEnd::Error(*e),
            Err(Unwind::Stopped(code)) => HostEnd::Stopped(code),
            Err(Unwind::Thrown(t)) => match self.uncaught(&t) {
                Unwind::Exit(code) => HostEnd::Exited(code),
                Unwind::Error(e) => HostEnd::Error(*e),
                _ => HostEnd::Exited(134),
            },
        }
    }

    /// The running function's signature as `__PRETTY_FUNCTION__` gives it (`int main(int, char **)`).
    pub(super) fn current_function(&self) -> String {
        let Some(f) = self.calls.last().and_then(|&f| self.prog.functions.get(f as usize)) else {
            return String::new();
        };
        let params: Vec<String> = f.params.iter().map(|(_, t)| t.to_string()).collect();
        format!("{} {}({})", f.ret, f.name, params.join(", "))
    }

    pub(super) fn line(&self, span: Span) -> u32 {
        self.file.line_of(span.start)
    }

    pub(super) fn call(&mut self, f: u32, args: Vec<u64>, at: Span) -> Result<u64, Unwind> {
        // Each host call is a few Rust frames deep: where the thread's stack runs low, the call goes on in a
        // segment on the heap, so only `MAX_DEPTH` ends a recursion.
        #[cfg(feature = "native")]
        return stacker::maybe_grow(STACK_RED_ZONE, STACK_SEGMENT, || self.call_here(f, args, at));
        #[cfg(not(feature = "native"))]
        self.call_here(f, args, at)
    }

    fn call_here(&mut self, f: u32, args: Vec<u64>, at: Span) -> Result<u64, Unwind> {
        let func = &self.prog.functions[f as usize];
        if self.depth >= MAX_DEPTH {
            return Err(Unwind::Error(Box::new(HostError::StackOverflow {
                line: self.line(at),
                function: func.name.clone(),
            })));
        }
        self.depth += 1;
        self.calls.push(f);
        self.vlas.push(vec![]);
        let mut slots = vec![0u64; func.slots as usize];
        for ((s, _), v) in func.params.iter().zip(args) {
            slots[*s as usize] = v;
        }
        let line = self.line(func.span);
        let mut frame = Vec::with_capacity(func.frame.len());
        for (slot, size, name) in &func.frame {
            let at = self.mem.alloc(*size as u64, AllocKind::Stack, name, line);
            slots[*slot as usize] = at;
            frame.push(at);
        }
        let mut r = self.block(&func.body, &mut slots);
        while let Ok(Flow::Goto(l)) = r {
            let at = func.body.iter().position(|s| matches!(s, Stmt::Label(x) if *x == l)).unwrap_or(func.body.len());
            r = self.block(&func.body[at..], &mut slots);
        }
        // Freed newest first, so that each is the last allocation and its addresses are used again.
        let vlas = self.vlas.pop().unwrap_or_default();
        for at in frame.iter().chain(vlas.iter().map(|(_, at)| at)).rev() {
            if let Some(i) = self.mem.at_base(*at) {
                self.mem.release(i, line);
            }
        }
        self.depth -= 1;
        self.calls.pop();
        match r? {
            Flow::Return(v) => Ok(v),
            _ => Ok(0),
        }
    }

    fn block(&mut self, stmts: &[Stmt], slots: &mut [u64]) -> Result<Flow, Unwind> {
        for s in stmts {
            match self.stmt(s, slots)? {
                Flow::Normal => {}
                f => return Ok(f),
            }
        }
        Ok(Flow::Normal)
    }

    pub(super) fn tick(&mut self, span: Span) -> Result<(), Unwind> {
        self.steps += 1;
        if self.steps > self.max_steps {
            return Err(self.step_limit(span));
        }
        Ok(())
    }

    #[cold]
    pub(super) fn step_limit(&self, span: Span) -> Unwind {
        Unwind::Error(Box::new(HostError::StepLimit { line: self.line(span) }))
    }

    pub(super) fn stmt(&mut self, s: &Stmt, slots: &mut [u64]) -> Result<Flow, Unwind> {
        match s {
            Stmt::Expr(e) => {
                self.eval(e, slots)?;
            }
            Stmt::Block(b) => return self.block(b, slots),
            Stmt::Try(body, handlers) => return self.try_catch(body, handlers, slots),
            Stmt::If { cond: c, then: t, otherwise: e } => {
                if self.eval(c, slots)? != 0 {
                    return self.stmt(t, slots);
                } else if let Some(e) = e {
                    return self.stmt(e, slots);
                }
            }
            Stmt::While(c, body) => {
                if let Some(f) = self.machine_code(s, slots, false)? {
                    return Ok(f);
                }
                let mut n = 0u32;
                while self.eval(c, slots)? != 0 {
                    self.tick(c.span)?;
                    match self.stmt(body, slots)? {
                        Flow::Break => break,
                        f @ (Flow::Return(_) | Flow::Goto(_)) => return Ok(f),
                        _ => {}
                    }
                    n += 1;
                    if n == self.jit_after
                        && let Some(f) = self.machine_code(s, slots, true)?
                    {
                        return Ok(f);
                    }
                }
                self.loop_ended(s, n);
            }
            Stmt::DoWhile(body, c) => loop {
                self.tick(c.span)?;
                match self.stmt(body, slots)? {
                    Flow::Break => break,
                    f @ (Flow::Return(_) | Flow::Goto(_)) => return Ok(f),
                    _ => {}
                }
                if self.eval(c, slots)? == 0 {
                    break;
                }
            },
            Stmt::For { init, cond: c, step, body } => {
                self.block(init, slots)?;
                if let Some(f) = self.machine_code(s, slots, false)? {
                    return Ok(f);
                }
                let mut n = 0u32;
                loop {
                    if let Some(c) = c
                        && self.eval(c, slots)? == 0
                    {
                        break;
                    }
                    // (A `for (;;)` counts too: the step limit must stop it.)
                    self.tick(c.as_ref().or(step.as_ref()).map(|e| e.span).unwrap_or_default())?;
                    match self.stmt(body, slots)? {
                        Flow::Break => break,
                        f @ (Flow::Return(_) | Flow::Goto(_)) => return Ok(f),
                        _ => {}
                    }
                    if let Some(s) = step {
                        self.eval(s, slots)?;
                    }
                    n += 1;
                    if n == self.jit_after
                        && let Some(f) = self.machine_code(s, slots, true)?
                    {
                        return Ok(f);
                    }
                }
                self.loop_ended(s, n);
            }
            Stmt::Switch { value: v, cases, default, body } => {
                let v = self.eval(v, slots)?;
                let start = cases.iter().find(|(c, _)| *c == v).map(|(_, i)| *i).or(*default);
                if let Some(start) = start {
                    match self.block(&body[start..], slots)? {
                        Flow::Break | Flow::Normal => {}
                        f => return Ok(f),
                    }
                }
            }
            Stmt::Break => return Ok(Flow::Break),
            Stmt::Goto(l) => return Ok(Flow::Goto(*l)),
            Stmt::Label(_) => {}
            Stmt::SetGlobal(g, s) => {
                if let Some(at) = self.globals.get_mut(*g as usize) {
                    *at = slots[*s as usize];
                }
            }
            Stmt::Managed { global, symbol } => self.managed_global(*global, *symbol),
            Stmt::Continue => return Ok(Flow::Continue),
            Stmt::Return(v) => {
                let v = match v {
                    Some(e) => self.eval(e, slots)?,
                    None => 0,
                };
                return Ok(Flow::Return(v));
            }
            Stmt::Zero(slot, size) => {
                let at = slots[*slot as usize];
                if let Ok(b) = self.mem.bytes(at, *size as u64) {
                    b.fill(0);
                }
            }
            Stmt::Vla { slot, bytes, name } => {
                let line = self.line(bytes.span);
                let bytes = self.eval(bytes, slots)?;
                // (Statements run inside a call, which made the list; an empty one is never indexed.)
                if self.vlas.is_empty() {
                    self.vlas.push(vec![]);
                }
                let frame = self.vlas.last_mut().unwrap_or_else(|| unreachable!());
                // Declared again: the block that held the last one was left, so it is gone.
                if let Some(i) = frame.iter().position(|(s, _)| s == slot) {
                    let (_, at) = frame.remove(i);
                    if let Some(i) = self.mem.at_base(at) {
                        self.mem.release(i, line);
                    }
                }
                if bytes > VLA_MAX {
                    return Err(Unwind::Error(Box::new(HostError::VlaTooLarge { line, name: name.clone(), bytes })));
                }
                let at = self.mem.alloc(bytes, AllocKind::Stack, name, line);
                slots[*slot as usize] = at;
                if let Some(frame) = self.vlas.last_mut() {
                    frame.push((*slot, at));
                }
            }
        }
        Ok(Flow::Normal)
    }

    /// The explanation of a bad access of `size` bytes at `addr`.
    #[cold]
    pub(super) fn fault(&self, f: MemFault, addr: u64, write: bool, what: Option<&str>, span: Span) -> Unwind {
        let line = self.line(span);
        let verb = if write { "writes" } else { "reads" };
        let message = match f {
            MemFault::Null => format!("host code at line {line} {verb} through a null pointer"),
            MemFault::UseAfterFree { alloc } => {
                let a = &self.mem.allocs[alloc];
                format!(
                    "host code at line {line} {verb} {} after it was freed at line {} (allocated at line {}): \
                     use after free",
                    describe(what, &a.name, addr - a.base),
                    a.freed.unwrap_or(0),
                    a.line
                )
            }
            MemFault::OutOfBounds { alloc, offset } => {
                let a = &self.mem.allocs[alloc];
                let place = if offset < 0 {
                    format!("{} bytes before", -offset)
                } else {
                    format!("{} bytes after the end of", offset - a.size as i64)
                };
                format!(
                    "host code at line {line} {verb} out of bounds: {place} `{}` ({} bytes, allocated at line {})",
                    a.name, a.size, a.line
                )
            }
            MemFault::Wild => match self.dev.owner(addr) {
                Some(d) => {
                    let index = (addr - d.base) / d.elem_size.max(1) as u64;
                    let name = what.unwrap_or(&d.name);
                    format!(
                        "host code at line {line} {verb} {name}[{index}], but {name} points to device memory from \
                         cudaMalloc at line {}: copy it back with cudaMemcpy(..., cudaMemcpyDeviceToHost) first",
                        d.line
                    )
                }
                None => format!("host code at line {line} {verb} address {addr:#x}, which is in no allocation"),
            },
        };
        Unwind::Error(Box::new(HostError::Memory { line, message }))
    }

    /// A copy of `n` host bytes at `addr`.
    pub(super) fn read_bytes(&mut self, addr: u64, n: u64, span: Span) -> Result<Vec<u8>, Unwind> {
        match self.mem.bytes(addr, n) {
            Ok(b) => Ok(b.to_vec()),
            Err(f) => Err(self.fault(f, addr, false, None, span)),
        }
    }

    /// Writes `data` (or `n` copies of `fill` when `data` is None) to host memory at `addr`.
    pub(super) fn write_bytes(
        &mut self,
        addr: u64,
        data: Option<&[u8]>,
        n: u64,
        fill: u8,
        span: Span,
    ) -> Result<(), Unwind> {
        match self.mem.bytes(addr, n) {
            Ok(b) => {
                match data {
                    Some(d) => b.copy_from_slice(d),
                    None => b.fill(fill),
                }
                Ok(())
            }
            Err(f) => Err(self.fault(f, addr, true, None, span)),
        }
    }

    pub(super) fn load(&mut self, addr: u64, s: Scalar, what: Option<&str>, span: Span) -> Result<u64, Unwind> {
        self.mem.load(addr, s.size()).map_err(|f| self.fault(f, addr, false, what, span))
    }

    fn store(&mut self, p: &Place, s: Scalar, bits: u64, slots: &mut [u64], span: Span) -> Result<(), Unwind> {
        match p {
            Place::Slot(slot) => slots[*slot as usize] = bits,
            Place::Mem { addr, what } => {
                let a = self.address(addr, slots)?;
                self.mem.store(a, s.size(), bits).map_err(|f| self.fault(f, a, true, what.as_deref(), span))?;
            }
        }
        Ok(())
    }

    /// The current value of a place (stored as `s`) and, for memory, its address.
    fn read_place(&mut self, p: &Place, s: Scalar, slots: &mut [u64], span: Span) -> Result<(u64, u64), Unwind> {
        match p {
            Place::Slot(slot) => Ok((slots[*slot as usize], 0)),
            Place::Mem { addr, what } => {
                let a = self.address(addr, slots)?;
                Ok((self.load(a, s, what.as_deref(), span)?, a))
            }
        }
    }

    /// Stores `bits` (as `s`) back to a place [`Self::read_place`] read, at `addr` for memory.
    fn write_back(
        &mut self,
        p: &Place,
        s: Scalar,
        addr: u64,
        bits: u64,
        slots: &mut [u64],
        span: Span,
    ) -> Result<(), Unwind> {
        match p {
            Place::Slot(slot) => slots[*slot as usize] = bits,
            Place::Mem { what, .. } => {
                self.mem.store(addr, s.size(), bits).map_err(|f| self.fault(f, addr, true, what.as_deref(), span))?
            }
        }
        Ok(())
    }

    /// An expression's value. The kinds host loops run on are here, in a function with a small frame (it
    /// recurses once per node); the rest are in [`Self::eval_rest`].
    pub(super) fn eval(&mut self, e: &Expr, slots: &mut [u64]) -> Result<u64, Unwind> {
        Ok(match &e.kind {
            ExprKind::Const(v) => *v,
            ExprKind::Slot(s) => slots[*s as usize],
            ExprKind::Load { addr, storage: s, what } => {
                let a = self.address(addr, slots)?;
                match self.mem.load(a, s.size()) {
                    Ok(v) => v,
                    Err(f) => return Err(self.fault(f, a, false, what.as_deref(), e.span)),
                }
            }
            ExprKind::Arith { op, op_ty: s, left: a, right: b } => {
                let (a, b) = (self.eval(a, slots)?, self.eval(b, slots)?);
                // (`arith` written out: calling it costs host loops 3 %.)
                match alu::host_binary(*op, Ty::from(*s), a, b) {
                    Ok(v) => v,
                    Err(_) => return Err(self.divide_by_zero(e.span)),
                }
            }
            ExprKind::Cmp { op, op_ty: s, left: a, right: b } => {
                let (a, b) = (self.eval(a, slots)?, self.eval(b, slots)?);
                alu::compare(*op, Ty::from(*s), a, b) as u64
            }
            ExprKind::Convert { from, to, value: v } => {
                let v = self.eval(v, slots)?;
                from.convert_bits(*to, v)
            }
            ExprKind::PtrAdd { .. } => return self.address(e, slots),
            // (`rand()` fills arrays in host loops: no argument to evaluate, no line to find.)
            ExprKind::Lib(Lib::Rand, _) => self.rand.rand() as u32 as u64,
            ExprKind::Assign { place, storage, value } => {
                let v = self.eval(value, slots)?;
                self.store(place, *storage, v, slots, e.span)?;
                v
            }
            // A loop counter's `i++`.
            ExprKind::IncDec { place: p, storage: s, step, prefix }
                if !s.is_float() && matches!(**p, Place::Slot(_)) =>
            {
                let Place::Slot(slot) = **p else { return self.eval_rest(e, slots) };
                let old = slots[slot as usize];
                let new = Scalar::I64.convert_bits(*s, old.wrapping_add(*step as u64));
                slots[slot as usize] = new;
                if *prefix { new } else { old }
            }
            _ => return self.eval_rest(e, slots),
        })
    }

    /// An address: `p[i]`'s `p + i * size` computed here rather than one call deeper (arrays in host loops).
    #[inline(always)]
    fn address(&mut self, e: &Expr, slots: &mut [u64]) -> Result<u64, Unwind> {
        match &e.kind {
            ExprKind::PtrAdd { ptr: p, index: i, elem_size: size } => {
                let (p, i) = (self.eval(p, slots)?, self.eval(i, slots)?);
                Ok(p.wrapping_add((i as i64).wrapping_mul(*size) as u64))
            }
            _ => self.eval(e, slots),
        }
    }

    #[inline(never)]
    fn eval_rest(&mut self, e: &Expr, slots: &mut [u64]) -> Result<u64, Unwind> {
        Ok(match &e.kind {
            ExprKind::Str(id) => self.strings[*id as usize],
            ExprKind::Global(g) => self.globals.get(*g as usize).copied().unwrap_or(0),
            ExprKind::Compound { op, op_ty: c, storage: t, place: p, value: v } => {
                let rhs = self.eval(v, slots)?;
                let (old, addr) = self.read_place(p, *t, slots, e.span)?;
                let x = t.convert_bits(*c, old);
                let r = self.arith(*op, *c, x, rhs, e.span)?;
                let new = c.convert_bits(*t, r);
                self.write_back(p, *t, addr, new, slots, e.span)?;
                new
            }
            ExprKind::PtrCompound { elem_size: size, place: p, value: v } => {
                let i = self.eval(v, slots)?;
                let (old, addr) = self.read_place(p, Scalar::U64, slots, e.span)?;
                let new = old.wrapping_add((i as i64).wrapping_mul(*size) as u64);
                self.write_back(p, Scalar::U64, addr, new, slots, e.span)?;
                new
            }
            ExprKind::IncDec { place: p, storage: s, step, prefix } => {
                let (old, addr) = self.read_place(p, *s, slots, e.span)?;
                let new = if s.is_float() {
                    let one = Scalar::I64.convert_bits(*s, *step as u64);
                    alu::host_binary(ArithOp::Add, Ty::from(*s), old, one).unwrap_or(old)
                } else {
                    Scalar::I64.convert_bits(*s, old.wrapping_add(*step as u64))
                };
                self.write_back(p, *s, addr, new, slots, e.span)?;
                if *prefix { new } else { old }
            }
            ExprKind::Unary { op, op_ty: s, operand: v } => {
                let v = self.eval(v, slots)?;
                alu::host_unary(*op, Ty::from(*s), v)
            }
            ExprKind::And(a, b) => (self.eval(a, slots)? != 0 && self.eval(b, slots)? != 0) as u64,
            ExprKind::Or(a, b) => (self.eval(a, slots)? != 0 || self.eval(b, slots)? != 0) as u64,
            ExprKind::Cond { cond: c, then: a, otherwise: b } => {
                if self.eval(c, slots)? != 0 {
                    self.eval(a, slots)?
                } else {
                    self.eval(b, slots)?
                }
            }
            ExprKind::PtrDiff { left: a, right: b, elem_size: size } => {
                let (a, b) = (self.eval(a, slots)?, self.eval(b, slots)?);
                ((a.wrapping_sub(b) as i64) / size) as u64
            }
            ExprKind::Call(f, args) => {
                let vals = self.arguments(args, slots)?;
                self.tick(e.span)?;
                self.call(*f, vals, e.span)?
            }
            ExprKind::Lib(lib, args) => self.lib(*lib, args, slots, e)?,
            ExprKind::Launch(l) => {
                self.launch(l, slots, e.span)?;
                0
            }
            ExprKind::CallPtr(c) => self.call_ptr(c, slots, e.span)?,
            ExprKind::LaunchPtr(l) => {
                self.launch_ptr(l, slots, e.span)?;
                0
            }
            ExprKind::Generate { first, last, storage: s, value } => {
                let (mut p, last) = (self.eval(first, slots)?, self.eval(last, slots)?);
                while p < last {
                    self.tick(e.span)?;
                    let v = self.eval(value, slots)?;
                    self.mem.store(p, s.size(), v).map_err(|f| self.fault(f, p, true, None, e.span))?;
                    p += s.size() as u64;
                }
                0
            }
            ExprKind::Comma(a, b) => {
                self.eval(a, slots)?;
                self.eval(b, slots)?
            }
            ExprKind::InitDim3(addr, parts) => {
                let a = self.eval(addr, slots)?;
                for k in 0..3 {
                    let v = match parts.get(k) {
                        Some(p) => self.eval(p, slots)?,
                        None => 1,
                    };
                    self.mem.store(a + 4 * k as u64, 4, v).map_err(|f| self.fault(f, a, true, None, e.span))?;
                }
                0
            }
            // (The kinds `eval` evaluates itself.)
            _ => return self.eval(e, slots),
        })
    }

    fn arith(&mut self, op: ArithOp, s: Scalar, a: u64, b: u64, span: Span) -> Result<u64, Unwind> {
        alu::host_binary(op, Ty::from(s), a, b).map_err(|_| self.divide_by_zero(span))
    }

    #[cold]
    pub(super) fn divide_by_zero(&self, span: Span) -> Unwind {
        Unwind::Error(Box::new(HostError::DivideByZero { line: self.line(span) }))
    }
}

/// `h_a[3]` for an access `offset` bytes into allocation `name`, or its name alone.
fn describe(what: Option<&str>, name: &str, offset: u64) -> String {
    format!("`{}` (byte {offset})", what.unwrap_or(name))
}
