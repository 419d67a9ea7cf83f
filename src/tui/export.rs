//! Exporting a recording: a self-contained web page (every frame as styled text, arrow keys and a slider, the
//! notes), an asciicast v2 file for asciinema, or plain-text frames.

use std::fmt::Write;

use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier, Style};

pub use super::view::html::frame_html;
use super::view::html::{escape_html, named_rgb};

use crate::tui::recording::{EventKind, Recording};

/// A frame: time (ms), the event that produced it, and the screen.
pub type Frame = (u64, Option<usize>, Buffer);

/// One frame as plain text (for tests and diffs).
pub fn frame_text(b: &Buffer) -> String {
    super::view::buffer_text(b)
}

fn event_label(rec: &Recording, i: Option<usize>) -> String {
    match i.and_then(|i| rec.events.get(i)) {
        None => "start".into(),
        Some(e) => match &e.kind {
            EventKind::Action { name, steps, .. } => format!("{name} (step {steps})"),
            EventKind::Note { text } => format!("note: {text}"),
            EventKind::Command { text } => format!(":{text}"),
            EventKind::Resize { cols, rows } => format!("resize {cols}x{rows}"),
            EventKind::Mouse { button, col, row } => format!("mouse {button} at {col},{row}"),
            EventKind::End { steps, .. } => format!("end (step {steps})"),
            EventKind::Quiz { question, steps } => format!("quiz point: {question} (step {steps})"),
            EventKind::Breakpoint { spec } => format!("breakpoint {spec}"),
        },
    }
}

/// The self-contained page: no network, no external assets.
pub fn html(rec: &Recording, frames: &[Frame], background: &str, foreground: &str) -> String {
    let frames_json: Vec<serde_json::Value> = frames
        .iter()
        .map(|(t, i, b)| {
            // `e`: the event the frame follows (-1: the start), which decides the notes shown: times alone
            // cannot, as events recorded in the same millisecond share one.
            let e = i.map_or(-1, |i| i as i64);
            serde_json::json!({"t": t, "e": e, "label": event_label(rec, *i), "html": frame_html(b)})
        })
        .collect();
    let notes: Vec<serde_json::Value> = rec
        .events
        .iter()
        .enumerate()
        .filter_map(|(i, e)| match &e.kind {
            EventKind::Note { text } => Some(serde_json::json!({"t": e.t, "e": i, "text": text})),
            _ => None,
        })
        .collect();
    let data = serde_json::json!({ "title": rec.header.file, "frames": frames_json, "notes": notes }).to_string();
    // `</` must not appear inside the script element.
    let data = data.replace("</", "<\\/");
    let mut page = String::new();
    let _ = write!(
        page,
        r#"<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>warpdbg session: {title}</title>
<style>
:root {{ --bg: {background}; --fg: {foreground}; }}
body {{ background: var(--bg); color: var(--fg); font-family: ui-monospace, 'DejaVu Sans Mono', Menlo, Consolas, monospace; margin: 1em; }}
#screen {{ white-space: pre; line-height: 1.15; font-size: 13px; background: var(--bg); }}
#bar {{ display: flex; gap: 1em; align-items: center; margin-bottom: 0.6em; }}
#slider {{ flex: 1; }}
#note {{ min-height: 1.4em; color: #ebcb8b; }}
button {{ font: inherit; }}
</style></head>
<body>
<div id="bar"><button id="prev" title="previous frame (Left)">&#9664;</button>
<button id="play" title="play / pause (Space)">play</button>
<button id="next" title="next frame (Right)">&#9654;</button>
<input id="slider" type="range" min="0" value="0" aria-label="frame">
<span id="pos"></span></div>
<div id="label"></div>
<div id="note"></div>
<div id="screen"></div>
<script id="data" type="application/json">{data}</script>
<script>
const D = JSON.parse(document.getElementById('data').textContent);
const slider = document.getElementById('slider');
slider.max = D.frames.length - 1;
let cur = 0, timer = null;
function show(i) {{
  cur = Math.max(0, Math.min(D.frames.length - 1, i));
  const f = D.frames[cur];
  document.getElementById('screen').innerHTML = f.html;
  document.getElementById('label').textContent = f.label;
  document.getElementById('pos').textContent = 'frame ' + (cur + 1) + ' / ' + D.frames.length;
  const notes = D.notes.filter(n => n.e <= f.e);
  document.getElementById('note').textContent = notes.length ? 'note: ' + notes[notes.length - 1].text : '';
  slider.value = cur;
}}
function play() {{
  if (timer) {{ clearTimeout(timer); timer = null; document.getElementById('play').textContent = 'play'; return; }}
  document.getElementById('play').textContent = 'pause';
  const stepOn = () => {{
    if (cur >= D.frames.length - 1) {{ play(); return; }}
    const dt = Math.min(2000, Math.max(50, D.frames[cur + 1].t - D.frames[cur].t));
    timer = setTimeout(() => {{ show(cur + 1); stepOn(); }}, dt);
  }};
  stepOn();
}}
slider.addEventListener('input', () => show(parseInt(slider.value, 10)));
document.getElementById('prev').onclick = () => show(cur - 1);
document.getElementById('next').onclick = () => show(cur + 1);
document.getElementById('play').onclick = play;
document.addEventListener('keydown', e => {{
  if (e.key === 'ArrowRight') {{ show(cur + 1); e.preventDefault(); }}
  else if (e.key === 'ArrowLeft') {{ show(cur - 1); e.preventDefault(); }}
  else if (e.key === 'Home') show(0);
  else if (e.key === 'End') show(D.frames.length - 1);
  else if (e.key === ' ') {{ play(); e.preventDefault(); }}
}});
show(0);
</script>
</body></html>
"#,
        title = {
            let mut t = String::new();
            escape_html(&rec.header.file, &mut t);
            t
        },
    );
    page
}

fn sgr(s: Style) -> String {
    let mut codes = vec!["0".to_string()];
    let col = |c: Color, base: u8| -> Option<String> {
        match c {
            Color::Reset => None,
            Color::Rgb(r, g, b) => Some(format!("{};2;{r};{g};{b}", base)),
            Color::Indexed(i) => Some(format!("{};5;{i}", base)),
            named => named_rgb(named).map(|(r, g, b)| format!("{};2;{r};{g};{b}", base)),
        }
    };
    if let Some(c) = s.fg.and_then(|c| col(c, 38)) {
        codes.push(c);
    }
    if let Some(c) = s.bg.and_then(|c| col(c, 48)) {
        codes.push(c);
    }
    if s.add_modifier.contains(Modifier::BOLD) {
        codes.push("1".into());
    }
    if s.add_modifier.contains(Modifier::DIM) {
        codes.push("2".into());
    }
    if s.add_modifier.contains(Modifier::ITALIC) {
        codes.push("3".into());
    }
    if s.add_modifier.contains(Modifier::UNDERLINED) {
        codes.push("4".into());
    }
    if s.add_modifier.contains(Modifier::REVERSED) {
        codes.push("7".into());
    }
    format!("\x1b[{}m", codes.join(";"))
}

/// One frame as ANSI text that redraws the whole screen.
pub fn frame_ansi(b: &Buffer) -> String {
    let mut out = String::from("\x1b[H");
    for y in 0..b.area.height {
        let mut last: Option<Style> = None;
        for x in 0..b.area.width {
            let cell = &b[(x, y)];
            if last != Some(cell.style()) {
                out.push_str(&sgr(cell.style()));
                last = Some(cell.style());
            }
            out.push_str(cell.symbol());
        }
        out.push_str("\x1b[0m");
        if y + 1 < b.area.height {
            out.push_str("\r\n");
        }
    }
    out
}

/// asciicast v2: a header line, then one `[seconds, "o", text]` line per frame.
pub fn asciicast(rec: &Recording, frames: &[Frame]) -> String {
    // The largest frame: a recording resizes (the first frame has the header's size, then the terminal's).
    let w = frames.iter().map(|(_, _, b)| b.area.width).max().unwrap_or(80);
    let h = frames.iter().map(|(_, _, b)| b.area.height).max().unwrap_or(24);
    let mut out = serde_json::json!({
        "version": 2, "width": w, "height": h,
        "title": format!("warpdbg {}", rec.header.file),
        "env": {"TERM": "xterm-256color"},
    })
    .to_string();
    out.push('\n');
    out.push_str(&serde_json::json!([0.0, "o", "\x1b[2J"]).to_string());
    out.push('\n');
    let mut prev = None;
    for (t, _, b) in frames {
        // A frame of another size than the last leaves none of it behind.
        let clear = if prev.is_some_and(|a| a != b.area) { "\x1b[2J" } else { "" };
        prev = Some(b.area);
        out.push_str(&serde_json::json!([*t as f64 / 1000.0, "o", format!("{clear}{}", frame_ansi(b))]).to_string());
        out.push('\n');
    }
    out
}
