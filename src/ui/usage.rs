//! The resource usage columns of pods and nodes lists (issue 33): which columns a list with
//! metrics shows, each visible row's cells (text and colour: thresholds, stale values dimmed
//! with `*`), the per-row CPU sparkline, and the one state line on the list's bottom border
//! (fetching, not served, forbidden, stale since); the containers view draws its usage cells
//! and state line with the same functions. Reads the metrics snapshot the list's cache holds
//! for this frame; must not change state, poll or compute a figure itself
//! (`app::usage::compute` does).

use ratatui::style::Style;
use ratatui::text::{Line, Span};
use tokio::time::Instant;

use crate::app::list::model::{ListState, SortBy, UsageCol};
use crate::app::usage::compute::{self, Figures, Percent};
use crate::app::usage::model::{target_of, UsageSettings};
use crate::kube::metrics::{MetricsSnapshot, MetricsState, Series, Target};
use crate::kube::row::Row;
use crate::view::cut;

use super::theme::Theme;

/// One usage column (see `app::usage::compute` for each figure).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Fig {
    /// CPU: usage, millicores.
    Cpu,
    /// MEM: usage, MiB.
    Mem,
    /// %CPU/R (nodes: %CPU of allocatable).
    CpuPct,
    /// %CPU/L.
    CpuLimitPct,
    /// %MEM/R (nodes: %MEM of allocatable).
    MemPct,
    /// %MEM/L.
    MemLimitPct,
    /// Wide: CPU/R, Σ `resources.requests.cpu`.
    CpuRequest,
    /// Wide: CPU/L, Σ `resources.limits.cpu`.
    CpuLimit,
    /// Wide: MEM/R, Σ `resources.requests.memory`.
    MemRequest,
    /// Wide: MEM/L, Σ `resources.limits.memory`.
    MemLimit,
    /// Wide, nodes: CPU/A, `status.allocatable.cpu`.
    CpuAlloc,
    /// Wide, nodes: MEM/A, `status.allocatable.memory`.
    MemAlloc,
    /// TREND: the CPU sparkline.
    Trend,
}

/// Pods: CPU MEM %CPU/R %CPU/L %MEM/R %MEM/L, wide CPU/R CPU/L MEM/R MEM/L, then TREND.
const POD_COLS: [Fig; 11] = [
    Fig::Cpu,
    Fig::Mem,
    Fig::CpuPct,
    Fig::CpuLimitPct,
    Fig::MemPct,
    Fig::MemLimitPct,
    Fig::CpuRequest,
    Fig::CpuLimit,
    Fig::MemRequest,
    Fig::MemLimit,
    Fig::Trend,
];

/// Nodes: CPU %CPU MEM %MEM, wide CPU/A MEM/A, then TREND.
const NODE_COLS: [Fig; 7] = [
    Fig::Cpu,
    Fig::CpuPct,
    Fig::Mem,
    Fig::MemPct,
    Fig::CpuAlloc,
    Fig::MemAlloc,
    Fig::Trend,
];

/// The sparkline's glyphs, lowest first.
const BARS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

/// Samples the TREND column draws (one cell each, the newest).
pub(super) const TREND_CELLS: usize = 8;

/// The legend of the stale mark.
const LEGEND: &str = "* = older than 2 intervals";

impl Fig {
    /// The column's header in a list of `target`.
    pub(super) fn header(self, target: Target) -> &'static str {
        let node = target == Target::Nodes;
        match self {
            Fig::Cpu => "CPU",
            Fig::Mem => "MEM",
            Fig::CpuPct if node => "%CPU",
            Fig::CpuPct => "%CPU/R",
            Fig::MemPct if node => "%MEM",
            Fig::MemPct => "%MEM/R",
            Fig::CpuLimitPct => "%CPU/L",
            Fig::MemLimitPct => "%MEM/L",
            Fig::CpuRequest => "CPU/R",
            Fig::CpuLimit => "CPU/L",
            Fig::MemRequest => "MEM/R",
            Fig::MemLimit => "MEM/L",
            Fig::CpuAlloc => "CPU/A",
            Fig::MemAlloc => "MEM/A",
            Fig::Trend => "TREND",
        }
    }

    /// Shown only in the wide view.
    pub(super) fn wide(self) -> bool {
        matches!(
            self,
            Fig::CpuRequest | Fig::CpuLimit | Fig::MemRequest | Fig::MemLimit | Fig::CpuAlloc | Fig::MemAlloc
        )
    }

    /// The column's drop rank on a narrow terminal (lower goes first; see
    /// `view::columns::ColumnIn::rank`). Pods: after the kind's own first-to-go columns
    /// (READINESS GATES … RESTARTS, ranked 0–5), TREND and the limit columns first, CPU last;
    /// all before READY and STATUS. Nodes: after AGE, ROLES and VERSION, before STATUS.
    pub(super) fn rank(self, target: Target) -> u8 {
        let base = if target == Target::Nodes { 51 } else { 10 };
        base + match self {
            Fig::Trend => 0,
            Fig::CpuLimitPct | Fig::MemLimitPct | Fig::CpuLimit | Fig::MemLimit => 1,
            Fig::CpuRequest | Fig::MemRequest | Fig::CpuAlloc | Fig::MemAlloc => 2,
            Fig::MemPct => 3,
            Fig::CpuPct => 4,
            Fig::Mem => 5,
            Fig::Cpu => 6,
        }
    }

    /// The sort this column heads.
    fn sort(self) -> Option<UsageCol> {
        Some(match self {
            Fig::Cpu => UsageCol::Cpu,
            Fig::Mem => UsageCol::Mem,
            Fig::CpuPct => UsageCol::CpuPct,
            Fig::MemPct => UsageCol::MemPct,
            Fig::CpuLimitPct => UsageCol::CpuLimitPct,
            Fig::MemLimitPct => UsageCol::MemLimitPct,
            _ => return None,
        })
    }

    /// True when this column heads the list's sort.
    pub(super) fn sorted(self, l: &ListState) -> bool {
        matches!(l.sort, SortBy::Usage(c) if self.sort() == Some(c))
    }
}

/// What a pods or nodes list shows of its metrics in this frame.
pub(super) struct UsageView<'a> {
    target: Target,
    snap: &'a MetricsSnapshot,
    settings: &'a UsageSettings,
    now: Instant,
}

impl<'a> UsageView<'a> {
    /// The usage columns of `l`, if it shows them: a pods or nodes list with a metrics
    /// source whose snapshot has something to show (see `compute::shows_columns`).
    pub(super) fn of(l: &'a ListState, settings: &'a UsageSettings) -> Option<UsageView<'a>> {
        l.usage.as_ref()?;
        let target = target_of(l.kind())?;
        let snap = l.cache.metrics()?;
        compute::shows_columns(snap).then(|| UsageView {
            target,
            snap,
            settings,
            now: Instant::now(),
        })
    }

    /// The usage columns of a view of one pod's containers with `snap` (a PodMetrics poll),
    /// if it has something to show (see `compute::shows_columns`).
    pub(super) fn of_pods(snap: &'a MetricsSnapshot, settings: &'a UsageSettings) -> Option<UsageView<'a>> {
        compute::shows_columns(snap).then(|| UsageView {
            target: Target::Pods,
            snap,
            settings,
            now: Instant::now(),
        })
    }

    /// The list's target (pods or nodes).
    pub(super) fn target(&self) -> Target {
        self.target
    }

    /// The columns in order, the wide ones only when `wide`.
    pub(super) fn cols(&self, wide: bool) -> Vec<Fig> {
        let all: &[Fig] = match self.target {
            Target::Pods => &POD_COLS,
            Target::Nodes => &NODE_COLS,
        };
        all.iter().copied().filter(|f| wide || !f.wide()).collect()
    }

    /// The series of `row`, if its object was in the last list.
    fn series(&self, row: &Row) -> Option<&'a Series> {
        self.snap.get(row.namespace.as_deref(), &row.name).map(|s| &**s)
    }

    /// True when `row`'s values are not current: its object was missing from the polls of
    /// the last two intervals, or the poll itself failed or stalled.
    pub(super) fn stale(&self, series: &Series) -> bool {
        series.is_stale(self.now) || self.snap.is_stale(self.now)
    }

    /// True when any of `rows` shows stale values (the legend is then due).
    fn any_stale(&self, rows: &[std::sync::Arc<Row>]) -> bool {
        rows.iter()
            .filter_map(|r| self.series(r))
            .any(|s| !s.is_empty() && self.stale(s))
    }

    /// The cells of `row` in `cols`: text and, where it carries meaning, a style.
    pub(super) fn cells(&self, row: &Row, cols: &[Fig], theme: &Theme) -> Vec<(String, Option<Style>)> {
        let series = self.series(row);
        let figures = series.and_then(|s| compute::figures(s, row.capacity.as_deref()));
        let stale = series.is_some_and(|s| self.stale(s));
        let capacity = row.capacity.as_deref();
        let demands = compute::demands(capacity);
        let alloc = compute::allocatable(capacity);
        let or_na = |v: Option<u64>, text: fn(u64) -> String| v.map_or_else(|| "n/a".to_owned(), text);
        cols.iter()
            .map(|&fig| match fig {
                Fig::CpuRequest => (or_na(demands.cpu_request, compute::cpu_text), None),
                Fig::CpuLimit => (or_na(demands.cpu_limit, compute::cpu_text), None),
                Fig::MemRequest => (or_na(demands.memory_request, compute::memory_text), None),
                Fig::MemLimit => (or_na(demands.memory_limit, compute::memory_text), None),
                Fig::CpuAlloc => (or_na(alloc.0, compute::cpu_text), None),
                Fig::MemAlloc => (or_na(alloc.1, compute::memory_text), None),
                _ => match &figures {
                    None if fig == Fig::Cpu => ("no sample".to_owned(), Some(theme.dim)),
                    None => (String::new(), None),
                    Some(f) => self.sample_cell(fig, f, series, stale, theme),
                },
            })
            .collect()
    }

    /// A cell computed from the latest sample: `*` and dimmed when stale (TREND only with
    /// `series`).
    pub(super) fn sample_cell(
        &self,
        fig: Fig,
        f: &Figures,
        series: Option<&Series>,
        stale: bool,
        theme: &Theme,
    ) -> (String, Option<Style>) {
        let mark = |s: String| if stale { format!("{s}*") } else { s };
        let dim = stale.then_some(theme.dim);
        let pct = |p: Option<Percent>| match p {
            None => ("n/a".to_owned(), None),
            Some(p) => (
                mark(compute::percent_text(Some(p))),
                dim.or(self.threshold(p, theme)),
            ),
        };
        match fig {
            Fig::Cpu => (mark(compute::cpu_text(f.cpu_nanos)), dim),
            Fig::Mem => (mark(compute::memory_text(f.memory_bytes)), dim),
            Fig::CpuPct => pct(f.cpu),
            Fig::MemPct => pct(f.memory),
            Fig::CpuLimitPct => pct(f.cpu_limit),
            Fig::MemLimitPct => pct(f.memory_limit),
            Fig::Trend => (series.map(trend).unwrap_or_default(), dim),
            _ => (String::new(), None),
        }
    }

    /// The error style at or past `[metrics] critical`, the warning style at or past `warn`.
    fn threshold(&self, p: Percent, theme: &Theme) -> Option<Style> {
        if p.whole >= u64::from(self.settings.critical_percent) {
            Some(theme.error)
        } else if p.whole >= u64::from(self.settings.warn_percent) {
            Some(theme.warn)
        } else {
            None
        }
    }
}

/// The newest [`TREND_CELLS`] samples' CPU as a sparkline, scaled to their own maximum
/// (a flat or idle row draws `▁`s).
pub(super) fn trend(series: &Series) -> String {
    let n = series.len();
    let values: Vec<u64> = series
        .samples()
        .skip(n.saturating_sub(TREND_CELLS))
        .map(|s| s.usage.cpu_nanos)
        .collect();
    sparkline(&values)
}

/// `values` (CPU in nanocores, oldest first) as one `▁`…`█` each, scaled to their own
/// maximum (all `▁` when it is 0).
pub(super) fn sparkline(values: &[u64]) -> String {
    let max = values.iter().copied().max().unwrap_or(0);
    values
        .iter()
        .map(|&v| {
            let level = match max {
                0 => 0,
                _ => (u128::from(v) * 8).div_ceil(u128::from(max)).clamp(1, 8) as usize - 1,
            };
            BARS[level]
        })
        .collect()
}

/// The line on the list's bottom border saying how its metrics stand, cut to `width` cells
/// (the border's): nothing for a list without metrics, or when all is current.
pub(super) fn state_line(
    l: &ListState,
    rows: &[std::sync::Arc<Row>],
    settings: &UsageSettings,
    theme: &Theme,
    width: u16,
) -> Option<Line<'static>> {
    l.usage.as_ref()?;
    target_of(l.kind())?;
    let snap = l.cache.metrics()?;
    let any_stale = UsageView::of(l, settings).is_some_and(|u| u.any_stale(rows));
    snapshot_state_line(snap, any_stale, theme, width)
}

/// The state line of `snap` (see [`state_line`]) for a view that knows whether it shows a
/// stale value (`any_stale`): the containers view of one pod.
pub(super) fn snapshot_state_line(
    snap: &MetricsSnapshot,
    any_stale: bool,
    theme: &Theme,
    width: u16,
) -> Option<Line<'static>> {
    let (text, style) = state_text(snap, Instant::now(), any_stale, theme)?;
    let text = crate::kube::sanitize::sanitize(&text).into_owned();
    let room = usize::from(width.saturating_sub(2));
    Some(Line::from(Span::styled(
        cut::fit(&text, room, cut::Cut::End).into_owned(),
        style,
    )))
}

/// The state line's text and style (see [`state_line`]).
fn state_text(
    snap: &MetricsSnapshot,
    now: Instant,
    any_stale: bool,
    theme: &Theme,
) -> Option<(String, Style)> {
    let since = || {
        snap.ok_at.map_or_else(String::new, |t| {
            let secs = i64::try_from(now.saturating_duration_since(t).as_secs()).unwrap_or(i64::MAX);
            format!(" since {}", crate::table::format::human_duration(secs))
        })
    };
    Some(match &snap.state {
        MetricsState::Fetching => (" metrics: fetching… ".to_owned(), theme.dim),
        MetricsState::NotServed(_) => (format!(" metrics: {} ", snap.state), theme.warn),
        MetricsState::Forbidden(words) => (format!(" metrics: {words} "), theme.error),
        MetricsState::Error(e) if compute::shows_columns(snap) => {
            (format!(" metrics: stale{}: {e} · {LEGEND} ", since()), theme.warn)
        }
        MetricsState::Error(e) => (format!(" metrics: {e} "), theme.error),
        MetricsState::Ok if snap.is_stale(now) => {
            (format!(" metrics: stale{} · {LEGEND} ", since()), theme.warn)
        }
        MetricsState::Ok if any_stale => (format!(" {LEGEND} "), theme.dim),
        MetricsState::Ok => return None,
    })
}

#[cfg(test)]
mod tests;
