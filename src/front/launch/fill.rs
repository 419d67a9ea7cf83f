//! Initialisers evaluated a column at a time: a textbook array (16 Mi elements of `rand(0, 255)`) is filled
//! in setup, and `run --json --memory changed` compares every element with it again. Per element,
//! [`InitExpr::eval`] walks the tree and matches on each value's kind; here each node is evaluated once for
//! a run of consecutive elements into a typed column (the kinds are the same for every element), so the
//! loops are straight and the compiler vectorises them. The results are exactly `eval`'s (the tests compare
//! them over every operator, kind and element type).

use super::{InitExpr, InitOp, Scalar, Value, binary, random_u64};

/// Elements per column: small enough that a node's columns stay in the first-level cache.
const RUN: usize = 2048;

/// One node's values for a run of elements.
enum Col {
    /// The same value for every element (no `i`, no `rand` below).
    Same(Value),
    Int(Vec<i64>),
    Float(Vec<f64>),
}

impl Col {
    /// Integer values, as `Value::as_i64` gives them.
    fn ints(self, n: usize) -> Vec<i64> {
        match self {
            Col::Same(v) => vec![v.as_i64(); n],
            Col::Int(v) => v,
            Col::Float(v) => v.into_iter().map(|x| x as i64).collect(),
        }
    }

    /// Float values, as `Value::as_f64` gives them.
    fn floats(self, n: usize) -> Vec<f64> {
        match self {
            Col::Same(v) => vec![v.as_f64(); n],
            Col::Int(v) => v.into_iter().map(|x| x as f64).collect(),
            Col::Float(v) => v,
        }
    }

    fn is_int(&self) -> bool {
        matches!(self, Col::Int(_) | Col::Same(Value::Int(_)))
    }
}

impl InitExpr {
    /// Element `first + k`'s value as raw bits of `elem`, for every `k` of `out`: what
    /// `self.eval(first + k, seed, stream).to_bits(elem)` gives, computed a column at a time where the
    /// initialiser allows (lists, fields and bytes of structs are evaluated element by element).
    pub fn fill_bits(&self, first: u64, seed: u64, stream: u64, elem: Scalar, out: &mut [u64]) {
        for (k, part) in out.chunks_mut(RUN).enumerate() {
            let start = first + (k * RUN) as u64;
            match column(self, start, part.len(), seed, stream) {
                Some(Col::Same(v)) => part.fill(v.to_bits(elem)),
                Some(Col::Int(v)) => part.iter_mut().zip(v).for_each(|(o, x)| *o = Value::Int(x).to_bits(elem)),
                Some(Col::Float(v)) => part.iter_mut().zip(v).for_each(|(o, x)| *o = Value::Float(x).to_bits(elem)),
                None => {
                    for (i, o) in (start..).zip(part.iter_mut()) {
                        *o = self.eval(i, seed, stream).to_bits(elem);
                    }
                }
            }
        }
    }
}

/// `e`'s values for elements `first..first + n`; None where only `eval` knows (lists, fields, bytes).
fn column(e: &InitExpr, first: u64, n: usize, seed: u64, stream: u64) -> Option<Col> {
    Some(match e {
        InitExpr::Const(v) => Col::Same(*v),
        InitExpr::Index => Col::Int((first..first + n as u64).map(|i| i as i64).collect()),
        InitExpr::List(values) if values.is_empty() => Col::Same(Value::Int(0)),
        InitExpr::List(_) | InitExpr::Fields(_) | InitExpr::Bytes { .. } => return None,
        InitExpr::Neg(a) => match column(a, first, n, seed, stream)? {
            Col::Same(v) => Col::Same(match v {
                Value::Int(x) => Value::Int(x.wrapping_neg()),
                Value::Float(x) => Value::Float(-x),
            }),
            Col::Int(v) => Col::Int(v.into_iter().map(i64::wrapping_neg).collect()),
            Col::Float(v) => Col::Float(v.into_iter().map(|x| -x).collect()),
        },
        InitExpr::BitNot(a) => match column(a, first, n, seed, stream)? {
            Col::Same(v) => Col::Same(Value::Int(!v.as_i64())),
            c => Col::Int(c.ints(n).into_iter().map(|x| !x).collect()),
        },
        InitExpr::Binary { op, left, right } => {
            let (a, b) = (column(left, first, n, seed, stream)?, column(right, first, n, seed, stream)?);
            match (a, b) {
                (Col::Same(x), Col::Same(y)) => Col::Same(binary(*op, x, y)),
                (a, b) if a.is_int() && b.is_int() => Col::Int(int_op(*op, &a.ints(n), &b.ints(n))),
                // Bit operations on floats truncate both sides (as `binary` does).
                (a, b) if is_bit_op(*op) => Col::Int(int_op(*op, &truncated(a, n), &truncated(b, n))),
                (a, b) => Col::Float(float_op(*op, &a.floats(n), &b.floats(n))),
            }
        }
        InitExpr::Rand(lo, hi) => {
            rand(column(lo, first, n, seed, stream)?, column(hi, first, n, seed, stream)?, first, n, seed, stream)
        }
    })
}

/// A column's values as floats truncated to integers (what `binary` does to a bit operation's floats).
fn truncated(c: Col, n: usize) -> Vec<i64> {
    c.floats(n).into_iter().map(|x| x as i64).collect()
}

fn is_bit_op(op: InitOp) -> bool {
    matches!(op, InitOp::Shl | InitOp::Shr | InitOp::And | InitOp::Or | InitOp::Xor)
}

/// `binary` on two integer columns, the operator chosen once for the whole loop.
fn int_op(op: InitOp, a: &[i64], b: &[i64]) -> Vec<i64> {
    fn each(a: &[i64], b: &[i64], f: impl Fn(i64, i64) -> i64) -> Vec<i64> {
        a.iter().zip(b).map(|(&x, &y)| f(x, y)).collect()
    }
    match op {
        InitOp::Add => each(a, b, i64::wrapping_add),
        InitOp::Sub => each(a, b, i64::wrapping_sub),
        InitOp::Mul => each(a, b, i64::wrapping_mul),
        InitOp::Div => each(a, b, |x, y| x.checked_div(y).unwrap_or(0)),
        InitOp::Rem => each(a, b, |x, y| x.checked_rem(y).unwrap_or(0)),
        InitOp::Shl => each(a, b, |x, y| x.checked_shl(y.clamp(0, 63) as u32).unwrap_or(0)),
        InitOp::Shr => each(a, b, |x, y| x >> y.clamp(0, 63)),
        InitOp::And => each(a, b, |x, y| x & y),
        InitOp::Or => each(a, b, |x, y| x | y),
        InitOp::Xor => each(a, b, |x, y| x ^ y),
    }
}

/// `binary` on two float columns (arithmetic operators only).
fn float_op(op: InitOp, a: &[f64], b: &[f64]) -> Vec<f64> {
    fn each(a: &[f64], b: &[f64], f: impl Fn(f64, f64) -> f64) -> Vec<f64> {
        a.iter().zip(b).map(|(&x, &y)| f(x, y)).collect()
    }
    match op {
        InitOp::Add => each(a, b, |x, y| x + y),
        InitOp::Sub => each(a, b, |x, y| x - y),
        InitOp::Mul => each(a, b, |x, y| x * y),
        InitOp::Div => each(a, b, |x, y| x / y),
        InitOp::Rem => each(a, b, |x, y| x % y),
        _ => unreachable!("bit operations are taken as integers"),
    }
}

/// `rand(lo, hi)` for elements `first..first + n` (as `eval`'s `Rand` arm).
fn rand(lo: Col, hi: Col, first: u64, n: usize, seed: u64, stream: u64) -> Col {
    let r = |k: usize| random_u64(seed, stream, first + k as u64);
    match (lo, hi) {
        // The usual case (`rand(0, 255)`): the span is known once, and a power of two takes a mask, which
        // gives the same remainder.
        (Col::Same(Value::Int(lo)), Col::Same(Value::Int(hi))) => {
            if hi < lo {
                return Col::Same(Value::Int(lo));
            }
            let span = (hi as i128 - lo as i128 + 1) as u128;
            Col::Int(match u64::try_from(span) {
                Ok(s) if s.is_power_of_two() => (0..n).map(|k| lo.wrapping_add((r(k) & (s - 1)) as i64)).collect(),
                Ok(s) => (0..n).map(|k| (lo as i128 + (r(k) % s) as i128) as i64).collect(),
                Err(_) => (0..n).map(|k| (lo as i128 + r(k) as i128) as i64).collect(),
            })
        }
        (lo, hi) if lo.is_int() && hi.is_int() => {
            let (lo, hi) = (lo.ints(n), hi.ints(n));
            Col::Int(
                (0..n)
                    .map(|k| match rand_int(r(k), lo[k], hi[k]) {
                        Value::Int(x) => x,
                        Value::Float(_) => unreachable!("integer bounds give integers"),
                    })
                    .collect(),
            )
        }
        (lo, hi) => {
            let (lo, hi) = (lo.floats(n), hi.floats(n));
            Col::Float(
                (0..n)
                    .map(|k| {
                        let unit = (r(k) >> 11) as f64 / (1u64 << 53) as f64;
                        lo[k] + unit * (hi[k] - lo[k])
                    })
                    .collect(),
            )
        }
    }
}

/// `rand` with integer bounds, from its random number `r` (as `eval`'s `Rand` arm).
fn rand_int(r: u64, lo: i64, hi: i64) -> Value {
    if hi < lo {
        return Value::Int(lo);
    }
    let span = (hi as i128 - lo as i128 + 1) as u128;
    let off = match u64::try_from(span) {
        Ok(s) => (r % s) as i128,
        Err(_) => r as i128,
    };
    Value::Int((lo as i128 + off) as i64)
}

#[cfg(test)]
mod tests {
    use super::super::{InitExpr, InitOp, Scalar, Value};

    fn c(v: Value) -> Box<InitExpr> {
        Box::new(InitExpr::Const(v))
    }

    fn bin(op: InitOp, a: Box<InitExpr>, b: Box<InitExpr>) -> Box<InitExpr> {
        Box::new(InitExpr::Binary { op, left: a, right: b })
    }

    #[test]
    fn columns_give_what_eval_gives() {
        use InitOp::*;
        let i = || Box::new(InitExpr::Index);
        let (int, float) = (|x: i64| c(Value::Int(x)), |x: f64| c(Value::Float(x)));
        let rand = |a, b| Box::new(InitExpr::Rand(a, b));
        let mut exprs: Vec<Box<InitExpr>> = vec![
            rand(int(0), int(255)),
            rand(int(-7), int(100)),
            rand(int(5), int(1)),
            rand(int(i64::MIN), int(i64::MAX)),
            rand(int(0), float(1.0)),
            rand(float(-2.5), float(2.5)),
            rand(int(0), i()),
            rand(bin(Sub, int(0), i()), i()),
            rand(i(), float(3.0)),
            bin(Mul, i(), float(0.5)),
            bin(Mul, int(2), i()),
            bin(Div, int(1000), bin(Sub, i(), int(3))),
            bin(Rem, i(), int(0)),
            bin(Rem, float(7.5), bin(Add, i(), int(1))),
            bin(Shl, i(), int(70)),
            bin(Shr, bin(Sub, int(0), i()), int(3)),
            bin(And, bin(Mul, i(), float(1.7)), int(0xF)),
            bin(Xor, float(3.9), i()),
            bin(Or, i(), rand(int(0), int(3))),
            bin(Add, int(i64::MAX), i()),
            bin(Div, i(), float(0.0)),
            Box::new(InitExpr::Neg(bin(Mul, i(), float(1e300)))),
            Box::new(InitExpr::Neg(i())),
            Box::new(InitExpr::BitNot(bin(Mul, i(), float(0.3)))),
            Box::new(InitExpr::BitNot(int(5))),
            bin(Add, int(3), float(0.25)),
            Box::new(InitExpr::List(vec![Value::Int(1), Value::Float(2.5)])),
            Box::new(InitExpr::List(vec![])),
            Box::new(InitExpr::Fields(vec![*i(), *rand(int(0), int(9))])),
        ];
        exprs.push(Box::new(InitExpr::Bytes {
            size: 8,
            fields: vec![(0, Scalar::I32, *i()), (4, Scalar::F32, *float(0.5))],
        }));
        for e in &exprs {
            for s in Scalar::ALL {
                // Across a run boundary, from a start that is not a multiple of it.
                let first = 2040;
                let mut out = vec![0u64; 2100];
                e.fill_bits(first, 11, 3, s, &mut out);
                for (k, &o) in out.iter().enumerate() {
                    let want = e.eval(first + k as u64, 11, 3).to_bits(s);
                    assert_eq!(o, want, "{e:?} as {s:?}, element {}", first + k as u64);
                }
            }
        }
    }
}
