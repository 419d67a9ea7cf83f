//! The stable-Rust fuzz driver of whole programs (issue 33): the programs of `tests/programs/` mutated by
//! token-level edits (a token deleted, duplicated, swapped with another, a number made extreme, a token of
//! the program inserted elsewhere) are compiled and run through the library API `warpdbg run` uses, with small
//! limits (`fuzz/whole_program.rs`); none may panic, abort or hang.
//!
//! `cargo test --release --test fuzz_programs` runs 150 programs; `WARPDBG_FUZZ_SECS=600` runs for that long
//! (`WARPDBG_FUZZ_SEED` picks the first seed) and prints the count (benches/fuzz.md). The program being run is
//! kept in `target/fuzz_programs_current.cu`, so an abort (which no test can catch) leaves its reproducer;
//! a panic or a hang saves it as `target/fuzz_programs_crash-SEED.cu`.

#[path = "../fuzz/whole_program.rs"]
mod whole_program;

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// xorshift64*: the same mutations on every machine for the same seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Splits source text into tokens (identifiers, numbers, strings, single punctuation) and the whitespace and
/// comments between them, which are kept as tokens too so that a program re-joins exactly.
fn tokens(src: &str) -> Vec<String> {
    let b = src.as_bytes();
    let mut out = vec![];
    let mut i = 0;
    while i < b.len() {
        let start = i;
        let c = b[i];
        if c.is_ascii_alphanumeric() || c == b'_' || c == b'.' && b.get(i + 1).is_some_and(u8::is_ascii_digit) {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'.') {
                i += 1;
            }
        } else if c == b'"' || c == b'\'' {
            i += 1;
            while i < b.len() && b[i] != c && b[i] != b'\n' {
                i += if b[i] == b'\\' { 2 } else { 1 };
            }
            i = (i + 1).min(b.len());
        } else if c.is_ascii_whitespace() {
            while i < b.len() && b[i].is_ascii_whitespace() {
                i += 1;
            }
        } else {
            i += 1;
            while i < b.len() && !src.is_char_boundary(i) {
                i += 1;
            }
        }
        out.push(String::from_utf8_lossy(&b[start..i]).into_owned());
    }
    out
}

/// Numbers a mutation puts in place of one: the edges of int, unsigned, size_t and float.
const EXTREMES: [&str; 14] = [
    "0",
    "-1",
    "1",
    "2147483647",
    "-2147483648",
    "4294967295",
    "1099511627776",
    "18446744073709551615ULL",
    "9223372036854775807LL",
    "1e308",
    "-0.0f",
    "1e39f",
    "65536",
    "(1<<30)",
];

/// One to four token edits of `src`.
fn mutate(src: &str, rng: &mut Rng) -> String {
    let mut t = tokens(src);
    for _ in 0..1 + rng.below(4) {
        if t.is_empty() {
            break;
        }
        let i = rng.below(t.len());
        match rng.below(5) {
            0 => {
                t.remove(i);
            }
            1 => {
                let dup = t[i].clone();
                t.insert(i, dup);
            }
            2 => {
                let j = rng.below(t.len());
                t.swap(i, j);
            }
            3 => {
                // A number, near the chosen place, made extreme.
                let at = (i..t.len()).chain(0..i).find(|&k| t[k].as_bytes()[0].is_ascii_digit());
                if let Some(k) = at {
                    t[k] = EXTREMES[rng.below(EXTREMES.len())].to_string();
                }
            }
            _ => {
                let j = rng.below(t.len());
                let tok = t[j].clone();
                t.insert(i, tok);
            }
        }
    }
    t.concat()
}

fn seeds() -> Vec<(PathBuf, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/programs");
    let mut v: Vec<(PathBuf, String)> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "cu"))
        .map(|p| {
            let text = std::fs::read_to_string(&p).unwrap();
            (p, text)
        })
        .collect();
    v.sort();
    assert!(v.len() >= 10, "the seed programs of tests/programs/");
    v
}

/// Runs `program` on a thread with the 8 MiB stack of warpdbg's main thread; Err with what went wrong.
fn run_one(program: String, limit: Duration) -> Result<whole_program::Ran, String> {
    let (tx, rx) = mpsc::channel();
    std::thread::Builder::new()
        .stack_size(8 << 20)
        .spawn(move || {
            let r = std::panic::catch_unwind(|| whole_program::run_program(program.as_bytes()));
            let _ = tx.send(r.map_err(|p| {
                p.downcast_ref::<String>()
                    .cloned()
                    .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                    .unwrap_or_default()
            }));
        })
        .unwrap();
    match rx.recv_timeout(limit) {
        Ok(Ok(r)) => Ok(r),
        Ok(Err(panic)) => Err(format!("panic: {panic}")),
        Err(_) => Err(format!("no end after {} s", limit.as_secs())),
    }
}

/// The fuzz loop: Ok(programs run) or Err(the crashes, each saved).
fn fuzz(first_seed: u64, count: Option<u64>, secs: u64) -> (u64, u64, Vec<String>) {
    let seeds = seeds();
    let target = Path::new(env!("CARGO_MANIFEST_DIR")).join("target");
    let current = target.join("fuzz_programs_current.cu");
    let start = Instant::now();
    let (mut n, mut refused, mut crashes) = (0u64, 0u64, vec![]);
    let mut seed = first_seed;
    while count.map_or(start.elapsed().as_secs() < secs, |c| n < c) {
        let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
        let (path, text) = &seeds[rng.below(seeds.len())];
        let program = mutate(text, &mut rng);
        let _ = std::fs::write(&current, &program);
        match run_one(program.clone(), Duration::from_secs(60)) {
            Ok(whole_program::Ran::Refused) => refused += 1,
            Ok(_) => {}
            Err(what) => {
                let saved = target.join(format!("fuzz_programs_crash-{seed}.cu"));
                let _ = std::fs::write(&saved, &program);
                crashes.push(format!("seed {seed} (from {}): {what}; saved as {}", path.display(), saved.display()));
                if what.starts_with("no end") {
                    break;
                }
            }
        }
        n += 1;
        seed += 1;
    }
    (n, refused, crashes)
}

#[test]
fn mutated_programs_never_crash_warpdbg() {
    let secs: Option<u64> = std::env::var("WARPDBG_FUZZ_SECS").ok().and_then(|s| s.parse().ok());
    let first: u64 = std::env::var("WARPDBG_FUZZ_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(1);
    let start = Instant::now();
    let (n, refused, crashes) = match secs {
        Some(s) => fuzz(first, None, s),
        None => fuzz(first, Some(150), 0),
    };
    eprintln!(
        "fuzz_programs: {n} programs from seed {first} in {:.0} s ({refused} refused by the front end), {} crashes",
        start.elapsed().as_secs_f64(),
        crashes.len()
    );
    assert!(crashes.is_empty(), "{}", crashes.join("\n"));
}

#[test]
fn tokens_rejoin_exactly_and_mutations_change_programs() {
    let src = "int main() { float x = 1.5f; printf(\"%d\\n\", 42); // c\n}";
    assert_eq!(tokens(src).concat(), src);
    assert!(tokens(src).contains(&"1.5f".to_string()));
    let mut rng = Rng(7);
    let changed = (0..20).filter(|_| mutate(src, &mut rng) != src).count();
    assert!(changed >= 15, "{changed}");
}
