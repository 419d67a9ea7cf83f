//! Matching the directives with the kernel's parameters: the [`Launch`] they describe.

use super::*;

/// Directives of a file plus the command-line overrides, resolved for one kernel. `partial` says the parser
/// skipped code after syntax errors: then a kernel that cannot be found is not reported, as it may be in there.
pub fn resolve(
    program: &Program,
    directives: &[Directive],
    overrides: &Overrides,
    sources: &mut SourceMap,
    file_span: Span,
    partial: bool,
) -> Result<Launch, Vec<Diagnostic>> {
    let mut diags = vec![];
    // Overrides are parsed from their own texts and replace the file's directives of the same kind.
    let mut all: Vec<Directive> = directives.to_vec();
    let mut add_override =
        |flag: &str, word: &str, text: &str, diags: &mut Vec<Diagnostic>, all: &mut Vec<Directive>| {
            let file = sources.add(crate::front::source::SourceFile::new(format!("{flag} {text}"), text.to_string()));
            let span = Span::new(file, 0, text.len());
            if let Some(kind) = parse_body(word, text, file, 0, span, diags) {
                // An override removes what it replaces.
                all.retain(|d| !same_target(&d.kind, &kind));
                all.push(Directive { kind, span });
            }
        };
    if let Some(k) = &overrides.kernel {
        add_override("--kernel", "kernel", k, &mut diags, &mut all);
    }
    if let Some(g) = &overrides.grid {
        add_override("--grid", "grid", g, &mut diags, &mut all);
    }
    if let Some(b) = &overrides.block {
        add_override("--block", "block", b, &mut diags, &mut all);
    }
    if let Some(s) = &overrides.seed {
        add_override("--seed", "seed", s, &mut diags, &mut all);
    }
    if let Some(s) = &overrides.shared {
        add_override("--shared", "shared", s, &mut diags, &mut all);
    }
    for a in &overrides.args {
        add_override("--arg", "arg", a, &mut diags, &mut all);
    }
    for a in &overrides.symbols {
        add_override("--symbol", "symbol", a, &mut diags, &mut all);
    }
    if let Some(m) = overrides.mode {
        all.retain(|d| !matches!(d.kind, DirectiveKind::Mode(_)));
        all.push(Directive { kind: DirectiveKind::Mode(m), span: file_span });
    }

    // Each of kernel/grid/block/seed/mode at most once.
    let mut firsts: HashMap<&'static str, Span> = HashMap::new();
    for d in &all {
        let key = match d.kind {
            DirectiveKind::Kernel(_) => "kernel",
            DirectiveKind::Grid(_) => "grid",
            DirectiveKind::Block(_) => "block",
            DirectiveKind::Seed(_) => "seed",
            DirectiveKind::Mode(_) => "mode",
            DirectiveKind::Shared(_) => "shared",
            DirectiveKind::Arg { .. } | DirectiveKind::Symbol { .. } => continue,
        };
        if let Some(prev) = firsts.insert(key, d.span) {
            diags.push(
                Diagnostic::new(ErrorCode::Directive, d.span, format!("`@{key}` is given twice"))
                    .label("second one")
                    .with_secondary(prev, "first one"),
            );
        }
    }

    // The kernel.
    let kernel_dir =
        all.iter().find_map(|d| if let DirectiveKind::Kernel(k) = &d.kind { Some(k.clone()) } else { None });
    let kernels: Vec<_> = program.kernels().collect();
    let kernel = match &kernel_dir {
        Some(k) => match kernels.iter().find(|(_, f)| f.name == k.name) {
            Some(&(id, _)) => Some(id),
            // A kernel set aside for an unsupported construct: that construct is why it cannot run.
            None if let Some(u) =
                program.unavailable.iter().find(|u| u.kind == super::ast::ItemKind::Kernel && u.name == k.name) =>
            {
                diags.push(u.diag.clone().with_secondary(k.span, "launched here"));
                None
            }
            None => {
                let names: Vec<_> = kernels.iter().map(|(_, f)| format!("`{}`", f.name)).collect();
                let mut d =
                    Diagnostic::new(ErrorCode::Directive, k.span, format!("no __global__ function named `{}`", k.name))
                        .label("unknown kernel");
                if let Some((_, header, _)) = program.templates.iter().find(|(n, _, kernel)| *kernel && *n == k.name) {
                    d = d.hint(format!(
                        "`{}` is a kernel template ({header}): name its arguments, e.g. `// @kernel {}<...>`",
                        k.name, k.name
                    ));
                } else if !names.is_empty() {
                    d = d.hint(format!("this file's kernels: {}", names.join(", ")));
                }
                if !partial {
                    diags.push(d);
                }
                None
            }
        },
        None if kernels.len() == 1 => Some(kernels[0].0),
        // Every kernel was set aside for an unsupported construct: those constructs are why none can run.
        None if kernels.is_empty() && program.unavailable.iter().any(|u| u.kind == super::ast::ItemKind::Kernel) => {
            let set_aside = program.unavailable.iter().filter(|u| u.kind == super::ast::ItemKind::Kernel);
            diags.extend(set_aside.map(|u| u.diag.clone()));
            None
        }
        None if kernels.is_empty() && program.templates.iter().any(|t| t.2) => {
            let (name, header, _) = program.templates.iter().find(|t| t.2).expect("a kernel template");
            diags.push(
                Diagnostic::new(
                    ErrorCode::Directive,
                    file_span,
                    format!("`{name}` is a kernel template: which instance should run?"),
                )
                .label("no instance named")
                .hint(format!(
                    "add `// @kernel {name}<...>` with arguments for {header}, or pass --kernel '{name}<...>'"
                )),
            );
            None
        }
        None if kernels.is_empty() => {
            if !partial {
                diags.push(
                    Diagnostic::new(ErrorCode::Directive, file_span, "this file has no __global__ kernel")
                        .label("nothing to launch")
                        .hint("a kernel file needs at least one `__global__ void name(...) { ... }`"),
                );
            }
            None
        }
        None => {
            let names: Vec<_> = kernels.iter().map(|(_, f)| f.name.as_str()).collect();
            diags.push(
                Diagnostic::new(
                    ErrorCode::Directive,
                    program.function(kernels[1].0).span,
                    "this file has several kernels: which one to launch?",
                )
                .hint(format!(
                    "add `// @kernel {}` (one of: {}) or pass --kernel NAME",
                    names[0],
                    names.join(", ")
                )),
            );
            None
        }
    };
    let Some(kernel) = kernel else { return Err(diags) };
    let func = program.function(kernel);
    let params: Vec<_> = func.params.iter().map(|&p| &func.locals[p.0 as usize]).collect();
    // A parameter whose type was already reported (unknown, or set aside as unavailable): its arguments
    // cannot be checked against it.
    if params.iter().any(|p| mentions_error(&p.ty)) {
        return Err(diags);
    }

    // Arguments: match them with parameters.
    let mut by_name: HashMap<&str, &Directive> = HashMap::new();
    for d in &all {
        let DirectiveKind::Arg { name, .. } = &d.kind else { continue };
        if let Some(prev) = by_name.insert(&name.name, d) {
            diags.push(
                Diagnostic::new(ErrorCode::Directive, name.span, format!("`@arg {}` is given twice", name.name))
                    .label("second one")
                    .with_secondary(prev.span, "first one"),
            );
        }
        if !params.iter().any(|p| p.name == name.name) {
            let list: Vec<_> = params.iter().map(|p| p.name.as_str()).collect();
            diags.push(
                Diagnostic::new(
                    ErrorCode::Directive,
                    name.span,
                    format!("`{}` is not a parameter of `{}`", name.name, func.name),
                )
                .label("unknown parameter")
                .hint(if list.is_empty() {
                    "this kernel takes no parameters".to_string()
                } else {
                    format!("its parameters: {}", list.join(", "))
                }),
            );
        }
    }
    // Scalars first: lengths and sizes may name them. A scalar parameter whose value is missing or wrong (and
    // so already reported) is known by name but has no value: sizes that use it are not reported again.
    let mut env: HashMap<String, Option<Value>> = HashMap::new();
    let mut args: Vec<Option<LaunchArg>> = vec![None; params.len()];
    for (pi, p) in params.iter().enumerate() {
        if !p.ty.is_ptr() {
            env.insert(p.name.clone(), None);
        }
        let Some(d) = by_name.get(p.name.as_str()) else {
            let example = if p.ty.is_ptr() {
                format!("// @arg {} {}[1024] = 0", p.name, p.ty.pointee().map_or("int".to_string(), |t| t.to_string()))
            } else {
                format!("// @arg {} = 0", p.name)
            };
            diags.push(
                Diagnostic::new(
                    ErrorCode::Directive,
                    p.span,
                    format!("parameter `{}` has no `@arg` directive", p.name),
                )
                .label("needs a value for the launch")
                .hint(format!("add a line like `{example}`")),
            );
            continue;
        };
        let DirectiveKind::Arg { spec: ArgSpec::Scalar(e), name } = &d.kind else { continue };
        let Type::Scalar(s) = p.ty else {
            diags.push(
                Diagnostic::new(
                    ErrorCode::Directive,
                    name.span,
                    format!("`{}` is a pointer: it needs an array", p.name),
                )
                .hint(format!(
                    "write `@arg {} {}[length] = initialiser`",
                    p.name,
                    p.ty.pointee().map_or("int".into(), |t| t.to_string())
                )),
            );
            continue;
        };
        let Some(v) = const_eval(e, &HashMap::new(), &mut diags) else { continue };
        if s.is_integer() && matches!(v, Value::Float(_)) {
            diags.push(Diagnostic::new(
                ErrorCode::Directive,
                e.span,
                format!("`{}` is an integer parameter; this value is not an integer", p.name),
            ));
            continue;
        }
        env.insert(p.name.clone(), Some(v));
        args[pi] = Some(LaunchArg {
            name: p.name.clone(),
            value: ArgValue::Scalar { ty: s, bits: v.to_bits(s) },
            global: false,
        });
    }
    for (pi, p) in params.iter().enumerate() {
        let Some(d) = by_name.get(p.name.as_str()) else { continue };
        let DirectiveKind::Arg { spec: ArgSpec::Array { elem, elem_span, len, init, strukt }, name } = &d.kind else {
            continue;
        };
        // A struct element: its fields are the array's elements, so they must share one scalar type.
        let mut per_elem = 1u64;
        let mut elem = *elem;
        // A struct whose fields differ in type is its bytes: (offset, type) of each scalar field, for a
        // per-field initialiser.
        let mut byte_fields: Option<Vec<(u32, Scalar)>> = None;
        if let (Some(sname), Some(Type::Struct(def))) = (strukt, p.ty.pointee()) {
            // Array fields count element by element (`float a[4]` is four floats).
            let scalars: Vec<Option<(Scalar, u32)>> = def.fields.iter().map(|f| leaf_scalars(&f.ty)).collect();
            let count: u32 = scalars.iter().map(|s| s.map_or(0, |(_, n)| n)).sum();
            match scalars.first().copied().flatten() {
                // A cuRAND state array starts as bytes (zero, or a value per byte): `curand_init` fills it.
                // (Any of its names: `curandState_t[n]` for a `curandState *`.)
                _ if crate::front::builtin_types::is_curand_state(&Type::Struct(def.clone()))
                    && crate::front::builtin_types::vector_type(sname).is_some_and(|d| d.name == def.name) =>
                {
                    elem = Scalar::U8;
                    per_elem = def.size as u64;
                }
                Some((s0, _))
                    if def.name == *sname
                        && scalars.iter().all(|s| s.is_some_and(|(s, _)| s == s0))
                        && def.size == s0.size() * count =>
                {
                    elem = s0;
                    per_elem = count as u64;
                }
                _ if def.name != *sname => {}
                // Fields of different types (or pointers): the array is bytes, each given by the initialiser
                // (`= 0`), or each field by its own (`= {i, 0.5f, 0}`).
                _ => match struct_scalar_fields(def) {
                    Some(fields) => {
                        elem = Scalar::U8;
                        per_elem = def.size as u64;
                        byte_fields = Some(fields);
                    }
                    None => {
                        diags.push(
                            Diagnostic::unsupported(*elem_span, format!("`@arg` arrays of `{sname}`"))
                                .hint("give the kernel a pointer to one field type"),
                        );
                        continue;
                    }
                },
            }
        }
        // `int **rows`: the launch would need an array of device pointers, each to its own array.
        if let Type::Ptr { elem: pe, .. } = &p.ty
            && matches!(**pe, Type::Ptr { .. })
        {
            diags.push(
                Diagnostic::unsupported(
                    p.span,
                    format!("`@arg` for a pointer to pointers (`{} {}`): an array of device pointers", p.ty, p.name),
                )
                .label("a pointer to pointers")
                .hint("give the kernel one flat array and index it as rows (`a[row * width + col]`)"),
            );
            continue;
        }
        let pointee = match &p.ty {
            Type::Ptr { elem: pe, .. } if per_elem > 1 || matches!(**pe, Type::Struct(_)) => {
                (per_elem > 1).then_some(elem)
            }
            Type::Ptr { elem, .. } => elem.scalar(),
            _ => {
                diags.push(
                    Diagnostic::new(
                        ErrorCode::Directive,
                        name.span,
                        format!("`{}` is a scalar `{}`: it takes a value, not an array", p.name, p.ty),
                    )
                    .hint(format!("write `@arg {} = value`", p.name)),
                );
                continue;
            }
        };
        if pointee != Some(elem) {
            let written = strukt.clone().unwrap_or_else(|| elem.name().to_string());
            diags.push(
                Diagnostic::new(
                    ErrorCode::Directive,
                    *elem_span,
                    format!("element type `{written}` does not match the parameter `{} {}`", p.ty, p.name),
                )
                .label("differs from the kernel's parameter")
                .with_secondary(p.span, "parameter declared here"),
            );
            continue;
        }
        let Some(n) = const_eval(len, &env, &mut diags) else { continue };
        let n = match n {
            Value::Int(n) if n >= 1 => n as u64,
            _ => {
                diags.push(Diagnostic::new(
                    ErrorCode::Directive,
                    len.span,
                    format!("array length must be a positive integer, found {}", show(n)),
                ));
                continue;
            }
        };
        let init = match init {
            // One initialiser per field of a struct or vector element.
            Some(e @ ast::Expr { kind: ast::ExprKind::InitList(items), .. }) => {
                let fields = byte_fields.as_ref().map_or(per_elem, |f| f.len() as u64);
                if strukt.is_none() || items.len() as u64 != fields {
                    let what = match strukt {
                        Some(s) => format!("`{s}` has {fields} scalar fields; the list gives {}", items.len()),
                        None => "a brace list initialises the fields of a struct or vector element".to_string(),
                    };
                    diags.push(
                        Diagnostic::new(ErrorCode::Directive, e.span, what)
                            .hint("give one initialiser per field, in order (`float4[n] = {i, 0, 1, rand(0, 9)}`), or one for all (`= i` counts fields)"),
                    );
                    continue;
                }
                let inits: Option<Vec<InitExpr>> = items.iter().map(|f| init_expr(f, &mut diags)).collect();
                match (inits, &byte_fields) {
                    (Some(f), Some(layout)) => InitExpr::Bytes {
                        size: per_elem as u32,
                        fields: layout.iter().zip(f).map(|(&(off, ty), e)| (off, ty, e)).collect(),
                    },
                    (Some(f), None) => InitExpr::Fields(f),
                    (None, _) => continue,
                }
            }
            Some(e) => match init_expr(e, &mut diags) {
                Some(ie) => ie,
                None => continue,
            },
            None => InitExpr::Const(Value::Int(0)),
        };
        args[pi] = Some(LaunchArg {
            name: p.name.clone(),
            value: ArgValue::Array { elem, len: n * per_elem, init },
            global: false,
        });
    }

    let dims = |which: &str, diags: &mut Vec<Diagnostic>| -> Dim3 {
        let Some(d) = all.iter().find(|d| {
            matches!((&d.kind, which), (DirectiveKind::Grid(_), "grid") | (DirectiveKind::Block(_), "block"))
        }) else {
            return if which == "grid" { Dim3::ONE } else { Dim3::new(32, 1, 1) };
        };
        let (DirectiveKind::Grid(list) | DirectiveKind::Block(list)) = &d.kind else { unreachable!() };
        let mut v = [1u32; 3];
        for (i, e) in list.iter().enumerate() {
            let Some(x) = const_eval(e, &env, diags) else { continue };
            let limit: i64 = match (which, i) {
                ("block", 0 | 1) => 1024,
                ("block", _) => 64,
                ("grid", 0) => (1 << 31) - 1,
                _ => 65535,
            };
            match x {
                Value::Int(n) if (1..=limit).contains(&n) => v[i] = n as u32,
                _ => diags.push(
                    Diagnostic::new(
                        ErrorCode::Directive,
                        e.span,
                        format!("{which} size must be an integer from 1 to {limit}, found {}", show(x)),
                    )
                    .label("out of range"),
                ),
            }
        }
        let dim = Dim3::new(v[0], v[1], v[2]);
        if which == "block" && dim.count() > 1024 {
            diags.push(
                Diagnostic::new(
                    ErrorCode::Directive,
                    d.span,
                    format!("a block has at most 1024 threads; this one has {}", dim.count()),
                )
                .label("too many threads per block"),
            );
        }
        dim
    };
    let grid = dims("grid", &mut diags);
    let block = dims("block", &mut diags);
    let seed = match all.iter().find_map(|d| if let DirectiveKind::Seed(e) = &d.kind { Some(e) } else { None }) {
        Some(e) => match const_eval(e, &env, &mut diags) {
            Some(Value::Int(s)) => s as u64,
            Some(v) => {
                diags.push(Diagnostic::new(
                    ErrorCode::Directive,
                    e.span,
                    format!("the seed must be an integer, found {}", show(v)),
                ));
                0
            }
            None => 0,
        },
        None => 0,
    };
    let mode =
        all.iter().find_map(|d| if let DirectiveKind::Mode(m) = d.kind { Some(m) } else { None }).unwrap_or_default();
    let dynamic_shared = match all
        .iter()
        .find_map(|d| if let DirectiveKind::Shared(e) = &d.kind { Some(e) } else { None })
    {
        Some(e) => match const_eval(e, &env, &mut diags) {
            Some(Value::Int(n)) if (0..=MAX_DYNAMIC_SHARED).contains(&n) => n as u32,
            Some(v) => {
                diags.push(
                    Diagnostic::new(
                        ErrorCode::Directive,
                        e.span,
                        format!("dynamic shared memory must be 0 to {MAX_DYNAMIC_SHARED} bytes, found {}", show(v)),
                    )
                    .label("out of range")
                    .hint("an H100 block has at most 227 KiB of shared memory (past 48 KiB, CUDA needs cudaFuncSetAttribute)"),
                );
                0
            }
            None => 0,
        },
        None => 0,
    };
    let symbols = symbols(program, &all, &mut diags);
    if !diags.is_empty() {
        return Err(diags);
    }
    let args = args.into_iter().map(|a| a.expect("every parameter resolved or diagnosed")).collect();
    Ok(Launch { kernel: func.name.clone(), grid, block, args, seed, mode, dynamic_shared, symbols })
}

/// The `@symbol` contents of `__constant__` and `__device__` variables, by variable name.
pub(super) fn symbols(program: &Program, all: &[Directive], diags: &mut Vec<Diagnostic>) -> Vec<(String, InitExpr)> {
    use crate::front::tast::GlobalSpace;
    let mut out: Vec<(String, InitExpr)> = vec![];
    let mut seen: HashMap<&str, Span> = HashMap::new();
    for d in all {
        let DirectiveKind::Symbol { name, init } = &d.kind else { continue };
        if let Some(prev) = seen.insert(&name.name, name.span) {
            diags.push(
                Diagnostic::new(ErrorCode::Directive, name.span, format!("`@symbol {}` is given twice", name.name))
                    .label("second one")
                    .with_secondary(prev, "first one"),
            );
            continue;
        }
        let Some(g) = program
            .globals
            .iter()
            .find(|g| g.name == name.name && matches!(g.space, GlobalSpace::Constant | GlobalSpace::Device))
        else {
            let names: Vec<_> = program
                .globals
                .iter()
                .filter(|g| matches!(g.space, GlobalSpace::Constant | GlobalSpace::Device))
                .map(|g| format!("`{}`", g.name))
                .collect();
            diags.push(
                Diagnostic::new(
                    ErrorCode::Directive,
                    name.span,
                    format!("`{}` is not a __constant__ or __device__ variable of this file", name.name),
                )
                .label("unknown symbol")
                .hint(if names.is_empty() {
                    "this file declares no __constant__ or __device__ variables".to_string()
                } else {
                    format!("its variables: {}", names.join(", "))
                }),
            );
            continue;
        };
        let ie = if let A::InitList(items) = &init.kind {
            let mut values = vec![];
            let mut ok = true;
            flatten_consts(items, &mut values, &mut ok, diags);
            if !ok {
                continue;
            }
            if values.len() as u64 > g.len() {
                diags.push(
                    Diagnostic::new(
                        ErrorCode::Directive,
                        init.span,
                        format!("{} values for `{}`, which holds {}", values.len(), g.name, g.len()),
                    )
                    .label("too many values"),
                );
                continue;
            }
            if g.elem.is_integer() && values.iter().any(|v| matches!(v, Value::Float(_))) {
                diags.push(Diagnostic::new(
                    ErrorCode::Directive,
                    init.span,
                    format!("`{}` holds integers; these values are not all integers", g.name),
                ));
                continue;
            }
            InitExpr::List(values)
        } else {
            match init_expr(init, diags) {
                Some(ie) => ie,
                None => continue,
            }
        };
        out.push((g.name.clone(), ie));
    }
    out
}

/// The constants of a (nested) brace list, in order.
pub(super) fn flatten_consts(items: &[ast::Expr], out: &mut Vec<Value>, ok: &mut bool, diags: &mut Vec<Diagnostic>) {
    for e in items {
        if let A::InitList(inner) = &e.kind {
            flatten_consts(inner, out, ok, diags);
        } else {
            match const_eval(e, &HashMap::new(), diags) {
                Some(v) => out.push(v),
                None => *ok = false,
            }
        }
    }
}

pub(super) fn same_target(a: &DirectiveKind, b: &DirectiveKind) -> bool {
    match (a, b) {
        (DirectiveKind::Arg { name: x, .. }, DirectiveKind::Arg { name: y, .. })
        | (DirectiveKind::Symbol { name: x, .. }, DirectiveKind::Symbol { name: y, .. }) => x.name == y.name,
        _ => std::mem::discriminant(a) == std::mem::discriminant(b),
    }
}

pub(super) fn show(v: Value) -> String {
    match v {
        Value::Int(i) => i.to_string(),
        Value::Float(f) => format!("{f}"),
    }
}

/// Evaluates a size or scalar expression; names refer to scalar arguments in `env`.
pub(super) fn const_eval(
    e: &ast::Expr,
    env: &HashMap<String, Option<Value>>,
    diags: &mut Vec<Diagnostic>,
) -> Option<Value> {
    let ie = lower_init(e, Some(env), diags)?;
    if let Some(d) = find_div_zero(&ie, e.span) {
        diags.push(d);
        return None;
    }
    Some(ie.eval(0, 0, 0))
}
