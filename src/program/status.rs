//! A program's own exit status and warpdbg's, named apart: a program whose `main` returns 0 while warpdbg
//! found a bug in it ends with warpdbg's status 1, and every report says which number is whose.

use super::device::LaunchRecord;
use crate::host::HostEnd;
use crate::host::findings::Finding;

/// Both statuses of a finished program run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Statuses {
    /// The program's own status (`main`'s return value or `exit`'s argument); `None` when it did not end by
    /// itself (a host error, a launch that cannot finish).
    pub program: Option<u8>,
    /// The process exit status `warpdbg run` gives: the program's own when warpdbg found nothing.
    pub warpdbg: u8,
    /// What warpdbg found that makes its status 1 (faults, uninitialised reads, API misuse).
    pub findings: usize,
}

/// What warpdbg found that makes its status 1: each launch's fault and uninitialised-read hazards, and the
/// runtime findings that are errors.
pub fn finding_count(launches: &[LaunchRecord], findings: &[Finding]) -> usize {
    launches.iter().map(|l| l.findings).sum::<usize>() + findings.iter().filter(|f| f.kind.is_error()).count()
}

impl Statuses {
    pub fn new(end: &HostEnd, warpdbg: u8, findings: usize) -> Self {
        let program = match end {
            HostEnd::Exited(code) => Some(*code),
            _ => None,
        };
        Statuses { program, warpdbg, findings }
    }

    /// Whether the two statuses need naming apart: the program ended by itself, and warpdbg found something.
    pub fn differ(&self) -> bool {
        self.program.is_some() && self.findings > 0
    }

    /// "1 finding", "2 findings".
    fn findings_phrase(&self) -> String {
        format!("{} finding{}", self.findings, if self.findings == 1 { "" } else { "s" })
    }

    /// The title bar's state: `EXITED 0`, `PROGRAM EXITED 0 · FINDINGS` when warpdbg found something, or
    /// `STOPPED · EXIT 3` when the program did not end by itself (the status is warpdbg's alone).
    pub fn title(&self) -> String {
        match self.program {
            Some(code) if self.differ() => format!("PROGRAM EXITED {code} · FINDINGS"),
            Some(code) => format!("EXITED {code}"),
            None => format!("STOPPED · EXIT {}", self.warpdbg),
        }
    }

    /// The Program pane's lines: `exit status 0`, or `program exited 0` and `warpdbg: 1 finding (exit 1)`
    /// (two lines: the pane is narrow).
    pub fn lines(&self) -> Vec<String> {
        match self.program {
            Some(code) if self.differ() => vec![
                format!("program exited {code}"),
                format!("warpdbg: {} (exit {})", self.findings_phrase(), self.warpdbg),
            ],
            Some(_) => vec![format!("exit status {}", self.warpdbg)],
            None => vec![format!("stopped · exit status {}", self.warpdbg)],
        }
    }

    /// One clause: "the program exited with status 0", and what warpdbg found and its status when it found
    /// something.
    pub fn sentence(&self) -> String {
        match self.program {
            Some(code) if self.differ() => format!(
                "the program exited with status {code}; warpdbg found {} (its exit status is {})",
                self.findings_phrase(),
                self.warpdbg
            ),
            Some(code) => format!("the program exited with status {code}"),
            None => format!("the program did not end by itself; warpdbg's exit status is {}", self.warpdbg),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_statuses_are_named_when_they_differ() {
        let s = Statuses { program: Some(0), warpdbg: 1, findings: 1 };
        assert_eq!(s.title(), "PROGRAM EXITED 0 · FINDINGS");
        assert_eq!(s.lines(), ["program exited 0", "warpdbg: 1 finding (exit 1)"]);
        assert_eq!(s.sentence(), "the program exited with status 0; warpdbg found 1 finding (its exit status is 1)");
        let clean = Statuses { program: Some(0), warpdbg: 0, findings: 0 };
        assert_eq!((clean.title(), clean.lines()), ("EXITED 0".to_string(), vec!["exit status 0".to_string()]));
        assert_eq!(clean.sentence(), "the program exited with status 0");
        let stopped = Statuses { program: None, warpdbg: 3, findings: 0 };
        assert_eq!(
            (stopped.title(), stopped.lines()),
            ("STOPPED · EXIT 3".into(), vec!["stopped · exit status 3".into()])
        );
    }
}
