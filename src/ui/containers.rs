//! The containers view of one pod: a table of its init, sidecar and app containers with
//! their state and, while the pod's metrics poll has something to show, each container's own
//! usage (CPU, MEM, percentages of its own requests and limits, TREND), live from the pod's
//! watch and poll, laid out by value like the lists (cuts marked `…`, the least useful
//! columns dropped whole and named in the title) with the poll's state on the bottom border.
//! Read-only; must not compute a figure itself (`app::usage::containers` does).

use ratatui::layout::{Constraint, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Row, Table};
use ratatui::Frame;

use crate::app::containers::model::{cells, ContainersState};
use crate::app::usage::containers::{self, ContainerUsage};
use crate::app::usage::model::UsageSettings;
use crate::kube::capacity::ContainerDemand;
use crate::kube::logs::pods::{CState, ContainerInfo};
use crate::kube::metrics::{Series, Target};
use crate::kube::sanitize::sanitize;
use crate::view::columns::cut_of;
use crate::view::cut;

use super::fit_table::{lay_out, Col};
use super::theme::Theme;
use super::usage::{snapshot_state_line, sparkline, Fig, UsageView, TREND_CELLS};

/// The columns with their layout roles: NAME kept longest; IMAGE takes the free width and
/// is cut in the middle (its tag stays); STATE is the status; PORTS and AGE go first.
const COLS: [Col; 8] = [
    col("NAME", "NAME"),
    col("ROLE", "TYPE"),
    col("IMAGE", "MESSAGE"),
    col("READY", "READY"),
    col("STATE", "STATUS"),
    col("RESTARTS", "RESTARTS"),
    col("PORTS", "COUNT"),
    col("AGE", "AGE"),
];

/// Where the usage columns go: after RESTARTS.
const USAGE_AT: usize = 6;

/// The usage columns in order with their layout roles: CPU and MEM stay as long as STATE
/// (MEM goes first, then CPU, then STATE), before IMAGE; the percentages after PORTS and AGE
/// (the ports are what a port-forward needs), the requests' before the limits'; TREND first.
/// All but CPU also give way to a cut NAME or STATE (`fit_table::USAGE_HEADERS`).
const USAGE: [(Fig, &str); 7] = [
    (Fig::Cpu, "STATUS"),
    (Fig::Mem, "STATUS"),
    (Fig::CpuPct, "SOURCE"),
    (Fig::CpuLimitPct, "NODE"),
    (Fig::MemPct, "SOURCE"),
    (Fig::MemLimitPct, "NODE"),
    (Fig::Trend, "IP"),
];

const fn col(header: &'static str, role: &'static str) -> Col {
    Col {
        header,
        short: "",
        role,
    }
}

pub(super) fn draw(
    f: &mut Frame,
    area: Rect,
    c: &ContainersState,
    settings: &UsageSettings,
    theme: &Theme,
    now: i64,
) {
    let (pod, deleted) = c.pod();
    let mut title = format!(" containers of pod/{} ", sanitize(&c.name));
    if deleted {
        title.push_str("[deleted] ");
    }
    let Some(pod) = pod else {
        let msg = if deleted { "pod not found" } else { "loading…" };
        let block = ratatui::widgets::Block::bordered()
            .border_style(theme.border)
            .title(title);
        f.render_widget(Paragraph::new(Span::styled(msg, theme.warn)).block(block), area);
        return;
    };
    let created = pod.created.map(|t| t.as_second());
    let row_styles: Vec<_> = pod
        .containers
        .iter()
        .map(|ci| match &ci.state {
            CState::Running(_) if ci.ready => theme.ok,
            CState::Terminated { exit_code: 0, .. } => theme.dim,
            CState::Terminated { .. } => theme.error,
            CState::Waiting(r) if r.contains("BackOff") || r.contains("Err") => theme.error,
            _ => theme.warn,
        })
        .collect();
    let snap = c.usage.as_ref().map(|u| u.load());
    let view = snap.as_deref().and_then(|s| UsageView::of_pods(s, settings));
    let series = snap
        .as_deref()
        .and_then(|s| s.get(c.key.namespace.as_deref(), &c.name))
        .map(|s| &**s);
    let demands = if view.is_some() { c.demands() } else { Vec::new() };
    let mut cols = COLS.to_vec();
    if view.is_some() {
        let usage = USAGE
            .iter()
            .map(|&(fig, role)| col(fig.header(Target::Pods), role));
        cols.splice(USAGE_AT..USAGE_AT, usage);
    }
    let mut any_figures = false;
    let (body, styles): (Vec<Vec<String>>, Vec<Vec<Option<Style>>>) = pod
        .containers
        .iter()
        .map(|ci| {
            let mut texts: Vec<String> = cells(ci, created, now).into_iter().collect();
            let mut styles = vec![None; texts.len()];
            if let Some(view) = &view {
                let demand = demands.iter().find(|d| *d.name == *ci.name);
                let (t, s, figures) = usage_cells(view, series, ci, demand, theme);
                any_figures |= figures;
                texts.splice(USAGE_AT..USAGE_AT, t);
                styles.splice(USAGE_AT..USAGE_AT, s);
            }
            (texts, styles)
        })
        .unzip();
    let laid = lay_out(&cols, &body, usize::from(area.width.saturating_sub(2)));
    let room = usize::from(area.width.saturating_sub(4)).saturating_sub(crate::view::cut::width(&title));
    let title = format!("{title}{}", laid.hidden_note(room));
    let shown: Vec<(usize, usize)> = (0..cols.len())
        .filter(|i| !laid.hidden.contains(&cols[*i].header))
        .zip(laid.widths.iter().map(|w| match w {
            Constraint::Length(w) => usize::from(*w),
            _ => 0,
        }))
        .collect();
    let rows: Vec<Row> = body
        .iter()
        .zip(&styles)
        .zip(row_styles)
        .map(|((texts, styles), row_style)| {
            let cells: Vec<Line> = shown
                .iter()
                .map(|&(i, w)| {
                    let line = Line::from(cut::fit(&texts[i], w, cut_of(cols[i].role)).into_owned());
                    match styles[i] {
                        Some(s) => line.style(s),
                        None => line,
                    }
                })
                .collect();
            Row::new(cells).style(row_style)
        })
        .collect();
    let n = rows.len();
    let table = Table::new(rows, laid.widths).header(laid.header.style(theme.column));
    super::boxed_table(f, area, title, table, n, c.selected, theme);
    let any_stale = any_figures && series.zip(view.as_ref()).is_some_and(|(s, v)| v.stale(s));
    let line = snap
        .as_deref()
        .and_then(|s| snapshot_state_line(s, any_stale, theme, area.width));
    if let Some(line) = line.filter(|_| area.height >= 2 && area.width >= 2) {
        let border = Rect {
            x: area.x + 1,
            y: area.bottom() - 1,
            width: area.width - 2,
            height: 1,
        };
        f.render_widget(Paragraph::new(line), border);
    }
}

/// The usage cells of container `ci` in [`USAGE`] order, with their styles, and whether they
/// show figures: `-` when it is not running and in no sample, `no sample` when running but
/// not (yet) in one; stale values dimmed and marked `*` as in the pods list.
#[allow(clippy::type_complexity)]
fn usage_cells(
    view: &UsageView,
    series: Option<&Series>,
    ci: &ContainerInfo,
    demand: Option<&ContainerDemand>,
    theme: &Theme,
) -> (Vec<String>, Vec<Option<Style>>, bool) {
    let running = matches!(ci.state, CState::Running(_));
    let stale = series.is_some_and(|s| view.stale(s));
    let usage = containers::container_usage(series, &ci.name, running, demand);
    let (cells, shown): (Vec<(String, Option<Style>)>, bool) = match usage {
        ContainerUsage::Figures(figures) => {
            let cell = |fig: Fig| match (fig, series) {
                (Fig::Trend, Some(s)) => {
                    let values = containers::container_cpu(s, &ci.name, TREND_CELLS);
                    (sparkline(&values), stale.then_some(theme.dim))
                }
                _ => view.sample_cell(fig, &figures, None, stale, theme),
            };
            (USAGE.iter().map(|&(fig, _)| cell(fig)).collect(), true)
        }
        ContainerUsage::NoSample | ContainerUsage::NotRunning => {
            let word = if usage == ContainerUsage::NoSample {
                "no sample"
            } else {
                "-"
            };
            let cell = |fig: Fig| match fig {
                Fig::Cpu => (word.to_owned(), Some(theme.dim)),
                Fig::Mem if word == "-" => (word.to_owned(), Some(theme.dim)),
                _ => (String::new(), None),
            };
            (USAGE.iter().map(|&(fig, _)| cell(fig)).collect(), false)
        }
    };
    let (texts, styles) = cells.into_iter().unzip();
    (texts, styles, shown)
}
