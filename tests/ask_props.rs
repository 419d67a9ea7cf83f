//! Property test: random expressions over random programs never panic. Each case takes a kernel of
//! `kernels/` or `tests/conformance/`, runs it a random number of steps, and evaluates an expression, built
//! from the kernel's own names, the built-ins, numbers and C's operators (or a soup of such tokens), in every
//! thread of a resident block, across its warps (the Lanes pane's rows and the `printed` report). Whatever
//! the expression, the answer is a value or an error, never a panic. `WARPDBG_PROP_CASES` raises the count.

use std::sync::OnceLock;

use proptest::prelude::*;
use proptest::test_runner::{Config as PropConfig, FileFailurePersistence};

use warpdbg::compile::{self, Compiled};
use warpdbg::debug::session::Session;
use warpdbg::front::launch::Overrides;
use warpdbg::sim::Config;
use warpdbg::sim::expr::{self, Expression, Thread};
use warpdbg::sim::focus::Focus;

/// The kernel files that compile: (name, text).
fn programs() -> &'static [(String, Vec<u8>)] {
    static ALL: OnceLock<Vec<(String, Vec<u8>)>> = OnceLock::new();
    ALL.get_or_init(|| {
        let root = env!("CARGO_MANIFEST_DIR");
        let mut out = vec![];
        for dir in ["kernels", "tests/conformance", "tests/fixtures/ask"] {
            let mut paths: Vec<_> = std::fs::read_dir(format!("{root}/{dir}"))
                .expect("directory")
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.extension().is_some_and(|x| x == "cu"))
                .collect();
            paths.sort();
            for p in paths {
                let bytes = std::fs::read(&p).expect("readable");
                if compile(&p.display().to_string(), &bytes).is_ok() {
                    out.push((p.display().to_string(), bytes));
                }
            }
        }
        assert!(out.len() > 30, "the seed kernels compile");
        out
    })
}

const OPS: [&str; 18] =
    ["+", "-", "*", "/", "%", "<<", ">>", "&", "|", "^", "<", "<=", ">", ">=", "==", "!=", "&&", "||"];
const ATOMS: [&str; 12] = [
    "0",
    "1",
    "-1",
    "31",
    "2147483647",
    "0.5f",
    "1e300",
    "threadIdx.x",
    "blockIdx.y",
    "blockDim.x",
    "gridDim",
    "warpSize",
];
const SOUP: [&str; 24] = [
    "(", ")", "[", "]", ".", "->", "*", "&", "!", "~", "-", "?", ":", "sizeof", "(float)", "(int *)", "x", "0", "1.0",
    "'a'", "\"s\"", "=", "++", ",",
];

/// An expression of depth at most `depth` over `names`.
fn expr_text(names: Vec<String>, depth: u32) -> BoxedStrategy<String> {
    let atom = {
        let names = names.clone();
        prop_oneof![
            (0..ATOMS.len()).prop_map(|i| ATOMS[i].to_string()),
            (0..names.len().max(1)).prop_map(move |i| names.get(i).cloned().unwrap_or_else(|| "0".into())),
        ]
    };
    atom.prop_recursive(depth, 24, 3, move |inner| {
        prop_oneof![
            (inner.clone(), 0..OPS.len(), inner.clone()).prop_map(|(a, o, b)| format!("({a} {} {b})", OPS[o])),
            (inner.clone(), inner.clone()).prop_map(|(a, i)| format!("{a}[{i}]")),
            (inner.clone(), inner.clone(), inner.clone()).prop_map(|(c, a, b)| format!("({c} ? {a} : {b})")),
            inner.clone().prop_map(|a| format!("*{a}")),
            inner.clone().prop_map(|a| format!("&{a}")),
            inner.clone().prop_map(|a| format!("-{a}")),
            inner.clone().prop_map(|a| format!("(float){a}")),
            inner.clone().prop_map(|a| format!("(unsigned char *){a}")),
            inner.clone().prop_map(|a| format!("{a}.x")),
            inner.clone().prop_map(|a| format!("sizeof({a})")),
        ]
    })
    .boxed()
}

/// Evaluates `text` everywhere in the block the machine has in slot 0, as every view does.
fn exercise(s: &Session, text: &str) {
    let m = &s.machine;
    match Expression::parse(text, &m.kernel) {
        Err(e) => {
            assert!(e.render().contains("error"), "{text}: a diagnostic is rendered");
            let _ = e.short();
        }
        Ok(e) => {
            if let Some(b) = m.blocks.first() {
                for tid in 0..b.warps.len() as u32 * 32 {
                    if let Ok(v) = e.eval(m, Thread { slot: 0, tid }) {
                        let _ = (v.display(m, 0), v.to_json(m, 0), v.number());
                    }
                }
                let _ = expr::across_block(&e, m, 0);
                let focus = Focus { block: b.linear, warp: 0, lane: 5 };
                let _ = expr::printed(&[text.to_string()], m, Some(focus));
            }
        }
    }
}

fn config(cases: u32) -> PropConfig {
    let cases = std::env::var("WARPDBG_PROP_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(cases);
    PropConfig { cases, failure_persistence: Some(Box::new(FileFailurePersistence::Off)), ..PropConfig::default() }
}

fn compile(name: &str, bytes: &[u8]) -> Result<Compiled, warpdbg::front::CompileError> {
    compile::compile(name, bytes, &Overrides::default())
}

fn session(program: usize, steps: u64) -> Session {
    let all = programs();
    let (name, bytes) = &all[program % all.len()];
    let c = compile(name, bytes).expect("compiled before");
    let mut s = Session::new(c, Config::default()).expect("the seed kernels launch");
    s.run_to(steps);
    s
}

/// A kernel, a step, and an expression over its names.
fn case() -> impl Strategy<Value = (usize, u64, String)> {
    (0..programs().len(), 0u64..600).prop_flat_map(|(p, steps)| {
        let names = {
            let s = session(p, 0);
            let mut n = expr::names(&s.machine.kernel);
            n.push("nosuchname".into());
            n
        };
        (Just(p), Just(steps), expr_text(names, 4))
    })
}

proptest! {
    #![proptest_config(config(48))]

    #[test]
    fn grammar_expressions_never_panic((p, steps, text) in case()) {
        exercise(&session(p, steps), &text);
    }

    #[test]
    fn token_soup_never_panics(p in 0..64usize, steps in 0u64..300, toks in prop::collection::vec(0..SOUP.len(), 0..12)) {
        let text: Vec<&str> = toks.iter().map(|&i| SOUP[i]).collect();
        exercise(&session(p, steps), &text.join(" "));
    }

    #[test]
    fn arbitrary_text_never_panics(p in 0..64usize, text in "\\PC{0,40}") {
        exercise(&session(p, 50), &text);
    }
}
