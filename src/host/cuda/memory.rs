//! Device memory calls: allocation (device, managed, pinned), copies, `cudaMemset`, symbols, with the
//! checks a program's misuse deserves (a copy larger than either side, a copy whose kind does not match its
//! pointers, a `cudaFree` of the wrong thing).

use super::*;
use crate::host::HostError;
use crate::host::interp::{Interp, Unwind};
use crate::host::memory::MemFault;

/// Where an address is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Loc {
    Host,
    Device,
    /// Host memory the device reaches too (managed or pinned): the host copy is the program's.
    Both,
    Nowhere,
}

const KINDS: [&str; 5] = [
    "cudaMemcpyHostToHost",
    "cudaMemcpyHostToDevice",
    "cudaMemcpyDeviceToHost",
    "cudaMemcpyDeviceToDevice",
    "cudaMemcpyDefault",
];

impl Interp<'_> {
    fn loc(&mut self, addr: u64) -> Loc {
        if self.rt.mirrors.iter().any(|m| addr >= m.addr && addr < m.addr + m.size.max(1)) {
            return Loc::Both;
        }
        if self.dev.owner(addr).is_some() {
            return Loc::Device;
        }
        if self.mem.locate(addr, 1).is_ok() { Loc::Host } else { Loc::Nowhere }
    }

    /// "`h_c` is host memory (malloc at line 12)", or what else the pointer that is the copy's `role`
    /// (destination, source) is.
    fn what_is(&mut self, addr: u64, role: &str) -> String {
        if addr == 0 {
            return format!("the {role} is a null pointer");
        }
        let mirrored = self.rt.mirrors.iter().any(|m| addr >= m.addr && addr < m.addr + m.size.max(1));
        if let Some(d) = self.dev.owner(addr).filter(|_| !mirrored) {
            return format!("`{}` is device memory (cudaMalloc at line {})", d.name, d.line);
        }
        if let Ok((i, _)) = self.mem.locate(addr, 1) {
            let a = &self.mem.allocs[i];
            let from = match a.kind {
                AllocKind::Heap => "malloc",
                AllocKind::Stack => "a local variable",
                AllocKind::Literal => "a string literal",
                AllocKind::Pinned => "cudaMallocHost",
                AllocKind::Managed => "cudaMallocManaged",
            };
            return format!("`{}` is host memory ({from} at line {})", a.name, a.line);
        }
        if let Some((_, at, name)) = self.rt.freed.iter().rev().find(|f| f.0 == addr) {
            return format!("`{name}` is device memory freed by cudaFree at line {at}");
        }
        format!("the {role} ({addr:#x}) is in no allocation")
    }

    /// The bytes left in the host allocation at `addr`: (allocation name, its size, its line, bytes from
    /// `addr` to its end).
    fn host_room(&mut self, addr: u64) -> Option<(String, u64, u32, u64)> {
        let (i, off) = self.mem.locate(addr, 1).ok()?;
        let a = &self.mem.allocs[i];
        Some((a.name.clone(), a.size, a.line, a.size - off as u64))
    }

    /// A host range of a copy that does not fit: the program stops (as AddressSanitizer would).
    fn host_overflow(&mut self, what: &str, addr: u64, n: u64, write: bool, line: u32) -> Unwind {
        let (name, size, at, room) = self.host_room(addr).unwrap_or_default();
        let (verb, dir) = if write { ("writes", "into") } else { ("reads", "from") };
        let message = format!(
            "{what} at line {line} {verb} {n} bytes {dir} `{name}`, which has {} (allocated at line {at}): {} bytes \
             past its end. Copy only as many bytes as both sides hold (count * sizeof(element))",
            if room == size { format!("{size} bytes") } else { format!("{room} bytes left of its {size}") },
            n.saturating_sub(room)
        );
        Unwind::Error(Box::new(HostError::Memory { line, message }))
    }

    /// A copy between host memory and device memory that fits both, without a buffer in between (a program
    /// copying a 1 GiB result back after each launch paid for a fresh gigabyte each time); false, with
    /// nothing copied, for any other copy (`read_any` and `write_any` then copy it or report what is wrong).
    fn copy_across(&mut self, dst: u64, src: u64, n: u64, (ld, ls): (Loc, Loc)) -> bool {
        let host = |l: Loc| matches!(l, Loc::Host | Loc::Both);
        if ls == Loc::Device && host(ld) {
            let Ok(out) = self.mem.bytes(dst, n) else { return false };
            self.dev.read_into(src, out)
        } else if ld == Loc::Device && host(ls) {
            let Ok(data) = self.mem.bytes(src, n) else { return false };
            self.dev.write(dst, data)
        } else {
            false
        }
    }

    /// Reads `n` bytes at `addr` wherever they are (the host copy of managed or pinned memory).
    fn read_any(&mut self, addr: u64, n: u64, loc: Loc, what: &str, e: &Expr) -> Result<Vec<u8>, Unwind> {
        let line = self.line(e.span);
        match loc {
            Loc::Device => Ok(self.dev.read(addr, n).unwrap_or_default()),
            _ => match self.mem.bytes(addr, n) {
                Ok(b) => Ok(b.to_vec()),
                Err(MemFault::OutOfBounds { .. }) if loc != Loc::Nowhere => {
                    Err(self.host_overflow(what, addr, n, false, line))
                }
                Err(f) => Err(self.fault(f, addr, false, None, e.span)),
            },
        }
    }

    fn write_any(&mut self, addr: u64, data: &[u8], loc: Loc, what: &str, e: &Expr) -> Result<(), Unwind> {
        let line = self.line(e.span);
        match loc {
            Loc::Device => {
                self.dev.write(addr, data);
                Ok(())
            }
            _ => match self.mem.bytes(addr, data.len() as u64) {
                Ok(b) => {
                    b.copy_from_slice(data);
                    Ok(())
                }
                Err(MemFault::OutOfBounds { .. }) if loc != Loc::Nowhere => {
                    Err(self.host_overflow(what, addr, data.len() as u64, true, line))
                }
                Err(f) => Err(self.fault(f, addr, true, None, e.span)),
            },
        }
    }

    /// A device range of a copy that does not fit: the call fails (cudaErrorInvalidValue), with a finding.
    /// `host`: the copy's other side when it is host memory (its room tells which of the two sizes is wrong).
    fn device_room(&mut self, what: &str, addr: u64, n: u64, into: bool, line: u32, host: Option<u64>) -> bool {
        let Some(d) = self.dev.owner(addr) else { return true };
        let room = (d.base + d.size).saturating_sub(addr);
        if n <= room {
            return true;
        }
        let dir = if into { "into" } else { "from" };
        // A host side smaller than the copy too: the count is wrong (`bytes * sizeof(T)`), not the allocation.
        let host_short = host.and_then(|h| self.host_room(h)).filter(|r| r.3 < n);
        let hint = if let Some((_, size, at, _)) = host_short {
            format!(
                ". The host side is smaller than the copy too ({size} bytes, allocated at line {at}): the count is \
                 what is wrong, not the allocation. Copy at most {room} bytes"
            )
        } else if d.elem_size > 1 && n == d.size * d.elem_size as u64 {
            format!(
                ". cudaMalloc takes a size in bytes: for {} {}s write cudaMalloc(&{}, {} * sizeof({})), not \
                 cudaMalloc(&{}, {})",
                d.size, d.elem, d.name, d.size, d.elem, d.name, d.size
            )
        } else {
            format!(". Copy at most {room} bytes, or allocate more")
        };
        let message = format!(
            "{what} at line {line} copies {n} bytes {dir} `{}`, which has {} (cudaMalloc at line {}): the call fails \
             with cudaErrorInvalidValue and copies nothing{hint}",
            d.name,
            if room == d.size { format!("{} bytes", d.size) } else { format!("{room} bytes left of its {}", d.size) },
            d.line
        );
        self.finding(FindingKind::CopySize, line, message);
        false
    }

    /// `cudaMemcpy(dst, src, n, kind)` (`blocking`: not the Async form): the CUDA error code, or a stop for
    /// a bad host access.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn memcpy(
        &mut self,
        dst: u64,
        src: u64,
        n: u64,
        kind: u32,
        blocking: bool,
        what: &str,
        e: &Expr,
    ) -> Result<u32, Unwind> {
        let line = self.line(e.span);
        let (ld, ls) = (self.loc(dst), self.loc(src));
        let on_dev = |l: Loc| matches!(l, Loc::Device | Loc::Both);
        let (want_dst, want_src) = match kind {
            0 => (false, false),
            1 => (true, false),
            2 => (false, true),
            3 => (true, true),
            4 => (on_dev(ld), on_dev(ls)),
            _ => return Ok(INVALID_MEMCPY_DIRECTION),
        };
        // A side the kind says is on the device must be; a side it says is on the host must not be device
        // memory (Both fits either).
        let fits = |l: Loc, dev: bool| if dev { on_dev(l) } else { l != Loc::Device };
        if !fits(ld, want_dst) || !fits(ls, want_src) {
            let right = match (on_dev(ld) && ld != Loc::Both, on_dev(ls) && ls != Loc::Both) {
                _ if ld == Loc::Nowhere || ls == Loc::Nowhere => None,
                (false, false) => Some(0),
                (true, false) => Some(1),
                (false, true) => Some(2),
                (true, true) => Some(3),
            };
            let (wd, ws) = (self.what_is(dst, "destination"), self.what_is(src, "source"));
            let fix = match right {
                Some(k) => format!("use {}", KINDS[k]),
                None => "pass memory from cudaMalloc as the device side".into(),
            };
            let message = format!(
                "{what} at line {line} copies with {}, but {wd} and {ws}: the call fails \
                 with cudaErrorInvalidValue and copies nothing. Check the order (destination first) and {fix}",
                KINDS[kind as usize]
            );
            self.finding(FindingKind::CopyDirection, line, message);
            return Ok(INVALID_VALUE);
        }
        let host = |l: Loc, addr: u64| matches!(l, Loc::Host | Loc::Both).then_some(addr);
        if (ld == Loc::Device && !self.device_room(what, dst, n, true, line, host(ls, src)))
            || (ls == Loc::Device && !self.device_room(what, src, n, false, line, host(ld, dst)))
        {
            return Ok(INVALID_VALUE);
        }
        if !self.copy_across(dst, src, n, (ld, ls)) {
            let data = self.read_any(src, n, ls, what, e)?;
            self.write_any(dst, &data, ld, what, e)?;
        }
        let host_side = ld != Loc::Device || ls != Loc::Device;
        let pinned = self.rt.mirrors.iter().any(|m| !m.managed && (m.addr == dst || m.addr == src));
        self.enqueue(timing::copy_ns(n, host_side, pinned));
        if blocking {
            self.wait_gpu();
            self.flush_printf();
        }
        Ok(SUCCESS)
    }

    /// `cudaMemset(addr, value, n)`.
    pub(super) fn memset(&mut self, addr: u64, value: u8, n: u64, line: u32) -> u32 {
        match self.loc(addr) {
            Loc::Device => {
                if !self.device_room("cudaMemset", addr, n, true, line, None) {
                    return INVALID_VALUE;
                }
                self.dev.write(addr, &vec![value; n as usize]);
            }
            Loc::Both => {
                let fits = self.host_room(addr).is_some_and(|r| r.3 >= n);
                match self.mem.bytes(addr, n) {
                    Ok(b) if fits => b.fill(value),
                    _ => return INVALID_VALUE,
                }
            }
            _ => {
                let message = format!(
                    "cudaMemset at line {line} sets device memory, but {}: the call fails with \
                     cudaErrorInvalidValue. Use memset for host memory",
                    self.what_is(addr, "destination")
                );
                self.finding(FindingKind::CopyDirection, line, message);
                return INVALID_VALUE;
            }
        }
        self.enqueue(2_000 + n / 1_000);
        SUCCESS
    }

    /// `cudaMemcpyToSymbol`, `cudaMemcpyFromSymbol`, `cudaGetSymbolAddress`.
    pub(super) fn symbol_copy(&mut self, api: Api, v: &LibArgs, e: &Expr) -> Result<u32, Unwind> {
        let line = self.line(e.span);
        let index = if api == Api::MemcpyToSymbol { v[0] } else { v[1] };
        let Some((addr, size)) = self.dev.symbol(index as usize) else { return Ok(INVALID_SYMBOL) };
        if api == Api::GetSymbolAddress {
            self.out_param(v[0], 8, addr, e)?;
            return Ok(SUCCESS);
        }
        let (count, offset, kind) = (v[2], v[3], v[4] as u32);
        if offset.saturating_add(count) > size {
            let name = self.dev.owner(addr).map(|d| d.name).unwrap_or_default();
            let message = format!(
                "{} at line {line} copies {count} bytes at offset {offset} of `{name}`, which has {size} bytes: \
                 the call fails with cudaErrorInvalidValue and copies nothing",
                if api == Api::MemcpyToSymbol { "cudaMemcpyToSymbol" } else { "cudaMemcpyFromSymbol" }
            );
            self.finding(FindingKind::CopySize, line, message);
            return Ok(INVALID_VALUE);
        }
        let to = api == Api::MemcpyToSymbol;
        let other_on_device = match kind {
            1 | 2 => false,
            3 => true,
            4 => {
                let other = if to { v[1] } else { v[0] };
                matches!(self.loc(other), Loc::Device)
            }
            _ => return Ok(INVALID_MEMCPY_DIRECTION),
        };
        if (to && kind == 2) || (!to && kind == 1) {
            return Ok(INVALID_MEMCPY_DIRECTION);
        }
        let (dst, src) = if to { (addr + offset, v[1]) } else { (v[0], addr + offset) };
        let (ld, ls) = if to {
            (Loc::Device, if other_on_device { Loc::Device } else { self.loc(src) })
        } else {
            (if other_on_device { Loc::Device } else { self.loc(dst) }, Loc::Device)
        };
        let what = if to { "cudaMemcpyToSymbol" } else { "cudaMemcpyFromSymbol" };
        let data = self.read_any(src, count, ls, what, e)?;
        self.write_any(dst, &data, ld, what, e)?;
        self.enqueue(timing::copy_ns(count, !other_on_device, false));
        self.wait_gpu();
        self.flush_printf();
        Ok(SUCCESS)
    }

    /// `cudaMalloc`, `cudaMallocManaged`, `cudaMallocHost`/`cudaHostAlloc`, `cudaFreeHost`,
    /// `cudaHostGetDevicePointer`, `cudaFree`.
    pub(super) fn allocation(&mut self, api: Api, v: &LibArgs, line: u32, e: &Expr) -> Result<u64, Unwind> {
        self.rt.clock.host_ns += timing::ALLOC_NS;
        Ok(match api {
            Api::Malloc | Api::MallocAsync => {
                // The notes follow the arguments: `cudaMallocAsync` has a stream after the size.
                let notes = if api == Api::MallocAsync { 3 } else { 2 };
                let name = self.literal(v[notes] as u32);
                let Some(at) = self.dev.malloc(v[1], scalar_at(v[notes + 1]), &name, line) else {
                    return Ok(self.status(MEMORY_ALLOCATION));
                };
                self.out_param(v[0], 8, at, e)?;
                self.status(SUCCESS)
            }
            Api::MallocManaged | Api::MallocHost => {
                let managed = api == Api::MallocManaged;
                let name = self.literal(v[3] as u32);
                let kind = if managed { AllocKind::Managed } else { AllocKind::Pinned };
                if v[1] > self.dev.gpu().total_mem {
                    return Ok(self.status(MEMORY_ALLOCATION));
                }
                let at = self.mem.alloc(v[1], kind, &name, line);
                if !self.dev.map(at, v[1], scalar_at(v[4]), &name, line) {
                    if let Some(i) = self.mem.at_base(at) {
                        self.mem.release(i, line);
                    }
                    return Ok(self.status(MEMORY_ALLOCATION));
                }
                self.rt.mirrors.push(Mirror { addr: at, size: v[1], managed, symbol: false });
                self.out_param(v[0], 8, at, e)?;
                self.status(SUCCESS)
            }
            Api::FreeHost => {
                let Some(k) = self.rt.mirrors.iter().position(|m| m.addr == v[0] && !m.managed) else {
                    let message = format!(
                        "cudaFreeHost at line {line} frees memory cudaMallocHost did not return: {}",
                        self.what_is(v[0], "pointer")
                    );
                    self.finding(FindingKind::BadDeviceFree, line, message);
                    return Ok(self.status(INVALID_VALUE));
                };
                self.unmirror(k, line);
                self.status(SUCCESS)
            }
            Api::HostGetDevicePointer => {
                if self.rt.mirrors.iter().any(|m| !m.managed && v[1] >= m.addr && v[1] < m.addr + m.size.max(1)) {
                    self.out_param(v[0], 8, v[1], e)?;
                    self.status(SUCCESS)
                } else {
                    self.status(INVALID_VALUE)
                }
            }
            _ => {
                // cudaFree: waits for the device first.
                let addr = v[0];
                if addr == 0 {
                    return Ok(self.status(SUCCESS));
                }
                self.wait_gpu();
                if let Some(k) = self.rt.mirrors.iter().position(|m| m.addr == addr && m.managed) {
                    self.unmirror(k, line);
                    return Ok(self.status(SUCCESS));
                }
                let name = self.dev.owner(addr).filter(|d| d.base == addr).map(|d| d.name);
                if self.loc(addr) == Loc::Device && self.dev.free(addr) {
                    self.rt.freed.push((addr, line, name.unwrap_or_default()));
                    return Ok(self.status(SUCCESS));
                }
                let message = match self.rt.freed.iter().rev().find(|f| f.0 == addr) {
                    Some((_, at, name)) => format!(
                        "cudaFree at line {line} frees `{name}` again: it was freed at line {at}. Free each \
                         allocation once (set the pointer to NULL after cudaFree)"
                    ),
                    None => format!(
                        "cudaFree at line {line} frees memory cudaMalloc did not return: {}. Pass cudaFree exactly \
                         what cudaMalloc gave (free host memory with free or cudaFreeHost)",
                        self.what_is(addr, "pointer")
                    ),
                };
                self.finding(FindingKind::BadDeviceFree, line, message);
                self.status(INVALID_VALUE)
            }
        })
    }

    /// `cudaPointerGetAttributes(&attr, p)`: what memory `p` is in, as an H200 reports it (CUDA 13): plain
    /// host memory is `cudaMemoryTypeUnregistered` on device -2 with only a host pointer, device memory has
    /// only a device pointer, pinned and managed memory both (the same address). Never an error.
    pub(super) fn pointer_attributes(&mut self, v: &LibArgs, e: &Expr) -> Result<u64, Unwind> {
        let p = v[1];
        let managed = self.rt.mirrors.iter().find(|m| p >= m.addr && p < m.addr + m.size.max(1)).map(|m| m.managed);
        let (kind, device, dev_ptr, host_ptr) = match (managed, self.loc(p)) {
            (Some(true), _) => (3, 0, p, p),
            (Some(false), _) => (1, 0, p, p),
            (None, Loc::Device) => (2, 0, p, 0),
            _ => (0, -2i32 as u32 as u64, 0, p),
        };
        let def = super::structs::pointer_attributes();
        let at = |f: &str| v[0] + super::structs::offset(&def, f);
        self.out_param(at("type"), 4, kind, e)?;
        self.out_param(at("device"), 4, device, e)?;
        self.out_param(at("devicePointer"), 8, dev_ptr, e)?;
        self.out_param(at("hostPointer"), 8, host_ptr, e)?;
        Ok(self.status(SUCCESS))
    }

    /// `main`'s prologue for a `__managed__` variable: host memory of its size, holding its initial value,
    /// to which the device moves the symbol; kept level like `cudaMallocManaged` memory, and reached by name
    /// through file-scope variable `global`.
    pub(crate) fn managed_global(&mut self, global: u32, symbol: u32) {
        let Some((addr, size)) = self.dev.symbol(symbol as usize) else { return };
        let name = self.dev.owner(addr).map(|d| d.name).unwrap_or_default();
        let at = self.mem.alloc(size, AllocKind::Managed, &name, 0);
        let init = self.dev.read(addr, size).unwrap_or_default();
        if let Ok(b) = self.mem.bytes(at, size) {
            b.copy_from_slice(&init);
        }
        if self.dev.move_symbol(symbol as usize, at) {
            self.rt.mirrors.push(Mirror { addr: at, size, managed: true, symbol: true });
        }
        if let Some(g) = self.globals.get_mut(global as usize) {
            *g = at;
        }
    }

    fn unmirror(&mut self, k: usize, line: u32) {
        let m = self.rt.mirrors.remove(k);
        self.dev.free(m.addr);
        if let Some(i) = self.mem.at_base(m.addr) {
            self.mem.release(i, line);
        }
    }

    /// The managed and pinned allocations a launch of `kernel` with argument values `args` may reach (by
    /// index in `rt.mirrors`): those an argument points into, or all of them when the kernel may find
    /// pointers elsewhere ([`crate::host::Device::reaches_only_args`]), or a debugger shows the device's
    /// memory. Between launches the host copy is the one that counts; only these are brought to the device
    /// and back (a program streaming 16,384 launches through 3 GiB of pinned buffers its kernels never see
    /// copied them all twice a launch).
    pub(super) fn reachable_mirrors(&mut self, kernel: &str, args: &[u64]) -> Vec<usize> {
        let all = self.dev.wants_host_vars() || !self.dev.reaches_only_args(kernel);
        let mirrors = &self.rt.mirrors;
        (0..mirrors.len())
            .filter(|&k| {
                all || mirrors[k].symbol
                    || args.iter().any(|&a| a >= mirrors[k].addr && a < mirrors[k].addr + mirrors[k].size)
            })
            .collect()
    }

    /// Brings the device copies of managed and pinned allocations `which` level with the host's (before a
    /// launch).
    pub(super) fn mirrors_to_device(&mut self, which: &[usize]) {
        for &k in which {
            let (addr, size) = (self.rt.mirrors[k].addr, self.rt.mirrors[k].size);
            if let Ok(b) = self.mem.bytes(addr, size) {
                self.dev.write(addr, b);
            }
        }
    }

    /// Brings the host copies of `which` level with the device's (after a launch).
    pub(super) fn mirrors_to_host(&mut self, which: &[usize]) {
        for &k in which {
            let (addr, size) = (self.rt.mirrors[k].addr, self.rt.mirrors[k].size);
            if let Ok(b) = self.mem.bytes(addr, size) {
                self.dev.read_into(addr, b);
            }
        }
    }
}
