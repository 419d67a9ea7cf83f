//! The compiler driver: the front end checks a kernel file, then the IR layer lowers its launched kernel.
//!
//! It sits above both layers so that neither imports the other backwards: `ir` reads the front end's typed tree,
//! and the front end knows nothing of the IR.

use crate::front::diagnostic::{Diagnostic, ErrorCode};
use crate::front::launch::{Launch, Overrides};
use crate::front::preprocess::{self, IncludeLoader};
use crate::front::source::{FileId, SourceFile, SourceMap, Span};
use crate::front::{self, CompileError, tast};
use crate::ir::{self, Kernel};

/// A kernel file that passed every check, with its launch and the launched kernel's IR.
#[derive(Debug)]
pub struct Compiled {
    pub sources: SourceMap,
    pub file: FileId,
    pub program: tast::Program,
    pub launch: Launch,
    pub kernel: Kernel,
    /// One warning for each item the launched kernel does not reach that uses an unsupported construct.
    pub warnings: Vec<Diagnostic>,
}

impl Compiled {
    /// The kernel file's text.
    pub fn source(&self) -> &SourceFile {
        self.sources.get(self.file)
    }

    /// IR of every kernel in the file (for `check --ir`), launched one first.
    pub fn all_kernels(&self) -> Vec<Kernel> {
        // Lowering recurses like the other phases: it gets the same stack.
        front::with_stack(|| {
            let mut out = vec![self.kernel.clone()];
            for (id, f) in self.program.kernels() {
                if f.name != self.kernel.name
                    && self.program.runnable(id)
                    && let Ok(k) = ir::lower::lower_kernel(&self.program, id, &self.sources)
                {
                    out.push(k);
                }
            }
            out
        })
    }
}

/// Compiles kernel-file bytes (which need not be valid UTF-8) named `name`, applying `overrides`; quoted
/// `#include`s read the disk.
pub fn compile(name: &str, bytes: &[u8], overrides: &Overrides) -> Result<Compiled, CompileError> {
    compile_with(name, bytes, overrides, &preprocess::FsLoader)
}

/// [`compile`], with quoted `#include`s read through `loader` (the web page's files are in memory).
pub fn compile_with(
    name: &str,
    bytes: &[u8],
    overrides: &Overrides,
    loader: &(dyn IncludeLoader + Sync),
) -> Result<Compiled, CompileError> {
    front::with_stack(|| {
        let checked = front::check_file(name, bytes, overrides, loader)?;
        lower(checked)
    })
}

/// Lowers the launched kernel of a checked file, and checks what needs its IR (dynamic shared memory).
fn lower(checked: front::Checked) -> Result<Compiled, CompileError> {
    let front::Checked { sources, file, program, launch, warnings } = checked;
    let id = program.find(&launch.kernel).expect("resolved kernel exists");
    let kernel = ir::lower::lower_kernel(&program, id, &sources).map_err(|d| {
        let mut diags = vec![d];
        front::diagnostic::note_expansions(&sources, &mut diags);
        CompileError { sources: sources.clone(), diags }
    })?;
    if kernel.uses_dynamic_shared() && launch.dynamic_shared == 0 {
        let whole = Span::new(file, 0, 0);
        let array = kernel.shared.iter().find(|s| s.dynamic).map_or("", |s| s.name.as_str());
        let span = program.globals.iter().find(|g| g.name == array).map_or(whole, |g| g.span);
        let d = Diagnostic::new(
            ErrorCode::Directive,
            span,
            format!("`{array}` is dynamic shared memory, but the launch gives it no bytes"),
        )
        .label("sized by the launch (`k<<<grid, block, BYTES>>>` in CUDA)")
        .hint("add `// @shared BYTES` to the file, or pass --shared BYTES");
        return Err(CompileError { sources, diags: vec![d] });
    }
    Ok(Compiled { sources, file, program, launch, kernel, warnings })
}
