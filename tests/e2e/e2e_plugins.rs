//! Plugins against `ktui --demo`: a config with two plugins — one in the background, one with
//! the terminal handed over — that append `$NAME $NAMESPACE $CONTEXT $COL-STATUS` to a file
//! when their keys are pressed on a pod row; the file holds the expanded values. With
//! `--readonly` the plugin not declared `readonly` is gone: its key does nothing and `?` does
//! not list it. The same through `ktui import-k9s --write` of a k9s `plugins.yaml` with three
//! plugins, one clashing with a built-in key.

use std::path::Path;
use std::time::Duration;

use crate::util::*;

/// The config: `note` (ctrl-t, background, read-only) and `mark` (ctrl-o, foreground, a
/// write); both append one line to `out` through `sh -c`, the values as `$1` (never as
/// shell text).
fn config(dir: &Path, out: &Path) -> std::path::PathBuf {
    let script = format!("printf '%s|%s\\n' \"$0\" \"$1\" >> '{}'", out.display());
    let text = format!(
        r#"[[plugins]]
name = "note"
key = "ctrl-t"
description = "note the pod"
scopes = ["pods"]
command = "sh"
args = ["-c", {script:?}, "bg", "$NAME $NAMESPACE $CONTEXT $COL-STATUS"]
background = true
readonly = true

[[plugins]]
name = "mark"
key = "ctrl-o"
description = "mark the pod"
scopes = ["po"]
command = "sh"
args = ["-c", {script:?}, "fg", "$NAME $NAMESPACE $CONTEXT $COL-STATUS"]
"#
    );
    let path = dir.join("config.toml");
    std::fs::write(&path, text).unwrap();
    path
}

/// ktui on the demo's shop namespace with `config`, filtered to its Running pods (a column term).
fn start(dir: &Path, config: &Path, extra: &[&str]) -> Ktui {
    let missing = dir.join("no-kubeconfig");
    let mut args = vec!["--demo", "-n", "shop", "--config", config.to_str().unwrap()];
    args.extend(extra);
    let mut k = ktui_sized(&missing, &args, 40, 160);
    k.wait_for("● live", SLOW);
    k.type_keys("/status:Running");
    k.press_enter();
    k.wait_until("Running pods only", SLOW, |s| {
        s.lines().any(|l| l.contains(" Running ")) && !s.contains("CrashLoopBackOff")
    });
    k
}

/// `?`, its lines filtered to the plugins' (`/plugin`).
fn help_filtered(k: &mut Ktui) {
    k.type_keys("?");
    k.wait_for("esc closes", SLOW);
    k.type_keys("/plugin");
    k.press_enter();
}

fn lines(out: &Path) -> Vec<String> {
    std::fs::read_to_string(out)
        .unwrap_or_default()
        .lines()
        .map(str::to_owned)
        .collect()
}

fn wait_lines(out: &Path, n: usize) -> Vec<String> {
    let end = std::time::Instant::now() + SLOW;
    loop {
        let l = lines(out);
        if l.len() >= n || std::time::Instant::now() > end {
            return l;
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn two_plugins_run_from_their_keys_with_the_variables_expanded() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let cfg = config(dir.path(), &out);
    let mut k = start(dir.path(), &cfg, &[]);
    help_filtered(&mut k);
    k.wait_until("both plugins in the help", SLOW, |s| {
        s.contains("note the pod (plugin note)") && s.contains("mark the pod (plugin mark)")
    });
    k.press_esc();
    k.press_esc();
    k.wait_gone("(plugin note)", SLOW);
    k.send("\x14"); // ctrl-t: in the background
    let got = wait_lines(&out, 1);
    assert_eq!(got.len(), 1, "{got:?}\n{}", k.dump());
    let (who, values) = got[0].split_once('|').unwrap();
    assert_eq!(who, "bg");
    let words: Vec<&str> = values.split(' ').collect();
    assert_eq!(words[1..], ["shop", "ktui-demo", "Running"], "{values}");
    let name = words[0];
    assert!(
        row_of(&k.screen(), name).is_some(),
        "{name} is a row:\n{}",
        k.screen()
    );
    k.wait_for("plugin note: exit code 0", SLOW);
    k.send("\x0f"); // ctrl-o: the terminal handed over
    let got = wait_lines(&out, 2);
    assert_eq!(
        got.get(1).map(String::as_str),
        Some(format!("fg|{values}").as_str()),
        "{got:?}"
    );
    k.wait_for("plugin mark: sh -c", SLOW);
    k.command("q");
    let (status, _) = k.wait_exit(SLOW).expect("ktui exits on :q");
    assert!(status.success(), "{status:?}");
}

#[test]
fn readonly_removes_the_plugin_not_declared_readonly() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let cfg = config(dir.path(), &out);
    let mut k = start(dir.path(), &cfg, &["--readonly"]);
    help_filtered(&mut k);
    k.wait_for("note the pod (plugin note)", SLOW);
    assert!(!k.screen().contains("plugin mark"), "{}", k.screen());
    k.press_esc();
    k.press_esc();
    k.wait_gone("(plugin note)", SLOW);
    k.send("\x0f"); // ctrl-o: nothing
    k.send("\x14"); // ctrl-t: still there
    let got = wait_lines(&out, 1);
    std::thread::sleep(Duration::from_millis(500));
    let got_later = lines(&out);
    assert_eq!(got.len(), 1, "{got:?}");
    assert_eq!(got_later, got, "the write plugin did not run");
    assert!(got[0].starts_with("bg|"), "{got:?}");
    k.command("q");
    let (status, _) = k.wait_exit(SLOW).expect("ktui exits on :q");
    assert!(status.success(), "{status:?}");
}

/// The issue's "done when": a k9s `plugins.yaml` with three plugins, one clashing with a
/// built-in key, goes through `ktui import-k9s --write`; the two others run from their keys
/// with the variables expanded; with `--readonly` both are gone (imported plugins count as
/// writes).
#[test]
fn a_k9s_plugins_yaml_imports_and_the_two_others_run_from_their_keys() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out");
    let k9s = dir.path().join("k9s");
    std::fs::create_dir_all(&k9s).unwrap();
    let script = format!("printf '%s|%s\\n' \"$0\" \"$1\" >> '{}'", out.display());
    let plugin = |name: &str, key: &str, background: bool| {
        format!(
            "  {name}:\n    shortCut: {key}\n    description: {name} it\n    scopes: [pods]\n    \
             command: sh\n    background: {background}\n    args:\n      - -c\n      - {script:?}\n      \
             - {name}\n      - $NAME $NAMESPACE $CONTEXT $COL-STATUS\n"
        )
    };
    let yaml = format!(
        "plugins:\n{}{}{}",
        plugin("note", "Ctrl-T", true),
        plugin("jump", "Shift-J", false),
        plugin("mark", "Ctrl-O", false)
    );
    std::fs::write(k9s.join("plugins.yaml"), yaml).unwrap();
    let home = dir.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let import = std::process::Command::new(env!("CARGO_BIN_EXE_ktui"))
        .args(["import-k9s", "--write", "--from"])
        .arg(&k9s)
        .env("HOME", &home)
        .env("XDG_CONFIG_HOME", &home)
        .env_remove("KTUI_CONFIG")
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&import.stderr);
    assert!(import.status.success(), "{report}");
    assert!(
        report.contains("converted plugin note (plugins.yaml)"),
        "{report}"
    );
    assert!(
        report.contains("converted plugin mark (plugins.yaml)"),
        "{report}"
    );
    assert!(
        report.contains(
            "not converted: plugin jump (plugins.yaml): key \"shift-j\" clashes with the binding \"J\""
        ),
        "{report}"
    );
    let cfg = home.join("ktui").join("config.toml");
    let mut k = start(dir.path(), &cfg, &[]);
    k.send("\x14"); // ctrl-t: note, in the background
    let got = wait_lines(&out, 1);
    assert_eq!(got.len(), 1, "{got:?}\n{}", k.dump());
    let (who, values) = got[0].split_once('|').unwrap();
    assert_eq!(who, "note");
    assert!(values.ends_with(" shop ktui-demo Running"), "{values}");
    k.wait_for("plugin note: exit code 0", SLOW);
    k.send("\x0f"); // ctrl-o: mark, with the terminal
    let got = wait_lines(&out, 2);
    assert_eq!(
        got.get(1).map(String::as_str),
        Some(format!("mark|{values}").as_str()),
        "{got:?}"
    );
    k.wait_for("plugin mark: sh -c", SLOW);
    k.command("q");
    assert!(k.wait_exit(SLOW).expect("ktui exits on :q").0.success());

    let mut k = start(dir.path(), &cfg, &["--readonly"]);
    help_filtered(&mut k);
    k.wait_for("help /plugin", SLOW);
    assert!(!k.screen().contains("(plugin "), "{}", k.screen());
    k.press_esc();
    k.press_esc();
    k.send("\x14");
    k.send("\x0f");
    std::thread::sleep(Duration::from_millis(1000));
    assert_eq!(lines(&out).len(), 2, "nothing ran in read-only mode");
    k.command("q");
    assert!(k.wait_exit(SLOW).expect("ktui exits on :q").0.success());
}
