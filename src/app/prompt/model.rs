//! The prompt bar's state: the open prompt ([`Prompt`]) and, in [`PromptBar`], its cursor,
//! its ↑/↓ history and the keys of an unfinished chord. Plain state; must not import
//! `UiState` nor any transition, perform I/O or draw.

/// The active prompt, if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Prompt {
    /// `:` command input.
    Command(String),
    /// `/` filter input (applied live while typing); in the YAML view, the search.
    Filter(String),
    /// A yes/no question; typing `y` confirms, anything else cancels.
    Confirm(String),
}
