//! Tokens of the kernel language.

use std::fmt;

use super::source::Span;

/// Reserved words the parser gives meaning to (CUDA qualifiers included).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kw {
    Global,
    Device,
    Host,
    Shared,
    Constant,
    Restrict,
    ForceInline,
    NoInline,
    Inline,
    Static,
    Extern,
    Const,
    Volatile,
    Unsigned,
    Signed,
    Int,
    Short,
    Long,
    Char,
    Float,
    Double,
    Bool,
    Void,
    Auto,
    If,
    Else,
    For,
    While,
    Do,
    Break,
    Continue,
    Return,
    True,
    False,
    Struct,
    Union,
    Enum,
    Typedef,
    Template,
    Switch,
    Case,
    Default,
    Goto,
    Sizeof,
}

impl Kw {
    /// Whether the keyword can begin a type (so a template argument made of it is a type).
    pub fn starts_type(self) -> bool {
        matches!(
            self,
            Kw::Int | Kw::Unsigned | Kw::Signed | Kw::Short | Kw::Long | Kw::Char | Kw::Float | Kw::Double | Kw::Bool
        )
    }

    /// The keyword's usual spelling (`struct` for struct/class/union/enum, `template` for typename).
    pub fn as_str(self) -> &'static str {
        const ALL: &[&str] = &[
            "__global__",
            "__device__",
            "__host__",
            "__shared__",
            "__constant__",
            "__restrict__",
            "__forceinline__",
            "__noinline__",
            "inline",
            "static",
            "extern",
            "const",
            "volatile",
            "unsigned",
            "signed",
            "int",
            "short",
            "long",
            "char",
            "float",
            "double",
            "bool",
            "void",
            "auto",
            "if",
            "else",
            "for",
            "while",
            "do",
            "break",
            "continue",
            "return",
            "true",
            "false",
            "struct",
            "typedef",
            "template",
            "switch",
            "case",
            "default",
            "goto",
            "sizeof",
        ];
        ALL.iter().copied().find(|w| Kw::lookup(w) == Some(self)).unwrap_or("")
    }

    pub fn lookup(s: &str) -> Option<Kw> {
        Some(match s {
            "__global__" => Kw::Global,
            "__device__" => Kw::Device,
            "__host__" => Kw::Host,
            "__shared__" => Kw::Shared,
            "__constant__" => Kw::Constant,
            "__restrict__" | "__restrict" => Kw::Restrict,
            "__forceinline__" => Kw::ForceInline,
            "__noinline__" => Kw::NoInline,
            "inline" | "__inline__" | "__inline" => Kw::Inline,
            "static" => Kw::Static,
            "extern" => Kw::Extern,
            "const" | "constexpr" => Kw::Const,
            "volatile" => Kw::Volatile,
            "unsigned" => Kw::Unsigned,
            "signed" => Kw::Signed,
            "int" => Kw::Int,
            "short" => Kw::Short,
            "long" => Kw::Long,
            "char" => Kw::Char,
            "float" => Kw::Float,
            "double" => Kw::Double,
            "bool" => Kw::Bool,
            "void" => Kw::Void,
            "auto" => Kw::Auto,
            "if" => Kw::If,
            "else" => Kw::Else,
            "for" => Kw::For,
            "while" => Kw::While,
            "do" => Kw::Do,
            "break" => Kw::Break,
            "continue" => Kw::Continue,
            "return" => Kw::Return,
            "true" => Kw::True,
            "false" => Kw::False,
            "struct" | "class" => Kw::Struct,
            "union" => Kw::Union,
            "enum" => Kw::Enum,
            "typedef" | "using" => Kw::Typedef,
            "template" | "typename" => Kw::Template,
            "switch" => Kw::Switch,
            "case" => Kw::Case,
            "default" => Kw::Default,
            "goto" => Kw::Goto,
            "sizeof" => Kw::Sizeof,
            _ => return None,
        })
    }
}

/// Operators and separators.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Punct {
    LParen,
    RParen,
    LBrace,
    RBrace,
    LBracket,
    RBracket,
    Semi,
    Comma,
    Dot,
    Arrow,
    ColonColon,
    Question,
    Colon,
    Tilde,
    Bang,
    Plus,
    Minus,
    Star,
    Slash,
    Percent,
    Amp,
    Pipe,
    Caret,
    Lt,
    Gt,
    Assign,
    PlusPlus,
    MinusMinus,
    PlusAssign,
    MinusAssign,
    StarAssign,
    SlashAssign,
    PercentAssign,
    AmpAssign,
    PipeAssign,
    CaretAssign,
    ShlAssign,
    ShrAssign,
    Shl,
    Shr,
    Le,
    Ge,
    EqEq,
    Ne,
    AndAnd,
    OrOr,
    /// `#` and `##`: only the preprocessor gives them meaning (stringizing and pasting in macro bodies).
    Hash,
    HashHash,
    /// `...`: a variadic macro's parameter list.
    Ellipsis,
}

impl Punct {
    pub fn as_str(self) -> &'static str {
        use Punct::*;
        match self {
            LParen => "(",
            RParen => ")",
            LBrace => "{",
            RBrace => "}",
            LBracket => "[",
            RBracket => "]",
            Semi => ";",
            Comma => ",",
            Dot => ".",
            Arrow => "->",
            ColonColon => "::",
            Question => "?",
            Colon => ":",
            Tilde => "~",
            Bang => "!",
            Plus => "+",
            Minus => "-",
            Star => "*",
            Slash => "/",
            Percent => "%",
            Amp => "&",
            Pipe => "|",
            Caret => "^",
            Lt => "<",
            Gt => ">",
            Assign => "=",
            PlusPlus => "++",
            MinusMinus => "--",
            PlusAssign => "+=",
            MinusAssign => "-=",
            StarAssign => "*=",
            SlashAssign => "/=",
            PercentAssign => "%=",
            AmpAssign => "&=",
            PipeAssign => "|=",
            CaretAssign => "^=",
            ShlAssign => "<<=",
            ShrAssign => ">>=",
            Shl => "<<",
            Shr => ">>",
            Le => "<=",
            Ge => ">=",
            EqEq => "==",
            Ne => "!=",
            AndAnd => "&&",
            OrOr => "||",
            Hash => "#",
            HashHash => "##",
            Ellipsis => "...",
        }
    }

    /// Longest match first, so `<<=` wins over `<<` and `<`.
    pub const ALL_BY_LENGTH: [Punct; 49] = {
        use Punct::*;
        [
            Ellipsis,
            ShlAssign,
            ShrAssign,
            Arrow,
            ColonColon,
            PlusPlus,
            MinusMinus,
            PlusAssign,
            MinusAssign,
            StarAssign,
            SlashAssign,
            PercentAssign,
            AmpAssign,
            PipeAssign,
            CaretAssign,
            Shl,
            Shr,
            Le,
            Ge,
            EqEq,
            Ne,
            AndAnd,
            OrOr,
            HashHash,
            LParen,
            RParen,
            LBrace,
            RBrace,
            LBracket,
            RBracket,
            Semi,
            Comma,
            Dot,
            Question,
            Colon,
            Tilde,
            Bang,
            Plus,
            Minus,
            Star,
            Slash,
            Percent,
            Amp,
            Pipe,
            Caret,
            Lt,
            Gt,
            Assign,
            Hash,
        ]
    };
}

/// Literal suffix information for integer constants (`u`, `l`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct IntSuffix {
    pub unsigned: bool,
    pub long: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub enum TokKind {
    Ident(String),
    Kw(Kw),
    Punct(Punct),
    /// Value and suffix; whether it was written in decimal matters for C's typing rule.
    Int {
        value: u64,
        suffix: IntSuffix,
        decimal: bool,
    },
    /// Value and whether it carried an `f` suffix (single precision).
    Float {
        value: f64,
        single: bool,
    },
    Str(String),
    Char(u32),
    Eof,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    pub kind: TokKind,
    pub span: Span,
}

impl fmt::Display for TokKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TokKind::Ident(s) => write!(f, "`{s}`"),
            TokKind::Kw(k) => write!(f, "keyword `{}`", format!("{k:?}").to_lowercase()),
            TokKind::Punct(p) => write!(f, "`{}`", p.as_str()),
            TokKind::Int { value, .. } => write!(f, "number `{value}`"),
            TokKind::Float { value, .. } => write!(f, "number `{value}`"),
            TokKind::Str(_) => write!(f, "string literal"),
            TokKind::Char(_) => write!(f, "character literal"),
            TokKind::Eof => write!(f, "end of file"),
        }
    }
}
