//! The demo's multi-container pods: `postgres-N` carry an init container (`init-perms`, run
//! to completion), a native sidecar (`exporter`, an init container with `restartPolicy:
//! Always`) and the `kubectl.kubernetes.io/default-container` annotation, so the containers
//! view, `-c` and "all containers" have something to show. Must not touch the store.

use serde_json::{json, Value};

use super::pods::PodModel;

/// Adds the extra containers to a rendered pod when its model has them.
pub fn decorate(p: &PodModel, pod: &mut Value) {
    if p.app != "postgres" {
        return;
    }
    if p.name.ends_with("-0") {
        // postgres-1 has none: "all containers" is what `l` shows for it.
        pod["metadata"]["annotations"] = json!({"kubectl.kubernetes.io/default-container": "postgres"});
    }
    pod["spec"]["containers"][0]["ports"] = json!([{"name": "pg", "containerPort": 5432, "protocol": "TCP"}]);
    pod["spec"]["initContainers"] = json!([
        {"name": "init-perms", "image": "busybox:1.37", "command": ["sh", "-c", "chown -R 999 /var/lib/postgresql/data"]},
        {"name": "exporter", "image": "quay.io/prometheuscommunity/postgres-exporter:v0.17.1", "restartPolicy": "Always",
         "ports": [{"name": "metrics", "containerPort": 9187, "protocol": "TCP"}],
         "resources": super::sizing::resources("exporter")}
    ]);
    let Some(app) = pod["status"]["containerStatuses"][0].as_object().cloned() else {
        return;
    };
    let started = app
        .get("state")
        .and_then(|s| s.get("running"))
        .and_then(|r| r.get("startedAt"))
        .cloned()
        .unwrap_or(Value::Null);
    let running = !started.is_null();
    pod["status"]["initContainerStatuses"] = json!([
        {"name": "init-perms", "image": "busybox:1.37", "imageID": "", "ready": running, "restartCount": 0, "started": false,
         "state": if running {
             json!({"terminated": {"exitCode": 0, "reason": "Completed", "startedAt": started, "finishedAt": started}})
         } else {
             json!({"waiting": {"reason": "PodInitializing"}})
         }},
        {"name": "exporter", "image": "quay.io/prometheuscommunity/postgres-exporter:v0.17.1", "imageID": "",
         "ready": running, "restartCount": 0, "started": running,
         "state": if running { json!({"running": {"startedAt": started}}) } else { json!({"waiting": {"reason": "PodInitializing"}}) }}
    ]);
}
