//! `UiState`: everything the screen shows that is not a snapshot, split by concern —
//! [`Settings`] (from the config), [`Connection`] (the cluster as far as the UI knows) and
//! [`Screens`] (by part: the view stack, the prompt bar, overlays, the footer, the layout the
//! loop measured; see `state/screens.rs`). Feature state lives in each feature's `model.rs`.
//! Owns UI-local state; must not perform I/O: stack changes queue [`Effect`]s (subscribe,
//! unsubscribe, watch) that `update` hands to the loop, which owns every subscription and
//! watch by [`ViewId`].

mod screens;

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;

use crate::config::theme::ThemeSpec;
use crate::kube::client::ClusterInfo;
use crate::kube::registry::Registry;

use crate::app::effect::Effect;
pub use crate::app::effect::ViewId;
pub use crate::app::feed::{Feed, ObjectFeed, Source};
pub use crate::app::list::model::{ListState, SortBy};
pub use crate::app::prompt::model::Prompt;
use crate::keys::Keymap;
pub use screens::{Footer, Layout, Overlays, Screens, ViewStack};

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

/// One entry of the view stack.
pub enum Screen {
    /// A resource list.
    List(Box<ListState>),
    /// `:informers`: the list-watch machinery.
    Informers { selected: usize },
    /// `:ctx`: the kubeconfig's contexts; `enter` switches.
    Contexts { selected: usize },
    /// `:api-resources`: what discovery found; `enter` opens a list of the selected one.
    ApiResources { selected: usize, filter: String },
    /// `y`: the live YAML of one object.
    Yaml(Box<crate::app::detail::model::DetailState>),
    /// `l`: the logs of a pod, a container, or a set of pods (merged).
    Logs(Box<crate::app::logs::model::LogsState>),
    /// `enter` on a pod: its containers.
    Containers(Box<crate::app::containers::model::ContainersState>),
    /// `:pf`: the session's port-forwards (rows in `Screens::forwards`).
    Forwards { selected: usize },
    /// `u` on a deployment: its revisions; `enter` rolls back to the selected one.
    Revisions(Box<crate::app::history::model::RevisionsState>),
    /// `:can`: who may do what (RBAC), or what one subject may do.
    Can(Box<crate::app::can::model::CanState>),
    /// `:pulse`: live counts and health per kind; `enter` opens a tile's list.
    Pulse(Box<crate::app::pulse::model::PulseState>),
    /// `:xray <kind>` or `x` on a row: the live tree of objects and what their pods use.
    Xray(Box<crate::app::xray::model::XrayState>),
}

/// What the config says, for the context in use (see `configure::apply`).
pub struct Settings {
    /// Where ktui keeps its files and which editor `e` runs, resolved by the runtime at start
    /// (transitions read no environment).
    pub dirs: Dirs,
    /// The bindings in use.
    pub keymap: Keymap,
    /// Colours by role, adapted to the terminal once (see `configure::apply`); `ui::draw`
    /// builds its styles from it. Plain data: the environment is never read here.
    pub theme: ThemeSpec,
    /// `[aliases]` of the config: `:name` runs the command line it maps to.
    pub aliases: BTreeMap<String, String>,
    /// `--readonly`, or the context's `readonly = true`.
    pub readonly: bool,
    /// Favourite namespaces of the context in use (`[namespaces] favourites`), for `1`–`9`.
    pub favourites: Vec<String>,
    /// Namespaces to offer when listing namespaces is forbidden (`[namespaces] fallback`).
    pub fallback: Vec<String>,
    /// Show status icons in the header.
    pub icons: bool,
    /// `[logs]`: log view bounds and defaults.
    pub logs: crate::app::logs::model::LogSettings,
    /// `[actions] protected`: contexts where a write needs the typed name (or count).
    pub protected: Vec<regex::Regex>,
    /// `[metrics]`: whether usage is polled and its colour thresholds.
    pub usage: crate::app::usage::model::UsageSettings,
    /// `[[plugins]]` in force for the context in use.
    pub plugins: crate::app::plugins::model::PluginSettings,
}

/// What the runtime learns from the environment once, at start.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Dirs {
    /// ktui's state directory (`saved/` files, the prompt history), see `logging::state_dir`.
    pub state: std::path::PathBuf,
    /// The temp directory (`e` edits' files).
    pub temp: std::path::PathBuf,
    /// `$KUBE_EDITOR`, else `$EDITOR` (when set and not blank), for `e`.
    pub editor: Option<String>,
}

/// The cluster as far as the UI knows: connection, kubeconfig contexts, the kinds the
/// context offers, and the namespace scope in use.
pub struct Connection {
    /// Connecting, connected or failed.
    pub status: Conn,
    /// Context names of the kubeconfig, in file order (known once it was read).
    pub contexts: Vec<String>,
    /// The context in use (or being connected to).
    pub context: Option<String>,
    /// Per context of `contexts`, in order: `[cluster, user, namespace]` from the
    /// kubeconfig's `contexts[].context` (empty where unset), for `:ctx`.
    pub context_details: Vec<[String; 3]>,
    /// The kinds the context offers (built-ins until discovery answers).
    pub registry: Arc<Registry>,
    /// The current namespace; `None` = all namespaces.
    pub namespace: Option<String>,
    /// The user chose all namespaces (`-A`, `:pods all`); the context's namespace must not
    /// replace `None`.
    pub explicit_all: bool,
    /// Per context left: the namespace in use there and whether all namespaces were chosen,
    /// restored when the user switches back.
    pub last_namespace: HashMap<String, (Option<String>, bool)>,
    /// The RBAC gate's answers (`SelfSubjectAccessReview`), per context and permission.
    pub access: crate::app::writes::model::AccessCache,
    /// Per context of `contexts`, in order: its API server (`scheme://host:port`), so a
    /// union of `all` lists each cluster once.
    pub context_servers: Vec<String>,
    /// Contexts no write may go to (`--readonly`, `[context."name"] readonly = true`), known
    /// once the kubeconfig is read: a union keeps each member's own setting.
    pub readonly_contexts: Vec<String>,
    /// Contexts marked with `space` in `:ctx`: `enter` opens their union (two or more).
    pub ctx_marks: Vec<String>,
    /// The union of contexts shown at once, while one is open (`app::fleet`).
    pub fleet: Option<crate::app::fleet::model::Fleet>,
    /// The kind a context switch carried over (`:ctx` from a deployments view opens the
    /// deployments of the new context): checked against the new context's discovery once.
    pub carried: Option<crate::kube::kind::Kind>,
}

/// The whole UI state.
pub struct UiState {
    /// From the config.
    pub settings: Settings,
    /// The cluster.
    pub conn: Connection,
    /// The view stack, prompt and overlays.
    pub screens: Screens,
    /// Effects queued by the current transition; `update` (and the other entry points the
    /// loop calls) hand them over, see [`UiState::take_effects`].
    pub(super) effects: Vec<Effect>,
}

impl Settings {
    /// The defaults before a config is applied: default keymap, the neutral `dark` theme.
    pub fn new(readonly: bool) -> Settings {
        Settings {
            keymap: Keymap::defaults(),
            theme: ThemeSpec::dark(),
            aliases: BTreeMap::new(),
            readonly,
            favourites: Vec::new(),
            fallback: Vec::new(),
            icons: true,
            logs: crate::app::logs::model::LogSettings::default(),
            protected: Vec::new(),
            usage: Default::default(),
            plugins: Default::default(),
            dirs: Dirs::default(),
        }
    }
}

impl UiState {
    /// A state showing `first` while connecting, with neutral settings (the default keymap
    /// and the `dark` theme in 16 colours, whatever the environment says; `configure::apply`
    /// sets the configured ones).
    pub fn new(first: Screen, namespace: Option<String>, readonly: bool) -> Self {
        let mut state = UiState {
            settings: Settings::new(readonly),
            conn: Connection {
                status: Conn::Connecting,
                contexts: Vec::new(),
                context: None,
                context_details: Vec::new(),
                registry: Arc::new(Registry::builtins()),
                namespace,
                explicit_all: false,
                last_namespace: HashMap::new(),
                access: Default::default(),
                carried: None,
                context_servers: Vec::new(),
                ctx_marks: Vec::new(),
                readonly_contexts: Vec::new(),
                fleet: None,
            },
            screens: Screens::default(),
            effects: Vec::new(),
        };
        state.push(first);
        state
    }

    /// The view on top.
    pub fn top(&self) -> &Screen {
        // The stack is never empty: `pop` keeps the last view.
        &self.screens.stack.views[self.screens.stack.views.len() - 1].1
    }

    /// The view on top, mutable.
    pub fn top_mut(&mut self) -> &mut Screen {
        let n = self.screens.stack.views.len() - 1;
        &mut self.screens.stack.views[n].1
    }

    /// The id of the view on top.
    pub fn top_id(&self) -> ViewId {
        self.screens.stack.views[self.screens.stack.views.len() - 1].0
    }

    /// The views, bottom first, with their ids.
    pub fn views(&self) -> impl Iterator<Item = (ViewId, &Screen)> {
        self.screens.stack.views.iter().map(|(id, s)| (*id, s))
    }

    /// How many views are stacked.
    pub fn depth(&self) -> usize {
        self.screens.stack.views.len()
    }

    /// The list on top, if the top view is a list.
    pub fn top_list(&self) -> Option<&ListState> {
        match self.top() {
            Screen::List(l) => Some(l),
            _ => None,
        }
    }

    /// The list on top, mutable.
    pub fn top_list_mut(&mut self) -> Option<&mut ListState> {
        match self.top_mut() {
            Screen::List(l) => Some(l),
            _ => None,
        }
    }

    /// Shows `text` in the footer as information rather than an error.
    pub fn note(&mut self, text: String) {
        self.screens.footer.message = Some(text);
        self.screens.footer.info = true;
    }

    /// The namespace of a selected row: its own, else the session's scope, else `default`.
    pub fn row_namespace(&self, row_ns: Option<&str>) -> String {
        row_ns
            .or(self.conn.namespace.as_deref())
            .unwrap_or("default")
            .to_owned()
    }

    /// The namespace of the topmost namespaced list on the stack (`None` inside = all
    /// namespaces), or `None` when there is no such list.
    pub fn view_namespace(&self) -> Option<Option<&str>> {
        let view = self.views().filter_map(|(_, s)| match s {
            Screen::List(l) if l.key.kind.namespaced() => Some(l),
            _ => None,
        });
        view.last().map(|l| l.key.namespace.as_deref())
    }

    /// The namespace the header shows: the view's (see [`UiState::view_namespace`]; `all`
    /// for all namespaces), else the session's (`None` while it is not known).
    pub fn shown_namespace(&self) -> Option<String> {
        match self.view_namespace() {
            Some(ns) => Some(ns.unwrap_or("all").to_owned()),
            None => self.conn.namespace.clone(),
        }
    }
}
