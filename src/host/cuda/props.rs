//! The simulated device's properties (`cudaGetDeviceProperties`, `cudaDeviceGetAttribute`). ITS mode
//! reports an sm_90-like device (H100 figures), pre-Volta mode an sm_60-like one (P100 figures); the name
//! says it is warpdbg's. docs/programs.md lists every value.

use std::sync::Arc;

use crate::front::types::StructDef;

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

    fn fields(&self) -> Vec<(&'static str, FieldValue)> {
        let p = self.pre_volta;
        let pick = |pre: i64, its: i64| FieldValue::Int(if p { pre } else { its });
        vec![
            ("name", FieldValue::Name(self.name())),
            ("totalGlobalMem", FieldValue::Int(self.total_mem as i64)),
            ("sharedMemPerBlock", FieldValue::Int(49152)),
            ("regsPerBlock", FieldValue::Int(65536)),
            ("warpSize", FieldValue::Int(32)),
            ("memPitch", FieldValue::Int(2147483647)),
            ("maxThreadsPerBlock", FieldValue::Int(1024)),
            ("maxThreadsDim", FieldValue::Int3([1024, 1024, 64])),
            ("maxGridSize", FieldValue::Int3([2147483647, 65535, 65535])),
            ("clockRate", FieldValue::Int(self.clock_khz() as i64)),
            ("totalConstMem", FieldValue::Int(65536)),
            ("major", pick(6, 9)),
            ("minor", FieldValue::Int(0)),
            ("textureAlignment", FieldValue::Int(512)),
            ("texturePitchAlignment", FieldValue::Int(32)),
            ("deviceOverlap", FieldValue::Int(1)),
            ("multiProcessorCount", FieldValue::Int(self.sms() as i64)),
            ("kernelExecTimeoutEnabled", FieldValue::Int(0)),
            ("integrated", FieldValue::Int(0)),
            ("canMapHostMemory", FieldValue::Int(1)),
            ("computeMode", FieldValue::Int(0)),
            ("concurrentKernels", FieldValue::Int(1)),
            ("ECCEnabled", FieldValue::Int(1)),
            ("pciBusID", FieldValue::Int(0)),
            ("pciDeviceID", FieldValue::Int(0)),
            ("pciDomainID", FieldValue::Int(0)),
            ("tccDriver", FieldValue::Int(0)),
            ("asyncEngineCount", pick(2, 3)),
            ("unifiedAddressing", FieldValue::Int(1)),
            ("memoryClockRate", pick(715_000, 2_619_000)),
            ("memoryBusWidth", pick(4096, 5120)),
            ("l2CacheSize", pick(4_194_304, 52_428_800)),
            ("persistingL2CacheMaxSize", pick(0, 32_505_856)),
            ("maxThreadsPerMultiProcessor", FieldValue::Int(2048)),
            ("streamPrioritiesSupported", FieldValue::Int(1)),
            ("globalL1CacheSupported", FieldValue::Int(1)),
            ("localL1CacheSupported", FieldValue::Int(1)),
            ("sharedMemPerMultiprocessor", pick(65536, 233_472)),
            ("regsPerMultiprocessor", FieldValue::Int(65536)),
            ("managedMemory", FieldValue::Int(1)),
            ("isMultiGpuBoard", FieldValue::Int(0)),
            ("multiGpuBoardGroupID", FieldValue::Int(0)),
            ("singleToDoublePrecisionPerfRatio", FieldValue::Int(2)),
            ("pageableMemoryAccess", FieldValue::Int(0)),
            ("concurrentManagedAccess", FieldValue::Int(1)),
            ("computePreemptionSupported", FieldValue::Int(1)),
            ("canUseHostPointerForRegisteredMem", FieldValue::Int(1)),
            ("cooperativeLaunch", FieldValue::Int(1)),
            ("cooperativeMultiDeviceLaunch", FieldValue::Int(0)),
            ("sharedMemPerBlockOptin", pick(49152, 232_448)),
            ("maxBlocksPerMultiProcessor", FieldValue::Int(32)),
            ("reservedSharedMemPerBlock", pick(0, 1024)),
            ("memoryPoolsSupported", pick(0, 1)),
        ]
    }

    /// The bytes of a `cudaDeviceProp` ([`prop_struct`]'s layout) for this device.
    pub fn prop_bytes(&self) -> Vec<u8> {
        let def = prop_struct();
        let mut out = vec![0u8; def.size as usize];
        for (name, v) in self.fields() {
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
        self.fields().into_iter().find(|f| f.0 == name).map(|f| match f.1 {
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

/// The `cudaDeviceProp` struct host code declares (`crate::front::runtime_structs::device_prop`).
pub fn prop_struct() -> Arc<StructDef> {
    crate::front::runtime_structs::device_prop()
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

    #[test]
    fn every_value_has_its_field_in_the_front_ends_layout_and_the_other_way() {
        let g = Gpu { pre_volta: false, total_mem: 1 << 31, host_mem: 1 << 33 };
        let names: Vec<&str> = g.fields().into_iter().map(|f| f.0).collect();
        let layout: Vec<&str> = crate::front::runtime_structs::DEVICE_PROP.iter().map(|f| f.0).collect();
        assert_eq!(names, layout);
    }
}
