//! "run a command…": when a container has no shell, the `:` prompt opens pre-filled with
//! `exec pod/NAME -n NS -c CONTAINER -- ` and the typed command runs in the container with a
//! terminal, as `kubectl exec -it … -- CMD` (kube's websocket `pods/exec`). The `:exec`
//! command can also be typed. It runs a command in the cluster, so it is a write: refused in
//! read-only mode, and gated on `create pods/exec` like the shell. Owns the prompt and the
//! command's parsing; must not do I/O (`Effect::PrepareSession` runs it).

use crate::keys::Action;
use crate::kube::exec::{ExecTarget, SessionKind};
use crate::kube::sanitize::sanitize;

use crate::app::effect::Effect;
use crate::app::session::model::SessionRequest;
use crate::app::state::{Prompt, UiState};

/// No shell exists in `container` of `target`: says so and offers the command prompt.
pub fn offer(state: &mut UiState, target: &ExecTarget, container: &str, tried: &str) {
    // Inside a union the pod's cluster is named, so the command runs where the pod is.
    let at = target
        .context
        .as_ref()
        .map_or(String::new(), |c| format!(" --context {c}"));
    let line = format!(
        "exec pod/{} -n {} -c {}{at} -- ",
        target.pod, target.namespace, container
    );
    state.screens.prompt.open = Some(Prompt::Command(sanitize(&line).into_owned()));
    // The debug container is offered unless the gate knows it forbidden (asked now, so it
    // is known by the time `:debug` is typed).
    let debug = if crate::app::session::debug::forbidden(state, &target.namespace).is_some() {
        String::new()
    } else {
        format!(
            ", or :{}",
            sanitize(&crate::app::session::debug::offer_line(target, container))
        )
    };
    state.screens.footer.message = Some(format!(
        "no shell in {} (tried {tried}): type a command after --{debug}",
        sanitize(container),
    ));
    state.screens.footer.info = false;
    if let Some(q) = crate::app::session::debug::query(state, &target.namespace) {
        if state.conn.access.get(&q, std::time::Instant::now()).is_none() {
            state.emit(Effect::CheckAccess(q));
        }
    }
}

/// `:exec pod/NAME [-n NS] [-c CONTAINER] -- CMD ARG…`: runs CMD. Returns false for other
/// commands.
pub fn command(state: &mut UiState, line: &str) -> bool {
    if crate::app::session::debug::command(state, line) {
        return true;
    }
    let Some(rest) = line.trim_start().strip_prefix("exec ") else {
        return false;
    };
    let fail = |state: &mut UiState, e: String| {
        state.screens.footer.message = Some(format!("exec: {e}"));
        state.screens.footer.info = false;
    };
    if state.settings.readonly {
        fail(state, "read-only: nothing was run".into());
        return true;
    }
    if crate::app::writes::access::refuse(state, Action::Shell) {
        return true;
    }
    let ns = state.conn.namespace.clone().unwrap_or_else(|| "default".into());
    match parse(rest, &ns).and_then(|p| in_union(state, p)) {
        Ok((target, argv)) => {
            state.note(format!("connecting to pod/{}…", sanitize(&target.pod)));
            state.emit(Effect::PrepareSession(Box::new(SessionRequest {
                target,
                kind: SessionKind::Command(argv),
            })));
        }
        Err(e) => fail(state, e),
    }
    true
}

/// Inside a union a command names its cluster (`--context NAME`, see
/// `fleet::open::command_context`).
fn in_union(
    state: &UiState,
    (target, argv): (ExecTarget, Vec<String>),
) -> Result<(ExecTarget, Vec<String>), String> {
    let context =
        crate::app::fleet::open::command_context(state, target.context.as_deref(), "exec pod/NAME")?;
    Ok((ExecTarget { context, ..target }, argv))
}

/// The target and argv of `pod/NAME [-n NS] [-c C] [--context X] -- CMD…`; `ns` when no `-n`.
fn parse(rest: &str, ns: &str) -> Result<(ExecTarget, Vec<String>), String> {
    let (opts, cmd) = rest
        .split_once(" -- ")
        .or_else(|| rest.strip_suffix(" --").map(|o| (o, "")))
        .ok_or("usage: exec pod/NAME [-n NS] [-c CONTAINER] -- COMMAND [ARG…]")?;
    let (mut pod, mut namespace, mut container, mut context) = (None, None, None, None);
    let mut it = opts.split_whitespace();
    while let Some(w) = it.next() {
        match w {
            "-n" | "--namespace" => namespace = it.next(),
            "-c" | "--container" => container = it.next(),
            "--context" => context = it.next(),
            w => match w.strip_prefix("pod/").or_else(|| w.strip_prefix("po/")) {
                Some(p) if pod.is_none() && !p.is_empty() => pod = Some(p),
                _ => return Err(format!("unexpected {}", sanitize(w))),
            },
        }
    }
    let pod = pod.ok_or("name the pod: pod/NAME")?;
    let argv = words(cmd)?;
    if argv.is_empty() {
        return Err("type the command after --".into());
    }
    Ok((
        ExecTarget {
            context: context.map(str::to_owned),
            namespace: namespace.unwrap_or(ns).to_owned(),
            pod: pod.to_owned(),
            container: container.map(str::to_owned),
        },
        argv,
    ))
}

/// Splits `s` into words as a POSIX shell would for plain words, 'single' and "double"
/// quotes, backslash escapes and `#` comments, with no expansion of any kind (the
/// `shell-words` crate). Errors: an unterminated quote (`missing closing quote`).
fn words(s: &str) -> Result<Vec<String>, String> {
    shell_words::split(s).map_err(|e| format!("unterminated quote: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_target_options_and_quoted_words() {
        let (t, argv) = parse(
            r#"pod/web -n shop -c app -- sh -c 'echo "a b"' x\ y """#,
            "default",
        )
        .unwrap();
        assert_eq!(
            t,
            ExecTarget {
                context: None,
                namespace: "shop".into(),
                pod: "web".into(),
                container: Some("app".into())
            }
        );
        assert_eq!(argv, ["sh", "-c", "echo \"a b\"", "x y", ""]);
        let (t, argv) = parse("pod/web -- /busybox ls", "team-a").unwrap();
        assert_eq!((t.namespace.as_str(), t.container), ("team-a", None));
        assert_eq!(argv, ["/busybox", "ls"]);
    }

    #[test]
    fn refuses_what_it_cannot_run() {
        assert!(parse("pod/web -n a -c app -- ", "d")
            .unwrap_err()
            .contains("after --"));
        assert!(parse("pod/web -n a -c app --", "d")
            .unwrap_err()
            .contains("after --"));
        assert!(parse("pod/web ls", "d").unwrap_err().starts_with("usage"));
        assert!(parse("-n a -- ls", "d").unwrap_err().contains("pod/NAME"));
        assert!(parse("pod/web -- echo 'x", "d")
            .unwrap_err()
            .contains("unterminated"));
    }
}
