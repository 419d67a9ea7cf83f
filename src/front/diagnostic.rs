//! Compiler-style diagnostics: what went wrong, where (file:line:column), the source line and a caret.
//!
//! Rendering is codespan-reporting's; this module only holds the data and adapts [`SourceMap`].

use std::fmt;
use std::ops::Range;

use codespan_reporting::diagnostic as cs;
use codespan_reporting::files::{Error as FilesError, Files};
use codespan_reporting::term;

use super::source::{FileId, SourceMap, Span};

/// An error was already reported (its [`Diagnostic`] is in the phase's list): the caller only unwinds to a
/// recovery point. The one marker every phase that collects diagnostics returns in its `Err`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reported;

impl std::fmt::Display for Reported {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an error was reported")
    }
}

impl std::error::Error for Reported {}

/// The kind of problem, so tools and tests can match on it without parsing text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ErrorCode {
    /// Bytes that are not valid kernel text (non-UTF-8, stray characters).
    Lexical,
    /// The token stream does not fit the grammar.
    Syntax,
    /// A name that is not declared, or declared twice.
    Name,
    /// Operand or assignment types that do not fit.
    Type,
    /// Valid CUDA that warpdbg does not interpret.
    Unsupported,
    /// A launch directive (`// @grid`, `// @arg`, ...) or its command-line override.
    Directive,
}

impl ErrorCode {
    fn as_str(self) -> &'static str {
        match self {
            ErrorCode::Lexical => "E-lex",
            ErrorCode::Syntax => "E-syntax",
            ErrorCode::Name => "E-name",
            ErrorCode::Type => "E-type",
            ErrorCode::Unsupported => "E-unsupported",
            ErrorCode::Directive => "E-directive",
        }
    }
}

/// One error with its primary span, optional secondary spans and hints.
#[derive(Clone, Debug, PartialEq)]
pub struct Diagnostic {
    pub code: ErrorCode,
    pub message: String,
    pub span: Span,
    pub label: String,
    pub secondary: Vec<(Span, String)>,
    pub notes: Vec<String>,
    /// A warning: shown, but compilation goes on (an unavailable item nothing launched reaches).
    pub warning: bool,
}

impl Diagnostic {
    pub fn new(code: ErrorCode, span: Span, message: impl Into<String>) -> Self {
        Diagnostic {
            code,
            message: message.into(),
            span,
            label: String::new(),
            secondary: vec![],
            notes: vec![],
            warning: false,
        }
    }

    /// The same diagnostic as a warning.
    pub fn into_warning(mut self) -> Self {
        self.warning = true;
        self
    }

    /// Text written under the caret.
    pub fn label(mut self, label: impl Into<String>) -> Self {
        self.label = label.into();
        self
    }

    /// Another place that explains the error (an earlier declaration, say).
    pub fn with_secondary(mut self, span: Span, label: impl Into<String>) -> Self {
        self.secondary.push((span, label.into()));
        self
    }

    /// A one-line `hint:` shown after the source excerpt.
    pub fn hint(mut self, hint: impl Into<String>) -> Self {
        self.notes.push(format!("hint: {}", hint.into()));
        self
    }

    pub fn unsupported(span: Span, what: impl fmt::Display) -> Self {
        Diagnostic::new(ErrorCode::Unsupported, span, format!("not supported by warpdbg: {what}"))
    }

    fn to_codespan(&self) -> cs::Diagnostic<FileId> {
        let mut labels = vec![cs::Label::primary(self.span.file, self.span.range()).with_message(&self.label)];
        labels.extend(self.secondary.iter().map(|(s, m)| cs::Label::secondary(s.file, s.range()).with_message(m)));
        let head = if self.warning { cs::Diagnostic::warning() } else { cs::Diagnostic::error() };
        head.with_code(self.code.as_str())
            .with_message(&self.message)
            .with_labels(labels)
            .with_notes(self.notes.clone())
    }
}

/// The diagnostic's head line as [`render_plain`] writes it (`error[E-type]: ...`); where it points needs the
/// source map, so that is left to the renderers.
impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let severity = if self.warning { "warning" } else { "error" };
        write!(f, "{severity}[{}]: {}", self.code.as_str(), self.message)
    }
}

impl std::error::Error for Diagnostic {}

/// Renders diagnostics as plain text (for tests, pipes and snapshots).
pub fn render_plain(sources: &SourceMap, diags: &[Diagnostic]) -> String {
    let config = term::Config::default();
    let mut out = String::new();
    for d in diags {
        // A span the file database cannot resolve is a warpdbg bug; still say what we know.
        match term::emit_into_string(&config, sources, &d.to_codespan()) {
            Ok(s) => out.push_str(&s),
            Err(_) => out.push_str(&format!("{}: {}\n", if d.warning { "warning" } else { "error" }, d.message)),
        }
    }
    out
}

/// Writes diagnostics to stderr, coloured when stderr is a terminal.
pub fn emit_stderr(sources: &SourceMap, diags: &[Diagnostic]) {
    use std::io::IsTerminal;
    use term::termcolor::{ColorChoice, StandardStream};
    let choice = if std::io::stderr().is_terminal() { ColorChoice::Auto } else { ColorChoice::Never };
    let stream = StandardStream::stderr(choice);
    let mut lock = stream.lock();
    let config = term::Config::default();
    for d in diags {
        if term::emit_to_write_style(&mut lock, &config, sources, &d.to_codespan()).is_err() {
            eprintln!("{}: {}", if d.warning { "warning" } else { "error" }, d.message);
        }
    }
}

impl<'a> Files<'a> for SourceMap {
    type FileId = FileId;
    type Name = &'a str;
    type Source = &'a str;

    fn name(&'a self, id: FileId) -> Result<&'a str, FilesError> {
        self.files().get(id.0 as usize).map(|f| f.name.as_str()).ok_or(FilesError::FileMissing)
    }

    fn source(&'a self, id: FileId) -> Result<&'a str, FilesError> {
        self.files().get(id.0 as usize).map(|f| f.text.as_str()).ok_or(FilesError::FileMissing)
    }

    fn line_index(&'a self, id: FileId, byte_index: usize) -> Result<usize, FilesError> {
        let file = self.files().get(id.0 as usize).ok_or(FilesError::FileMissing)?;
        Ok(file.line_of(byte_index as u32) as usize - 1)
    }

    fn line_range(&'a self, id: FileId, line_index: usize) -> Result<Range<usize>, FilesError> {
        let file = self.files().get(id.0 as usize).ok_or(FilesError::FileMissing)?;
        file.line_range(line_index)
            .ok_or(FilesError::LineTooLarge { given: line_index, max: file.line_count() as usize - 1 })
    }
}

/// Diagnostics that stopped compilation, with the texts they point into.
#[derive(Debug)]
pub struct CompileError {
    pub sources: SourceMap,
    pub diags: Vec<Diagnostic>,
}

impl CompileError {
    pub fn render(&self) -> String {
        render_plain(&self.sources, &self.diags)
    }

    pub fn emit_stderr(&self) {
        emit_stderr(&self.sources, &self.diags);
    }
}

impl fmt::Display for CompileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render())?;
        let n = self.diags.len();
        write!(f, "error: could not compile: {n} error{}", if n == 1 { "" } else { "s" })
    }
}

impl std::error::Error for CompileError {}

/// Adds "in expansion of macro `X`" to each diagnostic whose place is a macro's use, pointing at the macro's
/// definition too, so an error inside `CHECK(...)` says where `CHECK` came from.
pub fn note_expansions(sources: &SourceMap, diags: &mut [Diagnostic]) {
    for d in diags {
        if let Some(e) = sources.expansion_at(d.span) {
            d.secondary.push((e.def, format!("macro `{}` defined here", e.name)));
            d.notes.insert(0, format!("note: in expansion of macro `{}`", e.name));
        }
    }
}

/// Diagnostics about one line the user typed (a breakpoint spec, a debugger expression), rendered like a
/// kernel's: `NAME:1:COL`, the line, a caret, the message.
#[derive(Debug)]
pub struct InputError {
    pub sources: SourceMap,
    pub diags: Vec<Diagnostic>,
}

impl InputError {
    /// Like a kernel's diagnostics: `NAME:1:COL`, the text, a caret, the message.
    pub fn render(&self) -> String {
        render_plain(&self.sources, &self.diags)
    }

    /// One line for a status bar: `column 12: message`.
    pub fn short(&self) -> String {
        let d = &self.diags[0];
        let (_, col) = self.sources.get(d.span.file).line_col(d.span.start);
        format!("column {col}: {}", d.message)
    }
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.render())
    }
}

impl std::error::Error for InputError {}
