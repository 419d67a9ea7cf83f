//! `switch` statements: a compare chain that dispatches to each label's block, and the case bodies in order
//! (docs/language.md, "`switch`").

use super::*;

impl Lowerer<'_> {
    /// `switch`: a chain of compares in label order dispatches to each label's block (as nvcc's compare
    /// chains do; every compare is a branch that may diverge), the body's statements follow one another so
    /// control falls through, and `break` leaves for `exit`.
    pub(super) fn switch(&mut self, cond: &t::Expr, labels: &[(Option<u64>, usize)], body: &[t::Stmt], span: Span) {
        let ty = Ty::of(&cond.ty);
        let v = self.expr(cond);
        let exit = self.new_block();
        // One block per statement position that has labels.
        let mut at: Vec<(usize, BlockId)> = vec![];
        for &(_, i) in labels {
            if !at.iter().any(|&(j, _)| j == i) {
                let b = self.new_block();
                at.push((i, b));
            }
        }
        let block_at = |i: usize| at.iter().find(|&&(j, _)| j == i).map(|&(_, b)| b).expect("a block per label");
        let default = labels.iter().find(|(l, _)| l.is_none()).map_or(exit, |&(_, i)| block_at(i));
        for &(value, i) in labels {
            let Some(value) = value else { continue };
            let next = self.new_block();
            let hit = self.temp(Ty::Bool);
            self.emit(Instr::Cmp { op: CmpOp::Eq, ty, dst: hit, a: v, b: Operand::Imm(value) }, span);
            let site = BranchSite { line: 0, kind: BranchKind::If, counted: true };
            self.terminate(Term::Branch { cond: Operand::Reg(hit), then: block_at(i), els: next, site }, span);
            self.set_cur(next);
        }
        self.terminate(Term::Jump(default), span);
        self.dead_block();
        let cont = self.frame().loops.last().map_or(exit, |l| l.cont);
        self.frames.last_mut().expect("frame").loops.push(LoopTargets { brk: exit, cont });
        self.open_scope();
        for (i, stmt) in body.iter().enumerate() {
            if let Some(&(_, b)) = at.iter().find(|&&(j, _)| j == i) {
                self.switch_to(Term::Jump(b), stmt.span, b);
            }
            self.stmt(stmt);
        }
        // Labels after the last statement (`default: ;` at the end, or an empty switch).
        for &(j, b) in &at {
            if j >= body.len() {
                self.switch_to(Term::Jump(b), span, b);
            }
        }
        self.close_scope();
        self.frames.last_mut().expect("frame").loops.pop();
        self.switch_to(Term::Jump(exit), span, exit);
    }
}
