//! `update`: the only place the TUI's state changes, one action at a time.

use ratatui::layout::{Position, Rect};

use super::action::Action;
use super::app::{App, Overlay, Pane, PromptKind, WarpRef};
use super::input::{Key, KeyCodeRepr, Mouse, MouseButton};
use super::running::{after_run, arrived, extend_travel, interrupt, start_travel};
pub use super::running::{finish_running, tick, tick_bounded};
use super::scroll;
use super::theme::{BannerKind, Theme};
use super::view::chrome::{HELP_SCROLL, help_max_scroll};
use super::view::layout::Areas;
use crate::front::launch::Mode;

/// Steps a single "step line" may take before giving control back.
const STEP_LINE_BUDGET: u64 = 1_000_000;

pub fn update(app: &mut App, action: Action) {
    // While a continue or a long step back runs, a key interrupts it and then does what it does (so `:` opens
    // its prompt rather than being lost); a repeated step back goes one step further back instead; the run's
    // own key (continue) and Esc only stop it; quit quits.
    if app.running && action != Action::Quit {
        if action == Action::StepBack
            && let Some(target) = app.travel
        {
            extend_travel(app, target);
            return;
        }
        interrupt(app);
        if matches!(action, Action::Continue | Action::Close) {
            return;
        }
    }
    if app.overlay == Some(Overlay::Help)
        && matches!(
            action,
            Action::Up | Action::Down | Action::PageUp | Action::PageDown | Action::Top | Action::Bottom
        )
    {
        // The help may not fit the screen: the movement keys scroll it.
        scroll_help(app, action);
        app.record_action(&format!("{action:?}"));
        return;
    }
    if app.overlay.is_some() && !matches!(action, Action::Quit | Action::Help) {
        app.overlay = None;
        app.record_action("Close");
        return;
    }
    apply(app, action);
    app.refresh_why();
    // A continue is recorded when it stops (with where it stopped), a long step back as a `Goto` where it
    // arrives; prompts when they are answered.
    if !matches!(
        action,
        Action::Continue
            | Action::Goto
            | Action::Note
            | Action::BreakSpec
            | Action::QuizHere
            | Action::Search
            | Action::GotoLine
    ) && app.travel.is_none()
    {
        app.record_action(&format!("{action:?}"));
    }
}

fn apply(app: &mut App, action: Action) {
    // The side-by-side comparison takes the stepping keys for both of its sides.
    if app.compare.is_some() && super::compare::apply(app, action) {
        return;
    }
    match action {
        Action::Quit => app.quit = true,
        Action::Compare => super::compare::toggle(app),
        Action::Help => {
            app.overlay = if app.overlay.is_some() { None } else { Some(Overlay::Help) };
            app.scroll.insert(HELP_SCROLL, 0);
        }
        Action::Close => app.overlay = None,
        Action::Step => {
            app.remember_memory();
            let stop = app.session.step_instruction();
            after_run(app, &stop);
        }
        Action::StepBack if super::program::step_back_across(app) => {}
        Action::StepBack => {
            app.remember_memory();
            let target = app.session.machine.steps.saturating_sub(1);
            if start_travel(app, target) {
                return;
            }
            app.session.step_back(1);
            app.fix_selection();
            app.follow_selected();
            app.message = Some((BannerKind::Ok, format!("back to step {}", app.session.machine.steps)));
        }
        Action::LanesPane => super::ask::toggle_lanes(app),
        Action::LanesAllWarps => super::ask::toggle_all_warps(app),
        Action::Goto => app.overlay = Some(Overlay::Prompt { kind: PromptKind::Goto, text: String::new() }),
        Action::Note => app.overlay = Some(Overlay::Prompt { kind: PromptKind::Note, text: String::new() }),
        Action::BreakSpec => app.overlay = Some(Overlay::Prompt { kind: PromptKind::Break, text: String::new() }),
        Action::QuizHere => app.overlay = Some(Overlay::Prompt { kind: PromptKind::QuizPoint, text: String::new() }),
        Action::StepLine => {
            app.remember_memory();
            app.fix_selection();
            let stop = match app.selected {
                Some(s) => app.session.step_line(s.block, s.warp, STEP_LINE_BUDGET),
                None => app.session.step_instruction(),
            };
            after_run(app, &stop);
        }
        Action::Continue if super::program::continue_at_end(app) => app.record_action("Continue"),
        Action::Continue => {
            app.remember_memory();
            app.running = true;
            app.first_chunk = true;
            app.message = Some((BannerKind::Warn, "running... (any key interrupts)".into()));
        }
        Action::ToggleBreakpoint => toggle_breakpoint(app, app.cursor),
        Action::ToggleBreakOnDivergence => {
            app.session.break_on_divergence = !app.session.break_on_divergence;
            let on = if app.session.break_on_divergence { "on" } else { "off" };
            app.message = Some((BannerKind::Ok, format!("break on divergence {on}")));
        }
        Action::NextWarp => select_warp(app, 1),
        Action::PrevWarp => select_warp(app, -1),
        Action::NextBlock => select_block(app, 1),
        Action::PrevBlock => select_block(app, -1),
        Action::Up | Action::Down | Action::PageUp | Action::PageDown | Action::Top | Action::Bottom => {
            move_in_focus(app, action)
        }
        Action::FocusNext | Action::FocusPrev => {
            // The program pane is there only for programs.
            let order = app.pane_order();
            let i = order.iter().position(|p| *p == app.focus).unwrap_or(0);
            let n = order.len();
            app.focus = order[if action == Action::FocusNext { (i + 1) % n } else { (i + n - 1) % n }];
        }
        Action::NextLaunch => super::program::next_launch(app),
        Action::PrevLaunch => super::program::prev_launch(app),
        Action::SwitchMode if super::program::is_program(app) => {
            let to = if app.session.mode() == Mode::Its { Mode::PreVolta } else { Mode::Its };
            app.remember_memory();
            super::program::switch_mode(app, to);
        }
        Action::SwitchMode => {
            let to = if app.session.mode() == Mode::Its { Mode::PreVolta } else { Mode::Its };
            app.remember_memory();
            match app.session.set_mode(to) {
                Ok(()) => {
                    app.fix_selection();
                    app.follow_selected();
                    let note = match app.session.machine.outcome() {
                        Some(o) => format!(", where it stops: {}", o.name()),
                        None => String::new(),
                    };
                    app.message = Some((
                        BannerKind::Ok,
                        format!("mode {} at step {}{note}", to.name(), app.session.machine.steps),
                    ));
                    scroll::reveal_stuck_lines(app);
                }
                Err(e) => app.message = Some((BannerKind::Error, e.to_string())),
            }
        }
        Action::Restart => {
            match app.session.restart() {
                Ok(()) => app.message = Some((BannerKind::Ok, "restarted at step 0".into())),
                Err(e) => app.message = Some((BannerKind::Error, e.to_string())),
            }
            app.remember_memory();
            app.fix_selection();
            app.follow_selected();
        }
        Action::NextTheme => {
            let names: Vec<&str> = super::theme::BUILTIN.iter().map(|(n, _)| *n).collect();
            let i = names.iter().position(|n| *n == app.theme.name).map_or(0, |i| (i + 1) % names.len());
            if let Ok(t) = Theme::load(names[i]) {
                let mono = app.theme.monochrome;
                app.theme = if mono { t.monochrome() } else { t };
                app.message = Some((BannerKind::Ok, format!("theme {}", names[i])));
            }
        }
        Action::Activate => match app.focus {
            Pane::Warps => app.follow_selected(),
            _ => toggle_breakpoint(app, app.cursor),
        },
        Action::NextLane => select_lane(app, 1),
        Action::PrevLane => select_lane(app, -1),
        Action::JumpToBranch => jump_to_branch(app),
        Action::Search => app.overlay = Some(Overlay::Prompt { kind: PromptKind::Search, text: String::new() }),
        Action::SearchNext => super::navigate::search(app, ""),
        Action::GotoLine => app.overlay = Some(Overlay::Prompt { kind: PromptKind::Line, text: String::new() }),
        Action::ScrollLeft => super::navigate::scroll_sideways(app, -1),
        Action::ScrollRight => super::navigate::scroll_sideways(app, 1),
        Action::ScrollBanner => super::navigate::scroll_banner(app),
        Action::BankView => {
            app.bank_view = !app.bank_view;
            app.coalescing_view = false;
            app.scroll.insert(Pane::Metrics.title(), 0);
            let on = if app.bank_view { "shared-memory banks" } else { "divergence" };
            app.message = Some((BannerKind::Ok, format!("metrics: {on}")));
        }
        Action::CoalescingView => {
            app.coalescing_view = !app.coalescing_view;
            app.bank_view = false;
            app.scroll.insert(Pane::Metrics.title(), 0);
            let on = if app.coalescing_view { "global-memory coalescing" } else { "divergence" };
            app.message = Some((BannerKind::Ok, format!("metrics: {on}")));
        }
    }
}

/// Moves the lane cursor of the selected warp (the first press picks lane 0, or 31 going back).
fn select_lane(app: &mut App, delta: i32) {
    let lane = match app.lane {
        None if delta > 0 => 0,
        None => 31,
        Some(l) => (l as i32 + delta).rem_euclid(32) as u32,
    };
    app.lane = Some(lane);
    app.refresh_why();
    let tid = app.selected.map_or(lane, |s| s.warp * 32 + lane);
    app.message = Some((BannerKind::Ok, format!("lane {lane} (thread {tid}) selected")));
}

/// Goes back to the step just before the divergent branch that masked the selected lane issued.
fn jump_to_branch(app: &mut App) {
    app.refresh_why();
    let Some(lane) = app.lane else {
        app.message = Some((BannerKind::Warn, "no lane selected: pick one with > or <".into()));
        return;
    };
    let branch = match app.current_why() {
        Some(Ok(w)) => w.branch,
        Some(Err(e)) => {
            app.message = Some((BannerKind::Warn, e.clone()));
            return;
        }
        None => None,
    };
    let Some((line, step)) = branch else {
        app.message = Some((BannerKind::Warn, format!("lane {lane} is not masked by a divergent branch now")));
        return;
    };
    let to = step.saturating_sub(1);
    goto_step(app, to);
    app.cursor = line;
    app.message = Some((
        BannerKind::Ok,
        format!("back to step {to}: the branch on line {line} that masked lane {lane} issues next (at step {step})"),
    ));
}

/// Up/Down/PgUp/PgDn/Home/End while the help is open.
fn scroll_help(app: &mut App, action: Action) {
    let max = help_max_scroll(app, Rect::new(0, 0, app.size.0, app.size.1)) as i64;
    let page = (app.size.1 as i64 / 2).max(1);
    let delta = match action {
        Action::Up => -1,
        Action::Down => 1,
        Action::PageUp => -page,
        Action::PageDown => page,
        Action::Top => -max,
        _ => max,
    };
    let cur = app.scroll_of(HELP_SCROLL) as i64;
    app.scroll.insert(HELP_SCROLL, (cur + delta).clamp(0, max) as usize);
}

fn toggle_breakpoint(app: &mut App, line: u32) {
    let bps = &mut app.session.breakpoints;
    let on = if bps.remove(&line) {
        false
    } else {
        bps.insert(line);
        true
    };
    app.message =
        Some((BannerKind::Ok, format!("breakpoint {} line {line}", if on { "set at" } else { "removed from" })));
}

fn select_warp(app: &mut App, delta: isize) {
    let list = app.warp_list();
    if list.is_empty() {
        return;
    }
    let i = app.selected.and_then(|s| list.iter().position(|w| *w == s)).unwrap_or(0) as isize;
    let j = (i + delta).rem_euclid(list.len() as isize) as usize;
    app.selected = Some(list[j]);
    app.follow_selected();
}

fn select_block(app: &mut App, delta: isize) {
    let blocks: Vec<u64> = app.session.machine.blocks.iter().map(|b| b.linear).collect();
    if blocks.is_empty() {
        return;
    }
    let cur = app.selected.map_or(blocks[0], |s| s.block);
    let i = blocks.iter().position(|b| *b == cur).unwrap_or(0) as isize;
    let j = (i + delta).rem_euclid(blocks.len() as isize) as usize;
    app.selected = Some(WarpRef { block: blocks[j], warp: 0 });
    app.follow_selected();
}

fn move_in_focus(app: &mut App, action: Action) {
    let (_, rows) = app.size;
    let page = (rows as i64 / 2).max(1);
    let delta: i64 = match action {
        Action::Up => -1,
        Action::Down => 1,
        Action::PageUp => -page,
        Action::PageDown => page,
        Action::Top => i64::MIN / 2,
        _ => i64::MAX / 2,
    };
    match app.focus {
        Pane::Source => {
            let n = app.source_lines().len().max(1) as i64;
            app.cursor = (app.cursor as i64 + delta).clamp(1, n) as u32;
        }
        Pane::Warps => {
            let list = app.warp_list();
            if list.is_empty() {
                return;
            }
            let i = app.selected.and_then(|s| list.iter().position(|w| *w == s)).unwrap_or(0) as i64;
            let j = (i + delta).clamp(0, list.len() as i64 - 1) as usize;
            app.selected = Some(list[j]);
            app.follow_selected();
        }
        Pane::Program => {
            // Within its lines, so `k` after `G` (End) scrolls back at once.
            let area = super::view::areas(app, Rect::new(0, 0, app.size.0, app.size.1)).program;
            let max = super::view::program::max_scroll(app, area) as i64;
            let cur = (app.scroll_of(Pane::Program.title()) as i64).min(max);
            app.scroll.insert(Pane::Program.title(), (cur + delta).clamp(0, max) as usize);
        }
        pane => {
            let key = pane.title();
            let cur = app.scroll_of(key) as i64;
            app.scroll.insert(key, (cur + delta).clamp(0, 1 << 30) as usize);
        }
    }
}

/// Mouse: click a source line for a breakpoint, click a warp to select it, wheel scrolls the pane under it.
pub fn mouse(app: &mut App, ev: Mouse) {
    app.outbox.push(crate::tui::recording::EventKind::Mouse {
        button: ev.button.name().into(),
        col: ev.col,
        row: ev.row,
    });
    let click = matches!(ev.button, MouseButton::Left | MouseButton::Other);
    if app.overlay.is_some() {
        if click {
            app.overlay = None;
        }
        return;
    }
    let areas: Areas = super::view::areas(app, Rect::new(0, 0, app.size.0, app.size.1));
    let at = Position::new(ev.col, ev.row);
    let pane = areas.pane_at(at);
    match (ev.button, pane) {
        (MouseButton::Left, Some((Pane::Source, r))) => {
            app.focus = Pane::Source;
            let row = ev.row.saturating_sub(r.y + 1) as u32;
            let line = app.source_top + row;
            if ev.row > r.y && line as usize <= app.source_lines().len() {
                app.cursor = line;
                toggle_breakpoint(app, line);
            }
        }
        (MouseButton::Left, Some((Pane::Warps, r))) => {
            app.focus = Pane::Warps;
            // Row 0 is the border, row 1 the header; the list starts where the pane draws it from.
            let row = ev.row.saturating_sub(r.y + 2) as usize + super::view::warps::first_row(app, r);
            if ev.row > r.y + 1
                && let Some(w) = app.warp_list().get(row).copied()
            {
                app.selected = Some(w);
                app.follow_selected();
            }
        }
        (MouseButton::Left, Some((Pane::Detail, r))) => {
            app.focus = Pane::Detail;
            if let Some(lane) = lane_at(app, r, ev.col, ev.row) {
                app.lane = Some(lane);
                select_lane(app, 0);
            }
        }
        (MouseButton::Left | MouseButton::Other, Some((p, _))) => app.focus = p,
        (MouseButton::ScrollDown | MouseButton::ScrollUp, Some((p, _))) => {
            let saved = app.focus;
            app.focus = p;
            let act = if ev.button == MouseButton::ScrollDown { Action::Down } else { Action::Up };
            if p == Pane::Source {
                let n = app.source_lines().len() as i64;
                let d = if act == Action::Down { 3 } else { -3 };
                app.source_top = (app.source_top as i64 + d).clamp(1, n.max(1)) as u32;
            } else if p != Pane::Warps {
                move_in_focus(app, act);
            } else {
                let cur = super::view::warps::first_row(app, areas.warps) as i64;
                let d = if act == Action::Down { 3 } else { -3 };
                app.scroll.insert(p.title(), (cur + d).max(0) as usize);
                let first = super::view::warps::first_row(app, areas.warps);
                app.scroll.insert(p.title(), first);
            }
            app.focus = saved;
        }
        _ => {}
    }
}

/// The lane whose cell of a lane bar the detail pane (at `r`) draws at (col, row), if any: bar rows start
/// with four blanks inside the border, then 32 lane cells and a blank.
fn lane_at(app: &App, r: Rect, col: u16, row: u16) -> Option<u32> {
    let x0 = r.x + 1 + 4;
    if col < x0 || col >= x0 + 32 || row <= r.y || row + 1 >= r.y + r.height {
        return None;
    }
    let buf = super::view::render_buffer(app, app.size.0, app.size.1);
    let sym = |x: u16| buf[(x, row)].symbol().to_string();
    let lane_glyphs = ["█", "░", " "];
    let bar = (r.x + 1..x0).all(|x| sym(x) == " ")
        && (x0..x0 + 32).all(|x| lane_glyphs.contains(&sym(x).as_str()))
        && (x0..x0 + 32).any(|x| sym(x) != " ")
        && sym(x0 + 32) == " ";
    bar.then_some((col - x0) as u32)
}

/// Goes to a step (time travel backwards, or runs forwards), as the `:` prompt and replay do.
pub fn goto_step(app: &mut App, step: u64) {
    app.remember_memory();
    let outcome = app.session.goto(step);
    arrived(app, outcome, "at step");
}

/// A note at the current step: shown now and on replay.
pub fn add_note(app: &mut App, text: &str) {
    app.note = Some((app.session.machine.steps, text.to_string()));
    app.outbox.push(crate::tui::recording::EventKind::Note { text: text.to_string() });
}

/// Keys typed into a prompt: characters edit, Enter answers, Esc cancels.
pub fn prompt_key(app: &mut App, key: Key) {
    // A caret under a bad expression belongs to the text as it was.
    app.prompt_error = None;
    let Some(Overlay::Prompt { kind, text }) = &mut app.overlay else { return };
    match key.code {
        KeyCodeRepr::Char(c) => {
            if !(c == 'c' && key.ctrl) {
                text.push(c);
                return;
            }
            app.overlay = None;
        }
        KeyCodeRepr::Backspace => {
            text.pop();
        }
        KeyCodeRepr::Esc => {
            let quiz = *kind == PromptKind::Quiz;
            app.overlay = None;
            if quiz {
                super::teach::skip(app);
            }
        }
        KeyCodeRepr::Enter => {
            let (kind, text) = (*kind, text.trim().to_string());
            app.overlay = None;
            match kind {
                PromptKind::Goto => match text.parse::<u64>() {
                    // Far back: in pieces, which the user may interrupt (recorded where it arrives).
                    Ok(n) => {
                        app.remember_memory();
                        if !start_travel(app, n) {
                            goto_step(app, n);
                            app.record_action("Goto");
                        }
                    }
                    Err(_) => super::ask::command(app, &text),
                },
                PromptKind::Note if !text.is_empty() => add_note(app, &text),
                PromptKind::Note => {}
                PromptKind::Break => super::teach::break_spec(app, &text),
                PromptKind::Quiz => super::teach::answer(app, &text),
                PromptKind::QuizPoint => super::teach::quiz_point(app, &text),
                PromptKind::Search => super::navigate::search(app, &text),
                PromptKind::Line => super::navigate::goto_line(app, &text),
            }
        }
        _ => {}
    }
}
