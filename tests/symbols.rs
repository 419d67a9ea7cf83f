//! `@symbol` / `--symbol`: the contents of `__constant__` and `__device__` variables for a launch, as a whole
//! program's `cudaMemcpyToSymbol` would set them, replacing the file's initialisers.

mod common;

use warpdbg::compile;
use warpdbg::front::launch::{Mode, Overrides};
use warpdbg::sim::Config;

const STENCIL: &str = "#define R 2\n\
__constant__ float coef[2 * R + 1];\n\
__device__ int calls = 100;\n\
// @block 8\n\
// @arg in float[12] = i\n\
// @arg out float[8] = 0\n\
// @symbol coef = {0.5, 1, 2, 1, 0.5}\n\
__global__ void stencil(const float *in, float *out) {\n\
    int g = threadIdx.x;\n\
    float s = 0;\n\
    for (int k = 0; k <= 2 * R; k++) s += coef[k] * in[g + k];\n\
    out[g] = s;\n\
    atomicAdd(&calls, 1);\n\
}\n";

fn run(text: &str, symbols: &[&str]) -> common::Run {
    let o = Overrides {
        mode: Some(Mode::Its),
        symbols: symbols.iter().map(|s| s.to_string()).collect(),
        ..Overrides::default()
    };
    let c = compile::compile("k.cu", text.as_bytes(), &o).unwrap_or_else(|e| panic!("{e}"));
    common::run_compiled(&c, Config::default())
}

fn error(text: &str, symbols: &[&str]) -> String {
    let o = Overrides { symbols: symbols.iter().map(|s| s.to_string()).collect(), ..Overrides::default() };
    match compile::compile("k.cu", text.as_bytes(), &o) {
        Ok(_) => panic!("compiled, but should not:\n{text}"),
        Err(e) => e.render(),
    }
}

#[test]
fn a_symbol_directive_fills_constant_memory_and_the_rest_keeps_its_initialiser() {
    let r = run(STENCIL, &[]);
    assert_eq!(r.floats("coef"), vec![0.5, 1.0, 2.0, 1.0, 0.5]);
    // out[g] = 0.5 g + (g+1) + 2 (g+2) + (g+3) + 0.5 (g+4) = 5 g + 10.
    assert_eq!(r.floats("out"), (0..8).map(|g| 5.0 * g as f64 + 10.0).collect::<Vec<_>>());
    // `calls` was not given: its own initialiser, then one per thread.
    assert_eq!(r.ints("calls"), vec![108]);
}

#[test]
fn the_command_line_replaces_the_directive_and_may_use_initialiser_expressions() {
    let r = run(STENCIL, &["coef={0, 0, 1}", "calls=i"]);
    // Values past the list are zero, as with cudaMemcpyToSymbol of a shorter buffer into a zeroed symbol.
    assert_eq!(r.floats("coef"), vec![0.0, 0.0, 1.0, 0.0, 0.0]);
    assert_eq!(r.floats("out"), (0..8).map(|g| (g + 2) as f64).collect::<Vec<_>>());
    assert_eq!(r.ints("calls"), vec![8]);
    let r = run(STENCIL, &["coef=i * 2"]);
    assert_eq!(r.floats("coef"), vec![0.0, 2.0, 4.0, 6.0, 8.0]);
}

#[test]
fn symbol_mistakes_are_explained() {
    let e = error(STENCIL, &["scale={1}"]);
    assert!(
        e.starts_with("error[E-directive]: `scale` is not a __constant__ or __device__ variable of this file\n"),
        "{e}"
    );
    assert!(e.contains("its variables: `coef`, `calls`"), "{e}");
    let e = error(STENCIL, &["coef={1, 2, 3, 4, 5, 6}"]);
    assert!(e.starts_with("error[E-directive]: 6 values for `coef`, which holds 5\n"), "{e}");
    let e = error(STENCIL, &["calls={1.5}"]);
    assert!(e.starts_with("error[E-directive]: `calls` holds integers; these values are not all integers\n"), "{e}");
    let twice = STENCIL.replace("// @block 8\n", "// @block 8\n// @symbol coef = 0\n");
    let e = error(&twice, &[]);
    assert!(e.starts_with("error[E-directive]: `@symbol coef` is given twice\n"), "{e}");
    let e = error(STENCIL, &["coef"]);
    assert!(e.starts_with("error[E-directive]: `@symbol` needs a variable and its contents\n"), "{e}");
}

#[test]
fn the_generated_host_program_sets_symbols_with_cuda_memcpy_to_symbol() {
    let o = Overrides { mode: Some(Mode::Its), ..Overrides::default() };
    let c = compile::compile("stencil.cu", STENCIL.as_bytes(), &o).expect("compiles");
    let host = warpdbg::program::host_program::generate(&c).expect("host program");
    // The values as bit patterns (0.5f is 0x3f000000), copied before the launch; `calls` keeps its initialiser.
    assert!(host.contains("static const unsigned int init_coef[5] = {\n  1056964608u,1065353216u,1073741824u,1065353216u,1056964608u,\n};"), "{host}");
    let copy = host.find("cudaMemcpyToSymbol(coef, init_coef, sizeof(init_coef));").expect("copied to the symbol");
    assert!(copy < host.find("cudaLaunchKernel").expect("launch"));
    assert!(!host.contains("init_calls"));
}
