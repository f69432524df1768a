//! How the benchmark drives each tool in a pty: the command line and environment that open
//! an all-namespaces pods view (ktui, k9s) or a pods listing (kubectl), and how each one's
//! screen says "a first row", "this many pods" and "filtered down to one". Must not time
//! anything or decide what is measured (see `measure`).

use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

use crate::pty::Tui;

/// Terminal size of every run (rows × columns).
pub const ROWS: u16 = 45;
pub const COLS: u16 = 160;

/// One of the tools compared.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tool {
    Ktui,
    K9s,
    Kubectl,
}

impl Tool {
    pub fn name(self) -> &'static str {
        match self {
            Tool::Ktui => "ktui",
            Tool::K9s => "k9s",
            Tool::Kubectl => "kubectl",
        }
    }

    pub fn parse(s: &str) -> Option<Tool> {
        [Tool::Ktui, Tool::K9s, Tool::Kubectl]
            .into_iter()
            .find(|t| t.name() == s)
    }
}

/// The binaries compared.
pub struct Bins {
    pub ktui: PathBuf,
    pub k9s: Option<PathBuf>,
    pub kubectl: Option<PathBuf>,
}

impl Bins {
    pub fn of(&self, tool: Tool) -> Option<&Path> {
        match tool {
            Tool::Ktui => Some(&self.ktui),
            Tool::K9s => self.k9s.as_deref(),
            Tool::Kubectl => self.kubectl.as_deref(),
        }
    }
}

/// HOME and every XDG directory pointed at `dir`, so no tool reads or writes the user's own
/// configuration, and each run starts from the same (empty) state.
fn private_env(dir: &Path) -> Vec<(&'static str, OsString)> {
    let d = dir.as_os_str().to_owned();
    let mut v: Vec<(&'static str, OsString)> = [
        "HOME",
        "XDG_CONFIG_HOME",
        "XDG_STATE_HOME",
        "XDG_DATA_HOME",
        "XDG_CACHE_HOME",
    ]
    .into_iter()
    .map(|k| (k, d.clone()))
    .collect();
    v.push(("K9S_CONFIG_DIR", dir.join("k9s").into_os_string()));
    v
}

/// Starts the interactive view of `tool` (ktui, k9s: all-namespaces pods; kubectl:
/// `get pods -A` plus `extra` arguments) against `kubeconfig`, with state under `dir`.
pub fn spawn(tool: Tool, bin: &Path, kubeconfig: &Path, dir: &Path, extra: &[&str]) -> Tui {
    let kc = kubeconfig.as_os_str();
    let log = dir.join(format!("{}.log", tool.name()));
    let mut args: Vec<&OsStr> = match tool {
        Tool::Ktui => vec![
            OsStr::new("--kubeconfig"),
            kc,
            OsStr::new("-A"),
            OsStr::new("--log-file"),
            log.as_os_str(),
        ],
        Tool::K9s => vec![
            OsStr::new("--kubeconfig"),
            kc,
            OsStr::new("-A"),
            OsStr::new("-c"),
            OsStr::new("pods"),
            OsStr::new("--headless"),
            OsStr::new("--logoless"),
            OsStr::new("--splashless"),
            OsStr::new("--readonly"),
        ],
        Tool::Kubectl => vec![
            OsStr::new("--kubeconfig"),
            kc,
            OsStr::new("get"),
            OsStr::new("pods"),
            OsStr::new("-A"),
        ],
    };
    args.extend(extra.iter().map(OsStr::new));
    let env = private_env(dir);
    let envs: Vec<(&str, &OsStr)> = env.iter().map(|(k, v)| (*k, v.as_os_str())).collect();
    let mut t = Tui::spawn(bin, &args, &envs, ROWS, COLS);
    if tool == Tool::Ktui {
        t.log_file = Some(log);
    }
    t
}

/// A pod row is on screen (every load pod of the demo server is `Running` once listed).
pub fn first_row(screen: &str) -> bool {
    screen.lines().any(|l| l.contains("Running"))
}

/// ktui's header (line 2): the kind and the count after it, `SHOWN` of `SHOWN/TOTAL` —
/// ` pods  1,234  ● live`, ` events timeline  50,000  ● live`.
fn ktui_header(screen: &str) -> Option<(String, u64)> {
    let line = screen.lines().nth(1)?;
    let mut words = line.split_whitespace().filter(|w| *w != "timeline");
    let kind = words.next()?.to_lowercase();
    let count = words.next()?.split('/').next()?.replace(',', "").parse().ok()?;
    Some((kind, count))
}

/// k9s's count of `view` from its title: `pods(all)[COUNT]`, `pods(all)</filter>[COUNT]`.
fn k9s_count(screen: &str, view: &str) -> Option<u64> {
    let title = format!("{view}(");
    let line = screen.lines().find(|l| l.contains(&title))?;
    let rest = &line[line.find(&title)?..];
    let open = rest.find('[')?;
    let close = rest[open..].find(']')? + open;
    rest[open + 1..close].replace(',', "").parse().ok()
}

/// The pod count the view shows (ktui's header, k9s's title); `None` for kubectl or when
/// absent.
pub fn count(tool: Tool, screen: &str) -> Option<u64> {
    match tool {
        Tool::Ktui => ktui_header(screen).map(|(_, n)| n),
        Tool::K9s => k9s_count(screen, "pods"),
        Tool::Kubectl => None,
    }
}

/// The view on screen is `view` (`pods`, `nodes`, `events`) and holds at least `least`
/// objects: ktui's header names the kind, counts at least that and says `live`; k9s's title
/// is `view(…)[COUNT]` with at least that count.
pub fn view_holds(tool: Tool, screen: &str, view: &str, least: usize) -> bool {
    let singular = view.trim_end_matches('s');
    match tool {
        Tool::Ktui => {
            ktui_header(screen).is_some_and(|(kind, n)| kind.starts_with(singular) && n as usize >= least)
                && screen.lines().nth(1).is_some_and(|l| l.contains("live"))
        }
        Tool::K9s => k9s_count(screen, view).is_some_and(|n| n as usize >= least),
        Tool::Kubectl => false,
    }
}

/// The view holds all `pods` and says it is in sync (ktui's header says `live`).
pub fn synced(tool: Tool, screen: &str, pods: usize) -> bool {
    let full = count(tool, screen).is_some_and(|n| n as usize >= pods);
    match tool {
        Tool::Ktui => full && screen.lines().nth(1).is_some_and(|l| l.contains("live")),
        _ => full,
    }
}
