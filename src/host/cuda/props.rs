//! The simulated device's properties (`cudaGetDeviceProperties`, `cudaDeviceGetAttribute`). ITS mode
//! reports an sm_90-like device (H100 figures), pre-Volta mode an sm_60-like one (P100 figures); the name
//! says it is warpdbg's. docs/programs.md lists every value.

use std::sync::{Arc, OnceLock};

use crate::front::types::{Scalar, StructDef, Type};

/// Which simulated device, and how much memory it has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Gpu {
    /// The pre-Volta model (sm_60-like) rather than ITS (sm_90-like).
    pub pre_volta: bool,
    /// `totalGlobalMem`: the device memory warpdbg lets a program allocate (`Config::device_memory`).
    pub total_mem: u64,
    /// How many bytes host code may hold at once (four times `--memory-cap`): not the device's, but the
    /// host interpreter learns its limits from the device.
    pub host_mem: u64,
}

/// A `cudaDeviceProp` field's C type.
#[derive(Clone, Copy)]
enum FieldType {
    Int,
    Size,
    /// `char name[256]`.
    Name,
    /// `int x[3]`.
    Int3,
}

/// A `cudaDeviceProp` field's value.
enum FieldValue {
    /// An `int` or `size_t` field's.
    Int(i64),
    /// The name's text (cut to 255 bytes, NUL-terminated).
    Name(&'static str),
    Int3([i64; 3]),
}

impl Gpu {
    /// The device's name.
    pub fn name(&self) -> &'static str {
        if self.pre_volta {
            "warpdbg simulated GPU (sm_60-like, pre-Volta)"
        } else {
            "warpdbg simulated GPU (sm_90-like, ITS)"
        }
    }

    /// Streaming multiprocessors (`multiProcessorCount`), as the cost model counts them.
    pub fn sms(&self) -> u64 {
        if self.pre_volta { 56 } else { 132 }
    }

    /// The SM clock in kHz (`clockRate`).
    pub fn clock_khz(&self) -> u64 {
        if self.pre_volta { 1_480_000 } else { 1_755_000 }
    }

    fn fields(&self) -> Vec<(&'static str, FieldType, FieldValue)> {
        let p = self.pre_volta;
        let pick = |pre: i64, its: i64| FieldValue::Int(if p { pre } else { its });
        vec![
            ("name", FieldType::Name, FieldValue::Name(self.name())),
            ("totalGlobalMem", FieldType::Size, FieldValue::Int(self.total_mem as i64)),
            ("sharedMemPerBlock", FieldType::Size, FieldValue::Int(49152)),
            ("regsPerBlock", FieldType::Int, FieldValue::Int(65536)),
            ("warpSize", FieldType::Int, FieldValue::Int(32)),
            ("memPitch", FieldType::Size, FieldValue::Int(2147483647)),
            ("maxThreadsPerBlock", FieldType::Int, FieldValue::Int(1024)),
            ("maxThreadsDim", FieldType::Int3, FieldValue::Int3([1024, 1024, 64])),
            ("maxGridSize", FieldType::Int3, FieldValue::Int3([2147483647, 65535, 65535])),
            ("clockRate", FieldType::Int, FieldValue::Int(self.clock_khz() as i64)),
            ("totalConstMem", FieldType::Size, FieldValue::Int(65536)),
            ("major", FieldType::Int, pick(6, 9)),
            ("minor", FieldType::Int, FieldValue::Int(0)),
            ("textureAlignment", FieldType::Size, FieldValue::Int(512)),
            ("texturePitchAlignment", FieldType::Size, FieldValue::Int(32)),
            ("deviceOverlap", FieldType::Int, FieldValue::Int(1)),
            ("multiProcessorCount", FieldType::Int, FieldValue::Int(self.sms() as i64)),
            ("kernelExecTimeoutEnabled", FieldType::Int, FieldValue::Int(0)),
            ("integrated", FieldType::Int, FieldValue::Int(0)),
            ("canMapHostMemory", FieldType::Int, FieldValue::Int(1)),
            ("computeMode", FieldType::Int, FieldValue::Int(0)),
            ("concurrentKernels", FieldType::Int, FieldValue::Int(1)),
            ("ECCEnabled", FieldType::Int, FieldValue::Int(1)),
            ("pciBusID", FieldType::Int, FieldValue::Int(0)),
            ("pciDeviceID", FieldType::Int, FieldValue::Int(0)),
            ("pciDomainID", FieldType::Int, FieldValue::Int(0)),
            ("tccDriver", FieldType::Int, FieldValue::Int(0)),
            ("asyncEngineCount", FieldType::Int, pick(2, 3)),
            ("unifiedAddressing", FieldType::Int, FieldValue::Int(1)),
            ("memoryClockRate", FieldType::Int, pick(715_000, 2_619_000)),
            ("memoryBusWidth", FieldType::Int, pick(4096, 5120)),
            ("l2CacheSize", FieldType::Int, pick(4_194_304, 52_428_800)),
            ("persistingL2CacheMaxSize", FieldType::Int, pick(0, 32_505_856)),
            ("maxThreadsPerMultiProcessor", FieldType::Int, FieldValue::Int(2048)),
            ("streamPrioritiesSupported", FieldType::Int, FieldValue::Int(1)),
            ("globalL1CacheSupported", FieldType::Int, FieldValue::Int(1)),
            ("localL1CacheSupported", FieldType::Int, FieldValue::Int(1)),
            ("sharedMemPerMultiprocessor", FieldType::Size, pick(65536, 233_472)),
            ("regsPerMultiprocessor", FieldType::Int, FieldValue::Int(65536)),
            ("managedMemory", FieldType::Int, FieldValue::Int(1)),
            ("isMultiGpuBoard", FieldType::Int, FieldValue::Int(0)),
            ("multiGpuBoardGroupID", FieldType::Int, FieldValue::Int(0)),
            ("singleToDoublePrecisionPerfRatio", FieldType::Int, FieldValue::Int(2)),
            ("pageableMemoryAccess", FieldType::Int, FieldValue::Int(0)),
            ("concurrentManagedAccess", FieldType::Int, FieldValue::Int(1)),
            ("computePreemptionSupported", FieldType::Int, FieldValue::Int(1)),
            ("canUseHostPointerForRegisteredMem", FieldType::Int, FieldValue::Int(1)),
            ("cooperativeLaunch", FieldType::Int, FieldValue::Int(1)),
            ("cooperativeMultiDeviceLaunch", FieldType::Int, FieldValue::Int(0)),
            ("sharedMemPerBlockOptin", FieldType::Size, pick(49152, 232_448)),
            ("maxBlocksPerMultiProcessor", FieldType::Int, FieldValue::Int(32)),
            ("reservedSharedMemPerBlock", FieldType::Size, pick(0, 1024)),
            ("memoryPoolsSupported", FieldType::Int, pick(0, 1)),
        ]
    }

    /// The bytes of a `cudaDeviceProp` ([`prop_struct`]'s layout) for this device.
    pub fn prop_bytes(&self) -> Vec<u8> {
        let def = prop_struct();
        let mut out = vec![0u8; def.size as usize];
        for (name, _, v) in self.fields() {
            let Some(f) = def.field(name) else { continue };
            let at = f.offset as usize;
            match v {
                FieldValue::Int(x) => {
                    let n = f.ty.size() as usize;
                    out[at..at + n].copy_from_slice(&x.to_le_bytes()[..n]);
                }
                FieldValue::Name(s) => {
                    let n = s.len().min(255);
                    out[at..at + n].copy_from_slice(&s.as_bytes()[..n]);
                }
                FieldValue::Int3(xs) => {
                    for (k, x) in xs.iter().enumerate() {
                        out[at + 4 * k..at + 4 * k + 4].copy_from_slice(&(*x as i32).to_le_bytes());
                    }
                }
            }
        }
        out
    }

    /// `cudaDeviceGetAttribute`'s value of attribute `attr`, or None for one warpdbg does not know.
    pub fn attribute(&self, attr: u32) -> Option<i64> {
        let name = ATTRIBUTES.iter().find(|a| a.1 == attr)?.2;
        self.fields().into_iter().find(|f| f.0 == name).map(|f| match f.2 {
            FieldValue::Int(x) => x,
            FieldValue::Int3(xs) => xs[ATTRIBUTES.iter().find(|a| a.1 == attr).map_or(0, |a| a.3)],
            FieldValue::Name(_) => 0,
        })
    }
}

/// `cudaDeviceAttr` names, values, the `cudaDeviceProp` field each reads, and the index for array fields.
const ATTRIBUTES: &[(&str, u32, &str, usize)] = &[
    ("cudaDevAttrMaxThreadsPerBlock", 1, "maxThreadsPerBlock", 0),
    ("cudaDevAttrMaxBlockDimX", 2, "maxThreadsDim", 0),
    ("cudaDevAttrMaxBlockDimY", 3, "maxThreadsDim", 1),
    ("cudaDevAttrMaxBlockDimZ", 4, "maxThreadsDim", 2),
    ("cudaDevAttrMaxGridDimX", 5, "maxGridSize", 0),
    ("cudaDevAttrMaxGridDimY", 6, "maxGridSize", 1),
    ("cudaDevAttrMaxGridDimZ", 7, "maxGridSize", 2),
    ("cudaDevAttrMaxSharedMemoryPerBlock", 8, "sharedMemPerBlock", 0),
    ("cudaDevAttrTotalConstantMemory", 9, "totalConstMem", 0),
    ("cudaDevAttrWarpSize", 10, "warpSize", 0),
    ("cudaDevAttrMaxPitch", 11, "memPitch", 0),
    ("cudaDevAttrMaxRegistersPerBlock", 12, "regsPerBlock", 0),
    ("cudaDevAttrClockRate", 13, "clockRate", 0),
    ("cudaDevAttrTextureAlignment", 14, "textureAlignment", 0),
    ("cudaDevAttrGpuOverlap", 15, "deviceOverlap", 0),
    ("cudaDevAttrMultiProcessorCount", 16, "multiProcessorCount", 0),
    ("cudaDevAttrKernelExecTimeout", 17, "kernelExecTimeoutEnabled", 0),
    ("cudaDevAttrIntegrated", 18, "integrated", 0),
    ("cudaDevAttrCanMapHostMemory", 19, "canMapHostMemory", 0),
    ("cudaDevAttrComputeMode", 20, "computeMode", 0),
    ("cudaDevAttrConcurrentKernels", 31, "concurrentKernels", 0),
    ("cudaDevAttrEccEnabled", 32, "ECCEnabled", 0),
    ("cudaDevAttrPciBusId", 33, "pciBusID", 0),
    ("cudaDevAttrPciDeviceId", 34, "pciDeviceID", 0),
    ("cudaDevAttrTccDriver", 35, "tccDriver", 0),
    ("cudaDevAttrMemoryClockRate", 36, "memoryClockRate", 0),
    ("cudaDevAttrGlobalMemoryBusWidth", 37, "memoryBusWidth", 0),
    ("cudaDevAttrL2CacheSize", 38, "l2CacheSize", 0),
    ("cudaDevAttrMaxThreadsPerMultiProcessor", 39, "maxThreadsPerMultiProcessor", 0),
    ("cudaDevAttrAsyncEngineCount", 40, "asyncEngineCount", 0),
    ("cudaDevAttrUnifiedAddressing", 41, "unifiedAddressing", 0),
    ("cudaDevAttrPciDomainId", 50, "pciDomainID", 0),
    ("cudaDevAttrTexturePitchAlignment", 51, "texturePitchAlignment", 0),
    ("cudaDevAttrComputeCapabilityMajor", 75, "major", 0),
    ("cudaDevAttrComputeCapabilityMinor", 76, "minor", 0),
    ("cudaDevAttrStreamPrioritiesSupported", 78, "streamPrioritiesSupported", 0),
    ("cudaDevAttrGlobalL1CacheSupported", 79, "globalL1CacheSupported", 0),
    ("cudaDevAttrLocalL1CacheSupported", 80, "localL1CacheSupported", 0),
    ("cudaDevAttrMaxSharedMemoryPerMultiprocessor", 81, "sharedMemPerMultiprocessor", 0),
    ("cudaDevAttrMaxRegistersPerMultiprocessor", 82, "regsPerMultiprocessor", 0),
    ("cudaDevAttrManagedMemory", 83, "managedMemory", 0),
    ("cudaDevAttrIsMultiGpuBoard", 84, "isMultiGpuBoard", 0),
    ("cudaDevAttrMultiGpuBoardGroupID", 85, "multiGpuBoardGroupID", 0),
    ("cudaDevAttrSingleToDoublePrecisionPerfRatio", 87, "singleToDoublePrecisionPerfRatio", 0),
    ("cudaDevAttrPageableMemoryAccess", 88, "pageableMemoryAccess", 0),
    ("cudaDevAttrConcurrentManagedAccess", 89, "concurrentManagedAccess", 0),
    ("cudaDevAttrComputePreemptionSupported", 90, "computePreemptionSupported", 0),
    ("cudaDevAttrCanUseHostPointerForRegisteredMem", 91, "canUseHostPointerForRegisteredMem", 0),
    ("cudaDevAttrCooperativeLaunch", 95, "cooperativeLaunch", 0),
    ("cudaDevAttrCooperativeMultiDeviceLaunch", 96, "cooperativeMultiDeviceLaunch", 0),
    ("cudaDevAttrMaxSharedMemoryPerBlockOptin", 97, "sharedMemPerBlockOptin", 0),
    ("cudaDevAttrMaxBlocksPerMultiprocessor", 106, "maxBlocksPerMultiProcessor", 0),
    ("cudaDevAttrMaxPersistingL2CacheSize", 108, "persistingL2CacheMaxSize", 0),
    ("cudaDevAttrReservedSharedMemoryPerBlock", 111, "reservedSharedMemPerBlock", 0),
    ("cudaDevAttrMemoryPoolsSupported", 115, "memoryPoolsSupported", 0),
];

/// The value of a `cudaDevAttr...` name.
pub fn attribute(name: &str) -> Option<u32> {
    ATTRIBUTES.iter().find(|a| a.0 == name).map(|a| a.1)
}

/// The `cudaDeviceProp` struct host code declares (warpdbg's layout: the fields courses print, in CUDA's
/// order; no program depends on the real offsets).
pub fn prop_struct() -> Arc<StructDef> {
    static DEF: OnceLock<Arc<StructDef>> = OnceLock::new();
    DEF.get_or_init(|| {
        let gpu = Gpu { pre_volta: false, total_mem: 0, host_mem: 0 };
        let fields = gpu
            .fields()
            .into_iter()
            .map(|(name, f, _)| {
                let ty = match f {
                    FieldType::Int => Type::INT,
                    FieldType::Size => Type::Scalar(Scalar::U64),
                    FieldType::Name => Type::Array(Box::new(Type::Scalar(Scalar::I8)), 256),
                    FieldType::Int3 => Type::Array(Box::new(Type::INT), 3),
                };
                (name.to_string(), ty)
            })
            .collect();
        Arc::new(StructDef::new("cudaDeviceProp", fields, 8))
    })
    .clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn props_layout_and_values() {
        let g = Gpu { pre_volta: false, total_mem: 1 << 31, host_mem: 1 << 33 };
        let b = g.prop_bytes();
        let def = prop_struct();
        assert_eq!(b.len(), def.size as usize);
        let major = def.field("major").map(|f| f.offset as usize).unwrap_or(0);
        assert_eq!(b[major], 9);
        assert_eq!(g.attribute(2), Some(1024));
        assert_eq!(g.attribute(4), Some(64));
        assert_eq!(Gpu { pre_volta: true, ..g }.attribute(75), Some(6));
        assert!(b.starts_with(b"warpdbg simulated GPU"));
    }
}
