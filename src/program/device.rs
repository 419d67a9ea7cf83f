//! The simulated GPU a program's host code talks to: its device memory (a [`GlobalMemory`] that persists
//! across launches) and launches run on the simulated SM ([`Machine::with_memory`]), with every check a
//! kernel-file run makes. Launch configurations are checked as the driver checks them first.

use std::collections::HashMap;
use std::sync::Arc;

use super::hints::{self, HostAlloc, c_name};
use super::report;
use crate::front::diagnostic::Diagnostic;
use crate::front::launch::{Dim3, Launch, LaunchArg, Mode};
use crate::front::source::SourceMap;
use crate::front::tast;
use crate::front::types::Scalar;
use crate::host::cuda::errors::{self, INVALID_VALUE};
use crate::host::cuda::props::Gpu;
use crate::host::{DeviceAlloc, LaunchRequest, LaunchStatus};
use crate::ir::{Instr, Kernel, Ty};
use crate::sim::{
    Allocation, ChildLaunch, Config, FaultKind, GLOBAL_BASE, GlobalMemory, HazardKind, Machine, MemoryDetail, Outcome,
    SharedLayout, Zeroed, copy_changed,
};

mod child_grids;
mod launch_memo;

/// Unused bytes after each device allocation (an off-by-one access lands outside every allocation).
use crate::sim::GUARD;
/// Shared memory a block may use without opting in (static and dynamic together).
const SHARED_PER_BLOCK: u64 = 48 * 1024;

/// One launch of the program, as warpdbg saw it.
#[derive(Clone, Debug, PartialEq)]
pub struct LaunchRecord {
    /// The program's launch number, from 1.
    pub index: usize,
    pub kernel: String,
    /// `fill<<<2, 2048>>>`.
    pub config: String,
    pub host_line: u32,
    /// interface.md's outcome, or `not_run` for a launch the configuration check refused.
    pub outcome: &'static str,
    pub steps: u64,
    pub hazards: usize,
    /// Virtual duration on the device.
    pub ns: u64,
    /// The CUDA error the launch gave (refused, or faulted).
    pub error: Option<u32>,
    /// What in it makes warpdbg's exit status 1: its fault, its uninitialised-read hazards.
    pub findings: usize,
    /// What `warpdbg run` prints about it on stderr.
    pub text: String,
    /// Its object of the `--json` report, when one was asked for.
    pub json: Option<Vec<u8>>,
}

/// Takes over a program's launches (the debugger, `crate::debug::program`): it gets each launch's machine at
/// its start and gives it back at its end with its outcome, or `None` to stop the program there.
pub trait LaunchHook {
    /// Launch `index` (1-based) as the host asked for it; `alloc_lines` gives the allocating line of each
    /// allocation host code made, by base address (what a fault's hint names).
    fn launch(
        &mut self,
        index: usize,
        req: &LaunchRequest,
        m: Machine,
        alloc_lines: &HashMap<u64, u32>,
    ) -> Option<(Machine, Outcome)>;
    /// The host variables in scope at the launch about to be made.
    fn host_vars(&mut self, _vars: Vec<crate::host::HostVar>) {}
}

/// The program's simulated GPU.
pub struct SimDevice<'a> {
    program: &'a tast::Program,
    sources: &'a SourceMap,
    file: String,
    mode: Mode,
    config: Config,
    gpu: Gpu,
    mem: GlobalMemory,
    next: u64,
    /// The allocating line of each live allocation host code made (`cudaMalloc`, managed, pinned), by base
    /// address.
    lines: HashMap<u64, u32>,
    /// The bytes of the allocations in `lines`, kept as they change (summing them at each `cudaMalloc` made a
    /// loop of them quadratic: the whole-program fuzzer's hang).
    used: u64,
    /// Addresses of the file's `__device__`/`__constant__` variables, in `program.globals` order.
    symbols: Vec<(usize, u64)>,
    kernels: HashMap<String, Result<Arc<Kernel>, Diagnostic>>,
    /// The `--json` report's memory detail, when one is wanted.
    json: Option<MemoryDetail>,
    pub launches: Vec<LaunchRecord>,
    /// The worst finding so far: warpdbg's exit status (1 fault), 0 when none.
    pub finding: u8,
    /// Runs launches instead of running them to their end here (a debugger).
    pub hook: Option<Box<dyn LaunchHook + 'a>>,
    /// Grids the current host launch's threads (and theirs) launched so far (dynamic parallelism).
    children: usize,
    /// `--print` expressions, evaluated in the stopped warp of a launch that does not complete.
    pub print: Vec<String>,
    /// Repeated launches answered without running them (`launch_memo.rs`).
    memo: launch_memo::LaunchMemo,
}

impl<'a> SimDevice<'a> {
    /// Hands the program's launches to the debugger (`hook`). A debugged program stops at the first
    /// out-of-bounds access, as cuda-gdb with memcheck on does, so the student sees which thread and why;
    /// `run` lets an access a GPU does not trap go on (`GlobalMemory::padding`).
    pub fn set_hook(&mut self, hook: Box<dyn LaunchHook + 'a>) {
        self.hook = Some(hook);
        self.mem.padding = None;
    }

    /// `run --print EXPR`: the expressions printed where a launch stops. Asking for values is asking the
    /// debugger's question, so such a run stops at the first out-of-bounds access as the debugger does.
    pub fn set_print(&mut self, print: Vec<String>) {
        if !print.is_empty() {
            self.mem.padding = None;
        }
        self.print = print;
    }

    pub fn new(
        program: &'a tast::Program,
        sources: &'a SourceMap,
        file: String,
        mode: Mode,
        config: Config,
        json: Option<MemoryDetail>,
    ) -> Self {
        let gpu = Gpu {
            pre_volta: mode == Mode::PreVolta,
            total_mem: config.device_memory,
            host_mem: config.memory_cap.saturating_mul(4),
        };
        let mut d = SimDevice {
            program,
            sources,
            file,
            mode,
            config,
            gpu,
            mem: GlobalMemory::default(),
            next: GLOBAL_BASE,
            lines: HashMap::new(),
            used: 0,
            symbols: vec![],
            kernels: HashMap::new(),
            json,
            launches: vec![],
            finding: 0,
            hook: None,
            children: 0,
            print: vec![],
            memo: Default::default(),
        };
        d.mem.init = Some(Box::default());
        d.mem.padding = Some(Box::default());
        for (i, g) in program.globals.iter().enumerate() {
            if matches!(g.space, tast::GlobalSpace::Device | tast::GlobalSpace::Constant) {
                let size = g.elem.size() as u64 * g.len();
                // (`__device__` and `__constant__` variables are small: the static data of a module.)
                let Some(at) = d.alloc(size, g.elem, &g.name.clone()) else { continue };
                for (k, v) in g.init.iter().enumerate() {
                    let _ = d.mem.store(at + k as u64 * g.elem.size() as u64, g.elem.size(), v.to_bits(g.elem));
                }
                d.symbols.push((i, at));
            }
        }
        d
    }

    /// A new allocation's address, or None when the system cannot back it (see [`SimDevice::place`]).
    fn alloc(&mut self, bytes: u64, elem: Scalar, name: &str) -> Option<u64> {
        let base = self.next;
        self.place(base, bytes, elem, name)?;
        self.next = (base + bytes.max(1) + GUARD).next_multiple_of(256);
        Some(base)
    }

    /// Records an allocation of `bytes` at `base`; its bytes cost memory as they are written (`Zeroed`), so
    /// a program may reserve what the GPU has and touch a little of it. None when the system refuses even a
    /// lazy mapping that large.
    fn place(&mut self, base: u64, bytes: u64, elem: Scalar, name: &str) -> Option<()> {
        let ty = Ty::from(elem);
        let len = bytes / ty.size() as u64;
        let data = Zeroed::try_new(usize::try_from(bytes).ok()?)?;
        self.mem.allocs.push(Allocation { name: name.to_string(), base, elem: ty, len, data });
        Some(())
    }

    fn used(&self) -> u64 {
        self.used
    }

    /// Kernel `name` lowered, for a cooperative launch or another (they differ in `this_grid().is_valid()`).
    fn kernel(&mut self, name: &str, cooperative: bool) -> Result<Arc<Kernel>, Diagnostic> {
        let key = if cooperative { format!("{name} (cooperative)") } else { name.to_string() };
        if let Some(k) = self.kernels.get(&key) {
            return k.clone();
        }
        let k = match self.program.find(name) {
            // A construct warpdbg does not run, which compiling the program only warned about (the host might
            // never launch this kernel): the launch that needs it cannot run.
            Some(id) if !self.program.runnable(id) => {
                Err(self.program.unsupported_in(id).cloned().expect("not runnable: a construct it reaches"))
            }
            Some(id) => crate::ir::lower::lower_launched(self.program, id, self.sources, cooperative).map(Arc::new),
            None => Err(Diagnostic::new(
                crate::front::diagnostic::ErrorCode::Name,
                Default::default(),
                format!("no kernel `{name}`"),
            )),
        };
        self.kernels.insert(key, k.clone());
        k
    }

    /// The driver's checks of a launch configuration: the CUDA error and why, or None when it may run.
    /// Every refusal is cudaErrorInvalidValue, as measured on an H100 with CUDA 13 (`tests/programs/launch_errors.cu`;
    /// older documentation names cudaErrorInvalidConfiguration for some of them: docs/programs.md).
    fn check_config(&self, req: &LaunchRequest, kernel: &Kernel) -> Option<(u32, String)> {
        let threads: u64 = req.block.iter().map(|&b| b as u64).product();
        // Static arrays (laid out without the dynamic part) plus the dynamic bytes the launch asks for.
        let shared = SharedLayout::new(kernel, 0).bytes as u64 + req.shared as u64;
        if req.grid.contains(&0) || req.block.contains(&0) {
            return Some((INVALID_VALUE, "a grid or block dimension is 0".into()));
        }
        if threads > 1024 {
            return Some((INVALID_VALUE, format!("{threads} threads per block; at most 1024")));
        }
        if req.block[0] > 1024 || req.block[1] > 1024 || req.block[2] > 64 {
            return Some((INVALID_VALUE, "a block dimension is larger than (1024, 1024, 64)".into()));
        }
        if req.grid[0] > i32::MAX as u32 || req.grid[1] > 65535 || req.grid[2] > 65535 {
            return Some((INVALID_VALUE, "the grid is larger than (2147483647, 65535, 65535) blocks".into()));
        }
        if shared > SHARED_PER_BLOCK {
            return Some((
                INVALID_VALUE,
                format!("{shared} bytes of shared memory per block ({} dynamic); at most 49152", req.shared),
            ));
        }
        None
    }

    /// What an H200 does with a launch and `grid.sync()` (docs/language.md): a cooperative launch of more
    /// blocks than the device holds at once is refused (cudaErrorCooperativeLaunchTooLarge, not sticky); a
    /// kernel that calls `grid.sync()` launched otherwise (`<<<>>>`, `cudaLaunchKernel`) fails whatever its
    /// size, with cudaErrorLaunchFailure, sticky. None: the launch runs.
    fn grid_sync_launch(&mut self, req: &LaunchRequest, kernel: &Kernel) -> Option<LaunchStatus> {
        let blocks: u64 = req.grid.iter().map(|&g| g as u64).product();
        let threads: u64 = req.block.iter().map(|&b| b as u64).product();
        if req.cooperative {
            let shared = SharedLayout::new(kernel, 0).bytes as u64 + req.shared as u64;
            let fits = crate::sim::co_resident_blocks(kernel, self.mode, threads, shared);
            return (blocks > fits).then(|| {
                let reason = format!("{blocks} blocks; the device holds {fits} of them at once, by occupancy");
                self.refused(req, errors::COOPERATIVE_LAUNCH_TOO_LARGE, reason)
            });
        }
        let line = crate::sim::grid_sync_line(kernel)?;
        let text = format!(
            "warpdbg: launch {}: {} at {}: unspecified launch failure (cudaErrorLaunchFailure): `{}` calls \
             grid.sync() (line {line}), which only a cooperative launch may call; launched with <<<>>> or \
             cudaLaunchKernel, the kernel fails on a GPU whatever the grid's size, and every later CUDA call \
             returns the error.\nFix: launch it with cudaLaunchCooperativeKernel(kernel, grid, block, args), \
             with at most cudaOccupancyMaxActiveBlocksPerMultiprocessor x the SM count blocks.\n",
            req.index,
            req.config(),
            req.site(),
            req.kernel
        );
        self.finding = self.finding.max(1);
        self.launches.push(LaunchRecord {
            index: req.index,
            kernel: req.kernel.clone(),
            config: req.config(),
            host_line: req.line,
            outcome: "fault",
            steps: 0,
            hazards: 0,
            ns: 0,
            error: Some(errors::LAUNCH_FAILURE),
            findings: 1,
            text,
            json: None,
        });
        Some(LaunchStatus::Faulted { printed: String::new(), code: errors::LAUNCH_FAILURE, ns: 0, line })
    }

    fn refused(&mut self, req: &LaunchRequest, code: u32, reason: String) -> LaunchStatus {
        let (name, _) = errors::error_text(code);
        let text = format!(
            "warpdbg: launch {}: {} at {} did not run: {name} ({reason})\n",
            req.index,
            req.config(),
            req.site()
        );
        let json = self.json.map(|_| report::refused_json(req, code, &reason));
        self.launches.push(LaunchRecord {
            index: req.index,
            kernel: req.kernel.clone(),
            config: req.config(),
            host_line: req.line,
            outcome: "not_run",
            steps: 0,
            hazards: 0,
            ns: 0,
            error: Some(code),
            findings: 0,
            text,
            json,
        });
        LaunchStatus::Refused { code, reason }
    }

    /// One grid: the launch's status and the grids its threads launched.
    fn run_grid(&mut self, req: &LaunchRequest) -> (LaunchStatus, Vec<ChildLaunch>) {
        let kernel = match self.kernel(&req.kernel, req.cooperative) {
            Ok(k) => k,
            Err(d) => {
                let text = crate::front::diagnostic::render_plain(self.sources, &[d]);
                let text = format!("warpdbg: launch {} of `{}` cannot run:\n{text}", req.index, req.kernel);
                self.launches.push(LaunchRecord {
                    index: req.index,
                    kernel: req.kernel.clone(),
                    config: req.config(),
                    host_line: req.line,
                    outcome: "not_run",
                    steps: 0,
                    hazards: 0,
                    ns: 0,
                    error: None,
                    findings: 0,
                    text,
                    json: None,
                });
                return (LaunchStatus::Stop(2), vec![]);
            }
        };
        if let Some((code, reason)) = self.check_config(req, &kernel) {
            return (self.refused(req, code, reason), vec![]);
        }
        if let Some(status) = self.grid_sync_launch(req, &kernel) {
            return (status, vec![]);
        }
        // The kernel's own arguments, then the addresses of the file's device variables and of this launch's
        // local arrays (the lowering's parameter order).
        let threads = req.grid.iter().chain(&req.block).map(|&v| v as u64).product::<u64>();
        let mut params = req.args.clone();
        let mut locals = vec![];
        for (i, g) in self.program.globals.iter().enumerate() {
            match g.space {
                tast::GlobalSpace::Device | tast::GlobalSpace::Constant => {
                    params.extend(self.symbols.iter().find(|(j, _)| *j == i).map(|(_, a)| *a))
                }
                tast::GlobalSpace::Local => {
                    let bytes = g.elem.size() as u64 * g.len() * threads;
                    let Some(at) = self.alloc(bytes, g.elem, &g.name.clone()) else {
                        self.mem.allocs.retain(|a| !locals.contains(&a.base));
                        let reason = format!("{bytes} bytes of local `{}` for {threads} threads", g.name);
                        return (self.refused(req, errors::MEMORY_ALLOCATION, reason), vec![]);
                    };
                    locals.push(at);
                    params.push(at);
                }
                tast::GlobalSpace::Shared { .. } => {}
            }
        }
        params.truncate(kernel.params.len());
        let memo_key = self.memo_key(req, &kernel, &params, &locals);
        let before = match &memo_key {
            Some(key) if self.memo.wants_digest(key, &self.mem) => Some(self.mem.digests()),
            _ => None,
        };
        if let Some((key, d)) = memo_key.as_ref().zip(before.as_ref())
            && let Some((answer, change)) = self.memo.answer(key, d.whole)
        {
            self.mem.apply(change);
            return (self.answer_from_memo(req, answer), vec![]);
        }
        let dim = |d: [u32; 3]| Dim3::new(d[0], d[1], d[2]);
        let args = params
            .iter()
            .zip(&kernel.params)
            .map(|(v, p)| LaunchArg {
                name: p.name.clone(),
                value: crate::front::launch::ArgValue::Scalar { bits: *v, ty: Scalar::U64 },
                global: false,
            })
            .collect();
        let launch = Launch {
            kernel: req.kernel.clone(),
            grid: dim(req.grid),
            block: dim(req.block),
            args,
            seed: 0,
            mode: self.mode,
            dynamic_shared: req.shared,
            symbols: vec![],
        };
        let allocs_before = (self.json == Some(MemoryDetail::Changed)).then(|| self.mem.allocs.clone());
        let mem = std::mem::take(&mut self.mem);
        let m = Machine::with_memory(kernel.clone(), launch, self.file.clone(), mem, params, &self.config);
        let (mut m, outcome) = match self.hook.as_mut() {
            Some(h) => match h.launch(req.index, req, m, &self.lines) {
                Some(done) => done,
                None => return (LaunchStatus::Stop(2), vec![]),
            },
            None => {
                let mut m = m;
                let o = m.run();
                (m, o)
            }
        };
        let time = crate::perf::kernel_time(&crate::perf::Device::of(m.launch.mode), &m);
        let ns = time.total_ns;
        let printed: String = m.output.iter().map(|p| p.text.as_str()).collect();
        let mut text = launch_line(req, outcome.name(), m.steps);
        for h in &m.hazards {
            text.push_str(&format!("warpdbg:   hazard: {}\n", h.message));
        }
        let uninit = m.hazards.iter().filter(|h| h.kind == HazardKind::UninitializedRead).count();
        if uninit > 0 {
            self.finding = self.finding.max(1);
            text.push_str(&self.copy_hint(&m.global));
        }
        let allocs: Vec<HostAlloc> = (m.global.allocs.iter())
            .filter_map(|a| Some(HostAlloc { alloc: a, line: *self.lines.get(&a.base)? }))
            .collect();
        let untrapped: Vec<&crate::sim::Fault> = m.hazards.iter().filter_map(|h| h.fault.as_deref()).collect();
        if !untrapped.is_empty() {
            self.finding = self.finding.max(1);
        }
        for f in &untrapped {
            if let Some(hint) = hints::fault_hint(&kernel, self.sources, req, f, &allocs) {
                text.push_str(&format!("warpdbg:   hint: {hint}\n"));
            }
        }
        if !matches!(outcome, Outcome::Completed) {
            text.push_str(&crate::sim::report::text(&m, &outcome));
        }
        let code = match &outcome {
            Outcome::Fault(f) => {
                if let Some(hint) = hints::fault_hint(&kernel, self.sources, req, f, &allocs) {
                    text.push_str(&format!("warpdbg:   hint: {hint}\n"));
                }
                Some(match f.kind {
                    FaultKind::OutOfBounds | FaultKind::NullPointer => errors::ILLEGAL_ADDRESS,
                    FaultKind::Misaligned => errors::MISALIGNED_ADDRESS,
                    FaultKind::Assertion => errors::ASSERT,
                    FaultKind::DivisionByZero => errors::LAUNCH_FAILURE,
                })
            }
            _ => None,
        };
        let shown = (!self.print.is_empty() && !matches!(outcome, Outcome::Completed))
            .then(|| crate::sim::expr::printed(&self.print, &m, crate::sim::focus::of_outcome(&m, &outcome)));
        if let Some(p) = &shown {
            text.push_str(&p.text);
        }
        let end = report::LaunchEnd { time, code, printed: shown.map(|p| p.json) };
        let json =
            self.json.map(|detail| report::launch_json(&m, &outcome, req, end, detail, allocs_before.as_deref()));
        self.launches.push(LaunchRecord {
            index: req.index,
            kernel: req.kernel.clone(),
            config: req.config(),
            host_line: req.line,
            outcome: outcome.name(),
            steps: m.steps,
            hazards: m.hazards.len(),
            ns,
            error: code,
            findings: uninit + untrapped.len() + matches!(outcome, Outcome::Fault(_)) as usize,
            text,
            json,
        });
        let children = std::mem::take(&mut m.children);
        let steps = m.steps;
        self.mem = m.into_memory();
        for at in locals {
            if let Some(i) = self.mem.allocs.iter().position(|a| a.base == at) {
                self.mem.allocs.remove(i);
            }
        }
        if let Some(key) = memo_key {
            let clean = matches!(outcome, Outcome::Completed)
                && children.is_empty()
                && self.launches.last().is_some_and(|r| r.findings == 0 && r.hazards == 0 && r.error.is_none());
            let measured = before.filter(|_| clean).map(|b| (b.whole, self.mem.delta(&b, &self.mem.digests())));
            self.memo.ran(key, launch_memo::Answer { steps, ns, printed: printed.clone() }, clean, measured);
        }
        let status = match outcome {
            Outcome::Completed | Outcome::Paused => LaunchStatus::Ran { printed, ns },
            Outcome::Fault(f) => {
                self.finding = self.finding.max(1);
                LaunchStatus::Faulted { printed, code: code.unwrap_or(errors::LAUNCH_FAILURE), ns, line: f.line }
            }
            Outcome::Deadlock(_) | Outcome::Livelock(_) => LaunchStatus::Stop(3),
            Outcome::StepLimit => LaunchStatus::Stop(4),
        };
        (status, children)
    }

    /// The memo's key for launch `req` of `kernel` with `params`, when its result may be given again: not
    /// under the debugger or `--json`, and a kernel that reads nothing but device memory and its arguments
    /// (no texture, no child grid, no local arrays of the launch's own).
    fn memo_key(
        &self,
        req: &LaunchRequest,
        kernel: &Kernel,
        params: &[u64],
        locals: &[u64],
    ) -> Option<launch_memo::Key> {
        let plain = !kernel.instrs.iter().any(|i| matches!(i, Instr::Texture { .. } | Instr::Launch { .. }));
        let wanted = !self.config.tuning.no_launch_memo && self.hook.is_none() && self.json.is_none();
        (wanted && self.print.is_empty() && locals.is_empty() && plain && req.parent.is_none())
            .then(|| (req.kernel.clone(), req.grid, req.block, req.shared, params.to_vec()))
    }

    /// Launches answered from the memo so far.
    pub fn answered(&self) -> usize {
        self.memo.answered
    }

    /// Launch `req` answered from the memo: recorded as the launch it repeats was.
    fn answer_from_memo(&mut self, req: &LaunchRequest, answer: launch_memo::Answer) -> LaunchStatus {
        self.memo.answered += 1;
        self.launches.push(LaunchRecord {
            index: req.index,
            kernel: req.kernel.clone(),
            config: req.config(),
            host_line: req.line,
            outcome: Outcome::Completed.name(),
            steps: answer.steps,
            hazards: 0,
            ns: answer.ns,
            error: None,
            findings: 0,
            text: launch_line(req, Outcome::Completed.name(), answer.steps),
            json: None,
        });
        LaunchStatus::Ran { printed: answer.printed, ns: answer.ns }
    }

    /// For uninitialised reads: allocations written only in their first 1/sizeof(element) (a copy of `n`
    /// bytes where `n * sizeof(T)` was meant).
    fn copy_hint(&self, mem: &GlobalMemory) -> String {
        let Some(init) = mem.init.as_deref() else { return String::new() };
        let mut s = String::new();
        for a in mem.allocs.iter().filter(|a| self.lines.contains_key(&a.base) && a.elem.size() > 1) {
            let bytes = a.data.len() as u64;
            let Some(p) = init.written_prefix(a.base) else { continue };
            if p > 0 && p * a.elem.size() as u64 == bytes {
                let t = c_name(a.elem);
                s.push_str(&format!(
                    "warpdbg:   hint: only the first {p} bytes of `{}` ({bytes} bytes, {} {t}s) were ever written: a copy of n \
                     bytes where n counts {t}s copies a {} of them. Copy n * sizeof({t}) bytes\n",
                    a.name,
                    bytes / a.elem.size() as u64,
                    match a.elem.size() {
                        2 => "half",
                        4 => "quarter",
                        _ => "fraction",
                    }
                ));
            }
        }
        s
    }

    fn find(&self, addr: u64) -> Option<&Allocation> {
        self.mem.allocs.iter().find(|a| addr >= a.base && addr < a.base + a.bytes().max(1))
    }

    /// The `len` bytes at `addr`, when they lie in one allocation.
    fn bytes(&self, addr: u64, len: usize) -> Option<&[u8]> {
        let a = self.find(addr)?;
        let off = (addr - a.base) as usize;
        a.data.get(off..off.checked_add(len)?)
    }
}

impl crate::host::Device for SimDevice<'_> {
    fn gpu(&self) -> Gpu {
        self.gpu
    }

    fn malloc(&mut self, bytes: u64, elem: Scalar, name: &str, line: u32) -> Option<u64> {
        if self.used().saturating_add(bytes) > self.config.device_memory {
            return None;
        }
        let at = self.alloc(bytes, elem, name)?;
        self.lines.insert(at, line);
        self.used += bytes;
        if let Some(init) = self.mem.init.as_deref_mut() {
            init.track(at, bytes);
        }
        Some(at)
    }

    fn map(&mut self, addr: u64, bytes: u64, elem: Scalar, name: &str, line: u32) -> bool {
        if self.used().saturating_add(bytes) > self.config.device_memory {
            return false;
        }
        if self.place(addr, bytes, elem, name).is_none() {
            return false;
        }
        self.lines.insert(addr, line);
        self.used += bytes;
        true
    }

    fn free(&mut self, addr: u64) -> bool {
        match self.mem.allocs.iter().position(|a| a.base == addr) {
            Some(i) if self.lines.contains_key(&addr) => {
                let gone = self.mem.allocs.remove(i);
                self.used = self.used.saturating_sub(gone.data.len() as u64);
                // The last allocation's place is given again, as CUDA's allocator does (a timing loop that
                // allocates, launches and frees then repeats the same launch on the same addresses).
                if (gone.base + gone.bytes().max(1) + GUARD).next_multiple_of(256) == self.next {
                    self.next = gone.base;
                }
                if let Some(init) = self.mem.init.as_deref_mut() {
                    init.forget(addr);
                }
                self.lines.remove(&addr);
                true
            }
            _ => false,
        }
    }

    fn owner(&self, addr: u64) -> Option<DeviceAlloc> {
        let a = self.find(addr)?;
        Some(DeviceAlloc {
            name: a.name.clone(),
            base: a.base,
            size: a.bytes(),
            elem_size: a.elem.size(),
            elem: c_name(a.elem),
            line: self.lines.get(&a.base).copied().unwrap_or(0),
        })
    }

    fn read(&self, addr: u64, len: u64) -> Option<Vec<u8>> {
        self.bytes(addr, len as usize).map(<[u8]>::to_vec)
    }

    fn read_into(&self, addr: u64, out: &mut [u8]) -> bool {
        self.bytes(addr, out.len()).map(|b| copy_changed(out, b)).is_some()
    }

    fn write(&mut self, addr: u64, data: &[u8]) -> bool {
        let Some(i) = self.mem.allocs.iter().position(|a| addr >= a.base && addr < a.base + a.bytes().max(1)) else {
            return false;
        };
        let a = &mut self.mem.allocs[i];
        let off = (addr - a.base) as usize;
        match off.checked_add(data.len()).and_then(|end| a.data.get_mut(off..end)) {
            Some(d) => {
                copy_changed(d, data);
                if let Some(init) = self.mem.init.as_deref_mut() {
                    init.mark(addr, data.len() as u64);
                }
                true
            }
            None => false,
        }
    }

    fn symbol(&self, index: usize) -> Option<(u64, u64)> {
        let &(_, at) = self.symbols.iter().find(|(i, _)| *i == index)?;
        Some((at, self.find(at).map_or(0, |a| a.data.len() as u64)))
    }

    fn move_symbol(&mut self, index: usize, addr: u64) -> bool {
        let Some(k) = self.symbols.iter().position(|(i, _)| *i == index) else { return false };
        let Some(a) = self.mem.allocs.iter().position(|a| a.base == self.symbols[k].1) else { return false };
        self.mem.allocs[a].base = addr;
        self.symbols[k].1 = addr;
        true
    }

    fn live(&self) -> Vec<DeviceAlloc> {
        let bases: Vec<u64> =
            self.mem.allocs.iter().filter(|a| self.lines.contains_key(&a.base)).map(|a| a.base).collect();
        bases.into_iter().filter_map(|b| self.owner(b)).collect()
    }

    fn launch(&mut self, req: &LaunchRequest) -> LaunchStatus {
        self.run(req)
    }

    fn child_launches(&self) -> usize {
        self.children
    }

    fn reaches_only_args(&mut self, kernel: &str) -> bool {
        self.kernel(kernel, false).is_ok_and(|k| {
            !k.instrs.iter().any(|i| match i {
                Instr::Load { ty, .. } | Instr::Atomic { ty, .. } => ty.size() == 8,
                Instr::Launch { .. } => true,
                _ => false,
            })
        })
    }

    fn kernel_resources(&mut self, kernel: &str) -> Option<crate::host::cuda::KernelResources> {
        let k = self.kernel(kernel, false).ok()?;
        let static_shared = k.shared.iter().filter(|a| !a.dynamic).map(|a| a.bytes as u64).sum();
        Some(crate::host::cuda::KernelResources {
            registers: crate::perf::occupancy::registers_per_thread(&k),
            static_shared,
        })
    }

    fn wants_host_vars(&self) -> bool {
        self.hook.is_some()
    }

    fn host_vars(&mut self, vars: Vec<crate::host::HostVar>) {
        if let Some(h) = self.hook.as_mut() {
            h.host_vars(vars);
        }
    }

    fn reset(&mut self) {
        let keep: Vec<u64> = self.symbols.iter().map(|(_, a)| *a).collect();
        self.mem.allocs.retain(|a| keep.contains(&a.base));
        self.lines.clear();
        self.used = 0;
        if let Some(init) = self.mem.init.as_deref_mut() {
            init.clear();
        }
        if let Some(p) = self.mem.padding.as_deref_mut() {
            p.clear();
        }
    }
}

/// The line `warpdbg run` prints on stderr for a launch.
fn launch_line(req: &LaunchRequest, outcome: &str, steps: u64) -> String {
    let dim = |d: [u32; 3]| Dim3::new(d[0], d[1], d[2]);
    format!(
        "warpdbg: launch {}: {}<<<{}, {}>>> at {}: {outcome} after {steps} steps\n",
        req.index,
        req.kernel,
        dim(req.grid),
        dim(req.block),
        req.site(),
    )
}
