//! The config file (`ktui::config::parse`: TOML into `Config`, strict, with errors that name
//! line, column and key) and the keymap built from it (`config::keymap` merging `[keymap]`
//! over the defaults, key sequences parsed by `ktui::keys::KeyPress`).
//!
//! Input: UTF-8 text, the config file.
//!
//! Properties: parsing is deterministic; an error names a line and column inside the text
//! and is one clean line (it is printed to the terminal by `check-config` and at start-up);
//! the keymap of an accepted config resolves every binding it lists to an action (in its own
//! mode, through the chord-prefix lookup the key dispatcher uses), and each binding has one
//! press per word of its `on`.
#![no_main]

use std::path::Path;

use ktui::keys::{KeyMode, Lookup};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let path = Path::new("config.toml");
    let parsed = ktui::config::parse(path, text);
    assert_eq!(
        parsed.as_ref().err(),
        ktui::config::parse(path, text).as_ref().err()
    );
    let cfg = match parsed {
        Err(e) => {
            if let Some((line, col)) = e.position {
                let lines = text.split('\n').count();
                assert!(
                    line >= 1 && line <= lines && col >= 1,
                    "position {line}:{col} of {lines} lines"
                );
            }
            let shown = e.to_string();
            assert!(!shown.contains('\n'), "error is not one line: {shown:?}");
            ktui_fuzz::assert_clean("config error", &shown);
            return;
        }
        Ok(c) => c,
    };
    let _ = (cfg.timeline(), cfg.history(), cfg.theme_for(Some("x")));
    let keymap = cfg.keymap();
    for (mode, _) in KeyMode::ALL {
        for b in keymap.bindings(mode) {
            assert_eq!(
                b.seq.len(),
                b.on.split_whitespace().count(),
                "presses of {:?}",
                b.on
            );
            let (last, pending) = b.seq.split_last().expect("a binding has a key");
            match keymap.lookup(mode, pending, *last) {
                Lookup::Action(_) => {}
                other => panic!("{mode:?} binding {:?} looks up as {other:?}", b.on),
            }
        }
    }
});
