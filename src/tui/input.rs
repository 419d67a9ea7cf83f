//! Input as the debugger's state machine sees it, the same from every front end: keys are keymap [`Key`]s,
//! mouse events are a [`Mouse`] at a cell. The terminal converts crossterm's events (`terminal.rs`), the web
//! page converts the browser's, and a recording names them as [`MouseButton::name`] does.

pub use super::keymap::{Key, KeyCodeRepr};
use crate::tui::recording::MOUSE_BUTTONS;

/// Which button a mouse event is; in the order recordings list their names
/// ([`crate::tui::recording::MOUSE_BUTTONS`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MouseButton {
    /// A left click.
    Left,
    /// Any other button's click.
    Other,
    ScrollUp,
    ScrollDown,
}

impl MouseButton {
    const ALL: [MouseButton; 4] =
        [MouseButton::Left, MouseButton::Other, MouseButton::ScrollUp, MouseButton::ScrollDown];

    /// The name recordings use.
    pub fn name(self) -> &'static str {
        MOUSE_BUTTONS[self as usize]
    }

    /// The button a recording names (unknown names are another button's click, as the recorder never writes
    /// them).
    pub fn from_name(name: &str) -> MouseButton {
        MOUSE_BUTTONS.iter().position(|n| *n == name).map_or(MouseButton::Other, |i| MouseButton::ALL[i])
    }
}

/// A click or wheel turn at a screen cell (0-based column and row).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mouse {
    pub button: MouseButton,
    pub col: u16,
    pub row: u16,
}

#[cfg(feature = "native")]
mod from_crossterm {
    use super::{Key, KeyCodeRepr, Mouse, MouseButton};
    use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseEvent, MouseEventKind};

    impl Key {
        /// The key crossterm reports (None for keys no binding can name).
        pub fn from_event(e: &KeyEvent) -> Option<Key> {
            let ctrl = e.modifiers.contains(KeyModifiers::CONTROL);
            let alt = e.modifiers.contains(KeyModifiers::ALT);
            let code = match e.code {
                KeyCode::Char(c) => KeyCodeRepr::Char(if ctrl { c.to_ascii_lowercase() } else { c }),
                KeyCode::F(n) => KeyCodeRepr::F(n),
                KeyCode::Enter => KeyCodeRepr::Enter,
                KeyCode::Esc => KeyCodeRepr::Esc,
                KeyCode::Tab => KeyCodeRepr::Tab,
                KeyCode::BackTab => KeyCodeRepr::BackTab,
                KeyCode::Up => KeyCodeRepr::Up,
                KeyCode::Down => KeyCodeRepr::Down,
                KeyCode::Left => KeyCodeRepr::Left,
                KeyCode::Right => KeyCodeRepr::Right,
                KeyCode::PageUp => KeyCodeRepr::PageUp,
                KeyCode::PageDown => KeyCodeRepr::PageDown,
                KeyCode::Home => KeyCodeRepr::Home,
                KeyCode::End => KeyCodeRepr::End,
                KeyCode::Backspace => KeyCodeRepr::Backspace,
                _ => return None,
            };
            Some(Key { code, ctrl, alt })
        }
    }

    impl Mouse {
        /// The click or wheel turn crossterm reports (None for moves, drags and releases).
        pub fn from_event(e: &MouseEvent) -> Option<Mouse> {
            let button = match e.kind {
                MouseEventKind::Down(crossterm::event::MouseButton::Left) => MouseButton::Left,
                MouseEventKind::Down(_) => MouseButton::Other,
                MouseEventKind::ScrollDown => MouseButton::ScrollDown,
                MouseEventKind::ScrollUp => MouseButton::ScrollUp,
                _ => return None,
            };
            Some(Mouse { button, col: e.column, row: e.row })
        }
    }
}
