//! k9s entries to ktui's TOML: a plugin to a `[[plugins]]` block (its `shortCut` in ktui's
//! key syntax, the same variables in its arguments), an alias to an `[aliases]` line (a
//! `group/version/resource` target to the name `:` takes), a hotkey to an alias (ktui binds
//! keys to actions, not to command lines). Each entry converts or says why not. Owns the
//! conversion; must not read or write files.

use serde_json::{Map, Value};

use super::k9s::{text, Entry};
use crate::keys::KeyPress;

/// The plugin fields ktui takes over; any other field is reported as ignored.
const PLUGIN_FIELDS: [&str; 7] = [
    "shortCut",
    "description",
    "scopes",
    "command",
    "args",
    "background",
    "confirm",
];

/// One converted plugin.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Plugin {
    /// Its name (the k9s map key).
    pub name: String,
    /// The `[[plugins]]` block, ending with a newline.
    pub toml: String,
    /// Fields that were dropped, with why (for the report).
    pub notes: Vec<String>,
}

/// A k9s `shortCut` (`Shift-D`, `Ctrl-L`, `Alt-X`, `a`, `Ctrl-Space`) in ktui's syntax
/// (`shift-d`, `ctrl-l`, `alt-x`, `a`, `ctrl-space`); `Err` for a key ktui cannot bind.
pub fn key(short_cut: &str) -> Result<String, String> {
    let parts: Vec<&str> = short_cut.trim().split('-').collect();
    let Some((last, mods)) = parts.split_last() else {
        return Err("empty shortCut".into());
    };
    let mut out = String::new();
    for m in mods {
        match m.to_ascii_lowercase().as_str() {
            m @ ("ctrl" | "shift" | "alt") => {
                out.push_str(m);
                out.push('-');
            }
            _ => return Err(format!("unknown modifier {m:?} in shortCut {short_cut:?}")),
        }
    }
    let k = if last.chars().count() == 1 {
        last.to_ascii_lowercase()
    } else {
        match last.to_ascii_lowercase().as_str() {
            "pgup" | "pageup" => "pgup".into(),
            "pgdn" | "pagedown" => "pgdn".into(),
            "escape" => "esc".into(),
            other => other.to_owned(),
        }
    };
    out.push_str(&k);
    KeyPress::parse(&out).map_err(|e| format!("shortCut {short_cut:?}: {e}"))?;
    Ok(out)
}

/// A TOML basic string holding `s` (quotes, backslashes and control characters escaped).
pub fn quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c.is_control() => out.push_str(&format!("\\u{:04X}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn list(items: &[String]) -> String {
    let inner: Vec<String> = items.iter().map(|s| quote(s)).collect();
    format!("[{}]", inner.join(", "))
}

fn strings(v: Option<&Value>) -> Result<Vec<String>, String> {
    match v {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(a)) => a
            .iter()
            .map(|x| match x {
                Value::String(s) => Ok(s.clone()),
                Value::Number(n) => Ok(n.to_string()),
                Value::Bool(b) => Ok(b.to_string()),
                _ => Err("a list item is not a string".to_owned()),
            })
            .collect(),
        Some(Value::String(s)) => Ok(vec![s.clone()]),
        Some(_) => Err("not a list".into()),
    }
}

fn flag(m: &Map<String, Value>, k: &str) -> bool {
    matches!(m.get(k), Some(Value::Bool(true)))
}

/// A k9s plugin as a `[[plugins]]` block; `Err` says why it cannot be one.
pub fn plugin(e: &Entry) -> Result<Plugin, String> {
    let Value::Object(m) = &e.value else {
        return Err("not a map".into());
    };
    let name_ok = !e.name.is_empty()
        && e.name.len() <= 64
        && e.name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'));
    if !name_ok {
        return Err("its name is not one ktui takes (letters, digits, '-', '_', '.')".into());
    }
    if m.get("pipes")
        .is_some_and(|p| !matches!(p, Value::Null) && p != &Value::Array(Vec::new()))
    {
        return Err("it pipes its output into other commands (`pipes`), which ktui does not do".into());
    }
    let short = text(m, "shortCut").ok_or("no shortCut")?;
    let key = key(&short)?;
    let command = text(m, "command")
        .filter(|c| !c.trim().is_empty())
        .ok_or("no command")?;
    let scopes = strings(m.get("scopes")).map_err(|e| format!("scopes: {e}"))?;
    if scopes.is_empty() {
        return Err("no scopes".into());
    }
    if let Some(bad) = scopes
        .iter()
        .find(|s| s.trim().is_empty() || s.chars().any(char::is_whitespace))
    {
        return Err(format!("scope {bad:?} is not a name"));
    }
    let args = strings(m.get("args")).map_err(|e| format!("args: {e}"))?;
    let mut notes: Vec<String> = m
        .keys()
        .filter(|k| {
            !PLUGIN_FIELDS.contains(&k.as_str()) && k.as_str() != "dangerous" && k.as_str() != "pipes"
        })
        .map(|k| format!("field {k:?} ignored"))
        .collect();
    notes.push(if flag(m, "dangerous") {
        "counts as a write (k9s: dangerous)".to_owned()
    } else {
        "counts as a write: add `readonly = true` if it only reads".to_owned()
    });
    let mut toml = format!("[[plugins]]\nname = {}\nkey = {}\n", quote(&e.name), quote(&key));
    if let Some(d) = text(m, "description").filter(|d| !d.is_empty()) {
        toml.push_str(&format!("description = {}\n", quote(&d)));
    }
    toml.push_str(&format!(
        "scopes = {}\ncommand = {}\n",
        list(&scopes),
        quote(&command)
    ));
    if !args.is_empty() {
        toml.push_str(&format!("args = {}\n", list(&args)));
    }
    for f in ["background", "confirm"] {
        if flag(m, f) {
            toml.push_str(&format!("{f} = true\n"));
        }
    }
    Ok(Plugin {
        name: e.name.clone(),
        toml,
        notes,
    })
}

/// A k9s alias target as ktui's `:` takes it: `v1/pods` → `pods`, `apps/v1/deployments` →
/// `deployments.apps`; anything after the first word stays.
pub fn alias_target(target: &str) -> String {
    let target = target.trim().trim_start_matches(':');
    let (first, rest) = target.split_once(char::is_whitespace).unwrap_or((target, ""));
    let parts: Vec<&str> = first.split('/').collect();
    let name = match parts[..] {
        [_version, resource] => resource.to_owned(),
        [group, _version, resource] => format!("{resource}.{group}"),
        _ => first.to_owned(),
    };
    if rest.trim().is_empty() {
        name
    } else {
        format!("{name} {}", rest.trim())
    }
}

/// Whether `name` can be an alias (a `:` word).
pub fn alias_name_ok(name: &str) -> bool {
    !name.is_empty()
        && name.len() <= 64
        && name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.'))
}

/// A k9s command line ktui's `:` cannot take: a word naming a context (`@prod`; ktui's `:`
/// lines stay in the context in use).
fn unsupported(target: &str) -> Option<String> {
    let ctx = target.split_whitespace().find(|w| w.starts_with('@'))?;
    Some(format!(
        "its target names a context ({ctx}): ktui's : lines do not switch contexts"
    ))
}

/// A k9s alias entry as `(name, command line)`.
pub fn alias(e: &Entry) -> Result<(String, String), String> {
    if !alias_name_ok(&e.name) {
        return Err("its name is not a `:` word".into());
    }
    match &e.value {
        Value::String(t) if !t.trim().is_empty() => match unsupported(t) {
            Some(why) => Err(why),
            None => Ok((e.name.clone(), alias_target(t))),
        },
        _ => Err("its target is not a string".into()),
    }
}

/// A k9s hotkey as an alias `(name, command line)`: ktui binds keys to actions, so the
/// hotkey's command becomes `:name`.
pub fn hotkey(e: &Entry) -> Result<(String, String), String> {
    let Value::Object(m) = &e.value else {
        return Err("not a map".into());
    };
    if !alias_name_ok(&e.name) {
        return Err("its name is not a `:` word".into());
    }
    let command = text(m, "command")
        .filter(|c| !c.trim().is_empty())
        .ok_or("no command")?;
    if let Some(why) = unsupported(&command) {
        return Err(why);
    }
    Ok((e.name.clone(), alias_target(&command)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn k9s_keys_in_ktui_syntax() {
        assert_eq!(key("Shift-D").unwrap(), "shift-d");
        assert_eq!(key("Ctrl-L").unwrap(), "ctrl-l");
        assert_eq!(key("Alt-X").unwrap(), "alt-x");
        assert_eq!(key("a").unwrap(), "a");
        assert_eq!(key("Ctrl-Space").unwrap(), "ctrl-space");
        assert_eq!(
            KeyPress::parse(&key("Shift-D").unwrap()).unwrap(),
            KeyPress::parse("D").unwrap()
        );
        assert!(key("Hyper-Q").is_err());
        assert!(key("Ctrl-F13").is_err());
    }

    #[test]
    fn alias_targets() {
        assert_eq!(alias_target("v1/pods"), "pods");
        assert_eq!(alias_target("apps/v1/deployments"), "deployments.apps");
        assert_eq!(alias_target(":pods kube-system"), "pods kube-system");
        assert_eq!(alias_target("dp"), "dp");
    }

    #[test]
    fn quoting_escapes_what_toml_needs() {
        assert_eq!(quote("a\"b\\c\u{1b}"), "\"a\\\"b\\\\c\\u001B\"");
    }

    #[test]
    fn a_target_naming_a_context_is_not_converted() {
        let e = Entry {
            name: "pp".into(),
            value: Value::String("v1/pods @pod-namespace".into()),
            file: "aliases.yaml".into(),
        };
        let why = alias(&e).unwrap_err();
        assert!(why.contains("@pod-namespace"), "{why}");
        let e = Entry {
            name: "dp".into(),
            value: Value::String("apps/v1/deployments kube-system".into()),
            file: "aliases.yaml".into(),
        };
        assert_eq!(
            alias(&e).unwrap(),
            ("dp".into(), "deployments.apps kube-system".into())
        );
    }
}
