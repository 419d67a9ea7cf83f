//! docs/programs.md's table of the CUDA runtime API is what `src/host/cuda/table.rs` generates, and that list
//! agrees with what host code can call. After changing the list, regenerate the doc with
//! `WARPDBG_BLESS=1 cargo test --release --test docs_api_table`.

use std::path::Path;

use warpdbg::host::cuda::table;

const START: &str = "<!-- api-table:start (generated from src/host/cuda/table.rs) -->\n";
const END: &str = "<!-- api-table:end -->";

#[test]
fn the_list_agrees_with_what_host_code_can_call() {
    let names = include_str!("../src/host/cuda/names.rs");
    if let Err(e) = table::check(names) {
        panic!("src/host/cuda/table.rs disagrees with the resolver:\n{e}");
    }
}

#[test]
fn docs_api_table_is_generated() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/programs.md");
    let doc = std::fs::read_to_string(&path).unwrap();
    let (Some(a), Some(b)) = (doc.find(START), doc.find(END)) else {
        panic!("docs/programs.md lacks the markers {START:?} and {END:?}");
    };
    let body = &doc[a + START.len()..b];
    let want = table::markdown();
    if body != want {
        if std::env::var_os("WARPDBG_BLESS").is_some() {
            let new = format!("{}{want}{}", &doc[..a + START.len()], &doc[b..]);
            std::fs::write(&path, new).unwrap();
            return;
        }
        panic!(
            "docs/programs.md's API table differs from src/host/cuda/table.rs: regenerate it with \
             `WARPDBG_BLESS=1 cargo test --release --test docs_api_table`\nwant:\n{want}"
        );
    }
}
