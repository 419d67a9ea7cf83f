//! `<random>` in host code, with libstdc++'s exact results: the engines `std::mt19937`, `std::mt19937_64`,
//! `std::minstd_rand0` (`std::default_random_engine`), `std::minstd_rand` and `std::random_device`, and the
//! distributions `uniform_int_distribution<T>` (libstdc++'s downscaling: Lemire's multiply for 32- and
//! 64-bit engines, two divisions otherwise, upscaling for ranges wider than the engine's),
//! `uniform_real_distribution<T>` (`generate_canonical`) and `normal_distribution<T>` (the Marsaglia polar
//! method, which keeps its second value for the next draw).
//!
//! Engines and distributions live in host memory laid out as libstdc++ lays them out (an `mt19937` is its
//! 624 state words and its position, 5000 bytes), so `sizeof` and copies behave. `std::random_device` is
//! not random here: a run must print the same on every machine, so it is an `mt19937` seeded with 5489 (the
//! standard's default seed) whose outputs `rd()` returns in turn.

use super::interp::{Interp, Unwind};
use super::methods::{ctor_args, expr};
use super::resolve::Resolver;
use super::tree::*;
use crate::front::ast::{self, ExprKind as A};
use crate::front::diagnostic::Reported;
use crate::front::source::Span;
use crate::front::types::{Scalar, StructDef, Type};
use std::sync::Arc;

/// What a `<random>` type name is: an engine (`random_device` is an `mt19937`), or a distribution.
enum Named {
    Engine(Engine, bool),
    Dist(Dist),
}

fn named(name: &str) -> Option<Named> {
    let engine = |e| Some(Named::Engine(e, false));
    match name {
        "mt19937" => return engine(Engine::Mt19937),
        "mt19937_64" => return engine(Engine::Mt19937_64),
        "minstd_rand0" | "default_random_engine" => return engine(Engine::MinstdRand0),
        "minstd_rand" => return engine(Engine::MinstdRand),
        "random_device" => return Some(Named::Engine(Engine::Mt19937, true)),
        _ => {}
    }
    let (base, arg) = name.strip_suffix('>')?.split_once('<')?;
    let arg = arg.trim();
    let scalar = |default| if arg.is_empty() { Some(default) } else { super::vector::scalar_named(arg) };
    Some(Named::Dist(match base {
        "uniform_int_distribution" => Dist::UniformInt(scalar(Scalar::I32).filter(|s| s.is_integer())?),
        "uniform_real_distribution" => Dist::UniformReal(scalar(Scalar::F64).filter(|s| s.is_float())?),
        "normal_distribution" => Dist::Normal(scalar(Scalar::F64).filter(|s| s.is_float())?),
        _ => return None,
    }))
}

/// The host type a `<random>` type name stands for (None: not one).
fn random_type(name: &str) -> Option<Type> {
    let u64t = Type::Scalar(Scalar::U64);
    let fields: Vec<(String, Type)> = match named(name)? {
        Named::Engine(Engine::Mt19937, _) => {
            vec![("_M_x".into(), Type::Array(Box::new(u64t.clone()), 624)), ("_M_p".into(), u64t)]
        }
        Named::Engine(Engine::Mt19937_64, _) => {
            vec![("_M_x".into(), Type::Array(Box::new(u64t.clone()), 312)), ("_M_p".into(), u64t)]
        }
        Named::Engine(..) => vec![("_M_x".into(), u64t)],
        Named::Dist(Dist::UniformInt(s) | Dist::UniformReal(s)) => {
            vec![("_M_a".into(), Type::Scalar(s)), ("_M_b".into(), Type::Scalar(s))]
        }
        Named::Dist(Dist::Normal(s)) => vec![
            ("_M_mean".into(), Type::Scalar(s)),
            ("_M_stddev".into(), Type::Scalar(s)),
            ("_M_saved".into(), Type::Scalar(s)),
            ("_M_saved_available".into(), Type::BOOL),
        ],
    };
    Some(Type::Struct(Arc::new(StructDef::new(name, fields, 1))))
}

fn named_of(ty: &Type) -> Option<Named> {
    match ty {
        Type::Struct(def) => named(&def.name).filter(|_| random_type(&def.name).as_ref() == Some(ty)),
        _ => None,
    }
}

/// The largest value of integer type `s`, as its bits.
fn int_max(s: Scalar) -> u64 {
    let bits = 8 * s.size();
    let all = if bits == 64 { u64::MAX } else { (1 << bits) - 1 };
    if s.is_signed() { all >> 1 } else { all }
}

/// An engine's default seed: `mt19937`'s 5489, `minstd`'s 1.
fn default_seed(e: Engine) -> u64 {
    if matches!(e, Engine::Mt19937 | Engine::Mt19937_64) { 5489 } else { 1 }
}

impl Resolver<'_> {
    /// The host type a `<random>` type name stands for (None: not one).
    pub(super) fn random_named(&self, name: &str) -> Option<Type> {
        random_type(name)
    }

    /// The address of the object `e` names, and its type.
    fn object(&mut self, e: &ast::Expr) -> Result<(Expr, Type), Reported> {
        match self.lvalue(e)? {
            (Place::Mem { addr, .. }, t) => Ok((*addr, t)),
            (Place::Slot(_), _) => Err(self.unsupported(e.span, "this `<random>` object here yet")),
        }
    }

    fn lib(&mut self, lib: Lib, args: Vec<Expr>, ty: Type, span: Span) -> Expr {
        Expr::new(ExprKind::Lib(lib, args), ty, span)
    }

    /// `std::mt19937 eng(seed);`, `std::uniform_int_distribution<int> d(a, b);` and the rest (None: not a
    /// `<random>` type).
    pub(super) fn random_construct(
        &mut self,
        name: &ast::Ident,
        ty: &Type,
        init: Option<&ast::Expr>,
        out: &mut Vec<Stmt>,
    ) -> Option<Result<(), Reported>> {
        let what = named_of(ty)?;
        let obj = expr(A::Name(name.name.clone()), name.span);
        let span = init.map_or(name.span, |e| e.span);
        Some((|| {
            let Some(args) = ctor_args(init) else {
                return Err(self.unsupported(span, "copying a `<random>` object yet"));
            };
            let (addr, _) = self.object(&obj)?;
            let u64t = Type::Scalar(Scalar::U64);
            let e = match what {
                Named::Engine(e, device) => {
                    let seed = match (args, device) {
                        ([], _) | (_, true) => Expr::new(ExprKind::Const(default_seed(e)), u64t.clone(), span),
                        ([s], false) => {
                            let s = self.rvalue(s)?;
                            self.convert(s, &u64t)?
                        }
                        _ => return Err(self.unsupported(span, "this engine constructor yet")),
                    };
                    self.lib(Lib::Seed(e), vec![addr, seed], Type::Void, span)
                }
                Named::Dist(d) => {
                    let (Dist::UniformInt(s) | Dist::UniformReal(s) | Dist::Normal(s)) = d;
                    let t = Type::Scalar(s);
                    let (lo, hi) = match d {
                        Dist::UniformInt(_) => (0, int_max(s)),
                        Dist::UniformReal(_) => {
                            (Scalar::F64.convert_bits(s, 0), Scalar::F64.convert_bits(s, 1f64.to_bits()))
                        }
                        Dist::Normal(_) => {
                            (Scalar::F64.convert_bits(s, 0), Scalar::F64.convert_bits(s, 1f64.to_bits()))
                        }
                    };
                    if args.len() > 2 {
                        return Err(self.unsupported(span, "this distribution constructor yet"));
                    }
                    let mut vals = vec![addr];
                    for (k, def) in [lo, hi].into_iter().enumerate() {
                        vals.push(match args.get(k) {
                            Some(a) => {
                                let v = self.rvalue(a)?;
                                self.convert(v, &t)?
                            }
                            None => Expr::new(ExprKind::Const(def), t.clone(), span),
                        });
                    }
                    self.lib(Lib::DistInit(d), vals, Type::Void, span)
                }
            };
            out.push(Stmt::Expr(e));
            Ok(())
        })())
    }

    /// `dist(eng)`, `eng()` and `rd()` on a variable of a `<random>` type (None: `name` is not one).
    pub(super) fn random_call(
        &mut self,
        name: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<Result<Expr, Reported>> {
        let obj = expr(A::Name(name.name.clone()), name.span);
        let ty = match self.lookup(&name.name)? {
            super::resolve::Var::Mem(_, t) | super::resolve::Var::Global(_, t) => t,
            super::resolve::Var::Reg(_, t) => t.pointee().cloned()?,
            _ => return None,
        };
        let what = named_of(&ty)?;
        Some((|| {
            let (addr, _) = self.object(&obj)?;
            match (what, args) {
                (Named::Engine(e, _), []) => Ok(self.lib(Lib::EngineNext(e), vec![addr], engine_result(e), span)),
                (Named::Dist(d), [g]) => {
                    let (engine, gty) = self.object(g)?;
                    let Some(Named::Engine(e, _)) = named_of(&gty) else {
                        return Err(self.unsupported(g.span, "a distribution drawing from this generator yet"));
                    };
                    let (Dist::UniformInt(s) | Dist::UniformReal(s) | Dist::Normal(s)) = d;
                    Ok(self.lib(Lib::Draw(d, e), vec![addr, engine], Type::Scalar(s), span))
                }
                _ => Err(self.unsupported(span, "this `<random>` call yet")),
            }
        })())
    }

    /// `eng.seed(s)`, `eng.seed()`, `dist.reset()` (None: not a `<random>` object).
    pub(super) fn random_method(
        &mut self,
        obj: &ast::Expr,
        ty: &Type,
        m: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<Result<Expr, Reported>> {
        let what = named_of(ty)?;
        Some((|| {
            let (addr, _) = self.object(obj)?;
            let u64t = Type::Scalar(Scalar::U64);
            match (what, m.name.as_str(), args) {
                (Named::Engine(e, false), "seed", [] | [_]) => {
                    let seed = match args.first() {
                        Some(s) => {
                            let s = self.rvalue(s)?;
                            self.convert(s, &u64t)?
                        }
                        None => Expr::new(ExprKind::Const(default_seed(e)), u64t, span),
                    };
                    Ok(self.lib(Lib::Seed(e), vec![addr, seed], Type::Void, span))
                }
                (Named::Dist(d @ Dist::Normal(s)), "reset", []) => {
                    // Forgets the saved value: the parameters are read back and stored again.
                    let t = Type::Scalar(s);
                    let field = |k: i64| {
                        let at = super::resolve::ptr_add(addr.clone(), k * s.size() as i64, &t);
                        Expr::new(ExprKind::Load { addr: Box::new(at), storage: s, what: None }, t.clone(), span)
                    };
                    let (mean, sd) = (field(0), field(1));
                    Ok(self.lib(Lib::DistInit(d), vec![addr.clone(), mean, sd], Type::Void, span))
                }
                (_, "reset", []) => Ok(Expr::new(ExprKind::Const(0), Type::Void, span)),
                _ => Err(self.unsupported(m.span, format_args!("`{}` on a `<random>` object yet", m.name))),
            }
        })())
    }
}

/// An engine's result type: `unsigned long` (`uint_fast32_t` and `uint_fast64_t` on x86-64 Linux).
fn engine_result(_: Engine) -> Type {
    Type::Scalar(Scalar::U64)
}

/// An engine's parameters: state words, middle word, mask bits, twist matrix, tempering, seeding multiplier.
struct Mt {
    n: u64,
    m: u64,
    w: u32,
    a: u64,
    f: u64,
}

fn mt(e: Engine) -> Option<Mt> {
    match e {
        Engine::Mt19937 => Some(Mt { n: 624, m: 397, w: 32, a: 0x9908_b0df, f: 1_812_433_253 }),
        Engine::Mt19937_64 => {
            Some(Mt { n: 312, m: 156, w: 64, a: 0xb502_6f5a_a966_19e9, f: 6_364_136_223_846_793_005 })
        }
        _ => None,
    }
}

/// The linear congruential engines' multipliers (`c` is 0, `m` is 2^31 - 1).
fn lcg_a(e: Engine) -> u64 {
    if e == Engine::MinstdRand { 48271 } else { 16807 }
}

const LCG_M: u64 = 2_147_483_647;

/// An engine's smallest and largest output.
fn range(e: Engine) -> (u64, u64) {
    match e {
        Engine::Mt19937 => (0, u32::MAX as u64),
        Engine::Mt19937_64 => (0, u64::MAX),
        _ => (1, LCG_M - 1),
    }
}

impl Interp<'_> {
    fn put(&mut self, at: u64, bits: u64, size: u32, e: &Expr) -> Result<(), Unwind> {
        self.write_bytes(at, Some(&bits.to_le_bytes()[..size as usize]), size as u64, 0, e.span)
    }

    fn seed(&mut self, eng: Engine, at: u64, s: u64, e: &Expr) -> Result<(), Unwind> {
        let Some(p) = mt(eng) else {
            let x = s % LCG_M;
            return self.put(at, if x == 0 { 1 } else { x }, 8, e);
        };
        let mask = if p.w == 64 { u64::MAX } else { (1 << p.w) - 1 };
        let mut x = vec![s & mask];
        for i in 1..p.n {
            let prev = x[i as usize - 1];
            x.push(p.f.wrapping_mul(prev ^ (prev >> (p.w - 2))).wrapping_add(i) & mask);
        }
        let bytes: Vec<u8> = x.iter().chain([&p.n]).flat_map(|v| v.to_le_bytes()).collect();
        self.write_bytes(at, Some(&bytes), bytes.len() as u64, 0, e.span)
    }

    /// The engine's next output.
    fn next(&mut self, eng: Engine, at: u64, e: &Expr) -> Result<u64, Unwind> {
        let Some(p) = mt(eng) else {
            let x = self.load(at, Scalar::U64, None, e.span)?;
            let x = (lcg_a(eng) * (x % LCG_M)) % LCG_M;
            self.put(at, x, 8, e)?;
            return Ok(x);
        };
        let mut i = self.load(at + 8 * p.n, Scalar::U64, None, e.span)?;
        if i >= p.n {
            self.twist(&p, at, e)?;
            i = 0;
        }
        let mut y = self.load(at + 8 * i, Scalar::U64, None, e.span)?;
        self.put(at + 8 * p.n, i + 1, 8, e)?;
        if p.w == 32 {
            y ^= (y >> 11) & 0xffff_ffff;
            y ^= (y << 7) & 0x9d2c_5680;
            y ^= (y << 15) & 0xefc6_0000;
            y ^= y >> 18;
            Ok(y & 0xffff_ffff)
        } else {
            y ^= (y >> 29) & 0x5555_5555_5555_5555;
            y ^= (y << 17) & 0x71d6_7fff_eda6_0000;
            y ^= (y << 37) & 0xfff7_eee0_0000_0000;
            y ^= y >> 43;
            Ok(y)
        }
    }

    fn twist(&mut self, p: &Mt, at: u64, e: &Expr) -> Result<(), Unwind> {
        let bytes = self.read_bytes(at, 8 * p.n, e.span)?;
        let mut x: Vec<u64> = bytes.chunks(8).map(|c| u64::from_le_bytes(c.try_into().unwrap_or_default())).collect();
        let mask = if p.w == 64 { u64::MAX } else { (1 << p.w) - 1 };
        let upper = (mask << 31) & mask;
        let lower = !upper & mask;
        let n = p.n as usize;
        for k in 0..n {
            let y = (x[k] & upper) | (x[(k + 1) % n] & lower);
            x[k] = x[(k + p.m as usize) % n] ^ (y >> 1) ^ if y & 1 == 1 { p.a } else { 0 };
        }
        let bytes: Vec<u8> = x.iter().flat_map(|v| v.to_le_bytes()).collect();
        self.write_bytes(at, Some(&bytes), bytes.len() as u64, 0, e.span)
    }

    /// `uniform_int_distribution`'s draw of a value in [0, urange] (libstdc++'s `operator()` less `a`).
    fn uniform_int(&mut self, eng: Engine, at: u64, urange: u64, e: &Expr) -> Result<u64, Unwind> {
        let (min, max) = range(eng);
        let rng = max - min;
        if rng > urange {
            let erange = urange + 1;
            if rng == u64::MAX {
                // Lemire's nearly divisionless method in 128 bits.
                let mut prod = self.next(eng, at, e)? as u128 * erange as u128;
                if (prod as u64) < erange {
                    let threshold = erange.wrapping_neg() % erange;
                    while (prod as u64) < threshold {
                        prod = self.next(eng, at, e)? as u128 * erange as u128;
                    }
                }
                return Ok((prod >> 64) as u64);
            }
            if rng == u32::MAX as u64 {
                let erange = erange as u32;
                let mut prod = self.next(eng, at, e)? * erange as u64;
                if (prod as u32) < erange {
                    let threshold = erange.wrapping_neg() % erange;
                    while (prod as u32) < threshold {
                        prod = self.next(eng, at, e)? * erange as u64;
                    }
                }
                return Ok(prod >> 32);
            }
            let scaling = rng / erange;
            let past = erange * scaling;
            loop {
                let r = self.next(eng, at, e)? - min;
                if r < past {
                    return Ok(r / scaling);
                }
            }
        }
        if rng < urange {
            loop {
                let erng = rng + 1;
                let tmp = erng.wrapping_mul(self.uniform_int(eng, at, urange / erng, e)?);
                let r = tmp.wrapping_add(self.next(eng, at, e)? - min);
                if r <= urange && r >= tmp {
                    return Ok(r);
                }
            }
        }
        Ok(self.next(eng, at, e)? - min)
    }

    /// `generate_canonical<T, digits of T>`: a value in [0, 1), as f64 bits of the type's value.
    fn canonical(&mut self, eng: Engine, at: u64, s: Scalar, e: &Expr) -> Result<f64, Unwind> {
        let (min, max) = range(eng);
        let (log2r, r): (u32, u128) = match eng {
            Engine::Mt19937 => (32, 1 << 32),
            Engine::Mt19937_64 => (64, 1 << 64),
            _ => (30, (max - min + 1) as u128),
        };
        let bits: u32 = if s == Scalar::F32 { 24 } else { 53 };
        let k = bits.div_ceil(log2r).max(1);
        if s == Scalar::F32 {
            let (mut sum, mut tmp, mut exact) = (0f32, 1f32, 1u128);
            for _ in 0..k {
                sum += (self.next(eng, at, e)? - min) as f32 * tmp;
                exact = exact.saturating_mul(r);
                tmp = exact as f32;
            }
            let v = sum / tmp;
            return Ok(if v >= 1.0 { 1.0 - f32::EPSILON / 2.0 } else { v } as f64);
        }
        let (mut sum, mut tmp, mut exact) = (0f64, 1f64, 1u128);
        for _ in 0..k {
            sum += (self.next(eng, at, e)? - min) as f64 * tmp;
            exact = exact.saturating_mul(r);
            tmp = exact as f64;
        }
        let v = sum / tmp;
        Ok(if v >= 1.0 { 1.0 - f64::EPSILON / 2.0 } else { v })
    }

    /// `<random>`'s calls.
    pub(super) fn random(&mut self, lib: Lib, v: &[u64], e: &Expr) -> Result<u64, Unwind> {
        let f = |s: Scalar, bits: u64| {
            if s == Scalar::F32 { f32::from_bits(bits as u32) as f64 } else { f64::from_bits(bits) }
        };
        let bits = |s: Scalar, x: f64| if s == Scalar::F32 { (x as f32).to_bits() as u64 } else { x.to_bits() };
        match lib {
            Lib::Seed(eng) => self.seed(eng, v[0], v[1], e).map(|_| 0),
            Lib::EngineNext(eng) => self.next(eng, v[0], e),
            Lib::DistInit(d) => {
                let (Dist::UniformInt(s) | Dist::UniformReal(s) | Dist::Normal(s)) = d;
                let size = s.size() as u64;
                self.put(v[0], v[1], size as u32, e)?;
                self.put(v[0] + size, v[2], size as u32, e)?;
                if let Dist::Normal(_) = d {
                    self.put(v[0] + 3 * size, 0, 1, e)?;
                }
                Ok(0)
            }
            Lib::Draw(Dist::UniformInt(s), eng) => {
                let a = self.load(v[0], s, None, e.span)?;
                let b = self.load(v[0] + s.size() as u64, s, None, e.span)?;
                let (a, b) = (s.convert_bits(Scalar::I64, a), s.convert_bits(Scalar::I64, b));
                let r = self.uniform_int(eng, v[1], b.wrapping_sub(a), e)?;
                Ok(Scalar::U64.convert_bits(s, r.wrapping_add(a)))
            }
            Lib::Draw(Dist::UniformReal(s), eng) => {
                let a = f(s, self.load(v[0], s, None, e.span)?);
                let b = f(s, self.load(v[0] + s.size() as u64, s, None, e.span)?);
                let u = self.canonical(eng, v[1], s, e)?;
                Ok(if s == Scalar::F32 {
                    bits(s, (u as f32 * (b as f32 - a as f32) + a as f32) as f64)
                } else {
                    bits(s, u * (b - a) + a)
                })
            }
            Lib::Draw(Dist::Normal(s), eng) => {
                let size = s.size() as u64;
                let mean = f(s, self.load(v[0], s, None, e.span)?);
                let sd = f(s, self.load(v[0] + size, s, None, e.span)?);
                let saved = self.load(v[0] + 3 * size, Scalar::U8, None, e.span)?;
                let ret = if saved != 0 {
                    self.put(v[0] + 3 * size, 0, 1, e)?;
                    f(s, self.load(v[0] + 2 * size, s, None, e.span)?)
                } else if s == Scalar::F32 {
                    let (x, y, r2) = loop {
                        let x = 2.0 * self.canonical(eng, v[1], s, e)? as f32 - 1.0;
                        let y = 2.0 * self.canonical(eng, v[1], s, e)? as f32 - 1.0;
                        let r2 = x * x + y * y;
                        if r2 <= 1.0 && r2 != 0.0 {
                            break (x, y, r2);
                        }
                    };
                    let mult = (-2.0 * r2.ln() / r2).sqrt();
                    self.put(v[0] + 2 * size, (x * mult).to_bits() as u64, 4, e)?;
                    self.put(v[0] + 3 * size, 1, 1, e)?;
                    (y * mult) as f64
                } else {
                    let (x, y, r2) = loop {
                        let x = 2.0 * self.canonical(eng, v[1], s, e)? - 1.0;
                        let y = 2.0 * self.canonical(eng, v[1], s, e)? - 1.0;
                        let r2 = x * x + y * y;
                        if r2 <= 1.0 && r2 != 0.0 {
                            break (x, y, r2);
                        }
                    };
                    let mult = (-2.0 * r2.ln() / r2).sqrt();
                    self.put(v[0] + 2 * size, (x * mult).to_bits(), 8, e)?;
                    self.put(v[0] + 3 * size, 1, 1, e)?;
                    y * mult
                };
                Ok(if s == Scalar::F32 {
                    bits(s, (ret as f32 * sd as f32 + mean as f32) as f64)
                } else {
                    bits(s, ret * sd + mean)
                })
            }
            _ => Ok(0),
        }
    }
}
