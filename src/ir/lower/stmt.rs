//! Statements: blocks, control flow (conditions, loops, `break`/`continue`, `return`) and declarations.

use super::*;

impl Lowerer<'_> {
    pub(super) fn body(&mut self, stmts: &[t::Stmt]) {
        for s in stmts {
            self.stmt(s);
            if self.too_big.is_some() {
                return;
            }
        }
    }

    pub(super) fn stmt(&mut self, s: &t::Stmt) {
        self.stmt_span = s.span;
        match &s.kind {
            S::Expr(e) => self.discard(e),
            S::Init(l, init) => {
                let reg = self.local_reg(*l);
                if let Some(init) = init {
                    let v = self.expr(init);
                    self.assign_reg(reg, v, init.span);
                }
            }
            S::Block(b) => self.scoped_body(b),
            S::If { cond, then, els } => {
                let (then_bb, join) = (self.new_block(), self.new_block());
                let else_bb = if els.is_some() { self.new_block() } else { join };
                self.cond_branch(cond, then_bb, else_bb, BranchKind::If);
                self.set_cur(then_bb);
                self.stmt(then);
                self.switch_to(Term::Jump(join), s.span, else_bb);
                if let Some(els) = els {
                    self.stmt(els);
                    self.switch_to(Term::Jump(join), s.span, join);
                }
                self.set_cur(join);
            }
            S::While { cond, body } => {
                let (head, body_bb, exit) = (self.new_block(), self.new_block(), self.new_block());
                self.switch_to(Term::Jump(head), s.span, head);
                self.cond_branch(cond, body_bb, exit, BranchKind::Loop);
                self.loop_body(body, body_bb, exit, head, s.span);
                self.set_cur(exit);
            }
            S::DoWhile { body, cond } => {
                let (body_bb, cond_bb, exit) = (self.new_block(), self.new_block(), self.new_block());
                self.switch_to(Term::Jump(body_bb), s.span, body_bb);
                self.loop_body(body, body_bb, exit, cond_bb, cond.span);
                self.set_cur(cond_bb);
                self.cond_branch(cond, body_bb, exit, BranchKind::Loop);
                self.set_cur(exit);
            }
            S::For { init, cond, step, body } => {
                // The loop variable is in scope for the whole loop.
                self.open_scope();
                self.body(init);
                let (head, body_bb, step_bb, exit) =
                    (self.new_block(), self.new_block(), self.new_block(), self.new_block());
                self.switch_to(Term::Jump(head), s.span, head);
                match cond {
                    Some(c) => self.cond_branch(c, body_bb, exit, BranchKind::Loop),
                    None => self.terminate(Term::Jump(body_bb), s.span),
                }
                self.loop_body(body, body_bb, exit, step_bb, s.span);
                self.set_cur(step_bb);
                if let Some(step) = step {
                    self.stmt_span = step.span;
                    self.discard(step);
                }
                self.switch_to(Term::Jump(head), step.as_ref().map_or(s.span, |e| e.span), exit);
                self.close_scope();
            }
            S::Switch { cond, labels, body } => self.switch(cond, labels, body, s.span),
            S::Break | S::Continue => {
                let Some(targets) = self.frame().loops.last() else { return };
                let to = if matches!(s.kind, S::Break) { targets.brk } else { targets.cont };
                self.terminate(Term::Jump(to), s.span);
                self.dead_block();
            }
            S::Return(value) => {
                let v = value.as_ref().map(|v| self.expr(v));
                match self.frame().ret {
                    None => self.terminate(Term::Exit, s.span),
                    Some((cont, dst)) => {
                        if let (Some(dst), Some(v)) = (dst, v) {
                            self.emit(Instr::Mov { dst, src: v }, s.span);
                        }
                        self.terminate(Term::Jump(cont), s.span);
                    }
                }
                self.dead_block();
            }
        }
    }

    /// An expression whose value is unused: `i++` needs no copy of the old value then.
    pub(super) fn discard(&mut self, e: &t::Expr) {
        if let E::IncDec { place, increment, prefix: false } = &e.kind {
            let pre = t::Expr::new(
                E::IncDec { place: place.clone(), increment: *increment, prefix: true },
                e.ty.clone(),
                e.span,
            );
            self.expr(&pre);
        } else {
            self.expr(e);
        }
    }

    /// Lowers a loop body in `body_bb`; `break` goes to `exit`, `continue` and the fall-through to `cont`.
    pub(super) fn loop_body(&mut self, body: &t::Stmt, body_bb: BlockId, exit: BlockId, cont: BlockId, span: Span) {
        self.set_cur(body_bb);
        self.frames.last_mut().expect("frame").loops.push(LoopTargets { brk: exit, cont });
        self.stmt(body);
        self.frames.last_mut().expect("frame").loops.pop();
        self.terminate(Term::Jump(cont), span);
    }

    /// Evaluates a bool condition and branches; a constant condition becomes a jump.
    pub(super) fn cond_branch(&mut self, cond: &t::Expr, then: BlockId, els: BlockId, kind: BranchKind) {
        if let Some(c) = const_bool(cond) {
            self.terminate(Term::Jump(if c { then } else { els }), cond.span);
            return;
        }
        // `true && x` and `false || x` (a template constant's test, say) branch on `x` alone.
        match &cond.kind {
            E::LogicalAnd(a, b) if const_bool(a) == Some(true) => return self.cond_branch(b, then, els, kind),
            E::LogicalOr(a, b) if const_bool(a) == Some(false) => return self.cond_branch(b, then, els, kind),
            _ => {}
        }
        let v = self.expr(cond);
        let site = BranchSite { line: 0, kind, counted: kind != BranchKind::ShortCircuit };
        self.terminate(Term::Branch { cond: v, then, els, site }, cond.span);
    }
}
