//! Tests of `import-k9s` against the fixture k9s directory `tests/fixtures/k9s`: three
//! plugins in `plugins.yaml` (one clashing with a built-in key), one in `plugins/` that
//! pipes, aliases and hotkeys; the TOML produced loads, and `--write` adds it to a config.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};

use super::*;

fn fixture() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/k9s")
}

#[test]
fn three_plugins_import_and_the_clashing_one_is_reported() {
    let files = k9s::read(&fixture());
    assert!(files.errors.is_empty(), "{:?}", files.errors);
    let r = import(&files, Path::new("c.toml"), "").unwrap();
    let cfg = crate::config::parse(Path::new("c.toml"), &r.fragment).unwrap();
    assert!(cfg.plugin_clashes.is_empty());
    let mut names: Vec<&str> = cfg.plugins.iter().map(|p| p.name.as_str()).collect();
    names.sort();
    assert_eq!(names, ["node-shell", "stern"]);
    let by = |n: &str| cfg.plugins.iter().find(|p| p.name == n).unwrap();
    let stern = by("stern");
    assert_eq!(stern.key.get_ref().text, "ctrl-t");
    assert_eq!(stern.scopes, ["pods"]);
    assert_eq!(
        stern.args,
        [
            "--tail",
            "50",
            "$FILTER",
            "-n",
            "$NAMESPACE",
            "--context",
            "$CONTEXT"
        ]
    );
    assert_eq!(stern.description, "Logs <Stern>");
    assert!(!stern.background && !stern.readonly);
    let ns = by("node-shell");
    assert_eq!(ns.key.get_ref().text, "alt-s");
    assert!(ns.background && ns.confirm && !ns.readonly);
    assert_eq!(cfg.aliases["dp"], "deployments.apps");
    assert_eq!(cfg.aliases["pp"], "pods");
    assert_eq!(cfg.aliases["shift-0"], "pods");
    assert_eq!(cfg.aliases["hk1"], "deployments.apps", "through the alias dp");
    let report = r.report.join("\n");
    assert!(
        report.contains("not converted: plugin jump (plugins.yaml): key \"shift-j\" clashes with the binding \"J\" → jump_owner"),
        "{report}"
    );
    assert!(
        report.contains("not converted: plugin piped (extra.yaml): it pipes"),
        "{report}"
    );
    assert!(report.contains("converted plugin node-shell (plugins.yaml): field \"overwriteOutput\" ignored; counts as a write (k9s: dangerous)"), "{report}");
    assert!(
        report.contains("converted hotkey shift-0 (Shift-0) to alias :shift-0 → pods"),
        "{report}"
    );
    assert!(report.contains("alias :hk1 → deployments.apps"), "{report}");
    assert_eq!(r.converted, 2 + 3 + 2);
}

#[test]
fn names_the_config_has_are_refused_and_write_adds_the_rest() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    let existing = "[ui]\nicons = false\n\n[aliases]\npp = \"pods -A\"\n\n[[plugins]]\nname = \"stern\"\nkey = \"ctrl-g\"\nscopes = [\"pods\"]\ncommand = \"stern\"\n";
    std::fs::write(&path, existing).unwrap();
    std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    let code = run(Some(&fixture()), true, Some(path.clone()), &mut out, &mut err).unwrap();
    let err = String::from_utf8(err).unwrap();
    assert_eq!(code, 0, "{err}");
    assert!(out.is_empty());
    assert!(
        err.contains(
            "not converted: plugin stern (plugins.yaml): ktui's config already has a plugin by that name"
        ),
        "{err}"
    );
    assert!(
        err.contains(
            "not converted: alias pp (aliases.yaml): ktui's config already has an alias by that name"
        ),
        "{err}"
    );
    let text = std::fs::read_to_string(&path).unwrap();
    // Every line that was there still is, in order (the aliases go under `[aliases]`).
    let mut lines = text.lines();
    assert!(
        existing.lines().all(|l| lines.any(|m| m == l)),
        "nothing existing changes:\n{text}"
    );
    assert!(text.contains("[aliases]\ndp = \"deployments.apps\"\n"), "{text}");
    assert_eq!(text.matches("[aliases]").count(), 1, "{text}");
    let cfg = crate::config::parse(&path, &text).unwrap();
    assert_eq!(cfg.aliases["pp"], "pods -A");
    assert_eq!(cfg.aliases["dp"], "deployments.apps");
    let names: Vec<&str> = cfg.plugins.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["stern", "node-shell"]);
    assert!(!cfg.ui.icons);
    let mode = std::fs::metadata(&path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);
}

#[test]
fn without_write_the_toml_goes_to_stdout_and_a_new_config_is_not_created() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("config.toml");
    let (mut out, mut err) = (Vec::new(), Vec::new());
    assert_eq!(
        run(Some(&fixture()), false, Some(path.clone()), &mut out, &mut err).unwrap(),
        0
    );
    let out = String::from_utf8(out).unwrap();
    assert!(out.starts_with("# Converted from k9s"), "{out}");
    assert!(crate::config::parse(&path, &out).is_ok());
    assert!(!path.exists());
    let empty = tempfile::tempdir().unwrap();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    assert_eq!(
        run(Some(empty.path()), false, Some(path), &mut out, &mut err).unwrap(),
        1
    );
}
