//! The view history's state: the places behind and ahead of the current stack ([`Nav`]),
//! each kept as what rebuilds its views, never their rows or feeds. Plain data; must not
//! import `UiState` nor any transition, perform I/O or draw.

use crate::app::list::model::SortBy;
use crate::kube::key::ResourceKey;
use crate::kube::row::ObjRef;
use crate::kube::store::ObjKey;

/// Places kept in each direction; older ones are forgotten.
pub const MAX_PLACES: usize = 50;

/// What is kept of one view to rebuild it: what it shows and how, never its rows or feeds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Saved {
    /// A list of `key` with its title, filter, sort, columns and selection.
    List(Box<SavedList>),
    /// `:informers`.
    Informers,
    /// `:ctx`.
    Contexts,
    /// `:ar` with its filter.
    ApiResources(String),
    /// `:pf`.
    Forwards,
    /// `:pulse` of a namespace (`None`: all).
    Pulse(Option<String>),
}

#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct SavedList {
    pub(crate) key: ResourceKey,
    pub(crate) origin: Option<String>,
    pub(crate) filter: String,
    pub(crate) sort: SortBy,
    pub(crate) reverse: bool,
    pub(crate) wide: bool,
    pub(crate) warnings_only: bool,
    pub(crate) object: Option<ObjRef>,
    pub(crate) selected: Option<ObjKey>,
    pub(crate) hscroll: usize,
    pub(crate) ns_chosen: bool,
}

/// One remembered view stack, bottom first (views that cannot be rebuilt without a
/// request — YAML, logs, containers, revisions — and those above them are left out).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Place(pub(crate) Vec<Saved>);

/// The places behind and ahead of the current stack.
#[derive(Debug, Default)]
pub struct Nav {
    pub(crate) back: Vec<Place>,
    pub(crate) forward: Vec<Place>,
    /// The bottom view was opened by `enter` on a namespace, a drill-down: `esc` on it goes
    /// back to the place before. A view a `:` command (or a favourite key) opened is a base:
    /// `esc` there closes nothing.
    pub(crate) drilled: bool,
}

impl Nav {
    /// Places `[` can go back to.
    pub fn back_len(&self) -> usize {
        self.back.len()
    }

    /// Places `]` can go forward to.
    pub fn forward_len(&self) -> usize {
        self.forward.len()
    }

    /// Forgets every place (another context: its keys mean nothing there).
    pub fn clear(&mut self) {
        self.back.clear();
        self.forward.clear();
        self.drilled = false;
    }
}
