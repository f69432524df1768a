//! The sanitizer every cluster, kubeconfig and keyboard string passes before it is drawn
//! (`ktui::kube::sanitize`), and the ANSI stripper the log view runs before it.
//!
//! Input: any bytes, read as UTF-8 (lossily, so invalid input still exercises the sanitizer).
//!
//! Properties: the output has no control, bidi or invisible format character (checked by
//! `ktui_fuzz::drawable`, not by the sanitizer's own table); sanitizing is idempotent; borrowed
//! output is the input; `sanitized_box` agrees with
//! `sanitize`; text that was already clean is returned unchanged; ANSI stripping never grows
//! the text and its sanitized output is clean too.
#![no_main]

use std::borrow::Cow;

use ktui::kube::logs::lines::strip_ansi;
use ktui::kube::sanitize::{sanitize, sanitized_box};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let s = String::from_utf8_lossy(data);
    let out = sanitize(&s);
    ktui_fuzz::assert_clean("sanitize", &out);
    let again = sanitize(&out);
    assert_eq!(again, out, "sanitize is not idempotent on {s:?}");
    if let Cow::Borrowed(b) = &out {
        assert_eq!(*b, &*s);
    }
    assert_eq!(&*sanitized_box(&s), &*out);
    if s.chars().all(ktui_fuzz::drawable) && !s.contains('\u{200d}') && !s.contains('\u{a0}') {
        // Only the space-like characters (NBSP, U+2000…, which `drawable` lets through but
        // the sanitizer shows as escapes) and a lone zero-width joiner may change clean text.
        let spacey = s.chars().any(|c| {
            matches!(c, '\u{ad}' | '\u{34f}' | '\u{115f}' | '\u{1160}' | '\u{1680}' | '\u{180e}'
                | '\u{2000}'..='\u{200a}' | '\u{202f}' | '\u{205f}'..='\u{2064}' | '\u{3000}'
                | '\u{3164}' | '\u{ffa0}')
        });
        if !spacey {
            assert_eq!(out, s, "clean text was changed");
        }
    }
    let stripped = strip_ansi(&s);
    assert!(stripped.len() <= s.len(), "strip_ansi grew {s:?}");
    ktui_fuzz::assert_clean("strip_ansi+sanitize", &sanitize(&stripped));
});
