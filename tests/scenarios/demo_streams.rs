//! The demo server's streaming subresources (`exec`, `attach`, `portforward`) through real
//! clients: kube-rs (as ktui uses it: the tty, the resize channel, the exit `Status`, the
//! port-forward channels) and kubectl (the test cluster's build, skipped with a note when it
//! is not built): the simulated responder answers them, says it is simulated, and refuses
//! what the API server refuses (a missing pod, a container that is not running, the viewer).

use std::time::Duration;

use futures::SinkExt;

use k8s_openapi::api::core::v1::Pod;
use kube::api::{Api, AttachParams, ListParams, TerminalSize};
use tokio::io::{AsyncReadExt, AsyncWriteExt};

use crate::demo_server::Kubectl;
use ktui::sim::cli::{start_in_process, DemoHandle};
use ktui::sim::DemoOptions;

fn quiet() -> DemoOptions {
    DemoOptions {
        live: false,
        ..DemoOptions::default()
    }
}

async fn client(demo: &DemoHandle, context: Option<&str>) -> kube::Client {
    ktui::kube::client::install_crypto_provider();
    let opts = ktui::kube::client::ConnectOptions {
        kubeconfig: Some(demo.kubeconfig.clone()),
        context: context.map(str::to_owned),
    };
    ktui::kube::client::connect(&opts)
        .await
        .expect("connects to the demo")
        .0
}

/// The name of the first pod in `ns` whose name starts with `prefix`.
async fn pod_named(pods: &Api<Pod>, prefix: &str) -> String {
    pods.list(&ListParams::default())
        .await
        .unwrap()
        .items
        .into_iter()
        .filter_map(|p| p.metadata.name)
        .find(|n| n.starts_with(prefix))
        .unwrap_or_else(|| panic!("no pod {prefix}*"))
}

/// Reads from `r` until the text read so far contains `want` (30 s at most).
async fn read_until(r: &mut (impl tokio::io::AsyncRead + Unpin), want: &str) -> String {
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    let done = tokio::time::timeout(Duration::from_secs(30), async {
        while !String::from_utf8_lossy(&got).contains(want) {
            let n = r.read(&mut buf).await.unwrap();
            assert!(
                n > 0,
                "stream ended before {want:?}: {}",
                String::from_utf8_lossy(&got)
            );
            got.extend_from_slice(&buf[..n]);
        }
    })
    .await;
    let text = String::from_utf8_lossy(&got).into_owned();
    assert!(done.is_ok(), "timed out waiting for {want:?}; got {text:?}");
    text
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kube_exec_gets_a_tty_shell_that_honours_resize_and_exits_with_its_code() {
    let demo = start_in_process(quiet()).await.unwrap();
    let pods: Api<Pod> = Api::namespaced(client(&demo, None).await, "shop");
    let name = pod_named(&pods, "frontend-").await;
    let ap = AttachParams::interactive_tty().container("frontend");
    let mut proc = pods.exec(&name, ["sh"], &ap).await.unwrap();
    let mut out = proc.stdout().unwrap();
    let mut input = proc.stdin().unwrap();
    let mut size = proc.terminal_size().unwrap();
    let status = proc.take_status().unwrap();
    let banner = read_until(&mut out, "/ # ").await;
    assert!(
        banner.contains(&format!(
            "ktui demo: simulated container frontend of pod shop/{name}"
        )),
        "{banner}"
    );
    size.send(TerminalSize {
        width: 101,
        height: 33,
    })
    .await
    .unwrap();
    // Resize and stdin are separate channels: ask until the new size has arrived.
    let mut sized = false;
    for _ in 0..50 {
        input.write_all(b"stty size\r").await.unwrap();
        if read_until(&mut out, "/ # ").await.contains("33 101\r\n") {
            sized = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    assert!(sized, "the resize never reached the shell");
    input.write_all(b"hostname; echo $HOME\r").await.unwrap();
    read_until(&mut out, &format!("{name}\r\n/root\r\n")).await;
    input.write_all(b"exit 4\r").await.unwrap();
    let st = tokio::time::timeout(Duration::from_secs(30), status)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(st.status.as_deref(), Some("Failure"));
    let cause = &st.details.unwrap().causes.unwrap()[0];
    assert_eq!(
        (cause.reason.as_deref(), cause.message.as_deref()),
        (Some("ExitCode"), Some("4"))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kube_attach_shows_the_containers_log_lines() {
    let demo = start_in_process(quiet()).await.unwrap();
    let pods: Api<Pod> = Api::namespaced(client(&demo, None).await, "shop");
    let name = pod_named(&pods, "frontend-").await;
    let ap = AttachParams::default().container("frontend").stderr(false);
    let mut proc = pods.attach(&name, &ap).await.unwrap();
    let mut out = proc.stdout().unwrap();
    let text = read_until(&mut out, "HTTP/1.1").await;
    assert!(
        text.starts_with("ktui demo: attached to the simulated main process of container frontend"),
        "{text}"
    );
    proc.abort();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kube_port_forward_answers_declared_ports_and_refuses_others() {
    let demo = start_in_process(quiet()).await.unwrap();
    let pods: Api<Pod> = Api::namespaced(client(&demo, None).await, "data");
    let mut pf = pods.portforward("postgres-0", &[5432, 81]).await.unwrap();
    let mut s = pf.take_stream(5432).unwrap();
    s.write_all(b"GET /x HTTP/1.1\r\nHost: a\r\n\r\n").await.unwrap();
    let mut got = String::new();
    tokio::time::timeout(Duration::from_secs(30), s.read_to_string(&mut got))
        .await
        .unwrap()
        .unwrap();
    assert!(got.starts_with("HTTP/1.1 200 OK"), "{got}");
    assert!(
        got.contains("simulated response from pod data/postgres-0, container postgres, port 5432 (pg)"),
        "{got}"
    );
    let refused = pf.take_error(81).unwrap().await.unwrap();
    assert!(
        refused.starts_with("error forwarding port 81 to pod postgres-0"),
        "{refused}"
    );
    assert!(refused.contains("connection refused"), "{refused}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn streams_are_refused_as_the_api_server_refuses_them() {
    let demo = start_in_process(quiet()).await.unwrap();
    let pods: Api<Pod> = Api::namespaced(client(&demo, None).await, "shop");
    let api_err = |r: Result<kube::api::AttachedProcess, kube::Error>| match r {
        Err(kube::Error::Api(s)) => (s.code, s.message),
        Err(e) => panic!("not an API error: {e}"),
        Ok(_) => panic!("the stream was opened"),
    };
    let ap = AttachParams::default().container("checkout");
    let crashing = pod_named(&pods, "checkout-").await;
    let (code, msg) = api_err(pods.exec(&crashing, ["sh"], &ap).await);
    assert_eq!(
        (code, msg.as_str()),
        (400, "container not running (\"checkout\")")
    );
    let (code, msg) = api_err(pods.exec("nope", ["sh"], &ap).await);
    assert_eq!((code, msg.as_str()), (404, "pods \"nope\" not found"));
    // The viewer may read pods but not exec into them.
    let viewer: Api<Pod> = Api::namespaced(client(&demo, Some("ktui-demo-viewer")).await, "shop");
    let name = pod_named(&viewer, "frontend-").await;
    let (code, msg) = api_err(viewer.exec(&name, ["sh"], &AttachParams::default()).await);
    assert_eq!(code, 403, "{msg}");
    assert!(msg.contains("cannot create resource \"pods/exec\""), "{msg}");
    // A program the image lacks: the runtime's words on the error channel.
    let mut proc = pods
        .exec(&name, ["bash"], &AttachParams::default().container("frontend"))
        .await
        .unwrap();
    let st = proc.take_status().unwrap().await.unwrap();
    assert!(
        st.message
            .unwrap()
            .contains("exec: \"bash\": executable file not found in $PATH"),
        "bash is not in the demo's containers"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kubectl_exec_runs_commands_and_returns_their_exit_codes() {
    let Some(k) = Kubectl::start(quiet()).await else {
        return;
    };
    let pod = "postgres-0";
    let out = k.ok(&["exec", "-n", "data", pod, "--", "hostname"]).await;
    assert_eq!(out, format!("{pod}\n"));
    let out = k
        .run(&[
            "exec",
            "-n",
            "data",
            pod,
            "--",
            "sh",
            "-c",
            "echo $HOSTNAME; exit 3",
        ])
        .await;
    assert_eq!(String::from_utf8_lossy(&out.stdout), format!("{pod}\n"));
    assert_eq!(
        out.status.code(),
        Some(3),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = k.run(&["exec", "-n", "data", pod, "--", "bash"]).await;
    assert!(!out.status.success());
    assert!(
        String::from_utf8_lossy(&out.stderr).contains("executable file not found"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = k
        .ok(&[
            "exec",
            "-n",
            "data",
            pod,
            "-c",
            "postgres",
            "--",
            "cat",
            "/etc/os-release",
        ])
        .await;
    assert!(out.contains("ktui demo: simulated container"), "{out}");
    // kubectl port-forward speaks SPDY (tunnelled over a websocket, then plain): the demo
    // refuses it in words rather than pretending.
    let out = k.run(&["port-forward", "-n", "data", pod, "0:5432"]).await;
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("not SPDY"), "{err}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_debug_container_starts_and_attaching_gives_its_shell() {
    let demo = start_in_process(quiet()).await.unwrap();
    let client = client(&demo, None).await;
    let pods: Api<Pod> = Api::namespaced(client.clone(), "kube-system");
    // CoreDNS's image has no shell: the case debug containers are for.
    let name = pod_named(&pods, "coredns-").await;
    let t = ktui::kube::exec::ExecTarget {
        context: None,
        namespace: "kube-system".into(),
        pod: name.clone(),
        container: None,
    };
    let debugger = ktui::kube::exec::debug::start(&client, &t, "coredns", "busybox:1.36")
        .await
        .unwrap();
    let p = pods.get(&name).await.unwrap();
    let eph = &p.spec.unwrap().ephemeral_containers.unwrap()[0];
    assert_eq!(
        (eph.name.as_str(), eph.target_container_name.as_deref()),
        (debugger.as_str(), Some("coredns"))
    );
    let ap = AttachParams::interactive_tty().container(debugger.clone());
    let mut proc = pods.attach(&name, &ap).await.unwrap();
    let mut out = proc.stdout().unwrap();
    let mut input = proc.stdin().unwrap();
    let status = proc.take_status().unwrap();
    let banner = read_until(&mut out, "/ # ").await;
    assert!(
        banner.contains(&format!(
            "simulated container {debugger} of pod kube-system/{name} (busybox:1.36)"
        )),
        "{banner}"
    );
    input.write_all(b"exit 0\r").await.unwrap();
    let st = tokio::time::timeout(Duration::from_secs(30), status)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(st.status.as_deref(), Some("Success"));
    // Removing it is refused, as the API server refuses it.
    let body = serde_json::json!({"spec": {"ephemeralContainers": []}});
    let err = pods
        .patch_subresource(
            "ephemeralcontainers",
            &name,
            &kube::api::PatchParams::default(),
            &kube::api::Patch::Merge(&body),
        )
        .await
        .unwrap_err();
    assert!(err.to_string().contains("may not be removed"), "{err}");
}
