//! The host variables the debugger shows when a program stops at a launch: each variable in scope there
//! (its name, C type and value), read without side effects on the program.

use super::HostVar;
use super::interp::Interp;
use super::memory::AllocKind;
use super::tree::ScopeVar;
use crate::front::types::Type;
use crate::ir::Ty;

/// Elements of an array shown before `...`.
const SHOWN_ELEMENTS: u64 = 8;

impl Interp<'_> {
    /// The values of `scope`'s variables in the frame whose slots are `slots`.
    pub(super) fn host_vars(&mut self, scope: &[ScopeVar], slots: &[u64]) -> Vec<HostVar> {
        scope
            .iter()
            .map(|v| {
                let value = match v.constant {
                    Some(bits) => self.show_value(&v.ty, bits),
                    None => {
                        let slot = slots.get(v.slot as usize).copied().unwrap_or(0);
                        if v.in_memory { self.show_in_memory(&v.ty, slot) } else { self.show_value(&v.ty, slot) }
                    }
                };
                HostVar { name: v.name.clone(), ty: v.ty.to_string(), value }
            })
            .collect()
    }

    /// A register value of type `ty`.
    fn show_value(&mut self, ty: &Type, bits: u64) -> String {
        match ty {
            Type::Scalar(s) => crate::sim::alu::display(Ty::from(*s), bits),
            Type::Ptr { .. } => self.show_pointer(bits),
            _ => format!("{bits:#x}"),
        }
    }

    /// What a pointer points into: null, a host allocation (`h_a[3]`) or a device one (`device d_a[0]`).
    fn show_pointer(&mut self, addr: u64) -> String {
        if addr == 0 {
            return "NULL".into();
        }
        let plus = |off: u64| if off == 0 { String::new() } else { format!(" + {off}") };
        if let Some(a) = self.mem.allocs.iter().find(|a| addr >= a.base && addr < a.base + a.size.max(1)) {
            let freed = if a.freed.is_some() { ", freed" } else { "" };
            let what = match a.kind {
                AllocKind::Heap => format!("heap, line {}", a.line),
                AllocKind::Stack => format!("stack `{}`", a.name),
                AllocKind::Literal => "a string literal".to_string(),
                AllocKind::Pinned => format!("pinned, line {}", a.line),
                AllocKind::Managed => format!("managed, line {}", a.line),
            };
            return format!("{addr:#x} ({what}{}{freed})", plus(addr - a.base));
        }
        match self.dev.owner(addr) {
            Some(d) => format!("{addr:#x} (device, line {}{})", d.line, plus(addr - d.base)),
            None => format!("{addr:#x}"),
        }
    }

    /// A variable kept in host memory at `addr`.
    fn show_in_memory(&mut self, ty: &Type, addr: u64) -> String {
        match ty {
            Type::Scalar(s) => match self.mem.load(addr, s.size()) {
                Ok(bits) => crate::sim::alu::display(Ty::from(*s), bits),
                Err(_) => "?".into(),
            },
            Type::Ptr { .. } => match self.mem.load(addr, 8) {
                Ok(bits) => self.show_pointer(bits),
                Err(_) => "?".into(),
            },
            Type::Array(elem, n) => {
                let mut parts = vec![];
                for i in 0..(*n as u64).min(SHOWN_ELEMENTS) {
                    parts.push(self.show_in_memory(elem, addr + i * elem.size() as u64));
                }
                if *n as u64 > SHOWN_ELEMENTS {
                    parts.push("...".into());
                }
                format!("{{{}}}", parts.join(", "))
            }
            Type::Struct(def) => {
                let mut parts = vec![];
                for f in def.fields.iter().take(SHOWN_ELEMENTS as usize) {
                    parts.push(self.show_in_memory(&f.ty, addr + f.offset as u64));
                }
                format!("{{{}}}", parts.join(", "))
            }
            _ => "?".into(),
        }
    }
}
