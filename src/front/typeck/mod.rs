//! Name resolution and type checking: [`crate::front::ast`] -> [`crate::front::tast`], with C's promotions and
//! conversions made explicit.
//!
//! The checker's state is `checker::Checker`; its methods are spread over the other modules, one concern
//! each (declarations, statements, expressions, calls, structs, members, ...). They call one another's methods,
//! but import only from modules below them: the state (`checker`), and the tables and helpers they share
//! (`layout`, `intrinsics`, `suggest`, `member_table`). This module imports only `checker` (and re-exports
//! `layout::leaves` for the host side).

mod addressed;
mod builtins;
mod call;
mod checker;
mod ctors;
mod curand;
mod deduce;
mod desugar;
mod expr;
mod functions;
mod globals;
mod group_collectives;
mod group_ops;
mod groups;
mod intrinsics;
mod launch;
mod layout;
mod member_table;
mod members;
mod stmt;
mod struct_ref;
mod structs;
mod suggest;
mod texture;

pub use layout::leaves as struct_leaves;
pub use texture::{channel_desc_of, is_texture_fetch};

use std::collections::HashMap;

use crate::front::ast;
use crate::front::diagnostic::Diagnostic;
use crate::front::launch::Mode;
use crate::front::tast::{FnId, Program};
use crate::front::template::TemplateDef;
use checker::Checker;

/// Checks a whole translation unit. Functions with errors are still returned (with `Type::Error` inside),
/// so callers must look at the diagnostics first.
///
/// `mode` is the execution model the code is compiled for: the warp functions of CUDA 8 and earlier exist
/// only for pre-Volta GPUs.
pub fn check(
    tu: &ast::TranslationUnit,
    mode: Mode,
    templates: &HashMap<String, TemplateDef>,
) -> (Program, Vec<Diagnostic>) {
    let mut ck = Checker {
        mode,
        templates: templates.clone(),
        host_functions: tu.host_functions.clone(),
        unavailable: tu.unavailable.clone(),
        ..Checker::default()
    };
    ck.declare_structs(tu);
    ck.declare_globals(tu);
    // The file's functions, friends defined in classes, then member functions (see `members`).
    let (all, first_member) = ck.all_functions(tu);
    ck.declare_functions(&all[..first_member]);
    ck.declare_members(&all, first_member);
    ck.deduce_auto_returns(&all[..first_member]);
    let mut program = Program::default();
    for (i, f) in all.iter().enumerate() {
        let before = ck.diags.len();
        let func = ck.function(f, FnId(i as u32));
        if ck.members.is_memory_variant(FnId(i as u32)) {
            // The same body again, with `this` in memory: its mistakes were reported for the first.
            ck.diags.truncate(before);
        }
        ck.defer(FnId(i as u32), before);
        program.functions.push(func);
    }
    ck.check_recursion(&program);
    program.unavailable = std::mem::take(&mut ck.unavailable);
    program.host_declared = std::mem::take(&mut ck.host_functions);
    program.deferred = std::mem::take(&mut ck.deferred);
    program.legacy_warp = ck.legacy_warp.take();
    program.globals = std::mem::take(&mut ck.globals);
    program.template_requests = std::mem::take(&mut ck.template_requests);
    program.structs = std::mem::take(&mut ck.structs);
    program.enumerators = std::mem::take(&mut ck.enumerators);
    let mut defs: Vec<_> = templates.values().collect();
    defs.sort_by_key(|d| d.span.start);
    program.templates = defs.iter().map(|d| (d.name.clone(), d.header(), d.is_kernel)).collect();
    (program, ck.diags)
}
