//! `warpdbg export --playground OUT.html [FILE ...]`: the playground page as one self-contained HTML file. The
//! page's WebAssembly (the core built by `bash .ci/page`) is compressed (zlib: the browser's
//! `DecompressionStream` unpacks it) and inlined as base64, with the bundled kernels, the files given and
//! any recordings given; the page makes no network request at all, so it opens from `file://` and from any
//! course site.

use std::path::{Path, PathBuf};

use super::handout::Exercise;
use crate::tui::theme::Theme;
use base64::Engine;

const TEMPLATE: &str = include_str!("playground.html");

/// The examples every page carries: the kernels of `kernels/` (the first opens when the page starts) and a
/// whole program, which the page runs to its end.
pub const BUNDLED: [(&str, &str); 11] = [
    ("deadlock.cu", include_str!("../../kernels/deadlock.cu")),
    ("reduce_neighbored.cu", include_str!("../../kernels/reduce_neighbored.cu")),
    ("reduce_neighbored_less.cu", include_str!("../../kernels/reduce_neighbored_less.cu")),
    ("reduce_interleaved.cu", include_str!("../../kernels/reduce_interleaved.cu")),
    ("spin_lock.cu", include_str!("../../kernels/spin_lock.cu")),
    ("loop_divergence.cu", include_str!("../../kernels/loop_divergence.cu")),
    ("warp_indexing.cu", include_str!("../../kernels/warp_indexing.cu")),
    ("vec_add.cu", include_str!("../../kernels/vec_add.cu")),
    ("grayscale.cu", include_str!("../../kernels/grayscale.cu")),
    ("math_kernels.cu", include_str!("../../kernels/math_kernels.cu")),
    ("programs/vector_add.cu", include_str!("../../tests/programs/vector_add.cu")),
];

/// One file the page offers in its list.
#[derive(serde::Serialize)]
struct PageFile {
    name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    source: Option<String>,
    /// A recording's text (opened live, at its end).
    #[serde(skip_serializing_if = "Option::is_none")]
    recording: Option<String>,
    /// A hand-out exercise's arguments for a whole program (a shell line the page puts in its argv field).
    #[serde(skip_serializing_if = "Option::is_none")]
    args: Option<String>,
    /// One of the instructor's exercises (a file given on the command line): the page lists them first, under
    /// their own heading, and a link's `file=` names one.
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    exercise: bool,
}

/// Where the page's WebAssembly is looked for when `--wasm` is not given: `$WARPDBG_PAGE_WASM`, else beside
/// this binary's build folder (`target/release/warpdbg` -> `target/wasm32-unknown-unknown/web/warpdbg.wasm`).
pub fn default_wasm() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("WARPDBG_PAGE_WASM") {
        return Some(PathBuf::from(p));
    }
    let exe = std::env::current_exe().ok()?;
    // target/<profile>/warpdbg, or target/<profile>/deps/<test> for the tests.
    exe.ancestors().skip(1).take(3).map(|d| d.join("wasm32-unknown-unknown/web/warpdbg.wasm")).find(|p| p.is_file())
}

/// The page: `wasm` is the module `bash .ci/page` builds; `exercises` the instructor's hand-out (files given,
/// or a manifest's: [`super::handout`]); `theme_text` (a theme file's RON) gives the debugger and the page
/// their colours. Errors say what is wrong with the module or the theme.
pub fn playground(wasm: &[u8], exercises: &[Exercise], theme_text: &str) -> Result<String, String> {
    let theme = Theme::parse(theme_text, "of the page")?;
    if !wasm.starts_with(b"\0asm") || !wasm.windows(7).any(|w| w == b"wd_open") {
        return Err("not the playground's WebAssembly module (build it with `bash .ci/page`)".into());
    }
    let packed = miniz_oxide::deflate::compress_to_vec_zlib(wasm, 9);
    let b64 = base64::engine::general_purpose::STANDARD.encode(packed);
    let mut list: Vec<PageFile> = exercises
        .iter()
        .map(|e| PageFile {
            name: e.name.clone(),
            source: e.source.clone(),
            recording: e.recording.clone(),
            args: e.args.clone(),
            exercise: true,
        })
        .collect();
    // A file given by name shadows the bundled one of that name: the list shows each name once.
    let given: Vec<&str> = exercises.iter().map(|e| e.name.as_str()).collect();
    list.extend(BUNDLED.iter().filter(|(n, _)| !given.contains(n)).map(|(n, s)| PageFile {
        name: n.to_string(),
        source: Some(s.to_string()),
        recording: None,
        args: None,
        exercise: false,
    }));
    // In a <script> element only `</` could end it early.
    let json = serde_json::to_string(&list).map_err(|e| e.to_string())?.replace("</", "<\\/");
    // The theme's text, for the module; its colours, for the first paint before the module starts.
    let theme_json = serde_json::to_string(theme_text).map_err(|e| e.to_string())?.replace("</", "<\\/");
    Ok(TEMPLATE
        .replace("__THEME_VARS__", &super::style::theme_vars(&theme))
        .replace("__THEME__", &theme_json)
        .replace("__FILES__", &json)
        .replace("__WASM__", &b64))
}

/// The module at `path`, or what to do when it is missing.
pub fn read_wasm(path: Option<&Path>) -> Result<Vec<u8>, String> {
    let missing = "the playground's WebAssembly is not built: run `bash .ci/page` (it builds \
                   target/wasm32-unknown-unknown/web/warpdbg.wasm), or pass --wasm PATH";
    let path = match path {
        Some(p) => p.to_path_buf(),
        None => default_wasm().ok_or_else(|| missing.to_string())?,
    };
    std::fs::read(&path).map_err(|e| format!("cannot read {}: {e} ({missing})", path.display()))
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // a test's unwrap is its assertion
mod tests {
    use super::*;

    /// The page's file list, as the page's script reads it from the bundle.
    fn bundle(page: &str) -> Vec<serde_json::Value> {
        let start = page.find("application/json\">").unwrap() + "application/json\">".len();
        let end = start + page[start..].find("</script>").unwrap();
        serde_json::from_str(&page[start..end].replace("<\\/", "</")).unwrap()
    }

    #[test]
    fn exercises_come_first_and_are_marked() {
        let files = vec![
            Exercise {
                name: "ex1.cu".into(),
                source: Some("__global__ void k() {} // </script>".into()),
                args: Some("7 'a b'".into()),
                ..Exercise::default()
            },
            Exercise { name: "ex2.wdbg".into(), recording: Some("{}".into()), ..Exercise::default() },
        ];
        let page = playground(b"\0asm wd_open", &files, &Theme::text("dark").unwrap()).unwrap();
        let list = bundle(&page);
        assert_eq!(list.len(), 2 + BUNDLED.len());
        assert_eq!(list[0]["name"], "ex1.cu");
        assert_eq!(list[0]["exercise"], true);
        assert_eq!(list[0]["source"], "__global__ void k() {} // </script>");
        assert_eq!(list[0]["args"], "7 'a b'");
        assert!(list[1].get("args").is_none(), "no arguments given, none in the page");
        assert_eq!(list[1]["name"], "ex2.wdbg");
        assert_eq!(list[1]["exercise"], true);
        assert_eq!(list[1]["recording"], "{}");
        assert!(list[1].get("source").is_none());
        assert_eq!(list[2]["name"], BUNDLED[0].0);
        assert!(list[2].get("exercise").is_none(), "bundled examples are not exercises");
    }

    #[test]
    fn a_given_file_shadows_the_bundled_one_of_its_name() {
        let files =
            vec![Exercise { name: "deadlock.cu".into(), source: Some("// mine".into()), ..Exercise::default() }];
        let list = bundle(&playground(b"\0asm wd_open", &files, &Theme::text("light").unwrap()).unwrap());
        assert_eq!(list.len(), BUNDLED.len());
        assert_eq!(list.iter().filter(|f| f["name"] == "deadlock.cu").count(), 1);
        assert_eq!(list[0]["source"], "// mine");
    }

    #[test]
    fn a_module_that_is_not_the_page_s_is_refused() {
        let err = playground(b"\0asm", &[], &Theme::text("dark").unwrap()).unwrap_err();
        assert!(err.contains("bash .ci/page"), "{err}");
    }
}
