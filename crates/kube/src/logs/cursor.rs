//! Where a source's stream stands, for resuming it without loss or repeats: the newest line
//! timestamp seen and how many lines carried exactly it. A reconnect asks for `sinceTime` of
//! that second and skips what it already has. Pure; must not do I/O.

use jiff::Timestamp;

/// The resume point of one source.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Cursor {
    last: Option<Timestamp>,
    at_last: usize,
}

/// The filter of one connection: drops lines the source already delivered before.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Replay {
    last: Option<Timestamp>,
    skip: usize,
}

impl Cursor {
    /// `sinceTime` for a reconnect: the newest line's second, rounded down (the API takes
    /// whole seconds), so no line of that second is missed; `None` before any line.
    pub fn since_time(&self) -> Option<Timestamp> {
        self.last.and_then(|t| Timestamp::from_second(t.as_second()).ok())
    }

    /// The newest timestamp seen.
    pub fn last(&self) -> Option<Timestamp> {
        self.last
    }

    /// Starts a connection that replays from [`Cursor::since_time`].
    pub fn replay(&self) -> Replay {
        Replay {
            last: self.last,
            skip: self.at_last,
        }
    }

    /// Whether a line with `ts` is new on the connection `replay`; records it when it is.
    /// Lines without a timestamp are always new.
    pub fn accept(&mut self, replay: &mut Replay, ts: Option<Timestamp>) -> bool {
        let Some(t) = ts else { return true };
        if let Some(l) = replay.last {
            if t < l {
                return false;
            }
            if t == l && replay.skip > 0 {
                replay.skip -= 1;
                return false;
            }
            // Past the resume point: everything from here on is new.
            replay.last = None;
        }
        if Some(t) == self.last {
            self.at_last += 1;
        } else if self.last.is_none_or(|l| t > l) {
            self.last = Some(t);
            self.at_last = 1;
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(ms: i64) -> Option<Timestamp> {
        Timestamp::from_millisecond(1_796_112_000_000 + ms).ok()
    }

    #[test]
    fn a_reconnect_skips_exactly_what_was_seen() {
        let mut c = Cursor::default();
        let mut r = c.replay();
        // First connection: lines at .100, .700, .700 (two lines share a timestamp).
        for ms in [100, 700, 700] {
            assert!(c.accept(&mut r, at(ms)));
        }
        assert_eq!(c.since_time(), Timestamp::from_second(1_796_112_000).ok());
        // The stream dropped; the server replays the whole second, then goes on.
        let mut r = c.replay();
        let got: Vec<bool> = [100, 700, 700, 700, 1_200]
            .iter()
            .map(|&ms| c.accept(&mut r, at(ms)))
            .collect();
        assert_eq!(
            got,
            [false, false, false, true, true],
            "a third line at .700 is new"
        );
        // And again: the two lines of 1.200 and the third .700 are known now.
        let mut r = c.replay();
        assert!(!c.accept(&mut r, at(1_200)));
        assert!(c.accept(&mut r, at(1_300)));
    }

    #[test]
    fn lines_without_timestamps_always_pass() {
        let mut c = Cursor::default();
        let mut r = c.replay();
        assert!(c.accept(&mut r, None));
        assert_eq!(c.since_time(), None);
    }
}
