//! Recorded sessions (`.wdbg`): one JSON object per line, so a crash loses at most the line being written.
//!
//! Line 1 is the header (format version, warpdbg version, the kernel's source text, launch overrides, mode,
//! theme, breakpoints, screen size); every later line is an event with its time offset in milliseconds: an
//! action (by name, with the step count and a checksum of the state after it), an instructor's note, a resize,
//! or the end (with the final step count and a checksum of the final memory).
//!
//! The format lives with the TUI because it records the TUI: its actions ([`super::action::Action`] by name),
//! mouse events at screen cells, the screen size and the theme. Everything that reads or writes recordings
//! (the terminal's recorder, replay, export, the web playground, the command line) sits at or above the TUI;
//! the checksums it stores are the debugging layer's ([`crate::debug::checksum`]).

#[cfg(feature = "native")]
use std::fs::{File, OpenOptions};
#[cfg(feature = "native")]
use std::io::Write;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};

use crate::front::launch::{Mode, Overrides};

pub const FORMAT: &str = "warpdbg-session";
pub const VERSION: u32 = 1;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Header {
    pub format: String,
    pub version: u32,
    pub warpdbg: String,
    /// The kernel file's name when recorded.
    pub file: String,
    /// Its whole text: a recording is self-contained.
    pub source: String,
    pub kernel: Option<String>,
    pub grid: Option<String>,
    pub block: Option<String>,
    pub args: Vec<String>,
    pub seed: Option<String>,
    /// The `--shared` bytes the session ran with, if any.
    #[serde(default)]
    pub shared: Option<String>,
    /// The `--symbol` contents the session ran with.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub symbols: Vec<String>,
    /// The `-I` folders the session ran with.
    #[serde(default)]
    pub include_dirs: Vec<String>,
    pub mode: Mode,
    pub theme: String,
    pub breakpoints: Vec<u32>,
    pub size: (u16, u16),
    /// The `--schedule-seed` the session ran with, if any.
    #[serde(default)]
    pub schedule_seed: Option<u64>,
    /// A whole program (a file with `main`): the launch the recording starts at (1-based).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub launch: Option<usize>,
    /// A whole program's arguments (`argv[1..]`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub program_args: Vec<String>,
}

impl Header {
    pub fn overrides(&self) -> Overrides {
        Overrides {
            kernel: self.kernel.clone(),
            grid: self.grid.clone(),
            block: self.block.clone(),
            args: self.args.clone(),
            seed: self.seed.clone(),
            mode: Some(self.mode),
            shared: self.shared.clone(),
            symbols: self.symbols.clone(),
            include_dirs: self.include_dirs.clone(),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EventKind {
    /// A user action by name (the TUI's `Action`), with the machine's step count and state checksum after it.
    Action {
        name: String,
        steps: u64,
        check: String,
    },
    Note {
        text: String,
    },
    /// A `:` command that is not a step number (`p EXPR`, `w EXPR`, `d N`), as typed.
    Command {
        text: String,
    },
    Resize {
        cols: u16,
        rows: u16,
    },
    /// A mouse event: `left` (click), `scroll_up`, `scroll_down`, at a screen cell.
    Mouse {
        button: String,
        col: u16,
        row: u16,
    },
    End {
        steps: u64,
        check: String,
        memory: String,
    },
    /// A quiz point an instructor marked (`Q`): the question kind (`next_mask`, `reconvergence`, `deadlock`)
    /// and the step it is asked at.
    Quiz {
        question: String,
        steps: u64,
    },
    /// A breakpoint added by spec (`B`): `line 28 if tid == 5`, `divergence`, ...
    Breakpoint {
        spec: String,
    },
}

/// The largest screen (columns or rows) replay draws: a larger size in a recording is clamped to it, so a
/// hand-edited size cannot make export allocate gigabytes.
pub const MAX_SIZE: u16 = 1000;

/// A recorded screen size as replay uses it.
pub fn clamp_size((cols, rows): (u16, u16)) -> (u16, u16) {
    (cols.clamp(1, MAX_SIZE), rows.clamp(1, MAX_SIZE))
}

/// The mouse buttons a recording names.
pub const MOUSE_BUTTONS: [&str; 4] = ["left", "other", "scroll_up", "scroll_down"];

impl EventKind {
    /// What is wrong with an event that parses but that warpdbg never writes (an action it does not have, a
    /// mouse button it does not know), or None.
    pub fn invalid(&self) -> Option<String> {
        match self {
            EventKind::Action { name, .. } => {
                let known = serde_json::from_value::<super::action::Action>(serde_json::Value::String(name.clone()));
                known.is_err().then(|| format!("unknown action `{name}`"))
            }
            EventKind::Mouse { button, .. } => {
                (!MOUSE_BUTTONS.contains(&button.as_str())).then(|| format!("unknown mouse button `{button}`"))
            }
            EventKind::Resize { cols, rows } => {
                (*cols == 0 || *rows == 0).then(|| format!("bad screen size {cols}x{rows}"))
            }
            EventKind::Quiz { question, .. } => crate::debug::quiz::QuestionKind::parse(question)
                .is_none()
                .then(|| format!("unknown quiz question `{question}`")),
            _ => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Event {
    /// Milliseconds since the recording started.
    pub t: u64,
    #[serde(flatten)]
    pub kind: EventKind,
}

/// Why a recording cannot be read.
#[derive(Debug)]
pub enum RecordingError {
    Io(PathBuf, std::io::Error),
    /// Line (1-based) and what is wrong there.
    Bad {
        path: PathBuf,
        line: usize,
        what: String,
    },
}

impl std::fmt::Display for RecordingError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RecordingError::Io(p, e) => write!(f, "{}: {e}", p.display()),
            RecordingError::Bad { path, line, what } => write!(f, "{}:{line}: {what}", path.display()),
        }
    }
}

impl std::error::Error for RecordingError {}

/// A recording read back.
#[derive(Clone, Debug, PartialEq)]
pub struct Recording {
    pub header: Header,
    pub events: Vec<Event>,
    /// The last line was cut off (the recorder was killed while writing it); it was ignored.
    pub truncated: bool,
}

impl Recording {
    /// Reads a recording; never modifies the file.
    pub fn load(path: &Path) -> Result<Recording, RecordingError> {
        let bytes = std::fs::read(path).map_err(|e| RecordingError::Io(path.to_path_buf(), e))?;
        Recording::parse(&bytes, path)
    }

    /// A recording from its bytes (a file's, or what a web page was given); `path` names it in errors.
    pub fn parse(bytes: &[u8], path: &Path) -> Result<Recording, RecordingError> {
        let bad = |line: usize, what: String| RecordingError::Bad { path: path.to_path_buf(), line, what };
        let mut lines = vec![];
        // (A final newline ends the last line rather than starting an empty one.)
        let body = bytes.strip_suffix(b"\n").unwrap_or(bytes);
        for (i, l) in body.split(|&b| b == b'\n').enumerate().filter(|_| !bytes.is_empty()) {
            let text = String::from_utf8(l.to_vec()).map_err(|e| bad(i + 1, format!("not UTF-8 text ({e})")))?;
            lines.push(text);
        }
        let Some(first) = lines.first() else { return Err(bad(1, "empty file: not a warpdbg session".into())) };
        let header: Header = serde_json::from_str(first)
            .map_err(|e| bad(1, format!("not a warpdbg session header: {e} (column {})", e.column())))?;
        if header.format != FORMAT {
            return Err(bad(1, format!("format is `{}`, expected `{FORMAT}`", header.format)));
        }
        if header.version != VERSION {
            return Err(bad(
                1,
                format!(
                    "session format version {} is not supported (this warpdbg reads version {VERSION})",
                    header.version
                ),
            ));
        }
        let (cols, rows) = header.size;
        if cols == 0 || rows == 0 {
            return Err(bad(1, format!("bad screen size {cols}x{rows}: was the file edited by hand?")));
        }
        let mut events = vec![];
        let mut truncated = false;
        let n = lines.len();
        for (i, l) in lines.iter().enumerate().skip(1) {
            if l.trim().is_empty() {
                continue;
            }
            match serde_json::from_str::<Event>(l) {
                Ok(e) => {
                    if events.last().is_some_and(|p: &Event| p.t > e.t) {
                        return Err(bad(i + 1, "time goes backwards: was the file edited by hand?".into()));
                    }
                    if let Some(what) = e.kind.invalid() {
                        return Err(bad(i + 1, format!("{what}: was the file edited by hand?")));
                    }
                    events.push(e)
                }
                // A torn last line is what a crash leaves; anything else is corruption.
                Err(_) if i + 1 == n && !l.ends_with('}') => truncated = true,
                Err(e) => return Err(bad(i + 1, format!("bad event: {e} (column {})", e.column()))),
            }
        }
        Ok(Recording { header, events, truncated })
    }

    pub fn end(&self) -> Option<&Event> {
        self.events.iter().rev().find(|e| matches!(e.kind, EventKind::End { .. }))
    }
}

/// Writes a recording as the session goes: the header is written to a temporary file and renamed into place
/// (so the file never exists half-made), then each event is appended and flushed. (The terminal's: it reads
/// the clock.)
#[cfg(feature = "native")]
pub struct Recorder {
    file: File,
    start: std::time::Instant,
    pub path: PathBuf,
}

#[cfg(feature = "native")]
impl Recorder {
    pub fn create(path: &Path, header: &Header) -> std::io::Result<Recorder> {
        let tmp = path.with_extension("wdbg.tmp");
        {
            let mut f = File::create(&tmp)?;
            writeln!(f, "{}", serde_json::to_string(header).map_err(std::io::Error::other)?)?;
            f.sync_all()?;
        }
        std::fs::rename(&tmp, path)?;
        let file = OpenOptions::new().append(true).open(path)?;
        Ok(Recorder { file, start: std::time::Instant::now(), path: path.to_path_buf() })
    }

    pub fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }

    pub fn write(&mut self, kind: EventKind) -> std::io::Result<()> {
        let e = Event { t: self.elapsed_ms(), kind };
        let line = serde_json::to_string(&e).map_err(std::io::Error::other)?;
        // One write per line keeps a crash from interleaving half lines; flush so a kill loses at most this one.
        self.file.write_all(format!("{line}\n").as_bytes())?;
        self.file.flush()
    }
}
