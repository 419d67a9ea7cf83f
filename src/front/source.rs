//! Source files and byte spans.

use std::ops::Range;

/// Which of the loaded texts a span points into.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct FileId(pub u32);

/// A half-open byte range in one source text.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Span {
    pub file: FileId,
    pub start: u32,
    pub end: u32,
}

impl Span {
    pub fn new(file: FileId, start: usize, end: usize) -> Self {
        Span { file, start: start as u32, end: end as u32 }
    }

    /// The smallest span covering both (they must be in the same file).
    pub fn to(self, other: Span) -> Span {
        Span { file: self.file, start: self.start.min(other.start), end: self.end.max(other.end) }
    }

    pub fn range(self) -> Range<usize> {
        self.start as usize..self.end as usize
    }
}

/// A file's bytes without the UTF-8 byte-order mark some editors (Visual Studio) start them with: it is not
/// part of the text, for nvcc as here.
pub fn without_bom(bytes: &[u8]) -> &[u8] {
    bytes.strip_prefix("\u{feff}".as_bytes()).unwrap_or(bytes)
}

/// One loaded text (the kernel file, or a command-line override) with a line index.
#[derive(Clone, Debug)]
pub struct SourceFile {
    pub name: String,
    pub text: String,
    line_starts: Vec<u32>,
}

impl SourceFile {
    pub fn new(name: impl Into<String>, text: impl Into<String>) -> Self {
        let text = text.into();
        let mut line_starts = vec![0];
        line_starts.extend(text.bytes().enumerate().filter(|&(_, b)| b == b'\n').map(|(i, _)| i as u32 + 1));
        SourceFile { name: name.into(), text, line_starts }
    }

    /// 1-based line of a byte offset.
    pub fn line_of(&self, offset: u32) -> u32 {
        match self.line_starts.binary_search(&offset) {
            Ok(i) => i as u32 + 1,
            Err(i) => i as u32,
        }
    }

    /// 1-based (line, column) of a byte offset; the column counts characters.
    pub fn line_col(&self, offset: u32) -> (u32, u32) {
        let line = self.line_of(offset);
        let start = self.line_starts[line as usize - 1] as usize;
        let end = (offset as usize).min(self.text.len());
        let col = self.text.get(start..end).map_or(end - start, |s| s.chars().count());
        (line, col as u32 + 1)
    }

    /// Byte range of a 0-based line, its line break included.
    pub fn line_range(&self, line_index: usize) -> Option<Range<usize>> {
        let start = *self.line_starts.get(line_index)? as usize;
        let end = self.line_starts.get(line_index + 1).map_or(self.text.len(), |&e| e as usize);
        Some(start..end)
    }

    /// The text of a 1-based line without its line break.
    pub fn line_text(&self, line: u32) -> &str {
        self.line_range(line.saturating_sub(1) as usize).map_or("", |r| self.text[r].trim_end_matches(['\n', '\r']))
    }

    pub fn line_count(&self) -> u32 {
        self.line_starts.len() as u32
    }

    pub fn slice(&self, span: Span) -> &str {
        self.text.get(span.range()).unwrap_or("")
    }
}

/// One use of a macro in the text the user wrote: the tokens it produced carry `call` as their span.
#[derive(Clone, Debug, PartialEq)]
pub struct Expansion {
    /// The macro's name and arguments, `CHECK(cudaMalloc(&d, n))`.
    pub call: Span,
    pub name: String,
    /// The macro's `#define` line.
    pub def: Span,
}

/// Every text a compilation read, indexed by [`FileId`], and the macro uses found in them.
#[derive(Clone, Debug, Default)]
pub struct SourceMap {
    files: Vec<SourceFile>,
    expansions: Vec<Expansion>,
    /// For each included file, the `#include` that brought it in (by [`FileId`]; None for the main file).
    included_at: Vec<Option<Span>>,
}

impl SourceMap {
    pub fn add(&mut self, file: SourceFile) -> FileId {
        self.files.push(file);
        self.included_at.push(None);
        FileId(self.files.len() as u32 - 1)
    }

    /// Records that `file` was included by the `#include` at `site`.
    pub fn set_included_at(&mut self, file: FileId, site: Span) {
        if let Some(s) = self.included_at.get_mut(file.0 as usize) {
            *s = Some(site);
        }
    }

    /// The span in the including file (followed up to the first file) that brought `span`'s code in: code
    /// from a header is shown, and stopped at, on its `#include` line of the file the user opened.
    pub fn in_first_file(&self, mut span: Span) -> Span {
        let mut hops = 0;
        while let Some(Some(site)) = self.included_at.get(span.file.0 as usize) {
            span = *site;
            hops += 1;
            if hops > 100 {
                break;
            }
        }
        span
    }

    /// The names of the files read, the main file first (an included file's name is its path).
    pub fn file_names(&self) -> impl Iterator<Item = &str> {
        self.files.iter().map(|f| f.name.as_str())
    }

    pub fn get(&self, id: FileId) -> &SourceFile {
        &self.files[id.0 as usize]
    }

    pub fn files(&self) -> &[SourceFile] {
        &self.files
    }

    /// Records a macro use (see [`Expansion`]).
    pub fn add_expansion(&mut self, e: Expansion) {
        self.expansions.push(e);
    }

    /// The innermost macro use whose text contains `span`, if the span came from a macro.
    pub fn expansion_at(&self, span: Span) -> Option<&Expansion> {
        self.expansions
            .iter()
            .filter(|e| e.call.file == span.file && e.call.start <= span.start && span.end <= e.call.end)
            .min_by_key(|e| e.call.end - e.call.start)
    }
}
