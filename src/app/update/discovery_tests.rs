//! Unit tests of how `update` meets API discovery: unknown names wait for it, custom kinds
//! follow their CRDs, `:api-resources`, preferred versions. They must not touch a cluster.

use std::sync::Arc;

use super::tests::{state, typed};
use super::*;
use crate::app::state::Screen;
use crate::keys::Action;
use crate::kube::discovery::Discovery;
use crate::kube::kind::{ApiResource, PrinterColumn};
use crate::kube::registry::Registry;

#[test]
fn unknown_command_says_so_once_discovery_answered() {
    let mut s = state();
    crate::app::discovered::adopt(&mut s, Registry::from_discovery(Discovery::default()));
    let effects = run_command(&mut s, "gizmos");
    // Perhaps created since: ktui asks the server again first.
    assert_eq!(
        s.screens.footer.message.as_deref(),
        Some("gizmos: not known yet; asking the API server again…")
    );
    assert!(effects.contains(&Effect::Rediscover));
    crate::app::discovered::adopt(&mut s, Registry::from_discovery(Discovery::default()));
    assert_eq!(
        s.screens.footer.message.as_deref(),
        Some("unknown command or resource: gizmos (see :api-resources)")
    );
    assert_eq!(s.top_list().unwrap().key.kind, BuiltinKind::Pod);
    // The rediscovery finds it.
    run_command(&mut s, "gz");
    crate::app::discovered::adopt(&mut s, discovered(vec![gizmos(&[])]));
    assert_eq!(s.top_list().unwrap().key.kind.full_name(), "gizmos.demo.ktui.dev");
    assert_eq!(s.screens.footer.message, None, "the waiting note is gone");
    // Another command meanwhile cancels the wait.
    run_command(&mut s, "nope");
    run_command(&mut s, "po");
    crate::app::discovered::adopt(&mut s, discovered(vec![gizmos(&[])]));
    assert_eq!(s.top_list().unwrap().key.kind, BuiltinKind::Pod);
}

pub(super) fn gizmos(columns: &[&str]) -> Arc<ApiResource> {
    Arc::new(ApiResource {
        group: "demo.ktui.dev".into(),
        version: "v1".into(),
        plural: "gizmos".into(),
        singular: "gizmo".into(),
        kind: "Gizmo".into(),
        short: vec!["gz".into()],
        namespaced: true,
        verbs: vec!["list".into(), "watch".into()],
        columns: columns
            .iter()
            .map(|c| PrinterColumn {
                name: c.to_string(),
                column_type: "string".into(),
                json_path: format!(".spec.{c}"),
                priority: 0,
            })
            .collect(),
        from_crd: true,
        ..Default::default()
    })
}

pub(super) fn discovered(resources: Vec<Arc<ApiResource>>) -> Registry {
    Registry::from_discovery(Discovery {
        resources,
        ..Default::default()
    })
}

#[test]
fn a_custom_kind_waits_for_discovery_then_follows_its_crd() {
    let mut s = state();
    run_command(&mut s, "gz -A");
    assert_eq!(
        s.screens.footer.message.as_deref(),
        Some("gz: waiting for API discovery…")
    );
    crate::app::discovered::adopt(&mut s, discovered(vec![gizmos(&["color"])]));
    let l = s.top_list().unwrap();
    assert_eq!(l.key.kind.full_name(), "gizmos.demo.ktui.dev");
    assert_eq!(l.key.namespace, None);
    // The CRD's columns change: same view, new kind (and so a new informer).
    crate::app::discovered::adopt(&mut s, discovered(vec![gizmos(&["color", "size"])]));
    let l = s.top_list().unwrap();
    assert_eq!(l.key.kind.api().unwrap().columns.len(), 2);
    // The CRD is deleted: the view closes with a message.
    crate::app::discovered::adopt(&mut s, discovered(vec![]));
    assert_eq!(s.top_list().unwrap().key.kind, BuiltinKind::Pod);
    assert_eq!(
        s.screens.footer.message.as_deref(),
        Some("gizmos.demo.ktui.dev: the resource type was deleted; its view closed")
    );
}

#[test]
fn api_resources_lists_and_opens_and_broken_groups_are_named() {
    let mut s = state();
    let mut d = Discovery {
        resources: vec![gizmos(&[])],
        ..Default::default()
    };
    d.broken.push(crate::kube::discovery::BrokenGroup {
        group_version: "metrics.k8s.io/v1beta1".into(),
        reason: "503: service unavailable".into(),
    });
    crate::app::discovered::adopt(&mut s, Registry::from_discovery(d));
    assert_eq!(
        s.screens.footer.message.as_deref(),
        Some("API groups unavailable: metrics.k8s.io/v1beta1 (see :ar)")
    );
    run_command(&mut s, "ar");
    let listing = s.conn.registry.listing();
    update(&mut s, Action::Bottom);
    assert!(matches!(s.top(), Screen::ApiResources { selected, .. } if *selected == listing.len() - 1));
    // `/` narrows the listing; `enter` opens the match; `esc` comes back to the listing.
    update(&mut s, Action::FilterMode);
    typed(&mut s, "GIZ");
    update(&mut s, Action::Submit);
    assert!(matches!(s.top(), Screen::ApiResources { selected: 0, filter } if filter == "GIZ"));
    update(&mut s, Action::Enter);
    assert_eq!(s.top_list().unwrap().key.kind.full_name(), "gizmos.demo.ktui.dev");
    update(&mut s, Action::Back);
    assert!(matches!(s.top(), Screen::ApiResources { .. }));
    update(&mut s, Action::Back);
    assert!(matches!(s.top(), Screen::ApiResources { filter, .. } if filter.is_empty()));
}

#[test]
fn a_view_opened_at_a_non_preferred_version_keeps_it_until_it_is_no_longer_served() {
    let beta = |columns: &[&str]| {
        let mut r = (*gizmos(columns)).clone();
        r.version = "v1beta1".into();
        Arc::new(r)
    };
    let with = |others: Vec<Arc<ApiResource>>| {
        Registry::from_discovery(Discovery {
            resources: vec![gizmos(&["color"])],
            other_versions: others,
            ..Default::default()
        })
    };
    let mut s = state();
    crate::app::discovered::adopt(&mut s, with(vec![beta(&["legacy"])]));
    run_command(&mut s, "gizmos.v1beta1.demo.ktui.dev");
    let version = |s: &UiState| s.top_list().unwrap().key.kind.version().to_owned();
    assert_eq!(version(&s), "v1beta1");
    // Rediscovery (an unknown name typed, the 5-minute timer, a CRD change): it stays.
    let fx = crate::app::discovered::adopt(&mut s, with(vec![beta(&["legacy"])]));
    assert_eq!(version(&s), "v1beta1");
    assert!(fx.is_empty(), "nothing re-subscribed: {fx:?}");
    crate::app::discovered::adopt(&mut s, with(vec![beta(&["legacy", "extra"])]));
    assert_eq!(version(&s), "v1beta1");
    assert_eq!(s.top_list().unwrap().key.kind.api().unwrap().columns.len(), 2);
    // v1beta1 no longer served: the preferred version, and the user is told.
    crate::app::discovered::adopt(&mut s, with(vec![]));
    assert_eq!(version(&s), "v1");
    assert_eq!(
        s.screens.footer.message.as_deref(),
        Some("gizmos.v1beta1.demo.ktui.dev is no longer served; showing gizmos.v1.demo.ktui.dev")
    );
}
