//! The integer constant expressions of `#if` and `#elif`, after `defined` and macro expansion: C's
//! operators over `intmax_t`/`uintmax_t` (64 bits), identifiers that are left counting as 0.

use crate::front::diagnostic::{Diagnostic, ErrorCode};
use crate::front::source::Span;
use crate::front::token::{Kw, Punct, TokKind, Token};

/// A value of an `#if` expression: 64 bits, signed unless an operand was unsigned.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Val {
    bits: u64,
    unsigned: bool,
}

impl Val {
    fn int(v: i64) -> Val {
        Val { bits: v as u64, unsigned: false }
    }

    fn truth(self) -> bool {
        self.bits != 0
    }
}

struct Eval<'a> {
    toks: &'a [Token],
    pos: usize,
    /// The directive, for errors at the end of the line.
    at: Span,
}

/// Evaluates `#if` tokens (already expanded) to true or false.
pub fn evaluate(toks: &[Token], at: Span) -> Result<bool, Diagnostic> {
    if toks.is_empty() {
        return Err(Diagnostic::new(ErrorCode::Syntax, at, "`#if` needs an expression").label("here"));
    }
    let mut e = Eval { toks, pos: 0, at };
    let v = e.ternary()?;
    if let Some(t) = e.toks.get(e.pos) {
        return Err(Diagnostic::new(ErrorCode::Syntax, t.span, "unexpected token in `#if` expression")
            .label("the expression should end before this"));
    }
    Ok(v.truth())
}

impl Eval<'_> {
    fn peek(&self) -> Option<&TokKind> {
        self.toks.get(self.pos).map(|t| &t.kind)
    }

    fn span(&self) -> Span {
        self.toks.get(self.pos).map_or(self.at, |t| t.span)
    }

    fn eat(&mut self, p: Punct) -> bool {
        if self.peek() == Some(&TokKind::Punct(p)) {
            self.pos += 1;
            true
        } else {
            false
        }
    }

    fn ternary(&mut self) -> Result<Val, Diagnostic> {
        let c = self.binary(0)?;
        if !self.eat(Punct::Question) {
            return Ok(c);
        }
        let a = self.ternary()?;
        if !self.eat(Punct::Colon) {
            return Err(Diagnostic::new(ErrorCode::Syntax, self.span(), "expected `:` in `#if` expression"));
        }
        let b = self.ternary()?;
        let unsigned = a.unsigned || b.unsigned;
        let v = if c.truth() { a } else { b };
        Ok(Val { bits: v.bits, unsigned })
    }

    fn binary(&mut self, min: u8) -> Result<Val, Diagnostic> {
        let mut lhs = self.unary()?;
        loop {
            let Some(TokKind::Punct(p)) = self.peek() else { return Ok(lhs) };
            let p = *p;
            let Some(prec) = precedence(p) else { return Ok(lhs) };
            if prec < min {
                return Ok(lhs);
            }
            let op_span = self.span();
            self.pos += 1;
            let rhs = self.binary(prec + 1)?;
            lhs = apply(p, lhs, rhs, op_span)?;
        }
    }

    fn unary(&mut self) -> Result<Val, Diagnostic> {
        let span = self.span();
        let Some(kind) = self.peek().cloned() else {
            return Err(Diagnostic::new(ErrorCode::Syntax, self.at, "`#if` expression ends too early")
                .label("an operand is missing"));
        };
        self.pos += 1;
        Ok(match kind {
            TokKind::Punct(Punct::Minus) => {
                let v = self.unary()?;
                Val { bits: v.bits.wrapping_neg(), unsigned: v.unsigned }
            }
            TokKind::Punct(Punct::Plus) => self.unary()?,
            TokKind::Punct(Punct::Bang) => Val::int((!self.unary()?.truth()) as i64),
            TokKind::Punct(Punct::Tilde) => {
                let v = self.unary()?;
                Val { bits: !v.bits, unsigned: v.unsigned }
            }
            TokKind::Punct(Punct::LParen) => {
                let v = self.ternary()?;
                if !self.eat(Punct::RParen) {
                    return Err(Diagnostic::new(ErrorCode::Syntax, self.span(), "expected `)` in `#if` expression"));
                }
                v
            }
            TokKind::Int { value, suffix, .. } => {
                // C: a literal too large for intmax_t is unsigned.
                Val { bits: value, unsigned: suffix.unsigned || value > i64::MAX as u64 }
            }
            TokKind::Char(c) => Val::int(c as i64),
            TokKind::Kw(Kw::True) => Val::int(1),
            // Identifiers (and keywords) left after expansion count as 0, as C says.
            TokKind::Ident(_) | TokKind::Kw(_) => Val::int(0),
            TokKind::Float { .. } => {
                return Err(Diagnostic::new(ErrorCode::Syntax, span, "a floating-point number in `#if`")
                    .label("`#if` takes integer expressions only"));
            }
            _ => {
                return Err(Diagnostic::new(ErrorCode::Syntax, span, "unexpected token in `#if` expression")
                    .label("not an operand"));
            }
        })
    }
}

fn precedence(p: Punct) -> Option<u8> {
    use Punct::*;
    Some(match p {
        OrOr => 1,
        AndAnd => 2,
        Pipe => 3,
        Caret => 4,
        Amp => 5,
        EqEq | Ne => 6,
        Lt | Gt | Le | Ge => 7,
        Shl | Shr => 8,
        Plus | Minus => 9,
        Star | Slash | Percent => 10,
        _ => return None,
    })
}

fn apply(p: Punct, a: Val, b: Val, span: Span) -> Result<Val, Diagnostic> {
    use Punct::*;
    let unsigned = a.unsigned || b.unsigned;
    let arith = |bits: u64| Val { bits, unsigned };
    let cmp = |x: bool| Val::int(x as i64);
    let (sa, sb) = (a.bits as i64, b.bits as i64);
    Ok(match p {
        OrOr => cmp(a.truth() || b.truth()),
        AndAnd => cmp(a.truth() && b.truth()),
        Pipe => arith(a.bits | b.bits),
        Caret => arith(a.bits ^ b.bits),
        Amp => arith(a.bits & b.bits),
        EqEq => cmp(a.bits == b.bits),
        Ne => cmp(a.bits != b.bits),
        Lt => cmp(if unsigned { a.bits < b.bits } else { sa < sb }),
        Gt => cmp(if unsigned { a.bits > b.bits } else { sa > sb }),
        Le => cmp(if unsigned { a.bits <= b.bits } else { sa <= sb }),
        Ge => cmp(if unsigned { a.bits >= b.bits } else { sa >= sb }),
        Shl => Val { bits: a.bits.wrapping_shl(b.bits as u32), unsigned: a.unsigned },
        Shr if a.unsigned => Val { bits: a.bits.wrapping_shr(b.bits as u32), unsigned: true },
        Shr => Val { bits: sa.wrapping_shr(b.bits as u32) as u64, unsigned: false },
        Plus => arith(a.bits.wrapping_add(b.bits)),
        Minus => arith(a.bits.wrapping_sub(b.bits)),
        Star => arith(a.bits.wrapping_mul(b.bits)),
        Slash | Percent if b.bits == 0 => {
            return Err(Diagnostic::new(ErrorCode::Syntax, span, "division by zero in `#if`").label("here"));
        }
        Slash if unsigned => arith(a.bits / b.bits),
        Slash => arith(sa.wrapping_div(sb) as u64),
        Percent if unsigned => arith(a.bits % b.bits),
        Percent => arith(sa.wrapping_rem(sb) as u64),
        _ => unreachable!("precedence() admits only binary operators"),
    })
}
