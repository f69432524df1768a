//! The results of `real_sync` (see `benches/real_sync.rs`): what one launch measured, the
//! columns of runs, their medians, the per-run lines on stderr and the markdown table. Must
//! not launch or time anything.

use std::time::Duration;

use crate::Resource;

/// What one launch (or one kubectl run) measured.
pub(super) struct Launch {
    /// Launch → the first pod row on screen; `None` for kubectl (its rows go to /dev/null).
    pub(super) first: Option<Duration>,
    /// Launch → live with the full count (k9s: the full count in its title; kubectl: exit).
    pub(super) live: Duration,
    /// Peak RSS, MB.
    pub(super) hwm: f64,
    /// The client's CPU from launch to live, seconds.
    pub(super) cpu: f64,
    /// The API server's CPU over the same time, seconds (0 when its pid is unknown).
    pub(super) server_cpu: f64,
}

/// A column of the results: one ktui variant, k9s, or one kubectl command, and its runs.
pub(super) struct Column {
    pub(super) name: &'static str,
    /// Whose CPU `Launch::cpu` is.
    pub(super) client: &'static str,
    /// What `Launch::live` ends at.
    pub(super) end: &'static str,
    /// One per round, or one per run (kubectl); `Err` says why a run has no figures.
    pub(super) runs: Vec<Result<Launch, String>>,
}

pub(super) fn median_f(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// The medians of a column's runs that produced figures.
pub(super) struct Medians {
    pub(super) first: Option<Duration>,
    pub(super) live: Duration,
    pub(super) hwm: f64,
    pub(super) cpu: f64,
    pub(super) server_cpu: f64,
}

impl Column {
    /// `None` when no run produced figures.
    pub(super) fn medians(&self) -> Option<Medians> {
        let ok: Vec<&Launch> = self.runs.iter().filter_map(|r| r.as_ref().ok()).collect();
        if ok.is_empty() {
            return None;
        }
        let of = |f: fn(&Launch) -> f64| median_f(ok.iter().map(|l| f(l)).collect());
        let firsts: Vec<f64> = ok
            .iter()
            .filter_map(|l| l.first)
            .map(|d| d.as_secs_f64())
            .collect();
        Some(Medians {
            first: (!firsts.is_empty()).then(|| Duration::from_secs_f64(median_f(firsts))),
            live: Duration::from_secs_f64(of(|l| l.live.as_secs_f64())),
            hwm: of(|l| l.hwm),
            cpu: of(|l| l.cpu),
            server_cpu: of(|l| l.server_cpu),
        })
    }

    /// A table cell for a column without figures (the reasons are on stderr and in the
    /// median lines).
    pub(super) fn failed_cell(&self) -> &'static str {
        match self.runs.iter().filter_map(|r| r.as_ref().err()).next() {
            Some(e) if e.starts_with("timed out") => "timed out",
            Some(_) => "failed",
            None => "n/a",
        }
    }

    /// Why the column has no figures, or how many of its runs have none ("" when all do).
    pub(super) fn failures(&self) -> String {
        let errs: Vec<&String> = self.runs.iter().filter_map(|r| r.as_ref().err()).collect();
        match errs.first() {
            None => String::new(),
            Some(e) => format!("{e}, {} of {} runs", errs.len(), self.runs.len()),
        }
    }
}

/// A run as one line of text (the per-round and median lines), `count` objects of
/// `resource`.
pub(super) fn describe(c: &Column, m: &Medians, resource: Resource, count: u64) -> String {
    let first = m.first.map_or_else(
        || format!("{:>9}", "n/a"),
        |d| format!("{:>6.0} ms", d.as_secs_f64() * 1e3),
    );
    format!(
        "first row {first}, {} {:>6.0} ms, peak RSS {:.0} MB, {} CPU {:.2} s ({:.1} µs/{}), API server CPU {:.2} s",
        c.end,
        m.live.as_secs_f64() * 1e3,
        m.hwm,
        c.client,
        m.cpu,
        m.cpu * 1e6 / count as f64,
        resource.singular(),
        m.server_cpu
    )
}

/// `launch` as a one-run column's medians, for the per-round line.
pub(super) fn single(l: &Launch) -> Medians {
    Medians {
        first: l.first,
        live: l.live,
        hwm: l.hwm,
        cpu: l.cpu,
        server_cpu: l.server_cpu,
    }
}

/// Column names are right-aligned to this width in the per-round and median lines.
pub(super) const NAME_WIDTH: usize = 24;

/// Adds a run to `c` and says what it measured on stderr.
pub(super) fn record(c: &mut Column, label: &str, r: Result<Launch, String>, resource: Resource, count: u64) {
    match &r {
        Ok(l) => eprintln!(
            "{label} {:>NAME_WIDTH$}: {}",
            c.name,
            describe(c, &single(l), resource, count)
        ),
        Err(e) => eprintln!("{label} {:>NAME_WIDTH$}: {e}", c.name),
    }
    c.runs.push(r);
}

pub(super) fn secs_or_ms(d: Duration) -> String {
    match d.as_secs_f64() {
        s if s >= 10.0 => format!("{s:.1} s"),
        s => format!("{:.0} ms", s * 1e3),
    }
}

/// The markdown table: one column per ktui variant and peer, one row per figure.
pub(super) fn table(cols: &[Column], resource: Resource, count: u64) {
    let meds: Vec<Option<Medians>> = cols.iter().map(Column::medians).collect();
    let header: Vec<&str> = cols.iter().map(|c| c.name).collect();
    println!("\n| {count} {} | {} |", resource.name(), header.join(" | "));
    println!("|---|{}", "---:|".repeat(cols.len()));
    type Figure = fn(&Medians, u64) -> String;
    let per = format!("client CPU until live (per {})", resource.singular());
    let rows: [(&str, Figure); 5] = [
        ("first row", |m, _| m.first.map_or("n/a".to_owned(), secs_or_ms)),
        ("live / full count", |m, _| secs_or_ms(m.live)),
        ("API server CPU until live", |m, _| {
            format!("{:.2} s", m.server_cpu)
        }),
        (&per, |m, count| {
            format!("{:.2} s ({:.0} µs)", m.cpu, m.cpu * 1e6 / count as f64)
        }),
        ("peak RSS", |m, _| format!("{:.0} MB", m.hwm)),
    ];
    for (name, figure) in rows {
        let cells: Vec<String> = cols
            .iter()
            .zip(&meds)
            .map(|(c, m)| match m {
                Some(m) => figure(m, count),
                None => c.failed_cell().to_owned(),
            })
            .collect();
        println!("| {name} | {} |", cells.join(" | "));
    }
}
