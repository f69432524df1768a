//! Handing the terminal to a job (`Effect::HandOver`): a child process such as `$EDITOR`, or
//! an in-process session. Owns running a job while the loop's events wait in a backlog; the
//! job vocabulary is `crate::app::handover`'s and what the outcome does to the state is
//! `crate::app::outcome::handed_back`'s; must not draw nor change UI state. The terminal modes
//! themselves are `crate::terminal::lend`'s.
//!
//! Signals during a job: SIGINT belongs to the job (the tty sends `ctrl-c` to the child too,
//! as `system(3)` ignores it in the parent), so ktui drops it; SIGTERM and SIGHUP end the job
//! (SIGTERM to a child, then SIGKILL after [`KILL_AFTER`]) and are handled after the terminal
//! is back, so ktui then exits with `128 + number` as always.

use std::collections::VecDeque;
use std::time::Duration;

use tokio::sync::mpsc::UnboundedReceiver;
use tokio_util::sync::CancellationToken;

use crate::terminal::{lend, Lend};

use crate::app::handover::{CommandJob, Handover, Job, Outcome};
use crate::runtime::run::Event;

/// How long a child has to exit after SIGTERM before it is killed.
pub const KILL_AFTER: Duration = Duration::from_secs(2);

/// Lends the terminal (its event reader already stopped by the caller), runs `h`'s job to
/// completion, and takes the terminal back. Events arriving meanwhile go to `backlog` for the
/// loop to handle afterwards, except SIGINT (the job's); SIGTERM/SIGHUP cancel the job.
pub async fn run(
    h: &Handover,
    rx: &mut UnboundedReceiver<Event>,
    backlog: &mut VecDeque<Event>,
    mouse: bool,
    cluster: Option<(kube::Client, tokio::runtime::Handle)>,
) -> Outcome {
    let cancel = CancellationToken::new();
    let (mode, job): (Lend, futures::future::BoxFuture<'static, Outcome>) = match &h.job {
        Job::Command(c) => (Lend::Cooked, Box::pin(run_command(c.clone(), cancel.clone()))),
        Job::Session(s) => {
            let Some((client, net)) = cluster else {
                return Outcome::Failed("not connected".into());
            };
            let job = crate::runtime::session::run(client, net, s.clone(), cancel.clone());
            (Lend::Raw, Box::pin(job))
        }
    };
    let lent = match lend(mode, mouse) {
        Ok(lent) => lent,
        Err(e) => return Outcome::Failed(format!("cannot hand the terminal over: {e}")),
    };
    tokio::pin!(job);
    let outcome = loop {
        tokio::select! {
            out = &mut job => break out,
            ev = rx.recv() => match ev {
                Some(Event::Signal(n)) if n == SIGINT => {}
                Some(ev @ Event::Signal(_)) => {
                    cancel.cancel();
                    backlog.push_back(ev);
                }
                Some(ev) => backlog.push_back(ev),
                None => cancel.cancel(),
            },
        }
    };
    if let Err(e) = lent.take_back() {
        return Outcome::Failed(format!("cannot take the terminal back: {e}"));
    }
    outcome
}

/// SIGINT's number.
const SIGINT: i32 = 2;

/// Runs a child process with the terminal; on `cancel`, SIGTERM then SIGKILL.
async fn run_command(c: CommandJob, cancel: CancellationToken) -> Outcome {
    use std::os::unix::process::ExitStatusExt;
    let mut cmd = tokio::process::Command::new(&c.program);
    cmd.args(&c.args).envs(c.env.iter().map(|(k, v)| (k, v)));
    cmd.kill_on_drop(true);
    let mut child = match cmd.spawn() {
        Ok(child) => child,
        Err(e) => return Outcome::Failed(format!("cannot run {}: {e}", c.program)),
    };
    let status = tokio::select! {
        st = child.wait() => st,
        _ = cancel.cancelled() => {
            if let Some(pid) = child.id().and_then(|p| i32::try_from(p).ok()) {
                // SAFETY: kill(2) on our own child's pid; no memory is involved.
                unsafe { libc::kill(pid, libc::SIGTERM) };
            }
            match tokio::time::timeout(KILL_AFTER, child.wait()).await {
                Ok(st) => st,
                Err(_) => {
                    let _ = child.start_kill();
                    child.wait().await
                }
            }
        }
    };
    match status {
        Ok(st) => match (st.code(), st.signal()) {
            (Some(code), _) => Outcome::Exited(code),
            (None, Some(n)) => Outcome::Signalled(n),
            (None, None) => Outcome::Failed(format!("{} ended: {st}", c.program)),
        },
        Err(e) => Outcome::Failed(format!("waiting for {} failed: {e}", c.program)),
    }
}
