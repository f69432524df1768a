//! Unit tests of the demo server's HTTP front: routing of Kubernetes API paths.

use super::*;
use crate::kinds::id;

#[test]
fn routes_kubernetes_paths() {
    let item = |kind, ns: Option<&str>, name: &str| Route::Item {
        kind,
        ns: ns.map(str::to_owned),
        name: name.into(),
    };
    let coll = |kind, ns: Option<&str>| Route::Collection {
        kind,
        ns: ns.map(str::to_owned),
    };
    assert_eq!(route("/api/v1/pods"), coll(id::POD, None));
    assert_eq!(route("/api/v1/namespaces/a/pods"), coll(id::POD, Some("a")));
    assert_eq!(
        route("/api/v1/namespaces/a/pods/p"),
        item(id::POD, Some("a"), "p")
    );
    assert_eq!(
        route("/api/v1/namespaces/a/pods/p/status"),
        Route::Sub {
            kind: id::POD,
            ns: Some("a".into()),
            name: "p".into(),
            sub: "status".into()
        }
    );
    assert_eq!(
        route("/apis/authorization.k8s.io/v1/selfsubjectaccessreviews"),
        Route::SelfSubjectAccessReview
    );
    assert_eq!(
        route("/api/v1/namespaces/a/pods/p/log"),
        Route::PodLog {
            ns: "a".into(),
            name: "p".into()
        }
    );
    assert_eq!(route("/api/v1/namespaces"), coll(id::NAMESPACE, None));
    assert_eq!(route("/api/v1/namespaces/a"), item(id::NAMESPACE, None, "a"));
    assert_eq!(route("/api/v1/nodes/n1"), item(id::NODE, None, "n1"));
    assert_eq!(route("/api/v1/namespaces/a/nodes"), Route::NotFound);
    assert_eq!(route("/api/v1/pods/p"), Route::NotFound);
    assert_eq!(
        route("/apis/apps/v1/namespaces/a/deployments"),
        coll(id::DEPLOYMENT, Some("a"))
    );
    assert_eq!(route("/apis/demo.ktui.dev/v1/gizmos"), coll(id::GIZMO, None));
    assert_eq!(
        route("/apis/apiextensions.k8s.io/v1/customresourcedefinitions/gizmos.demo.ktui.dev"),
        item(id::CRD, None, "gizmos.demo.ktui.dev")
    );
    assert_eq!(
        route("/apis/apps/v1"),
        Route::Resources("apps".into(), "v1".into())
    );
    assert_eq!(route("/api"), Route::CoreVersions);
    assert_eq!(route("/version"), Route::Version);
    assert_eq!(route("/openapi/v2"), Route::NotFound);
    assert_eq!(route("/api/v1/widgets"), Route::NotFound);
}
