//! The finished kernel: blocks laid out in source order, with their post-dominators (reconvergence points)
//! and the scopes of named registers.

use super::*;
use crate::ir::postdom::immediate_post_dominators;

impl Lowerer<'_> {
    /// Drops unreachable and empty forwarding blocks, computes post-dominators, lays blocks out in order.
    pub(super) fn finish(mut self, name: String, params: Vec<Param>, sources: &SourceMap) -> Kernel {
        let n = self.blocks.len();
        // Every block has a terminator (a missing one falls through to the virtual exit, which cannot happen
        // for reachable blocks, but unreachable scratch blocks may be open).
        for b in &mut self.blocks {
            if b.term.is_none() {
                b.term = Some((Term::Exit, Span::default()));
            }
        }
        // Thread jumps through empty blocks.
        let forward = |blocks: &[BuildBlock], mut b: BlockId| {
            for _ in 0..blocks.len() {
                match &blocks[b.0 as usize] {
                    BuildBlock { instrs, term: Some((Term::Jump(to), _)) } if instrs.is_empty() && *to != b => b = *to,
                    _ => break,
                }
            }
            b
        };
        let targets: Vec<Vec<BlockId>> = (0..n)
            .map(|i| match &self.blocks[i].term {
                Some((Term::Jump(to), _)) => vec![forward(&self.blocks, *to)],
                Some((Term::Branch { then, els, .. }, _)) => {
                    vec![forward(&self.blocks, *then), forward(&self.blocks, *els)]
                }
                _ => vec![],
            })
            .collect();
        for (i, ts) in targets.iter().enumerate() {
            match &mut self.blocks[i].term {
                Some((Term::Jump(to), _)) => *to = ts[0],
                Some((Term::Branch { then, els, .. }, _)) => {
                    *then = ts[0];
                    *els = ts[1];
                }
                _ => {}
            }
        }
        // Reachability from the entry (which itself may be an empty forwarder).
        let entry = forward(&self.blocks, BlockId(0));
        let mut order = vec![];
        let mut seen = vec![false; n];
        let mut stack = vec![entry];
        seen[entry.0 as usize] = true;
        while let Some(b) = stack.pop() {
            order.push(b);
            for &s in &targets[b.0 as usize] {
                if !seen[s.0 as usize] {
                    seen[s.0 as usize] = true;
                    stack.push(s);
                }
            }
        }
        // Source order (creation order) reads best; the entry must come first.
        order.sort_by_key(|b| (*b != entry, self.entered[b.0 as usize], b.0));
        let new_id: HashMap<BlockId, usize> = order.iter().enumerate().map(|(i, b)| (*b, i)).collect();
        let succs: Vec<Vec<usize>> =
            order.iter().map(|b| targets[b.0 as usize].iter().map(|s| new_id[s]).collect()).collect();
        let exits: Vec<bool> =
            order.iter().map(|b| matches!(self.blocks[b.0 as usize].term, Some((Term::Exit, _)))).collect();
        let ipdom = immediate_post_dominators(&succs, &exits);

        // Block start pcs.
        let mut starts = Vec::with_capacity(order.len());
        let mut pc = 0u32;
        for b in &order {
            starts.push(Pc(pc));
            pc += self.blocks[b.0 as usize].instrs.len() as u32 + 1;
        }
        let mut instrs = Vec::with_capacity(pc as usize);
        let mut spans = Vec::with_capacity(pc as usize);
        let mut scope_pos = Vec::with_capacity(pc as usize);
        let mut blocks = Vec::with_capacity(order.len());
        for (i, b) in order.iter().enumerate() {
            let bb = std::mem::replace(&mut self.blocks[b.0 as usize], BuildBlock { instrs: vec![], term: None });
            for (ins, sp) in bb.instrs {
                instrs.push(ins);
                spans.push(sp);
            }
            let emitted = std::mem::take(&mut self.emitted[b.0 as usize]);
            scope_pos.extend(emitted.iter().copied().chain([self.term_emitted[b.0 as usize]]));
            let (term, sp) = bb.term.expect("terminated above");
            let reconv = ipdom[i].map_or(Pc::EXIT, |d| starts[d]);
            instrs.push(match term {
                Term::Jump(to) => Instr::Jump { target: starts[new_id[&to]] },
                Term::Branch { cond, then, els, mut site } => {
                    site.line = self.line_of(sp, sources);
                    Instr::Branch { cond, then_pc: starts[new_id[&then]], else_pc: starts[new_id[&els]], reconv, site }
                }
                Term::Exit => Instr::Exit,
            });
            spans.push(sp);
            blocks.push(Block {
                start: starts[i],
                end: Pc(instrs.len() as u32),
                succs: succs[i].iter().map(|&s| BlockId(s as u32)).collect(),
                preds: vec![],
                ipdom: ipdom[i].map(|d| BlockId(d as u32)),
            });
        }
        for i in 0..blocks.len() {
            for s in blocks[i].succs.clone() {
                blocks[s.0 as usize].preds.push(BlockId(i as u32));
            }
        }
        let lines = spans.iter().map(|s| if *s == Span::default() { 0 } else { self.line_of(*s, sources) }).collect();
        let vec_parts = instrs
            .iter()
            .any(|i| matches!(i, Instr::Load { part: VecPart::Rest, .. } | Instr::Store { part: VecPart::Rest, .. }));
        Kernel {
            name,
            params,
            shared: self.shared,
            vec_parts,
            instrs,
            spans,
            lines,
            blocks,
            regs: self.regs,
            strings: self.strings,
            scope_pos,
            var_scopes: self.var_scopes,
        }
    }
}
