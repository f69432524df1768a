//! One interactive session: stdin bytes in, output out, terminal sizes forwarded on the
//! resize channel, until the remote process exits (its code from the status channel), the
//! user detaches (`ctrl-p ctrl-q`) or the connection breaks. Owns the byte pumping; must not
//! touch the terminal itself.

use futures::SinkExt;
use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Status;
use kube::api::{Api, AttachParams, TerminalSize};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::sync::mpsc::Receiver;

use super::shell::api_words;
use super::ExecTarget;

/// The detach sequence, as `kubectl attach` and docker spell it: `ctrl-p` then `ctrl-q`.
pub const DETACH: [u8; 2] = [0x10, 0x11];

/// Writes the remote terminal's output.
pub type Output = Box<dyn FnMut(&[u8]) + Send>;

/// What a session reads and writes.
pub struct SessionIo {
    /// Bytes typed (raw terminal input), in order; closed when the terminal is gone.
    pub input: Receiver<Vec<u8>>,
    /// Terminal sizes as (columns, rows): the first at once, then one per resize.
    pub sizes: Receiver<(u16, u16)>,
    /// Where the remote terminal's output goes (ktui's stdout), chunk by chunk as it
    /// arrives; written at once (a terminal write, not a network wait).
    pub output: Output,
}

/// How a session ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SessionEnd {
    /// The remote process exited with this code (`Status` success is 0; a failure's
    /// `details.causes[reason=ExitCode]`).
    Exited(i32),
    /// The user typed [`DETACH`]; the remote process goes on.
    Detached,
    /// It could not start or broke, in words (403 on `pods/exec`, container not running).
    Failed(String),
}

/// Runs `argv` in `container` with a terminal (`None`: attach to the main process) until it
/// ends; see [`SessionEnd`].
pub async fn run(
    client: &kube::Client,
    t: &ExecTarget,
    container: &str,
    argv: Option<Vec<String>>,
    io: SessionIo,
) -> SessionEnd {
    let pods: Api<Pod> = Api::namespaced(client.clone(), &t.namespace);
    let ap = AttachParams::interactive_tty().container(container.to_owned());
    let started = match &argv {
        Some(argv) => pods.exec(&t.pod, argv.clone(), &ap).await,
        None => pods.attach(&t.pod, &ap).await,
    };
    let mut proc = match started {
        Ok(p) => p,
        Err(e) => return SessionEnd::Failed(api_words(&e)),
    };
    let (Some(mut stdin), Some(mut stdout), Some(status)) = (proc.stdin(), proc.stdout(), proc.take_status())
    else {
        return SessionEnd::Failed("the session has no stdin, stdout or status".into());
    };
    let mut resize = proc.terminal_size();
    let SessionIo {
        mut input,
        mut sizes,
        mut output,
    } = io;
    tokio::pin!(status);
    let mut buf = vec![0u8; 16 << 10];
    let mut last = 0u8;
    let mut out_open = true;
    let end = loop {
        tokio::select! {
            st = &mut status => break match st {
                Some(s) => match exit_code(&s) {
                    Some(code) => SessionEnd::Exited(code),
                    None => SessionEnd::Failed(crate::kube::sanitize::sanitize(
                        s.message.as_deref().unwrap_or("the session failed"),
                    )
                    .into_owned()),
                },
                None => SessionEnd::Failed("the connection closed without an exit status".into()),
            },
            chunk = input.recv() => {
                let Some(chunk) = chunk else { break SessionEnd::Detached };
                if let Some(i) = detach_at(last, &chunk) {
                    let _ = stdin.write_all(&chunk[..i]).await;
                    break SessionEnd::Detached;
                }
                last = chunk.last().copied().unwrap_or(last);
                if stdin.write_all(&chunk).await.is_err() {
                    break SessionEnd::Failed("the connection closed".into());
                }
            },
            n = stdout.read(&mut buf), if out_open => match n {
                Ok(0) | Err(_) => out_open = false,
                Ok(n) => output(&buf[..n]),
            },
            size = sizes.recv() => {
                if let (Some((width, height)), Some(tx)) = (size, resize.as_mut()) {
                    let _ = tx.send(TerminalSize { width, height }).await;
                }
            },
        }
    };
    // What the process printed last, before its status arrived.
    while let Ok(Ok(n)) =
        tokio::time::timeout(std::time::Duration::from_millis(50), stdout.read(&mut buf)).await
    {
        if n == 0 {
            break;
        }
        output(&buf[..n]);
    }
    proc.abort();
    end
}

/// Where [`DETACH`] completes in `chunk`, given the byte before it: the index of the
/// `ctrl-p` (bytes before it still go to the process).
fn detach_at(last: u8, chunk: &[u8]) -> Option<usize> {
    if last == DETACH[0] && chunk.first() == Some(&DETACH[1]) {
        return Some(0);
    }
    chunk.windows(2).position(|w| w == DETACH)
}

/// The exit code a status reports: 0 for success, else the `ExitCode` cause's number;
/// `None` for a failure that carries none (the command could not start).
pub(super) fn exit_code(s: &Status) -> Option<i32> {
    if s.status.as_deref() == Some("Success") {
        return Some(0);
    }
    s.details
        .as_ref()?
        .causes
        .as_ref()?
        .iter()
        .find(|c| c.reason.as_deref() == Some("ExitCode"))
        .and_then(|c| c.message.as_deref()?.parse().ok())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn detach_is_found_inside_a_chunk_and_across_chunks() {
        assert_eq!(detach_at(0, b"ls\x10\x11"), Some(2));
        assert_eq!(detach_at(0x10, b"\x11"), Some(0));
        assert_eq!(detach_at(0, b"\x11\x10"), None);
        assert_eq!(detach_at(0, b"plain"), None);
    }

    #[test]
    fn exit_codes_come_from_the_status() {
        let ok: Status = serde_json::from_value(serde_json::json!({"status": "Success"})).unwrap();
        assert_eq!(exit_code(&ok), Some(0));
        let three: Status = serde_json::from_value(serde_json::json!({
            "status": "Failure", "reason": "NonZeroExitCode",
            "message": "command terminated with non-zero exit code: error executing command [sh -c exit 3], exit code 3",
            "details": {"causes": [{"reason": "ExitCode", "message": "3"}]}
        }))
        .unwrap();
        assert_eq!(exit_code(&three), Some(3));
        let broken: Status =
            serde_json::from_value(serde_json::json!({"status": "Failure", "message": "boom"})).unwrap();
        assert_eq!(exit_code(&broken), None);
    }
}
