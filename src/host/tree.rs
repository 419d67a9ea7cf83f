//! The host tree: a program's host functions with every name resolved to a slot, every expression typed and
//! every implicit conversion explicit. [`super::resolve`] builds it from the parse tree; [`super::interp`]
//! runs it. No string is looked up while a program runs.
//!
//! The tree is data: it names the library calls it holds (the C library's, the CUDA runtime's [`Api`], the
//! streams' [`StreamItem`]s) and imports nothing else of the host side, which all imports it.

use std::sync::Arc;

use crate::front::source::Span;
use crate::front::tast::{ArithOp, CmpOp, MathFn, UnOp};
use crate::front::types::{Scalar, Type};

/// A local's index in its function's frame.
pub type Slot = u32;

/// A resolved whole program's host side.
#[derive(Clone, Debug, Default)]
pub struct HostProgram {
    pub functions: Vec<Function>,
    /// Index of `main` in `functions`.
    pub main: u32,
    /// String literals, each with its terminating NUL (placed in host memory before `main` runs).
    pub strings: Vec<Vec<u8>>,
    /// How many file-scope variables the table of globals holds.
    pub globals: u32,
    /// The file's kernels by id, for messages about a function pointer that holds one.
    pub kernels: Vec<String>,
}

/// One host function.
#[derive(Clone, Debug)]
pub struct Function {
    pub name: String,
    /// Parameter slots with their types, in order.
    pub params: Vec<(Slot, Type)>,
    pub slots: u32,
    /// Locals kept in host memory (arrays, and scalars whose address is taken): slot, bytes, name. Each gets
    /// a stack allocation when the function is entered; the slot holds its address.
    pub frame: Vec<(Slot, u32, String)>,
    pub body: Vec<Stmt>,
    pub ret: Type,
    pub span: Span,
}

/// A statement.
#[derive(Clone, Debug)]
pub enum Stmt {
    Expr(Expr),
    /// `try { body } catch ...`: an exception thrown in the body runs the first handler that takes it.
    Try(Box<Stmt>, Vec<Handler>),
    Block(Vec<Stmt>),
    If {
        cond: Expr,
        then: Box<Stmt>,
        otherwise: Option<Box<Stmt>>,
    },
    While(Expr, Box<Stmt>),
    DoWhile(Box<Stmt>, Expr),
    For {
        init: Vec<Stmt>,
        cond: Option<Expr>,
        step: Option<Expr>,
        body: Box<Stmt>,
    },
    Break,
    Continue,
    Return(Option<Expr>),
    /// `switch`: the value, each `case` value with the index of the body statement it labels, the `default`
    /// label's index, and the body's statements (labels removed). `break` leaves the switch.
    Switch {
        value: Expr,
        cases: Vec<(u64, usize)>,
        default: Option<usize>,
        body: Vec<Stmt>,
    },
    /// File-scope variable `n` lives at the address in the slot (`main`'s prologue declares them).
    SetGlobal(u32, Slot),
    /// `__managed__` variable `global` (the program's global `symbol`) moved into managed memory, which the
    /// host reaches by name and the device as the symbol; file-scope variable `global` is its address.
    Managed {
        global: u32,
        symbol: u32,
    },
    /// `goto`, and the label it goes to: labels are statements of the function's body (not nested), by
    /// index in the function's label list.
    Goto(u32),
    Label(u32),
    /// Zero `bytes` at the address in a slot (a memory local's declaration without a full initialiser).
    Zero(Slot, u32),
    /// A variable-length array's declaration (`int ids[n]`, a GCC extension nvcc accepts): stack storage of
    /// the `bytes` the expression gives, zeroed, its address in `slot`; `name` is for messages. It lives
    /// until the declaration runs again (the block was left) or the function returns.
    Vla {
        slot: Slot,
        bytes: Expr,
        name: String,
    },
}

/// A typed expression.
#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub ty: Type,
    pub span: Span,
}

/// Where an object is: the place an assignment stores to, and what an lvalue names while the resolver
/// builds the tree (arrays and structs too, which are used only by their address). How a scalar is stored
/// there belongs to the operation (`Load`, `Assign`, `Compound`, `IncDec`): a place is only where.
#[derive(Clone, Debug)]
pub enum Place {
    /// A register local.
    Slot(Slot),
    /// Host (or, wrongly, device) memory at `addr`; `what` names the pointer for messages (`d_a`).
    Mem { addr: Box<Expr>, what: Option<String> },
}

impl Place {
    /// How a register local stores any value: all 64 bits.
    pub const REGISTER: Scalar = Scalar::U64;

    /// Memory at `addr`, named `what` for messages.
    pub fn mem(addr: Expr, what: Option<String>) -> Place {
        Place::Mem { addr: Box::new(addr), what }
    }
}

/// Where a launch's `dim3` comes from.
#[derive(Clone, Debug)]
pub enum Dim3Src {
    /// An integer: (n, 1, 1).
    Int(Expr),
    /// A `dim3` variable at this address.
    Mem(Expr),
    /// `dim3(x, y, z)` with up to three parts (the rest 1).
    Parts(Vec<Expr>),
}

/// A kernel launch written in host code.
#[derive(Clone, Debug)]
pub struct LaunchExpr {
    /// The kernel (a template instance's name for `k<256>`).
    pub kernel: String,
    pub grid: Dim3Src,
    pub block: Dim3Src,
    pub shared: Option<Expr>,
    /// The stream (`<<<g, b, s, stream>>>`).
    pub stream: Option<Expr>,
    /// The kernel's parameter names, each with the variable the launch passes (if it is one), for messages.
    pub params: Vec<(String, Option<String>)>,
    /// Arguments converted to the parameters' types, with the storage type of each.
    pub args: Vec<(Expr, Scalar)>,
    /// The host variables in scope at the launch (the debugger shows their values when stopped there).
    pub scope: Vec<ScopeVar>,
    /// Made by `cudaLaunchCooperativeKernel`: every block resident at once, so `grid.sync()` may be called.
    pub cooperative: bool,
}

/// A host variable visible at a launch, innermost declaration of each name.
#[derive(Clone, Debug)]
pub struct ScopeVar {
    pub name: String,
    pub slot: Slot,
    pub ty: Type,
    /// The slot holds the variable's address in host memory (arrays, structs, scalars whose address is taken).
    pub in_memory: bool,
    /// A constant's bits (a `const` local with a constant initialiser has no slot).
    pub constant: Option<u64>,
}

/// A function type: its result and parameters.
pub type FnType = Arc<(Type, Vec<Type>)>;

/// A call through a function pointer (`p(args)`, `(*p)(args)`).
#[derive(Clone, Debug)]
pub struct IndirectCall {
    /// The pointer's value.
    pub target: Expr,
    /// The arguments, converted to the pointer's parameter types.
    pub args: Vec<Expr>,
    /// The function type the pointer points to: the function it holds must have it.
    pub sig: FnType,
    /// The pointer's name, for messages.
    pub what: String,
}

/// A launch through a pointer to a kernel: the direct launch of each kernel of the pointer's type, by its
/// address; the one the pointer holds runs.
#[derive(Clone, Debug)]
pub struct IndirectLaunch {
    pub ptr: Expr,
    pub launches: Vec<(u64, LaunchExpr)>,
    /// The pointer's name, for messages.
    pub what: String,
}

/// Library functions host code calls (C library and CUDA runtime).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lib {
    Printf,
    Fprintf,
    Puts,
    Putchar,
    Malloc,
    Calloc,
    /// `realloc(p, n)`: a new allocation with the old bytes, the old one freed.
    Realloc,
    Memcmp,
    /// `sprintf(buf, fmt, ...)`, `snprintf(buf, n, fmt, ...)`: `printf` into host memory.
    Sprintf,
    Snprintf,
    /// `atof`/`strtod`/`strtof` into a float of this type.
    Strtod(Scalar),
    /// `strtol`/`strtoul` (and the `ll` forms) with a base, into this integer type.
    Strtol(Scalar),
    Free,
    Memset,
    Memcpy,
    Rand,
    Srand,
    Atoi,
    /// `atol`/`atoll`: as `atoi`, in 64 bits.
    Atol,
    Fflush,
    /// C's files ([`super::files`]).
    Fopen,
    Fclose,
    Fread,
    Fwrite,
    Fseek,
    Ftell,
    Rewind,
    Feof,
    Strcmp,
    Strncmp,
    Strcpy,
    Strcat,
    Strlen,
    /// A `std::string`'s fresh characters: the two C strings' concatenated.
    StrJoin,
    /// `std::to_string` of a value converted to this type (`I64`, `U64` or `F64`): fresh characters.
    ToString(Scalar),
    Exit,
    Abort,
    /// `assert(cond)`: the condition and its text.
    Assert,
    /// A `std::condition_variable` wait's predicate and the host deadlock it is when false (the second
    /// argument: the message's text), under warpdbg's host-thread schedule ([`super::threads`]).
    WaitFor,
    Setenv,
    Getenv,
    /// `abs`/`labs`/`fabs`/`sqrt`/...: computed in the operand type.
    Math(MathFn),
    /// `std::vector<T>` operations on the vector at the first argument (T stored as the scalar).
    VecResize(Scalar),
    VecReserve(Scalar),
    VecPush(Scalar),
    /// The same on a vector of structs of the given size: the value argument is the address of the element
    /// to copy (0: a zeroed one, as value-initialisation makes a struct without constructors).
    VecResizeBytes(u32),
    VecPushBytes(u32),
    /// `std::accumulate` over elements of the first scalar type into the second.
    Accumulate(Scalar, Scalar),
    /// `std::sort` of `[first, last)` of numbers ([`super::algorithm`]).
    Sort(Scalar, Order),
    /// `std::min_element` (false) or `std::max_element` (true): the first least or greatest element's address.
    Extreme(Scalar, bool),
    /// `std::reverse`.
    Reverse(Scalar),
    /// `std::equal(first, last, other)`.
    Equal(Scalar),
    /// `std::iota(first, last, value)`.
    Iota(Scalar),
    /// `std::count(first, last, value)`.
    Count(Scalar),
    /// `std::find(first, last, value)`: the first equal element's address, or `last`.
    Find(Scalar),
    /// An exception nothing catches: libstdc++'s `std::terminate` message (the type's name, or 0 for a
    /// `throw;` with none active; the `what()` text, or 0) and `abort`.
    Terminate,
    /// `throw value`: unwinds to the nearest `catch` that takes it (the type's name, the `what()` text or 0,
    /// the value), or, caught by none, ends as [`Lib::Terminate`] does.
    Throw,
    /// One item of `std::cout << ...`, `std::cerr << ...` or `file << ...`.
    Stream(StreamTo, StreamItem),
    /// `f >> x` on the input stream at the first argument into a scalar of this type: its new value (the
    /// second argument, the old one, where nothing was read) ([`super::istream`]).
    Extract(Scalar),
    /// `f >> s` into a `std::string`: fresh characters, or the old ones (the second argument).
    ExtractWord,
    /// `std::getline(f, s, delim)`: fresh characters, or the old ones (the second argument).
    GetLine,
    /// A stream's state (`good()`, ...), or `clear()`.
    StreamAsk(StreamAsk),
    /// A string stream over the C string at the first argument (written when the second is not 0).
    MemStream,
    /// A string stream's contents, `ss.str()`: fresh characters.
    StreamStr,
    /// `std::cin`'s handle.
    Cin,
    /// The CUDA runtime and the clocks ([`super::cuda`]).
    Cuda(Api),
    /// `va_arg`'s read of the variadic argument at the address, stored as the scalar ([`super::varargs`]).
    VaArg(Scalar),
    /// `vprintf(fmt, ap)`, `vfprintf(f, fmt, ap)`, `vsprintf(buf, fmt, ap)`, `vsnprintf(buf, n, fmt, ap)`.
    Vprintf,
    Vfprintf,
    Vsprintf,
    Vsnprintf,
    /// `scanf(fmt, ...)` from the standard input ([`super::scanf`]).
    Scanf,
    /// `<cstring>`'s searching, bounded copying and tokenising ([`super::cstring`]).
    Str(super::libfns::StrFn),
    /// `<cstdio>`'s character, line and scanning calls, and `errno` ([`super::cstdio`]).
    Stdio(super::libfns::StdioFn),
    /// `<cstdlib>`'s other generators and `<unistd.h>`'s sleeps ([`super::cstdlib`]).
    Stdlib(super::libfns::StdlibFn),
    /// `<cmath>`'s functions of mixed types ([`super::cmath`]).
    Cmath(super::libfns::CmathFn),
    /// `getopt` and its variables ([`super::getopt`]).
    Getopt(super::libfns::GetoptFn),
    /// `<cctype>` ([`super::ctype`]).
    Char(super::libfns::CharFn),
    /// `<random>` ([`super::random`]): seed the engine at the first argument with the second.
    Seed(Engine),
    /// The engine's next output (`eng()`, `rd()`).
    EngineNext(Engine),
    /// Set the distribution at the first argument's parameters to the next two (its saved value dropped).
    DistInit(Dist),
    /// `dist(eng)`: the distribution at the first argument draws from the engine at the second.
    Draw(Dist, Engine),
}

/// `<random>`'s engines, as libstdc++ defines them (`default_random_engine` is `minstd_rand0`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Engine {
    Mt19937,
    Mt19937_64,
    MinstdRand0,
    MinstdRand,
}

/// `<random>`'s distributions, with their result type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dist {
    UniformInt(Scalar),
    UniformReal(Scalar),
    Normal(Scalar),
}

/// How many of a library call's arguments are evaluated before it runs (`cudaMemcpy2DToArrayAsync` takes
/// nine); a `printf`-family call evaluates the values past them itself.
pub const LIB_ARGS: usize = 10;

/// A library call's arguments, evaluated; zero past the last.
pub type LibArgs = [u64; LIB_ARGS];

/// A runtime function host code calls: the CUDA runtime API and the clocks that read virtual time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Api {
    Malloc,
    /// `cudaMallocAsync(&p, bytes, stream)`: `cudaMalloc` at the call (work runs in program order).
    MallocAsync,
    MallocManaged,
    /// `cudaMallocHost` and `cudaHostAlloc`: pinned host memory the device can reach.
    MallocHost,
    FreeHost,
    HostGetDevicePointer,
    Free,
    Memcpy,
    MemcpyAsync,
    Memset,
    MemsetAsync,
    MemcpyToSymbol,
    MemcpyFromSymbol,
    GetSymbolAddress,
    MemGetInfo,
    DeviceSynchronize,
    DeviceReset,
    GetLastError,
    PeekAtLastError,
    GetErrorString,
    GetErrorName,
    SetDevice,
    GetDevice,
    /// `cudaDeviceGetSharedMemConfig(&c)`: 4-byte banks, as on every GPU since Maxwell.
    GetSharedMemConfig,
    /// `cudaDeviceGetCacheConfig(&c)`: `cudaFuncCachePreferNone`.
    GetCacheConfig,
    /// `cudaDeviceGetStreamPriorityRange(&least, &greatest)`: 0 and -5, an H100's range (either pointer may be
    /// null). Streams run in program order here, so a priority changes nothing.
    GetStreamPriorityRange,
    GetDeviceCount,
    GetDeviceProperties,
    DeviceGetAttribute,
    DriverGetVersion,
    RuntimeGetVersion,
    EventCreate,
    EventRecord,
    EventSynchronize,
    EventQuery,
    EventElapsedTime,
    EventDestroy,
    StreamCreate,
    StreamSynchronize,
    StreamQuery,
    StreamDestroy,
    /// `cudaFuncSetCacheConfig`, `cudaDeviceSetCacheConfig` and the like: accepted, no effect.
    Accepted,
    /// C's `clock()`: virtual CPU time in `CLOCKS_PER_SEC` (10^6) ticks.
    Clock,
    /// C's `time(&t)`: virtual seconds since the epoch.
    Time,
    /// `gettimeofday(&tv, tz)`.
    GetTimeOfDay,
    /// POSIX `clock_gettime(clock, &ts)`: every clock reads the virtual clock (`CLOCK_MONOTONIC` from the
    /// same epoch as `CLOCK_REALTIME`).
    ClockGetTime,
    /// A `<chrono>` clock's `now()` (`__warpdbg_chrono_now()`, as the parser reads it): the virtual clock in
    /// nanoseconds.
    ChronoNow,
    /// `cudaOccupancyMaxPotentialBlockSize(&minGrid, &block, kernel, shared, limit)`.
    OccupancyBlockSize,
    /// `cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, kernel, threads, shared)`.
    OccupancyActiveBlocks,
    FuncGetAttributes,
    PointerGetAttributes,
    Malloc3D,
    Memcpy3D,
    /// `cudaMallocPitch(&ptr, &pitch, width, height)`.
    MallocPitch,
    /// `cudaMemcpy2D(dst, dpitch, src, spitch, width, height, kind)`.
    Memcpy2D,
    /// `cudaMemcpy2DAsync(dst, dpitch, src, spitch, width, height, kind, stream)`.
    Memcpy2DAsync,
    /// `cudaMemset2D(ptr, pitch, value, width, height)` (and its `Async` form).
    Memset2D,
    /// `cudaMallocArray(&array, &desc, width, height, flags)`.
    MallocArray,
    FreeArray,
    /// `cudaMemcpy2DToArray(array, wOffset, hOffset, src, spitch, width, height, kind)`.
    Memcpy2DToArray,
    /// `cudaMemcpyToArray(array, wOffset, hOffset, src, count, kind)`.
    MemcpyToArray,
    /// `cudaMemcpy2DFromArray(dst, dpitch, array, wOffset, hOffset, width, height, kind)`.
    Memcpy2DFromArray,
    /// `cudaCreateTextureObject(&obj, &resDesc, &texDesc, &viewDesc)`.
    CreateTextureObject,
    DestroyTextureObject,
    StreamBeginCapture,
    StreamEndCapture,
    StreamIsCapturing,
    GraphCreate,
    GraphInstantiate,
    GraphLaunch,
    GraphExecDestroy,
    GraphDestroy,
    GraphGetNodes,
}

/// One item written to a stream.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StreamItem {
    /// A C string (a literal or a `char *`).
    Text,
    Char,
    /// An integer of this type.
    Int(Scalar),
    /// A floating-point value, as `double`.
    Float,
    Bool,
    Pointer,
    /// `std::endl`: a newline (and a flush).
    Endl,
    /// `std::flush`.
    Flush,
    SetW,
    SetPrecision,
    Fixed,
    Scientific,
    /// `std::defaultfloat`.
    DefaultFloat,
    /// `std::boolalpha`, `std::noboolalpha`.
    BoolAlpha,
    NoBoolAlpha,
    /// `std::left`, `std::right`: where the fill pads an item written with a width.
    Left,
    Right,
    /// `std::dec`, `std::hex`, `std::oct`: the base integers are written in.
    Dec,
    Hex,
    Oct,
    /// `std::setfill(c)`.
    SetFill,
}

/// What a stream's state is asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StreamAsk {
    Good,
    Eof,
    Fail,
    /// `!fail()`: what `while (f >> x)` tests.
    Ok,
    Clear,
}

/// Where a stream writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StreamTo {
    Out,
    Err,
    /// An `std::ofstream` (its file handle is the call's first argument).
    File,
}

/// Expression kinds. Values are raw bits in the canonical form of `sim::alu` (narrow integers zero-extended).
#[derive(Clone, Debug)]
pub enum ExprKind {
    Const(u64),
    /// The address of string literal `n`.
    Str(u32),
    /// A register local's value.
    Slot(Slot),
    /// The address of file-scope variable `n` (set when `main` starts).
    Global(u32),
    /// A value loaded from memory at `addr`, stored as `storage`; `what` names the pointer for messages.
    Load {
        addr: Box<Expr>,
        storage: Scalar,
        what: Option<String>,
    },
    /// `place = value`, the value stored as `storage` (`U64` for a register local, which keeps all 64 bits
    /// whatever its type).
    Assign {
        place: Box<Place>,
        storage: Scalar,
        value: Box<Expr>,
    },
    /// `place op= value` in `op_ty` (the usual arithmetic conversion of both), converted back to the
    /// place's `storage` type.
    Compound {
        op: ArithOp,
        op_ty: Scalar,
        storage: Scalar,
        place: Box<Place>,
        value: Box<Expr>,
    },
    /// `p += n` / `p -= n` on a pointer place: `n` times `elem_size` (negative to subtract).
    PtrCompound {
        elem_size: i64,
        place: Box<Place>,
        value: Box<Expr>,
    },
    /// `++x` / `x--`: the place, its storage type, the step (element size for pointers), whether it is the
    /// prefix form (the value after the step).
    IncDec {
        place: Box<Place>,
        storage: Scalar,
        step: i64,
        prefix: bool,
    },
    /// `op operand`, computed in `op_ty`.
    Unary {
        op: UnOp,
        op_ty: Scalar,
        operand: Box<Expr>,
    },
    /// `left op right`, both operands and the result in `op_ty`.
    Arith {
        op: ArithOp,
        op_ty: Scalar,
        left: Box<Expr>,
        right: Box<Expr>,
    },
    /// `left op right` compared as `op_ty`; a `bool`.
    Cmp {
        op: CmpOp,
        op_ty: Scalar,
        left: Box<Expr>,
        right: Box<Expr>,
    },
    And(Box<Expr>, Box<Expr>),
    Or(Box<Expr>, Box<Expr>),
    /// `cond ? then : otherwise`.
    Cond {
        cond: Box<Expr>,
        then: Box<Expr>,
        otherwise: Box<Expr>,
    },
    Convert {
        from: Scalar,
        to: Scalar,
        value: Box<Expr>,
    },
    /// `ptr + index * elem_size` (`index` an `I64`).
    PtrAdd {
        ptr: Box<Expr>,
        index: Box<Expr>,
        elem_size: i64,
    },
    /// `(left - right) / elem_size`.
    PtrDiff {
        left: Box<Expr>,
        right: Box<Expr>,
        elem_size: i64,
    },
    Call(u32, Vec<Expr>),
    /// A library call; `Scalar`s are the argument storage types after default promotions.
    Lib(Lib, Vec<Expr>),
    Launch(Box<LaunchExpr>),
    /// A call through a function pointer ([`super::fnptr`]).
    CallPtr(Box<IndirectCall>),
    /// A launch through a pointer to a kernel ([`super::fnptr`]).
    LaunchPtr(Box<IndirectLaunch>),
    /// `a, b`: both, the value of `b`.
    Comma(Box<Expr>, Box<Expr>),
    /// `[first, last)` each set to the value (evaluated once per element: `std::generate`), stored as
    /// `storage`.
    Generate {
        first: Box<Expr>,
        last: Box<Expr>,
        storage: Scalar,
        value: Box<Expr>,
    },
    /// Stores `dim3` parts (x, y, z; missing ones 1) at the address, value nothing.
    InitDim3(Box<Expr>, Vec<Expr>),
}

impl ExprKind {
    /// `place = value`, stored as `storage`.
    pub fn assign(place: Place, storage: Scalar, value: Expr) -> ExprKind {
        ExprKind::Assign { place: Box::new(place), storage, value: Box::new(value) }
    }
}

impl Expr {
    pub fn new(kind: ExprKind, ty: Type, span: Span) -> Expr {
        Expr { kind, ty, span }
    }
}

/// How a value of `ty` is stored (pointers as 64-bit integers); None for arrays, structs and void.
pub fn storage(ty: &Type) -> Option<Scalar> {
    match ty {
        Type::Scalar(s) => Some(*s),
        Type::Ptr { .. } => Some(Scalar::U64),
        _ => None,
    }
}

/// `sets` (expression statements) done in order, then `value`: one expression (`(a, b, value)`), of `value`'s
/// type; None when one of `sets` is not an expression.
pub fn sequence(sets: Vec<Stmt>, value: Expr) -> Option<Expr> {
    let (ty, span) = (value.ty.clone(), value.span);
    sets.into_iter().rev().try_fold(value, |value, set| match set {
        Stmt::Expr(set) => Some(Expr::new(ExprKind::Comma(Box::new(set), Box::new(value)), ty.clone(), span)),
        _ => None,
    })
}

/// The element type when `ty` is a `std::vector` ([`super::vector`]: a struct whose first field points to its
/// elements).
pub fn vector_elem(ty: &Type) -> Option<&Type> {
    match ty {
        Type::Struct(d) if d.name.starts_with("vector<") => d.fields.first().and_then(|f| f.ty.pointee()),
        _ => None,
    }
}

/// The order `std::sort` leaves a range in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Order {
    /// `a < b` (the default, `std::less`).
    Ascending,
    /// `a > b` (`std::greater`).
    Descending,
}

/// What a `catch` clause takes.
#[derive(Clone, Debug, PartialEq)]
pub enum Catches {
    /// `catch (...)`.
    All,
    /// A standard exception class (`runtime_error`): it and the classes derived from it.
    Std(String),
    /// A scalar thrown by value, by the name libstdc++ gives its type (`int`).
    Value(String),
}

/// One `catch` clause: what it takes, the slot its variable lives in (the `what()` text of a standard
/// exception, or the value), and its body.
#[derive(Clone, Debug)]
pub struct Handler {
    pub catches: Catches,
    pub slot: Option<Slot>,
    pub body: Stmt,
}
