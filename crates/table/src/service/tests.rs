//! Service row tests: EXTERNAL-IP and PORT(S) rules of kubectl-columns.md §5. Test-only.

use serde_json::{json, Value};

use super::{lb_ingress_string, LbIngress};
use ktui_kube::builtin::BuiltinKind;
use ktui_kube::row::{Drill, Health};
use crate::testutil::{ago, cells, row};

fn svc(spec: Value, status: Value) -> Value {
    json!({"metadata": {"name": "s", "namespace": "ns", "creationTimestamp": ago(30)}, "spec": spec, "status": status})
}

#[test]
fn columns_by_type() {
    let cases = [
        (
            svc(
                json!({"type": "ClusterIP", "clusterIP": "10.0.0.10", "clusterIPs": ["10.0.0.10"],
                "ports": [{"port": 53, "protocol": "UDP"}, {"port": 53, "protocol": "TCP"}],
                "selector": {"k8s-app": "dns"}}),
                json!({}),
            ),
            [
                "ClusterIP",
                "10.0.0.10",
                "<none>",
                "53/UDP,53/TCP",
                "30s",
                "k8s-app=dns",
            ],
        ),
        (
            svc(
                json!({"type": "NodePort", "clusterIPs": ["10.0.0.11"], "externalIPs": ["1.2.3.4", "5.6.7.8"],
                "ports": [{"port": 80, "nodePort": 30080, "protocol": "TCP"}]}),
                json!({}),
            ),
            [
                "NodePort",
                "10.0.0.11",
                "1.2.3.4,5.6.7.8",
                "80:30080/TCP",
                "30s",
                "<none>",
            ],
        ),
        (
            svc(
                json!({"type": "ClusterIP", "clusterIP": "None", "clusterIPs": ["None"], "selector": {"b": "2", "a": "1"}}),
                json!({}),
            ),
            ["ClusterIP", "None", "<none>", "<none>", "30s", "a=1,b=2"],
        ),
        (
            svc(
                json!({"type": "ExternalName", "externalName": "db.example.com", "ports": [{"port": 5432}]}),
                json!({}),
            ),
            [
                "ExternalName",
                "<none>",
                "db.example.com",
                "5432/TCP",
                "30s",
                "<none>",
            ],
        ),
        (
            svc(
                json!({"type": "LoadBalancer", "clusterIPs": ["10.0.0.12"], "allocateLoadBalancerNodePorts": false,
                "ports": [{"port": 80, "protocol": "SCTP"}]}),
                json!({}),
            ),
            [
                "LoadBalancer",
                "10.0.0.12",
                "<pending>",
                "80/SCTP",
                "30s",
                "<none>",
            ],
        ),
        (
            svc(
                json!({"type": "LoadBalancer", "clusterIPs": ["10.0.0.13"], "externalIPs": ["9.9.9.9"]}),
                json!({"loadBalancer": {"ingress": [{"ip": "34.1.2.3"}, {"ip": "34.1.2.2"}, {"ip": "34.1.2.3"}]}}),
            ),
            [
                "LoadBalancer",
                "10.0.0.13",
                "34.1.2.2,34.1.2.3,9.9.9.9",
                "<none>",
                "30s",
                "<none>",
            ],
        ),
        (
            svc(
                json!({"type": "LoadBalancer", "clusterIPs": ["10.0.0.14"]}),
                json!({"loadBalancer": {"ingress": [{"hostname": "a1b2c3d4e5-123456.elb.example.com"}, {}]}}),
            ),
            [
                "LoadBalancer",
                "10.0.0.14",
                "a1b2c3d4e5-123456.elb.example.com",
                "<none>",
                "30s",
                "<none>",
            ],
        ),
        (
            svc(json!({"type": "Weird"}), json!({})),
            ["Weird", "<none>", "<unknown>", "<none>", "30s", "<none>"],
        ),
    ];
    for (i, (fixture, want)) in cases.into_iter().enumerate() {
        assert_eq!(cells(BuiltinKind::Service, fixture), want, "case {i}");
    }
}

#[test]
fn lb_string_truncates_only_when_not_wide() {
    let ing = |ips: &[&str]| -> Vec<LbIngress> {
        ips.iter()
            .map(|ip| LbIngress {
                ip: ip.to_string(),
                hostname: String::new(),
            })
            .collect()
    };
    let lb = ing(&["34.1.2.3", "34.1.2.2", "34.1.2.3"]);
    assert_eq!(lb_ingress_string(&lb, false), "34.1.2.2,34.1...");
    assert_eq!(lb_ingress_string(&lb, true), "34.1.2.2,34.1.2.3");
    assert_eq!(
        lb_ingress_string(&ing(&["10.0.0.9", "10.0.0.10"]), true),
        "10.0.0.10,10.0.0.9"
    );
    let host = vec![LbIngress {
        ip: String::new(),
        hostname: "a1b2c3d4e5-123456.elb.example.com".into(),
    }];
    assert_eq!(lb_ingress_string(&host, false), "a1b2c3d4e5-12...");
}

#[test]
fn default_type_health_and_drill() {
    let r = row(
        BuiltinKind::Service,
        svc(
            json!({"clusterIPs": ["10.0.0.1"], "selector": {"app": "web"}}),
            json!({}),
        ),
    );
    assert_eq!(r.drill.as_deref(), Some(&Drill::Selector("app=web".into())));
    assert_eq!(r.health, Health::Ok);
    let pending = row(
        BuiltinKind::Service,
        svc(json!({"type": "LoadBalancer"}), json!({})),
    );
    assert_eq!((pending.drill, pending.health), (None, Health::Warn));
}
