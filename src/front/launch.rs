//! A kernel launch as the directives and command-line flags describe it: grid, block, arguments, seed, mode.
//! Pure data plus the deterministic generator for `rand()` initialisers; the front end fills it in.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::front::types::Scalar;

mod fill;

/// A CUDA `dim3`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Dim3 {
    pub x: u32,
    pub y: u32,
    pub z: u32,
}

impl Dim3 {
    pub const ONE: Dim3 = Dim3 { x: 1, y: 1, z: 1 };

    pub fn new(x: u32, y: u32, z: u32) -> Self {
        Dim3 { x, y, z }
    }

    /// Number of elements (threads in a block, blocks in a grid).
    pub fn count(self) -> u64 {
        self.x as u64 * self.y as u64 * self.z as u64
    }

    pub fn as_array(self) -> [u32; 3] {
        [self.x, self.y, self.z]
    }

    /// This index's linear position in a grid (or block) of shape `of`, x fastest: a block's `linear`.
    pub fn linear_in(self, of: Dim3) -> u64 {
        self.x as u64 + of.x as u64 * (self.y as u64 + of.y as u64 * self.z as u64)
    }
}

impl fmt::Display for Dim3 {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "({},{},{})", self.x, self.y, self.z)
    }
}

/// The execution model that schedules a warp's threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
pub enum Mode {
    /// Independent thread scheduling (Volta and later): the default, as on every GPU since 2017.
    #[default]
    #[serde(rename = "its")]
    Its,
    /// One PC per warp and a SIMT reconvergence stack (Pascal and earlier).
    #[serde(rename = "pre-volta")]
    PreVolta,
}

impl Mode {
    pub fn name(self) -> &'static str {
        match self {
            Mode::Its => "its",
            Mode::PreVolta => "pre-volta",
        }
    }

    pub fn parse(s: &str) -> Option<Mode> {
        match s.trim().to_ascii_lowercase().as_str() {
            "its" | "volta" => Some(Mode::Its),
            "pre-volta" | "prevolta" | "pre_volta" | "simt-stack" => Some(Mode::PreVolta),
            _ => None,
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A compile-time value of a directive expression.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    Int(i64),
    Float(f64),
}

impl Value {
    pub fn as_f64(self) -> f64 {
        match self {
            Value::Int(i) => i as f64,
            Value::Float(f) => f,
        }
    }

    pub fn as_i64(self) -> i64 {
        match self {
            Value::Int(i) => i,
            Value::Float(f) => f as i64,
        }
    }

    /// The value converted to `s`, as raw register bits (C conversion rules, integers wrap).
    pub fn to_bits(self, s: Scalar) -> u64 {
        match s {
            Scalar::Bool => match self {
                Value::Int(i) => (i != 0) as u64,
                Value::Float(f) => (f != 0.0) as u64,
            },
            Scalar::I8 | Scalar::U8 => self.as_i64() as u8 as u64,
            Scalar::I16 | Scalar::U16 => self.as_i64() as u16 as u64,
            Scalar::I32 | Scalar::U32 => self.as_i64() as u32 as u64,
            Scalar::I64 => self.as_i64() as u64,
            Scalar::U64 => match self {
                Value::Int(i) => i as u64,
                Value::Float(f) => f as u64,
            },
            Scalar::F16 => crate::front::half::from_f64(self.as_f64()) as u64,
            Scalar::F32 => (self.as_f64() as f32).to_bits() as u64,
            Scalar::F64 => self.as_f64().to_bits(),
        }
    }
}

/// Operators of initialiser expressions (C integer syntax plus floats).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InitOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    Shr,
    And,
    Or,
    Xor,
}

/// An `@arg` initialiser, evaluated per element: constants, the element index `i`, `rand(lo, hi)`.
#[derive(Clone, Debug, PartialEq)]
pub enum InitExpr {
    Const(Value),
    Index,
    Neg(Box<InitExpr>),
    BitNot(Box<InitExpr>),
    Binary {
        op: InitOp,
        left: Box<InitExpr>,
        right: Box<InitExpr>,
    },
    Rand(Box<InitExpr>, Box<InitExpr>),
    /// Element `i` is the `i`-th value, past the end 0: a `__constant__` or `__device__` array's initialiser.
    List(Vec<Value>),
    /// One initialiser per field of a struct or vector array (`float4[n] = {i, 0, 1, rand(0, 9)}`): flat
    /// element `k` is field `k % len` of struct `k / len`, and that field's `i` is the struct's index.
    Fields(Vec<InitExpr>),
    /// The bytes of an array of structs whose fields differ in type: flat element `k` is byte `k % size` of
    /// struct `k / size`, taken from the value of the field that covers it (offset, type, initialiser; `i` is
    /// the struct's index); padding is 0.
    Bytes {
        size: u32,
        fields: Vec<(u32, Scalar, InitExpr)>,
    },
}

impl InitExpr {
    /// Evaluates for element `i` of the argument numbered `stream` (so two arrays get different numbers).
    /// Integer division by zero yields 0 here; the directive checker rejects it where it can see it.
    pub fn eval(&self, i: u64, seed: u64, stream: u64) -> Value {
        match self {
            InitExpr::Const(v) => *v,
            InitExpr::List(values) => values.get(i as usize).copied().unwrap_or(Value::Int(0)),
            InitExpr::Bytes { size, fields } => {
                let (s, b) = (i / (*size).max(1) as u64, (i % (*size).max(1) as u64) as u32);
                let Some((f, &(off, ty, ref e))) =
                    fields.iter().enumerate().find(|(_, (off, ty, _))| b >= *off && b < off + ty.size())
                else {
                    return Value::Int(0);
                };
                let stream = stream.wrapping_mul(1 << 16).wrapping_add(f as u64 + 1);
                let bits = match e.eval(s, seed, stream) {
                    Value::Int(x) => Scalar::I64.convert_bits(ty, x as u64),
                    Value::Float(x) => Scalar::F64.convert_bits(ty, x.to_bits()),
                };
                Value::Int(((bits >> (8 * (b - off))) & 0xFF) as i64)
            }
            InitExpr::Fields(fields) => {
                let n = fields.len().max(1) as u64;
                let f = (i % n) as usize;
                // Each field draws its own random numbers.
                let stream = stream.wrapping_mul(1 << 16).wrapping_add(f as u64 + 1);
                fields.get(f).map_or(Value::Int(0), |e| e.eval(i / n, seed, stream))
            }
            InitExpr::Index => Value::Int(i as i64),
            InitExpr::Neg(a) => match a.eval(i, seed, stream) {
                Value::Int(x) => Value::Int(x.wrapping_neg()),
                Value::Float(x) => Value::Float(-x),
            },
            InitExpr::BitNot(a) => Value::Int(!a.eval(i, seed, stream).as_i64()),
            InitExpr::Binary { op, left: a, right: b } => binary(*op, a.eval(i, seed, stream), b.eval(i, seed, stream)),
            InitExpr::Rand(lo, hi) => {
                let r = random_u64(seed, stream, i);
                match (lo.eval(i, seed, stream), hi.eval(i, seed, stream)) {
                    (Value::Int(lo), Value::Int(hi)) if hi >= lo => {
                        // The span in 128 bits: the full i64 range has 2^64 values, one more than u64 can
                        // count. Any smaller span takes a 64-bit remainder (the same number, much faster).
                        let span = (hi as i128 - lo as i128 + 1) as u128;
                        let off = match u64::try_from(span) {
                            Ok(s) => (r % s) as i128,
                            Err(_) => r as i128,
                        };
                        Value::Int((lo as i128 + off) as i64)
                    }
                    (Value::Int(lo), Value::Int(_)) => Value::Int(lo),
                    (lo, hi) => {
                        let unit = (r >> 11) as f64 / (1u64 << 53) as f64;
                        Value::Float(lo.as_f64() + unit * (hi.as_f64() - lo.as_f64()))
                    }
                }
            }
        }
    }

    /// True when the value is the same for every element (no `i`, no `rand`).
    pub fn is_uniform(&self) -> bool {
        match self {
            InitExpr::Const(_) => true,
            InitExpr::Index | InitExpr::Rand(..) => false,
            InitExpr::List(values) => values.is_empty(),
            InitExpr::Fields(_) | InitExpr::Bytes { .. } => false,
            InitExpr::Neg(a) | InitExpr::BitNot(a) => a.is_uniform(),
            InitExpr::Binary { left: a, right: b, .. } => a.is_uniform() && b.is_uniform(),
        }
    }
}

/// Applies a binary operator with C-like promotion: float if either side is float.
pub fn binary(op: InitOp, a: Value, b: Value) -> Value {
    match (a, b) {
        (Value::Int(x), Value::Int(y)) => Value::Int(match op {
            InitOp::Add => x.wrapping_add(y),
            InitOp::Sub => x.wrapping_sub(y),
            InitOp::Mul => x.wrapping_mul(y),
            InitOp::Div => x.checked_div(y).unwrap_or(0),
            InitOp::Rem => x.checked_rem(y).unwrap_or(0),
            InitOp::Shl => x.checked_shl(y.clamp(0, 63) as u32).unwrap_or(0),
            InitOp::Shr => x >> y.clamp(0, 63),
            InitOp::And => x & y,
            InitOp::Or => x | y,
            InitOp::Xor => x ^ y,
        }),
        (a, b) => {
            let (x, y) = (a.as_f64(), b.as_f64());
            match op {
                InitOp::Add => Value::Float(x + y),
                InitOp::Sub => Value::Float(x - y),
                InitOp::Mul => Value::Float(x * y),
                InitOp::Div => Value::Float(x / y),
                InitOp::Rem => Value::Float(x % y),
                // Bit operations on floats are rejected by the checker; truncate if one slips through.
                _ => binary(op, Value::Int(x as i64), Value::Int(y as i64)),
            }
        }
    }
}

/// SplitMix64 over (seed, stream, index): counter-based, so any element can be generated on its own and the
/// numbers never depend on evaluation order. Fixed here (not a crate's generator) because recorded sessions
/// and course autograders depend on the exact values.
pub fn random_u64(seed: u64, stream: u64, index: u64) -> u64 {
    let mut z = seed
        .wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(stream.wrapping_mul(0xD1B5_4A32_D192_ED03))
        .wrapping_add(index.wrapping_mul(0x8CB9_2BA7_2F3D_8DD7))
        .wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A kernel argument's value.
#[derive(Clone, Debug, PartialEq)]
pub enum ArgValue {
    /// Raw bits of the parameter's type.
    Scalar { ty: Scalar, bits: u64 },
    /// A device array: element type, length, and the initialiser of each element.
    Array { elem: Scalar, len: u64, init: InitExpr },
}

/// One argument, in parameter order.
#[derive(Clone, Debug, PartialEq)]
pub struct LaunchArg {
    pub name: String,
    pub value: ArgValue,
    /// A file-scope `__device__` or `__constant__` variable, passed to the kernel as a hidden last argument
    /// (its address), not one of the kernel's parameters.
    pub global: bool,
}

/// Everything needed to start the kernel.
#[derive(Clone, Debug, PartialEq)]
pub struct Launch {
    pub kernel: String,
    pub grid: Dim3,
    pub block: Dim3,
    pub args: Vec<LaunchArg>,
    pub seed: u64,
    pub mode: Mode,
    /// Bytes of dynamic shared memory per block (`extern __shared__`; `// @shared`, `--shared`).
    pub dynamic_shared: u32,
    /// `@symbol` / `--symbol` contents of `__constant__` and `__device__` variables, replacing their
    /// initialisers.
    pub symbols: Vec<(String, InitExpr)>,
}

impl Launch {
    /// `blockIdx` of the block with linear index `linear` (x fastest).
    pub fn block_idx(&self, linear: u64) -> Dim3 {
        let g = self.grid;
        Dim3::new(
            (linear % g.x as u64) as u32,
            ((linear / g.x as u64) % g.y as u64) as u32,
            (linear / (g.x as u64 * g.y as u64)) as u32,
        )
    }

    /// `threadIdx` of the thread with linear index `tid` in its block (x fastest).
    pub fn thread_idx(&self, tid: u32) -> Dim3 {
        let b = self.block;
        Dim3::new(tid % b.x, (tid / b.x) % b.y, tid / (b.x * b.y))
    }

    /// Bytes of global memory the arrays need.
    pub fn global_bytes(&self) -> u64 {
        self.args
            .iter()
            .map(|a| match &a.value {
                ArgValue::Array { elem, len, .. } => len.saturating_mul(elem.size() as u64),
                ArgValue::Scalar { .. } => 0,
            })
            .fold(0u64, u64::saturating_add)
    }

    pub fn warps_per_block(&self) -> u64 {
        self.block.count().div_ceil(32)
    }
}

/// Command-line overrides of the directives (`--grid 7,5 --arg n=10 ...`), as raw text.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Overrides {
    pub kernel: Option<String>,
    pub grid: Option<String>,
    pub block: Option<String>,
    pub args: Vec<String>,
    pub seed: Option<String>,
    pub mode: Option<Mode>,
    /// Dynamic shared memory bytes (`--shared`).
    pub shared: Option<String>,
    /// `NAME=INIT` contents of `__constant__`/`__device__` variables (`--symbol`, replacing `// @symbol`).
    pub symbols: Vec<String>,
    /// Folders `#include "..."` also searches, after the including file's own (`-I`).
    pub include_dirs: Vec<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rand_over_the_full_i64_range_does_not_overflow() {
        let e = InitExpr::Rand(
            Box::new(InitExpr::Const(Value::Int(i64::MIN))),
            Box::new(InitExpr::Const(Value::Int(i64::MAX))),
        );
        for i in 0..100 {
            assert!(matches!(e.eval(i, 7, 0), Value::Int(_)));
        }
        let small =
            InitExpr::Rand(Box::new(InitExpr::Const(Value::Int(0))), Box::new(InitExpr::Const(Value::Int(255))));
        assert!((0..1000).all(|i| matches!(small.eval(i, 1, 2), Value::Int(v) if (0..=255).contains(&v))));
    }
}
