//! Hints for a kernel's out-of-bounds access in a whole program, given only where the evidence says what the
//! bug is: an allocation sized in elements where bytes were meant (`cudaMalloc(&d, n)`), or a grid with more
//! threads than elements and a kernel without a guard. Any other out-of-bounds access (a wrong index, `a[i + 1]`
//! behind a guard) gets no hint: the fault report and its sentence say what happened.

use crate::front::source::SourceMap;
use crate::front::types::{Scalar, Type};
use crate::host::LaunchRequest;
use crate::ir::{Instr, Kernel, Operand, Reg, Ty};
use crate::sim::{Allocation, Fault, FaultKind};

/// An allocation host code made, as the hints name it.
pub struct HostAlloc<'a> {
    pub alloc: &'a Allocation,
    /// The line of its `cudaMalloc`.
    pub line: u32,
}

/// The C name of an element type (for hints).
pub fn c_name(t: Ty) -> &'static str {
    match t {
        Ty::Bool => "bool",
        Ty::I8 => "char",
        Ty::U8 => "unsigned char",
        Ty::I16 => "short",
        Ty::U16 => "unsigned short",
        Ty::I32 => "int",
        Ty::U32 => "unsigned int",
        Ty::I64 => "long long",
        Ty::U64 => "unsigned long long",
        Ty::F16 => "__half",
        Ty::F32 => "float",
        Ty::F64 => "double",
        Ty::Ptr => "void *",
    }
}

/// The hint for a fault, or `None` when nothing says which fix is right. `allocs`: the allocations host code
/// made (the one the access ran past is found among them).
pub fn fault_hint(
    kernel: &Kernel,
    sources: &SourceMap,
    req: &LaunchRequest,
    fault: &Fault,
    allocs: &[HostAlloc],
) -> Option<String> {
    if fault.kind != FaultKind::OutOfBounds {
        return None;
    }
    let addr = fault.address?;
    // The allocation the access ran past: the nearest one below the address (the guard gap follows each).
    let h = allocs.iter().filter(|h| h.alloc.base <= addr).max_by_key(|h| h.alloc.base)?;
    let a = h.alloc;
    let size = a.elem.size() as u64;
    let bytes = a.bytes();
    if addr < a.base + bytes {
        return None;
    }
    let index = (addr - a.base) / size;
    let count = bytes / size;
    let ints = int_args(kernel, req);
    let t = c_name(a.elem);
    // (a) The launch passes the allocation's byte count as an element count: `cudaMalloc(&d, n)` with n
    // elements meant.
    if size > 1 && index < bytes && ints.iter().any(|(_, v)| *v == bytes) {
        return Some(format!(
            "`{}` has {bytes} bytes (cudaMalloc at line {}), room for {count} {t}s, and the kernel reaches element \
             {index}. cudaMalloc takes a size in bytes: cudaMalloc(&{}, n) gives n bytes, not n {t}s. Write \
             cudaMalloc(&{}, n * sizeof({t}))",
            a.name, h.line, a.name, a.name
        ));
    }
    // (b) A one-dimensional grid with more threads than elements, the faulting thread's global index past
    // them, used as the index as it is, and no comparison with the size anywhere in the kernel.
    if req.grid[1..] != [1, 1] || req.block[1..] != [1, 1] {
        return None;
    }
    let global = fault.block.x as u64 * req.block[0] as u64 + fault.thread.x as u64;
    let threads = req.grid[0] as u64 * req.block[0] as u64;
    let (n_name, n_reg) = ints.iter().find(|(_, v)| *v == count).map(|(p, _)| (p.name.as_str(), p.reg))?;
    if global != index || threads <= count || compares(kernel, n_reg) {
        return None;
    }
    let i_name = index_name(kernel, sources, fault.pc.0 as usize)?;
    Some(format!(
        "add `if ({i_name} < {n_name})` around the body of {}: the grid has {} x {} = {threads} threads for \
         {n_name} = {count} elements, and the threads after the first {count} index past the end of `{}` \
         ({count} {t}s, allocated at line {})",
        kernel.name, req.grid[0], req.block[0], a.name, h.line
    ))
}

/// The kernel's integer parameters and their values in this launch.
fn int_args<'k>(kernel: &'k Kernel, req: &LaunchRequest) -> Vec<(&'k crate::ir::Param, u64)> {
    kernel
        .params
        .iter()
        .zip(&req.args)
        .filter_map(|(p, &bits)| match p.ty {
            Type::Scalar(s) if s.is_integer() && s != Scalar::Bool => {
                let v = s.int_value(bits);
                (v >= 0).then_some((p, v as u64))
            }
            _ => None,
        })
        .collect()
}

/// The register an operand names, seen through copies and conversions into temporaries.
fn source(kernel: &Kernel, op: Operand, before: usize) -> Option<Reg> {
    let Operand::Reg(mut r) = op else { return None };
    // A temporary's defining instruction is the last one before `before` that writes it.
    for _ in 0..8 {
        if kernel.regs.get(r.0 as usize).is_some_and(|i| i.name.is_some()) {
            return Some(r);
        }
        let def = kernel.instrs[..before.min(kernel.instrs.len())].iter().rev().find(|i| dst(i) == Some(r))?;
        match def {
            Instr::Mov { src: Operand::Reg(s), .. } | Instr::Convert { src: Operand::Reg(s), .. } => r = *s,
            _ => return Some(r),
        }
    }
    Some(r)
}

fn dst(i: &Instr) -> Option<Reg> {
    match i {
        Instr::Mov { dst, .. }
        | Instr::Convert { dst, .. }
        | Instr::PtrAdd { dst, .. }
        | Instr::Binary { dst, .. }
        | Instr::Unary { dst, .. }
        | Instr::Load { dst, .. } => Some(*dst),
        _ => None,
    }
}

/// Whether any comparison in the kernel reads `reg` (a guard such as `if (i < n)`, right or wrong).
fn compares(kernel: &Kernel, reg: Reg) -> bool {
    kernel.instrs.iter().enumerate().any(|(pc, i)| match i {
        Instr::Cmp { a, b, .. } => [*a, *b].into_iter().any(|o| source(kernel, o, pc) == Some(reg)),
        _ => false,
    })
}

/// The source name of the index of the access at `pc` (`i` in `a[i]`), when it is a variable as it is; else
/// the index as the source writes it (`blockIdx.x * blockDim.x + threadIdx.x` in `a[...]`), when the access
/// is one subscript.
fn index_name(kernel: &Kernel, sources: &SourceMap, pc: usize) -> Option<String> {
    let addr = match kernel.instrs.get(pc)? {
        Instr::Load { addr, .. } | Instr::Store { addr, .. } | Instr::Atomic { addr, .. } => *addr,
        _ => return None,
    };
    let Operand::Reg(r) = addr else { return None };
    let at = kernel.instrs[..pc].iter().rposition(|i| dst(i) == Some(r))?;
    let Instr::PtrAdd { index, .. } = &kernel.instrs[at] else { return None };
    let r = source(kernel, *index, at)?;
    if let Some(name) = kernel.regs.get(r.0 as usize)?.name.clone() {
        return Some(name);
    }
    let span = *kernel.spans.get(at)?;
    let text = sources.files().get(span.file.0 as usize)?.slice(span);
    let inner = text.strip_suffix(']')?.split_once('[')?.1.trim();
    (!inner.is_empty() && !inner.contains(['[', ']'])).then(|| inner.to_string())
}
