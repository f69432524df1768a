//! Tests of `ViewCache` end to end: scope, ranking, sorts, memoisation, narrowing, all
//! checked against a brute-force reference that runs skim on every row.

use std::cmp::Reverse;
use std::sync::Arc;

use fuzzy_matcher::skim::SkimMatcherV2;
use fuzzy_matcher::FuzzyMatcher;

use super::*;
use ktui_kube::builtin::BuiltinKind;
use ktui_kube::key::ResourceKey;
use ktui_kube::row::{Cell, Health, Labels, Row};
use ktui_kube::store::Snapshot;
use ktui_kube::sync::SyncState;

pub(super) fn labels(pairs: &[(&str, &str)]) -> Labels {
    let mut v: Vec<(Arc<str>, Arc<str>)> = pairs
        .iter()
        .map(|(k, v)| (Arc::from(*k), Arc::from(*v)))
        .collect();
    v.sort();
    v.into()
}

pub(super) fn row(
    ns: Option<&str>,
    name: &str,
    created: Option<i64>,
    status: &'static str,
    app: &str,
) -> Row {
    Row {
        capacity: None,
        uses: None,
        origin: 0,
        namespace: ns.map(Arc::from),
        name: name.into(),
        uid: "".into(),
        created,
        labels: labels(&[("app", app)]),
        cells: vec![Cell::Static("1/1"), Cell::Static(status), Cell::Int(0)].into_boxed_slice(),
        health: Health::Ok,
        drill: None,
        event: None,
        owner: None,
    }
}

pub(super) fn snap(mut rows: Vec<Row>, rev: u64) -> Snapshot {
    rows.sort_by(|a, b| (&a.namespace, &a.name).cmp(&(&b.namespace, &b.name)));
    let mut s = Snapshot::empty(ResourceKey::new(BuiltinKind::Pod, None), 1);
    s.rows = rows.into_iter().map(Arc::new).collect();
    s.rev = rev;
    s.state = SyncState::Live;
    s.listed = true;
    s
}

/// Realistic pod rows: `<app>-<hash10>-<hash5>` in a few namespaces.
pub(super) fn pods(n: usize, seed: u64) -> Snapshot {
    let apps = ["web", "api-gateway", "payments", "redis", "Kafka-broker", "auth"];
    let nss = ["default", "team-a", "prod", "kube-system"];
    let alpha = b"bcdfghjklmnpqrstvwxz2456789";
    let mut s = seed | 1;
    let mut next = move || {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        s
    };
    let hash = |len: usize, next: &mut dyn FnMut() -> u64| -> String {
        (0..len)
            .map(|_| alpha[(next() % alpha.len() as u64) as usize] as char)
            .collect()
    };
    let statuses = ["Running", "Pending", "CrashLoopBackOff"];
    let rows = (0..n)
        .map(|_| {
            let app = format!("{}-{}", apps[(next() % 6) as usize], next() % 5);
            let name = format!("{app}-{}-{}", hash(10, &mut next), hash(5, &mut next));
            let ns = nss[(next() % 4) as usize];
            let created = (next() % 3 > 0).then(|| (next() % 50) as i64);
            row(Some(ns), &name, created, statuses[(next() % 3) as usize], &app)
        })
        .collect();
    snap(rows, 1)
}

pub(super) fn spec<'a>(
    query: &'a Query,
    sort: Sort,
    namespace: Option<&'a str>,
    all_namespaces: bool,
) -> ViewSpec<'a> {
    ViewSpec {
        query,
        namespace,
        sort,
        all_namespaces,
        within: None,
    }
}

pub(super) fn q(s: &str) -> Query {
    Query::parse(s).unwrap()
}

fn names_of(s: &Snapshot, r: &ViewResult) -> Vec<String> {
    r.rows
        .iter()
        .map(|&i| s.rows[i as usize].name.to_string())
        .collect()
}

/// Smart case as the filter defines it: compare case-sensitively iff `t` has an upper-case
/// ASCII letter; `op` gets (name, term) in the compared case.
fn smart(name: &str, t: &str, op: fn(&str, &str) -> bool) -> bool {
    if t.chars().any(|c| c.is_ascii_uppercase()) {
        op(name, t)
    } else {
        op(&name.to_ascii_lowercase(), &t.to_ascii_lowercase())
    }
}

/// skim's score, plus the exact bonus when the term is also a substring.
fn ref_fuzzy(m: &SkimMatcherV2, name: &str, t: &str) -> Option<i64> {
    let bonus = if smart(name, t, |n, t| n.contains(t)) {
        super::terms::EXACT_BONUS
    } else {
        0
    };
    m.fuzzy_match(name, t).map(|s| s + bonus)
}

/// One extended alternative, straight from its definition.
fn ref_alt(m: &SkimMatcherV2, name: &str, a: &super::terms::Alt) -> Option<i64> {
    use super::terms::Atom;
    // Anchored atoms also hold on the name after `namespace/` (all-namespaces lists).
    let bare = name.split_once('/').map(|(_, n)| n);
    let either = |f: &dyn Fn(&str) -> bool| f(name) || bare.is_some_and(f);
    let hit = match &a.atom {
        Atom::Fuzzy(t) => return ref_fuzzy(m, name, t),
        Atom::Exact(t) => smart(name, t, |n, t| n.contains(t)),
        Atom::Prefix(t) => either(&|n| smart(n, t, |n, t| n.starts_with(t))),
        Atom::Suffix(t) => smart(name, t, |n, t| n.ends_with(t)),
        Atom::Whole(t) => either(&|n| smart(n, t, |n, t| n == t)),
        Atom::Regex(r) => regex::RegexBuilder::new(r)
            .case_insensitive(!r.chars().any(|c| c.is_ascii_uppercase()))
            .build()
            .is_ok_and(|re| either(&|n| re.is_match(n))),
    };
    match (hit, a.negated) {
        (true, false) => Some(super::terms::EXACT_BONUS),
        (false, true) => Some(0),
        _ => None,
    }
}

/// Brute force: every row through skim and the plain rules, sorted by explicit keys.
pub(super) fn reference(s: &Snapshot, sp: &ViewSpec<'_>) -> Vec<u32> {
    let m = SkimMatcherV2::default();
    let pos = |i: usize| -> (Reverse<i64>, usize) {
        match sp.sort.by {
            SortBy::Age => (Reverse(s.rows[i].created.unwrap_or(i64::MIN)), i),
            _ => (Reverse(0), i),
        }
    };
    let mut order: Vec<usize> = (0..s.rows.len()).collect();
    order.sort_by_key(|&i| pos(i));
    let mut rank = vec![0usize; order.len()];
    for (p, &i) in order.iter().enumerate() {
        rank[i] = if sp.sort.reverse { usize::MAX - p } else { p };
    }
    let mut hits: Vec<(i64, usize, u32)> = Vec::new();
    for (i, r) in s.rows.iter().enumerate() {
        if sp.namespace.is_some_and(|ns| r.namespace.as_deref() != Some(ns)) {
            continue;
        }
        let name = display_name(r, sp.all_namespaces);
        let lower = name.to_ascii_lowercase();
        if sp
            .query
            .inverse_terms()
            .iter()
            .any(|t| lower.contains(t.as_str()))
        {
            continue;
        }
        if !sp.query.selectors().iter().all(|sel| sel.matches(&r.labels)) {
            continue;
        }
        let score: Option<i64> = sp
            .query
            .fuzzy_terms()
            .iter()
            .map(|t| ref_fuzzy(&m, &name, t))
            .sum();
        let Some(score) = score else { continue };
        let groups: Option<i64> = sp
            .query
            .groups()
            .iter()
            .map(|g| g.iter().filter_map(|a| ref_alt(&m, &name, a)).max())
            .sum();
        let Some(groups) = groups else { continue };
        let score = score + groups;
        let ranked = sp.query.is_fuzzy() && sp.sort.by == SortBy::Name;
        hits.push((if ranked { -score } else { 0 }, rank[i], i as u32));
    }
    hits.sort();
    hits.into_iter().map(|h| h.2).collect()
}

#[test]
fn unfiltered_scope_and_counts() {
    let s = pods(200, 3);
    let mut c = ViewCache::new();
    let all = c.view(&s, &spec(&q(""), Sort::default(), None, true));
    assert_eq!(all.rows, (0..200).collect::<Vec<u32>>());
    assert_eq!((all.matched, all.total, all.rev), (200, 200, 1));
    let prod = c.view(&s, &spec(&q(""), Sort::default(), Some("prod"), false));
    assert!(prod.total > 0 && prod.total < 200);
    assert_eq!(prod.matched, prod.total);
    assert!(prod
        .rows
        .iter()
        .all(|&i| s.rows[i as usize].namespace.as_deref() == Some("prod")));
    let none = c.view(&s, &spec(&q(""), Sort::default(), Some("nope"), false));
    assert_eq!((none.matched, none.total), (0, 0));
}

#[test]
fn fuzzy_ranks_best_first_ties_in_snapshot_order() {
    let s = snap(
        vec![
            row(Some("a"), "xweb", None, "Running", "x"),
            row(Some("a"), "web-1", None, "Running", "x"),
            row(Some("b"), "web-0", None, "Running", "x"),
            row(Some("a"), "w-e-b", None, "Running", "x"),
            row(Some("a"), "api", None, "Running", "x"),
        ],
        1,
    );
    let mut c = ViewCache::new();
    let r = c.view(&s, &spec(&q("web"), Sort::default(), None, false));
    // An exact substring (`xweb`) ranks above a scattered match, however many word heads
    // skim finds in it (`w-e-b`).
    assert_eq!(names_of(&s, &r), ["web-1", "web-0", "xweb", "w-e-b"]);
    assert_eq!((r.matched, r.total), (4, 5));
    let rev = c.view(
        &s,
        &spec(
            &q("web"),
            Sort {
                by: SortBy::Name,
                reverse: true,
            },
            None,
            false,
        ),
    );
    assert_eq!(names_of(&s, &rev), ["web-0", "web-1", "xweb", "w-e-b"]);
    // All-namespaces names include the namespace.
    let r = c.view(&s, &spec(&q("b/w"), Sort::default(), None, true));
    assert_eq!(names_of(&s, &r), ["web-0"]);
    let r = c.view(&s, &spec(&q("b/w"), Sort::default(), None, false));
    assert!(r.rows.is_empty());
}

#[test]
fn inverse_and_selectors() {
    let s = snap(
        vec![
            row(Some("a"), "web-canary", None, "Running", "web"),
            row(Some("a"), "web-1", None, "Running", "web"),
            row(Some("a"), "api-1", None, "Running", "api"),
        ],
        1,
    );
    let mut c = ViewCache::new();
    let r = c.view(&s, &spec(&q("!CANARY"), Sort::default(), None, false));
    assert_eq!(names_of(&s, &r), ["api-1", "web-1"]);
    let r = c.view(&s, &spec(&q("-l app=web"), Sort::default(), None, false));
    assert_eq!(names_of(&s, &r), ["web-1", "web-canary"]);
    let r = c.view(&s, &spec(&q("-l app!=web 1"), Sort::default(), None, false));
    assert_eq!(names_of(&s, &r), ["api-1"]);
    let r = c.view(
        &s,
        &spec(&q("-l app in (web,api) !canary w"), Sort::default(), None, false),
    );
    assert_eq!(names_of(&s, &r), ["web-1"]);
}

#[test]
fn sorts_by_age_status_and_reverse() {
    let s = snap(
        vec![
            row(Some("a"), "old", Some(10), "Running", "x"),
            row(Some("a"), "new", Some(30), "Pending", "x"),
            row(Some("a"), "unknown", None, "Error", "x"),
            row(Some("a"), "mid", Some(20), "Running", "x"),
            row(Some("a"), "mid2", Some(20), "Completed", "x"),
        ],
        1,
    );
    let mut c = ViewCache::new();
    let age = Sort {
        by: SortBy::Age,
        reverse: false,
    };
    let r = c.view(&s, &spec(&q(""), age, None, false));
    assert_eq!(names_of(&s, &r), ["new", "mid", "mid2", "old", "unknown"]);
    let r = c.view(&s, &spec(&q(""), Sort { reverse: true, ..age }, None, false));
    assert_eq!(names_of(&s, &r), ["unknown", "old", "mid2", "mid", "new"]);
    let status = Sort {
        by: SortBy::Column(1),
        reverse: false,
    };
    let r = c.view(&s, &spec(&q(""), status, None, false));
    assert_eq!(names_of(&s, &r), ["mid2", "unknown", "new", "mid", "old"]);
    // A chosen column sort holds while a fuzzy term filters.
    let r = c.view(&s, &spec(&q("d"), age, None, false));
    assert_eq!(names_of(&s, &r), ["mid", "mid2", "old"]);
    let r = c.view(
        &s,
        &spec(
            &q("-l app=x"),
            Sort {
                by: SortBy::Column(9),
                reverse: true,
            },
            None,
            false,
        ),
    );
    assert_eq!(names_of(&s, &r), ["unknown", "old", "new", "mid2", "mid"]);
}

#[test]
fn memoises_per_snapshot_and_spec() {
    let s = Arc::new(pods(300, 5));
    let mut c = ViewCache::new();
    let query = q("web");
    let sp = spec(&query, Sort::default(), None, true);
    let a = c.view(&s, &sp);
    let b = c.view(&s, &sp);
    assert!(Arc::ptr_eq(&a, &b));
    assert_eq!(
        c.stats(),
        CacheStats {
            hits: 1,
            full: 1,
            narrowed: 0,
            carried: 0
        }
    );
    let again = q("web ");
    assert!(Arc::ptr_eq(
        &a,
        &c.view(&s, &spec(&again, Sort::default(), None, true))
    ));
    // New revision: recomputed (from carried verdicts: every row is the same `Arc`).
    let mut s2 = (*s).clone();
    s2.rev = 2;
    let d = c.view(&s2, &sp);
    assert!(!Arc::ptr_eq(&a, &d));
    assert_eq!((d.rows.clone(), d.rev), (a.rows.clone(), 2));
    assert_eq!((c.stats().full, c.stats().carried), (1, 1));
    // Back and forth between specs stays memoised.
    let other = q("api");
    let e = c.view(&s2, &spec(&other, Sort::default(), None, true));
    assert!(Arc::ptr_eq(&d, &c.view(&s2, &sp)));
    assert!(Arc::ptr_eq(
        &e,
        &c.view(&s2, &spec(&other, Sort::default(), None, true))
    ));
}

#[test]
fn narrowing_equals_full_scan() {
    let s = pods(1500, 9);
    let typed = [
        "web-3kz",
        "Kafka",
        "pr/ap2",
        "ap -l app in (auth-1,api-gateway-2) x",
        "t !web b",
    ];
    let sorts = [
        Sort::default(),
        Sort {
            by: SortBy::Name,
            reverse: true,
        },
        Sort {
            by: SortBy::Age,
            reverse: false,
        },
    ];
    for text in typed {
        for sort in sorts {
            for ns in [None, Some("prod")] {
                let mut typing = ViewCache::new();
                for end in 1..=text.len() {
                    let Ok(query) = Query::parse(&text[..end]) else {
                        continue;
                    };
                    let sp = spec(&query, sort, ns, true);
                    let got = typing.view(&s, &sp);
                    let full = ViewCache::new().view(&s, &sp);
                    assert_eq!(got, full, "{:?} {sort:?} {ns:?}", &text[..end]);
                    assert_eq!(got.rows, reference(&s, &sp), "{:?} {sort:?} {ns:?}", &text[..end]);
                }
                assert!(typing.stats().narrowed > 0, "{text}");
            }
        }
    }
}

#[test]
fn extended_terms_equal_the_reference_while_typing() {
    let s = pods(600, 21);
    let typed = [
        "'web-3",
        "^prod/api",
        "2$ ^team",
        "!^prod !Kafka",
        "^default/web | ^prod/auth !-2",
        "re:^team-a/(web|auth)-[0-4] 'z",
        "web | redis 'k",
        "^nope$ | ^prod/payments-1",
        "!re:[0-9]$ kafka",
        "'Kafka | 'redis-4",
        "^api",
        "^web | ^redis-2 !^prod/",
        "re:^auth-[0-4] 4$",
    ];
    for text in typed {
        let age = Sort {
            by: SortBy::Age,
            reverse: true,
        };
        for sort in [Sort::default(), age] {
            let mut typing = ViewCache::new();
            for end in 1..=text.len() {
                if !text.is_char_boundary(end) {
                    continue;
                }
                let Ok(query) = Query::parse(&text[..end]) else {
                    continue;
                };
                let sp = spec(&query, sort, None, true);
                let got = typing.view(&s, &sp);
                assert_eq!(got.rows, reference(&s, &sp), "{:?} {sort:?}", &text[..end]);
            }
        }
        let full = q(text);
        let got = ViewCache::new().view(&s, &spec(&full, Sort::default(), None, true));
        assert!(got.matched > 0 && got.matched < 600, "{text}: {}", got.matched);
    }
}

#[test]
fn exact_substring_hits_rank_above_scattered_ones() {
    let s = snap(
        vec![
            row(Some("a"), "cart-beabdjdhfe-mfh7r", None, "Running", "x"),
            row(Some("a"), "frontend-1", None, "Running", "x"),
        ],
        1,
    );
    let r = ViewCache::new().view(&s, &spec(&q("fr"), Sort::default(), None, false));
    assert_eq!(names_of(&s, &r), ["frontend-1", "cart-beabdjdhfe-mfh7r"]);
    let r = ViewCache::new().view(&s, &spec(&q("'fr"), Sort::default(), None, false));
    assert_eq!(names_of(&s, &r), ["frontend-1"]);
}

#[test]
fn incomplete_terms_are_errors_not_ignored() {
    for bad in ["'", "^", "re:", "web |", "re:(unclosed", "!^"] {
        assert!(Query::parse(bad).is_err(), "{bad:?}");
    }
    assert!(Query::parse("!").is_ok_and(|q| q.is_empty()));
}

#[test]
fn large_scan_uses_all_threads_and_stays_exact() {
    let s = pods(20_000, 13);
    for text in ["a", "w3", "-l app=web-3"] {
        let query = q(text);
        let sp = spec(&query, Sort::default(), None, true);
        let got = ViewCache::new().view(&s, &sp);
        assert_eq!(got.rows, reference(&s, &sp), "{text}");
    }
}

mod carry;
mod churn;
mod incremental;
