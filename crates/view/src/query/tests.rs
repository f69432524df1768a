//! Tests of the filter grammar and the narrowing rule.

use super::*;

fn q(s: &str) -> Query {
    Query::parse(s).unwrap()
}

#[test]
fn empty_and_fuzzy() {
    assert!(q("").is_empty());
    assert!(q("   ").is_empty());
    assert!(q("!").is_empty());
    let x = q("  web  Api ");
    assert_eq!(x.fuzzy_terms(), ["web", "Api"]);
    assert_eq!(x.source(), "web  Api");
    assert!(x.is_fuzzy());
    assert_eq!(x, q("web Api"));
}

#[test]
fn inverse_terms_are_lowercased() {
    let x = q("!Canary web !old");
    assert_eq!(x.inverse_terms(), ["canary", "old"]);
    assert_eq!(x.fuzzy_terms(), ["web"]);
}

#[test]
fn selectors_in_every_position() {
    let x = q("-l app=web,tier!=db");
    assert_eq!(x.selectors().len(), 1);
    assert_eq!(x.selectors()[0].to_string(), "app=web,tier!=db");
    assert!(!x.is_fuzzy());

    let x = q("nginx -l env in (a, b) !canary -lteam -l !legacy web");
    assert_eq!(x.fuzzy_terms(), ["nginx", "web"]);
    assert_eq!(x.inverse_terms(), ["canary"]);
    let sels: Vec<String> = x.selectors().iter().map(|s| s.to_string()).collect();
    assert_eq!(sels, ["env in (a,b)", "team", "!legacy"]);

    let x = q("-l env notin (x),app==web");
    assert_eq!(x.selectors()[0].to_string(), "env notin (x),app=web");
}

#[test]
fn errors() {
    assert!(Query::parse("-l").unwrap_err().contains("-l needs"));
    assert!(Query::parse("web -l  ").unwrap_err().contains("-l needs"));
    for bad in ["-l app in (a", "-l =x", "-l app=web)", "-l app in", "web -l a,"] {
        assert!(
            Query::parse(bad).unwrap_err().starts_with("label selector"),
            "{bad}"
        );
    }
}

#[test]
fn narrowing_rule() {
    assert!(q("webx").narrows(&q("web")));
    assert!(q("webX").narrows(&q("web")));
    assert!(q("web api").narrows(&q("web")));
    assert!(q("web !x").narrows(&q("web")));
    assert!(q("web -l a=b").narrows(&q("web")));
    assert!(q("web -l a=b").narrows(&q("-l a=b")));
    assert!(q("anything").narrows(&q("")));
    assert!(!q("we").narrows(&q("web")));
    assert!(!q("bweb").narrows(&q("web")));
    // A longer inverse term excludes less: not a narrowing.
    assert!(!q("!canary").narrows(&q("!can")));
    assert!(!q("-l a=bc").narrows(&q("-l a=b")));
    assert!(!q("api web").narrows(&q("web")));
}

#[test]
fn an_incomplete_set_selector_is_an_error() {
    for text in ["-l app in (fro", "web -l app in (", "-l env notin"] {
        assert!(Query::parse(text).is_err(), "{text}");
    }
    assert!(Query::parse("-l env notin (prod) web").is_ok());
}
