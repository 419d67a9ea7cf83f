//! The threaded way to run a program's host code ([`super::HostRun::Thread`], the terminal): the host runs on a
//! thread of its own, and at each launch the device's [`LaunchHook`] sends the launch's machine to the
//! debugger and waits for it back.

use std::io::Write;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};

use super::{LaunchInfo, ProgramEnd, launch_info};
use crate::front::launch::Mode;
use crate::host::{HostEnd, HostVar, JitMode, LaunchRequest};
use crate::program::CompiledProgram;
use crate::program::device::{LaunchHook, SimDevice};
use crate::sim::{Config, Machine, Outcome};

/// Stack of the host program's thread (the interpreter recurses once per host call and per statement).
const HOST_STACK: usize = 256 << 20;

/// What the host thread tells the debugger.
pub(super) enum FromHost {
    /// The host is at a launch: its machine at step 0, the launch, the host variables in scope.
    Launch { info: LaunchInfo, machine: Box<Machine>, vars: Vec<HostVar> },
    /// `main` returned (or the program stopped).
    Ended(ProgramEnd),
}

/// A byte buffer several writers share (the program's output, written on the host thread, read here).
#[derive(Clone, Default)]
pub(super) struct SharedBuf(Arc<Mutex<Vec<u8>>>);

impl SharedBuf {
    pub(super) fn contents(&self) -> Vec<u8> {
        self.0.lock().map(|b| b.clone()).unwrap_or_else(|e| e.into_inner().clone())
    }
}

impl Write for SharedBuf {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match self.0.lock() {
            Ok(mut b) => b.extend_from_slice(buf),
            Err(e) => e.into_inner().extend_from_slice(buf),
        }
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The device hook on the host thread: sends each launch to the debugger and waits for it back.
struct Hook {
    to_debugger: Sender<FromHost>,
    from_debugger: Receiver<(Box<Machine>, Outcome)>,
    vars: Vec<HostVar>,
}

impl LaunchHook for Hook {
    fn launch(
        &mut self,
        index: usize,
        req: &LaunchRequest,
        m: Machine,
        alloc_lines: &std::collections::HashMap<u64, u32>,
    ) -> Option<(Machine, Outcome)> {
        let info = launch_info(index, req, &m, alloc_lines);
        let vars = std::mem::take(&mut self.vars);
        self.to_debugger.send(FromHost::Launch { info, machine: Box::new(m), vars }).ok()?;
        // The debugger gone (it went back to an earlier launch, or quit): the program stops here.
        let (m, o) = self.from_debugger.recv().ok()?;
        Some((*m, o))
    }

    fn host_vars(&mut self, vars: Vec<HostVar>) {
        self.vars = vars;
    }
}

/// One run of the program's host code on its own thread.
pub(super) struct Runner {
    to_host: Sender<(Box<Machine>, Outcome)>,
    from_host: Receiver<FromHost>,
    /// The program's standard output and error, interleaved as a terminal shows them.
    pub(super) output: SharedBuf,
    /// warpdbg's own report lines (launch summaries, faults, hazards).
    pub(super) report: SharedBuf,
}

impl Runner {
    pub(super) fn start(
        program: Arc<CompiledProgram>,
        mode: Mode,
        config: Config,
        host_steps: u64,
        host_jit: JitMode,
        args: Vec<String>,
    ) -> Result<Runner, String> {
        let (to_debugger, from_host) = channel();
        let (to_host, from_debugger) = channel();
        let (output, report) = (SharedBuf::default(), SharedBuf::default());
        let (out, rep) = (output.clone(), report.clone());
        let body = move || {
            let unit = &program.unit;
            let source = unit.sources.get(unit.file);
            let mut rep_w = rep;
            let ended = {
                let mut dev = SimDevice::new(&unit.program, &unit.sources, source.name.clone(), mode, config, None);
                let hook = Hook { to_debugger: to_debugger.clone(), from_debugger, vars: vec![] };
                dev.set_hook(Box::new(hook));
                let (mut o, mut e) = (out.clone(), out);
                let (end, rt, status) =
                    crate::program::run_host(&program, &mut dev, &mut o, &mut e, host_steps, host_jit, &args);
                let _ =
                    rep_w.write_all(crate::program::findings_text(&dev.launches, &rt.findings, &rt.leaks).as_bytes());
                let findings = crate::program::status::finding_count(&dev.launches, &rt.findings);
                ProgramEnd { status, end, findings }
            };
            if let HostEnd::Error(e) = &ended.end {
                let _ = writeln!(rep_w, "warpdbg: error: {e}");
            }
            let _ = to_debugger.send(FromHost::Ended(ended));
        };
        std::thread::Builder::new()
            .name("host program".into())
            .stack_size(HOST_STACK)
            .spawn(body)
            .map_err(|e| format!("cannot start the program's host thread: {e}"))?;
        Ok(Runner { to_host, from_host, output, report })
    }

    /// Waits for the host's next launch or its end.
    pub(super) fn next(&self) -> Result<FromHost, String> {
        self.from_host.recv().map_err(|_| "the program's host thread stopped unexpectedly".to_string())
    }

    /// Hands a launch's machine back at its end; the host goes on.
    pub(super) fn finish(&self, m: Machine, o: Outcome) -> Result<(), String> {
        self.to_host.send((Box::new(m), o)).map_err(|_| "the program's host thread stopped unexpectedly".to_string())
    }
}
