//! A program whose helpers are in a second file next to their header (`src/front/companions.rs`):
//! `#include "../common/timer.h"` with `../common/timer.cpp` beside it, as a course's Makefile links them.

use warpdbg::program::{self, RunOptions};

/// Compiles and runs `tests/fixtures/companions/lesson/NAME.cu` by its path: stdout and status, or the
/// compile errors' messages.
fn run(name: &str) -> Result<(String, u8), Vec<String>> {
    let path = format!("{}/tests/fixtures/companions/lesson/{name}.cu", env!("CARGO_MANIFEST_DIR"));
    let bytes = std::fs::read(&path).expect("fixture");
    let compiled = program::compile(&path, &bytes, &Default::default())
        .map_err(|e| e.diags.iter().map(|d| d.message.clone()).collect::<Vec<_>>())?;
    let (mut out, mut err) = (vec![], vec![]);
    let r = program::run(&compiled, &RunOptions::default(), &mut out, &mut err);
    Ok((String::from_utf8_lossy(&out).into(), r.status))
}

#[test]
fn a_helper_defined_next_to_its_header_is_read_with_the_program() {
    assert_eq!(run("vector_add"), Ok(("c[999] = 2997, timed: yes\n".to_string(), 0)));
}

#[test]
fn a_function_no_file_defines_keeps_the_programs_own_error() {
    // The try with `timer.cpp` fails too, so the error is the one the program gives alone.
    assert_eq!(
        run("undefined"),
        Err(vec!["`never_defined` is declared but defined nowhere in the program".to_string()])
    );
}
