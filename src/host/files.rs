//! C's files in host code (`fopen`, `fread`, `fwrite`, `fseek`, `ftell`, `fclose`, `fprintf` to a file): a
//! program that reads its input from a file, or writes its results to one, does so in the directory warpdbg
//! runs in, as the program would in its own. A `FILE *` is a handle (not host memory); a file being written
//! reaches the disk at `fclose` or when the program ends. The web build has no files: `fopen` fails there.

/// One open file: its whole contents, held while it is open.
#[derive(Debug)]
struct OpenFile {
    path: String,
    data: Vec<u8>,
    pos: usize,
    write: bool,
    eof: bool,
    /// A string stream's buffer (`std::istringstream`, ...): never written to disk.
    memory: bool,
    /// A C++ input stream's get position and its state bits ([`STREAM_EOF`], [`STREAM_FAIL`]); C's calls
    /// use `pos` and `eof`.
    get: usize,
    state: u8,
}

/// A C++ stream's `eofbit`.
pub const STREAM_EOF: u8 = 1;
/// A C++ stream's `failbit`.
pub const STREAM_FAIL: u8 = 2;

/// What a C++ input stream reads: its bytes, its get position and its state bits.
pub struct StreamView<'a> {
    pub data: &'a [u8],
    pub get: &'a mut usize,
    pub state: &'a mut u8,
}

/// The program's open files; handle `FIRST + i` is slot `i` (1 and 2 are `stdout` and `stderr`).
#[derive(Debug, Default)]
pub struct Files {
    open: Vec<Option<OpenFile>>,
    /// `std::cin`'s handle, once made: a string stream over warpdbg's standard input.
    pub stdin: Option<u64>,
}

const FIRST: u64 = 0x100;

impl Files {
    /// `fopen(path, mode)`: a handle, or 0 when the file cannot be opened for `mode`.
    pub fn open(&mut self, path: &str, mode: &str) -> u64 {
        let (read, write, append) = (mode.starts_with('r'), mode.starts_with('w'), mode.starts_with('a'));
        let existing = read_file(path);
        let data = match (read, write, append) {
            (true, _, _) => match existing {
                Some(d) => d,
                None => return 0,
            },
            (_, true, _) => vec![],
            (_, _, true) => existing.unwrap_or_default(),
            _ => return 0,
        };
        let pos = if append { data.len() } else { 0 };
        let write = !read || mode.contains('+');
        let file = OpenFile { path: path.to_string(), data, pos, write, eof: false, memory: false, get: 0, state: 0 };
        self.open.push(Some(file));
        FIRST + self.open.len() as u64 - 1
    }

    /// A string stream over `data` (written from its start when `write`): a handle.
    pub fn open_memory(&mut self, data: Vec<u8>, write: bool) -> u64 {
        let file = OpenFile { path: String::new(), data, pos: 0, write, eof: false, memory: true, get: 0, state: 0 };
        self.open.push(Some(file));
        FIRST + self.open.len() as u64 - 1
    }

    /// What a C++ input stream on `handle` reads (None: not open).
    pub fn stream(&mut self, handle: u64) -> Option<StreamView<'_>> {
        let f = self.get(handle)?;
        Some(StreamView { data: &f.data, get: &mut f.get, state: &mut f.state })
    }

    /// A string stream's contents (`ss.str()`); empty for a handle not open.
    pub fn contents(&mut self, handle: u64) -> Vec<u8> {
        self.get(handle).map(|f| f.data.clone()).unwrap_or_default()
    }

    fn get(&mut self, handle: u64) -> Option<&mut OpenFile> {
        let i = handle.checked_sub(FIRST)? as usize;
        self.open.get_mut(i)?.as_mut()
    }

    /// Whether `handle` is an open file (not `stdout`/`stderr`).
    pub fn is_file(&mut self, handle: u64) -> bool {
        self.get(handle).is_some()
    }

    /// `fclose`: 0, or -1 (EOF) for a handle that is not open.
    pub fn close(&mut self, handle: u64) -> i64 {
        let Some(i) = handle.checked_sub(FIRST).map(|i| i as usize) else { return -1 };
        match self.open.get_mut(i).and_then(Option::take) {
            Some(f) => {
                if f.write && !f.memory {
                    write_file(&f.path, &f.data);
                }
                0
            }
            None => -1,
        }
    }

    /// Up to `n` bytes at the file's position (fewer at its end, which sets its end-of-file flag).
    pub fn read(&mut self, handle: u64, n: usize) -> Option<Vec<u8>> {
        let f = self.get(handle)?;
        let end = (f.pos + n).min(f.data.len());
        let bytes = f.data[f.pos.min(end)..end].to_vec();
        f.pos = end;
        f.eof = bytes.len() < n;
        Some(bytes)
    }

    /// Writes `bytes` at the file's position; false for a handle not open for writing.
    pub fn write(&mut self, handle: u64, bytes: &[u8]) -> bool {
        let Some(f) = self.get(handle).filter(|f| f.write) else { return false };
        let end = f.pos + bytes.len();
        if f.data.len() < end {
            f.data.resize(end, 0);
        }
        f.data[f.pos..end].copy_from_slice(bytes);
        f.pos = end;
        true
    }

    /// `fseek(f, offset, whence)`: 0, or -1.
    pub fn seek(&mut self, handle: u64, offset: i64, whence: i64) -> i64 {
        let Some(f) = self.get(handle) else { return -1 };
        let base = match whence {
            0 => 0,
            1 => f.pos as i64,
            2 => f.data.len() as i64,
            _ => return -1,
        };
        match usize::try_from(base + offset) {
            Ok(p) => {
                f.pos = p;
                f.eof = false;
                0
            }
            Err(_) => -1,
        }
    }

    /// `ftell`: the position, or -1.
    pub fn tell(&mut self, handle: u64) -> i64 {
        self.get(handle).map_or(-1, |f| f.pos as i64)
    }

    /// `feof`.
    pub fn eof(&mut self, handle: u64) -> bool {
        self.get(handle).is_some_and(|f| f.eof)
    }

    /// What C's reads on `handle` see: its bytes, its position and its end-of-file flag (None: not open).
    pub fn c_input(&mut self, handle: u64) -> Option<(&[u8], &mut usize, &mut bool)> {
        let f = self.get(handle)?;
        Some((&f.data, &mut f.pos, &mut f.eof))
    }

    /// `remove(path)`: whether the file was there to remove (never on the web page, which has no files).
    pub fn remove(&mut self, path: &str) -> bool {
        remove_file(path)
    }

    /// Files still open when the program ends are closed (what is written reaches the disk).
    pub fn close_all(&mut self) {
        for i in 0..self.open.len() {
            self.close(FIRST + i as u64);
        }
    }
}

#[cfg(feature = "native")]
fn read_file(path: &str) -> Option<Vec<u8>> {
    std::fs::read(path).ok()
}

#[cfg(feature = "native")]
fn write_file(path: &str, data: &[u8]) {
    let _ = std::fs::write(path, data);
}

#[cfg(not(feature = "native"))]
fn read_file(_: &str) -> Option<Vec<u8>> {
    None
}

#[cfg(not(feature = "native"))]
fn write_file(_: &str, _: &[u8]) {}

#[cfg(feature = "native")]
fn remove_file(path: &str) -> bool {
    std::fs::remove_file(path).is_ok()
}

#[cfg(not(feature = "native"))]
fn remove_file(_: &str) -> bool {
    false
}

#[cfg(all(test, feature = "native"))]
mod tests {
    use super::*;

    #[test]
    fn a_written_file_reads_back_with_seek_and_tell() {
        let dir = std::env::temp_dir().join(format!("warpdbg-files-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a temporary folder");
        let path = dir.join("out.bin").to_string_lossy().into_owned();
        let mut files = Files::default();
        assert_eq!(files.open(&dir.join("missing").to_string_lossy(), "r"), 0);
        let w = files.open(&path, "wb");
        assert!(files.write(w, b"hello, file"));
        assert_eq!(files.tell(w), 11);
        assert_eq!(files.close(w), 0);
        assert_eq!(files.close(w), -1, "closed twice");
        let r = files.open(&path, "rb");
        assert_eq!(files.seek(r, 0, 2), 0);
        assert_eq!(files.tell(r), 11);
        assert_eq!(files.seek(r, 7, 0), 0);
        assert_eq!(files.read(r, 10).as_deref(), Some(&b"file"[..]));
        assert!(files.eof(r));
        assert!(!files.write(r, b"x"), "opened for reading");
        files.close_all();
        std::fs::remove_dir_all(&dir).expect("removed");
    }
}
