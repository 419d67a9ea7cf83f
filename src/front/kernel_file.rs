//! The front end for a kernel file: every phase, from bytes to a typed program and its resolved launch.

use super::diagnostic::{CompileError, Diagnostic, ErrorCode, note_expansions};
use super::launch::{ArgValue, InitExpr, Launch, LaunchArg, Overrides};
use super::source::{FileId, SourceFile, SourceMap, Span};
use super::{check, directives, lexer, parser, preprocess, tast};

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

/// Checks kernel-file bytes (which need not be valid UTF-8) named `name`, applying `overrides`, with quoted
/// `#include`s read through `loader`. Call it inside [`crate::front::with_stack`]: the phases recurse.
pub fn check_file(
    name: &str,
    bytes: &[u8],
    overrides: &Overrides,
    loader: &dyn preprocess::IncludeLoader,
) -> Result<Checked, CompileError> {
    let mut sources = SourceMap::default();
    let bytes = crate::front::source::without_bom(bytes);
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
        check::check_with_templates(&mut tu, &mut templates, &directives, overrides, &text, &options, &mut diags);
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
    let mut warnings = check::settle_unavailable(&program, launched, false, &mut diags);
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

/// The file's `__device__` and `__constant__` variables and the kernels' local arrays, as arrays after the
/// kernel's own arguments (the lowering passes their addresses to the kernel in that order), initialised from
/// their initialisers.
fn add_global_args(program: &tast::Program, launch: &mut Launch) {
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
