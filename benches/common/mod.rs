//! Realistic pod JSON for benchmarks and the scale harness: ~4.8 KB of compact JSON per pod on
//! average (heavier than the design note's 3 KB), shaped like a pod of a Deployment as
//! `kubectl get pod -o json` shows it: labels with pod-template-hash, ownerReferences,
//! annotations, two managedFields entries with fieldsV1 blobs (which the slim decoders skip),
//! 1–2 containers (a sidecar in 20 %) with env, resources, a probe and volumeMounts,
//! tolerations, the projected service-account volume; status with conditions,
//! containerStatuses with image and container IDs, podIPs, hostIP, startTime.
//! Deterministic: pod `i` is a pure function of `i` (plus a churn counter for MODIFIED events);
//! spread over 50 namespaces and 200 nodes, with a mix of phases (≈85 % Running and ready,
//! CrashLoopBackOff with restarts, Pending, ImagePullBackOff, Completed, Evicted, Terminating).
#![allow(dead_code)]

use std::fmt::Write;

/// 2026-11-30T12:00:00Z: the clock every generated timestamp is relative to.
pub const NOW: i64 = 1_796_040_000;
/// Distinct namespaces pods are spread over.
pub const NAMESPACES: usize = 50;
/// Distinct nodes pods are scheduled on.
pub const NODES: usize = 200;
/// Pods per Deployment (ReplicaSet).
pub const REPLICAS: usize = 5;

const TEAMS: [&str; 10] = [
    "payments",
    "checkout",
    "search",
    "identity",
    "billing",
    "catalog",
    "shipping",
    "ads",
    "ml-serving",
    "data",
];
const ENVS: [&str; 5] = ["prod", "staging", "dev", "qa", "canary"];
const APPS: [&str; 20] = [
    "web",
    "api",
    "worker",
    "gateway",
    "frontend",
    "auth",
    "cron",
    "metrics",
    "indexer",
    "cache",
    "notifier",
    "scheduler",
    "ingest",
    "render",
    "ledger",
    "router",
    "exporter",
    "sync",
    "reports",
    "admin",
];
const PARTS: [&str; 20] = [
    "server", "consumer", "proxy", "backend", "edge", "core", "v2", "internal", "public", "batch", "stream",
    "query", "writer", "reader", "relay", "agent", "hub", "store", "bridge", "daemon",
];
const SIDECARS: [&str; 3] = ["envoy", "log-shipper", "otel-collector"];
/// Kubernetes' random-suffix alphabet (no vowels, no look-alike digits): 27 symbols.
const ALPHA: &[u8; 27] = b"bcdfghjklmnpqrstvwxz2456789";

/// SplitMix64: a good 64-bit mix of `x`.
pub fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

fn suffix(out: &mut String, mut v: u64, len: usize) {
    for _ in 0..len {
        out.push(ALPHA[(v % 27) as usize] as char);
        v /= 27;
    }
}

/// RFC 3339 UTC timestamp of unix second `t` (`2026-11-30T12:00:00Z`).
pub fn ts(t: i64) -> String {
    jiff::Timestamp::from_second(t)
        .map(|t| t.to_string())
        .unwrap_or_default()
}

/// What pod `i` is, before JSON: identity and the state its status shows.
#[derive(Debug, Clone)]
pub struct PodFacts {
    pub namespace: String,
    pub app: String,
    pub deployment: String,
    pub template_hash: String,
    pub name: String,
    pub uid: String,
    pub node: usize,
    pub created: i64,
    pub state: State,
    pub restarts: i64,
    pub sidecar: Option<&'static str>,
}

/// The status mix (per mille): what the pod's status section says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum State {
    Ready,
    CrashLoop,
    RestartedReady,
    ContainerCreating,
    Unschedulable,
    ImagePullBackOff,
    Completed,
    Evicted,
    NotReady,
    Terminating,
}

fn state_of(r: u64) -> State {
    match r % 1000 {
        0..850 => State::Ready,
        850..890 => State::CrashLoop,
        890..910 => State::RestartedReady,
        910..930 => State::ContainerCreating,
        930..940 => State::Unschedulable,
        940..955 => State::ImagePullBackOff,
        955..970 => State::Completed,
        970..980 => State::Evicted,
        980..990 => State::NotReady,
        _ => State::Terminating,
    }
}

fn uuid(out: &mut String, a: u64, b: u64) {
    let _ = write!(
        out,
        "{:08x}-{:04x}-4{:03x}-a{:03x}-{:012x}",
        a >> 32,
        (a >> 16) & 0xffff,
        a & 0xfff,
        b >> 52,
        b & 0xffff_ffff_ffff
    );
}

/// The facts of pod `i`; `churn` > 0 adds restarts (a MODIFIED event's change).
pub fn facts(i: usize, churn: u64) -> PodFacts {
    let d = i / REPLICAS;
    let ns_i = d % NAMESPACES;
    let combo = d / NAMESPACES;
    let namespace = format!("{}-{}", TEAMS[ns_i % 10], ENVS[ns_i / 10]);
    let app = APPS[combo % 20];
    let mut deployment = format!("{app}-{}", PARTS[(combo / 20) % 20]);
    if combo >= 400 {
        let _ = write!(deployment, "-{}", combo / 400);
    }
    let hd = mix(d as u64 ^ 0xD00D);
    let mut template_hash = String::with_capacity(10);
    suffix(&mut template_hash, hd, 10);
    // Multiplying by a number coprime with 27^5 is a bijection: pod names never collide.
    let mut name = format!("{deployment}-{template_hash}-");
    suffix(&mut name, (i as u64).wrapping_mul(7_368_787) % 14_348_907, 5);
    let h = mix(i as u64);
    let mut uid = String::with_capacity(36);
    uuid(&mut uid, h, mix(h));
    let state = state_of(mix(h ^ 0x5EED));
    let base_restarts = match state {
        State::CrashLoop => 5 + (h % 190) as i64,
        State::RestartedReady => 1 + (h % 5) as i64,
        _ => 0,
    };
    PodFacts {
        namespace,
        app: app.to_owned(),
        deployment,
        template_hash,
        name,
        uid,
        node: (mix(h ^ 0x40DE) % NODES as u64) as usize,
        created: NOW - 60 - (h % (90 * 86_400)) as i64,
        state,
        restarts: base_restarts + churn as i64,
        sidecar: h.is_multiple_of(5).then(|| SIDECARS[((h >> 8) % 3) as usize]),
    }
}

/// Node `n`'s name and host IP.
pub fn node(n: usize) -> (String, String) {
    let (a, b) = (n / 64, n % 64 * 4 + 1);
    (
        format!("ip-10-20-{a}-{b}.eu-west-1.compute.internal"),
        format!("10.20.{a}.{b}"),
    )
}

/// The JSON of pod `i` at `resource_version`, after `churn` MODIFIED rounds.
pub fn pod_json(i: usize, resource_version: u64, churn: u64) -> String {
    let mut out = String::with_capacity(4096);
    write_pod(&mut out, i, resource_version, churn);
    out
}

/// One watch line: `{"type":"MODIFIED","object":<pod>}\n`.
pub fn modified_event(i: usize, resource_version: u64, churn: u64) -> String {
    let mut out = String::with_capacity(4096);
    out.push_str(r#"{"type":"MODIFIED","object":"#);
    write_pod(&mut out, i, resource_version, churn);
    out.push_str("}\n");
    out
}

/// One page of `GET /api/v1/pods`: pods `from..to` of `total`, with a continue token (the
/// next index) unless it is the last page. Pod `i` has resourceVersion `i + 1`.
pub fn list_page(from: usize, to: usize, total: usize, list_rv: u64) -> Vec<u8> {
    let mut out = String::with_capacity((to - from) * 3300 + 256);
    let _ = write!(
        out,
        r#"{{"kind":"PodList","apiVersion":"v1","metadata":{{"resourceVersion":"{list_rv}""#
    );
    if to < total {
        let _ = write!(out, r#","continue":"{to}","remainingItemCount":{}"#, total - to);
    }
    out.push_str(r#"},"items":["#);
    for i in from..to {
        if i > from {
            out.push(',');
        }
        write_pod(&mut out, i, i as u64 + 1, 0);
    }
    out.push_str("]}");
    out.into_bytes()
}

fn container_status(out: &mut String, name: &str, image: &str, f: &PodFacts, main: bool, h: u64) {
    let started = f.created + 5 + (h % 40) as i64;
    let restarts = if main { f.restarts } else { 0 };
    let (ready, started_flag) = match f.state {
        State::Ready | State::RestartedReady | State::Terminating => (true, true),
        State::NotReady => (!main, true),
        State::CrashLoop => (!main, !main),
        _ => (false, false),
    };
    let _ = write!(
        out,
        r#"{{"name":"{name}","image":"{image}","imageID":"{image_base}@sha256:{:016x}{:016x}{:016x}{:016x}","#,
        mix(h ^ 1),
        mix(h ^ 2),
        mix(h ^ 3),
        mix(h ^ 4),
        image_base = image.split(':').next().unwrap_or(image)
    );
    if !matches!(
        f.state,
        State::ContainerCreating | State::Unschedulable | State::ImagePullBackOff
    ) {
        let _ = write!(
            out,
            r#""containerID":"containerd://{:016x}{:016x}{:016x}{:016x}","#,
            mix(h ^ 5),
            mix(h ^ 6),
            mix(h ^ 7),
            mix(h ^ 8)
        );
    }
    let _ = write!(
        out,
        r#""ready":{ready},"started":{started_flag},"restartCount":{restarts},"#
    );
    let state = match (f.state, main) {
        (State::CrashLoop, true) => format!(
            r#"{{"waiting":{{"reason":"CrashLoopBackOff","message":"back-off 5m0s restarting failed container={name} pod={pod}_{ns}({uid})"}}}}"#,
            pod = f.name,
            ns = f.namespace,
            uid = f.uid
        ),
        (State::ContainerCreating, _) => r#"{"waiting":{"reason":"ContainerCreating"}}"#.to_owned(),
        (State::Unschedulable, _) => r#"{"waiting":{"reason":"ContainerCreating"}}"#.to_owned(),
        (State::ImagePullBackOff, true) => format!(
            r#"{{"waiting":{{"reason":"ImagePullBackOff","message":"Back-off pulling image \"{image}\""}}}}"#
        ),
        (State::ImagePullBackOff, false) => r#"{"waiting":{"reason":"PodInitializing"}}"#.to_owned(),
        (State::Completed, _) => format!(
            r#"{{"terminated":{{"exitCode":0,"reason":"Completed","startedAt":"{}","finishedAt":"{}","containerID":"containerd://{:016x}"}}}}"#,
            ts(started),
            ts(started + 300),
            mix(h ^ 9)
        ),
        (State::Evicted, _) => format!(
            r#"{{"terminated":{{"exitCode":137,"reason":"ContainerStatusUnknown","message":"The container could not be located when the pod was terminated","startedAt":"{}","finishedAt":"{}"}}}}"#,
            ts(started),
            ts(started + 7200)
        ),
        _ => format!(
            r#"{{"running":{{"startedAt":"{}"}}}}"#,
            ts(started + restarts * 30)
        ),
    };
    let _ = write!(out, r#""state":{state},"lastState":"#);
    if restarts > 0 {
        let reason = if f.state == State::CrashLoop {
            "Error"
        } else {
            "OOMKilled"
        };
        let code = if f.state == State::CrashLoop { 1 } else { 137 };
        let finished = NOW - 30 - (h % 600) as i64;
        let _ = write!(
            out,
            r#"{{"terminated":{{"exitCode":{code},"reason":"{reason}","startedAt":"{}","finishedAt":"{}","containerID":"containerd://{:016x}{:016x}"}}}}"#,
            ts(finished - 45),
            ts(finished),
            mix(h ^ 10),
            mix(h ^ 11)
        );
    } else {
        out.push_str("{}");
    }
    out.push('}');
}

fn container_spec(out: &mut String, name: &str, image: &str, f: &PodFacts, main: bool) {
    let _ = write!(out, r#"{{"name":"{name}","image":"{image}","#);
    if main {
        let _ = write!(
            out,
            r#""ports":[{{"name":"http","containerPort":8080,"protocol":"TCP"}}],"env":[{{"name":"APP_ENV","value":"{ns}"}},{{"name":"POD_NAME","valueFrom":{{"fieldRef":{{"apiVersion":"v1","fieldPath":"metadata.name"}}}}}},{{"name":"DB_PASSWORD","valueFrom":{{"secretKeyRef":{{"name":"{dep}-db","key":"password"}}}}}}],"resources":{{"limits":{{"cpu":"1","memory":"512Mi"}},"requests":{{"cpu":"250m","memory":"256Mi"}}}},"livenessProbe":{{"httpGet":{{"path":"/healthz","port":"http"}},"periodSeconds":10}},"#,
            ns = f.namespace,
            dep = f.deployment
        );
    } else {
        out.push_str(r#""args":["--config=/etc/sidecar/config.yaml","--log-level=warn"],"resources":{"limits":{"memory":"128Mi"},"requests":{"cpu":"50m","memory":"64Mi"}},"#);
    }
    let _ = write!(
        out,
        r#""volumeMounts":[{{"name":"kube-api-access-{}","readOnly":true,"mountPath":"/var/run/secrets/kubernetes.io/serviceaccount"}}],"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File","imagePullPolicy":"IfNotPresent"}}"#,
        &f.uid[..5]
    );
}

const MANAGED_RS: &str = r#"{"manager":"kube-controller-manager","operation":"Update","apiVersion":"v1","time":"TIME","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:generateName":{},"f:labels":{".":{},"f:app.kubernetes.io/name":{},"f:pod-template-hash":{}},"f:ownerReferences":{".":{},"k:{\"uid\":\"OWNER\"}":{}}},"f:spec":{"f:containers":{"k:{\"name\":\"app\"}":{".":{},"f:env":{},"f:image":{},"f:imagePullPolicy":{},"f:livenessProbe":{},"f:name":{},"f:ports":{},"f:resources":{}}},"f:dnsPolicy":{},"f:restartPolicy":{},"f:schedulerName":{},"f:terminationGracePeriodSeconds":{}}}}"#;

const MANAGED_KUBELET: &str = r#"{"manager":"kubelet","operation":"Update","apiVersion":"v1","time":"TIME","fieldsType":"FieldsV1","fieldsV1":{"f:status":{"f:conditions":{"k:{\"type\":\"Ready\"}":{".":{},"f:lastTransitionTime":{},"f:status":{},"f:type":{}}},"f:containerStatuses":{},"f:hostIP":{},"f:phase":{},"f:podIP":{},"f:podIPs":{".":{},"k:{\"ip\":\"IP\"}":{".":{},"f:ip":{}}},"f:startTime":{}}},"subresource":"status"}"#;

fn condition(out: &mut String, type_: &str, ok: bool, at: &str, reason: Option<&str>) {
    let _ = write!(
        out,
        r#"{{"type":"{type_}","status":"{}","lastTransitionTime":"{at}""#,
        if ok { "True" } else { "False" }
    );
    if let Some(r) = reason {
        let _ = write!(out, r#","reason":"{r}""#);
    }
    out.push('}');
}

/// Appends pod `i` (at `rv`, after `churn` rounds) to `out`.
pub fn write_pod(out: &mut String, i: usize, rv: u64, churn: u64) {
    let f = facts(i, churn);
    let h = mix(i as u64 ^ 0xC0FFEE);
    let owner_uid = {
        let mut s = String::with_capacity(36);
        let hd = mix((i / REPLICAS) as u64 ^ 0x0123);
        uuid(&mut s, hd, mix(hd));
        s
    };
    let created = ts(f.created);
    let scheduled = f.state != State::Unschedulable;
    let (node_name, host_ip) = node(f.node);
    let pod_ip = format!("10.{}.{}.{}", 64 + (i >> 16) % 64, (i >> 8) & 0xff, i & 0xff);
    let image = format!(
        "registry.example.com/{}/{}:1.{}.{}",
        f.namespace.split('-').next().unwrap_or("x"),
        f.app,
        h % 40,
        h % 7
    );
    // A MODIFIED round also relabels the pod, so every churned row visibly changes.
    let mut version = format!("1.{}.{}", h % 40, h % 7);
    if churn > 0 {
        let _ = write!(version, "-r{churn}");
    }

    // metadata
    let _ = write!(
        out,
        r#"{{"kind":"Pod","apiVersion":"v1","metadata":{{"name":"{name}","generateName":"{dep}-{hash}-","namespace":"{ns}","uid":"{uid}","resourceVersion":"{rv}","creationTimestamp":"{created}","#,
        name = f.name,
        dep = f.deployment,
        hash = f.template_hash,
        ns = f.namespace,
        uid = f.uid
    );
    if f.state == State::Terminating {
        let _ = write!(
            out,
            r#""deletionTimestamp":"{}","deletionGracePeriodSeconds":30,"#,
            ts(NOW - 20)
        );
    }
    let _ = write!(
        out,
        r#""labels":{{"app.kubernetes.io/name":"{app}","app.kubernetes.io/part-of":"{dep}","pod-template-hash":"{hash}","version":"{version}"}},"annotations":{{"kubectl.kubernetes.io/restartedAt":"{restarted}","prometheus.io/port":"9090","prometheus.io/scrape":"true"}},"ownerReferences":[{{"apiVersion":"apps/v1","kind":"ReplicaSet","name":"{dep}-{hash}","uid":"{owner_uid}","controller":true,"blockOwnerDeletion":true}}],"managedFields":["#,
        app = f.app,
        dep = f.deployment,
        hash = f.template_hash,
        restarted = ts(f.created - 3600)
    );
    out.push_str(&MANAGED_RS.replace("TIME", &created).replace("OWNER", &owner_uid));
    if scheduled {
        out.push(',');
        out.push_str(
            &MANAGED_KUBELET
                .replace("TIME", &ts(f.created + 30))
                .replace("IP", &pod_ip),
        );
    }
    out.push_str("]},");

    // spec
    out.push_str(r#""spec":{"volumes":[{"name":"kube-api-access-"#);
    let _ = write!(
        out,
        r#"{}","projected":{{"sources":[{{"serviceAccountToken":{{"expirationSeconds":3607,"path":"token"}}}},{{"configMap":{{"name":"kube-root-ca.crt","items":[{{"key":"ca.crt","path":"ca.crt"}}]}}}},{{"downwardAPI":{{"items":[{{"path":"namespace","fieldRef":{{"apiVersion":"v1","fieldPath":"metadata.namespace"}}}}]}}}}],"defaultMode":420}}}}],"containers":["#,
        &f.uid[..5]
    );
    container_spec(out, "app", &image, &f, true);
    let side_image = f.sidecar.map(|s| format!("docker.io/library/{s}:v1.{}", h % 9));
    if let (Some(s), Some(img)) = (f.sidecar, &side_image) {
        out.push(',');
        container_spec(out, s, img, &f, false);
    }
    let _ = write!(
        out,
        r#"],"restartPolicy":"Always","terminationGracePeriodSeconds":30,"dnsPolicy":"ClusterFirst","serviceAccountName":"{app}","serviceAccount":"{app}","#,
        app = f.app
    );
    if scheduled {
        let _ = write!(out, r#""nodeName":"{node_name}","#);
    }
    out.push_str(r#""securityContext":{"fsGroup":2000},"schedulerName":"default-scheduler","tolerations":[{"key":"node.kubernetes.io/not-ready","operator":"Exists","effect":"NoExecute","tolerationSeconds":300},{"key":"node.kubernetes.io/unreachable","operator":"Exists","effect":"NoExecute","tolerationSeconds":300}],"priority":0,"enableServiceLinks":true,"preemptionPolicy":"PreemptLowerPriority"},"#);

    // status
    let phase = match f.state {
        State::ContainerCreating | State::Unschedulable | State::ImagePullBackOff => "Pending",
        State::Completed => "Succeeded",
        State::Evicted => "Failed",
        _ => "Running",
    };
    let _ = write!(out, r#""status":{{"phase":"{phase}","#);
    if f.state == State::Evicted {
        out.push_str(r#""reason":"Evicted","message":"The node was low on resource: memory. Threshold quantity: 100Mi, available: 91240Ki. Container app was using 498132Ki, request is 256Mi, has larger consumption of memory. ","#);
    }
    out.push_str(r#""conditions":["#);
    let at = ts(f.created + 8);
    if scheduled {
        let ready = matches!(f.state, State::Ready | State::RestartedReady | State::Terminating);
        let started = !matches!(f.state, State::ContainerCreating | State::ImagePullBackOff);
        condition(out, "PodReadyToStartContainers", started, &at, None);
        out.push(',');
        condition(out, "Initialized", true, &created, None);
        out.push(',');
        let why = if f.state == State::Completed {
            Some("PodCompleted")
        } else if ready {
            None
        } else {
            Some("ContainersNotReady")
        };
        condition(out, "Ready", ready, &at, why);
        out.push(',');
        condition(out, "ContainersReady", ready, &at, why);
        out.push(',');
        condition(out, "PodScheduled", true, &created, None);
    } else {
        let _ = write!(
            out,
            r#"{{"type":"PodScheduled","status":"False","lastProbeTime":null,"lastTransitionTime":"{created}","reason":"Unschedulable","message":"0/{NODES} nodes are available: 12 Insufficient cpu, 188 node(s) didn't match Pod's node affinity/selector. preemption: 0/{NODES} nodes are available: 200 Preemption is not helpful for scheduling."}}"#
        );
    }
    out.push(']');
    if scheduled {
        let _ = write!(out, r#","hostIP":"{host_ip}","hostIPs":[{{"ip":"{host_ip}"}}]"#);
        if !matches!(f.state, State::ContainerCreating | State::ImagePullBackOff) {
            let _ = write!(out, r#","podIP":"{pod_ip}","podIPs":[{{"ip":"{pod_ip}"}}]"#);
        }
        let _ = write!(out, r#","startTime":"{created}","containerStatuses":["#);
        container_status(out, "app", &image, &f, true, h);
        if let (Some(s), Some(img)) = (f.sidecar, &side_image) {
            out.push(',');
            container_status(out, s, img, &f, false, mix(h));
        }
        out.push(']');
    }
    out.push_str(r#","qosClass":"Burstable"}}"#);
}

/// A criterion measurement of the calling thread's CPU time (`CLOCK_THREAD_CPUTIME_ID`), for
/// figures that hold on a loaded machine where wall time mostly measures the neighbours.
/// Select it with `BENCH_CPU=1` (see [`run_benches`]); results land in `<group>_cpu`.
pub struct ThreadCpu;

fn thread_cpu_ns() -> u64 {
    // SAFETY: clock_gettime only writes the struct we pass.
    let mut t: libc::timespec = unsafe { std::mem::zeroed() };
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
    t.tv_sec as u64 * 1_000_000_000 + t.tv_nsec as u64
}

impl criterion::measurement::Measurement for ThreadCpu {
    type Intermediate = u64;
    type Value = u64;
    fn start(&self) -> u64 {
        thread_cpu_ns()
    }
    fn end(&self, start: u64) -> u64 {
        thread_cpu_ns().saturating_sub(start)
    }
    fn add(&self, a: &u64, b: &u64) -> u64 {
        a + b
    }
    fn zero(&self) -> u64 {
        0
    }
    fn to_f64(&self, v: &u64) -> f64 {
        *v as f64
    }
    fn formatter(&self) -> &dyn criterion::measurement::ValueFormatter {
        &CpuFormatter
    }
}

struct CpuFormatter;

impl criterion::measurement::ValueFormatter for CpuFormatter {
    fn scale_values(&self, typical: f64, values: &mut [f64]) -> &'static str {
        let (div, unit) = match typical {
            t if t < 1e3 => (1.0, "ns cpu"),
            t if t < 1e6 => (1e3, "µs cpu"),
            t if t < 1e9 => (1e6, "ms cpu"),
            _ => (1e9, "s cpu"),
        };
        values.iter_mut().for_each(|v| *v /= div);
        unit
    }
    fn scale_throughputs(
        &self,
        _typical: f64,
        t: &criterion::Throughput,
        values: &mut [f64],
    ) -> &'static str {
        let n = match t {
            criterion::Throughput::Bytes(n) | criterion::Throughput::BytesDecimal(n) => *n as f64,
            criterion::Throughput::Elements(n) | criterion::Throughput::Bits(n) => *n as f64,
        };
        values.iter_mut().for_each(|v| *v = n * 1e9 / *v);
        "per cpu-second"
    }
    fn scale_for_machines(&self, _values: &mut [f64]) -> &'static str {
        "ns"
    }
}

/// Runs `bench` with wall-clock time, or with [`ThreadCpu`] when `BENCH_CPU` is set; the
/// group-name suffix (`""` or `"_cpu"`) keeps the two result sets apart.
#[macro_export]
macro_rules! run_benches {
    ($bench:ident) => {
        fn main() {
            if std::env::var_os("BENCH_CPU").is_some() {
                let mut c = criterion::Criterion::default()
                    .with_measurement(common::ThreadCpu)
                    .configure_from_args();
                $bench(&mut c, "_cpu");
                c.final_summary();
            } else {
                let mut c = criterion::Criterion::default().configure_from_args();
                $bench(&mut c, "");
                c.final_summary();
            }
        }
    };
}

/// A live store writer holding `pods` generated pods, listed the way the informer lists them
/// (decoded with the slim `PodObj`, relist swapped in at once). Returns the slot, the writer
/// and the change receiver (keep it alive).
pub fn loaded_store(
    pods: usize,
    ctx: &ktui::kube::row::RowCtx,
) -> (
    std::sync::Arc<ktui::kube::store::Slot>,
    ktui::kube::store::StoreWriter,
    tokio::sync::mpsc::UnboundedReceiver<ktui::kube::store::StoreChanged>,
) {
    use ktui::kube::row::IntoRow;
    let slot = ktui::kube::store::Slot::new(
        ktui::kube::key::ResourceKey::new(ktui::kube::builtin::BuiltinKind::Pod, None),
        1,
    );
    let (tx, rx) = tokio::sync::mpsc::unbounded_channel();
    let mut w = ktui::kube::store::StoreWriter::new(slot.clone(), tx);
    w.init();
    let mut buf = String::with_capacity(8192);
    for i in 0..pods {
        buf.clear();
        write_pod(&mut buf, i, i as u64 + 1, 0);
        match serde_json::from_str::<ktui::table::PodObj>(&buf) {
            Ok(p) => w.init_apply(p.into_row(ctx)),
            Err(e) => panic!("pod {i} does not decode: {e}"),
        }
    }
    w.init_done(Some((pods + 1).to_string()));
    assert_eq!(slot.peek().rows.len(), pods);
    (slot, w, rx)
}
