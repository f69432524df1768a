//! The layer table of README § Working on ktui as a test, row by row. Crates (`crates/*`):
//! each one's Cargo.toml names only the ktui crates below it and none of the terminal or
//! command-line crates the API side must not carry, so the compiler keeps those arrows.
//! Modules of the `ktui` package (`src/<module>.rs` and `src/<module>/**`): each names, through
//! `crate::` paths, only the modules its row allows, and the UI-free ones no terminal crate.
//! Over `src/` and `crates/`: no file past 500 lines, no `#[path]` (a module with children
//! owns a folder), every file opens with a `//!` line. Reads files as text (see `scan`); it
//! cannot see a path spelled through `super::super::…`: the crate boundaries and review
//! catch that one.

pub(super) mod scan;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use scan::{crate_modules, mentions, Needle};

/// One crate of the workspace: its folder under `crates/`, the ktui crates it may depend on,
/// and external crates it must not depend on.
struct CrateRow {
    dir: &'static str,
    may_use: &'static [&'static str],
    must_not: &'static [&'static str],
}

/// The terminal and command-line crates.
const UI_CRATES: &[&str] = &["ratatui", "crossterm", "clap", "clap_complete"];

/// README's layer table, the crate rows.
const CRATES: &[CrateRow] = &[
    CrateRow {
        dir: "kube",
        may_use: &[],
        must_not: UI_CRATES,
    },
    CrateRow {
        dir: "table",
        may_use: &["ktui-kube"],
        must_not: UI_CRATES,
    },
    CrateRow {
        dir: "view",
        may_use: &["ktui-kube", "ktui-table"],
        must_not: UI_CRATES,
    },
    CrateRow {
        dir: "detail",
        may_use: &["ktui-kube", "ktui-table"],
        must_not: UI_CRATES,
    },
    // The demo server keeps clap for `ktui demo-server`'s flags; never the terminal.
    CrateRow {
        dir: "sim",
        may_use: &["ktui-kube", "ktui-table", "ktui-view"],
        must_not: &["ratatui", "crossterm"],
    },
];

/// One module of the `ktui` package: the top-level modules it may name through `crate::`
/// (besides itself and the crates below, re-exported as `crate::kube`, `crate::table`, …)
/// and identifiers it must not mention.
struct ModuleRow {
    module: &'static str,
    may_use: &'static [&'static str],
    words: &'static [&'static str],
}

/// The lower layers as the `ktui` package re-exports them (`pub use ktui_kube as kube`, …).
const BELOW: &[&str] = &["kube", "table", "view", "detail", "text"];

/// README's layer table, the module rows of the `ktui` package.
const MODULES: &[ModuleRow] = &[
    ModuleRow {
        module: "keys",
        may_use: &[],
        words: &["ratatui"],
    },
    ModuleRow {
        module: "config",
        may_use: &["keys"],
        words: &["ratatui"],
    },
];

#[test]
fn each_crate_depends_only_on_the_layers_below_it() {
    let root = repo();
    let mut found = Vec::new();
    let dirs: BTreeSet<String> = std::fs::read_dir(root.join("crates"))
        .expect("read crates/")
        .map(|e| e.expect("dir entry").file_name().to_string_lossy().into_owned())
        .collect();
    let rows: BTreeSet<String> = CRATES.iter().map(|c| c.dir.to_owned()).collect();
    assert_eq!(
        dirs, rows,
        "every crate under crates/ has a row here and in the README"
    );
    for row in CRATES {
        let path = root.join("crates").join(row.dir).join("Cargo.toml");
        let text = std::fs::read_to_string(&path).expect("read Cargo.toml");
        let manifest: toml::Table = text.parse().expect("parse Cargo.toml");
        // Normal dependencies only: tests may reach further (a dev-dependency is no arrow).
        let deps = manifest
            .get("dependencies")
            .and_then(|d| d.as_table())
            .cloned()
            .unwrap_or_default();
        for name in deps.keys() {
            let ours = name.starts_with("ktui");
            if ours && !row.may_use.contains(&name.as_str()) {
                found.push(format!("crates/{}: depends on {name}", row.dir));
            }
            if row.must_not.contains(&name.replace('-', "_").as_str()) {
                found.push(format!("crates/{}: depends on {name}", row.dir));
            }
        }
    }
    assert!(
        found.is_empty(),
        "dependencies against the layer table:\n{}",
        found.join("\n")
    );
}

#[test]
fn each_module_names_only_what_its_row_allows() {
    let src = repo().join("src");
    let mut found = Vec::new();
    for row in MODULES {
        for file in layer_files(&src, row.module) {
            let text = std::fs::read_to_string(&file).expect("read source");
            let shown = file.strip_prefix(repo()).unwrap_or(&file).display().to_string();
            for (line, module) in crate_modules(&text) {
                let allowed = module == row.module
                    || row.may_use.contains(&module.as_str())
                    || BELOW.contains(&module.as_str());
                if !allowed {
                    found.push(format!("{shown}:{line}: crate::{module}"));
                }
            }
            let words: Vec<Needle> = row.words.iter().map(|w| Needle::Word(w)).collect();
            for hit in mentions(&text, &words) {
                found.push(format!("{shown}:{hit}"));
            }
        }
    }
    assert!(
        found.is_empty(),
        "imports against the layer table (README):\n{}",
        found.join("\n")
    );
}

#[test]
fn product_files_stay_small_own_their_folders_and_say_what_they_own() {
    let mut files = Vec::new();
    rust_files(&repo().join("src"), &mut files);
    rust_files(&repo().join("crates"), &mut files);
    assert!(
        files.len() > 100,
        "the walk found {} files: wrong root?",
        files.len()
    );
    let mut found = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file).expect("read source");
        let shown = file.strip_prefix(repo()).unwrap_or(&file).display().to_string();
        let lines = text.lines().count();
        if lines > MAX_LINES {
            found.push(format!("{shown}: {lines} lines (split it by concern)"));
        }
        if !text.starts_with("//!") {
            found.push(format!("{shown}: does not open with a `//!` line"));
        }
        for (i, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("#[path") {
                found.push(format!(
                    "{shown}:{}: #[path] (a module with children owns a folder)",
                    i + 1
                ));
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

/// The file-size limit of product code (design.md: split past ~400; never past this).
const MAX_LINES: usize = 500;

/// The checks above must fail on what they forbid: a module row against a made-up file.
#[test]
fn the_module_rule_sees_a_forbidden_import() {
    let sneaky = "//! x\nuse crate::{kube::key, ui::draw};\nfn f() { crate::runtime::run(); }";
    let names: Vec<String> = crate_modules(sneaky)
        .into_iter()
        .map(|(l, m)| format!("{l}:{m}"))
        .collect();
    assert_eq!(names, ["2:kube", "2:ui", "3:runtime"]);
}

/// The scanner itself: it must find each kind of mention, and not the look-alikes.
#[test]
fn the_scanner_finds_mentions_and_ignores_comments_strings_and_look_alikes() {
    let hits = |src: &str| mentions(src, UI);
    assert_eq!(hits("use ratatui::style::Style;"), ["1: ratatui"]);
    assert_eq!(
        hits("fn f() {\n    crossterm::terminal::size();\n}"),
        ["2: crossterm"]
    );
    assert_eq!(hits("use crate::app::keymap::Keymap;"), ["1: crate::app"]);
    assert_eq!(hits("pub fn k() -> crate::ui::theme::Theme {}"), ["1: crate::ui"]);
    assert_eq!(hits("use crate::{kube::key, app::Action};"), ["1: crate::app"]);
    assert_eq!(hits("use crate :: {\n    ui,\n    text,\n};"), ["1: crate::ui"]);
    assert_eq!(hits("use crate::{self as k, ui::{draw}};"), ["1: crate::ui"]);
    // Look-alikes and text that is not code.
    assert!(hits("use crate::uid::Uid; use crate::application; let ratatuix = 1;").is_empty());
    assert!(hits("//! Must never import `ratatui` or `crate::app`.").is_empty());
    assert!(hits("let x = 1; // crossterm would be wrong here").is_empty());
    assert!(hits("/* use crate::ui;\n   /* nested crate::app */ */ fn f() {}").is_empty());
    assert!(hits(r#"let s = "ratatui \" crate::app";"#).is_empty());
    assert!(hits(r##"let s = r#"crate::ui "quoted" crossterm"#;"##).is_empty());
    assert!(hits("let q = '\"'; let t = 'a'; fn g<'a>(x: &'a str) {}").is_empty());
    // Code after a literal or a comment on the same line still counts.
    assert_eq!(hits(r#"let s = "x"; use ratatui::Frame;"#), ["1: ratatui"]);
    assert_eq!(hits("/* c */ use crossterm::event;"), ["1: crossterm"]);
    assert_eq!(hits("let q = '\"'; use crate::app;"), ["1: crate::app"]);
}

/// What the scanner test looks for.
const UI: &[Needle] = &[
    Needle::Word("ratatui"),
    Needle::Word("crossterm"),
    Needle::CratePath("app"),
    Needle::CratePath("ui"),
];

fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// A module's files: `src/<module>.rs` and everything under `src/<module>/`.
fn layer_files(src: &Path, module: &str) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let root = src.join(format!("{module}.rs"));
    let dir = src.join(module);
    assert!(
        root.is_file() || dir.is_dir(),
        "module src/{module} not found: the test scans nothing"
    );
    if root.is_file() {
        files.push(root);
    }
    rust_files(&dir, &mut files);
    files
}

/// The `.rs` files under `dir`, recursively (nothing when `dir` does not exist).
pub(super) fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut paths: Vec<PathBuf> = entries.map(|e| e.expect("dir entry").path()).collect();
    paths.sort();
    for p in paths {
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
}
