//! The side-by-side comparison's commands: `v` opens and closes it; while it is open the stepping keys move
//! both sides (see [`crate::debug::compare`] for the lockstep rule) and the warp keys pick the warp both sides follow.

use super::action::Action;
use super::app::{App, WarpRef};
use super::theme::BannerKind;
use crate::debug::compare::{Compare, NAMES};

/// Instructions one "step line" may take on each side.
const LINE_BUDGET: u64 = 100_000;

/// Opens the comparison at the session's step (both models from the start, run to that step), or closes it.
pub fn toggle(app: &mut App) {
    if app.compare.take().is_some() {
        app.message = Some((BannerKind::Ok, "comparison closed".into()));
        return;
    }
    let s = &app.session;
    let step = s.machine.steps;
    // A program's launch: both models' machines at its start come from running the program in each.
    let made = match app.program.as_ref().map(|p| p.start_machines(s)) {
        Some(Ok(start)) => Ok(Compare::from_machines(&s.compiled, &s.config, start)),
        Some(Err(e)) => Err(e),
        None => Compare::new(&s.compiled, &s.config).map_err(|e| e.to_string()),
    };
    match made {
        Ok(mut c) => {
            if step > 0 {
                c.goto(step);
            }
            app.message = Some((BannerKind::Ok, first_note(&c)));
            app.compare = Some(c);
        }
        Err(e) => app.message = Some((BannerKind::Error, e)),
    }
}

/// Where the first difference is, for the status line.
fn first_note(c: &Compare) -> String {
    match &c.first {
        None => "comparing: the two models never differ".into(),
        Some(d) if c.at_difference() => format!("both sides at step {}: the first difference", d.steps[0]),
        Some(d) => format!("comparing: the models first differ after step {}", d.steps[0]),
    }
}

/// The warp both sides follow: the selection, or the first warp resident on either side.
fn followed(app: &App, c: &Compare) -> Option<(u64, u32)> {
    let list = c.warp_list();
    match app.selected {
        Some(s) if list.contains(&(s.block, s.warp)) => Some((s.block, s.warp)),
        _ => list.first().copied(),
    }
}

fn select(app: &mut App, delta: isize, by_block: bool) {
    let Some(c) = app.compare.as_ref() else { return };
    let list = c.warp_list();
    if list.is_empty() {
        return;
    }
    let cur = followed(app, c).unwrap_or(list[0]);
    let targets: Vec<(u64, u32)> = if by_block {
        let mut blocks: Vec<u64> = list.iter().map(|w| w.0).collect();
        blocks.dedup();
        blocks.into_iter().map(|b| (b, 0)).collect()
    } else {
        list
    };
    let key = if by_block { (cur.0, 0) } else { cur };
    let i = targets.iter().position(|w| *w == key).unwrap_or(0) as isize;
    let (block, warp) = targets[(i + delta).rem_euclid(targets.len() as isize) as usize];
    app.selected = Some(WarpRef { block, warp });
}

/// Handles `action` while the comparison is open; `false` leaves it to the debugger (help, quit, theme,
/// closing the comparison).
pub fn apply(app: &mut App, action: Action) -> bool {
    let Some(mut c) = app.compare.take() else { return false };
    let handled = match action {
        Action::Step => {
            c.step_instruction();
            true
        }
        Action::StepBack => {
            c.step_back();
            true
        }
        Action::StepLine => {
            if let Some((block, warp)) = followed(app, &c) {
                c.step_line(block, warp, LINE_BUDGET);
            }
            true
        }
        Action::Continue => {
            c.cont();
            true
        }
        Action::Restart => {
            c.restart();
            true
        }
        Action::NextWarp | Action::PrevWarp | Action::NextBlock | Action::PrevBlock => {
            app.compare = Some(c);
            let delta = if matches!(action, Action::NextWarp | Action::NextBlock) { 1 } else { -1 };
            select(app, delta, matches!(action, Action::NextBlock | Action::PrevBlock));
            return true;
        }
        Action::Compare | Action::Help | Action::Close | Action::Quit | Action::NextTheme => false,
        _ => {
            let key = app.keymap.by_action().into_iter().find(|(a, _)| *a == Action::Compare);
            let key = key.map_or("v".to_string(), |(_, k)| k[0].clone());
            app.message = Some((BannerKind::Warn, format!("not in the comparison: {key} closes it")));
            app.compare = Some(c);
            return true;
        }
    };
    if handled {
        let [a, b] = c.steps();
        app.message = Some(if c.at_difference() {
            (BannerKind::Warn, format!("step {a}: the first difference (below)"))
        } else {
            (BannerKind::Ok, format!("{} step {a}, {} step {b}", NAMES[0], NAMES[1]))
        });
    }
    app.compare = Some(c);
    handled
}

/// Opens the comparison (if it is not open) with each side `steps` instructions in, or where it stops
/// first: what `warpdbg view --compare --steps N` prints.
pub fn open_at(app: &mut App, steps: u64) {
    if app.compare.is_none() {
        toggle(app);
    }
    if let Some(c) = app.compare.as_mut() {
        c.goto(steps);
        let note = first_note(c);
        let [a, b] = c.steps();
        app.message = Some(if c.at_difference() {
            (BannerKind::Warn, format!("step {a}: the first difference (below)"))
        } else if steps == 0 {
            (BannerKind::Ok, note)
        } else {
            (BannerKind::Ok, format!("{} step {a}, {} step {b}", NAMES[0], NAMES[1]))
        });
    }
}
