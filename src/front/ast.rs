//! The parse tree: what the text says, before names and types are resolved.

use super::source::Span;

#[derive(Clone, Debug, PartialEq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

/// The base of a declared type, as written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BaseType {
    Void,
    Bool,
    Char,
    SChar,
    UChar,
    Short,
    UShort,
    Int,
    UInt,
    /// `long` and `long long`: 64 bits.
    Long,
    ULong,
    Float,
    Double,
    /// `__half` / `half` of `cuda_fp16.h`.
    Half,
}

/// A written type: base, qualifiers and pointer levels (`const int *`).
#[derive(Clone, Debug, PartialEq)]
pub struct TypeSpec {
    pub base: BaseType,
    /// A struct or vector type's name (`innerStruct`, `float4`); `base` is then meaningless.
    pub named: Option<String>,
    pub is_const: bool,
    pub is_volatile: bool,
    pub pointers: u8,
    pub span: Span,
    /// A function type (host code only): the type is this function and `pointers` counts the pointers to it,
    /// so `void (*kernel)(float *, int)` has one; `base` and `named` are then meaningless.
    pub func: Option<Box<FnTypeSpec>>,
}

/// `R (params)`: the function a host function pointer points to, as written.
#[derive(Clone, Debug, PartialEq)]
pub struct FnTypeSpec {
    pub ret: TypeSpec,
    pub params: Vec<TypeSpec>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FnKind {
    Global,
    Device,
    /// A whole program's host function or member function returning a reference (`float &at(int i)`,
    /// `Vec &operator+=(const Vec &o)`): only in `host_defs`, where the host interpreter returns an address.
    HostRef,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub ty: TypeSpec,
    pub name: Ident,
    /// `T &x`: only cooperative groups may be passed so (they cannot change).
    pub reference: bool,
    /// `= value`: used when a call leaves the argument out.
    pub default: Option<Expr>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Function {
    pub kind: FnKind,
    pub ret: TypeSpec,
    pub name: Ident,
    pub params: Vec<Param>,
    pub body: Vec<Stmt>,
    /// The span of the signature, for "declared here" notes.
    pub span: Span,
    /// The closing brace: where threads that run off the end exit.
    pub body_end: Span,
}

/// `struct Name { fields };` (also `class`, and `typedef struct { ... } Name;`).
#[derive(Clone, Debug, PartialEq)]
pub struct StructDecl {
    pub name: Ident,
    pub fields: Vec<(TypeSpec, Declarator)>,
    /// `__align__(N)` / `alignas(N)`.
    pub align: Option<Expr>,
    pub span: Span,
    /// Member functions, constructors and friend functions, defined in the body or out of line.
    pub methods: Vec<Method>,
}

/// A member function of a struct or class (`__device__ float dot(const Vec3 &o) const { ... }`).
#[derive(Clone, Debug, PartialEq)]
pub struct Method {
    /// Named by the member's own name (`dot`, `operator+`, the class's name for a constructor).
    pub func: Function,
    /// `static`: no object (`Point::make(1, 2)`).
    pub is_static: bool,
    /// `... ) const`: may not change the object.
    pub is_const: bool,
    /// A constructor, with its member initialisers (`: x(a), y(b)`).
    pub ctor: Option<Vec<(Ident, Vec<Expr>)>>,
    /// A `friend` function defined in the class: an ordinary function of the file.
    pub friend: bool,
    /// Compiled for the device (`__device__`, `__host__ __device__`); a host-only member is only declared.
    pub device: bool,
    /// Only declared here (`float dot(const Vec3 &o) const;`), defined out of line.
    pub prototype: bool,
    /// Returns a reference (`Vec3 &operator+=(...)`): to the object itself, as `return *this;` gives.
    pub ret_ref: bool,
}

/// `enum [class] Name { A, B = 3 };`: its constants.
#[derive(Clone, Debug, PartialEq)]
pub struct EnumDecl {
    pub name: Option<Ident>,
    pub values: Vec<(Ident, Option<Expr>)>,
}

/// Where a file-scope variable lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VarSpace {
    /// `__shared__`: per block (`extern __shared__ T s[]` is the launch's dynamic shared memory).
    Shared,
    /// `__constant__`: read-only in kernels.
    Constant,
    /// `__device__`: global memory.
    Device,
    /// `__managed__` (with or without `__device__`): global memory host code reads and writes by name too.
    Managed,
    /// No memory-space qualifier: only `const` integers and floats, which are constants.
    Plain,
}

/// A variable declared outside every function.
#[derive(Clone, Debug, PartialEq)]
pub struct GlobalDecl {
    pub space: VarSpace,
    pub decl: Decl,
}

#[derive(Clone, Debug, PartialEq, Default)]
pub struct TranslationUnit {
    pub functions: Vec<Function>,
    pub globals: Vec<GlobalDecl>,
    /// Host functions, whose bodies are skipped: device code may not call them.
    pub host_functions: Vec<Ident>,
    pub structs: Vec<StructDecl>,
    pub enums: Vec<EnumDecl>,
    /// A whole program's host functions (`main` among them), parsed only when the file defines `main`;
    /// their `kind` means nothing (the host interpreter reads them, device type checking never does).
    pub host_defs: Vec<Function>,
    /// Items that use a construct warpdbg does not interpret, set aside with its diagnostic: an error only
    /// where the launched kernel reaches them.
    pub unavailable: Vec<Unavailable>,
}

/// What kind of item an [`Unavailable`] is (for its warning, and which names it hides).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ItemKind {
    Kernel,
    Function,
    Type,
    Variable,
}

impl ItemKind {
    /// The word a warning names the item with.
    pub fn word(self) -> &'static str {
        match self {
            ItemKind::Kernel => "kernel",
            ItemKind::Function => "function",
            ItemKind::Type => "type",
            ItemKind::Variable => "variable",
        }
    }
}

/// A file-scope item set aside because it uses an unsupported construct; `diag` is that construct's
/// diagnostic, reported as an error where reached code uses the item and as a warning otherwise.
#[derive(Clone, Debug, PartialEq)]
pub struct Unavailable {
    pub name: String,
    pub kind: ItemKind,
    pub diag: super::diagnostic::Diagnostic,
}

impl Unavailable {
    /// The warning for an item nothing launched reaches: `kernel `k` is not available: X is not supported by
    /// warpdbg`, pointing at the construct. In a whole program (`program`) the launches are only known as the
    /// host makes them: one that reaches the item stops the program there.
    pub fn warning(&self, program: bool) -> super::diagnostic::Diagnostic {
        let d = &self.diag;
        let why = match d.message.strip_prefix("not supported by warpdbg: ") {
            Some(what) => format!("{what} is not supported by warpdbg"),
            None => d.message.clone(),
        };
        let mut w = super::diagnostic::Diagnostic::new(
            d.code,
            d.span,
            format!("{} `{}` is not available: {why}", self.kind.word(), self.name),
        )
        .label(if d.label.is_empty() { "here" } else { d.label.as_str() })
        .into_warning();
        w.notes = d.notes.clone();
        w.notes.push(if program {
            format!("note: a launch that reaches `{}` stops the program there (status 2); the rest runs", self.name)
        } else {
            format!("note: the launched kernel does not use `{}`, so the rest of the file still runs", self.name)
        });
        w
    }
}

/// One name in a declaration: `*p = q`, `smem[512]`, `x`.
#[derive(Clone, Debug, PartialEq)]
pub struct Declarator {
    pub name: Ident,
    /// Extra pointer levels written on this name (`int *p, q;`).
    pub pointers: u8,
    pub dims: Vec<Expr>,
    /// `[]` written first: the outermost size comes from elsewhere (`extern __shared__ int s[];`, an
    /// initialiser: `int a[][3] = {{1, 2, 3}, {4, 5, 6}};`); `dims` are the others.
    pub open_size: bool,
    pub init: Option<Expr>,
    /// The initialiser was written in parentheses, `T v(a, b)` (a constructor's arguments), not braces or
    /// `= {...}`: `std::vector<int> v(3, 1)` is three ones, `v{3, 1}` two elements.
    pub paren_init: bool,
    /// `T &r = x;`: a reference, another name for `x`'s object.
    pub reference: bool,
}

impl Declarator {
    /// `name = init` with nothing else written on the name (no `*`, `[]`, `&`, parentheses): the declarators
    /// the parser and the resolvers make themselves.
    pub fn plain(name: Ident, init: Option<Expr>) -> Self {
        Declarator { name, pointers: 0, dims: vec![], open_size: false, init, paren_init: false, reference: false }
    }

    /// The outermost size an initialiser gives an array declared with `[]` first: `int a[] = {1, 2, 3}` (3),
    /// `char s[] = "abc"` (4, with the terminating zero); None for other declarators.
    pub fn open_len(&self) -> Option<usize> {
        match self.init.as_ref().map(|e| &e.kind).filter(|_| self.open_size)? {
            ExprKind::InitList(items) => Some(items.len()),
            ExprKind::Str(text) => Some(text.len() + 1),
            _ => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Decl {
    pub shared: bool,
    /// `extern`: declared here, sized elsewhere (dynamic shared memory).
    pub is_extern: bool,
    pub ty: TypeSpec,
    pub declarators: Vec<Declarator>,
    pub span: Span,
}

#[derive(Clone, Debug, PartialEq)]
pub enum StmtKind {
    Decl(Decl),
    Expr(Expr),
    Block(Vec<Stmt>),
    If {
        cond: Expr,
        then: Box<Stmt>,
        els: Option<Box<Stmt>>,
    },
    While {
        cond: Expr,
        body: Box<Stmt>,
    },
    DoWhile {
        body: Box<Stmt>,
        cond: Expr,
    },
    For {
        init: Option<Box<Stmt>>,
        cond: Option<Expr>,
        step: Option<Expr>,
        body: Box<Stmt>,
    },
    /// `for (T x : range) body`, `for (const auto &x : v)` (host code).
    ForRange {
        ty: TypeSpec,
        pointers: u8,
        reference: bool,
        name: Ident,
        range: Expr,
        body: Box<Stmt>,
    },
    Break,
    Continue,
    Return(Option<Expr>),
    /// `switch (cond) body` in host code; the body's `case`/`default` labels are statements in it.
    Switch {
        cond: Expr,
        body: Box<Stmt>,
    },
    /// `case value:` (host code).
    Case(Expr),
    /// `default:` (host code).
    Default,
    /// `goto label;` (host code: the error-handling style of Visual Studio's CUDA template).
    Goto(Ident),
    /// `label:` (host code), followed by the statement it labels.
    Label(Ident),
    /// `try { ... } catch (...) { ... }` (host code): the guarded block and its handlers in order.
    Try {
        body: Box<Stmt>,
        handlers: Vec<Catch>,
    },
    Empty,
}

/// One `catch` clause: the caught type's name as written without `const`, `std::` and `&` (`runtime_error`,
/// `int`), None for `catch (...)`; the variable it names, if any.
#[derive(Clone, Debug, PartialEq)]
pub struct Catch {
    pub class: Option<Ident>,
    pub var: Option<Ident>,
    pub body: Box<Stmt>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnaryOp {
    Neg,
    Plus,
    Not,
    BitNot,
    Deref,
    AddrOf,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    Shr,
    BitAnd,
    BitOr,
    BitXor,
    Lt,
    Gt,
    Le,
    Ge,
    Eq,
    Ne,
    LogAnd,
    LogOr,
}

impl BinaryOp {
    pub fn symbol(self) -> &'static str {
        use BinaryOp::*;
        match self {
            Add => "+",
            Sub => "-",
            Mul => "*",
            Div => "/",
            Rem => "%",
            Shl => "<<",
            Shr => ">>",
            BitAnd => "&",
            BitOr => "|",
            BitXor => "^",
            Lt => "<",
            Gt => ">",
            Le => "<=",
            Ge => ">=",
            Eq => "==",
            Ne => "!=",
            LogAnd => "&&",
            LogOr => "||",
        }
    }

    pub fn is_comparison(self) -> bool {
        matches!(self, BinaryOp::Lt | BinaryOp::Gt | BinaryOp::Le | BinaryOp::Ge | BinaryOp::Eq | BinaryOp::Ne)
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum ExprKind {
    Int {
        value: u64,
        unsigned: bool,
        /// An `l`/`ll` suffix.
        long: bool,
        decimal: bool,
    },
    Float {
        value: f64,
        single: bool,
    },
    Bool(bool),
    Char(u32),
    Str(String),
    Name(String),
    /// `threadIdx.x`: the object and the field.
    Member(Box<Expr>, Ident),
    Index(Box<Expr>, Box<Expr>),
    Call(Ident, Vec<Expr>),
    Unary(UnaryOp, Box<Expr>),
    Binary {
        op: BinaryOp,
        left: Box<Expr>,
        right: Box<Expr>,
    },
    /// `target = value` (op None) or `target op= value`.
    Assign {
        op: Option<BinaryOp>,
        target: Box<Expr>,
        value: Box<Expr>,
    },
    /// `++x`, `x--`, ...
    IncDec {
        increment: bool,
        prefix: bool,
        operand: Box<Expr>,
    },
    /// `cond ? then : els`.
    Ternary {
        cond: Box<Expr>,
        then: Box<Expr>,
        els: Box<Expr>,
    },
    Cast(TypeSpec, Box<Expr>),
    /// `{a, b, c}`: an initialiser list (only as a declaration's initialiser).
    InitList(Vec<Expr>),
    /// `obj.method(args)` (cooperative groups: `tile.shfl_down(v, 1)`).
    MethodCall {
        object: Box<Expr>,
        method: Ident,
        args: Vec<Expr>,
    },
    /// `sizeof(T)`.
    SizeofType(TypeSpec),
    /// `sizeof x`.
    SizeofExpr(Box<Expr>),
    /// `k<<<grid, block[, shmem[, stream]]>>>(args)` in host code: the kernel (a name, perhaps a template
    /// instance's), the configuration and the arguments.
    Launch {
        kernel: Ident,
        config: Vec<Expr>,
        args: Vec<Expr>,
    },
    /// `new T`, `new T(args)`, `new T[n]` in host code: the type, the element count of an array `new`, the
    /// constructor arguments.
    New {
        ty: TypeSpec,
        count: Option<Box<Expr>>,
        args: Vec<Expr>,
    },
    /// `[captures](params) mutable -> R { body }` in host code: a closure object (`src/host/lambda.rs`).
    Lambda {
        params: Vec<Param>,
        body: Vec<Stmt>,
        captures: Captures,
        /// `-> R`: the written result type (None: deduced from the first `return`).
        ret: Option<Box<TypeSpec>>,
    },
    /// `throw value` (`throw;` rethrows: None) in host code.
    Throw(Option<Box<Expr>>),
    /// `a, b` in host code.
    Comma(Box<Expr>, Box<Expr>),
    /// `delete p` (false) or `delete[] p` (true) in host code.
    Delete(bool, Box<Expr>),
    /// Placeholder after a syntax error, so later passes need not special-case missing pieces.
    Error,
}

/// A lambda's capture list: the default (`[=]`, `[&]`) and the names written out.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Captures {
    pub default: CaptureDefault,
    /// `x` (by value) and `&x` (by reference), as written.
    pub names: Vec<Capture>,
}

/// What a lambda captures of the names its body uses and the list does not name.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum CaptureDefault {
    /// `[]`, `[x]`: nothing more.
    #[default]
    None,
    /// `[=]`: copies.
    Copy,
    /// `[&]`: references.
    Ref,
}

/// One name of a capture list.
#[derive(Clone, Debug, PartialEq)]
pub struct Capture {
    pub name: Ident,
    pub by_ref: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}
