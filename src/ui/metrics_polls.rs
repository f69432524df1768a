//! The metrics polls under `:informers`: one row per running `metrics.k8s.io` poll (its key,
//! state, last fetch and error, objects and samples held, subscribers), read by the loop from
//! the context's metrics pool. Must not read the pool itself.

use ratatui::layout::Rect;
use ratatui::widgets::{Block, Borders, Table};
use ratatui::Frame;

use crate::kube::metrics::{MetricsInfo, MetricsKey, Target};
use crate::text::thousands;

use super::fit_table::{lay_out, Col};
use super::theme::Theme;

/// KEY is the row's identity, STATE and LAST ERROR take the free width; on a narrow terminal
/// STOPS IN, SUBS and SAMPLES go first.
const COLS: [Col; 8] = [
    Col {
        header: "KEY",
        short: "",
        role: "NAME",
    },
    Col {
        header: "STATE",
        short: "",
        role: "STATUS",
    },
    Col {
        header: "FETCHED",
        short: "",
        role: "RESTARTS",
    },
    Col {
        header: "LAST ERROR",
        short: "",
        role: "MESSAGE",
    },
    Col {
        header: "OBJECTS",
        short: "",
        role: "READY",
    },
    Col {
        header: "SAMPLES",
        short: "",
        role: "COUNT",
    },
    Col {
        header: "SUBS",
        short: "",
        role: "SOURCE",
    },
    Col {
        header: "STOPS IN",
        short: "",
        role: "AGE",
    },
];

/// Rows the polls' box takes below the informers (its rows, header and borders), at most
/// half of `area`; `(informers, polls)`, the second empty when nothing polls.
pub(super) fn split(area: Rect, polls: &[MetricsInfo]) -> (Rect, Rect) {
    if polls.is_empty() || area.height < 8 {
        return (area, Rect { height: 0, ..area });
    }
    let want = u16::try_from(polls.len()).unwrap_or(u16::MAX).saturating_add(3);
    let h = want.min(area.height / 2);
    let top = Rect {
        height: area.height - h,
        ..area
    };
    let below = Rect {
        y: area.y + top.height,
        height: h,
        ..area
    };
    (top, below)
}

/// `pods.metrics.k8s.io` with `/namespace` or `(all)`; `nodes.metrics.k8s.io`.
fn key_cell(key: &MetricsKey) -> String {
    match (key.target, &key.namespace) {
        (Target::Nodes, _) => "nodes.metrics.k8s.io".into(),
        (Target::Pods, None) => "pods.metrics.k8s.io (all)".into(),
        (Target::Pods, Some(ns)) => format!("pods.metrics.k8s.io/{}", crate::kube::sanitize::sanitize(ns)),
    }
}

/// A poll's duration: `340ms` below 10 s, else `12.3s`.
fn took_text(d: std::time::Duration) -> String {
    if d.as_millis() < 10_000 {
        format!("{}ms", d.as_millis())
    } else {
        format!("{:.1}s", d.as_secs_f64())
    }
}

pub(super) fn draw(f: &mut Frame, area: Rect, polls: &[MetricsInfo], theme: &Theme) {
    if area.height == 0 {
        return;
    }
    let cells: Vec<Vec<String>> = polls
        .iter()
        .map(|p| {
            vec![
                key_cell(&p.key),
                crate::kube::sanitize::sanitize(&p.state.to_string()).into_owned(),
                match (p.fetched_at, p.took) {
                    (Some(t), Some(took)) => {
                        format!("{}s ago in {}", t.elapsed().as_secs(), took_text(took))
                    }
                    (Some(t), None) => format!("{}s ago", t.elapsed().as_secs()),
                    (None, _) => "never".into(),
                },
                // The failure in force is the STATE already; an older one (recovered) is news.
                match p.last_error.as_deref() {
                    Some(e) if e != p.state.to_string() => crate::kube::sanitize::sanitize(e).into_owned(),
                    _ => "-".into(),
                },
                thousands(p.objects as u64),
                thousands(p.samples as u64),
                p.subscribers.to_string(),
                p.stops_in
                    .map_or_else(|| "-".into(), |d| format!("{}s", d.as_secs())),
            ]
        })
        .collect();
    let laid = lay_out(&COLS, &cells, usize::from(area.width.saturating_sub(2)));
    let head = format!(" metrics polls[{}] ", polls.len());
    let room = usize::from(area.width.saturating_sub(4)).saturating_sub(head.len());
    let title = format!("{head}{}", laid.hidden_note(room));
    // Not selectable: the selection stays in the informers above.
    let table = Table::new(laid.rows, laid.widths)
        .header(laid.header.style(theme.column))
        .column_spacing(super::fit_table::GAP as u16)
        .block(
            Block::default()
                .borders(Borders::ALL)
                .border_style(theme.border)
                .title(super::title_in(&title, area.width)),
        );
    f.render_widget(table, area);
}
