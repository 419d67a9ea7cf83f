//! Quiz mode (issue 10, part 4): the questions generated at the default points of deadlock.cu and figure 4.9
//! with their answers, answer checking, and the real binary in tmux answering one question right and one
//! wrong, with the score on screen and in the saved file.

mod common;

use std::path::Path;

use common::compile;
use common::tmux::Tmux;
use warpdbg::debug::quiz::{Answer, Points, QuestionKind, Quiz, ask, check, parse_mask};
use warpdbg::debug::session::{Session, Stop};
use warpdbg::front::launch::Mode;
use warpdbg::sim::{Config, LaneMask, Outcome};

const DEADLOCK: &str = "kernels/deadlock.cu";
const FIG49: &str = "tests/conformance/fig49.cu";

fn session(file: &str, mode: Mode) -> Session {
    Session::new(compile(file, mode, &[]), Config::default()).expect("launch fits")
}

/// Runs the quiz as the TUI does: continue to each quiz point, ask its questions, answer each right.
/// Returns (step, kind, answer) of every question asked, and how the run ended.
fn walk(file: &str, mode: Mode) -> (Vec<(u64, QuestionKind, Answer)>, Outcome) {
    let mut s = session(file, mode);
    let mut quiz = Quiz::new(&s, Points { defaults: true, ..Points::default() }, None);
    s.event_breakpoints.push(quiz.breakpoint());
    let mut asked = vec![];
    loop {
        if quiz.start_here(&mut s) {
            while let Some(q) = quiz.current.clone() {
                asked.push((q.step, q.kind, q.answer));
                let right = match q.answer {
                    Answer::Mask(m) => m.hex(),
                    Answer::Line(Some(l)) => l.to_string(),
                    Answer::Line(None) => "end".into(),
                    Answer::Hangs(h) => if h { "y" } else { "n" }.into(),
                };
                assert_eq!(quiz.answer(&right), Ok(Some(true)), "{q:?}");
            }
        }
        let mut first = true;
        let stop = loop {
            if let Some(st) = s.cont(1 << 20, first) {
                break st;
            }
            first = false;
        };
        match stop {
            Stop::Hit(h) => assert_eq!(h.kind, "quiz"),
            Stop::Finished(o) => {
                let sc = quiz.score();
                assert_eq!((sc.asked as usize, sc.right as usize), (asked.len(), asked.len()));
                return (asked, o);
            }
            other => panic!("unexpected stop {other:?}"),
        }
    }
}

#[test]
fn figure_4_9_asks_for_the_mask_after_the_branch_and_the_reconvergence_line() {
    for mode in [Mode::Its, Mode::PreVolta] {
        let (asked, end) = walk(FIG49, mode);
        assert_eq!(end, Outcome::Completed);
        // Before the branch (step 4) issues: lanes 0-23 run the `then` side next; they meet again at line 12.
        assert_eq!(
            asked,
            vec![
                (3, QuestionKind::NextMask, Answer::Mask(LaneMask(0x00ff_ffff))),
                (3, QuestionKind::Reconvergence, Answer::Line(Some(12))),
            ],
            "{mode:?}"
        );
    }
    let mut s = session(FIG49, Mode::Its);
    s.run_to(3);
    let q = ask(&mut s, QuestionKind::NextMask).expect("a question");
    assert_eq!(
        q.text,
        "Warp 0 of block 0 is about to run the branch on line 7 (`if (tid < 24) {`) with lanes 0-31. Which lanes \
         will run the warp's next instruction after this one?"
    );
    assert_eq!(q.explanation, "after this instruction, warp 0 next runs line 8 with lanes 0-23");
    for right in ["0x00ffffff", "0x00FFFFFF", "0-23", "0-7, 8-23", "0,1,2,...,23"] {
        assert_eq!(check(&q, right), Ok(true), "{right}");
    }
    for wrong in ["0xffffffff", "24-31", "0-22", "none"] {
        assert_eq!(check(&q, wrong), Ok(false), "{wrong}");
    }
    for unreadable in ["lanes", "0-40", "0x1g"] {
        assert!(check(&q, unreadable).is_err(), "{unreadable}");
    }
    let q = ask(&mut s, QuestionKind::Reconvergence).expect("a question");
    assert_eq!(
        (check(&q, "12"), check(&q, "line 12"), check(&q, "10"), check(&q, "end")),
        (Ok(true), Ok(true), Ok(false), Ok(false))
    );
}

#[test]
fn deadlock_cu_asks_at_both_warps_branches_and_before_the_deadlock() {
    let evens = Answer::Mask(LaneMask(0x5555_5555));
    let (asked, end) = walk(DEADLOCK, Mode::Its);
    assert!(matches!(end, Outcome::Deadlock(_)));
    assert_eq!(
        asked,
        vec![
            // Warp 0's `if (tid % 2 == 0)` (step 7 issues it), then warp 1's: the even lanes run first, and
            // the sides would only meet at the end of the kernel (line 40's closing brace).
            (6, QuestionKind::NextMask, evens),
            (6, QuestionKind::Reconvergence, Answer::Line(Some(40))),
            (7, QuestionKind::NextMask, evens),
            (7, QuestionKind::Reconvergence, Answer::Line(Some(40))),
            // Before step 380, the last one: warp 1's odd threads arrive at line 37's barrier.
            (379, QuestionKind::Deadlock, Answer::Hangs(true)),
        ]
    );
    // Pre-Volta: the same branches, no deadlock question (the kernel completes), and asked anywhere the
    // answer to "will it deadlock?" is no.
    let (asked, end) = walk(DEADLOCK, Mode::PreVolta);
    assert_eq!(end, Outcome::Completed);
    let kinds: Vec<(u64, QuestionKind)> = asked.iter().map(|(s, k, _)| (*s, *k)).collect();
    assert_eq!(
        kinds,
        vec![
            (6, QuestionKind::NextMask),
            (6, QuestionKind::Reconvergence),
            (7, QuestionKind::NextMask),
            (7, QuestionKind::Reconvergence)
        ]
    );
    let mut s = session(DEADLOCK, Mode::PreVolta);
    let q = ask(&mut s, QuestionKind::Deadlock).expect("a question");
    assert_eq!(q.answer, Answer::Hangs(false));
    assert_eq!((check(&q, "n"), check(&q, "yes"), check(&q, "maybe").is_err()), (Ok(true), Ok(false), true));
    let mut s = session(DEADLOCK, Mode::Its);
    s.run_to(379);
    let q = ask(&mut s, QuestionKind::Deadlock).expect("a question");
    assert!(q.text.contains("about to run line 37 (`__syncthreads();"), "{}", q.text);
    assert!(q.explanation.starts_with("Deadlock: no thread of block (0,0,0) can issue"), "{}", q.explanation);
}

#[test]
fn masks_parse_as_hex_ranges_and_progressions() {
    assert_eq!(parse_mask("0x0000ffff"), Ok(LaneMask(0xffff)));
    assert_eq!(parse_mask("0-3,8"), Ok(LaneMask(0x10f)));
    assert_eq!(parse_mask("1,3,...,31"), Ok(LaneMask(0xaaaa_aaaa)));
    assert_eq!(parse_mask("all"), Ok(LaneMask::FULL));
    assert_eq!(parse_mask("none"), Ok(LaneMask::EMPTY));
    assert_eq!(parse_mask("32").unwrap_err(), "lane 32 does not exist: lanes are 0 to 31");
}

#[test]
fn authored_points_ask_the_instructors_kind_at_the_recorded_step() {
    let mut s = session(FIG49, Mode::Its);
    let points = Points {
        defaults: false,
        authored: vec![(5, QuestionKind::NextMask), (0, QuestionKind::Deadlock)],
        deadlock_at: None,
    };
    let mut quiz = Quiz::new(&s, points, None);
    s.event_breakpoints.push(quiz.breakpoint());
    assert!(quiz.start_here(&mut s));
    assert_eq!(
        quiz.current.as_ref().map(|q| (q.step, q.kind, q.answer)),
        Some((0, QuestionKind::Deadlock, Answer::Hangs(false)))
    );
    assert_eq!(quiz.answer("y"), Ok(Some(false)));
    assert!(quiz.current.is_none());
    // Not at the branch (defaults off): the next stop is step 5, where lanes 0-23 run line 7's jump; the
    // warp's next instruction is the else side.
    let stop = s.cont(1000, true);
    assert!(matches!(stop, Some(Stop::Hit(ref h)) if h.kind == "quiz" && h.step == 5), "{stop:?}");
    assert!(quiz.start_here(&mut s));
    let q = quiz.current.clone().expect("a question");
    assert_eq!((q.kind, q.answer), (QuestionKind::NextMask, Answer::Mask(LaneMask(0xff00_0000))));
    assert_eq!(quiz.answer("24-31"), Ok(Some(true)));
    let sc = quiz.score();
    assert_eq!((sc.asked, sc.right), (2, 1));
    // Stepping back and forth does not ask again.
    assert!(!quiz.start_here(&mut s));
}

// ---------------------------------------------------------------------------------------------------------
// The real binary in tmux.

const PROMPT: &str = "QUIZ-PROMPT$";

/// The banner's text (the rows between its thick borders), its wrapped rows joined with spaces.
fn banner(screen: &str) -> String {
    let rows: Vec<&str> =
        screen.lines().filter_map(|l| l.strip_prefix('┃')).map(|l| l.trim_end().trim_end_matches('┃').trim()).collect();
    rows.join(" ")
}

#[test]
fn the_binary_in_tmux_asks_scores_and_saves() {
    // Quiz screens carry long banners: read them with wrapped lines joined.
    let Some(t) = Tmux::shell(Path::new(env!("CARGO_MANIFEST_DIR")), 120, 45, PROMPT) else { return };
    let t = t.joined();
    let bin = env!("CARGO_BIN_EXE_warpdbg");
    let nanos = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    let dir = std::env::temp_dir().join(format!("warpdbg-quiz-{}-{nanos}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let score = dir.join("score.json");
    t.type_text(&format!("{bin} {FIG49} --quiz --quiz-score {}", score.display()));
    t.keys(&["Enter"]);
    let s = t.wait_for("quiz mode: continue (c)");
    assert!(s.contains("fig49.cu") && s.contains("step 0 "), "{s}");

    // Continue: it stops before the branch on line 7 and asks for the next mask.
    t.keys(&["c"]);
    let s = t.wait_for("your answer:");
    assert!(s.contains("Question 1: Warp 0 of block 0 is about to run the branch on line 7"), "{s}");
    assert!(s.contains("step 3 "), "{s}");
    assert!(s.contains(" QUIZ "), "{s}");
    // A right answer (lane ranges), then the reconvergence question.
    t.type_text("0-23");
    t.keys(&["Enter"]);
    let s = t.wait_for("Question 2:");
    let text = banner(&s);
    assert!(text.contains("Right! The answer is 0x00ffffff (lanes 0-23)"), "{s}");
    assert!(text.contains("Score so far: 1/1 right."), "{s}");
    assert!(text.contains("about to run the branch on line 7 (`if (tid < 24) {`) with lanes 0-31. At which line will its lanes run together again?"), "{s}");
    // An unreadable answer is not counted: the question stays.
    t.type_text("soon");
    t.keys(&["Enter"]);
    let s = t.wait("the answer to be refused", |x| {
        banner(x).contains("Cannot read that answer: `soon` is not a line number")
    });
    assert!(s.contains("your answer:") && s.contains("Question 2:"), "{s}");
    assert!(banner(&s).contains("Score so far: 1/1 right."), "not counted:\n{s}");
    // A wrong answer.
    t.type_text("10");
    t.keys(&["Enter"]);
    let s = t.wait("the verdict", |x| banner(x).contains("Wrong: you said `10`, the answer is line 12"));
    assert!(s.contains("wrong. score 1/2"), "{s}");
    assert!(banner(&s).contains("Score so far: 1/2 right."), "{s}");
    assert!(!s.contains("your answer:"), "{s}");
    // Continue to the end: the final score.
    t.keys(&["c"]);
    let s = t.wait("the final score", |x| banner(x).contains("Quiz over (completed): 1/2 right"));
    assert!(banner(&s).contains(&format!("(saved to {})", score.display())), "{s}");
    assert!(s.contains("kernel completed") && s.contains(" completed "), "{s}");
    // Quit: the score is printed on the shell too.
    t.keys(&["q"]);
    let s = t.wait_for("quiz: 1/2 right");
    assert!(s.contains(PROMPT), "{s}");

    let saved: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&score).expect("score file")).expect("score JSON");
    assert_eq!((saved["asked"].as_u64(), saved["right"].as_u64()), (Some(2), Some(1)));
    assert_eq!(saved["file"], FIG49);
    assert_eq!(saved["mode"], "its");
    let qs = saved["questions"].as_array().expect("questions");
    assert_eq!(qs.len(), 2);
    assert_eq!(
        (qs[0]["kind"].as_str(), qs[0]["given"].as_str(), qs[0]["right"].as_bool()),
        (Some("next_mask"), Some("0-23"), Some(true))
    );
    assert_eq!(
        (qs[1]["kind"].as_str(), qs[1]["expected"].as_str(), qs[1]["given"].as_str(), qs[1]["right"].as_bool()),
        (Some("reconvergence"), Some("line 12"), Some("10"), Some(false))
    );
    let _ = std::fs::remove_dir_all(&dir);
}
