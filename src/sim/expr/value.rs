//! What an expression evaluates to: a number of a C type, a pointer, an object in memory (an array, a
//! struct, an element not read yet), a `dim3` built-in, or a struct variable held in registers.

use crate::front::types::{Scalar, Type};
use crate::ir::Ty;
use crate::sim::{Machine, alu, inspect};

/// A value, as C sees it.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    /// A number: its type and its bits (as the machine holds them).
    Scalar(Scalar, u64),
    /// An address and the type it points to.
    Pointer { addr: u64, to: Type },
    /// An object in memory, not read yet (an lvalue): `tile`, `in[3]`, `*p`, `s.field`.
    Place { addr: u64, ty: Type },
    /// `threadIdx`, `blockIdx`, `blockDim`, `gridDim`.
    Dim3([u32; 3]),
    /// A struct variable, which lives in registers one field each (`v.x`, `v.y`): its fields in order.
    Fields(Vec<(String, Value)>),
}

/// Elements of an array shown before "...".
const SHOWN_ELEMENTS: u64 = 8;

impl Value {
    pub fn int(v: i64) -> Value {
        Value::Scalar(Scalar::I32, v as i32 as u32 as u64)
    }

    pub fn boolean(b: bool) -> Value {
        Value::int(b as i64)
    }

    /// The value of a register of declared type `ty` (None for a temporary: its machine type).
    pub fn of_register(bits: u64, source: Option<&Type>, machine_ty: Ty, address_of: bool) -> Value {
        match source {
            Some(t) if address_of => Value::Place { addr: bits, ty: t.clone() },
            Some(Type::Scalar(s)) => Value::Scalar(*s, bits),
            Some(Type::Ptr { elem, .. }) => Value::Pointer { addr: bits, to: (**elem).clone() },
            Some(t @ (Type::Array(..) | Type::Struct(_))) => Value::Place { addr: bits, ty: t.clone() },
            _ => match machine_ty.scalar() {
                Some(s) => Value::Scalar(s, bits),
                None => Value::Pointer { addr: bits, to: Type::Void },
            },
        }
    }

    /// The value as an rvalue: a scalar or pointer in memory is read, an array decays to a pointer to its
    /// first element; structs stay where they are.
    pub fn load(self, m: &Machine, slot: usize) -> Result<Value, String> {
        let Value::Place { addr, ty } = self else { return Ok(self) };
        match ty {
            Type::Scalar(s) => Ok(Value::Scalar(s, read(m, slot, addr, s.size())?)),
            Type::Ptr { elem, .. } => Ok(Value::Pointer { addr: read(m, slot, addr, 8)?, to: *elem }),
            Type::Array(elem, _) => Ok(Value::Pointer { addr, to: *elem }),
            ty => Ok(Value::Place { addr, ty }),
        }
    }

    /// How the debugger shows it: numbers as the detail pane does, pointers with what they point into,
    /// arrays by their first elements, structs field by field.
    pub fn display(&self, m: &Machine, slot: usize) -> String {
        match self {
            Value::Scalar(s, bits) => alu::display(Ty::from(*s), *bits),
            Value::Pointer { addr, .. } => match m.global.describe(*addr).or_else(|| shared_element(m, *addr)) {
                Some((name, i)) => format!("{addr:#x} (&{name}[{i}])"),
                None if *addr == 0 => "NULL".to_string(),
                None => format!("{addr:#x}"),
            },
            Value::Dim3([x, y, z]) => format!("({x},{y},{z})"),
            Value::Fields(fields) => {
                let parts: Vec<String> = fields.iter().map(|(n, v)| format!("{n}={}", v.display(m, slot))).collect();
                format!("{{{}}}", parts.join(", "))
            }
            Value::Place { addr, ty: Type::Array(elem, len) } => {
                let size = elem.size() as u64;
                let shown = (*len as u64).min(SHOWN_ELEMENTS);
                let mut parts = vec![];
                for i in 0..shown {
                    let v = Value::Place { addr: addr + i * size, ty: (**elem).clone() };
                    // Rows of a 2-D array are shown as rows, not as the pointers they decay to.
                    if matches!(**elem, Type::Array(..) | Type::Struct(_)) {
                        parts.push(v.display(m, slot));
                        continue;
                    }
                    match v.load(m, slot) {
                        Ok(v) => parts.push(v.display(m, slot)),
                        Err(e) => return format!("<{e}>"),
                    }
                }
                let more = if (*len as u64) > shown { format!(", ... ({len} elements)") } else { String::new() };
                format!("[{}{more}]", parts.join(", "))
            }
            Value::Place { addr, ty: Type::Struct(def) } => {
                let parts: Vec<String> = def
                    .fields
                    .iter()
                    .map(|f| {
                        let v = Value::Place { addr: addr + f.offset as u64, ty: f.ty.clone() };
                        let shown = v.load(m, slot).map(|v| v.display(m, slot));
                        format!("{}={}", f.name, shown.unwrap_or_else(|e| format!("<{e}>")))
                    })
                    .collect();
                format!("{{{}}}", parts.join(", "))
            }
            Value::Place { .. } => match self.clone().load(m, slot) {
                Ok(v @ (Value::Scalar(..) | Value::Pointer { .. })) => v.display(m, slot),
                Ok(_) => "?".to_string(),
                Err(e) => format!("<{e}>"),
            },
        }
    }

    /// The value in a JSON report: a number where it is one (finite), else the text the debugger shows.
    pub fn to_json(&self, m: &Machine, slot: usize) -> serde_json::Value {
        let loaded = self.clone().load(m, slot).unwrap_or_else(|_| self.clone());
        match loaded {
            Value::Scalar(Scalar::Bool, bits) => serde_json::Value::Bool(bits & 1 != 0),
            Value::Scalar(s, bits) if s.is_float() => {
                let v = f64::from_bits(s.convert_bits(Scalar::F64, bits));
                serde_json::Number::from_f64(v).map_or_else(|| serde_json::Value::String(format!("{v}")), Into::into)
            }
            Value::Scalar(s, bits) if s.is_signed() => Ty::from(s).int_value(bits).into(),
            Value::Scalar(_, bits) => bits.into(),
            v => serde_json::Value::String(v.display(m, slot)),
        }
    }

    /// A number for a colour scale (None for what is not a number).
    pub fn number(&self) -> Option<f64> {
        match *self {
            Value::Scalar(Scalar::F32, bits) => Some(f32::from_bits(bits as u32) as f64),
            Value::Scalar(Scalar::F64, bits) => Some(f64::from_bits(bits)),
            Value::Scalar(Scalar::F16, bits) => Some(crate::front::half::to_f64(bits as u16)),
            Value::Scalar(s, bits) if s.is_signed() => Some(Ty::from(s).int_value(bits) as f64),
            Value::Scalar(_, bits) => Some(bits as f64),
            _ => None,
        }
    }
}

/// The shared array an address falls in and its element there (counting the elements of all rows).
fn shared_element(m: &Machine, addr: u64) -> Option<(&str, u64)> {
    let off = addr.checked_sub(crate::sim::SHARED_BASE)?;
    m.layout.arrays.iter().find_map(|(name, at, bytes, ty)| {
        let at = *at as u64;
        (off >= at && off < at + *bytes as u64).then(|| (name.as_str(), (off - at) / ty.size().max(1) as u64))
    })
}

/// Reads memory as a thread of the block in `slot` does.
fn read(m: &Machine, slot: usize, addr: u64, size: u32) -> Result<u64, String> {
    if addr == 0 {
        return Err("reads through a null pointer".to_string());
    }
    // An index past an array says so by element; other failures name the address.
    inspect::read(m, slot, addr, size)
        .map_err(|e| if e.starts_with("out of bounds:") { e } else { format!("cannot read {addr:#x}: {e}") })
}
