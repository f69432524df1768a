//! A pod row's `uses` (for xray): every place a pod names a ConfigMap, Secret, claim or its
//! ServiceAccount, sorted and without repeats, nothing of values; shared between replicas;
//! the same from protobuf as from JSON. Test-only.

use std::sync::Arc;

use serde_json::json;

use super::resources::{list_body, msg};
use crate::decode_protobuf_rows;
use ktui_kube::builtin::BuiltinKind;
use ktui_kube::row::{Row, RowCtx};
use ktui_kube::uses::PodUses;

fn decoded(v: serde_json::Value, ctx: &RowCtx) -> Row {
    crate::decode_row(BuiltinKind::Pod, &serde_json::to_vec(&v).unwrap(), ctx).unwrap()
}

fn names(list: &[Arc<str>]) -> Vec<&str> {
    list.iter().map(|s| &**s).collect()
}

fn full(name: &str) -> serde_json::Value {
    json!({"metadata": {"name": name, "namespace": "shop"},
        "spec": {"serviceAccountName": "web",
            "imagePullSecrets": [{"name": "registry"}],
            "initContainers": [{"name": "init", "envFrom": [{"secretRef": {"name": "init-creds"}}]}],
            "containers": [{"name": "app",
                "envFrom": [{"configMapRef": {"name": "flags", "optional": true}}, {"prefix": "X_"}],
                "env": [{"name": "A", "value": "plain-value"},
                        {"name": "B", "valueFrom": {"configMapKeyRef": {"name": "settings", "key": "b"}}},
                        {"name": "C", "valueFrom": {"secretKeyRef": {"name": "db", "key": "pw"}}},
                        {"name": "D", "valueFrom": {"fieldRef": {"fieldPath": "metadata.name"}}}]},
                {"name": "sidecar", "env": null, "envFrom": [{"configMapRef": {"name": "settings"}}]}],
            "volumes": [{"name": "a", "configMap": {"name": "app-config", "items": [{"key": "k", "path": "p"}]}},
                {"name": "b", "secret": {"secretName": "tls"}},
                {"name": "c", "persistentVolumeClaim": {"claimName": "data"}},
                {"name": "d", "emptyDir": {}},
                {"name": "e", "projected": {"sources": [{"serviceAccountToken": {"path": "t"}},
                    {"configMap": {"name": "kube-root-ca.crt"}}, {"secret": {"name": "db"}}]}}]}})
}

#[test]
fn every_reference_is_named_once_sorted_and_no_value_is_kept() {
    let row = decoded(full("web-1"), &RowCtx::default());
    let uses = row.uses.as_deref().expect("uses");
    assert_eq!(uses.service_account.as_deref(), Some("web"));
    assert_eq!(names(&uses.config_maps), ["app-config", "flags", "kube-root-ca.crt", "settings"]);
    assert_eq!(names(&uses.secrets), ["db", "init-creds", "registry", "tls"]);
    assert_eq!(names(&uses.claims), ["data"]);
    assert!(!format!("{row:?}").contains("plain-value"));
}

#[test]
fn replicas_share_one_uses_and_a_pod_naming_nothing_has_none() {
    let ctx = RowCtx::default();
    let (a, b) = (decoded(full("web-1"), &ctx), decoded(full("web-2"), &ctx));
    assert!(Arc::ptr_eq(a.uses.as_ref().unwrap(), b.uses.as_ref().unwrap()));
    let bare = decoded(json!({"metadata": {"name": "p"}, "spec": {"containers": [{"name": "c"}], "volumes": null}}), &ctx);
    assert_eq!(bare.uses, None);
}

#[test]
fn names_are_sanitized() {
    let row = decoded(
        json!({"metadata": {"name": "p"}, "spec": {"volumes": [{"name": "v", "configMap": {"name": "evil\u{1b}[31m"}}]}}),
        &RowCtx::default(),
    );
    let cm = &row.uses.unwrap().config_maps[0];
    assert!(!cm.contains('\u{1b}'), "{cm:?}");
}

#[test]
fn uses_decode_from_protobuf() {
    // PodSpec: volumes 1, containers 2, serviceAccountName 8, imagePullSecrets 15.
    // Volume: name 1, volumeSource 2 (inlined in JSON): secret 6 (secretName 1), persistentVolumeClaim
    // 10 (claimName 1), configMap 19 (an inline LocalObjectReference 1: name 1). Container:
    // name 1, env 7, envFrom 19. EnvVar: valueFrom 3 → secretKeyRef 4 (inline reference 1,
    // key 2). EnvFromSource: configMapRef 2 (inline reference 1).
    let named = |name: &[u8]| msg(&[(1, &msg(&[(1, name)]))]);
    let volumes = [
        msg(&[(1, b"a"), (2, &msg(&[(19, &named(b"app-config"))]))]),
        msg(&[(1, b"b"), (2, &msg(&[(6, &msg(&[(1, b"tls")]))]))]),
        msg(&[(1, b"c"), (2, &msg(&[(10, &msg(&[(1, b"data")]))]))]),
    ];
    let key_ref = msg(&[(1, &msg(&[(1, b"db")])), (2, b"pw")]);
    let env = msg(&[(1, b"C"), (3, &msg(&[(4, &key_ref)]))]);
    let env_from = msg(&[(2, &named(b"flags"))]);
    let container = msg(&[(1, b"app"), (7, &env), (19, &env_from)]);
    let spec = msg(&[
        (1, &volumes[0]),
        (1, &volumes[1]),
        (1, &volumes[2]),
        (2, &container),
        (8, b"web"),
        (15, &msg(&[(1, b"registry")])),
    ]);
    let pod = msg(&[(1, &msg(&[(1, b"p"), (3, b"ns")])), (2, &spec)]);
    let (rows, skipped) =
        decode_protobuf_rows(BuiltinKind::Pod, &list_body("PodList", &pod), &RowCtx::default()).unwrap();
    assert!(skipped.is_empty(), "{skipped:?}");
    let want = PodUses {
        service_account: Some("web".into()),
        config_maps: vec![Arc::from("app-config"), Arc::from("flags")].into(),
        secrets: vec![Arc::from("db"), Arc::from("registry"), Arc::from("tls")].into(),
        claims: vec![Arc::from("data")].into(),
    };
    assert_eq!(rows[0].uses.as_deref(), Some(&want));
}
