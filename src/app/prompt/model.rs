//! The prompt bar's state: the open prompt ([`Prompt`]) and, in [`PromptBar`], its cursor,
//! its ↑/↓ history and the keys of an unfinished chord. Plain state; must not import
//! `UiState` nor any transition, perform I/O or draw.

use crate::app::prompt::history::PromptHistory;
use crate::keys::KeyPress;

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

/// The prompt bar: the open prompt, its cursor and history, and what waits for keys.
#[derive(Default)]
pub struct PromptBar {
    /// The open prompt.
    pub open: Option<Prompt>,
    /// The cursor as a char index into the prompt's text; `None` is the end (where a prompt
    /// opens). See `prompt::edit`.
    pub cursor: Option<usize>,
    /// ↑/↓ history of the prompts (loaded by the runtime at start).
    pub history: PromptHistory,
    /// Keys typed so far of an unfinished chord (`g` of `g g`).
    pub chord: Vec<KeyPress>,
    /// A command naming a kind only discovery can resolve (`ktui gz` at start): run when
    /// the registry arrives (see `discovered::adopt`; the loop never polls it). The flag says
    /// it waits for a rediscovery asked because its name was unknown: if it is still unknown
    /// then, it is reported as unknown.
    pub deferred: Option<(String, bool)>,
}
