//! Tests of the client's request stack as [`super::connect`] builds it: writes answered
//! 429/503 reach the caller after one request (kube's default retry layer is off).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

use super::{connect, load_kubeconfig, ConnectOptions};
use crate::builtin::BuiltinKind;
use crate::write::evict::{evict, Evicted};
use crate::write::Target;

/// A plain-HTTP server answering every request with `status` (and `Retry-After: 1`, which
/// kube's server-aware retry policy would honour); counts the requests it saw.
async fn refusing_server(
    status: u16,
    reason: &'static str,
    message: &'static str,
) -> (u16, Arc<AtomicUsize>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let seen = Arc::new(AtomicUsize::new(0));
    let count = seen.clone();
    tokio::spawn(async move {
        loop {
            let Ok((mut sock, _)) = listener.accept().await else {
                return;
            };
            let count = count.clone();
            tokio::spawn(async move {
                let mut buf = vec![0u8; 64 * 1024];
                let mut have = Vec::new();
                loop {
                    let Ok(n) = sock.read(&mut buf).await else { return };
                    if n == 0 {
                        return;
                    }
                    have.extend_from_slice(&buf[..n]);
                    // One request per read burst: headers end, then a Content-Length body.
                    let Some(end) = have.windows(4).position(|w| w == b"\r\n\r\n") else {
                        continue;
                    };
                    let head = String::from_utf8_lossy(&have[..end]).to_lowercase();
                    let len = head
                        .lines()
                        .find_map(|l| l.strip_prefix("content-length:"))
                        .and_then(|v| v.trim().parse::<usize>().ok())
                        .unwrap_or(0);
                    if have.len() < end + 4 + len {
                        continue;
                    }
                    have.drain(..end + 4 + len);
                    count.fetch_add(1, Ordering::SeqCst);
                    let body = format!(
                        r#"{{"kind":"Status","apiVersion":"v1","status":"Failure","message":"{message}","reason":"{reason}","code":{status}}}"#
                    );
                    let resp = format!(
                        "HTTP/1.1 {status} {reason}\r\nContent-Type: application/json\r\nRetry-After: 1\r\nContent-Length: {}\r\n\r\n{body}",
                        body.len()
                    );
                    if sock.write_all(resp.as_bytes()).await.is_err() {
                        return;
                    }
                }
            });
        }
    });
    (port, seen)
}

fn kubeconfig(dir: &std::path::Path, port: u16) -> std::path::PathBuf {
    let path = dir.join("config");
    std::fs::write(
        &path,
        format!(
            "apiVersion: v1\nkind: Config\ncurrent-context: t\nclusters:\n- name: c\n  cluster:\n    server: http://127.0.0.1:{port}\ncontexts:\n- name: t\n  context:\n    cluster: c\n    user: u\n    namespace: team-a\nusers:\n- name: u\n  user:\n    token: not-a-secret\n"
        ),
    )
    .unwrap();
    path
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_eviction_refused_by_a_budget_is_answered_after_one_request() {
    let (port, seen) = refusing_server(
        429,
        "TooManyRequests",
        "Cannot evict pod as it would violate the pod's disruption budget.",
    )
    .await;
    let dir = tempfile::tempdir().unwrap();
    let opts = ConnectOptions {
        kubeconfig: Some(kubeconfig(dir.path(), port)),
        context: None,
    };
    let (client, _) = connect(&opts).await.unwrap();
    let pod = Target::new(BuiltinKind::Pod.into(), Some("team-a"), "web-1");
    let started = Instant::now();
    let got = tokio::time::timeout(Duration::from_secs(5), evict(&client, &pod, None))
        .await
        .expect("an eviction refused with 429 must not be retried by the client");
    assert_eq!(
        got,
        Ok(Evicted::Refused(
            "Cannot evict pod as it would violate the pod's disruption budget.".into()
        ))
    );
    assert_eq!(seen.load(Ordering::SeqCst), 1, "exactly one request");
    assert!(
        started.elapsed() < Duration::from_secs(1),
        "{:?}",
        started.elapsed()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_write_answered_503_fails_at_once_with_the_servers_message() {
    let (port, seen) = refusing_server(503, "ServiceUnavailable", "etcdserver: leader changed").await;
    let dir = tempfile::tempdir().unwrap();
    let opts = ConnectOptions {
        kubeconfig: Some(kubeconfig(dir.path(), port)),
        context: None,
    };
    let (client, _) = connect(&opts).await.unwrap();
    let target = Target::new(BuiltinKind::Deployment.into(), Some("team-a"), "web");
    let got = tokio::time::timeout(
        Duration::from_secs(5),
        crate::write::scale::scale(&client, &target, 3),
    )
    .await
    .expect("a 503 must not be retried by the client");
    let err = got.unwrap_err();
    assert_eq!(err.code, 503);
    assert!(
        err.message.contains("etcdserver: leader changed"),
        "{}",
        err.message
    );
    assert_eq!(seen.load(Ordering::SeqCst), 1, "exactly one request");
}

#[test]
fn a_missing_kubeconfig_is_one_sentence_with_its_cause_once() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("x");
    let e = format!("{:#}", load_kubeconfig(Some(&path)).unwrap_err());
    assert!(e.starts_with("cannot read the kubeconfig "), "{e}");
    assert!(e.contains(&path.display().to_string()), "{e}");
    assert_eq!(e.matches("os error 2").count(), 1, "the cause once: {e}");
    assert!(!e.contains("set KUBECONFIG"), "{e}");
}

/// A kubeconfig with context `ctx` of cluster `cluster` (the file's cluster `c` has server
/// `server`) and user `user`; the file's users are `users` (a YAML flow list).
fn kubeconfig_of(server: &str, cluster: &str, user: &str, users: &str) -> String {
    format!(
        "apiVersion: v1\nkind: Config\ncurrent-context: ctx\nclusters:\n- name: c\n  cluster:\n    \
         server: {server}\ncontexts:\n- name: ctx\n  context:\n    cluster: {cluster}\n    user: {user}\n\
         users: {users}\n"
    )
}

/// What `connect` says about `kubeconfig` (YAML) before any request.
async fn refusal(kubeconfig: String) -> String {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config");
    std::fs::write(&path, kubeconfig).unwrap();
    let opts = ConnectOptions {
        kubeconfig: Some(path),
        context: None,
    };
    match connect(&opts).await {
        Ok(_) => panic!("connected"),
        Err(e) => format!("{e:#}"),
    }
}

/// Issue 37: kube connects as `system:anonymous` when the context's user is missing, and
/// says `failed to parse cluster url: invalid uri character: invalid uri character` of a
/// malformed server; ktui names the user and says it as kubectl does, once.
#[tokio::test]
async fn missing_entries_and_bad_urls_are_named() {
    let anyone = "[{name: u, user: {token: t}}]";
    assert_eq!(
        refusal(kubeconfig_of("http://127.0.0.1:9", "c", "ghost", anyone)).await,
        "user \"ghost\" not found in kubeconfig (context \"ctx\")"
    );
    assert_eq!(
        refusal(kubeconfig_of("\"https://exa mple.com:abc\"", "c", "u", anyone)).await,
        "cluster \"c\": host must be a URL or a host:port pair: \"https://exa mple.com:abc\" (invalid uri character)"
    );
    assert_eq!(
        refusal(kubeconfig_of("http://127.0.0.1:9", "gone", "u", anyone)).await,
        "cluster \"gone\" not found in kubeconfig (context \"ctx\")"
    );
}

#[test]
fn the_user_agent_names_ktui_its_version_and_platform() {
    let ua = super::user_agent();
    assert_eq!(
        ua,
        format!(
            "ktui/{} ({}/{})",
            env!("CARGO_PKG_VERSION"),
            std::env::consts::OS,
            std::env::consts::ARCH
        )
    );
    let mut config = kube::Config::new("http://127.0.0.1:9".parse().unwrap());
    super::identify(&mut config).unwrap();
    super::identify(&mut config).unwrap();
    let agents: Vec<_> = config
        .headers
        .iter()
        .filter(|(n, _)| n == http::header::USER_AGENT)
        .collect();
    assert_eq!(agents.len(), 1, "once, however often identified");
}
