//! Tests of the structural diff and its text.

use serde_json::json;

use super::text::{lines, summary};
use super::{diff, Seg};

#[test]
fn maps_by_key_and_scalars_inline() {
    let old = json!({"metadata": {"generation": 1, "labels": {"app": "web", "old": "x"}}, "spec": {"replicas": 3}, "status": {"phase": "Pending"}});
    let new = json!({"metadata": {"generation": 2, "labels": {"app": "web", "tier": "db"}}, "spec": {"replicas": 5}, "status": {"phase": "Running"}});
    let c = diff(&old, &new);
    assert_eq!(
        summary(&c, false),
        "spec.replicas 3→5, +label tier=db, -label old, status.phase Pending→Running"
    );
    assert_eq!(
        lines(&c, false),
        [
            "~ metadata.generation: 1 → 2",
            "+ metadata.labels.tier: db",
            "- metadata.labels.old: x",
            "~ spec.replicas: 3 → 5",
            "~ status.phase: Pending → Running"
        ]
    );
}

#[test]
fn named_lists_match_by_name_not_position() {
    let old = json!({"spec": {"containers": [
        {"name": "web", "image": "web:1.4", "env": [{"name": "A", "value": "1"}, {"name": "FOO", "value": "x"}]},
        {"name": "side", "image": "s:1"}]}});
    // Reordered containers, one image changed, one env var renamed.
    let new = json!({"spec": {"containers": [
        {"name": "side", "image": "s:1"},
        {"name": "web", "image": "web:1.5", "env": [{"name": "A", "value": "1"}, {"name": "BAR", "value": "x"}]}]}});
    let c = diff(&old, &new);
    assert_eq!(
        summary(&c, false),
        "+spec.containers[web].env[BAR], -spec.containers[web].env[FOO], image web:1.4→web:1.5"
    );
    assert_eq!(
        c[2].path,
        [
            Seg::Key("spec".into()),
            Seg::Key("containers".into()),
            Seg::Item {
                field: "name",
                value: "web".into()
            },
            Seg::Key("image".into())
        ]
    );
    let l = lines(&c, false);
    assert_eq!(l[0], "+ spec.containers[web].env[BAR]:");
    assert_eq!(l[1], "+     name: BAR");
    // A reorder alone is no change.
    let swapped = json!({"spec": {"containers": [old["spec"]["containers"][1].clone(), old["spec"]["containers"][0].clone()]}});
    assert_eq!(diff(&old, &swapped), []);
}

#[test]
fn conditions_ports_and_plain_lists() {
    let old = json!({"status": {"conditions": [{"type": "Ready", "status": "False"}, {"type": "Init", "status": "True"}]},
                     "spec": {"ports": [{"containerPort": 80}], "args": ["a", "b"]}});
    let new = json!({"status": {"conditions": [{"type": "Init", "status": "True"}, {"type": "Ready", "status": "True"}]},
                     "spec": {"ports": [{"containerPort": 80}, {"containerPort": 443}], "args": ["a", "c"]}});
    let s = summary(&diff(&old, &new), false);
    assert_eq!(
        s,
        r#"spec.args ["a","b"]→["a","c"], +spec.ports[443], status.conditions[Ready].status False→True"#
    );
}

#[test]
fn heartbeats_are_hidden_unless_asked() {
    let old = json!({"status": {"conditions": [{"type": "Ready", "status": "True", "lastHeartbeatTime": "t1"}]}, "spec": {"renewTime": "a"}});
    let new = json!({"status": {"conditions": [{"type": "Ready", "status": "True", "lastHeartbeatTime": "t2"}]}, "spec": {"renewTime": "b"}});
    let c = diff(&old, &new);
    assert_eq!(c.len(), 2);
    assert!(c.iter().all(|c| c.is_noise()));
    assert_eq!(summary(&c, false), "heartbeat only");
    assert_eq!(lines(&c, false), Vec::<String>::new());
    assert_eq!(
        summary(&c, true),
        "spec.renewTime a→b, status.conditions[Ready].lastHeartbeatTime t1→t2"
    );
    assert_eq!(summary(&[], false), "no change");
}

#[test]
fn multi_line_strings_diff_line_by_line_and_text_is_sanitized() {
    let old = json!({"data": {"app.conf": "a=1\nb=2\nc=3\n"}});
    let new = json!({"data": {"app.conf": "a=1\nb=5\nc=3\n", "evil": "\u{1b}[2J"}});
    let l = lines(&diff(&old, &new), false);
    assert_eq!(
        l,
        [
            "~ data[\"app.conf\"]:",
            "      a=1",
            "+     b=5",
            "-     b=2",
            "      c=3",
            "+ data.evil: ^[[2J"
        ]
    );
    assert!(summary(&diff(&old, &new), false).contains("^[[2J"));
}
