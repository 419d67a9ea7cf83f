//! The debugger's questions about values: `:p EXPR` and `:w EXPR` in the TUI and the page, `--print EXPR`
//! for `run` and `view`. An [`Expression`] is CUDA (the front end's own grammar) over one thread's variables
//! in scope at its next instruction, the kernel's parameters, the built-ins (`threadIdx.x`, ...), its block's
//! shared arrays (`tile[ty][tx]`) and global memory through pointers (`in[i - 1]`), with C's arithmetic,
//! comparisons, casts and `?:`. It only reads: nothing it evaluates changes the machine.
//!
//! [`across_warp`] evaluates one in every lane of a warp (the lanes table, `printed` of the JSON report), and
//! [`across_block`] in every thread of a block (the table of all warps).

mod eval;
mod parse;
mod value;

pub use eval::Thread;
pub use parse::{BUILTINS, EXPR_FILE, ExprError, names};
pub use value::Value;

use super::{LaneMask, Machine, inspect};
use crate::front::ast::Expr;
use crate::ir::{Kernel, Pc};

/// A parsed, checked expression.
#[derive(Clone, Debug, PartialEq)]
pub struct Expression {
    /// As written (trimmed).
    pub text: String,
    ast: Expr,
}

impl Expression {
    /// Parses `text` and checks its names against `kernel`.
    pub fn parse(text: &str, kernel: &Kernel) -> Result<Expression, ExprError> {
        let ast = parse::parse(text, kernel)?;
        Ok(Expression { text: text.trim().to_string(), ast })
    }

    /// The value in one thread (Err: why it has none there, e.g. a variable out of scope or an address
    /// outside every allocation).
    pub fn eval(&self, m: &Machine, thread: Thread) -> Result<Value, String> {
        let ctx = eval::Ctx { m, thread, pc: thread_pc(m, thread) };
        match ctx.eval(&self.ast)? {
            // Shown whole (`tile`: its elements), not decayed to a pointer.
            v @ Value::Place {
                ty: crate::front::types::Type::Array(..) | crate::front::types::Type::Struct(_), ..
            } => Ok(v),
            v => v.load(m, thread.slot),
        }
    }

    /// The value in one thread as the debugger shows it.
    pub fn show(&self, m: &Machine, thread: Thread) -> String {
        match self.eval(m, thread) {
            Ok(v) => v.display(m, thread.slot),
            Err(e) => format!("<{e}>"),
        }
    }
}

/// The PC a thread runs next (None once it exited).
fn thread_pc(m: &Machine, t: Thread) -> Option<Pc> {
    let w = m.blocks.get(t.slot)?.warps.get((t.tid / 32) as usize)?;
    w.lane_pc(t.tid % 32)
}

/// Where a lane stands when its value is read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LaneState {
    /// In the group that issues next.
    Active,
    /// Live, but masked off (another path runs first, or it waits).
    Inactive,
    /// Finished.
    Exited,
    /// Past the end of the block (the last warp of a block that is not a multiple of 32).
    Absent,
}

impl LaneState {
    /// One character for the lanes table's legend.
    pub fn mark(self) -> &'static str {
        match self {
            LaneState::Active => "",
            LaneState::Inactive => "·",
            LaneState::Exited => "×",
            LaneState::Absent => "",
        }
    }
}

/// One lane's value.
#[derive(Clone, Debug, PartialEq)]
pub struct LaneValue {
    pub lane: u32,
    pub state: LaneState,
    /// None for a lane that is absent.
    pub value: Option<Result<Value, String>>,
}

impl LaneValue {
    /// The value as the debugger shows it, `<why>` where it has none (as [`Expression::show`]); None for a
    /// lane that is absent (not evaluated).
    pub fn show(&self, m: &Machine, slot: usize) -> Option<String> {
        match self.value.as_ref()? {
            Ok(v) => Some(v.display(m, slot)),
            Err(e) => Some(format!("<{e}>")),
        }
    }
}

/// The expression in all 32 lanes of warp `warp` of the block in `slot`.
pub fn across_warp(e: &Expression, m: &Machine, slot: usize, warp: u32) -> Vec<LaneValue> {
    let Some(w) = m.blocks.get(slot).and_then(|b| b.warps.get(warp as usize)) else { return vec![] };
    let active = inspect::summarize(m, &m.blocks[slot], w).active;
    let (live, exists) = (w.live, w.exists);
    (0..32)
        .map(|lane| {
            let state = lane_state(lane, active, live, exists);
            let value = (state != LaneState::Absent).then(|| e.eval(m, Thread { slot, tid: warp * 32 + lane }));
            LaneValue { lane, state, value }
        })
        .collect()
}

fn lane_state(lane: u32, active: LaneMask, live: LaneMask, exists: LaneMask) -> LaneState {
    if !exists.contains(lane) {
        LaneState::Absent
    } else if !live.contains(lane) {
        LaneState::Exited
    } else if active.contains(lane) {
        LaneState::Active
    } else {
        LaneState::Inactive
    }
}

/// The expression in every warp of the block in `slot`: one row of 32 lanes per warp.
pub fn across_block(e: &Expression, m: &Machine, slot: usize) -> Vec<Vec<LaneValue>> {
    let warps = m.blocks.get(slot).map_or(0, |b| b.warps.len() as u32);
    (0..warps).map(|w| across_warp(e, m, slot, w)).collect()
}

/// The `printed` entry of the JSON report for one expression in one warp: 32 values, `null` for lanes
/// that are not active.
pub fn printed_json(e: &Expression, m: &Machine, slot: usize, warp: u32) -> serde_json::Value {
    let values: Vec<serde_json::Value> = across_warp(e, m, slot, warp)
        .iter()
        .map(|lv| match (&lv.state, &lv.value) {
            (LaneState::Active, Some(Ok(v))) => v.to_json(m, slot),
            (LaneState::Active, Some(Err(e))) => serde_json::json!({ "error": e }),
            _ => serde_json::Value::Null,
        })
        .collect();
    let b = &m.blocks[slot];
    serde_json::json!({
        "expr": e.text,
        "block": [b.idx.x, b.idx.y, b.idx.z],
        "warp": warp,
        "values": values,
    })
}

/// The expressions `--print` asks for, evaluated in the warp a stop is about (`focus`), for the JSON
/// report's `printed` and the text report's lines. Each expression is parsed against the machine's kernel;
/// one that does not parse gives its diagnostic in the text and `error` in the JSON.
pub struct Printed {
    pub text: String,
    pub json: serde_json::Value,
}

/// Evaluates each of `exprs` in all lanes of the warp `focus` names (the stopped warp).
pub fn printed(exprs: &[String], m: &Machine, focus: Option<super::focus::Focus>) -> Printed {
    let mut text = String::new();
    let mut json = vec![];
    let place = focus.and_then(|f| Some((f, f.slot(m)?)));
    for src in exprs {
        let e = match Expression::parse(src, &m.kernel) {
            Ok(e) => e,
            Err(err) => {
                text.push_str(&err.render());
                json.push(serde_json::json!({ "expr": src, "error": err.short() }));
                continue;
            }
        };
        let Some((f, slot)) = place else {
            text.push_str(&format!("print {}: no thread to evaluate it in (no thread stopped)\n", e.text));
            json.push(serde_json::json!({ "expr": e.text, "block": null, "warp": null, "values": [] }));
            continue;
        };
        text.push_str(&lanes_line(&e, m, slot, f));
        text.push('\n');
        json.push(printed_json(&e, m, slot, f.warp));
    }
    Printed { text, json: serde_json::Value::Array(json) }
}

/// One line: the expression in the focused thread, then in each lane of its warp (`-` for a lane that is
/// not active: masked, exited or absent).
pub fn lanes_line(e: &Expression, m: &Machine, slot: usize, f: super::focus::Focus) -> String {
    let b = &m.blocks[slot];
    let lanes = across_warp(e, m, slot, f.warp);
    let cells: Vec<String> = lanes
        .iter()
        .map(|lv| match (&lv.state, &lv.value) {
            (LaneState::Active, Some(Ok(v))) => v.display(m, slot),
            (LaneState::Active, Some(Err(_))) => "?".to_string(),
            _ => "-".to_string(),
        })
        .collect();
    let t = b.thread_idx(f.tid(), m.launch.block);
    format!(
        "print {}: {} in thread ({},{},{}) of block ({},{},{}); warp {} lanes 0-31: {}",
        e.text,
        lanes[f.lane as usize].show(m, slot).unwrap_or_else(|| e.show(m, Thread { slot, tid: f.tid() })),
        t.x,
        t.y,
        t.z,
        b.idx.x,
        b.idx.y,
        b.idx.z,
        f.warp,
        cells.join(" ")
    )
}
