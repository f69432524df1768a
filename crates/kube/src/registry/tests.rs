//! Name resolution (plural, short, grouped, ambiguous), completion names, and carrying over
//! what a failing group or CRD list could not say.

use std::sync::Arc;

use super::*;
use crate::discovery::Discovery;

fn res(group: &str, plural: &str, kind: &str, short: &[&str]) -> Arc<ApiResource> {
    Arc::new(ApiResource {
        group: group.into(),
        version: "v1".into(),
        plural: plural.into(),
        singular: kind.to_ascii_lowercase(),
        kind: kind.into(),
        short: short.iter().map(|s| s.to_string()).collect(),
        namespaced: true,
        verbs: ["list", "watch", "get"].map(String::from).to_vec(),
        ..Default::default()
    })
}

fn registry() -> Registry {
    let mut resources = vec![
        res("", "pods", "Pod", &["po"]),
        res("", "events", "Event", &["ev"]),
        res("events.k8s.io", "events", "Event", &["ev"]),
        res("apps", "deployments", "Deployment", &["deploy"]),
        res("demo.ktui.dev", "gizmos", "Gizmo", &["gz"]),
        res("bar.example.com", "gizmos", "Gizmo", &[]),
        res("a.example.com", "widgets", "Widget", &["wd"]),
        res("b.example.com", "wodgets", "Wodget", &["wd"]),
        res("", "serviceaccounts", "ServiceAccount", &["sa"]),
    ];
    let mut bindings = (*res("", "bindings", "Binding", &[])).clone();
    bindings.verbs = vec!["create".into()];
    resources.push(Arc::new(bindings));
    Registry::from_discovery(Discovery {
        resources,
        ..Default::default()
    })
}

fn resolved(r: &Registry, typed: &str) -> String {
    match r.resolve(typed) {
        Ok(k) => k.full_name(),
        Err(e) => format!("{e:?}"),
    }
}

#[test]
fn resolves_plural_singular_kind_short_and_grouped_names() {
    let r = registry();
    for (typed, want) in [
        ("po", "pods"),
        ("Pod", "pods"),
        ("deploy", "deployments.apps"),
        ("deployments.apps", "deployments.apps"),
        ("deployment.apps", "deployments.apps"),
        ("deployments.v1.apps", "deployments.apps"),
        ("gz", "gizmos.demo.ktui.dev"),
        ("gizmos.bar.example.com", "gizmos.bar.example.com"),
        ("gizmo.demo.ktui.dev", "gizmos.demo.ktui.dev"),
        ("sa", "serviceaccounts"),
        ("serviceaccount", "serviceaccounts"),
    ] {
        assert_eq!(resolved(&r, typed), want, "{typed}");
    }
    assert!(matches!(
        r.resolve("deploy").unwrap(),
        Kind::Builtin(BuiltinKind::Deployment)
    ));
    assert!(matches!(r.resolve("sa").unwrap(), Kind::Api(_)));
}

#[test]
fn builtins_then_core_win_and_other_clashes_are_ambiguous() {
    let r = registry();
    assert!(matches!(
        r.resolve("events").unwrap(),
        Kind::Builtin(BuiltinKind::Event)
    ));
    assert_eq!(resolved(&r, "events.events.k8s.io"), "events.events.k8s.io");
    assert_eq!(
        r.resolve("gizmos"),
        Err(ResolveError::Ambiguous(vec![
            "gizmos.bar.example.com".into(),
            "gizmos.demo.ktui.dev".into()
        ]))
    );
    assert!(matches!(r.resolve("wd"), Err(ResolveError::Ambiguous(_))));
    assert_eq!(r.resolve("nope"), Err(ResolveError::Unknown));
    assert_eq!(r.resolve("deployments.nope"), Err(ResolveError::Unknown));
    assert_eq!(
        r.resolve("bindings"),
        Err(ResolveError::NotListable("bindings".into()))
    );
}

#[test]
fn names_complete_short_and_full_forms_and_builtins_survive_before_discovery() {
    let names = registry().names();
    for want in ["gz", "gizmos.demo.ktui.dev", "deployments.apps", "sa", "pods"] {
        assert!(names.iter().any(|n| n == want), "{want} in {names:?}");
    }
    assert!(!names.iter().any(|n| n == "bindings"));
    let b = Registry::builtins();
    assert!(matches!(b.resolve("po"), Ok(Kind::Builtin(BuiltinKind::Pod))));
    assert_eq!(b.resolve("gz"), Err(ResolveError::Unknown));
}

#[test]
fn a_failing_group_or_crd_list_keeps_what_was_known() {
    use crate::discovery::BrokenGroup;
    use crate::kind::PrinterColumn;
    let mut gizmos = (*res("demo.ktui.dev", "gizmos", "Gizmo", &["gz"])).clone();
    gizmos.columns = vec![PrinterColumn {
        name: "Color".into(),
        column_type: "string".into(),
        json_path: ".spec.color".into(),
        priority: 0,
    }]
    .into();
    gizmos.from_crd = true;
    let before = Registry::from_discovery(Discovery {
        resources: vec![
            res("metrics.k8s.io", "nodes", "NodeMetrics", &[]),
            Arc::new(gizmos),
        ],
        ..Default::default()
    });
    // metrics.k8s.io is down this time and the CRD list timed out.
    let mut now = Registry::from_discovery(Discovery {
        resources: vec![res("demo.ktui.dev", "gizmos", "Gizmo", &["gz"])],
        broken: vec![BrokenGroup {
            group_version: "metrics.k8s.io/v1".into(),
            reason: "503".into(),
        }],
        crd_error: Some("timed out".into()),
        ..Default::default()
    });
    assert!(!now.same_as(&before));
    now.inherit(&before);
    assert!(
        now.resolve("nodes.metrics.k8s.io").is_ok(),
        "kept while its group is down"
    );
    let gz = now.resolve("gz").unwrap();
    assert_eq!(
        gz.api().unwrap().columns.len(),
        1,
        "columns kept while the CRD list fails"
    );
    // Equal content is the same registry; a new short name is not.
    let again = before.clone();
    assert!(again.same_as(&before));
    let mut renamed = (*res("demo.ktui.dev", "gizmos", "Gizmo", &["gz", "giz"])).clone();
    renamed.columns = gz.api().unwrap().columns.clone();
    renamed.from_crd = true;
    let changed = Registry::from_discovery(Discovery {
        resources: vec![
            res("metrics.k8s.io", "nodes", "NodeMetrics", &[]),
            Arc::new(renamed),
        ],
        ..Default::default()
    });
    assert!(!changed.same_as(&before));
}

#[test]
fn other_versions_resolve_only_when_named_and_builtins_only_at_their_version() {
    let mut v1alpha1 = (*res("demo.ktui.dev", "gizmos", "Gizmo", &["gz"])).clone();
    v1alpha1.version = "v1alpha1".into();
    let mut hpa_v1 = (*res(
        "autoscaling",
        "horizontalpodautoscalers",
        "HorizontalPodAutoscaler",
        &["hpa"],
    ))
    .clone();
    hpa_v1.version = "v1".into();
    let mut hpa_v2 = hpa_v1.clone();
    hpa_v2.version = "v2".into();
    let r = Registry::from_discovery(Discovery {
        resources: vec![res("demo.ktui.dev", "gizmos", "Gizmo", &["gz"]), Arc::new(hpa_v2)],
        other_versions: vec![Arc::new(v1alpha1), Arc::new(hpa_v1)],
        ..Default::default()
    });
    assert_eq!(r.resolve("gz").unwrap().version(), "v1");
    assert_eq!(
        r.resolve("gizmos.v1alpha1.demo.ktui.dev").unwrap().version(),
        "v1alpha1"
    );
    assert!(matches!(
        r.resolve("hpa").unwrap(),
        Kind::Builtin(BuiltinKind::HorizontalPodAutoscaler)
    ));
    let v1 = r.resolve("hpa.v1.autoscaling").unwrap();
    assert!(
        matches!(&v1, Kind::Api(a) if a.version == "v1"),
        "{v1:?}: generic columns for another version"
    );
    assert!(
        !r.names().iter().any(|n| n.contains("v1alpha1")),
        "completion offers preferred versions"
    );
    // A view's title names a version only when it is not the preferred one.
    let alpha = r.resolve("gizmos.v1alpha1.demo.ktui.dev").unwrap();
    assert_eq!(r.title(&alpha), "gizmos.v1alpha1.demo.ktui.dev");
    assert_eq!(r.title(&r.resolve("gz").unwrap()), "gizmos.demo.ktui.dev");
    assert_eq!(r.title(&v1), "horizontalpodautoscalers.v1.autoscaling");
    assert_eq!(r.title(&r.resolve("hpa").unwrap()), "horizontalpodautoscalers");
}
