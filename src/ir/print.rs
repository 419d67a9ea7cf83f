//! Text form of the IR (`warpdbg check --ir`): blocks, instructions with source lines, branch targets and
//! reconvergence points.

use std::collections::HashMap;
use std::fmt::Write;

use super::*;
use crate::front::tast::Special;

/// Renders a kernel's IR as text.
pub fn print_kernel(k: &Kernel) -> String {
    let names = reg_names(k);
    let mut out = String::new();
    let params: Vec<String> = k.params.iter().map(|p| format!("{}: {}", names[p.reg.0 as usize], p.ty)).collect();
    let _ = writeln!(out, "kernel {}({})", k.name, params.join(", "));
    for (i, s) in k.shared.iter().enumerate() {
        let _ = writeln!(out, "  shared #{i} {}: {} ({} bytes)", s.name, s.ty, s.bytes);
    }
    let block_name = |pc: Pc| -> String {
        if pc == Pc::EXIT {
            return "exit".into();
        }
        format!("bb{}", k.block_of(pc).0)
    };
    for (bi, b) in k.blocks.iter().enumerate() {
        let preds: Vec<String> = b.preds.iter().map(|p| format!("bb{}", p.0)).collect();
        let ipdom = b.ipdom.map_or("exit".to_string(), |d| format!("bb{}", d.0));
        let _ = writeln!(out, "bb{bi}:  ; pc {}..{}, preds [{}], ipdom {ipdom}", b.start.0, b.end.0, preds.join(", "));
        for pc in b.start.0..b.end.0 {
            let ins = &k.instrs[pc as usize];
            let text = match ins {
                Instr::Jump { target } => format!("jump {}", block_name(*target)),
                Instr::Branch { cond, then_pc, else_pc, reconv, site } => {
                    let kind = match site.kind {
                        BranchKind::If => "if",
                        BranchKind::Loop => "loop",
                        BranchKind::Ternary => "?:",
                        BranchKind::ShortCircuit => "&&/||",
                        BranchKind::GroupSync => "thread_group sync",
                    };
                    let counted = if site.counted { "" } else { ", not counted" };
                    format!(
                        "branch {} ? {} : {}  ; reconverge at {}  [{kind} on line {}{counted}]",
                        op(&names, *cond),
                        block_name(*then_pc),
                        block_name(*else_pc),
                        if *reconv == Pc::EXIT {
                            "exit".to_string()
                        } else {
                            format!("{} (pc {})", block_name(*reconv), reconv.0)
                        },
                        site.line
                    )
                }
                other => instr_text(k, &names, other),
            };
            let _ = writeln!(out, "  {pc:>4}  L{:<4} {text}", k.lines[pc as usize]);
        }
    }
    out
}

/// Register display names: the variable name when unique, `name.N` when shadowed or inlined twice, `%N` for
/// temporaries.
pub fn reg_names(k: &Kernel) -> Vec<String> {
    let mut count: HashMap<&str, u32> = HashMap::new();
    for r in &k.regs {
        if let Some(n) = &r.name {
            *count.entry(n).or_default() += 1;
        }
    }
    k.regs
        .iter()
        .enumerate()
        .map(|(i, r)| match &r.name {
            Some(n) if count[n.as_str()] == 1 => n.clone(),
            Some(n) => format!("{n}.{i}"),
            None => format!("%{i}"),
        })
        .collect()
}

fn op(names: &[String], o: Operand) -> String {
    match o {
        Operand::Reg(r) => names[r.0 as usize].clone(),
        Operand::Imm(v) => v.to_string(),
    }
}

fn imm(o: Operand, ty: Ty, names: &[String]) -> String {
    match (o, ty) {
        (Operand::Imm(v), Ty::F32) => format!("{:?}f", f32::from_bits(v as u32)),
        (Operand::Imm(v), Ty::F64) => format!("{:?}", f64::from_bits(v)),
        (Operand::Imm(v), Ty::I32) => (v as u32 as i32).to_string(),
        (Operand::Imm(v), Ty::U32) if v > 0xffff => format!("{v:#x}"),
        _ => op(names, o),
    }
}

/// A vector access's mark after the type: `.v16` on its first field, `.v` on the others.
fn vec_part(p: VecPart) -> String {
    match p {
        VecPart::Alone => String::new(),
        VecPart::First { bytes } => format!(".v{bytes}"),
        VecPart::Rest => ".v".into(),
    }
}

fn special_name(s: Special) -> String {
    let (name, axis) = match s {
        Special::ThreadIdx(a) => ("threadIdx", a),
        Special::BlockIdx(a) => ("blockIdx", a),
        Special::BlockDim(a) => ("blockDim", a),
        Special::GridDim(a) => ("gridDim", a),
    };
    format!("{name}.{}", ["x", "y", "z"][axis as usize])
}

fn instr_text(k: &Kernel, names: &[String], ins: &Instr) -> String {
    let r = |r: &Reg| names[r.0 as usize].clone();
    let o = |x: &Operand, ty: Ty| imm(*x, ty, names);
    match ins {
        Instr::Mov { dst, src } => format!("{} = {}", r(dst), o(src, k.regs[dst.0 as usize].ty)),
        Instr::Unary { op, ty, dst, src } => {
            format!("{} = {}.{} {}", r(dst), format!("{op:?}").to_lowercase(), ty.name(), o(src, *ty))
        }
        Instr::Binary { op, ty, dst, a, b } => {
            format!("{} = {}.{} {}, {}", r(dst), format!("{op:?}").to_lowercase(), ty.name(), o(a, *ty), o(b, *ty))
        }
        Instr::Fma { ty, dst, a, b, c } => {
            format!("{} = fma.{} {}, {}, {}", r(dst), ty.name(), o(a, *ty), o(b, *ty), o(c, *ty))
        }
        Instr::Cmp { op, ty, dst, a, b } => {
            format!("{} = {}.{} {}, {}", r(dst), format!("{op:?}").to_lowercase(), ty.name(), o(a, *ty), o(b, *ty))
        }
        Instr::Convert { from, to, dst, src } => {
            format!("{} = cvt.{}.{} {}", r(dst), to.name(), from.name(), o(src, *from))
        }
        Instr::PtrAdd { dst, base, index, index_signed, scale } => {
            let it = if *index_signed { Ty::I32 } else { Ty::U32 };
            format!("{} = ptradd {}, {} * {scale}", r(dst), o(base, Ty::Ptr), o(index, it))
        }
        Instr::PtrDiff { dst, a, b, elem_size } => {
            format!("{} = ptrdiff {}, {} / {elem_size}", r(dst), o(a, Ty::Ptr), o(b, Ty::Ptr))
        }
        Instr::Special { dst, which } => format!("{} = {}", r(dst), special_name(*which)),
        Instr::SharedAddr { dst, array } => format!("{} = &shared {}", r(dst), k.shared[*array as usize].name),
        Instr::Load { ty, dst, addr, part } => {
            format!("{} = load.{}{} [{}]", r(dst), ty.name(), vec_part(*part), o(addr, Ty::Ptr))
        }
        Instr::Store { ty, addr, src, part } => {
            format!("store.{}{} [{}], {}", ty.name(), vec_part(*part), o(addr, Ty::Ptr), o(src, *ty))
        }
        Instr::Atomic { op, ty, dst, addr, a, b } => {
            let extra = if matches!(op, crate::front::tast::AtomicOp::Cas) {
                format!(", {}", o(b, *ty))
            } else {
                String::new()
            };
            format!(
                "{} = atomic.{}.{} [{}], {}{extra}",
                r(dst),
                format!("{op:?}").to_lowercase(),
                ty.name(),
                o(addr, Ty::Ptr),
                o(a, *ty)
            )
        }
        Instr::SyncThreads { pred: None, grid: false } => "syncthreads".into(),
        Instr::SyncThreads { pred: None, grid: true } => "gridsync".into(),
        Instr::SyncThreads { pred: Some(p), .. } => format!("syncthreads.reduce {}", o(p, Ty::Bool)),
        Instr::ReadCounter { dst, which } => {
            let what = match which {
                crate::ir::Counter::Clock => "clock".to_string(),
                crate::ir::Counter::Clock64 => "clock64".to_string(),
                crate::ir::Counter::Barrier(k) => format!("barrier.{}", format!("{k:?}").to_lowercase()),
            };
            format!("{} = {what}", r(dst))
        }
        Instr::SyncWarp { mask } => format!("syncwarp {}", o(mask, Ty::U32)),
        Instr::Fence => "threadfence".into(),
        Instr::CheckBounds { dst, index, len, .. } => format!("{} = checkbounds {} < {len}", r(dst), o(index, Ty::U32)),
        Instr::CheckAlign { addr, align, bytes, write } => format!(
            "checkalign {} {}, {bytes} bytes, aligned {align}",
            if *write { "write" } else { "read" },
            o(addr, Ty::Ptr)
        ),
        Instr::Shfl { kind, ty, dst, mask, value, lane, width } => format!(
            "{} = shfl.{}.{} {}, {}, {}, width {}",
            r(dst),
            format!("{kind:?}").to_lowercase(),
            ty.name(),
            o(mask, Ty::U32),
            o(value, *ty),
            o(lane, Ty::I32),
            o(width, Ty::I32)
        ),
        Instr::Vote { kind, dst, mask, pred } => {
            format!(
                "{} = vote.{} {}, {}",
                r(dst),
                format!("{kind:?}").to_lowercase(),
                o(mask, Ty::U32),
                o(pred, Ty::Bool)
            )
        }
        Instr::ActiveMask { dst } => format!("{} = activemask", r(dst)),
        Instr::Math { func, ty, dst, a, b } => {
            if func.arity() == 2 {
                format!(
                    "{} = {}.{} {}, {}",
                    r(dst),
                    format!("{func:?}").to_lowercase(),
                    ty.name(),
                    o(a, *ty),
                    o(b, *ty)
                )
            } else {
                format!("{} = {}.{} {}", r(dst), format!("{func:?}").to_lowercase(), ty.name(), o(a, *ty))
            }
        }
        Instr::Curand { f, out, ty, dst, args } => {
            let a: Vec<String> = args.iter().map(|x| o(x, Ty::U64)).collect();
            format!("{} = curand.{f:?}.{out}.{} {}", r(dst), ty.name(), a.join(", "))
        }
        Instr::Texture { dim, out, ty, dst, args } => {
            let a: Vec<String> = args.iter().map(|x| o(x, Ty::U64)).collect();
            format!("{} = {}.{out}.{} {}", r(dst), dim.name(), ty.name(), a.join(", "))
        }
        Instr::Assert { cond, text } => format!("assert {} ({:?})", o(cond, Ty::Bool), k.strings[*text as usize]),
        Instr::Printf { fmt, args } => {
            let a: Vec<String> = args.iter().map(|(x, t)| o(x, *t)).collect();
            format!("printf {:?}{}{}", k.strings[*fmt as usize], if a.is_empty() { "" } else { ", " }, a.join(", "))
        }
        Instr::Launch { kernel, config, args } => {
            let c: Vec<String> = config.iter().map(|x| o(x, Ty::U32)).collect();
            let a: Vec<String> = args.iter().map(|x| o(x, Ty::U64)).collect();
            format!("launch {}<<<{}>>>({})", k.strings[*kernel as usize], c.join(", "), a.join(", "))
        }
        Instr::Exit => "exit".into(),
        Instr::Jump { .. } | Instr::Branch { .. } => unreachable!("printed by the caller"),
    }
}
