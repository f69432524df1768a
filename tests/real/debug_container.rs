//! Debug containers against the real API server and a hollow kubelet (which starts
//! ephemeral containers): `kube::exec::debug::start` patches `pods/NAME/ephemeralcontainers`
//! as `kubectl debug --target` does and returns once the kubelet reports it running; a
//! second one gets another name; a pod that does not exist is the API's 404 in words.

use k8s_openapi::api::core::v1::Pod;
use ktui::kube::exec::debug::{debug_state, start, DebugState};
use ktui::kube::exec::ExecTarget;
use kube::api::Api;

use crate::support;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "real tier"]
async fn a_debug_container_targets_the_container_and_runs() {
    let Some(cluster) = support::shared_cluster() else {
        return;
    };
    let ns = cluster.create_ns("debug");
    let file = tempfile::NamedTempFile::new().unwrap();
    let pod = serde_json::json!({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "box", "namespace": ns},
        "spec": {"containers": [{"name": "app", "image": "example.com/app:1"}],
                 "terminationGracePeriodSeconds": 0}});
    std::fs::write(file.path(), pod.to_string()).unwrap();
    cluster.kubectl_ok(&["create", "-f", file.path().to_str().unwrap()]);
    cluster.kubectl_ok(&[
        "wait",
        "-n",
        &ns,
        "--for=condition=Ready",
        "pod/box",
        "--timeout=60s",
    ]);
    let client = cluster.client(support::ADMIN).await;
    let t = ExecTarget {
        context: None,
        namespace: ns.clone(),
        pod: "box".into(),
        container: None,
    };
    let first = start(&client, &t, "app", "busybox:1.36").await.unwrap();
    assert!(first.starts_with("debugger-") && first.len() == 14, "{first}");
    let pods: Api<Pod> = Api::namespaced(client.clone(), &ns);
    let p = pods.get("box").await.unwrap();
    let eph = &p.spec.as_ref().unwrap().ephemeral_containers.as_ref().unwrap()[0];
    assert_eq!(
        (
            eph.name.as_str(),
            eph.image.as_deref(),
            eph.target_container_name.as_deref()
        ),
        (first.as_str(), Some("busybox:1.36"), Some("app"))
    );
    assert_eq!((eph.stdin, eph.tty), (Some(true), Some(true)));
    assert_eq!(debug_state(&p, &first), DebugState::Running);
    let second = start(&client, &t, "app", "busybox:1.36").await.unwrap();
    assert_ne!(first, second);
    let missing = ExecTarget {
        context: None,
        pod: "nope".into(),
        ..t
    };
    let err = start(&client, &missing, "app", "busybox:1.36").await.unwrap_err();
    assert_eq!(err, "pods \"nope\" not found");
}
