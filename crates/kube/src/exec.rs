//! Exec and attach in-process through the API server: kube's websocket `pods/exec` and
//! `pods/attach` (the `v5.channel.k8s.io` protocol kube speaks). Owns choosing the container
//! (as `kubectl logs` does) and the shell (the first of `bash`, `ash`, `sh` that exists; `cmd`,
//! `powershell` on a node labelled `kubernetes.io/os=windows`), running the session and
//! reporting its exit code; must not touch the terminal (the caller hands in stdin bytes,
//! terminal sizes and an output writer) nor import the UI.

pub mod debug;
mod session;
mod shell;

pub use session::{run, Output, SessionEnd, SessionIo, DETACH};
pub use shell::{find_shell, resolve, shell_argv, Resolved, ShellSearch, LINUX_SHELLS, WINDOWS_SHELLS};

/// The pod (and maybe container) a session runs in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExecTarget {
    /// The kubeconfig context whose cluster holds the pod, inside a union of contexts
    /// (`None`: the context in use). The loop runs the session through that cluster's client.
    pub context: Option<String>,
    /// `metadata.namespace`.
    pub namespace: String,
    /// `metadata.name`.
    pub pod: String,
    /// The container; `None` picks it as `kubectl` does (see [`resolve`]).
    pub container: Option<String>,
}

/// What a session runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SessionKind {
    /// The first shell that exists (see [`find_shell`]).
    Shell,
    /// This command (`run a command…`), with a terminal.
    Command(Vec<String>),
    /// Attach to the container's main process (`pods/attach`).
    Attach,
    /// A debug container running `image`, targeting the container (see [`debug`]), then
    /// attached to with a terminal.
    Debug { image: String },
}

/// The access a debug container needs first, as a SelfSubjectAccessReview asks it (then
/// `create pods/attach` to use it): `kubectl debug`'s patch of the subresource.
pub const DEBUG_NEEDS: (&str, &str, &str) = ("patch", "pods", "ephemeralcontainers");

/// The access each session kind needs, as a SelfSubjectAccessReview asks it: (verb,
/// resource, subresource). One place for the RBAC gate to read.
pub fn needs(kind: &SessionKind) -> (&'static str, &'static str, &'static str) {
    match kind {
        SessionKind::Shell | SessionKind::Command(_) => ("create", "pods", "exec"),
        SessionKind::Attach => ("create", "pods", "attach"),
        SessionKind::Debug { .. } => DEBUG_NEEDS,
    }
}
