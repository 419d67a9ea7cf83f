//! Hand-out manifests and program links in the playground page (issue 35, items 4 and 5), in headless
//! Chromium: `export --playground --handout week.ron` lists the manifest's exercises and gives a program
//! exercise its arguments (the argv field, and the program's `argv`); a link `#file=NAME&launch=K&step=N`
//! opens the program at launch K, N steps in, on the screen `warpdbg view NAME --launch K --steps N -- ARGS`
//! prints at the page's size; the page's own link carries the file, launch, step and arguments and opens the
//! same screen again.
//!
//! The page's WebAssembly must be built first (`bash .ci/page`, which `.ci/test` runs).

mod browser;
mod session_support;

use std::path::Path;

use browser::{Browser, export_playground};
use serde_json::json;
use session_support::*;

/// `warpdbg view FILE --launch K --steps N -- ARGS` at a size, in the hand-out's folder.
fn view(dir: &Path, file: &str, launch: u64, steps: u64, args: &[&str], size: (u64, u64)) -> Vec<String> {
    browser::view(dir, file, &["--launch", &launch.to_string(), "--steps", &steps.to_string()], size, args)
}

/// Opens a URL and waits for the program's screen at `launch` and `steps`.
fn open_at(b: &mut Browser, url: &str, launch: u64, steps: u64) {
    b.open(url);
    b.wait_until(
        &format!(
            "window.warpdbgProgramScreen !== undefined && !window.warpdbg.busy() && window.warpdbg.launch() === \
             {launch} && window.warpdbg.steps() === {steps}"
        ),
        "the program's screen",
    );
}

#[test]
fn a_handout_gives_its_arguments_and_a_link_opens_a_launch_and_step() {
    let Some(wasm) = browser::playground_wasm() else { return };
    let dir = scratch("playground_handout_program");
    std::fs::copy(repo("tests/programs/page_args.cu"), dir.join("page_args.cu")).unwrap();
    std::fs::copy(repo("tests/programs/reduction.cu"), dir.join("reduction.cu")).unwrap();
    std::fs::write(
        dir.join("week.ron"),
        "(exercises: [(file: \"page_args.cu\", args: \"3 'two words'\"), (file: \"reduction.cu\")])",
    )
    .unwrap();
    let page = dir.join("week.html");
    export_playground(&dir, &page, &["--handout", "week.ron"], &wasm);
    let url = format!("file://{}", page.display());
    let args = ["3", "two words"];

    let mut b = Browser::launch(&dir.join("profile"));
    open_at(&mut b, &url, 1, 0);
    let groups = b.eval(
        "[...document.querySelectorAll('#files optgroup')].map(g => g.label + ': ' + \
         [...g.children].slice(0, 2).map(o => o.textContent).join(', '))",
    );
    assert_eq!(groups[0], json!("exercises: page_args.cu, reduction.cu"));
    // The first exercise opens with its arguments in the argv field and in the program's argv.
    assert_eq!(b.eval("document.getElementById('args').value"), json!("3 'two words'"));
    let size = b.size();
    assert_eq!(b.screen(), view(&dir, "page_args.cu", 1, 0, &args, size));

    // A link to launch 2, three steps in.
    open_at(&mut b, &format!("{url}#file=page_args.cu&launch=2&step=3"), 2, 3);
    assert_eq!(b.screen(), view(&dir, "page_args.cu", 2, 3, &args, size));
    // The page's own link names all of it, and opens the same screen.
    let link = b.eval("window.warpdbg.link()").as_str().unwrap().to_string();
    assert!(link.ends_with("#file=page_args.cu&mode=0&launch=2&step=3&args=3%20'two%20words'"), "{link}");
    open_at(&mut b, &link, 2, 3);
    assert_eq!(b.screen(), view(&dir, "page_args.cu", 2, 3, &args, size));
}
