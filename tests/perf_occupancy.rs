//! The register estimate (`perf::occupancy::registers_per_thread`) and the occupancy it gives, per kernel of
//! the lessons benchmark, against what nvcc 13.0 gave the same kernels for the H100 (`benches/lessons/h100.json`,
//! Nsight Compute's `launch__registers_per_thread`). docs/performance.md's occupancy section states the bound.

use serde_json::Value;
use warpdbg::front::launch::{Mode, Overrides};
use warpdbg::ir::Kernel;
use warpdbg::perf::occupancy::{occupancy, occupancy_with, registers_per_thread};
use warpdbg::perf::{Device, Limiter, Occupancy};

/// The IR of kernel `name` of lesson program `file`.
fn kernel(file: &str, name: &str) -> Kernel {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/lessons").join(file);
    let bytes = std::fs::read(path).expect("the lesson");
    let p = warpdbg::program::compile(file, &bytes, &Overrides::default()).expect("it compiles");
    let (id, _) = p.unit.program.kernels().find(|(_, f)| f.name == name).expect("the kernel");
    warpdbg::front::with_stack(|| warpdbg::ir::lower::lower_kernel(&p.unit.program, id, &p.unit.sources))
        .expect("it lowers")
}

/// Every recorded kernel once: (file, kernel, nvcc's registers per thread, grid, block).
fn recorded() -> Vec<(String, String, u32, u64, u64)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let h100: Value =
        serde_json::from_str(&std::fs::read_to_string(root.join("benches/lessons/h100.json")).expect("recording"))
            .expect("h100.json parses");
    let mut out: Vec<(String, String, u32, u64, u64)> = vec![];
    for (file, rec) in h100["programs"].as_object().expect("programs") {
        for l in rec["launches"].as_array().expect("launches") {
            let name = l["kernel"].as_str().expect("kernel").to_string();
            let m = &l["metrics"];
            let n = |k: &str| m[k].as_u64().unwrap_or_else(|| panic!("{file}: {k}"));
            if !out.iter().any(|r| r.0 == *file && r.1 == name) {
                out.push((
                    file.clone(),
                    name,
                    n("launch__registers_per_thread") as u32,
                    n("launch__grid_size"),
                    n("launch__block_size"),
                ));
            }
        }
    }
    out
}

#[test]
fn the_estimate_of_five_kernels_of_different_shape() {
    let h100 = Device::of(Mode::Its);
    // (file, kernel, grid, block, static shared bytes, the estimate, nvcc's, the occupancy of the recorded
    // launch: blocks per SM, what limits them, theoretical and achieved %, waves.)
    type Case = (&'static str, &'static str, u64, u64, u64, u32, u32, (u64, Limiter, f64, f64, u64));
    let cases: [Case; 5] = [
        // Straight-line load and store, 32-bit index: the floor.
        ("coalescing.cu", "readOffset0", 32768, 256, 0, 16, 16, (8, Limiter::Warps, 100.0, 96.969_696_969_696_97, 32)),
        // A loop over strides, in place in global memory through a 64-bit pointer: 8 above nvcc.
        (
            "reduction.cu",
            "reduceNeighbored",
            8192,
            512,
            0,
            24,
            16,
            (4, Limiter::Warps, 100.0, 96.969_696_969_696_97, 16),
        ),
        // Eight loads unrolled, then a warp-unrolled tail: 6 above nvcc.
        (
            "reduction.cu",
            "reduceUnrollWarps8",
            1024,
            512,
            0,
            32,
            26,
            (4, Limiter::Warps, 100.0, 96.969_696_969_696_97, 2),
        ),
        // Two 16x16 tiles in shared memory, an inner loop over them: nvcc's 32 exactly.
        ("matmul.cu", "matmulTiled", 576, 256, 2048, 32, 32, (8, Limiter::Warps, 100.0, 54.545_454_545_454_54, 1)),
        // Four loads unrolled in a grid-stride loop: 6 below nvcc (it keeps the four loads in flight at once).
        ("vectorized.cu", "copyUnroll4", 1056, 256, 0, 24, 30, (8, Limiter::Warps, 100.0, 100.0, 1)),
    ];
    for (file, name, grid, block, shared, estimate, nvcc, (per_sm, limiter, theoretical, achieved, waves)) in cases {
        let k = kernel(file, name);
        assert_eq!((registers_per_thread(&k), nvcc), (estimate, nvcc), "{name}");
        let o = occupancy(&h100, &k, grid, block, shared);
        let want = Occupancy {
            registers_per_thread: estimate,
            warps_per_block: block / 32,
            blocks_per_sm: per_sm,
            limiter,
            theoretical,
            achieved,
            waves,
        };
        assert_eq!(o, want, "{name}");
        // nvcc's registers give the same occupancy: at most 32 a thread, registers never limit 64 warps.
        assert_eq!(occupancy_with(&h100, nvcc, grid, block, shared), Occupancy { registers_per_thread: nvcc, ..o });
    }
}

#[test]
fn the_estimate_is_within_8_registers_of_nvcc_on_every_recorded_kernel() {
    let h100 = Device::of(Mode::Its);
    let mut errors: Vec<i64> = vec![];
    for (file, name, nvcc, grid, block) in recorded() {
        let est = registers_per_thread(&kernel(&file, &name));
        errors.push(est as i64 - nvcc as i64);
        // The occupancy the estimate gives is the one nvcc's registers give (shared memory aside, the same
        // for both).
        let ours = occupancy_with(&h100, est, grid, block, 0);
        assert_eq!(ours, Occupancy { registers_per_thread: est, ..occupancy_with(&h100, nvcc, grid, block, 0) });
    }
    errors.sort();
    assert_eq!(errors.len(), 48);
    let exact = errors.iter().filter(|e| **e == 0).count();
    let over = errors.iter().filter(|e| **e > 0).count();
    // 6 exact, 40 over (by 4 to 8: the estimate's fixed overhead of 10 where nvcc needs 16), 2 under
    // (matmulNaive's and copyUnroll4's loads nvcc keeps in flight at once).
    assert_eq!((errors[0], errors[1], errors[47], exact, over), (-8, -6, 8, 6, 40), "{errors:?}");
}
