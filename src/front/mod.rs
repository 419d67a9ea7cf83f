//! The language front end: kernel text -> tokens -> parse tree -> typed tree, plus the launch directives.
//! [`check_file`] runs every phase of a kernel file; `crate::compile`, the driver above this layer and the IR,
//! lowers the launched kernel.

pub mod ast;
pub mod builtin_types;
pub mod curand;
pub mod diagnostic;
pub mod directives;
pub mod launch;
pub mod lexer;
pub mod parser;
pub mod preprocess;
pub mod program;
pub mod source;
pub mod tast;
pub mod template;
pub mod token;
pub mod typeck;
pub mod types;

use std::fmt;

use diagnostic::{Diagnostic, ErrorCode};
use source::{FileId, SourceFile, SourceMap, Span};

use crate::front::launch::{Launch, Overrides};

/// A kernel file that passed every check of the front end, with its launch (not yet lowered to the IR).
#[derive(Debug)]
pub struct Checked {
    pub sources: SourceMap,
    pub file: FileId,
    pub program: tast::Program,
    pub launch: Launch,
    /// One warning for each item the launched kernel does not reach that uses an unsupported construct.
    pub warnings: Vec<Diagnostic>,
}

/// Diagnostics that stopped compilation, with the texts they point into.
#[derive(Debug)]
pub struct CompileError {
    pub sources: SourceMap,
    pub diags: Vec<Diagnostic>,
}

impl CompileError {
    pub fn render(&self) -> String {
        diagnostic::render_plain(&self.sources, &self.diags)
    }

    pub fn emit_stderr(&self) {
        diagnostic::emit_stderr(&self.sources, &self.diags);
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

/// Stack for the phases, which recurse over the parse tree: the parser bounds its depth, and this is enough for
/// that bound in any build (unoptimised frames are large), whatever stack the caller runs on (test threads get
/// 2 MiB). Only touched pages are ever committed.
const STACK_BYTES: usize = 32 << 20;

/// Runs `f` on a thread with [`STACK_BYTES`] of stack (or here, should no thread be available), passing on
/// its panics. A thread per call costs about 15 us, and a fresh allocator arena (benches/README.md).
pub fn with_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    let cell = std::sync::Mutex::new(Some(f));
    let run = || {
        let f = cell.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take();
        f.map(|f| f())
    };
    std::thread::scope(|s| {
        match std::thread::Builder::new().name("front end".into()).stack_size(STACK_BYTES).spawn_scoped(s, run) {
            Ok(h) => h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)),
            Err(_) => run(),
        }
    })
    .expect("the closure runs exactly once")
}

/// Checks kernel-file bytes (which need not be valid UTF-8) named `name`, applying `overrides`, with quoted
/// `#include`s read through `loader`. Call it inside [`with_stack`]: the phases recurse.
pub fn check_file(
    name: &str,
    bytes: &[u8],
    overrides: &Overrides,
    loader: &dyn preprocess::IncludeLoader,
) -> Result<Checked, CompileError> {
    let mut sources = SourceMap::default();
    let (text, bad_utf8) = match std::str::from_utf8(bytes) {
        Ok(t) => (t.to_string(), None),
        Err(e) => (String::from_utf8_lossy(bytes).into_owned(), Some(e.valid_up_to())),
    };
    let file = sources.add(SourceFile::new(name, text));
    if let Some(at) = bad_utf8 {
        // The lossy text has U+FFFD (3 bytes) where the first bad byte was.
        let span = Span::new(file, at, at + 3);
        let d = Diagnostic::new(ErrorCode::Lexical, span, format!("the file is not valid UTF-8 (byte {at})"))
            .label("invalid byte sequence")
            .hint("kernel files must be UTF-8 text; is this the right file?");
        return Err(CompileError { sources, diags: vec![d] });
    }
    let text = sources.get(file).text.clone();
    let whole = Span::new(file, 0, 0);

    let mut lexed = lexer::lex(file, &text, 0);
    let directive_lines = std::mem::take(&mut lexed.directives);
    let options = preprocess::Options {
        mode: overrides.mode.or_else(|| directives::mode_of(&directive_lines)).unwrap_or_default(),
        device: true,
        defines: vec![],
        include_dirs: overrides.include_dirs.iter().map(std::path::PathBuf::from).collect(),
    };
    let pre = preprocess::run(file, lexed, &mut sources, &options, loader);
    let mut diags = pre.diags;
    let mut parser = parser::Parser::new(&pre.tokens, &text, 0);
    let mut tu = parser.translation_unit();
    let mut templates = parser.take_templates();
    diags.extend(parser.diags);
    // The parser skips what follows an error: functions may be missing from the program.
    let partial = !diags.is_empty();
    let mut directives = vec![];
    for line in &directive_lines {
        if let Some(d) = directives::parse_line(line, &mut diags) {
            directives.push(d);
        }
    }
    // `@arg px real[n]` where the file says `typedef float real;`: the element type the typedef names.
    directives::resolve_typedef_elements(&mut directives, &templates.typedefs);
    let (program, type_diags) =
        check_with_templates(&mut tu, &mut templates, &directives, overrides, &text, &options, &mut diags);
    diags.extend(type_diags);
    // Directive resolution needs a sound program, but its errors are independent: report both.
    let launch = match directives::resolve(&program, &directives, overrides, &mut sources, whole, partial) {
        Ok(l) => Some(l),
        Err(d) => {
            diags.extend(d);
            None
        }
    };
    let launched = launched_kernel(&program, &directives, overrides);
    let mut warnings = settle_unavailable(&program, launched, false, &mut diags);
    if !diags.is_empty() {
        diags.sort_by_key(|d| (d.span.file.0, d.span.start));
        note_expansions(&sources, &mut diags);
        return Err(CompileError { sources, diags });
    }
    let mut launch = launch.expect("no diagnostics means the launch resolved");
    add_global_args(&program, &mut launch);
    warnings.sort_by_key(|d| (d.span.file.0, d.span.start));
    note_expansions(&sources, &mut warnings);
    Ok(Checked { sources, file, program, launch, warnings })
}

/// The kernel the launch names (`@kernel`, `--kernel`), else the file's only kernel; known even where the
/// launch's other directives have errors.
fn launched_kernel(
    program: &tast::Program,
    directives: &[directives::Directive],
    overrides: &Overrides,
) -> Option<tast::FnId> {
    let named = directives.iter().find_map(|d| match &d.kind {
        directives::DirectiveKind::Kernel(k) => Some(k.name.clone()),
        _ => None,
    });
    match overrides.kernel.clone().or(named) {
        Some(name) => program.find(&name),
        None => {
            let mut kernels = program.kernels();
            match (kernels.next(), kernels.next()) {
                (Some((id, _)), None) => Some(id),
                _ => None,
            }
        }
    }
}

/// Unsupported constructs matter only where they run: those in functions the launched kernel reaches become
/// errors (added to `diags`, with their text as found); every other function or item that has one gets one
/// warning. With no kernel resolved, all are warnings (the errors that stopped resolution come first); a whole
/// program (`whole`) resolves its launches as it runs (`program::device`).
fn settle_unavailable(
    program: &tast::Program,
    launched: Option<tast::FnId>,
    whole: bool,
    diags: &mut Vec<Diagnostic>,
) -> Vec<Diagnostic> {
    let reached = launched.map(|k| program.reached_from(k)).unwrap_or_default();
    let mut warnings: Vec<Diagnostic> = vec![];
    let mut warned = vec![];
    for (f, d) in &program.deferred {
        if reached.get(f.0 as usize).copied().unwrap_or(false) {
            diags.push(d.clone());
        } else if !warned.contains(f) {
            warned.push(*f);
            let func = program.function(*f);
            let kind = if func.kind == ast::FnKind::Global { ast::ItemKind::Kernel } else { ast::ItemKind::Function };
            let mut w = ast::Unavailable { name: func.name.clone(), kind, diag: d.clone() }.warning(whole);
            // Where it uses an unavailable item, say so (the item gets no warning of its own).
            w.secondary = d.secondary.clone();
            warnings.push(w);
        }
    }
    for u in &program.unavailable {
        // Reached code that uses the item reported its diagnostic; unreached code that does was warned about.
        let reported = diags.iter().any(|d| d.span == u.diag.span && d.message == u.diag.message);
        if !reported && !warnings.iter().any(|w| w.span == u.diag.span) {
            warnings.push(u.warning(whole));
        }
    }
    warnings
}

/// How many times the program is checked again for template instances that calls deduce (each round parses
/// the instances the previous one asked for; templates calling templates need one round per level).
const TEMPLATE_ROUNDS: usize = 16;

/// Type-checks the file, parsing the template instances it names (`// @kernel reduce<512>`, `f<float>(x)`)
/// and those its calls deduce, until none is missing.
fn check_with_templates(
    tu: &mut ast::TranslationUnit,
    templates: &mut template::Templates,
    directives: &[directives::Directive],
    overrides: &Overrides,
    text: &str,
    options: &preprocess::Options,
    diags: &mut Vec<Diagnostic>,
) -> (tast::Program, Vec<Diagnostic>) {
    let mut done: std::collections::HashSet<String> = tu.functions.iter().map(|f| f.name.name.clone()).collect();
    let mut pending: Vec<tast::TemplateRequest> = std::mem::take(&mut templates.requested);
    // The launched kernel's instance, from `@kernel` or `--kernel`.
    let named = directives.iter().filter_map(|d| match &d.kind {
        directives::DirectiveKind::Kernel(k) => Some((k.name.clone(), k.span)),
        _ => None,
    });
    let mut at = Span::default();
    for (name, span) in named.chain(overrides.kernel.clone().map(|k| (k, Span::default()))) {
        if let Some((base, args)) = template::parse_instance_name(&name)
            && templates.defs.contains_key(&base)
        {
            let instance = template::instance_name(&base, &args);
            at = span;
            pending.push((instance, base, args));
        }
    }
    let mut round = 0;
    loop {
        while let Some((instance, base, args)) = pending.pop() {
            if !done.insert(instance.clone()) {
                continue;
            }
            let use_at = pending_span(tu, at);
            match templates.instantiate((&base, &args), &instance, text, use_at, template::Side::Device) {
                Ok(f) => tu.functions.push(f),
                Err(d) => diags.extend(d),
            }
            pending.extend(std::mem::take(&mut templates.requested));
        }
        let (program, type_diags) = typeck::check(tu, options.mode, &templates.defs);
        let missing: Vec<_> = program.template_requests.iter().filter(|r| !done.contains(&r.0)).cloned().collect();
        round += 1;
        if missing.is_empty() || round == TEMPLATE_ROUNDS {
            return (program, type_diags);
        }
        pending = missing;
    }
}

/// Where to report a template instance that does not parse: the directive naming it, else the file's start.
fn pending_span(tu: &ast::TranslationUnit, at: Span) -> Span {
    if at == Span::default() { tu.functions.first().map_or(at, |f| f.span) } else { at }
}

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

/// The file's `__device__` and `__constant__` variables and the kernels' local arrays, as arrays after the
/// kernel's own arguments (the lowering passes their addresses to the kernel in that order), initialised from
/// their initialisers.
fn add_global_args(program: &tast::Program, launch: &mut Launch) {
    use crate::front::launch::{ArgValue, InitExpr, LaunchArg};
    let threads = launch.grid.count() * launch.block.count();
    for g in &program.globals {
        let (len, init) = match g.space {
            tast::GlobalSpace::Constant | tast::GlobalSpace::Device => {
                let set = launch.symbols.iter().find(|(name, _)| *name == g.name);
                (g.len(), set.map_or_else(|| InitExpr::List(g.init.clone()), |(_, init)| init.clone()))
            }
            // Every thread's copy of a local array, thread after thread (initialised where it is declared).
            tast::GlobalSpace::Local => (g.len().saturating_mul(threads), InitExpr::List(vec![])),
            tast::GlobalSpace::Shared { .. } => continue,
        };
        let value = ArgValue::Array { elem: g.elem, len, init };
        launch.args.push(LaunchArg { name: g.name.clone(), value, global: true });
    }
}
