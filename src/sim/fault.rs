//! Faults, reported in compute-sanitizer's layout (so the skill carries over to the real tool) plus one plain
//! sentence for the student.

use serde::Serialize;

use super::memory::{AccessKind, MemError, Nearest, Space};
use crate::front::launch::Dim3;
use crate::ir::Pc;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FaultKind {
    OutOfBounds,
    Misaligned,
    NullPointer,
    DivisionByZero,
    /// A device-side `assert` failed (`cudaErrorAssert`).
    Assertion,
}

/// A fault of one thread; the machine stops at the first.
#[derive(Clone, Debug, PartialEq)]
pub struct Fault {
    pub kind: FaultKind,
    pub line: u32,
    pub pc: Pc,
    pub block: Dim3,
    pub thread: Dim3,
    pub address: Option<u64>,
    /// compute-sanitizer style, several lines.
    pub report: String,
    /// One sentence a student can act on.
    pub sentence: String,
}

/// The sentence for the student (the full report is [`Fault::report`]).
impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.sentence)
    }
}

impl std::error::Error for Fault {}

/// Where a fault happened, for the report.
pub struct FaultSite<'a> {
    pub kernel: &'a str,
    pub file: &'a str,
    pub line: u32,
    pub pc: Pc,
    pub block: Dim3,
    pub thread: Dim3,
}

fn header(site: &FaultSite, what: &str) -> String {
    format!(
        "========= {what}\n=========     at {}+{:#x} in {}:{}\n=========     by thread {} in block {}\n",
        site.kernel,
        site.pc.0 * 16,
        site.file,
        site.line,
        site.thread,
        site.block
    )
}

fn element_phrase(n: &Nearest, addr: u64) -> String {
    let es = n.elem_size.max(1) as i64;
    let len = n.size as i64 / es;
    let index = (addr as i64 - n.base as i64).div_euclid(es);
    if n.distance >= 0 {
        let past = index - len + 1;
        let how =
            if past == 1 { "one element past the end".to_string() } else { format!("{past} elements past the end") };
        format!("{}[{index}], {how} of {} ({len} elements)", n.name, n.name)
    } else {
        format!("{}[{index}], before the start of {} ({len} elements)", n.name, n.name)
    }
}

/// `4000` as `4,000`, as compute-sanitizer prints sizes.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A memory fault by one thread.
pub fn memory(site: &FaultSite, access: AccessKind, size: u32, addr: u64, err: &MemError) -> Fault {
    let who = format!("Thread {} of block {}", site.thread, site.block);
    let verb = match access {
        AccessKind::Read => "read",
        AccessKind::Write => "wrote",
        AccessKind::Atomic => "atomically updated",
    };
    let (kind, space, detail, sentence) = match err {
        MemError::Null => (
            FaultKind::NullPointer,
            Space::Global,
            format!(
                "=========     Access to {addr:#x} is out of bounds\n=========     (a null or near-null pointer)\n"
            ),
            format!("{who} {verb} through a null pointer at line {}.", site.line),
        ),
        MemError::Misaligned { space } => (
            FaultKind::Misaligned,
            *space,
            format!("=========     Address {addr:#x} is misaligned\n"),
            format!(
                "{who} {verb} {size} bytes at {addr:#x}, which is not a multiple of {size}, at line {}.",
                site.line
            ),
        ),
        MemError::OutOfBounds { space, nearest } => {
            let mut d = format!("=========     Access to {addr:#x} is out of bounds\n");
            let sentence = match nearest {
                Some(n) => {
                    // compute-sanitizer counts from the allocation's last byte: the first byte past the end
                    // is "1 bytes after" (measured with CUDA 13.0 on an H100).
                    let rel = if n.distance >= 0 {
                        format!("{} bytes after", n.distance + 1)
                    } else {
                        format!("{} bytes before", -n.distance)
                    };
                    d.push_str(&format!(
                        "=========     and is {rel} the nearest allocation {} at {:#x} of size {} bytes\n",
                        n.name,
                        n.base,
                        thousands(n.size)
                    ));
                    format!("{who} {verb} {} at line {}.", element_phrase(n, addr), site.line)
                }
                None => format!("{who} {verb} address {addr:#x}, outside every allocation, at line {}.", site.line),
            };
            (FaultKind::OutOfBounds, *space, d, sentence)
        }
    };
    let what = match kind {
        FaultKind::Misaligned => format!("Invalid {} {} of size {size} bytes", space.cuda_name(), access.word()),
        _ => format!("Invalid {} {} of size {size} bytes", space.cuda_name(), access.word()),
    };
    Fault {
        kind,
        line: site.line,
        pc: site.pc,
        block: site.block,
        thread: site.thread,
        address: Some(addr),
        report: header(site, &what) + &detail,
        sentence,
    }
}

/// A failed `assert(cond)`: CUDA's own message line (`file:line: kernel: block: [..], thread: [..] Assertion
/// `cond` failed.`), then the sentence.
pub fn assertion(site: &FaultSite, cond: &str) -> Fault {
    let (b, t) = (site.block, site.thread);
    Fault {
        kind: FaultKind::Assertion,
        line: site.line,
        pc: site.pc,
        block: site.block,
        thread: site.thread,
        address: None,
        report: format!(
            "{}:{}: {}: block: [{},{},{}], thread: [{},{},{}] Assertion `{cond}` failed.\n",
            site.file, site.line, site.kernel, b.x, b.y, b.z, t.x, t.y, t.z
        ),
        sentence: format!(
            "Thread {} of block {} found `{cond}` false at line {}: the kernel stops (cudaErrorAssert, \"device-side assert triggered\").",
            site.thread, site.block, site.line
        ),
    }
}

pub fn division_by_zero(site: &FaultSite) -> Fault {
    Fault {
        kind: FaultKind::DivisionByZero,
        line: site.line,
        pc: site.pc,
        block: site.block,
        thread: site.thread,
        address: None,
        report: header(site, "Integer division by zero"),
        sentence: format!(
            "Thread {} of block {} divided an integer by zero at line {} (a GPU returns garbage here, silently).",
            site.thread, site.block, site.line
        ),
    }
}
