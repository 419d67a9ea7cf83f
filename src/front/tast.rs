//! The typed tree: names resolved, every expression typed, every implicit conversion explicit.
//! Lowering to the IR reads only this.

use super::ast::{BinaryOp, FnKind};
use super::curand::CurandFn;
use super::source::Span;
use super::types::{Scalar, Type};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LocalId(pub u32);
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SharedId(pub u32);
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FnId(pub u32);
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct GlobalId(pub u32);

/// Where a file-scope variable lives.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GlobalSpace {
    /// Per block; `dynamic` for `extern __shared__` (sized by the launch, every such array at one address).
    Shared {
        dynamic: bool,
    },
    Constant,
    Device,
    /// A thread's local array: one copy per thread of the launch.
    Local,
}

/// A `__shared__`, `__constant__` or `__device__` variable declared outside a function (or `extern
/// __shared__` inside one).
#[derive(Clone, Debug)]
pub struct GlobalVar {
    pub name: String,
    /// The declared type: a scalar, or an array (of arrays) of one; a dynamic array has length 0.
    pub ty: Type,
    pub elem: Scalar,
    pub space: GlobalSpace,
    /// The initialiser's elements, as values of `elem` (fewer than the elements: the rest are 0).
    pub init: Vec<crate::front::launch::Value>,
    pub span: Span,
    /// The function a local array belongs to (None at file scope).
    pub owner: Option<FnId>,
}

impl GlobalVar {
    /// Elements of `elem` the variable holds.
    pub fn len(&self) -> u64 {
        (self.ty.size() / self.elem.size().max(1)) as u64
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

/// A local variable or parameter (one register per thread).
#[derive(Clone, Debug)]
pub struct Local {
    pub name: String,
    pub ty: Type,
    pub span: Span,
    pub is_const: bool,
    /// Value of a `const` integer local with a constant initialiser (usable in array sizes).
    pub const_value: Option<i64>,
}

/// A `__shared__` array: per block, static size.
#[derive(Clone, Debug)]
pub struct SharedArray {
    pub name: String,
    /// The declared type, an array (possibly of arrays).
    pub ty: Type,
    pub elem: Scalar,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Function {
    pub name: String,
    pub kind: FnKind,
    pub ret: Type,
    pub params: Vec<LocalId>,
    pub locals: Vec<Local>,
    pub shared: Vec<SharedArray>,
    pub body: Vec<Stmt>,
    pub span: Span,
    /// The closing brace of the body.
    pub body_end: Span,
    /// Device functions this one calls (for recursion checks and inlining order).
    pub calls: Vec<FnId>,
    /// Parameters passed by reference: each is given a caller's local (a struct's field, `this`, the slot a
    /// returned struct goes to), and names that local's register, not a copy.
    pub by_ref: Vec<LocalId>,
}

#[derive(Clone, Debug, Default)]
pub struct Program {
    pub functions: Vec<Function>,
    /// A pre-CUDA-9 warp function the code uses (`__shfl_down`, ...): it compiled for pre-Volta scheduling
    /// and cannot run under ITS.
    pub legacy_warp: Option<String>,
    pub globals: Vec<GlobalVar>,
    /// Template instances calls need whose functions do not exist yet: the front end parses them and
    /// checks again.
    pub template_requests: Vec<TemplateRequest>,
    /// The file's function templates: name, `template <...>` header, whether a kernel.
    pub templates: Vec<(String, String, bool)>,
    /// File-scope items the parser set aside for an unsupported construct.
    pub unavailable: Vec<super::ast::Unavailable>,
    /// The host functions the file declares, prototypes included (a call of one defined nowhere is the
    /// program's own mistake, which the linker would report).
    pub host_declared: Vec<super::ast::Ident>,
    /// Unsupported constructs found in type checking, by the function they are in: errors where the launched
    /// kernel reaches the function, a warning for it otherwise.
    pub deferred: Vec<(FnId, super::diagnostic::Diagnostic)>,
    /// The file's structs and classes by name (typedef names included): host code uses them too.
    pub structs: std::collections::HashMap<String, std::sync::Arc<super::types::StructDef>>,
    /// The file's enumerators and their values (host code reads them too).
    pub enumerators: Vec<(String, i64)>,
}

/// An instance to parse: its name, the template, the arguments' tokens.
pub type TemplateRequest = (String, String, Vec<Vec<super::token::Token>>);

impl Program {
    pub fn find(&self, name: &str) -> Option<FnId> {
        self.functions.iter().position(|f| f.name == name).map(|i| FnId(i as u32))
    }

    pub fn function(&self, id: FnId) -> &Function {
        &self.functions[id.0 as usize]
    }

    /// Which functions `root` reaches through calls (itself included), by [`FnId`].
    pub fn reached_from(&self, root: FnId) -> Vec<bool> {
        let mut seen = vec![false; self.functions.len()];
        let mut stack = vec![root];
        while let Some(f) = stack.pop() {
            if let Some(s) = seen.get_mut(f.0 as usize)
                && !*s
            {
                *s = true;
                stack.extend(self.function(f).calls.iter().copied());
            }
        }
        seen
    }

    /// Does `kernel` reach only functions without unsupported constructs (so it can be lowered)?
    pub fn runnable(&self, kernel: FnId) -> bool {
        self.unsupported_in(kernel).is_none()
    }

    /// The first unsupported construct `kernel` reaches (in it or in a function it calls), if any.
    pub fn unsupported_in(&self, kernel: FnId) -> Option<&super::diagnostic::Diagnostic> {
        let reached = self.reached_from(kernel);
        self.deferred.iter().find(|(f, _)| reached.get(f.0 as usize).copied().unwrap_or(false)).map(|(_, d)| d)
    }

    pub fn kernels(&self) -> impl Iterator<Item = (FnId, &Function)> {
        self.functions.iter().enumerate().filter(|(_, f)| f.kind == FnKind::Global).map(|(i, f)| (FnId(i as u32), f))
    }
}

#[derive(Clone, Debug)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum StmtKind {
    Expr(Expr),
    /// `T x = init;` (an uninitialised local starts at zero bits; reading it is still the student's bug).
    Init(LocalId, Option<Expr>),
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
        init: Vec<Stmt>,
        cond: Option<Expr>,
        step: Option<Expr>,
        body: Box<Stmt>,
    },
    /// `switch (cond) { ... }`: the body's statements in order, and where each label is: `(Some(value), i)`
    /// for `case value:` before statement `i` (values of `cond`'s type), `(None, i)` for `default:`.
    /// Control falls through from one label's statements into the next; `break` leaves the switch.
    Switch {
        cond: Expr,
        labels: Vec<(Option<u64>, usize)>,
        body: Vec<Stmt>,
    },
    Break,
    Continue,
    Return(Option<Expr>),
}

/// Built-in index registers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Special {
    ThreadIdx(u8),
    BlockIdx(u8),
    BlockDim(u8),
    GridDim(u8),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ArithOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Shl,
    Shr,
    And,
    Or,
    Xor,
}

impl ArithOp {
    /// The arithmetic operation a C binary operator names (`+` -> `Add`, `&` -> `And`); None for comparisons
    /// and `&&`, `||`. The device and host type checkers both read operators through this.
    pub fn from_binary(op: BinaryOp) -> Option<ArithOp> {
        Some(match op {
            BinaryOp::Add => ArithOp::Add,
            BinaryOp::Sub => ArithOp::Sub,
            BinaryOp::Mul => ArithOp::Mul,
            BinaryOp::Div => ArithOp::Div,
            BinaryOp::Rem => ArithOp::Rem,
            BinaryOp::Shl => ArithOp::Shl,
            BinaryOp::Shr => ArithOp::Shr,
            BinaryOp::BitAnd => ArithOp::And,
            BinaryOp::BitOr => ArithOp::Or,
            BinaryOp::BitXor => ArithOp::Xor,
            _ => return None,
        })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpOp {
    Lt,
    Gt,
    Le,
    Ge,
    Eq,
    Ne,
}

impl CmpOp {
    /// The comparison a C binary operator names; None for every other operator.
    pub fn from_binary(op: BinaryOp) -> Option<CmpOp> {
        Some(match op {
            BinaryOp::Lt => CmpOp::Lt,
            BinaryOp::Gt => CmpOp::Gt,
            BinaryOp::Le => CmpOp::Le,
            BinaryOp::Ge => CmpOp::Ge,
            BinaryOp::Eq => CmpOp::Eq,
            BinaryOp::Ne => CmpOp::Ne,
            _ => return None,
        })
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum UnOp {
    Neg,
    BitNot,
    Not,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AtomicOp {
    Add,
    Sub,
    Exch,
    Cas,
    Min,
    Max,
    And,
    Or,
    Xor,
    /// `atomicInc`: `old >= val ? 0 : old + 1`.
    Inc,
    /// `atomicDec`: `old == 0 || old > val ? val : old - 1`.
    Dec,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShflKind {
    Idx,
    Up,
    Down,
    Xor,
}

/// What a reducing barrier computes over the block's predicates.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BarrierReduce {
    /// `__syncthreads_count`: how many threads' predicates were non-zero.
    Count,
    /// `__syncthreads_and`: 1 when every thread's was.
    And,
    /// `__syncthreads_or`: 1 when any thread's was.
    Or,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum VoteKind {
    Ballot,
    Any,
    All,
    /// `__match_any_sync`: the voters whose value (the "predicate" operand, any integer) equals the lane's own.
    MatchAny,
}

/// Math library functions, computed in the operand type.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MathFn {
    Min,
    Max,
    Abs,
    Sqrt,
    Rsqrt,
    Floor,
    Ceil,
    Trunc,
    Round,
    Exp,
    Exp2,
    Log,
    Log2,
    Sin,
    Cos,
    Tan,
    Pow,
    Fmod,
    Div,
    /// `fmaf(a, b, c)`: `a * b + c` rounded once.
    Fma,
    /// `__fmul_rn`, `__fadd_rn`, `__fsub_rn`: one rounding each, never contracted into an FMA.
    MulRn,
    AddRn,
    SubRn,
    /// `__popc`, `__clz`, `__ffs`, `__brev` on 32 bits, and their `ll` forms on 64.
    Popc,
    Popc64,
    Clz,
    Clz64,
    Ffs,
    Ffs64,
    Brev,
    Brev64,
    /// The high half of the full product (`__mulhi`, `__umulhi`, `__mul64hi`, `__umul64hi`, by type).
    MulHi,
    /// The product of the low 24 bits (`__mul24`, `__umul24`).
    Mul24,
    /// Clamp to [0, 1], NaN to 0 (`__saturatef`).
    Saturate,
    /// Round to nearest, ties to even (`rintf`, and `__float2int_rn` before its conversion).
    Rint,
    /// The operand's bits as another type (`__int_as_float`, `__float_as_uint`, ...).
    Bits,
    Exp10,
    Log10,
    /// The rest of `<cmath>`'s floating-point functions (`atanf`, `atan2`, `tanh`, ...), on both sides.
    Atan,
    Atan2,
    Asin,
    Acos,
    Sinh,
    Cosh,
    Tanh,
    Cbrt,
    Hypot,
    Expm1,
    Log1p,
    Copysign,
    /// `<cmath>`'s special functions (the C library's algorithms: `sim::special_math`).
    Erf,
    Erfc,
    Tgamma,
    Lgamma,
    Asinh,
    Acosh,
    Atanh,
    /// CUDA's fast-math intrinsics (`__expf`, `__exp10f`, `__logf`, `__log2f`, `__log10f`, `__powf`,
    /// `__sinf`, `__cosf`, `__tanf`), as the special function unit computes them (`sim::fast_math`).
    FastExp,
    FastExp10,
    FastLog,
    FastLog2,
    FastLog10,
    FastPow,
    FastSin,
    FastCos,
    FastTan,
    /// `fdim(x, y)`: `x - y` when positive, else +0.
    Fdim,
    /// `remainder(x, y)`: `x - n y` with `n` the nearest integer to `x / y` (ties to even).
    Remainder,
    /// The lane of set bit number `b mod popc(a)` of mask `a`, counted from bit 0 (0 for an empty mask): a
    /// coalesced group's thread of rank `b`.
    NthLane,
    /// The bits of `a` at the set bits of mask `b`, packed from bit 0 (a group's ballot, by rank).
    PackBits,
}

impl MathFn {
    pub fn arity(self) -> usize {
        match self {
            MathFn::Fma => 3,
            MathFn::Min
            | MathFn::Max
            | MathFn::Pow
            | MathFn::Fmod
            | MathFn::Div
            | MathFn::MulRn
            | MathFn::AddRn
            | MathFn::SubRn
            | MathFn::MulHi
            | MathFn::Mul24
            | MathFn::NthLane
            | MathFn::PackBits
            | MathFn::Atan2
            | MathFn::Hypot
            | MathFn::Copysign
            | MathFn::Fdim
            | MathFn::Remainder
            | MathFn::FastPow => 2,
            _ => 1,
        }
    }
}

/// CUDA built-in functions.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Intrinsic {
    SyncThreads,
    /// `__syncthreads_count/and/or(p)`: a barrier that also reduces `p` over the block's threads.
    SyncThreadsReduce(BarrierReduce),
    /// A cooperative group's `sync()` known only at run time (a `thread_group`): the argument is the
    /// group's lane mask, 0 for a whole block (`__syncthreads()`), else `__syncwarp(mask)`.
    GroupSync,
    /// `this_grid().sync()`: every thread of the grid waits for every other (a barrier and a fence).
    GridSync,
    /// `this_grid().is_valid()`: 1 in a kernel that calls `grid.sync()` (the driver then gives the launch a
    /// grid workspace), else 0.
    GridValid,
    /// `clock()` (`wide`: false) or `clock64()`.
    Clock {
        wide: bool,
    },
    SyncWarp,
    ThreadFence,
    Atomic(AtomicOp),
    Shfl(ShflKind),
    Vote(VoteKind),
    ActiveMask,
    Math(MathFn),
    /// A vector access of `bytes` at the address argument must be `align`-aligned (else a misaligned-address
    /// fault, as the GPU's 64- and 128-bit loads and stores give).
    CheckAlign {
        align: u32,
        bytes: u32,
        write: bool,
    },
    /// The address (the argument, its value) of one field of a built-in vector type's whole access (`float4 v =
    /// in[i]`), which the GPU makes as one 64- or 128-bit access: `first` at the vector's own address, of
    /// `bytes` in all. Only the lowering of a load or store through it reads it (`ir::VecPart`).
    VectorPart {
        bytes: u32,
        first: bool,
    },
    /// The index (first argument) into local array `GlobalId(global)` (at the second), checked.
    CheckIndex {
        global: u32,
    },
    /// Output word `out` of a cuRAND device function (see `sim::curand`): the new state's words, then results.
    Curand {
        f: CurandFn,
        out: u8,
    },
    /// Channel `out` of a texture fetch (see `sim::texture`); the arguments are the object, then the
    /// coordinates or the index.
    Texture {
        dim: crate::front::texture_fetch::TexDim,
        out: u8,
    },
}

/// Where an assignment writes.
#[derive(Clone, Debug)]
pub enum Place {
    Local(LocalId),
    /// Memory at the address the pointer expression yields; the type is the element's.
    Mem(Box<Expr>),
}

#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub ty: Type,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    /// Raw bits of a constant of `ty` (integers zero-extended from their width, floats as IEEE bits).
    Const(u64),
    Local(LocalId),
    /// Read memory through a pointer expression.
    Load(Box<Expr>),
    Special(Special),
    /// The address of the first element of a `__shared__` array.
    SharedAddr(SharedId),
    /// The address of a file-scope variable.
    GlobalAddr(GlobalId),
    Unary(UnOp, Box<Expr>),
    /// Both operands already have the operation's type (`ty`), shifts included.
    Arith {
        op: ArithOp,
        left: Box<Expr>,
        right: Box<Expr>,
    },
    /// Operands have a common type; the result is `bool`.
    Cmp {
        op: CmpOp,
        left: Box<Expr>,
        right: Box<Expr>,
    },
    /// `ptr ± index * elem_size`; index is `int` or `unsigned int`.
    PtrOffset {
        ptr: Box<Expr>,
        index: Box<Expr>,
        elem_size: u32,
        negate: bool,
    },
    /// `(a - b) / elem_size` as `int`.
    PtrDiff {
        a: Box<Expr>,
        b: Box<Expr>,
        elem_size: u32,
    },
    LogicalAnd(Box<Expr>, Box<Expr>),
    LogicalOr(Box<Expr>, Box<Expr>),
    /// `cond ? then : els`.
    Ternary {
        cond: Box<Expr>,
        then: Box<Expr>,
        els: Box<Expr>,
    },
    /// Convert the operand to `ty`.
    Convert(Box<Expr>),
    /// The value is already of the place's type; the expression's value is the stored value.
    Assign(Place, Box<Expr>),
    /// `place op= rhs`: computed in `op_ty` (rhs already converted to it), stored back converted.
    CompoundAssign {
        place: Place,
        op: ArithOp,
        rhs: Box<Expr>,
        op_ty: Scalar,
    },
    /// `p += n` / `p -= n` on a pointer.
    PtrCompoundAssign {
        place: Place,
        index: Box<Expr>,
        elem_size: u32,
        negate: bool,
    },
    IncDec {
        place: Place,
        increment: bool,
        prefix: bool,
    },
    Intrinsic(Intrinsic, Vec<Expr>),
    Call(FnId, Vec<Expr>),
    /// Format string and arguments after the default argument promotions.
    Printf(String, Vec<Expr>),
    /// `assert(cond)`: the condition's text and value; a thread whose value is zero stops the kernel.
    Assert(String, Box<Expr>),
    /// The statements, then the value: a call that fills a struct before its field is read.
    Seq(Vec<Stmt>, Box<Expr>),
    /// `kernel<<<...>>>(args)` in device code (dynamic parallelism): seven `unsigned int` configuration values
    /// (grid x, y, z, block x, y, z, dynamic shared bytes), then the arguments converted to the parameters.
    Launch {
        kernel: FnId,
        config: Vec<Expr>,
        args: Vec<Expr>,
    },
}

impl Expr {
    pub fn new(kind: ExprKind, ty: Type, span: Span) -> Self {
        Expr { kind, ty, span }
    }

    pub fn error(span: Span) -> Self {
        Expr { kind: ExprKind::Const(0), ty: Type::Error, span }
    }
}
