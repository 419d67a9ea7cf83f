//! The command line (interface.md's commands and exit codes), as clap derive types plus dispatch.

mod args;
mod debugger;
mod exit;
mod inspect;
mod load;
mod program;
mod recordings;
mod run;
mod trace;

pub use args::{Cli, Command, LaunchArgs, TeachArgs, UiArgs};
pub use debugger::{make_app, make_app_with_args, recording_header};
pub use exit::{Exit, exit_for};
pub use load::{load, parse_breaks};

use crate::sim::Config;
use load::base_config;

/// Runs a parsed command line; returns the process exit status. `warpdbg run` on a whole program (a file
/// with `main`) exits with the program's own status (programs.md); everything else with an [`Exit`].
pub fn run_status(cli: Cli) -> u8 {
    if let Some(Command::Run { file, launch, max_steps, memory_cap, program_args, json, memory, prints, .. }) =
        &cli.command
        && let Ok(bytes) = std::fs::read(file)
        && crate::program::is_program(&bytes)
    {
        let options = crate::program::RunOptions {
            mode: launch.mode.unwrap_or_default(),
            config: with_memory_cap(Config { max_steps: *max_steps, ..base_config() }, *memory_cap),
            args: program_args.clone(),
            json: json.then_some(*memory),
            print: prints.clone(),
            ..Default::default()
        };
        return crate::program::run_file(file, &bytes, &launch.overrides(), &options);
    }
    run(cli) as u8
}

/// `--memory-cap`, where given: the cap of a launch's arrays and, for whole programs, the device's memory
/// too (and the host's, four times it).
fn with_memory_cap(config: Config, cap: Option<u64>) -> Config {
    match cap {
        Some(cap) => Config { memory_cap: cap, device_memory: cap, ..config },
        None => config,
    }
}

/// Runs a parsed command line; returns the exit status.
pub fn run(cli: Cli) -> Exit {
    match cli.command {
        Some(Command::Check { file, launch, ir }) => inspect::check(&file, &launch, ir),
        Some(Command::Run {
            file,
            launch,
            json,
            memory,
            max_steps,
            memory_cap,
            bench,
            explore,
            breaks,
            prints,
            ..
        }) => {
            let json = json.then_some(memory);
            let config =
                with_memory_cap(Config { max_steps, schedule_seed: launch.schedule_seed, ..base_config() }, memory_cap);
            match explore {
                Some(n) => run::explore_command(&file, &launch, json.is_some(), config, n),
                None if bench => run::bench_command(&file, &launch, config),
                None if !breaks.is_empty() => run::run_break_command(&file, &launch, json, config, &breaks, &prints),
                None => run::run_command(&file, &launch, json, config, &prints),
            }
        }
        Some(Command::Trace { file, launch, jsonl, max_steps, program_args }) => {
            let config = Config { max_steps, schedule_seed: launch.schedule_seed, ..base_config() };
            match program::read(&file) {
                Some(bytes) => program::trace(&file, &bytes, &launch, &program_args, jsonl, config),
                None => trace::trace_command(&file, &launch, jsonl, config),
            }
        }
        Some(Command::View { file, launch, ui, steps, size, compare, pane, prints, program_args }) => {
            let options = inspect::ViewOptions { steps, size: &size, compare, pane: pane.as_deref(), prints: &prints };
            inspect::view_command(&file, &launch, &ui, &options, &program_args)
        }
        Some(Command::Why { file, launch, steps, in_block, warp, lane, program_args }) => {
            inspect::why_command(&file, &launch, steps, in_block, warp, lane, &program_args)
        }
        Some(Command::Host { file, launch }) => inspect::host_command(&file, &launch),
        Some(Command::Replay { session, speed, ui }) => recordings::replay_command(&session, speed, &ui),
        Some(Command::Export { inputs, playground: Some(out), wasm, handout, ui, .. }) => {
            recordings::playground_command(&out, &inputs, handout.as_deref(), wasm.as_deref(), &ui)
        }
        Some(Command::Export { inputs, html, cast, text, ui, .. }) => match inputs.as_slice() {
            [session] => recordings::export_command(session, html.as_deref(), cast.as_deref(), text.as_deref(), &ui),
            _ => {
                eprintln!("error: export takes one recorded session (or --playground OUT with any files)");
                Exit::Usage
            }
        },
        None => match cli.file {
            Some(file) => debugger::tui_command(
                &file,
                &cli.launch,
                &cli.ui,
                cli.record.as_deref(),
                cli.compare,
                &cli.teach,
                &cli.program_args,
            ),
            None => {
                eprintln!("usage: warpdbg FILE   (open a kernel in the debugger; `warpdbg --help` lists the commands)");
                Exit::Usage
            }
        },
    }
}
