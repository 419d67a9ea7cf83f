//! The runtime's structs host code declares and fills: pitched pointers, extents and positions for 3D copies
//! (`cudaPitchedPtr`, `cudaExtent`, `cudaPos`, `cudaMemcpy3DParms`), what `cudaFuncGetAttributes` and
//! `cudaPointerGetAttributes` write (`cudaFuncAttributes`, `cudaPointerAttributes`), and CUDA 13's
//! `cudaMemLocation`. Field order and types are the CUDA 12 headers' (driver_types.h), so the layout matches.
//! `cudaDeviceProp` is here too, with the fields courses print in CUDA's order (not its real layout), so that a
//! program's struct may hold one; the host fills in its values.
//! They live in the front end because kernels take the 3D ones as parameters too (`cudaPitchedPtr p`).

use std::sync::{Arc, OnceLock};

use super::types::{Scalar, StructDef, Type};

fn size_t() -> Type {
    Type::Scalar(Scalar::U64)
}

fn ptr() -> Type {
    Type::ptr(Type::Void, false)
}

macro_rules! runtime_struct {
    ($(#[$doc:meta])* $f:ident, $name:literal, [$($field:literal: $ty:expr),* $(,)?]) => {
        $(#[$doc])*
        pub fn $f() -> Arc<StructDef> {
            static DEF: OnceLock<Arc<StructDef>> = OnceLock::new();
            DEF.get_or_init(|| Arc::new(StructDef::new($name, vec![$(($field.into(), $ty)),*], 1))).clone()
        }
    };
}

runtime_struct!(
    /// `struct cudaPitchedPtr { void *ptr; size_t pitch, xsize, ysize; }`.
    pitched_ptr, "cudaPitchedPtr", ["ptr": ptr(), "pitch": size_t(), "xsize": size_t(), "ysize": size_t()]
);
runtime_struct!(
    /// `struct cudaExtent { size_t width, height, depth; }`: width in bytes for linear memory.
    extent, "cudaExtent", ["width": size_t(), "height": size_t(), "depth": size_t()]
);
runtime_struct!(
    /// `struct cudaPos { size_t x, y, z; }`: x in bytes for linear memory.
    pos, "cudaPos", ["x": size_t(), "y": size_t(), "z": size_t()]
);
runtime_struct!(
    /// `struct cudaMemcpy3DParms`: a CUDA array on either side is not supported (the copy fails).
    memcpy3d_parms,
    "cudaMemcpy3DParms",
    [
        "srcArray": ptr(),
        "srcPos": Type::Struct(pos()),
        "srcPtr": Type::Struct(pitched_ptr()),
        "dstArray": ptr(),
        "dstPos": Type::Struct(pos()),
        "dstPtr": Type::Struct(pitched_ptr()),
        "extent": Type::Struct(extent()),
        "kind": Type::INT,
    ]
);
runtime_struct!(
    /// `struct cudaFuncAttributes` of CUDA 12 (the cluster fields included; its reserved tail left out).
    func_attributes,
    "cudaFuncAttributes",
    [
        "sharedSizeBytes": size_t(),
        "constSizeBytes": size_t(),
        "localSizeBytes": size_t(),
        "maxThreadsPerBlock": Type::INT,
        "numRegs": Type::INT,
        "ptxVersion": Type::INT,
        "binaryVersion": Type::INT,
        "cacheModeCA": Type::INT,
        "maxDynamicSharedSizeBytes": Type::INT,
        "preferredShmemCarveout": Type::INT,
        "clusterDimMustBeSet": Type::INT,
        "requiredClusterWidth": Type::INT,
        "requiredClusterHeight": Type::INT,
        "requiredClusterDepth": Type::INT,
        "clusterSchedulingPolicyPreference": Type::INT,
        "nonPortableClusterSizeAllowed": Type::INT,
    ]
);
runtime_struct!(
    /// `struct cudaPointerAttributes { enum cudaMemoryType type; int device; void *devicePointer, *hostPointer; }`.
    pointer_attributes,
    "cudaPointerAttributes",
    ["type": Type::INT, "device": Type::INT, "devicePointer": ptr(), "hostPointer": ptr()]
);
runtime_struct!(
    /// CUDA 13's `struct cudaMemLocation { enum cudaMemLocationType type; int id; }` (prefetch and advice).
    mem_location, "cudaMemLocation", ["type": Type::INT, "id": Type::INT]
);

runtime_struct!(
    /// `struct cudaChannelFormatDesc { int x, y, z, w; enum cudaChannelFormatKind f; }`: bits per channel.
    channel_format_desc,
    "cudaChannelFormatDesc",
    ["x": Type::INT, "y": Type::INT, "z": Type::INT, "w": Type::INT, "f": Type::INT]
);
runtime_struct!(
    /// `res.array` of a `cudaResourceDesc`.
    resource_array, "cudaResourceDesc::array", ["array": ptr()]
);
runtime_struct!(
    /// `res.linear` of a `cudaResourceDesc`.
    resource_linear,
    "cudaResourceDesc::linear",
    ["devPtr": ptr(), "desc": Type::Struct(channel_format_desc()), "sizeInBytes": size_t()]
);
runtime_struct!(
    /// `res.pitch2D` of a `cudaResourceDesc`.
    resource_pitch2d,
    "cudaResourceDesc::pitch2D",
    [
        "devPtr": ptr(),
        "desc": Type::Struct(channel_format_desc()),
        "width": size_t(),
        "height": size_t(),
        "pitchInBytes": size_t(),
    ]
);
runtime_struct!(
    /// The union `res` of a `cudaResourceDesc`, as a struct: its members do not overlap here (a program
    /// writes the one its `resType` names, after a memset of the whole).
    resource_union,
    "cudaResourceDesc::res",
    [
        "array": Type::Struct(resource_array()),
        "linear": Type::Struct(resource_linear()),
        "pitch2D": Type::Struct(resource_pitch2d()),
    ]
);
runtime_struct!(
    /// `struct cudaResourceDesc { enum cudaResourceType resType; union {...} res; unsigned flags; }`.
    resource_desc,
    "cudaResourceDesc",
    ["resType": Type::INT, "res": Type::Struct(resource_union()), "flags": Type::UINT]
);
runtime_struct!(
    /// `struct cudaTextureDesc` of CUDA 12.
    texture_desc,
    "cudaTextureDesc",
    [
        "addressMode": Type::Array(Box::new(Type::INT), 3),
        "filterMode": Type::INT,
        "readMode": Type::INT,
        "sRGB": Type::INT,
        "borderColor": Type::Array(Box::new(Type::FLOAT), 4),
        "normalizedCoords": Type::INT,
        "maxAnisotropy": Type::UINT,
        "mipmapFilterMode": Type::INT,
        "mipmapLevelBias": Type::FLOAT,
        "minMipmapLevelClamp": Type::FLOAT,
        "maxMipmapLevelClamp": Type::FLOAT,
        "disableTrilinearOptimization": Type::INT,
        "seamlessCubemap": Type::INT,
    ]
);

/// A `cudaDeviceProp` field's C type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PropField {
    Int,
    Size,
    /// `char name[256]`.
    Name,
    /// `int x[3]`.
    Int3,
}

/// `cudaDeviceProp`'s fields, in CUDA's order (the ones courses print; no program depends on the real
/// offsets). The host fills in their values for the simulated device (`host::cuda::props`).
pub const DEVICE_PROP: [(&str, PropField); 53] = [
    ("name", PropField::Name),
    ("totalGlobalMem", PropField::Size),
    ("sharedMemPerBlock", PropField::Size),
    ("regsPerBlock", PropField::Int),
    ("warpSize", PropField::Int),
    ("memPitch", PropField::Size),
    ("maxThreadsPerBlock", PropField::Int),
    ("maxThreadsDim", PropField::Int3),
    ("maxGridSize", PropField::Int3),
    ("clockRate", PropField::Int),
    ("totalConstMem", PropField::Size),
    ("major", PropField::Int),
    ("minor", PropField::Int),
    ("textureAlignment", PropField::Size),
    ("texturePitchAlignment", PropField::Size),
    ("deviceOverlap", PropField::Int),
    ("multiProcessorCount", PropField::Int),
    ("kernelExecTimeoutEnabled", PropField::Int),
    ("integrated", PropField::Int),
    ("canMapHostMemory", PropField::Int),
    ("computeMode", PropField::Int),
    ("concurrentKernels", PropField::Int),
    ("ECCEnabled", PropField::Int),
    ("pciBusID", PropField::Int),
    ("pciDeviceID", PropField::Int),
    ("pciDomainID", PropField::Int),
    ("tccDriver", PropField::Int),
    ("asyncEngineCount", PropField::Int),
    ("unifiedAddressing", PropField::Int),
    ("memoryClockRate", PropField::Int),
    ("memoryBusWidth", PropField::Int),
    ("l2CacheSize", PropField::Int),
    ("persistingL2CacheMaxSize", PropField::Int),
    ("maxThreadsPerMultiProcessor", PropField::Int),
    ("streamPrioritiesSupported", PropField::Int),
    ("globalL1CacheSupported", PropField::Int),
    ("localL1CacheSupported", PropField::Int),
    ("sharedMemPerMultiprocessor", PropField::Size),
    ("regsPerMultiprocessor", PropField::Int),
    ("managedMemory", PropField::Int),
    ("isMultiGpuBoard", PropField::Int),
    ("multiGpuBoardGroupID", PropField::Int),
    ("singleToDoublePrecisionPerfRatio", PropField::Int),
    ("pageableMemoryAccess", PropField::Int),
    ("concurrentManagedAccess", PropField::Int),
    ("computePreemptionSupported", PropField::Int),
    ("canUseHostPointerForRegisteredMem", PropField::Int),
    ("cooperativeLaunch", PropField::Int),
    ("cooperativeMultiDeviceLaunch", PropField::Int),
    ("sharedMemPerBlockOptin", PropField::Size),
    ("maxBlocksPerMultiProcessor", PropField::Int),
    ("reservedSharedMemPerBlock", PropField::Size),
    ("memoryPoolsSupported", PropField::Int),
];

/// The `cudaDeviceProp` struct, laid out from [`DEVICE_PROP`]: host code declares it, and a struct of the
/// program may hold one (`struct Gpu { int id; cudaDeviceProp prop; };`).
pub fn device_prop() -> Arc<StructDef> {
    static DEF: OnceLock<Arc<StructDef>> = OnceLock::new();
    DEF.get_or_init(|| {
        let fields = DEVICE_PROP
            .iter()
            .map(|&(name, f)| {
                let ty = match f {
                    PropField::Int => Type::INT,
                    PropField::Size => Type::Scalar(Scalar::U64),
                    PropField::Name => Type::Array(Box::new(Type::Scalar(Scalar::I8)), 256),
                    PropField::Int3 => Type::Array(Box::new(Type::INT), 3),
                };
                (name.to_string(), ty)
            })
            .collect();
        Arc::new(StructDef::new("cudaDeviceProp", fields, 8))
    })
    .clone()
}

/// The struct a runtime type name stands for.
pub fn by_name(name: &str) -> Option<Arc<StructDef>> {
    Some(match name {
        "cudaPitchedPtr" => pitched_ptr(),
        "cudaExtent" => extent(),
        "cudaPos" => pos(),
        "cudaMemcpy3DParms" => memcpy3d_parms(),
        "cudaFuncAttributes" => func_attributes(),
        "cudaPointerAttributes" => pointer_attributes(),
        "cudaMemLocation" => mem_location(),
        "cudaChannelFormatDesc" => channel_format_desc(),
        "cudaResourceDesc" => resource_desc(),
        "cudaTextureDesc" => texture_desc(),
        "cudaDeviceProp" => device_prop(),
        _ => return None,
    })
}

/// The runtime struct a kernel may name (`__global__ void k(cudaPitchedPtr p, cudaExtent e)`): the plain
/// structs of driver_types.h that device code can use, not the host API's descriptors.
pub fn device_by_name(name: &str) -> Option<Arc<StructDef>> {
    matches!(name, "cudaPitchedPtr" | "cudaExtent" | "cudaPos").then(|| by_name(name)).flatten()
}

/// The struct `make_NAME(...)` builds from its fields in order (`make_cudaExtent(w, h, d)`).
pub fn made_by(function: &str) -> Option<Arc<StructDef>> {
    match function {
        "make_cudaPitchedPtr" => Some(pitched_ptr()),
        "make_cudaExtent" => Some(extent()),
        "make_cudaPos" => Some(pos()),
        "cudaCreateChannelDesc" => Some(channel_format_desc()),
        _ => None,
    }
}

/// A field's byte offset in `def` (the fields are fixed above).
pub fn offset(def: &StructDef, field: &str) -> u64 {
    def.field(field).map_or(0, |f| f.offset as u64)
}
