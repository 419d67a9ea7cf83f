//! File-scope variables of host code. A `const` scalar with a constant initialiser is a constant (it can size
//! arrays); every other variable (`int N = 1 << 20;`, `float *d_a;`, `const float scale = 2.0f;`, arrays,
//! structs) lives in host memory. Their declarations run, in file order, at the start of `main`, whose frame
//! holds them for the whole run; other functions reach them through the table of globals, which `main`'s
//! prologue fills. (C allows only constant initialisers; C++'s dynamic ones run in the same order here.)

use super::resolve::{Resolver, Var};
use super::tree::{Stmt, storage};
use crate::front::ast;
use crate::front::types::{Scalar, Type};

impl Resolver<'_> {
    /// Reads the file's constants (enumerators, `const` scalars with constant initialisers) into `consts`
    /// before any function's signature is read: a parameter's type may name one (`std::array<float, N> &`).
    /// [`Resolver::globals`] reads them again in file order with the rest.
    pub(super) fn constants(&mut self, globals: &[ast::GlobalDecl]) {
        // The file's enumerators are `int` constants.
        for (name, v) in &self.kernels.enumerators {
            self.consts.insert(name.clone(), (*v as i32 as u32 as u64, Type::INT));
        }
        for g in globals.iter().filter(|g| g.space == ast::VarSpace::Plain && g.decl.ty.is_const) {
            for d in g.decl.declarators.iter().filter(|d| d.dims.is_empty() && !d.open_size) {
                let value = d.init.as_ref().and_then(|i| self.const_eval(i));
                let ts = &g.decl.ty;
                let scalar = (ts.named.is_none() && ts.func.is_none() && ts.pointers == 0 && d.pointers == 0)
                    .then(|| Type::from_base(ts.base).scalar())
                    .flatten();
                if let (Some(v), Some(s)) = (value, scalar) {
                    self.consts.insert(d.name.name.clone(), (Scalar::I64.convert_bits(s, v as u64), Type::Scalar(s)));
                }
            }
        }
    }

    /// Reads the file's host variables: constants into `consts`, the rest into `globals` with their types.
    pub(super) fn globals(&mut self, globals: &[ast::GlobalDecl]) {
        for g in globals {
            if g.space == ast::VarSpace::Managed {
                self.managed_globals(g);
                continue;
            }
            if g.space != ast::VarSpace::Plain {
                continue;
            }
            let mut rest = vec![];
            for d in &g.decl.declarators {
                if g.decl.ty.is_const && d.dims.is_empty() && !d.open_size {
                    let value = d.init.as_ref().and_then(|i| self.const_eval(i));
                    if let (Ok(ty), Some(v)) = (self.ty(&g.decl.ty, d.pointers), value)
                        && let Some(s) = storage(&ty)
                    {
                        let bits = Scalar::I64.convert_bits(s, v as u64);
                        self.consts.insert(d.name.name.clone(), (bits, ty));
                        continue;
                    }
                }
                rest.push(d.clone());
            }
            if rest.is_empty() {
                continue;
            }
            let decl = ast::Decl { declarators: rest, ..g.decl.clone() };
            // The types, as a declaration in main will give them (errors are reported here, once).
            self.begin_scope_for_globals(&decl);
            let mut scratch = vec![];
            let declared = self.decl(&decl, &mut scratch);
            let scope = self.end_scope_for_globals();
            if declared.is_err() {
                continue;
            }
            for d in &decl.declarators {
                if let Some(Var::Mem(_, ty)) = scope.get(&d.name.name) {
                    let i = self.globals.len() as u32;
                    self.globals.insert(d.name.name.clone(), (i, ty.clone()));
                }
            }
            self.global_decls.push(decl);
        }
    }

    /// `main`'s prologue: the file-scope variables declared (in memory, in its outermost scope) and their
    /// addresses put in the table of globals.
    pub(super) fn global_prologue(&mut self, out: &mut Vec<Stmt>) {
        out.extend(self.managed.iter().map(|&(global, symbol)| Stmt::Managed { global, symbol }));
        let errors = self.diags.len();
        for decl in self.global_decls.clone() {
            for d in &decl.declarators {
                self.force_in_memory(&d.name.name);
            }
            if self.decl(&decl, out).is_err() {
                continue;
            }
            for d in &decl.declarators {
                if let (Some(Var::Mem(slot, _)), Some(&(i, _))) =
                    (self.lookup(&d.name.name), self.globals.get(&d.name.name))
                {
                    out.push(Stmt::SetGlobal(i, slot));
                }
            }
        }
        // Already reported when the types were read.
        self.diags.truncate(errors);
    }

    /// `__managed__ int x;`: a file-scope variable of the host at the address the device sees it (the
    /// device compiled it as a `__device__` variable, the program's global `symbol`).
    fn managed_globals(&mut self, g: &ast::GlobalDecl) {
        for d in &g.decl.declarators {
            let symbol = self.kernels.globals.iter().position(|k| k.name == d.name.name && k.owner.is_none());
            if let Some(symbol) = symbol {
                let i = self.globals.len() as u32;
                self.globals.insert(d.name.name.clone(), (i, self.kernels.globals[symbol].ty.clone()));
                self.managed.push((i, symbol as u32));
            }
        }
    }
}
