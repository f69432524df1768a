//! Cost of revision history (issue 18): opening the history view of a deployment with 50
//! recorded revisions (`open_50`: reconstruct every body from the reverse patches, diff each
//! revision against the one before it, build the rows), diffing two of them for the diff view
//! (`diff_two`), both as the user does them — open with ten rollout revisions above, mark the
//! newest and the oldest, `enter` (`open_50_then_diff_two`: the issue's ≤ 16 ms), recording one changed revision (`observe_change`) and skipping a relisted
//! one (`observe_same_rv`), and the informer hook's decode — a watch line decoded straight
//! into the slim type (`decode_slim`) versus once into JSON and the slim type built from it
//! (`decode_captured`). Run: `cargo bench --bench history` (`BENCH_CPU=1` for CPU time).

#![allow(clippy::unwrap_used, clippy::expect_used)] // test and measuring code may panic

#[macro_use]
mod common;

use std::hint::black_box;
use std::time::Duration;

use criterion::measurement::Measurement;
use criterion::Criterion;
use ktui::app::history::model::{object_id, HistoryState};
use ktui::detail::diff::{diff, text};
use ktui::kube::builtin::BuiltinKind;
use ktui::kube::history::capture::Captured;
use ktui::kube::history::rollout::{read, RolloutSource};
use ktui::kube::history::rollout_watch::RolloutView;
use ktui::kube::history::{History, HistoryConfig};
use ktui::kube::key::ResourceKey;
use ktui::table::DeploymentObj;
use kube::api::WatchEvent;
use serde_json::{json, Value};

/// A realistic deployment (~3.5 KB of JSON with its managedFields) at revision `n`.
fn deployment(n: u64) -> Value {
    let containers: Vec<Value> = ["web", "sidecar", "metrics"]
        .iter()
        .map(|c| {
            json!({"name": c, "image": format!("ghcr.io/acme/{c}:1.{}", if *c == "web" { n / 5 } else { 3 }),
                   "ports": [{"containerPort": 8080, "name": "http", "protocol": "TCP"}],
                   "env": [{"name": "MODE", "value": "prod"}, {"name": "REGION", "value": "eu-west-1"},
                           {"name": "POD_IP", "valueFrom": {"fieldRef": {"fieldPath": "status.podIP"}}}],
                   "resources": {"requests": {"cpu": "100m", "memory": "128Mi"}, "limits": {"memory": "256Mi"}},
                   "readinessProbe": {"httpGet": {"path": "/healthz", "port": 8080}, "periodSeconds": 10},
                   "volumeMounts": [{"name": "config", "mountPath": "/etc/app"}]})
        })
        .collect();
    let mut labels = json!({"app": "web", "tier": "frontend"});
    if n % 7 == 3 {
        labels["canary"] = json!("true");
    }
    json!({
        "metadata": {"name": "web", "namespace": "shop", "uid": "8c1b", "resourceVersion": (1000 + n).to_string(),
                     "generation": 1 + n / 2, "labels": labels, "creationTimestamp": "2026-11-01T10:00:00Z",
                     "annotations": {"deployment.kubernetes.io/revision": (1 + n / 5).to_string()},
                     "managedFields": [
                         {"manager": "kubectl-client-side-apply", "operation": "Update", "time": "2026-11-01T10:00:00Z",
                          "fieldsV1": {"f:metadata": {"f:labels": {".": {}, "f:app": {}, "f:tier": {}}},
                                       "f:spec": {"f:template": {"f:spec": {"f:containers": {
                                           "k:{\"name\":\"web\"}": {".": {}, "f:image": {}, "f:name": {}}}}}}}},
                         {"manager": "kubectl", "operation": "Update", "subresource": "scale",
                          "time": format!("2026-12-01T10:{:02}:00Z", n % 60), "fieldsV1": {"f:spec": {"f:replicas": {}}}},
                         {"manager": "kube-controller-manager", "operation": "Update", "subresource": "status",
                          "time": format!("2026-12-01T10:{:02}:30Z", n % 60),
                          "fieldsV1": {"f:status": {"f:replicas": {}, "f:readyReplicas": {}, "f:conditions": {}}}}]},
        "spec": {"replicas": 3 + n % 4, "selector": {"matchLabels": {"app": "web"}},
                 "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxSurge": "25%", "maxUnavailable": "25%"}},
                 "template": {"metadata": {"labels": {"app": "web"}},
                              "spec": {"containers": containers, "volumes": [{"name": "config", "configMap": {"name": "web"}}]}}},
        "status": {"replicas": 3 + n % 4, "readyReplicas": 2 + n % 4, "observedGeneration": 1 + n / 2,
                   "conditions": [{"type": "Available", "status": "True", "lastUpdateTime": format!("2026-12-01T10:{:02}:30Z", n % 60)},
                                  {"type": "Progressing", "status": "True", "reason": "NewReplicaSetAvailable"}]}
    })
}

/// The rollout history of `deployment`: `n` ReplicaSets, newest first.
fn replicasets(n: i64) -> RolloutView {
    let mut v = RolloutView::new(RolloutSource::ReplicaSets);
    v.revisions = (1..=n)
        .rev()
        .filter_map(|r| {
            let mut rs = deployment(r as u64 * 5);
            rs["metadata"]["name"] = json!(format!("web-{r}"));
            rs["metadata"]["annotations"]["deployment.kubernetes.io/revision"] = json!(r.to_string());
            rs["metadata"]["ownerReferences"] =
                json!([{"kind": "Deployment", "name": "web", "uid": "8c1b", "controller": true}]);
            read(RolloutSource::ReplicaSets, &rs, "Deployment", "web")
        })
        .collect();
    v.listed = true;
    v.rev = 1;
    v
}

fn bench<M: Measurement + 'static>(c: &mut Criterion<M>, suffix: &str) {
    let key = ResourceKey::new(BuiltinKind::Deployment, Some("shop"));
    let id = object_id(&key, "web");
    let h = History::new(HistoryConfig::default(), 0);
    for n in 0..50 {
        assert!(h.observe("deployments.apps", deployment(n), false, n as i64));
    }
    let record = h.record(&id).unwrap();
    assert_eq!(record.revisions.len(), 50);
    let stats = h.stats();
    eprintln!(
        "history: 50 revisions of a {} B deployment take {} B ({} B a revision)",
        serde_json::to_vec(&deployment(0)).unwrap().len(),
        stats.bytes,
        stats.bytes / 50
    );

    let mut g = c.benchmark_group(format!("history{suffix}"));
    g.sample_size(30)
        .measurement_time(Duration::from_secs(5))
        .warm_up_time(Duration::from_secs(1));

    let kind = key.kind.clone();
    let object = deployment(49);
    g.bench_function("open_50", |b| {
        b.iter(|| {
            let mut state = HistoryState::default();
            let mut lines = Vec::new();
            state.refresh(Some(&h), &id, &kind, Some(&object), 0, &mut lines);
            black_box(lines.len())
        })
    });
    // What the user waits for: `h` on the object, then the newest and the oldest marked and
    // `enter` — with ten rollout revisions (ReplicaSets) above the observed ones.
    let rollout = std::sync::Arc::new(arc_swap::ArcSwap::from_pointee(replicasets(10)));
    g.bench_function("open_50_then_diff_two", |b| {
        b.iter(|| {
            let mut state = HistoryState::default();
            state.rollout = Some(rollout.clone());
            let mut lines = Vec::new();
            state.refresh(Some(&h), &id, &kind, Some(&object), 0, &mut lines);
            state.toggle_mark();
            state.select(state.rows() - 1);
            state.toggle_mark();
            state.open_diff().unwrap();
            state.refresh(Some(&h), &id, &kind, Some(&object), 0, &mut lines);
            assert!(lines[0].starts_with("diff rv 1000 "), "{}", lines[0]);
            black_box(lines.len())
        })
    });

    let (newest, oldest) = (&record.revisions[0].body, &record.revisions[49].body);
    g.bench_function("diff_two", |b| {
        b.iter(|| {
            let changes = diff(oldest, newest);
            black_box(text::lines(&changes, false).len())
        })
    });

    // As the informers record: the object's JSON text, as it came off the wire.
    let text = |n| serde_json::value::to_raw_value(&deployment(n)).unwrap();
    let mut n = 50;
    g.bench_function("observe_change", |b| {
        b.iter_batched(
            || {
                n += 1;
                text(n)
            },
            |obj| black_box(h.observe_raw("deployments.apps", &obj, false, 0)),
            criterion::BatchSize::SmallInput,
        )
    });
    g.bench_function("observe_same_rv", |b| {
        b.iter_batched(
            || text(n),
            |obj| black_box(h.observe_raw("deployments.apps", &obj, true, 0)),
            criterion::BatchSize::SmallInput,
        )
    });

    let line = serde_json::to_vec(&json!({"type": "MODIFIED", "object": deployment(7)})).unwrap();
    g.bench_function("decode_slim", |b| {
        b.iter(|| black_box(serde_json::from_slice::<WatchEvent<DeploymentObj>>(&line).is_ok()))
    });
    g.bench_function("decode_captured", |b| {
        b.iter(|| black_box(serde_json::from_slice::<WatchEvent<Captured<DeploymentObj>>>(&line).is_ok()))
    });
    g.finish();
}

run_benches!(bench);
