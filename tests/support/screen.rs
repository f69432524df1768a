//! Shared by the screen-snapshot tests: a UI state with an explicit theme, connected to a
//! made-up cluster, and the real draw code rendered on ratatui's TestBackend at a fixed
//! clock. Must not fake what the draw code does (two passes, as the loop learns the page size
//! on its first frame), and must not let the environment (`NO_COLOR`, `TERM`, `COLORTERM`)
//! reach a test's result.

#![allow(dead_code)]

use ktui::app::prepare::prepare;
use ktui::app::state::{Conn, Screen, UiState};
use ktui::kube::client::ClusterInfo;
use ktui::ui::theme::Theme;
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
/// says (`UiState::new` and `configure::apply` with `colors = "auto"` read it).
pub fn set_theme(state: &mut UiState) {
    state.theme = Theme::dark();
}

/// Marks `state` connected to context `context` (`https://10.0.0.1:6443`, namespace `shop`).
pub fn connect(state: &mut UiState, context: &str) {
    state.conn = Conn::Connected(ClusterInfo {
        context: context.into(),
        server: "https://10.0.0.1:6443".into(),
        namespace: "shop".into(),
        contexts: vec![context.into()],
    });
}

/// Prepares and draws `state` at `w`×`h` twice (the first pass learns the page size).
pub fn render(state: &mut UiState, w: u16, h: u16) -> Terminal<TestBackend> {
    let mut term = Terminal::new(TestBackend::new(w, h)).expect("test terminal");
    for _ in 0..2 {
        prepare(state);
        let mut page = 0;
        term.draw(|f| page = ktui::ui::draw(f, state, None, NOW))
            .expect("draw");
        state.page_rows = page;
    }
    term
}
