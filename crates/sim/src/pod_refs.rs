//! What the demo's pods reference, so the xray tree (and describe) have something to show: the
//! `shop/frontend` replicas read `frontend-config` (volume), `frontend-tls` (volume), an
//! optional `frontend-flags` ConfigMap that does not exist (`envFrom`, flagged by xray) and
//! pull with the `registry` secret; the `data/postgres-N` replicas mount their claim
//! `data-postgres-N` and read `postgres-password` (`env` secretKeyRef). Must not touch the
//! store.

use serde_json::{json, Value};

use super::pods::PodModel;

/// Adds the references to a rendered pod when its model is one of the above.
pub fn decorate(p: &PodModel, pod: &mut Value) {
    let spec = &mut pod["spec"];
    match (p.namespace.as_str(), p.app.as_str()) {
        ("shop", "frontend") => {
            spec["volumes"] = json!([
                {"name": "config", "configMap": {"name": "frontend-config"}},
                {"name": "tls", "secret": {"secretName": "frontend-tls"}}
            ]);
            spec["imagePullSecrets"] = json!([{"name": "registry"}]);
            spec["containers"][0]["envFrom"] =
                json!([{"configMapRef": {"name": "frontend-flags", "optional": true}}]);
            spec["containers"][0]["volumeMounts"] = json!([
                {"name": "config", "mountPath": "/etc/frontend", "readOnly": true},
                {"name": "tls", "mountPath": "/etc/tls", "readOnly": true}
            ]);
        }
        ("data", "postgres") => {
            let ordinal = p.name.rsplit('-').next().unwrap_or("0");
            spec["volumes"] = json!([
                {"name": "data", "persistentVolumeClaim": {"claimName": format!("data-postgres-{ordinal}")}}
            ]);
            spec["containers"][0]["env"] = json!([
                {"name": "POSTGRES_PASSWORD", "valueFrom": {"secretKeyRef": {"name": "postgres-password", "key": "password"}}}
            ]);
            spec["containers"][0]["volumeMounts"] =
                json!([{"name": "data", "mountPath": "/var/lib/postgresql/data"}]);
        }
        _ => {}
    }
}
