//! Who is asking, on a real API server (issue 37): ktui's requests are found in the
//! kube-apiserver's audit log (tests/cluster/up.sh writes DIR/audit.log at Metadata level) by
//! their user agent, `ktui/<version> (<os>/<arch>)` — a namespace create, lists, a watch, a
//! get, a patch, discovery and a SelfSubjectAccessReview — and no request in the test's
//! namespace carries another one (the audit log of 30 minutes of use had shown 59,143
//! requests with an empty user agent).
use crate::support;

use std::collections::BTreeSet;
use std::time::Duration;

use futures::StreamExt;
use k8s_openapi::api::core::v1::{ConfigMap, Namespace};
use kube::api::{Api, ListParams, Patch, PatchParams, PostParams, WatchParams};

fn expected() -> String {
    format!(
        "ktui/{} ({}/{})",
        env!("CARGO_PKG_VERSION"),
        std::env::consts::OS,
        std::env::consts::ARCH
    )
}

#[tokio::test]
#[ignore = "real tier"]
async fn ktui_requests_are_found_in_the_audit_log_by_user_agent() {
    let Some(cluster) = support::shared_cluster() else {
        return;
    };
    ktui::kube::client::install_crypto_provider();
    let opts = ktui::kube::client::ConnectOptions {
        kubeconfig: Some(cluster.kubeconfig.clone()),
        context: Some(support::ADMIN.into()),
    };
    let (client, _) = ktui::kube::client::connect(&opts).await.expect("ktui connects");
    let ns = support::unique_ns("ua");
    let namespaces: Api<Namespace> = Api::all(client.clone());
    let mut n = Namespace::default();
    n.metadata.name = Some(ns.clone());
    namespaces.create(&PostParams::default(), &n).await.unwrap();
    let cms: Api<ConfigMap> = Api::namespaced(client.clone(), &ns);
    let mut cm = ConfigMap::default();
    cm.metadata.name = Some("ua".into());
    cms.create(&PostParams::default(), &cm).await.unwrap();
    cms.list(&ListParams::default().limit(10)).await.unwrap();
    let mut w = cms
        .watch(&WatchParams::default().timeout(1), "0")
        .await
        .unwrap()
        .boxed();
    while w.next().await.is_some() {}
    cms.get("ua").await.unwrap();
    cms.patch(
        "ua",
        &PatchParams::default(),
        &Patch::Merge(serde_json::json!({"data": {"k": "v"}})),
    )
    .await
    .unwrap();
    ktui::kube::discovery::discover(&client, Duration::from_secs(20))
        .await
        .unwrap();
    let p = ktui::kube::write::access::Permission {
        verb: "delete",
        group: String::new(),
        resource: "configmaps".into(),
        subresource: "",
        namespace: ns.clone(),
    };
    assert!(ktui::kube::write::access::can_i(&client, &p).await.unwrap());

    // The audit backend writes each event as its request completes ("blocking" mode).
    let want = expected();
    let path = cluster.dir.join("audit.log");
    let needed: BTreeSet<&str> = ["create", "list", "watch", "get", "patch"].into();
    let deadline = std::time::Instant::now() + Duration::from_secs(20);
    loop {
        let text = std::fs::read_to_string(&path)
            .unwrap_or_else(|e| panic!("{}: {e} (is the audit log on in up.sh?)", path.display()));
        let events: Vec<serde_json::Value> = text
            .lines()
            .filter_map(|l| serde_json::from_str(l).ok())
            .collect();
        let in_ns: Vec<&serde_json::Value> = events
            .iter()
            .filter(|e| e["objectRef"]["namespace"] == ns.as_str())
            .collect();
        let verbs: BTreeSet<&str> = in_ns
            .iter()
            .filter(|e| e["userAgent"] == want.as_str())
            .filter_map(|e| e["verb"].as_str())
            .collect();
        let others: Vec<String> = in_ns
            .iter()
            .filter(|e| e["userAgent"] != want.as_str())
            .map(|e| format!("{} {} by {:?}", e["verb"], e["requestURI"], e["userAgent"]))
            .collect();
        let by_ktui = |f: &dyn Fn(&serde_json::Value) -> bool| {
            events.iter().any(|e| e["userAgent"] == want.as_str() && f(e))
        };
        let review = by_ktui(&|e| e["objectRef"]["resource"] == "selfsubjectaccessreviews");
        let discovery = by_ktui(&|e| e["requestURI"].as_str().is_some_and(|u| u.starts_with("/apis")));
        let created_ns = by_ktui(&|e| e["objectRef"]["resource"] == "namespaces" && e["verb"] == "create");
        assert!(
            others.is_empty(),
            "requests without ktui's user agent: {others:?}"
        );
        if needed.is_subset(&verbs) && review && discovery && created_ns {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "not all of ktui's requests are in the audit log under {want:?}: verbs {verbs:?}, \
             review {review}, discovery {discovery}, namespace {created_ns}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    let _ = namespaces.delete(&ns, &Default::default()).await;
}
