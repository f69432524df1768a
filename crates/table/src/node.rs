//! Nodes: slim decoder and row (STATUS, ROLES, AGE, VERSION; wide INTERNAL-IP, EXTERNAL-IP,
//! OS-IMAGE, KERNEL-VERSION, CONTAINER-RUNTIME); `enter` leads to the node's pods; the row's
//! usage capacity from `status.allocatable` (cpu and memory) with the pressure conditions
//! (`:pulse`). Must not keep images, `capacity` or other node status.

use std::borrow::Cow;
use serde::Deserialize;

use ktui_kube::capacity::{Capacity, Pressure};
use ktui_kube::row::{Cell, Drill, Health, IntoRow, Row, RowCtx};
use ktui_kube::sanitize::sanitized_box;

use super::{col, wide, KindSpec};
use super::meta::{nullable, text, text_or, ObjMeta};
use super::pod::ResourceList;

/// A node, decoded only as far as its columns need.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(default)]
pub struct NodeObj {
    /// `metadata`.
    pub metadata: ObjMeta,
    /// `spec`.
    pub spec: NodeSpec,
    /// `status`.
    pub status: NodeStatus,
}

/// `spec`.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(default)]
pub struct NodeSpec {
    /// `spec.unschedulable` (cordoned).
    pub unschedulable: bool,
}

/// The parts of `status` the columns read.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct NodeStatus {
    /// `status.conditions` (type and status).
    pub conditions: Vec<NodeCondition>,
    /// `status.addresses`.
    pub addresses: Vec<NodeAddress>,
    /// `status.nodeInfo`.
    pub node_info: NodeInfo,
    /// `status.allocatable` (`cpu` and `memory` only): what usage percentages divide by.
    #[serde(deserialize_with = "nullable")]
    pub allocatable: ResourceList,
}

/// One `status.conditions` entry.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(default)]
pub struct NodeCondition {
    /// `type`.
    #[serde(rename = "type")]
    pub type_: String,
    /// `status`.
    pub status: String,
}

/// One `status.addresses` entry.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(default)]
pub struct NodeAddress {
    /// `type` (`InternalIP`, `ExternalIP`, `Hostname`...).
    #[serde(rename = "type")]
    pub type_: String,
    /// `address`.
    pub address: String,
}

/// `status.nodeInfo`.
#[derive(Deserialize, Clone, Debug, Default)]
#[serde(rename_all = "camelCase", default)]
pub struct NodeInfo {
    /// `kubeletVersion`.
    pub kubelet_version: String,
    /// `osImage`.
    pub os_image: String,
    /// `kernelVersion`.
    pub kernel_version: String,
    /// `containerRuntimeVersion`.
    pub container_runtime_version: String,
    /// `architecture`.
    pub architecture: String,
}

impl NodeObj {
    /// STATUS from the last `Ready` condition, plus `,SchedulingDisabled` when cordoned.
    fn status(&self) -> (String, Health) {
        let ready = self.status.conditions.iter().rev().find(|c| c.type_ == "Ready");
        let (mut s, mut health) = match ready {
            Some(c) if c.status == "True" => ("Ready".to_string(), Health::Ok),
            Some(_) => ("NotReady".to_string(), Health::Error),
            None => ("Unknown".to_string(), Health::Error),
        };
        if self.spec.unschedulable {
            s.push_str(",SchedulingDisabled");
            if health == Health::Ok {
                health = Health::Warn;
            }
        }
        (s, health)
    }

    /// MemoryPressure / DiskPressure / PIDPressure: the last entry of each type decides, as
    /// for `Ready`.
    fn pressure(&self) -> Pressure {
        let holds = |t: &str| {
            let c = self.status.conditions.iter().rev().find(|c| c.type_ == t);
            c.is_some_and(|c| c.status == "True")
        };
        Pressure {
            memory: holds("MemoryPressure"),
            disk: holds("DiskPressure"),
            pid: holds("PIDPressure"),
        }
    }

    /// ROLES from `node-role.kubernetes.io/<role>` keys and the `kubernetes.io/role` value.
    fn roles(&self) -> Cell {
        let mut roles: Vec<&str> = self
            .metadata
            .labels
            .iter()
            .filter_map(|(k, v)| match k.strip_prefix("node-role.kubernetes.io/") {
                Some(role) => Some(role),
                None if k == "kubernetes.io/role" => Some(v.as_str()),
                None => None,
            })
            .filter(|r| !r.is_empty())
            .collect();
        roles.sort_unstable();
        roles.dedup();
        text_or(&roles.join(","), "<none>")
    }

    /// The first address of the given type, `<none>` when there is none.
    fn address(&self, type_: &str) -> Cell {
        let a = self.status.addresses.iter().find(|a| a.type_ == type_);
        a.map_or(Cell::Static("<none>"), |a| text(&a.address))
    }

    /// KERNEL-VERSION, with ` (<arch>)` appended when the architecture is known (1.35+).
    fn kernel(&self) -> Cell {
        let info = &self.status.node_info;
        let kernel = if info.kernel_version.is_empty() {
            "<unknown>"
        } else {
            &info.kernel_version
        };
        if info.architecture.is_empty() {
            text(kernel)
        } else {
            text(&format!("{kernel} ({})", info.architecture))
        }
    }
}

/// The columns after NAME, index for index with the row's cells (`kubectl get node`).
pub static SPEC: KindSpec = KindSpec {
    columns: Cow::Borrowed(&[
        col("STATUS"),
        col("ROLES"),
        col("AGE"),
        col("VERSION"),
        wide("INTERNAL-IP"),
        wide("EXTERNAL-IP"),
        wide("OS-IMAGE"),
        wide("KERNEL-VERSION"),
        wide("CONTAINER-RUNTIME"),
    ]),
    status_col: Some(0),
};

impl IntoRow for NodeObj {
    fn into_row(self, ctx: &RowCtx) -> Row {
        let (status, health) = self.status();
        let info = &self.status.node_info;
        let cells = vec![
            match status.as_str() {
                "Ready" => Cell::Static("Ready"),
                "NotReady" => Cell::Static("NotReady"),
                _ => text(&status),
            },
            self.roles(),
            Cell::Age(self.metadata.creation_timestamp),
            text(&info.kubelet_version),
            self.address("InternalIP"),
            self.address("ExternalIP"),
            text_or(&info.os_image, "<unknown>"),
            self.kernel(),
            text_or(&info.container_runtime_version, "<unknown>"),
        ];
        let drill = Some(Drill::Node(sanitized_box(&self.metadata.name)));
        let capacity = Capacity::Node {
            cpu_nanos: self.status.allocatable.cpu_nanos(),
            memory_bytes: self.status.allocatable.memory_bytes(),
            pressure: self.pressure(),
        };
        let mut row = self.metadata.into_row(ctx, cells, health, drill);
        row.capacity = Some(ctx.interner.intern_capacity(capacity));
        row
    }
}

#[cfg(test)]
mod tests {
    use serde_json::{json, Value};

    use ktui_kube::builtin::BuiltinKind;
    use ktui_kube::capacity::Capacity;
    use ktui_kube::row::{Drill, Health};
    use crate::testutil::{ago, cells, row};

    fn node(labels: Value, unschedulable: bool, conds: Value) -> Value {
        json!({"metadata": {"name": "node-1", "creationTimestamp": ago(86_400 * 10), "labels": labels},
            "spec": {"unschedulable": unschedulable},
            "status": {"conditions": conds,
                "addresses": [{"type": "Hostname", "address": "n1"}, {"type": "InternalIP", "address": "10.0.0.1"},
                    {"type": "InternalIP", "address": "10.0.0.2"}],
                "nodeInfo": {"kubeletVersion": "v1.37.2", "osImage": "Debian", "kernelVersion": "6.8.0-51-generic",
                    "architecture": "arm64", "containerRuntimeVersion": "containerd://2.0"}}})
    }

    #[test]
    fn status_and_roles() {
        let ready =
            json!([{"type": "MemoryPressure", "status": "False"}, {"type": "Ready", "status": "True"}]);
        let cases = [
            (
                node(
                    json!({"node-role.kubernetes.io/worker": "", "node-role.kubernetes.io/control-plane": "x"}),
                    false,
                    ready.clone(),
                ),
                ("Ready", "control-plane,worker"),
            ),
            (
                node(
                    json!({"kubernetes.io/role": "infra", "node-role.kubernetes.io/": "", "node-role.kubernetes.io/infra": ""}),
                    false,
                    ready.clone(),
                ),
                ("Ready", "infra"),
            ),
            (
                node(json!({}), true, json!([{"type": "Ready", "status": "False"}])),
                ("NotReady,SchedulingDisabled", "<none>"),
            ),
            (
                node(json!({}), true, json!([])),
                ("Unknown,SchedulingDisabled", "<none>"),
            ),
            (
                node(json!({}), false, json!([{"type": "Ready", "status": "Unknown"}])),
                ("NotReady", "<none>"),
            ),
            (
                node(
                    json!({}),
                    false,
                    json!([{"type": "Ready", "status": "False"}, {"type": "Ready", "status": "True"}]),
                ),
                ("Ready", "<none>"),
            ),
        ];
        for (i, (fixture, (status, roles))) in cases.into_iter().enumerate() {
            let got = cells(BuiltinKind::Node, fixture);
            assert_eq!((got[0].as_str(), got[1].as_str()), (status, roles), "case {i}");
        }
    }

    #[test]
    fn wide_columns_health_drill() {
        let n = node(json!({}), false, json!([{"type": "Ready", "status": "True"}]));
        assert_eq!(
            cells(BuiltinKind::Node, n.clone()),
            [
                "Ready",
                "<none>",
                "10d",
                "v1.37.2",
                "10.0.0.1",
                "<none>",
                "Debian",
                "6.8.0-51-generic (arm64)",
                "containerd://2.0"
            ]
        );
        let r = row(BuiltinKind::Node, n);
        assert_eq!(
            (r.health, r.drill.map(|d| *d)),
            (Health::Ok, Some(Drill::Node("node-1".into())))
        );
        let bare = json!({"metadata": {"name": "n"}, "status": {"nodeInfo": {"architecture": "amd64"}}});
        assert_eq!(
            cells(BuiltinKind::Node, bare.clone()),
            [
                "Unknown",
                "<none>",
                "<unknown>",
                "",
                "<none>",
                "<none>",
                "<unknown>",
                "<unknown> (amd64)",
                "<unknown>"
            ]
        );
        assert_eq!(row(BuiltinKind::Node, bare).health, Health::Error);
    }

    #[test]
    fn allocatable_is_the_capacity() {
        let cap = |status: Value| {
            let r = row(
                BuiltinKind::Node,
                json!({"metadata": {"name": "n"}, "status": status}),
            );
            r.capacity.as_deref().cloned()
        };
        let node = |cpu, memory| {
            Some(Capacity::Node {
                cpu_nanos: cpu,
                memory_bytes: memory,
                pressure: Default::default(),
            })
        };
        assert_eq!(
            cap(json!({"capacity": {"cpu": "4", "memory": "9Gi"},
                "allocatable": {"cpu": "3920m", "memory": "8Gi", "pods": "110"}})),
            node(Some(3_920_000_000), Some(8 << 30))
        );
        assert_eq!(cap(json!({})), node(None, None));
        assert_eq!(cap(json!({"allocatable": null})), node(None, None));
        assert_eq!(
            cap(json!({"allocatable": {"memory": "7901112Ki", "cpu": "x"}})),
            node(None, Some(7_901_112 * 1024))
        );
    }

    #[test]
    fn pressure_conditions_ride_with_the_capacity() {
        let pressure = |conds: Value| {
            let r = row(BuiltinKind::Node, node(json!({}), false, conds));
            match r.capacity.as_deref() {
                Some(Capacity::Node { pressure, .. }) => *pressure,
                other => panic!("{other:?}"),
            }
        };
        let none = pressure(json!([{"type": "MemoryPressure", "status": "False"},
            {"type": "DiskPressure", "status": "Unknown"}, {"type": "Ready", "status": "True"}]));
        assert!(!none.any(), "{none:?}");
        let some = pressure(json!([{"type": "MemoryPressure", "status": "True"},
            {"type": "PIDPressure", "status": "True"}, {"type": "DiskPressure", "status": "True"},
            {"type": "DiskPressure", "status": "False"}]));
        assert_eq!(
            (some.memory, some.disk, some.pid),
            (true, false, true),
            "the last entry of a type decides"
        );
    }
}
