//! The ring buffer of one log view: lines in arrival order, each with a sequence number that
//! never repeats, bounded in lines and in bytes; overflow drops the oldest lines and counts
//! them. Pure data; must not read streams or format for a screen.

use std::collections::VecDeque;

use jiff::Timestamp;

/// Fixed cost counted per line on top of its text (the struct, the deque slot).
const LINE_OVERHEAD: usize = 48;

/// One line of a log view.
#[derive(Debug, Clone, PartialEq)]
pub struct LogLine {
    /// Position in the view's whole stream (the first line ever is 0); never reused.
    pub seq: u64,
    /// Index of the source (pod/container) in the view's source table.
    pub source: u32,
    /// The kubelet's timestamp of the line (`timestamps=true`).
    pub ts: Option<Timestamp>,
    /// The line, ANSI-stripped and sanitized.
    pub text: Box<str>,
}

/// A bounded ring of [`LogLine`]s.
#[derive(Debug)]
pub struct LogBuffer {
    lines: VecDeque<LogLine>,
    bytes: usize,
    max_lines: usize,
    max_bytes: usize,
    dropped: u64,
    next_seq: u64,
}

impl LogBuffer {
    /// An empty buffer keeping at most `max_lines` lines and about `max_bytes` bytes.
    pub fn new(max_lines: usize, max_bytes: usize) -> LogBuffer {
        LogBuffer {
            lines: VecDeque::new(),
            bytes: 0,
            max_lines: max_lines.max(1),
            max_bytes: max_bytes.max(1024),
            dropped: 0,
            next_seq: 0,
        }
    }

    /// Appends a line; drops the oldest ones while a bound is exceeded. Returns its seq.
    pub fn push(&mut self, source: u32, ts: Option<Timestamp>, text: Box<str>) -> u64 {
        let seq = self.next_seq;
        self.next_seq += 1;
        self.bytes += text.len() + LINE_OVERHEAD;
        self.lines.push_back(LogLine {
            seq,
            source,
            ts,
            text,
        });
        while self.lines.len() > self.max_lines || (self.bytes > self.max_bytes && self.lines.len() > 1) {
            if let Some(old) = self.lines.pop_front() {
                self.bytes -= old.text.len() + LINE_OVERHEAD;
                self.dropped += 1;
            }
        }
        seq
    }

    /// Lines held.
    pub fn len(&self) -> usize {
        self.lines.len()
    }

    /// Whether no line is held.
    pub fn is_empty(&self) -> bool {
        self.lines.is_empty()
    }

    /// Bytes counted for the lines held (text plus a fixed per-line cost).
    pub fn bytes(&self) -> usize {
        self.bytes
    }

    /// Lines dropped by the bounds since the buffer was made.
    pub fn dropped(&self) -> u64 {
        self.dropped
    }

    /// The seq of the oldest line held (== `next_seq` when empty).
    pub fn first_seq(&self) -> u64 {
        self.lines.front().map_or(self.next_seq, |l| l.seq)
    }

    /// The seq the next line will get.
    pub fn next_seq(&self) -> u64 {
        self.next_seq
    }

    /// The line with sequence number `seq`, if still held.
    pub fn get(&self, seq: u64) -> Option<&LogLine> {
        let i = seq.checked_sub(self.first_seq())?;
        self.lines.get(usize::try_from(i).ok()?)
    }

    /// Lines held with `seq >= from`, oldest first.
    pub fn since(&self, from: u64) -> impl Iterator<Item = &LogLine> {
        let skip = from.saturating_sub(self.first_seq());
        self.lines
            .iter()
            .skip(usize::try_from(skip).unwrap_or(usize::MAX))
    }

    /// Every line held, oldest first.
    pub fn iter(&self) -> impl Iterator<Item = &LogLine> {
        self.lines.iter()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(s: &str) -> Box<str> {
        s.into()
    }

    #[test]
    fn the_line_bound_drops_the_oldest_and_counts_them() {
        let mut b = LogBuffer::new(3, 1 << 20);
        for i in 0..10 {
            b.push(0, None, t(&format!("line {i}")));
        }
        assert_eq!((b.len(), b.dropped(), b.first_seq(), b.next_seq()), (3, 7, 7, 10));
        assert_eq!(b.get(7).map(|l| &*l.text), Some("line 7"));
        assert!(b.get(6).is_none() && b.get(10).is_none());
        let rest: Vec<_> = b.since(8).map(|l| l.seq).collect();
        assert_eq!(rest, [8, 9]);
        let all: Vec<_> = b.since(0).map(|l| l.seq).collect();
        assert_eq!(all, [7, 8, 9]);
    }

    #[test]
    fn the_byte_bound_holds_whatever_the_line_count() {
        let mut b = LogBuffer::new(1_000_000, 10_000);
        let line = "x".repeat(952);
        for _ in 0..1_000 {
            b.push(1, None, t(&line));
            assert!(b.bytes() <= 10_000);
        }
        assert_eq!(b.len(), 10);
        assert_eq!(b.dropped(), 990);
        // A single line larger than the bound is kept alone rather than lost.
        b.push(1, None, t(&"y".repeat(20_000)));
        assert_eq!(b.len(), 1);
    }
}
