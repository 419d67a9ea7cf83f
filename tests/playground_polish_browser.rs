//! The playground page's finish (issue 35, item 4) in headless Chromium: the glyphs of the debugger's screen
//! are whole at 100 % and 200 % zoom (an underscore at the bottom of its cell is not painted over by the next
//! row: the pixel rows under a `_` are read back from a screenshot), the theme the page was exported with
//! colours the whole page and `t` recolours it with the screen, and a file given on the command line that is
//! also bundled is listed once.
//!
//! The page's WebAssembly must be built first (`bash .ci/page`, which `.ci/test` runs).

mod browser;
mod session_support;

use std::path::{Path, PathBuf};

use base64::Engine;
use browser::{Browser, export_playground};
use serde_json::{Value, json};
use session_support::*;
use warpdbg::tui::theme::Theme;
use warpdbg::web::style::theme_vars;

/// `warpdbg export --playground` of `files` in `theme` into `dir`; the page's path.
fn export(dir: &Path, wasm: &Path, theme: &str, files: &[&str]) -> PathBuf {
    let page = dir.join("page.html");
    export_playground(&repo(""), &page, &[files, &["--theme", theme]].concat(), wasm);
    page
}

/// A CSS colour property of the theme's page colours (`--bg`) as the browser computes it (`rgb(r, g, b)`).
fn theme_rgb(theme: &str, var: &str) -> String {
    let vars = theme_vars(&Theme::load(theme).unwrap());
    let hex = vars.split(';').find_map(|kv| kv.strip_prefix(&format!("{var}:"))).unwrap().to_string();
    let c = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).unwrap();
    format!("rgb({}, {}, {})", c(1), c(3), c(5))
}

/// The background most of the screen's cells are drawn on.
fn screen_background(b: &mut Browser) -> String {
    let js = "(() => { const n = {}; for (const s of document.querySelectorAll('#screen span')) { \
              const c = getComputedStyle(s).backgroundColor; n[c] = (n[c] || 0) + s.textContent.length; } \
              return Object.entries(n).sort((a, b) => b[1] - a[1])[0][0]; })()";
    b.eval(js).as_str().unwrap().to_string()
}

fn computed(b: &mut Browser, selector: &str, property: &str) -> String {
    let js = format!("getComputedStyle(document.querySelector({})).{property}", json!(selector));
    b.eval(&js).as_str().unwrap().to_string()
}

/// The pixels of a PNG as RGB rows.
fn decode_png(bytes: &[u8]) -> (usize, usize, Vec<[u8; 3]>) {
    let mut reader = png::Decoder::new(std::io::Cursor::new(bytes)).read_info().unwrap();
    let mut buf = vec![0; reader.output_buffer_size().unwrap()];
    let info = reader.next_frame(&mut buf).unwrap();
    let channels = info.color_type.samples();
    assert_eq!(info.bit_depth, png::BitDepth::Eight);
    let px = buf[..info.buffer_size()].chunks(channels).map(|p| [p[0], p[1], p[2]]).collect();
    (info.width as usize, info.height as usize, px)
}

/// The screen's first cell holding `_` whose row is followed by another row: its box in CSS pixels
/// (left, top, width, height of one row).
fn underscore_cell(b: &mut Browser) -> [f64; 4] {
    let v = b.eval(
        "(() => { const s = document.getElementById('screen'); \
         const w = document.createTreeWalker(s, NodeFilter.SHOW_TEXT); \
         const m = document.getElementById('measure').getBoundingClientRect(); \
         for (let n = w.nextNode(); n; n = w.nextNode()) { \
           const i = n.data.indexOf('_'); if (i < 0) continue; \
           const r = document.createRange(); r.setStart(n, i); r.setEnd(n, i + 1); \
           const c = r.getBoundingClientRect(), box = n.parentElement.getBoundingClientRect(); \
           return [c.left, box.top, c.width, m.height]; } return null; })()",
    );
    serde_json::from_value(v).expect("an underscore on the screen")
}

/// At `zoom` (the browser's zoom: the same window, `zoom` device pixels to a CSS pixel), the screen is
/// refitted and a `_` keeps its stroke: among the pixel rows of its cell's lower half, one is mostly ink
/// (unlike the background at the cell's top left). The screenshot is saved for people to look at.
fn underscore_is_whole(b: &mut Browser, zoom: f64, shot: &str) {
    b.call(
        "Emulation.setDeviceMetricsOverride",
        json!({"width": (1600.0 / zoom) as u32, "height": (1000.0 / zoom) as u32, "deviceScaleFactor": zoom, "mobile": false}),
    );
    b.eval("window.dispatchEvent(new Event('resize'))");
    let [x, y, w, h] = underscore_cell(b);
    let whole: Value = b.call("Page.captureScreenshot", json!({"format": "png"}));
    let png = base64::engine::general_purpose::STANDARD.decode(whole["data"].as_str().unwrap()).unwrap();
    std::fs::write(repo(&format!("target/{shot}")), &png).unwrap();
    let (width, _, px) = decode_png(&png);
    let at = |cx: f64, cy: f64| px[(cy * zoom) as usize * width + (cx * zoom) as usize];
    let bg = at(x + 0.5 / zoom, y + 0.5 / zoom);
    let far = |p: [u8; 3]| p.iter().zip(bg).map(|(a, b)| a.abs_diff(b) as u32).sum::<u32>() > 90;
    let (cols, rows) = ((w * zoom) as usize, (h * zoom) as usize);
    let inked: Vec<usize> = (rows / 2..rows)
        .map(|r| (0..cols).filter(|&c| far(at(x + c as f64 / zoom, y + r as f64 / zoom))).count())
        .collect();
    assert!(
        inked.iter().any(|&n| n * 2 >= cols),
        "at {zoom}x the `_` at ({x}, {y}) has no stroke in its cell's lower half: ink per pixel row {inked:?} \
         of {cols} (see target/{shot})"
    );
}

#[test]
fn the_page_is_finished_at_any_zoom_and_in_any_theme() {
    let Some(wasm) = browser::playground_wasm() else { return };
    let dir = scratch("playground-polish");
    // deadlock.cu is also bundled: given on the command line, it is listed once (and opens first).
    let page = export(&dir, &wasm, "light", &["kernels/deadlock.cu"]);
    let mut b = Browser::launch(&dir.join("profile"));
    b.open(&format!("file://{}", page.display()));
    b.wait_until("window.warpdbgFirstScreen !== undefined", "the first screen");

    let names: Vec<String> =
        serde_json::from_value(b.eval("[...document.getElementById('files').options].map(o => o.textContent)"))
            .unwrap();
    assert_eq!(names.iter().filter(|n| *n == "deadlock.cu").count(), 1, "{names:?}");
    assert_eq!(names[0], "deadlock.cu");
    let bundled = warpdbg::web::export::BUNDLED.len();
    assert_eq!(names.len(), bundled, "{names:?}");

    // The light theme everywhere: the header, the editor, the gutter's panel colour and the screen itself.
    let (light_bg, light_panel) = (theme_rgb("light", "--bg"), theme_rgb("light", "--panel"));
    assert_eq!(computed(&mut b, "body", "backgroundColor"), light_bg);
    assert_eq!(computed(&mut b, "#source", "backgroundColor"), light_bg);
    assert_eq!(computed(&mut b, "#gutter", "backgroundColor"), light_panel);
    assert_eq!(computed(&mut b, "#source", "color"), theme_rgb("light", "--fg"));
    assert_eq!(screen_background(&mut b), light_bg, "the screen is drawn in light");
    assert_eq!(computed(&mut b, "html", "colorScheme"), "light");

    // `t`: the next theme, on the screen and on the page alike.
    b.focus_screen();
    b.key("t");
    let next = "high-contrast";
    assert!(b.eval("window.warpdbg.text()").as_str().unwrap().contains(&format!("theme {next}")));
    assert_eq!(computed(&mut b, "body", "backgroundColor"), theme_rgb(next, "--bg"));
    assert_eq!(computed(&mut b, "#gutter", "backgroundColor"), theme_rgb(next, "--panel"));
    assert_eq!(screen_background(&mut b), theme_rgb(next, "--bg"));

    // A whole program (debugged in the page's worker) opens in the theme chosen.
    b.pick("programs/vector_add.cu");
    b.wait_until("window.warpdbgProgramScreen !== undefined", "the program's first screen");
    assert_eq!(screen_background(&mut b), theme_rgb(next, "--bg"), "the program's screen");
    assert_eq!(computed(&mut b, "body", "backgroundColor"), theme_rgb(next, "--bg"));
    b.pick("deadlock.cu");

    // Back to the dark theme (the default), where the underscores were lost; then both zooms.
    for _ in 0..2 {
        b.press("t", u32::from(b'T'));
    }
    assert_eq!(computed(&mut b, "body", "backgroundColor"), theme_rgb("dark", "--bg"));
    underscore_is_whole(&mut b, 1.0, "playground-zoom100.png");
    underscore_is_whole(&mut b, 2.0, "playground-zoom200.png");
}
