//! Drawing: read-only over [`UiState`], snapshots and the theme. Owns layout; must not change
//! state or wait on anything.

mod api_resources;
mod contexts;
mod header;
mod help;
mod informers;
mod list;
pub mod theme;
pub mod timeline;
mod yaml;

use std::time::Duration;

use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::Frame;

use crate::app::state::{Prompt, Screen, UiState};
use crate::kube::pool::InformerPool;
use crate::kube::row::UnixSecs;
use crate::kube::sanitize::sanitize;

use theme::Theme;

/// Draws one frame; returns how many table rows fit (the page size for paging keys).
pub fn draw(f: &mut Frame, state: &UiState, pool: Option<&InformerPool>, now: UnixSecs) -> usize {
    let theme = state.theme;
    let [head, body, foot] =
        Layout::vertical([Constraint::Length(2), Constraint::Min(3), Constraint::Length(1)]).areas(f.area());
    header::draw(f, head, state, &theme);
    let page = match state.top() {
        Screen::List(l) => list::draw(f, body, state, l, &theme, now),
        Screen::Informers { selected } => informers::draw(f, body, pool, *selected, &theme),
        Screen::Contexts { selected } => contexts::draw(f, body, state, *selected, &theme),
        Screen::ApiResources { selected, filter } => {
            api_resources::draw(f, body, state, (*selected, filter), &theme)
        }
        Screen::Yaml(y) => yaml::draw(f, body, y, &theme),
    };
    footer(f, foot, state, &theme);
    if state.help {
        help::draw(f, f.area(), state, &theme);
    }
    if let (Some(row), Some(l)) = (&state.detail, state.top_list()) {
        let spec = crate::table::spec(&l.key.kind);
        let headers: Vec<&str> = spec.columns.iter().map(|c| c.header.as_ref()).collect();
        timeline::detail(f, f.area(), row, &headers, now, &theme);
    }
    page
}

/// A bordered, titled table (its header already set) with a highlighted selection — the
/// `:ctx` and `:informers` screens; returns the rows that fit.
pub(crate) fn boxed_table(
    f: &mut Frame,
    area: Rect,
    title: String,
    table: ratatui::widgets::Table<'_>,
    len: usize,
    selected: usize,
    theme: &Theme,
) -> usize {
    use ratatui::widgets::{Block, Borders, TableState};
    let table = table
        .block(
            Block::default()
                .borders(Borders::ALL)
                .border_style(theme.border)
                .title(title),
        )
        .row_highlight_style(theme.selected);
    let mut ts = TableState::default().with_selected(Some(selected.min(len.saturating_sub(1))));
    f.render_stateful_widget(table, area, &mut ts);
    area.height.saturating_sub(3) as usize
}

/// A `width`×`height` rectangle centred in `area` (clipped to it), for overlays.
pub(crate) fn centered(area: Rect, width: u16, height: u16) -> Rect {
    let (w, h) = (width.min(area.width), height.min(area.height));
    Rect {
        x: area.x + (area.width - w) / 2,
        y: area.y + (area.height - h) / 2,
        width: w,
        height: h,
    }
}

/// How soon the screen must be redrawn with no event (relative ages change): 1 s while a
/// visible age is under 10 minutes or counters are shown, else 15 s.
pub fn refresh_interval(state: &UiState, now: UnixSecs) -> Duration {
    match state.top() {
        Screen::Informers { .. } => Duration::from_secs(1),
        Screen::Contexts { .. } | Screen::ApiResources { .. } | Screen::Yaml(_) => Duration::from_secs(60),
        Screen::List(l) => {
            let youngest = l.cache.visible_youngest(l.offset, state.page_rows);
            match youngest {
                Some(t) if now - t < 600 => Duration::from_secs(1),
                _ => Duration::from_secs(15),
            }
        }
    }
}

fn footer(f: &mut Frame, area: Rect, state: &UiState, theme: &Theme) {
    let line = match &state.prompt {
        Some(Prompt::Command(s)) => {
            let mut spans = vec![
                Span::styled(":", theme.label),
                Span::raw(s.clone()),
                Span::raw("█"),
            ];
            // `tab` completion's candidates, after what is typed.
            if let Some(m) = &state.message {
                spans.push(Span::styled(format!("   {}", sanitize(m)), theme.dim));
            }
            Line::from(spans)
        }
        Some(Prompt::Filter(s)) => {
            let mut spans = vec![
                Span::styled("/", theme.label),
                Span::raw(s.clone()),
                Span::raw("█"),
            ];
            // The YAML search says when nothing matches.
            if let Some(m) = &state.message {
                spans.push(Span::styled(format!("   {}", sanitize(m)), theme.dim));
            }
            Line::from(spans)
        }
        Some(Prompt::Confirm(q)) => Line::from(Span::styled(q.clone(), theme.warn)),
        None => {
            if let Some(m) = &state.message {
                let style = if state.info { theme.value } else { theme.error };
                Line::from(Span::styled(sanitize(m).into_owned(), style))
            } else if let Some(err) = state.top_list().and_then(|l| l.filter_error.clone()) {
                Line::from(Span::styled(format!("filter: {err}"), theme.error))
            } else {
                hints(state, theme)
            }
        }
    };
    f.render_widget(line, area);
}

/// Footer hints, generated from the keymap (first binding of the most useful actions).
fn hints(state: &UiState, theme: &Theme) -> Line<'static> {
    use crate::keys::Action;
    use crate::keys::KeyMode;
    let wanted = [
        Action::CommandMode,
        Action::FilterMode,
        Action::Help,
        Action::Enter,
        Action::Back,
        Action::ToggleWarnings,
        Action::Yaml,
        Action::Describe,
        Action::ObjectEvents,
        Action::JumpOwner,
        Action::ToggleManaged,
        Action::Reveal,
        Action::Save,
        Action::Quit,
    ];
    // Words for actions whose help text does not start with one.
    let word = |a: Action| match a {
        Action::Yaml => Some("yaml"),
        Action::JumpOwner => Some("owner"),
        Action::ToggleManaged => Some("managed"),
        Action::Reveal => Some("decode"),
        Action::Back if !matches!(state.top(), crate::app::state::Screen::List(_)) => Some("back"),
        Action::Enter if !matches!(state.top(), crate::app::state::Screen::List(_)) => Some("open"),
        _ => None,
    };
    let mut spans = Vec::new();
    for a in wanted {
        if !state.applies(a) {
            continue;
        }
        if let Some(b) = state.keymap.bindings(KeyMode::Normal).iter().find(|b| b.run == a) {
            spans.push(Span::styled(format!("<{}>", b.on), theme.label));
            let short = word(a)
                .unwrap_or_else(|| b.desc.split([' ', ':', '(']).next().unwrap_or(""))
                .to_owned();
            spans.push(Span::styled(format!(" {short}  "), theme.dim));
        }
    }
    Line::from(spans)
}
