//! Key bindings as data: the defaults are a RON file built into the binary; a user file (`--keys PATH`, or
//! `$XDG_CONFIG_HOME/warpdbg/keys.ron`) adds or replaces bindings.

use std::collections::BTreeMap;

use serde::Deserialize;

use super::action::Action;

pub const DEFAULT_KEYMAP: &str = include_str!("default_keymap.ron");

#[derive(Debug, Deserialize)]
struct KeymapFile {
    bindings: BTreeMap<String, Action>,
}

/// A key as written in keymap files: `q`, `G`, `ctrl-c`, `shift-tab`, `f5`, `space`, `pagedown`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Key {
    pub code: KeyCodeRepr,
    pub ctrl: bool,
    pub alt: bool,
}

/// The keys keymaps name (crossterm's and the browser's keys map onto these), orderable for display.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum KeyCodeRepr {
    Char(char),
    F(u8),
    Enter,
    Esc,
    Tab,
    BackTab,
    Up,
    Down,
    Left,
    Right,
    PageUp,
    PageDown,
    Home,
    End,
    Backspace,
}

impl Key {
    pub fn parse(s: &str) -> Option<Key> {
        let mut ctrl = false;
        let mut alt = false;
        let mut rest = s;
        loop {
            let lower = rest.to_ascii_lowercase();
            if lower.starts_with("ctrl-") && rest.len() > 5 {
                ctrl = true;
                rest = &rest[5..];
            } else if lower.starts_with("alt-") && rest.len() > 4 {
                alt = true;
                rest = &rest[4..];
            } else {
                break;
            }
        }
        let code = match rest.to_ascii_lowercase().as_str() {
            "enter" | "return" => KeyCodeRepr::Enter,
            "esc" | "escape" => KeyCodeRepr::Esc,
            "tab" => KeyCodeRepr::Tab,
            "backtab" | "shift-tab" => KeyCodeRepr::BackTab,
            "up" => KeyCodeRepr::Up,
            "down" => KeyCodeRepr::Down,
            "left" => KeyCodeRepr::Left,
            "right" => KeyCodeRepr::Right,
            "pageup" | "pgup" => KeyCodeRepr::PageUp,
            "pagedown" | "pgdn" => KeyCodeRepr::PageDown,
            "home" => KeyCodeRepr::Home,
            "end" => KeyCodeRepr::End,
            "backspace" => KeyCodeRepr::Backspace,
            "space" => KeyCodeRepr::Char(' '),
            f if f.len() >= 2 && f.starts_with('f') && f[1..].parse::<u8>().is_ok() => {
                KeyCodeRepr::F(f[1..].parse().ok()?)
            }
            _ => {
                let mut chars = rest.chars();
                let c = chars.next()?;
                if chars.next().is_some() {
                    return None;
                }
                KeyCodeRepr::Char(if ctrl { c.to_ascii_lowercase() } else { c })
            }
        };
        Some(Key { code, ctrl, alt })
    }

    /// How the help overlay writes it.
    pub fn label(&self) -> String {
        let base = match self.code {
            KeyCodeRepr::Char(' ') => "Space".to_string(),
            KeyCodeRepr::Char(c) => c.to_string(),
            KeyCodeRepr::F(n) => format!("F{n}"),
            KeyCodeRepr::BackTab => "Shift-Tab".into(),
            KeyCodeRepr::PageUp => "PgUp".into(),
            KeyCodeRepr::PageDown => "PgDn".into(),
            other => format!("{other:?}"),
        };
        let mut s = String::new();
        if self.ctrl {
            s.push_str("Ctrl-");
        }
        if self.alt {
            s.push_str("Alt-");
        }
        s + &base
    }
}

#[derive(Clone, Debug)]
pub struct Keymap {
    pub bindings: BTreeMap<Key, Action>,
}

impl Keymap {
    pub fn parse(text: &str) -> Result<Keymap, String> {
        let file: KeymapFile = ron::from_str(text).map_err(|e| e.to_string())?;
        let mut bindings = BTreeMap::new();
        for (k, a) in file.bindings {
            let key = Key::parse(&k).ok_or_else(|| format!("unknown key `{k}`"))?;
            bindings.insert(key, a);
        }
        Ok(Keymap { bindings })
    }

    pub fn default_map() -> Keymap {
        Keymap::parse(DEFAULT_KEYMAP).expect("the built-in keymap parses")
    }

    /// The defaults, patched by a user file.
    pub fn with_overrides(text: &str) -> Result<Keymap, String> {
        let mut map = Keymap::default_map();
        map.bindings.extend(Keymap::parse(text)?.bindings);
        Ok(map)
    }

    /// The action bound to a key. (Shift+letter arrives as the upper-case character; the SHIFT flag is not
    /// part of a key.)
    pub fn action(&self, key: &Key) -> Option<Action> {
        self.bindings.get(key).copied()
    }

    /// The key the footer and the banner name for an action: its shortest (as the help lists them first).
    pub fn first_key(&self, action: Action) -> Option<String> {
        self.bindings
            .iter()
            .filter(|(_, a)| **a == action)
            .map(|(k, _)| k.label())
            .min_by_key(|k| (k.chars().count(), k.clone()))
    }

    /// Keys per action, in a stable order, for the help overlay.
    pub fn by_action(&self) -> Vec<(Action, Vec<String>)> {
        let mut out: Vec<(Action, Vec<String>)> = vec![];
        for (k, a) in &self.bindings {
            match out.iter_mut().find(|(x, _)| x == a) {
                Some((_, keys)) => keys.push(k.label()),
                None => out.push((*a, vec![k.label()])),
            }
        }
        out.sort_by_key(|(a, _)| ACTION_ORDER.iter().position(|x| x == a).unwrap_or(usize::MAX));
        // Short keys first: the footer shows the first.
        for (_, keys) in &mut out {
            keys.sort_by_key(|k| (k.chars().count(), k.clone()));
        }
        out
    }
}

/// The order of the help overlay.
const ACTION_ORDER: [Action; 43] = [
    Action::Step,
    Action::StepBack,
    Action::Goto,
    Action::StepLine,
    Action::Continue,
    Action::NextLaunch,
    Action::PrevLaunch,
    Action::ToggleBreakpoint,
    Action::ToggleBreakOnDivergence,
    Action::BreakSpec,
    Action::QuizHere,
    Action::NextWarp,
    Action::PrevWarp,
    Action::NextBlock,
    Action::PrevBlock,
    Action::NextLane,
    Action::PrevLane,
    Action::JumpToBranch,
    Action::BankView,
    Action::CoalescingView,
    Action::Search,
    Action::SearchNext,
    Action::GotoLine,
    Action::ScrollLeft,
    Action::ScrollRight,
    Action::ScrollBanner,
    Action::Up,
    Action::Down,
    Action::PageUp,
    Action::PageDown,
    Action::Top,
    Action::Bottom,
    Action::FocusNext,
    Action::FocusPrev,
    Action::Activate,
    Action::SwitchMode,
    Action::Compare,
    Action::Restart,
    Action::NextTheme,
    Action::Note,
    Action::Help,
    Action::Close,
    Action::Quit,
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_keymap_has_the_conventions() {
        let m = Keymap::default_map();
        let get = |s: &str| m.bindings.get(&Key::parse(s).expect("key")).copied();
        assert_eq!(get("q"), Some(Action::Quit));
        assert_eq!(get("ctrl-c"), Some(Action::Quit));
        assert_eq!(get("?"), Some(Action::Help));
        assert_eq!(get("esc"), Some(Action::Close));
        assert_eq!(get("down"), Some(Action::Down));
        assert_eq!(get("j"), Some(Action::Down));
        assert_eq!(get("s"), Some(Action::Step));
    }

    #[test]
    fn user_file_overrides_one_key() {
        let m = Keymap::with_overrides(r#"(bindings: {"x": Quit})"#).expect("parses");
        assert_eq!(m.bindings.get(&Key::parse("x").expect("key")), Some(&Action::Quit));
        assert_eq!(m.bindings.get(&Key::parse("s").expect("key")), Some(&Action::Step));
    }
}
