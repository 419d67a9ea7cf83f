//! The playground page's WebAssembly interface: C-ABI functions over one [`Playground`], so the page's
//! JavaScript needs no generated glue (and the module one import, the clock). Strings cross as (pointer,
//! length) pairs of UTF-8 in the module's memory: the page asks [`wd_alloc`] for room, writes, and passes
//! them; a function that returns text leaves it in an output buffer the page reads at [`wd_out_ptr`] with the
//! length returned. Only compiled for wasm32 with the `page` feature (`bash .ci/page`; docs/wasm.md).

use std::cell::RefCell;

use super::playground::{KeyResult, Playground};
use crate::front::launch::Mode;

#[link(wasm_import_module = "env")]
unsafe extern "C" {
    /// The page's `performance.now()`.
    fn wd_now_ms() -> f64;
    /// Told the launch a whole program's host run reached and the instructions its kernels issued so far
    /// (the page's progress line; the page runs programs in a Web Worker, which posts it on).
    fn wd_progress(launch: u32, steps: f64);
}

fn progress(launch: usize, steps: u64) {
    // SAFETY: an import of plain numbers the page always provides.
    unsafe { wd_progress(launch as u32, steps as f64) }
}

fn now_ms() -> f64 {
    // SAFETY: an import with no arguments the page always provides.
    unsafe { wd_now_ms() }
}

thread_local! {
    static PAGE: RefCell<Playground> = RefCell::new({
        let mut p = Playground::new();
        p.set_clock(now_ms);
        p.set_progress(progress);
        p
    });
    static OUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
}

/// Room for `len` bytes the page writes a string into; it passes the pointer to one call, which frees it.
#[unsafe(no_mangle)]
pub extern "C" fn wd_alloc(len: usize) -> *mut u8 {
    let mut v = Vec::<u8>::with_capacity(len.max(1));
    let p = v.as_mut_ptr();
    std::mem::forget(v);
    p
}

/// The string at (`ptr`, `len`) from [`wd_alloc`], taken back (freed).
fn take(ptr: *mut u8, len: usize) -> String {
    if ptr.is_null() {
        return String::new();
    }
    // SAFETY: `ptr` came from `wd_alloc` with a capacity of at least `len.max(1)`, and the page wrote `len`
    // bytes there; ownership comes back here exactly once.
    let bytes = unsafe { Vec::from_raw_parts(ptr, len, len.max(1)) };
    String::from_utf8_lossy(&bytes).into_owned()
}

/// Leaves `text` in the output buffer; its length.
fn out(text: String) -> usize {
    OUT.with(|o| {
        *o.borrow_mut() = text.into_bytes();
        o.borrow().len()
    })
}

/// Where the last returned text is (valid until the next call that returns text).
#[unsafe(no_mangle)]
pub extern "C" fn wd_out_ptr() -> *const u8 {
    OUT.with(|o| o.borrow().as_ptr())
}

fn key_result(r: KeyResult) -> u32 {
    match r {
        KeyResult::Idle => 0,
        KeyResult::Running => 1,
        KeyResult::Quit => 2,
    }
}

/// Opens a source (name, text) in mode 0 (the file's `// @mode`, else the default), 1 (pre-Volta) or 2
/// (ITS). Returns 0, or the length of the diagnostics left in the output buffer.
#[unsafe(no_mangle)]
pub extern "C" fn wd_open(name: *mut u8, name_len: usize, src: *mut u8, src_len: usize, mode: u32) -> usize {
    let (name, src) = (take(name, name_len), take(src, src_len));
    let mode = match mode {
        1 => Some(Mode::PreVolta),
        2 => Some(Mode::Its),
        _ => None,
    };
    match PAGE.with(|p| p.borrow_mut().open(&name, &src, mode)) {
        Ok(()) => 0,
        Err(e) => out(e).max(1),
    }
}

/// A whole program's arguments (`argv[1..]`, split as a shell splits them) for the next [`wd_open`].
#[unsafe(no_mangle)]
pub extern "C" fn wd_set_args(ptr: *mut u8, len: usize) {
    let line = take(ptr, len);
    PAGE.with(|p| p.borrow_mut().set_args(&line));
}

/// The launch (1-based) the next [`wd_open`] of a whole program stops at (the page going back to where it was
/// after interrupting a run).
#[unsafe(no_mangle)]
pub extern "C" fn wd_set_launch(k: u32) {
    PAGE.with(|p| p.borrow_mut().set_launch(k as usize));
}

/// 1 when the source (UTF-8 at `ptr`, `len`) is a whole program (it has `main`), else 0.
#[unsafe(no_mangle)]
pub extern "C" fn wd_is_program(ptr: *mut u8, len: usize) -> u32 {
    crate::program::is_program(take(ptr, len).as_bytes()) as u32
}

/// The program launch being debugged (1-based), 0 for a kernel file or after the program's end.
#[unsafe(no_mangle)]
pub extern "C" fn wd_launch() -> u32 {
    PAGE.with(|p| p.borrow().launch() as u32)
}

/// Opens a recording's bytes live. Returns 0, or the length of the error left in the output buffer.
#[unsafe(no_mangle)]
pub extern "C" fn wd_open_recording(ptr: *mut u8, len: usize) -> usize {
    let text = take(ptr, len);
    match PAGE.with(|p| p.borrow_mut().open_recording(text.as_bytes())) {
        Ok(()) => 0,
        Err(e) => out(e).max(1),
    }
}

/// 1 when the key (as keymap files write it) runs a whole program interrupted before its first launch again
/// (the keymap's `Activate` and `Restart` keys), else 0.
#[unsafe(no_mangle)]
pub extern "C" fn wd_reruns(ptr: *mut u8, len: usize) -> u32 {
    Playground::reruns(&take(ptr, len)) as u32
}

/// The keys [`wd_reruns`] accepts, named as the help overlay names them ("Enter or r"); the length of the
/// text in the output buffer.
#[unsafe(no_mangle)]
pub extern "C" fn wd_rerun_keys() -> usize {
    out(Playground::rerun_keys())
}

/// A key as keymap files write it; 0 idle, 1 a continue is running (call [`wd_tick`] each frame), 2 quit.
#[unsafe(no_mangle)]
pub extern "C" fn wd_key(ptr: *mut u8, len: usize) -> u32 {
    let key = take(ptr, len);
    key_result(PAGE.with(|p| p.borrow_mut().key(&key)))
}

/// A click (0 left, 1 other) or wheel turn (2 up, 3 down) at a cell; as [`wd_key`].
#[unsafe(no_mangle)]
pub extern "C" fn wd_mouse(button: u32, col: u32, row: u32) -> u32 {
    key_result(PAGE.with(|p| p.borrow_mut().mouse(button, col as u16, row as u16)))
}

/// One animation frame of a running continue; as [`wd_key`].
#[unsafe(no_mangle)]
pub extern "C" fn wd_tick() -> u32 {
    key_result(PAGE.with(|p| p.borrow_mut().tick()))
}

/// The screen at `cols` x `rows` as HTML; its length in the output buffer.
#[unsafe(no_mangle)]
pub extern "C" fn wd_html(cols: u32, rows: u32) -> usize {
    out(PAGE.with(|p| p.borrow_mut().html(cols.clamp(20, 1000) as u16, rows.clamp(10, 1000) as u16)))
}

/// The screen as plain text; its length in the output buffer.
#[unsafe(no_mangle)]
pub extern "C" fn wd_text(cols: u32, rows: u32) -> usize {
    out(PAGE.with(|p| p.borrow_mut().text(cols.clamp(20, 1000) as u16, rows.clamp(10, 1000) as u16)))
}

/// Runs the open kernel to step `step` (a link's `step=`), as `warpdbg view --steps` does.
#[unsafe(no_mangle)]
pub extern "C" fn wd_goto(step: f64) {
    PAGE.with(|p| p.borrow_mut().goto(step.max(0.0) as u64));
}

/// Instructions issued so far.
#[unsafe(no_mangle)]
pub extern "C" fn wd_steps() -> f64 {
    PAGE.with(|p| p.borrow().steps() as f64)
}

/// Sets the theme from a theme file's RON text. Returns 0, or the length of the error in the output buffer.
#[unsafe(no_mangle)]
pub extern "C" fn wd_set_theme(ptr: *mut u8, len: usize) -> usize {
    let text = take(ptr, len);
    match PAGE.with(|p| p.borrow_mut().set_theme(&text)) {
        Ok(()) => 0,
        Err(e) => out(e).max(1),
    }
}

/// The page's colours for the theme on screen (CSS custom properties); their length in the output buffer.
#[unsafe(no_mangle)]
pub extern "C" fn wd_theme() -> usize {
    out(PAGE.with(|p| p.borrow().theme_vars()))
}
