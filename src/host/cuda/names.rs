//! The CUDA runtime (and the host clocks) as host code names them: functions with their parameters and
//! default arguments, the runtime's constants and types. Used while resolving; [`super`] runs the calls.

use std::sync::{Arc, OnceLock};

use crate::front::ast::{self, ExprKind as A, UnaryOp};
use crate::front::diagnostic::Reported;
use crate::front::source::Span;
use crate::front::types::{Scalar, StructDef, Type};
use crate::host::resolve::{Resolver, Var, name_of};
use crate::host::tree::{Api, Expr, ExprKind, Lib, storage};

/// How a call's first argument is read when it is not a value.
#[derive(Clone, Copy, PartialEq, Eq)]
enum First {
    Value,
    /// A `__device__`/`__constant__` variable (`cudaMemcpyToSymbol(coef, ...)`): its index.
    Symbol,
    /// A kernel (`cudaFuncSetCacheConfig(k, ...)`): ignored.
    Kernel,
}

/// How a call of a runtime function (or a clock) is resolved: the API it is, its parameter types and the
/// defaults of trailing ones, its result, and how its first argument is read.
pub(super) struct RuntimeSig {
    api: Api,
    params: Vec<Type>,
    /// Values of the trailing parameters a call may leave out.
    defaults: Vec<u64>,
    ret: Type,
    first: First,
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
    };
    Some(match name {
        "cudaMalloc" => s(Api::Malloc, vec![ptr(), size.clone()], vec![]),
        "cudaMallocManaged" => s(Api::MallocManaged, vec![ptr(), size.clone(), Type::UINT], vec![1]),
        "cudaMallocHost" => s(Api::MallocHost, vec![ptr(), size.clone(), Type::UINT], vec![0]),
        "cudaHostAlloc" => s(Api::MallocHost, vec![ptr(), size.clone(), Type::UINT], vec![]),
        "cudaFreeHost" => s(Api::FreeHost, vec![ptr()], vec![]),
        "cudaHostGetDevicePointer" => s(Api::HostGetDevicePointer, vec![ptr(), ptr(), Type::UINT], vec![0]),
        "cudaFree" => s(Api::Free, vec![ptr()], vec![]),
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
        "cudaDeviceGetSharedMemConfig" => s(Api::GetSharedMemConfig, vec![ptr()], vec![]),
        "cudaDeviceGetCacheConfig" => s(Api::GetCacheConfig, vec![ptr()], vec![]),
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
        // Work runs in program order: the event a stream would wait for has already happened.
        "cudaStreamWaitEvent" => s(Api::Accepted, vec![size.clone(), size.clone(), Type::UINT], vec![0]),
        "clock" => RuntimeSig { ret: Type::Scalar(Scalar::I64), ..s(Api::Clock, vec![], vec![]) },
        "time" => RuntimeSig { ret: Type::Scalar(Scalar::I64), ..s(Api::Time, vec![ptr()], vec![]) },
        "gettimeofday" => s(Api::GetTimeOfDay, vec![ptr(), ptr()], vec![0]),
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
        "CLOCKS_PER_SEC" => return Some((1_000_000, Type::Scalar(Scalar::I64))),
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
        | "cudaLimit" => Type::INT,
        "cudaEvent_t" | "cudaStream_t" => Type::Scalar(Scalar::U64),
        "clock_t" | "time_t" | "suseconds_t" => Type::Scalar(Scalar::I64),
        // `<cstdarg>`'s list: where the next variadic argument is (`src/host/varargs.rs`).
        "va_list" | "__builtin_va_list" => Type::ptr(Type::Void, false),
        "cudaDeviceProp" => Type::Struct(super::props::prop_struct()),
        "timeval" => Type::Struct(timeval()),
        "timezone" => Type::Struct(timezone()),
        // A `FILE *` is a handle, not memory host code reads.
        "FILE" => Type::Scalar(Scalar::U8),
        "ofstream" => Type::Struct(crate::host::fstream::ofstream_type()),
        _ => return None,
    })
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

impl Resolver<'_> {
    /// A call of the runtime, or None when `name` is not one of its functions.
    pub(in crate::host) fn runtime_call(
        &mut self,
        name: &ast::Ident,
        args: &[ast::Expr],
        span: Span,
    ) -> Option<Result<Expr, Reported>> {
        let sig = runtime_sig(&name.name)?;
        Some(self.runtime_args(&name.name, sig, args, span))
    }

    pub(super) fn runtime_args(
        &mut self,
        name: &str,
        sig: RuntimeSig,
        args: &[ast::Expr],
        span: Span,
    ) -> Result<Expr, Reported> {
        let n = sig.params.len();
        if args.len() > n || args.len() + sig.defaults.len() < n {
            return Err(self.error(span, format!("`{name}` takes {n} arguments")));
        }
        let mut vals = vec![];
        for (i, p) in sig.params.iter().enumerate() {
            let v = match args.get(i) {
                Some(a) if i == 0 && sig.first == First::Symbol => self.symbol(a)?,
                Some(a) if i == 1 && sig.api == Api::MemcpyFromSymbol => self.symbol(a)?,
                Some(a) if i == 1 && sig.api == Api::GetSymbolAddress => self.symbol(a)?,
                Some(a) if i == 0 && sig.first == First::Kernel => {
                    if name_of(a).is_none_or(|k| self.kernels.find(&k).is_none()) {
                        return Err(self.error(a.span, format!("`{name}` takes a kernel")));
                    }
                    Expr::new(ExprKind::Const(0), p.clone(), a.span)
                }
                Some(a) => {
                    let v = self.rvalue(a)?;
                    self.convert(v, p)?
                }
                None => {
                    let d = sig.defaults[sig.defaults.len() - (n - i)];
                    Expr::new(ExprKind::Const(d), p.clone(), span)
                }
            };
            vals.push(v);
        }
        if matches!(sig.api, Api::Malloc | Api::MallocManaged | Api::MallocHost) {
            // The allocation's name (`d_a`) and the element type it points to, for messages and reports.
            let what = args.first().and_then(name_of).unwrap_or_else(|| "allocation".into());
            let id = self.string(&what);
            vals.push(Expr::new(ExprKind::Const(id as u64), Type::INT, span));
            let elem = args.first().and_then(|a| self.pointee_scalar(a)).unwrap_or(Scalar::U8);
            vals.push(Expr::new(ExprKind::Const(super::scalar_index(elem)), Type::INT, span));
        }
        Ok(Expr::new(ExprKind::Lib(Lib::Cuda(sig.api), vals), sig.ret, span))
    }

    /// A `__device__` or `__constant__` variable named as a symbol: its index in the program's globals.
    fn symbol(&mut self, a: &ast::Expr) -> Result<Expr, Reported> {
        let e = match &a.kind {
            A::Unary(UnaryOp::AddrOf, x) => x,
            _ => a,
        };
        let found = match &e.kind {
            A::Name(n) => self.kernels.globals.iter().position(|g| {
                g.name == *n
                    && matches!(
                        g.space,
                        crate::front::tast::GlobalSpace::Device | crate::front::tast::GlobalSpace::Constant
                    )
            }),
            _ => None,
        };
        match found {
            Some(i) => Ok(Expr::new(ExprKind::Const(i as u64), Type::Scalar(Scalar::U64), a.span)),
            None => Err(self.error(a.span, "this is not a `__device__` or `__constant__` variable of this file")),
        }
    }

    /// For `cudaMalloc((void **)&d_a, n)`: the scalar `d_a` points to.
    fn pointee_scalar(&mut self, a: &ast::Expr) -> Option<Scalar> {
        let name = name_of(a)?;
        let ty = match self.lookup(&name)? {
            Var::Mem(_, t) | Var::Reg(_, t) | Var::Global(_, t) => t,
            _ => return None,
        };
        storage(ty.pointee()?)
    }
}
