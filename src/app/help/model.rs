//! The state of the `?` help while it is open ([`HelpState`]) and its lines ([`HelpLine`]).
//! Plain data; must not import `UiState` nor any transition, perform I/O or draw.

use crate::view::Query;

/// One line of the help.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum HelpLine {
    /// A section title (`Keys`, `Filter (/)`, `Commands`).
    Heading(String),
    /// Keys and what they do.
    Key {
        /// The keys, `, `-separated (`j, down`).
        keys: String,
        /// What they do.
        desc: String,
    },
    /// Free text (a command's syntax).
    Text(String),
}

/// The help while it is open: its filter and where it is scrolled.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HelpState {
    /// The `/` filter over the lines (the filter language of lists).
    pub filter: String,
    /// The filter's error, shown in the title (the lines then stay unfiltered).
    pub filter_error: Option<String>,
    /// First line shown (of the filtered lines).
    pub scroll: usize,
    /// Cells scrolled off on the left (unwrapped only).
    pub hscroll: usize,
    /// Long lines wrap at the box.
    pub wrap: bool,
}

impl HelpState {
    /// Sets the filter (typed in the `/` prompt over the help) and goes back to the top.
    pub fn set_filter(&mut self, text: String) {
        self.filter_error = match Query::parse(&text) {
            Ok(q) if !q.selectors().is_empty() => Some("help has no labels: -l does not apply".into()),
            Ok(_) => None,
            Err(e) => Some(e),
        };
        self.filter = text;
        self.scroll = 0;
        self.hscroll = 0;
    }
}
