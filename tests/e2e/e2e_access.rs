//! The RBAC gate of shell, attach and port-forward against the real API server (issue 17):
//! the viewer context (the `view` role in team-a: no `pods/exec`, `pods/attach`,
//! `pods/portforward`) is not offered `s`, `a` or `shift-f` in the footer or `?` help, and
//! its keys say `forbidden: create pods/exec in team-a` without a request (the server's own
//! refusal would name the user and say `cannot create resource`, and a session would leave
//! the alternate screen); the admin is offered all three on the same pod.

use std::time::{Duration, Instant};

use crate::support::{self, Cluster};
use crate::util::{has_row, ktui_sized, SLOW};

/// Wide enough for the pod list's footer to reach the shell, attach and port-forward hints.
const WIDE: u16 = 220;

/// A running pod `name` (container `app`, on a hollow node) in team-a.
fn running_pod(cluster: &Cluster, name: &str) {
    let pod = serde_json::json!({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": name, "namespace": support::VIEWER_NS},
        "spec": {"containers": [{"name": "app", "image": "example.com/app:1",
            "ports": [{"containerPort": 8080}]}], "terminationGracePeriodSeconds": 0}});
    let file = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(file.path(), pod.to_string()).unwrap();
    cluster.kubectl_ok(&["create", "-f", file.path().to_str().unwrap()]);
    cluster.kubectl_ok(&[
        "wait",
        "-n",
        support::VIEWER_NS,
        "--for=condition=Ready",
        &format!("pod/{name}"),
        "--timeout=60s",
    ]);
}

/// ktui on `context`'s pods in team-a, narrowed to `name`.
fn on_pod(cluster: &Cluster, context: &str, name: &str) -> crate::util::Ktui {
    let mut k = ktui_sized(
        &cluster.kubeconfig,
        &["--context", context, "-n", support::VIEWER_NS, "-c", "pods"],
        40,
        WIDE,
    );
    k.wait_until(&format!("row {name}"), SLOW, |s| has_row(s, name));
    k.type_keys("/");
    k.type_keys(name);
    k.press_enter();
    k.wait_for(&format!("</{name}>"), SLOW);
    k
}

/// The footer (the last line).
fn footer(k: &crate::util::Ktui) -> String {
    k.lines().last().cloned().unwrap_or_default()
}

/// True once the help overlay is drawn whole: its bottom border (written after its rows)
/// is under its title.
fn help_drawn(screen: &str) -> bool {
    let lines: Vec<&str> = screen.lines().collect();
    let Some((top, col)) = lines
        .iter()
        .enumerate()
        .find_map(|(i, l)| l.find("┌ help").map(|at| (i, l[..at].chars().count())))
    else {
        return false;
    };
    lines[top + 1..].iter().any(|l| l.chars().nth(col) == Some('└'))
}

/// The `?` help's text, help closed again.
fn help(k: &mut crate::util::Ktui) -> String {
    k.type_keys("?");
    k.wait_until("the whole help", SLOW, help_drawn);
    let help = k.screen();
    k.type_keys("?");
    k.wait_gone("Keys", SLOW);
    help
}

#[test]
#[ignore = "real tier"]
fn the_viewer_is_not_offered_shell_attach_or_port_forward_and_is_told_why() {
    let Some(cluster) = support::shared_cluster() else {
        return;
    };
    let name = support::unique_ns("shell-gate");
    running_pod(&cluster, &name);

    // The admin is offered all three, in the footer and in help.
    let mut k = on_pod(&cluster, support::ADMIN, &name);
    k.wait_until(
        "the admin's footer offers shell, attach, port-forward",
        SLOW,
        |s| {
            let last = s.lines().last().unwrap_or_default();
            last.contains("<s> shell")
                && last.contains("<a> attach")
                && last.contains("<shift-f> port-forward")
        },
    );
    let h = help(&mut k);
    for offered in [
        "shell in the selected",
        "attach to the container",
        "port-forward to the selected",
    ] {
        assert!(h.contains(offered), "admin help lacks {offered:?}\n{h}");
    }
    k.command("q");
    assert!(k.wait_exit(SLOW).is_some());

    // The viewer: once the gate knows (it asks in the background), none of them.
    let mut k = on_pod(&cluster, support::VIEWER, &name);
    let t0 = Instant::now();
    let h = loop {
        let h = help(&mut k);
        if !h.contains("shell in the selected") {
            break h;
        }
        assert!(
            t0.elapsed() < SLOW,
            "help still offers the shell to the viewer\n{h}"
        );
        std::thread::sleep(Duration::from_millis(300));
    };
    for hidden in ["attach to the container", "port-forward to the selected"] {
        assert!(!h.contains(hidden), "viewer help offers {hidden:?}\n{h}");
    }
    let f = footer(&k);
    assert!(f.contains("<ctrl-c> quit"), "{f}");
    for hidden in ["<s>", "<a>", "<shift-f>"] {
        assert!(!f.contains(hidden), "viewer footer offers {hidden}: {f}");
    }
    for (key, says) in [
        ("s", "forbidden: create pods/exec in team-a"),
        ("a", "forbidden: create pods/attach in team-a"),
        ("F", "forbidden: create pods/portforward in team-a"),
    ] {
        k.type_keys(key);
        k.wait_for(says, SLOW);
        let s = k.screen();
        assert!(k.alternate_screen(), "{key}: no session started");
        assert!(
            !s.contains("cannot create resource") && !s.contains("reading the ports"),
            "{key}: a request was sent\n{s}"
        );
    }
    k.command("q");
    assert!(k.wait_exit(SLOW).is_some());
    crate::util::force_delete_pod(&cluster, support::VIEWER_NS, &name);
}
