//! Exec credential plugins as `kube::client::connect` runs them, against the demo server:
//! a hanging plugin never holds the runtime's thread (a timeout around the connect fires on a
//! single-threaded runtime, and dropping the attempt kills the plugin's process group), and a
//! token is renewed by running the plugin again once its `expirationTimestamp` is near.

use std::path::Path;
use std::time::{Duration, Instant};

use k8s_openapi::api::core::v1::Pod;
use ktui::kube::client::{connect, install_crypto_provider, ConnectOptions};
use ktui::sim::cli::start_in_process;
use ktui::sim::DemoOptions;
use kube::api::{Api, ListParams};

fn script(path: &Path, body: &str) {
    use std::os::unix::fs::PermissionsExt;
    std::fs::write(path, format!("#!/bin/sh\n{body}")).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

fn kubeconfig(dir: &Path, server: &str, plugin: &Path) -> std::path::PathBuf {
    let yaml = format!(
        "apiVersion: v1\nkind: Config\nclusters:\n- name: c\n  cluster:\n    server: {server}\n\
         contexts:\n- name: x\n  context:\n    cluster: c\n    user: u\ncurrent-context: x\n\
         users:\n- name: u\n  user:\n    exec:\n      apiVersion: client.authentication.k8s.io/v1\n      \
         command: {}\n",
        plugin.display()
    );
    let path = dir.join("kubeconfig");
    std::fs::write(&path, yaml).unwrap();
    path
}

fn alive(pid: i32) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| {
        s.rsplit_once(')')
            .is_some_and(|(_, r)| !r.trim_start().starts_with('Z'))
    })
}

#[tokio::test(flavor = "current_thread")]
async fn a_hanging_plugin_holds_no_thread_and_dies_with_its_attempt() {
    install_crypto_provider();
    let dir = tempfile::tempdir().unwrap();
    let plugin = dir.path().join("hang.sh");
    script(
        &plugin,
        &format!(
            "sleep 100000 &\necho $! > '{}/sleep.pid'\nwait\n",
            dir.path().display()
        ),
    );
    let opts = ConnectOptions {
        kubeconfig: Some(kubeconfig(dir.path(), "http://127.0.0.1:9", &plugin)),
        context: None,
    };
    let start = Instant::now();
    // One thread only: were the plugin waited for synchronously, this timer could not fire.
    let res = tokio::time::timeout(Duration::from_secs(2), connect(&opts)).await;
    assert!(res.is_err(), "connect returned though the plugin hangs");
    assert!(start.elapsed() < Duration::from_secs(6), "{:?}", start.elapsed());
    let pid: i32 = std::fs::read_to_string(dir.path().join("sleep.pid"))
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    let gone = Instant::now();
    while alive(pid) && gone.elapsed() < Duration::from_secs(5) {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(!alive(pid), "the plugin's child outlived the dropped attempt");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_exec_token_is_renewed_near_its_expiration_only() {
    install_crypto_provider();
    let demo = start_in_process(DemoOptions::default()).await.unwrap();
    for (expiry, runs) in [("2000-01-01T00:00:00Z", 4), ("2099-01-01T00:00:00Z", 1)] {
        let dir = tempfile::tempdir().unwrap();
        let plugin = dir.path().join("cred.sh");
        let count = dir.path().join("runs");
        script(
            &plugin,
            &format!(
                "echo run >> '{}'\nprintf '%s' '{{\"apiVersion\":\"client.authentication.k8s.io/v1\",\
                 \"kind\":\"ExecCredential\",\"status\":{{\"token\":\"t\",\"expirationTimestamp\":\"{expiry}\"}}}}'\n",
                count.display()
            ),
        );
        let opts = ConnectOptions {
            kubeconfig: Some(kubeconfig(dir.path(), &demo.server.url(), &plugin)),
            context: None,
        };
        let (client, _) = connect(&opts).await.unwrap();
        let pods: Api<Pod> = Api::all(client);
        for _ in 0..3 {
            pods.list(&ListParams::default().limit(1)).await.unwrap();
        }
        let seen = std::fs::read_to_string(&count).unwrap().lines().count();
        assert_eq!(seen, runs, "plugin runs with a token expiring {expiry}");
    }
}
