//! The byte streams ktui reads from the server: the watch stream's line framing and event
//! decoding (`ktui::kube::informer::lines`, with the pod slim type the informer uses), and the
//! container-log line splitter and parser (`ktui::kube::logs::lines`).
//!
//! Input: byte 0 is the line cap (the watch cap is `16 + b`, the log splitter's `b`, which it
//! raises to 16), byte 1 seeds the log chunking, the rest is the stream.
//!
//! Properties (watch): the decoder yields exactly what a reference framing predicts — one
//! item per non-blank line, each equal to `decode` of that line, a line longer than the cap
//! ends the stream with an error instead of being yielded, invalid UTF-8 ends it too; every
//! failure text and unreadable-object name is one clean line of at most 160 characters.
//! (logs): however the bytes are chunked, the lines are those of a reference split, none
//! longer than the cap nor holding a newline, with the cut counted; a parsed line is clean.
#![no_main]

use futures::StreamExt;
use ktui::kube::failure::Failure;
use ktui::kube::informer::lines::{decode, lines_capped, Line};
use ktui::kube::logs::lines::{parse, RawLine, Splitter};
use ktui::table::PodObj;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let [cap, seed, body @ ..] = data else {
        return;
    };
    watch(16 + usize::from(*cap), body);
    logs(usize::from(*cap), *seed, body);
});

fn shown(item: &Result<Line<PodObj>, Failure>) -> String {
    match item {
        Ok(Line::Unreadable { what, .. }) => check_line("unreadable", what),
        Err(Failure::Rejected(s) | Failure::Unreachable(s) | Failure::Other(s)) => check_line("failure", s),
        _ => {}
    }
    format!("{item:?}")
}

fn check_line(what: &str, s: &str) {
    ktui_fuzz::assert_clean(what, s);
    assert!(s.chars().count() <= 160, "{what} longer than 160 chars: {s:?}");
}

fn watch(cap: usize, body: &[u8]) {
    let got: Vec<String> = futures::executor::block_on(
        lines_capped::<PodObj>(kube::client::Body::from(body.to_vec()), "pod", cap)
            .map(|i| shown(&i))
            .collect(),
    );
    let mut want = Vec::new();
    let mut rest = body;
    loop {
        let seg = match rest.iter().position(|&b| b == b'\n') {
            Some(i) => {
                let seg = &rest[..i];
                rest = &rest[i + 1..];
                seg
            }
            None if rest.is_empty() => break,
            None => std::mem::take(&mut rest),
        };
        if seg.len() > cap {
            want.push("TooLong".to_owned());
            break;
        }
        let seg = seg.strip_suffix(b"\r").unwrap_or(seg);
        let Ok(line) = std::str::from_utf8(seg) else {
            want.push("Broken".to_owned());
            break;
        };
        let line = line.trim();
        if !line.is_empty() {
            want.push(shown(&decode::<PodObj>(line.as_bytes(), "pod")));
        }
    }
    assert_eq!(got.len(), want.len(), "items: got {got:?}, want {want:?}");
    for (g, w) in got.iter().zip(&want) {
        match w.as_str() {
            "TooLong" => assert!(g.contains("longer than"), "{g}"),
            "Broken" => assert!(g.contains("watch stream broke"), "{g}"),
            _ => assert_eq!(g, w),
        }
    }
}

fn logs(max: usize, seed: u8, body: &[u8]) {
    let cap = max.max(16);
    let mut want = Vec::new();
    let mut segs: Vec<&[u8]> = body.split(|&b| b == b'\n').collect();
    if segs.last().is_some_and(|s| s.is_empty()) {
        segs.pop();
    }
    for seg in segs {
        let keep = seg.len().min(cap);
        let mut bytes = seg[..keep].to_vec();
        let cut = seg.len() - keep;
        if cut == 0 && bytes.last() == Some(&b'\r') {
            bytes.pop();
        }
        want.push(RawLine { bytes, cut });
    }
    for chunking in [0, seed] {
        let mut s = Splitter::new(max);
        let mut got = Vec::new();
        let mut rest = body;
        let mut step = usize::from(chunking);
        while !rest.is_empty() {
            let n = if chunking == 0 { rest.len() } else { 1 + step % 7 }.min(rest.len());
            step = step.wrapping_mul(31).wrapping_add(7);
            s.push(&rest[..n], &mut |l| got.push(l));
            rest = &rest[n..];
        }
        got.extend(s.finish());
        assert_eq!(got, want, "log lines with chunking {chunking}");
    }
    for raw in &want {
        assert!(raw.bytes.len() <= cap && !raw.bytes.contains(&b'\n'));
        for ts in [false, true] {
            let p = parse(raw, ts);
            ktui_fuzz::assert_clean("log line", &p.text);
            if raw.cut > 0 {
                assert!(p.text.contains("[cut "), "cut not said: {:?}", p.text);
            }
        }
    }
}
