//! POSIX `getopt(argc, argv, "n:f:v")` with glibc's messages, and its variables `optarg`, `optind`, `opterr`
//! and `optopt`, which the preprocessor names as `(*__warpdbg_optind())` and so on: one block of host memory
//! holds them, made at first use (`optind` 1, `opterr` 1, `optopt` `'?'`). Arguments are not permuted: the
//! scan stops at the first one that is not an option (glibc with `POSIXLY_CORRECT`, or a `+` string),
//! which is what the course programs' command lines (options first) need.

use super::interp::{Interp, Unwind};
pub use super::libfns::GetoptFn;
use super::memory::AllocKind;
use super::tree::{Expr, Lib, LibArgs};
use crate::front::types::{Scalar, Type};

/// Offsets in the block: `char *optarg`, `int optind`, `int opterr`, `int optopt`.
const OPTARG: u8 = 0;
const OPTIND: u8 = 8;
const OPTERR: u8 = 12;
const OPTOPT: u8 = 16;

/// The signature of `getopt` and of the variables' addresses: (what, parameters, variadic, result).
pub(super) fn library(name: &str) -> Option<(Lib, Vec<Type>, bool, Type)> {
    let ptr = || Type::ptr(Type::Void, false);
    let int_ptr = || Type::ptr(Type::INT, false);
    let (f, params, ret) = match name {
        "getopt" => (GetoptFn::Getopt, vec![Type::INT, ptr(), ptr()], Type::INT),
        "__warpdbg_optarg" => {
            (GetoptFn::Var(OPTARG), vec![], Type::ptr(Type::ptr(Type::Scalar(Scalar::I8), false), false))
        }
        "__warpdbg_optind" => (GetoptFn::Var(OPTIND), vec![], int_ptr()),
        "__warpdbg_opterr" => (GetoptFn::Var(OPTERR), vec![], int_ptr()),
        "__warpdbg_optopt" => (GetoptFn::Var(OPTOPT), vec![], int_ptr()),
        _ => return None,
    };
    Some((Lib::Getopt(f), params, false, ret))
}

impl Interp<'_> {
    /// Runs `getopt` or gives a variable's address.
    pub(super) fn getopt(&mut self, f: GetoptFn, v: &LibArgs, e: &Expr) -> Result<u64, Unwind> {
        let block = self.getopt_block(e)?;
        match f {
            GetoptFn::Var(offset) => Ok(block + offset as u64),
            GetoptFn::Getopt => self.getopt_next_option(block, v[0] as u32 as i32, v[1], v[2], e),
        }
    }

    /// The variables' block, made (and set to glibc's initial values) at first use.
    fn getopt_block(&mut self, e: &Expr) -> Result<u64, Unwind> {
        if self.getopt.block == 0 {
            let at = self.mem.alloc(20, AllocKind::Literal, "getopt's variables", 0);
            let mut init = [0u8; 20];
            init[8..12].copy_from_slice(&1i32.to_le_bytes());
            init[12..16].copy_from_slice(&1i32.to_le_bytes());
            init[16..20].copy_from_slice(&('?' as i32).to_le_bytes());
            self.write_bytes(at, Some(&init), 20, 0, e.span)?;
            self.getopt.block = at;
        }
        Ok(self.getopt.block)
    }

    fn get_int(&mut self, at: u64, e: &Expr) -> Result<i32, Unwind> {
        let b = self.read_bytes(at, 4, e.span)?;
        Ok(i32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn set_int(&mut self, at: u64, n: i32, e: &Expr) -> Result<(), Unwind> {
        self.write_bytes(at, Some(&n.to_le_bytes()), 4, 0, e.span)
    }

    /// `argv[i]`'s address.
    fn arg_at(&mut self, argv: u64, i: i32, e: &Expr) -> Result<u64, Unwind> {
        let b = self.read_bytes(argv + 8 * i as u64, 8, e.span)?;
        Ok(u64::from_le_bytes(b.try_into().unwrap_or([0; 8])))
    }

    /// One step of `getopt`: the next option character, `'?'`/`':'` for a bad one, -1 at the end.
    fn getopt_next_option(&mut self, block: u64, argc: i32, argv: u64, spec: u64, e: &Expr) -> Result<u64, Unwind> {
        let (optind_at, optarg_at) = (block + OPTIND as u64, block + OPTARG as u64);
        self.write_bytes(optarg_at, Some(&[0; 8]), 8, 0, e.span)?;
        let mut optind = self.get_int(optind_at, e)?;
        let spec_text = self.c_str(spec, e)?;
        let spec_text = spec_text.strip_prefix(b"+").unwrap_or(&spec_text).to_vec();
        let colon_first = spec_text.first() == Some(&b':');
        // A program that sets `optind` back restarts the scan (glibc's reset is `optind = 0`).
        if optind == 0 {
            optind = 1;
            self.getopt.next = 0;
        }
        if self.getopt.next == 0 {
            if optind >= argc {
                self.set_int(optind_at, optind, e)?;
                return Ok(u32::MAX as u64);
            }
            let arg_at = self.arg_at(argv, optind, e)?;
            let arg = self.c_str(arg_at, e)?;
            if arg.first() != Some(&b'-') || arg.len() == 1 {
                self.set_int(optind_at, optind, e)?;
                return Ok(u32::MAX as u64);
            }
            if arg == b"--" {
                self.set_int(optind_at, optind + 1, e)?;
                return Ok(u32::MAX as u64);
            }
            self.getopt.next = arg_at + 1;
        }
        let at = self.getopt.next;
        let c = self.read_bytes(at, 1, e.span)?[0];
        let rest_empty = self.read_bytes(at + 1, 1, e.span)?[0] == 0;
        let found = spec_text.iter().position(|&b| b == c && c != b':');
        let program = {
            let a0 = self.arg_at(argv, 0, e)?;
            String::from_utf8_lossy(&self.c_str(a0, e)?).into_owned()
        };
        let opterr = self.get_int(block + OPTERR as u64, e)? != 0 && !colon_first;
        let Some(i) = found else {
            self.set_int(block + OPTOPT as u64, c as i32, e)?;
            if opterr {
                self.write(true, format!("{program}: invalid option -- '{}'\n", c as char).as_bytes());
            }
            self.getopt.next = if rest_empty { 0 } else { at + 1 };
            self.set_int(optind_at, optind + i32::from(rest_empty), e)?;
            return Ok('?' as u64);
        };
        if spec_text.get(i + 1) != Some(&b':') {
            self.getopt.next = if rest_empty { 0 } else { at + 1 };
            self.set_int(optind_at, optind + i32::from(rest_empty), e)?;
            return Ok(c as u64);
        }
        self.getopt.next = 0;
        if !rest_empty {
            self.write_bytes(optarg_at, Some(&(at + 1).to_le_bytes()), 8, 0, e.span)?;
            self.set_int(optind_at, optind + 1, e)?;
        } else if optind + 1 < argc {
            let value = self.arg_at(argv, optind + 1, e)?;
            self.write_bytes(optarg_at, Some(&value.to_le_bytes()), 8, 0, e.span)?;
            self.set_int(optind_at, optind + 2, e)?;
        } else {
            self.set_int(block + OPTOPT as u64, c as i32, e)?;
            if opterr {
                self.write(true, format!("{program}: option requires an argument -- '{}'\n", c as char).as_bytes());
            }
            self.set_int(optind_at, optind + 1, e)?;
            return Ok(if colon_first { ':' as u64 } else { '?' as u64 });
        }
        Ok(c as u64)
    }
}
