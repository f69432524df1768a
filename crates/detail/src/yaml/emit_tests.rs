//! The emitter's output: kubectl's layout, quoting for YAML 1.1 and 1.2 readers, and a
//! round trip through a YAML parser for every combination of tricky scalars.

use serde_json::{json, Value};

use super::emit::to_yaml;
use super::scalar::{style, Style};

fn parse(text: &str) -> Value {
    serde_saphyr::from_str(text).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

#[test]
fn yaml11_booleans_dates_and_merge_keys_are_quoted_and_content_survives() {
    let v = json!({"metadata": {"annotations": {"a": "yes", "on": "off", "t": "2026-01-01",
        "m": "<<", "d": "1_000", "s": "12:30", "ok": "hello", "n": "3", "b": "true",
        "multi": "line one\nno\nline three", "q": "it's"},
        "labels": {"x": "N"}},
        "spec": {"replicas": 3, "paused": false, "list": ["Y", "plain", "off"], "nested": [["no"]]}});
    let text = to_yaml(&v);
    for want in [
        "a: 'yes'",
        "'on': 'off'",
        "t: '2026-01-01'",
        "m: '<<'",
        "d: '1_000'",
        "s: '12:30'",
        "ok: hello",
        "x: 'N'",
        "- 'Y'",
        "- plain",
        "- 'off'",
        "- - 'no'",
        "replicas: 3",
        "paused: false",
    ] {
        assert!(text.contains(want), "{want}\n{text}");
    }
    // The block scalar's lines are content, not keys.
    assert!(text.contains("\n      no\n"), "{text}");
    assert_eq!(parse(&text), v, "{text}");
}

#[test]
fn ordinary_scalars_stay_plain() {
    for s in [
        "web",
        "10.0.0.1",
        "nginx:1.27",
        "v1",
        "a-b_c",
        "e2e-yaml",
        "12:ab",
    ] {
        assert_eq!(style(s, false), Style::Plain, "{s}");
    }
    // Numbers are quoted as strings by YAML 1.2 already.
    for s in ["2026", "1.5"] {
        assert_eq!(style(s, false), Style::Single, "{s}");
    }
}

#[test]
fn layout_is_kubectls() {
    let v = json!({"apiVersion": "v1", "kind": "Pod",
        "metadata": {"name": "web", "labels": {}, "finalizers": []},
        "spec": {"containers": [{"name": "c", "args": ["a", "b"], "ports": [{"containerPort": 80}]}],
                 "nested": [[1, 2], []], "cpu": 0.5, "none": null},
        "data": {"script": "#!/bin/sh\necho hi\n", "kept": "a\n\n", "lead": " x\ny", "sp": "a \nb"}});
    let want = "\
apiVersion: v1
data:
  kept: |+
    a

  lead: |2-
     x
    y
  script: |
    #!/bin/sh
    echo hi
  sp: \"a \\nb\"
kind: Pod
metadata:
  finalizers: []
  labels: {}
  name: web
spec:
  containers:
  - args:
    - a
    - b
    name: c
    ports:
    - containerPort: 80
  cpu: 0.5
  nested:
  - - 1
    - 2
  - []
  none: null
";
    assert_eq!(to_yaml(&v), want);
    assert_eq!(parse(want), v);
}

/// Pieces that trip YAML readers: 1.1 and 1.2 types, indicators, blanks, breaks, control
/// characters, quotes, non-ASCII.
pub(super) const TRICKY: [&str; 66] = [
    "",
    " ",
    "a",
    "yes",
    "No",
    "ON",
    "oFf",
    "y",
    "~",
    "null",
    "NULL",
    "true",
    "False",
    "0755",
    "0x1F",
    "0o17",
    "0b101",
    "1_000",
    "12:30",
    "1.5e3",
    "1e400",
    ".inf",
    "-.Inf",
    ".NaN",
    "2026-01-01",
    "2026-01-01T10:00:00Z",
    "<<",
    "=",
    "- a",
    "-",
    "? x",
    ":",
    "a: b",
    "a:",
    "#c",
    "a #c",
    "a#b",
    "&x",
    "*x",
    "!t",
    "|",
    ">",
    "'q'",
    "\"d\"",
    "%p",
    "@a",
    "`b",
    "[a]",
    "{a}",
    ",",
    "---",
    "...",
    "t\tab",
    "c\u{1}",
    "e\u{1b}[2J",
    "n\u{85}",
    "b\u{feff}",
    "l\nb",
    "t\n",
    "\n\n",
    "\nlead",
    "sp \nx",
    "\r\n",
    "é 🙂",
    "\u{2028}",
    "b\\s'q",
];

#[test]
fn every_pair_of_tricky_scalars_reads_back_as_the_same_string() {
    let strings: Vec<String> = TRICKY
        .iter()
        .flat_map(|a| TRICKY.iter().map(move |b| format!("{a}{b}")))
        .collect();
    let map: serde_json::Map<String, Value> = strings
        .iter()
        .map(|s| (s.clone(), Value::String(s.clone())))
        .collect();
    let v = json!({"map": map, "list": strings});
    let text = to_yaml(&v);
    assert_eq!(parse(&text), v);
    // What a YAML 1.1 reader would take for another type never stands plain.
    for s in [
        "Yes",
        "OFF",
        "n",
        "0755",
        "1_000",
        "12:30",
        "2026-01-01",
        "<<",
        ".NAN",
        "-.inf",
    ] {
        assert_eq!(style(s, false), Style::Single, "{s}");
        assert_eq!(style(s, true), Style::Single, "{s}");
    }
}

#[test]
fn control_characters_are_escaped_in_double_quotes() {
    let v = json!({"k\tey": "a\u{1b}[2Jb\u{7f}\u{85}\u{feff}\r"});
    assert_eq!(to_yaml(&v), "\"k\\tey\": \"a\\e[2Jb\\x7F\\N\\uFEFF\\r\"\n");
}
