use std::process::ExitCode;

use clap::Parser;
use warpdbg::cli::{Cli, run_status};

fn main() -> ExitCode {
    // Readable panic and error reports; a panic is still a warpdbg bug, never an answer.
    let _ = color_eyre::install();
    let cli = Cli::parse();
    ExitCode::from(run_status(cli))
}
