//! The xray view: the tree's visible lines — indentation, `▸`/`▾` on lines that expand,
//! `kind/name`, and a state column coloured by the object's health (a missing reference in
//! the error colour, `not found`) — inside a box titled with the roots and the informers
//! still listing. Read-only over `XrayState`; must not build the tree (the app does).

use ratatui::layout::Rect;
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Paragraph};
use ratatui::Frame;

use crate::app::xray::model::{label, Node, XrayState};
use crate::kube::sanitize::sanitize;
use crate::view::cut;

use super::theme::Theme;

/// The header's words for an xray view.
pub fn header(x: &XrayState, theme: &Theme) -> Vec<Span<'static>> {
    vec![Span::styled(format!(" xray {}", title(x)), theme.value)]
}

/// `deployments in demo`, `deployment/web in demo`, `nodes`.
fn title(x: &XrayState) -> String {
    let what = match &x.root.only {
        Some(name) => format!("{}/{}", x.root.kind.info().singular, sanitize(name)),
        None => x.root.kind.info().plural.to_owned(),
    };
    match (&x.root.namespace, x.root.kind.info().namespaced) {
        (Some(ns), true) => format!("{what} in {}", sanitize(ns)),
        (None, true) => format!("{what} in all namespaces"),
        _ => what,
    }
}

/// The text of a line before its state: indentation, marker, `kind/name` — a top line of a
/// tree over all namespaces with its namespace first (`[shop] deployment/web`), as `-A`
/// lists put NAMESPACE first.
fn tree_text(n: &Node, all_namespaces: bool) -> String {
    let marker = match (n.expandable, n.expanded) {
        (true, true) => "▾",
        (true, false) => "▸",
        _ => "·",
    };
    let ns = match (&n.namespace, all_namespaces && n.depth == 0) {
        (Some(ns), true) => format!("[{}] ", sanitize(ns)),
        _ => String::new(),
    };
    format!(
        "{}{marker} {ns}{}/{}",
        "  ".repeat(n.depth),
        label(n.what),
        sanitize(&n.name)
    )
}

/// Draws the visible lines of `x` into `area`.
pub fn draw(f: &mut Frame, area: Rect, x: &XrayState, theme: &Theme) {
    let mut title = format!(" xray: {} [{}] ", title(x), x.lines.len());
    if !x.pending.is_empty() {
        title.push_str(&format!("listing {}… ", x.pending.join(", ")));
    }
    if !x.denied.is_empty() {
        title.push_str(&format!("forbidden: {} ", x.denied.join(", ")));
    }
    let block = Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border)
        .title(Span::styled(title, theme.value));
    let inner = block.inner(area);
    f.render_widget(block, area);
    let page = usize::from(inner.height);
    if x.lines.is_empty() {
        let msg = match x.pending.is_empty() {
            true => "nothing to show",
            false => "listing…",
        };
        f.render_widget(Paragraph::new(Span::styled(msg, theme.dim)), inner);
        return;
    }
    let visible: Vec<(usize, &Node)> = x.lines.iter().enumerate().skip(x.offset).take(page).collect();
    let width = usize::from(inner.width);
    // The state column starts after the longest visible tree text, leaving it room.
    let texts: Vec<String> = visible
        .iter()
        .map(|(_, n)| tree_text(n, x.root.namespace.is_none()))
        .collect();
    let col = texts.iter().map(|t| cut::width(t)).max().unwrap_or(0) + 2;
    let col = col.min(width.saturating_mul(2) / 3);
    let lines: Vec<Line> = visible
        .iter()
        .zip(texts)
        .map(|((i, n), text)| {
            let selected = *i == x.selected;
            let text = cut::fit(&text, col.saturating_sub(1), cut::Cut::Middle).into_owned();
            let pad = col.saturating_sub(cut::width(&text));
            let state = sanitize(&n.status).into_owned();
            let health = theme.health(n.health);
            let name_style = if n.missing { theme.error } else { Style::default() };
            let mut spans = vec![
                Span::styled(text, name_style),
                Span::raw(" ".repeat(pad)),
                Span::styled(state, health),
            ];
            if selected {
                spans = spans.into_iter().map(|s| s.patch_style(theme.selected)).collect();
                let used: usize = spans.iter().map(|s| cut::width(&s.content)).sum();
                spans.push(Span::styled(
                    " ".repeat(width.saturating_sub(used)),
                    theme.selected,
                ));
            }
            Line::from(spans)
        })
        .collect();
    f.render_widget(Paragraph::new(lines), inner);
}
