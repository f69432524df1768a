//! Shared by the screen-snapshot tests: a UI state with an explicit theme, connected to a
//! made-up cluster, and the real draw code rendered on ratatui's TestBackend at a fixed
//! clock. Must not fake what the loop does before a draw (page size from the layout, then
//! `refresh_top`), and must not let the environment (`NO_COLOR`, `TERM`, `COLORTERM`) reach a
//! test's result.

#![allow(dead_code)]

use ktui::app::refresh_top::refresh_top;
use ktui::app::state::{Conn, Screen, UiState};
use ktui::config::theme::ThemeSpec;
use ktui::kube::client::ClusterInfo;
use ratatui::backend::TestBackend;
use ratatui::Terminal;

/// The screen tests' clock: 2026-11-30T12:00:00Z.
pub const NOW: i64 = 1_796_040_000;

/// `UiState::new(first, namespace, readonly)` with [`set_theme`] applied.
pub fn ui_state(first: Screen, namespace: Option<String>, readonly: bool) -> UiState {
    let mut state = UiState::new(first, namespace, readonly);
    set_theme(&mut state);
    state
}

/// Sets the screen tests' theme: `dark` in the 16 ANSI colours, whatever the environment
/// says (`configure::apply` with `colors = "auto"` reads it).
pub fn set_theme(state: &mut UiState) {
    state.settings.theme = ThemeSpec::dark();
}

/// Marks `state` connected to context `context` (`https://10.0.0.1:6443`, namespace `shop`).
pub fn connect(state: &mut UiState, context: &str) {
    state.conn.status = Conn::Connected(ClusterInfo {
        context: context.into(),
        server: "https://10.0.0.1:6443".into(),
        namespace: "shop".into(),
        contexts: vec![context.into()],
    });
}

/// Prepares and draws `state` at `w`×`h` as the loop does: page size, `refresh_top`, draw.
pub fn render(state: &mut UiState, w: u16, h: u16) -> Terminal<TestBackend> {
    let mut term = Terminal::new(TestBackend::new(w, h)).expect("test terminal");
    state.screens.layout.page_rows = ktui::ui::page_rows(ratatui::layout::Rect::new(0, 0, w, h), state);
    state.screens.layout.page_cols = ktui::ui::page_cols(ratatui::layout::Rect::new(0, 0, w, h), state);
    refresh_top(state);
    term.draw(|f| ktui::ui::draw(f, state, &[], NOW)).expect("draw");
    assert_cuts_marked(state, &term);
    term
}

/// The full text of every cell of the rows the view on top shows (lists: NAMESPACE, NAME
/// and every column of the kind; the containers view; `:ctx`), one `Vec` per row.
pub fn full_cells(state: &UiState) -> Vec<Vec<String>> {
    use ktui::table::format::format_cell;
    let overlays = &state.screens.overlays;
    if overlays.help || overlays.detail.is_some() || overlays.dialog.is_some() || overlays.drain.is_some() {
        return Vec::new();
    }
    match state.top() {
        Screen::List(l) => l
            .cache
            .visible(l.offset, state.screens.layout.page_rows.max(1))
            .iter()
            .map(|r| {
                let mut cells: Vec<String> = r.namespace.iter().map(|n| n.to_string()).collect();
                if !l.is_timeline() {
                    cells.push(r.name.to_string());
                }
                let spec = ktui::table::spec(&l.key.kind);
                for (i, _) in spec.visible(l.wide) {
                    cells.extend(r.cells.get(i).map(|c| format_cell(c, NOW).into_owned()));
                }
                cells
            })
            .collect(),
        Screen::Containers(c) => {
            let pod = c.pod().0;
            let Some(pod) = pod else { return Vec::new() };
            let created = pod.created.map(|t| t.as_second());
            pod.containers
                .iter()
                .map(|ci| ktui::app::containers::model::cells(ci, created, NOW).to_vec())
                .collect()
        }
        Screen::Contexts { .. } => state.conn.contexts.iter().map(|c| vec![c.clone()]).collect(),
        Screen::ApiResources { filter, .. } => state
            .conn
            .registry
            .listing_matching(filter)
            .iter()
            .map(|(_, r)| vec![r.plural.to_string(), r.api_version(), r.kind.to_string()])
            .collect(),
        _ => Vec::new(),
    }
}

/// The screen's lines as text.
pub fn screen_lines(term: &Terminal<TestBackend>) -> Vec<String> {
    let buf = term.backend().buffer();
    (0..buf.area.height)
        .map(|y| (0..buf.area.width).map(|x| buf[(x, y)].symbol()).collect())
        .collect()
}

/// Cuts found on the screen of `state` that are not marked: a cell whose full text is not on
/// its row's line while a prefix of it (4 characters or more) stands there alone, with
/// neither a `…` nor the rest of the text after it.
pub fn unmarked_cuts(rows: &[Vec<String>], lines: &[String]) -> Vec<String> {
    let mut found = Vec::new();
    for row in rows {
        // The row's line: the one holding most of its cells whole.
        let score = |l: &String| {
            row.iter()
                .filter(|c| c.chars().count() >= 2 && l.contains(c.as_str()))
                .count()
        };
        let Some(line) = lines.iter().filter(|l| score(l) > 0).max_by_key(|l| score(l)) else {
            continue;
        };
        for cell in row {
            let chars: Vec<char> = cell.chars().collect();
            if chars.len() < 5 || line.contains(cell.as_str()) {
                continue;
            }
            let prefix = (4..chars.len()).rev().find_map(|n| {
                let p: String = chars[..n].iter().collect();
                line.contains(&p).then_some(p)
            });
            let Some(p) = prefix else { continue };
            // Clipped silently: the prefix stands alone as a cell, a gap or the frame on
            // either side (a mark would follow it; other cells may contain it).
            let gap = |c: Option<char>| c.is_none_or(|c| c == ' ' || c == '│');
            let clipped = line.match_indices(&p).any(|(at, _)| {
                gap(line[..at].chars().next_back()) && gap(line[at + p.len()..].chars().next())
            });
            if clipped {
                found.push(format!("{cell:?} drawn as {p:?} without `…` in {line:?}"));
            }
        }
    }
    found
}

/// Fails when a cell of the view on top is cut without a `…` (the README's promise).
pub fn assert_cuts_marked(state: &UiState, term: &Terminal<TestBackend>) {
    let cuts = unmarked_cuts(&full_cells(state), &screen_lines(term));
    assert!(cuts.is_empty(), "cells cut without a mark:\n{}", cuts.join("\n"));
}
