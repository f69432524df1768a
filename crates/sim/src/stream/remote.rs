//! Exec and attach sessions of the simulated responder over the `v4`/`v5.channel.k8s.io`
//! protocol: each binary message starts with its channel (0 stdin, 1 stdout, 2 stderr,
//! 3 the closing `Status`, 4 resize `{"Width","Height"}`, 255 a `v5` stream close). Exec runs
//! the simulated shell or one of its commands; attach shows the container's demo log lines
//! as its main process "prints" them. Must not touch the store.

use std::time::Duration;

use futures::{SinkExt, StreamExt};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::WebSocketStream;

use super::shell::{exists, Container, Shell, SHELLS};
use super::Streams;
use crate::logtext::{self, Ending};

/// The upgraded connection of one session.
pub(super) type Ws = WebSocketStream<hyper_util::rt::TokioIo<hyper::upgrade::Upgraded>>;

const STDIN: u8 = 0;
const STDOUT: u8 = 1;
const STDERR: u8 = 2;
const ERROR: u8 = 3;
const RESIZE: u8 = 4;
/// `v5`: the client closed one of its streams (the next byte names it).
const CLOSE: u8 = 255;

/// The `Status` the error channel carries when the process ended with `code`, as the kubelet
/// words it.
pub fn exit_status(argv: &[String], code: i32) -> Value {
    if code == 0 {
        return json!({"metadata": {}, "status": "Success"});
    }
    json!({"metadata": {}, "status": "Failure",
        "message": format!(
            "command terminated with non-zero exit code: error executing command [{}], exit code {code}",
            argv.join(" ")
        ),
        "reason": "NonZeroExitCode",
        "details": {"causes": [{"reason": "ExitCode", "message": code.to_string()}]}})
}

/// The `Status` of a program that does not exist in the container (the runtime's words).
pub fn missing_status(program: &str) -> Value {
    let why = format!(
        "error executing command in container: failed to exec in container: failed to start exec: \
         OCI runtime exec failed: exec failed: unable to start container process: exec: \
         \"{program}\": executable file not found in $PATH: unknown"
    );
    json!({"metadata": {}, "status": "Failure", "message": format!("Internal error occurred: {why}"),
        "reason": "InternalError", "details": {"causes": [{"message": why}]}, "code": 500})
}

/// Sends what the session writes, dropping streams the client did not ask for.
struct Out<'a> {
    tx: &'a mut futures::stream::SplitSink<Ws, Message>,
    q: &'a Streams,
}

impl Out<'_> {
    async fn send(&mut self, channel: u8, bytes: &[u8]) -> bool {
        let wanted = match channel {
            STDOUT => self.q.stdout,
            // With a tty the remote side has one output stream.
            STDERR => self.q.stderr && !self.q.tty,
            _ => true,
        };
        if !wanted || (bytes.is_empty() && channel != ERROR) {
            return true;
        }
        let mut m = Vec::with_capacity(bytes.len() + 1);
        m.push(channel);
        m.extend_from_slice(bytes);
        self.tx.send(Message::binary(m)).await.is_ok()
    }

    async fn finish(&mut self, status: &Value) {
        let _ = self.send(ERROR, status.to_string().as_bytes()).await;
        let _ = self.tx.send(super::upgrade::normal_close()).await;
    }
}

/// What one client message means.
enum In {
    Stdin(Vec<u8>),
    Resize(u16, u16),
    /// Stdin closed (`v5` close signal).
    Eof,
    /// The client went away.
    Gone,
    Other,
}

fn read(m: Option<Result<Message, tokio_tungstenite::tungstenite::Error>>, v5: bool) -> In {
    let bytes = match m {
        Some(Ok(Message::Binary(b))) => b,
        Some(Ok(Message::Close(_))) | Some(Err(_)) | None => return In::Gone,
        Some(Ok(_)) => return In::Other,
    };
    match bytes.split_first() {
        Some((&STDIN, rest)) => In::Stdin(rest.to_vec()),
        Some((&RESIZE, rest)) => {
            let v: Value = serde_json::from_slice(rest).unwrap_or(Value::Null);
            let dim = |k: &str| v[k].as_u64().and_then(|n| u16::try_from(n).ok()).unwrap_or(0);
            In::Resize(dim("Width"), dim("Height"))
        }
        Some((&CLOSE, [STDIN])) if v5 => In::Eof,
        _ => In::Other,
    }
}

/// Runs an exec session: `command` in container `c` (whose image has a shell when `shell`).
pub(super) async fn exec(ws: Ws, v5: bool, c: Container, q: Streams, shell: bool) {
    let (mut tx, mut rx) = ws.split();
    let mut out = Out { tx: &mut tx, q: &q };
    let argv = q.command.clone();
    let prog = argv[0].as_str();
    if !shell || !exists(prog) {
        out.finish(&missing_status(prog)).await;
        return;
    }
    let base = prog.rsplit('/').next().unwrap_or(prog);
    let mut sh = Shell::new(c, if SHELLS.contains(&base) { base } else { "sh" }, q.tty);
    if !SHELLS.contains(&base) || argv.len() > 1 {
        let ran = match (SHELLS.contains(&base), argv.get(1).map(String::as_str)) {
            (true, Some("-c")) => sh.run(argv.get(2).map_or("", String::as_str)),
            (true, Some(script)) => super::shell::Ran {
                err: format!("{base}: can't open '{script}': No such file or directory\n"),
                exit: Some(2),
                ..Default::default()
            },
            _ => sh.command_argv(&argv),
        };
        let nl = |s: &str| {
            if q.tty {
                s.replace('\n', "\r\n")
            } else {
                s.to_owned()
            }
        };
        out.send(STDOUT, nl(&ran.out).as_bytes()).await;
        out.send(if q.tty { STDOUT } else { STDERR }, nl(&ran.err).as_bytes())
            .await;
        let code = ran.exit.unwrap_or_else(|| sh.status());
        out.finish(&exit_status(&argv, code)).await;
        return;
    }
    if q.tty {
        out.send(STDOUT, &sh.greeting()).await;
    } else {
        out.send(STDERR, sh.banner().as_bytes()).await;
    }
    loop {
        let fed = match read(rx.next().await, v5) {
            In::Stdin(b) => sh.feed(&b),
            In::Resize(w, h) => {
                sh.resize(w, h);
                continue;
            }
            // End of input ends the shell as it would `sh < script`.
            In::Eof => {
                let mut fed = sh.feed(b"\n");
                fed.exit = fed.exit.or(Some(sh.status()));
                fed
            }
            In::Gone => return,
            In::Other => continue,
        };
        if !out.send(STDOUT, &fed.out).await || !out.send(STDERR, &fed.err).await {
            return;
        }
        if let Some(code) = fed.exit {
            out.finish(&exit_status(&argv, code)).await;
            return;
        }
    }
}

/// Runs an attach session: the container's demo log lines (the last few, then each as its
/// time comes) until the client leaves or the instance ends.
pub(super) async fn attach(ws: Ws, v5: bool, c: Container, q: Streams, pod: Value) {
    let (mut tx, mut rx) = ws.split();
    let mut out = Out { tx: &mut tx, q: &q };
    let nl = if q.tty { "\r\n" } else { "\n" };
    let banner = format!(
        "ktui demo: attached to the simulated main process of container {} in pod {}/{}: \
         it prints the demo's log lines and reads no input (no real process runs).{nl}",
        c.name, c.namespace, c.pod
    );
    out.send(STDOUT, banner.as_bytes()).await;
    let boot = crate::logs::boot();
    let Ok(inst) = logtext::instance(&pod, &c.name, false, boot) else {
        out.finish(&exit_status(&[], 0)).await;
        return;
    };
    let now = || jiff::Timestamp::now().as_nanosecond();
    let mut from = inst.tail_from(5, now());
    let mut tick = tokio::time::interval(Duration::from_millis(250));
    loop {
        tokio::select! {
            _ = tick.tick() => {
                let to = now();
                let mut text = String::new();
                for (_, line) in inst.lines(from, to) {
                    text.push_str(&line);
                    text.push_str(nl);
                }
                from = to + 1;
                if !out.send(STDOUT, text.as_bytes()).await {
                    return;
                }
                if inst.end.is_some_and(|e| e <= to) {
                    let code = i32::from(inst.ending == Ending::Crashed);
                    out.finish(&exit_status(&[], code)).await;
                    return;
                }
            }
            m = rx.next() => if let In::Gone = read(m, v5) {
                return;
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn statuses_are_worded_as_the_kubelet_words_them() {
        let argv = vec!["sh".to_owned(), "-c".to_owned(), "exit 3".to_owned()];
        let s = exit_status(&argv, 3);
        assert_eq!(
            s["message"],
            "command terminated with non-zero exit code: error executing command [sh -c exit 3], exit code 3"
        );
        assert_eq!(
            s["details"]["causes"][0],
            json!({"reason": "ExitCode", "message": "3"})
        );
        assert_eq!(exit_status(&argv, 0)["status"], "Success");
        let m = missing_status("bash");
        assert!(m["message"]
            .as_str()
            .unwrap()
            .contains("\"bash\": executable file not found"));
    }
}
