//! Running a plugin detached (`Effect::RunPlugin`): the program with its argv items and
//! variables as environment, stdin empty, stdout and stderr read into a bounded tail whose
//! last non-blank line comes back with the exit status as `Event::PluginDone`. No shell is
//! involved. A foreground plugin is a handover (`runtime::handover`). Owns that process;
//! must not change UI state (`app::plugins::finished` does).

use std::process::Stdio;

use tokio::io::{AsyncRead, AsyncReadExt};
use tokio::sync::mpsc::UnboundedSender;

use crate::app::handover::Outcome;
use crate::app::plugins::model::{PluginDone, PluginRun, LAST_LINE_BYTES};
use crate::runtime::run::Event;

/// Starts `run` on `net`; its end is sent on `tx`. The process outlives nothing: it is not
/// killed when ktui exits (as k9s's background plugins), nor waited for.
pub fn spawn(net: &tokio::runtime::Handle, run: PluginRun, tx: UnboundedSender<Event>) {
    net.spawn(async move {
        let done = execute(run).await;
        let _ = tx.send(Event::PluginDone(Box::new(done)));
    });
}

/// Runs `run` to its end.
pub async fn execute(run: PluginRun) -> PluginDone {
    use std::os::unix::process::ExitStatusExt;
    let mut cmd = tokio::process::Command::new(&run.job.program);
    cmd.args(&run.job.args)
        .envs(run.job.env.iter().map(|(k, v)| (k, v)))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let done = |outcome, last_line| PluginDone {
        name: run.name.clone(),
        outcome,
        last_line,
    };
    let mut child = match cmd.spawn() {
        Ok(c) => c,
        Err(e) => {
            return done(
                Outcome::Failed(format!("cannot run {}: {e}", run.job.program)),
                None,
            )
        }
    };
    let (out, err) = (child.stdout.take(), child.stderr.take());
    let (out, err, status) = tokio::join!(tail(out), tail(err), child.wait());
    let last = last_line(&out).or_else(|| last_line(&err));
    let outcome = match status {
        Ok(st) => match (st.code(), st.signal()) {
            (Some(code), _) => Outcome::Exited(code),
            (None, Some(n)) => Outcome::Signalled(n),
            (None, None) => Outcome::Failed(format!("ended: {st}")),
        },
        Err(e) => Outcome::Failed(format!("waiting failed: {e}")),
    };
    done(outcome, last)
}

/// The last [`LAST_LINE_BYTES`] bytes `r` yields (all of it is read).
async fn tail(r: Option<impl AsyncRead + Unpin>) -> Vec<u8> {
    let Some(mut r) = r else { return Vec::new() };
    let mut kept = Vec::new();
    let mut buf = [0u8; 4096];
    while let Ok(n @ 1..) = r.read(&mut buf).await {
        kept.extend_from_slice(&buf[..n]);
        if kept.len() > LAST_LINE_BYTES {
            kept.drain(..kept.len() - LAST_LINE_BYTES);
        }
    }
    kept
}

/// The last non-blank line of `bytes` (lossy UTF-8).
fn last_line(bytes: &[u8]) -> Option<String> {
    String::from_utf8_lossy(bytes)
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .map(str::to_owned)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::app::handover::CommandJob;

    fn run(program: &str, args: &[&str]) -> PluginRun {
        PluginRun {
            name: "t".into(),
            label: String::new(),
            context: "c".into(),
            job: CommandJob {
                program: program.into(),
                args: args.iter().map(|s| (*s).to_owned()).collect(),
                env: vec![("NAME".into(), "web-1".into())],
            },
            background: true,
        }
    }

    #[tokio::test]
    async fn exit_status_and_last_line_come_back() {
        let d = execute(run("sh", &["-c", "echo one; echo \"two $NAME\"; echo; exit 3"])).await;
        assert_eq!(d.outcome, Outcome::Exited(3));
        assert_eq!(d.last_line.as_deref(), Some("two web-1"));
        let d = execute(run("sh", &["-c", "echo oops >&2"])).await;
        assert_eq!(
            (d.outcome, d.last_line.as_deref()),
            (Outcome::Exited(0), Some("oops"))
        );
        let d = execute(run("/nonexistent/ktui-plugin", &[])).await;
        assert!(
            matches!(d.outcome, Outcome::Failed(ref e) if e.contains("cannot run")),
            "{d:?}"
        );
    }

    #[tokio::test]
    async fn arguments_are_never_split_nor_shell_expanded() {
        let d = execute(run("printf", &["%s|", "a b; echo x", "$(id)"])).await;
        assert_eq!(d.last_line.as_deref(), Some("a b; echo x|$(id)|"));
    }
}
