//! One issue: the instruction's data path for a warp's lanes and every count an issue makes (steps,
//! metrics, bank statistics, progress), and what it reports: faults, printf lines, device launches, the
//! last atomic writes, and hazards (one record per kind and line: `hazards.rs`).

use super::Machine;
use super::hazards::{Hazard, HazardKind, count_lowest};
use super::records::{AtomicWrite, PrintfLine};
use crate::front::launch::Mode;
use crate::ir::{Instr, Kernel, Pc};
use crate::sim::child_launch::ChildLaunch;
use crate::sim::exec::{self, Ctx, Effect, ExecError, Note};
use crate::sim::fault::{self, Fault, FaultSite};
use crate::sim::lane_mask::LaneMask;
use crate::sim::memory::{MemError, Space};

impl Machine {
    /// Issues the instruction at `pc` for `mask` of warp `w` in block slot `b`: the data path, then every
    /// count an issue makes (steps, metrics, notes, progress). The caller applies the returned effect.
    pub(super) fn execute_issue(
        &mut self,
        kernel: &Kernel,
        b: usize,
        w: usize,
        pc: Pc,
        mask: LaneMask,
    ) -> Result<Effect, Box<Fault>> {
        let line = kernel.line(pc);
        // Only whole runs on several cores record the global bytes an instruction touches.
        let mut touched = self.par.as_ref().map(|_| exec::Touched::default());
        let (result, notes, wrote) = {
            let block = &mut self.blocks[b];
            let mut ctx = Ctx {
                kernel,
                regs: &mut block.regs,
                stride: block.stride,
                base: w * 32,
                shared: &mut block.shared,
                layout: &self.layout,
                global: &mut self.global,
                block_idx: block.idx,
                block_dim: self.launch.block,
                grid_dim: self.launch.grid,
                wrote: false,
                notes: vec![],
                race: Some(exec::RaceCtx {
                    shadow: &mut block.race,
                    block_epoch: block.barrier_epoch,
                    warp_epochs: &block.warp_epochs,
                    lockstep_warps: self.launch.mode == Mode::PreVolta,
                }),
                pc,
                shared_accesses: std::mem::take(&mut self.shared_scratch),
                global_access: Default::default(),
                par: self.par.as_ref().map(|p| &*p.view),
                touched: touched.as_mut(),
                counters: exec::Counters { clock: self.steps, barrier: block.barrier_result },
                path: self.path,
            };
            let r = exec::execute(&mut ctx, pc, mask);
            let warp = block.linear * self.launch.warps_per_block() + w as u64;
            let store = matches!(kernel.instrs[pc.0 as usize], Instr::Store { .. } | Instr::Atomic { .. });
            self.metrics.banks.record(line, warp, &ctx.shared_accesses, store);
            if r.is_ok() && !ctx.global_access.is_empty() && ctx.global_access.as_vector(kernel.vec_part(pc)) {
                self.metrics.traffic.record(line, block.linear, warp, &ctx.global_access);
            }
            ctx.shared_accesses.clear();
            self.shared_scratch = ctx.shared_accesses;
            let (notes, wrote) = (ctx.notes, ctx.wrote);
            if let Some(p) = &mut self.par {
                let ranges = touched.as_ref().map_or(&[][..], |t| t.as_slice());
                let kind = p.kinds[pc.0 as usize];
                p.step(block.linear, block.barrier_epoch, w as u32, ranges, kind);
            }
            (r, notes, wrote)
        };
        self.steps += 1;
        let effect = result.map_err(|err| Box::new(self.fault(b, w, pc, err)))?;
        if wrote {
            self.mem_epoch += 1;
            self.progress();
        }
        if !notes.is_empty() {
            self.notes(b, w, pc, line, notes);
        }
        self.metrics.count_instruction(line, mask.count());
        Ok(effect)
    }

    pub(super) fn fault(&self, b: usize, w: usize, pc: Pc, err: ExecError) -> Fault {
        let block = &self.blocks[b];
        let lane = match &err {
            ExecError::Memory { lane, .. } | ExecError::DivideByZero { lane } | ExecError::Assert { lane, .. } => *lane,
        };
        let tid = w as u32 * 32 + lane;
        let site = FaultSite {
            kernel: &self.kernel.name,
            file: &self.file,
            line: self.kernel.line(pc),
            pc,
            block: block.idx,
            thread: block.thread_idx(tid, self.launch.block),
        };
        match err {
            ExecError::Memory { access, size, addr, err, .. } => fault::memory(&site, access, size, addr, &err),
            ExecError::DivideByZero { .. } => fault::division_by_zero(&site),
            ExecError::Assert { text, .. } => {
                // CUDA names the kernel by its signature (`void guarded(int *, int)`).
                let params: Vec<String> = self.kernel.params.iter().map(|p| p.ty.to_string()).collect();
                let signature = format!("void {}({})", self.kernel.name, params.join(", "));
                fault::assertion(&FaultSite { kernel: &signature, ..site }, &self.kernel.strings[text as usize])
            }
        }
    }

    pub(super) fn notes(&mut self, b: usize, w: usize, pc: Pc, line: u32, notes: Vec<Note>) {
        let (idx, block_dim, linear) = (self.blocks[b].idx, self.launch.block, self.blocks[b].linear);
        for n in notes {
            match n {
                Note::Printf { lane, text } => {
                    let thread = self.blocks[b].thread_idx(w as u32 * 32 + lane, block_dim);
                    self.output.push(PrintfLine { step: self.steps, block: idx, thread, text });
                }
                Note::Launch { lane, kernel, config, args } => {
                    let tid = w as u32 * 32 + lane;
                    self.children.push(ChildLaunch {
                        kernel: self.kernel.strings[kernel as usize].clone(),
                        grid: [config[0], config[1], config[2]],
                        block: [config[3], config[4], config[5]],
                        shared: config[6],
                        args,
                        line,
                        order: (linear, tid),
                    });
                }
                Note::AtomicWrite { lane, addr } => {
                    let tid = w as u32 * 32 + lane;
                    self.last_atomic.insert(addr, AtomicWrite { block: idx, tid, line, step: self.steps });
                }
                Note::ShuffleInactive { lane, src } => self.hazard(HazardKind::ShuffleInactiveLane, line, (linear, w as u32 * 32 + lane), || {
                    format!(
                        "shuffle on line {line}: lane {lane} of warp {w} in block {idx} read lane {src}, which was not \
                         executing the shuffle; its value is undefined"
                    )
                }),
                Note::OutOfBounds { lane, access, size, addr, err } => {
                    let tid = w as u32 * 32 + lane;
                    let fault = |m: &Machine| Box::new(m.fault(b, w, pc, ExecError::Memory { lane, access, size, addr, err: err.clone() }));
                    if let Some(i) = self.hazards.iter().position(|h| h.kind == HazardKind::OutOfBounds && h.line == line) {
                        let h = &mut self.hazards[i];
                        if count_lowest(&mut h.count, &mut h.who, 1, (linear, tid)) {
                            let f = fault(self);
                            (self.hazards[i].message, self.hazards[i].fault) = (untrapped_text(&f, addr, &err), Some(f));
                        }
                    } else {
                        let f = fault(self);
                        let message = untrapped_text(&f, addr, &err);
                        self.hazards.push(Hazard { kind: HazardKind::OutOfBounds, line, message, count: 1, who: (linear, tid), fault: Some(f) });
                    }
                }
                Note::UninitRead { lane, addr } | Note::UnwrittenAtomic { lane, addr } => self.uninit_read(line, linear, w as u32 * 32 + lane, addr, 1),
                Note::UninitReads { lanes, addr } => {
                    self.uninit_read(line, linear, w as u32 * 32 + lanes.trailing_zeros(), addr, lanes.count_ones() as u64)
                }
                // (The text only when the record keeps this occurrence: a warp-synchronous reduction races on
                // every step of its last warp.)
                Note::SharedRace(r) => {
                    self.hazards_seen(HazardKind::SharedRace, line, 1, (linear, w as u32 * 32), |m| m.shared_race_text(&r))
                }
                Note::SyncMaskInactive { named, active } => self.hazard(HazardKind::SyncMaskInactive, line, (linear, w as u32 * 32), || {
                    format!(
                        "`_sync` intrinsic on line {line}: its mask {named} names lanes that were not executing it \
                         (active {active}) in warp {w} of block {idx}: undefined behaviour"
                    )
                }),
            }
        }
    }
}

/// An out-of-bounds hazard's message: the fault's sentence and its memcheck report on one line, then why the
/// program went on.
fn untrapped_text(f: &Fault, addr: u64, err: &MemError) -> String {
    let MemError::OutOfBounds { space, nearest } = err else { return f.sentence.clone() };
    let what = f.report.lines().next().unwrap_or_default().trim_start_matches("========= ");
    let place = match nearest {
        Some(n) if n.distance >= 0 => format!(
            ", {} bytes after the nearest allocation {} at {:#x} of size {} bytes",
            n.distance + 1,
            n.name,
            n.base,
            n.size
        ),
        Some(n) => format!(
            ", {} bytes before the nearest allocation {} at {:#x} of size {} bytes",
            -n.distance, n.name, n.base, n.size
        ),
        None => String::new(),
    };
    let why = match space {
        Space::Shared => {
            "A GPU does not trap this access (a block's shared memory is rounded up to 128 bytes), so the \
             program went on"
        }
        _ => {
            "A GPU does not trap an access this close to an allocation, so the program went on (warpdbg keeps \
             such writes apart from every allocation; bytes nothing wrote there read 0)"
        }
    };
    format!("{} {what} at {addr:#x}{place} (compute-sanitizer's memcheck). {why}", f.sentence)
}

impl Machine {
    /// One occurrence of a hazard by thread `who`, described by `message` (only called when the record
    /// describes this occurrence).
    pub(super) fn hazard(&mut self, kind: HazardKind, line: u32, who: (u64, u32), message: impl FnOnce() -> String) {
        self.hazards_seen(kind, line, 1, who, |_| message())
    }

    /// `count` occurrences of a hazard, `who` the lowest-numbered thread's, described by `message` (only
    /// called when the record describes this occurrence).
    pub(super) fn hazards_seen(
        &mut self,
        kind: HazardKind,
        line: u32,
        count: u64,
        who: (u64, u32),
        message: impl FnOnce(&Machine) -> String,
    ) {
        match self.hazards.iter().position(|h| h.kind == kind && h.line == line) {
            Some(i) => {
                let h = &mut self.hazards[i];
                if count_lowest(&mut h.count, &mut h.who, count, who) {
                    self.hazards[i].message = message(self);
                }
            }
            None => {
                let message = message(self);
                self.hazards.push(Hazard { kind, line, message, count, who, fault: None });
            }
        }
    }

    /// Thread `tid` of block `linear` read `addr`, which nothing wrote: an uninitialised read at `line` (`count`
    /// of them, this thread's the lowest-numbered).
    pub(super) fn uninit_read(&mut self, line: u32, linear: u64, tid: u32, addr: u64, count: u64) {
        self.hazards_seen(HazardKind::UninitializedRead, line, count, (linear, tid), |m| {
            let (idx, thread) = (m.launch.block_idx(linear), m.launch.thread_idx(tid));
            let what = match m.global.describe(addr) {
                Some((name, i)) => format!("{name}[{i}]"),
                None => format!("{addr:#x}"),
            };
            format!(
                "line {line}: thread {thread} of block {idx} reads {what}, which nothing wrote (no cudaMemcpy, \
                 cudaMemset or kernel): uninitialised device memory, as compute-sanitizer's initcheck reports it. \
                 Copy or set the data before the kernel reads it"
            )
        })
    }
}
