//! Unit tests of column widths by value (crates/view/src/columns.rs); pure.

use super::*;

fn col(header: &str, natural: usize) -> ColumnIn {
    ColumnIn {
        header: header.into(),
        natural,
        wide: false,
        rank: None,
        yields: false,
    }
}

fn wide(header: &str, natural: usize) -> ColumnIn {
    ColumnIn {
        wide: true,
        ..col(header, natural)
    }
}

fn used(f: &Fitted, gap: usize) -> usize {
    f.shown.iter().map(|(_, w)| w).sum::<usize>() + gap * f.shown.len().saturating_sub(1)
}

fn headers<'a>(cols: &'a [ColumnIn], idx: &[usize]) -> Vec<&'a str> {
    idx.iter().map(|&i| cols[i].header.as_str()).collect()
}

fn events(message: usize) -> Vec<ColumnIn> {
    vec![
        col("NAMESPACE", 11),
        col("LAST SEEN", 9),
        col("TYPE", 7),
        col("REASON", 16),
        col("OBJECT", 40),
        col("COUNT", 5),
        col("MESSAGE", message),
        col("SOURCE", 30),
    ]
}

#[test]
fn everything_fits_at_natural_width() {
    let cols = vec![col("NAME", 20), col("READY", 5), col("STATUS", 17), col("AGE", 5)];
    let f = fit(&cols, 100, 2, 0);
    assert_eq!(f.shown, vec![(0, 20), (1, 5), (2, 17), (3, 5)]);
    assert!(f.hidden.is_empty());
}

#[test]
fn message_takes_the_free_width_before_long_columns_grow() {
    let cols = events(400);
    let f = fit(&cols, 158, 2, 0);
    assert!(used(&f, 2) <= 158);
    let msg = f.width_of(6).unwrap();
    // Every other shown column is at its natural width or the 2/5 cap, MESSAGE gets the rest.
    assert!(msg >= 158 - 2 * 7 - (11 + 9 + 7 + 16 + 40 + 5 + 30), "{f:?}");
    assert_eq!(f.width_of(4), Some(40));
}

#[test]
fn narrow_terminals_drop_low_priority_columns_whole() {
    let cols = vec![
        col("NAME", 30),
        col("READY", 5),
        col("STATUS", 17),
        col("RESTARTS", 12),
        col("AGE", 5),
        col("IP", 15),
        col("NODE", 20),
    ];
    let f = fit(&cols, 58, 2, 0);
    assert!(used(&f, 2) <= 58, "{f:?}");
    let hidden = headers(&cols, &f.hidden);
    assert!(hidden.contains(&"IP") && hidden.contains(&"NODE"), "{hidden:?}");
    assert!(f.width_of(0).is_some() && f.width_of(2).is_some());
    // Dropping goes by priority: IP before NODE before AGE before RESTARTS; STATUS is
    // never narrower than `ContainerCreating`, so READY goes before it is cut.
    let f = fit(&cols, 42, 2, 0);
    assert_eq!(headers(&cols, &f.hidden), vec!["RESTARTS", "AGE", "IP", "NODE"]);
    let f = fit(&cols, 40, 2, 0);
    assert_eq!(
        headers(&cols, &f.hidden),
        vec!["READY", "RESTARTS", "AGE", "IP", "NODE"]
    );
    assert_eq!(f.width_of(2), Some(17));
}

#[test]
fn wide_mode_never_narrows_a_column() {
    let mut cols = events(120);
    let normal = fit(&cols, 158, 2, 0);
    cols.push(wide("FIRST SEEN", 10));
    cols.push(wide("SUBOBJECT", 25));
    let w = fit(&cols, 158, 2, 0);
    for (i, width) in &normal.shown {
        assert_eq!(w.width_of(*i), Some(*width), "{i}");
    }
    assert!(used(&w, 2) <= 158);
}

#[test]
fn scrolling_skips_unpinned_columns_and_keeps_the_name() {
    let cols = vec![
        col("NAMESPACE", 12),
        col("NAME", 30),
        col("READY", 5),
        col("STATUS", 17),
        col("IP", 15),
    ];
    let f = fit(&cols, 200, 2, 2);
    assert_eq!(f.scroll, 2);
    assert_eq!(headers(&cols, &f.hidden), vec!["NAMESPACE", "READY"]);
    assert!(f.width_of(1).is_some());
    // Clamped: at least one scrollable column stays.
    assert_eq!(fit(&cols, 200, 2, 99).scroll, 3);
}

/// Brute force over many shapes: the result always fits, shown columns keep at least their
/// minimum, and a hidden column is never of higher priority than every shown one unless
/// scrolled off.
#[test]
fn always_fits_and_drops_by_priority() {
    let names = ["NAME", "STATUS", "AGE", "IP", "NODE", "MESSAGE", "X", "OBJECT"];
    for avail in [1usize, 10, 20, 40, 60, 80, 160, 250] {
        for n in 1..names.len() {
            for seed in 0..8usize {
                let cols: Vec<ColumnIn> = names[..n]
                    .iter()
                    .enumerate()
                    .map(|(i, h)| col(h, 3 + (i * 37 + seed * 11) % 90))
                    .collect();
                let f = fit(&cols, avail, 2, 0);
                assert!(!f.shown.is_empty());
                assert!(used(&f, 2) <= avail.max(1), "{avail} {cols:?} {f:?}");
                if f.shown.len() > 1 {
                    for (i, w) in &f.shown {
                        assert!(*w >= cols[*i].natural.min(8), "{f:?}");
                    }
                }
                for h in &f.hidden {
                    let p = priority(&cols[*h].header);
                    assert!(
                        f.shown
                            .iter()
                            .any(|(s, _)| priority(&cols[*s].header) >= p || pinned(&cols[*s].header)),
                        "{cols:?} {f:?}"
                    );
                }
            }
        }
    }
}

#[test]
fn a_kinds_drop_order_keeps_what_the_user_came_for() {
    // Events at 60 columns (58 inside the box): TYPE stays, LAST SEEN and COUNT go first.
    let mut cols = vec![
        col("NAMESPACE", 11),
        col("LAST SEEN", 9),
        col("TYPE", 7),
        col("REASON", 16),
        col("OBJECT", 24),
        col("COUNT", 5),
        col("MESSAGE", 48),
        col("SOURCE", 30),
    ];
    ColumnIn::drop_first(
        &mut cols,
        &["SUBOBJECT", "SOURCE", "COUNT", "FIRST SEEN", "LAST SEEN"],
    );
    let f = fit(&cols, 58, 2, 0);
    let shown: Vec<usize> = f.shown.iter().map(|(i, _)| *i).collect();
    assert_eq!(
        headers(&cols, &shown),
        ["TYPE", "REASON", "OBJECT", "MESSAGE"],
        "{f:?}"
    );
    // Pods: STATUS keeps `ContainerCreating` whole; RESTARTS gives way before NAMESPACE.
    let mut cols = vec![
        col("NAMESPACE", 11),
        col("NAME", 30),
        col("READY", 5),
        col("STATUS", 17),
        col("RESTARTS", 8),
        col("AGE", 5),
    ];
    ColumnIn::drop_first(
        &mut cols,
        &[
            "READINESS GATES",
            "NOMINATED NODE",
            "IP",
            "NODE",
            "AGE",
            "RESTARTS",
        ],
    );
    let f = fit(&cols, 58, 2, 0);
    assert_eq!(f.width_of(3), Some(17), "{f:?}");
    assert_eq!(headers(&cols, &f.hidden), ["RESTARTS", "AGE"]);
}

/// Usage figures give way to a row's identity: dropped, lowest rank first, before NAME or
/// STATUS is cut — all but the top one; with room, they all show.
#[test]
fn yielding_columns_go_before_a_name_is_cut() {
    let usage = |h: &str, rank: u8| ColumnIn {
        rank: Some(rank),
        yields: true,
        ..col(h, 6)
    };
    let cols = vec![
        col("NAME", 30),
        col("STATUS", 10),
        usage("TREND", 10),
        usage("CPU", 16),
    ];
    let roomy = fit(&cols, 30 + 10 + 6 + 6 + 3 * 2, 2, 0);
    assert_eq!(roomy.shown, vec![(0, 30), (1, 10), (2, 6), (3, 6)]);
    let tight = fit(&cols, 30 + 10 + 6 + 2 * 2 + 1, 2, 0);
    assert_eq!(
        tight.shown,
        vec![(0, 30), (1, 10), (3, 6)],
        "TREND went, NAME whole"
    );
    // The top figure (CPU) stays and competes by rank: NAME is cut for it.
    let tighter = fit(&cols, 30 + 10 + 2, 2, 0);
    assert_eq!(tighter.shown, vec![(0, 22), (1, 10), (3, 6)]);
}

/// A narrow pods list: the kind's first-to-go columns (RESTARTS, AGE) and the usage figures
/// go, lowest rank first, until NAME is whole; CPU, the highest-ranked figure, stays.
#[test]
fn a_narrow_pods_list_keeps_its_names_whole_before_its_figures() {
    let cols = narrow_pods(4);
    let f = fit(&cols, 58, 2, 0);
    let shown: Vec<(&str, usize)> = f
        .shown
        .iter()
        .map(|(i, w)| (cols[*i].header.as_str(), *w))
        .collect();
    assert_eq!(shown, [("NAME", 25), ("READY", 5), ("STATUS", 17), ("CPU", 4)]);
    // Without yielding columns nothing changes: NAME is cut as before.
    let plain: Vec<ColumnIn> = cols
        .iter()
        .cloned()
        .map(|c| ColumnIn { yields: false, ..c })
        .collect();
    let f = fit(&plain, 58, 2, 0);
    assert!(f.width_of(0).is_some_and(|w| w < 25), "{f:?}");
}

/// CPU, the highest-ranked figure, stays even when a NAME must be cut for it (a wide
/// `no sample`): the figures below it go first.
#[test]
fn the_top_figure_stays_and_competes_by_rank() {
    let cols = narrow_pods(9);
    let f = fit(&cols, 58, 2, 0);
    let shown: Vec<&str> = f.shown.iter().map(|(i, _)| cols[*i].header.as_str()).collect();
    assert_eq!(shown, ["NAME", "READY", "STATUS", "CPU"]);
}

/// A narrow pods list's columns: the kind's own (RESTARTS, AGE ranked low), then the usage
/// figures as the list ranks them (yielding); CPU `cpu` cells wide.
fn narrow_pods(cpu: usize) -> Vec<ColumnIn> {
    let y = |h: &str, n: usize, r: u8| ColumnIn {
        rank: Some(r),
        yields: true,
        ..col(h, n)
    };
    let r = |h: &str, n: usize, rk: u8| ColumnIn {
        rank: Some(rk),
        ..col(h, n)
    };
    vec![
        col("NAME", 25),
        col("READY", 5),
        col("STATUS", 17),
        r("RESTARTS", 8, 5),
        y("CPU", cpu, 16),
        y("MEM", if cpu > 4 { 5 } else { 4 }, 15),
        y("%CPU/R", 6, 14),
        y("%CPU/L", 6, 11),
        y("%MEM/R", 6, 13),
        y("%MEM/L", 6, 11),
        y("TREND", 5, 10),
        r("AGE", 4, 4),
    ]
}
