//! "run a command…" against the real cluster's hollow kubelets, in a pty: a container
//! without any shell makes `s` say so and open the `:` prompt pre-filled with `exec pod/…
//! -- `; the typed command runs in the container and its exit code comes back.

use std::time::Duration;

use crate::util::{assert_terminal_restored, ktui, wait_live, SLOW};

#[test]
#[ignore = "real tier"]
fn real_no_shell_offers_run_a_command_and_runs_it() {
    let Some(cluster) = crate::support::shared_cluster() else {
        return;
    };
    let ns = cluster.create_ns("e2e-cmd");
    // The container's PATH holds only `echo` (the hollow kubelet looks commands up there).
    let bin = tempfile::tempdir().unwrap();
    std::os::unix::fs::symlink("/bin/echo", bin.path().join("echo")).unwrap();
    let pod = serde_json::json!({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "bare", "namespace": ns},
        "spec": {"containers": [{"name": "app", "image": "example.com/app:1",
            "env": [{"name": "PATH", "value": bin.path().to_str().unwrap()}]}],
                 "terminationGracePeriodSeconds": 0}});
    let file = tempfile::NamedTempFile::new().unwrap();
    std::fs::write(file.path(), pod.to_string()).unwrap();
    cluster.kubectl_ok(&["create", "-f", file.path().to_str().unwrap()]);
    let mut k = ktui(&cluster, &["-n", &ns]);
    wait_live(&k);
    k.wait_until("the pod runs", Duration::from_secs(60), |s| {
        s.contains("bare") && s.contains("Running")
    });
    k.type_keys("s");
    k.wait_for("no shell in app (tried bash, ash, sh)", SLOW);
    k.wait_for(&format!(":exec pod/bare -n {ns} -c app --"), SLOW);
    assert!(k.alternate_screen(), "no session yet");
    k.type_keys("echo ran-it");
    k.press_enter();
    k.wait_until("ktui again", SLOW, |s| {
        k.alternate_screen() && s.contains("command in pod/bare -c app: exit code 0")
    });
    assert!(
        k.raw_contains("ran-it"),
        "the command's output reached the terminal"
    );
    k.command("q");
    assert!(k.wait_exit(SLOW).is_some());
    assert_terminal_restored(&k);
}
