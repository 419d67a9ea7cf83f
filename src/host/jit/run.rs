//! A compiled loop run from inside the interpreter: the interpreter asks for a loop's machine code (compiling
//! it when it is hot, or at once when eager), runs it on the frame's slots, and takes back the flow or the
//! halt it left with. [`Env`] is what the code's calls back into the interpreter ([`super::helpers`]) reach.

use super::{CompiledLoop, DONE, HOT, Jit, JitMode, Seen, Site};
use crate::host::interp::{Flow, Interp, Unwind};
use crate::host::tree::Stmt;

/// What the helpers reach while a compiled loop runs.
pub(super) struct Env {
    pub(super) interp: *mut Interp<'static>,
    pub(super) sites: *const [Site],
    pub(super) slots: usize,
    /// The running loop's access caches: emptied when a call into the interpreter frees memory.
    pub(super) caches: *mut [u64; 3],
    pub(super) n_caches: usize,
    /// Why the loop was left with `EXIT`.
    pub(super) unwind: Option<Unwind>,
    pub(super) flow: Option<Flow>,
}

impl<'a> Interp<'a> {
    /// Loop `s` in machine code from its condition on, when it is compiled (or `compile` asks for it and
    /// Cranelift takes it): the loop's flow, or None to go on interpreting it.
    pub(in crate::host) fn compiled_loop(
        &mut self,
        s: &Stmt,
        slots: &mut [u64],
        compile: bool,
    ) -> Result<Option<Flow>, Unwind> {
        if self.jit_mode == JitMode::Off {
            return Ok(None);
        }
        let key = s as *const Stmt;
        let jit = self.jit.get_or_insert_with(|| Box::new(Jit::new()));
        let code = match jit.loops.get(&key) {
            Some(Seen::Compiled(c)) => c.clone(),
            Some(Seen::Refused) => return Ok(None),
            _ if compile || self.jit_mode == JitMode::Eager => match jit.compile(s) {
                Some(c) => c,
                None => return Ok(None),
            },
            _ => return Ok(None),
        };
        self.run_compiled(&code, slots).map(Some)
    }

    /// Loop `s` ran `n` iterations in the interpreter and ended: once its runs add up to a hot loop, it is
    /// compiled for the next one.
    pub(in crate::host) fn interpreted_loop(&mut self, s: &Stmt, n: u32) {
        let jit = self.jit.get_or_insert_with(|| Box::new(Jit::new()));
        let seen = jit.loops.entry(s as *const Stmt).or_insert(Seen::Counting(0));
        if let Seen::Counting(k) = seen {
            *k = k.saturating_add(n);
            if *k >= HOT {
                jit.compile(s);
            }
        }
    }

    fn run_compiled(&mut self, c: &CompiledLoop, slots: &mut [u64]) -> Result<Flow, Unwind> {
        let max = self.max_steps;
        // (Raw: a loop the interpreter calls back into may run again inside itself, on the same caches.)
        // SAFETY: the vector is never resized after compilation.
        let (caches, n_caches) = unsafe { ((*c.caches.get()).as_mut_ptr(), (*c.caches.get()).len()) };
        if c.frees.get() != self.mem.frees {
            // SAFETY: `n_caches` entries at `caches`; zero is the empty entry (no offset is below 0).
            unsafe { std::ptr::write_bytes(caches, 0, n_caches) };
        }
        let me: *mut Interp<'a> = self;
        let mut env = Env {
            interp: me.cast(),
            sites: c.sites.as_slice(),
            slots: slots.len(),
            caches,
            n_caches,
            unwind: None,
            flow: None,
        };
        // SAFETY: the code reads and writes only `slots`, the step count and the caches (all live for the
        // call), host memory through pointers `HostMemory` gave it since the last free, and reaches the
        // interpreter only through the helpers, which get it from `env`; nothing else uses `self` until the
        // call returns.
        let code = unsafe { (c.code)(&mut env, slots.as_mut_ptr(), &raw mut (*me).steps, max, caches) };
        c.frees.set(self.mem.frees);
        match code {
            DONE => Ok(Flow::Normal),
            _ => match (env.unwind.take(), env.flow.take()) {
                (Some(stop), _) => Err(stop),
                (None, Some(flow)) => Ok(flow),
                (None, None) => Ok(Flow::Normal),
            },
        }
    }
}
