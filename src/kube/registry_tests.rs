use std::sync::Arc;

use super::*;
use crate::kube::discovery::Discovery;

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
