//! Themes: RON files in `themes/` (built into the binary, so it works from any directory), chosen by
//! `--theme NAME|PATH`. `NO_COLOR` turns every colour off.

use std::str::FromStr;

use ratatui::style::{Color, Modifier, Style};
use serde::{Deserialize, Deserializer};

/// A colour written as a name (`red`, `lightcyan`) or `#rrggbb`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ThemeColor(pub Color);

impl<'de> Deserialize<'de> for ThemeColor {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Color::from_str(&s).map(ThemeColor).map_err(|_| serde::de::Error::custom(format!("unknown colour `{s}`")))
    }
}

#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct Theme {
    pub name: String,
    pub background: ThemeColor,
    pub foreground: ThemeColor,
    pub dim: ThemeColor,
    pub border: ThemeColor,
    pub border_focused: ThemeColor,
    pub title: ThemeColor,
    pub selection: ThemeColor,
    pub cursor: ThemeColor,
    pub keyword: ThemeColor,
    pub type_name: ThemeColor,
    pub number: ThemeColor,
    pub comment: ThemeColor,
    pub string: ThemeColor,
    pub builtin: ThemeColor,
    pub active_lane: ThemeColor,
    pub inactive_lane: ThemeColor,
    pub exited_lane: ThemeColor,
    pub breakpoint: ThemeColor,
    pub reconvergence: ThemeColor,
    pub warp_marker: ThemeColor,
    pub error_bg: ThemeColor,
    pub error_fg: ThemeColor,
    pub warn_bg: ThemeColor,
    pub warn_fg: ThemeColor,
    pub ok_bg: ThemeColor,
    pub ok_fg: ThemeColor,
    pub wait_line: ThemeColor,
    pub changed: ThemeColor,
    /// Set for `NO_COLOR`: styles use only bold/reverse/underline.
    #[serde(skip)]
    pub monochrome: bool,
}

/// The themes shipped with warpdbg.
pub const BUILTIN: [(&str, &str); 4] = [
    ("dark", include_str!("../../themes/dark.ron")),
    ("light", include_str!("../../themes/light.ron")),
    ("high-contrast", include_str!("../../themes/high-contrast.ron")),
    ("colorblind", include_str!("../../themes/colorblind.ron")),
];

impl Theme {
    /// A built-in theme by name, or a RON file by path.
    pub fn load(name_or_path: &str) -> Result<Theme, String> {
        Theme::parse(&Theme::text(name_or_path)?, name_or_path)
    }

    /// A theme's RON text: a built-in one's by name, else the file at the path (the playground page carries
    /// it, so the page's debugger opens in the theme it was exported with).
    pub fn text(name_or_path: &str) -> Result<String, String> {
        match BUILTIN.iter().find(|(n, _)| *n == name_or_path) {
            Some((_, t)) => Ok(t.to_string()),
            None => std::fs::read_to_string(name_or_path).map_err(|e| {
                let names: Vec<_> = BUILTIN.iter().map(|(n, _)| *n).collect();
                format!("no theme `{name_or_path}` ({e}); built-in themes: {}", names.join(", "))
            }),
        }
    }

    /// A theme from its RON text; `label` names it in the error.
    pub fn parse(text: &str, label: &str) -> Result<Theme, String> {
        ron::from_str(text).map_err(|e| format!("theme {label}: {e}"))
    }

    pub fn default_dark() -> Theme {
        Theme::load("dark").expect("the built-in dark theme parses")
    }

    pub fn monochrome(mut self) -> Theme {
        self.monochrome = true;
        self
    }

    fn c(&self, c: ThemeColor) -> Color {
        if self.monochrome { Color::Reset } else { c.0 }
    }

    pub fn base(&self) -> Style {
        Style::default().fg(self.c(self.foreground)).bg(self.c(self.background))
    }

    pub fn fg(&self, c: ThemeColor) -> Style {
        Style::default().fg(self.c(c))
    }

    pub fn dim(&self) -> Style {
        if self.monochrome { Style::default().add_modifier(Modifier::DIM) } else { self.fg(self.dim) }
    }

    pub fn border(&self, focused: bool) -> Style {
        if focused { self.fg(self.border_focused).add_modifier(Modifier::BOLD) } else { self.fg(self.border) }
    }

    pub fn selected(&self) -> Style {
        if self.monochrome {
            Style::default().add_modifier(Modifier::REVERSED)
        } else {
            Style::default().bg(self.c(self.selection))
        }
    }

    pub fn cursor_line(&self) -> Style {
        if self.monochrome {
            Style::default().add_modifier(Modifier::UNDERLINED)
        } else {
            Style::default().bg(self.c(self.cursor))
        }
    }

    pub fn banner(&self, kind: BannerKind) -> Style {
        let (bg, fg) = match kind {
            BannerKind::Error => (self.error_bg, self.error_fg),
            BannerKind::Warn => (self.warn_bg, self.warn_fg),
            BannerKind::Ok => (self.ok_bg, self.ok_fg),
        };
        if self.monochrome {
            Style::default().add_modifier(Modifier::REVERSED | Modifier::BOLD)
        } else {
            Style::default().bg(bg.0).fg(fg.0).add_modifier(Modifier::BOLD)
        }
    }

    pub fn wait_line(&self) -> Style {
        if self.monochrome {
            Style::default().add_modifier(Modifier::BOLD)
        } else {
            Style::default().bg(self.c(self.wait_line))
        }
    }

    /// A lane cell: active, inactive (exists but masked) or absent/exited.
    pub fn lane(&self, state: LaneLook) -> (char, Style) {
        match state {
            LaneLook::Active => ('█', self.fg(self.active_lane)),
            LaneLook::Inactive => ('░', self.fg(self.inactive_lane)),
            LaneLook::Gone => (' ', self.fg(self.exited_lane)),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BannerKind {
    Error,
    Warn,
    Ok,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LaneLook {
    Active,
    Inactive,
    Gone,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_builtin_theme_parses() {
        for (name, _) in BUILTIN {
            let t = Theme::load(name).unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(t.name, name);
        }
    }
}
