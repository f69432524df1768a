//! Handing the terminal to a job (`Effect::HandOver`): a child process such as `$EDITOR`, or
//! an in-process session. Owns the job vocabulary, running a job while the loop's events wait
//! in a backlog, and what the outcome does to the state; must not draw. The terminal modes
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

use crate::app::effect::Effect;
use crate::app::state::UiState;
use crate::runtime::run::Event;

/// How long a child has to exit after SIGTERM before it is killed.
pub const KILL_AFTER: Duration = Duration::from_secs(2);

/// A job the terminal is handed to, and what to do with its outcome.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Handover {
    /// What the job is, for the footer (`vim /tmp/ktui-edit-….yaml`); already sanitized.
    pub label: String,
    /// What runs.
    pub job: Job,
    /// What the outcome does to the state once the terminal is back.
    pub then: Then,
}

/// What runs while the terminal is lent.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Job {
    /// A child process on this machine with the terminal in cooked mode (`$EDITOR FILE`).
    Command(CommandJob),
    /// An exec or attach session through the API server, with the terminal in raw mode
    /// (stdin pumped to the remote process, SIGWINCH forwarded as resizes).
    Session(crate::app::session::SessionJob),
}

/// A child process: `program args…`, inheriting stdin, stdout, stderr and the environment
/// plus `env`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CommandJob {
    /// Looked up in `PATH` when it has no `/`.
    pub program: String,
    pub args: Vec<String>,
    /// Set on top of ktui's own environment.
    pub env: Vec<(String, String)>,
}

/// What the state does with a job's outcome.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Then {
    /// Show the outcome in the footer (`vim …: exit code 1`).
    Note,
    /// The editor of an `e` edit exited: judge the file (see `app::edit`).
    Edit,
}

/// How a job ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// It exited with this code (a remote process's code for a session).
    Exited(i32),
    /// A child process was killed by this signal.
    Signalled(i32),
    /// It could not run or failed (the program is missing, the terminal could not be
    /// lent, the connection broke), in words.
    Failed(String),
    /// The user detached from a session (`ctrl-p ctrl-q`); the remote process goes on.
    Detached,
}

impl Outcome {
    /// The outcome in words: `exit code 3`, `killed by signal 15`, or the failure.
    pub fn words(&self) -> String {
        match self {
            Outcome::Exited(code) => format!("exit code {code}"),
            Outcome::Signalled(n) => format!("killed by signal {n}"),
            Outcome::Failed(e) => e.clone(),
            Outcome::Detached => "detached".into(),
        }
    }
}

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
