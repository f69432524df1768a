//! The terminal event reader: crossterm's `EventStream` in a task, stoppable so that a job
//! the terminal is lent to (see [`super::lend`]) gets every byte of stdin. Owns the reader's
//! lifetime; must not interpret events.

use std::time::Duration;

use crossterm::event::{Event, EventStream};
use futures::StreamExt;
use tokio::task::JoinHandle;

/// How long [`EventReader::stop`] waits for crossterm's reader thread to let go.
pub const STOP_PATIENCE: Duration = Duration::from_secs(2);

/// A running reader; [`EventReader::stop`] ends it.
pub struct EventReader {
    task: JoinHandle<()>,
}

impl EventReader {
    /// Starts reading on the current runtime: `deliver(Some(event))` per event,
    /// `deliver(None)` once when the terminal cannot be read (then the reader ends). The
    /// reader also ends when `deliver` returns `false`.
    pub fn start(deliver: impl Fn(Option<Event>) -> bool + Send + 'static) -> Self {
        let task = tokio::spawn(async move {
            let mut events = EventStream::new();
            loop {
                match events.next().await {
                    Some(Ok(ev)) => {
                        if !deliver(Some(ev)) {
                            return;
                        }
                    }
                    Some(Err(_)) | None => {
                        deliver(None);
                        return;
                    }
                }
            }
        });
        EventReader { task }
    }

    /// Stops reading and returns once nothing of crossterm reads the terminal any more:
    /// the task is ended (dropping its `EventStream` wakes crossterm's polling thread, which
    /// then quits), then a zero-timeout poll takes crossterm's reader lock, which that
    /// thread holds while it polls, so this returns only after the thread let go. Bytes
    /// crossterm had already read stay in its buffer and come out of the next reader.
    ///
    /// The wait for that lock is bounded by [`STOP_PATIENCE`]: past it, the stop is logged
    /// and the job goes ahead rather than ktui freezing (crossterm's thread may then take one
    /// byte meant for the job).
    pub async fn stop(self) {
        self.task.abort();
        let _ = self.task.await;
        let released = tokio::task::spawn_blocking(|| crossterm::event::poll(Duration::ZERO));
        if tokio::time::timeout(STOP_PATIENCE, released).await.is_err() {
            tracing::warn!(
                waited_ms = STOP_PATIENCE.as_millis(),
                "crossterm's reader kept its lock; handing the terminal over anyway"
            );
        }
    }
}
