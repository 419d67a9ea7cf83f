//! Whatever a page sends, the playground's debugger never panics: random key names (every binding of the
//! keymap, and junk), clicks and wheel turns anywhere, any screen size, in both models; and any bytes
//! opened as a recording give a result or an error. (A panic in the page's WebAssembly is a trap: the page
//! would stop.)

use proptest::prelude::*;
use proptest::test_runner::{Config, FileFailurePersistence};

use warpdbg::front::launch::Mode;
use warpdbg::tui::keymap::Keymap;
use warpdbg::tui::recording::Recording;
use warpdbg::web::Playground;

const DEADLOCK: &str = include_str!("../kernels/deadlock.cu");

/// What a page can do: press a key (by index into the key names), click or turn the wheel at a cell, draw at a
/// size, or let a frame pass.
#[derive(Clone, Debug)]
enum Input {
    Key(usize),
    Junk(String),
    Mouse(u32, u16, u16),
    Draw(u16, u16),
    Tick,
}

fn input() -> impl Strategy<Value = Input> {
    prop_oneof![
        6 => (0usize..1000).prop_map(Input::Key),
        1 => "[ -~]{0,12}".prop_map(Input::Junk),
        2 => (0u32..5, 0u16..300, 0u16..120).prop_map(|(b, c, r)| Input::Mouse(b, c, r)),
        1 => (20u16..260, 10u16..90).prop_map(|(c, r)| Input::Draw(c, r)),
        1 => Just(Input::Tick),
    ]
}

fn config() -> Config {
    Config { cases: 48, failure_persistence: Some(Box::new(FileFailurePersistence::Off)), ..Config::default() }
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn any_inputs_leave_a_drawable_debugger(its in any::<bool>(), inputs in prop::collection::vec(input(), 1..40)) {
        let keys: Vec<String> = Keymap::default_map().bindings.keys().map(|k| {
            let name = k.label().to_ascii_lowercase().replace("shift-tab", "backtab").replace("pgup", "pageup")
                .replace("pgdn", "pagedown");
            if name == " " { "space".to_string() } else { name }
        }).collect();
        let mut p = Playground::new();
        let mode = if its { Mode::Its } else { Mode::PreVolta };
        p.open("deadlock.cu", DEADLOCK, Some(mode)).expect("opens");
        let (mut cols, mut rows) = (120u16, 40u16);
        for i in &inputs {
            match i {
                Input::Key(k) => { p.key(&keys[k % keys.len()]); }
                Input::Junk(s) => { p.key(s); }
                Input::Mouse(b, c, r) => { p.mouse(*b, *c, *r); }
                Input::Draw(c, r) => (cols, rows) = (*c, *r),
                Input::Tick => { p.tick(); }
            }
            let html = p.html(cols, rows);
            prop_assert_eq!(html.lines().count(), rows as usize);
        }
    }

    #[test]
    fn any_bytes_as_a_recording_give_an_answer(bytes in prop::collection::vec(any::<u8>(), 0..400)) {
        let _ = Recording::parse(&bytes, std::path::Path::new("r.wdbg"));
        let mut p = Playground::new();
        if let Err(e) = p.open_recording(&bytes) {
            prop_assert!(!e.is_empty());
        }
    }
}
