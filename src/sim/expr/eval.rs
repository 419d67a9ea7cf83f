//! Evaluating an expression in one thread: its variables in scope at its next instruction, its block's
//! shared memory, global memory, the built-ins. Read-only: nothing in the machine changes.

use super::value::Value;
use crate::front::ast::{BinaryOp, Expr, ExprKind as E, TypeSpec, UnaryOp};
use crate::front::tast::{ArithOp, CmpOp};
use crate::front::types::{Scalar, Type};
use crate::ir::{Pc, Ty};
use crate::sim::{Machine, alu};

/// The thread an expression is evaluated in: the block's slot among the resident blocks, and the thread's
/// index within the block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Thread {
    pub slot: usize,
    pub tid: u32,
}

/// What one evaluation reads.
pub(super) struct Ctx<'a> {
    pub m: &'a Machine,
    pub thread: Thread,
    /// The thread's next instruction (its variables in scope there); None once it exited.
    pub pc: Option<Pc>,
}

type Evaluated = Result<Value, String>;

impl Ctx<'_> {
    pub fn eval(&self, e: &Expr) -> Evaluated {
        match &e.kind {
            E::Int { value, unsigned, long, .. } => {
                let s = match (*long || *value > i32::MAX as u64 && !*unsigned, *unsigned || *value > i64::MAX as u64) {
                    (false, false) => Scalar::I32,
                    (false, true) if *value <= u32::MAX as u64 => Scalar::U32,
                    (_, true) => Scalar::U64,
                    (true, false) => Scalar::I64,
                };
                Ok(Value::Scalar(s, *value))
            }
            E::Float { value, single: true } => Ok(Value::Scalar(Scalar::F32, (*value as f32).to_bits() as u64)),
            E::Float { value, single: false } => Ok(Value::Scalar(Scalar::F64, value.to_bits())),
            E::Bool(b) => Ok(Value::Scalar(Scalar::Bool, *b as u64)),
            E::Char(c) => Ok(Value::int(*c as i64)),
            E::Name(n) => self.name(n),
            E::Member(obj, field) => self.member(obj, &field.name),
            E::Index(base, index) => {
                let (base, index) = (self.rvalue(base)?, self.rvalue(index)?);
                let (addr, to, i) = match (base, index) {
                    (Value::Pointer { addr, to }, Value::Scalar(s, bits))
                    | (Value::Scalar(s, bits), Value::Pointer { addr, to })
                        if !s.is_float() =>
                    {
                        (addr, to, Ty::from(s).int_value(bits))
                    }
                    _ => return Err("`[]` needs an array or pointer and an integer index".to_string()),
                };
                let size = element_size(&to)?;
                Ok(Value::Place { addr: addr.wrapping_add((i as u64).wrapping_mul(size)), ty: to })
            }
            E::Unary(op, a) => self.unary(*op, a),
            E::Binary { op: BinaryOp::LogAnd, left, right } => {
                Ok(Value::boolean(truth(&self.rvalue(left)?)? && truth(&self.rvalue(right)?)?))
            }
            E::Binary { op: BinaryOp::LogOr, left, right } => {
                Ok(Value::boolean(truth(&self.rvalue(left)?)? || truth(&self.rvalue(right)?)?))
            }
            E::Binary { op, left, right } => binary(*op, self.rvalue(left)?, self.rvalue(right)?),
            E::Ternary { cond, then, els } => {
                if truth(&self.rvalue(cond)?)? {
                    self.rvalue(then)
                } else {
                    self.rvalue(els)
                }
            }
            E::Cast(ts, a) => cast(&spec_type(ts)?, self.rvalue(a)?),
            E::SizeofType(ts) => Ok(Value::Scalar(Scalar::U64, spec_type(ts)?.size() as u64)),
            E::SizeofExpr(a) => Ok(Value::Scalar(Scalar::U64, size_of(&self.eval(a)?)? as u64)),
            _ => Err("the debugger does not evaluate this".to_string()),
        }
    }

    /// The value read: a scalar or pointer in memory is loaded, an array decays to a pointer.
    fn rvalue(&self, e: &Expr) -> Evaluated {
        self.eval(e)?.load(self.m, self.thread.slot)
    }

    fn block(&self) -> Result<&crate::sim::BlockState, String> {
        self.m.blocks.get(self.thread.slot).ok_or_else(|| "the block is no longer resident".to_string())
    }

    fn name(&self, n: &str) -> Evaluated {
        let k = &self.m.kernel;
        let b = self.block()?;
        let tid = self.thread.tid;
        let launch = &self.m.launch;
        match n {
            "threadIdx" => {
                let t = b.thread_idx(tid, launch.block);
                return Ok(Value::Dim3([t.x, t.y, t.z]));
            }
            "blockIdx" => return Ok(Value::Dim3([b.idx.x, b.idx.y, b.idx.z])),
            "blockDim" => return Ok(Value::Dim3([launch.block.x, launch.block.y, launch.block.z])),
            "gridDim" => return Ok(Value::Dim3([launch.grid.x, launch.grid.y, launch.grid.z])),
            "warpSize" => return Ok(Value::int(32)),
            _ => {}
        }
        if let Some(pc) = self.pc {
            let vars = k.variables_at(pc);
            if let Some(&(r, _)) = vars.iter().find(|(_, name)| *name == n) {
                let info = &k.regs[r as usize];
                return Ok(Value::of_register(b.reg(r, tid), info.source.as_ref(), info.ty, info.address_of));
            }
            // A struct variable: one register per field, named `v.x`.
            let prefix = format!("{n}.");
            let fields: Vec<(String, Value)> = vars
                .iter()
                .filter_map(|&(r, name)| {
                    let field = name.strip_prefix(&prefix)?;
                    let info = &k.regs[r as usize];
                    Some((field.to_string(), Value::of_register(b.reg(r, tid), info.source.as_ref(), info.ty, false)))
                })
                .collect();
            if !fields.is_empty() {
                return Ok(Value::Fields(fields));
            }
        }
        if let Some(i) = k.shared.iter().position(|s| s.name == n) {
            return Ok(Value::Place { addr: self.m.layout.address(i as u32), ty: k.shared[i].ty.clone() });
        }
        match self.pc {
            None => Err(format!("`{n}`: the thread has exited")),
            Some(pc) => Err(format!("`{n}` is not in scope at line {}", k.line(pc))),
        }
    }

    fn member(&self, obj: &Expr, field: &str) -> Evaluated {
        // `v.x` of a struct variable names its own register.
        if let Some(path) = dotted(obj) {
            let full = format!("{path}.{field}");
            if let Ok(v) = self.name(&full) {
                return Ok(v);
            }
        }
        match self.eval(obj)? {
            Value::Dim3(d) => match field {
                "x" => Ok(Value::Scalar(Scalar::U32, d[0] as u64)),
                "y" => Ok(Value::Scalar(Scalar::U32, d[1] as u64)),
                "z" => Ok(Value::Scalar(Scalar::U32, d[2] as u64)),
                _ => Err(format!("a dim3 has fields x, y and z, not `{field}`")),
            },
            Value::Fields(fields) => fields
                .into_iter()
                .find(|(n, _)| n == field)
                .map(|(_, v)| v)
                .ok_or_else(|| format!("no field `{field}`")),
            Value::Place { addr, ty: Type::Struct(def) } => def
                .fields
                .iter()
                .find(|f| f.name == field)
                .map(|f| Value::Place { addr: addr + f.offset as u64, ty: f.ty.clone() })
                .ok_or_else(|| format!("`{}` has no field `{field}`", def.name)),
            _ => Err(format!("`.{field}` needs a struct")),
        }
    }

    fn unary(&self, op: UnaryOp, a: &Expr) -> Evaluated {
        match op {
            UnaryOp::AddrOf => match self.eval(a)? {
                Value::Place { addr, ty } => Ok(Value::Pointer { addr, to: ty }),
                _ => Err("`&` needs a variable in memory (registers have no address)".to_string()),
            },
            UnaryOp::Deref => match self.rvalue(a)? {
                Value::Pointer { addr, to } => Ok(Value::Place { addr, ty: to }),
                _ => Err("`*` needs a pointer".to_string()),
            },
            UnaryOp::Not => Ok(Value::boolean(!truth(&self.rvalue(a)?)?)),
            UnaryOp::Plus | UnaryOp::Neg | UnaryOp::BitNot => {
                let Value::Scalar(s, bits) = self.rvalue(a)? else {
                    return Err("this operator needs a number".to_string());
                };
                if op == UnaryOp::BitNot && s.is_float() {
                    return Err("`~` needs an integer".to_string());
                }
                let p = s.promote();
                let bits = alu::convert(Ty::from(s), Ty::from(p), bits);
                Ok(Value::Scalar(
                    p,
                    match op {
                        UnaryOp::Plus => bits,
                        UnaryOp::Neg => alu::unary(crate::front::tast::UnOp::Neg, Ty::from(p), bits),
                        _ => alu::unary(crate::front::tast::UnOp::BitNot, Ty::from(p), bits),
                    },
                ))
            }
        }
    }
}

/// `a.b.c` of plain names, as one dotted path.
fn dotted(e: &Expr) -> Option<String> {
    match &e.kind {
        E::Name(n) => Some(n.clone()),
        E::Member(obj, f) => Some(format!("{}.{}", dotted(obj)?, f.name)),
        _ => None,
    }
}

fn element_size(t: &Type) -> Result<u64, String> {
    match t.size() {
        0 => Err(format!("cannot index a pointer to `{t}`")),
        n => Ok(n as u64),
    }
}

fn size_of(v: &Value) -> Result<u32, String> {
    Ok(match v {
        Value::Scalar(s, _) => s.size(),
        Value::Pointer { .. } => 8,
        Value::Place { ty, .. } => ty.size(),
        Value::Dim3(_) => 12,
        Value::Fields(f) => f.iter().map(|(_, v)| size_of(v)).sum::<Result<u32, String>>()?,
    })
}

/// A condition's truth (C: non-zero is true).
fn truth(v: &Value) -> Result<bool, String> {
    match *v {
        Value::Scalar(s, bits) => Ok(alu::convert(Ty::from(s), Ty::Bool, bits) != 0),
        Value::Pointer { addr, .. } => Ok(addr != 0),
        _ => Err("a condition needs a number or a pointer".to_string()),
    }
}

/// The type a cast or `sizeof` names (CUDA's scalar types and pointers to them).
fn spec_type(ts: &TypeSpec) -> Result<Type, String> {
    if ts.named.is_some() || ts.func.is_some() {
        return Err("the debugger casts to scalar types and pointers to them".to_string());
    }
    let mut t = Type::from_base(ts.base);
    for _ in 0..ts.pointers {
        t = Type::ptr(t, ts.is_const);
    }
    Ok(t)
}

fn cast(to: &Type, v: Value) -> Evaluated {
    match (to, v) {
        (Type::Scalar(t), Value::Scalar(s, bits)) => {
            Ok(Value::Scalar(*t, alu::convert(Ty::from(s), Ty::from(*t), bits)))
        }
        (Type::Scalar(t), Value::Pointer { addr, .. }) if !t.is_float() => {
            Ok(Value::Scalar(*t, alu::convert(Ty::U64, Ty::from(*t), addr)))
        }
        (Type::Ptr { elem, .. }, Value::Pointer { addr, .. }) => Ok(Value::Pointer { addr, to: (**elem).clone() }),
        (Type::Ptr { elem, .. }, Value::Scalar(s, bits)) if !s.is_float() => {
            Ok(Value::Pointer { addr: alu::convert(Ty::from(s), Ty::U64, bits), to: (**elem).clone() })
        }
        (to, _) => Err(format!("cannot cast this to `{to}`")),
    }
}

/// `a op b` with C's conversions; pointer arithmetic and comparisons on addresses.
fn binary(op: BinaryOp, a: Value, b: Value) -> Evaluated {
    use BinaryOp as B;
    match (a, b) {
        (Value::Scalar(sa, x), Value::Scalar(sb, y)) => {
            let shift = matches!(op, B::Shl | B::Shr);
            // A shift has the type of its promoted left operand; everything else the usual conversions'.
            let t = if shift { sa.promote() } else { Scalar::common(sa, sb) };
            let (tx, ty) = (Ty::from(t), if shift { Ty::from(sb.promote()) } else { Ty::from(t) });
            let (x, y) = (alu::convert(Ty::from(sa), tx, x), alu::convert(Ty::from(sb), ty, y));
            if let Some(c) = CmpOp::from_binary(op) {
                return Ok(Value::boolean(alu::compare(c, tx, x, y)));
            }
            let Some(arith) = ArithOp::from_binary(op) else { return Err("not an arithmetic operator".to_string()) };
            if t.is_float()
                && matches!(
                    arith,
                    ArithOp::Rem | ArithOp::Shl | ArithOp::Shr | ArithOp::And | ArithOp::Or | ArithOp::Xor
                )
            {
                return Err(format!("`{}` needs integers", op.symbol()));
            }
            alu::binary(arith, tx, x, y).map(|bits| Value::Scalar(t, bits)).map_err(|_| "division by zero".to_string())
        }
        (Value::Pointer { addr, to }, Value::Scalar(s, bits))
        | (Value::Scalar(s, bits), Value::Pointer { addr, to })
            if matches!(op, B::Add | B::Sub) && !s.is_float() =>
        {
            let k = Ty::from(s).int_value(bits);
            let step = (k as u64).wrapping_mul(element_size(&to)?);
            let addr = if op == B::Add { addr.wrapping_add(step) } else { addr.wrapping_sub(step) };
            Ok(Value::Pointer { addr, to })
        }
        (Value::Pointer { addr: x, to }, Value::Pointer { addr: y, .. }) => {
            if op == B::Sub {
                let d = (x as i64).wrapping_sub(y as i64) / element_size(&to)? as i64;
                return Ok(Value::Scalar(Scalar::I64, d as u64));
            }
            match CmpOp::from_binary(op) {
                Some(c) => Ok(Value::boolean(alu::compare(c, Ty::U64, x, y))),
                None => Err(format!("`{}` does not apply to two pointers", op.symbol())),
            }
        }
        _ => Err(format!("`{}` needs numbers", op.symbol())),
    }
}
