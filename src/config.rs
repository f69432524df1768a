//! The configuration file: `config.toml` in the platform config directory
//! (`~/.config/ktui/config.toml` on Linux), or `--config PATH` / `KTUI_CONFIG`. Parsed
//! strictly — an unknown key or a wrong type is an error naming the file, line and key — into
//! [`Config`], whose every field has the default `config.example.toml` documents. Owns
//! locating, reading and validating the file; must not apply settings (`app` does) or touch
//! the terminal.

pub mod actions;
pub mod error;
pub mod keymap;
pub mod metrics;
pub mod plugins;
pub mod theme;
pub mod values;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::Duration;

use serde::Deserialize;

pub use error::ConfigError;
use keymap::KeymapSpec;
use values::{Age, Colors, Fps, Level, StreamingMode, ThemeName};

/// The whole configuration.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// `[ui]`: look and feel.
    pub ui: UiConfig,
    /// `[keymap]`: overrides merged over `assets/keymap.toml`.
    pub keymap: KeymapSpec,
    /// `[events]`: bounds of the event timeline.
    pub events: EventsConfig,
    /// `[namespaces]`: favourites and fallbacks.
    pub namespaces: NamespacesConfig,
    /// `[aliases]`: `name = "command line"`; `:name` runs the command.
    pub aliases: BTreeMap<String, String>,
    /// `[log]`: the log file.
    pub log: LogConfig,
    /// `[context."name"]`: overrides for one kubeconfig context.
    pub context: BTreeMap<String, ContextConfig>,
    /// `[logs]`: container log views.
    pub logs: LogsConfig,
    /// `[actions]`: how writes are confirmed (protected contexts).
    pub actions: actions::ActionsConfig,
    /// `[watch]`: how informers judge a silent watch.
    pub watch: WatchConfig,
    /// `[history]`: what per-object revision history may keep.
    pub history: HistoryConfig,
    /// `[metrics]`: resource usage from metrics.k8s.io.
    pub metrics: metrics::MetricsConfig,
    /// `[[plugins]]`: commands bound to keys, minus those whose key clashes (see
    /// [`plugins::sift`]).
    pub plugins: Vec<plugins::PluginSpec>,
    /// The plugins dropped for a clash, one error each (`check-config` prints them, the
    /// footer shows them once at start).
    #[serde(skip)]
    pub plugin_clashes: Vec<ConfigError>,
}

/// `[watch]`: the list-watch loop's freshness rules.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct WatchConfig {
    /// How often the server sends watch bookmarks (kube-apiserver: about every minute).
    pub bookmark_interval: Age,
    /// A watch with neither an event nor a bookmark for this many intervals is shown
    /// `stale` and restarted.
    pub stale_intervals: u32,
    /// How often each long-lived informer is checked against the server (a paged list
    /// compared with what it holds; differences are repaired and named); `"0s"`: never.
    pub verify_every: Age,
    /// When a (re)list streams (a watch with `sendInitialEvents=true`, served from the API
    /// server's watch cache) instead of paging, falling back to paged lists where the server
    /// refuses or ignores streaming. Default `"auto"`: informers that ask for protobuf stream,
    /// JSON ones page — in `benches/real_sync` (100k pods, kube-apiserver v1.37.2) streamed
    /// protobuf was live soonest at the lowest API server CPU, streamed JSON later than
    /// paged JSON. `true`: every informer streams; `false`: paged lists only.
    pub streaming_lists: StreamingMode,
    /// A streaming list with no event for this long before its end bookmark falls back to
    /// a paged list (and the context lists paged for the rest of the session).
    pub streaming_idle: Age,
    /// `true` (default): built-in kinds are listed and watched in Kubernetes' protobuf
    /// encoding (cheaper for the API server to encode and for ktui to decode), JSON where a
    /// server refuses it (remembered per context and API group); `false`: JSON only.
    pub protobuf: bool,
}

impl Default for WatchConfig {
    fn default() -> Self {
        WatchConfig {
            bookmark_interval: Age(Duration::from_secs(60)),
            stale_intervals: 2,
            verify_every: Age(Duration::from_secs(600)),
            streaming_lists: StreamingMode::Auto,
            streaming_idle: Age(Duration::from_secs(60)),
            protobuf: true,
        }
    }
}

/// `[history]`: bounds of the revisions recorded per context (the `h` view).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct HistoryConfig {
    /// MiB of revisions kept per context (bodies, patches, bookkeeping); 0 records nothing.
    pub max_mib: u32,
    /// Revisions kept per object; older ones are evicted first.
    pub max_revisions: u32,
}

impl Default for HistoryConfig {
    fn default() -> Self {
        HistoryConfig {
            max_mib: 64,
            max_revisions: 50,
        }
    }
}

/// `[logs]`: container log views (the `l` key).
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LogsConfig {
    /// Lines asked for (`tailLines`) when a view opens.
    pub tail_lines: u32,
    /// Lines one view keeps; older ones are dropped and counted.
    pub max_lines: u32,
    /// MiB one view keeps (text plus a fixed cost per line).
    pub max_mib: u32,
    /// Concurrent streams of one merged view; more sources wait.
    pub max_streams: u32,
    /// Bytes kept of one line; the rest is cut with a marker.
    pub max_line_bytes: u32,
    /// Show timestamps when a view opens (`t` toggles).
    pub timestamps: bool,
    /// Wrap long lines when a view opens (`w` toggles).
    pub wrap: bool,
}

impl Default for LogsConfig {
    fn default() -> Self {
        LogsConfig {
            tail_lines: 1000,
            max_lines: 100_000,
            max_mib: 64,
            max_streams: 50,
            max_line_bytes: 16_384,
            timestamps: false,
            wrap: false,
        }
    }
}

/// `[ui]`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct UiConfig {
    /// Built-in theme: `dark`, `light` or `mono` (`NO_COLOR` always means `mono`).
    pub theme: ThemeName,
    /// Colours: `auto` (from `NO_COLOR`, `COLORTERM`, `TERM`), `none`, `16`, `256`, `truecolor`.
    pub colors: Colors,
    /// Most redraws per second.
    pub max_fps: Fps,
    /// The view opened at start, as typed after `:` (`-c` wins).
    pub default_view: String,
    /// Icons in titles and states (off: ASCII only).
    pub icons: bool,
    /// Mouse support (scroll, click to select).
    pub mouse: bool,
}

impl Default for UiConfig {
    fn default() -> Self {
        UiConfig {
            theme: ThemeName("dark".into()),
            colors: Colors::Auto,
            max_fps: Fps(60),
            default_view: "pods".into(),
            icons: true,
            mouse: false,
        }
    }
}

/// `[events]`: bounds of each context's event timeline.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct EventsConfig {
    /// Most events kept; the oldest by LAST SEEN are evicted first.
    pub max_events: usize,
    /// Events last seen longer ago than this are evicted.
    pub max_age: Age,
}

impl Default for EventsConfig {
    fn default() -> Self {
        EventsConfig {
            max_events: 20_000,
            max_age: Age(Duration::from_secs(24 * 3600)),
        }
    }
}

/// `[namespaces]`.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct NamespacesConfig {
    /// Favourite namespaces, in order (`[context."x"]` may replace them per context). Each
    /// must be a valid namespace name.
    #[serde(deserialize_with = "values::namespaces")]
    pub favourites: Vec<String>,
    /// Namespaces to list when the user may not list namespaces (RBAC-limited users).
    #[serde(deserialize_with = "values::namespaces")]
    pub fallback: Vec<String>,
}

/// `[log]`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct LogConfig {
    /// The log file; `""` means `ktui.log` in the state directory (`--log-file` wins).
    #[serde(deserialize_with = "values::optional_path")]
    pub file: Option<PathBuf>,
    /// `tracing` filter directives (`KTUI_LOG` wins).
    pub level: Level,
}

impl Default for LogConfig {
    fn default() -> Self {
        LogConfig {
            file: None,
            level: Level("info".into()),
        }
    }
}

/// `[context."name"]`: what differs for one kubeconfig context.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ContextConfig {
    /// Replaces `namespaces.favourites`.
    #[serde(deserialize_with = "values::optional_namespaces")]
    pub favourites: Option<Vec<String>>,
    /// Replaces `namespaces.fallback`.
    #[serde(deserialize_with = "values::optional_namespaces")]
    pub fallback: Option<Vec<String>>,
    /// Replaces `ui.theme`.
    pub theme: Option<ThemeName>,
    /// `true` makes the context read-only (as `--readonly`); `false` cannot undo the flag.
    pub readonly: Option<bool>,
}

/// A configuration and where it came from.
#[derive(Debug, Clone, Default)]
pub struct Loaded {
    /// The settings (defaults when no file was read).
    pub config: Config,
    /// The file that was looked for.
    pub path: Option<PathBuf>,
    /// Whether that file existed and was read.
    pub found: bool,
}

/// The default config file: `config.toml` in the platform config directory.
pub fn default_path() -> Option<PathBuf> {
    directories::ProjectDirs::from("", "", "ktui").map(|d| d.config_dir().join("config.toml"))
}

/// Loads `explicit` (`--config` / `KTUI_CONFIG`; missing is an error), else the default file
/// (missing is fine: defaults).
pub fn load(explicit: Option<&Path>) -> Result<Loaded, ConfigError> {
    let (path, required) = match explicit {
        Some(p) => (Some(p.to_path_buf()), true),
        None => (default_path(), false),
    };
    let Some(p) = &path else {
        return Ok(Loaded::default());
    };
    match std::fs::read_to_string(p) {
        Ok(text) => Ok(Loaded {
            config: parse(p, &text)?,
            path,
            found: true,
        }),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && !required => Ok(Loaded {
            config: Config::default(),
            path,
            found: false,
        }),
        Err(e) => Err(ConfigError::file(p, format!("cannot read config: {e}"))),
    }
}

/// Parses and validates the text of `path`.
pub fn parse(path: &Path, text: &str) -> Result<Config, ConfigError> {
    let mut config: Config = toml::from_str(text).map_err(|e| ConfigError::from_toml(path, text, &e))?;
    let (kept, clashes) = plugins::sift(std::mem::take(&mut config.plugins), &config.keymap(), path, text);
    config.plugins = kept;
    config.plugin_clashes = clashes;
    Ok(config)
}

impl Config {
    /// The overrides of `context`, if any.
    fn ctx(&self, context: Option<&str>) -> Option<&ContextConfig> {
        context.and_then(|c| self.context.get(c))
    }

    /// The theme name for `context`.
    pub fn theme_for(&self, context: Option<&str>) -> &str {
        self.ctx(context)
            .and_then(|c| c.theme.as_ref())
            .unwrap_or(&self.ui.theme)
            .as_str()
    }

    /// Whether `context` is read-only by configuration.
    pub fn readonly_for(&self, context: Option<&str>) -> bool {
        self.ctx(context).and_then(|c| c.readonly).unwrap_or(false)
    }

    /// The favourite namespaces for `context`.
    pub fn favourites_for(&self, context: Option<&str>) -> &[String] {
        self.ctx(context)
            .and_then(|c| c.favourites.as_deref())
            .unwrap_or(&self.namespaces.favourites)
    }

    /// The fallback namespaces for `context`.
    pub fn fallback_for(&self, context: Option<&str>) -> &[String] {
        self.ctx(context)
            .and_then(|c| c.fallback.as_deref())
            .unwrap_or(&self.namespaces.fallback)
    }

    /// The event timeline bounds.
    pub fn timeline(&self) -> crate::kube::timeline::TimelineBounds {
        crate::kube::timeline::TimelineBounds {
            max_events: self.events.max_events,
            max_age: self.events.max_age.0,
        }
    }

    /// The history bounds in force (`[history]`).
    pub fn history(&self) -> crate::kube::history::HistoryConfig {
        crate::kube::history::HistoryConfig {
            budget_bytes: (self.history.max_mib as usize) << 20,
            per_object: self.history.max_revisions as usize,
        }
    }

    /// The keymap in use: defaults with `[keymap]` merged over them.
    pub fn keymap(&self) -> crate::keys::Keymap {
        keymap::build(&self.keymap)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(text: &str) -> String {
        parse(Path::new("c.toml"), text).unwrap_err().to_string()
    }

    #[test]
    fn empty_is_default() {
        assert_eq!(parse(Path::new("c.toml"), "").unwrap(), Config::default());
    }

    #[test]
    fn errors_name_file_line_and_key() {
        assert_eq!(
            err("[ui]\ntheme = \"dark\"\ncolour = true\n"),
            "c.toml:3:1: ui.colour: unknown field `colour`, expected one of `theme`, `colors`, `max_fps`, \
             `default_view`, `icons`, `mouse`"
        );
        assert_eq!(
            err("[ui]\nmax_fps = \"fast\"\n"),
            "c.toml:2:11: ui.max_fps: invalid type: string \"fast\", expected i64"
        );
        assert_eq!(
            err("[events]\nmax_age = \"1y\"\n")
                .split(": ")
                .take(2)
                .collect::<Vec<_>>(),
            ["c.toml:2:11", "events.max_age"]
        );
        assert!(err("[context.prod]\ntheme = \"neon\"\n")
            .starts_with("c.toml:2:9: context.prod.theme: unknown theme \"neon\""));
    }

    #[test]
    fn context_overrides() {
        let c = parse(
            Path::new("c.toml"),
            "[namespaces]\nfavourites = [\"a\"]\n[context.\"prod-eu\"]\ntheme = \"light\"\nreadonly = true\n",
        )
        .unwrap();
        assert_eq!(c.theme_for(Some("prod-eu")), "light");
        assert_eq!(c.theme_for(Some("dev")), "dark");
        assert!(c.readonly_for(Some("prod-eu")) && !c.readonly_for(None));
        assert_eq!(c.favourites_for(Some("prod-eu")), ["a"]);
    }

    #[test]
    fn namespace_lists_hold_namespace_names() {
        for text in [
            "[namespaces]\nfavourites = [\"team-a\", \"Bad Name\"]\n",
            "[namespaces]\nfallback = [\"\"]\n",
            "[context.dev]\nfavourites = [\"a_b\"]\n",
        ] {
            let e = parse(Path::new("c.toml"), text).unwrap_err().to_string();
            assert!(e.contains("namespace name"), "{text}: {e}");
        }
    }
}
