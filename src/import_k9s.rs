//! `ktui import-k9s`: k9s's plugins, aliases and hotkeys as ktui configuration. Reads
//! k9s's files from their usual place (or `--from DIR`), converts what ktui can take
//! (`[[plugins]]`, `[aliases]`; hotkeys become aliases), checks the result against the
//! user's config as loading it would — a plugin whose key clashes, or a name the config
//! already has, is not converted — and reports each entry. Prints the TOML, or with
//! `--write` adds it to the config file (mode 0600, nothing existing replaced). Owns that
//! subcommand; must not touch the terminal's modes or the network.

pub mod convert;
pub mod k9s;

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::kube::sanitize::sanitize;

/// The outcome of converting a k9s directory against the user's config.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Import {
    /// What to print: the converted `[[plugins]]` blocks and `[aliases]`.
    pub fragment: String,
    /// The config text with them added (what `--write` writes).
    pub merged: String,
    /// One line per entry: converted (with notes) or not (and why); unsanitized.
    pub report: Vec<String>,
    /// How many entries were converted.
    pub converted: usize,
}

/// Converts `files` for the config `config_text` of `config_path` (empty when there is
/// none). `Err` when the config itself does not load (nothing can be checked against it).
pub fn import(files: &k9s::K9sFiles, config_path: &Path, config_text: &str) -> Result<Import, String> {
    let existing = crate::config::parse(config_path, config_text).map_err(|e| e.to_string())?;
    let mut report: Vec<String> = files.errors.iter().map(|e| format!("not read: {e}")).collect();
    let file = |e: &k9s::Entry| {
        e.file
            .file_name()
            .map_or_else(String::new, |f| f.to_string_lossy().into_owned())
    };
    let taken_plugin = |n: &str| {
        existing.plugins.iter().any(|p| p.name == n)
            || existing
                .plugin_clashes
                .iter()
                .any(|c| c.message.contains(&format!("plugin {n:?} ")))
    };
    let mut plugins: Vec<convert::Plugin> = Vec::new();
    for e in &files.plugins {
        let res = convert::plugin(e).and_then(|p| {
            if taken_plugin(&p.name) {
                Err("ktui's config already has a plugin by that name".into())
            } else if plugins.iter().any(|q| q.name == p.name) {
                Err("another imported plugin has that name".into())
            } else {
                Ok(p)
            }
        });
        match res {
            Ok(p) => plugins.push(p),
            Err(why) => report.push(format!("not converted: plugin {} ({}): {why}", e.name, file(e))),
        }
    }
    let mut aliases: Vec<(String, String)> = Vec::new();
    let mut alias_report: Vec<String> = Vec::new();
    let entries = files
        .aliases
        .iter()
        .map(|e| (e, "alias", convert::alias(e)))
        .chain(files.hotkeys.iter().map(|e| (e, "hotkey", convert::hotkey(e))));
    for (e, what, res) in entries {
        let res = res.and_then(|(n, v)| {
            if existing.aliases.contains_key(&n) {
                Err("ktui's config already has an alias by that name".into())
            } else if aliases.iter().any(|(m, _)| *m == n) {
                Err("another imported alias has that name".into())
            } else {
                Ok((n, v))
            }
        });
        match res {
            Ok((n, v)) => {
                let v = through(&v, &n, &aliases, &existing.aliases);
                alias_report.push(if what == "hotkey" {
                    format!(
                        "converted hotkey {n} ({}) to alias :{n} → {v} (ktui binds keys to actions, not to command lines)",
                        text_of(&e.value, "shortCut")
                    )
                } else {
                    format!("converted alias :{n} → {v}")
                });
                aliases.push((n, v));
            }
            Err(why) => report.push(format!("not converted: {what} {} ({}): {why}", e.name, file(e))),
        }
    }
    // Load the result as ktui would: a clashing plugin is dropped alone, so leave it out.
    let merged = merge(config_text, &plugins, &aliases);
    let checked =
        crate::config::parse(config_path, &merged).map_err(|e| format!("the result does not load: {e}"))?;
    let clashes: Vec<(String, String)> = plugins
        .iter()
        .filter_map(|p| {
            let tag = format!("plugin {:?} dropped: ", p.name);
            checked
                .plugin_clashes
                .iter()
                .find(|c| c.message.starts_with(&tag))
                .map(|c| (p.name.clone(), c.message[tag.len()..].to_owned()))
        })
        .collect();
    for (name, why) in &clashes {
        let e = files.plugins.iter().find(|e| e.name == *name);
        report.push(format!(
            "not converted: plugin {name} ({}): {why}",
            e.map(file).unwrap_or_default()
        ));
    }
    plugins.retain(|p| !clashes.iter().any(|(n, _)| *n == p.name));
    let mut done: Vec<String> = plugins
        .iter()
        .map(|p| {
            let e = files.plugins.iter().find(|e| e.name == p.name);
            format!(
                "converted plugin {} ({}): {}",
                p.name,
                e.map(file).unwrap_or_default(),
                p.notes.join("; ")
            )
        })
        .collect();
    done.extend(alias_report);
    let converted = done.len();
    done.extend(report);
    let merged = merge(config_text, &plugins, &aliases);
    crate::config::parse(config_path, &merged).map_err(|e| format!("the result does not load: {e}"))?;
    Ok(Import {
        fragment: merge("", &plugins, &aliases),
        merged,
        report: done,
        converted,
    })
}

/// ktui's aliases do not expand recursively: a target whose first word is another alias
/// (imported before it, or the config's) becomes that alias's target (one level, as k9s's
/// hotkeys name its aliases).
fn through(
    value: &str,
    name: &str,
    imported: &[(String, String)],
    existing: &std::collections::BTreeMap<String, String>,
) -> String {
    let (first, rest) = value.split_once(' ').unwrap_or((value, ""));
    let target = imported
        .iter()
        .find(|(n, _)| n == first)
        .map(|(_, t)| t)
        .or_else(|| existing.get(first))
        .filter(|_| first != name);
    match target {
        Some(t) => format!("{t} {rest}").trim_end().to_owned(),
        None => value.to_owned(),
    }
}

fn text_of(v: &serde_json::Value, k: &str) -> String {
    v.as_object().and_then(|m| k9s::text(m, k)).unwrap_or_default()
}

/// `config` with `plugins` appended and `aliases` added under its `[aliases]` header (or a
/// new one at the end).
pub fn merge(config: &str, plugins: &[convert::Plugin], aliases: &[(String, String)]) -> String {
    let mut out = config.to_owned();
    if !out.is_empty() && !out.ends_with('\n') {
        out.push('\n');
    }
    if !aliases.is_empty() {
        let lines: String = aliases
            .iter()
            .map(|(n, v)| format!("{n} = {}\n", convert::quote(v)))
            .collect();
        let header = out.lines().scan(0usize, |at, l| {
            let start = *at;
            *at += l.len() + 1;
            Some((start, l))
        });
        let found = header
            .filter(|(_, l)| {
                let t = l.trim_start();
                t.strip_prefix("[aliases]")
                    .is_some_and(|r| r.trim().is_empty() || r.trim_start().starts_with('#'))
            })
            .map(|(start, l)| start + l.len() + 1)
            .next();
        match found {
            Some(at) if at <= out.len() => out.insert_str(at, &lines),
            _ => {
                if !out.is_empty() {
                    out.push('\n');
                }
                out.push_str("[aliases]\n");
                out.push_str(&lines);
            }
        }
    }
    for p in plugins {
        if !out.is_empty() {
            out.push('\n');
        }
        out.push_str(&p.toml);
    }
    out
}

/// `ktui import-k9s [--from DIR] [--write]` for the config at `config` (`None`: no config
/// directory). Prints the TOML to `out` (unless `write`) and the report to `err`; returns the
/// exit code (0 done, 1 nothing to import or the config does not load, 2 an I/O error).
pub fn run(
    from: Option<&Path>,
    write: bool,
    config: Option<PathBuf>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> std::io::Result<u8> {
    let Some(dir) = from
        .map(Path::to_path_buf)
        .or_else(|| k9s::config_dir(|k| std::env::var(k).ok()))
    else {
        writeln!(
            err,
            "ktui: no k9s directory (set K9S_CONFIG_DIR or use --from DIR)"
        )?;
        return Ok(1);
    };
    let files = k9s::read(&dir);
    if files.read.is_empty() && files.errors.is_empty() {
        writeln!(
            err,
            "ktui: no plugins.yaml, aliases.yaml nor hotkeys.yaml in {}",
            sanitize(&dir.display().to_string())
        )?;
        return Ok(1);
    }
    let path = config.unwrap_or_else(|| PathBuf::from("config.toml"));
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => {
            writeln!(err, "ktui: cannot read {}: {e}", path.display())?;
            return Ok(2);
        }
    };
    let result = match import(&files, &path, &text) {
        Ok(r) => r,
        Err(e) => {
            writeln!(err, "ktui: {}", sanitize(&e))?;
            return Ok(1);
        }
    };
    for line in &result.report {
        writeln!(err, "{}", sanitize(line))?;
    }
    if result.converted == 0 {
        writeln!(
            err,
            "ktui: nothing to import from {}",
            sanitize(&dir.display().to_string())
        )?;
        return Ok(1);
    }
    if !write {
        writeln!(
            out,
            "# Converted from k9s ({}) by `ktui import-k9s`.",
            sanitize(&dir.display().to_string())
        )?;
        out.write_all(result.fragment.as_bytes())?;
        return Ok(0);
    }
    match crate::runtime::files::write_private(&path, &result.merged, false) {
        Ok(()) => {
            writeln!(err, "wrote {} entries to {}", result.converted, path.display())?;
            Ok(0)
        }
        Err(e) => {
            writeln!(err, "ktui: cannot write {}: {e}", path.display())?;
            Ok(2)
        }
    }
}

#[cfg(test)]
mod tests;
