//! The names host code uses without declaring them: the CUDA runtime's functions (and the host clocks) with
//! their parameters and default arguments, the runtime's and the C library's constants, and the types host
//! code names (the runtime's, `timeval`, `std::ofstream`). Tables only: [`super::arguments`] resolves a
//! runtime call, [`super`] runs it; [`super::table`] lists the runtime functions and how far each is implemented
//! (a function added here goes there too: `tests/docs_api_table.rs` checks).

use std::sync::{Arc, OnceLock};

use crate::front::types::{Scalar, StructDef, Type};
use crate::host::tree::Api;

/// How a call's first argument is read when it is not a value.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum First {
    Value,
    /// A `__device__`/`__constant__` variable (`cudaMemcpyToSymbol(coef, ...)`): its index.
    Symbol,
    /// A kernel (`cudaFuncSetCacheConfig(k, ...)`): ignored.
    Kernel,
    /// The argument at this index is a kernel (`cudaFuncGetAttributes(&a, k)`): passed as its name (a string
    /// of the program's, by index).
    KernelAt(usize),
}

/// How a call of a runtime function (or a clock) is resolved: the API it is, its parameter types and the
/// defaults of trailing ones, its result, and how its first argument is read.
pub(super) struct RuntimeSig {
    pub(super) api: Api,
    pub(super) params: Vec<Type>,
    /// Values of the trailing parameters a call may leave out.
    pub(super) defaults: Vec<u64>,
    pub(super) ret: Type,
    pub(super) first: First,
    /// The arguments are evaluated but not converted to the parameters' types: a call whose signature CUDA 13
    /// changed (`cudaMemPrefetchAsync` takes a device number before it, a `cudaMemLocation` since) and that
    /// changes nothing here either way.
    pub(super) loose: bool,
}

/// The runtime function `name`'s signature, or None when it is not one.
pub(super) fn runtime_sig(name: &str) -> Option<RuntimeSig> {
    let ptr = || Type::ptr(Type::Void, false);
    let (int, size) = (Type::INT, Type::Scalar(Scalar::U64));
    let err = || Type::INT;
    let s = |api, params: Vec<Type>, defaults: Vec<u64>| RuntimeSig {
        api,
        params,
        defaults,
        ret: err(),
        first: First::Value,
        loose: false,
    };
    Some(match name {
        "cudaMalloc" => s(Api::Malloc, vec![ptr(), size.clone()], vec![]),
        "cudaMallocManaged" => s(Api::MallocManaged, vec![ptr(), size.clone(), Type::UINT], vec![1]),
        "cudaMallocHost" => s(Api::MallocHost, vec![ptr(), size.clone(), Type::UINT], vec![0]),
        "cudaHostAlloc" => s(Api::MallocHost, vec![ptr(), size.clone(), Type::UINT], vec![]),
        "cudaFreeHost" => s(Api::FreeHost, vec![ptr()], vec![]),
        "cudaHostGetDevicePointer" => s(Api::HostGetDevicePointer, vec![ptr(), ptr(), Type::UINT], vec![0]),
        "cudaFree" => s(Api::Free, vec![ptr()], vec![]),
        // Stream-ordered allocation: work runs in program order, so at the call; the stream is not read.
        "cudaMallocAsync" => s(Api::MallocAsync, vec![ptr(), size.clone(), size.clone()], vec![]),
        "cudaFreeAsync" => s(Api::Free, vec![ptr(), size.clone()], vec![]),
        "cudaMemcpy" => s(Api::Memcpy, vec![ptr(), ptr(), size.clone(), int.clone()], vec![]),
        "cudaMemcpyAsync" => s(Api::MemcpyAsync, vec![ptr(), ptr(), size.clone(), int.clone(), size.clone()], vec![0]),
        "cudaMemset" => s(Api::Memset, vec![ptr(), int.clone(), size.clone()], vec![]),
        "cudaMemsetAsync" => s(Api::MemsetAsync, vec![ptr(), int.clone(), size.clone(), size.clone()], vec![0]),
        "cudaMemcpyToSymbol" => RuntimeSig {
            first: First::Symbol,
            ..s(Api::MemcpyToSymbol, vec![size.clone(), ptr(), size.clone(), size.clone(), int.clone()], vec![0, 1])
        },
        // Work runs in program order, so the asynchronous forms copy at once; the stream is not read.
        "cudaMemcpyToSymbolAsync" => RuntimeSig {
            first: First::Symbol,
            ..s(
                Api::MemcpyToSymbol,
                vec![size.clone(), ptr(), size.clone(), size.clone(), int.clone(), size.clone()],
                vec![0, 1, 0],
            )
        },
        "cudaMemcpyFromSymbolAsync" => s(
            Api::MemcpyFromSymbol,
            vec![ptr(), size.clone(), size.clone(), size.clone(), int.clone(), size.clone()],
            vec![0, 2, 0],
        ),
        "cudaMemcpyFromSymbol" => {
            s(Api::MemcpyFromSymbol, vec![ptr(), size.clone(), size.clone(), size.clone(), int.clone()], vec![0, 2])
        }
        "cudaGetSymbolAddress" => s(Api::GetSymbolAddress, vec![ptr(), size.clone()], vec![]),
        "cudaMemGetInfo" => s(Api::MemGetInfo, vec![ptr(), ptr()], vec![]),
        "cudaDeviceSynchronize" | "cudaThreadSynchronize" => s(Api::DeviceSynchronize, vec![], vec![]),
        "cudaDeviceReset" | "cudaThreadExit" => s(Api::DeviceReset, vec![], vec![]),
        "cudaGetLastError" => s(Api::GetLastError, vec![], vec![]),
        "cudaPeekAtLastError" => s(Api::PeekAtLastError, vec![], vec![]),
        "cudaGetErrorString" => RuntimeSig {
            ret: Type::ptr(Type::Scalar(Scalar::I8), true),
            ..s(Api::GetErrorString, vec![int.clone()], vec![])
        },
        "cudaGetErrorName" => RuntimeSig {
            ret: Type::ptr(Type::Scalar(Scalar::I8), true),
            ..s(Api::GetErrorName, vec![int.clone()], vec![])
        },
        "cudaSetDevice" => s(Api::SetDevice, vec![int.clone()], vec![]),
        "cudaGetDevice" => s(Api::GetDevice, vec![ptr()], vec![]),
        // One device: it is the closest match to any properties asked for.
        "cudaChooseDevice" => s(Api::GetDevice, vec![ptr(), ptr()], vec![]),
        "cudaDeviceGetSharedMemConfig" => s(Api::GetSharedMemConfig, vec![ptr()], vec![]),
        "cudaDeviceGetCacheConfig" => s(Api::GetCacheConfig, vec![ptr()], vec![]),
        "cudaDeviceGetStreamPriorityRange" => s(Api::GetStreamPriorityRange, vec![ptr(), ptr()], vec![]),
        "cudaGetDeviceCount" => s(Api::GetDeviceCount, vec![ptr()], vec![]),
        "cudaGetDeviceProperties" | "cudaGetDeviceProperties_v2" => {
            s(Api::GetDeviceProperties, vec![ptr(), int.clone()], vec![])
        }
        "cudaDeviceGetAttribute" => s(Api::DeviceGetAttribute, vec![ptr(), int.clone(), int.clone()], vec![]),
        "cudaDriverGetVersion" => s(Api::DriverGetVersion, vec![ptr()], vec![]),
        "cudaRuntimeGetVersion" => s(Api::RuntimeGetVersion, vec![ptr()], vec![]),
        "cudaEventCreate" | "cudaEventCreateWithFlags" => s(Api::EventCreate, vec![ptr(), Type::UINT], vec![0]),
        "cudaEventRecord" => s(Api::EventRecord, vec![size.clone(), size.clone()], vec![0]),
        "cudaEventSynchronize" => s(Api::EventSynchronize, vec![size.clone()], vec![]),
        "cudaEventQuery" => s(Api::EventQuery, vec![size.clone()], vec![]),
        "cudaEventElapsedTime" => s(Api::EventElapsedTime, vec![ptr(), size.clone(), size.clone()], vec![]),
        "cudaEventDestroy" => s(Api::EventDestroy, vec![size.clone()], vec![]),
        "cudaStreamCreate" | "cudaStreamCreateWithFlags" => s(Api::StreamCreate, vec![ptr(), Type::UINT], vec![0]),
        // One queue: the priority changes nothing.
        "cudaStreamCreateWithPriority" => s(Api::StreamCreate, vec![ptr(), Type::UINT, int.clone()], vec![]),
        "cudaStreamSynchronize" => s(Api::StreamSynchronize, vec![size.clone()], vec![]),
        "cudaStreamQuery" => s(Api::StreamQuery, vec![size.clone()], vec![]),
        "cudaStreamDestroy" => s(Api::StreamDestroy, vec![size.clone()], vec![]),
        "cudaFuncSetCacheConfig" | "cudaFuncSetSharedMemConfig" => {
            RuntimeSig { first: First::Kernel, ..s(Api::Accepted, vec![size.clone(), int.clone()], vec![]) }
        }
        "cudaDeviceSetCacheConfig" | "cudaDeviceSetSharedMemConfig" | "cudaDeviceSetLimit" => {
            s(Api::Accepted, vec![int.clone(), size.clone()], vec![0])
        }
        "cudaProfilerStart" | "cudaProfilerStop" => s(Api::Accepted, vec![], vec![]),
        // The scheduling and mapping flags change nothing here: pinned memory is always mapped.
        "cudaSetDeviceFlags" => s(Api::Accepted, vec![Type::UINT], vec![]),
        // Managed memory is always where the next access needs it (brought level around each launch).
        "cudaMemPrefetchAsync" => RuntimeSig {
            loose: true,
            ..s(Api::Accepted, vec![ptr(), size.clone(), int.clone(), size.clone(), size.clone()], vec![0, 0])
        },
        // Attaching managed memory to a stream limits which work may touch it at once; work here runs one
        // thing at a time in program order, so every attachment (single, host, global) already holds.
        "cudaStreamAttachMemAsync" => s(Api::Accepted, vec![size.clone(), ptr(), size.clone(), Type::UINT], vec![0, 4]),
        "cudaMemAdvise" => {
            RuntimeSig { loose: true, ..s(Api::Accepted, vec![ptr(), size.clone(), int.clone(), int.clone()], vec![]) }
        }
        "cudaOccupancyMaxPotentialBlockSize" => RuntimeSig {
            first: First::KernelAt(2),
            ..s(Api::OccupancyBlockSize, vec![ptr(), ptr(), int.clone(), size.clone(), int.clone()], vec![0, 0])
        },
        "cudaOccupancyMaxActiveBlocksPerMultiprocessor" => RuntimeSig {
            first: First::KernelAt(1),
            ..s(Api::OccupancyActiveBlocks, vec![ptr(), int.clone(), int.clone(), size.clone()], vec![])
        },
        "cudaFuncGetAttributes" => {
            RuntimeSig { first: First::KernelAt(1), ..s(Api::FuncGetAttributes, vec![ptr(), int.clone()], vec![]) }
        }
        "cudaPointerGetAttributes" => s(Api::PointerGetAttributes, vec![ptr(), ptr()], vec![]),
        "cudaMalloc3D" => s(Api::Malloc3D, vec![ptr(), Type::Struct(super::structs::extent())], vec![]),
        "cudaMemcpy3D" => s(Api::Memcpy3D, vec![ptr()], vec![]),
        // Work runs in program order: the asynchronous form copies at once.
        "cudaMemcpy3DAsync" => s(Api::Memcpy3D, vec![ptr(), size.clone()], vec![0]),
        "cudaMallocPitch" => s(Api::MallocPitch, vec![ptr(), ptr(), size.clone(), size.clone()], vec![]),
        "cudaMemcpy2D" | "cudaMemcpy2DAsync" => {
            let mut params = vec![ptr(), size.clone(), ptr(), size.clone(), size.clone(), size.clone(), int.clone()];
            if name == "cudaMemcpy2D" {
                s(Api::Memcpy2D, params, vec![])
            } else {
                params.push(size.clone());
                s(Api::Memcpy2DAsync, params, vec![0])
            }
        }
        "cudaMemset2D" => s(Api::Memset2D, vec![ptr(), size.clone(), int.clone(), size.clone(), size.clone()], vec![]),
        "cudaMemset2DAsync" => {
            s(Api::Memset2D, vec![ptr(), size.clone(), int.clone(), size.clone(), size.clone(), size.clone()], vec![0])
        }
        "cudaMallocArray" => {
            s(Api::MallocArray, vec![ptr(), ptr(), size.clone(), size.clone(), Type::UINT], vec![0, 0])
        }
        "cudaFreeArray" => s(Api::FreeArray, vec![ptr()], vec![]),
        "cudaMemcpy2DToArray" | "cudaMemcpy2DToArrayAsync" => {
            let mut params = vec![ptr(), size.clone(), size.clone(), ptr(), size.clone(), size.clone(), size.clone()];
            params.extend([int.clone(), size.clone()]);
            s(Api::Memcpy2DToArray, params, vec![0])
        }
        "cudaMemcpyToArray" => {
            s(Api::MemcpyToArray, vec![ptr(), size.clone(), size.clone(), ptr(), size.clone(), int.clone()], vec![])
        }
        "cudaMemcpy2DFromArray" => {
            let mut params = vec![ptr(), size.clone(), ptr(), size.clone(), size.clone(), size.clone(), size.clone()];
            params.push(int.clone());
            s(Api::Memcpy2DFromArray, params, vec![])
        }
        "cudaCreateTextureObject" => s(Api::CreateTextureObject, vec![ptr(), ptr(), ptr(), ptr()], vec![]),
        "cudaDestroyTextureObject" => s(Api::DestroyTextureObject, vec![size.clone()], vec![]),
        "cudaStreamBeginCapture" => s(Api::StreamBeginCapture, vec![size.clone(), int.clone()], vec![0]),
        "cudaStreamEndCapture" => s(Api::StreamEndCapture, vec![size.clone(), ptr()], vec![]),
        "cudaStreamIsCapturing" => s(Api::StreamIsCapturing, vec![size.clone(), ptr()], vec![]),
        "cudaGraphCreate" => s(Api::GraphCreate, vec![ptr(), Type::UINT], vec![0]),
        // CUDA 12's (graph exec, graph, flags) and CUDA 11's (exec, graph, error node, log, log size) alike.
        "cudaGraphInstantiate" | "cudaGraphInstantiateWithFlags" => {
            s(Api::GraphInstantiate, vec![ptr(), size.clone(), ptr(), ptr(), size.clone()], vec![0, 0, 0])
        }
        "cudaGraphLaunch" => s(Api::GraphLaunch, vec![size.clone(), size.clone()], vec![0]),
        "cudaGraphExecDestroy" => s(Api::GraphExecDestroy, vec![size.clone()], vec![]),
        "cudaGraphDestroy" => s(Api::GraphDestroy, vec![size.clone()], vec![]),
        "cudaGraphGetNodes" => s(Api::GraphGetNodes, vec![size.clone(), ptr(), ptr()], vec![]),
        // Work runs in program order: the event a stream would wait for has already happened.
        "cudaStreamWaitEvent" => s(Api::Accepted, vec![size.clone(), size.clone(), Type::UINT], vec![0]),
        "clock" => RuntimeSig { ret: Type::Scalar(Scalar::I64), ..s(Api::Clock, vec![], vec![]) },
        "time" => RuntimeSig { ret: Type::Scalar(Scalar::I64), ..s(Api::Time, vec![ptr()], vec![]) },
        "gettimeofday" => s(Api::GetTimeOfDay, vec![ptr(), ptr()], vec![0]),
        "clock_gettime" => s(Api::ClockGetTime, vec![int.clone(), ptr()], vec![]),
        "__warpdbg_chrono_now" => RuntimeSig { ret: Type::Scalar(Scalar::I64), ..s(Api::ChronoNow, vec![], vec![]) },
        _ => return None,
    })
}

/// The runtime's named constants: error codes by name, copy kinds, flags, cache preferences.
pub fn constant(name: &str) -> Option<(u64, Type)> {
    if let Some(code) = super::errors::code_of(name) {
        return Some((code as u64, Type::INT));
    }
    let v: i64 = match name {
        "cudaMemcpyHostToHost" => 0,
        "cudaMemcpyHostToDevice" => 1,
        "cudaMemcpyDeviceToHost" => 2,
        "cudaMemcpyDeviceToDevice" => 3,
        "cudaMemcpyDefault" => 4,
        "cudaHostAllocDefault" | "cudaEventDefault" | "cudaStreamDefault" | "cudaFuncCachePreferNone" => 0,
        "cudaHostAllocPortable" | "cudaEventBlockingSync" | "cudaStreamNonBlocking" | "cudaFuncCachePreferShared" => 1,
        "cudaHostAllocMapped" | "cudaEventDisableTiming" | "cudaFuncCachePreferL1" | "cudaMemAttachHost" => 2,
        "cudaHostAllocWriteCombined" | "cudaEventInterprocess" | "cudaMemAttachSingle" => 4,
        "cudaFuncCachePreferEqual" => 3,
        "SEEK_SET" => 0,
        "SEEK_CUR" => 1,
        "SEEK_END" => 2,
        "EOF" => -1,
        "cudaSharedMemBankSizeDefault" => 0,
        "cudaSharedMemBankSizeFourByte" => 1,
        "cudaSharedMemBankSizeEightByte" => 2,
        "cudaMemAttachGlobal" => 1,
        "cudaDeviceScheduleAuto" => 0,
        "cudaDeviceMapHost" => 8,
        "cudaDeviceScheduleSpin" => 1,
        "cudaDeviceScheduleYield" => 2,
        "cudaDeviceScheduleBlockingSync" | "cudaDeviceBlockingSync" => 4,
        "cudaDeviceLmemResizeToMax" => 16,
        // `cudaMemoryType`, what `cudaPointerGetAttributes` reports.
        "cudaMemoryTypeUnregistered" => 0,
        "cudaMemoryTypeHost" => 1,
        "cudaMemoryTypeDevice" => 2,
        "cudaMemoryTypeManaged" => 3,
        "cudaStreamCaptureModeGlobal" | "cudaStreamCaptureStatusNone" => 0,
        "cudaStreamCaptureModeThreadLocal" | "cudaStreamCaptureStatusActive" => 1,
        "cudaStreamCaptureModeRelaxed" | "cudaStreamCaptureStatusInvalidated" => 2,
        "cudaMemAdviseSetReadMostly" => 1,
        "cudaMemAdviseUnsetReadMostly" => 2,
        "cudaMemAdviseSetPreferredLocation" => 3,
        "cudaMemAdviseUnsetPreferredLocation" => 4,
        "cudaMemAdviseSetAccessedBy" => 5,
        "cudaMemAdviseUnsetAccessedBy" => 6,
        "cudaCpuDeviceId" => -1,
        "cudaInvalidDeviceId" => -2,
        // `cudaLimit`: what `cudaDeviceSetLimit` names (accepted; nothing here depends on them).
        "cudaLimitStackSize" => 0,
        "cudaLimitPrintfFifoSize" => 1,
        "cudaLimitMallocHeapSize" => 2,
        "cudaLimitDevRuntimeSyncDepth" => 3,
        "cudaLimitDevRuntimePendingLaunchCount" => 4,
        "cudaLimitMaxL2FetchGranularity" => 5,
        "cudaLimitPersistingL2CacheSize" => 6,
        "cudaMemLocationTypeDevice" => 1,
        "cudaMemLocationTypeHost" => 2,
        // Textures: `cudaChannelFormatKind`, `cudaResourceType`, `cudaTextureAddressMode`,
        // `cudaTextureFilterMode`, `cudaTextureReadMode`.
        "cudaChannelFormatKindSigned" | "cudaResourceTypeArray" | "cudaAddressModeWrap" => 0,
        "cudaFilterModePoint" | "cudaReadModeElementType" | "cudaArrayDefault" => 0,
        "cudaChannelFormatKindUnsigned" | "cudaResourceTypeMipmappedArray" | "cudaAddressModeClamp" => 1,
        "cudaFilterModeLinear" | "cudaReadModeNormalizedFloat" => 1,
        "cudaChannelFormatKindFloat" | "cudaResourceTypeLinear" | "cudaAddressModeMirror" => 2,
        "cudaChannelFormatKindNone" | "cudaResourceTypePitch2D" | "cudaAddressModeBorder" => 3,
        "CLOCKS_PER_SEC" => return Some((1_000_000, Type::Scalar(Scalar::I64))),
        // `<time.h>`'s clocks, Linux's numbers: `clock_gettime` reads the virtual clock for each.
        "CLOCK_REALTIME" => 0,
        "CLOCK_MONOTONIC" => 1,
        "CLOCK_PROCESS_CPUTIME_ID" => 2,
        "CLOCK_THREAD_CPUTIME_ID" => 3,
        "CLOCK_MONOTONIC_RAW" => 4,
        "cudaStreamLegacy" | "cudaStreamPerThread" | "cudaStreamPerThread_v2" => {
            return Some((if name == "cudaStreamLegacy" { 1 } else { 2 }, Type::Scalar(Scalar::U64)));
        }
        _ => return super::props::attribute(name).map(|a| (a as u64, Type::INT)),
    };
    Some((v as u32 as u64, Type::INT))
}

/// The runtime's and the C library's types host code names (`cudaDeviceProp`, `struct timeval`).
pub fn named_type(name: &str) -> Option<Type> {
    Some(match name {
        "cudaError_t"
        | "cudaError"
        | "cudaMemcpyKind"
        | "cudaFuncCache"
        | "cudaDeviceAttr"
        | "cudaSharedMemConfig"
        | "cudaLimit"
        | "cudaMemoryType"
        | "cudaMemoryAdvise"
        | "cudaMemLocationType"
        | "cudaStreamCaptureMode"
        | "cudaStreamCaptureStatus"
        | "cudaChannelFormatKind"
        | "cudaResourceType"
        | "cudaTextureAddressMode"
        | "cudaTextureFilterMode"
        | "cudaTextureReadMode" => Type::INT,
        "cudaTextureObject_t" => Type::Scalar(Scalar::U64),
        // `cudaArray *`: a handle, never read through.
        "cudaArray" => Type::Scalar(Scalar::U8),
        "cudaEvent_t" | "cudaStream_t" | "cudaGraph_t" | "cudaGraphExec_t" | "cudaGraphNode_t" => {
            Type::Scalar(Scalar::U64)
        }
        "cudaArray_t" => Type::ptr(Type::Void, false),
        // An unsigned long, as glibc's (a mutex's contents are never read: one thread).
        "pthread_t" | "pthread_mutex_t" => Type::Scalar(Scalar::U64),
        "clock_t" | "time_t" | "suseconds_t" => Type::Scalar(Scalar::I64),
        // `<cstdarg>`'s list: where the next variadic argument is (`src/host/varargs.rs`).
        "va_list" | "__builtin_va_list" => Type::ptr(Type::Void, false),
        "cudaDeviceProp" => Type::Struct(super::props::prop_struct()),
        n if super::structs::by_name(n).is_some() => Type::Struct(super::structs::by_name(n)?),
        "timeval" => Type::Struct(timeval()),
        "timezone" => Type::Struct(timezone()),
        "timespec" => Type::Struct(timespec()),
        "div_t" => Type::Struct(quotient("div_t", Scalar::I32)),
        "ldiv_t" | "lldiv_t" => Type::Struct(quotient(name, Scalar::I64)),
        // A `FILE *` is a handle, not memory host code reads.
        "FILE" => Type::Scalar(Scalar::U8),
        "ofstream" | "ifstream" | "fstream" | "istringstream" | "ostringstream" | "stringstream" => {
            Type::Struct(stream_type(name)?)
        }
        n if thread_type(n).is_some() => Type::Struct(thread_type(n)?),
        _ => return None,
    })
}

/// Names of the CUDA runtime's and C library's constants host code uses.
pub(in crate::host) fn known_constant(name: &str) -> Option<(u64, Type)> {
    let int = |v: i64| Some((v as u32 as u64, Type::INT));
    let double = |v: f64| Some((v.to_bits(), Type::Scalar(Scalar::F64)));
    let float = |v: f32| Some((v.to_bits() as u64, Type::FLOAT));
    match name {
        // <math.h>'s and <float.h>'s.
        "M_PI" => double(std::f64::consts::PI),
        "M_PI_2" => double(std::f64::consts::FRAC_PI_2),
        "M_PI_4" => double(std::f64::consts::FRAC_PI_4),
        "M_1_PI" => double(std::f64::consts::FRAC_1_PI),
        "M_2_PI" => double(std::f64::consts::FRAC_2_PI),
        "M_E" => double(std::f64::consts::E),
        "M_LN2" => double(std::f64::consts::LN_2),
        "M_LN10" => double(std::f64::consts::LN_10),
        "M_SQRT2" => double(std::f64::consts::SQRT_2),
        "M_SQRT1_2" => double(std::f64::consts::FRAC_1_SQRT_2),
        "FLT_MAX" => float(f32::MAX),
        "FLT_MIN" => float(f32::MIN_POSITIVE),
        "FLT_EPSILON" => float(f32::EPSILON),
        "DBL_MAX" => double(f64::MAX),
        "DBL_MIN" => double(f64::MIN_POSITIVE),
        "DBL_EPSILON" => double(f64::EPSILON),
        // glibc's: `INFINITY` and `NAN` are floats, `HUGE_VAL` a double.
        "INFINITY" | "HUGE_VALF" => float(f32::INFINITY),
        "NAN" => float(f32::NAN),
        "HUGE_VAL" => double(f64::INFINITY),
        "UINT_MAX" => Some((u32::MAX as u64, Type::UINT)),
        // `std::string::npos` (its namespace and class are dropped as every name's are).
        "npos" => Some((u64::MAX, Type::Scalar(Scalar::U64))),
        "cudaSuccess" | "cudaMemcpyHostToHost" | "EXIT_SUCCESS" => int(0),
        "cudaMemcpyHostToDevice" | "EXIT_FAILURE" => int(1),
        "cudaMemcpyDeviceToHost" => int(2),
        "cudaMemcpyDeviceToDevice" => int(3),
        "cudaMemcpyDefault" => int(4),
        "RAND_MAX" | "INT_MAX" => int(i32::MAX as i64),
        "INT_MIN" => int(i32::MIN as i64),
        "cudaErrorInvalidValue" => int(1),
        "cudaErrorMemoryAllocation" => int(2),
        "cudaErrorInvalidConfiguration" => int(9),
        "cudaErrorInvalidDevicePointer" => int(17),
        "cudaErrorInvalidMemcpyDirection" => int(21),
        "stdout" => Some((1, Type::ptr(Type::Void, false))),
        "stdin" => Some((super::super::libfns::STDIN, Type::ptr(Type::Void, false))),
        "stderr" => Some((2, Type::ptr(Type::Void, false))),
        _ => constant(name),
    }
}

/// The C++ streams a variable may be: file streams over C's files, string streams over a buffer of their own.
pub const STREAM_KINDS: [&str; 6] =
    ["ofstream", "ifstream", "fstream", "istringstream", "ostringstream", "stringstream"];

/// `struct ofstream { FILE *handle; }` (and the other [`STREAM_KINDS`], each a struct of its own name): what a
/// declared stream is in host memory.
pub fn stream_type(kind: &str) -> Option<Arc<StructDef>> {
    static DEFS: [OnceLock<Arc<StructDef>>; 6] = [const { OnceLock::new() }; 6];
    let i = STREAM_KINDS.iter().position(|k| *k == kind)?;
    Some(
        DEFS[i]
            .get_or_init(|| {
                let file = Type::ptr(Type::Scalar(Scalar::U8), false);
                Arc::new(StructDef::new(STREAM_KINDS[i], vec![("handle".into(), file)], 8))
            })
            .clone(),
    )
}

/// `std::thread`, `std::mutex`, `std::condition_variable`, `std::lock_guard<>`, `std::unique_lock<>` as
/// `src/host/threads.rs` keeps them, with libstdc++'s sizes (8, 40, 48, 8, 16 bytes): the first field is the
/// state warpdbg reads (a thread's handle; a lock's mutex; a mutex's and a condition variable's are unused).
pub fn thread_type(name: &str) -> Option<Arc<StructDef>> {
    static DEFS: OnceLock<[Arc<StructDef>; 5]> = OnceLock::new();
    let defs = DEFS.get_or_init(|| {
        let def = |name: &str, first: &str, words: usize| {
            let fields = (0..words)
                .map(|i| (if i == 0 { first.to_string() } else { format!("_{i}") }, Type::Scalar(Scalar::U64)))
                .collect();
            Arc::new(StructDef::new(name, fields, 8))
        };
        [
            def("thread", "handle", 1),
            def("mutex", "state", 5),
            def("condition_variable", "state", 6),
            def("lock_guard", "mutex", 1),
            def("unique_lock", "mutex", 2),
        ]
    });
    defs.iter().find(|d| d.name == name).cloned()
}

/// Whether `ty` is the `<thread>`/`<mutex>` type `name` (see [`thread_type`]).
pub fn is_thread_type(ty: &Type, name: &str) -> bool {
    matches!((ty, thread_type(name)), (Type::Struct(d), Some(t)) if Arc::ptr_eq(d, &t))
}

/// Which of the [`STREAM_KINDS`] `ty` is (None: not a stream).
pub fn stream_kind(ty: &Type) -> Option<&'static str> {
    let Type::Struct(d) = ty else { return None };
    STREAM_KINDS.into_iter().find(|k| stream_type(k).is_some_and(|s| Arc::ptr_eq(d, &s)))
}

/// Whether `ty` is one of the C++ streams (`std::ofstream`, `std::ifstream`, the string streams): each holds
/// a file handle and takes `<<`.
pub fn is_ofstream(ty: &Type) -> bool {
    stream_kind(ty).is_some()
}

/// `struct timeval { long tv_sec; long tv_usec; }`.
pub fn timeval() -> Arc<StructDef> {
    static DEF: OnceLock<Arc<StructDef>> = OnceLock::new();
    DEF.get_or_init(|| {
        let long = Type::Scalar(Scalar::I64);
        Arc::new(StructDef::new("timeval", vec![("tv_sec".into(), long.clone()), ("tv_usec".into(), long)], 8))
    })
    .clone()
}

/// `div_t { int quot; int rem; }` and `ldiv_t`/`lldiv_t` (`long`s), what `div`/`ldiv`/`lldiv` return.
fn quotient(name: &str, s: Scalar) -> Arc<StructDef> {
    let fields = vec![("quot".into(), Type::Scalar(s)), ("rem".into(), Type::Scalar(s))];
    Arc::new(StructDef::new(name, fields, s.size()))
}

/// `struct timespec { time_t tv_sec; long tv_nsec; }`.
pub fn timespec() -> Arc<StructDef> {
    static DEF: OnceLock<Arc<StructDef>> = OnceLock::new();
    DEF.get_or_init(|| {
        let long = Type::Scalar(Scalar::I64);
        Arc::new(StructDef::new("timespec", vec![("tv_sec".into(), long.clone()), ("tv_nsec".into(), long)], 8))
    })
    .clone()
}

/// `struct timezone { int tz_minuteswest; int tz_dsttime; }`: `gettimeofday` leaves it as it is, as glibc
/// does (the argument is obsolete), so course timers that pass one read zeros they set themselves.
pub fn timezone() -> Arc<StructDef> {
    static DEF: OnceLock<Arc<StructDef>> = OnceLock::new();
    DEF.get_or_init(|| {
        Arc::new(StructDef::new(
            "timezone",
            vec![("tz_minuteswest".into(), Type::INT), ("tz_dsttime".into(), Type::INT)],
            4,
        ))
    })
    .clone()
}

pub use crate::front::std_types::{is_string, string_type};
