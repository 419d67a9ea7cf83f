//! Quiz mode, UI-free: where to stop, the question to ask there (generated from the machine's state, with
//! the answer found by running a copy of the machine ahead), and answer checking. The TUI only shows the
//! question and reads the answer (`tui::quiz`).
//!
//! Points: by default before each branch that is about to diverge (two questions: the warp's next active
//! mask, and the line where its lanes reconverge) and before the instruction after which the kernel
//! deadlocks ("will it deadlock?"); or the points an instructor marked while recording (a `quiz` event with
//! its step and question kind).

use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};

use crate::debug::breakpoint::{self, Breakpoint, Kind};
use crate::debug::session::Session;
use crate::ir::{Instr, Pc};
use crate::sim::{LaneMask, Machine, Outcome, format_ranges, inspect};

/// What the student predicts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum QuestionKind {
    /// The active lanes of the warp's next instruction after the one about to issue.
    NextMask,
    /// The line where the warp's diverged lanes run together again.
    Reconvergence,
    /// Whether the kernel deadlocks (or livelocks).
    Deadlock,
}

impl QuestionKind {
    pub fn name(self) -> &'static str {
        match self {
            QuestionKind::NextMask => "next_mask",
            QuestionKind::Reconvergence => "reconvergence",
            QuestionKind::Deadlock => "deadlock",
        }
    }

    /// `mask`/`m`, `reconvergence`/`r`, `deadlock`/`d` (as an instructor types them).
    pub fn parse(s: &str) -> Option<QuestionKind> {
        match s.trim().to_ascii_lowercase().as_str() {
            "m" | "mask" | "next_mask" | "next-mask" => Some(QuestionKind::NextMask),
            "r" | "reconvergence" | "reconverge" => Some(QuestionKind::Reconvergence),
            "d" | "deadlock" => Some(QuestionKind::Deadlock),
            _ => None,
        }
    }
}

/// The right answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    Mask(LaneMask),
    /// The reconvergence line; None: only at the end of the kernel.
    Line(Option<u32>),
    Hangs(bool),
}

impl Answer {
    pub fn text(&self) -> String {
        match self {
            Answer::Mask(m) if m.is_empty() => "none (0x00000000)".into(),
            Answer::Mask(m) => format!("{} (lanes {})", m.hex(), format_ranges(&m.iter().collect::<Vec<_>>())),
            Answer::Line(Some(l)) => format!("line {l}"),
            Answer::Line(None) => "the end of the kernel".into(),
            Answer::Hangs(true) => "yes".into(),
            Answer::Hangs(false) => "no".into(),
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Question {
    pub kind: QuestionKind,
    /// Instructions issued when it is asked.
    pub step: u64,
    pub block: u64,
    pub warp: u32,
    pub text: String,
    /// How to write the answer.
    pub format: &'static str,
    pub answer: Answer,
    /// Said with the answer: why.
    pub explanation: String,
}

/// Steps a look-ahead may run to find the warp's next instruction.
const LOOKAHEAD: u64 = 2_000_000;

/// The question of `kind` about the instruction about to issue, or None where it does not apply (nothing
/// can issue; no divergent region to reconverge).
pub fn ask(s: &mut Session, kind: QuestionKind) -> Option<Question> {
    let (slot, w, pc, mask) = s.machine.peek()?;
    let kernel = s.machine.kernel.clone();
    let block = s.machine.blocks[slot].linear;
    let warp = w as u32;
    let line = kernel.line(pc);
    let src = s.compiled.source();
    let code = src.line_text(line).trim().to_string();
    let lanes = format_ranges(&mask.iter().collect::<Vec<_>>());
    let is_branch = matches!(kernel.instrs[pc.0 as usize], Instr::Branch { .. });
    let about = if is_branch && breakpoint::branch_diverges(&s.machine, slot, warp, pc, mask) {
        format!("Warp {warp} of block {block} is about to run the branch on line {line} (`{code}`) with lanes {lanes}")
    } else {
        format!("Warp {warp} of block {block} is about to run line {line} (`{code}`) with lanes {lanes}")
    };
    let step = s.machine.steps;
    let q = |text: String, format: &'static str, answer: Answer, explanation: String| Question {
        kind,
        step,
        block,
        warp,
        text,
        format,
        answer,
        explanation,
    };
    Some(match kind {
        QuestionKind::NextMask => {
            let next = next_mask(&s.machine, block, warp);
            let explanation = match next {
                Some((m, l)) => format!(
                    "after this instruction, warp {warp} next runs line {l} with lanes {}",
                    format_ranges(&m.iter().collect::<Vec<_>>())
                ),
                None => format!("warp {warp} issues nothing more"),
            };
            q(
                format!("{about}. Which lanes will run the warp's next instruction after this one?"),
                "a hex mask (0x0000ffff) or lane ranges (0-15,20)",
                Answer::Mask(next.map_or(LaneMask::EMPTY, |(m, _)| m)),
                explanation,
            )
        }
        QuestionKind::Reconvergence => {
            let reconv = match &kernel.instrs[pc.0 as usize] {
                Instr::Branch { reconv, .. } if is_branch => Some(*reconv),
                _ => {
                    let b = s.machine.blocks.iter().find(|b| b.linear == block)?;
                    inspect::reconvergence(b.warps.get(w)?)
                }
            }?;
            let at = (reconv != Pc::EXIT).then(|| kernel.line(reconv));
            let explanation = match at {
                Some(l) => format!(
                    "the lanes run together again at line {l} (`{}`), the branch's immediate post-dominator",
                    src.line_text(l).trim()
                ),
                None => "the two sides never meet again before the threads exit".into(),
            };
            q(
                format!("{about}. At which line will its lanes run together again?"),
                "a line number (or `end` if only at the end of the kernel)",
                Answer::Line(at),
                explanation,
            )
        }
        QuestionKind::Deadlock => {
            let mut ahead = s.machine.clone();
            let o = ahead.run();
            let hangs = matches!(o, Outcome::Deadlock(_) | Outcome::Livelock(_));
            let explanation = match &o {
                Outcome::Deadlock(st) | Outcome::Livelock(st) => {
                    st.explanation.lines().next().unwrap_or("it hangs").to_string()
                }
                o => format!("the kernel ends with `{}` after {} steps", o.name(), ahead.steps),
            };
            q(format!("{about}. Will the kernel deadlock (hang)?"), "y or n", Answer::Hangs(hangs), explanation)
        }
    })
}

/// Issues the instruction about to issue on a copy, then runs until warp (`block`, `warp`) issues again:
/// that instruction's lanes and line (None: it never issues again).
pub fn next_mask(m: &Machine, block: u64, warp: u32) -> Option<(LaneMask, u32)> {
    let mut ahead = m.clone();
    let mut first = true;
    let mut found = None;
    let g = ahead.launch.grid;
    let linear = |b: crate::front::launch::Dim3| b.linear_in(g);
    for _ in 0..LOOKAHEAD {
        let mut issue = None;
        let o = ahead.step_traced(1, &mut |i| issue = Some(*i));
        if let Some(i) = issue {
            if first {
                first = false;
            } else if linear(i.block) == block && i.warp.0 == warp {
                found = Some((i.mask, i.line));
                break;
            }
        }
        if o.is_final() {
            break;
        }
    }
    found
}

/// Parses a mask answer: `0x00ffffff`, `0-23`, `0-7,16-23`, `0,2,4,...,30`, `all`, `none`.
pub fn parse_mask(text: &str) -> Result<LaneMask, String> {
    let t = text.trim().to_ascii_lowercase();
    if let Some(hex) = t.strip_prefix("0x") {
        let hex = hex.replace('_', "");
        return u32::from_str_radix(&hex, 16)
            .map(LaneMask)
            .map_err(|_| format!("`{text}` is not a 32-bit hex mask like 0x0000ffff"));
    }
    match t.as_str() {
        "all" => return Ok(LaneMask::FULL),
        "none" | "" => return Ok(LaneMask::EMPTY),
        _ => {}
    }
    let parts: Vec<&str> = t.split(',').map(str::trim).collect();
    let lane = |s: &str| -> Result<u32, String> {
        match s.parse::<u32>() {
            Ok(l) if l < 32 => Ok(l),
            Ok(l) => Err(format!("lane {l} does not exist: lanes are 0 to 31")),
            Err(_) => Err(format!("`{s}` is not a lane number; write a hex mask (0x0000ffff) or lanes (0-15,20)")),
        }
    };
    let mut m = 0u32;
    let mut i = 0;
    while i < parts.len() {
        let p = parts[i];
        if p == "..." {
            // `a,b,...,z`: the progression of the two before it, up to the one after it.
            let (Some(a), Some(b), Some(z)) = (
                i.checked_sub(2).and_then(|k| parts.get(k)),
                i.checked_sub(1).and_then(|k| parts.get(k)),
                parts.get(i + 1),
            ) else {
                return Err("`...` needs two lanes before it and one after it, as in 0,2,...,30".into());
            };
            let (a, b, z) = (lane(a)?, lane(b)?, lane(z)?);
            if b <= a || z < b {
                return Err("`a,b,...,z` needs a < b <= z".into());
            }
            let mut l = b;
            while l <= z {
                m |= 1 << l;
                l += b - a;
            }
            i += 2;
            continue;
        }
        match p.split_once('-') {
            Some((lo, hi)) => {
                let (lo, hi) = (lane(lo.trim())?, lane(hi.trim())?);
                if hi < lo {
                    return Err(format!("`{p}`: a range goes from low to high"));
                }
                for l in lo..=hi {
                    m |= 1 << l;
                }
            }
            None => m |= 1 << lane(p)?,
        }
        i += 1;
    }
    Ok(LaneMask(m))
}

/// Checks an answer: Ok(right?) or Err(why it cannot be read; ask again, nothing is counted).
pub fn check(q: &Question, given: &str) -> Result<bool, String> {
    let t = given.trim().to_ascii_lowercase();
    match q.answer {
        Answer::Mask(m) => parse_mask(given).map(|g| g == m),
        Answer::Line(l) => {
            let g = match t.as_str() {
                "end" | "exit" | "none" | "never" => None,
                s => Some(
                    s.trim_start_matches("line")
                        .trim()
                        .parse::<u32>()
                        .map_err(|_| format!("`{given}` is not a line number (or `end`)"))?,
                ),
            };
            Ok(g == l)
        }
        Answer::Hangs(h) => match t.as_str() {
            "y" | "yes" | "true" | "deadlock" => Ok(h),
            "n" | "no" | "false" => Ok(!h),
            _ => Err(format!("`{given}`: answer y or n")),
        },
    }
}

/// One answered question, as saved.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Record {
    pub step: u64,
    pub kind: QuestionKind,
    pub question: String,
    pub expected: String,
    pub given: String,
    pub right: bool,
}

/// The score file (`--quiz-score FILE`).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct Score {
    pub file: String,
    pub mode: String,
    pub asked: u32,
    pub right: u32,
    pub questions: Vec<Record>,
}

impl Score {
    pub fn summary(&self) -> String {
        format!("{}/{} right", self.right, self.asked)
    }

    /// Written beside the target and renamed, so the file is never half written.
    pub fn save(&self, path: &std::path::Path) -> std::io::Result<()> {
        let tmp = path.with_extension("tmp-quiz");
        let text = serde_json::to_string_pretty(self).map_err(std::io::Error::other)?;
        std::fs::write(&tmp, text + "\n")?;
        std::fs::rename(&tmp, path)
    }
}

/// Where the quiz stops.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Points {
    /// Before each branch about to diverge, and before a deadlock.
    pub defaults: bool,
    /// Authored points: (step, kind).
    pub authored: Vec<(u64, QuestionKind)>,
    /// The step before the one after which the kernel deadlocks (with `defaults`).
    pub deadlock_at: Option<u64>,
}

/// A quiz in progress.
pub struct Quiz {
    pub points: Points,
    /// Steps whose questions were asked (stepping back and forth does not ask twice).
    pub asked: BTreeSet<u64>,
    /// Questions still to ask at this stop, and the one being asked.
    pub queue: Vec<Question>,
    pub current: Option<Question>,
    /// What the student sees: the question, or the last answer's verdict.
    pub lines: Vec<String>,
    pub score: Arc<Mutex<Score>>,
    pub score_path: Option<PathBuf>,
    /// The last save failed: why.
    pub save_error: Option<String>,
    /// The kernel ended and the final score was shown.
    pub over: bool,
}

impl Quiz {
    /// A quiz on `s` from step 0: with `defaults`, finds where the kernel would deadlock by running a copy.
    pub fn new(s: &Session, points: Points, score_path: Option<PathBuf>) -> Quiz {
        let mut points = points;
        if points.defaults {
            let mut ahead = s.machine.clone();
            if let Outcome::Deadlock(_) = ahead.run() {
                points.deadlock_at = ahead.steps.checked_sub(1);
            }
        }
        let score =
            Score { file: s.compiled.source().name.clone(), mode: s.mode().name().to_string(), ..Score::default() };
        Quiz {
            points,
            asked: BTreeSet::new(),
            queue: vec![],
            current: None,
            lines: vec![],
            score: Arc::new(Mutex::new(score)),
            score_path,
            save_error: None,
            over: false,
        }
    }

    /// The breakpoint that makes `continue` stop at this quiz's points.
    pub fn breakpoint(&self) -> Breakpoint {
        let mut steps: BTreeSet<u64> = self.points.authored.iter().map(|(s, _)| *s).collect();
        steps.extend(self.points.deadlock_at);
        Breakpoint { spec: "quiz".into(), kind: Kind::Quiz { divergent_branches: self.points.defaults, steps } }
    }

    /// The question kinds to ask in the state `s` is in (empty: not a quiz point, or already asked).
    pub fn kinds_here(&self, s: &mut Session) -> Vec<QuestionKind> {
        let step = s.machine.steps;
        if self.asked.contains(&step) || s.machine.outcome().is_some() {
            return vec![];
        }
        let mut kinds: Vec<QuestionKind> =
            self.points.authored.iter().filter(|(at, _)| *at == step).map(|(_, k)| *k).collect();
        if self.points.defaults {
            if let Some((slot, w, pc, mask)) = s.machine.peek()
                && breakpoint::branch_diverges(&s.machine, slot, w as u32, pc, mask)
            {
                kinds.extend([QuestionKind::NextMask, QuestionKind::Reconvergence]);
            }
            if self.points.deadlock_at == Some(step) {
                kinds.push(QuestionKind::Deadlock);
            }
        }
        kinds.dedup();
        kinds
    }

    /// Generates the questions for this point (a kind that does not apply here becomes a next-mask
    /// question) and makes the first one current. Returns whether there is one.
    pub fn start_here(&mut self, s: &mut Session) -> bool {
        let kinds = self.kinds_here(s);
        if kinds.is_empty() {
            return false;
        }
        self.asked.insert(s.machine.steps);
        let mut qs = vec![];
        for k in kinds {
            if let Some(q) = ask(s, k).or_else(|| ask(s, QuestionKind::NextMask))
                && !qs.iter().any(|x: &Question| x.kind == q.kind)
            {
                qs.push(q);
            }
        }
        qs.reverse();
        self.queue = qs;
        self.next_question()
    }

    fn next_question(&mut self) -> bool {
        self.current = self.queue.pop();
        if let Some(q) = &self.current {
            let n = self.score().asked + 1;
            self.lines = vec![format!("Question {n}: {}", q.text), format!("Answer with {}.", q.format)];
            true
        } else {
            false
        }
    }

    pub fn score(&self) -> Score {
        self.score.lock().map(|s| s.clone()).unwrap_or_else(|e| e.into_inner().clone())
    }

    /// Answers the current question: Ok(Some(right?)) when counted, Ok(None) when there was no question,
    /// Err(why the answer cannot be read: the question stays).
    pub fn answer(&mut self, given: &str) -> Result<Option<bool>, String> {
        let Some(q) = self.current.clone() else { return Ok(None) };
        let right = check(&q, given)?;
        let score = {
            let mut sc = self.score.lock().unwrap_or_else(|e| e.into_inner());
            sc.asked += 1;
            sc.right += right as u32;
            sc.questions.push(Record {
                step: q.step,
                kind: q.kind,
                question: q.text.clone(),
                expected: q.answer.text(),
                given: given.trim().to_string(),
                right,
            });
            sc.clone()
        };
        self.save_error = None;
        if let Some(p) = &self.score_path
            && let Err(e) = score.save(p)
        {
            self.save_error = Some(format!("cannot save the score to {}: {e}", p.display()));
        }
        let verdict = if right {
            format!("Right! The answer is {}: {}.", q.answer.text(), q.explanation)
        } else {
            format!("Wrong: you said `{}`, the answer is {}: {}.", given.trim(), q.answer.text(), q.explanation)
        };
        let had_next = self.next_question();
        let mut lines = vec![verdict];
        if had_next {
            lines.append(&mut self.lines);
            lines.push(format!("Score so far: {}.", score.summary()));
        } else {
            lines.push(format!("Score so far: {}. Continue (c) or step (s) to the next question.", score.summary()));
        }
        self.lines = lines;
        Ok(Some(right))
    }

    /// Skips the current question (not counted).
    pub fn skip(&mut self) {
        if self.current.is_some() {
            let had_next = self.next_question();
            if !had_next {
                self.lines = vec![format!("Question skipped. Score so far: {}.", self.score().summary())];
            }
        }
    }

    /// The end of the kernel: the final score.
    pub fn finish(&mut self, outcome: &Outcome) {
        self.over = true;
        self.current = None;
        self.queue.clear();
        let sc = self.score();
        if let Some(p) = &self.score_path
            && let Err(e) = sc.save(p)
        {
            self.save_error = Some(format!("cannot save the score to {}: {e}", p.display()));
        }
        let saved = match (&self.score_path, &self.save_error) {
            (_, Some(e)) => format!(" ({e})"),
            (Some(p), None) => format!(" (saved to {})", p.display()),
            (None, None) => String::new(),
        };
        self.lines = vec![format!("Quiz over ({}): {}{saved}.", outcome.name(), sc.summary())];
    }
}
