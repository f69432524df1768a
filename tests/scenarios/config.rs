//! The configuration as a user meets it: `config.example.toml` parses strictly and documents
//! the defaults, the built-in keymap names only real actions, user overrides change
//! dispatch, bad files give exact errors with their line, README documents every key, and the
//! `check-config` / `info` / `completions` subcommands of the real binary.

use std::path::Path;
use std::process::Command;

use ktui::config::{self, Config};
use ktui::keys::Action;
use ktui::keys::{KeyMode, KeyPress, Keymap, Lookup};

const EXAMPLE: &str = include_str!("../../config.example.toml");
const README: &str = include_str!("../../README.md");

/// The example with every option uncommented (`#key = v` → `key = v`; `# text` stays).
fn uncommented() -> String {
    EXAMPLE
        .lines()
        .map(|l| match l.strip_prefix('#') {
            Some(rest) if !rest.is_empty() && !rest.starts_with([' ', '#']) => rest,
            _ => l,
        })
        .collect::<Vec<_>>()
        .join("\n")
}

fn parse(text: &str) -> Result<Config, String> {
    config::parse(Path::new("config.toml"), text).map_err(|e| e.to_string())
}

#[test]
fn example_parses_strictly_to_the_defaults() {
    assert_eq!(parse(EXAMPLE).unwrap(), Config::default());
}

#[test]
fn example_with_every_option_uncommented_equals_the_defaults() {
    let text = uncommented();
    assert_ne!(text, EXAMPLE);
    let c = parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    let d = Config::default();
    assert_eq!(c.ui, d.ui);
    assert_eq!(c.events, d.events);
    assert_eq!(c.namespaces, d.namespaces);
    assert_eq!(c.log, d.log);
    // Open-ended tables hold examples, not defaults: they must parse and take effect.
    assert_eq!(c.aliases.get("web").map(String::as_str), Some("pods -l app=web"));
    assert_eq!(c.theme_for(Some("prod-eu")), "light");
    assert!(c.readonly_for(Some("prod-eu")));
    assert_eq!(c.favourites_for(Some("prod-eu")), ["shop", "payments"]);
    assert_eq!(
        c.plugins.len(),
        1,
        "the example plugin loads: {:?}",
        c.plugin_clashes
    );
    let km = c.keymap();
    assert_eq!(
        km.lookup(KeyMode::Normal, &[], key("q")),
        Lookup::Action(Action::Quit)
    );
    assert_eq!(km.lookup(KeyMode::Normal, &[], key("ctrl-w")), Lookup::None);
    assert_eq!(
        km.lookup(KeyMode::Normal, &[], key("W")),
        Lookup::Action(Action::ToggleWide)
    );
}

fn key(s: &str) -> KeyPress {
    KeyPress::parse(s).unwrap()
}

#[test]
fn every_run_in_the_keymap_asset_names_a_real_action() {
    let doc: toml::Table = toml::from_str(config::keymap::DEFAULT_KEYMAP).unwrap();
    let mut n = 0;
    for (mode, section) in &doc {
        for entry in section["bindings"].as_array().unwrap() {
            let run = entry["run"].as_str().unwrap();
            assert!(
                Action::from_name(run).is_some(),
                "[{mode}] run = {run:?} is not an action"
            );
            n += 1;
        }
    }
    let km = Keymap::defaults();
    assert_eq!(
        n,
        KeyMode::ALL
            .iter()
            .map(|(m, _)| km.bindings(*m).len())
            .sum::<usize>()
    );
}

#[test]
fn every_action_is_bound_by_default() {
    let km = Keymap::defaults();
    for (action, name) in Action::ALL {
        let bound = KeyMode::ALL
            .iter()
            .any(|(m, _)| km.bindings(*m).iter().any(|b| b.run == action));
        assert!(bound, "action {name} has no default key");
    }
}

#[test]
fn the_example_names_every_action() {
    let start = EXAMPLE.find("# Actions:").expect("the example lists the actions");
    let list: String = EXAMPLE[start..]
        .lines()
        .take_while(|l| l.starts_with("# "))
        .collect::<Vec<_>>()
        .join(" ");
    let words: Vec<&str> = list.split([' ', '.', '#']).collect();
    for (_, name) in Action::ALL {
        assert!(
            words.contains(&name),
            "config.example.toml's action list lacks {name}"
        );
    }
}

#[test]
fn a_user_override_changes_dispatch() {
    let c = parse("[keymap.normal]\nbindings = [\n  { on = \"j\", run = \"up\" },\n  { on = \"z z\", run = \"quit\" },\n]\n")
        .unwrap();
    let km = c.keymap();
    assert_eq!(
        km.lookup(KeyMode::Normal, &[], key("j")),
        Lookup::Action(Action::Up)
    );
    let Lookup::Pending(p) = km.lookup(KeyMode::Normal, &[], key("z")) else {
        panic!("z starts a chord")
    };
    assert_eq!(
        km.lookup(KeyMode::Normal, &p, key("z")),
        Lookup::Action(Action::Quit)
    );
    // The prompt keeps its defaults.
    assert_eq!(km.lookup(KeyMode::Prompt, &[], key("j")), Lookup::None);
}

#[test]
fn bad_files_give_the_exact_error_with_line() {
    let actions = Action::ALL.iter().map(|(_, n)| *n).collect::<Vec<_>>().join(", ");
    let unknown_action = format!(
        "config.toml:3:21: keymap.normal.bindings.run: unknown action \"jump\" (actions: {actions}, or \"none\" to unbind)"
    );
    let cases: [(&str, &str); 8] = [
        ("[ui]\nmax_fps = 0\n", "config.toml:2:11: ui.max_fps: max_fps must be 1 to 240, not 0"),
        (
            "[ui]\ntheme = \"solarized\"\n",
            "config.toml:2:9: ui.theme: unknown theme \"solarized\" (themes: dark, light, mono)",
        ),
        ("\n[ui]\nicons = \"yes\"\n", "config.toml:3:9: ui.icons: invalid type: string \"yes\", expected a boolean"),
        (
            "[ui]\ntheme = \"dark\"\nthem = \"light\"\n",
            "config.toml:3:1: ui.them: unknown field `them`, expected one of `theme`, `colors`, `max_fps`, \
             `default_view`, `icons`, `mouse`",
        ),
        (
            "[events]\nmax_age = \"a day\"\n",
            "config.toml:2:11: events.max_age: invalid duration \"a day\" (write e.g. \"90s\", \"15m\", \"24h\", \"7d\", \
             \"1h30m\")",
        ),
        (
            "[keymap.normal]\nbindings = [\n  { on = \"j\", run = \"jump\" },\n]\n",
            &unknown_action,
        ),
        (
            "[keymap.normal]\nbindings = [{ on = \"hyper-j\", run = \"up\" }]\n",
            "config.toml:2:20: keymap.normal.bindings.on: unknown key \"hyper-j\"",
        ),
        ("[colours]\n", "config.toml:1:2: colours: unknown field `colours`, expected one of `ui`, `keymap`, `events`, \
          `namespaces`, `aliases`, `log`, `context`, `logs`, `actions`, `watch`, `history`, `metrics`, `plugins`"),
    ];
    for (text, want) in cases {
        assert_eq!(parse(text).unwrap_err(), want, "for {text:?}");
    }
}

/// The `## Configuration` section of README.md.
fn readme_section() -> &'static str {
    let start = README
        .find("\n## Configuration\n")
        .expect("README has a Configuration section");
    let rest = &README[start + 1..];
    let end = rest[3..].find("\n## ").map_or(rest.len(), |i| i + 3);
    &rest[..end]
}

/// Dotted keys of a TOML table; names under `aliases` and `context` become `<name>`.
fn keys(prefix: &str, table: &toml::Table, out: &mut Vec<String>) {
    for (k, v) in table {
        let k = if matches!(prefix, "aliases" | "context") {
            "<name>"
        } else {
            k.as_str()
        };
        let dotted = if prefix.is_empty() {
            k.to_owned()
        } else {
            format!("{prefix}.{k}")
        };
        match v {
            toml::Value::Table(t) if !t.is_empty() => keys(&dotted, t, out),
            _ => out.push(dotted),
        }
    }
}

#[test]
fn readme_configuration_lists_every_key_of_the_example() {
    let doc: toml::Table = toml::from_str(&uncommented()).unwrap();
    let mut all = Vec::new();
    keys("", &doc, &mut all);
    assert!(all.len() >= 18, "{all:?}");
    let section = readme_section();
    let missing: Vec<&String> = all
        .iter()
        .filter(|k| !section.contains(&format!("`{k}`")))
        .collect();
    assert!(
        missing.is_empty(),
        "README's Configuration section lacks {missing:?}"
    );
}

fn ktui(args: &[&str], config_env: Option<&Path>) -> (i32, String, String) {
    let home = tempfile::tempdir().unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_ktui"));
    cmd.args(args)
        .env("HOME", home.path())
        .env("XDG_CONFIG_HOME", home.path())
        .env("XDG_STATE_HOME", home.path());
    cmd.env_remove("KTUI_CONFIG")
        .env_remove("NO_COLOR")
        .env("TERM", "xterm-256color")
        .env_remove("COLORTERM");
    if let Some(p) = config_env {
        cmd.env("KTUI_CONFIG", p);
    }
    let out = cmd.output().expect("run ktui");
    let s = |b: Vec<u8>| String::from_utf8(b).unwrap();
    (out.status.code().unwrap_or(-1), s(out.stdout), s(out.stderr))
}

#[test]
fn check_config_validates_and_exits_non_zero_on_errors() {
    let dir = tempfile::tempdir().unwrap();
    let example = Path::new(env!("CARGO_MANIFEST_DIR")).join("config.example.toml");
    let (code, out, _) = ktui(&["--config", example.to_str().unwrap(), "check-config"], None);
    assert_eq!(
        (code, out.trim()),
        (0, format!("{}: ok", example.display()).as_str())
    );

    let bad = dir.path().join("bad.toml");
    std::fs::write(&bad, "[ui]\nmax_fps = 0\n").unwrap();
    let (code, _, err) = ktui(&["check-config"], Some(&bad));
    assert_eq!(code, 1);
    assert_eq!(
        err.trim(),
        format!(
            "{}:2:11: ui.max_fps: max_fps must be 1 to 240, not 0",
            bad.display()
        )
    );

    let missing = dir.path().join("missing.toml");
    let (code, _, err) = ktui(&["check-config", "--config", missing.to_str().unwrap()], None);
    assert_eq!(code, 1);
    assert!(err.contains("missing.toml: cannot read config"), "{err}");
    // The UI itself refuses to start on a bad or missing --config, before touching the terminal.
    let (code, _, err) = ktui(&["--config", missing.to_str().unwrap()], None);
    assert_eq!(code, 1);
    assert!(
        err.starts_with("ktui: ") && err.contains("cannot read config"),
        "{err}"
    );

    // No file at the default place: defaults, fine.
    let (code, out, _) = ktui(&["check-config"], None);
    assert_eq!(code, 0);
    assert!(
        out.contains("ktui/config.toml: no such file; the defaults are in use"),
        "{out}"
    );
}

#[test]
fn info_prints_paths_and_theme() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("c.toml");
    std::fs::write(
        &cfg,
        "[ui]\ntheme = \"light\"\n[log]\nfile = \"/tmp/ktui-test.log\"\n",
    )
    .unwrap();
    let (code, out, _) = ktui(&["info", "--config", cfg.to_str().unwrap()], None);
    assert_eq!(code, 0, "{out}");
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], format!("config:  {}", cfg.display()));
    assert_eq!(lines[1], "log:     /tmp/ktui-test.log");
    assert!(
        lines[2].starts_with("state:   ") && lines[2].ends_with("ktui"),
        "{out}"
    );
    assert!(
        lines[3].starts_with("theme:   light (") && lines[3].ends_with("colours: 256"),
        "{out}"
    );
}

#[test]
fn completions_for_bash_zsh_and_fish() {
    for (shell, marker) in [
        ("bash", "complete -F"),
        ("zsh", "#compdef ktui"),
        ("fish", "complete -c ktui"),
    ] {
        let (code, out, err) = ktui(&["completions", shell], None);
        assert_eq!(code, 0, "{err}");
        assert!(out.contains(marker), "{shell}: {out}");
        assert!(
            out.contains("check-config") && out.contains("--config"),
            "{shell} completes subcommands and flags"
        );
    }
    let (code, _, _) = ktui(&["completions", "tcsh"], None);
    assert_ne!(code, 0);
}

/// A plugin whose key clashes is named by `check-config` with its key's line and column and
/// what it clashes with; the others load; the exit code says something was dropped.
#[test]
fn check_config_names_a_plugin_dropped_for_a_clash() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("c.toml");
    std::fs::write(
        &cfg,
        "[[plugins]]\nname = \"ok\"\nkey = \"ctrl-t\"\nscopes = [\"pods\"]\ncommand = \"true\"\n\n\
         [[plugins]]\nname = \"clash\"\nkey = \"shift-j\"\nscopes = [\"all\"]\ncommand = \"true\"\n",
    )
    .unwrap();
    let (code, out, err) = ktui(&["check-config"], Some(&cfg));
    assert_eq!(code, 1, "{out}{err}");
    assert!(
        out.contains("c.toml: 1 plugin dropped (above); the rest is in force"),
        "{out}"
    );
    assert!(
        err.starts_with(&format!(
            "{}:9:7: plugins.key: plugin \"clash\" dropped: key \"shift-j\" clashes with the binding \"J\" → jump_owner",
            cfg.display()
        )),
        "{err}"
    );
    let loaded = parse(&std::fs::read_to_string(&cfg).unwrap()).unwrap();
    assert_eq!(loaded.plugins.len(), 1);
}
