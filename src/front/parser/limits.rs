//! `std::numeric_limits<T>::max()` and its siblings (`<limits>`), host and device: each call is the
//! constant it returns for `T`, read here as a literal cast to `T`, so both sides fold it as they fold
//! `(float)3.4e38`. The values are those of the LP64 ABI nvcc and g++ use (`long` is 64 bits).

use super::Parser;
use crate::front::ast::{BaseType, Expr, ExprKind, TypeSpec};
use crate::front::diagnostic::{Diagnostic, Reported};
use crate::front::token::Punct;

/// An integer type's range: (lowest, highest), as 64-bit patterns of their values.
fn int_range(base: BaseType) -> Option<(i128, i128)> {
    Some(match base {
        BaseType::Bool => (0, 1),
        BaseType::Char | BaseType::SChar => (i8::MIN as i128, i8::MAX as i128),
        BaseType::UChar => (0, u8::MAX as i128),
        BaseType::Short => (i16::MIN as i128, i16::MAX as i128),
        BaseType::UShort => (0, u16::MAX as i128),
        BaseType::Int => (i32::MIN as i128, i32::MAX as i128),
        BaseType::UInt => (0, u32::MAX as i128),
        BaseType::Long => (i64::MIN as i128, i64::MAX as i128),
        BaseType::ULong => (0, u64::MAX as i128),
        _ => return None,
    })
}

/// The fixed-width and library integer typedefs a limit may name (`std::numeric_limits<size_t>`).
fn named_base(name: &str) -> Option<BaseType> {
    Some(match name {
        "size_t" | "uint64_t" | "uintptr_t" | "unsigned long long" => BaseType::ULong,
        "int64_t" | "ptrdiff_t" | "intptr_t" | "ssize_t" | "long long" => BaseType::Long,
        "uint32_t" => BaseType::UInt,
        "int32_t" => BaseType::Int,
        "uint16_t" => BaseType::UShort,
        "int16_t" => BaseType::Short,
        "uint8_t" => BaseType::UChar,
        "int8_t" => BaseType::SChar,
        _ => return None,
    })
}

/// The literal `numeric_limits<base>::what()` returns (before its cast to the type), if the member is one
/// read here.
fn limit(base: BaseType, what: &str) -> Option<ExprKind> {
    let float = |value: f64, single: bool| ExprKind::Float { value, single };
    let int = |v: i128| ExprKind::Int { value: v as i64 as u64, unsigned: true, long: true, decimal: false };
    if let Some((lo, hi)) = int_range(base) {
        return Some(match what {
            "max" => int(hi),
            "min" | "lowest" => int(lo),
            "epsilon" | "round_error" | "infinity" | "quiet_NaN" | "signaling_NaN" | "denorm_min" => int(0),
            _ => return None,
        });
    }
    let single = match base {
        BaseType::Float => true,
        BaseType::Double => false,
        _ => return None,
    };
    let pick = |f: f32, d: f64| if single { f as f64 } else { d };
    Some(match what {
        "max" => float(pick(f32::MAX, f64::MAX), single),
        "min" => float(pick(f32::MIN_POSITIVE, f64::MIN_POSITIVE), single),
        "lowest" => float(pick(f32::MIN, f64::MIN), single),
        "epsilon" => float(pick(f32::EPSILON, f64::EPSILON), single),
        "round_error" => float(0.5, single),
        "infinity" => float(f64::INFINITY, single),
        "quiet_NaN" | "signaling_NaN" => float(f64::NAN, single),
        "denorm_min" => float(pick(f32::from_bits(1), f64::from_bits(1)), single),
        _ => return None,
    })
}

impl Parser<'_> {
    /// `numeric_limits<T>::what()` (after any `std::`): the constant, cast to `T`.
    pub(super) fn numeric_limits(&mut self) -> Result<Expr, Reported> {
        let start = self.span();
        self.bump();
        self.expect(Punct::Lt)?;
        let ty = self.type_spec()?;
        if !self.eat(Punct::Gt) {
            return Err(self.expected("`>`"));
        }
        self.expect(Punct::ColonColon)?;
        let member = self.ident("a member of `std::numeric_limits`")?;
        let called = self.eat(Punct::LParen) && self.eat(Punct::RParen);
        let span = start.to(self.prev_span());
        let mut cast = ty.clone();
        if ty.pointers == 0
            && ty.func.is_none()
            && let Some(base) = ty.named.as_deref().and_then(named_base)
        {
            cast = TypeSpec { base, named: None, ..ty.clone() };
        }
        let value = (called && cast.pointers == 0 && cast.named.is_none() && cast.func.is_none())
            .then(|| limit(cast.base, &member.name))
            .flatten();
        let Some(value) = value else {
            let what = format!("`std::numeric_limits<...>::{}` of this type", member.name);
            return Err(self.error(Diagnostic::unsupported(span, what)));
        };
        let literal = Expr { kind: value, span };
        Ok(Expr { kind: ExprKind::Cast(cast, Box::new(literal)), span })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_are_the_lp64_abis() {
        let bits = |k: Option<ExprKind>| match k {
            Some(ExprKind::Int { value, .. }) => value,
            Some(ExprKind::Float { value, .. }) => value.to_bits(),
            _ => u64::MAX - 1,
        };
        assert_eq!(bits(limit(BaseType::Int, "max")), 0x7fff_ffff);
        assert_eq!(bits(limit(BaseType::Int, "min")), 0xffff_ffff_8000_0000);
        assert_eq!(bits(limit(BaseType::UInt, "max")), 0xffff_ffff);
        assert_eq!(bits(limit(BaseType::ULong, "max")), u64::MAX);
        assert_eq!(bits(limit(BaseType::Long, "lowest")), 1 << 63);
        assert_eq!(bits(limit(BaseType::Float, "max")), (f32::MAX as f64).to_bits());
        assert_eq!(bits(limit(BaseType::Float, "lowest")), (-(f32::MAX as f64)).to_bits());
        assert_eq!(bits(limit(BaseType::Double, "min")), f64::MIN_POSITIVE.to_bits());
        assert_eq!(bits(limit(BaseType::Float, "epsilon")), (f32::EPSILON as f64).to_bits());
        assert_eq!(bits(limit(BaseType::Double, "infinity")), f64::INFINITY.to_bits());
        assert!(limit(BaseType::Float, "digits").is_none());
        assert!(limit(BaseType::Half, "max").is_none());
    }
}
