//! Unit tests of column-scoped filter terms (crates/view/src/col_terms.rs); pure.

use super::*;
use crate::tests::pods;
use ktui_kube::builtin::BuiltinKind;
use ktui_table::{builtin_spec, col};

/// A reference verdict from (namespace, STATUS cell).
type Reference = fn(&str, &str) -> bool;

fn columns() -> Vec<Column> {
    vec![col("READY"), col("STATUS"), col("RESTARTS")]
}

#[test]
fn column_terms_are_split_off_by_header_and_the_rest_stays_in_order() {
    let (terms, rest) = split("web status:Crash !x ns:prod", &columns()).unwrap();
    assert_eq!(rest, "web !x");
    assert_eq!(terms.len(), 2);
    assert_eq!(terms[0].target, Target::Cell(1));
    assert_eq!(
        terms[0].alt.atom,
        Atom::Exact("Crash".into()),
        "plain text: a substring, not fuzzy"
    );
    assert_eq!(terms[1].target, Target::Namespace);
    // Not columns: a regex term, a name holding a colon, an unknown header.
    let (terms, rest) = split("re:^a system:nodes colour:red", &columns()).unwrap();
    assert!(terms.is_empty());
    assert_eq!(rest, "re:^a system:nodes colour:red");
    // Headers with punctuation, typed without it.
    let pods = builtin_spec(BuiltinKind::Pod);
    let (t, _) = split("nominated-node:w1 nominatednode:w2 ip:10.", &pods.columns).unwrap();
    let nominated = pods.index_of("NOMINATED NODE").unwrap();
    assert_eq!(t[0].target, Target::Cell(nominated));
    assert_eq!(t[1].target, Target::Cell(nominated));
    assert_eq!(t[2].target, Target::Cell(pods.index_of("IP").unwrap()));
    let svc = builtin_spec(BuiltinKind::Service);
    let (t, _) = split("ports:8080 PORT-S:53", &svc.columns).unwrap();
    assert!(t
        .iter()
        .all(|t| t.target == Target::Cell(svc.index_of("PORT(S)").unwrap())));
}

#[test]
fn incomplete_or_invalid_column_terms_are_errors() {
    for bad in ["status:", "status:!", "status:re:(", "status:^", "web STATUS:'"] {
        let e = split(bad, &columns()).unwrap_err();
        assert!(e.contains("status") || e.contains("STATUS"), "{bad}: {e}");
    }
}

#[test]
fn column_terms_equal_a_brute_force_reference() {
    let snap = pods(3000, 7);
    let cases: [(&str, Reference); 7] = [
        ("status:Crash", |_, s| s.contains("Crash")),
        ("status:crash", |_, s| s.to_lowercase().contains("crash")),
        ("status:^Pend", |_, s| s.starts_with("Pend")),
        ("status:!running", |_, s| !s.to_lowercase().contains("running")),
        ("status:ing$", |_, s| s.ends_with("ing")),
        ("status:re:^(Running|Pending)$", |_, s| {
            s == "Running" || s == "Pending"
        }),
        ("ns:prod status:!^Run", |ns, s| {
            ns.contains("prod") && !s.starts_with("Run")
        }),
    ];
    for (text, reference) in cases {
        let (terms, rest) = split(text, &columns()).unwrap();
        assert_eq!(rest, "", "{text}");
        let tests = ColTests::new(&terms);
        let mut kept = 0;
        for row in snap.rows.iter() {
            let status = row.cells[1].literal().unwrap();
            let ns = row.namespace.as_deref().unwrap_or("");
            assert_eq!(
                tests.keeps(row),
                reference(ns, status),
                "{text} on {ns}/{} {status}",
                row.name
            );
            kept += usize::from(tests.keeps(row));
        }
        assert!(
            kept > 0 && kept < snap.rows.len(),
            "{text}: a test that can fail ({kept})"
        );
    }
}

#[test]
fn numbers_are_matched_as_printed_and_time_columns_match_nothing() {
    let snap = pods(50, 3);
    let (terms, _) = split("restarts:0", &columns()).unwrap();
    assert!(snap.rows.iter().all(|r| ColTests::new(&terms).keeps(r)));
    let age = [col("AGE")];
    let mut row = (*snap.rows[0]).clone();
    row.cells = vec![Cell::Age(Some(1))].into_boxed_slice();
    let (terms, _) = split("age:1", &age).unwrap();
    assert!(!ColTests::new(&terms).keeps(&row));
    let (terms, _) = split("age:!1", &age).unwrap();
    assert!(ColTests::new(&terms).keeps(&row));
    // Typed into a list, such a term is refused with why, not left to match nothing.
    let mut timed = snap.clone();
    timed.rows = vec![std::sync::Arc::new(row)].into();
    let e = timeless(&terms, &age, &timed).unwrap_err();
    assert_eq!(
        e,
        "AGE is a time column: it has no text to match (A sorts by age)"
    );
    let (terms, _) = split("restarts:0", &columns()).unwrap();
    assert_eq!(timeless(&terms, &columns(), &snap), Ok(()));
    timed.rows = Vec::new().into();
    assert_eq!(timeless(&split("age:1", &age).unwrap().0, &age, &timed), Ok(()));
}

#[test]
fn laid_out_texts_give_the_same_verdicts_as_the_rows_and_follow_the_snapshot() {
    use crate::col_text::ColTexts;
    let snap = pods(2000, 11);
    let mut cols = columns();
    cols.push(col("AGE"));
    let mut memo = ColTexts::default();
    for filter in [
        "status:Crash",
        "status:!running ns:^team",
        "name:re:-1\\d$ restarts:0",
        "age:1",
        "age:!1",
        "ns:prod$ status:pend name:Kafka",
    ] {
        let (terms, _) = split(filter, &cols).unwrap();
        let tests = ColTests::new(&terms);
        let texts = memo.get(&snap, &tests.targets());
        for (i, row) in snap.rows.iter().enumerate() {
            assert_eq!(tests.keeps_at(&texts, i), tests.keeps(row), "{filter}: row {i}");
        }
    }
    // Built once per target per snapshot; a new snapshot drops them.
    let status = [Target::Cell(1)];
    let a = memo.get(&snap, &status);
    assert!(std::sync::Arc::ptr_eq(&a[0], &memo.get(&snap, &status)[0]));
    let next = pods(2000, 12);
    assert!(!std::sync::Arc::ptr_eq(&a[0], &memo.get(&next, &status)[0]));
}
