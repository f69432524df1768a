//! What comes back from the effects the runtime ran, applied to the state: a write's result
//! ([`WriteEvent`], [`apply`]) and a job's outcome once the terminal is back
//! ([`handed_back`]). The dispatcher of results, as `update` is of keys; must not perform
//! I/O (the runtime produced these values and runs the effects returned).

use std::time::Instant;

use crate::kube::write::{self, Target, WriteError};

use crate::app::effect::{AfterWrite, Effect, FileWrite, ViewId};
use crate::app::handover::{Handover, Outcome, Then};
use crate::app::state::UiState;
use crate::app::writes::model::AccessQuery;

/// What came back from the network for the write machinery.
#[derive(Debug)]
pub enum WriteEvent {
    /// A write finished: what was requested, and the outcome line (`Err` = the server's
    /// error verbatim, prefixed by the object it was about).
    Wrote {
        context: String,
        summary: String,
        result: Result<String, String>,
    },
    /// An RBAC answer.
    Access(AccessQuery, Result<bool, String>),
    /// A drain step.
    Drain(write::drain::DrainEvent),
    /// The revisions of a deployment (rollback dialog).
    Revisions(Target, Result<Vec<write::rollback::Revision>, String>),
    /// The object to edit (`e`).
    EditFetched(Target, Result<serde_json::Value, String>),
    /// The edit's replace came back.
    Replaced(Result<(), WriteError>),
}

/// What the state does once the terminal is back from `h` with `outcome`; `read` is the
/// text of the file an editor edited (`Then::Edit`), read back by the runtime.
pub fn handed_back(
    state: &mut UiState,
    h: &Handover,
    outcome: &Outcome,
    read: Option<Result<String, String>>,
) -> Vec<Effect> {
    let mut effects = match &h.then {
        Then::Edit(_) => {
            let read = read.unwrap_or_else(|| Err("not read".into()));
            crate::app::writes::edit::edited(state, outcome, read)
        }
        Then::Note => {
            let text = format!("{}: {}", h.label, outcome.words());
            match outcome {
                Outcome::Exited(0) => state.note(text),
                _ => {
                    state.screens.footer.message = Some(text);
                    state.screens.footer.info = false;
                }
            }
            Vec::new()
        }
    };
    effects.extend(state.take_effects());
    effects
}

/// Applies what came back to the UI state; the effects that follow (an edit's editor).
pub fn apply(state: &mut UiState, e: WriteEvent) -> Vec<Effect> {
    let mut effects = applied(state, e);
    effects.extend(state.take_effects());
    effects
}

fn applied(state: &mut UiState, e: WriteEvent) -> Vec<Effect> {
    match e {
        WriteEvent::EditFetched(t, r) => return crate::app::writes::edit::fetched(state, t, r),
        WriteEvent::Replaced(r) => return crate::app::writes::edit::replaced(state, r),
        WriteEvent::Wrote {
            context,
            summary,
            result,
        } => {
            let (ok, line) = match result {
                Ok(done) => (true, format!("{done} (context {context})")),
                Err(e) => (false, format!("{summary} failed: {e}")),
            };
            if !crate::app::fleet::writes::answered(state, line.clone(), ok) {
                match ok {
                    true => state.note(line),
                    false => state.screens.footer.message = Some(line),
                }
            }
        }
        WriteEvent::Access(q, r) => state.conn.access.answer(q, r, Instant::now()),
        WriteEvent::Drain(e) => crate::app::writes::drain::step(state, e),
        WriteEvent::Revisions(t, r) => crate::app::history::revisions::listed(state, t, r),
    }
    Vec::new()
}

/// A copy finished (`Effect::Copy`): the footer's "copied …" note says where the text went
/// (`… · to tmux's paste buffer`), or that it did not.
pub fn copied(state: &mut UiState, result: Result<String, String>) {
    let note = state
        .screens
        .footer
        .message
        .clone()
        .filter(|m| m.starts_with("copied "));
    match (result, note) {
        (Ok(to), Some(note)) => state.note(format!("{note} · {to}")),
        (Ok(to), None) => state.note(format!("copied {to}")),
        (Err(e), _) => state.screens.footer.message = Some(format!("copy failed: {e}")),
    }
}

/// `Effect::Save`: the file of view `id` (a YAML, describe or log view still on the stack),
/// for the runtime to write.
pub fn save(state: &mut UiState, id: ViewId) -> Vec<Effect> {
    let file = match crate::app::logs::save::save(state, id) {
        Some(file) => file,
        None => crate::app::detail::save::save(state, id),
    };
    file.into_iter().collect()
}

/// A [`FileWrite`] is done (`Err` in words): the footer says so, or the edit goes on.
pub fn written(state: &mut UiState, file: &FileWrite, result: Result<(), String>) -> Vec<Effect> {
    let mut effects = match (&file.then, result) {
        (AfterWrite::Note(note), Ok(())) => {
            state.note(note.clone());
            Vec::new()
        }
        (AfterWrite::Note(_), Err(e)) => {
            state.screens.footer.message = Some(format!("cannot save {}: {e}", file.path.display()));
            Vec::new()
        }
        (AfterWrite::Editor, result) => crate::app::writes::edit::file_ready(state, file, result),
    };
    effects.extend(state.take_effects());
    effects
}
