//! `:` commands: what a command line means (a kind from the context's registry with its
//! namespace and selector, or one of ktui's own views) and `tab` completion. Owns command
//! syntax; must not perform I/O (it asks for effects: subscriptions, rediscovery, quit).

use crate::kube::key::ResourceKey;
use crate::kube::kind::Kind;
use crate::kube::registry::{Known, ResolveError};

use crate::app::effect::Effect;
use crate::app::state::{ListState, Screen, UiState};

/// ktui's own commands, offered by completion besides the registry's names.
const COMMANDS: [&str; 12] = [
    "api-resources",
    "can",
    "contexts",
    "ctx",
    "informers",
    "logs",
    "pulse",
    "pulses",
    "quit",
    "top",
    "watches",
    "xray",
];

/// Runs a `:` command: a kind (plural, singular, kind, short name, `plural.group`) with an
/// optional `-l selector` and an optional namespace or `-A`/`all`; `ctx [name]`,
/// `informers`/`watches`, `api-resources`/`ar`, `q`/`quit`. An `[aliases]` name first
/// expands to its command line. A name that only discovery can resolve is kept until
/// discovery answers. Returns the effects it asks for.
pub fn run_command(state: &mut UiState, line: &str) -> Vec<Effect> {
    run(state, line, false);
    state.take_effects()
}

/// [`run_command`]; `asked_again` is set when `line` waited for a rediscovery because its
/// name was unknown (it is then reported unknown instead of asking once more).
pub fn run(state: &mut UiState, line: &str, asked_again: bool) {
    // A new command replaces one still waiting for discovery.
    state.screens.prompt.deferred = None;
    let expanded = crate::app::configure::expand_alias(state, line);
    let line = expanded.as_deref().unwrap_or(line);
    if crate::app::fleet::keys::refuse_command(state, line) {
        return;
    }
    if crate::app::forwards::command(state, line)
        || crate::app::session::command::command(state, line)
        || crate::app::can::command::command(state, line)
        || crate::app::xray::command(state, line)
    {
        return;
    }
    let (cmd, arg, labels) = match crate::app::command_args::parse(line) {
        Ok(Some(parsed)) => parsed,
        Ok(None) => return,
        Err(e) => {
            state.screens.footer.message = Some(e);
            return;
        }
    };
    let (cmd, arg, labels) = (cmd.as_str(), arg.as_deref(), labels.as_deref());
    if let Some(e) = bad_namespace(cmd, arg) {
        state.screens.footer.message = Some(e);
        return;
    }
    match cmd {
        "q" | "q!" | "quit" | "exit" => state.emit(Effect::Quit(0)),
        "logs" | "log" => crate::app::logs::update::command(state, arg, labels),
        "top" => top(state, arg, labels),
        "pulse" | "pulses" | "pu" if labels.is_none() => crate::app::pulse::command(state, arg),
        "informers" | "watches" | "informer" | "watch" => {
            crate::app::nav::open(state, Screen::Informers { selected: 0 });
        }
        "ns" | "namespace" | "namespaces" if arg.is_some() && labels.is_none() => {
            crate::app::nav::set_namespace(state, arg.unwrap_or_default());
        }
        "ar" | "api-resources" | "apiresources" => {
            state.emit(Effect::Rediscover);
            // A `:` command's view is the base: `esc` stays, `[` goes back.
            crate::app::nav::open(
                state,
                Screen::ApiResources {
                    selected: 0,
                    filter: String::new(),
                },
            );
        }
        "ctx" | "context" | "contexts" => match arg {
            Some(name) => crate::app::fleet::open::ctx_command(state, name),
            None => {
                let selected = state
                    .conn
                    .context
                    .as_ref()
                    .and_then(|c| state.conn.contexts.iter().position(|x| x == c));
                crate::app::nav::open(
                    state,
                    Screen::Contexts {
                        selected: selected.unwrap_or(0),
                    },
                );
            }
        },
        other => match state.conn.registry.resolve(other) {
            Ok(kind) => open_kind(state, kind, arg, labels),
            Err(ResolveError::Unknown) if state.conn.registry.known == Known::BuiltinsOnly => {
                state.note(format!("{other}: waiting for API discovery…"));
                state.screens.prompt.deferred = Some((line.to_owned(), false));
            }
            Err(ResolveError::Unknown) if !asked_again => {
                // Maybe created since the last discovery (a CRD, when CRDs cannot be watched).
                state.note(format!("{other}: not known yet; asking the API server again…"));
                state.screens.prompt.deferred = Some((line.to_owned(), true));
                state.emit(Effect::Rediscover);
            }
            Err(ResolveError::Unknown) => {
                state.screens.footer.message = Some(format!(
                    "unknown command or resource: {other} (see :api-resources)"
                ))
            }
            Err(ResolveError::Ambiguous(names)) => {
                state.screens.footer.message = Some(format!("{other} is ambiguous: {}", names.join(", ")))
            }
            Err(ResolveError::NotListable(name)) => {
                state.screens.footer.message = Some(format!("{name} cannot be listed and watched"))
            }
        },
    }
}

/// The error for a command's namespace word that cannot be a namespace (`:pods Bad_Name`,
/// `:ns -x`), before any URL is built from it; `None` for `-A`/`all`/`*`, no word, and the
/// commands whose word is not a namespace (`ctx`, `logs`' container, …).
fn bad_namespace(cmd: &str, arg: Option<&str>) -> Option<String> {
    let word = arg.filter(|a| !matches!(*a, "-A" | "all" | "*"))?;
    let not_ns = COMMANDS.contains(&cmd)
        || matches!(
            cmd,
            "q" | "q!" | "exit" | "log" | "informer" | "watch" | "ar" | "apiresources" | "context"
        );
    if not_ns {
        return None;
    }
    crate::kube::key::check_namespace(word)
        .err()
        .map(|e| format!("{cmd}: {e}"))
}

/// `:top [pods] [namespace|-A]`, `:top nodes`: the pods (or nodes) list sorted by CPU,
/// highest first, as `kubectl top` answers — but live.
fn top(state: &mut UiState, arg: Option<&str>, labels: Option<&str>) {
    use crate::app::list::model::{SortBy, UsageCol};
    use crate::kube::builtin::BuiltinKind;
    let mut words = arg.unwrap_or("").split_whitespace();
    let first = words.next();
    let (kind, ns) = match first {
        Some("nodes" | "node" | "no") => (BuiltinKind::Node, None),
        Some("pods" | "pod" | "po") => (BuiltinKind::Pod, words.next()),
        other => (BuiltinKind::Pod, other),
    };
    if let Some(e) = ns
        .filter(|n| !matches!(*n, "-A" | "all" | "*"))
        .and_then(|n| crate::kube::key::check_namespace(n).err())
    {
        state.screens.footer.message = Some(format!("top: {e}"));
        return;
    }
    let ns = if kind == BuiltinKind::Node { None } else { ns };
    open_kind(state, Kind::from(kind), ns, labels);
    if let Some(l) = state.top_list_mut() {
        l.sort = SortBy::Usage(UsageCol::Cpu);
        l.reverse = false;
    }
}

/// Opens a list of `kind` as the only view (the stack it replaces is kept for `esc`/`[`),
/// in namespace `ns` (`-A`/`all`/`*` = all) — for this view only: later views without a
/// namespace use the session's (`:ns`) — narrowed by a server-side label selector.
pub fn open_kind(state: &mut UiState, kind: Kind, ns: Option<&str>, labels: Option<&str>) {
    let chosen = ns.is_some();
    let ns = match ns {
        Some("-A") | Some("all") | Some("*") => None,
        Some(ns) => Some(ns),
        None => state.conn.namespace.as_deref(),
    };
    let mut key = ResourceKey::new(kind, ns);
    if let Some(sel) = labels {
        key = key.with_labels(sel);
    }
    let mut view = ListState::new(key, None);
    view.ns_chosen = chosen;
    crate::app::nav::open(state, Screen::List(Box::new(view)));
}

/// Completes the command's first word against ktui's commands, `[aliases]` and the
/// registry's resource names: to the only candidate, else to the candidates' longest common
/// prefix, listing up to ten of them in the footer.
pub fn complete(state: &mut UiState, typed: &str) -> String {
    let t = typed.trim_start();
    // `:ctx <tab>` completes context names (as they are: they may hold upper case).
    for cmd in ["ctx ", "context ", "contexts "] {
        if let Some(rest) = t.strip_prefix(cmd).filter(|r| !r.contains(' ')) {
            let contexts = state.conn.contexts.clone();
            return match pick(state, &contexts, rest) {
                Some(done) => format!("{cmd}{done}"),
                None => typed.to_owned(),
            };
        }
    }
    let t = t.to_ascii_lowercase();
    if t.is_empty() || t.contains(' ') {
        return typed.to_owned();
    }
    let mut names = state.conn.registry.names();
    names.extend(COMMANDS.iter().map(|c| c.to_string()));
    names.extend(state.settings.aliases.keys().cloned());
    names.sort();
    names.dedup();
    pick(state, &names, &t).unwrap_or_else(|| typed.to_owned())
}

/// Completes `prefix` among `names`: the only candidate with a space after it, else the
/// candidates' longest common prefix with up to ten of them listed in the footer; `None`
/// when nothing matches.
fn pick(state: &mut UiState, names: &[String], prefix: &str) -> Option<String> {
    let found: Vec<&String> = names.iter().filter(|n| n.starts_with(prefix)).collect();
    match found.as_slice() {
        [] => None,
        [one] => Some(format!("{one} ")),
        many => {
            let shown: Vec<&str> = many.iter().take(10).map(|s| s.as_str()).collect();
            let more = many.len().saturating_sub(shown.len());
            let tail = if more > 0 {
                format!(" (+{more})")
            } else {
                String::new()
            };
            state.note(format!("{}{tail}", shown.join("  ")));
            Some(common_prefix(many))
        }
    }
}

/// The longest common prefix of `names`, in characters (alias names may be non-ASCII).
fn common_prefix(names: &[&String]) -> String {
    let Some(first) = names.first() else {
        return String::new();
    };
    let len = names
        .iter()
        .map(|n| first.chars().zip(n.chars()).take_while(|(a, b)| a == b).count())
        .min()
        .unwrap_or(0);
    first.chars().take(len).collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn common_prefix_counts_characters() {
        let names = ["ééxa".to_owned(), "ééxb".to_owned(), "ééxc".to_owned()];
        let refs: Vec<&String> = names.iter().collect();
        assert_eq!(super::common_prefix(&refs), "ééx");
        let names = ["deploy".to_owned(), "deployments".to_owned()];
        let refs: Vec<&String> = names.iter().collect();
        assert_eq!(super::common_prefix(&refs), "deploy");
    }
}
