//! Unit tests of fzf-style filter terms (crates/view/src/terms.rs); pure.

use super::*;

fn alt(w: &str) -> Alt {
    parse_word(w).unwrap()
}

#[test]
fn words_parse_to_fzf_atoms() {
    assert_eq!(alt("'web").atom, Atom::Exact("web".into()));
    assert_eq!(alt("^web").atom, Atom::Prefix("web".into()));
    assert_eq!(alt("-0$").atom, Atom::Suffix("-0".into()));
    assert_eq!(alt("^web-0$").atom, Atom::Whole("web-0".into()));
    assert_eq!(alt("re:a+").atom, Atom::Regex("a+".into()));
    assert_eq!(alt("web").atom, Atom::Fuzzy("web".into()));
    let neg = alt("!web");
    assert_eq!((neg.atom, neg.negated), (Atom::Exact("web".into()), true));
    assert!(alt("!^kube").negated);
    // A lone `$` is a fuzzy term for the character.
    assert_eq!(alt("$").atom, Atom::Fuzzy("$".into()));
}

#[test]
fn smart_case_and_groups() {
    let g = Group::new(&[alt("^Web"), alt("'api")]);
    assert!(g.may_hold("Web-1", "web-1"));
    assert!(!g.may_hold("web-1", "web-1"));
    assert_eq!(g.score("x-API", "x-api"), Some(EXACT_BONUS));
    let inv = Group::new(&[alt("!^kube")]);
    assert_eq!(inv.score("kube-proxy", "kube-proxy"), None);
    assert_eq!(inv.score("web", "web"), Some(0));
}

#[test]
fn bad_regex_says_why() {
    let e = parse_word("re:(a").unwrap_err();
    assert!(e.starts_with("re:(a: "), "{e}");
}

#[test]
fn anchored_terms_anchor_on_the_name_after_its_namespace_too() {
    let on = |w: &str, name: &str| Group::new(&[alt(w)]).may_hold(name, &name.to_ascii_lowercase());
    // All-namespaces lists filter `namespace/name`: `^cart` finds the name as in one namespace.
    assert!(on("^cart", "shop/cart-7d9f"));
    assert!(on("^cart-7d9f$", "shop/cart-7d9f"));
    assert!(on("re:^cart-[0-9]", "shop/cart-7d9f"));
    assert!(on("^shop/", "shop/cart-7d9f"), "the namespace still anchors");
    assert!(!on("^art", "shop/cart-7d9f"));
    assert!(!on("!^cart", "shop/cart-7d9f"));
    assert!(on("!^web", "shop/cart-7d9f"));
    // Column terms test cells with `holds`, where a `/` is just text (`80/TCP`).
    assert!(!Test::new(&Atom::Prefix("TCP".into())).holds("80/TCP", "80/tcp"));
}
