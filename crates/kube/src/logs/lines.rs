//! Bytes of a container log stream → lines: splitting across chunk boundaries, CRLF, invalid
//! UTF-8, a cut for huge lines, the kubelet's `timestamps=true` prefix parsed, ANSI escape
//! sequences stripped and every line sanitized. Pure; must not do I/O or hold lines.

use std::borrow::Cow;

use jiff::Timestamp;

use crate::sanitize::sanitize;

/// One complete line as it came from the stream, before parsing: its bytes (without the
/// line break) and how many bytes were cut off its end (0 when whole).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RawLine {
    /// The bytes kept (at most the splitter's `max_line`).
    pub bytes: Vec<u8>,
    /// Bytes dropped from the end of a line longer than `max_line`.
    pub cut: usize,
}

/// Splits a byte stream into lines; keeps the unfinished tail between chunks.
#[derive(Debug)]
pub struct Splitter {
    partial: Vec<u8>,
    cut: usize,
    max_line: usize,
}

impl Splitter {
    /// A splitter keeping at most `max_line` bytes of any one line (the rest is counted).
    pub fn new(max_line: usize) -> Splitter {
        Splitter {
            partial: Vec::new(),
            cut: 0,
            max_line: max_line.max(16),
        }
    }

    /// Feeds one chunk; calls `out` for every line it completes, in order.
    pub fn push(&mut self, mut chunk: &[u8], out: &mut impl FnMut(RawLine)) {
        while let Some(i) = chunk.iter().position(|&b| b == b'\n') {
            self.take(&chunk[..i]);
            out(self.line());
            chunk = &chunk[i + 1..];
        }
        self.take(chunk);
    }

    /// The stream ended: the unfinished last line, if any.
    pub fn finish(&mut self) -> Option<RawLine> {
        (!self.partial.is_empty() || self.cut > 0).then(|| self.line())
    }

    fn take(&mut self, bytes: &[u8]) {
        let room = self.max_line.saturating_sub(self.partial.len());
        let keep = bytes.len().min(room);
        self.partial.extend_from_slice(&bytes[..keep]);
        self.cut += bytes.len() - keep;
    }

    fn line(&mut self) -> RawLine {
        let mut bytes = std::mem::take(&mut self.partial);
        let cut = std::mem::take(&mut self.cut);
        if cut == 0 && bytes.last() == Some(&b'\r') {
            bytes.pop();
        }
        RawLine { bytes, cut }
    }
}

/// A parsed line: the kubelet's timestamp (when asked for with `timestamps=true`) and the
/// text, ANSI-stripped and sanitized, with ` … [cut N bytes]` when the line was cut.
#[derive(Debug, Clone, PartialEq)]
pub struct Parsed {
    /// The RFC 3339 timestamp the kubelet put before the line.
    pub ts: Option<Timestamp>,
    /// What to show.
    pub text: Box<str>,
}

/// Parses a raw line; `timestamps` says whether the stream was asked for them (a line whose
/// first word is not a timestamp then keeps it as text).
pub fn parse(raw: &RawLine, timestamps: bool) -> Parsed {
    let text = String::from_utf8_lossy(&raw.bytes);
    let (ts, rest) = if timestamps {
        split_ts(&text)
    } else {
        (None, &text[..])
    };
    let rest = rest.strip_suffix('\r').unwrap_or(rest);
    let stripped = strip_ansi(rest);
    let mut shown = sanitize(&stripped).into_owned();
    if raw.cut > 0 {
        shown.push_str(&format!(
            " … [cut {} bytes]",
            crate::text::thousands(raw.cut as u64)
        ));
    }
    Parsed {
        ts,
        text: shown.into_boxed_str(),
    }
}

/// `2026-12-01T08:00:00.123456789Z rest` → (timestamp, `rest`).
pub fn split_ts(line: &str) -> (Option<Timestamp>, &str) {
    let Some((head, rest)) = line.split_once(' ') else {
        return match line.parse::<Timestamp>() {
            Ok(t) if looks_like_ts(line) => (Some(t), ""),
            _ => (None, line),
        };
    };
    if !looks_like_ts(head) {
        return (None, line);
    }
    match head.parse::<Timestamp>() {
        Ok(t) => (Some(t), rest),
        Err(_) => (None, line),
    }
}

fn looks_like_ts(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() >= 20 && b[4] == b'-' && b[10] == b'T' && b[..4].iter().all(u8::is_ascii_digit)
}

/// Removes ANSI escape sequences (CSI `ESC [ … final`, OSC `ESC ] … BEL|ESC \`, two-byte
/// `ESC x`) that applications write for colour; other control characters stay for the
/// sanitizer to make visible.
pub fn strip_ansi(s: &str) -> Cow<'_, str> {
    if !s.contains('\u{1b}') && !s.contains('\u{9b}') {
        return Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut it = s.chars().peekable();
    while let Some(c) = it.next() {
        match c {
            '\u{1b}' => match it.peek() {
                Some('[') => {
                    it.next();
                    skip_csi(&mut it);
                }
                Some(']') => {
                    it.next();
                    while let Some(c) = it.next() {
                        if c == '\u{7}' || (c == '\u{1b}' && it.next_if_eq(&'\\').is_some()) {
                            break;
                        }
                    }
                }
                Some(_) => {
                    it.next();
                }
                None => {}
            },
            '\u{9b}' => skip_csi(&mut it),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

fn skip_csi(it: &mut std::iter::Peekable<std::str::Chars<'_>>) {
    for c in it.by_ref() {
        if ('\u{40}'..='\u{7e}').contains(&c) {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn split_all(chunks: &[&[u8]], max: usize) -> Vec<RawLine> {
        let mut s = Splitter::new(max);
        let mut out = Vec::new();
        for c in chunks {
            s.push(c, &mut |l| out.push(l));
        }
        out.extend(s.finish());
        out
    }

    #[test]
    fn lines_split_across_chunk_boundaries_and_crlf() {
        let lines = split_all(&[b"alpha\r", b"\nbe", b"ta\n\ngam", b"ma"], 1024);
        let text: Vec<_> = lines
            .iter()
            .map(|l| String::from_utf8_lossy(&l.bytes).into_owned())
            .collect();
        assert_eq!(text, ["alpha", "beta", "", "gamma"]);
        assert!(lines.iter().all(|l| l.cut == 0));
        assert!(
            split_all(&[b"x\n"], 1024).len() == 1,
            "no empty line after a final newline"
        );
    }

    #[test]
    fn a_huge_line_is_cut_with_a_marker_and_the_next_is_whole() {
        let big = vec![b'a'; 100_000];
        let lines = split_all(&[&big[..50_000], &big[50_000..], b"\nnext\n"], 64);
        assert_eq!(lines.len(), 2);
        assert_eq!((lines[0].bytes.len(), lines[0].cut), (64, 100_000 - 64));
        let p = parse(&lines[0], false);
        assert!(p.text.ends_with("… [cut 99,936 bytes]"), "{}", p.text);
        assert_eq!(&*parse(&lines[1], false).text, "next");
    }

    #[test]
    fn invalid_utf8_and_controls_are_made_visible_and_ansi_is_stripped() {
        let raw = RawLine {
            bytes: b"\x1b[31mred\x1b[0m \xff\xfe ok\x07 \x1b]0;title\x07end\ttab".to_vec(),
            cut: 0,
        };
        let p = parse(&raw, false);
        assert_eq!(&*p.text, "red \u{fffd}\u{fffd} ok\\u{7} end tab");
        assert!(!p.text.contains('\u{1b}'));
    }

    #[test]
    fn timestamps_are_parsed_off_the_front() {
        let raw = RawLine {
            bytes: b"2026-12-01T08:00:01.123456789Z GET /healthz 200\r".to_vec(),
            cut: 0,
        };
        let p = parse(&raw, true);
        assert_eq!(p.ts.map(|t| t.as_nanosecond()), Some(1_796_112_001_123_456_789));
        assert_eq!(&*p.text, "GET /healthz 200");
        let (ts, rest) = split_ts("not a timestamp");
        assert_eq!((ts, rest), (None, "not a timestamp"));
        let (ts, rest) = split_ts("2026-12-01T08:00:01Z");
        assert!(ts.is_some() && rest.is_empty());
    }
}
