//! The terminal event reader: crossterm's `EventStream` in a task, stoppable so that a job
//! the terminal is lent to (see [`super::lend`]) gets every byte of stdin. Owns the reader's
//! lifetime; must not interpret events.

use std::time::Duration;

use crossterm::event::{Event, EventStream};
use futures::StreamExt;
use tokio::task::JoinHandle;

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
    pub async fn stop(self) {
        self.task.abort();
        let _ = self.task.await;
        let _ = tokio::task::spawn_blocking(|| crossterm::event::poll(Duration::ZERO)).await;
    }
}
