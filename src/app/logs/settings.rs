//! What a log view is opened with: its time window (k9s's numbering) and the `[logs]`
//! settings from the config. Plain values; must not read the hub or do I/O.

/// The time window of a view, as k9s numbers them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Window {
    /// The default: the last `tail` lines, then follow.
    Tail(i64),
    /// `0`: everything the server keeps, then follow.
    All,
    /// `1`: the first `n` lines (no follow).
    Head(usize),
    /// `2`–`6`: the last 1m, 5m, 15m, 30m, 1h, then follow.
    Since(i64),
}

impl Window {
    /// The window key `n` selects (`0`–`6`); `tail` is the configured default for head.
    pub fn from_key(n: u8, tail: i64) -> Option<Window> {
        Some(match n {
            0 => Window::All,
            1 => Window::Head(usize::try_from(tail).unwrap_or(1000)),
            2 => Window::Since(60),
            3 => Window::Since(300),
            4 => Window::Since(900),
            5 => Window::Since(1800),
            6 => Window::Since(3600),
            _ => return None,
        })
    }

    /// `tail 1,000`, `all`, `head 1,000`, `last 5m`.
    pub fn words(&self) -> String {
        match self {
            Window::Tail(n) => format!("tail {}", crate::text::thousands(u64::try_from(*n).unwrap_or(0))),
            Window::All => "all".into(),
            Window::Head(n) => format!("head {}", crate::text::thousands(*n as u64)),
            Window::Since(s) if *s >= 3600 => format!("last {}h", s / 3600),
            Window::Since(s) => format!("last {}m", s / 60),
        }
    }
}

/// Log settings from `[logs]` in the config.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct LogSettings {
    /// `tail_lines`: lines asked for when a view opens.
    pub tail: i64,
    /// `max_lines`: ring buffer bound in lines.
    pub max_lines: usize,
    /// `max_bytes`: ring buffer bound in bytes.
    pub max_bytes: usize,
    /// `max_streams`: concurrent streams of one view.
    pub max_streams: usize,
    /// `max_line_bytes`: longer lines are cut with a marker.
    pub max_line: usize,
    /// `timestamps`: show timestamps when a view opens.
    pub timestamps: bool,
    /// `wrap`: wrap long lines when a view opens.
    pub wrap: bool,
}

impl LogSettings {
    /// The settings `[logs]` describes (each bound at least 1).
    pub fn from_config(c: &crate::config::LogsConfig) -> LogSettings {
        LogSettings {
            tail: i64::from(c.tail_lines),
            max_lines: (c.max_lines as usize).max(1),
            max_bytes: (c.max_mib as usize).max(1) << 20,
            max_streams: (c.max_streams as usize).max(1),
            max_line: (c.max_line_bytes as usize).max(256),
            timestamps: c.timestamps,
            wrap: c.wrap,
        }
    }
}

impl Default for LogSettings {
    fn default() -> Self {
        LogSettings {
            tail: 1000,
            max_lines: 100_000,
            max_bytes: 64 << 20,
            max_streams: 50,
            max_line: 16 << 10,
            timestamps: false,
            wrap: false,
        }
    }
}
