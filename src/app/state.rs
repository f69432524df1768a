//! `UiState`: everything the screen shows that is not a snapshot — the view stack, prompt,
//! selection, connection facts. Owns UI-local state; must not perform I/O (subscriptions are
//! attached by the loop, see `run`).

use std::sync::Arc;

use crate::kube::client::ClusterInfo;
use crate::kube::key::ResourceKey;
use crate::kube::kind::Kind;
use crate::kube::pool::Subscription;
use crate::kube::registry::Registry;
use crate::kube::row::{ObjRef, Row};
use crate::kube::store::{ObjKey, Slot, Snapshot};

use super::list::ListCache;
use crate::keys::{KeyPress, Keymap};

/// How the list is sorted. Pressing the same sort key again flips `reverse`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum SortBy {
    /// Namespace then name (the informer's order).
    #[default]
    Name,
    /// Creation time, newest first.
    Age,
    /// The kind's status column.
    Status,
}

/// The active prompt, if any.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Prompt {
    /// `:` command input.
    Command(String),
    /// `/` filter input (applied live while typing); in the YAML view, the search.
    Filter(String),
    /// A yes/no question; typing `y` confirms, anything else cancels.
    Confirm(String),
}

/// The connection to the cluster, as far as the UI knows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Conn {
    /// The client is being built (exec plugins may be running).
    Connecting,
    /// A client exists for this context.
    Connected(ClusterInfo),
    /// No client could be built; the reason is shown.
    Failed(String),
}

/// A list of one kind.
pub struct ListView {
    /// What to show; the namespace is `None` for all namespaces.
    pub key: ResourceKey,
    /// Shown in the title after the kind when the list is a drill-down (`deploy/web`).
    pub origin: Option<String>,
    /// Where rows come from: attached by the loop once connected.
    pub source: Option<Source>,
    /// The applied filter text (see `crate::view`).
    pub filter: String,
    /// Filter parse error, shown in the footer; the last valid filter stays applied.
    pub filter_error: Option<String>,
    /// Sort column and direction.
    pub sort: SortBy,
    /// Sort direction flipped.
    pub reverse: bool,
    /// Show wide columns.
    pub wide: bool,
    /// Selected position in the filtered, sorted rows.
    pub selected: usize,
    /// Identity of the selected row, to keep the selection on it when rows move.
    pub selected_key: Option<ObjKey>,
    /// First visible row.
    pub offset: usize,
    /// Memoised filter/sort result for the current snapshot.
    pub cache: ListCache,
    /// Event timeline: only Warning events.
    pub warnings_only: bool,
    /// Event timeline of one object (`shift-e`): events whose involvedObject matches.
    pub object: Option<ObjRef>,
    /// Event timeline tail mode: the cursor is on the newest row and follows new events.
    pub follow: bool,
    /// Event timeline: the row that was on top when the user scrolled away; rows above it
    /// now are new (`↑ 17 new`).
    pub anchor: Option<ObjKey>,
    /// Event timeline: rows newer than `anchor`.
    pub new_above: usize,
    /// A row to select as soon as it is listed (`shift-j` opens the owner's list with the
    /// owner selected); dropped once found or once the list is complete without it.
    pub target: Option<ObjKey>,
}

impl ListView {
    /// A list of `key`, unfiltered, sorted by name.
    pub fn new(key: ResourceKey, origin: Option<String>) -> Self {
        ListView {
            key,
            origin,
            source: None,
            filter: String::new(),
            filter_error: None,
            sort: SortBy::Name,
            reverse: false,
            wide: false,
            selected: 0,
            selected_key: None,
            offset: 0,
            cache: ListCache::default(),
            warnings_only: false,
            object: None,
            follow: true,
            anchor: None,
            new_above: 0,
            target: None,
        }
    }

    /// The kind listed.
    pub fn kind(&self) -> &Kind {
        &self.key.kind
    }

    /// Whether this list is an event timeline.
    pub fn is_timeline(&self) -> bool {
        self.key.kind.is_timeline()
    }

    /// The latest snapshot, if subscribed.
    pub fn snapshot(&self) -> Option<Arc<Snapshot>> {
        self.source.as_ref().map(|s| s.slot.load())
    }
}

/// The rows behind a list view: a slot to read snapshots from and, normally, the informer
/// subscription that keeps it filled.
pub struct Source {
    /// Where the serving informer publishes.
    pub slot: Arc<Slot>,
    /// The key of the informer actually serving the view.
    pub served_by: ResourceKey,
    /// Rows must be filtered to this namespace (an all-namespaces informer serves the view).
    pub filter_ns: Option<String>,
    /// Keeps the informer alive; `None` for fixed slots (tests, snapshots).
    _sub: Option<Subscription>,
}

impl Source {
    /// The source behind a pool subscription.
    pub fn subscribed(sub: Subscription) -> Source {
        Source {
            slot: sub.slot.clone(),
            served_by: sub.served_by.clone(),
            filter_ns: sub.filter_namespace().map(str::to_owned),
            _sub: Some(sub),
        }
    }

    /// A source reading a slot nobody fills through a pool (screen tests, benchmarks).
    pub fn fixed(slot: Arc<Slot>) -> Source {
        let served_by = slot.peek().key.clone();
        Source {
            slot,
            served_by,
            filter_ns: None,
            _sub: None,
        }
    }
}

/// One entry of the view stack.
pub enum Screen {
    /// A resource list.
    List(Box<ListView>),
    /// `:informers`: the list-watch machinery.
    Informers { selected: usize },
    /// `:ctx`: the kubeconfig's contexts; `enter` switches.
    Contexts { selected: usize },
    /// `:api-resources`: what discovery found; `enter` opens a list of the selected one.
    ApiResources { selected: usize, filter: String },
    /// `y`: the live YAML of one object.
    Yaml(Box<super::yaml::YamlView>),
}

/// The whole UI state.
pub struct UiState {
    /// Views, last is on top; never empty.
    pub stack: Vec<Screen>,
    /// The open prompt.
    pub prompt: Option<Prompt>,
    /// The help overlay is open.
    pub help: bool,
    /// Connection facts.
    pub conn: Conn,
    /// The current namespace; `None` = all namespaces.
    pub namespace: Option<String>,
    /// The user chose all namespaces (`-A`, `:pods all`); the context's namespace must not
    /// replace `None`.
    pub explicit_all: bool,
    /// A one-line message for the footer: errors of commands, or information (see `info`).
    pub message: Option<String>,
    /// `message` is information (`saved …`, `waiting for API discovery…`), not an error.
    pub info: bool,
    /// Set when ktui should exit with this code.
    pub quit: Option<u8>,
    /// Keys typed so far of an unfinished chord (`g` of `g g`).
    pub pending: Vec<KeyPress>,
    /// The bindings in use.
    pub keymap: Keymap,
    /// `--readonly`.
    pub readonly: bool,
    /// Rows that fit in the table area at the last draw (for paging).
    pub page_rows: usize,
    /// Force a full repaint at the next draw (`ctrl-l`).
    pub clear: bool,
    /// The event shown in the detail overlay (`enter` on a timeline row).
    pub detail: Option<Arc<Row>>,
    /// Context names of the kubeconfig, in file order (known once it was read).
    pub contexts: Vec<String>,
    /// The context in use (or being connected to).
    pub context: Option<String>,
    /// Set by `update` when the user picked another context; the loop performs the switch.
    pub switch_to: Option<String>,
    /// Set by `update` on `ctrl-s` in the YAML view; the loop writes the file.
    pub save_yaml: bool,
    /// Favourite namespaces of the context in use (`[namespaces] favourites`), for `1`–`9`.
    pub favourites: Vec<String>,
    /// Namespaces to offer when listing namespaces is forbidden (`[namespaces] fallback`).
    pub fallback: Vec<String>,
    /// Show status icons in the header.
    pub icons: bool,
    /// Styles by role, loaded once (see `configure::apply`); `ui::draw` uses it.
    pub theme: crate::ui::theme::Theme,
    /// `[aliases]` of the config: `:name` runs the command line it maps to.
    pub aliases: std::collections::BTreeMap<String, String>,
    /// The kinds the context offers (built-ins until discovery answers).
    pub registry: Arc<Registry>,
    /// A command naming a kind only discovery can resolve (`ktui gz` at start): run when
    /// the registry arrives.
    /// The flag says it waits for a rediscovery asked because its name was unknown: if it is
    /// still unknown then, it is reported as unknown.
    pub pending_command: Option<(String, bool)>,
    /// Set by `update` when `:api-resources` opens; the loop asks for a rediscovery.
    pub rediscover: bool,
    /// Rows of `:informers` at the last draw (set by the loop; `update` cannot see the pool).
    pub informers_len: usize,
    /// Per context left: the namespace in use there and whether all namespaces were chosen,
    /// restored when the user switches back.
    pub last_namespace: std::collections::HashMap<String, (Option<String>, bool)>,
}

impl UiState {
    /// A state showing `first` while connecting.
    pub fn new(first: Screen, namespace: Option<String>, readonly: bool) -> Self {
        UiState {
            stack: vec![first],
            prompt: None,
            help: false,
            conn: Conn::Connecting,
            namespace,
            explicit_all: false,
            message: None,
            info: false,
            quit: None,
            pending: Vec::new(),
            keymap: Keymap::defaults(),
            readonly,
            page_rows: 20,
            clear: false,
            detail: None,
            contexts: Vec::new(),
            context: None,
            switch_to: None,
            save_yaml: false,
            favourites: Vec::new(),
            fallback: Vec::new(),
            icons: true,
            theme: crate::ui::theme::Theme::from_env(),
            aliases: Default::default(),
            registry: Arc::new(Registry::builtins()),
            pending_command: None,
            rediscover: false,
            last_namespace: Default::default(),
            informers_len: 0,
        }
    }

    /// The view on top.
    pub fn top(&self) -> &Screen {
        // The stack is never empty: `pop` keeps the last view.
        &self.stack[self.stack.len() - 1]
    }

    /// The view on top, mutable.
    pub fn top_mut(&mut self) -> &mut Screen {
        let n = self.stack.len() - 1;
        &mut self.stack[n]
    }

    /// The list on top, if the top view is a list.
    pub fn top_list(&self) -> Option<&ListView> {
        match self.top() {
            Screen::List(l) => Some(l),
            _ => None,
        }
    }

    /// Whether `action` does something in the current view (drives help and hints).
    pub fn applies(&self, action: crate::keys::Action) -> bool {
        use crate::keys::Action::*;
        let has_row = |l: &ListView| l.cache.selected_row(l.selected).is_some();
        match (action, self.top_list()) {
            (ToggleWarnings, Some(l)) => l.is_timeline(),
            (Yaml | Describe, Some(l)) => has_row(l),
            (Describe, None) => false,
            (Favourite(n), Some(l)) => {
                l.key.kind.namespaced() && (n == 0 || usize::from(n) <= self.favourites.len())
            }
            (Favourite(_), None) => false,
            (Reveal, None) => {
                matches!(self.top(), Screen::Yaml(y) if !y.describe && y.key.kind == crate::kube::builtin::BuiltinKind::Secret)
            }
            (ToggleManaged, None) => matches!(self.top(), Screen::Yaml(y) if !y.describe),
            (FilterMode, None) => matches!(self.top(), Screen::Yaml(_) | Screen::ApiResources { .. }),
            (Save | NextMatch, None) => matches!(self.top(), Screen::Yaml(_)),
            (Reveal | ToggleManaged | Save | NextMatch, Some(_)) => false,
            (Yaml, None) => false,
            (ObjectEvents | JumpOwner, Some(l)) => !l.is_timeline() && has_row(l),
            (Enter, None) => matches!(self.top(), Screen::Contexts { .. } | Screen::ApiResources { .. }),
            // Only where it leads somewhere: a timeline row's detail, a row with a drill-down.
            (Enter, Some(l)) => {
                l.is_timeline()
                    || l.cache
                        .selected_row(l.selected)
                        .is_some_and(|r| r.drill.is_some())
            }
            (SortName | SortAge | SortStatus | ToggleWide, None) => false,
            (ToggleWarnings | ObjectEvents | JumpOwner, None) => false,
            _ => true,
        }
    }

    /// Shows `text` in the footer as information rather than an error.
    pub fn note(&mut self, text: String) {
        self.message = Some(text);
        self.info = true;
    }

    /// The list on top, mutable.
    pub fn top_list_mut(&mut self) -> Option<&mut ListView> {
        match self.top_mut() {
            Screen::List(l) => Some(l),
            _ => None,
        }
    }
}
