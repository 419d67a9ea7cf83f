//! Fuzzes whole programs: any bytes are compiled as a `.cu` file (host code and kernels) and run as `warpdbg run`
//! runs them, with small limits (`../whole_program.rs`). warpdbg must never panic, abort or hang.
//!
//! `cargo +nightly fuzz run whole_program` (or `RUSTC_BOOTSTRAP=1 cargo fuzz run whole_program`); seed the corpus
//! with the test programs: `mkdir -p fuzz/corpus/whole_program && cp tests/programs/*.cu fuzz/corpus/whole_program/`.

#![no_main]

use libfuzzer_sys::fuzz_target;

#[path = "../whole_program.rs"]
mod whole_program;

fuzz_target!(|data: &[u8]| {
    whole_program::run_program(data);
});
