//! What a log view shows of its ring buffer: the line filter (`/`: a literal substring by
//! default, a regex after `re:`, `!` in front excludes; smart case) and the list of visible
//! line sequence numbers, kept up to date incrementally while lines arrive and old ones are
//! evicted. Pure computation; must not lock, draw or read the clock.

use std::collections::VecDeque;

use regex::Regex;

use ktui_kube::logs::LogBuffer;

/// Prefix of a regex pattern in the `/` and search prompts.
pub const REGEX_PREFIX: &str = "re:";

/// A compiled line pattern.
#[derive(Debug, Clone)]
pub struct LineMatch {
    exclude: bool,
    how: How,
}

#[derive(Debug, Clone)]
enum How {
    /// Case-sensitive substring (the pattern has an upper-case letter).
    Exact(String),
    /// Case-insensitive substring (the pattern is lower-case), with the same search as a
    /// case-insensitive literal regex (its prefilters scan far faster than a byte-window loop).
    Folded(String, Regex),
    Regex(Regex),
}

impl LineMatch {
    /// Parses `text`: `!` excludes, `re:` makes the rest a regex, otherwise a substring,
    /// case-insensitive unless it has an upper-case letter. `Ok(None)` for an empty pattern;
    /// `Err` for a bad regex (the message says why).
    pub fn parse(text: &str) -> Result<Option<LineMatch>, String> {
        let (exclude, rest) = match text.strip_prefix('!') {
            Some(r) => (true, r),
            None => (false, text),
        };
        if rest.is_empty() {
            return Ok(None);
        }
        let how = match rest.strip_prefix(REGEX_PREFIX) {
            Some(re) => {
                let smart = if re.chars().any(char::is_uppercase) {
                    re.to_owned()
                } else {
                    format!("(?i){re}")
                };
                How::Regex(Regex::new(&smart).map_err(|e| {
                    let msg = e.to_string();
                    format!("bad regex: {}", msg.lines().last().unwrap_or(&msg))
                })?)
            }
            None if rest.chars().any(char::is_uppercase) => How::Exact(rest.to_owned()),
            None => How::Folded(
                rest.to_owned(),
                regex::RegexBuilder::new(&regex::escape(rest))
                    .case_insensitive(true)
                    .build()
                    .map_err(|e| e.to_string())?,
            ),
        };
        Ok(Some(LineMatch { exclude, how }))
    }

    /// Whether the pattern finds something in `line` (before `!` is applied).
    fn finds(&self, line: &str) -> bool {
        match &self.how {
            How::Exact(s) => line.contains(s.as_str()),
            How::Folded(_, re) => re.is_match(line),
            How::Regex(r) => r.is_match(line),
        }
    }

    /// Whether `line` is shown by this filter.
    pub fn keeps(&self, line: &str) -> bool {
        self.finds(line) != self.exclude
    }

    /// Byte ranges of `line` to highlight (none for an excluding pattern).
    pub fn ranges(&self, line: &str) -> Vec<(usize, usize)> {
        if self.exclude {
            return Vec::new();
        }
        match &self.how {
            How::Exact(s) => line
                .match_indices(s.as_str())
                .map(|(i, m)| (i, i + m.len()))
                .collect(),
            How::Folded(s, _) => {
                let lower = line.to_lowercase();
                if lower.len() != line.len() {
                    // Lower-casing changed byte offsets: no reliable ranges.
                    return Vec::new();
                }
                lower
                    .match_indices(s.as_str())
                    .map(|(i, m)| (i, i + m.len()))
                    .collect()
            }
            How::Regex(r) => r
                .find_iter(line)
                .filter(|m| !m.is_empty())
                .map(|m| (m.start(), m.end()))
                .collect(),
        }
    }
}

/// The sequence numbers of the buffer's lines that pass the filter, oldest first. New lines
/// are examined as they arrive; after a [`Visible::reset`] (a new filter) the lines already
/// held are examined from the newest backwards, at most a budget per [`Visible::update`], so
/// a keystroke costs what fills the page, not the whole buffer — the older part follows over
/// the next frames (`complete` says when it is done).
#[derive(Debug, Default)]
pub struct Visible {
    /// Seqs of visible lines.
    pub seqs: VecDeque<u64>,
    /// The next seq not yet examined at the newest end.
    scanned: u64,
    /// The oldest seq examined: lines in `low..scanned` have been.
    low: u64,
    /// Reset and not updated since: the first update starts at the buffer's newest line.
    fresh: bool,
    /// Entries dropped from the front by the last [`Visible::update`] (evicted lines).
    pub evicted: usize,
    /// Entries added at the front by the last [`Visible::update`] (older lines examined).
    pub prepended: usize,
}

impl Visible {
    /// Forgets everything (the filter changed or the buffer was replaced).
    pub fn reset(&mut self) {
        self.seqs.clear();
        self.scanned = 0;
        self.low = 0;
        self.fresh = true;
        self.evicted = 0;
        self.prepended = 0;
    }

    /// Whether every line of `buf` has been examined (the list is the whole answer).
    pub fn complete(&self, buf: &LogBuffer) -> bool {
        !self.fresh && self.low <= buf.first_seq()
    }

    /// Drops evicted lines, examines the new ones, then up to `budget` older ones not yet
    /// examined (newest first); `keeps` says whether a line passes the filter. Returns how
    /// many visible lines were added at the newest end.
    pub fn update(
        &mut self,
        buf: &LogBuffer,
        budget: usize,
        mut keeps: impl FnMut(&ktui_kube::logs::LogLine) -> bool,
    ) -> usize {
        let first = buf.first_seq();
        if std::mem::take(&mut self.fresh) {
            self.scanned = buf.next_seq();
            self.low = self.scanned;
        }
        self.evicted = 0;
        self.prepended = 0;
        while self.seqs.front().is_some_and(|s| *s < first) {
            self.seqs.pop_front();
            self.evicted += 1;
        }
        // Everything below `first` is gone: nothing left to examine there.
        self.low = self.low.max(first);
        let before = self.seqs.len();
        for line in buf.since(self.scanned.max(first)) {
            if keeps(line) {
                self.seqs.push_back(line.seq);
            }
        }
        self.scanned = buf.next_seq();
        let added = self.seqs.len() - before;
        let stop = self.low.saturating_sub(budget as u64).max(first);
        for seq in (stop..self.low).rev() {
            if let Some(line) = buf.get(seq) {
                if keeps(line) {
                    self.seqs.push_front(seq);
                    self.prepended += 1;
                }
            }
        }
        self.low = stop;
        added
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn substring_smart_case_regex_and_exclusion() {
        let f = LineMatch::parse("error").unwrap().unwrap();
        assert!(f.keeps("an ERROR here") && !f.keeps("all fine"));
        let f = LineMatch::parse("Error").unwrap().unwrap();
        assert!(f.keeps("Error!") && !f.keeps("ERROR"));
        let f = LineMatch::parse("!healthz").unwrap().unwrap();
        assert!(!f.keeps("GET /healthz") && f.keeps("GET /api"));
        let f = LineMatch::parse("re:5\\d\\d ").unwrap().unwrap();
        assert!(f.keeps("\"GET /\" 502 10") && !f.keeps("\"GET /\" 200 10"));
        assert_eq!(f.ranges("x 503 y"), [(2, 6)]);
        assert!(LineMatch::parse("re:(").unwrap_err().starts_with("bad regex"));
        assert!(LineMatch::parse("").unwrap().is_none() && LineMatch::parse("!").unwrap().is_none());
        let f = LineMatch::parse("a.b").unwrap().unwrap();
        assert!(!f.keeps("axb"), "literal by default");
    }

    #[test]
    fn the_visible_list_follows_a_moving_buffer() {
        let mut buf = LogBuffer::new(5, 1 << 20);
        let filter = LineMatch::parse("keep").unwrap();
        let mut v = Visible::default();
        let f = filter.as_ref().unwrap();
        let text = |l: &ktui_kube::logs::LogLine| f.keeps(&l.text);
        for i in 0..4 {
            buf.push(
                0,
                None,
                format!("{} {i}", if i % 2 == 0 { "keep" } else { "drop" }).into(),
            );
        }
        assert_eq!(v.update(&buf, usize::MAX, text), 2);
        assert_eq!(Vec::from(v.seqs.clone()), [0, 2]);
        for i in 4..9 {
            buf.push(
                0,
                None,
                format!("{} {i}", if i % 2 == 0 { "keep" } else { "drop" }).into(),
            );
        }
        // Lines 0..=3 were evicted (5 kept: 4..=8): 0 and 2 leave, 4, 6, 8 arrive.
        assert_eq!(v.update(&buf, usize::MAX, text), 3);
        assert_eq!(v.evicted, 2);
        assert_eq!(Vec::from(v.seqs.clone()), [4, 6, 8]);
        assert_eq!(v.update(&buf, usize::MAX, text), 0, "nothing new");
    }

    #[test]
    fn a_new_filter_reads_newest_first_within_its_budget_while_lines_come_and_go() {
        let mut buf = LogBuffer::new(12, 1 << 20);
        let keep = |l: &ktui_kube::logs::LogLine| l.text.starts_with("keep");
        let push = |buf: &mut LogBuffer, i: u64| {
            let word = if i.is_multiple_of(2) { "keep" } else { "drop" };
            buf.push(0, None, format!("{word} {i}").into());
        };
        for i in 0..10 {
            push(&mut buf, i);
        }
        let mut v = Visible::default();
        v.reset();
        assert!(!v.complete(&buf));
        // The newest three lines (7, 8, 9) first: the page fills before the rest is read.
        assert_eq!(v.update(&buf, 3, keep), 0, "nothing arrived below");
        assert_eq!((Vec::from(v.seqs.clone()), v.prepended), (vec![8], 1));
        assert!(!v.complete(&buf));
        // Two new lines arrive (10, 11) while 4, 5, 6 are read.
        push(&mut buf, 10);
        push(&mut buf, 11);
        assert_eq!(v.update(&buf, 3, keep), 1);
        assert_eq!((Vec::from(v.seqs.clone()), v.prepended), (vec![4, 6, 8, 10], 2));
        // Four more push 0..=3 out of the 12-line buffer before they are read: nothing is
        // left below 4, the list is complete and equals a full scan.
        for i in 12..16 {
            push(&mut buf, i);
        }
        assert_eq!(v.update(&buf, 3, keep), 2);
        assert!(v.complete(&buf));
        let mut full = Visible::default();
        full.update(&buf, usize::MAX, keep);
        assert_eq!(v.seqs, full.seqs);
        assert_eq!(Vec::from(v.seqs.clone()), [4, 6, 8, 10, 12, 14]);
    }
}
