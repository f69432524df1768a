//! The vocabulary of handing the terminal to a job (`Effect::HandOver`): what runs (a child
//! process such as `$EDITOR`, or an exec/attach session) and what its outcome does to the
//! state. Plain data; must not run anything (the runtime runs the job).

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
    Session(crate::app::session::model::SessionJob),
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
    /// The editor of an `e` edit exited: the runtime reads this file back and the edit
    /// judges its text (see `app::writes::edit`).
    Edit(std::path::PathBuf),
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
