//! One interactive session: stdin bytes in, output out, terminal sizes forwarded on the
//! resize channel, until the remote process exits (its code from the status channel), the
//! user detaches (`ctrl-p ctrl-q`) or the connection breaks. Owns the byte pumping; must not
//! touch the terminal itself.

use std::time::Duration;

use futures::SinkExt;
use k8s_openapi::api::core::v1::Pod;
use k8s_openapi::apimachinery::pkg::apis::meta::v1::Status;
use kube::api::{Api, AttachParams, AttachedProcess, TerminalSize};
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

/// Runs `argv` in `container` (`None`: attach to the main process) until it ends; see
/// [`SessionEnd`]. With `tty` the remote side gets a terminal (resizes forwarded); without,
/// stdout and stderr are both shown and the local terminal, still raw, behaves as a cooked
/// one would for a line-reading process: typed keys are echoed and `enter` sends `\n`. The
/// upgrade must come within [`START_TIMEOUT`] (else `Failed("attach did not start: …")`),
/// and [`DETACH`] typed while waiting for it gives up.
pub async fn run(
    client: &kube::Client,
    t: &ExecTarget,
    container: &str,
    argv: Option<Vec<String>>,
    tty: bool,
    io: SessionIo,
) -> SessionEnd {
    let SessionIo {
        mut input,
        mut sizes,
        mut output,
    } = io;
    let (mut proc, typed) = match start(client, t, container, argv, tty, &mut input, START_TIMEOUT).await {
        Ok(started) => started,
        Err(end) => return end,
    };
    let (Some(mut stdin), Some(mut stdout), Some(status)) = (proc.stdin(), proc.stdout(), proc.take_status())
    else {
        return SessionEnd::Failed("the session has no stdin, stdout or status".into());
    };
    // Without a terminal the process's stderr is a stream of its own.
    let mut stderr = proc.stderr();
    let mut resize = proc.terminal_size();
    tokio::pin!(status);
    // What was typed while the session started goes first, in order.
    let typed = if tty { typed } else { cooked(&typed, &mut output) };
    if !typed.is_empty() && stdin.write_all(&typed).await.is_err() {
        proc.abort();
        return SessionEnd::Failed("the connection closed".into());
    }
    let mut buf = vec![0u8; 16 << 10];
    let mut err_buf = vec![0u8; 16 << 10];
    let mut last = typed.last().copied().unwrap_or(0);
    let mut out_open = true;
    let mut err_open = stderr.is_some();
    let end = loop {
        tokio::select! {
            st = &mut status => break match st {
                Some(s) => match exit_code(&s) {
                    Some(code) => SessionEnd::Exited(code),
                    None => SessionEnd::Failed(crate::sanitize::sanitize(
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
                let chunk = if tty { chunk } else { cooked(&chunk, &mut output) };
                if stdin.write_all(&chunk).await.is_err() {
                    break SessionEnd::Failed("the connection closed".into());
                }
            },
            n = stdout.read(&mut buf), if out_open => match n {
                Ok(0) | Err(_) => out_open = false,
                Ok(n) => output(&buf[..n]),
            },
            n = async { stderr.as_mut()?.read(&mut err_buf).await.ok() }, if err_open => match n {
                Some(0) | None => err_open = false,
                Some(n) => output(&err_buf[..n]),
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

/// How long the API server has to answer a session's upgrade request (the websocket
/// handshake, which it only completes once the kubelet has answered its own): a server or
/// kubelet that never answers must not keep the terminal.
pub const START_TIMEOUT: Duration = Duration::from_secs(20);

/// What a line-reading process without a terminal gets for typed `keys`, echoed to `output`
/// as a cooked terminal would: `enter` (`\r`) is a newline, and the echo moves to the next
/// line for it; control bytes (escape sequences of special keys among them) are sent but not
/// echoed, so they cannot drive the local terminal.
fn cooked(keys: &[u8], output: &mut Output) -> Vec<u8> {
    let sent: Vec<u8> = keys.iter().map(|&b| if b == b'\r' { b'\n' } else { b }).collect();
    let mut echo = Vec::with_capacity(sent.len() + 1);
    let mut in_escape = false;
    for &b in &sent {
        match b {
            b'\n' => echo.extend_from_slice(b"\r\n"),
            0x1b => in_escape = true,
            // The final byte of an escape sequence (CSI/SS3 keys end in a letter or `~`).
            _ if in_escape => in_escape = !(b.is_ascii_alphabetic() || b == b'~'),
            b'\t' => echo.push(b),
            0x00..=0x1f | 0x7f => {}
            _ => echo.push(b),
        }
    }
    output(&echo);
    sent
}

/// Sends the exec or attach request (with a terminal when `tty`) and waits for its upgrade,
/// at most `deadline`. Keys typed meanwhile are kept (returned, to be sent first) unless they
/// hold [`DETACH`], which gives up at once ([`SessionEnd::Detached`]); the input closing
/// does too.
async fn start(
    client: &kube::Client,
    t: &ExecTarget,
    container: &str,
    argv: Option<Vec<String>>,
    tty: bool,
    input: &mut Receiver<Vec<u8>>,
    deadline: Duration,
) -> Result<(AttachedProcess, Vec<u8>), SessionEnd> {
    let pods: Api<Pod> = Api::namespaced(client.clone(), &t.namespace);
    let ap = if tty {
        AttachParams::interactive_tty()
    } else {
        AttachParams::default().stdin(true).stdout(true).stderr(true)
    }
    .container(container.to_owned());
    let what = if argv.is_some() { "exec" } else { "attach" };
    let request = async {
        match argv {
            Some(argv) => pods.exec(&t.pod, argv, &ap).await,
            None => pods.attach(&t.pod, &ap).await,
        }
    };
    tokio::pin!(request);
    let timer = tokio::time::sleep(deadline);
    tokio::pin!(timer);
    let mut typed = Vec::new();
    loop {
        tokio::select! {
            started = &mut request => {
                return started.map(|p| (p, typed)).map_err(|e| SessionEnd::Failed(api_words(&e)));
            }
            chunk = input.recv() => match chunk {
                Some(chunk) if detach_at(typed.last().copied().unwrap_or(0), &chunk).is_none() => {
                    typed.extend_from_slice(&chunk);
                }
                _ => return Err(SessionEnd::Detached),
            },
            () = &mut timer => {
                let waited = match deadline.as_millis() {
                    ms if ms < 1000 => format!("{ms} ms"),
                    _ => format!("{} s", deadline.as_secs()),
                };
                return Err(SessionEnd::Failed(format!(
                    "{what} did not start: no answer from the API server in {waited}"
                )));
            }
        }
    }
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

    /// A client of a server that accepts connections and never answers, and the target.
    async fn silent_server() -> (kube::Client, ExecTarget, tokio::task::JoinHandle<()>) {
        crate::client::install_crypto_provider();
        let l = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let url = format!("http://{}", l.local_addr().unwrap()).parse().unwrap();
        let held = tokio::spawn(async move {
            let mut open = Vec::new();
            while let Ok((s, _)) = l.accept().await {
                open.push(s);
            }
        });
        let client = kube::Client::try_from(kube::Config::new(url)).unwrap();
        let t = ExecTarget {
            context: None,
            namespace: "default".into(),
            pod: "quiet".into(),
            container: None,
        };
        (client, t, held)
    }

    #[tokio::test]
    async fn a_start_that_is_never_answered_ends_at_its_deadline() {
        let (client, t, held) = silent_server().await;
        let (_keys, mut input) = tokio::sync::mpsc::channel(4);
        let begun = std::time::Instant::now();
        let end = start(
            &client,
            &t,
            "app",
            None,
            true,
            &mut input,
            Duration::from_millis(300),
        )
        .await;
        let Err(SessionEnd::Failed(why)) = end else {
            panic!("expected a failure, got {:?}", end.map(|(_, typed)| typed));
        };
        assert_eq!(
            why,
            "attach did not start: no answer from the API server in 300 ms"
        );
        assert!(begun.elapsed() < Duration::from_secs(5), "{:?}", begun.elapsed());
        held.abort();
    }

    #[tokio::test]
    async fn detach_typed_while_starting_gives_up_and_other_keys_are_kept() {
        let (client, t, held) = silent_server().await;
        let (keys, mut input) = tokio::sync::mpsc::channel(4);
        keys.send(b"ls".to_vec()).await.unwrap();
        keys.send(vec![0x10]).await.unwrap();
        keys.send(vec![0x11]).await.unwrap();
        let argv = Some(vec!["sh".to_owned()]);
        let end = start(
            &client,
            &t,
            "app",
            argv,
            true,
            &mut input,
            Duration::from_secs(30),
        )
        .await;
        assert!(
            matches!(end, Err(SessionEnd::Detached)),
            "{:?}",
            end.map(|(_, typed)| typed)
        );
        held.abort();
    }

    #[test]
    fn without_a_terminal_enter_is_a_newline_and_keys_are_echoed() {
        let echoed = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let sink = echoed.clone();
        let mut output: Output = Box::new(move |b: &[u8]| sink.lock().unwrap().extend_from_slice(b));
        assert_eq!(cooked(b"ls -l\r", &mut output), b"ls -l\n");
        assert_eq!(cooked(b"a\nb", &mut output), b"a\nb");
        // Special keys and control bytes are sent, never echoed raw.
        assert_eq!(cooked(b"\x1b[A\x1b[2Jx\x07", &mut output), b"\x1b[A\x1b[2Jx\x07");
        assert_eq!(*echoed.lock().unwrap(), b"ls -l\r\na\r\nbx");
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
