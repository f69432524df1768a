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
    term
}
