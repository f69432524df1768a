//! End-to-end (issue 37, "say why it is not connected"): while ktui cannot connect, the
//! header names the context being connected and the reason — an exec credential plugin that
//! never answers (its path and the deadline), a server URL that is not one (kubectl's words),
//! a context whose user entry is missing from the kubeconfig (named, instead of connecting as
//! `system:anonymous`). Before, the header said `context: -  server: not connected`.

use std::path::{Path, PathBuf};
use std::time::Duration;

use crate::util::*;

/// A kubeconfig with one context `ctx` of cluster `c` (server `server`) and user `user`,
/// whose users are `users` (YAML list items).
fn kubeconfig(dir: &Path, ctx: &str, server: &str, user: &str, users: &str) -> PathBuf {
    let path = dir.join("config");
    std::fs::write(
        &path,
        format!(
            "apiVersion: v1\nkind: Config\ncurrent-context: {ctx}\nclusters:\n- name: c\n  cluster:\n    \
             server: {server}\ncontexts:\n- name: {ctx}\n  context:\n    cluster: c\n    user: {user}\n    \
             namespace: default\nusers:\n{users}"
        ),
    )
    .unwrap();
    path
}

/// The header's first line of a screen.
fn header(screen: &str) -> &str {
    screen.lines().next().unwrap_or_default()
}

#[test]
fn a_hung_exec_plugin_is_named_with_its_context_in_the_header() {
    use std::os::unix::fs::PermissionsExt;
    let dir = tempfile::tempdir().unwrap();
    let plugin = dir.path().join("hang.sh");
    std::fs::write(&plugin, "#!/bin/sh\nexec sleep 100000\n").unwrap();
    std::fs::set_permissions(&plugin, std::fs::Permissions::from_mode(0o755)).unwrap();
    let users = format!(
        "- name: u\n  user:\n    exec:\n      apiVersion: client.authentication.k8s.io/v1\n      \
         command: {}\n      interactiveMode: Never\n",
        plugin.display()
    );
    let kc = kubeconfig(dir.path(), "hung", "https://127.0.0.1:9", "u", &users);
    let mut k = ktui_sized(&kc, &[], 20, 220);
    k.wait_until("the context named while connecting", SLOW, |sc| {
        let h = header(sc);
        h.contains("context: hung") && h.contains("connecting")
    });
    let said = format!("exec plugin {} did not answer within 15s", plugin.display());
    k.wait_until(
        "the plugin's timeout in the header",
        Duration::from_secs(40),
        |sc| {
            let h = header(sc);
            h.contains("context: hung") && h.contains(&said)
        },
    );
    k.press_ctrl_c();
    k.wait_exit(SLOW).expect("ktui exits on ctrl-c");
}

#[test]
fn a_malformed_server_url_is_said_in_the_header() {
    let dir = tempfile::tempdir().unwrap();
    let users = "- name: u\n  user:\n    token: abc\n";
    let kc = kubeconfig(dir.path(), "bad", "\"https://exa mple.com:abc\"", "u", users);
    let mut k = ktui_sized(&kc, &[], 20, 220);
    let said = "host must be a URL or a host:port pair: \"https://exa mple.com:abc\"";
    k.wait_until("the URL error in the header", SLOW, |sc| {
        let h = header(sc);
        h.contains("context: bad") && h.contains(said)
    });
    k.press_ctrl_c();
    k.wait_exit(SLOW).expect("ktui exits on ctrl-c");
}

#[test]
fn a_missing_user_is_named_not_anonymous() {
    let dir = tempfile::tempdir().unwrap();
    let users = "- name: someone-else\n  user:\n    token: abc\n";
    let kc = kubeconfig(dir.path(), "lost", "http://127.0.0.1:9", "ghost", users);
    let mut k = ktui_sized(&kc, &[], 20, 220);
    k.wait_until("the missing user in the header", SLOW, |sc| {
        let h = header(sc);
        h.contains("context: lost") && h.contains("user \"ghost\" not found in kubeconfig")
    });
    k.press_ctrl_c();
    k.wait_exit(SLOW).expect("ktui exits on ctrl-c");
}
