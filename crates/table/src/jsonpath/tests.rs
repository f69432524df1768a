//! Unit tests for `table::jsonpath`. Expected values were checked against client-go's
//! util/jsonpath (run through the tableconvertor's `FindResults`) unless marked as an extension.

use serde_json::{json, Value};

use super::*;

fn all(path: &str, v: &Value) -> Vec<Value> {
    parse(path)
        .unwrap_or_else(|e| panic!("{path}: {e}"))
        .eval(v)
        .into_iter()
        .cloned()
        .collect()
}

fn first(path: &str, v: &Value) -> Option<Value> {
    let p = parse(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let got = p.first(v).cloned();
    assert_eq!(
        got.as_ref(),
        p.eval(v).first().copied(),
        "first() disagrees with eval() for {path}"
    );
    got
}

fn pod() -> Value {
    json!({
        "metadata": {"name": "web", "labels": {"app.kubernetes.io/name": "web", "a": {"b": "nested"}, "a.b": "flat"}},
        "spec": {"replicas": 3, "nodeName": null, "containers": [
            {"name": "app", "image": "nginx", "ports": [{"containerPort": 80}, {"containerPort": 443}]},
            {"name": "sidecar", "image": "envoy"}
        ]},
        "status": {"conditions": [
            {"type": "Initialized", "status": "True"},
            {"type": "Ready", "status": "False", "reason": "ContainersNotReady", "extra": {"age": 5}},
            {"type": "PodScheduled", "status": "True"}
        ]}
    })
}

#[test]
fn fields_with_or_without_braces_and_dollar() {
    let v = pod();
    for path in [
        ".spec.replicas",
        "{.spec.replicas}",
        "$.spec.replicas",
        "{$.spec.replicas}",
        "@.spec.replicas",
    ] {
        assert_eq!(first(path, &v), Some(json!(3)), "{path}");
    }
    assert_eq!(parse("{.spec.replicas}"), parse(".spec.replicas"));
    assert_eq!(
        first(".metadata", &v).map(|m| m["name"].clone()),
        Some(json!("web"))
    );
    assert_eq!(
        first("", &v),
        Some(v.clone()),
        "an empty path selects the object itself"
    );
}

#[test]
fn missing_keys_and_scalars_select_nothing() {
    let v = pod();
    for path in [
        ".spec.missing",
        ".nope.deeper",
        ".spec.replicas.x",
        ".metadata.name.first",
        ".spec.containers.name",
    ] {
        assert_eq!(all(path, &v), Vec::<Value>::new(), "{path}");
        assert_eq!(first(path, &v), None, "{path}");
    }
    assert_eq!(
        first(".spec.nodeName", &v),
        Some(Value::Null),
        "a present null is a result"
    );
    assert_eq!(first(".spec.nodeName.x", &v), None);
}

#[test]
fn array_indexes() {
    let v = pod();
    assert_eq!(first(".spec.containers[0].name", &v), Some(json!("app")));
    assert_eq!(first(".spec.containers[1].image", &v), Some(json!("envoy")));
    assert_eq!(first(".spec.containers[-1].name", &v), Some(json!("sidecar")));
    assert_eq!(first(".spec.containers[-2].name", &v), Some(json!("app")));
    assert_eq!(
        first(".spec.containers[].name", &v),
        Some(json!("app")),
        "client-go reads [] as [0]"
    );
    // Out of range, or indexing a non-array, fails in client-go: no result at all.
    for path in [
        ".spec.containers[2].name",
        ".spec.containers[-3]",
        ".spec[0]",
        ".metadata.name[0]",
    ] {
        assert_eq!(first(path, &v), None, "{path}");
    }
    assert_eq!(
        first(".spec.nodeName[0]", &v),
        None,
        "indexing null selects nothing"
    );
}

#[test]
fn wildcards_slices_and_unions() {
    let v = pod();
    let names = all(".spec.containers[*].name", &v);
    assert_eq!(names, vec![json!("app"), json!("sidecar")]);
    assert_eq!(
        first(".spec.containers[*].name", &v),
        Some(json!("app")),
        "printer columns take the first"
    );
    assert_eq!(all(".spec.containers.*.name", &v), names);
    assert_eq!(
        all(".spec.containers[*].ports[*].containerPort", &v),
        vec![json!(80), json!(443)]
    );
    let a = json!({"a": [1, 2, 3, 4, 5], "o": {"y": 2, "x": 1}});
    assert_eq!(all(".a[1:3]", &a), vec![json!(2), json!(3)]);
    assert_eq!(all(".a[-2:]", &a), vec![json!(4), json!(5)]);
    assert_eq!(all(".a[:-3]", &a), vec![json!(1), json!(2)]);
    assert_eq!(all(".a[::2]", &a), vec![json!(1), json!(3), json!(5)]);
    assert_eq!(all(".a[1:4:2]", &a), vec![json!(2), json!(4)]);
    assert_eq!(all(".a[0,2]", &a), vec![json!(1), json!(3)]);
    assert_eq!(all(".a[2:2]", &a), Vec::<Value>::new());
    for bad in [".a[0:9]", ".a[3:1]", ".a[::0]", ".a[::-1]"] {
        assert_eq!(all(bad, &a), Vec::<Value>::new(), "{bad} fails in client-go");
    }
    assert_eq!(
        all(".o.*", &a),
        vec![json!(1), json!(2)],
        "object members in map (key) order"
    );
    assert_eq!(
        all("['o','a']", &a),
        vec![a["o"].clone(), a["a"].clone()],
        "a union of keys"
    );
    assert_eq!(all("['a','o'].x", &a), vec![json!(1)]);
    assert_eq!(
        all("['o','a'][0]", &a),
        Vec::<Value>::new(),
        "[0] fails on the object, so on all"
    );
}

#[test]
fn client_go_quirks_are_kept() {
    // An empty selection stops the whole index step, dropping later arrays.
    let v = json!({"a": [[1], [], [2]]});
    assert_eq!(all(".a[*][*]", &v), vec![json!(1)]);
    // A later failure discards earlier results.
    let v = json!({"c": [{"p": [1]}, {"p": []}]});
    assert_eq!(all(".c[*].p[0]", &v), Vec::<Value>::new());
    assert_eq!(all(".c[*].p[*]", &v), vec![json!(1)]);
}

#[test]
fn recursive_descent() {
    let v = json!({"spec": {"name": "a", "list": [{"name": "b"}, {"x": {"name": "c"}}]}, "name": "root"});
    assert_eq!(
        all("..name", &v),
        vec![json!("root"), json!("a"), json!("b"), json!("c")]
    );
    assert_eq!(first("..name", &v), Some(json!("root")));
    assert_eq!(all(".spec.list..name", &v), vec![json!("b"), json!("c")]);
    assert!(parse("....name").is_err());
}

#[test]
fn filters_on_conditions() {
    let v = pod();
    let ready = r#".status.conditions[?(@.type=="Ready")].status"#;
    assert_eq!(first(ready, &v), Some(json!("False")));
    assert_eq!(
        first(".status.conditions[?(@.type=='Ready')].reason", &v),
        Some(json!("ContainersNotReady"))
    );
    assert_eq!(
        first(r#".status.conditions[?(@.type == "Ready")].status"#, &v),
        Some(json!("False"))
    );
    assert_eq!(
        all(r#".status.conditions[?(@.status!="True")].type"#, &v),
        vec![json!("Ready")],
        "!= keeps the others"
    );
    assert_eq!(
        first(r#".status.conditions[?(@.type=="Missing")].status"#, &v),
        None
    );
    assert_eq!(
        first(".status.conditions[?(@.reason)].type", &v),
        Some(json!("Ready")),
        "existence"
    );
    assert_eq!(
        first(".status.conditions[?(@.extra.age>4)].type", &v),
        Some(json!("Ready")),
        "nested path"
    );
    assert_eq!(first(r#".missing[?(@.type=="Ready")].status"#, &v), None);
    assert_eq!(
        first(r#".spec.nodeName[?(@.type=="Ready")]"#, &v),
        None,
        "filtering null fails"
    );
    assert_eq!(
        first(r#".metadata[?(@.type=="Ready")]"#, &v),
        None,
        "filtering an object fails"
    );
}

#[test]
fn filter_comparisons_follow_go_templates() {
    let v = json!({"n": [{"v": 1}, {"v": 2}, {"v": 3}], "f": [{"v": 1.5}, {"v": 2.5}],
        "s": [{"v": "a"}, {"v": "b"}], "b": [{"v": true}, {"v": false}], "m": [{"v": 1}, {"v": "1"}],
        "p": [{"x": 1, "y": 1}, {"x": 1, "y": 2}]});
    let vals = |path: &str| all(path, &v);
    assert_eq!(vals(".n[?(@.v<2)].v"), vec![json!(1)]);
    assert_eq!(vals(".n[?(@.v<=2)].v"), vec![json!(1), json!(2)]);
    assert_eq!(vals(".n[?(@.v>2)].v"), vec![json!(3)]);
    assert_eq!(vals(".n[?(@.v>=2)].v"), vec![json!(2), json!(3)]);
    assert_eq!(vals(".n[?(@.v==-1)].v"), Vec::<Value>::new());
    assert_eq!(vals(".f[?(@.v>2.0)].v"), vec![json!(2.5)]);
    assert_eq!(vals(".s[?(@.v<'b')].v"), vec![json!("a")]);
    assert_eq!(vals(".b[?(@.v==false)].v"), vec![json!(false)]);
    assert_eq!(
        vals(".p[?(@.x==@.y)].y"),
        vec![json!(1)],
        "both sides may be paths"
    );
    // Mismatched kinds are errors in client-go, which empties the whole result.
    for path in [
        ".n[?(@.v>1.5)]",
        ".f[?(@.v>1)]",
        ".m[?(@.v==1)]",
        ".b[?(@.v<true)]",
        ".n[?(@.v=='1')]",
    ] {
        assert_eq!(vals(path), Vec::<Value>::new(), "{path}");
    }
    // Unknown operators and bare words parse, as in client-go, but never match.
    for path in [".n[?(@.v=1)]", ".n[?(@.v!1)]", ".s[?(@.v==a)]"] {
        assert_eq!(vals(path), Vec::<Value>::new(), "{path}");
    }
    assert!(
        parse(".n[?(@.v=~1)]").is_err(),
        "no regex operator: `~` is a syntax error"
    );
}

#[test]
fn bracket_names_follow_client_go() {
    let v = pod();
    // client-go parses ['a.b'] as .a.b, so a dotted key needs a backslash.
    assert_eq!(first(".metadata.labels['a.b']", &v), Some(json!("nested")));
    assert_eq!(first(r".metadata.labels['a\.b']", &v), Some(json!("flat")));
    assert_eq!(first(r".metadata.labels.a\.b", &v), Some(json!("flat")));
    assert_eq!(
        first(".metadata.labels['app.kubernetes.io/name']", &v),
        None,
        "kubectl shows nothing"
    );
    assert_eq!(
        first(r".metadata.labels.app\.kubernetes\.io/name", &v),
        Some(json!("web"))
    );
    assert_eq!(first(".metadata['name']", &v), Some(json!("web")));
    assert_eq!(
        first(r#".metadata["name"]"#, &v),
        Some(json!("web")),
        "extension: client-go rejects it"
    );
    assert_eq!(
        first(".metadata['na me']", &v),
        None,
        "a space splits into a bare word"
    );
}

#[test]
fn parse_errors_say_what_and_where() {
    let cases = [
        (".a[0", 2, "missing `]`"),
        (".a[?(@.x==1]", 2, "missing `)]`"),
        (".a[?(@.x==1)", 12, "end with `)]`"),
        (".a[x]", 3, "invalid array index `x`"),
        (".a[1:2:3:4]", 3, "invalid array index"),
        (".a[-]", 3, "`-` is not a number"),
        (".a....b", 4, "`..` cannot follow another `..`"),
        (r#".a "x""#, 3, "literal"),
        (".a 5", 3, "literal"),
        (".a}", 2, "unexpected `}`"),
        (".a{", 2, "unexpected character '{'"),
        (".a\t", 2, "unexpected character '\\t'"),
        (".a\n", 2, "line break"),
        (r#".a[?(@.x=="oops)]"#, 2, "missing `)]`"),
        (r#".a[?(@.x=="\q")]"#, 10, "invalid escape"),
        (".a[?(@.x==1.2.3)]", 10, "cannot parse number `1.2.3`"),
        (".a\\", 2, "escapes nothing"),
        ("{range .a}", 1, "not supported"),
        (".a[?(@.b[?(@.c)])]", 8, "missing `)]`"),
    ];
    for (path, offset, needle) in cases {
        let err = parse(path).expect_err(path);
        assert_eq!(err.offset, offset, "{path}: {err}");
        assert!(err.message.contains(needle), "{path}: {err}");
        assert!(err.to_string().contains(&format!("at byte {offset}")), "{err}");
    }
    let boxed: Box<dyn std::error::Error> = Box::new(parse("[").unwrap_err());
    assert!(boxed.to_string().starts_with("invalid JSONPath: "));
}

#[test]
fn string_literals_unescape_like_go() {
    let v = json!({"a": [{"x": "it's"}, {"x": "q\"t"}, {"x": "é\n"}]});
    assert_eq!(all(r".a[?(@.x=='it\'s')].x", &v), vec![json!("it's")]);
    assert_eq!(all(r#".a[?(@.x=="q\"t")].x"#, &v), vec![json!("q\"t")]);
    assert_eq!(all(r#".a[?(@.x=="\u00e9\n")].x"#, &v), vec![json!("é\n")]);
    assert!(
        parse(r#".a[?(@.x=="\'")]"#).is_err(),
        r"Go rejects \' inside double quotes"
    );
}

#[test]
fn paths_are_values() {
    use std::collections::HashSet;
    let set: HashSet<JsonPath> = [".a[?(@.x==1.5)]", "{.a[?(@.x==1.5)]}", ".a[?(@.x==2.5)]"]
        .iter()
        .map(|p| parse(p).unwrap())
        .collect();
    assert_eq!(set.len(), 2);
    let p = parse(".status.conditions[0]").unwrap();
    assert_eq!(p.clone(), p);
    assert!(format!("{p:?}").contains("conditions"));
}
