//! The shared side of one log view: its ring buffer, the table of sources (pod/container)
//! with each one's stream state, and a coalesced "changed" signal to the UI loop. Stream
//! tasks write here; the UI reads under the lock at draw time. Must not format for a screen.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, MutexGuard};

use jiff::Timestamp;

use super::buffer::LogBuffer;
use super::pods::Role;

/// Where one source's stream is, in words the header shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SourceState {
    /// Opening the stream.
    Connecting,
    /// Streaming (`follow=true`) and up to date.
    Following,
    /// A one-shot read (previous instance, head, no follow) is complete.
    Complete,
    /// The container has not started: `waiting: ContainerCreating`.
    Waiting(String),
    /// The stream ended and the container stopped (`terminated: Completed`); it resumes if
    /// the container starts again.
    Terminated(String),
    /// The container restarted and the stream was opened again on the new instance.
    Restarted,
    /// The stream dropped; reconnecting from the last line seen.
    Reconnecting { attempt: u32, why: String },
    /// The pod is gone.
    PodDeleted,
    /// 403 on `get pods/log`.
    Forbidden,
    /// `previous=true` and there is no previous instance (the server's message).
    NoPrevious(String),
    /// More sources than the concurrent stream cap: waiting for a slot.
    Queued,
    /// The server refused the request for another reason.
    Failed(String),
}

impl SourceState {
    /// The state in the header's words: `following`, `waiting: ContainerCreating`,
    /// `container restarted — reconnected`, `pod deleted`, `forbidden: get pods/log`…
    pub fn words(&self) -> String {
        match self {
            SourceState::Connecting => "connecting…".into(),
            SourceState::Following => "following".into(),
            SourceState::Complete => "complete".into(),
            SourceState::Waiting(r) => format!("waiting: {r}"),
            SourceState::Terminated(r) => format!("terminated: {r}"),
            SourceState::Restarted => "container restarted — reconnected".into(),
            SourceState::Reconnecting { attempt, why } => format!("reconnecting (attempt {attempt}): {why}"),
            SourceState::PodDeleted => "pod deleted".into(),
            SourceState::Forbidden => "forbidden: get pods/log".into(),
            SourceState::NoPrevious(m) => format!("no previous instance: {m}"),
            SourceState::Queued => "queued (stream cap)".into(),
            SourceState::Failed(m) => format!("failed: {m}"),
        }
    }

    /// Whether the source currently holds a stream slot.
    pub fn streaming(&self) -> bool {
        matches!(
            self,
            SourceState::Connecting
                | SourceState::Following
                | SourceState::Restarted
                | SourceState::Reconnecting { .. }
        )
    }
}

/// One pod/container whose lines go into the view.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceInfo {
    /// Pod name (sanitized).
    pub pod: Box<str>,
    /// Container name (sanitized).
    pub container: Box<str>,
    /// Init, sidecar or app.
    pub role: Role,
    /// Its stream's state.
    pub state: SourceState,
    /// The pod went away (kept for its lines, marked).
    pub gone: bool,
    /// Timestamp of the newest line received (for `lag`).
    pub last_ts: Option<Timestamp>,
}

/// Everything behind the lock.
#[derive(Debug)]
pub struct HubState {
    /// The lines.
    pub buffer: LogBuffer,
    /// Sources by index (`LogLine::source`).
    pub sources: Vec<SourceInfo>,
    /// The most concurrent streams allowed.
    pub cap: usize,
    /// The pod list/watch behind the view failed (forbidden, unreachable…): why.
    pub pods_error: Option<String>,
    /// The pod list has been read at least once.
    pub pods_synced: bool,
}

impl HubState {
    /// Sources waiting for a stream slot.
    pub fn queued(&self) -> usize {
        self.sources
            .iter()
            .filter(|s| s.state == SourceState::Queued)
            .count()
    }

    /// Sources holding a stream slot.
    pub fn streaming(&self) -> usize {
        self.sources.iter().filter(|s| s.state.streaming()).count()
    }

    /// The newest line's timestamp over all sources.
    pub fn newest(&self) -> Option<Timestamp> {
        self.sources.iter().filter_map(|s| s.last_ts).max()
    }
}

/// A log view's shared state plus its change signal.
pub struct LogHub {
    state: Mutex<HubState>,
    pending: AtomicBool,
    notify: Box<dyn Fn() + Send + Sync>,
}

impl std::fmt::Debug for LogHub {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LogHub").finish_non_exhaustive()
    }
}

impl LogHub {
    /// A hub with an empty buffer of these bounds; `notify` is called (at most once until
    /// [`LogHub::seen`]) when something changed.
    pub fn new(
        max_lines: usize,
        max_bytes: usize,
        cap: usize,
        notify: Box<dyn Fn() + Send + Sync>,
    ) -> LogHub {
        LogHub {
            state: Mutex::new(HubState {
                buffer: LogBuffer::new(max_lines, max_bytes),
                sources: Vec::new(),
                cap: cap.max(1),
                pods_error: None,
                pods_synced: false,
            }),
            pending: AtomicBool::new(false),
            notify,
        }
    }

    /// The state, locked (a writer that panicked leaves it usable).
    pub fn lock(&self) -> MutexGuard<'_, HubState> {
        self.state.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Signals a change, unless one is already pending.
    pub fn changed(&self) {
        if !self.pending.swap(true, Ordering::AcqRel) {
            (self.notify)();
        }
    }

    /// The UI took note of the changes so far: the next change signals again.
    pub fn seen(&self) {
        self.pending.store(false, Ordering::Release);
    }

    /// Sets source `i`'s state and signals.
    pub fn set_state(&self, i: usize, state: SourceState) {
        let mut s = self.lock();
        if let Some(src) = s.sources.get_mut(i) {
            if src.state != state {
                src.state = state;
                drop(s);
                self.changed();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicUsize;
    use std::sync::Arc;

    #[test]
    fn changes_coalesce_until_seen() {
        let calls = Arc::new(AtomicUsize::new(0));
        let c = calls.clone();
        let hub = LogHub::new(
            10,
            1 << 20,
            5,
            Box::new(move || {
                c.fetch_add(1, Ordering::SeqCst);
            }),
        );
        for _ in 0..100 {
            hub.changed();
        }
        assert_eq!(calls.load(Ordering::SeqCst), 1);
        hub.seen();
        hub.changed();
        assert_eq!(calls.load(Ordering::SeqCst), 2);
    }

    #[test]
    fn states_read_as_words() {
        assert_eq!(
            SourceState::Waiting("ContainerCreating".into()).words(),
            "waiting: ContainerCreating"
        );
        assert_eq!(SourceState::Forbidden.words(), "forbidden: get pods/log");
        assert_eq!(
            SourceState::Restarted.words(),
            "container restarted — reconnected"
        );
        assert_eq!(SourceState::PodDeleted.words(), "pod deleted");
    }
}
