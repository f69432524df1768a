//! `:informers`: one row per running informer with its live counters, so users (and tests)
//! can watch bookmarks, relists and reconnects happen. The rows come from the loop (it reads
//! the pool); drawing never touches the pool.

use ratatui::layout::Rect;
use ratatui::widgets::Table;
use ratatui::Frame;

use crate::kube::pool::InformerInfo;
use crate::text::thousands;

use super::theme::Theme;

use super::fit_table::{lay_out, Col};

/// The columns, each with the list column whose layout role it takes: KEY is the row's
/// identity, STATE the flexible column (it may carry an undecodable object's note, or why the
/// list was paged), LIST how the last complete list was fetched and encoded (`paged protobuf`,
/// `streamed json`), and on
/// a narrow terminal RESOURCE VERSION is headed RV, then STOPS IN, LIST, SUBS and BOOKMARK go
/// first, then RELISTS and RECONNECTS.
const COLS: [Col; 11] = [
    Col {
        header: "KEY",
        short: "",
        role: "NAME",
    },
    Col {
        header: "STATE",
        short: "",
        role: "MESSAGE",
    },
    Col {
        header: "LIST",
        short: "",
        role: "AGE",
    },
    Col {
        header: "RESOURCE VERSION",
        short: "RV",
        role: "RESTARTS",
    },
    Col {
        header: "BOOKMARK",
        short: "",
        role: "COUNT",
    },
    Col {
        header: "RELISTS",
        short: "",
        role: "RELISTS",
    },
    Col {
        header: "RECONNECTS",
        short: "",
        role: "RECONNECTS",
    },
    Col {
        header: "EVENTS",
        short: "",
        role: "TYPE",
    },
    Col {
        header: "OBJECTS",
        short: "",
        role: "READY",
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

/// `names`: inside a union, each member's origin and (sanitized) context, which prefixes its
/// informers' keys (`prod-eu/pods@*`).
pub(super) fn draw(
    f: &mut Frame,
    area: Rect,
    infos: &[InformerInfo],
    names: &[(u16, std::sync::Arc<str>)],
    selected: usize,
    theme: &Theme,
) {
    let cells: Vec<Vec<String>> = infos
        .iter()
        .map(|i| {
            let s = &i.stats;
            let key = crate::kube::sanitize::sanitize(&i.key.to_string()).into_owned();
            let key = match names.iter().find(|(o, _)| *o == i.origin) {
                Some((_, ctx)) => format!("{ctx}/{key}"),
                None => key,
            };
            vec![
                key,
                state_cell(i),
                s.last_list
                    .as_ref()
                    .map_or_else(|| "-".into(), |l| format!("{} {}", l.method, l.encoding)),
                crate::kube::sanitize::sanitize(s.resource_version.as_deref().unwrap_or("-")).into_owned(),
                s.last_bookmark
                    .map_or_else(|| "never".into(), |t| format!("{}s ago", t.elapsed().as_secs())),
                s.lists.saturating_sub(1).to_string(),
                s.reconnects.to_string(),
                thousands(s.events),
                thousands(s.objects),
                i.subscribers.to_string(),
                i.stops_in
                    .map_or_else(|| "-".into(), |d| format!("{}s", d.as_secs())),
            ]
        })
        .collect();
    let laid = lay_out(&COLS, &cells, usize::from(area.width.saturating_sub(2)));
    let head = format!(" informers[{}] ", infos.len());
    let room = usize::from(area.width.saturating_sub(4)).saturating_sub(head.len());
    let title = format!("{head}{}", laid.hidden_note(room));
    let n = infos.len();
    let table = Table::new(laid.rows, laid.widths).header(laid.header.style(theme.column));
    super::boxed_table(f, area, title, table, n, selected, theme)
}

/// The STATE cell: the sync state, then why the last list was paged where the context
/// streams, what could not be read and the last drift repair (`live; drift repaired 2m ago:
/// 37 removed, 3 added, 0 changed`).
fn state_cell(i: &InformerInfo) -> String {
    let mut cell = i.stats.state.to_string();
    if let Some(why) = i.stats.last_list.as_ref().and_then(|l| l.fallback.as_deref()) {
        cell.push_str("; paged: ");
        cell.push_str(&crate::kube::sanitize::sanitize(why));
    }
    if let Some(u) = &i.unreadable {
        cell.push_str("; ");
        cell.push_str(&crate::kube::sanitize::sanitize(u));
    }
    if let Some((at, line)) = &i.stats.last_drift {
        let ago = crate::kube::sync::silence(at.elapsed());
        let line = crate::kube::sanitize::sanitize(line);
        let rest = line.strip_prefix("drift repaired: ").unwrap_or(&line);
        // The cause (`(resourceVersion went back from … in a probe)`) is in the log.
        let rest = rest.split(" (").next().unwrap_or(rest);
        cell.push_str(&format!("; drift repaired {ago} ago: {rest}"));
    }
    cell
}
