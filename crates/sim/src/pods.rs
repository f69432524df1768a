//! The pod model of the demo cluster and its JSON: a compact state (phase of life, restarts,
//! node, owner) that renders to a realistic pod with conditions and container statuses, so
//! STATUS/READY/RESTARTS/IP/NODE columns all have real inputs. Must not touch the store.

use serde_json::{json, Value};

use super::objects::owner;

/// Where a pod is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Life {
    /// Created, not scheduled.
    Pending,
    /// Scheduled; image pulling / container creating.
    Creating,
    /// Running; `ready` as the readiness probe says.
    Running { ready: bool },
    /// Last run failed; waiting in CrashLoopBackOff.
    CrashLoop,
    /// Last run failed just now (terminated, Error).
    Failed,
    /// Ran to completion (exit 0).
    Completed,
}

/// One pod as the scenario tracks it.
#[derive(Debug, Clone)]
pub struct PodModel {
    pub namespace: String,
    pub name: String,
    /// `app` label value and the container's name.
    pub app: String,
    pub image: String,
    /// Extra labels (pod-template-hash, job-name, ...).
    pub labels: Vec<(String, String)>,
    /// Controller: (apiVersion, kind, name, uid).
    pub owner: Option<(String, String, String, String)>,
    pub node: Option<String>,
    pub ip: Option<String>,
    pub life: Life,
    pub restarts: u32,
    /// `restartPolicy`: `Always` for workloads, `Never` for jobs.
    pub restart_policy: &'static str,
    /// When the current/last container started, and last termination time.
    pub started: Option<String>,
    pub last_finished: Option<String>,
    /// `metadata.deletionTimestamp` when being deleted (shows Terminating).
    pub deleting: Option<String>,
    /// Ticks spent in the current life stage.
    pub age_in_stage: u32,
    /// `metadata.uid` once the kubelet has seen the stored pod (`""` before).
    pub uid: String,
    /// `metadata.deletionGracePeriodSeconds` of a terminating pod.
    pub grace: i64,
}

impl PodModel {
    /// A new Pending pod.
    pub fn new(namespace: &str, name: &str, app: &str, image: &str) -> PodModel {
        PodModel {
            namespace: namespace.into(),
            name: name.into(),
            app: app.into(),
            image: image.into(),
            labels: Vec::new(),
            owner: None,
            node: None,
            ip: None,
            life: Life::Pending,
            restarts: 0,
            restart_policy: "Always",
            started: None,
            last_finished: None,
            deleting: None,
            age_in_stage: 0,
            uid: String::new(),
            grace: 30,
        }
    }

    /// Moves to `life`, restarting the stage clock.
    pub fn set(&mut self, life: Life) {
        self.life = life;
        self.age_in_stage = 0;
    }

    fn condition(t: &str, ok: bool, now: &str) -> Value {
        json!({"type": t, "status": if ok { "True" } else { "False" }, "lastProbeTime": null, "lastTransitionTime": now})
    }

    /// The pod's JSON at time `now` (RFC 3339).
    pub fn to_json(&self, now: &str) -> Value {
        let mut labels = serde_json::Map::new();
        labels.insert("app".into(), json!(self.app));
        for (k, v) in &self.labels {
            labels.insert(k.clone(), json!(v));
        }
        let mut meta = json!({"namespace": self.namespace, "name": self.name, "labels": labels});
        if let Some((av, kind, name, uid)) = &self.owner {
            meta["ownerReferences"] = json!([owner(av, kind, name, uid)]);
            meta["generateName"] = json!(format!("{name}-"));
        }
        if let Some(t) = &self.deleting {
            meta["deletionTimestamp"] = json!(t);
            meta["deletionGracePeriodSeconds"] = json!(30);
        }
        let scheduled = self.node.is_some();
        let (phase, ready, state, last_state) = self.container_state(now);
        let running_ready = matches!(self.life, Life::Running { ready: true });
        let mut conditions = vec![Self::condition("PodScheduled", scheduled, now)];
        if scheduled {
            conditions.insert(
                0,
                Self::condition("PodReadyToStartContainers", self.life != Life::Creating, now),
            );
            conditions.insert(1, Self::condition("Initialized", true, now));
            conditions.push(Self::condition("ContainersReady", running_ready, now));
            conditions.push(Self::condition("Ready", running_ready, now));
        } else {
            conditions[0]["reason"] = json!("Unschedulable");
            conditions[0]["message"] = json!("0/4 nodes are available: waiting for the scheduler.");
        }
        let mut status = json!({"phase": phase, "conditions": conditions, "qosClass": "Burstable"});
        if scheduled {
            status["hostIP"] = json!("10.0.0.11");
            status["startTime"] = json!(self.started.as_deref().unwrap_or(now));
            let mut cs = json!({"name": self.app, "image": self.image, "imageID": "", "ready": ready,
                "restartCount": self.restarts, "started": matches!(self.life, Life::Running { .. }), "state": state});
            if let Some(ls) = last_state {
                cs["lastState"] = ls;
            }
            if self.life != Life::Creating {
                cs["containerID"] = json!(format!("containerd://{:064x}", fxhash(&self.name)));
                cs["imageID"] = json!(format!(
                    "docker.io/library/{}@sha256:{:064x}",
                    self.image,
                    fxhash(&self.image)
                ));
            }
            status["containerStatuses"] = json!([cs]);
        }
        if let Some(ip) = &self.ip {
            status["podIP"] = json!(ip);
            status["podIPs"] = json!([{"ip": ip}]);
        }
        let mut spec = json!({
            "containers": [{"name": self.app, "image": self.image, "imagePullPolicy": "IfNotPresent",
                "resources": super::sizing::resources(&self.app),
                "terminationMessagePath": "/dev/termination-log", "terminationMessagePolicy": "File"}],
            "restartPolicy": self.restart_policy, "terminationGracePeriodSeconds": 30, "dnsPolicy": "ClusterFirst",
            "serviceAccountName": "default", "schedulerName": "default-scheduler", "enableServiceLinks": true,
            "priority": 0, "preemptionPolicy": "PreemptLowerPriority",
            "tolerations": [{"key": "node.kubernetes.io/not-ready", "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": 300}]});
        if let Some(n) = &self.node {
            spec["nodeName"] = json!(n);
        }
        // Workload pods declare their template's port (`objects::deployment`), so port-forwards
        // to them (and to the services in front of them) have a port to answer on.
        if self.owner.as_ref().is_some_and(|o| o.1 == "ReplicaSet") {
            spec["containers"][0]["ports"] = json!([{"containerPort": 8080, "protocol": "TCP"}]);
        }
        let mut pod =
            json!({"apiVersion": "v1", "kind": "Pod", "metadata": meta, "spec": spec, "status": status});
        super::multi::decorate(self, &mut pod);
        super::pod_refs::decorate(self, &mut pod);
        pod
    }

    /// (phase, ready, state, lastState) of the single container.
    fn container_state(&self, now: &str) -> (&'static str, bool, Value, Option<Value>) {
        let started = self.started.as_deref().unwrap_or(now);
        let last = self.last_finished.as_ref().filter(|_| self.restarts > 0).map(|fin| {
            json!({"terminated": {"exitCode": 1, "reason": "Error", "startedAt": started, "finishedAt": fin,
                                  "containerID": format!("containerd://{:064x}", fxhash(fin))}})
        });
        match self.life {
            Life::Pending => ("Pending", false, json!({}), None),
            Life::Creating => (
                "Pending",
                false,
                json!({"waiting": {"reason": "ContainerCreating"}}),
                None,
            ),
            Life::Running { ready } => ("Running", ready, json!({"running": {"startedAt": started}}), last),
            Life::CrashLoop => (
                "Running",
                false,
                json!({"waiting": {"reason": "CrashLoopBackOff",
                    "message": format!("back-off 2m40s restarting failed container={} pod={}", self.app, self.name)}}),
                last,
            ),
            Life::Failed => (
                "Running",
                false,
                json!({"terminated": {"exitCode": 1, "reason": "Error", "startedAt": started,
                                      "finishedAt": self.last_finished.as_deref().unwrap_or(now)}}),
                None,
            ),
            Life::Completed => (
                if self.restart_policy == "Never" {
                    "Succeeded"
                } else {
                    "Running"
                },
                false,
                json!({"terminated": {"exitCode": 0, "reason": "Completed", "startedAt": started,
                                      "finishedAt": self.last_finished.as_deref().unwrap_or(now)}}),
                None,
            ),
        }
    }
}

/// A small stable hash for fake container and image ids.
pub fn fxhash(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_each_stage_like_the_kubelet() {
        let mut p = PodModel::new("shop", "web-1", "web", "nginx:1.27");
        let v = p.to_json("2026-01-01T00:00:00Z");
        assert_eq!(v["status"]["phase"], "Pending");
        assert!(v["status"]["containerStatuses"].is_null() && v["spec"]["nodeName"].is_null());
        p.node = Some("worker-1".into());
        p.set(Life::Creating);
        let v = p.to_json("2026-01-01T00:00:00Z");
        assert_eq!(
            v["status"]["containerStatuses"][0]["state"]["waiting"]["reason"],
            "ContainerCreating"
        );
        p.set(Life::CrashLoop);
        p.restarts = 3;
        p.last_finished = Some("2026-01-01T00:00:05Z".into());
        let v = p.to_json("2026-01-01T00:00:10Z");
        let cs = &v["status"]["containerStatuses"][0];
        assert_eq!(
            (
                cs["restartCount"].as_u64(),
                cs["state"]["waiting"]["reason"].as_str()
            ),
            (Some(3), Some("CrashLoopBackOff"))
        );
        assert_eq!(
            cs["lastState"]["terminated"]["finishedAt"],
            "2026-01-01T00:00:05Z"
        );
        p.set(Life::Running { ready: true });
        p.ip = Some("10.244.1.7".into());
        let v = p.to_json("2026-01-01T00:00:10Z");
        assert_eq!(v["status"]["podIPs"][0]["ip"], "10.244.1.7");
        assert_eq!(
            v["status"]["conditions"]
                .as_array()
                .unwrap()
                .iter()
                .find(|c| c["type"] == "Ready")
                .unwrap()["status"],
            "True"
        );
    }
}
