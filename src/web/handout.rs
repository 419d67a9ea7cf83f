//! Hand-outs: the exercises an instructor's playground page lists first. Given either as files on the
//! command line (`warpdbg export --playground OUT FILE...`: sources, and `.wdbg` recordings opened at their
//! end), or as a RON manifest (`--handout week3.ron`) that also gives each exercise a whole program's
//! arguments and a recording:
//!
//! ```ron
//! (
//!     exercises: [
//!         (file: "ex1_reduce.cu"),
//!         (file: "ex2_args.cu", args: "100 'two words'"),
//!         (file: "ex3_deadlock.cu", recording: "ex3.wdbg"),
//!     ],
//! )
//! ```
//!
//! Paths are relative to the manifest's folder. `args` is `argv[1..]` as a shell line (the page's argv
//! field); a recording opens at its end and the student takes it over; it must record the exercise's own
//! source (and, for a program, the same arguments). docs/wasm.md says more.

use std::path::{Path, PathBuf};

use serde::Deserialize;

use crate::tui::recording::Recording;

/// One exercise the page lists.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Exercise {
    /// The name the page lists and a link's `file=` names (the file's name, without its folder).
    pub name: String,
    /// Its source (none for a recording given alone: the recording carries its source).
    pub source: Option<String>,
    /// A whole program's `argv[1..]` as a shell line; the page's argv field takes it when the exercise opens.
    pub args: Option<String>,
    /// A recording's text: the exercise opens at its end, live.
    pub recording: Option<String>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Manifest {
    exercises: Vec<Entry>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    #[serde(default)]
    file: Option<String>,
    #[serde(default)]
    args: Option<String>,
    #[serde(default)]
    recording: Option<String>,
}

/// The files given on the command line as exercises: sources, and `.wdbg` recordings.
pub fn from_files(paths: &[PathBuf]) -> Result<Vec<Exercise>, String> {
    paths
        .iter()
        .map(|p| {
            let text = read(p)?;
            let name = file_name(p);
            Ok(if name.ends_with(".wdbg") {
                Exercise { name, recording: Some(text), ..Exercise::default() }
            } else {
                Exercise { name, source: Some(text), ..Exercise::default() }
            })
        })
        .collect()
}

/// A file's text, or what stops it being read.
pub fn read(path: &Path) -> Result<String, String> {
    std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))
}

/// The exercises of the RON manifest at `path`, their files read relative to its folder.
pub fn from_manifest(path: &Path) -> Result<Vec<Exercise>, String> {
    let text = read(path)?;
    let options = ron::Options::default().with_default_extension(ron::extensions::Extensions::IMPLICIT_SOME);
    let manifest: Manifest = options.from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut out = vec![];
    for (i, e) in manifest.exercises.into_iter().enumerate() {
        let at = format!("{}: exercise {}", path.display(), i + 1);
        let source = e.file.as_ref().map(|f| read(&dir.join(f))).transpose()?;
        let recording = e.recording.as_ref().map(|r| read(&dir.join(r))).transpose()?;
        let name = match (&e.file, &e.recording) {
            (Some(f), _) => file_name(Path::new(f)),
            (None, Some(r)) => file_name(Path::new(r)),
            (None, None) => return Err(format!("{at} names neither a file nor a recording")),
        };
        let args = match &recording {
            Some(text) => check_recording(&at, text, source.as_deref(), e.args.as_deref())?,
            None => e.args,
        };
        out.push(Exercise { name, source, args, recording });
    }
    if out.is_empty() {
        return Err(format!("{}: no exercises", path.display()));
    }
    Ok(out)
}

/// A recording given with an exercise must record that exercise: its source, and its arguments when the
/// manifest gives them. The arguments the exercise opens with (the recording's, written as a shell line).
fn check_recording(at: &str, text: &str, source: Option<&str>, args: Option<&str>) -> Result<Option<String>, String> {
    let rec = Recording::parse(text.as_bytes(), Path::new("recording.wdbg")).map_err(|e| format!("{at}: {e}"))?;
    if source.is_some_and(|s| s != rec.header.source) {
        return Err(format!("{at}: the recording was made on another source than the exercise's file"));
    }
    let recorded = &rec.header.program_args;
    if let Some(a) = args
        && super::playground::split_args(a) != *recorded
    {
        return Err(format!("{at}: args `{a}`, but the recording ran the program with {recorded:?}"));
    }
    Ok(match args {
        Some(a) => Some(a.to_string()),
        None if recorded.is_empty() => None,
        None => Some(shell_line(recorded)),
    })
}

/// Words as a shell line that splits back into them (a word with a space or a quote in quotes).
fn shell_line(words: &[String]) -> String {
    let quote = |w: &String| {
        if w.is_empty() || w.contains([' ', '\t', '"']) {
            format!("'{w}'")
        } else if w.contains('\'') {
            format!("\"{w}\"")
        } else {
            w.clone()
        }
    };
    words.iter().map(quote).collect::<Vec<_>>().join(" ")
}

fn file_name(p: &Path) -> String {
    p.file_name().map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into_owned())
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // a test's unwrap is its assertion
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("warpdbg-handout-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn a_manifest_gives_files_args_and_recordings_relative_to_itself() {
        let d = scratch("manifest");
        std::fs::create_dir_all(d.join("src")).unwrap();
        std::fs::write(d.join("src/a.cu"), "int main() { return 0; }\n").unwrap();
        std::fs::write(d.join("b.cu"), "__global__ void k() {}\n").unwrap();
        std::fs::write(
            d.join("week.ron"),
            "// the week's exercises\n(exercises: [(file: \"src/a.cu\", args: \"7 'two words'\"), (file: \"b.cu\")])",
        )
        .unwrap();
        let ex = from_manifest(&d.join("week.ron")).unwrap();
        assert_eq!(
            ex,
            vec![
                Exercise {
                    name: "a.cu".into(),
                    source: Some("int main() { return 0; }\n".into()),
                    args: Some("7 'two words'".into()),
                    recording: None
                },
                Exercise { name: "b.cu".into(), source: Some("__global__ void k() {}\n".into()), ..Default::default() },
            ]
        );
    }

    #[test]
    fn a_manifest_s_mistakes_are_named() {
        let d = scratch("mistakes");
        std::fs::write(d.join("m.ron"), "(exercises: [(args: \"1\")])").unwrap();
        assert!(from_manifest(&d.join("m.ron")).unwrap_err().contains("exercise 1 names neither"));
        std::fs::write(d.join("m.ron"), "(exercises: [(file: \"gone.cu\")])").unwrap();
        assert!(from_manifest(&d.join("m.ron")).unwrap_err().contains("gone.cu"));
        std::fs::write(d.join("m.ron"), "(exercises: [(file: \"x.cu\", argv: \"1\")])").unwrap();
        assert!(from_manifest(&d.join("m.ron")).unwrap_err().contains("argv"));
        std::fs::write(d.join("m.ron"), "(exercises: [])").unwrap();
        assert!(from_manifest(&d.join("m.ron")).unwrap_err().contains("no exercises"));
    }

    #[test]
    fn shell_lines_split_back_into_their_words() {
        let words: Vec<String> = ["7", "two words", "it's", ""].iter().map(|s| s.to_string()).collect();
        assert_eq!(super::super::playground::split_args(&shell_line(&words)), words);
    }
}
