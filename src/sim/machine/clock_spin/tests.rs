use super::*;
use crate::ir::CmpOp;

/// Starts near the places where the evaluation's forms stop holding: 32-bit sign and wrap boundaries, and
/// the 64-bit ones.
const STARTS: [u64; 8] = [
    0,
    1000,
    (1 << 31) - 20,
    (1 << 32) - 20,
    (1 << 32) + (1 << 31) - 3,
    (1 << 63) - 20,
    u64::MAX - 40,
    123_456_789_012,
];

#[test]
fn the_clock_holds_its_form_exactly_up_to_the_bound() {
    for t in STARTS {
        for (which, read) in
            [(Counter::Clock64, (|v| v) as fn(u64) -> u64), (Counter::Clock, |v: u64| v as u32 as i32 as i64 as u64)]
        {
            for j in [0, 3] {
                let mut ev = Eval { t, bound: u64::MAX };
                let form = ev.clock(which, j).unwrap();
                // Every start up to the bound reads what the form says; the one after it does not.
                for s in t..=ev.bound.min(t.saturating_add(60)) {
                    assert_eq!(form.at(s), read(s.wrapping_add(j)), "{which:?} t={t} j={j} at {s}");
                }
                if ev.bound < t.saturating_add(60) {
                    let s = ev.bound.saturating_add(1);
                    assert_ne!(form.at(s), read(s.wrapping_add(j)), "{which:?} t={t}: the bound is not the last");
                }
            }
        }
    }
}

#[test]
fn comparisons_are_known_exactly_as_long_as_they_keep_their_answer() {
    let ops = [CmpOp::Lt, CmpOp::Le, CmpOp::Gt, CmpOp::Ge, CmpOp::Eq, CmpOp::Ne];
    for t in STARTS {
        for ty in [Ty::I32, Ty::U32, Ty::I64, Ty::U64] {
            for op in ops {
                // The moving side is the clock read at the start less a constant, against constants near it.
                for (off, c) in [(0, t.wrapping_add(10)), (5u64.wrapping_neg(), t), (0, t.wrapping_sub(1)), (7, 3)] {
                    for moving_left in [true, false] {
                        let x = Val::Step(off);
                        let (a, b) = if moving_left { (x, Val::Known(c)) } else { (Val::Known(c), x) };
                        let mut ev = Eval { t, bound: u64::MAX };
                        let cmp = |p, q| alu::compare(op, ty, p, q);
                        let Some(Val::Known(now)) = ev.compare(ty, a, b, cmp) else { panic!("no answer") };
                        let real = |s: u64| cmp(a.at(s), b.at(s)) as u64;
                        for s in t..=ev.bound.min(t.saturating_add(40)) {
                            assert_eq!(real(s), now, "{op:?} {ty:?} t={t} off={off} c={c} at {s}");
                        }
                        // The bound is where the answer changes or the compared width wraps.
                        if let Some(next) = ev.bound.checked_add(1).filter(|&s| s <= t.saturating_add(40)) {
                            let bits = if matches!(ty, Ty::I32 | Ty::U32) { 32 } else { 64 };
                            let wraps = bits == 32 && (x.at(next) as u32) < (x.at(ev.bound) as u32)
                                || matches!(ty, Ty::I32) && x.at(next) as u32 == 1 << 31
                                || matches!(ty, Ty::I64) && x.at(next) == 1 << 63
                                || x.at(next) == 0;
                            assert!(real(next) != now || wraps, "{op:?} {ty:?} t={t} off={off} c={c}: early bound");
                        }
                    }
                }
            }
        }
    }
}

#[test]
fn sums_and_conversions_follow_the_alu_up_to_the_bound() {
    for t in STARTS {
        let x = Val::Step(2);
        type Op = Box<dyn Fn(&mut Eval) -> Option<Val>>;
        type Exact = Box<dyn Fn(u64) -> u64>;
        let checks: [(&str, Op, Exact); 5] = [
            (
                "i32 sub",
                Box::new(move |e| e.binary(ArithOp::Sub, Ty::I32, x, Val::Known(7))),
                Box::new(|v| alu::binary(ArithOp::Sub, Ty::I32, v, 7).unwrap()),
            ),
            (
                "u64 add",
                Box::new(move |e| e.binary(ArithOp::Add, Ty::U64, Val::Known(9), x)),
                Box::new(|v| v.wrapping_add(9)),
            ),
            (
                "i64 to i32",
                Box::new(move |e| e.convert(Ty::I64, Ty::I32, x)),
                Box::new(|v| alu::convert(Ty::I64, Ty::I32, v)),
            ),
            (
                "u32 to i64",
                Box::new(move |e| e.convert(Ty::U32, Ty::I64, x)),
                Box::new(|v| alu::convert(Ty::U32, Ty::I64, v as u32 as u64)),
            ),
            (
                "i32 to u64",
                Box::new(move |e| e.convert(Ty::I32, Ty::U64, x)),
                Box::new(|v| alu::convert(Ty::I32, Ty::U64, v as u32 as u64)),
            ),
        ];
        for (what, op, exact) in &checks {
            let mut ev = Eval { t, bound: u64::MAX };
            let Some(form) = op(&mut ev) else { continue };
            for s in t..=ev.bound.min(t.saturating_add(40)) {
                assert_eq!(form.at(s), exact(x.at(s)), "{what} t={t} at {s}");
            }
        }
        // The two sides' steps cancel at any width.
        let mut ev = Eval { t, bound: u64::MAX };
        assert_eq!(ev.binary(ArithOp::Sub, Ty::I32, Val::Step(10), Val::Step(3)), Some(Val::Known(7)));
        assert_eq!(ev.bound, u64::MAX);
        // A product of the clock is no sum of it.
        assert_eq!(ev.binary(ArithOp::Mul, Ty::I64, x, Val::Known(3)), None);
    }
}
