//! What is compiled: a *segment*, the longest run of pre-decoded instructions from a given one that compute
//! each lane from the same lane's registers and cannot fault (ALU operations, moves, pointer arithmetic,
//! specials). Memory operations, divisions, jumps, branches and the general path end a segment; the
//! interpreter runs them as before.

use crate::sim::decoded::{Op, Program, Row};

/// Segments shorter than this are left to the interpreter: a call and the rows' bookkeeping cost about what
/// one interpreted instruction does.
pub const MIN_LEN: u32 = 2;

/// Segments are cut at this many instructions (the values a call folds fit on the stack).
pub const MAX_LEN: u32 = 64;

/// Whether `op` can be part of a segment.
pub fn compilable(op: &Op) -> bool {
    matches!(op, Op::Alu { .. } | Op::Mov { .. } | Op::PtrAdd { .. } | Op::Special { .. })
}

/// Per instruction: the length of the segment that starts there (0 where none does).
pub fn lengths(program: &Program) -> Vec<u32> {
    let mut len = vec![0u32; program.ops.len()];
    for i in (0..program.ops.len()).rev() {
        if compilable(&program.ops[i]) {
            len[i] = (1 + len.get(i + 1).copied().unwrap_or(0)).min(MAX_LEN);
        }
    }
    len
}

/// The rows a segment's instructions read and write.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rows {
    /// Registers (not constants) read before the segment writes them: loaded from the register file.
    pub inputs: Vec<Row>,
    /// Registers written, each once in this list: stored back with their last value.
    pub outputs: Vec<Row>,
}

/// The sources an op reads.
pub fn sources(op: &Op) -> Vec<Row> {
    match *op {
        Op::Alu { a, b, .. } => vec![a, b],
        Op::Mov { a, .. } => vec![a],
        Op::PtrAdd { base, index, .. } => vec![base, index],
        _ => vec![],
    }
}

/// The row an op writes.
pub fn dest(op: &Op) -> Option<Row> {
    match *op {
        Op::Alu { d, .. } | Op::Mov { d, .. } | Op::PtrAdd { d, .. } | Op::Special { d, .. } => Some(d),
        _ => None,
    }
}

/// The rows of the segment `ops` in a program of `regs` registers (rows from `regs` on are constants).
pub fn rows(ops: &[Op], regs: usize) -> Rows {
    let mut r = Rows::default();
    for op in ops {
        for s in sources(op) {
            if (s as usize) < regs && !r.outputs.contains(&s) && !r.inputs.contains(&s) {
                r.inputs.push(s);
            }
        }
        if let Some(d) = dest(op)
            && !r.outputs.contains(&d)
        {
            r.outputs.push(d);
        }
    }
    r
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::decoded::Alu;

    #[test]
    fn segments_stop_at_memory_and_rows_are_read_before_written() {
        let alu = |d, a, b| Op::Alu { f: Alu::AddI, d, a, b };
        let p = Program {
            ops: vec![alu(0, 1, 9), alu(2, 0, 0), Op::Load { size: 4, d: 3, addr: 2 }, alu(1, 1, 1), Op::General],
            regs: 4,
            consts: vec![7; 6],
            straight: vec![],
            reconverges: vec![],
            live_in: vec![],
        };
        assert_eq!(lengths(&p), vec![2, 1, 0, 1, 0]);
        // Row 9 is a constant; row 0 is written before the second instruction reads it.
        assert_eq!(rows(&p.ops[..2], 4), Rows { inputs: vec![1], outputs: vec![0, 2] });
    }
}
