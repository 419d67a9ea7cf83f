//! The file's member functions, by class and name, and the two variants of each (object in registers, object
//! in memory; see `members`).

use std::collections::{HashMap, HashSet};

use crate::front::source::Span;
use crate::front::tast::FnId;

/// Where a member function's object is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ThisKind {
    /// A static member function: none.
    Static,
    /// In registers: one reference parameter per field.
    Reg,
    /// In memory: a pointer parameter.
    Mem,
}

/// A member function: its class, where its object is, and how it may use it.
#[derive(Clone, Debug)]
pub(super) struct MemberMeta {
    pub class: String,
    pub this: ThisKind,
    pub is_const: bool,
    /// Returns `*this` by reference (`Vec3 &operator+=(...)`).
    pub ret_ref: bool,
}

/// The file's member functions.
#[derive(Default)]
pub(super) struct Members {
    pub(super) meta: HashMap<u32, MemberMeta>,
    /// `Class::name` -> its functions (objects in registers; statics; constructors as `Class::Class`).
    pub(super) by_name: HashMap<String, Vec<FnId>>,
    /// The register variant of a member function -> its memory variant.
    pub(super) mem_of: HashMap<u32, FnId>,
    /// `Class::name` of members compiled for the host only (or never defined) -> where declared.
    pub(super) host: HashMap<String, Span>,
    /// Classes whose only constructor is the implicit default one (see `ctors`): a braced list still sets
    /// their fields in order.
    pub(super) implicit: HashSet<String>,
}

impl Members {
    /// Whether `id` is the variant of a member function whose object is in memory.
    pub(super) fn is_memory_variant(&self, id: FnId) -> bool {
        self.meta.get(&id.0).is_some_and(|m| m.this == ThisKind::Mem)
    }
}
