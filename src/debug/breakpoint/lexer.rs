//! The breakpoint language's tokens: integers (decimal or `0x`), names (`barrier-mismatch` is one word) and
//! operators, each with its span in the spec.

use crate::front::diagnostic::{Diagnostic, ErrorCode};
use crate::front::source::{FileId, Span};

#[derive(Clone, Debug, PartialEq)]
pub(super) enum Tok {
    Int(i64),
    Name(String),
    Op(&'static str),
    End,
}

const OPS: [&str; 19] =
    ["==", "!=", "<=", ">=", "&&", "||", "<", ">", "!", "+", "-", "*", "/", "%", "(", ")", "[", "]", ","];

pub(super) fn lex(text: &str, file: FileId) -> Result<Vec<(Tok, Span)>, Diagnostic> {
    let b = text.as_bytes();
    let mut out = vec![];
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        if c.is_ascii_digit() {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            let word = &text[start..i];
            let parsed = match word.strip_prefix("0x").or_else(|| word.strip_prefix("0X")) {
                Some(hex) => i64::from_str_radix(hex, 16),
                None => word.parse::<i64>(),
            };
            let v = parsed.map_err(|_| {
                Diagnostic::new(ErrorCode::Lexical, Span::new(file, start, i), format!("`{word}` is not a number"))
                    .label("not a decimal or 0x hexadecimal integer")
            })?;
            out.push((Tok::Int(v), Span::new(file, start, i)));
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'-') {
                i += 1;
            }
            // `barrier-mismatch` is one word; `a-b` is a subtraction.
            let mut word = &text[start..i];
            if word.contains('-') && word != "barrier-mismatch" {
                i = start + word.find('-').unwrap_or(word.len());
                word = &text[start..i];
            }
            out.push((Tok::Name(word.to_string()), Span::new(file, start, i)));
            continue;
        }
        if let Some(op) = OPS.iter().find(|op| text[i..].starts_with(**op)) {
            i += op.len();
            out.push((Tok::Op(op), Span::new(file, start, i)));
            continue;
        }
        let ch = text[i..].chars().next().unwrap_or('?');
        let span = Span::new(file, i, i + ch.len_utf8());
        let d = Diagnostic::new(ErrorCode::Lexical, span, format!("unexpected character `{ch}` in a breakpoint"));
        return Err(match ch {
            '&' => d.label("a lone `&`").hint("conditions use `&&` (and), `||` (or) and `!` (not)"),
            '|' => d.label("a lone `|`").hint("conditions use `&&` (and), `||` (or) and `!` (not)"),
            '=' => d.label("assignment is not a comparison").hint("compare with `==`"),
            '.' => d
                .label("no members here")
                .hint("name the thread with `tid` (index in the block), `lane`, `warp` or `block`"),
            _ => d.label("not part of a breakpoint spec"),
        });
    }
    out.push((Tok::End, Span::new(file, b.len(), b.len())));
    Ok(out)
}

pub(super) fn describe(t: &Tok) -> String {
    match t {
        Tok::Int(v) => format!("`{v}`"),
        Tok::Name(n) => format!("`{n}`"),
        Tok::Op(o) => format!("`{o}`"),
        Tok::End => "the end of the breakpoint".into(),
    }
}
