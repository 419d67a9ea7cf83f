//! The commands that print what warpdbg knows about a kernel as text: `check` (and its IR), `host` (the CUDA
//! host program for a real GPU), `view` (the debugger's screen after N steps) and `why` (a lane's story).

use std::io::Write;
use std::path::Path;

use super::args::{LaunchArgs, UiArgs};
use super::debugger::make_app_with_args;
use super::exit::Exit;
use super::load::{base_config, load};
use super::program;
use crate::debug::session::Session;
use crate::ir::print::print_kernel;
use crate::sim::Config;
use crate::tui::scroll;

pub(super) fn host_command(path: &Path, launch: &LaunchArgs) -> Exit {
    let compiled = match load(path, launch) {
        Ok(c) => c,
        Err(code) => return code,
    };
    match crate::program::host_program::generate(&compiled) {
        Ok(text) => {
            print!("{text}");
            Exit::Ok
        }
        Err(e) => {
            eprintln!("error: {e}");
            Exit::Usage
        }
    }
}

pub(super) fn check(path: &Path, launch: &LaunchArgs, ir: bool) -> Exit {
    let compiled = match load(path, launch) {
        Ok(c) => c,
        Err(code) => return code,
    };
    let mut out = std::io::stdout().lock();
    let l = &compiled.launch;
    let _ = writeln!(
        out,
        "ok: {} launches {} with grid {} x block {} ({} warps), mode {}",
        path.display(),
        l.kernel,
        l.grid,
        l.block,
        l.grid.count() * l.warps_per_block(),
        l.mode
    );
    if ir {
        for k in compiled.all_kernels() {
            let _ = writeln!(out);
            let _ = write!(out, "{}", print_kernel(&k));
        }
    }
    Exit::Ok
}

fn parse_size(s: &str) -> Option<(u16, u16)> {
    let (c, r) = s.to_ascii_lowercase().split_once('x').map(|(a, b)| (a.trim().to_string(), b.trim().to_string()))?;
    let (c, r) = (c.parse::<u16>().ok()?, r.parse::<u16>().ok()?);
    (c >= 1 && r >= 1 && c <= 1000 && r <= 1000).then_some((c, r))
}

/// What `warpdbg view` draws: after how many steps, at what size, the comparison or not, one pane only (the
/// metrics pane in a view: `metrics`, `banks`, `coalescing`) and the `--print` expressions.
pub(super) struct ViewOptions<'a> {
    pub steps: u64,
    pub size: &'a str,
    pub compare: bool,
    pub pane: Option<&'a str>,
    pub prints: &'a [String],
}

pub(super) fn view_command(
    path: &Path,
    launch: &LaunchArgs,
    ui: &UiArgs,
    options: &ViewOptions,
    program_args: &[String],
) -> Exit {
    let ViewOptions { steps, size, compare, pane, prints } = *options;
    let Some((cols, rows)) = parse_size(size) else {
        eprintln!("error: --size must be COLSxROWS, e.g. 120x40 (1 to 1000 each), not `{size}`");
        return Exit::Usage;
    };
    let mut app = match make_app_with_args(path, launch, ui, program_args) {
        Ok(a) => a,
        Err(code) => return code,
    };
    app.size = (cols, rows);
    if compare {
        crate::tui::compare::open_at(&mut app, steps);
        print!("{}", crate::tui::view::render_text(&app, cols, rows));
        return Exit::Ok;
    }
    app.run_to_step(steps);
    if let Err(code) = super::run::check_prints(prints, &app.session.machine.kernel) {
        return code;
    }
    if !prints.is_empty() {
        app.lanes.watches = prints.to_vec();
        app.lanes.open = true;
    }
    scroll::keep_cursor_visible(&mut app);
    scroll::reveal_stuck_lines(&mut app);
    app.refresh_why();
    if let Some(view) = pane {
        app.bank_view = view == "banks";
        app.coalescing_view = view == "coalescing";
        print!("{}", crate::tui::view::pane_text(&app, cols as usize));
        return Exit::Ok;
    }
    print!("{}", crate::tui::view::render_text(&app, cols, rows));
    if let Some((slot, warp, lane)) = app.selected_thread() {
        let m = &app.session.machine;
        let focus = crate::sim::focus::Focus { block: m.blocks[slot].linear, warp, lane };
        print!("{}", crate::sim::expr::printed(prints, m, Some(focus)).text);
    }
    Exit::Ok
}

pub(super) fn why_command(
    path: &Path,
    launch: &LaunchArgs,
    steps: u64,
    block: u64,
    warp: u32,
    lane: u32,
    program_args: &[String],
) -> Exit {
    let config = Config { schedule_seed: launch.schedule_seed, ..base_config() };
    let program = program::read(path);
    let mut session = match &program {
        Some(bytes) => match program::session(path, bytes, launch, program_args) {
            Ok((_, s)) => s,
            Err(code) => return code,
        },
        None => {
            let compiled = match load(path, launch) {
                Ok(c) => c,
                Err(code) => return code,
            };
            match Session::new(compiled, config) {
                Ok(s) => s,
                Err(e) => {
                    eprintln!("error: {e}");
                    return Exit::Usage;
                }
            }
        }
    };
    session.run_to(steps);
    match session.why_inactive(block, warp, lane) {
        Ok(w) => {
            println!("at step {}: {}", session.machine.steps, w.text);
            if let Some((_, step)) = w.branch {
                let at = match (&program, launch.launch) {
                    (Some(_), Some(k)) => format!(" --launch {k}"),
                    _ => String::new(),
                };
                println!("to see the branch about to run: warpdbg view {}{at} --steps {}", path.display(), step - 1);
            }
            Exit::Ok
        }
        Err(e) => {
            eprintln!("error: {e}");
            Exit::Usage
        }
    }
}
