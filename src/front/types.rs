//! The kernel language's types and C's conversion rules.

use std::fmt;

use super::ast::BaseType;

/// A value that fits in a register.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Scalar {
    Bool,
    I8,
    U8,
    I16,
    U16,
    I32,
    U32,
    /// `long` and `long long` (64-bit on the Linux targets nvcc compiles for), `ptrdiff_t`.
    I64,
    /// `unsigned long`, `unsigned long long`, `size_t`.
    U64,
    /// `__half` (`half`) of `cuda_fp16.h`: IEEE binary16, computed in `float` (see `front::half`).
    F16,
    F32,
    F64,
}

impl Scalar {
    /// Every scalar, in declaration order.
    pub const ALL: [Scalar; 12] = [
        Scalar::Bool,
        Scalar::I8,
        Scalar::U8,
        Scalar::I16,
        Scalar::U16,
        Scalar::I32,
        Scalar::U32,
        Scalar::I64,
        Scalar::U64,
        Scalar::F16,
        Scalar::F32,
        Scalar::F64,
    ];

    pub fn size(self) -> u32 {
        match self {
            Scalar::Bool | Scalar::I8 | Scalar::U8 => 1,
            Scalar::I16 | Scalar::U16 | Scalar::F16 => 2,
            Scalar::I32 | Scalar::U32 | Scalar::F32 => 4,
            Scalar::I64 | Scalar::U64 | Scalar::F64 => 8,
        }
    }

    pub fn is_float(self) -> bool {
        matches!(self, Scalar::F16 | Scalar::F32 | Scalar::F64)
    }

    pub fn is_integer(self) -> bool {
        !self.is_float()
    }

    pub fn is_signed(self) -> bool {
        matches!(self, Scalar::I8 | Scalar::I16 | Scalar::I32 | Scalar::I64 | Scalar::F16 | Scalar::F32 | Scalar::F64)
    }

    /// Whether the type is 64 bits wide and an integer.
    pub fn is_wide_int(self) -> bool {
        matches!(self, Scalar::I64 | Scalar::U64)
    }

    /// C's integer promotion: everything narrower than `int` becomes `int`; a half computes in `float`
    /// (its result is rounded back where it is stored as a half).
    pub fn promote(self) -> Scalar {
        match self {
            Scalar::F16 => Scalar::F32,
            Scalar::Bool | Scalar::I8 | Scalar::U8 | Scalar::I16 | Scalar::U16 => Scalar::I32,
            s => s,
        }
    }

    /// The usual arithmetic conversions: the type both operands of `a op b` are converted to.
    pub fn common(a: Scalar, b: Scalar) -> Scalar {
        let (a, b) = (a.promote(), b.promote());
        if a == Scalar::F64 || b == Scalar::F64 {
            Scalar::F64
        } else if a == Scalar::F32 || b == Scalar::F32 {
            Scalar::F32
        } else if a == Scalar::U64 || b == Scalar::U64 {
            Scalar::U64
        } else if a == Scalar::I64 || b == Scalar::I64 {
            // long long can hold every unsigned int, so it wins over it (C11 6.3.1.8).
            Scalar::I64
        } else if a == Scalar::U32 || b == Scalar::U32 {
            Scalar::U32
        } else {
            Scalar::I32
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Scalar::Bool => "bool",
            Scalar::I8 => "char",
            Scalar::U8 => "unsigned char",
            Scalar::I16 => "short",
            Scalar::U16 => "unsigned short",
            Scalar::I32 => "int",
            Scalar::U32 => "unsigned int",
            Scalar::I64 => "long long",
            Scalar::U64 => "unsigned long long",
            Scalar::F16 => "__half",
            Scalar::F32 => "float",
            Scalar::F64 => "double",
        }
    }
}

/// A struct's layout, as nvcc lays it out: each field at the next multiple of its alignment, the size a
/// multiple of the largest alignment (or of `__align__(N)`).
#[derive(Clone, Debug, Eq)]
pub struct StructDef {
    pub name: String,
    pub fields: Vec<Field>,
    pub size: u32,
    pub align: u32,
}

/// A struct being declared (size 0, no fields) is the same type as its finished definition: `Node *next`
/// inside `struct Node` points to a `Node` (see [`StructDef::incomplete`]).
impl PartialEq for StructDef {
    fn eq(&self, o: &Self) -> bool {
        self.name == o.name
            && (self.is_incomplete() || o.is_incomplete() || (self.fields == o.fields && self.align == o.align))
    }
}

impl std::hash::Hash for StructDef {
    fn hash<H: std::hash::Hasher>(&self, h: &mut H) {
        self.name.hash(h);
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Field {
    pub name: String,
    pub ty: Type,
    pub offset: u32,
}

impl StructDef {
    /// The type a struct's name stands for inside its own definition, before its fields are known: only a
    /// pointer to it can be a field (`struct Node { int key; Node *next; }`).
    pub fn incomplete(name: impl Into<String>) -> StructDef {
        StructDef { name: name.into(), fields: vec![], size: 0, align: 1 }
    }

    /// Whether this is [`StructDef::incomplete`] (every finished struct has a size of at least 1).
    pub fn is_incomplete(&self) -> bool {
        self.size == 0
    }

    /// Lays out `fields` in order; `align` raises the alignment (`__align__(16)`).
    pub fn new(name: impl Into<String>, fields: Vec<(String, Type)>, align: u32) -> StructDef {
        let mut off = 0u32;
        let mut max = align.max(1);
        let mut out = vec![];
        for (name, ty) in fields {
            let a = ty.align();
            max = max.max(a);
            off = off.next_multiple_of(a);
            out.push(Field { name, ty: ty.clone(), offset: off });
            off = off.saturating_add(ty.size());
        }
        StructDef { name: name.into(), fields: out, size: off.next_multiple_of(max).max(1), align: max }
    }

    pub fn field(&self, name: &str) -> Option<&Field> {
        self.fields.iter().find(|f| f.name == name)
    }
}

/// A type of the kernel language.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Default)]
pub enum Type {
    #[default]
    Void,
    Scalar(Scalar),
    /// Pointer to `elem`; `is_const` says the pointee may not be written through it.
    Ptr {
        elem: Box<Type>,
        is_const: bool,
    },
    /// A fixed-size array (only `__shared__` arrays and their rows).
    Array(Box<Type>, u32),
    /// A struct of plain data (a user's, or a vector type such as `float4`).
    Struct(std::sync::Arc<StructDef>),
    /// A function of host code (what a function pointer points to): its result and parameter types. Only a
    /// pointer to it is a value (`void (*kernel)(float *, int)`); device code has none.
    Func(std::sync::Arc<(Type, Vec<Type>)>),
    /// The type of an expression that already produced a diagnostic: accepted everywhere, silently.
    Error,
}

impl Type {
    pub const INT: Type = Type::Scalar(Scalar::I32);
    pub const UINT: Type = Type::Scalar(Scalar::U32);
    pub const BOOL: Type = Type::Scalar(Scalar::Bool);
    pub const FLOAT: Type = Type::Scalar(Scalar::F32);

    pub fn ptr(elem: Type, is_const: bool) -> Type {
        Type::Ptr { elem: Box::new(elem), is_const }
    }

    /// The type a C base type names (`unsigned short` -> `u16`, `long` -> 64 bits as on the Linux targets
    /// nvcc compiles for). The device and host type checkers both read type specifiers through this.
    pub fn from_base(base: BaseType) -> Type {
        match base {
            BaseType::Void => Type::Void,
            BaseType::Bool => Type::BOOL,
            BaseType::Char | BaseType::SChar => Type::Scalar(Scalar::I8),
            BaseType::UChar => Type::Scalar(Scalar::U8),
            BaseType::Short => Type::Scalar(Scalar::I16),
            BaseType::UShort => Type::Scalar(Scalar::U16),
            BaseType::Int => Type::INT,
            BaseType::UInt => Type::UINT,
            BaseType::Long => Type::Scalar(Scalar::I64),
            BaseType::ULong => Type::Scalar(Scalar::U64),
            BaseType::Float => Type::FLOAT,
            BaseType::Half => Type::Scalar(Scalar::F16),
            BaseType::Double => Type::Scalar(Scalar::F64),
        }
    }

    pub fn scalar(&self) -> Option<Scalar> {
        match self {
            Type::Scalar(s) => Some(*s),
            _ => None,
        }
    }

    pub fn is_ptr(&self) -> bool {
        matches!(self, Type::Ptr { .. })
    }

    pub fn is_error(&self) -> bool {
        matches!(self, Type::Error)
    }

    /// Bytes the type occupies in memory (pointers are 8 bytes, as on a 64-bit GPU).
    pub fn size(&self) -> u32 {
        match self {
            Type::Void | Type::Error | Type::Func(_) => 1,
            Type::Scalar(s) => s.size(),
            Type::Ptr { .. } => 8,
            Type::Array(e, n) => e.size().saturating_mul(*n),
            Type::Struct(s) => s.size,
        }
    }

    /// The alignment the type needs in memory.
    pub fn align(&self) -> u32 {
        match self {
            Type::Array(e, _) => e.align(),
            Type::Struct(s) => s.align,
            t => t.size().clamp(1, 16),
        }
    }

    pub fn as_struct(&self) -> Option<&StructDef> {
        match self {
            Type::Struct(s) => Some(s),
            _ => None,
        }
    }

    /// The element type a pointer points to.
    pub fn pointee(&self) -> Option<&Type> {
        match self {
            Type::Ptr { elem, .. } => Some(elem),
            _ => None,
        }
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::Void => write!(f, "void"),
            Type::Scalar(s) => write!(f, "{}", s.name()),
            Type::Ptr { elem, is_const } => {
                if *is_const {
                    write!(f, "const ")?;
                }
                match &**elem {
                    Type::Array(e, n) => write!(f, "{e} (*)[{n}]"),
                    Type::Func(sig) => write!(f, "{} (*)({})", sig.0, params_text(&sig.1)),
                    e => write!(f, "{e} *"),
                }
            }
            Type::Array(e, n) => write!(f, "{e}[{n}]"),
            Type::Struct(s) => write!(f, "{}", s.name),
            Type::Func(sig) => write!(f, "{} ({})", sig.0, params_text(&sig.1)),
            Type::Error => write!(f, "<error>"),
        }
    }
}

/// A function type's parameters as C writes them (`float *, int`; `void` for none).
fn params_text(params: &[Type]) -> String {
    if params.is_empty() {
        return "void".into();
    }
    params.iter().map(|t| t.to_string()).collect::<Vec<_>>().join(", ")
}

impl Scalar {
    /// Reads raw register bits (zero-extended in the low bits) as a signed integer.
    pub fn int_value(self, bits: u64) -> i64 {
        match self {
            Scalar::Bool => (bits & 1) as i64,
            Scalar::I8 => bits as u8 as i8 as i64,
            Scalar::U8 => bits as u8 as i64,
            Scalar::I16 => bits as u16 as i16 as i64,
            Scalar::U16 => bits as u16 as i64,
            Scalar::I32 => bits as u32 as i32 as i64,
            Scalar::U32 => bits as u32 as i64,
            Scalar::I64 | Scalar::U64 => bits as i64,
            Scalar::F16 => super::half::to_f64(bits as u16) as i64,
            Scalar::F32 => f32::from_bits(bits as u32) as i64,
            Scalar::F64 => f64::from_bits(bits) as i64,
        }
    }

    fn float_value(self, bits: u64) -> f64 {
        match self {
            Scalar::F16 => super::half::to_f64(bits as u16),
            Scalar::F32 => f32::from_bits(bits as u32) as f64,
            Scalar::F64 => f64::from_bits(bits),
            Scalar::U64 => bits as f64,
            s => s.int_value(bits) as f64,
        }
    }

    /// C conversion of raw bits from `self` to `to`, as the GPU does it: integers wrap, float-to-integer
    /// truncates and saturates (NaN becomes 0), anything nonzero is `true`.
    #[inline]
    pub fn convert_bits(self, to: Scalar, bits: u64) -> u64 {
        match to {
            Scalar::Bool => match self {
                Scalar::F32 => (f32::from_bits(bits as u32) != 0.0) as u64,
                Scalar::F64 => (f64::from_bits(bits) != 0.0) as u64,
                Scalar::F16 => (bits & 0x7fff != 0) as u64,
                _ => (bits != 0) as u64,
            },
            Scalar::F32 => match self {
                Scalar::F32 => bits & 0xffff_ffff,
                Scalar::F64 => (f64::from_bits(bits) as f32).to_bits() as u64,
                Scalar::U32 => (bits as u32 as f32).to_bits() as u64,
                // Rounded once, from the integer itself (not through f64, which would round twice).
                Scalar::U64 => (bits as f32).to_bits() as u64,
                Scalar::I64 => (bits as i64 as f32).to_bits() as u64,
                Scalar::F16 => (super::half::to_f64(bits as u16) as f32).to_bits() as u64,
                s => (s.int_value(bits) as f32).to_bits() as u64,
            },
            // Rounded once from the value (an integer beyond f64's 53 bits is far past half's range).
            Scalar::F16 => match self {
                Scalar::F16 => bits & 0xffff,
                s => super::half::from_f64(s.float_value(bits)) as u64,
            },
            Scalar::F64 => self.float_value(bits).to_bits(),
            Scalar::U64 if self.is_float() => {
                let f = self.float_value(bits);
                if f.is_nan() { 0 } else { f as u64 }
            }
            Scalar::I8
            | Scalar::U8
            | Scalar::I16
            | Scalar::U16
            | Scalar::I32
            | Scalar::U32
            | Scalar::I64
            | Scalar::U64 => {
                let v: i64 = match self {
                    Scalar::F32 => {
                        let f = f32::from_bits(bits as u32);
                        saturate(f as f64, to)
                    }
                    Scalar::F64 => saturate(f64::from_bits(bits), to),
                    Scalar::F16 => saturate(super::half::to_f64(bits as u16), to),
                    s => s.int_value(bits),
                };
                match to {
                    Scalar::I8 | Scalar::U8 => v as u8 as u64,
                    Scalar::I16 | Scalar::U16 => v as u16 as u64,
                    Scalar::I64 | Scalar::U64 => v as u64,
                    _ => v as u32 as u64,
                }
            }
        }
    }
}

fn saturate(f: f64, to: Scalar) -> i64 {
    if f.is_nan() {
        return 0;
    }
    match to {
        Scalar::I8 => f.clamp(i8::MIN as f64, i8::MAX as f64) as i64,
        Scalar::U8 => f.clamp(0.0, u8::MAX as f64) as i64,
        Scalar::I16 => f.clamp(i16::MIN as f64, i16::MAX as f64) as i64,
        Scalar::U16 => f.clamp(0.0, u16::MAX as f64) as i64,
        Scalar::I32 => f.clamp(i32::MIN as f64, i32::MAX as f64) as i64,
        // `as` saturates at i64's range, like cvt.rzi.s64.
        Scalar::I64 => f as i64,
        _ => f.clamp(0.0, u32::MAX as f64) as i64,
    }
}
