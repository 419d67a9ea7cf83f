//! The front end for whole programs (a file that defines `main`): the same phases as a kernel file, with
//! the host functions parsed (not skipped) and no launch directives; the host side is resolved by
//! `crate::host::resolve`.

use super::diagnostic::{CompileError, Diagnostic, ErrorCode, note_expansions};
use super::source::{FileId, SourceFile, SourceMap, Span};
use super::{ast, check, lexer, parser, preprocess, stack, tast, template};
use crate::front::launch::Overrides;

/// A program's device side type-checked, and its host functions parsed.
#[derive(Debug)]
pub struct ProgramUnit {
    pub sources: SourceMap,
    pub file: FileId,
    /// The device side (kernels and `__device__` functions), as for a kernel file.
    pub program: tast::Program,
    /// The host functions, `main` among them.
    pub host: Vec<ast::Function>,
    /// File-scope variables (host constants among them).
    pub globals: Vec<ast::GlobalDecl>,
    /// Items set aside for an unsupported construct that no launch reaches (yet).
    pub warnings: Vec<Diagnostic>,
    /// The file's templates (host function templates are instantiated by the host side, from its calls).
    pub templates: template::Templates,
    /// The file's text, which instances are parsed from.
    pub text: String,
}

/// Whether `bytes` are a whole program (they define `main`).
pub fn is_program(bytes: &[u8]) -> bool {
    let bytes = crate::front::source::without_bom(bytes);
    let text = String::from_utf8_lossy(bytes);
    let mut lexed = lexer::lex(FileId(0), &text, 0);
    lexed.directives.clear();
    let toks = lexed.tokens;
    parser::Parser::new(&toks, &text, 0).is_program()
}

/// Reads a program's text through the preprocessor, the parser and the device type checker; `instances`
/// are template instances to compile beside those the text names (kernel templates the host side's
/// launches deduced).
pub fn compile_unit(
    name: &str,
    bytes: &[u8],
    overrides: &Overrides,
    instances: &[tast::TemplateRequest],
) -> Result<ProgramUnit, CompileError> {
    stack::with_stack(|| compile_here(name, bytes, overrides, instances))
}

fn compile_here(
    name: &str,
    bytes: &[u8],
    overrides: &Overrides,
    instances: &[tast::TemplateRequest],
) -> Result<ProgramUnit, CompileError> {
    let mut sources = SourceMap::default();
    let bytes = crate::front::source::without_bom(bytes);
    let text = String::from_utf8_lossy(bytes).into_owned();
    let file = sources.add(SourceFile::new(name, text.clone()));
    if std::str::from_utf8(bytes).is_err() {
        let d = Diagnostic::new(ErrorCode::Lexical, Span::new(file, 0, 0), "the file is not valid UTF-8");
        return Err(CompileError { sources, diags: vec![d] });
    }
    let lexed = lexer::lex(file, &text, 0);
    let options = preprocess::Options {
        mode: overrides.mode.unwrap_or_default(),
        device: true,
        defines: vec![],
        include_dirs: overrides.include_dirs.iter().map(std::path::PathBuf::from).collect(),
    };
    let pre = preprocess::run(file, lexed, &mut sources, &options, &preprocess::FsLoader);
    let mut diags = pre.diags;
    let mut parser = parser::Parser::new(&pre.tokens, &text, 0);
    let mut tu = parser.translation_unit();
    let mut templates = parser.take_templates();
    templates.requested.extend(instances.iter().cloned());
    diags.extend(parser.diags);
    let (program, type_diags) =
        check::check_with_templates(&mut tu, &mut templates, &[], overrides, &text, &options, &mut diags);
    diags.extend(type_diags);
    let mut warnings = check::settle_unavailable(&program, None, true, &mut diags);
    if !diags.is_empty() {
        diags.sort_by_key(|d| (d.span.file.0, d.span.start));
        note_expansions(&sources, &mut diags);
        return Err(CompileError { sources, diags });
    }
    warnings.sort_by_key(|d| (d.span.file.0, d.span.start));
    note_expansions(&sources, &mut warnings);
    let host = std::mem::take(&mut tu.host_defs);
    // (The parser hands its structs to the translation unit: host template instances name them.)
    templates.structs = tu.structs.clone();
    Ok(ProgramUnit { sources, file, program, host, globals: tu.globals, warnings, templates, text })
}
