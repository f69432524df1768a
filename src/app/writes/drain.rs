//! The drain overlay: each step of a running drain as it happens (cordon, skipped pods,
//! each eviction, each PodDisruptionBudget refusal), `esc` cancels a running drain and
//! closes a finished one. Owns that state and its keys; must not perform I/O (cancelling is
//! `Effect::CancelDrain`).

use crossterm::event::KeyCode;

use crate::keys::KeyPress;
use crate::kube::write::drain::DrainEvent;

use crate::app::effect::Effect;
use crate::app::state::UiState;

/// Most lines kept (a drain of a big node streams many).
const MAX_LINES: usize = 500;

/// How a line is coloured.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tone {
    /// Progress.
    Ok,
    /// A refusal or skip.
    Warn,
    /// A failure.
    Error,
}

/// A drain shown in the overlay.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DrainState {
    /// The node.
    pub node: String,
    /// The context it runs in.
    pub context: String,
    /// What happened, oldest first.
    pub lines: Vec<(Tone, String)>,
    /// Still running.
    pub running: bool,
    /// Pods evicted so far.
    pub evicted: usize,
}

impl DrainState {
    /// A drain of `node` that just started.
    pub fn new(node: String, context: String) -> DrainState {
        DrainState {
            lines: vec![(Tone::Ok, format!("draining node/{node} (context {context})…"))],
            node,
            context,
            running: true,
            evicted: 0,
        }
    }

    fn push(&mut self, tone: Tone, text: String) {
        if self.lines.len() >= MAX_LINES {
            self.lines.remove(1);
        }
        self.lines.push((tone, text));
    }

    /// Adds one step.
    pub fn apply(&mut self, e: DrainEvent) {
        match e {
            DrainEvent::Cordoned => self.push(Tone::Ok, format!("node/{} cordoned", self.node)),
            DrainEvent::Skipped { pod, why } => self.push(Tone::Warn, format!("skipped {pod}: {why}")),
            DrainEvent::Blocked { pod, why } => self.push(Tone::Error, format!("cannot evict {pod}: {why}")),
            DrainEvent::Plan(pods) => self.push(Tone::Ok, format!("evicting {} pods", pods.len())),
            DrainEvent::Evicted(pod) => {
                self.evicted += 1;
                self.push(Tone::Ok, format!("evicted {pod}"));
            }
            DrainEvent::Refused { pod, message } => {
                self.push(Tone::Warn, format!("refused {pod}: {message} (trying again)"))
            }
            DrainEvent::Failed(m) => {
                self.running = false;
                self.push(Tone::Error, format!("drain failed: {m}"));
            }
            DrainEvent::TimedOut(pods) => {
                self.running = false;
                self.push(
                    Tone::Error,
                    format!("timed out; not evicted: {}", pods.join(", ")),
                );
            }
            DrainEvent::Done(n) => {
                self.running = false;
                self.push(Tone::Ok, format!("node/{} drained ({n} pods evicted)", self.node));
            }
        }
    }
}

/// A key while the overlay is open: `esc` (or `q`) cancels a running drain, closes a
/// finished one; `ctrl-c` quits ktui as everywhere.
pub fn key(state: &mut UiState, key: KeyPress) {
    let Some(d) = state.screens.drain.as_mut() else {
        return;
    };
    if key.code == KeyCode::Char('c') && key.mods.contains(crossterm::event::KeyModifiers::CONTROL) {
        state.emit(Effect::Quit(0));
        return;
    }
    if !matches!(key.code, KeyCode::Esc | KeyCode::Char('q')) {
        return;
    }
    if d.running {
        d.running = false;
        d.push(Tone::Error, "cancelled: no more evictions are sent".into());
        state.emit(Effect::CancelDrain);
    } else {
        state.screens.drain = None;
    }
}
