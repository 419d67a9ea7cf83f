//! `<cctype>` in the "C" locale, with glibc's results: a test is not 0 or 1 but its bit of glibc's
//! classification table (`isdigit('5')` is 2048), which a program that prints the result shows.

pub use super::libfns::{CharClass, CharFn};
use super::tree::Lib;
use crate::front::types::Type;

/// The signature of a `<cctype>` function: (what, parameters, variadic, result).
pub(super) fn library(name: &str) -> Option<(Lib, Vec<Type>, bool, Type)> {
    use CharClass as C;
    let f = match name {
        "isupper" => CharFn::Is(C::Upper),
        "islower" => CharFn::Is(C::Lower),
        "isalpha" => CharFn::Is(C::Alpha),
        "isdigit" => CharFn::Is(C::Digit),
        "isxdigit" => CharFn::Is(C::Xdigit),
        "isspace" => CharFn::Is(C::Space),
        "isprint" => CharFn::Is(C::Print),
        "isgraph" => CharFn::Is(C::Graph),
        "isblank" => CharFn::Is(C::Blank),
        "iscntrl" => CharFn::Is(C::Cntrl),
        "ispunct" => CharFn::Is(C::Punct),
        "isalnum" => CharFn::Is(C::Alnum),
        "toupper" => CharFn::ToUpper,
        "tolower" => CharFn::ToLower,
        _ => return None,
    };
    Some((Lib::Char(f), vec![Type::INT], false, Type::INT))
}

/// The classes glibc's "C" locale gives byte `c` (none outside ASCII).
fn classes(c: u8) -> u32 {
    use CharClass as C;
    let mut m = 0;
    let mut add = |yes: bool, class: CharClass| {
        if yes {
            m |= class as u32;
        }
    };
    add(c.is_ascii_uppercase(), C::Upper);
    add(c.is_ascii_lowercase(), C::Lower);
    add(c.is_ascii_alphabetic(), C::Alpha);
    add(c.is_ascii_digit(), C::Digit);
    add(c.is_ascii_hexdigit(), C::Xdigit);
    add(matches!(c, b' ' | b'\t'..=b'\r'), C::Space);
    add((0x20..0x7f).contains(&c), C::Print);
    add(c.is_ascii_graphic(), C::Graph);
    add(c == b' ' || c == b'\t', C::Blank);
    add(c < 0x20 || c == 0x7f, C::Cntrl);
    add(c.is_ascii_punctuation(), C::Punct);
    add(c.is_ascii_alphanumeric(), C::Alnum);
    m
}

/// `f(c)` as glibc computes it for an `int` argument (EOF, -1, is in no class and converts to itself).
pub fn run(f: CharFn, c: i32) -> i32 {
    let byte = u8::try_from(c).ok();
    match f {
        CharFn::Is(class) => byte.map_or(0, |b| (classes(b) & class as u32) as i32),
        CharFn::ToUpper => byte.filter(u8::is_ascii_lowercase).map_or(c, |b| b.to_ascii_uppercase() as i32),
        CharFn::ToLower => byte.filter(u8::is_ascii_uppercase).map_or(c, |b| b.to_ascii_lowercase() as i32),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rows printed by gcc 12 / glibc 2.36 for the same tests.
    #[test]
    fn classes_are_glibcs_bits() {
        use CharClass as C;
        let order = [C::Digit, C::Alpha, C::Alnum, C::Space, C::Upper, C::Lower, C::Punct, C::Xdigit, C::Print];
        let row = |c: i32| order.iter().map(|&k| run(CharFn::Is(k), c)).collect::<Vec<_>>();
        assert_eq!(row('a' as i32), [0, 1024, 8, 0, 0, 512, 0, 4096, 16384]);
        assert_eq!(row('5' as i32), [2048, 0, 8, 0, 0, 0, 0, 4096, 16384]);
        assert_eq!(row('\t' as i32), [0, 0, 0, 8192, 0, 0, 0, 0, 0]);
        assert_eq!(row('~' as i32), [0, 0, 0, 0, 0, 0, 4, 0, 16384]);
        assert_eq!(row(200), [0; 9]);
        assert_eq!(row(-1), [0; 9]);
        assert_eq!(run(CharFn::Is(C::Cntrl), 127), 2);
        assert_eq!(run(CharFn::ToUpper, 'a' as i32), 65);
        assert_eq!(run(CharFn::ToLower, 'Z' as i32), 122);
        assert_eq!(run(CharFn::ToUpper, -1), -1);
    }
}
