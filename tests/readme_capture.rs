//! The README's picture of the screen is real output: every `<!-- capture: view ARGS -->` block must equal what
//! `warpdbg view ARGS` prints now. To refresh one, run the command and paste its output into the block.

use std::process::Command;

/// (arguments, the block's text) for each capture in the README.
fn captures(readme: &str) -> Vec<(String, String)> {
    let mut out = vec![];
    let mut rest = readme;
    while let Some(start) = rest.find("<!-- capture: ") {
        let after = &rest[start + "<!-- capture: ".len()..];
        let (args, body) = after.split_once(" -->\n").expect("a capture marker ends with ` -->`");
        let body = body.strip_prefix("```text\n").expect("the capture is a ```text block right after the marker");
        let (text, tail) = body.split_once("```\n").expect("the capture block is closed");
        assert!(tail.starts_with("<!-- end capture -->"), "`<!-- end capture -->` follows the block");
        out.push((args.to_string(), text.to_string()));
        rest = tail;
    }
    out
}

#[test]
fn readme_screen_captures_are_current() {
    let root = env!("CARGO_MANIFEST_DIR");
    let readme = std::fs::read_to_string(format!("{root}/README.md")).expect("README.md");
    let caps = captures(&readme);
    assert!(!caps.is_empty(), "the README has a screen capture");
    for (args, text) in caps {
        let args: Vec<&str> = args.split_whitespace().collect();
        assert_eq!(args.first(), Some(&"view"), "captures come from `warpdbg view`");
        let out = Command::new(env!("CARGO_BIN_EXE_warpdbg"))
            .args(&args)
            .current_dir(root)
            .env_remove("NO_COLOR")
            .output()
            .expect("warpdbg runs");
        assert!(out.status.success(), "warpdbg {}: {}", args.join(" "), String::from_utf8_lossy(&out.stderr));
        let now = String::from_utf8(out.stdout).expect("UTF-8");
        assert!(
            now == text,
            "README capture of `warpdbg {}` is stale; it prints now:\n{now}\nthe README has:\n{text}",
            args.join(" ")
        );
    }
}
