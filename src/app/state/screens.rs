//! [`Screens`], the screen's parts by name: the view stack, the prompt bar, the overlays,
//! the footer and the layout facts the loop measures before each draw. Plain state; must
//! not perform I/O (stack changes are `nav::stack`'s, each part's keys its feature's).

use std::sync::Arc;

use crate::kube::portforward::ForwardInfo;
use crate::kube::row::Row;

use crate::app::effect::ViewId;
use crate::app::help::model::HelpState;
use crate::app::nav::model::Nav;
use crate::app::prompt::model::PromptBar;
use crate::app::writes::model::{Dialog, DrainState, EditSession};

use super::Screen;

/// The view stack, the prompt bar, overlays, footer and layout, each by name.
#[derive(Default)]
pub struct Screens {
    /// The views and the places behind and ahead of them.
    pub stack: ViewStack,
    /// The `:` and `/` prompt, its history and an unfinished chord.
    pub prompt: PromptBar,
    /// What is drawn over the view on top: help, the detail overlay, a write's dialog, the
    /// drain, and the `e` edit in progress.
    pub overlays: Overlays,
    /// The footer's one-line message.
    pub footer: Footer,
    /// What the loop measured before the last draw (`update` cannot see the terminal nor the
    /// pool).
    pub layout: Layout,
}

/// The view stack (see `nav::stack` for its changes).
#[derive(Default)]
pub struct ViewStack {
    /// Views with their ids, last is on top; never empty once the state is built.
    pub(crate) views: Vec<(ViewId, Screen)>,
    /// The id the next pushed view gets.
    pub(crate) next_id: u64,
    /// The view stacks behind and ahead of this one (`[`/`]`, `esc` on the last view).
    pub nav: Nav,
    /// Views pinned to one member of a union (opened from its row), by id: the loop runs
    /// their effects in that member's cluster (see `app::fleet`).
    pub pins: std::collections::HashMap<ViewId, u16>,
    /// While an action runs on a union row or a pinned view: the cluster its new views
    /// belong to (`fleet::open::pin_for_next`).
    pub(crate) pin_next: Option<u16>,
}

/// What is drawn over the view on top.
pub struct Overlays {
    /// The help overlay is open.
    pub help: bool,
    /// The help's lines, filter and scroll while it is open (see `app::help`).
    pub help_view: HelpState,
    /// The event shown in the detail overlay (`enter` on a timeline row, `v`).
    pub detail: Option<Arc<Row>>,
    /// The detail overlay wraps long lines (`w`; on when it opens); else `←`/`→` scroll it.
    pub detail_wrap: bool,
    /// Cells the unwrapped detail overlay is scrolled to the right.
    pub detail_hscroll: u16,
    /// Lines the detail overlay is scrolled down; 0 when it opens.
    pub detail_scroll: u16,
    /// The open confirmation dialog of a write (modal: it takes every key).
    pub dialog: Option<Box<Dialog>>,
    /// The drain in progress or last finished, shown over the view while open.
    pub drain: Option<DrainState>,
    /// The `e` edit in progress (its temp file, the resourceVersion it is guarded by); the
    /// editor holds the terminal while it runs.
    pub edit: Option<EditSession>,
}

impl Default for Overlays {
    fn default() -> Self {
        Overlays {
            help: false,
            help_view: HelpState::default(),
            detail: None,
            detail_wrap: true,
            detail_hscroll: 0,
            detail_scroll: 0,
            dialog: None,
            drain: None,
            edit: None,
        }
    }
}

/// The footer's message.
#[derive(Debug, Default)]
pub struct Footer {
    /// A one-line message: errors of commands, or information (see `UiState::note`).
    pub message: Option<String>,
    /// `message` is information (`saved …`, `waiting for API discovery…`), not an error.
    pub info: bool,
}

/// What the loop measured before the last draw.
pub struct Layout {
    /// Rows that fit in the table area of the view on top (for paging), from `ui::page_rows`.
    pub page_rows: usize,
    /// Cells of one line of the text view on top (YAML, describe, help), from
    /// `ui::page_cols`, for wrapping and sideways scrolling.
    pub page_cols: usize,
    /// The furthest the detail overlay can scroll down (`ui::detail_max`).
    pub detail_max: u16,
    /// The furthest the unwrapped detail overlay can scroll right (`ui::detail_max`).
    pub detail_hmax: u16,
    /// Rows of `:informers`, from the pool.
    pub informers_len: usize,
    /// The session's port-forwards, from its manager.
    pub forwards: Vec<ForwardInfo>,
    /// The session's metrics polls, read by the loop while `:informers` is on top.
    pub metrics_polls: Vec<crate::kube::metrics::MetricsInfo>,
}

impl Default for Layout {
    fn default() -> Self {
        Layout {
            page_rows: 20,
            page_cols: 80,
            detail_max: 0,
            detail_hmax: 0,
            informers_len: 0,
            forwards: Vec::new(),
            metrics_polls: Vec::new(),
        }
    }
}
