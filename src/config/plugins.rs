//! `[[plugins]]`: commands bound to keys in list views, k9s-style. Owns their shape (checked
//! while parsing, so a bad key or an empty command is an error at its line and column) and
//! sifting out the plugins whose key clashes with a binding or an earlier plugin — each one
//! dropped alone, with a message naming the plugin, the key and what it clashes with. Must
//! not expand variables nor run anything (`app::plugins` and `runtime::plugins` do).

use std::path::Path;

use serde::de::{self, Deserializer};
use serde::Deserialize;

use super::keymap::KeySeq;
use super::ConfigError;
use crate::keys::{Action, KeyMode, KeyPress, Keymap};

/// The scope that matches every list view (and the containers view).
pub const ALL_SCOPES: &str = "all";

/// The scope of the containers view (`enter` on a pod).
pub const CONTAINERS: &str = "containers";

/// One `[[plugins]]` entry.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PluginSpec {
    /// Unique name (letters, digits, `-`, `_`, `.`), shown in messages and the footer.
    #[serde(deserialize_with = "name")]
    pub name: String,
    /// The key in ktui's syntax (`shift-d`, `ctrl-l`, `alt-x`, `x`); its span locates a clash.
    pub key: toml::Spanned<KeySeq>,
    /// Help text (`?` and the footer); the name when empty.
    #[serde(default)]
    pub description: String,
    /// Where the key works: kind names as typed after `:` (`pods`, `deploy`,
    /// `certificates.cert-manager.io`), `containers` (the containers view), or `all`.
    #[serde(deserialize_with = "scopes")]
    pub scopes: Vec<String>,
    /// The program (looked up in `PATH` without a `/`); no shell runs unless it is one.
    #[serde(deserialize_with = "command")]
    pub command: String,
    /// Its arguments, each one argv item after variable expansion (`$NAME`, `$COL-STATUS`…).
    #[serde(default)]
    pub args: Vec<String>,
    /// `true`: runs detached, its exit status and last line of output go to the footer;
    /// `false` (default): the terminal is handed over until it exits.
    #[serde(default)]
    pub background: bool,
    /// Ask first (a dialog naming the context and the command line, "no" selected).
    #[serde(default)]
    pub confirm: bool,
    /// `true`: the plugin only reads, so it stays in read-only mode; otherwise it counts as
    /// a write and `--readonly` (or a read-only context) removes it.
    #[serde(default)]
    pub readonly: bool,
}

impl PluginSpec {
    /// The help text: the description, else the name.
    pub fn desc(&self) -> &str {
        if self.description.trim().is_empty() {
            &self.name
        } else {
            &self.description
        }
    }

    /// The key's presses.
    pub fn presses(&self) -> &[KeyPress] {
        &self.key.get_ref().presses
    }
}

fn name<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let s = String::deserialize(d)?;
    let ok = !s.is_empty()
        && s.len() <= 64
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if ok {
        Ok(s)
    } else {
        Err(de::Error::custom(format!(
            "invalid plugin name {s:?} (1 to 64 letters, digits, '-', '_' or '.')"
        )))
    }
}

fn scopes<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<String>, D::Error> {
    let v = Vec::<String>::deserialize(d)?;
    if v.is_empty() {
        return Err(de::Error::custom(
            "no scopes (kind names such as \"pods\", \"containers\", or \"all\")",
        ));
    }
    if let Some(bad) = v
        .iter()
        .find(|s| s.trim().is_empty() || s.chars().any(char::is_whitespace))
    {
        return Err(de::Error::custom(format!("invalid scope {bad:?}")));
    }
    Ok(v)
}

fn command<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let s = String::deserialize(d)?;
    if s.trim().is_empty() {
        Err(de::Error::custom("empty command"))
    } else {
        Ok(s)
    }
}

/// The scope name a scope is compared by: the resolved built-in kind's full name where the
/// text names one (`po`, `pod` and `pods` are one scope), else the text in lower case.
pub fn scope_id(scope: &str) -> String {
    crate::kube::registry::Registry::builtins()
        .resolve(scope)
        .map(|k| k.full_name())
        .unwrap_or_else(|_| scope.to_ascii_lowercase())
}

/// Whether two plugins' scopes share a view.
fn overlap(a: &PluginSpec, b: &PluginSpec) -> bool {
    let all = |p: &PluginSpec| p.scopes.iter().any(|s| s.eq_ignore_ascii_case(ALL_SCOPES));
    if all(a) || all(b) {
        return true;
    }
    let ids: Vec<String> = a.scopes.iter().map(|s| scope_id(s)).collect();
    b.scopes.iter().any(|s| ids.contains(&scope_id(s)))
}

/// Whether one key sequence equals the other or starts it (a chord `g g` and `g` clash).
fn shadows(a: &[KeyPress], b: &[KeyPress]) -> bool {
    let n = a.len().min(b.len());
    a[..n] == b[..n]
}

/// The plugins in order, minus those that clash: a duplicate name, a key bound in
/// `[normal]` of `keymap` (defaults plus the user's `[keymap]`: the bindings of every list),
/// or the key of an earlier kept plugin whose scopes overlap. Each dropped plugin gives one
/// error at its key's line and column in `source` of `path`.
pub fn sift(
    plugins: Vec<PluginSpec>,
    keymap: &Keymap,
    path: &Path,
    source: &str,
) -> (Vec<PluginSpec>, Vec<ConfigError>) {
    let mut kept: Vec<PluginSpec> = Vec::new();
    let mut clashes = Vec::new();
    for p in plugins {
        let key = &p.key.get_ref().text;
        let why = if kept.iter().any(|k| k.name == p.name) {
            Some(format!("another plugin is named {:?}", p.name))
        } else if let Some(b) = keymap
            .bindings(KeyMode::Normal)
            .iter()
            .find(|b| shadows(&b.seq, p.presses()))
        {
            let action = Action::ALL
                .iter()
                .find(|(a, _)| *a == b.run)
                .map_or("?", |(_, n)| n);
            Some(format!(
                "key {key:?} clashes with the binding {:?} → {action} ({}); unbind it in \
                 [keymap.normal] with run = \"none\" or choose another key",
                b.on, b.desc
            ))
        } else {
            kept.iter()
                .find(|k| shadows(k.presses(), p.presses()) && overlap(k, &p))
                .map(|k| format!("key {key:?} clashes with plugin {:?} in a shared scope", k.name))
        };
        match why {
            Some(why) => clashes.push(ConfigError::at(
                path,
                source,
                Some(p.key.span()),
                format!("plugin {:?} dropped: {why}", p.name),
            )),
            None => kept.push(p),
        }
    }
    (kept, clashes)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<crate::config::Config, String> {
        crate::config::parse(Path::new("c.toml"), text).map_err(|e| e.to_string())
    }

    const TWO: &str = "[[plugins]]\nname = \"stern\"\nkey = \"ctrl-t\"\nscopes = [\"pods\"]\n\
        command = \"stern\"\nargs = [\"$NAME\"]\n\n[[plugins]]\nname = \"sorter\"\nkey = \"N\"\n\
        scopes = [\"all\"]\ncommand = \"true\"\n\n[[plugins]]\nname = \"again\"\nkey = \"ctrl-t\"\n\
        scopes = [\"po\"]\ncommand = \"true\"\n\n[[plugins]]\nname = \"elsewhere\"\nkey = \"ctrl-t\"\n\
        scopes = [\"deploy\"]\ncommand = \"true\"\n";

    #[test]
    fn a_clash_drops_that_plugin_alone_with_its_position() {
        let c = parse(TWO).unwrap();
        let names: Vec<&str> = c.plugins.iter().map(|p| p.name.as_str()).collect();
        assert_eq!(names, ["stern", "elsewhere"]);
        let msgs: Vec<String> = c.plugin_clashes.iter().map(|e| e.to_string()).collect();
        assert_eq!(msgs.len(), 2, "{msgs:?}");
        assert!(
            msgs[0].starts_with("c.toml:10:7: plugins.key: plugin \"sorter\" dropped: key \"N\" clashes with the binding \"N\" → sort_name"),
            "{}",
            msgs[0]
        );
        assert!(
            msgs[1].starts_with("c.toml:16:7: plugins.key: plugin \"again\" dropped: key \"ctrl-t\" clashes with plugin \"stern\""),
            "{}",
            msgs[1]
        );
    }

    #[test]
    fn an_unbound_key_frees_it_for_a_plugin() {
        let text = format!("[keymap.normal]\nbindings = [{{ on = \"N\", run = \"none\" }}]\n\n{TWO}");
        let c = parse(&text).unwrap();
        assert!(c.plugins.iter().any(|p| p.name == "sorter"));
    }

    #[test]
    fn bad_entries_are_errors_at_their_line_and_column() {
        let e =
            parse("[[plugins]]\nname = \"x\"\nkey = \"hyper-d\"\nscopes = [\"pods\"]\ncommand = \"ls\"\n")
                .unwrap_err();
        assert!(e.starts_with("c.toml:3:7: plugins.key: unknown key"), "{e}");
        let e = parse("[[plugins]]\nname = \"x\"\nkey = \"d\"\nscopes = []\ncommand = \"ls\"\n").unwrap_err();
        assert!(e.starts_with("c.toml:4:10: plugins.scopes: no scopes"), "{e}");
        let e = parse("[[plugins]]\nname = \"x y\"\nkey = \"d\"\nscopes = [\"all\"]\ncommand = \"ls\"\n")
            .unwrap_err();
        assert!(
            e.starts_with("c.toml:2:8: plugins.name: invalid plugin name"),
            "{e}"
        );
        let e = parse("[[plugins]]\nname = \"x\"\nkey = \"d\"\nscopes = [\"all\"]\ncommand = \"\"\n")
            .unwrap_err();
        assert!(
            e.starts_with("c.toml:5:11: plugins.command: empty command"),
            "{e}"
        );
        let e = parse(
            "[[plugins]]\nname = \"x\"\nkey = \"d\"\nscopes = [\"all\"]\ncommand = \"ls\"\nshell = true\n",
        )
        .unwrap_err();
        assert!(e.starts_with("c.toml:6:1: plugins.shell: unknown field"), "{e}");
    }

    #[test]
    fn scopes_name_kinds_by_any_of_their_names() {
        assert_eq!(scope_id("po"), scope_id("pods"));
        assert_eq!(scope_id("Deploy"), scope_id("deployments.apps"));
        assert_eq!(scope_id("containers"), "containers");
    }
}
