//! The stack the front end's phases run on: they recurse over the parse tree.

/// Stack for the phases, which recurse over the parse tree: the parser bounds its depth, and this is enough for
/// that bound in any build (unoptimised frames are large), whatever stack the caller runs on (test threads get
/// 2 MiB). Only touched pages are ever committed.
const STACK_BYTES: usize = 32 << 20;

/// Runs `f` on a thread with [`STACK_BYTES`] of stack (or here, should no thread be available), passing on
/// its panics. A thread per call costs about 15 us, and a fresh allocator arena (benches/README.md).
pub fn with_stack<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    let cell = std::sync::Mutex::new(Some(f));
    let run = || {
        let f = cell.lock().unwrap_or_else(std::sync::PoisonError::into_inner).take();
        f.map(|f| f())
    };
    std::thread::scope(|s| {
        match std::thread::Builder::new().name("front end".into()).stack_size(STACK_BYTES).spawn_scoped(s, run) {
            Ok(h) => h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)),
            Err(_) => run(),
        }
    })
    .expect("the closure runs exactly once")
}
