//! The playground page's colours from the debugger's theme: the whole page (header, editor, gutter,
//! diagnostics, borders) takes the theme the screen is drawn in, so a light theme is light everywhere and
//! `t` recolours the page with the screen.

use ratatui::style::Color;

use crate::tui::theme::Theme;
use crate::tui::view::html::{css_color, named_rgb};

/// The page's CSS custom properties for `theme`, as one `style` attribute's text (`--bg:#2e3440;...`), with
/// `color-scheme` so the browser's own widgets (scroll bars, the file list) match, and `--theme`, its name
/// (the page opens the next file in it).
pub fn theme_vars(theme: &Theme) -> String {
    let bg = rgb(theme.background.0).unwrap_or((0x2e, 0x34, 0x40));
    let fg = rgb(theme.foreground.0).unwrap_or((0xd8, 0xde, 0xe9));
    let hex = |(r, g, b): (u8, u8, u8)| format!("#{r:02x}{g:02x}{b:02x}");
    let or = |c: Color, fallback: (u8, u8, u8)| css_color(c).unwrap_or_else(|| hex(fallback));
    // Panels (header controls, the gutter) sit a little towards the foreground from the background.
    let panel = mix(bg, fg, 0.07);
    let scheme = if luminance(bg) > 0.5 { "light" } else { "dark" };
    format!(
        "--bg:{};--fg:{};--panel:{};--border:{};--accent:{};--dim:{};--error:{};color-scheme:{scheme};--theme:{}",
        hex(bg),
        hex(fg),
        hex(panel),
        or(theme.border.0, mix(bg, fg, 0.3)),
        or(theme.title.0, fg),
        or(theme.dim.0, mix(bg, fg, 0.5)),
        or(theme.breakpoint.0, fg),
        theme.name,
    )
}

fn rgb(c: Color) -> Option<(u8, u8, u8)> {
    match c {
        Color::Rgb(r, g, b) => Some((r, g, b)),
        named => named_rgb(named),
    }
}

/// `a` moved by `t` (0 to 1) towards `b`.
fn mix(a: (u8, u8, u8), b: (u8, u8, u8), t: f64) -> (u8, u8, u8) {
    let m = |x: u8, y: u8| (f64::from(x) + (f64::from(y) - f64::from(x)) * t).round() as u8;
    (m(a.0, b.0), m(a.1, b.1), m(a.2, b.2))
}

/// Relative luminance (0 black, 1 white), near enough to tell a light background from a dark one.
fn luminance((r, g, b): (u8, u8, u8)) -> f64 {
    (0.2126 * f64::from(r) + 0.7152 * f64::from(g) + 0.0722 * f64::from(b)) / 255.0
}

#[cfg(test)]
#[allow(clippy::unwrap_used)] // a test's unwrap is its assertion
mod tests {
    use super::*;

    #[test]
    fn light_and_dark_themes_give_their_own_page_colours() {
        let light = theme_vars(&Theme::load("light").unwrap());
        assert_eq!(
            light,
            "--bg:#ffffff;--fg:#1f2328;--panel:#eff0f0;--border:#afb8c1;--accent:#0550ae;--dim:#6e7781;\
             --error:#cf222e;color-scheme:light;--theme:light"
        );
        let dark = theme_vars(&Theme::default_dark());
        assert!(dark.ends_with("color-scheme:dark;--theme:dark"), "{dark}");
        assert!(dark.starts_with("--bg:#"), "{dark}");
    }
}
