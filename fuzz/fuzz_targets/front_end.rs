//! Fuzzes the front end: any bytes go through `compile::compile`; on success the IR of every kernel is printed
//! and its structural invariants are checked (the same as `tests/front_end_props.rs`, for as long as one likes).
//!
//! `cargo fuzz run front_end` (nightly), or on stable `RUSTC_BOOTSTRAP=1 cargo fuzz run front_end -s none`.
//! Seed the corpus with the kernels: `mkdir -p fuzz/corpus/front_end && cp kernels/*.cu fuzz/corpus/front_end/`;
//! `-- -dict=fuzz/front_end.dict` adds the preprocessor's directives and the language's constructs.

#![no_main]

use libfuzzer_sys::fuzz_target;
use warpdbg::compile;
use warpdbg::front::launch::{ArgValue, Overrides};
use warpdbg::ir::print::print_kernel;
use warpdbg::ir::{Instr, Kernel, Pc};

fuzz_target!(|data: &[u8]| {
    match compile::compile("fuzz.cu", data, &Overrides::default()) {
        Ok(c) => {
            for k in c.all_kernels() {
                assert!(print_kernel(&k).starts_with("kernel "));
                check_invariants(&k);
            }
            // Initialisers are evaluated per element by the simulator: the first few must not panic either.
            for (stream, a) in c.launch.args.iter().enumerate() {
                if let ArgValue::Array { init, len, .. } = &a.value {
                    for i in 0..(*len).min(4) {
                        init.eval(i, c.launch.seed, stream as u64);
                    }
                }
            }
        }
        Err(e) => {
            assert!(!e.diags.is_empty());
            assert!(e.render().contains("error"));
        }
    }
});

/// Blocks tile the instructions and end in their one terminator; targets are block starts; edges match the
/// terminators; a branch reconverges at its block's immediate post-dominator.
fn check_invariants(k: &Kernel) {
    let n = k.instrs.len();
    assert!(n > 0 && k.lines.len() == n && k.spans.len() == n);
    assert_eq!(k.blocks.first().map(|b| b.start), Some(Pc(0)));
    assert_eq!(k.blocks.last().map(|b| b.end.0 as usize), Some(n));
    let is_start = |pc: Pc| k.blocks.iter().any(|b| b.start == pc);
    for (bi, b) in k.blocks.iter().enumerate() {
        assert!(b.start < b.end);
        if let Some(next) = k.blocks.get(bi + 1) {
            assert_eq!(b.end, next.start);
        }
        for pc in b.start.0..b.end.0 - 1 {
            assert!(!k.instrs[pc as usize].is_terminator());
        }
        let targets = match &k.instrs[b.terminator().0 as usize] {
            Instr::Jump { target } => vec![*target],
            Instr::Branch { then_pc, else_pc, reconv, .. } => {
                assert_eq!(*reconv, b.ipdom.map_or(Pc::EXIT, |d| k.block(d).start));
                vec![*then_pc, *else_pc]
            }
            Instr::Exit => vec![],
            other => panic!("bb{bi} ends with {other:?}"),
        };
        assert!(targets.iter().all(|t| is_start(*t)));
        let succs: Vec<Pc> = b.succs.iter().map(|s| k.block(*s).start).collect();
        assert_eq!(succs, targets);
    }
}
