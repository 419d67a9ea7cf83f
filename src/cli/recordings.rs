//! The commands on recorded sessions: `replay` in the terminal, `export` as a web page, an asciicast or text
//! frames, and `export --playground` (the live debugger as one web page).

use std::path::{Path, PathBuf};

use super::args::UiArgs;
use super::debugger::needs_terminal;
use super::exit::Exit;
use super::load::{load_recording, ui_theme};
use crate::tui::keymap::Keymap;
use crate::tui::theme::Theme;

pub(super) fn replay_command(path: &Path, speed: f64, ui: &UiArgs) -> Exit {
    let rec = match load_recording(path) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let theme = match ui_theme(ui) {
        Ok(t) => t,
        Err(code) => return code,
    };
    // Check that it starts before taking over the terminal.
    if let Err(e) = crate::tui::replay::start_app(&rec, Keymap::default_map(), theme.clone()) {
        // What start_app checks (the kernel source, the launch) is all in the header, line 1.
        eprintln!("error: {}:1: {e}", path.display());
        return Exit::Usage;
    }
    if let Err(code) = needs_terminal() {
        return code;
    }
    let make = || crate::tui::replay::start_app(&rec, Keymap::default_map(), theme.clone());
    match crate::tui::replay(rec.clone(), make, speed) {
        Ok(()) => Exit::Ok,
        Err(e) => {
            eprintln!("error: {e}");
            Exit::Usage
        }
    }
}

/// `export --playground OUT [--handout MANIFEST.ron] [FILE ...]`: the live debugger as one web page, the
/// manifest's exercises and then the files given listed first.
pub(super) fn playground_command(
    out: &Path,
    files: &[PathBuf],
    handout: Option<&Path>,
    wasm: Option<&Path>,
    ui: &UiArgs,
) -> Exit {
    use crate::web::handout;
    let theme = Theme::text(ui.theme.as_deref().unwrap_or("dark"));
    let exercises = || -> Result<Vec<handout::Exercise>, String> {
        let mut all = match handout {
            Some(m) => handout::from_manifest(m)?,
            None => vec![],
        };
        all.extend(handout::from_files(files)?);
        Ok(all)
    };
    let page = crate::web::export::read_wasm(wasm)
        .and_then(|w| Ok((w, exercises()?, theme?)))
        .and_then(|(w, f, theme)| crate::web::export::playground(&w, &f, &theme));
    let page = match page {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: {e}");
            return Exit::Usage;
        }
    };
    // Written beside the target and renamed, so a failed export never leaves half a file.
    let tmp = out.with_extension("tmp-export");
    match std::fs::write(&tmp, page).and_then(|_| std::fs::rename(&tmp, out)) {
        Ok(()) => Exit::Ok,
        Err(e) => {
            eprintln!("error: cannot write {}: {e}", out.display());
            Exit::Usage
        }
    }
}

pub(super) fn export_command(
    path: &Path,
    html: Option<&Path>,
    cast: Option<&Path>,
    text: Option<&Path>,
    ui: &UiArgs,
) -> Exit {
    if html.is_none() && cast.is_none() && text.is_none() {
        eprintln!("error: say what to export: --html OUT.html, --cast OUT.cast and/or --text OUT.txt");
        return Exit::Usage;
    }
    let rec = match load_recording(path) {
        Ok(r) => r,
        Err(code) => return code,
    };
    let theme = match ui_theme(ui) {
        Ok(t) => t,
        Err(code) => return code,
    };
    let frames = match crate::tui::replay::frames(&rec, theme.clone()) {
        Ok(f) => f,
        Err(e) => {
            eprintln!("error: {}:1: {e}", path.display());
            return Exit::Usage;
        }
    };
    let t = theme.unwrap_or_else(|| Theme::load(&rec.header.theme).unwrap_or_else(|_| Theme::default_dark()));
    let css = |c: ratatui::style::Color| match c {
        ratatui::style::Color::Rgb(r, g, b) => format!("#{r:02x}{g:02x}{b:02x}"),
        _ => "#000000".into(),
    };
    let write = |p: &Path, content: String| -> Result<(), Exit> {
        // Written beside the target and renamed, so a failed export never leaves half a file.
        let tmp = p.with_extension("tmp-export");
        std::fs::write(&tmp, content).and_then(|_| std::fs::rename(&tmp, p)).map_err(|e| {
            eprintln!("error: cannot write {}: {e}", p.display());
            Exit::Usage
        })
    };
    use crate::tui::export;
    if let Some(p) = html {
        let page = export::html(&rec, &frames, &css(t.background.0), &css(t.foreground.0));
        if let Err(code) = write(p, page) {
            return code;
        }
    }
    if let Some(p) = cast
        && let Err(code) = write(p, export::asciicast(&rec, &frames))
    {
        return code;
    }
    if let Some(p) = text {
        let all: Vec<String> = frames.iter().map(|(_, _, b)| export::frame_text(b)).collect();
        if let Err(code) = write(p, all.join("\u{c}\n")) {
            return code;
        }
    }
    eprintln!("exported {} frames", frames.len());
    Exit::Ok
}
