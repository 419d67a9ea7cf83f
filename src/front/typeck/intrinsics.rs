//! The core intrinsics by name (barriers, atomics, warp functions, the math library), and the CUDA functions
//! warpdbg knows but does not model.

use crate::front::tast::{AtomicOp, BarrierReduce, Intrinsic, MathFn, ShflKind, VoteKind};

/// The core intrinsics' names, for "did you mean" hints (`<cmath>`'s are `front::cmath::names`).
pub(super) const INTRINSIC_NAMES: [&str; 42] = [
    "__syncthreads",
    "__syncthreads_count",
    "__syncthreads_and",
    "__syncthreads_or",
    "clock",
    "clock64",
    "__syncwarp",
    "__threadfence",
    "__threadfence_block",
    "__threadfence_system",
    "atomicAdd",
    "atomicSub",
    "atomicExch",
    "atomicCAS",
    "atomicMin",
    "atomicMax",
    "atomicAnd",
    "atomicOr",
    "atomicXor",
    "__shfl_sync",
    "__shfl_up_sync",
    "__shfl_down_sync",
    "__shfl_xor_sync",
    "__ballot_sync",
    "__any_sync",
    "__all_sync",
    "__match_any_sync",
    "__activemask",
    "min",
    "max",
    "abs",
    "rsqrtf",
    "__fdividef",
    "fmaf",
    "fma",
    "__fmaf_rn",
    "__fmul_rn",
    "__fadd_rn",
    "__fsub_rn",
    "__expf",
    "__logf",
    "__sinf",
];

/// The core intrinsic `name` calls.
pub(super) fn intrinsic(name: &str) -> Option<Intrinsic> {
    use Intrinsic as I;
    use MathFn as M;
    if let Some(f) = crate::front::cmath::function(name) {
        return Some(I::Math(f));
    }
    Some(match name {
        "__syncthreads" => I::SyncThreads,
        "__syncthreads_count" => I::SyncThreadsReduce(BarrierReduce::Count),
        "__syncthreads_and" => I::SyncThreadsReduce(BarrierReduce::And),
        "__syncthreads_or" => I::SyncThreadsReduce(BarrierReduce::Or),
        "clock" => I::Clock { wide: false },
        "clock64" => I::Clock { wide: true },
        "__syncwarp" => I::SyncWarp,
        "__threadfence" | "__threadfence_block" | "__threadfence_system" => I::ThreadFence,
        "atomicAdd" => I::Atomic(AtomicOp::Add),
        "atomicSub" => I::Atomic(AtomicOp::Sub),
        "atomicExch" => I::Atomic(AtomicOp::Exch),
        "atomicCAS" => I::Atomic(AtomicOp::Cas),
        "atomicMin" => I::Atomic(AtomicOp::Min),
        "atomicMax" => I::Atomic(AtomicOp::Max),
        "atomicAnd" => I::Atomic(AtomicOp::And),
        "atomicOr" => I::Atomic(AtomicOp::Or),
        "atomicXor" => I::Atomic(AtomicOp::Xor),
        "atomicInc" => I::Atomic(AtomicOp::Inc),
        "atomicDec" => I::Atomic(AtomicOp::Dec),
        "__shfl_sync" => I::Shfl(ShflKind::Idx),
        "__shfl_up_sync" => I::Shfl(ShflKind::Up),
        "__shfl_down_sync" => I::Shfl(ShflKind::Down),
        "__shfl_xor_sync" => I::Shfl(ShflKind::Xor),
        "__ballot_sync" => I::Vote(VoteKind::Ballot),
        "__any_sync" => I::Vote(VoteKind::Any),
        "__all_sync" => I::Vote(VoteKind::All),
        "__match_any_sync" => I::Vote(VoteKind::MatchAny),
        "__activemask" => I::ActiveMask,
        "min" => I::Math(M::Min),
        "max" => I::Math(M::Max),
        "abs" => I::Math(M::Abs),
        "rsqrtf" => I::Math(M::Rsqrt),
        "__expf" => I::Math(M::FastExp),
        "__logf" => I::Math(M::FastLog),
        "__sinf" => I::Math(M::FastSin),
        "__cosf" => I::Math(M::FastCos),
        "__powf" => I::Math(M::FastPow),
        "__fdividef" => I::Math(M::Div),
        "fmaf" | "fma" | "__fmaf_rn" => I::Math(M::Fma),
        "__fmul_rn" => I::Math(M::MulRn),
        "__fadd_rn" => I::Math(M::AddRn),
        "__fsub_rn" => I::Math(M::SubRn),
        "__fsqrt_rn" | "__dsqrt_rn" => I::Math(M::Sqrt),
        "__fdiv_rn" | "__ddiv_rn" => I::Math(M::Div),
        "__dadd_rn" => I::Math(M::AddRn),
        "__dmul_rn" => I::Math(M::MulRn),
        "__dsub_rn" => I::Math(M::SubRn),
        _ => return None,
    })
}

/// Why a CUDA function warpdbg does not model cannot be called (for the diagnostic).
pub(super) fn unsupported_function(name: &str) -> Option<&'static str> {
    Some(match name {
        "atomicAdd_block" | "atomicAdd_system" => "this atomic variant",
        "__stcg" | "__stcs" | "__stwt" => "cache-hinted stores; use a plain store",
        "malloc" | "free" | "memcpy" | "memset" | "cudaMalloc" | "cudaMemcpy" => {
            "memory management inside kernels or host API"
        }
        "__match_all_sync" | "__reduce_add_sync" => "this warp intrinsic",
        "tex1D" | "tex2D" | "tex1Dfetch" => "a texture fetch without its result type; write `tex2D<float>(obj, x, y)`",
        "tex3D" | "tex2DLayered" | "texCubemap" | "surf2Dread" | "surf2Dwrite" => {
            "3D, layered and cubemap textures and surfaces"
        }
        _ => return None,
    })
}
