//! CUDA's built-in struct types, known by name before any file declares them: the vector types (`float4`,
//! `uchar2`, `dim3`), the cooperative-groups types and cuRAND's generator states, laid out as nvcc lays them
//! out. The parser asks which names are types, the type checkers (device and host) and the launch directives
//! their layout.

use std::sync::Arc;

use super::curand::Gen;
use super::types::{Scalar, StructDef, Type};

/// CUDA's vector type `name` (`float4`, `uchar2`, `dim3`), laid out and aligned as `vector_types.h` does.
pub fn vector_type(name: &str) -> Option<Arc<StructDef>> {
    if let Some(g) = group_type(name) {
        return Some(g);
    }
    if let Some(s) = curand_state_type(name) {
        return Some(s);
    }
    if name == "dim3" {
        return Some(Arc::new(vector_def(name, Scalar::U32, 3, 4)));
    }
    let n = name.chars().last()?.to_digit(10)?;
    if !(1..=4).contains(&n) {
        return None;
    }
    let s = match &name[..name.len() - 1] {
        "char" => Scalar::I8,
        "uchar" => Scalar::U8,
        "short" => Scalar::I16,
        "ushort" => Scalar::U16,
        "int" => Scalar::I32,
        "uint" => Scalar::U32,
        "long" | "longlong" => Scalar::I64,
        "ulong" | "ulonglong" => Scalar::U64,
        "float" => Scalar::F32,
        "double" => Scalar::F64,
        _ => return None,
    };
    // 1- and 3-element vectors align as their element; 2 and 4 as the whole (at most 16 bytes).
    let align = match n {
        2 | 4 => (s.size() * n).min(16),
        _ => s.size(),
    };
    Some(Arc::new(vector_def(name, s, n, align)))
}

fn vector_def(name: &str, s: Scalar, n: u32, align: u32) -> StructDef {
    let fields = ["x", "y", "z", "w"].iter().take(n as usize).map(|f| (f.to_string(), Type::Scalar(s))).collect();
    StructDef::new(name, fields, align)
}

/// The struct type of a cooperative-groups type name (`thread_block`, `thread_block_tile<32>`, ...).
pub fn group_type(name: &str) -> Option<Arc<StructDef>> {
    let u = |f: &str| (f.to_string(), Type::UINT);
    let def = match name {
        "thread_block" => StructDef::new(name, vec![], 1),
        "grid_group" => StructDef::new(name, vec![], 1),
        "thread_group" => StructDef::new(name, vec![u("rank"), u("size"), u("mask")], 4),
        "coalesced_group" => StructDef::new(name, vec![u("mask")], 4),
        _ => {
            let n: u32 = name.strip_prefix("thread_block_tile<")?.strip_suffix('>')?.trim().parse().ok()?;
            StructDef::new(format!("thread_block_tile<{n}>"), vec![], 1)
        }
    };
    Some(Arc::new(def))
}

/// The state struct a type name means, if it is one of cuRAND's.
pub fn curand_state_type(name: &str) -> Option<Arc<StructDef>> {
    let u32s = Type::UINT;
    let tail = |fields: &mut Vec<(String, Type)>| {
        fields.push(("boxmuller_flag".into(), Type::INT));
        fields.push(("boxmuller_flag_double".into(), Type::INT));
        fields.push(("boxmuller_extra".into(), Type::FLOAT));
        fields.push(("boxmuller_extra_double".into(), Type::Scalar(Scalar::F64)));
    };
    match name {
        "curandState" | "curandState_t" | "curandStateXORWOW" | "curandStateXORWOW_t" => {
            let mut f = vec![("d".into(), u32s.clone()), ("v".into(), Type::Array(Box::new(u32s), 5))];
            tail(&mut f);
            Some(Arc::new(StructDef::new("curandState", f, 1)))
        }
        "curandStatePhilox4_32_10" | "curandStatePhilox4_32_10_t" => {
            let v = |n: &str| vector_type(n).map(Type::Struct).unwrap_or(Type::Error);
            let mut f = vec![
                ("ctr".into(), v("uint4")),
                ("output".into(), v("uint4")),
                ("key".into(), v("uint2")),
                ("STATE".into(), u32s),
            ];
            tail(&mut f);
            Some(Arc::new(StructDef::new("curandStatePhilox4_32_10_t", f, 1)))
        }
        _ => None,
    }
}

/// Which generator a state type is.
pub fn curand_generator(ty: &Type) -> Option<Gen> {
    match ty.as_struct()?.name.as_str() {
        "curandState" => Some(Gen::Xorwow),
        "curandStatePhilox4_32_10_t" => Some(Gen::Philox),
        _ => None,
    }
}

/// Whether `ty` is a cuRAND state (whose `v[5]` array may live in registers: no kernel indexes it).
pub fn is_curand_state(ty: &Type) -> bool {
    curand_generator(ty).is_some()
}
