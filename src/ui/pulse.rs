//! `:pulse`: a grid of tiles (one per kind: its counts in words, its informer's state as the
//! list header words it), the event rate (Warning and Normal per minute, as sparklines) and
//! the top restarting pods. Adapts to 60..250 columns: 8, 4, 2 or 1 tiles a row, each at
//! least [`TILE_MIN`](crate::app::pulse::model::TILE_MIN) wide, with two to four lines of counts as the height allows. Read-only over [`PulseState`]; must not count rows itself.

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
use ratatui::Frame;

use crate::app::pulse::model::{tiles_per_row, PulseState, Tile, TileView};
use crate::kube::row::UnixSecs;
use crate::kube::sanitize::sanitize;
use crate::kube::sync::SyncState;
use crate::table::format::age;
use crate::text::thousands;

use super::theme::Theme;

/// Lines of counts in a tile: at least two, up to four where the height allows (the event
/// rate and three restarting pods still fitting below).
const FACT_LINES: [u16; 3] = [4, 3, 2];

/// Minutes the event rate shows at most.
const RATE_MAX: usize = 120;

/// The header's second line: `pulse <namespace>` (`all namespaces`).
pub(super) fn header(p: &PulseState, theme: &Theme) -> Vec<Span<'static>> {
    let scope = match &p.namespace {
        Some(ns) => format!(" pulse of {}", sanitize(ns)),
        None => " pulse of all namespaces".to_owned(),
    };
    vec![
        Span::styled(scope, theme.value),
        Span::styled("  enter: the tile's list", theme.dim),
    ]
}

pub(super) fn draw(f: &mut Frame, area: Rect, p: &PulseState, theme: &Theme, now: UnixSecs) {
    let cols = tiles_per_row(usize::from(area.width));
    let rows = Tile::ALL.len().div_ceil(cols);
    let rows_h = rows as u16;
    let facts = FACT_LINES
        .into_iter()
        .find(|n| rows_h * (n + 1) + 3 + 4 <= area.height)
        .unwrap_or(2);
    let tile_h = facts + 1;
    let grid_h = (tile_h * rows_h).min(area.height);
    let rest = area.height - grid_h;
    let rate_h = if rest >= 3 { 3 } else { rest };
    let [grid, rate, restarts] = Layout::vertical([
        Constraint::Length(grid_h),
        Constraint::Length(rate_h),
        Constraint::Min(0),
    ])
    .areas(area);
    let row_areas = Layout::vertical(vec![Constraint::Length(tile_h); rows]).split(grid);
    for (r, row_area) in row_areas.iter().enumerate() {
        let cells = Layout::horizontal(vec![Constraint::Ratio(1, cols as u32); cols]).split(*row_area);
        for (c, cell) in cells.iter().enumerate() {
            let i = r * cols + c;
            let Some(&tile) = Tile::ALL.get(i) else { continue };
            let cell = Rect {
                width: cell.width.saturating_sub(1),
                ..*cell
            };
            draw_tile(f, cell, p, tile, i == p.selected, theme);
        }
    }
    if rate.height > 0 {
        draw_rate(f, rate, p, theme, now);
    }
    if restarts.height > 0 {
        draw_restarts(f, restarts, p, theme, now);
    }
}

/// The state as the list header shows it (icon and words), and its style.
fn state_words(state: &SyncState, theme: &Theme) -> (String, Style) {
    let style = match state {
        SyncState::Live => theme.ok,
        SyncState::Syncing { .. } | SyncState::Pending | SyncState::Stale { .. } => theme.warn,
        _ => theme.error,
    };
    let words = match state {
        SyncState::Live => super::header::icon(state).to_owned(),
        _ => format!("{} {}", super::header::icon(state), sanitize(&state.to_string())),
    };
    (words, style)
}

fn draw_tile(f: &mut Frame, area: Rect, p: &PulseState, tile: Tile, selected: bool, theme: &Theme) {
    let name_style = if selected { theme.selected } else { theme.label };
    let mut title = vec![Span::styled(format!(" {} ", tile.title()), name_style)];
    let view = p.tiles.get(&tile);
    let body: Vec<(String, Style)> = match view {
        None if p.sources.contains_key(&tile) => vec![("starting…".into(), theme.warn)],
        None => vec![("waiting for the client…".into(), theme.warn)],
        Some(v) => {
            let (words, style) = state_words(&v.state, theme);
            title.push(Span::styled(format!("{words} "), style));
            if v.listed {
                facts(tile, v, p, theme)
            } else if v.counts.total > 0 {
                vec![(
                    format!("{}… so far", thousands(v.counts.total as u64)),
                    theme.warn,
                )]
            } else {
                vec![(sanitize(&v.state.to_string()).into_owned(), style)]
            }
        }
    };
    let width = usize::from(area.width);
    let title = super::fit_line(Line::from(title), width);
    let block = Block::default()
        .borders(Borders::TOP)
        .border_style(if selected { theme.highlight } else { theme.border })
        .title(title);
    // One cell in from the edge, under the title's name.
    let inner = block.inner(area).inner(ratatui::layout::Margin::new(1, 0));
    f.render_widget(block, area);
    let lines = wrap_facts(&body, usize::from(inner.width), usize::from(inner.height), theme);
    f.render_widget(Paragraph::new(lines), inner);
}

/// What a listed tile says, most important first: the healthy share, then what is not
/// healthy (only what is there).
fn facts(tile: Tile, v: &TileView, p: &PulseState, theme: &Theme) -> Vec<(String, Style)> {
    let c = &v.counts;
    let n = |x: usize| thousands(x as u64);
    let share = |ok: usize, word: &str| {
        let style = if ok == c.total { theme.ok } else { theme.warn };
        (format!("{}/{} {word}", n(ok), n(c.total)), style)
    };
    let mut out = Vec::new();
    let mut more = |x: usize, word: &str, style: Style| {
        if x > 0 {
            out.push((format!("{} {word}", n(x)), style));
        }
    };
    let first = match tile {
        Tile::Pods => {
            let ok = c.ok + c.done;
            more(c.error, "failing", theme.error);
            more(c.warn, "pending/not ready", theme.warn);
            more(p.restarts.rising, "restarting ↑", theme.warn);
            more(c.done, "completed", theme.dim);
            share(ok, "ok")
        }
        Tile::Deployments | Tile::StatefulSets | Tile::DaemonSets => {
            more(c.warn + c.error, "not ready", theme.warn);
            share(c.ok, "ready")
        }
        Tile::Jobs => {
            more(c.ok, "running", theme.ok);
            more(c.error, "failed", theme.error);
            more(c.warn, "suspended/terminating", theme.warn);
            share(c.done + c.ok, "ok")
        }
        Tile::CronJobs => {
            more(c.warn, "suspended", theme.warn);
            share(c.ok, "scheduled")
        }
        Tile::Nodes => {
            more(c.error, "not ready", theme.error);
            more(c.warn, "cordoned", theme.warn);
            more(c.pressure[0], "memory pressure", theme.error);
            more(c.pressure[1], "disk pressure", theme.error);
            more(c.pressure[2], "PID pressure", theme.error);
            if c.pressure == [0; 3] {
                out.push(("no pressure".into(), theme.dim));
            }
            // A cordoned node is Ready (`Ready,SchedulingDisabled`, as `:nodes` shows it).
            share(c.ok + c.warn, "ready")
        }
        Tile::Events => {
            more(c.error, "Warning", theme.warn);
            more(c.ok, "Normal", theme.dim);
            (format!("{} events", n(c.total)), theme.value)
        }
    };
    out.insert(0, first);
    out
}

/// Facts in at most `height` lines of `width` cells, ` · ` between them; a fact that does
/// not fit where it would go starts the next line; one left over marks the last line `…`.
fn wrap_facts(facts: &[(String, Style)], width: usize, height: usize, theme: &Theme) -> Vec<Line<'static>> {
    let mut lines: Vec<Vec<Span<'static>>> = vec![Vec::new()];
    let mut used = 0usize;
    let mut cut = false;
    for (text, style) in facts {
        let w = crate::view::cut::width(text);
        if used > 0 && used + 3 + w > width {
            if lines.len() == height {
                cut = true;
                break;
            }
            lines.push(Vec::new());
            used = 0;
        }
        let last = lines.len() - 1;
        if used > 0 {
            lines[last].push(Span::styled(" · ", theme.dim));
            used += 3;
        }
        lines[last].push(Span::styled(text.clone(), *style));
        used += w;
    }
    if cut {
        if let Some(l) = lines.last_mut() {
            l.push(Span::styled(" …", theme.dim));
        }
    }
    lines
        .into_iter()
        .map(|spans| super::fit_line(Line::from(spans), width))
        .collect()
}

const BARS: [char; 8] = ['▁', '▂', '▃', '▄', '▅', '▆', '▇', '█'];

/// One series as bars scaled to its own busiest minute; a quiet minute is a blank.
fn bars(values: &[u32]) -> String {
    let max = values.iter().copied().max().unwrap_or(0).max(1) as usize;
    values
        .iter()
        .map(|&v| match v {
            0 => ' ',
            v => BARS[((v as usize * BARS.len()).div_ceil(max)).clamp(1, BARS.len()) - 1],
        })
        .collect()
}

fn draw_rate(f: &mut Frame, area: Rect, p: &PulseState, theme: &Theme, now: UnixSecs) {
    let width = usize::from(area.width);
    // `Warning ` before the bars, ` 12,345 in 120m` after.
    let minutes = width.saturating_sub(8 + 16).clamp(1, RATE_MAX);
    let title = format!(" event rate: occurrences per minute, last {minutes}m ");
    let block = Block::default()
        .borders(Borders::TOP)
        .border_style(theme.border)
        .title(super::fit_line(Line::styled(title, theme.label), width));
    let inner = block.inner(area);
    f.render_widget(block, area);
    let listed = p.tiles.get(&Tile::Events).filter(|v| v.listed);
    let lines = match listed {
        None => vec![Line::styled(" waiting for the events…", theme.warn)],
        Some(_) => {
            let series = p.events.series(now, minutes);
            let line = |label: &str, values: Vec<u32>, style: Style| {
                let sum: u64 = values.iter().map(|&v| u64::from(v)).sum();
                super::fit_line(
                    Line::from(vec![
                        Span::styled(format!("{label:<8}"), theme.label),
                        Span::styled(bars(&values), style),
                        Span::styled(format!(" {} in {minutes}m", thousands(sum)), theme.dim),
                    ]),
                    width,
                )
            };
            vec![
                line("Warning", series.iter().map(|s| s.1).collect(), theme.warn),
                line("Normal", series.iter().map(|s| s.0).collect(), theme.ok),
            ]
        }
    };
    f.render_widget(Paragraph::new(lines), inner);
}

fn draw_restarts(f: &mut Frame, area: Rect, p: &PulseState, theme: &Theme, now: UnixSecs) {
    let width = usize::from(area.width);
    let title = " top restarting pods (↑ restarts since this view opened) ";
    let block = Block::default()
        .borders(Borders::TOP)
        .border_style(theme.border)
        .title(super::fit_line(Line::styled(title, theme.label), width));
    let inner = block.inner(area);
    f.render_widget(block, area);
    let listed = p.tiles.get(&Tile::Pods).is_some_and(|v| v.listed);
    let top = &p.restarts.top;
    let lines: Vec<Line> = if !listed {
        vec![Line::styled(" waiting for the pods…", theme.warn)]
    } else if top.is_empty() {
        vec![Line::styled(" no pod has restarted", theme.dim)]
    } else {
        top.iter()
            .map(|r| {
                let rise = match r.rise {
                    0 => String::new(),
                    n => format!("↑{n}"),
                };
                let name = match (&r.namespace, p.namespace.is_none()) {
                    (Some(ns), true) => format!("{ns}/{}", r.name),
                    _ => r.name.to_string(),
                };
                let last = r
                    .last
                    .map(|t| format!("  ({} ago)", age(Some(t), now)))
                    .unwrap_or_default();
                super::fit_line(
                    Line::from(vec![
                        Span::styled(format!("{rise:>5} "), theme.warn),
                        Span::styled(format!("{:>6}  ", thousands(r.count as u64)), theme.value),
                        Span::styled(name, if r.rise > 0 { theme.warn } else { theme.value }),
                        Span::styled(last, theme.dim),
                    ]),
                    width,
                )
            })
            .collect()
    };
    f.render_widget(Paragraph::new(lines), inner);
}
