//! The column keys of a list (`shift-←/→` scroll the columns, `v` opens the selected row's
//! full cells) and the keys of the detail overlay (arrows and paging scroll it, `w` wraps,
//! `←`/`→` scroll it sideways unwrapped, anything else closes it). Pure state transitions; must not lay out or draw.

use crate::keys::Action;

use crate::app::state::UiState;

/// Most columns any list has (NAMESPACE, NAME and a kind's columns); bounds `hscroll` so
/// repeated presses cannot pile up scroll the layout would clamp anyway.
const MAX_SCROLL: usize = 64;

/// Cells one `←`/`→` moves the unwrapped overlay.
const HSTEP: u16 = 8;

/// Applies a column key to the list on top.
pub fn handle(state: &mut UiState, action: Action) {
    match action {
        Action::ScrollLeft => {
            if let Some(l) = state.top_list_mut() {
                l.hscroll = l.hscroll.saturating_sub(1);
            }
        }
        Action::ScrollRight => {
            if let Some(l) = state.top_list_mut() {
                let cols = crate::table::spec(&l.key.kind).columns.len() + 2;
                l.hscroll = (l.hscroll + 1).min(cols.min(MAX_SCROLL));
            }
        }
        Action::Cells => {
            let row = state.top_list().and_then(|l| l.cache.selected_row(l.selected));
            if let Some(row) = row {
                state.screens.overlays.detail = Some(row);
                state.screens.overlays.detail_scroll = 0;
            }
        }
        _ => {}
    }
}

/// A key while the detail overlay is open: scrolling keys move it, `Quit` and `Redraw` pass
/// through (returns false), any other key closes it. Returns whether the key was used here.
pub fn overlay_key(state: &mut UiState, action: Action) -> bool {
    let page = state.screens.layout.page_rows.max(1) as i64;
    let by = match action {
        Action::Quit | Action::Redraw => return false,
        Action::Up => -1,
        Action::Down => 1,
        Action::PageUp => -page,
        Action::PageDown => page,
        Action::Top => -i64::from(u16::MAX),
        Action::Bottom => i64::from(u16::MAX),
        Action::Wrap => {
            state.screens.overlays.detail_wrap = !state.screens.overlays.detail_wrap;
            state.screens.overlays.detail_hscroll = 0;
            state.screens.overlays.detail_scroll = 0;
            return true;
        }
        Action::ScrollLeft => {
            let o = &mut state.screens.overlays;
            o.detail_hscroll = o.detail_hscroll.saturating_sub(HSTEP);
            return true;
        }
        Action::ScrollRight => {
            let max = state.screens.layout.detail_hmax;
            let o = &mut state.screens.overlays;
            o.detail_hscroll = o.detail_hscroll.saturating_add(HSTEP).min(max);
            return true;
        }
        _ => {
            state.screens.overlays.detail = None;
            state.screens.overlays.detail_scroll = 0;
            state.screens.overlays.detail_hscroll = 0;
            return true;
        }
    };
    let to = (i64::from(state.screens.overlays.detail_scroll) + by)
        .clamp(0, i64::from(state.screens.layout.detail_max));
    state.screens.overlays.detail_scroll = u16::try_from(to).unwrap_or(0);
    true
}
