//! Reading ktui's resource-usage columns off a screen, and the figures computed by hand from
//! the server's own objects (issue 33): a table parsed by its header's column starts (cells
//! such as `no sample` hold a space, so rows are cut at the header's offsets, not split on
//! whitespace), the text on the list's bottom border (the metrics state line) and in its
//! title (the hidden-columns note), and Kubernetes quantities as exact fractions, so a
//! percentage is rounded down from the real ratio, not from already rounded figures.
//!
//! Declared with `#[path]` by tests/e2e/main.rs and tests/real/main.rs (`usage_screen`).
#![allow(dead_code)]

use std::time::{Duration, Instant};

use serde_json::Value;

use crate::pty::Tui;

/// A list's table as drawn: the header's columns (sort marks removed) with the character
/// offset each starts at, and the rows below it up to the bottom border.
#[derive(Debug, Clone)]
pub struct Table {
    /// `(header, start)`; headers as drawn minus a trailing `↑`/`↓`.
    pub cols: Vec<(String, usize)>,
    /// The header line as drawn (with its sort mark).
    pub header_line: String,
    pub rows: Vec<String>,
}

/// The table on `screen`: its header is the first bordered line with a `NAME` column.
pub fn table(screen: &str) -> Option<Table> {
    let lines: Vec<&str> = screen.lines().collect();
    let at = lines.iter().position(|l| {
        l.starts_with('│')
            && l.trim_matches('│')
                .split_whitespace()
                .any(|w| w.trim_end_matches(['↑', '↓']) == "NAME")
    })?;
    let header: Vec<char> = lines[at].chars().collect();
    // Columns are at least two spaces apart; a header may hold one (`NOMINATED NODE`).
    let mut cols = Vec::new();
    let mut i = 1; // after the left border
    while i < header.len() {
        if header[i] == ' ' || header[i] == '│' {
            i += 1;
            continue;
        }
        let start = i;
        while i < header.len()
            && header[i] != '│'
            && !(header[i] == ' ' && header.get(i + 1).is_none_or(|c| *c == ' ' || *c == '│'))
        {
            i += 1;
        }
        let name: String = header[start..i].iter().collect();
        cols.push((name.trim_end_matches(['↑', '↓']).to_owned(), start));
    }
    let rows = lines[at + 1..]
        .iter()
        .take_while(|l| l.starts_with('│'))
        .filter(|l| !l.trim_matches(|c: char| c == '│' || c.is_whitespace()).is_empty())
        .map(|l| l.to_string())
        .collect();
    Some(Table {
        cols,
        header_line: lines[at].to_owned(),
        rows,
    })
}

impl Table {
    pub fn headers(&self) -> Vec<&str> {
        self.cols.iter().map(|(h, _)| h.as_str()).collect()
    }

    pub fn has(&self, header: &str) -> bool {
        self.cols.iter().any(|(h, _)| h == header)
    }

    /// The header of `header`'s column as drawn: with its sort mark if it heads the sort.
    pub fn drawn_header(&self, header: &str) -> Option<String> {
        let i = self.cols.iter().position(|(h, _)| h == header)?;
        let start = self.cols[i].1;
        let chars: Vec<char> = self.header_line.chars().collect();
        let text: String = chars[start..]
            .iter()
            .take_while(|c| **c != ' ' && **c != '│')
            .collect();
        Some(text)
    }

    /// Cell `header` of a drawn row (trimmed; `None` when the column is not shown).
    pub fn cell_of(&self, row: &str, header: &str) -> Option<String> {
        let i = self.cols.iter().position(|(h, _)| h == header)?;
        let chars: Vec<char> = row.chars().collect();
        let start = self.cols[i].1.min(chars.len());
        let end = self
            .cols
            .get(i + 1)
            .map_or(chars.len(), |(_, s)| (*s).min(chars.len()));
        let text: String = chars[start..end].iter().collect();
        Some(
            text.trim_matches(|c: char| c == '│' || c.is_whitespace())
                .to_owned(),
        )
    }

    /// The row whose NAME cell is `name`.
    pub fn row(&self, name: &str) -> Option<&str> {
        self.rows
            .iter()
            .find(|r| self.cell_of(r, "NAME").as_deref() == Some(name))
            .map(String::as_str)
    }

    /// Cell `header` of the row named `name`.
    pub fn cell(&self, name: &str, header: &str) -> Option<String> {
        self.cell_of(self.row(name)?, header)
    }

    /// The NAME cells, top to bottom.
    pub fn names(&self) -> Vec<String> {
        self.column("NAME")
    }

    /// Column `header`'s cells, top to bottom.
    pub fn column(&self, header: &str) -> Vec<String> {
        self.rows.iter().filter_map(|r| self.cell_of(r, header)).collect()
    }
}

/// The text on the list's bottom border (`└ metrics: … ───┘`), if any.
pub fn bottom_border(screen: &str) -> Option<String> {
    let line = screen.lines().rfind(|l| l.starts_with('└'))?;
    let text = line
        .trim_start_matches('└')
        .trim_end_matches('┘')
        .trim_matches('─')
        .trim();
    (!text.is_empty()).then(|| text.to_owned())
}

/// The hidden-columns note in the list's title (`7 hidden: RESTARTS …`), if any.
pub fn hidden_note(screen: &str) -> Option<String> {
    let title = screen.lines().find(|l| l.starts_with('┌'))?;
    let at = title.find(" hidden")?;
    let count_start = title[..at].rfind(' ').map_or(0, |i| i + 1);
    let text = title[count_start..]
        .trim_end_matches('┐')
        .trim_end_matches('─')
        .trim();
    Some(text.to_owned())
}

// ---------------------------------------------------------------------------------------
// quantities

/// A Kubernetes quantity as an exact fraction `num / den` of its base unit (cores, bytes).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Quantity {
    pub num: u128,
    pub den: u128,
}

fn gcd(a: u128, b: u128) -> u128 {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

impl Quantity {
    pub const ZERO: Quantity = Quantity { num: 0, den: 1 };

    fn reduced(num: u128, den: u128) -> Quantity {
        let g = gcd(num, den).max(1);
        Quantity {
            num: num / g,
            den: den / g,
        }
    }

    /// `resource.Quantity.MilliValue()`: thousandths, rounded up (kubectl top's `250m`).
    pub fn milli_ceil(self) -> u128 {
        (self.num * 1000).div_ceil(self.den)
    }

    /// kubectl top's memory figure: `Value() / (1024 * 1024)` (Value rounds up first).
    pub fn mi_floor(self) -> u128 {
        self.num.div_ceil(self.den) / (1024 * 1024)
    }
}

impl std::ops::Add for Quantity {
    type Output = Quantity;
    fn add(self, o: Quantity) -> Quantity {
        Quantity::reduced(self.num * o.den + o.num * self.den, self.den * o.den)
    }
}

impl std::iter::Sum for Quantity {
    fn sum<I: Iterator<Item = Quantity>>(it: I) -> Quantity {
        it.fold(Quantity::ZERO, |a, b| a + b)
    }
}

/// Parses `250m`, `65892735n`, `1.5Gi`, `48212Ki`, `8`, `0.5`, `7800m`, `31Gi`, `1k`.
pub fn quantity(s: &str) -> Quantity {
    let split = s
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(s.len());
    let (number, suffix) = s.split_at(split);
    let (int, frac) = number.split_once('.').unwrap_or((number, ""));
    let digits = format!("{int}{frac}");
    let mut num: u128 = digits
        .parse()
        .unwrap_or_else(|_| panic!("{s:?} is not a quantity"));
    let mut den: u128 = 10u128.pow(u32::try_from(frac.len()).expect("short fraction"));
    let (mul, div): (u128, u128) = match suffix {
        "n" => (1, 1_000_000_000),
        "u" => (1, 1_000_000),
        "m" => (1, 1000),
        "" => (1, 1),
        "k" => (1000, 1),
        "M" => (1_000_000, 1),
        "G" => (1_000_000_000, 1),
        "T" => (1_000_000_000_000, 1),
        "Ki" => (1 << 10, 1),
        "Mi" => (1 << 20, 1),
        "Gi" => (1 << 30, 1),
        "Ti" => (1 << 40, 1),
        other => panic!("{s:?}: suffix {other:?} not handled"),
    };
    num *= mul;
    den *= div;
    Quantity::reduced(num, den)
}

/// ktui's pod percentage (README § Resource usage): 100 × usage ÷ measure, rounded down
/// from the exact ratio; `None` (`n/a`) without a measure.
pub fn pct_floor(usage: Quantity, of: Option<Quantity>) -> Option<u128> {
    let of = of.filter(|q| q.num > 0)?;
    Some((100 * usage.num * of.den) / (usage.den * of.num))
}

/// `kubectl top nodes`' percentage: `int64(float64(usage.MilliValue()) /
/// float64(available.MilliValue()) * 100)`.
pub fn kubectl_pct(usage: Quantity, available: Quantity) -> i64 {
    (usage.milli_ceil() as f64 / available.milli_ceil() as f64 * 100.0) as i64
}

/// `123m`, `45Mi`, `65%` or `n/a` as ktui and kubectl top print them.
pub fn cpu_cell(q: Quantity) -> String {
    format!("{}m", q.milli_ceil())
}
pub fn mem_cell(q: Quantity) -> String {
    format!("{}Mi", q.mi_floor())
}
pub fn pct_cell(p: Option<u128>) -> String {
    p.map_or_else(|| "n/a".to_owned(), |p| format!("{p}%"))
}

/// The millicores of a drawn CPU cell (`1702m` → 1702, a stale `64m*` → 64), `None` for
/// anything else (`no sample`).
pub fn cpu_millis(cell: &str) -> Option<u64> {
    cell.trim_end_matches('*').strip_suffix('m')?.parse().ok()
}

// ---------------------------------------------------------------------------------------
// figures by hand

fn q(v: &Value) -> Option<Quantity> {
    v.as_str().map(quantity)
}

/// A pod's usage figures as ktui should draw them (header, cell), computed by hand from the
/// pod and its PodMetrics (README § Resource usage): CPU and MEM summed over the sample's
/// containers (millicores up, Mi down); each percentage 100 × Σ usage ÷ Σ measure over the
/// containers (and sidecars) that set the measure, rounded down; `n/a` when none does.
pub fn pod_figures(pod: &Value, metrics: &Value) -> Vec<(&'static str, String)> {
    let usage: Vec<(String, Quantity, Quantity)> = metrics["containers"]
        .as_array()
        .expect("containers")
        .iter()
        .map(|c| {
            (
                c["name"].as_str().unwrap().to_owned(),
                q(&c["usage"]["cpu"]).unwrap(),
                q(&c["usage"]["memory"]).unwrap(),
            )
        })
        .collect();
    let spec = &pod["spec"];
    let sidecars = spec["initContainers"]
        .as_array()
        .into_iter()
        .flatten()
        .filter(|c| c["restartPolicy"] == "Always");
    let containers: Vec<&Value> = spec["containers"]
        .as_array()
        .expect("containers")
        .iter()
        .chain(sidecars)
        .collect();
    let used =
        |c: &Value, cpu: bool| {
            usage.iter().find(|(n, _, _)| c["name"] == n.as_str()).map_or(
                Quantity::ZERO,
                |(_, u_cpu, u_mem)| if cpu { *u_cpu } else { *u_mem },
            )
        };
    // 100 × Σ usage ÷ Σ measure, both over the containers that set `field.resource`.
    let pct = |field: &str, resource: &str| {
        let cpu = resource == "cpu";
        let setting: Vec<(&Value, Quantity)> = containers
            .iter()
            .filter_map(|c| Some((*c, q(&c["resources"][field][resource])?)))
            .filter(|(_, m)| m.num > 0)
            .collect();
        let measure: Option<Quantity> = (!setting.is_empty()).then(|| setting.iter().map(|(_, m)| *m).sum());
        let used: Quantity = setting.iter().map(|(c, _)| used(c, cpu)).sum();
        pct_cell(pct_floor(used, measure))
    };
    let cpu: Quantity = usage.iter().map(|(_, c, _)| *c).sum();
    let mem: Quantity = usage.iter().map(|(_, _, m)| *m).sum();
    vec![
        ("CPU", cpu_cell(cpu)),
        ("MEM", mem_cell(mem)),
        ("%CPU/R", pct("requests", "cpu")),
        ("%CPU/L", pct("limits", "cpu")),
        ("%MEM/R", pct("requests", "memory")),
        ("%MEM/L", pct("limits", "memory")),
    ]
}

/// A node's figures as ktui and `kubectl top nodes` print them (CPU %CPU MEM %MEM), from
/// its NodeMetrics and `status.allocatable`.
pub fn node_figures(node: &Value, metrics: &Value) -> Vec<(&'static str, String)> {
    let (cpu, mem) = (
        q(&metrics["usage"]["cpu"]).unwrap(),
        q(&metrics["usage"]["memory"]).unwrap(),
    );
    let alloc = &node["status"]["allocatable"];
    let (a_cpu, a_mem) = (q(&alloc["cpu"]).unwrap(), q(&alloc["memory"]).unwrap());
    vec![
        ("CPU", cpu_cell(cpu)),
        ("%CPU", format!("{}%", kubectl_pct(cpu, a_cpu))),
        ("MEM", mem_cell(mem)),
        ("%MEM", format!("{}%", kubectl_pct(mem, a_mem))),
    ]
}

// ---------------------------------------------------------------------------------------
// on screen

/// What row `name` shows under each of `want`'s headers (`None` for a column not shown).
pub fn drawn(t: &Table, name: &str, want: &[(&'static str, String)]) -> Vec<(&'static str, Option<String>)> {
    want.iter().map(|(h, _)| (*h, t.cell(name, h))).collect()
}

pub fn same(t: &Table, name: &str, want: &[(&'static str, String)]) -> bool {
    drawn(t, name, want)
        .iter()
        .zip(want)
        .all(|((_, got), (_, w))| got.as_deref() == Some(w.as_str()))
}

/// Waits until row `name` shows exactly the figures `expect()` computes from the server
/// now (asked again each second: ktui shows its last poll, the server answers for now);
/// returns them and the table. Panics after `timeout` with both.
pub fn wait_figures(
    k: &Tui,
    timeout: Duration,
    name: &str,
    expect: impl Fn() -> Vec<(&'static str, String)>,
) -> (Vec<(&'static str, String)>, Table) {
    let started = Instant::now();
    loop {
        let want = expect();
        let hit = k.try_wait_until(Duration::from_secs(1), |s| {
            table(s).is_some_and(|t| same(&t, name, &want))
        });
        if hit.is_some() {
            return (want, table(&k.screen()).unwrap());
        }
        if started.elapsed() > timeout {
            let got = table(&k.screen()).map(|t| drawn(&t, name, &want));
            panic!(
                "row {name}: the server's figures, computed by hand: {want:?}\nthe screen shows {got:?}\n{}",
                k.dump()
            );
        }
    }
}
