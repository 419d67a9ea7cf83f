//! The `memory` section of `run --json`: every array in full (interface.md's form), only the elements that
//! changed, or nothing; written straight to a buffered writer so a textbook-sized launch (16 Mi ints) never
//! holds its report in memory, one line per array.

use std::io::{self, Write};

use serde_json::{Map, Value};

use super::machine::Machine;
use super::memory::Allocation;
use crate::front::launch::ArgValue;
use crate::ir::Ty;

/// How much of global memory a report shows (`run --json --memory full|changed|none`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum MemoryDetail {
    /// Every element of every array: `"name": [v0, v1, ...]`.
    #[default]
    Full,
    /// Per array, its length and the elements that differ from their launch-time value:
    /// `"name": {"len": N, "changed": [[index, value], ...]}`.
    Changed,
    /// No arrays: `"memory": {}` (for tools that only read outcome and metrics).
    None,
}

impl MemoryDetail {
    /// Parses `full`, `changed` or `none`.
    pub fn parse(s: &str) -> Option<MemoryDetail> {
        match s {
            "full" => Some(MemoryDetail::Full),
            "changed" => Some(MemoryDetail::Changed),
            "none" => Some(MemoryDetail::None),
            _ => None,
        }
    }
}

/// Writes the section's object; `indent` is the number of spaces before its closing brace.
pub fn write(w: &mut impl Write, m: &Machine, detail: MemoryDetail, indent: usize) -> io::Result<()> {
    let allocs: Vec<&Allocation> = if detail == MemoryDetail::None { vec![] } else { m.global.allocs.iter().collect() };
    if allocs.is_empty() {
        return w.write_all(b"{}");
    }
    // serde_json's maps are sorted by key: keep that order so `--json` reads as it always has.
    let mut allocs = allocs;
    allocs.sort_by(|a, b| a.name.cmp(&b.name));
    w.write_all(b"{\n")?;
    for (k, a) in allocs.iter().enumerate() {
        write!(w, "{:indent$}  ", "", indent = indent)?;
        serde_json::to_writer(&mut *w, &a.name)?;
        w.write_all(b": ")?;
        match detail {
            MemoryDetail::Changed => write_changed(w, m, a)?,
            _ => write_full(w, a)?,
        }
        w.write_all(if k + 1 < allocs.len() { b",\n" } else { b"\n" })?;
    }
    write!(w, "{:indent$}}}", "", indent = indent)
}

/// Elements formatted per run before they go to the writer (one `write_all` per run, not three per element).
const RUN: usize = 4096;

/// Runs formatted at once, spread over the cores (`parallel`), then written in order: a 16 Mi-element array's
/// text was a third of `run --json`'s time on one core while the other waited. 64 runs of ints are about 3 MB.
const BATCH: usize = 64;

fn write_full(w: &mut impl Write, a: &Allocation) -> io::Result<()> {
    w.write_all(b"[")?;
    let starts: Vec<u64> = (0..a.len).step_by(RUN).collect();
    for batch in starts.chunks(BATCH) {
        for text in map_runs(batch, |first| full_run(a, first)) {
            w.write_all(&text)?;
        }
    }
    w.write_all(b"]")
}

/// The text of the elements `first..first + RUN` (fewer at the end), each after ", " but the array's first.
fn full_run(a: &Allocation, first: u64) -> Vec<u8> {
    let mut now = [0u64; RUN];
    let now = &mut now[..RUN.min((a.len - first) as usize)];
    a.elements(first, now);
    let mut text = Vec::with_capacity(RUN * 8);
    for (i, &bits) in (first..).zip(now.iter()) {
        if i > 0 {
            text.extend_from_slice(b", ");
        }
        push_element(&mut text, a.elem, bits);
    }
    text
}

/// `f` of each of `starts`, in order (on rayon's threads with the `parallel` feature).
fn map_runs(starts: &[u64], f: impl Fn(u64) -> Vec<u8> + Sync + Send) -> Vec<Vec<u8>> {
    #[cfg(feature = "parallel")]
    {
        use rayon::prelude::*;
        starts.par_iter().map(|&s| f(s)).collect()
    }
    #[cfg(not(feature = "parallel"))]
    starts.iter().map(|&s| f(s)).collect()
}

/// [`write_element`] into a byte buffer, which cannot fail.
#[inline]
fn push_element(text: &mut Vec<u8>, ty: Ty, bits: u64) {
    // (Writing to a Vec<u8> never returns an error.)
    let _ = write_element(text, ty, bits);
}

fn write_changed(w: &mut impl Write, m: &Machine, a: &Allocation) -> io::Result<()> {
    write!(w, "{{\"len\": {}, \"changed\": [", a.len)?;
    // The launch argument that made this array, and its position (rand's stream number).
    let made = m.launch.args.iter().enumerate().find_map(|(stream, arg)| match &arg.value {
        ArgValue::Array { elem, init, .. } if arg.name == a.name => Some((stream as u64, *elem, init)),
        _ => None,
    });
    let mask = if a.elem.size() >= 8 { u64::MAX } else { (1u64 << (8 * a.elem.size())) - 1 };
    let mut first_changed = true;
    let mut index = itoa::Buffer::new();
    let mut text = Vec::with_capacity(RUN * 8);
    let (mut now, mut initial) = (vec![0u64; RUN], vec![0u64; RUN]);
    for first in (0..a.len).step_by(RUN) {
        let n = RUN.min((a.len - first) as usize);
        let (now, initial) = (&mut now[..n], &mut initial[..n]);
        a.elements(first, now);
        // The launch-time values, a column at a time (a uniform initialiser, `= 0`, once).
        match made {
            Some((stream, elem, init)) if !init.is_uniform() => {
                init.fill_bits(first, m.launch.seed, stream, elem, initial);
            }
            Some((stream, elem, init)) => initial.fill(init.eval(0, m.launch.seed, stream).to_bits(elem)),
            None => initial.fill(0),
        }
        for (i, (&now, &initial)) in (first..).zip(now.iter().zip(initial.iter())) {
            if now == initial & mask {
                continue;
            }
            text.extend_from_slice(if first_changed { b"[" } else { b", [" });
            first_changed = false;
            text.extend_from_slice(index.format(i).as_bytes());
            text.extend_from_slice(b", ");
            write_element(&mut text, a.elem, now)?;
            text.extend_from_slice(b"]");
        }
        w.write_all(&text)?;
        text.clear();
    }
    w.write_all(b"]}")
}

/// One element as serde_json writes the number (`null` for a NaN or infinity, as serde_json's `Value` has
/// them; floats in the shortest form that reads back, f32 widened to f64 first).
#[inline]
pub fn write_element(w: &mut impl Write, ty: Ty, bits: u64) -> io::Result<()> {
    let mut ints = itoa::Buffer::new();
    let text: &str = match ty {
        Ty::Bool => {
            if bits & 1 != 0 {
                "true"
            } else {
                "false"
            }
        }
        Ty::I8 => ints.format(bits as u8 as i8),
        Ty::U8 => ints.format(bits as u8),
        Ty::I16 => ints.format(bits as u16 as i16),
        Ty::U16 => ints.format(bits as u16),
        Ty::I32 => ints.format(bits as u32 as i32),
        Ty::U32 => ints.format(bits as u32),
        Ty::I64 => ints.format(bits as i64),
        Ty::U64 | Ty::Ptr => ints.format(bits),
        Ty::F16 => return write_float(w, crate::front::half::to_f64(bits as u16)),
        Ty::F32 => return write_float(w, f32::from_bits(bits as u32) as f64),
        Ty::F64 => return write_float(w, f64::from_bits(bits)),
    };
    w.write_all(text.as_bytes())
}

#[inline]
fn write_float(w: &mut impl Write, x: f64) -> io::Result<()> {
    if x.is_finite() { w.write_all(ryu::Buffer::new().format_finite(x).as_bytes()) } else { w.write_all(b"null") }
}

/// Writes a JSON object whose keys are `entries`' (already in order) plus `memory`, which is streamed; nested
/// values are pretty-printed as serde_json does, two spaces a level.
pub fn write_report(
    w: &mut impl Write,
    entries: &Map<String, Value>,
    m: &Machine,
    detail: MemoryDetail,
) -> io::Result<()> {
    w.write_all(b"{\n")?;
    let mut keys: Vec<&str> = entries.keys().map(String::as_str).chain(["memory"]).collect();
    keys.sort_unstable();
    for (k, key) in keys.iter().enumerate() {
        w.write_all(b"  ")?;
        serde_json::to_writer(&mut *w, key)?;
        w.write_all(b": ")?;
        if *key == "memory" {
            write(w, m, detail, 2)?;
        } else {
            let text = serde_json::to_string_pretty(&entries[*key])?;
            w.write_all(text.replace('\n', "\n  ").as_bytes())?;
        }
        w.write_all(if k + 1 < keys.len() { b",\n" } else { b"\n" })?;
    }
    w.write_all(b"}\n")
}
