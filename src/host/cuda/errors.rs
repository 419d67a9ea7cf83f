//! CUDA 12's error codes: `cudaError_t` values with the names `cudaGetErrorName` gives and the strings
//! `cudaGetErrorString` gives (driver_types.h and the runtime of CUDA 12).

/// `cudaSuccess`.
pub const SUCCESS: u32 = 0;
/// `cudaErrorInvalidValue`: a bad argument; also a launch of more than 1024 threads per block (measured).
pub const INVALID_VALUE: u32 = 1;
/// `cudaErrorMemoryAllocation`.
pub const MEMORY_ALLOCATION: u32 = 2;
/// `cudaErrorInvalidConfiguration`: a zero or too large launch dimension.
pub const INVALID_CONFIGURATION: u32 = 9;
/// `cudaErrorInvalidPitchValue`: a 2D copy's width wider than a pitch.
pub const INVALID_PITCH: u32 = 12;
/// `cudaErrorInvalidSymbol`.
pub const INVALID_SYMBOL: u32 = 13;
/// `cudaErrorInvalidDevicePointer`.
pub const INVALID_DEVICE_POINTER: u32 = 17;
/// `cudaErrorInvalidMemcpyDirection`.
pub const INVALID_MEMCPY_DIRECTION: u32 = 21;
/// `cudaErrorInvalidDeviceFunction`: not a kernel of the program.
pub const INVALID_DEVICE_FUNCTION: u32 = 98;
/// `cudaErrorInvalidDevice`.
pub const INVALID_DEVICE: u32 = 101;
/// `cudaErrorInvalidResourceHandle`: a destroyed or never-created event or stream.
pub const INVALID_RESOURCE_HANDLE: u32 = 400;
/// `cudaErrorIllegalState`: `cudaStreamEndCapture` on a stream that is not capturing.
pub const ILLEGAL_STATE: u32 = 401;
/// `cudaErrorStreamCaptureUnsupported`: a call that waits for the device while a stream captures.
pub const CAPTURE_UNSUPPORTED: u32 = 900;
/// `cudaErrorNotReady`.
pub const NOT_READY: u32 = 600;
/// `cudaErrorLaunchPendingCountExceeded`: more launches from device code pending than
/// `cudaLimitDevRuntimePendingLaunchCount` (2048).
pub const LAUNCH_PENDING_COUNT: u32 = 69;
/// `cudaErrorIllegalAddress`: a kernel accessed memory it does not own (sticky).
pub const ILLEGAL_ADDRESS: u32 = 700;
/// `cudaErrorAssert`: a device-side `assert` failed (sticky).
pub const ASSERT: u32 = 710;
/// `cudaErrorMisalignedAddress` (sticky).
pub const MISALIGNED_ADDRESS: u32 = 716;
/// `cudaErrorLaunchFailure` (sticky).
pub const LAUNCH_FAILURE: u32 = 719;
/// `cudaErrorCooperativeLaunchTooLarge`: a cooperative launch of more blocks than fit on the device at once.
pub const COOPERATIVE_LAUNCH_TOO_LARGE: u32 = 720;

/// (code, name, string) of every code warpdbg knows.
const CODES: &[(u32, &str, &str)] = &[
    (0, "cudaSuccess", "no error"),
    (1, "cudaErrorInvalidValue", "invalid argument"),
    (2, "cudaErrorMemoryAllocation", "out of memory"),
    (3, "cudaErrorInitializationError", "initialization error"),
    (4, "cudaErrorCudartUnloading", "driver shutting down"),
    (5, "cudaErrorProfilerDisabled", "profiler disabled while using external profiling tool"),
    (9, "cudaErrorInvalidConfiguration", "invalid configuration argument"),
    (12, "cudaErrorInvalidPitchValue", "invalid pitch argument"),
    (13, "cudaErrorInvalidSymbol", "invalid device symbol"),
    (16, "cudaErrorInvalidHostPointer", "invalid host pointer"),
    (17, "cudaErrorInvalidDevicePointer", "invalid device pointer"),
    (18, "cudaErrorInvalidTexture", "invalid texture reference"),
    (21, "cudaErrorInvalidMemcpyDirection", "invalid copy direction for memcpy"),
    (35, "cudaErrorInsufficientDriver", "CUDA driver version is insufficient for CUDA runtime version"),
    (46, "cudaErrorDevicesUnavailable", "CUDA-capable device(s) is/are busy or unavailable"),
    (52, "cudaErrorMissingConfiguration", "__global__ function call is not configured"),
    (65, "cudaErrorLaunchMaxDepthExceeded", "launch would exceed maximum depth of nested launches"),
    (
        69,
        "cudaErrorLaunchPendingCountExceeded",
        "launch failed because launch would exceed cudaLimitDevRuntimePendingLaunchCount",
    ),
    (98, "cudaErrorInvalidDeviceFunction", "invalid device function"),
    (100, "cudaErrorNoDevice", "no CUDA-capable device is detected"),
    (101, "cudaErrorInvalidDevice", "invalid device ordinal"),
    (200, "cudaErrorInvalidKernelImage", "device kernel image is invalid"),
    (209, "cudaErrorNoKernelImageForDevice", "no kernel image is available for execution on the device"),
    (400, "cudaErrorInvalidResourceHandle", "invalid resource handle"),
    (401, "cudaErrorIllegalState", "the operation cannot be performed in the present state"),
    (500, "cudaErrorSymbolNotFound", "named symbol not found"),
    (600, "cudaErrorNotReady", "device not ready"),
    (700, "cudaErrorIllegalAddress", "an illegal memory access was encountered"),
    (701, "cudaErrorLaunchOutOfResources", "too many resources requested for launch"),
    (702, "cudaErrorLaunchTimeout", "the launch timed out and was terminated"),
    (709, "cudaErrorContextIsDestroyed", "context is destroyed"),
    (710, "cudaErrorAssert", "device-side assert triggered"),
    (714, "cudaErrorHardwareStackError", "hardware stack error"),
    (715, "cudaErrorIllegalInstruction", "an illegal instruction was encountered"),
    (716, "cudaErrorMisalignedAddress", "misaligned address"),
    (717, "cudaErrorInvalidAddressSpace", "operation not supported on global/shared address space"),
    (718, "cudaErrorInvalidPc", "invalid program counter"),
    (719, "cudaErrorLaunchFailure", "unspecified launch failure"),
    (720, "cudaErrorCooperativeLaunchTooLarge", "too many blocks in cooperative launch"),
    (800, "cudaErrorNotPermitted", "operation not permitted"),
    (801, "cudaErrorNotSupported", "operation not supported"),
    (900, "cudaErrorStreamCaptureUnsupported", "operation not permitted when stream is capturing"),
    (901, "cudaErrorStreamCaptureInvalidated", "operation failed due to a previous error during capture"),
    (999, "cudaErrorUnknown", "unknown error"),
];

/// `cudaGetErrorName` and `cudaGetErrorString` of a code; a code CUDA does not define gives
/// "unrecognized error code" for both, as the runtime does.
pub fn error_text(code: u32) -> (&'static str, &'static str) {
    match CODES.iter().find(|c| c.0 == code) {
        Some(&(_, name, text)) => (name, text),
        None => ("unrecognized error code", "unrecognized error code"),
    }
}

/// The code an error's name stands for (`cudaErrorInvalidValue` -> 1).
pub fn code_of(name: &str) -> Option<u32> {
    CODES.iter().find(|c| c.1 == name).map(|c| c.0)
}

/// Whether a code breaks the context: every later call returns it (CUDA's "sticky" errors).
pub fn is_sticky(code: u32) -> bool {
    matches!(code, 700 | 702 | 710 | 714 | 715 | 716 | 717 | 718 | 719)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_strings() {
        assert_eq!(error_text(1), ("cudaErrorInvalidValue", "invalid argument"));
        assert_eq!(error_text(700), ("cudaErrorIllegalAddress", "an illegal memory access was encountered"));
        assert_eq!(error_text(12345).1, "unrecognized error code");
        assert_eq!(code_of("cudaErrorInvalidConfiguration"), Some(9));
        assert!(is_sticky(ILLEGAL_ADDRESS) && !is_sticky(INVALID_VALUE));
    }
}
