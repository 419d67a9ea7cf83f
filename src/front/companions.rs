//! A course's helpers in a second file: `#include "../common/timer.h"` declares `getGapTime`, and
//! `../common/timer.cpp`, which the course's Makefile compiles and links, defines it. warpdbg reads one
//! source file, so such a program stops at the first call of the undefined function. A program that does not
//! compile as it is gets one more try with each quoted header's companion source (the file next to it with
//! the same name and a `.cpp`, `.cc`, `.cxx` or `.cu` extension) included at its end, as the build would have
//! linked it (`program::compile`); the try is kept only when it compiles.

use std::path::{Path, PathBuf};

use crate::front::source::SourceMap;

/// Extensions of the source files a header's definitions live in.
const SOURCE_EXTENSIONS: [&str; 4] = ["cpp", "cc", "cxx", "cu"];
const HEADER_EXTENSIONS: [&str; 5] = ["h", "hpp", "hh", "cuh", "hxx"];

/// The companion sources of the headers `sources` read for the program `main` (a path): existing files, not
/// `main` itself nor a file already read, in the order their headers were included.
pub fn of(main: &str, sources: &SourceMap) -> Vec<PathBuf> {
    let same = |a: &Path, b: &Path| match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    };
    let read: Vec<&Path> = sources.file_names().map(Path::new).collect();
    let mut out: Vec<PathBuf> = vec![];
    for header in read.iter().skip(1) {
        let is_header = header.extension().and_then(|e| e.to_str()).is_some_and(|e| HEADER_EXTENSIONS.contains(&e));
        if !is_header {
            continue;
        }
        for ext in SOURCE_EXTENSIONS {
            let source = header.with_extension(ext);
            let known = same(&source, Path::new(main))
                || read.iter().any(|r| same(&source, r))
                || out.iter().any(|o| same(&source, o));
            if source.is_file() && !known {
                out.push(source);
            }
        }
    }
    out
}

/// `bytes` of the program with `#include` lines for `companions` after its last line.
pub fn appended(bytes: &[u8], companions: &[PathBuf]) -> Vec<u8> {
    let mut out = bytes.to_vec();
    for c in companions {
        out.extend_from_slice(format!("\n#include \"{}\"\n", c.display()).as_bytes());
    }
    out
}
