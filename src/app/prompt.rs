//! The prompt bar (`:` command, `/` filter or search, yes/no questions): line editing
//! ([`edit`]), its ↑/↓ history ([`history`]) and its keys ([`keys`]). Must not perform I/O
//! (the history file is read and written by the runtime) nor draw.

pub mod edit;
pub mod history;
pub mod keys;
pub mod model;
