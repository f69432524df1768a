//! Debug containers from the UI, with `kubectl debug -it POD --image=IMAGE --target=C`
//! semantics: `:debug pod/NAME [-n NS] [-c CONTAINER] [--image IMAGE]` (the "no shell"
//! footer offers it, the image pre-filled with `busybox:1.36`) opens the write dialog naming
//! the pod, the container targeted, the image and the **context**, "no" selected; on `y` the
//! session preparation adds the ephemeral container, waits for it to run and the terminal is
//! handed to an attach with a tty. A write: refused in read-only mode, and refused without a
//! request when `patch pods/ephemeralcontainers` is known to be forbidden. Owns the command,
//! the dialog's content and the permission it needs; must not do I/O.

use std::time::Instant;

use crate::kube::exec::{debug::DEFAULT_IMAGE, ExecTarget, SessionKind, DEBUG_NEEDS};
use crate::kube::sanitize::sanitize;
use crate::kube::write::access::Permission;

use crate::app::effect::Effect;
use crate::app::session::model::SessionRequest;
use crate::app::state::UiState;
use crate::app::writes::model::AccessQuery;
use crate::app::writes::model::{Dialog, Then};

/// The `:debug` line offered for `container` of `target`.
pub fn offer_line(target: &ExecTarget, container: &str) -> String {
    format!(
        "debug pod/{} -n {} -c {} --image {DEFAULT_IMAGE}",
        target.pod, target.namespace, container
    )
}

/// The RBAC question of a debug container in `namespace` of the current context.
pub fn query(state: &UiState, namespace: &str) -> Option<AccessQuery> {
    let (verb, resource, sub) = DEBUG_NEEDS;
    Some(AccessQuery {
        context: state.conn.context.clone()?,
        permission: Permission {
            verb,
            group: String::new(),
            resource: resource.to_owned(),
            subresource: sub,
            namespace: namespace.to_owned(),
        },
    })
}

/// Whether a debug container in `namespace` is known to be forbidden.
pub fn forbidden(state: &UiState, namespace: &str) -> Option<Permission> {
    let q = query(state, namespace)?;
    (state.conn.access.get(&q, Instant::now()) == Some(false)).then_some(q.permission)
}

/// `:debug …`: opens the dialog. Returns false for other commands.
pub fn command(state: &mut UiState, line: &str) -> bool {
    let line = line.trim();
    let Some(rest) = line
        .strip_prefix("debug")
        .filter(|r| r.is_empty() || r.starts_with(' '))
    else {
        return false;
    };
    let fail = |state: &mut UiState, e: String| {
        state.screens.footer.message = Some(format!("debug: {e}"));
        state.screens.footer.info = false;
    };
    if state.settings.readonly {
        fail(state, "read-only: nothing was started".into());
        return true;
    }
    let ns = state.conn.namespace.clone().unwrap_or_else(|| "default".into());
    let (target, image) = match parse(rest, &ns) {
        Ok(p) => p,
        Err(e) => {
            fail(state, e);
            return true;
        }
    };
    if let Some(p) = forbidden(state, &target.namespace) {
        state.screens.footer.message = Some(format!("forbidden: {p}"));
        return true;
    }
    let Some(context) = state.conn.context.clone() else {
        fail(state, "not connected: nothing to write to".into());
        return true;
    };
    let pod = sanitize(&target.pod).into_owned();
    let target_pod = target.pod.clone();
    let c = target.container.as_deref().map_or_else(
        || "the default container".to_owned(),
        |c| format!("container {}", sanitize(c)),
    );
    let lines = vec![
        format!("pod: {pod}"),
        format!("namespace: {}", sanitize(&target.namespace)),
        format!("image: {}, sharing the processes of {c}", sanitize(&image)),
        format!("context: {}", sanitize(&context)),
    ];
    let summary = format!("adding a debug container ({}) to pod/{pod}", sanitize(&image));
    let then = Then::Debug(Box::new(SessionRequest {
        target,
        kind: SessionKind::Debug { image },
    }));
    let mut d = Dialog::new(
        format!("add a debug container to pod/{pod}?"),
        lines,
        Vec::new(),
        then,
        context.clone(),
        summary,
    );
    // A protected context asks for the pod's name typed, as every other write does.
    if state.settings.protected.iter().any(|p| p.is_match(&context)) {
        d.require = Some(target_pod);
    }
    state.screens.overlays.dialog = Some(Box::new(d));
    true
}

/// The dialog's "yes": the preparation adds the container, then the session attaches.
pub fn confirmed(state: &mut UiState, req: Box<SessionRequest>, context: &str, summary: &str) {
    if state.settings.readonly {
        state.screens.footer.message = Some("read-only: nothing was sent".into());
        return;
    }
    if state.conn.context.as_deref() != Some(context) {
        state.screens.footer.message = Some(format!(
            "the context changed since the dialog opened (was {context}): nothing was sent"
        ));
        return;
    }
    state.note(format!("{summary} (context {context})…"));
    state.emit(Effect::PrepareSession(req));
}

/// The target and image of `pod/NAME [-n NS] [-c C] [--image IMAGE]`; `ns` when no `-n`.
fn parse(rest: &str, ns: &str) -> Result<(ExecTarget, String), String> {
    let (mut pod, mut namespace, mut container, mut image) = (None, None, None, None);
    let mut it = rest.split_whitespace();
    while let Some(w) = it.next() {
        match w {
            "-n" | "--namespace" => namespace = it.next(),
            "-c" | "--container" | "--target" => container = it.next(),
            "--image" => image = it.next(),
            w => match w.strip_prefix("--image=").map(|i| (true, i)).or_else(|| {
                w.strip_prefix("pod/")
                    .or_else(|| w.strip_prefix("po/"))
                    .map(|p| (false, p))
            }) {
                Some((true, i)) => image = Some(i),
                Some((false, p)) if pod.is_none() && !p.is_empty() => pod = Some(p),
                _ => return Err(format!("unexpected {}", sanitize(w))),
            },
        }
    }
    let pod = pod.ok_or("usage: debug pod/NAME [-n NS] [-c CONTAINER] [--image IMAGE]")?;
    let image = image.unwrap_or(DEFAULT_IMAGE);
    if image.is_empty() || image.chars().any(|c| c.is_whitespace() || c.is_control()) {
        return Err("give an image: --image IMAGE".into());
    }
    Ok((
        ExecTarget {
            context: None,
            namespace: namespace.unwrap_or(ns).to_owned(),
            pod: pod.to_owned(),
            container: container.map(str::to_owned),
        },
        image.to_owned(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_command_names_pod_container_namespace_and_image() {
        let (t, image) = parse(" pod/web -n shop -c app --image alpine:3.20", "default").unwrap();
        assert_eq!(
            (
                t.pod.as_str(),
                t.namespace.as_str(),
                t.container.as_deref(),
                image.as_str()
            ),
            ("web", "shop", Some("app"), "alpine:3.20")
        );
        let (t, image) = parse(" pod/web --image=busybox:1.37", "team-a").unwrap();
        assert_eq!(
            (t.namespace.as_str(), t.container, image.as_str()),
            ("team-a", None, "busybox:1.37")
        );
        assert_eq!(parse(" pod/web", "a").unwrap().1, DEFAULT_IMAGE);
        assert!(parse(" web", "a").is_err());
        assert!(parse("", "a").is_err());
    }

    #[test]
    fn the_offer_is_a_debug_line_with_the_default_image() {
        let t = ExecTarget {
            context: None,
            namespace: "shop".into(),
            pod: "web".into(),
            container: None,
        };
        assert_eq!(
            offer_line(&t, "app"),
            "debug pod/web -n shop -c app --image busybox:1.36"
        );
    }
}
