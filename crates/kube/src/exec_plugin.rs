//! Runs a kubeconfig `exec` credential plugin (the client.authentication.k8s.io
//! `ExecCredential` protocol) so that it can never touch ktui's terminal: its own session
//! with no controlling terminal (`setsid`, so `/dev/tty` cannot be opened), stdin from
//! `/dev/null`, stdout read as the credential, stderr captured (its size logged, never its
//! text), a deadline, and its whole process group killed on timeout, when the waiting
//! future is dropped (context switch, informer stopped) and at exit ([`kill_running`]).
//! Owns the child processes; must not cache credentials (see `exec_auth`) nor log tokens.
//!
//! Why not kube's own exec support: it runs the plugin with `std::process::Command::output`
//! inside `Client::try_from` — synchronously on an async worker thread, without a timeout,
//! inheriting the controlling terminal (issue 13: a plugin reading `/dev/tty` wrote over the
//! screen and outlived ktui; two hung plugins wedged the network runtime).

use std::collections::BTreeSet;
use std::process::Stdio;
use std::sync::Mutex;
use std::time::Duration;

use kube::config::{ExecAuthCluster, ExecConfig};
use serde::{Deserialize, Serialize};

use super::failure::one_line;

/// Process groups (= leader pids) of plugins still running, for [`kill_running`].
static RUNNING: Mutex<BTreeSet<i32>> = Mutex::new(BTreeSet::new());

/// What a plugin answered: `status` of its `ExecCredential`. Holds secrets: never log it.
#[derive(Clone, Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ExecCredentialStatus {
    /// `status.token`: a bearer token.
    #[serde(default)]
    pub token: Option<String>,
    /// `status.expirationTimestamp` (RFC 3339); absent: valid until the server says 401.
    #[serde(default)]
    pub expiration_timestamp: Option<String>,
    /// `status.clientCertificateData` (PEM).
    #[serde(default)]
    pub client_certificate_data: Option<String>,
    /// `status.clientKeyData` (PEM).
    #[serde(default)]
    pub client_key_data: Option<String>,
}

impl std::fmt::Debug for ExecCredentialStatus {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ExecCredentialStatus")
            .field("token", &self.token.as_ref().map(|_| "<redacted>"))
            .field("expiration_timestamp", &self.expiration_timestamp)
            .field("client_certificate", &self.client_certificate_data.is_some())
            .finish()
    }
}

impl ExecCredentialStatus {
    /// `expirationTimestamp` parsed; `Err` names the malformed value.
    pub fn expiration(&self) -> Result<Option<jiff::Timestamp>, String> {
        self.expiration_timestamp
            .as_deref()
            .map(|t| {
                t.parse::<jiff::Timestamp>()
                    .map_err(|e| format!("malformed expirationTimestamp {t:?}: {e}"))
            })
            .transpose()
    }
}

#[derive(Deserialize)]
struct ExecCredential {
    #[serde(default)]
    status: Option<ExecCredentialStatus>,
}

/// `KUBERNETES_EXEC_INFO`: what the plugin is told about the call.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ExecInfo<'a> {
    api_version: &'a str,
    kind: &'static str,
    spec: ExecInfoSpec<'a>,
}

#[derive(Serialize)]
struct ExecInfoSpec<'a> {
    /// Always false: ktui owns the terminal.
    interactive: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    cluster: Option<&'a ExecAuthCluster>,
}

/// Why a plugin gave no credential; the text is one sanitized line naming the command.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ExecError(pub String);

/// Kills the process group of a running plugin when dropped, unless the plugin was reaped.
struct Group {
    pid: Option<i32>,
}

impl Group {
    fn new(pid: Option<u32>) -> Group {
        let pid = pid.and_then(|p| i32::try_from(p).ok());
        if let Some(p) = pid {
            lock().insert(p);
        }
        Group { pid }
    }

    /// The leader exited and was reaped: its pid may be reused, so never signal it again.
    fn reaped(&mut self) {
        if let Some(p) = self.pid.take() {
            lock().remove(&p);
        }
    }
}

impl Drop for Group {
    fn drop(&mut self) {
        if let Some(p) = self.pid.take() {
            lock().remove(&p);
            kill_group(p);
        }
    }
}

fn lock() -> std::sync::MutexGuard<'static, BTreeSet<i32>> {
    match RUNNING.lock() {
        Ok(g) => g,
        Err(p) => p.into_inner(),
    }
}

fn kill_group(pgid: i32) {
    // SAFETY: kill(2) with a negative pid signals a process group; no memory is involved.
    let r = unsafe { libc::kill(-pgid, libc::SIGKILL) };
    tracing::debug!(pgid, ok = r == 0, "exec plugin process group killed");
}

/// Kills every plugin still running (their whole process groups). Called at exit: a plugin
/// in its own session is not hung up with ktui's terminal.
pub fn kill_running() {
    let pids: Vec<i32> = std::mem::take(&mut *lock()).into_iter().collect();
    for p in pids {
        kill_group(p);
    }
}

/// How many plugins are running now (for tests and `:informers`-style diagnostics).
pub fn running() -> usize {
    lock().len()
}

/// The plugin's name for messages: its command as the kubeconfig writes it (a path, or a
/// name looked up in `PATH`), so the user can find the file that hung or failed.
fn name(exec: &ExecConfig) -> String {
    one_line(exec.command.as_deref().unwrap_or("?"))
}

/// Runs `exec` once and returns its credential. Fails after `deadline` (the process group is
/// killed), when the plugin exits non-zero (with the last line of its stderr), or when its
/// output is not an `ExecCredential` with a `status`. The plugin's stderr is read; the log
/// gets its size only (it may hold credentials).
pub async fn run(exec: &ExecConfig, deadline: Duration) -> Result<ExecCredentialStatus, ExecError> {
    let plugin = name(exec);
    let Some(command) = exec.command.as_deref() else {
        return Err(ExecError("exec plugin has no command".into()));
    };
    let mut cmd = tokio::process::Command::new(command);
    cmd.args(exec.args.iter().flatten());
    for pair in exec.env.iter().flatten() {
        if let (Some(k), Some(v)) = (pair.get("name"), pair.get("value")) {
            cmd.env(k, v);
        }
    }
    for k in exec.drop_env.iter().flatten() {
        cmd.env_remove(k);
    }
    let api_version = exec
        .api_version
        .as_deref()
        .unwrap_or("client.authentication.k8s.io/v1");
    let info = ExecInfo {
        api_version,
        kind: "ExecCredential",
        spec: ExecInfoSpec {
            interactive: false,
            cluster: exec.cluster.as_ref().filter(|_| exec.provide_cluster_info),
        },
    };
    if let Ok(json) = serde_json::to_string(&info) {
        cmd.env("KUBERNETES_EXEC_INFO", json);
    }
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    // SAFETY: setsid(2) is async-signal-safe and touches no memory of the parent; it runs in
    // the forked child before exec. A new session has no controlling terminal, so the plugin
    // cannot open /dev/tty, and its pid names a process group we can kill whole.
    unsafe {
        cmd.pre_exec(|| {
            if libc::setsid() == -1 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let child = cmd
        .spawn()
        .map_err(|e| ExecError(one_line(&format!("exec plugin {plugin} could not start: {e}"))))?;
    let mut group = Group::new(child.id());
    let out = match tokio::time::timeout(deadline, child.wait_with_output()).await {
        Err(_) => {
            drop(group);
            tracing::warn!(%plugin, ?deadline, "exec plugin timed out; killed");
            return Err(ExecError(format!(
                "exec plugin {plugin} did not answer within {}s (killed; it may be waiting for input it cannot get)",
                deadline.as_secs()
            )));
        }
        Ok(Err(e)) => return Err(ExecError(one_line(&format!("exec plugin {plugin}: {e}")))),
        Ok(Ok(out)) => {
            group.reaped();
            out
        }
    };
    let stderr = String::from_utf8_lossy(&out.stderr);
    let last = stderr.lines().rev().find(|l| !l.trim().is_empty()).unwrap_or("");
    if !stderr.trim().is_empty() {
        // Its size only: a plugin may print credentials there, and the log must never hold one.
        tracing::info!(%plugin, bytes = stderr.len(), "exec plugin wrote to stderr");
    }
    if !out.status.success() {
        let code = out
            .status
            .code()
            .map_or_else(|| "killed by a signal".to_owned(), |c| format!("exit {c}"));
        let tail = if last.is_empty() {
            String::new()
        } else {
            format!(": {last}")
        };
        return Err(ExecError(one_line(&format!(
            "exec plugin {plugin} failed ({code}){tail}"
        ))));
    }
    let cred: ExecCredential = serde_json::from_slice(&out.stdout).map_err(|e| {
        ExecError(one_line(&format!(
            "exec plugin {plugin} printed no ExecCredential: {e}"
        )))
    })?;
    cred.status
        .ok_or_else(|| ExecError(format!("exec plugin {plugin} returned no status")))
}
