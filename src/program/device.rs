//! The simulated GPU a program's host code talks to: its device memory (a [`GlobalMemory`] that persists
//! across launches) and launches run on the simulated SM ([`Machine::with_memory`]), with every check a
//! kernel-file run makes.

use std::collections::HashMap;
use std::io::Write;
use std::sync::Arc;

use crate::front::diagnostic::Diagnostic;
use crate::front::source::SourceMap;
use crate::front::tast;
use crate::front::types::Scalar;
use crate::host::{DeviceAlloc, LaunchRequest, LaunchStatus};
use crate::ir::{Kernel, Ty};
use crate::launch::{Dim3, Launch, LaunchArg, Mode};
use crate::sim::machine::{Config, Machine, Outcome};
use crate::sim::memory::{Allocation, GLOBAL_BASE, GlobalMemory};

/// Unused bytes after each device allocation (an off-by-one access lands outside every allocation).
const GUARD: u64 = 4096;

/// What warpdbg found in one launch (its report is on stderr already).
#[derive(Clone, Debug, PartialEq)]
pub struct LaunchRecord {
    pub index: usize,
    pub kernel: String,
    pub host_line: u32,
    pub outcome: &'static str,
    pub steps: u64,
    pub hazards: usize,
}

/// Takes over a program's launches (the debugger, `crate::program::debug`): it gets each launch's machine at
/// its start and gives it back at its end with its outcome, or `None` to stop the program there.
pub trait LaunchHook {
    /// Launch `index` (1-based) as the host asked for it.
    fn launch(&mut self, index: usize, req: &LaunchRequest, m: Machine) -> Option<(Machine, Outcome)>;
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
    mem: GlobalMemory,
    next: u64,
    /// The `cudaMalloc` line of each live allocation, by base address.
    lines: HashMap<u64, u32>,
    /// Addresses of the file's `__device__`/`__constant__` variables, in `program.globals` order.
    symbols: Vec<(usize, u64)>,
    kernels: HashMap<String, Result<Arc<Kernel>, Diagnostic>>,
    /// warpdbg's reports (launch lines, faults, deadlocks) go here.
    report: &'a mut dyn Write,
    pub launches: Vec<LaunchRecord>,
    /// The worst finding so far: warpdbg's exit status (1 fault), 0 when none.
    pub finding: u8,
    /// Runs launches instead of running them to their end here (a debugger).
    pub hook: Option<Box<dyn LaunchHook + 'a>>,
}

impl<'a> SimDevice<'a> {
    pub fn new(
        program: &'a tast::Program,
        sources: &'a SourceMap,
        file: String,
        mode: Mode,
        config: Config,
        report: &'a mut dyn Write,
    ) -> Self {
        let mut d = SimDevice {
            program,
            sources,
            file,
            mode,
            config,
            mem: GlobalMemory::default(),
            next: GLOBAL_BASE,
            lines: HashMap::new(),
            symbols: vec![],
            kernels: HashMap::new(),
            report,
            launches: vec![],
            finding: 0,
            hook: None,
        };
        for (i, g) in program.globals.iter().enumerate() {
            if matches!(g.space, tast::GlobalSpace::Device | tast::GlobalSpace::Constant) {
                let size = g.elem.size() as u64 * g.len();
                let at = d.alloc(size, g.elem, &g.name.clone(), 0);
                for (k, v) in g.init.iter().enumerate() {
                    let _ = d.mem.store(at + k as u64 * g.elem.size() as u64, g.elem.size(), v.to_bits(g.elem));
                }
                d.symbols.push((i, at));
            }
        }
        d
    }

    fn alloc(&mut self, bytes: u64, elem: Scalar, name: &str, line: u32) -> u64 {
        let base = self.next;
        let ty = Ty::from(elem);
        let len = bytes / ty.size() as u64;
        let data = vec![0u8; bytes as usize];
        self.mem.allocs.push(Allocation { name: name.to_string(), base, elem: ty, len, data });
        self.lines.insert(base, line);
        self.next = (base + bytes.max(1) + GUARD).next_multiple_of(256);
        base
    }

    fn kernel(&mut self, name: &str) -> Result<Arc<Kernel>, Diagnostic> {
        if let Some(k) = self.kernels.get(name) {
            return k.clone();
        }
        let k = match self.program.find(name) {
            Some(id) => crate::ir::lower::lower_kernel(self.program, id, self.sources).map(Arc::new),
            None => Err(Diagnostic::new(
                crate::front::diagnostic::ErrorCode::Name,
                Default::default(),
                format!("no kernel `{name}`"),
            )),
        };
        self.kernels.insert(name.to_string(), k.clone());
        k
    }

    fn run(&mut self, req: &LaunchRequest) -> LaunchStatus {
        let index = self.launches.len() + 1;
        let kernel = match self.kernel(&req.kernel) {
            Ok(k) => k,
            Err(d) => {
                let text = crate::front::diagnostic::render_plain(self.sources, &[d]);
                let _ = writeln!(self.report, "warpdbg: launch {index} of `{}` cannot run:\n{text}", req.kernel);
                return LaunchStatus::Stop(2);
            }
        };
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
                    let at = self.alloc(g.elem.size() as u64 * g.len() * threads, g.elem, &g.name.clone(), 0);
                    locals.push(at);
                    params.push(at);
                }
                tast::GlobalSpace::Shared { .. } => {}
            }
        }
        params.truncate(kernel.params.len());
        let dim = |d: [u32; 3]| Dim3::new(d[0], d[1], d[2]);
        let args = params
            .iter()
            .zip(&kernel.params)
            .map(|(v, p)| LaunchArg {
                name: p.name.clone(),
                value: crate::launch::ArgValue::Scalar { bits: *v, ty: Scalar::U64 },
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
        let mem = std::mem::take(&mut self.mem);
        let m = Machine::with_memory(kernel, launch, self.file.clone(), mem, params, &self.config);
        let (m, outcome) = match self.hook.as_mut() {
            Some(h) => match h.launch(index, req, m) {
                Some(done) => done,
                None => return LaunchStatus::Stop(2),
            },
            None => {
                let mut m = m;
                let o = m.run();
                (m, o)
            }
        };
        let printed: String = m.output.iter().map(|p| p.text.as_str()).collect();
        let summary = format!(
            "warpdbg: launch {index}: {}<<<{}, {}>>> at line {}: {} after {} steps",
            req.kernel,
            dim(req.grid),
            dim(req.block),
            req.line,
            outcome.name(),
            m.steps
        );
        let _ = writeln!(self.report, "{summary}");
        for h in &m.hazards {
            let _ = writeln!(self.report, "warpdbg:   hazard: {}", h.message);
        }
        if !matches!(outcome, Outcome::Completed) {
            let _ = write!(self.report, "{}", crate::sim::report::text(&m, &outcome));
        }
        self.launches.push(LaunchRecord {
            index,
            kernel: req.kernel.clone(),
            host_line: req.line,
            outcome: outcome.name(),
            steps: m.steps,
            hazards: m.hazards.len(),
        });
        self.mem = m.into_memory();
        for at in locals {
            crate::host::Device::free(self, at);
        }
        match outcome {
            Outcome::Completed | Outcome::Paused => LaunchStatus::Ran(printed),
            Outcome::Fault(_) => {
                self.finding = self.finding.max(1);
                LaunchStatus::Faulted(printed)
            }
            Outcome::Deadlock(_) | Outcome::Livelock(_) => LaunchStatus::Stop(3),
            Outcome::StepLimit => LaunchStatus::Stop(4),
        }
    }

    fn find(&self, addr: u64) -> Option<&Allocation> {
        self.mem.allocs.iter().find(|a| addr >= a.base && addr < a.base + a.bytes().max(1))
    }
}

impl crate::host::Device for SimDevice<'_> {
    fn malloc(&mut self, bytes: u64, elem: Scalar, name: &str, line: u32) -> Option<u64> {
        if bytes > self.config.memory_cap {
            return None;
        }
        Some(self.alloc(bytes, elem, name, line))
    }

    fn free(&mut self, addr: u64) -> bool {
        match self.mem.allocs.iter().position(|a| a.base == addr) {
            Some(i) if self.lines.contains_key(&addr) => {
                self.mem.allocs.remove(i);
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
            line: self.lines.get(&a.base).copied().unwrap_or(0),
        })
    }

    fn read(&self, addr: u64, len: u64) -> Option<Vec<u8>> {
        let a = self.find(addr)?;
        let off = (addr - a.base) as usize;
        a.data.get(off..off.checked_add(len as usize)?).map(<[u8]>::to_vec)
    }

    fn write(&mut self, addr: u64, data: &[u8]) -> bool {
        let Some(i) = self.mem.allocs.iter().position(|a| addr >= a.base && addr < a.base + a.bytes().max(1)) else {
            return false;
        };
        let a = &mut self.mem.allocs[i];
        let off = (addr - a.base) as usize;
        match a.data.get_mut(off..off + data.len()) {
            Some(d) => {
                d.copy_from_slice(data);
                true
            }
            None => false,
        }
    }

    fn launch(&mut self, req: &LaunchRequest) -> LaunchStatus {
        self.run(req)
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
    }
}
