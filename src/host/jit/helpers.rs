//! The functions compiled loops call: host memory, `rand()`, the operations not compiled inline (the
//! interpreter's own `sim::alu` functions), and the interpreter itself. Every argument and result is an
//! `i64`; `env` is the running loop's [`Env`].

use super::run::Env;
use super::{BREAK, CONTINUE, DONE, EXIT, Site};
use crate::host::interp::{Flow, Interp};
use crate::sim::alu;

/// A helper, by what it does.
#[derive(Clone, Copy)]
pub(super) enum Helper {
    Ptr,
    Fault,
    Rand,
    Arith,
    Pure,
    Stmt,
    Expr,
    StepLimit,
}

impl Helper {
    pub(super) fn address(self) -> usize {
        match self {
            Helper::Ptr => ptr as *const () as usize,
            Helper::Fault => fault as *const () as usize,
            Helper::Rand => rand as *const () as usize,
            Helper::Arith => arith as *const () as usize,
            Helper::Pure => pure as *const () as usize,
            Helper::Stmt => stmt as *const () as usize,
            Helper::Expr => expr as *const () as usize,
            Helper::StepLimit => step_limit as *const () as usize,
        }
    }
}

/// The interpreter and the site `site` of the running loop.
///
/// SAFETY (every helper): `env` is the `Env` that `Interp::run_compiled` made for this call, alive and
/// not otherwise borrowed while the compiled code runs; `site` is an index the loop's compiler made.
unsafe fn parts<'e>(env: *mut Env, site: i64) -> (&'e mut Env, &'e mut Interp<'static>, &'e Site) {
    unsafe {
        let env = &mut *env;
        let interp = &mut *env.interp;
        let site = &(&*env.sites)[site as usize];
        (env, interp, site)
    }
}

/// Where `size` bytes at `addr` are in host memory (kept in access cache `cache` for the next time), or 0
/// when that is not a valid access.
extern "C" fn ptr(env: *mut Env, addr: i64, size: i64, cache: i64) -> i64 {
    // SAFETY: see `parts`; `cache` is one of the loop's `n_caches` entries.
    let env = unsafe { &mut *env };
    let interp = unsafe { &mut *env.interp };
    match interp.mem.locate(addr as u64, size as u64) {
        Ok((i, off)) => {
            let a = &mut interp.mem.allocs[i];
            let data = a.data.as_mut_ptr() as u64;
            if (cache as usize) < env.n_caches {
                // `addr - base < size - access + 1` exactly when the access is inside the allocation.
                let entry = [a.base, a.size - size as u64 + 1, data.wrapping_sub(a.base)];
                unsafe { *env.caches.add(cache as usize) = entry };
            }
            data as i64 + off as i64
        }
        Err(_) => 0,
    }
}

/// `run` in the interpreter on the frame's slots; what it frees is then forgotten by the loop's caches.
///
/// SAFETY: see `parts`; `slots` is the frame's slots, `env.slots` long.
unsafe fn in_interpreter<R>(env: &mut Env, slots: *mut u64, run: impl FnOnce(&mut Interp, &mut [u64]) -> R) -> R {
    let interp = unsafe { &mut *env.interp };
    let slots = unsafe { std::slice::from_raw_parts_mut(slots, env.slots) };
    let frees = interp.mem.frees;
    let r = run(interp, slots);
    if interp.mem.frees != frees {
        // SAFETY: `n_caches` entries at `caches` (see `Interp::run_compiled`).
        unsafe { std::ptr::write_bytes(env.caches, 0, env.n_caches) };
    }
    r
}

/// The interpreter's report of the bad access at `addr` (the loop leaves with it).
extern "C" fn fault(env: *mut Env, site: i64, addr: i64) -> i64 {
    // SAFETY: see `parts`.
    let (env, interp, site) = unsafe { parts(env, site) };
    if let Site::Fault { what, span, write, size } = site
        && let Err(f) = interp.mem.locate(addr as u64, *size as u64)
    {
        env.unwind = Some(interp.fault(f, addr as u64, *write, what.as_deref(), *span));
    }
    0
}

extern "C" fn rand(env: *mut Env) -> i64 {
    // SAFETY: see `parts`.
    let interp = unsafe { &mut *(*env).interp };
    interp.rand.rand() as u32 as i64
}

/// An operation compiled code leaves to `sim::alu` (division by zero leaves the loop): 0, or `EXIT`.
extern "C" fn arith(env: *mut Env, site: i64, a: i64, b: i64, out: *mut i64) -> i64 {
    // SAFETY: see `parts`; `out` is the loop's stack slot.
    let (env, interp, site) = unsafe { parts(env, site) };
    let Site::Arith { op, ty, span } = site else { return EXIT };
    match alu::host_binary(*op, *ty, a as u64, b as u64) {
        Ok(v) => {
            unsafe { *out = v as i64 };
            0
        }
        Err(_) => {
            env.unwind = Some(interp.divide_by_zero(*span));
            EXIT
        }
    }
}

/// A comparison, conversion, unary operation or math function the interpreter's way.
extern "C" fn pure(env: *mut Env, site: i64, a: i64, b: i64) -> i64 {
    // SAFETY: see `parts`.
    let (_, _, site) = unsafe { parts(env, site) };
    let (a, b) = (a as u64, b as u64);
    (match site {
        Site::Cmp(op, ty) => alu::compare(*op, *ty, a, b) as u64,
        Site::Convert(from, to) => from.convert_bits(*to, a),
        Site::Unary(op, ty) => alu::host_unary(*op, *ty, a),
        Site::Math(f, ty) => alu::host_math(*f, *ty, a, b),
        _ => 0,
    }) as i64
}

/// A statement the interpreter runs on the frame's slots: `DONE`, `BREAK`, `CONTINUE` or `EXIT`.
extern "C" fn stmt(env: *mut Env, site: i64, slots: *mut u64) -> i64 {
    // SAFETY: see `parts` and `in_interpreter`; the statement is in the program's tree.
    let (env, _, site) = unsafe { parts(env, site) };
    let Site::Stmt(s) = *site else { return EXIT };
    match unsafe { in_interpreter(env, slots, |interp, slots| interp.stmt(&*s, slots)) } {
        Ok(Flow::Normal) => DONE,
        Ok(Flow::Break) => BREAK,
        Ok(Flow::Continue) => CONTINUE,
        Ok(flow) => {
            env.flow = Some(flow);
            EXIT
        }
        Err(stop) => {
            env.unwind = Some(stop);
            EXIT
        }
    }
}

/// An expression the interpreter evaluates into `out`: 0, or `EXIT`.
extern "C" fn expr(env: *mut Env, site: i64, slots: *mut u64, out: *mut i64) -> i64 {
    // SAFETY: see `parts` and `in_interpreter`; the expression is in the program's tree.
    let (env, _, site) = unsafe { parts(env, site) };
    let Site::Expr(e) = *site else { return EXIT };
    match unsafe { in_interpreter(env, slots, |interp, slots| interp.eval(&*e, slots)) } {
        Ok(v) => {
            unsafe { *out = v as i64 };
            0
        }
        Err(stop) => {
            env.unwind = Some(stop);
            EXIT
        }
    }
}

/// The step limit, reached at a loop's iteration.
extern "C" fn step_limit(env: *mut Env, site: i64) -> i64 {
    // SAFETY: see `parts`.
    let (env, interp, site) = unsafe { parts(env, site) };
    if let Site::Tick(span) = site {
        env.unwind = Some(interp.step_limit(*span));
    }
    EXIT
}
