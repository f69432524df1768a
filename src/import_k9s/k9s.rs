//! k9s's own files, as `ktui import-k9s` reads them: where k9s keeps them
//! (`$K9S_CONFIG_DIR`, else `$XDG_CONFIG_HOME/k9s`, else `~/.config/k9s`), and the shapes
//! of `plugins.yaml` (a `plugins:` map, or the older `plugin:`; also every
//! `plugins/*.yaml`), `aliases.yaml` (`aliases:`) and `hotkeys.yaml` (`hotKeys:`). Owns
//! reading and decoding them; must not convert anything (`convert` does) nor write.

use std::path::{Path, PathBuf};

use serde_json::{Map, Value};

/// k9s's configuration directory: `$K9S_CONFIG_DIR`, else `$XDG_CONFIG_HOME/k9s`, else
/// `$HOME/.config/k9s`; `env` reads a variable.
pub fn config_dir(env: impl Fn(&str) -> Option<String>) -> Option<PathBuf> {
    let set = |k: &str| env(k).filter(|v| !v.trim().is_empty());
    set("K9S_CONFIG_DIR")
        .map(PathBuf::from)
        .or_else(|| set("XDG_CONFIG_HOME").map(|d| Path::new(&d).join("k9s")))
        .or_else(|| set("HOME").map(|h| Path::new(&h).join(".config").join("k9s")))
}

/// One k9s plugin, hotkey or alias entry: its name, its YAML value, and the file it is in.
#[derive(Debug, Clone, PartialEq)]
pub struct Entry {
    /// The key of the entry in its map.
    pub name: String,
    /// Its value as decoded.
    pub value: Value,
    /// The file it came from.
    pub file: PathBuf,
}

/// What was found in a k9s directory.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct K9sFiles {
    /// Plugins, file by file (`plugins.yaml` first, then `plugins/*.yaml` by name), each map
    /// in key order.
    pub plugins: Vec<Entry>,
    /// `aliases.yaml`'s `aliases:` entries.
    pub aliases: Vec<Entry>,
    /// `hotkeys.yaml`'s `hotKeys:` entries.
    pub hotkeys: Vec<Entry>,
    /// The files read.
    pub read: Vec<PathBuf>,
    /// Files that could not be read or decoded, with why.
    pub errors: Vec<String>,
}

/// Reads the k9s files of `dir`; missing ones are skipped.
pub fn read(dir: &Path) -> K9sFiles {
    let mut out = K9sFiles::default();
    let mut plugin_files: Vec<PathBuf> = ["plugins.yaml", "plugins.yml", "plugin.yml"]
        .iter()
        .map(|f| dir.join(f))
        .filter(|p| p.is_file())
        .collect();
    if let Ok(entries) = std::fs::read_dir(dir.join("plugins")) {
        let mut more: Vec<PathBuf> = entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "yaml" || x == "yml") && p.is_file())
            .collect();
        more.sort();
        plugin_files.extend(more);
    }
    for f in plugin_files {
        if let Some(v) = load(&f, &mut out) {
            // `plugins:` (k9s ≥ 0.30), `plugin:` (older), or a bare map in `plugins/`.
            let map = v.get("plugins").or_else(|| v.get("plugin")).unwrap_or(&v);
            entries(map, &f, &mut out.plugins, &mut out.errors);
        }
    }
    for (file, key, into) in [
        ("aliases.yaml", "aliases", 0),
        ("aliases.yml", "aliases", 0),
        ("hotkeys.yaml", "hotKeys", 1),
        ("hotkeys.yml", "hotKeys", 1),
    ] {
        let f = dir.join(file);
        if !f.is_file() {
            continue;
        }
        if let Some(v) = load(&f, &mut out) {
            let map = v.get(key).unwrap_or(&Value::Null);
            let list = if into == 0 {
                &mut out.aliases
            } else {
                &mut out.hotkeys
            };
            entries(map, &f, list, &mut out.errors);
        }
    }
    out
}

/// Decodes one YAML file; a failure goes to `out.errors`.
fn load(f: &Path, out: &mut K9sFiles) -> Option<Value> {
    let text = match std::fs::read_to_string(f) {
        Ok(t) => t,
        Err(e) => {
            out.errors.push(format!("{}: cannot read: {e}", f.display()));
            return None;
        }
    };
    out.read.push(f.to_owned());
    if text.trim().is_empty() {
        return None;
    }
    match serde_saphyr::from_str::<Value>(&text) {
        Ok(v) => Some(v),
        Err(e) => {
            out.errors.push(format!("{}: invalid YAML: {e}", f.display()));
            None
        }
    }
}

fn entries(map: &Value, file: &Path, into: &mut Vec<Entry>, errors: &mut Vec<String>) {
    match map {
        Value::Object(m) => into.extend(m.iter().map(|(k, v)| Entry {
            name: k.clone(),
            value: v.clone(),
            file: file.to_owned(),
        })),
        Value::Null => {}
        _ => errors.push(format!("{}: expected a map of entries", file.display())),
    }
}

/// The string at `key` of `m`; numbers and booleans as written.
pub fn text(m: &Map<String, Value>, key: &str) -> Option<String> {
    match m.get(key)? {
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_usual_place() {
        let env = |vars: &'static [(&'static str, &'static str)]| {
            move |k: &str| vars.iter().find(|(n, _)| *n == k).map(|(_, v)| (*v).to_owned())
        };
        assert_eq!(
            config_dir(env(&[
                ("K9S_CONFIG_DIR", "/k"),
                ("XDG_CONFIG_HOME", "/x"),
                ("HOME", "/h")
            ])),
            Some(PathBuf::from("/k"))
        );
        assert_eq!(
            config_dir(env(&[("XDG_CONFIG_HOME", "/x"), ("HOME", "/h")])),
            Some(PathBuf::from("/x/k9s"))
        );
        assert_eq!(
            config_dir(env(&[("HOME", "/h")])),
            Some(PathBuf::from("/h/.config/k9s"))
        );
        assert_eq!(config_dir(env(&[])), None);
    }
}
