//! The real tier's own checks: the test cluster scripts (tests/cluster/) do what the other
//! real-tier tests rely on. Run with `bash tests/run.sh --test real real_cluster::`.
use crate::support;

use std::time::Duration;

use futures::StreamExt;
use k8s_openapi::api::core::v1::{ConfigMap, Namespace, Node, Pod};
use kube::api::{Api, ListParams, PostParams, WatchEvent, WatchParams};

/// On the shared cluster: namespaces and nodes list through `kube::Client` from
/// DIR/kubeconfig, the server says v1.37.2, and the viewer context may read team-a only.
#[tokio::test]
#[ignore = "real tier"]
async fn shared_cluster_lists_and_enforces_viewer_rbac() {
    let Some(cluster) = support::shared_cluster() else {
        return;
    };
    let admin = cluster.client(support::ADMIN).await;

    let namespaces = Api::<Namespace>::all(admin.clone())
        .list(&ListParams::default())
        .await
        .unwrap();
    let names: Vec<_> = namespaces
        .items
        .iter()
        .filter_map(|n| n.metadata.name.clone())
        .collect();
    for want in ["default", "kube-system", support::VIEWER_NS] {
        assert!(
            names.iter().any(|n| n == want),
            "namespace {want} missing from {names:?}"
        );
    }

    let version = admin.apiserver_version().await.unwrap();
    assert_eq!(version.git_version, "v1.37.2");

    let nodes = Api::<Node>::all(admin.clone())
        .list(&ListParams::default())
        .await
        .unwrap();
    for want in support::NODES {
        let node = nodes
            .items
            .iter()
            .find(|n| n.metadata.name.as_deref() == Some(want));
        let node = node.unwrap_or_else(|| panic!("node {want} missing"));
        let status = node.status.as_ref().unwrap();
        let ready = status
            .conditions
            .as_ref()
            .unwrap()
            .iter()
            .find(|c| c.type_ == "Ready");
        assert_eq!(ready.map(|c| c.status.as_str()), Some("True"), "{want} not Ready");
        assert_eq!(status.node_info.as_ref().unwrap().kubelet_version, "v1.37.2");
    }

    let viewer = cluster.client(support::VIEWER).await;
    let forbidden = |what: &str, result: Result<kube::core::ObjectList<Pod>, kube::Error>| match result {
        Err(kube::Error::Api(status)) => assert_eq!(status.code, 403, "{what}: {status:?}"),
        other => panic!("{what}: expected 403 Forbidden, got {other:?}"),
    };
    forbidden(
        "viewer lists pods in default",
        Api::<Pod>::namespaced(viewer.clone(), "default")
            .list(&ListParams::default())
            .await,
    );
    forbidden(
        "viewer lists pods cluster-wide",
        Api::<Pod>::all(viewer.clone()).list(&ListParams::default()).await,
    );
    Api::<Pod>::namespaced(viewer.clone(), support::VIEWER_NS)
        .list(&ListParams::default())
        .await
        .expect("viewer may list pods in team-a");
    // view is read-only, even in team-a
    let cm = ConfigMap {
        metadata: kube::api::ObjectMeta {
            name: Some("nope".into()),
            ..Default::default()
        },
        ..Default::default()
    };
    match Api::<ConfigMap>::namespaced(viewer, support::VIEWER_NS)
        .create(&PostParams::default(), &cm)
        .await
    {
        Err(kube::Error::Api(status)) => assert_eq!(status.code, 403),
        other => panic!("viewer create in team-a: expected 403, got {other:?}"),
    }
}

/// On a cluster of its own: up.sh gives a working cluster; force-410.sh makes a watch from
/// a resourceVersion taken before it receive 410 Gone (while the same watch worked before);
/// down.sh leaves no process of the cluster alive and removes its directory.
#[tokio::test]
#[ignore = "real tier"]
async fn own_cluster_force_410_then_down_leaves_nothing() {
    let Some(mut cluster) = support::own_cluster() else {
        return;
    };
    let client = cluster.client(support::ADMIN).await;
    let namespaces = Api::<Namespace>::all(client.clone())
        .list(&ListParams::default())
        .await
        .unwrap();
    assert!(namespaces
        .items
        .iter()
        .any(|n| n.metadata.name.as_deref() == Some("default")));

    // A list RV, then a few writes after it.
    let ns = cluster.create_ns("force-410");
    let cms = Api::<ConfigMap>::namespaced(client.clone(), &ns);
    let old_rv = cms
        .list(&ListParams::default())
        .await
        .unwrap()
        .metadata
        .resource_version
        .unwrap();
    for i in 0..3 {
        let cm = ConfigMap {
            metadata: kube::api::ObjectMeta {
                name: Some(format!("cm-{i}")),
                ..Default::default()
            },
            ..Default::default()
        };
        cms.create(&PostParams::default(), &cm).await.unwrap();
    }

    // Control: before the helper, a watch from old_rv replays the three creations.
    let wp = WatchParams::default().timeout(10);
    let mut stream = cms.watch(&wp, &old_rv).await.unwrap().boxed();
    let first = tokio::time::timeout(Duration::from_secs(15), stream.next())
        .await
        .unwrap();
    assert!(
        matches!(first, Some(Ok(WatchEvent::Added(_)))),
        "before force-410: {first:?}"
    );
    drop(stream);

    cluster.force_410();

    // A fresh client (the old one's connections died with the API server).
    let client = cluster.client(support::ADMIN).await;
    let cms = Api::<ConfigMap>::namespaced(client, &ns);
    let (code, how) = match cms.watch(&wp, &old_rv).await {
        Err(kube::Error::Api(status)) => (status.code, "HTTP error"),
        Err(e) => panic!("watch from {old_rv} after force-410: {e}"),
        Ok(stream) => {
            // what kube-apiserver v1.37 does: an ERROR event inside a 200 stream
            let mut stream = stream.boxed();
            match tokio::time::timeout(Duration::from_secs(15), stream.next())
                .await
                .unwrap()
            {
                Some(Ok(WatchEvent::Error(status))) => (status.code, "ERROR watch event"),
                Some(Err(kube::Error::Api(status))) => (status.code, "error in stream"),
                other => panic!("watch from {old_rv} after force-410: expected 410, got {other:?}"),
            }
        }
    };
    assert_eq!(code, 410, "watch from {old_rv} after force-410 ({how})");
    eprintln!("watch from {old_rv} after force-410: 410 as {how}");

    // down.sh stops every process named in the pid files and removes the directory.
    let pids = cluster.pids();
    assert_eq!(pids.len(), support::COMPONENTS.len(), "pid files: {pids:?}");
    cluster.stop();
    for (name, pid) in &pids {
        assert!(
            !support::process_alive(*pid),
            "{name} (pid {pid}) still running after down.sh"
        );
    }
    assert!(
        !cluster.dir.exists(),
        "{} still exists after down.sh",
        cluster.dir.display()
    );
}
