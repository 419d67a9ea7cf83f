//! The checks a kernel file ([`super::kernel_file`]) and a whole program ([`super::program`]) share: type
//! checking with the template instances the file asks for, and settling which unsupported constructs are
//! errors (those the launched code reaches) and which are warnings.

use super::ast;
use super::diagnostic::Diagnostic;
use super::directives;
use super::launch::Overrides;
use super::preprocess;
use super::source::Span;
use super::tast;
use super::template;
use super::typeck;

/// Unsupported constructs matter only where they run: those in functions the launched kernel reaches become
/// errors (added to `diags`, with their text as found); every other function or item that has one gets one
/// warning. With no kernel resolved, all are warnings (the errors that stopped resolution come first); a whole
/// program (`whole`) resolves its launches as it runs (`program::device`, a layer above).
pub(super) fn settle_unavailable(
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
pub(super) fn check_with_templates(
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
