//! The screen as HTML: each row of a drawn [`Buffer`] as spans of one style, colours as CSS. The exported
//! replay page shows frames this way, and the playground page draws the live debugger with it (a ratatui
//! backend of our own over the same `Buffer` the terminal gets).

use std::fmt::Write;

use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier, Style};

/// A colour as CSS: `#rrggbb`, a palette variable for indexed colours, `None` for the default.
pub fn css_color(c: Color) -> Option<String> {
    Some(match c {
        Color::Reset => return None,
        Color::Rgb(r, g, b) => format!("#{r:02x}{g:02x}{b:02x}"),
        Color::Indexed(i) => return Some(format!("var(--c{i})")),
        named => {
            let (r, g, b) = named_rgb(named)?;
            format!("#{r:02x}{g:02x}{b:02x}")
        }
    })
}

/// The usual xterm palette for the 16 named colours.
pub fn named_rgb(c: Color) -> Option<(u8, u8, u8)> {
    Some(match c {
        Color::Black => (0, 0, 0),
        Color::Red => (205, 0, 0),
        Color::Green => (0, 205, 0),
        Color::Yellow => (205, 205, 0),
        Color::Blue => (0, 0, 238),
        Color::Magenta => (205, 0, 205),
        Color::Cyan => (0, 205, 205),
        Color::Gray => (229, 229, 229),
        Color::DarkGray => (127, 127, 127),
        Color::LightRed => (255, 0, 0),
        Color::LightGreen => (0, 255, 0),
        Color::LightYellow => (255, 255, 0),
        Color::LightBlue => (92, 92, 255),
        Color::LightMagenta => (255, 0, 255),
        Color::LightCyan => (0, 255, 255),
        Color::White => (255, 255, 255),
        _ => return None,
    })
}

/// `s` with the characters HTML gives a meaning escaped, appended to `out`.
pub fn escape_html(s: &str, out: &mut String) {
    for ch in s.chars() {
        match ch {
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
}

fn style_css(s: Style) -> String {
    let mut css = String::new();
    let (mut fg, mut bg) = (s.fg.and_then(css_color), s.bg.and_then(css_color));
    if s.add_modifier.contains(Modifier::REVERSED) {
        std::mem::swap(&mut fg, &mut bg);
        fg = fg.or(Some("var(--bg)".into()));
        bg = bg.or(Some("var(--fg)".into()));
    }
    if let Some(c) = fg {
        let _ = write!(css, "color:{c};");
    }
    if let Some(c) = bg {
        let _ = write!(css, "background:{c};");
    }
    if s.add_modifier.contains(Modifier::BOLD) {
        css.push_str("font-weight:bold;");
    }
    if s.add_modifier.contains(Modifier::ITALIC) {
        css.push_str("font-style:italic;");
    }
    if s.add_modifier.contains(Modifier::UNDERLINED) {
        css.push_str("text-decoration:underline;");
    }
    if s.add_modifier.contains(Modifier::DIM) {
        css.push_str("opacity:0.6;");
    }
    css
}

/// One frame as HTML: rows of spans, consecutive cells of one style merged.
pub fn frame_html(b: &Buffer) -> String {
    let mut out = String::new();
    for y in 0..b.area.height {
        let mut run = String::new();
        let mut run_style: Option<Style> = None;
        for x in 0..b.area.width {
            let cell = &b[(x, y)];
            let style = cell.style();
            if run_style != Some(style) {
                if let Some(s) = run_style {
                    let _ = write!(out, "<span style=\"{}\">{run}</span>", style_css(s));
                }
                run.clear();
                run_style = Some(style);
            }
            escape_html(cell.symbol(), &mut run);
        }
        if let Some(s) = run_style {
            let _ = write!(out, "<span style=\"{}\">{run}</span>", style_css(s));
        }
        out.push('\n');
    }
    out
}
