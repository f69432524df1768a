//! Which container and which shell: the pod and its node are read once (a GET each), then
//! each candidate shell is probed with `SHELL -c 'exit 0'` until one runs. Owns the choice;
//! must not run the interactive session.

use k8s_openapi::api::core::v1::{Node, Pod};
use kube::api::{Api, AttachParams};
use tokio::io::AsyncReadExt;

use super::ExecTarget;
use crate::logs::pods::DEFAULT_CONTAINER;
use crate::sanitize::sanitize;

/// The shells tried on Linux nodes, in order.
pub const LINUX_SHELLS: &[&str] = &["bash", "ash", "sh"];
/// The shells tried on Windows nodes, in order.
pub const WINDOWS_SHELLS: &[&str] = &["cmd", "powershell"];

/// What [`resolve`] found out about the target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Resolved {
    /// The container: the one asked for, else the `kubectl.kubernetes.io/default-container`
    /// annotation's when it names a container, else the first of `spec.containers`.
    pub container: String,
    /// The node's `kubernetes.io/os` label is `windows` (a node we may not read counts as
    /// Linux).
    pub windows: bool,
    /// `spec.containers[].tty` of that container (attach gets a terminal only then).
    pub tty: bool,
}

/// Reads the pod (and its node) to pick the container and the OS. Errors are the API's,
/// in words (`pods "x" not found`, `container "y" not found in pod "x"`).
pub async fn resolve(client: &kube::Client, t: &ExecTarget) -> Result<Resolved, String> {
    let pods: Api<Pod> = Api::namespaced(client.clone(), &t.namespace);
    let pod = pods.get(&t.pod).await.map_err(|e| api_words(&e))?;
    let spec = pod.spec.as_ref().ok_or("the pod has no spec")?;
    let annotated = pod
        .metadata
        .annotations
        .as_ref()
        .and_then(|a| a.get(DEFAULT_CONTAINER))
        .filter(|d| spec.containers.iter().any(|c| &c.name == *d));
    let name = t
        .container
        .as_ref()
        .or(annotated)
        .or(spec.containers.first().map(|c| &c.name))
        .ok_or("the pod has no containers")?;
    let container = spec
        .containers
        .iter()
        .chain(spec.init_containers.iter().flatten())
        .find(|c| &c.name == name);
    let Some(container) = container else {
        return Err(format!(
            "container {:?} not found in pod {:?}",
            sanitize(name),
            sanitize(&t.pod)
        ));
    };
    let mut windows = false;
    if let Some(node) = &spec.node_name {
        let nodes: Api<Node> = Api::all(client.clone());
        if let Ok(n) = nodes.get(node).await {
            windows = n
                .metadata
                .labels
                .as_ref()
                .and_then(|l| l.get("kubernetes.io/os"))
                .is_some_and(|os| os == "windows");
        }
    }
    Ok(Resolved {
        container: container.name.clone(),
        windows,
        tty: container.tty.unwrap_or(false),
    })
}

/// The argv that runs `shell` interactively.
pub fn shell_argv(shell: &str) -> Vec<String> {
    vec![shell.to_owned()]
}

/// What [`find_shell`] found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ShellSearch {
    /// This shell runs.
    Found(&'static str),
    /// None of the candidates exists in the container (they were all tried).
    None(Vec<&'static str>),
}

/// Tries each candidate shell of the node's OS in `container` with a command that exits 0
/// at once; the first that succeeds is the shell. A candidate that the runtime reports as
/// missing (`executable file not found`, `no such file`, exit 126/127) is skipped; any other
/// failure (403 on `pods/exec`, the container not running) ends the search with its words.
pub async fn find_shell(client: &kube::Client, t: &ExecTarget, r: &Resolved) -> Result<ShellSearch, String> {
    let pods: Api<Pod> = Api::namespaced(client.clone(), &t.namespace);
    let candidates = if r.windows { WINDOWS_SHELLS } else { LINUX_SHELLS };
    for shell in candidates {
        let argv: Vec<&str> = match *shell {
            "cmd" => vec!["cmd", "/c", "exit 0"],
            "powershell" => vec!["powershell", "-NoProfile", "-Command", "exit 0"],
            sh => vec![sh, "-c", "exit 0"],
        };
        let ap = AttachParams::default()
            .container(r.container.clone())
            .stdin(false)
            .stdout(false)
            .stderr(true);
        let mut proc = pods.exec(&t.pod, argv, &ap).await.map_err(|e| api_words(&e))?;
        let mut stderr = String::new();
        if let Some(mut err) = proc.stderr() {
            let _ = err.read_to_string(&mut stderr).await;
        }
        let status = match proc.take_status() {
            Some(s) => s.await,
            None => None,
        };
        let _ = proc.join().await;
        match status {
            Some(s) if s.status.as_deref() == Some("Success") => return Ok(ShellSearch::Found(shell)),
            Some(s) => {
                let code = super::session::exit_code(&s);
                let message = s.message.clone().unwrap_or_default();
                let words = format!("{message} {stderr}").to_lowercase();
                let missing = words.contains("not found")
                    || words.contains("no such file")
                    || matches!(code, Some(126 | 127));
                if !missing {
                    return Err(format!("{shell}: {}", sanitize(message.trim())));
                }
            }
            None => return Err("the exec stream ended without a status".into()),
        }
    }
    Ok(ShellSearch::None(candidates.to_vec()))
}

/// A kube error in words: the API's `Status` message when there is one.
pub(super) fn api_words(e: &kube::Error) -> String {
    match e {
        kube::Error::Api(s) => sanitize(&s.message).into_owned(),
        other => crate::failure::words(other),
    }
}
