//! The thin TUI side of breakpoint specs and quiz mode: the prompts' answers, and asking at quiz points.
//! The logic is UI-free, in [`crate::debug::breakpoint`] and [`crate::debug::quiz`].

use super::app::{App, Overlay, PromptKind};
use super::theme::BannerKind;
use crate::debug::breakpoint::Breakpoint;
use crate::debug::quiz::QuestionKind;
use crate::tui::recording::EventKind;

fn prompt(app: &mut App, kind: PromptKind) {
    app.overlay = Some(Overlay::Prompt { kind, text: String::new() });
}

/// After any command stops: at a quiz point, ask its first question; at the end, show the final score.
pub fn after_stop(app: &mut App) {
    let Some(q) = app.quiz.as_mut() else { return };
    if let Some(o) = app.session.machine.outcome() {
        if !q.over {
            q.finish(o);
        }
        return;
    }
    if q.current.is_none() && q.start_here(&mut app.session) {
        prompt(app, PromptKind::Quiz);
    }
}

/// The student's answer (Enter in the quiz prompt).
pub fn answer(app: &mut App, text: &str) {
    let Some(q) = app.quiz.as_mut() else { return };
    match q.answer(text) {
        Ok(Some(right)) => {
            let more = q.current.is_some();
            app.message = Some(if right {
                (BannerKind::Ok, format!("right! score {}", q.score().summary()))
            } else {
                (BannerKind::Error, format!("wrong. score {}", q.score().summary()))
            });
            if more {
                prompt(app, PromptKind::Quiz);
            }
        }
        Ok(None) => {}
        Err(e) => {
            q.lines.retain(|l| !l.starts_with("Cannot read that answer"));
            q.lines.push(format!("Cannot read that answer: {e}. Try again (Esc skips the question)."));
            app.message = Some((BannerKind::Error, e));
            prompt(app, PromptKind::Quiz);
        }
    }
}

/// Esc in the quiz prompt: the question is skipped (not counted).
pub fn skip(app: &mut App) {
    let Some(q) = app.quiz.as_mut() else { return };
    q.skip();
    if q.current.is_some() {
        prompt(app, PromptKind::Quiz);
    }
}

/// A breakpoint spec typed at the `B` prompt.
pub fn break_spec(app: &mut App, text: &str) {
    if text.is_empty() {
        return;
    }
    match Breakpoint::parse(text, &app.session.compiled) {
        Ok(bp) => {
            app.session.add_breakpoint(bp);
            app.outbox.push(EventKind::Breakpoint { spec: text.to_string() });
            app.message = Some((BannerKind::Ok, format!("breakpoint set: {text}")));
        }
        Err(e) => app.message = Some((BannerKind::Error, format!("bad breakpoint `{text}`: {}", e.short()))),
    }
}

/// The question kind typed at the `Q` prompt: a quiz point at this step, saved in the recording.
pub fn quiz_point(app: &mut App, text: &str) {
    match QuestionKind::parse(text) {
        Some(kind) => {
            let steps = app.session.machine.steps;
            app.outbox.push(EventKind::Quiz { question: kind.name().to_string(), steps });
            app.message = Some((BannerKind::Ok, format!("quiz point at step {steps}: {}", kind.name())));
        }
        None => {
            app.message = Some((
                BannerKind::Error,
                format!("not a question kind: `{text}` (m mask, r reconvergence, d deadlock)"),
            ))
        }
    }
}

/// The quiz's lines for the banner.
pub fn banner_lines(app: &App) -> Vec<String> {
    app.quiz.as_ref().map_or_else(Vec::new, |q| q.lines.clone())
}
