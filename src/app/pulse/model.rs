//! The state of `:pulse` ([`PulseState`]): the kinds it shows ([`Tile`]), the rows' read
//! sides the loop attached per kind, and what was last counted from them (memoised per
//! snapshot), the restart watch and the event rate. Plain state; must not import `UiState`
//! nor any transition, perform I/O or draw.

use std::collections::BTreeMap;

use crate::kube::builtin::BuiltinKind;
use crate::kube::kind::Kind;
use crate::kube::sync::SyncState;

use crate::app::feed::Source;
use crate::app::pulse::count::{Counts, EventRate, RestartWatch};

/// One tile of the overview: a kind it counts, in the order drawn (row by row).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Tile {
    /// Pods: ready, pending, failing, completed, restarts rising.
    Pods,
    /// Deployments: fully ready or not.
    Deployments,
    /// StatefulSets: fully ready or not.
    StatefulSets,
    /// DaemonSets: fully ready or not.
    DaemonSets,
    /// Jobs: running, complete, failed.
    Jobs,
    /// CronJobs: scheduled or suspended.
    CronJobs,
    /// Nodes (cluster-wide whatever the namespace): ready, not ready, cordoned, pressure.
    Nodes,
    /// Events: Warning and Normal (also the event rate panel).
    Events,
}

impl Tile {
    /// Every tile, in drawing order; `PulseState::selected` indexes it.
    pub const ALL: [Tile; 8] = [
        Tile::Pods,
        Tile::Deployments,
        Tile::StatefulSets,
        Tile::DaemonSets,
        Tile::Jobs,
        Tile::CronJobs,
        Tile::Nodes,
        Tile::Events,
    ];

    /// The kind whose informer feeds the tile.
    pub fn kind(self) -> BuiltinKind {
        match self {
            Tile::Pods => BuiltinKind::Pod,
            Tile::Deployments => BuiltinKind::Deployment,
            Tile::StatefulSets => BuiltinKind::StatefulSet,
            Tile::DaemonSets => BuiltinKind::DaemonSet,
            Tile::Jobs => BuiltinKind::Job,
            Tile::CronJobs => BuiltinKind::CronJob,
            Tile::Nodes => BuiltinKind::Node,
            Tile::Events => BuiltinKind::Event,
        }
    }

    /// The tile of a kind, if `:pulse` shows it.
    pub fn of(kind: &Kind) -> Option<Tile> {
        Tile::ALL.into_iter().find(|t| *kind == t.kind())
    }

    /// The tile's title: the kind's plural (`pods`).
    pub fn title(self) -> &'static str {
        self.kind().info().plural
    }
}

/// What a tile last counted, and from which snapshot.
#[derive(Debug, Clone, Default)]
pub struct TileView {
    /// `(epoch, rev)` of the snapshot counted; recounted only when it changes.
    pub at: (u64, u64),
    /// The informer's state, as the list header words it (`live`, `syncing 12…`, `forbidden: list pods`).
    pub state: SyncState,
    /// A complete list was applied: only then are the counts whole.
    pub listed: bool,
    /// The counts.
    pub counts: Counts,
}

/// The UI-local state of `:pulse`; drawn by `ui::pulse`.
#[derive(Default)]
pub struct PulseState {
    /// The namespace counted (`None`: all namespaces). Nodes are cluster-wide regardless.
    pub namespace: Option<String>,
    /// The rows of each kind, attached by the loop once subscribed.
    pub sources: BTreeMap<Tile, Source>,
    /// What each tile last counted (absent until its first snapshot).
    pub tiles: BTreeMap<Tile, TileView>,
    /// Pods' restart counts since the view first saw them.
    pub restarts: RestartWatch,
    /// Events per minute, Warning and Normal.
    pub events: EventRate,
    /// The selected tile: an index into [`Tile::ALL`].
    pub selected: usize,
}

impl PulseState {
    /// An overview of `namespace` (`None`: all namespaces), nothing attached yet.
    pub fn new(namespace: Option<String>) -> PulseState {
        PulseState {
            namespace,
            ..PulseState::default()
        }
    }

    /// The selected tile.
    pub fn selected_tile(&self) -> Tile {
        Tile::ALL[self.selected.min(Tile::ALL.len() - 1)]
    }

    /// Keeps `src` as the rows of its kind's tile; false when `:pulse` shows no such kind.
    pub fn attach(&mut self, src: Source) -> bool {
        match Tile::of(&src.served_by.kind) {
            Some(tile) => {
                self.sources.insert(tile, src);
                true
            }
            None => false,
        }
    }

    /// Brings every tile up to its source's latest snapshot: recounts those whose snapshot
    /// changed (an `Arc` load per tile otherwise). Never blocks.
    pub fn refresh(&mut self) {
        for (tile, src) in &self.sources {
            let snap = src.slot.load();
            let at = (snap.epoch, snap.rev);
            let view = self.tiles.entry(*tile).or_default();
            view.state = snap.state.clone();
            view.listed = snap.listed;
            if view.at == at && at != (0, 0) {
                continue;
            }
            view.at = at;
            let ns = src.filter_ns.as_deref();
            let all_ns = self.namespace.is_none();
            view.counts = Counts::of(*tile, &snap.rows, ns, all_ns);
            match tile {
                Tile::Pods => self.restarts.update(&snap.rows, ns),
                Tile::Events => self.events.update(&snap.rows, ns),
                _ => {}
            }
        }
    }
}

/// The narrowest a tile gets (cells, its gap included).
pub const TILE_MIN: u16 = 24;

/// Tiles per row for a body `width` cells wide: 8, 4, 2 or 1 (the drawing's grid, and how far
/// `↑`/`↓` move).
pub fn tiles_per_row(width: usize) -> usize {
    [8usize, 4, 2]
        .into_iter()
        .find(|&c| width / c >= usize::from(TILE_MIN))
        .unwrap_or(1)
}
