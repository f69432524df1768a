//! Leaving fast: on quit the terminal is restored first, then the loop's big holders (the
//! UI state with its snapshots and memoised views) are leaked on purpose instead of freed
//! object by object — with 100k rows that freeing took 1.0–1.5 s, during which the user
//! waited for the shell prompt. The process exits right after (`main` calls
//! `std::process::exit`), so the OS reclaims the memory at once. Must not be used for
//! anything but the way out.

use crate::terminal::TerminalGuard;

use crate::app::state::UiState;

/// Restores the terminal, stops the session's tasks (aborting is cheap; their stores are
/// dropped on the network runtime, or not at all when the process exits first) and leaks
/// `state` and `held` (e.g. the revision histories). Returns `code` for `run` to return.
pub(crate) fn leave<S, H>(code: u8, guard: TerminalGuard, session: Option<S>, state: UiState, held: H) -> u8 {
    drop(guard);
    drop(session);
    std::mem::forget(state);
    std::mem::forget(held);
    code
}
