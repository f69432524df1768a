//! Raw stdin for an in-process session while the terminal is lent ([`super::Lend::Raw`]):
//! a thread that waits on fd 0 with `poll(2)` and a short timeout, so that it stops within
//! [`STOP_WITHIN`] of [`StdinPump`]'s drop and never sits in a `read` that would swallow the
//! first key after the session (as `tokio::io::stdin`'s blocking reader does). Owns that
//! thread; must not interpret the bytes.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Duration;

use tokio::sync::mpsc::{channel, Receiver};

/// How soon the thread notices it should stop.
pub const STOP_WITHIN: Duration = Duration::from_millis(50);

/// A running pump; dropping it stops the thread and waits for it.
pub struct StdinPump {
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<()>>,
}

impl StdinPump {
    /// Starts reading stdin; chunks of at most 4 KiB come out of the receiver in order, which
    /// closes at EOF or on a read error.
    pub fn start() -> (StdinPump, Receiver<Vec<u8>>) {
        let (tx, rx) = channel(64);
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let thread = std::thread::spawn(move || {
            let mut buf = [0u8; 4096];
            let timeout = i32::try_from(STOP_WITHIN.as_millis()).unwrap_or(50);
            while !flag.load(Ordering::SeqCst) {
                let mut fd = libc::pollfd {
                    fd: libc::STDIN_FILENO,
                    events: libc::POLLIN,
                    revents: 0,
                };
                // SAFETY: one valid pollfd for the duration of the call.
                let ready = unsafe { libc::poll(&mut fd, 1, timeout) };
                if ready < 0 {
                    if std::io::Error::last_os_error().kind() == std::io::ErrorKind::Interrupted {
                        continue;
                    }
                    return;
                }
                if ready == 0 || flag.load(Ordering::SeqCst) {
                    continue;
                }
                // SAFETY: reads into our own buffer of the given length.
                let n = unsafe { libc::read(libc::STDIN_FILENO, buf.as_mut_ptr().cast(), buf.len()) };
                let Ok(n) = usize::try_from(n) else { return };
                if n == 0 || tx.blocking_send(buf[..n].to_vec()).is_err() {
                    return;
                }
            }
        });
        (
            StdinPump {
                stop,
                thread: Some(thread),
            },
            rx,
        )
    }
}

impl Drop for StdinPump {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}
