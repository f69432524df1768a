//! Setup of the default scenario: the cluster as it is before the first tick (namespaces,
//! nodes, the demo CRD and gizmos, services, config, storage, workloads and their pods,
//! the first node events). Writes only through the store's API.

use std::collections::BTreeMap;
use std::sync::Arc;

/// The demo's namespaces, oldest first.
const NAMESPACES: [&str; 8] = [
    "default",
    "kube-system",
    "kube-public",
    "kube-node-lease",
    "shop",
    "data",
    "batch",
    "demo",
];

use rand::rngs::StdRng;
use rand::SeedableRng;
use serde_json::{json, Value};

use super::events::{Involved, Recorder, Source};
use super::kinds::id;
use super::objects as o;
use super::scenario::World;
use super::store::{now_rfc3339, Store, StoreError};

/// Seconds in a day.
const DAY: u64 = 86_400;

impl World {
    /// Fills the store with the scenario's starting state.
    pub(crate) fn setup(store: Arc<Store>, seed: u64) -> Result<World, StoreError> {
        let events = Recorder::new(store.clone(), 400);
        let mut w = World {
            store,
            rng: StdRng::seed_from_u64(seed),
            events,
            pods: BTreeMap::new(),
            deploys: Vec::new(),
            tick: 0,
            next_ip: 10,
            pod_changes: None,
            parsed: Default::default(),
        };
        let s = w.store.clone();
        s.set_creation_age(41 * DAY);
        for ns in NAMESPACES {
            s.apply(id::NAMESPACE, o::namespace(ns))?;
            s.apply(
                id::CONFIGMAP,
                o::configmap(
                    ns,
                    "kube-root-ca.crt",
                    &[(
                        "ca.crt",
                        "-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n",
                    )],
                ),
            )?;
        }
        s.apply(
            id::NODE,
            o::node(
                "control-plane-1",
                &["control-plane"],
                "10.0.0.10",
                true,
                false,
                "amd64",
            ),
        )?;
        s.apply(
            id::NODE,
            o::node("worker-1", &["worker"], "10.0.0.11", true, false, "amd64"),
        )?;
        s.apply(
            id::NODE,
            o::node("worker-2", &["worker"], "10.0.0.12", true, false, "arm64"),
        )?;
        s.apply(
            id::NODE,
            o::node("worker-3", &[], "10.0.0.13", true, true, "amd64"),
        )?;
        s.apply(
            id::NODE,
            o::node("worker-4", &["worker", "gpu"], "10.0.0.14", false, false, "amd64"),
        )?;
        for (node, ty, reason, msg) in [
            (
                "worker-4",
                "Warning",
                "NodeNotReady",
                "Node worker-4 status is now: NodeNotReady",
            ),
            (
                "worker-3",
                "Normal",
                "NodeNotSchedulable",
                "Node worker-3 status is now: NodeNotSchedulable",
            ),
        ] {
            let n = Involved {
                kind: "Node".into(),
                api_version: "v1".into(),
                namespace: String::new(),
                name: node.into(),
                uid: String::new(),
                field_path: None,
            };
            let src = Source::Legacy {
                component: "node-controller",
                host: String::new(),
            };
            w.events.record(&n, ty, reason, msg, &src, &now_rfc3339());
        }
        s.set_creation_age(9 * DAY);
        s.apply(id::CRD, o::gizmo_crd())?;
        s.set_creation_age(8 * DAY);
        for (name, color, size, phase) in [
            ("sprocket", "red", 3, "Ready"),
            ("widget", "blue", 5, "Pending"),
            ("doohickey", "green", 1, "Degraded"),
        ] {
            s.apply(id::GIZMO, o::gizmo("demo", name, color, size, phase))?;
        }
        s.set_creation_age(27 * DAY);
        let tcp = |n, p| o::port(n, p, "TCP", None);
        s.apply(
            id::SERVICE,
            o::service(
                "default",
                "kubernetes",
                "ClusterIP",
                "10.96.0.1",
                json!([tcp("https", 443)]),
                None,
                None,
            ),
        )?;
        s.apply(
            id::SERVICE,
            o::service(
                "kube-system",
                "kube-dns",
                "ClusterIP",
                "10.96.0.10",
                json!([
                    o::port("dns", 53, "UDP", None),
                    o::port("dns-tcp", 53, "TCP", None),
                    tcp("metrics", 9153)
                ]),
                Some("coredns"),
                None,
            ),
        )?;
        s.apply(
            id::SERVICE,
            o::service(
                "shop",
                "frontend",
                "LoadBalancer",
                "10.96.12.40",
                // Port 80 in front of the pods' 8080, as a LoadBalancer usually is.
                Value::Array(vec![{
                    let mut p = o::port("http", 80, "TCP", Some(30080));
                    p["targetPort"] = json!(8080);
                    p
                }]),
                Some("frontend"),
                Some("203.0.113.10"),
            ),
        )?;
        s.apply(
            id::SERVICE,
            o::service(
                "shop",
                "cart",
                "ClusterIP",
                "10.96.14.2",
                json!([tcp("http", 8080)]),
                Some("cart"),
                None,
            ),
        )?;
        s.apply(
            id::SERVICE,
            o::service(
                "shop",
                "checkout",
                "ClusterIP",
                "10.96.14.9",
                json!([tcp("http", 8080)]),
                Some("checkout"),
                None,
            ),
        )?;
        s.apply(
            id::SERVICE,
            o::service(
                "data",
                "postgres",
                "ClusterIP",
                "None",
                json!([tcp("pg", 5432)]),
                Some("postgres"),
                None,
            ),
        )?;
        s.apply(
            id::SERVICE,
            o::service(
                "data",
                "api-gateway",
                "NodePort",
                "10.96.20.7",
                json!([o::port("http", 8080, "TCP", Some(31808))]),
                Some("api-gateway"),
                None,
            ),
        )?;
        s.apply(
            id::CONFIGMAP,
            o::configmap(
                "shop",
                "frontend-config",
                &[
                    ("theme", "dark"),
                    ("currency", "EUR"),
                    ("features", "search,reviews"),
                ],
            ),
        )?;
        s.apply(
            id::SECRET,
            o::secret(
                "shop",
                "frontend-tls",
                "kubernetes.io/tls",
                &["tls.crt", "tls.key"],
            ),
        )?;
        s.apply(
            id::SECRET,
            o::secret(
                "shop",
                "registry",
                "kubernetes.io/dockerconfigjson",
                &[".dockerconfigjson"],
            ),
        )?;
        s.apply(
            id::SECRET,
            o::secret(
                "data",
                "postgres-password",
                "Opaque",
                &["password", "username", "database"],
            ),
        )?;
        s.apply(
            id::PVC,
            o::pvc(
                "data",
                "data-postgres-0",
                "10Gi",
                "standard",
                Some("pvc-3f6c1a9e-0b1d-4c55-9a57-1d2e3f4a5b60"),
            ),
        )?;
        s.apply(
            id::PVC,
            o::pvc(
                "data",
                "data-postgres-1",
                "10Gi",
                "standard",
                Some("pvc-7a8b9c0d-1e2f-4a3b-8c4d-5e6f7a8b9c01"),
            ),
        )?;
        s.apply(id::PVC, o::pvc("data", "scratch", "50Gi", "fast", None))?;
        s.set_creation_age(2 * DAY + 7 * 3600);
        for (ns, app, image, replicas, crashes) in [
            (
                "kube-system",
                "coredns",
                "registry.k8s.io/coredns/coredns:v1.12.1",
                2,
                false,
            ),
            ("shop", "frontend", "ghcr.io/ktui/frontend", 3, false),
            ("shop", "cart", "ghcr.io/ktui/cart:2.4.0", 2, false),
            ("shop", "checkout", "ghcr.io/ktui/checkout:0.9.3", 1, true),
            ("data", "api-gateway", "ghcr.io/ktui/api-gateway", 3, false),
        ] {
            w.add_deployment(ns, app, image, replicas, crashes)?;
        }
        w.add_fixed_set()?;
        s.set_creation_age(6 * DAY);
        s.apply(
            id::CRONJOB,
            o::cronjob("batch", "nightly-report", "*/1 * * * *", None, &[]),
        )?;
        for (kind, obj) in crate::rbac::objects(&NAMESPACES) {
            s.apply(kind, obj)?;
        }
        for pdb in [
            o::pdb("data", "postgres", "minAvailable", 2),
            o::pdb("shop", "frontend", "maxUnavailable", 1),
        ] {
            s.apply(id::PDB, pdb)?;
        }
        // What the controllers create now (the daemonset's pods, a first job) came after
        // the workloads above (2 days 7 hours).
        s.set_creation_age(2 * DAY);
        w.watch_pods();
        w.reconcile();
        s.set_creation_age(0);
        Ok(w)
    }
}
