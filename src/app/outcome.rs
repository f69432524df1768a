//! What comes back from the effects the runtime ran, applied to the state: a write's result
//! ([`WriteEvent`], [`apply`]) and a job's outcome once the terminal is back
//! ([`handed_back`]). The dispatcher of results, as `update` is of keys; must not perform
//! I/O (the runtime produced these values and runs the effects returned).

use std::time::Instant;

use crate::kube::write::{self, Target, WriteError};

use crate::app::effect::Effect;
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

/// What the state does once the terminal is back from `h` with `outcome`.
pub fn handed_back(state: &mut UiState, h: &Handover, outcome: &Outcome) -> Vec<Effect> {
    match h.then {
        Then::Edit => crate::app::writes::edit::edited(state, outcome),
        Then::Note => {
            let text = format!("{}: {}", h.label, outcome.words());
            match outcome {
                Outcome::Exited(0) => state.note(text),
                _ => {
                    state.screens.message = Some(text);
                    state.screens.info = false;
                }
            }
            Vec::new()
        }
    }
}

/// Applies what came back to the UI state; the effects that follow (an edit's editor).
pub fn apply(state: &mut UiState, e: WriteEvent) -> Vec<Effect> {
    match e {
        WriteEvent::EditFetched(t, r) => return crate::app::writes::edit::fetched(state, t, r),
        WriteEvent::Replaced(r) => return crate::app::writes::edit::replaced(state, r),
        WriteEvent::Wrote {
            context,
            summary,
            result,
        } => match result {
            Ok(done) => state.note(format!("{done} (context {context})")),
            Err(e) => state.screens.message = Some(format!("{summary} failed: {e}")),
        },
        WriteEvent::Access(q, r) => state.conn.access.answer(q, r, Instant::now()),
        WriteEvent::Drain(e) => {
            if let Some(d) = state.screens.drain.as_mut() {
                d.apply(e);
            }
        }
        WriteEvent::Revisions(t, r) => crate::app::history::revisions::listed(state, t, r),
    }
    Vec::new()
}
