//! Running what `app::session` asks for: the preparation (a task on the network runtime) and
//! the session while the terminal is lent in raw mode — stdin through a [`StdinPump`], the
//! terminal size at start and on every SIGWINCH, output to stdout. Owns that plumbing; must
//! not change UI state.

use tokio::signal::unix::{signal, SignalKind};
use tokio_util::sync::CancellationToken;

use crate::kube::exec::{self, SessionEnd, SessionIo, SessionKind};
use crate::terminal::StdinPump;

use crate::app::handover::Outcome;
use crate::app::session::model::{Prepared, SessionJob, SessionRequest};

/// Finds the container and OS of the target and, for a shell, which shell exists.
pub async fn prepare(client: &kube::Client, request: SessionRequest) -> Prepared {
    let found = async {
        let mut resolved = exec::resolve(client, &request.target).await?;
        let search = match &request.kind {
            SessionKind::Shell => Some(exec::find_shell(client, &request.target, &resolved).await?),
            // The debug container is made and running before the terminal is lent; the
            // session attaches to it.
            SessionKind::Debug { image } => {
                let name = exec::debug::start(client, &request.target, &resolved.container, image).await?;
                resolved.container = name;
                resolved.tty = true;
                None
            }
            _ => None,
        };
        Ok((resolved, search))
    }
    .await;
    Prepared { request, found }
}

/// Written on the lent terminal when an attach begins.
pub const ATTACH_HINT: &str =
    "If you don't see a command prompt, try pressing enter. ctrl-p ctrl-q detaches.\r\n";

/// Runs the session on `net` until it ends or `cancel` fires (SIGTERM/SIGHUP to ktui).
pub async fn run(
    client: kube::Client,
    net: tokio::runtime::Handle,
    job: SessionJob,
    cancel: CancellationToken,
) -> Outcome {
    let (pump, input) = StdinPump::start();
    let (size_tx, sizes) = tokio::sync::mpsc::channel(8);
    if let Ok(size) = crossterm::terminal::size() {
        let _ = size_tx.try_send(size);
    }
    let winch = match signal(SignalKind::window_change()) {
        Ok(mut s) => Some(tokio::spawn(async move {
            while s.recv().await.is_some() {
                if let Ok(size) = crossterm::terminal::size() {
                    if size_tx.send(size).await.is_err() {
                        return;
                    }
                }
            }
        })),
        Err(_) => None,
    };
    if job.argv.is_none() {
        // As `kubectl attach` says it: a quiet main process shows nothing until it is spoken
        // to, and a server that never answers looks the same; both can be left.
        use std::io::Write;
        let mut out = std::io::stdout().lock();
        let _ = out.write_all(ATTACH_HINT.as_bytes());
        let _ = out.flush();
    }
    let io = SessionIo {
        input,
        sizes,
        output: Box::new(|bytes: &[u8]| {
            use std::io::Write;
            let mut out = std::io::stdout().lock();
            let _ = out.write_all(bytes);
            let _ = out.flush();
        }),
    };
    let session = net
        .spawn(async move { exec::run(&client, &job.target, &job.container, job.argv, job.tty, io).await });
    let abort = session.abort_handle();
    let end = tokio::select! {
        end = session => end.unwrap_or_else(|e| SessionEnd::Failed(format!("the session failed: {e}"))),
        _ = cancel.cancelled() => {
            abort.abort();
            SessionEnd::Failed("ended by a signal".into())
        }
    };
    if let Some(w) = winch {
        w.abort();
    }
    drop(pump);
    match end {
        SessionEnd::Exited(code) => Outcome::Exited(code),
        SessionEnd::Detached => Outcome::Detached,
        SessionEnd::Failed(e) => Outcome::Failed(e),
    }
}
