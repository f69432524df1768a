//! End-to-end tests of the event timeline: the real binary in a pseudo-terminal against the
//! real test cluster — both styles of events created with kubectl appear on top (goal: 2 s),
//! the scheduler's real FailedScheduling events show, the per-object timeline (`shift-e`)
//! shows only that object's events, and `w` hides Normal events.
use crate::{support, util};

use std::time::Instant;

use support::Cluster;
use util::*;

fn apply_json(cluster: &Cluster, value: serde_json::Value) {
    let file = tempfile::NamedTempFile::new().expect("temp file");
    std::fs::write(file.path(), value.to_string()).expect("write manifest");
    cluster.kubectl_ok(&["apply", "-f", file.path().to_str().unwrap()]);
}

fn rfc3339(secs_ago: i64) -> String {
    let t = jiff::Timestamp::now().as_second() - secs_ago;
    jiff::Timestamp::from_second(t).unwrap().to_string()
}

fn micro(secs_ago: i64) -> String {
    rfc3339(secs_ago).replace('Z', ".000000Z")
}

/// The first table row (the newest event) of the screen.
fn first_row(screen: &str) -> String {
    let lines: Vec<&str> = screen.lines().collect();
    let header = lines
        .iter()
        .position(|l| l.contains("LAST SEEN") && l.contains("REASON"))
        .unwrap_or(0);
    lines.get(header + 1).map(|l| l.to_string()).unwrap_or_default()
}

#[test]
#[ignore = "real tier"]
fn both_styles_of_events_appear_on_top() {
    let Some(cluster) = support::shared_cluster() else {
        return;
    };
    let ns = cluster.create_ns("e2e-ev");
    let mut k = ktui(&cluster, &["-n", &ns, "-c", "events"]);
    wait_live(&k);
    let started = Instant::now();
    apply_json(
        &cluster,
        serde_json::json!({"apiVersion": "v1", "kind": "Event",
            "metadata": {"name": "legacy-backoff", "namespace": ns},
            "type": "Warning", "reason": "LegacyBackOff", "message": "Back-off restarting failed container",
            "involvedObject": {"kind": "Pod", "name": "web-0", "namespace": ns},
            "source": {"component": "kubelet", "host": "node-1"}, "count": 12,
            "firstTimestamp": rfc3339(3600), "lastTimestamp": rfc3339(1)}),
    );
    let took = k.wait_until("the legacy event on top", SLOW, |s| {
        first_row(s).contains("LegacyBackOff")
    });
    report_timing("legacy event on top after kubectl returned", took, LIVE);
    eprintln!("kubectl apply + display took {:?}", started.elapsed());
    let row = first_row(&k.screen());
    assert!(
        row.contains("Warning") && row.contains("pod/web-0") && row.contains("12"),
        "{row}\n{}",
        k.dump()
    );
    let before = Instant::now();
    apply_json(
        &cluster,
        serde_json::json!({"apiVersion": "v1", "kind": "Event",
            "metadata": {"name": "newstyle-pulled", "namespace": ns},
            "type": "Normal", "reason": "SeriesPulled", "message": "Successfully pulled image",
            "involvedObject": {"kind": "Pod", "name": "web-0", "namespace": ns},
            "reportingComponent": "kubelet", "reportingInstance": "node-2", "action": "Pulling",
            "eventTime": micro(600), "series": {"count": 4, "lastObservedTime": micro(0)}}),
    );
    let applied = before.elapsed();
    let took = k.wait_until("the new-style event on top", SLOW, |s| {
        first_row(s).contains("SeriesPulled")
    });
    report_timing("new-style event on top after kubectl returned", took, LIVE);
    eprintln!("kubectl apply took {applied:?}");
    let row = first_row(&k.screen());
    assert!(
        row.contains("kubelet, node-2") && row.contains(" 4 "),
        "{row}\n{}",
        k.dump()
    );
    // Warning-only hides the Normal one.
    k.type_keys("w");
    k.wait_until("warnings only", SLOW, |s| {
        s.contains("[warnings only]") && !s.contains("SeriesPulled")
    });
    assert!(k.screen().contains("LegacyBackOff"), "{}", k.dump());
    k.type_keys("w");
    k.wait_for("SeriesPulled", SLOW);
}

#[test]
#[ignore = "real tier"]
fn scheduler_failures_and_the_per_object_timeline() {
    let Some(cluster) = support::shared_cluster() else {
        return;
    };
    let ns = cluster.create_ns("e2e-sched");
    // Unschedulable: no node has this label, so the real scheduler reports FailedScheduling.
    apply_json(
        &cluster,
        serde_json::json!({"apiVersion": "v1", "kind": "Pod",
            "metadata": {"name": "stuck", "namespace": ns},
            "spec": {"nodeSelector": {"ktui.dev/none": "x"},
                     "containers": [{"name": "c", "image": "registry.invalid/e2e:1"}]}}),
    );
    apply_json(
        &cluster,
        serde_json::json!({"apiVersion": "v1", "kind": "Event",
            "metadata": {"name": "other-object", "namespace": ns},
            "type": "Normal", "reason": "AboutSomethingElse", "message": "not about stuck",
            "involvedObject": {"kind": "ConfigMap", "name": "cfg", "namespace": ns},
            "source": {"component": "test"}, "lastTimestamp": rfc3339(0)}),
    );
    let mut k = ktui(&cluster, &["-n", &ns, "-c", "events"]);
    k.wait_until("the scheduler's FailedScheduling for pod/stuck", SLOW * 3, |s| {
        s.lines()
            .any(|l| l.contains("FailedScheduling") && l.contains("pod/stuck"))
    });
    assert!(k.screen().contains("AboutSomethingElse"));
    // From the pod list, shift-e opens the timeline of that pod only.
    k.command("pods");
    k.wait_until("pod stuck listed", SLOW, |s| {
        s.contains("stuck") && s.contains("Pending")
    });
    k.type_keys("E");
    k.wait_until("the per-object timeline", SLOW, |s| {
        s.contains("events of pod/stuck")
    });
    k.wait_for("FailedScheduling", SLOW);
    assert!(
        !k.screen().contains("AboutSomethingElse"),
        "only the pod's events\n{}",
        k.dump()
    );
    k.press_esc();
    k.wait_until("back to pods", SLOW, |s| {
        s.contains("pods(") && s.contains("stuck")
    });
}
