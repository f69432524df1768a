//! The state of shell, attach and debug sessions: what is asked ([`SessionRequest`]), what
//! the preparation found ([`Prepared`]) and what runs ([`SessionJob`]). Plain data; must not
//! import `UiState` nor any transition, perform I/O or draw.

use crate::kube::exec::{ExecTarget, Resolved, SessionKind, ShellSearch};

/// What a session runs once prepared.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionJob {
    /// The pod.
    pub target: ExecTarget,
    /// The container chosen (see `kube::exec::resolve`).
    pub container: String,
    /// The command; `None` attaches to the main process.
    pub argv: Option<Vec<String>>,
    /// The remote side gets a terminal: always for a shell or command; for attach only when
    /// the container has one (`spec.containers[].tty`), as `kubectl attach` decides — asking
    /// a container without one for a terminal is not what its process expects.
    pub tty: bool,
}

/// A session asked for (`Effect::PrepareSession`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionRequest {
    /// The pod and maybe the container.
    pub target: ExecTarget,
    /// Shell, command or attach.
    pub kind: SessionKind,
}

/// What the preparation found, for [`prepared`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Prepared {
    /// What was asked.
    pub request: SessionRequest,
    /// The container and OS, and for a shell which one exists; or the failure in words.
    pub found: Result<(Resolved, Option<ShellSearch>), String>,
}
