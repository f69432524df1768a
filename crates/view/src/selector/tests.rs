//! Tests of label selector parsing, errors and matching.

use std::sync::Arc;

use super::*;

fn labels(pairs: &[(&str, &str)]) -> Labels {
    let mut v: Vec<(Arc<str>, Arc<str>)> = pairs
        .iter()
        .map(|(k, v)| (Arc::from(*k), Arc::from(*v)))
        .collect();
    v.sort();
    v.into()
}

fn req(s: &str) -> Requirement {
    let sel = Selector::parse(s).unwrap();
    assert_eq!(sel.requirements.len(), 1, "{s}");
    sel.requirements[0].clone()
}

fn strs(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

#[test]
fn parses_every_form() {
    assert_eq!(req("app=web"), Requirement::Eq("app".into(), "web".into()));
    assert_eq!(req("app==web"), Requirement::Eq("app".into(), "web".into()));
    assert_eq!(req("app = web"), Requirement::Eq("app".into(), "web".into()));
    assert_eq!(req("app="), Requirement::Eq("app".into(), "".into()));
    assert_eq!(req("tier!=db"), Requirement::NotEq("tier".into(), "db".into()));
    assert_eq!(
        req("env in (a,b)"),
        Requirement::In("env".into(), strs(&["a", "b"]))
    );
    assert_eq!(
        req("env in(a, b )"),
        Requirement::In("env".into(), strs(&["a", "b"]))
    );
    assert_eq!(
        req("env notin (prod)"),
        Requirement::NotIn("env".into(), strs(&["prod"]))
    );
    assert_eq!(
        req("app.kubernetes.io/name"),
        Requirement::Exists("app.kubernetes.io/name".into())
    );
    assert_eq!(req("!canary"), Requirement::NotExists("canary".into()));
    assert_eq!(req("! canary"), Requirement::NotExists("canary".into()));
}

#[test]
fn parses_lists_and_round_trips() {
    let s = Selector::parse("app=web, tier!=db,env in (a,b),!canary,x").unwrap();
    assert_eq!(s.requirements.len(), 5);
    assert_eq!(s.to_string(), "app=web,tier!=db,env in (a,b),!canary,x");
    assert_eq!(Selector::parse(&s.to_string()).unwrap(), s);
}

#[test]
fn prefix_stops_before_other_terms() {
    let text = "app=web nginx";
    let (s, used) = Selector::parse_prefix(text).unwrap();
    assert_eq!(s.to_string(), "app=web");
    assert_eq!(&text[used..], " nginx");
    let text = "env in (a, b) ,tier=x rest";
    let (s, used) = Selector::parse_prefix(text).unwrap();
    assert_eq!(s.to_string(), "env in (a,b),tier=x");
    assert_eq!(&text[used..], " rest");
    // `in` not followed by a list is a fuzzy word after an exists requirement.
    let (s, used) = Selector::parse_prefix("app inx").unwrap();
    assert_eq!((s.to_string().as_str(), used), ("app", 3));
}

#[test]
fn errors() {
    for bad in [
        "",
        "=web",
        "app in",
        "app in (",
        "app in ()",
        "app in (a",
        "app in (a b)",
        "app notin x",
        "a,",
        "!",
        "app=web)",
    ] {
        let e = Selector::parse(bad).unwrap_err();
        assert!(e.starts_with("label selector"), "{bad}: {e}");
    }
}

#[test]
fn matching() {
    let l = labels(&[("app", "web"), ("tier", "front"), ("env", "prod")]);
    let yes = [
        "app=web",
        "app==web",
        "tier!=db",
        "nope!=x",
        "env in (dev,prod)",
        "env notin (dev)",
        "missing notin (a)",
        "app",
        "!canary",
        "app=web,env=prod",
    ];
    for s in yes {
        assert!(Selector::parse(s).unwrap().matches(&l), "{s}");
    }
    let no = [
        "app=api",
        "app!=web",
        "env in (dev)",
        "missing in (a)",
        "env notin (prod,dev)",
        "canary",
        "!app",
        "app=web,env=dev",
        "app=",
    ];
    for s in no {
        assert!(!Selector::parse(s).unwrap().matches(&l), "{s}");
    }
    let empty = labels(&[]);
    assert!(Selector::parse("app!=web").unwrap().matches(&empty));
    assert!(!Selector::parse("app").unwrap().matches(&empty));
    assert!(Selector::default().matches(&empty));
}
