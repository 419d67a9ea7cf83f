//! The intermediate representation the simulator runs: a flat instruction list per kernel, grouped into basic
//! blocks, with a control-flow graph whose conditional branches know their reconvergence point (the immediate
//! post-dominator).
//!
//! The IR's types, basic blocks and the control-flow graph among them, live here at the root; the passes
//! (`lower`, `postdom`, `pack`, `print`, `defined`) are children that import them, and this module imports none
//! of its children.

pub mod defined;
pub mod liveness;
pub mod lower;
pub mod pack;
pub mod postdom;
pub mod print;

use crate::front::curand::CurandFn;
use crate::front::source::Span;
use crate::front::tast::{AtomicOp, BarrierReduce, MathFn, ShflKind, Special, VoteKind};
use crate::front::types::{Scalar, Type};

pub use crate::front::tast::{ArithOp, CmpOp, UnOp};

/// Index of an instruction in [`Kernel::instrs`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[repr(transparent)]
pub struct Pc(pub u32);

impl Pc {
    /// A warp's lane PCs as plain numbers, in place (for lane-parallel compares).
    pub fn numbers(pcs: &[Pc; 32]) -> &[u32; 32] {
        // SAFETY: `Pc` is `repr(transparent)` over `u32`, so the arrays have one layout.
        unsafe { &*(pcs as *const [Pc; 32]).cast::<[u32; 32]>() }
    }

    /// [`Pc::numbers`] to write.
    pub fn numbers_mut(pcs: &mut [Pc; 32]) -> &mut [u32; 32] {
        // SAFETY: as in `numbers`; the borrow is the array's.
        unsafe { &mut *(pcs as *mut [Pc; 32]).cast::<[u32; 32]>() }
    }

    /// The virtual exit: a branch reconverging here never reconverges before its threads finish.
    pub const EXIT: Pc = Pc(u32::MAX);
}

/// A basic block, by its index in [`Kernel::blocks`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct BlockId(pub u32);

/// A maximal straight-line run of instructions `start..end`; the last one is its terminator.
#[derive(Clone, Debug, PartialEq)]
pub struct Block {
    pub start: Pc,
    pub end: Pc,
    pub succs: Vec<BlockId>,
    pub preds: Vec<BlockId>,
    /// Immediate post-dominator; `None` when it is the virtual exit.
    pub ipdom: Option<BlockId>,
}

impl Block {
    pub fn terminator(&self) -> Pc {
        Pc(self.end.0 - 1)
    }
}

/// A per-thread virtual register. Parameters occupy the first registers, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Reg(pub u32);

/// How a register's 64 bits are read: narrow types live zero-extended in the low bits.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    Bool,
    I8,
    U8,
    I16,
    U16,
    I32,
    U32,
    I64,
    U64,
    /// A binary16 half: only loaded, stored and converted (its arithmetic is in `F32`).
    F16,
    F32,
    F64,
    /// A 64-bit address.
    Ptr,
}

impl Ty {
    pub fn of(t: &Type) -> Ty {
        match t {
            Type::Scalar(s) => Ty::from(*s),
            _ => Ty::Ptr,
        }
    }

    /// The source-language scalar this register type holds; None for an address.
    pub fn scalar(self) -> Option<Scalar> {
        Some(match self {
            Ty::Bool => Scalar::Bool,
            Ty::I8 => Scalar::I8,
            Ty::U8 => Scalar::U8,
            Ty::I16 => Scalar::I16,
            Ty::U16 => Scalar::U16,
            Ty::I32 => Scalar::I32,
            Ty::U32 => Scalar::U32,
            Ty::I64 => Scalar::I64,
            Ty::U64 => Scalar::U64,
            Ty::F16 => Scalar::F16,
            Ty::F32 => Scalar::F32,
            Ty::F64 => Scalar::F64,
            Ty::Ptr => return None,
        })
    }

    /// Register bits as the value the kernel sees, as an integer (floats truncated, addresses as they are).
    pub fn int_value(self, bits: u64) -> i64 {
        self.scalar().map_or(bits as i64, |s| s.int_value(bits))
    }

    /// Bytes this type occupies in memory.
    pub fn size(self) -> u32 {
        match self {
            Ty::Bool | Ty::I8 | Ty::U8 => 1,
            Ty::I16 | Ty::U16 | Ty::F16 => 2,
            Ty::I32 | Ty::U32 | Ty::F32 => 4,
            Ty::I64 | Ty::U64 | Ty::F64 | Ty::Ptr => 8,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Ty::Bool => "bool",
            Ty::I8 => "i8",
            Ty::U8 => "u8",
            Ty::I16 => "i16",
            Ty::U16 => "u16",
            Ty::I32 => "i32",
            Ty::U32 => "u32",
            Ty::I64 => "i64",
            Ty::U64 => "u64",
            Ty::F16 => "f16",
            Ty::F32 => "f32",
            Ty::F64 => "f64",
            Ty::Ptr => "ptr",
        }
    }
}

impl From<Scalar> for Ty {
    fn from(s: Scalar) -> Ty {
        match s {
            Scalar::Bool => Ty::Bool,
            Scalar::I8 => Ty::I8,
            Scalar::U8 => Ty::U8,
            Scalar::I16 => Ty::I16,
            Scalar::U16 => Ty::U16,
            Scalar::I32 => Ty::I32,
            Scalar::U32 => Ty::U32,
            Scalar::I64 => Ty::I64,
            Scalar::U64 => Ty::U64,
            Scalar::F16 => Ty::F16,
            Scalar::F32 => Ty::F32,
            Scalar::F64 => Ty::F64,
        }
    }
}

/// A register or an immediate (raw bits, in the representation of the operation's type).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operand {
    Reg(Reg),
    Imm(u64),
}

/// A value the machine keeps rather than the thread (see [`Instr::ReadCounter`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Counter {
    /// `clock()`: the low 32 bits of `clock64()`, sign-extended (CUDA's `clock_t` from the 32-bit `%clock`).
    Clock,
    /// `clock64()`: the instructions the simulated SM issued before this one (the run's step count), so
    /// deterministic and non-decreasing for every thread.
    Clock64,
    /// The result of the block's last reducing barrier (`__syncthreads_count`, `_and`, `_or`).
    Barrier(BarrierReduce),
}

/// Which part of a built-in vector type's access (`float2`, `float4`, `int4`, `double2`, ...) a load or store
/// is. The GPU moves the whole vector in one 64- or 128-bit access (`LDG.E.128`: one request, 16 bytes a
/// lane); the IR accesses it field by field, so the faults, races and uninitialised reads see every byte, and
/// the global traffic counts the first field's access as the vector's request and the others as none.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum VecPart {
    /// A scalar access of its own.
    #[default]
    Alone,
    /// The first field (at the vector's address) of a vector of `bytes` (its size: 2 to 16).
    First { bytes: u8 },
    /// A later field: its bytes belong to the first field's request.
    Rest,
}

/// What source construct a conditional branch comes from (for metrics and explanations).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BranchKind {
    If,
    Loop,
    Ternary,
    /// An operand of `&&` / `||`: a real branch, but counted with its statement, not on its own.
    ShortCircuit,
    /// A `thread_group`'s `sync()` choosing between a block's barrier and a tile's `__syncwarp` by the group's
    /// mask: part of the call, not counted (every thread of a group goes the same way).
    GroupSync,
}

/// Identity of a conditional branch for metrics: the statement's line and whether it counts as a branch of
/// that statement (see interface.md: branches are counted per source branch statement).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BranchSite {
    pub line: u32,
    pub kind: BranchKind,
    pub counted: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub enum Instr {
    Mov {
        dst: Reg,
        src: Operand,
    },
    Unary {
        op: UnOp,
        ty: Ty,
        dst: Reg,
        src: Operand,
    },
    Binary {
        op: ArithOp,
        ty: Ty,
        dst: Reg,
        a: Operand,
        b: Operand,
    },
    /// Compare in `ty`; `dst` gets a bool.
    Cmp {
        op: CmpOp,
        ty: Ty,
        dst: Reg,
        a: Operand,
        b: Operand,
    },
    Convert {
        from: Ty,
        to: Ty,
        dst: Reg,
        src: Operand,
    },
    /// `dst = base + index * scale` (`scale` negative for subtraction); `index` is i32 or u32.
    PtrAdd {
        dst: Reg,
        base: Operand,
        index: Operand,
        index_signed: bool,
        scale: i64,
    },
    /// `dst = (a - b) / elem_size` as i32.
    PtrDiff {
        dst: Reg,
        a: Operand,
        b: Operand,
        elem_size: u32,
    },
    Special {
        dst: Reg,
        which: Special,
    },
    /// Address of a `__shared__` array of the thread's block.
    SharedAddr {
        dst: Reg,
        array: u32,
    },
    Load {
        ty: Ty,
        dst: Reg,
        addr: Operand,
        part: VecPart,
    },
    Store {
        ty: Ty,
        addr: Operand,
        src: Operand,
        part: VecPart,
    },
    /// Returns the old value; `b` is the new value of a compare-and-swap, unused otherwise.
    Atomic {
        op: AtomicOp,
        ty: Ty,
        dst: Reg,
        addr: Operand,
        a: Operand,
        b: Operand,
    },
    /// `__syncthreads()`; with `pred`, one of its reducing forms (`__syncthreads_count(p)`, ...): each
    /// arriving thread's predicate counts towards the block's result, which [`Counter::Barrier`] reads after.
    SyncThreads {
        pred: Option<Operand>,
        /// A grid-wide barrier (`this_grid().sync()`): the block's barrier, after which the block waits until
        /// every block of the grid has arrived at one (`sim::machine::grid_barrier`). Never with `pred`.
        grid: bool,
    },
    /// `dst` = a counter of the machine (the same value for every lane of the issue).
    ReadCounter {
        dst: Reg,
        which: Counter,
    },
    SyncWarp {
        mask: Operand,
    },
    Fence,
    /// Faults as a misaligned access of `bytes` (a read, or a write) unless `addr` is a multiple of `align`: a
    /// vector type's 64- or 128-bit access, whose parts the lowering then loads or stores one by one.
    CheckAlign {
        addr: Operand,
        align: u32,
        bytes: u32,
        write: bool,
    },
    /// `dst = index`, faulting as an out-of-bounds `__local__` access when `index` (unsigned) is `len` or
    /// more: an index into the thread's local array [`Kernel::strings`]`[name]` that starts at `base`.
    CheckBounds {
        dst: Reg,
        index: Operand,
        base: Operand,
        len: u32,
        elem_size: u32,
        name: u32,
    },
    Shfl {
        kind: ShflKind,
        ty: Ty,
        dst: Reg,
        mask: Operand,
        value: Operand,
        lane: Operand,
        width: Operand,
    },
    Vote {
        kind: VoteKind,
        dst: Reg,
        mask: Operand,
        pred: Operand,
    },
    ActiveMask {
        dst: Reg,
    },
    Math {
        func: MathFn,
        ty: Ty,
        dst: Reg,
        a: Operand,
        b: Operand,
    },
    /// `dst = a * b + c` rounded once: nvcc contracts a float multiply feeding an add into one FMA
    /// (`--fmad=true`, its default), and so does the lowering (see `lower.rs`, `contract`).
    Fma {
        ty: Ty,
        dst: Reg,
        a: Operand,
        b: Operand,
        c: Operand,
    },
    /// Output word `out` of cuRAND function `f` on `args` (see `sim::curand`).
    Curand {
        f: CurandFn,
        out: u8,
        ty: Ty,
        dst: Reg,
        args: Box<[Operand]>,
    },
    /// Channel `out` of a texture fetch (see `sim::texture`): `args` are the texture object, then the
    /// coordinates (x, y as floats) or the index (`tex1Dfetch`).
    Texture {
        dim: crate::front::texture_fetch::TexDim,
        out: u8,
        ty: Ty,
        dst: Reg,
        args: Box<[Operand]>,
    },
    /// `assert(cond)`: a lane whose `cond` is zero stops the kernel; `text` (the condition as written) indexes
    /// [`Kernel::strings`].
    Assert {
        cond: Operand,
        text: u32,
    },
    /// `fmt` indexes [`Kernel::strings`].
    Printf {
        fmt: u32,
        args: Box<[(Operand, Ty)]>,
    },
    /// A launch from device code (dynamic parallelism): each executing lane queues a grid of the kernel
    /// named by [`Kernel::strings`]`[kernel]`, with `config` (grid x, y, z, block x, y, z, dynamic shared
    /// bytes) and the argument bits `args`, to run after this grid (`sim::child_launch`).
    Launch {
        kernel: u32,
        config: Box<[Operand; 7]>,
        args: Box<[Operand]>,
    },
    // Terminators: exactly one ends every block.
    Jump {
        target: Pc,
    },
    Branch {
        cond: Operand,
        then_pc: Pc,
        else_pc: Pc,
        reconv: Pc,
        site: BranchSite,
    },
    Exit,
}

/// The destination of the instructions that write a register, for `Instr::dst` and `Instr::dst_mut` alike
/// (one list of them: by reference or by mutable reference, as the matched value is).
macro_rules! writes_register {
    ($instr:expr) => {
        match $instr {
            Instr::Mov { dst, .. }
            | Instr::Unary { dst, .. }
            | Instr::Binary { dst, .. }
            | Instr::Cmp { dst, .. }
            | Instr::Convert { dst, .. }
            | Instr::PtrAdd { dst, .. }
            | Instr::PtrDiff { dst, .. }
            | Instr::Special { dst, .. }
            | Instr::SharedAddr { dst, .. }
            | Instr::Load { dst, .. }
            | Instr::Atomic { dst, .. }
            | Instr::Shfl { dst, .. }
            | Instr::Vote { dst, .. }
            | Instr::ActiveMask { dst }
            | Instr::Math { dst, .. }
            | Instr::Fma { dst, .. }
            | Instr::ReadCounter { dst, .. }
            | Instr::Curand { dst, .. }
            | Instr::Texture { dst, .. }
            | Instr::CheckBounds { dst, .. } => Some(dst),
            _ => None,
        }
    };
}

impl Instr {
    /// Whether it ends a basic block.
    pub fn is_terminator(&self) -> bool {
        matches!(self, Instr::Jump { .. } | Instr::Branch { .. } | Instr::Exit)
    }

    /// The register an instruction writes, if any.
    pub fn dst(&self) -> Option<Reg> {
        writes_register!(self).copied()
    }

    /// The register an instruction writes, to change it.
    pub fn dst_mut(&mut self) -> Option<&mut Reg> {
        writes_register!(self)
    }
}

/// A register's name (the source variable, if it is one) and type, for debuggers.
#[derive(Clone, Debug, PartialEq)]
pub struct RegInfo {
    pub name: Option<String>,
    pub ty: Ty,
    /// A named variable's type as the source declares it (what a pointer points to, a struct's fields), for
    /// the debugger's expressions; None for temporaries.
    pub source: Option<Type>,
    /// The register holds the variable's address, not its value (file-scope `__device__` and `__constant__`
    /// variables, a thread's local array): `source` is then the variable's own type.
    pub address_of: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Param {
    pub name: String,
    pub ty: Type,
    pub reg: Reg,
    pub span: Span,
    /// A hidden parameter holding a `__constant__` variable's address: the variable's size in bytes. Reads in
    /// that range go through the constant cache, not the global-load path (`sim::traffic`).
    pub constant_bytes: Option<u64>,
    /// A hidden parameter holding where a local variable's copies start (one per thread, thread after
    /// thread): the bytes of one copy. Accesses there are the thread's local memory, not global traffic.
    pub local_bytes: Option<u64>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct SharedArray {
    pub name: String,
    pub ty: Type,
    pub elem: Ty,
    /// Static size; 0 for a dynamic (`extern __shared__`) array, sized by the launch.
    pub bytes: u32,
    /// An `extern __shared__` array: every one starts at the same offset, after the static arrays.
    pub dynamic: bool,
}

/// One kernel, lowered: every device function it calls is inlined.
#[derive(Clone, Debug, PartialEq)]
pub struct Kernel {
    pub name: String,
    pub params: Vec<Param>,
    pub shared: Vec<SharedArray>,
    /// Whether a load or store is part of a vector access ([`VecPart`]): the traffic counts look only then.
    pub vec_parts: bool,
    pub instrs: Vec<Instr>,
    /// Source span of each instruction.
    pub spans: Vec<Span>,
    /// 1-based source line of each instruction (in the file of its span).
    pub lines: Vec<u32>,
    pub blocks: Vec<Block>,
    pub regs: Vec<RegInfo>,
    pub strings: Vec<String>,
    /// Per instruction: its position in the order the lowering emitted code (source order), which
    /// [`Kernel::var_scopes`] are measured in.
    pub scope_pos: Vec<u32>,
    /// Per register: where its variable is in scope (temporaries, parameters: everywhere).
    pub var_scopes: Vec<VarScope>,
}

/// Where a variable is in scope: the instructions whose [`Kernel::scope_pos`] is in `from + 1 ..= to` (the
/// code after its declaration up to the end of its block).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct VarScope {
    pub from: u32,
    pub to: u32,
}

impl VarScope {
    /// In scope everywhere (kernel parameters, temporaries).
    pub const EVERYWHERE: VarScope = VarScope { from: 0, to: u32::MAX };
}

impl Kernel {
    pub fn block_of(&self, pc: Pc) -> BlockId {
        let i = self.blocks.partition_point(|b| b.end <= pc);
        BlockId(i as u32)
    }

    pub fn block(&self, id: BlockId) -> &Block {
        &self.blocks[id.0 as usize]
    }

    pub fn line(&self, pc: Pc) -> u32 {
        self.lines.get(pc.0 as usize).copied().unwrap_or(0)
    }

    /// The vector part of the load or store at `pc` ([`VecPart::Alone`] for any other instruction).
    #[inline]
    pub fn vec_part(&self, pc: Pc) -> VecPart {
        if !self.vec_parts {
            return VecPart::Alone;
        }
        match self.instrs.get(pc.0 as usize) {
            Some(Instr::Load { part, .. } | Instr::Store { part, .. }) => *part,
            _ => VecPart::Alone,
        }
    }

    /// Whether register `r`'s variable is in scope at `pc` (the source's block scoping: from its declaration
    /// to the end of its block; an inlined function's own variables only inside it).
    pub fn in_scope(&self, r: u32, pc: Pc) -> bool {
        let (Some(s), Some(&at)) = (self.var_scopes.get(r as usize), self.scope_pos.get(pc.0 as usize)) else {
            return true;
        };
        s.from < at && at <= s.to
    }

    /// The named variables in scope at `pc`, innermost of each name: (register, name as in the source).
    pub fn variables_at(&self, pc: Pc) -> Vec<(u32, &str)> {
        let mut best: Vec<(u32, &str, u32)> = vec![];
        for (i, r) in self.regs.iter().enumerate() {
            let Some(name) = r.name.as_deref() else { continue };
            if !self.in_scope(i as u32, pc) {
                continue;
            }
            let from = self.var_scopes.get(i).map_or(0, |s| s.from);
            match best.iter_mut().find(|(_, n, _)| *n == name) {
                Some(b) if from >= b.2 => *b = (i as u32, name, from),
                Some(_) => {}
                None => best.push((i as u32, name, from)),
            }
        }
        best.into_iter().map(|(r, n, _)| (r, n)).collect()
    }

    /// Total bytes of static shared memory per block.
    pub fn shared_bytes(&self) -> u32 {
        self.shared.iter().filter(|s| !s.dynamic).map(|s| s.bytes.next_multiple_of(16)).sum()
    }

    /// Whether the kernel uses dynamic shared memory (`extern __shared__`).
    pub fn uses_dynamic_shared(&self) -> bool {
        self.shared.iter().any(|s| s.dynamic)
    }
}
