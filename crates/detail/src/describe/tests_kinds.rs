//! Tests of the kind-specific describe sections (workloads, Service, Node, Namespace) on
//! objects shaped as the API server returns them. Must not test the common parts (that is
//! `tests`).

use serde_json::{json, Value};

use super::tests::{assert_has, text};
use ktui_kube::builtin::BuiltinKind;

/// A pod template as the API returns it inside workloads (defaults filled).
fn template(app: &str) -> Value {
    json!({"metadata": {"labels": {"app": app}},
           "spec": {"containers": [{"name": app, "image": format!("registry.example/{app}:1.4"),
                     "ports": [{"name": "http", "containerPort": 8080, "protocol": "TCP"}],
                     "env": [{"name": "MODE", "value": "prod"}],
                     "resources": {"requests": {"cpu": "100m", "memory": "64Mi"}, "limits": {"memory": "128Mi"}},
                     "volumeMounts": [{"name": "data", "mountPath": "/data"}],
                     "terminationMessagePath": "/dev/termination-log", "imagePullPolicy": "IfNotPresent"}],
                    "volumes": [{"name": "data", "emptyDir": {}}],
                    "restartPolicy": "Always", "dnsPolicy": "ClusterFirst", "schedulerName": "default-scheduler"}})
}

/// The lines every pod template shows for [`template`].
const TEMPLATE_LINES: &[&str] = &[
    "Pod Template:\n  Labels:         app=",
    "  Containers:\n",
    "      Image:          registry.example/",
    "      Ports:          8080/TCP (http)",
    "      Requests:       cpu=100m, memory=64Mi",
    "      Limits:         memory=128Mi",
    "      Environment:    MODE\n",
    "      Mounts:         /data from data (rw)",
    "  Volumes:        data (emptyDir)",
    "  Node-Selectors: <none>",
    "  Tolerations:    <none>",
];

#[test]
fn deployment() {
    let d = json!({"apiVersion": "apps/v1", "kind": "Deployment",
        "metadata": {"name": "web", "namespace": "shop", "annotations": {"deployment.kubernetes.io/revision": "2"}},
        "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "web"}}, "template": template("web"),
                 "strategy": {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": "25%", "maxSurge": 1}},
                 "revisionHistoryLimit": 10, "progressDeadlineSeconds": 600},
        "status": {"observedGeneration": 2, "replicas": 4, "updatedReplicas": 2, "readyReplicas": 3,
                   "availableReplicas": 3, "unavailableReplicas": 1,
                   "conditions": [{"type": "Progressing", "status": "True", "reason": "ReplicaSetUpdated"}]}});
    let t = text(&d, BuiltinKind::Deployment);
    assert_has(
        &t,
        &[
            "Selector:         app=web",
            "Replicas:         3 desired | 2 updated | 4 total | 3 available | 1 unavailable",
            "StrategyType:     RollingUpdate",
            "MinReadySeconds:  0",
            "RollingUpdateStrategy: 25% max unavailable, 1 max surge",
            "Progressing  True    ReplicaSetUpdated",
        ],
    );
    assert_has(&t, TEMPLATE_LINES);
    assert!(!t.contains("Spec:") && !t.contains("prod"), "{t}");
}

#[test]
fn replicaset() {
    let rs = json!({"metadata": {"name": "web-5d9", "ownerReferences": [{"kind": "Deployment", "name": "web", "controller": true}]},
        "spec": {"replicas": 3, "selector": {"matchLabels": {"app": "web", "pod-template-hash": "5d9"}}, "template": template("web")},
        "status": {"replicas": 3, "readyReplicas": 2, "availableReplicas": 2, "fullyLabeledReplicas": 3}});
    let t = text(&rs, BuiltinKind::ReplicaSet);
    assert_has(
        &t,
        &[
            "Selector:         app=web,pod-template-hash=5d9",
            "Controlled By:    Deployment/web",
            "Replicas:         3 current / 3 desired",
            "Pods Status:      2 Ready / 2 Available  (from the controller's status; pods not listed)",
        ],
    );
    assert_has(&t, TEMPLATE_LINES);
}

#[test]
fn statefulset() {
    let s = json!({"metadata": {"name": "db"},
        "spec": {"replicas": 3, "serviceName": "db", "podManagementPolicy": "OrderedReady", "template": template("db"),
                 "selector": {"matchLabels": {"app": "db"}},
                 "updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"partition": 0}},
                 "persistentVolumeClaimRetentionPolicy": {"whenDeleted": "Retain", "whenScaled": "Retain"},
                 "volumeClaimTemplates": [{"apiVersion": "v1", "kind": "PersistentVolumeClaim", "metadata": {"name": "data"},
                     "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "10Gi"}},
                              "storageClassName": "standard", "volumeMode": "Filesystem"}}]},
        "status": {"replicas": 2, "readyReplicas": 2, "currentReplicas": 2, "updatedReplicas": 2, "availableReplicas": 2}});
    let t = text(&s, BuiltinKind::StatefulSet);
    assert_has(
        &t,
        &[
            "Selector:         app=db",
            "Service Name:     db",
            "Pod Management Policy: OrderedReady",
            "Replicas:         3 desired | 2 total",
            "Update Strategy:  RollingUpdate\n  Partition:      0",
            "  WhenDeleted:    Retain",
            "Pods Status:      2 Ready / 2 Current / 2 Updated / 2 Available",
            "Volume Claims:\n  Name:           data\n  StorageClass:   standard\n  Capacity:       10Gi\n  Access Modes:   ReadWriteOnce",
        ],
    );
    assert_has(&t, TEMPLATE_LINES);
}

#[test]
fn daemonset() {
    let mut tpl = template("agent");
    tpl["spec"]["nodeSelector"] = json!({"kubernetes.io/os": "linux"});
    tpl["spec"]["tolerations"] = json!([{"key": "node-role.kubernetes.io/control-plane", "operator": "Exists", "effect": "NoSchedule"},
                                        {"operator": "Exists"}]);
    let ds = json!({"metadata": {"name": "agent", "namespace": "kube-system"},
        "spec": {"selector": {"matchLabels": {"app": "agent"}}, "template": tpl,
                 "updateStrategy": {"type": "RollingUpdate", "rollingUpdate": {"maxUnavailable": 1, "maxSurge": 0}}},
        "status": {"desiredNumberScheduled": 3, "currentNumberScheduled": 3, "numberReady": 2, "updatedNumberScheduled": 3,
                   "numberAvailable": 2, "numberUnavailable": 1, "numberMisscheduled": 0}});
    let t = text(&ds, BuiltinKind::DaemonSet);
    assert_has(
        &t,
        &[
            "Selector:         app=agent",
            "Node-Selector:    kubernetes.io/os=linux",
            "Desired Number of Nodes Scheduled: 3",
            "Number of Nodes Scheduled with Up-to-date Pods: 3",
            "Number of Nodes Scheduled with Available Pods: 2",
            "Number of Nodes Misscheduled: 0",
            "Pods Status:      2 Ready / 1 Unavailable",
            "Update Strategy:  RollingUpdate\n  MaxUnavailable: 1\n  MaxSurge:       0",
            "  Tolerations:    op=Exists\n                  node-role.kubernetes.io/control-plane:NoSchedule op=Exists",
        ],
    );
}

#[test]
fn job() {
    let mut tpl = template("report");
    tpl["spec"]["restartPolicy"] = json!("Never");
    let j = json!({"metadata": {"name": "report-29", "namespace": "batch",
                                "ownerReferences": [{"kind": "CronJob", "name": "report", "controller": true}]},
        "spec": {"parallelism": 1, "completions": 1, "backoffLimit": 6, "completionMode": "NonIndexed", "suspend": false,
                 "selector": {"matchLabels": {"batch.kubernetes.io/controller-uid": "6f1e"}}, "template": tpl},
        "status": {"startTime": "2026-11-30T11:00:00Z", "completionTime": "2026-11-30T11:04:30Z",
                   "succeeded": 1, "ready": 0, "terminating": 0,
                   "conditions": [{"type": "Complete", "status": "True"}]}});
    let t = text(&j, BuiltinKind::Job);
    assert_has(
        &t,
        &[
            "Selector:         batch.kubernetes.io/controller-uid=6f1e",
            "Parallelism:      1",
            "Completions:      1",
            "Completion Mode:  NonIndexed",
            "Backoff Limit:    6",
            "Start Time:       60m ago (2026-11-30T11:00:00Z)",
            "Completed At:     55m ago (2026-11-30T11:04:30Z)",
            "Duration:         4m30s",
            "Pods Statuses:    0 Active (0 Ready) / 1 Succeeded / 0 Failed",
            "Pod Template:",
        ],
    );
}

#[test]
fn cronjob() {
    let c = json!({"metadata": {"name": "report", "namespace": "batch"},
        "spec": {"schedule": "*/30 * * * *", "timeZone": "Etc/UTC", "concurrencyPolicy": "Forbid", "suspend": false,
                 "successfulJobsHistoryLimit": 3, "failedJobsHistoryLimit": 1,
                 "jobTemplate": {"spec": {"template": template("report")}}},
        "status": {"lastScheduleTime": "2026-11-30T11:30:00Z", "active": [{"kind": "Job", "name": "report-29"}]}});
    let t = text(&c, BuiltinKind::CronJob);
    assert_has(
        &t,
        &[
            "Schedule:         */30 * * * *",
            "Concurrency Policy: Forbid",
            "Suspend:          false",
            "Time Zone:        Etc/UTC",
            "Successful Job History Limit: 3",
            "Starting Deadline Seconds: <unset>",
            "Selector:         <unset>",
            "Completions:      <unset>",
            "Last Schedule Time: 30m ago (2026-11-30T11:30:00Z)",
            "Last Successful Time: <unset>",
            "Active Jobs:      report-29",
        ],
    );
    assert_has(&t, TEMPLATE_LINES);
}

#[test]
fn service() {
    let s = json!({"metadata": {"name": "web", "namespace": "shop"},
        "spec": {"type": "LoadBalancer", "selector": {"app": "web", "tier": "front"}, "clusterIP": "10.96.12.7",
                 "clusterIPs": ["10.96.12.7"], "ipFamilies": ["IPv4"], "ipFamilyPolicy": "SingleStack",
                 "ports": [{"name": "http", "port": 80, "protocol": "TCP", "targetPort": 8080, "nodePort": 31080},
                           {"port": 9090, "protocol": "UDP", "targetPort": "metrics"}],
                 "sessionAffinity": "None", "externalTrafficPolicy": "Local", "healthCheckNodePort": 32000,
                 "internalTrafficPolicy": "Cluster", "allocateLoadBalancerNodePorts": true},
        "status": {"loadBalancer": {"ingress": [{"ip": "203.0.113.9", "ipMode": "VIP"}, {"hostname": "lb.example.com"}]}}});
    let t = text(&s, BuiltinKind::Service);
    assert_has(
        &t,
        &[
            "Selector:         app=web,tier=front",
            "Type:             LoadBalancer",
            "IP Family Policy: SingleStack",
            "IP Families:      IPv4",
            "IP:               10.96.12.7",
            "IPs:              10.96.12.7",
            "LoadBalancer Ingress: 203.0.113.9, lb.example.com",
            "Port:             http 80/TCP\nTargetPort:       8080/TCP\nNodePort:         http 31080/TCP",
            "Port:             <unset> 9090/UDP\nTargetPort:       metrics/UDP\nSession Affinity: None",
            "External Traffic Policy: Local",
            "HealthCheck NodePort: 32000",
        ],
    );
    assert!(!t.contains("Endpoints"), "{t}");
}

#[test]
fn node() {
    let n = json!({"metadata": {"name": "node-2", "labels": {"node-role.kubernetes.io/control-plane": "",
                                "node-role.kubernetes.io/worker": "", "kubernetes.io/hostname": "node-2"}},
        "spec": {"podCIDR": "10.244.2.0/24", "podCIDRs": ["10.244.2.0/24"], "unschedulable": true,
                 "taints": [{"key": "node.kubernetes.io/unreachable", "effect": "NoExecute", "timeAdded": "2026-11-30T11:00:00Z"},
                            {"key": "node.kubernetes.io/unreachable", "effect": "NoSchedule"},
                            {"key": "dedicated", "value": "db", "effect": "NoSchedule"}]},
        "status": {"addresses": [{"type": "InternalIP", "address": "10.0.0.12"}, {"type": "Hostname", "address": "node-2"}],
                   "capacity": {"cpu": "8", "memory": "32Gi", "pods": "110", "ephemeral-storage": "100Gi"},
                   "allocatable": {"cpu": "7800m", "memory": "31Gi", "pods": "110", "ephemeral-storage": "95Gi"},
                   "nodeInfo": {"machineID": "ab12", "systemUUID": "cd34", "bootID": "ef56", "kernelVersion": "6.12.48-1-amd64",
                                "osImage": "Debian GNU/Linux 13 (trixie)", "operatingSystem": "linux", "architecture": "amd64",
                                "containerRuntimeVersion": "containerd://2.1.4", "kubeletVersion": "v1.37.2"},
                   "conditions": [{"type": "Ready", "status": "Unknown", "reason": "NodeStatusUnknown",
                                   "message": "Kubelet stopped posting node status."}]}});
    let t = text(&n, BuiltinKind::Node);
    assert_has(
        &t,
        &[
            "Roles:            control-plane,worker",
            "Taints:           node.kubernetes.io/unreachable:NoExecute\n                  dedicated=db:NoSchedule\n                  node.kubernetes.io/unreachable:NoSchedule",
            "Unschedulable:    true",
            "Addresses:\n  InternalIP:     10.0.0.12\n  Hostname:       node-2",
            "Capacity:\n  cpu:                8\n  ephemeral-storage:  100Gi\n  memory:             32Gi\n  pods:               110",
            "Allocatable:\n  cpu:                7800m",
            "System Info:\n  Machine ID:                 ab12",
            "  Kernel Version:             6.12.48-1-amd64",
            "  OS Image:                   Debian GNU/Linux 13 (trixie)",
            "  Container Runtime Version:  containerd://2.1.4",
            "  Kubelet Version:            v1.37.2",
            "  Architecture:               amd64",
            "PodCIDR:          10.244.2.0/24",
            "PodCIDRs:         10.244.2.0/24",
            "Ready  Unknown  NodeStatusUnknown  Kubelet stopped posting node status.",
        ],
    );
    let bare = text(&json!({"metadata": {"name": "n"}}), BuiltinKind::Node);
    assert_has(
        &bare,
        &[
            "Roles:            <none>",
            "Taints:           <none>",
            "Addresses:        <none>",
        ],
    );
}

#[test]
fn namespace() {
    let ns = json!({"metadata": {"name": "shop", "labels": {"kubernetes.io/metadata.name": "shop"}},
                    "spec": {"finalizers": ["kubernetes"]}, "status": {"phase": "Terminating"}});
    let t = text(&ns, BuiltinKind::Namespace);
    assert_has(
        &t,
        &[
            "Status:           Terminating",
            "Quotas, Limits:   not shown here",
        ],
    );
}
